// Tests of how the adapter reads its requests and writes its answers (lib/stdio.mjs; issue 29 §2):
// the answers to requests sent ahead go out together, in order, and nothing waits for input that
// has not come (harness/driver/README.md, "Pipelining": one request at a time still gets each
// answer at once); nothing answered is lost at `bye`, at the end of input or when the
// implementation ends the process. Then the two classes on their own, with a fake stream, a file
// and timers the test fires itself.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, test } from 'node:test';

import { ADAPTER, DOUBLE, PROTOCOL, capability, definition, invoke, outcome } from './driver.mjs';
import { Answers, HOLD_MS, RequestLines } from '../lib/stdio.mjs';

const live = new Set();
after(() => {
  for (const child of live) child.kill('SIGKILL');
});

/**
 * The adapter over `module`, with every chunk its stdout delivers kept as it came (`chunks`), when
 * it came (`times`, ms) and the response lines (`lines`); `linesUntil(n)` waits for n lines.
 */
function adapter(module = DOUBLE) {
  const child = spawn(process.execPath, [ADAPTER, module], { stdio: ['pipe', 'pipe', 'pipe'] });
  live.add(child);
  const state = { child, chunks: [], times: [], text: '', stderr: '' };
  const waiters = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    state.chunks.push(chunk);
    state.times.push(performance.now());
    state.text += chunk;
    for (const waiter of [...waiters]) waiter();
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => { state.stderr += chunk; });
  state.exited = new Promise((resolve) => child.on('exit', (code) => {
    live.delete(child);
    resolve(code);
  }));
  state.lines = () => state.text.split('\n').filter((line) => line !== '');
  state.linesUntil = (n, ms = 5000) => new Promise((resolve, reject) => {
    const check = () => {
      if (state.lines().length < n) return;
      clearTimeout(timer);
      waiters.splice(waiters.indexOf(check), 1);
      resolve(state.lines());
    };
    const timer = setTimeout(() => {
      waiters.splice(waiters.indexOf(check), 1);
      reject(new Error(`${state.lines().length} of ${n} answers in ${ms} ms; stderr:\n${state.stderr}`));
    }, ms);
    waiters.push(check);
    check();
  });
  return state;
}

const text = (requests) => requests.map((r) => `${JSON.stringify(r)}\n`).join('');

const HELLO = { cmd: 'hello', protocol: PROTOCOL };
const SETUP = { definition: definition([capability('double.hops', 'read')]) };

/** A whole case: start, a bind, twelve invocations each observed, finish (27 requests). */
function wholeCase(id) {
  const steps = [{ host: 'bind', capability: 'notes.list', as: 'b1', handler: { mode: 'scripted', settle: { return: {} } } }];
  for (let i = 1; i <= 12; i += 1) steps.push(invoke(`i${i}`, 'notes.list', {}), outcome(`i${i}`));
  return [
    { cmd: 'start', case: id, protocol: 'rcip', setup: { definition: definition(), options: { policy: { mode: 'scripted', settle: { return: { decision: 'allow' } } } } } },
    ...steps.map((step, index) => ({ cmd: 'step', index, step })),
    { cmd: 'finish' },
  ];
}

test('a burst of requests written at once is answered in order, in fewer writes than answers, as one by one', async () => {
  const requests = [HELLO, ...wholeCase('test.burst.001')];
  const burst = adapter();
  // The burst, then the beginning of one more request: its answers must not wait for the rest.
  burst.child.stdin.write(`${text(requests)}{"cmd":"hel`);
  const answers = await burst.linesUntil(requests.length);
  assert.equal(answers.length, requests.length, 'exactly one answer per request');
  // Read together, answered together: one write, or one more for every HOLD_MS the burst took
  // (an answer is never held longer: a loaded machine may split the burst). One write per answer,
  // as before issue 29 §2, gave 15 to 28 reads here for these 28 answers.
  const allowed = 2 + Math.floor((burst.times.at(-1) - burst.times[0]) / HOLD_MS);
  assert.ok(burst.chunks.length <= allowed && burst.chunks.length < requests.length,
    `the answers to requests read together went out together: ${requests.length} answers in ${burst.chunks.length} reads (at most ${allowed})`);
  burst.child.stdin.write(`lo","protocol":"${PROTOCOL}"}\n`);
  const more = await burst.linesUntil(requests.length + 1);
  assert.equal(JSON.parse(more.at(-1)).reply, 'hello', 'the request completed later is answered');
  burst.child.stdin.end();
  assert.equal(await burst.exited, 0);

  const single = adapter();
  for (const [i, request] of requests.entries()) {
    single.child.stdin.write(text([request]));
    // eslint-disable-next-line no-await-in-loop
    await single.linesUntil(i + 1);
  }
  single.child.stdin.end();
  assert.equal(await single.exited, 0);
  assert.deepEqual(answers, single.lines(), 'the same answers, byte for byte, as one request at a time');
  assert.equal(JSON.parse(answers.at(-2)).value.status, 'succeeded');
});

test('a request sent alone is answered while stdin stays open and nothing follows it', async () => {
  const d = adapter();
  d.child.stdin.write(text([HELLO]));
  assert.equal(JSON.parse((await d.linesUntil(1))[0]).reply, 'hello');
  d.child.stdin.write(text([{ cmd: 'start', case: 'test.alone.001', protocol: 'rcip', setup: SETUP }]));
  assert.deepEqual(JSON.parse((await d.linesUntil(2))[1]), { reply: 'done' });
  d.child.stdin.write(text([{ cmd: 'step', index: 0, step: invoke('i1', 'double.hops', {}) }]));
  assert.deepEqual(JSON.parse((await d.linesUntil(3))[2]), { reply: 'done' });
  d.child.stdin.write(text([{ cmd: 'bye' }]));
  assert.equal(await d.exited, 0);
  assert.equal(d.lines().length, 3, 'no answer to bye');
});

