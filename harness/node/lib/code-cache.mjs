// A V8 code cache for the adapter's own CommonJS dependencies (issue 29 §2): jsdom, React,
// react-dom and fake-timers with everything they depend on, about 940 files compiled at every
// start of an adapter with --react (compiling them was a quarter of the start-up). Node 20 has no
// compile cache of its own (`module.enableCompileCache` came in Node 22), so these files, and only
// these, are compiled here with `vm.Script` and `cachedData`; the implementation's modules are
// never touched. The cache is written at exit when something was compiled afresh, and read at the
// next start.
//
// A cache never changes what runs: each entry is used only for a file whose text has the SHA-1
// it was made from (V8 itself checks no more than the length), the whole file carries a SHA-1 of
// its contents (V8 does not check its payload in release builds), and V8 rejects data made by
// another V8 or with other flags, which then compiles the text as usual. Anything wrong with the
// cache (missing, unreadable, corrupt, stale, a directory that cannot be written) only means
// compiling as without it. It lives in node_modules/.cache/rcip-node-adapter/ of the adapter
// (never in the repository, gone with a fresh `npm ci`), one file per Node version, architecture
// and command-line flags, and is replaced by a rename, so processes running at once read either
// the old file or the new one whole.

import crypto from 'node:crypto';
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

/** The adapter's own dependencies: these packages and all they depend on are cached. */
const ROOTS = ['jsdom', 'react', 'react-dom', '@sinonjs/fake-timers'];

const MAGIC = Buffer.from('rcip-node-adapter code cache 1\n');
const DIGEST = 20;

/**
 * The wrapper of a CommonJS module on a line of its own (`lineOffset: -1`), so that line and
 * column numbers in stack traces are those of the file, as with Node's own compilation.
 */
