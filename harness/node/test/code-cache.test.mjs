// Tests of the code cache of the adapter's own CommonJS dependencies (lib/code-cache.mjs; issue 29
// §2) on a node_modules made here: the cache is written at exit and used by the next process; a
// file whose text changed (even to the same length) runs its new text; a corrupt cache is ignored
// and written again; stack traces keep the file's own lines and columns; packages outside the
// dependencies of the adapter (the implementation's) are never compiled by it; two processes
// starting at once without a cache both work and leave a valid one; a cache directory that cannot
// be made changes nothing; and a module compiled through the cache sees itself, its `require` and
// its stack as with Node's own compilation.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const CODE_CACHE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'lib', 'code-cache.mjs');

/**
 * A node_modules holding `react` (one of the roots) that requires `dep-a` (its dependency), and
 * `other`, which nothing of the roots depends on; and a script that installs the cache over it,
 * loads all three and prints their values, the stack of an error thrown in react, and the stats.
 */
function fixture() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rcip-code-cache-'));
  const nodeModules = path.join(dir, 'node_modules');
  const write = (file, text) => {
    fs.mkdirSync(path.dirname(path.join(nodeModules, file)), { recursive: true });
    fs.writeFileSync(path.join(nodeModules, file), text);
  };
  write('react/package.json', JSON.stringify({ name: 'react', version: '0.0.0', dependencies: { 'dep-a': '1' } }));
  write('react/index.js', [
    "'use strict';",
    'function boom() {',
    "  throw new Error('boom');",
    '}',
    'exports.boom = boom;',
    "exports.value = require('dep-a').value + 1;",
    // What a module sees of itself and of its `require`, to compare with Node's own compilation.
    "const Module = require('module');",
    'exports.surface = {',
    '  self: this === exports, args: arguments.length, filename: __filename, dirname: __dirname,',
    '  id: module.id, loaded: module.loaded, paths: module.paths, parent: module.parent && module.parent.id,',
    '  keys: Object.keys(require), resolveKeys: Object.keys(require.resolve), main: require.main,',
    "  resolved: require.resolve('dep-a'), lookup: require.resolve.paths('dep-a'),",
    '  extensions: require.extensions === Module._extensions, cache: require.cache === Module._cache,',
    "  cached: Object.keys(require.cache).filter((name) => name.includes('dep-a')),",
    "  strict: (function () { return this === undefined; })(),",
    '};',
    '',
  ].join('\n'));
  write('dep-a/package.json', JSON.stringify({ name: 'dep-a', version: '1.0.0' }));
  write('dep-a/index.js', 'exports.value = 41;\n');
  write('other/package.json', JSON.stringify({ name: 'other', version: '1.0.0' }));
  write('other/index.js', 'exports.value = 7;\n');
  const script = path.join(dir, 'load.mjs');
  fs.writeFileSync(script, [
    `import { createRequire } from 'node:module';`,
    `import { codeCacheStats, installCodeCache } from ${JSON.stringify(pathToFileURL(CODE_CACHE).href)};`,
    `if (process.argv[2] !== 'plain') installCodeCache(${JSON.stringify(nodeModules)});`,
    `const require = createRequire(${JSON.stringify(path.join(dir, 'main.js'))});`,
    `const react = require('react');`,
    `let stack;`,
    `try { react.boom(); } catch (error) { stack = error.stack; }`,
    `console.log(JSON.stringify({ react: react.value, other: require('other').value, stack, surface: react.surface, stats: codeCacheStats }));`,
    '',
  ].join('\n'));
  const cacheDirectory = path.join(nodeModules, '.cache', 'rcip-node-adapter');
  const run = (...args) => new Promise((resolve, reject) => {
    execFile(process.execPath, [script, ...args], (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout));
    });
  });
  const cacheFiles = () => (fs.existsSync(cacheDirectory) ? fs.readdirSync(cacheDirectory) : []);
  return { dir, nodeModules, run, cacheDirectory, cacheFiles, write, cleanUp: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const majorNode = Number(process.versions.node.split('.')[0]);

test('the cache is written at exit and used by the next process; only the dependencies of the adapter use it', { skip: majorNode !== 20 && 'the code cache is made for Node 20 only' }, async () => {
  const f = fixture();
  try {
    const first = await f.run();
    assert.equal(first.react, 42);
    assert.equal(first.other, 7);
    assert.deepEqual(first.stats, { cached: 0, compiled: 2 }, 'react and dep-a compiled afresh; other is not the adapter\'s');
    assert.equal(f.cacheFiles().length, 1, `one cache file: ${f.cacheFiles()}`);
    assert.match(f.cacheFiles()[0], /^code-v20\.[0-9.]+-[a-z0-9]+-[0-9a-f]{12}\.bin$/);
    const second = await f.run();
    assert.deepEqual(second.stats, { cached: 2, compiled: 0 }, 'both from the cache');
    assert.equal(second.react, 42);
    assert.equal(second.stack, first.stack);
    assert.match(first.stack, /react[\\/]index\.js:3:9\)/, `the line and column of the throw in the file itself: ${first.stack}`);
    // Node's own compilation (no cache installed): the same module, the same require, the same stack.
    const plain = await f.run('plain');
    assert.deepEqual(plain.stats, { cached: 0, compiled: 0 });
    assert.deepEqual(first.surface, plain.surface);
    assert.deepEqual(second.surface, plain.surface);
    assert.equal(plain.surface.self, true);
    assert.equal(plain.surface.strict, true);
    assert.equal(first.stack, plain.stack);
  } finally {
    f.cleanUp();
  }
});

