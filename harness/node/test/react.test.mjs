// The adapter's React path (profile react, vectors/README.md "React host") against the subject's
// React entry (../subject/react.mjs) and against test/react-double.mjs, a React entry with one
// chosen binding bug or one React warning: the handshake declares `react` only with the A08
// surface, each step renders under act, an abandoned render (suspended transition, boundary) is
// not published by a correct binding and is by a ref written during render, a server render binds
// nothing, and a warning React prints turns the step that caused it into an adapter error.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { Driver, gated, setup } from './driver.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const SUBJECT = path.join(here, '..', 'subject', 'index.mjs');
const SUBJECT_REACT = path.join(here, '..', 'subject', 'react.mjs');
const REACT_DOUBLE = path.join(here, 'react-double.mjs');

async function withReact(body, { entry = SUBJECT_REACT, bug } = {}) {
  // jsdom loads before the handshake answers: seconds on a busy machine.
  const driver = new Driver({ module: SUBJECT, args: ['--react', entry], env: bug === undefined ? {} : { RCIP_REACT_DOUBLE: bug }, timeoutMs: 60000 });
  try {
    await body(driver);
  } finally {
    await driver.close();
  }
}

const provider = (children, extra = {}) => ({ kind: 'provider', key: 'p', ...extra, children });
const cap = (key, state, extra = {}) => ({
  kind: 'capability', key, capability: 'notes.list', state, handler: { mode: 'returns-state' }, ...extra,
});
const render = (tree, extra = {}) => ({ react: 'render', tree, ...extra });
const call = (as) => ({ client: 'invoke', as, capability: 'notes.list', input: {}, invocationId: as });
const outcomeOf = (d, as) => d.observe({ expect: 'outcome', of: as });

test('the react profile is declared only with the A08 surface; --react naming another module refuses', async () => {
  const plain = new Driver({ module: SUBJECT });
  try {
    const hello = await plain.hello();
    assert.deepEqual(hello.profiles, ['events', 'assist'], 'index.mjs alone exports no React entry');
    assert.equal((await plain.start(setup(undefined, { react: { strictMode: true } }))).reply, 'unsupported');
    await plain.startOk(setup());
    assert.equal((await plain.step(render(provider([])))).reply, 'unsupported');
    assert.equal((await plain.step({ expect: 'boundary', key: 'b' })).reply, 'unsupported');
  } finally {
    await plain.close();
  }
  await withReact(async (d) => {
    assert.deepEqual((await d.hello()).profiles, ['events', 'assist', 'react']);
  });
  const wrong = new Driver({ module: SUBJECT, args: ['--react', SUBJECT], timeoutMs: 60000 });
  try {
    const hello = await wrong.hello();
    assert.equal(hello.reply, 'error');
    assert.match(hello.message, /does not export RcipProvider/);
  } finally {
    await wrong.close();
  }
});

test('Strict Mode render: one live binding whose execute reads the committed state; unmount unbinds', () => withReact(async (d) => {
  await d.startOk(setup(undefined, { react: { strictMode: true } }));
  await d.act(render(provider([cap('c', { n: 1 })])));
  await d.act(call('i1'));
  assert.deepEqual(await outcomeOf(d, 'i1'), { status: 'succeeded', invocationId: 'i1', capabilityId: 'notes.list', output: { state: { n: 1 } } });
  await d.act(render(provider([cap('c', { n: 2 })])));
  await d.act(call('i2'));
  assert.deepEqual((await outcomeOf(d, 'i2')).output, { state: { n: 2 } });
  assert.deepEqual(await d.observe({ expect: 'handler-states' }), [
    { capabilityId: 'notes.list', state: { n: 1 } }, { capabilityId: 'notes.list', state: { n: 2 } },
  ]);
  assert.equal((await d.observe({ expect: 'handler-calls' })).length, 2, 'capability elements are handler calls too');
  await d.act({ react: 'unmount' });
  await d.act(call('i3'));
  assert.equal((await outcomeOf(d, 'i3')).code, 'CAPABILITY_UNBOUND');
}));

test('a suspended transition is abandoned: the committed handler runs until the promise resolves', () => withReact(async (d) => {
  await d.startOk(setup(undefined, { react: { strictMode: false } }));
  await d.act(render(provider([cap('c', 1)])));
  await d.act(render(provider([cap('c', 2), { kind: 'suspend', key: 's', on: 'p1' }]), { transition: true }));
  await d.act(call('i1'));
  assert.deepEqual((await outcomeOf(d, 'i1')).output, { state: 1 });
  await d.act({ react: 'resolve', on: 'p1' });
  await d.act(call('i2'));
  assert.deepEqual((await outcomeOf(d, 'i2')).output, { state: 2 });
}));

test('a ref written during render publishes the abandoned render: the adapter shows it', () => withReact(async (d) => {
  await d.startOk(setup());
  await d.act(render(provider([cap('c', 1)])));
  await d.act(render(provider([cap('c', 2), { kind: 'suspend', key: 's', on: 'p1' }]), { transition: true }));
  await d.act(call('i1'));
  assert.deepEqual((await outcomeOf(d, 'i1')).output, { state: 2 }, 'the speculative handler ran');
}, { entry: REACT_DOUBLE, bug: 'ref-in-render' }));