const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {\n';
const WRAPPER_END = '\n})';

function sha1(data) {
  return crypto.createHash('sha1').update(data).digest();
}

/**
 * The package directories (under `nodeModules`) of ROOTS and of what they depend on, transitively,
 * from their package.json files. A package nested in another one's node_modules is inside that
 * package's directory.
 */
function dependencyDirectories(nodeModules) {
  const directories = new Set();
  const queue = [...ROOTS];
  while (queue.length > 0) {
    const directory = path.join(nodeModules, queue.pop());
    if (directories.has(directory)) continue;
    let pkg;
    try {
      pkg = JSON.parse(fs.readFileSync(path.join(directory, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    directories.add(directory);
    for (const members of [pkg.dependencies, pkg.optionalDependencies, pkg.peerDependencies]) {
      if (members !== null && typeof members === 'object') queue.push(...Object.keys(members));
    }
  }
  return [...directories].map((directory) => directory + path.sep);
}

/** The entries of a cache file, by file name: `{ source, data }` (SHA-1 of the text, V8's data). */
function readCache(file) {
  const entries = new Map();
  let bytes;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return entries;
  }
  const body = MAGIC.length + DIGEST;
  if (bytes.length < body + 4 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return entries;
  if (!sha1(bytes.subarray(body)).equals(bytes.subarray(MAGIC.length, body))) return entries;
  try {
    const indexLength = bytes.readUInt32LE(body);
    const index = JSON.parse(bytes.toString('utf8', body + 4, body + 4 + indexLength));
    let offset = body + 4 + indexLength;
    for (const [name, source, length] of index) {
      entries.set(name, { source, data: bytes.subarray(offset, offset + length) });
      offset += length;
    }
    if (offset !== bytes.length) entries.clear();
  } catch {
    entries.clear();
  }
  return entries;
}

/**
 * Writes the entries `collect()` returns (a Map as readCache returns) to `file` through a
 * temporary file and a rename; errors are ignored. The temporary file is made first, so a
 * directory that cannot be written costs no serialising.
 */
function writeCache(file, collect) {
  const temporary = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  let fd;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fd = fs.openSync(temporary, 'wx');
  } catch {
    return;
  }
  try {
    const index = [];
    const blobs = [];
    for (const [name, { source, data }] of collect()) {
      index.push([name, source, data.length]);
      blobs.push(data);
    }
    const indexBytes = Buffer.from(JSON.stringify(index));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(indexBytes.length);
    const rest = Buffer.concat([length, indexBytes, ...blobs]);
    fs.writeFileSync(fd, Buffer.concat([MAGIC, sha1(rest), rest]));
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(temporary, file);
  } catch {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(temporary, { force: true });
  }
}

/** The `require` Node gives a CommonJS module (internal/modules/helpers makeRequireFunction). */
function makeRequire(module) {
  const require = function require(id) {
    return module.require(id);
  };
  function resolve(request, options) {
    if (typeof request !== 'string') throw new TypeError(`The "request" argument must be of type string. Received ${typeof request}`);
    return Module._resolveFilename(request, module, false, options);
  }
  resolve.paths = function paths(request) {
    if (typeof request !== 'string') throw new TypeError(`The "request" argument must be of type string. Received ${typeof request}`);
    return Module._resolveLookupPaths(request, module);
  };
  require.resolve = resolve;
  Object.defineProperty(require, 'main', { value: process.mainModule, writable: true, enumerable: true, configurable: true });
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}

/** How many files this process compiled with cache data V8 accepted, and how many afresh. */
export const codeCacheStats = { cached: 0, compiled: 0 };

/**
 * Compiles the adapter's CommonJS dependencies with the code cache from now on (Node 20 only:
 * the hook follows its `Module.prototype._compile`; other versions, or source maps turned on,
 * compile as usual). `nodeModules` is the adapter's node_modules (tests name another).
 */
export function installCodeCache(nodeModules = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'node_modules')) {
  if (process.versions.node.split('.')[0] !== '20' || process.sourceMapsEnabled) return;
  if (typeof Module.prototype._compile !== 'function' || typeof Module._resolveFilename !== 'function') return;
  try {
    // Node hands _compile the real path of each file.
    nodeModules = fs.realpathSync(nodeModules);
  } catch {
    return;
  }
  const flags = sha1(JSON.stringify([process.execArgv, process.env.NODE_OPTIONS ?? ''])).toString('hex').slice(0, 12);
  const file = path.join(nodeModules, '.cache', 'rcip-node-adapter', `code-${process.version}-${process.arch}-${flags}.bin`);
  const inNodeModules = nodeModules + path.sep;
  // Read at the first file of node_modules compiled: a process that loads none (no --react, no
  // React case) reads nothing.
  let covered;
  let entries;
  /** What this process compiled: the SHA-1 of the text and the script, by file name. */
  const compiled = new Map();
  let fresh = false;

  const compile = Module.prototype._compile;
  Module.prototype._compile = function compileWithCodeCache(content, filename, format) {
    if (format === 'module' || typeof content !== 'string' || typeof filename !== 'string' || !filename.startsWith(inNodeModules)) {
      return compile.call(this, content, filename, format);
    }
    if (covered === undefined) {
      covered = dependencyDirectories(nodeModules);
      entries = readCache(file);
    }
    if (!covered.some((directory) => filename.startsWith(directory))) return compile.call(this, content, filename, format);
    const source = sha1(content).toString('hex');
    const entry = entries.get(filename);
    const cachedData = entry !== undefined && entry.source === source ? entry.data : undefined;
    let script;
    try {
      script = new vm.Script(`${WRAPPER_START}${content}${WRAPPER_END}`, {
        filename,
        lineOffset: -1,
        cachedData,
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
    } catch {
      // Not a CommonJS body (an ES module loaded by require, a hashbang) or a syntax error:
      // Node's own compilation decides what that is.
      return compile.call(this, content, filename, format);
    }
    const afresh = cachedData === undefined || script.cachedDataRejected === true;
    fresh ||= afresh;
    codeCacheStats[afresh ? 'compiled' : 'cached'] += 1;
    compiled.set(filename, { source, script });
    const wrapper = script.runInThisContext();
    return Reflect.apply(wrapper, this.exports, [this.exports, makeRequire(this), this, filename, path.dirname(filename)]);
  };

  process.on('exit', () => {
    if (!fresh) return;
    // Every script compiled here, with the functions compiled since (V8 compiles lazily: data
    // made at exit rather than at load made both the start and the cases faster), and the entries
    // this process did not load (react-dom, when no case rendered).
    writeCache(file, () => {
      const next = new Map();
      for (const [name, entry] of entries) {
        if (!compiled.has(name)) next.set(name, entry);
      }
      for (const [name, { source, script }] of compiled) {
        try {
          next.set(name, { source, data: script.createCachedData() });
        } catch {
          // No data for this one: it compiles as usual next time.
        }
      }
      return next;
    });
  });
}