test('every answer before bye, or before the end of input, is written before the adapter ends', async () => {
  const requests = [HELLO, ...wholeCase('test.bye.001')];
  const withBye = adapter();
  // bye with stdin left open, and a request after it that is never answered.
  withBye.child.stdin.write(text([...requests, { cmd: 'bye' }, HELLO]));
  assert.equal(await withBye.exited, 0);
  assert.equal(withBye.lines().length, requests.length);
  const ended = adapter();
  ended.child.stdin.end(text(requests));
  assert.equal(await ended.exited, 0);
  assert.deepEqual(ended.lines(), withBye.lines());
});

test('an implementation that ends the process mid-burst: every answer before it is written', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rcip-node-adapter-exit-'));
  const module = path.join(dir, 'exits.mjs');
  fs.writeFileSync(module, [
    `import * as double from ${JSON.stringify(DOUBLE)};`,
    `export * from ${JSON.stringify(DOUBLE)};`,
    'export function createRcipRuntime(definition, options) {',
    "  if (definition.application.id === 'exit-now') process.exit(3);",
    '  return double.createRcipRuntime(definition, options);',
    '}',
    '',
  ].join('\n'));
  try {
    const before = [HELLO, ...wholeCase('test.exit.001')];
    const exiting = { cmd: 'start', case: 'test.exit.002', protocol: 'rcip', setup: { definition: definition([], { id: 'exit-now' }) } };
    const d = adapter(module);
    d.child.stdin.write(text([...before, exiting, ...wholeCase('test.exit.003')]));
    assert.equal(await d.exited, 3);
    const answers = d.lines();
    assert.equal(answers.length, before.length, `the ${before.length} answers before the exit, and none after: ${answers.length}`);
    assert.deepEqual(JSON.parse(answers.at(-1)), { reply: 'done' }, 'the finish before the exit is answered');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// ------------------------------------------------------------------------------------------------
// RequestLines and Answers on their own
// ------------------------------------------------------------------------------------------------

test('RequestLines: whole lines only, across chunk boundaries and split characters, CR LF, a last line without a newline', async () => {
  const input = new PassThrough();
  const lines = new RequestLines(input);
  const read = () => new Promise((resolve) => setImmediate(resolve));
  assert.equal(lines.hasLine(), false);
  assert.equal(lines.take(), undefined, 'nothing read: nothing to take, and not the end');
  let woken = false;
  const waiting = lines.more().then(() => { woken = true; });
  await read();
  assert.equal(woken, false, 'more() waits for input');
  const euro = Buffer.from('"€"');
  input.write(Buffer.concat([Buffer.from('{"a":1}\r\n{"b":'), euro.subarray(0, 2)]));
  await waiting;
  assert.equal(lines.hasLine(), true);
  assert.equal(lines.take(), '{"a":1}', 'the CR before the newline is not part of the line');
  assert.equal(lines.hasLine(), false, 'a partial line is not a line');
  assert.equal(lines.take(), undefined);
  input.write(Buffer.concat([euro.subarray(2), Buffer.from('}\n\n{"c":2}\n{"d"')]));
  await read();
  assert.equal(lines.take(), '{"b":"€"}', 'a character split between chunks is read whole');
  assert.equal(lines.take(), '');
  assert.equal(lines.hasLine(), true);
  assert.equal(lines.take(), '{"c":2}');
  assert.equal(lines.take(), undefined);
  input.end(':3}');
  await read();
  await read();
  await lines.more();
  assert.equal(lines.take(), '{"d":3}', 'at the end of input the rest is a line');
  assert.equal(lines.take(), null, 'then the end');
});

test('Answers: held until flushed, then written whole in one go; the timer flushes what waits too long', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rcip-node-answers-'));
  const file = path.join(dir, 'out');
  const fd = fs.openSync(file, 'w');
  const armed = [];
  const timers = {
    setTimeout: (callback, ms) => {
      const timer = { callback, ms, cleared: false, unref() {} };
      armed.push(timer);
      return timer;
    },
    clearTimeout: (timer) => { timer.cleared = true; },
  };
  try {
    const failures = [];
    const answers = new Answers(fd, timers, (error) => failures.push(error));
    answers.add('{"reply":"done"}');
    answers.add('{"reply":"threw"}');
    assert.equal(fs.readFileSync(file, 'utf8'), '', 'nothing is written while answers are held');
    assert.equal(armed.length, 1, 'one timer for the held answers');
    assert.ok(armed[0].ms > 0);
    answers.flush();
    assert.equal(fs.readFileSync(file, 'utf8'), '{"reply":"done"}\n{"reply":"threw"}\n');
    assert.equal(armed[0].cleared, true, 'a flush clears the timer');
    answers.flush();
    assert.equal(fs.readFileSync(file, 'utf8'), '{"reply":"done"}\n{"reply":"threw"}\n', 'nothing twice');
    answers.add('{"reply":"observed","value":"€"}');
    assert.equal(armed.length, 2);
    armed[1].callback();
    assert.equal(fs.readFileSync(file, 'utf8'), '{"reply":"done"}\n{"reply":"threw"}\n{"reply":"observed","value":"€"}\n',
      'an answer held too long is written by the timer');
    assert.deepEqual(failures, []);
    fs.closeSync(fd);
    const closed = new Answers(fd, timers, (error) => failures.push(error));
    closed.add('{"reply":"done"}');
    closed.flush();
    assert.equal(failures.length, 1, 'a failed write is reported, not thrown');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