test('boundaries: a hook outside every provider throws into its boundary; throw elements are caught', () => withReact(async (d) => {
  await d.startOk(setup(undefined, { react: { strictMode: true } }));
  await d.act(render([
    { kind: 'boundary', key: 'outside', children: { kind: 'client-user', key: 'u0' } },
    provider([
      { kind: 'client-user', key: 'u1' },
      { kind: 'boundary', key: 'b', children: [cap('c', 1), { kind: 'throw', key: 't' }] },
      { kind: 'boundary', key: 'quiet' },
    ]),
  ]));
  assert.equal(await d.observe({ expect: 'boundary', key: 'outside' }), 'caught');
  assert.equal(await d.observe({ expect: 'hook-client', key: 'u0' }), 'none');
  assert.equal(await d.observe({ expect: 'hook-client', key: 'u1' }), 'setup');
  assert.equal(await d.observe({ expect: 'boundary', key: 'b' }), 'caught');
  assert.equal(await d.observe({ expect: 'boundary', key: 'quiet' }), 'clear');
  assert.equal(await d.observe({ expect: 'boundary', key: 'never' }), 'none');
  await d.act(call('i1'));
  assert.equal((await outcomeOf(d, 'i1')).code, 'CAPABILITY_UNBOUND', 'the caught render committed nothing of c');
}));

test('context owners publish in effects and clear at unmount; snapshot users see the runtime', () => withReact(async (d) => {
  await d.startOk(setup());
  const owner = (children) => ({ kind: 'context-owner', key: 'o', context: { activeScopeIds: ['notes'], primaryScopeId: 'notes' }, children });
  await d.act(render(provider([owner([{ kind: 'snapshot-user', key: 's' }])])));
  const seen = await d.observe({ expect: 'hook-snapshot', key: 's' });
  const now = await d.observe({ expect: 'snapshot' });
  assert.deepEqual(seen, now, 'the snapshot user re-rendered with the published context');
  assert.deepEqual(now.context, { activeScopeIds: ['notes'], primaryScopeId: 'notes' });
  await d.act(render(provider([{ kind: 'snapshot-user', key: 's' }])));
  assert.deepEqual((await d.observe({ expect: 'snapshot' })).context, { activeScopeIds: [] });
}));

test('server render binds nothing; hydration binds in effects', () => withReact(async (d) => {
  await d.startOk(setup());
  const tree = provider([cap('c', 1, { handler: gated }), { kind: 'snapshot-user', key: 's' }]);
  await d.act({ react: 'server-render', tree });
  assert.equal(await d.observe({ expect: 'hook-snapshot', key: 's' }), 'none');
  await d.act(call('i1'));
  assert.equal((await outcomeOf(d, 'i1')).code, 'CAPABILITY_UNBOUND');
  await d.act({ react: 'hydrate', tree });
  await d.act(call('i2'));
  assert.equal(await outcomeOf(d, 'i2'), 'pending');
  await d.act({ gate: 'handler', call: 1, settle: { return: { ok: true } } });
  assert.deepEqual((await outcomeOf(d, 'i2')).output, { ok: true });
}));

test('a React warning makes the step that caused it an adapter error, never a pass', () => withReact(async (d) => {
  await d.startOk(setup());
  const reply = await d.step(render(provider([cap('c', 1)])));
  assert.equal(reply.reply, 'error');
  assert.match(reply.message, /React console\.error: Each child in a list should have a unique "key" prop/);
  assert.ok(await d.stderrUntil((text) => /unique "key" prop/.test(text)), 'the warning still reaches stderr');
  assert.deepEqual(await d.step({ expect: 'boundary', key: 'x' }), { reply: 'observed', value: 'none' }, 'the adapter carries on');
}, { entry: REACT_DOUBLE, bug: 'keyless-children' }));

test('values keep their identity while their JSON is unchanged (an effect keyed on the context object)', () => withReact(async (d) => {
  await d.startOk(setup());
  const outer = (children) => ({ kind: 'context-owner', key: 'outer', context: { activeScopeIds: ['notes'] }, children });
  await d.act(render(provider([outer([])])));
  await d.act(render(provider([outer([{ kind: 'context-owner', key: 'inner', context: { activeScopeIds: ['settings'] } }])])));
  assert.deepEqual((await d.observe({ expect: 'snapshot' })).context, { activeScopeIds: ['settings'] },
    'the outer owner got the very same context object, so its effect did not publish again');
}, { entry: REACT_DOUBLE, bug: 'none' }));

test('an error no boundary catches makes the react step answer threw; the root is gone', () => withReact(async (d) => {
  await d.startOk(setup());
  await d.act(render(provider([cap('c', 1), { kind: 'client-user', key: 'u' }])));
  assert.deepEqual(await d.step(render(provider([cap('c', 2), { kind: 'throw', key: 't' }]))), { reply: 'threw' });
  assert.ok(await d.stderrUntil((text) => /React reported an uncaught error: .*throw element t/.test(text)), `stderr: ${JSON.stringify(d.stderr)}`);
  await d.act(call('i1'));
  assert.equal((await outcomeOf(d, 'i1')).code, 'CAPABILITY_UNBOUND', 'React unmounted the whole root');
  assert.equal(await d.observe({ expect: 'hook-client', key: 'u' }), 'setup', 'u committed once');
}));

test('a server render whose tree throws answers threw; hydrate then has no markup (adapter error)', () => withReact(async (d) => {
  await d.startOk(setup());
  assert.deepEqual(await d.step({ react: 'server-render', tree: provider([{ kind: 'throw', key: 't' }]) }), { reply: 'threw' });
  assert.equal((await d.step({ react: 'hydrate', tree: provider([]) })).reply, 'error');
}));

test('a hydration mismatch (React recovers by rendering anew) is an adapter error, never a pass', () => withReact(async (d) => {
  await d.startOk(setup());
  await d.act({ react: 'server-render', tree: provider([cap('c', 1)]) });
  const reply = await d.step({ react: 'hydrate', tree: provider([{ kind: 'snapshot-user', key: 'other' }]) });
  assert.equal(reply.reply, 'error');
  assert.match(reply.message, /React recoverable error|React console\.error/);
}));
