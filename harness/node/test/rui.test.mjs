// The Rixx UI path of the adapter (lib/rui.mjs): against a scripted double of the consumer surface
// (test/rui-double.mjs), every step maps to the right call with the right bytes, the host policy is
// gated and recorded, observations are what the consumer answered (its own codes included: the
// adapter never translates or decides), and a bad surface refuses the handshake; against the
// project's consumer (../rui-subject), the handshake declares rui and all four framings.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { Driver } from './driver.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const DOUBLE = path.join(here, 'rui-double.mjs');
const CONSUMER = path.join(here, '..', 'rui-subject', 'index.mjs');
const CATALOG = { id: 'demo@1.0.0', components: { Stack: { props: { type: 'object' }, children: true } } };

async function withDriver(module, body) {
  const driver = new Driver({ module });
  try {
    await body(driver);
  } finally {
    await driver.close();
  }
}

const start = (d, setup) => d.send({ cmd: 'start', case: 'rui.test.case.001', protocol: 'rui', setup });

test('a consumer-only module declares rui, its framings and limits; RCIP cases are unsupported', () => withDriver(DOUBLE, async (d) => {
  const hello = await d.hello();
  assert.deepEqual(hello.protocols, ['rui']);
  assert.deepEqual(hello.profiles, ['jsonl', 'websocket']);
  assert.equal(hello.limits.maxDepth, 16);
  assert.equal(hello.pipelining, true);
  assert.equal(hello.caseMarks, true);
  assert.equal(hello.conditionalRequests, true);
  assert.equal((await d.start({ definition: {} }, 'rcip')).reply, 'unsupported');
  assert.equal((await start(d, { framing: 'sse', catalog: CATALOG })).reply, 'unsupported', 'an undeclared framing');
  assert.equal((await start(d, { framing: 'jsonl', catalog: { id: 'throws', components: {} } })).reply, 'threw');
  const limits = { ...hello.limits, maxDepth: 5000 };
  assert.equal((await start(d, { framing: 'jsonl', catalog: CATALOG, limits })).reply, 'unsupported', 'RUI_LIMITS_UNSUPPORTED');
}));

test('feeds, the gated policy, dispatch and observations map one to one', () => withDriver(DOUBLE, async (d) => {
  await d.hello();
  assert.deepEqual(await start(d, { framing: 'jsonl', catalog: CATALOG, limits: { maxIdLength: 1, maxStringLength: 2, maxArrayLength: 3, maxDepth: 4, maxOperations: 5, maxTransactionBytes: 6 } }), { reply: 'done' });
  await d.act({ feed: 'bytes', data: { text: 'abcdef' }, chunks: [2, 1] });
  await d.act({ feed: 'bytes', data: { hex: 'ff0a' } });
  await d.act({ feed: 'end' });
  await d.act({ dispatch: 'action', as: 'x', node: 'r', prop: 'onPress' });
  assert.equal(await d.observe({ expect: 'dispatch', of: 'x' }), 'pending');
  assert.deepEqual(await d.observe({ expect: 'action-policy-calls' }), [{ node: 'r', prop: 'onPress', capabilityId: 'notes.open', input: { id: 1 } }]);
  assert.equal((await d.step({ gate: 'action-policy', call: 2, settle: { return: { decision: 'allow' } } })).reply, 'threw', 'a call never made');
  await d.act({ gate: 'action-policy', call: 1, settle: { return: { decision: 'allow' } } });
  assert.deepEqual(await d.observe({ expect: 'dispatch', of: 'x' }), { status: 'decided', decision: { decision: 'allow' } });
  const graph = await d.observe({ expect: 'graph' });
  assert.deepEqual(graph.nodes.r.props.calls, [
    { call: 'create', framing: 'jsonl', limits: { maxIdLength: 1, maxStringLength: 2, maxArrayLength: 3, maxDepth: 4, maxOperations: 5, maxTransactionBytes: 6 }, catalogId: 'demo@1.0.0' },
    { call: 'setActionPolicy' },
    { call: 'write', hex: '6162', isBytes: true },
    { call: 'write', hex: '63', isBytes: true },
    { call: 'write', hex: '646566', isBytes: true },
    { call: 'write', hex: 'ff0a', isBytes: true },
    { call: 'end' },
    { call: 'dispatch', node: 'r', prop: 'onPress' },
  ]);
  assert.deepEqual(await d.observe({ expect: 'data' }), { a: 2, b: 1 });
  assert.deepEqual(await d.observe({ expect: 'transactions' }), [{ code: 'OWN_CODE', result: 'rejected', transactionId: 't' }]);
  assert.deepEqual(await d.observe({ expect: 'frames' }), [
    { frame: 0, result: 'accepted' }, { frame: 1, result: 'quarantined', code: 'Q' }, { frame: 2, result: 'rejected', code: 'R' },
  ]);
  assert.equal((await d.step({ feed: 'message', data: { text: '[]' } })).reply, 'error', 'a message in a jsonl case');
}));

test('a step marked ifDone runs only after a done answer, and is skipped otherwise', () => withDriver(DOUBLE, async (d) => {
  // harness/driver/README.md, "Conditional requests".
  await d.hello();
  assert.deepEqual(await start(d, { framing: 'websocket', catalog: CATALOG }), { reply: 'done' });
  const message = (text, index) => ({ cmd: 'step', index, step: { feed: 'message', data: { text } }, ifDone: true });
  // Sent together, as the harness sends them ahead: the first follows `done` (the start).
  assert.deepEqual(await d.sendMany([message('[1]', 0), message('[2]', 1)]), [{ reply: 'done' }, { reply: 'done' }]);
  // A bytes feed in a WebSocket case is the adapter's `error`: the steps after it are skipped,
  // a chain of them too, and an unmarked step is performed as always.
  const [bytes, ...rest] = await d.sendMany([
    { cmd: 'step', index: 2, step: { feed: 'bytes', data: { text: 'x' } } },
    message('[3]', 3),
    message('[4]', 4),
    { cmd: 'step', index: 5, step: { feed: 'message', data: { text: '[5]' } } },
    message('[6]', 6),
  ]);
  assert.equal(bytes.reply, 'error');
  assert.deepEqual(rest, [{ reply: 'skipped' }, { reply: 'skipped' }, { reply: 'done' }, { reply: 'done' }]);
  const graph = await d.observe({ expect: 'graph' });
  const written = graph.nodes.r.props.calls.filter((c) => c.call === 'message').map((c) => Buffer.from(c.hex, 'hex').toString());
  assert.deepEqual(written, ['[1]', '[2]', '[5]', '[6]'], 'the implementation never saw the skipped messages');
}));

test('a module whose RUI_FRAMINGS names an unknown framing refuses the handshake', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rui-bad-'));
  const module = path.join(dir, 'bad.mjs');
  fs.writeFileSync(module, "export const RUI_FRAMINGS = ['ndjson'];\nexport function createRuiConsumer() { return {}; }\n");
  try {
    await withDriver(module, async (d) => {
      const hello = await d.hello();
      assert.equal(hello.reply, 'error');
      assert.match(hello.message, /RUI_FRAMINGS/);
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the project consumer declares rui and all four framings', () => withDriver(CONSUMER, async (d) => {
  const hello = await d.hello();
  assert.deepEqual(hello.protocols, ['rui']);
  assert.deepEqual(hello.profiles, ['jsonl', 'sse', 'websocket', 'json-seq']);
  assert.equal(hello.implementation.name, 'rui-consumer-js');
}));