test('a file changed to a text of the same length runs its new text; the cache is renewed', { skip: majorNode !== 20 && 'the code cache is made for Node 20 only' }, async () => {
  const f = fixture();
  try {
    await f.run();
    f.write('dep-a/index.js', 'exports.value = 51;\n');
    const changed = await f.run();
    assert.equal(changed.react, 52, 'the new text of dep-a ran');
    assert.deepEqual(changed.stats, { cached: 1, compiled: 1 });
    assert.deepEqual((await f.run()).stats, { cached: 2, compiled: 0 });
  } finally {
    f.cleanUp();
  }
});

test('a corrupt or cut cache file is ignored and written again', { skip: majorNode !== 20 && 'the code cache is made for Node 20 only' }, async () => {
  const f = fixture();
  try {
    await f.run();
    const file = path.join(f.cacheDirectory, f.cacheFiles()[0]);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 10] ^= 0xff;
    fs.writeFileSync(file, bytes);
    const corrupt = await f.run();
    assert.equal(corrupt.react, 42);
    assert.deepEqual(corrupt.stats, { cached: 0, compiled: 2 }, 'nothing taken from a corrupt file');
    assert.deepEqual((await f.run()).stats, { cached: 2, compiled: 0 }, 'written again whole');
    fs.writeFileSync(file, fs.readFileSync(file).subarray(0, 100));
    const cut = await f.run();
    assert.equal(cut.react, 42);
    assert.deepEqual(cut.stats, { cached: 0, compiled: 2 });
  } finally {
    f.cleanUp();
  }
});

test('processes starting at once without a cache all work and leave a valid cache', { skip: majorNode !== 20 && 'the code cache is made for Node 20 only' }, async () => {
  const f = fixture();
  try {
    const runs = await Promise.all([f.run(), f.run(), f.run()]);
    for (const run of runs) assert.equal(run.react, 42);
    assert.equal(f.cacheFiles().length, 1, `no temporary file left: ${f.cacheFiles()}`);
    assert.deepEqual((await f.run()).stats, { cached: 2, compiled: 0 });
  } finally {
    f.cleanUp();
  }
});

test('a cache directory that cannot be made: everything still works, compiled as without a cache', { skip: majorNode !== 20 && 'the code cache is made for Node 20 only' }, async () => {
  const f = fixture();
  try {
    // A file where the directory would be (running as root, permissions would not stop it).
    fs.writeFileSync(path.join(f.nodeModules, '.cache'), 'not a directory');
    for (let i = 0; i < 2; i += 1) {
      // eslint-disable-next-line no-await-in-loop
      const run = await f.run();
      assert.equal(run.react, 42);
      assert.deepEqual(run.stats, { cached: 0, compiled: 2 });
    }
  } finally {
    f.cleanUp();
  }
});
