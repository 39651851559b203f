// Tests of adapter.mjs against the scripted test double (test/double.mjs): for every step and
// observation of vectors/README.md ("RCIP setup", "RCIP steps", "Values"), the adapter makes the
// API call the vocabulary names with the right arguments (read from the double's journal), turns
// escapes into the right JavaScript values, settles the right promise at a gate, moves the
// virtual clock, and answers with canonical JSON; plus the handshake, `bye`, and error replies to
// malformed requests after which the adapter keeps working.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import {
  ALLOW, DOUBLE_ASSIST, Driver, PROTOCOL, allowPolicy, bind, capability, definition, gated, gatedPolicy,
  invoke, outcome, returns, setup,
} from './driver.mjs';
import { reachableStrings } from '../lib/rcip.mjs';
import { fromWire } from '../lib/values.mjs';

const SECRET = 'host-secret-7f3a';

async function withDriver(body, options) {
  const driver = new Driver(options);
  try {
    await body(driver);
  } finally {
    await driver.close();
  }
}

// ------------------------------------------------------------------------------------------------
// Handshake, framing, bye
// ------------------------------------------------------------------------------------------------

test('handshake declares rcip, the events profile, no limits, no Assist bound, pipelining, case marks and conditional requests', () => withDriver(async (d) => {
  assert.deepEqual(await d.hello(), {
    reply: 'hello',
    protocol: PROTOCOL,
    implementation: { name: 'rcip-conformance-node-adapter', version: '0.1.0', language: 'javascript' },
    protocols: ['rcip'],
    profiles: ['events'],
    limits: null,
    assistBatchBound: null,
    pipelining: true,
    caseMarks: true,
    conditionalRequests: true,
  });
}));

test('handshake with another driver protocol version is an error naming both', () => withDriver(async (d) => {
  const reply = await d.send({ cmd: 'hello', protocol: 'rcip-rui-driver/9' });
  assert.equal(reply.reply, 'error');
  assert.match(reply.message, /rcip-rui-driver\/1/);
  assert.match(reply.message, /rcip-rui-driver\/9/);
  assert.equal((await d.hello()).reply, 'hello');
}));

test('--name and --version override the implementation description', () => withDriver(async (d) => {
  const hello = await d.hello();
  assert.deepEqual(hello.implementation, { name: 'my-rcip', version: '2.3.0', language: 'javascript' });
}, { args: ['--name', 'my-rcip', '--version', '2.3.0'] }));

test('a module without createRcipAssist does not declare assist; Assist setups and steps are unsupported', () => withDriver(async (d) => {
  const hello = await d.hello();
  assert.ok(!hello.profiles.includes('assist'));
  assert.equal(hello.assistBatchBound, null);
  assert.equal((await d.start(setup(allowPolicy, { assist: { batchBound: 3 } }))).reply, 'unsupported');
  assert.deepEqual(await d.start(setup(allowPolicy)), { reply: 'done' });
  for (const step of [
    { client: 'assist-turn', as: 't1', mode: 'default', messages: [] },
    { gate: 'assist', call: 1, settle: { text: 'hi' } },
    { host: 'resolve-confirmation', as: 'r1', confirmation: { turn: 't1', action: 1 }, approved: true },
    { expect: 'assist-turn', of: 't1' },
  ]) {
    assert.equal((await d.step(step)).reply, 'unsupported', JSON.stringify(step));
  }
}));

test('a module without the RCIP exports refuses the handshake with an error', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rcip-node-adapter-empty-'));
  const module = path.join(dir, 'empty.mjs');
  fs.writeFileSync(module, 'export const nothing = 1;\n');
  try {
    await withDriver(async (d) => {
      const reply = await d.hello();
      assert.equal(reply.reply, 'error');
      assert.match(reply.message, /createRcipRuntime/);
    }, { module });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('bye ends the adapter with status 0 and no answer; so does the end of stdin', async () => {
  const first = new Driver();
  assert.equal((await first.hello()).reply, 'hello');
  first.child.stdin.write(`${JSON.stringify({ cmd: 'bye' })}\n`);
  assert.equal(await first.exited, 0);
  assert.deepEqual(first.lines, [], 'nothing is written after bye');
  await first.close();
  const second = new Driver();
  assert.equal((await second.hello()).reply, 'hello');
  second.child.stdin.end();
  assert.equal(await second.exited, 0);
  await second.close();
});

test('malformed requests get an error reply and the adapter keeps working', () => withDriver(async (d) => {
  assert.equal((await d.sendLine('this is not json')).reply, 'error');
  assert.equal((await d.sendLine('[1, 2]')).reply, 'error');
  assert.equal((await d.sendLine('null')).reply, 'error');
  assert.equal((await d.send({ cmd: 'dance' })).reply, 'error');
  assert.equal((await d.send({ cmd: 'step', index: 0, step: { host: 'refresh' } })).reply, 'error', 'a step before any start');
  assert.equal((await d.hello()).reply, 'hello');
  assert.deepEqual(await d.start(setup(allowPolicy)), { reply: 'done' });
  assert.equal((await d.step({ host: 'fly' })).reply, 'error', 'an unknown step');
  assert.equal((await d.step({ juggle: 'x' })).reply, 'error', 'a step of no kind');
  assert.equal((await d.step({ host: 'refresh', client: 'list', as: 'l' })).reply, 'error', 'two kinds');
  assert.equal((await d.step({ host: 'refresh', colour: 'red' })).reply, 'error', 'an unknown member');
  assert.equal((await d.step({ client: 'invoke', as: 'i1', capability: 'notes.list' })).reply, 'error', 'a missing member');
  assert.equal((await d.step(outcome('never-made'))).reply, 'error', 'an unknown handle');
  assert.equal((await d.step(invoke('i1', 'notes.list', { v: { $value: 'mystery' } }))).reply, 'error', 'an unknown escape');
  assert.equal((await d.start({ definition: definition(), extra: 1 })).reply, 'error', 'an unknown setup member');
  assert.deepEqual(await d.start(setup(allowPolicy)), { reply: 'done' });
  await d.act(bind('notes.list', 'b1', returns({})));
  await d.act(invoke('i1', 'notes.list', {}));
  assert.equal((await d.observe(outcome('i1'))).status, 'succeeded');
  assert.deepEqual(await d.send({ cmd: 'finish' }), { reply: 'done' });
}));

test('the rui protocol is unsupported by this adapter', () => withDriver(async (d) => {
  await d.hello();
  const reply = await d.start({ framing: 'jsonl' }, 'rui');
  assert.equal(reply.reply, 'unsupported');
}));

test('each start is marked on stderr before anything the case writes (harness/driver/README.md, "Sending cases ahead")', () => withDriver(async (d) => {
  await d.hello();
  const mark = '\x1ercip-rui-driver start test.case.001\n';
  assert.equal(d.stderr.includes(mark), false, 'no mark before a start');
  assert.deepEqual(await d.start({ definition: definition([], { id: 'chatty' }) }), { reply: 'done' });
  const chatty = 'chatty implementation writes to stdout';
  assert.ok(await d.stderrUntil((text) => text.includes(chatty)), `the implementation's words are on stderr: ${JSON.stringify(d.stderr)}`);
  const at = d.stderr.indexOf(mark);
  assert.ok(at >= 0, `the mark is on stderr: ${JSON.stringify(d.stderr)}`);
  assert.ok(d.stderr.indexOf(chatty) > at, 'what the implementation writes at creation follows the mark');
  assert.deepEqual(await d.send({ cmd: 'finish' }), { reply: 'done' });
  assert.deepEqual(await d.start({ definition: definition() }), { reply: 'done' });
  await d.stderrUntil((text) => text.split(mark).length - 1 >= 2);
  assert.equal(d.stderr.split(mark).length - 1, 2, 'one mark per start');
}));

test('whatever the implementation prints goes to stderr, never between response lines', () => withDriver(async (d) => {
  await d.hello();
  const s = { definition: definition([], { id: 'chatty' }) };
  assert.deepEqual(await d.start(s), { reply: 'done' });
  assert.equal((await d.observe({ expect: 'events' })).length, 0);
  assert.ok(await d.stderrUntil((text) => /chatty implementation writes to stdout/.test(text)), `stderr: ${JSON.stringify(d.stderr)}`);
  assert.ok(await d.stderrUntil((text) => /and writes raw bytes too/.test(text)), `stderr: ${JSON.stringify(d.stderr)}`);
}));

// ------------------------------------------------------------------------------------------------
// Setup
// ------------------------------------------------------------------------------------------------

test('setup builds the definition with the define* helpers, then createRcipRuntime', () => withDriver(async (d) => {
  await d.startOk({ definition: definition() });
  const journal = d.journal();
  assert.deepEqual(journal.map((e) => e.call), [
    'defineRcipScope', 'defineRcipScope',
    'defineRcipCapability', 'defineRcipCapability', 'defineRcipCapability', 'defineRcipCapability', 'defineRcipCapability',
    'defineRcipApplication', 'createRcipRuntime',
  ]);
  assert.deepEqual(journal[0].scope, definition().scopes[0]);
  assert.deepEqual(journal[2].capability, definition().capabilities[0]);
  assert.deepEqual(journal[7].definition, definition());
  assert.equal(journal[8].argumentCount, 1, 'no options member: createRcipRuntime(definition)');
  assert.equal(journal[8].now, 0, 'the virtual clock starts at 0');
}));

test('options: policy absent/gated/scripted, confirmationTtlMs, createId, events', () => withDriver(async (d) => {
  await d.startOk(setup({ policy: { mode: 'absent' } }));
  assert.deepEqual(d.calls('createRcipRuntime')[0].options, {}, 'absent: no policy member');
  await d.startOk(setup({ ...gatedPolicy, confirmationTtlMs: 1234, createId: 'sequential', events: 'records' }));
  assert.deepEqual(d.calls('createRcipRuntime')[0].options, {
    policy: { '#': 'function' }, confirmationTtlMs: 1234, createId: { '#': 'function' }, onEvent: { '#': 'function' },
  });
  await d.startOk(setup(allowPolicy));
  assert.deepEqual(d.calls('createRcipRuntime')[0].options, { policy: { '#': 'function' } });
}));

test('createId sequential counts per prefix from 1, per runtime and per case', () => withDriver(async (d) => {
  const s = setup({ policy: { mode: 'scripted', settle: { return: { decision: 'confirm' } } }, createId: 'sequential' });
  await d.startOk(s);
  await d.act(bind('notes.delete', 'b1', returns({})));
  await d.act({ client: 'invoke', as: 'i1', capability: 'notes.delete', input: {} });
  await d.act({ client: 'invoke', as: 'i2', capability: 'notes.delete', input: {} });
  const first = await d.observe(outcome('i1'));
  const second = await d.observe(outcome('i2'));
  assert.equal(first.invocationId, 'invocation-1');
  assert.equal(first.confirmation.id, 'confirmation-1');
  assert.equal(second.invocationId, 'invocation-2');
  assert.equal(second.confirmation.id, 'confirmation-2');
  await d.act({ host: 'create-runtime', as: 'rt2' });
  await d.act({ ...bind('notes.delete', 'b2', returns({})), runtime: 'rt2' });
  await d.act({ client: 'invoke', as: 'i3', capability: 'notes.delete', input: {}, runtime: 'rt2' });
  assert.equal((await d.observe(outcome('i3'))).invocationId, 'invocation-1', 'a second runtime counts from 1');
  await d.startOk(s);
  await d.act(bind('notes.delete', 'b1', returns({})));
  await d.act({ client: 'invoke', as: 'i1', capability: 'notes.delete', input: {} });
  assert.equal((await d.observe(outcome('i1'))).invocationId, 'invocation-1', 'a new case counts from 1');
}));

test('createId host-prefixed returns host-${prefix}-${n}, counted as sequential is', () => withDriver(async (d) => {
  await d.startOk(setup({ policy: { mode: 'scripted', settle: { return: { decision: 'confirm' } } }, createId: 'host-prefixed' }));
  await d.act(bind('notes.delete', 'b1', returns({})));
  await d.act({ client: 'invoke', as: 'i1', capability: 'notes.delete', input: {} });
  await d.act({ client: 'invoke', as: 'i2', capability: 'notes.delete', input: {} });
  const first = await d.observe(outcome('i1'));
  assert.equal(first.invocationId, 'host-invocation-1');
  assert.equal(first.confirmation.id, 'host-confirmation-1');
  assert.equal((await d.observe(outcome('i2'))).invocationId, 'host-invocation-2');
  assert.equal((await d.start(setup({ ...allowPolicy, createId: 'random' }))).reply, 'error', 'an unknown createId form');
}));

test('invoke-malformed passes the malformed argument literally; a throw is threw', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act(bind('notes.list', 'b1', returns({})));
  d.journal();
  assert.deepEqual(await d.step({ client: 'invoke-malformed', as: 'm1', request: 'undefined' }), { reply: 'threw' });
  assert.equal(await d.observe(outcome('m1')), 'threw');
  assert.deepEqual(await d.step({ client: 'invoke-malformed', as: 'm2', request: 'null' }), { reply: 'threw' });
  assert.deepEqual(await d.step({ client: 'invoke-malformed', as: 'm3', request: 'not-an-object' }), { reply: 'threw' });
  const [none, nul, number] = d.calls('invoke');
  assert.equal(none.argumentCount, 0, 'invoke() with no argument at all');
  assert.deepEqual([nul.argumentCount, nul.request], [1, null]);
  assert.deepEqual([number.argumentCount, number.request], [1, 42]);
  await d.act({ client: 'invoke-malformed', as: 'm4', request: 'capability-id-not-string', input: { a: 1 } });
  await d.act({ client: 'invoke-malformed', as: 'm5', request: 'input-absent', capability: 'notes.list' });
  await d.act({ client: 'invoke-malformed', as: 'm6', request: 'invocation-id-not-string', capability: 'notes.list', input: {} });
  await d.act({ client: 'invoke-malformed', as: 'm7', request: 'signal-not-abort-signal', capability: 'notes.list', input: {} });
  const [wrongId, noInput, numericId, fakeSignal] = d.calls('invoke');
  assert.deepEqual(wrongId.request, { capabilityId: 42, input: { a: 1 } });
  assert.deepEqual(noInput.keys, ['capabilityId']);
  assert.deepEqual(numericId.request, { capabilityId: 'notes.list', input: {}, invocationId: 42 });
  assert.deepEqual(fakeSignal.request, { capabilityId: 'notes.list', input: {}, signal: {} });
  assert.equal(fakeSignal.signalIsAbortSignal, false);
  assert.equal((await d.observe(outcome('m6'))).invocationId, 42, 'the outcome as the implementation gave it');
  for (const bad of [
    { client: 'invoke-malformed', as: 'x1', request: 'nope' },
    { client: 'invoke-malformed', as: 'x2', request: 'null', capability: 'notes.list' },
    { client: 'invoke-malformed', as: 'x3', request: 'input-absent' },
    { client: 'invoke-malformed', as: 'x4', request: 'input-absent', capability: 'notes.list', input: {} },
  ]) {
    assert.equal((await d.step(bad)).reply, 'error', JSON.stringify(bad));
  }
}));

test('resolve-confirmation with a malformed id passes undefined, null, 42 or {}', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  d.journal();
  for (const [i, kind] of ['undefined', 'null', 'number', 'object'].entries()) {
    await d.act({ host: 'resolve-confirmation', as: `r${i}`, confirmation: { malformed: kind }, approved: true });
  }
  assert.deepEqual(d.calls('resolveConfirmation').map((call) => call.id), [{ '#': 'undefined' }, null, 42, {}]);
  assert.equal((await d.step({ host: 'resolve-confirmation', as: 'r9', confirmation: { malformed: 'string' }, approved: true })).reply, 'error');
}));

test('creation that throws answers threw (in createRcipRuntime or a define* helper)', () => withDriver(async (d) => {
  await d.hello();
  assert.deepEqual(await d.start({ definition: definition([], { id: 'explode' }), creation: 'throws' }), { reply: 'threw' });
  assert.equal((await d.step({ host: 'refresh' })).reply, 'error', 'no runtime after a creation that threw');
  const bogus = definition([capability('odd.one', 'bogus')]);
  assert.deepEqual(await d.start({ definition: bogus, creation: 'may-throw' }), { reply: 'threw' });
  assert.deepEqual(await d.start({ definition: definition() }), { reply: 'done' });
}));

test('escapes in the definition reach the define* helpers as JavaScript values', () => withDriver(async (d) => {
  const def = definition([capability('odd.one', 'read', { tags: { $value: 'undefined' }, usage: { $value: 'NaN' } })]);
  await d.startOk({ definition: def });
  const odd = d.calls('defineRcipCapability').find((e) => e.capability.id === 'odd.one');
  assert.deepEqual(odd.capability.tags, { '#': 'undefined' });
  assert.deepEqual(odd.capability.usage, { '#': 'NaN' });
}));

test('a getter escape is an enumerable accessor answering per read, then its last answer (issue 25)', () => {
  const value = fromWire({ a: { $value: 'getter', reads: [1, { b: 2 }] }, list: [{ $value: 'getter', reads: ['x'] }] });
  const descriptor = Object.getOwnPropertyDescriptor(value, 'a');
  assert.equal(typeof descriptor.get, 'function');
  assert.equal(descriptor.enumerable, true);
  assert.equal(value.a, 1);
  const second = value.a;
  assert.deepEqual(second, { b: 2 });
  assert.equal(value.a, second, 'an answer is one object, given again');
  assert.equal(value.list[0], 'x');
  assert.throws(() => fromWire({ $value: 'getter', reads: [1] }), /member or an item/);
  assert.throws(() => fromWire({ a: { $value: 'getter', reads: [] } }), /non-empty/);
});

test('every start builds a fresh runtime: handles and gates of the last case are gone', () => withDriver(async (d) => {
  await d.startOk(setup(gatedPolicy));
  await d.act(bind('notes.list', 'b1', returns({})));
  await d.act(invoke('i1', 'notes.list', {}));
  assert.deepEqual(await d.send({ cmd: 'finish' }), { reply: 'done' });
  await d.startOk(setup(gatedPolicy));
  assert.equal(d.calls('createRcipRuntime').length, 2, 'one runtime per start (the finish dropped the first)');
  assert.equal((await d.step(outcome('i1'))).reply, 'error', 'i1 belonged to the last case');
  assert.deepEqual(await d.step({ gate: 'policy', call: 1, settle: { return: ALLOW } }), { reply: 'threw' },
    'no policy call has been made in this case');
  assert.deepEqual(await d.observe({ expect: 'policy-calls' }), []);
}));

// ------------------------------------------------------------------------------------------------
// Host steps
// ------------------------------------------------------------------------------------------------

test('bind passes the catalog object (or a structurally equal copy) and an execute handler', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act(bind('notes.list', 'b1', returns({})));
  await d.act(bind('notes.create', 'b2', returns({}), { definition: 'copy' }));
  await d.act(bind('notes.delete', 'b3', returns({}), { definition: 'catalog', availability: { available: true } }));
  const [list, create, del] = d.calls('bindCapability');
  assert.deepEqual(list, { call: 'bindCapability', id: 'notes.list', catalogIdentical: true, structurallyEqual: true, handlerMembers: ['execute'] });
  assert.deepEqual(create, { call: 'bindCapability', id: 'notes.create', catalogIdentical: false, structurallyEqual: true, handlerMembers: ['execute'] });
  assert.deepEqual(del.handlerMembers, ['execute', 'getAvailability']);
  assert.equal(del.catalogIdentical, true);
  assert.deepEqual(await d.step(bind('notes.list', 'b4', returns({}))), { reply: 'threw' }, 'the double throws on a second binding');
  assert.equal((await d.step(bind('not.declared', 'b5', returns({})))).reply, 'error', 'no catalog object to pass');
}));

test('a handler sameAs an earlier binding passes that very binding object again (issue 14)', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act(bind('notes.list', 'b1', returns({ n: 1 }), { availability: { available: true } }));
  await d.act({ host: 'unbind', binding: 'b1' });
  await d.act({ host: 'bind', capability: 'notes.list', as: 'b2', handler: { sameAs: 'b1' } });
  await d.act(bind('notes.create', 'b3', returns({})));
  const [first, again, other] = d.calls('bindHandler').map((c) => c.handler);
  assert.equal(first, again, 'the same object');
  assert.notEqual(first, other, 'a new binding gets a new object');
  await d.act({ host: 'set-availability', binding: 'b2', availability: { available: false } });
  await d.act(invoke('i1', 'notes.list', {}));
  assert.equal((await d.observe(outcome('i1'))).code, 'CAPABILITY_UNAVAILABLE', 'b2 shares b1\'s availability');
  assert.equal((await d.step({ host: 'bind', capability: 'notes.list', as: 'b4', handler: { sameAs: 'nope' } })).reply, 'error');
}));

test('mutate-request sets a member of the very request object passed to invoke (issue 14)', () => withDriver(async (d) => {
  await d.startOk(setup(gatedPolicy));
  await d.act(bind('notes.create', 'b1', returns({})));
  await d.act(invoke('i1', 'notes.create', { text: 'a' }));
  assert.equal((await d.step({ client: 'mutate-request', of: 'i1', member: 'invocationId', value: 'other' })).reply, 'done');
  assert.equal((await d.step({ client: 'mutate-request', of: 'i1', member: 'capabilityId', value: 'notes.delete' })).reply, 'done');
  assert.equal((await d.step({ client: 'mutate-request', of: 'i1', member: 'input', value: {} })).reply, 'error');
  assert.equal((await d.step({ client: 'mutate-request', of: 'nope', member: 'invocationId', value: 'x' })).reply, 'error');
}));

test('getAvailability returns the availability given, until set-availability', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  const first = { available: true, reason: 'Fine', extra: { $value: 'undefined' } };
  await d.act(bind('notes.list', 'b1', returns({}), { availability: first }));
  d.journal();
  await d.act(invoke('i1', 'notes.list', {}));
  assert.deepEqual(d.calls('availability')[0].availability, { available: true, reason: 'Fine', extra: { '#': 'undefined' } });
  await d.act({ host: 'set-availability', binding: 'b1', availability: { available: false, reason: 'Offline', reasonCode: 'offline' } });
  assert.deepEqual(d.journal(), [], 'set-availability calls nothing');
  await d.act(invoke('i2', 'notes.list', {}));
  assert.equal((await d.observe(outcome('i2'))).code, 'CAPABILITY_UNAVAILABLE');
  await d.act(bind('notes.create', 'b2', returns({})));
  assert.equal((await d.step({ host: 'set-availability', binding: 'b2', availability: { available: true } })).reply, 'error',
    'b2 was bound without getAvailability');
}));

test('unbind calls the unbind function bind returned, again on a second unbind', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act(bind('notes.list', 'b1', returns({})));
  await d.act({ host: 'unbind', binding: 'b1' });
  await d.act({ host: 'unbind', binding: 'b1' });
  assert.deepEqual(d.calls('unbind'), [{ call: 'unbind', id: 'notes.list' }, { call: 'unbind', id: 'notes.list' }]);
  await d.act(invoke('i1', 'notes.list', {}));
  assert.equal((await d.observe(outcome('i1'))).code, 'CAPABILITY_UNBOUND');
}));

test('set-context passes the context value; a throwing setContext answers threw', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act({ host: 'set-context', context: { activeScopeIds: ['notes'], primaryScopeId: { $value: 'undefined' } } });
  assert.deepEqual(d.calls('setContext')[0].context, { activeScopeIds: ['notes'], primaryScopeId: { '#': 'undefined' } });
  assert.deepEqual(await d.step({ host: 'set-context', context: { activeScopeIds: ['undeclared'] } }), { reply: 'threw' });
}));

test('refresh calls host.refresh', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  const before = (await d.observe({ expect: 'snapshot' })).revision;
  d.journal();
  await d.act({ host: 'refresh' });
  assert.deepEqual(d.calls('refresh'), [{ call: 'refresh' }]);
  assert.equal((await d.observe({ expect: 'snapshot' })).revision, before + 1);
}));

test('resolve-confirmation passes the id from an outcome, or a literal id, and tracks its outcome', () => withDriver(async (d) => {
  await d.startOk(setup({ policy: { mode: 'gated' }, createId: 'sequential' }));
  await d.act(bind('notes.delete', 'b1', returns({ deleted: true })));
  await d.act(invoke('i1', 'notes.delete', { id: 'n1' }));
  await d.act({ gate: 'policy', call: 1, settle: { return: { decision: 'confirm' } } });
  d.journal();
  await d.act({ host: 'resolve-confirmation', as: 'r1', confirmation: { of: 'i1' }, approved: true });
  assert.deepEqual(d.calls('resolveConfirmation'), [{ call: 'resolveConfirmation', id: 'confirmation-1', approved: true }]);
  assert.equal(await d.observe(outcome('r1')), 'pending', 'the confirmed policy pass waits at gate 2');
  await d.act({ gate: 'policy', call: 2, settle: { return: ALLOW } });
  assert.deepEqual(await d.observe(outcome('r1')), { status: 'succeeded', invocationId: 'i1', capabilityId: 'notes.delete', output: { deleted: true } });
  const calls = await d.observe({ expect: 'policy-calls' });
  assert.deepEqual(calls.map((c) => c.confirmed), [false, true]);
  await d.act({ host: 'resolve-confirmation', as: 'r2', confirmation: { id: 'made-up' }, approved: false });
  assert.deepEqual(d.calls('resolveConfirmation'), [{ call: 'resolveConfirmation', id: 'made-up', approved: false }]);
  assert.equal((await d.observe(outcome('r2'))).code, 'CONFIRMATION_NOT_FOUND');
  d.journal();
  await d.act({ host: 'resolve-confirmation', as: 'r3', confirmation: { of: 'r1' }, approved: true });
  assert.deepEqual(d.calls('resolveConfirmation'), [{ call: 'resolveConfirmation', id: { '#': 'undefined' }, approved: true }],
    'r1 carries no confirmation: its missing id (undefined) is passed as is');
  assert.deepEqual(await d.observe(outcome('r3')), { status: 'failed', code: 'CONFIRMATION_NOT_FOUND' },
    'what the implementation answered, never a threw made up by the adapter');
}));

test('create-runtime builds a second runtime; runtime picks it; records and gates are per runtime', () => withDriver(async (d) => {
  await d.startOk(setup({ ...gatedPolicy, events: 'records' }));
  await d.act({ host: 'create-runtime', as: 'rt2' });
  const runtimes = d.calls('createRcipRuntime');
  assert.equal(runtimes.length, 2);
  assert.deepEqual(runtimes[1].options, runtimes[0].options);
  await d.act(bind('notes.list', 'b1', returns({ from: 'main' })));
  await d.act({ ...bind('notes.list', 'b2', returns({ from: 'second' })), runtime: 'rt2' });
  await d.act(invoke('a', 'notes.list', {}));
  await d.act({ ...invoke('b', 'notes.list', {}), runtime: 'rt2' });
  await d.act({ gate: 'policy', call: 1, settle: { return: ALLOW }, runtime: 'rt2' });
  assert.equal(await d.observe(outcome('a')), 'pending', 'gate 1 of rt2 is not gate 1 of the main runtime');
  assert.deepEqual((await d.observe(outcome('b'))).output, { from: 'second' });
  assert.equal((await d.observe({ expect: 'handler-calls' })).length, 0);
  assert.equal((await d.observe({ expect: 'handler-calls', runtime: 'rt2' })).length, 1);
  assert.equal((await d.observe({ expect: 'events', runtime: 'rt2' })).length, 3);
  assert.equal((await d.observe({ expect: 'events' })).length, 1);
  await d.act({ gate: 'policy', call: 1, settle: { return: ALLOW } });
  assert.deepEqual((await d.observe(outcome('a'))).output, { from: 'main' });
  assert.equal((await d.step({ host: 'refresh', runtime: 'rt9' })).reply, 'error', 'an unknown runtime');
}));

// ------------------------------------------------------------------------------------------------
// Client steps
// ------------------------------------------------------------------------------------------------

test('invoke passes capabilityId, input, invocationId and signal only when given', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act(bind('notes.list', 'b1', returns({})));
  d.journal();
  await d.act({ client: 'invoke', as: 'i1', capability: 'notes.list', input: { a: 1 } });
  await d.act({ client: 'invoke', as: 'i2', capability: 'notes.list', input: { b: 2 }, invocationId: 'inv-x', signal: 's1' });
  const [plain, full] = d.calls('invoke');
  assert.deepEqual(plain.keys, ['capabilityId', 'input']);
  assert.deepEqual(plain.request, { capabilityId: 'notes.list', input: { a: 1 } });
  assert.equal(plain.signalIsAbortSignal, false);
  assert.deepEqual(full.keys, ['capabilityId', 'input', 'invocationId', 'signal']);
  assert.equal(full.request.invocationId, 'inv-x');
  assert.equal(full.signalIsAbortSignal, true);
  assert.equal(full.now, 0);
}));

test('an invoke that throws answers threw; one that rejects is done with outcome threw', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  assert.deepEqual(await d.step(invoke('i1', 'double.throws', {})), { reply: 'threw' });
  assert.equal(await d.observe(outcome('i1')), 'threw');
  await d.act(invoke('i2', 'double.rejects', {}));
  assert.equal(await d.observe(outcome('i2')), 'threw');
  assert.equal(await d.observe({ expect: 'outcome-text', of: 'i2' }), 'invoke rejected');
}));

test('abort aborts the named signal; one signal serves every invoke naming it', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act(bind('notes.list', 'b1', gated));
  await d.act(invoke('i1', 'notes.list', {}, { signal: 's1' }));
  await d.act(invoke('i2', 'notes.list', {}, { signal: 's2' }));
  await d.act(invoke('i3', 'notes.list', {}, { signal: 's1' }));
  assert.equal(await d.observe({ expect: 'handler-signal', call: 1 }), false);
  await d.act({ client: 'abort', signal: 's1' });
  assert.equal(await d.observe({ expect: 'handler-signal', call: 1 }), true);
  assert.equal(await d.observe({ expect: 'handler-signal', call: 2 }), false);
  assert.equal(await d.observe({ expect: 'handler-signal', call: 3 }), true);
  assert.equal(await d.observe({ expect: 'handler-signal', call: 4 }), null, 'no fourth handler call');
  await d.act({ client: 'abort', signal: 'early' });
  await d.act(invoke('i4', 'notes.list', {}, { signal: 'early' }));
  assert.equal((await d.observe(outcome('i4'))).code, 'EXECUTION_ABORTED', 'a signal aborted before invoke arrives aborted');
}));

test('mutate-input changes the very input object passed to invoke', () => withDriver(async (d) => {
  await d.startOk(setup(gatedPolicy));
  await d.act(bind('notes.create', 'b1', returns({})));
  await d.act(invoke('i1', 'notes.create', { text: 'a', list: [1] }));
  await d.act({ client: 'mutate-input', of: 'i1', pointer: '/text', value: 'changed' });
  await d.act({ client: 'mutate-input', of: 'i1', pointer: '/list/-', value: { $value: 'NaN' } });
  await d.act({ gate: 'policy', call: 1, settle: { return: ALLOW } });
  const [call] = await d.observe({ expect: 'handler-calls' });
  assert.deepEqual(call.input, { text: 'changed', list: [1, { $value: 'NaN' }] }, 'the double does not detach, so the handler sees the mutation');
  assert.equal((await d.step({ client: 'mutate-input', of: 'i1', pointer: '/no/such', value: 1 })).reply, 'error');
}));

test('caller-input observes the very object passed to invoke, as it is now, with escapes', () => withDriver(async (d) => {
  await d.startOk(setup(gatedPolicy));
  await d.act(bind('notes.create', 'b1', gated));
  await d.act(invoke('i1', 'notes.create', { text: 'a', n: { $value: 'NaN' } }));
  assert.deepEqual(await d.observe({ expect: 'caller-input', of: 'i1' }), { n: { $value: 'NaN' }, text: 'a' });
  await d.act({ client: 'mutate-input', of: 'i1', pointer: '/text', value: 'by caller' });
  await d.act({ gate: 'policy', call: 1, settle: { return: ALLOW } });
  await d.act({ gate: 'handler', call: 1, settle: { return: {}, mutateInput: [{ pointer: '/extra', value: 1 }] } });
  assert.deepEqual(
    await d.observe({ expect: 'caller-input', of: 'i1' }),
    { extra: 1, n: { $value: 'NaN' }, text: 'by caller' },
    'the double does not detach, so the handler\'s write shows on the caller\'s object',
  );
  assert.equal((await d.step({ expect: 'caller-input', of: 'nope' })).reply, 'error');
}));

test('handler-context records the ctx at call time: id, requestedAt, context, signal state', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act({ host: 'set-context', context: { activeScopeIds: ['notes'] } });
  await d.act(bind('notes.list', 'b1', gated));
  await d.act({ clock: 'advance', ms: 30 });
  await d.act(invoke('i1', 'notes.list', {}, { signal: 's1' }));
  const expected = { invocationId: 'i1', requestedAt: 30, semanticContext: { activeScopeIds: ['notes'] }, signalAborted: false };
  assert.deepEqual(await d.observe({ expect: 'handler-context', call: 1 }), expected);
  await d.act({ client: 'abort', signal: 's1' });
  assert.deepEqual(await d.observe({ expect: 'handler-context', call: 1 }), expected, 'a call-time record');
  assert.equal(await d.observe({ expect: 'handler-signal', call: 1 }), true);
  assert.equal(await d.observe({ expect: 'handler-context', call: 2 }), null, 'no second handler call');
  assert.equal((await d.step({ expect: 'handler-context', call: 0 })).reply, 'error');
}));

test('preflight is not declared and its step and expectation answer unsupported', () => withDriver(async (d) => {
  assert.ok(!(await d.hello()).profiles.includes('preflight'));
  await d.startOk(setup(allowPolicy));
  const proposals = [{ capability: 'notes.list', input: {} }];
  assert.equal((await d.step({ client: 'preflight', as: 'p1', proposals })).reply, 'unsupported');
  assert.equal((await d.step({ expect: 'preflight', of: 'p1' })).reply, 'unsupported');
  assert.equal((await d.step({ client: 'preflight', as: 'p1' })).reply, 'error', 'proposals are required');
}));

test('get-snapshot keeps the object; snapshot-relation compares identity and revision', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act({ client: 'get-snapshot', as: 's1' });
  await d.act({ client: 'get-snapshot', as: 's2' });
  await d.act({ host: 'refresh' });
  await d.act({ client: 'get-snapshot', as: 's3' });
  assert.deepEqual(await d.observe({ expect: 'snapshot-relation', a: 's1', b: 's2' }), { identical: true, revision: 'equal' });
  assert.deepEqual(await d.observe({ expect: 'snapshot-relation', a: 's1', b: 's3' }), { identical: false, revision: 'greater' });
  assert.deepEqual(await d.observe({ expect: 'snapshot-relation', a: 's3', b: 's1' }), { identical: false, revision: 'less' });
  const kept = await d.observe({ expect: 'snapshot', of: 's1' });
  const fresh = await d.observe({ expect: 'snapshot' });
  assert.equal(fresh.revision, kept.revision + 1);
  assert.deepEqual(Object.keys(kept), ['capabilities', 'context', 'protocolVersion', 'revision']);
}));

test('a snapshot-relation side names the snapshot a listener call saw (k-th or last)', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act({ client: 'subscribe', as: 'sub1', listener: 'records' });
  const last = { notification: 'last', of: 'sub1' };
  assert.equal(await d.observe({ expect: 'snapshot-relation', a: last, b: last }), 'none', 'no call yet');
  await d.act({ host: 'refresh' });
  await d.act({ client: 'get-snapshot', as: 's1' });
  await d.act({ host: 'refresh' });
  const first = { notification: 1, of: 'sub1' };
  assert.deepEqual(await d.observe({ expect: 'snapshot-relation', a: first, b: 's1' }), { identical: true, revision: 'equal' });
  assert.deepEqual(await d.observe({ expect: 'snapshot-relation', a: 's1', b: last }), { identical: false, revision: 'greater' });
  assert.equal(await d.observe({ expect: 'snapshot-relation', a: { notification: 3, of: 'sub1' }, b: 's1' }), 'none');
  assert.equal((await d.step({ expect: 'snapshot-relation', a: { notification: 0, of: 'sub1' }, b: 's1' })).reply, 'error');
  assert.equal((await d.step({ expect: 'snapshot-relation', a: { notification: 1, of: 's1' }, b: 's1' })).reply, 'error');
}));

test('mutate-definition writes into the objects handed to the define helpers', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act({ host: 'mutate-definition', pointer: '/capabilities/0/effect', value: 'destructive' });
  await d.act({ host: 'mutate-definition', pointer: '/application/name', value: 'Rewritten' });
  await d.act({ host: 'refresh' });
  const snapshot = await d.observe({ expect: 'snapshot' });
  assert.equal(snapshot.capabilities[0].effect, 'destructive', 'the double keeps the caller\'s objects, so the write shows');
  assert.equal((await d.step({ host: 'mutate-definition', pointer: '/capabilities/99/title', value: 'x' })).reply, 'error');
  assert.equal((await d.step({ host: 'mutate-definition', pointer: '/nope/deeper', value: 'x' })).reply, 'error');
}));

test('mutate-output writes to the very value a scripted or gated handler call returned', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act(bind('notes.list', 'b1', returns({ items: ['a'] })));
  await d.act(invoke('i1', 'notes.list', {}));
  await d.act({ host: 'mutate-output', call: 1, pointer: '/items/0', value: 'rewritten' });
  assert.deepEqual((await d.observe(outcome('i1'))).output, { items: ['rewritten'] }, 'the double hands the handler\'s object back, so the write shows');
  await d.act(bind('notes.create', 'b2', gated));
  await d.act(invoke('i2', 'notes.create', { text: 'x' }));
  assert.equal((await d.step({ host: 'mutate-output', call: 2, pointer: '/id', value: 'n2' })).reply, 'error', 'not returned yet');
  await d.act({ gate: 'handler', call: 1, settle: { return: { id: 'n1' } } });
  await d.act({ host: 'mutate-output', call: 2, pointer: '/id', value: 'n2' });
  assert.deepEqual((await d.observe(outcome('i2'))).output, { id: 'n2' });
  assert.equal((await d.step({ host: 'mutate-output', call: 3, pointer: '/id', value: 'x' })).reply, 'error', 'no such call');
}));

test('policy-capability is the capability of the policy context, as JSON at call time', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  assert.equal(await d.observe({ expect: 'policy-capability', call: 1 }), null, 'no policy call yet');
  await d.act(bind('notes.list', 'b1', returns({ items: [] })));
  await d.act(invoke('i1', 'notes.list', {}));
  const seen = await d.observe({ expect: 'policy-capability', call: 1 });
  assert.equal(seen.id, 'notes.list');
  assert.equal((await d.step({ expect: 'policy-capability', call: 0 })).reply, 'error');
}));

test('mutateCapability writes to the policy context capability after recording; refused writes are swallowed', () => withDriver(async (d) => {
  const writes = [{ pointer: '/effect', value: 'destructive' }, { pointer: '/nope/deeper', value: 1 }];
  await d.startOk(setup({ policy: { mode: 'scripted', settle: { return: ALLOW, mutateCapability: writes } } }));
  await d.act(bind('notes.list', 'b1', returns({ items: [] })));
  await d.act(invoke('i1', 'notes.list', {}));
  assert.equal((await d.observe(outcome('i1'))).status, 'succeeded', 'the missing member did not make the step fail');
  assert.equal((await d.observe({ expect: 'policy-capability', call: 1 })).effect, 'read', 'recorded before the write');
  assert.equal((await d.start(setup({ policy: { mode: 'scripted', settle: { return: ALLOW, mutateCapability: 'x' } } }))).reply, 'error', 'not an array');
}));

test('mutate-snapshot tries to set the member and swallows the exception', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act({ client: 'get-snapshot', as: 's1' });
  const before = await d.observe({ expect: 'snapshot', of: 's1' });
  await d.act({ client: 'mutate-snapshot', of: 's1', pointer: '/revision', value: 99 });
  await d.act({ client: 'mutate-snapshot', of: 's1', pointer: '/capabilities/0/id', value: 'hacked' });
  await d.act({ client: 'mutate-snapshot', of: 's1', pointer: '/nothing/here', value: 1 });
  assert.deepEqual(await d.observe({ expect: 'snapshot', of: 's1' }), before, 'the double freezes its snapshot');
}));

test('list calls listCapabilities with the filter (or none) and observes the ids in order', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act({ client: 'list', as: 'l1' });
  await d.act({ client: 'list', as: 'l2', filter: { effect: 'read', scopeId: { $value: 'undefined' } } });
  const [all, filtered] = d.calls('listCapabilities');
  assert.deepEqual(all, { call: 'listCapabilities', argumentCount: 0, filter: { '#': 'undefined' } });
  assert.deepEqual(filtered.filter, { effect: 'read', scopeId: { '#': 'undefined' } });
  assert.deepEqual(await d.observe({ expect: 'list', of: 'l1' }), ['notes.create', 'notes.delete', 'notes.list', 'double.throws', 'double.rejects']);
  assert.deepEqual(await d.observe({ expect: 'list', of: 'l2' }), ['notes.list', 'double.throws', 'double.rejects']);
}));

test('subscribe records each listener call with the current revision; throws still records', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act({ client: 'subscribe', as: 'sub1', listener: 'records' });
  await d.act({ client: 'subscribe', as: 'sub2', listener: 'throws' });
  assert.equal(d.calls('subscribe').every((e) => e.listenerIsFunction), true);
  const start = (await d.observe({ expect: 'snapshot' })).revision;
  await d.act({ host: 'refresh' });
  await d.act({ host: 'refresh' });
  assert.deepEqual(await d.observe({ expect: 'notifications', of: 'sub1' }), [{ revision: start + 1 }, { revision: start + 2 }]);
  assert.deepEqual(await d.observe({ expect: 'notifications', of: 'sub2' }), [{ revision: start + 1 }, { revision: start + 2 }]);
  assert.deepEqual(d.calls('listenerThrew'), [{ call: 'listenerThrew', message: SECRET }, { call: 'listenerThrew', message: SECRET }]);
  await d.act({ client: 'unsubscribe', of: 'sub1' });
  assert.equal(d.calls('unsubscribe').length, 1);
  await d.act({ host: 'refresh' });
  assert.equal((await d.observe({ expect: 'notifications', of: 'sub1' })).length, 2, 'no call after unsubscribe');
  assert.equal((await d.observe({ expect: 'notifications', of: 'sub2' })).length, 3);
}));

// ------------------------------------------------------------------------------------------------
// Gates and scripted callbacks
// ------------------------------------------------------------------------------------------------

test('gate policy k settles the k-th policy call, with a value or an error', () => withDriver(async (d) => {
  await d.startOk(setup(gatedPolicy));
  await d.act(bind('notes.list', 'b1', returns({ ok: 1 })));
  await d.act(invoke('i1', 'notes.list', {}));
  await d.act(invoke('i2', 'notes.list', {}));
  await d.act(invoke('i3', 'notes.list', {}));
  d.journal();
  await d.act({ gate: 'policy', call: 2, settle: { return: { decision: 'deny', reason: { $value: 'undefined' } } } });
  assert.deepEqual(d.calls('policySettled'), [{ call: 'policySettled', invocationId: 'i2', decision: { decision: 'deny', reason: { '#': 'undefined' } } }]);
  assert.equal(await d.observe(outcome('i1')), 'pending');
  assert.deepEqual(await d.observe(outcome('i2')), { status: 'denied', invocationId: 'i2', capabilityId: 'notes.list', code: 'POLICY_DENIED' });
  await d.act({ gate: 'policy', call: 1, settle: { throw: 'error' } });
  await d.act({ gate: 'policy', call: 3, settle: { throw: 'abort-error' } });
  const settled = d.calls('policySettled');
  assert.deepEqual(settled.map((e) => e.threw), [{ name: 'Error', message: SECRET }, { name: 'AbortError', message: SECRET }]);
  assert.equal((await d.observe(outcome('i1'))).code, 'POLICY_EVALUATION_FAILED');
  assert.equal((await d.step({ gate: 'policy', call: 1, settle: { return: ALLOW } })).reply, 'error', 'a gate settles once');
  assert.deepEqual(await d.step({ gate: 'policy', call: 4, settle: { return: ALLOW } }), { reply: 'threw' }, 'call 4 was never made');
}));

test('gate handler k settles the k-th gated handler call; mutateInput first; records are call-time copies', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act(bind('notes.list', 'b1', returns({ sync: true })));
  await d.act(bind('notes.create', 'b2', gated));
  await d.act(invoke('i1', 'notes.list', {}));
  await d.act(invoke('i2', 'notes.create', { text: 'a' }));
  await d.act(invoke('i3', 'notes.create', { text: 'b' }));
  d.journal();
  await d.act({ gate: 'handler', call: 2, settle: { return: { id: 'n3' }, mutateInput: [{ pointer: '/text', value: 'mutated' }, { pointer: '/extra', value: { $value: '-0' } }] } });
  const [settled] = d.calls('handlerSettled');
  assert.deepEqual(settled.inputAfter, { text: 'mutated', extra: { '#': '-0' } }, 'the handler mutated the input it received');
  assert.deepEqual(await d.observe(outcome('i3')), { status: 'succeeded', invocationId: 'i3', capabilityId: 'notes.create', output: { id: 'n3' } });
  assert.equal(await d.observe(outcome('i2')), 'pending', 'gate handler 1 (of the gated handlers) is i2');
  const calls = await d.observe({ expect: 'handler-calls' });
  assert.deepEqual(calls.map((c) => c.input), [{}, { text: 'a' }, { text: 'b' }], 'inputs as received at call time');
  assert.deepEqual(await d.observe({ expect: 'handler-calls', capability: 'notes.create' }), calls.slice(1));
  await d.act({ gate: 'handler', call: 1, settle: { throw: 'abort-error' } });
  assert.equal((await d.observe(outcome('i2'))).code, 'EXECUTION_ABORTED');
}));

test('scripted callbacks settle synchronously, or as settled promises with async', () => withDriver(async (d) => {
  await d.startOk(setup({ policy: { mode: 'scripted', async: true, settle: { return: ALLOW } } }));
  await d.act(bind('notes.list', 'b1', returns({ v: 1 })));
  await d.act(bind('notes.delete', 'b2', { mode: 'scripted', async: true, settle: { return: { v: 2 } } }));
  await d.act(bind('notes.create', 'b3', { mode: 'scripted', settle: { throw: 'error' } }));
  d.journal();
  await d.act(invoke('i1', 'notes.list', {}));
  await d.act(invoke('i2', 'notes.delete', {}));
  await d.act(invoke('i3', 'notes.create', { text: 'x' }));
  const journal = d.journal();
  assert.deepEqual(journal.filter((e) => e.call === 'policyResult').map((e) => e.isPromise), [true, true, true]);
  assert.deepEqual(journal.filter((e) => e.call === 'handlerResult').map((e) => [e.isPromise, e.threwSynchronously]),
    [[false, false], [true, false], [false, true]]);
  assert.deepEqual((await d.observe(outcome('i1'))).output, { v: 1 });
  assert.deepEqual((await d.observe(outcome('i2'))).output, { v: 2 });
  assert.equal((await d.observe(outcome('i3'))).code, 'EXECUTION_FAILED', 'a synchronous throw of the handler');
  await d.startOk(setup({ policy: { mode: 'scripted', settle: { throw: 'error' } } }));
  await d.act(bind('notes.list', 'b1', returns({})));
  d.journal();
  await d.act(invoke('i1', 'notes.list', {}));
  assert.deepEqual(d.calls('policyResult').map((e) => [e.isPromise, e.threwSynchronously]), [[false, true]]);
  assert.equal((await d.observe(outcome('i1'))).code, 'POLICY_EVALUATION_FAILED');
  await d.startOk(setup({ policy: { mode: 'scripted', settle: { return: ALLOW } } }));
  await d.act(bind('notes.list', 'b1', returns({})));
  d.journal();
  await d.act(invoke('i1', 'notes.list', {}));
  assert.deepEqual(d.calls('policyResult').map((e) => [e.isPromise, e.threwSynchronously]), [[false, false]]);
}));

test('an adapter failure inside a callback answers error, never blames the implementation', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act(bind('notes.list', 'b1', { mode: 'scripted', settle: { return: {}, mutateInput: [{ pointer: '/a/b', value: 1 }] } }));
  const reply = await d.step(invoke('i1', 'notes.list', {}));
  assert.equal(reply.reply, 'error');
  assert.match(reply.message, /names nothing/);
}));

// ------------------------------------------------------------------------------------------------
// Virtual clock
// ------------------------------------------------------------------------------------------------

test('the clock starts at 0, moves only with clock steps and fires due timers in order', () => withDriver(async (d) => {
  const s = setup({ policy: { mode: 'scripted', settle: { return: { decision: 'confirm' } } }, confirmationTtlMs: 1000 });
  await d.startOk(s);
  await d.act(bind('notes.delete', 'b1', returns({})));
  await d.act(invoke('i1', 'notes.delete', {}));
  assert.equal((await d.observe(outcome('i1'))).confirmation.expiresAt, 1000);
  await d.act({ clock: 'advance', ms: 500 });
  await d.act(invoke('i2', 'notes.delete', {}));
  assert.equal((await d.observe(outcome('i2'))).confirmation.expiresAt, 1500);
  d.journal();
  await d.act({ clock: 'advance', ms: 499 });
  assert.deepEqual(d.calls('expired'), [], 'nothing is due before 1000');
  await d.act({ clock: 'advance', ms: 2000 });
  assert.deepEqual(d.calls('expired').map((e) => e.now), [1000, 1500], 'each timer fires at its own instant, in order');
  await d.act({ host: 'resolve-confirmation', as: 'r1', confirmation: { of: 'i1' }, approved: true });
  assert.equal((await d.observe(outcome('r1'))).code, 'CONFIRMATION_EXPIRED');
  await d.startOk(s);
  assert.equal(d.calls('createRcipRuntime')[0].now, 0, 'a new case restarts the clock at 0');
  await d.act(bind('notes.delete', 'b1', returns({})));
  await d.act(invoke('i1', 'notes.delete', {}));
  assert.equal((await d.observe(outcome('i1'))).confirmation.expiresAt, 1000);
  await d.act({ clock: 'advance', ms: 0 });
  assert.equal((await d.step({ clock: 'advance', ms: -1 })).reply, 'error');
}));

test('clock advance lets promise reactions run between timers, so chained timers fire in one advance', () => withDriver(async (d) => {
  await d.startOk({ definition: definition([capability('double.later', 'read')]) });
  d.journal();
  await d.act(invoke('i1', 'double.later', {}));
  await d.act({ clock: 'advance', ms: 199 });
  assert.deepEqual(d.calls('later').map((e) => e.now), [100]);
  assert.equal(await d.observe(outcome('i1')), 'pending');
  await d.act({ clock: 'advance', ms: 1 });
  assert.deepEqual(d.calls('later').map((e) => e.now), [200]);
  assert.equal((await d.observe(outcome('i1'))).status, 'succeeded');
  await d.act(invoke('i2', 'double.later', {}));
  await d.act({ clock: 'advance', ms: 200 });
  assert.deepEqual(d.calls('later').map((e) => e.now), [300, 400], 'the second timer was set at 300, inside the same advance');
  assert.equal((await d.observe(outcome('i2'))).status, 'succeeded');
}));

test('every step is answered only once pending reactions have settled, even when requests are pipelined', () => withDriver(async (d) => {
  await d.startOk({ definition: definition([capability('double.hops', 'read')]) });
  const replies = await d.sendMany([
    { cmd: 'step', index: 0, step: invoke('i1', 'double.hops', {}) },
    { cmd: 'step', index: 1, step: outcome('i1') },
  ]);
  assert.deepEqual(replies[0], { reply: 'done' });
  assert.equal(replies[1].value.status, 'succeeded');
}));

test('a whole case, its finish and the next start sent in one write are answered in order, as one by one', () => withDriver(async (d) => {
  await d.hello();
  const s = { definition: definition([capability('double.hops', 'read')]) };
  const requests = [
    { cmd: 'start', case: 'test.case.001', protocol: 'rcip', setup: s },
    { cmd: 'step', index: 0, step: invoke('i1', 'double.hops', {}) },
    { cmd: 'step', index: 1, step: outcome('i1') },
    { cmd: 'finish' },
    { cmd: 'start', case: 'test.case.002', protocol: 'rcip', setup: s },
    { cmd: 'step', index: 0, step: outcome('i1') },
  ];
  const pipelined = await d.sendMany(requests);
  const oneByOne = [];
  for (const request of requests) oneByOne.push(await d.send(request));
  assert.deepEqual(pipelined, oneByOne);
  assert.equal(pipelined[2].value.status, 'succeeded');
  assert.equal(pipelined[5].reply, 'error', 'the handle i1 is gone with its case');
}));

test('timers of the last case never fire in the next one', () => withDriver(async (d) => {
  const s = setup({ policy: { mode: 'scripted', settle: { return: { decision: 'confirm' } } }, confirmationTtlMs: 100 });
  await d.startOk(s);
  await d.act(bind('notes.delete', 'b1', returns({})));
  await d.act(invoke('i1', 'notes.delete', {}));
  await d.startOk(s);
  d.journal();
  await d.act({ clock: 'advance', ms: 1000 });
  assert.deepEqual(d.calls('expired'), []);
}));

// ------------------------------------------------------------------------------------------------
// Observations
// ------------------------------------------------------------------------------------------------

test('outcome is canonical: no messages, no confirmation title or description, keys sorted', () => withDriver(async (d) => {
  await d.startOk(setup({ policy: { mode: 'scripted', settle: { return: { decision: 'confirm' } } }, confirmationTtlMs: 5000 }));
  await d.act(bind('notes.create', 'b1', returns({})));
  await d.act(bind('notes.delete', 'b2', returns({})));
  await d.act(invoke('i1', 'notes.create', { text: 7 }));
  await d.act(invoke('i2', 'notes.delete', {}));
  await d.act(invoke('i3', 'notes.create', { text: 'pending?' }));
  const failed = await d.sendLine(JSON.stringify({ cmd: 'step', index: 4, step: outcome('i1') }));
  assert.deepEqual(failed.value, {
    status: 'failed', invocationId: 'i1', capabilityId: 'notes.create', code: 'INPUT_INVALID',
    validationIssues: [{ instancePath: '/text', keyword: 'type' }],
  });
  assert.deepEqual(await d.observe(outcome('i2')), {
    status: 'confirmation_required', invocationId: 'i2', capabilityId: 'notes.delete',
    confirmation: { id: 'confirmation-double-1', effect: 'destructive', expiresAt: 5000 },
  });
  await d.act({ host: 'resolve-confirmation', as: 'r1', confirmation: { of: 'i2' }, approved: false });
  assert.deepEqual(await d.observe(outcome('r1')), { status: 'denied', invocationId: 'i2', capabilityId: 'notes.delete', code: 'CONFIRMATION_DECLINED' });
}));

test('policy-calls record capabilityId, input, semanticContext, confirmed; filter by capability', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act({ host: 'set-context', context: { activeScopeIds: ['notes'], primaryScopeId: 'notes' } });
  await d.act(bind('notes.list', 'b1', returns({})));
  await d.act(bind('notes.create', 'b2', returns({})));
  await d.act(invoke('i1', 'notes.list', { q: 1 }));
  await d.act(invoke('i2', 'notes.create', { text: 'a' }));
  const all = await d.observe({ expect: 'policy-calls' });
  assert.deepEqual(all, [
    { capabilityId: 'notes.list', input: { q: 1 }, semanticContext: { activeScopeIds: ['notes'], primaryScopeId: 'notes' }, confirmed: false },
    { capabilityId: 'notes.create', input: { text: 'a' }, semanticContext: { activeScopeIds: ['notes'], primaryScopeId: 'notes' }, confirmed: false },
  ]);
  assert.deepEqual(await d.observe({ expect: 'policy-calls', capability: 'notes.create' }), [all[1]]);
  const handlerCalls = await d.observe({ expect: 'handler-calls' });
  assert.deepEqual(handlerCalls[0], { capabilityId: 'notes.list', input: { q: 1 }, invocationId: 'i1', semanticContext: { activeScopeIds: ['notes'], primaryScopeId: 'notes' } });
}));

test('events record phase, invocationId, capabilityId; an observer that throws still records', () => withDriver(async (d) => {
  await d.startOk(setup({ ...allowPolicy, events: 'throws' }));
  await d.act(bind('notes.list', 'b1', returns({})));
  await d.act(invoke('i1', 'notes.list', {}));
  assert.deepEqual(await d.observe({ expect: 'events' }), ['requested', 'started', 'succeeded'].map(
    (phase) => ({ phase, invocationId: 'i1', capabilityId: 'notes.list' }),
  ));
  assert.deepEqual(d.calls('onEventThrew').map((e) => e.message), [SECRET, SECRET, SECRET]);
}));

test('outcome-text joins every string reachable in the outcome but its output; empty while pending', () => withDriver(async (d) => {
  await d.startOk(setup(gatedPolicy));
  await d.act(bind('notes.list', 'b1', { mode: 'scripted', settle: { throw: 'error' } }));
  await d.act(bind('notes.create', 'b2', returns({})));
  await d.act(invoke('i1', 'notes.list', {}));
  assert.equal(await d.observe({ expect: 'outcome-text', of: 'i1' }), '');
  await d.act({ gate: 'policy', call: 1, settle: { return: ALLOW } });
  assert.equal(await d.observe({ expect: 'outcome-text', of: 'i1' }), `failed\ni1\nnotes.list\nEXECUTION_FAILED\nhandler failed: ${SECRET}`, 'the double leaks on purpose');
  await d.act(invoke('i2', 'notes.create', { text: false }));
  const text = await d.observe({ expect: 'outcome-text', of: 'i2' });
  assert.ok(text.includes('input invalid') && text.includes('must be string'), text);
}));

test('reachable strings include non-enumerable members, an error cause and its stack, but not output', () => {
  const cause = new Error('host-secret-7f3a');
  const error = { code: 'EXECUTION_FAILED', message: 'failed' };
  Object.defineProperty(error, 'cause', { value: cause, enumerable: false });
  const strings = reachableStrings({ status: 'failed', error, output: 'app data' }, new Set(['output']));
  assert.ok(strings.includes('host-secret-7f3a'), strings.join('|'));
  assert.ok(strings.some((s) => s.includes('host-secret-7f3a') && s.includes('at ')), 'the stack is read');
  assert.ok(!strings.includes('app data'));
  const cyclic = { a: 'x' };
  cyclic.self = cyclic;
  assert.deepEqual(reachableStrings(cyclic), ['x']);
});

// ------------------------------------------------------------------------------------------------
// Values: escapes to JavaScript and back
// ------------------------------------------------------------------------------------------------

const ESCAPED_INPUT = {
  nan: { $value: 'NaN' },
  inf: { $value: 'Infinity' },
  ninf: { $value: '-Infinity' },
  nzero: { $value: '-0' },
  undef: { $value: 'undefined' },
  list: [1, { $value: 'undefined' }],
  fn: { $value: 'function' },
  sym: { $value: 'symbol' },
  big: { $value: 'bigint', digits: '9007199254740993' },
  point: { $value: 'class-instance', class: 'Point', fields: { x: 1, y: { $value: 'NaN' } } },
  other: { $value: 'class-instance', class: 'Point', fields: {} },
  bare: { $value: 'null-prototype', fields: { x: 1 } },
  holes: { $value: 'sparse-array', length: 3, items: { 0: 1, 2: 3 } },
  shared: { k: 1 },
  again: { $value: 'ref', to: '/shared' },
  intoInstance: { $value: 'ref', to: '/point/x' },
  loop: { inner: { up: { $value: 'ref', to: '/loop' } } },
  self: { $value: 'ref', to: '' },
  literal: { $value: 'literal', object: { $value: 'NaN', $match: 'any' } },
};

test('escapes become real JavaScript values in what the implementation receives', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act(bind('notes.list', 'b1', returns({})));
  d.journal();
  await d.act(invoke('i1', 'notes.list', ESCAPED_INPUT));
  const [{ request }] = d.calls('invoke');
  assert.deepEqual(request.input, {
    nan: { '#': 'NaN' },
    inf: { '#': 'Infinity' },
    ninf: { '#': '-Infinity' },
    nzero: { '#': '-0' },
    undef: { '#': 'undefined' },
    list: [1, { '#': 'undefined' }],
    fn: { '#': 'function' },
    sym: { '#': 'symbol' },
    big: { '#': 'bigint', digits: '9007199254740993' },
    point: { '#': 'instance', class: 'Point', fields: { x: 1, y: { '#': 'NaN' } } },
    other: { '#': 'instance', class: 'Point', fields: {} },
    bare: { '#': 'null-prototype', fields: { x: 1 } },
    holes: { '#': 'sparse', length: 3, items: [1, { '#': 'hole' }, 3] },
    shared: { k: 1 },
    again: { '#': 'same', as: '/input/shared' },
    intoInstance: 1,
    loop: { inner: { up: { '#': 'same', as: '/input/loop' } } },
    self: { '#': 'same', as: '/input' },
    literal: { $value: 'NaN', $match: 'any' },
  });
}));

test('observations write back as escapes what JSON cannot hold', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act(bind('notes.list', 'b1', returns({})));
  await d.act(invoke('i1', 'notes.list', ESCAPED_INPUT));
  const [call] = await d.observe({ expect: 'handler-calls' });
  assert.deepEqual(call.input, {
    ...ESCAPED_INPUT,
    again: { k: 1 },
    intoInstance: 1,
    loop: { inner: { up: { $value: 'ref', to: '/loop' } } },
    bare: { x: 1 },
    holes: { $value: 'sparse-array', length: 3, items: { 0: 1, 2: 3 } },
  });
}));

test('settlement values become JavaScript values; outputs come back as escapes', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  const output = { v: { $value: 'NaN' }, c: { $value: 'class-instance', class: 'Note', fields: { t: 'a' } }, me: { $value: 'ref', to: '' } };
  await d.act(bind('notes.list', 'b1', returns(output)));
  await d.act(bind('notes.delete', 'b2', returns({ $value: 'undefined' })));
  d.journal();
  await d.act(invoke('i1', 'notes.list', {}));
  await d.act(invoke('i2', 'notes.delete', {}));
  const settled = d.calls('handlerSettled');
  assert.deepEqual(settled[0].output, { v: { '#': 'NaN' }, c: { '#': 'instance', class: 'Note', fields: { t: 'a' } }, me: { '#': 'same', as: '' } });
  assert.deepEqual(settled[1].output, { '#': 'undefined' });
  assert.deepEqual((await d.observe(outcome('i1'))).output, output, 'the double passes outputs through unchanged');
  assert.deepEqual((await d.observe(outcome('i2'))).output, { $value: 'undefined' });
}));

test('a ref that names nothing, or itself, is an adapter error', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  assert.equal((await d.step(invoke('i1', 'notes.list', { a: { $value: 'ref', to: '/missing' } }))).reply, 'error');
  assert.equal((await d.step(invoke('i2', 'notes.list', { a: { $value: 'ref', to: '/b' }, b: { $value: 'ref', to: '/a' } }))).reply, 'error');
  assert.equal((await d.step(invoke('i3', 'notes.list', { $value: 'ref', to: '' }))).reply, 'error');
  assert.equal((await d.step(invoke('i4', 'notes.list', { $value: 'sparse-array', length: 1, items: { 5: 1 } }))).reply, 'error');
}));

// ------------------------------------------------------------------------------------------------
// Issue 12 section 4: JavaScript optionality, resolving without an id, "no signal"
// ------------------------------------------------------------------------------------------------

/** A setup whose application id selects one of the double's quirks. */
function quirkSetup(quirk, options) {
  const out = { definition: definition([], { id: quirk }) };
  if (options !== undefined) out.options = options;
  return out;
}

test('an optional member whose value is undefined is observed as absent in protocol objects', () => withDriver(async (d) => {
  await d.startOk(quirkSetup('undefined-members', { ...allowPolicy, events: 'records' }));
  await d.act({ host: 'set-context', context: { activeScopeIds: ['notes'] } });
  await d.act(bind('notes.list', 'b1', returns({ kept: true })));
  const snapshot = await d.observe({ expect: 'snapshot' });
  assert.deepEqual(snapshot.context, { activeScopeIds: ['notes'] }, 'primaryScopeId: undefined is absent');
  for (const entry of snapshot.capabilities) {
    assert.ok(!Object.hasOwn(entry, 'usage') && !Object.hasOwn(entry, 'availability'), JSON.stringify(entry));
  }
  await d.act({ client: 'get-snapshot', as: 's1' });
  assert.deepEqual((await d.observe({ expect: 'snapshot', of: 's1' })).context, { activeScopeIds: ['notes'] });
  await d.act(invoke('i1', 'notes.list', {}));
  assert.deepEqual(await d.observe(outcome('i1')), { status: 'succeeded', invocationId: 'i1', capabilityId: 'notes.list', output: { kept: true } },
    'error: undefined on a success is absent');
  await d.act(invoke('i2', 'notes.create', {}));
  assert.deepEqual(await d.observe(outcome('i2')), { status: 'failed', invocationId: 'i2', capabilityId: 'notes.create', code: 'CAPABILITY_UNBOUND' },
    'validationIssues: undefined is absent');
  const [policyCall] = await d.observe({ expect: 'policy-calls' });
  assert.deepEqual(policyCall, { capabilityId: 'notes.list', input: {}, semanticContext: { activeScopeIds: ['notes'] }, confirmed: false });
  const [handlerCall] = await d.observe({ expect: 'handler-calls' });
  assert.deepEqual(handlerCall, { capabilityId: 'notes.list', input: {}, invocationId: 'i1', semanticContext: { activeScopeIds: ['notes'] } });
  assert.deepEqual(await d.observe({ expect: 'handler-context', call: 1 }),
    { invocationId: 'i1', semanticContext: { activeScopeIds: ['notes'] }, signalAborted: false }, 'requestedAt: undefined is absent');
  const events = await d.observe({ expect: 'events' });
  assert.ok(events.length > 0);
  for (const event of events) assert.deepEqual(Object.keys(event), ['invocationId', 'phase'], 'capabilityId: undefined is absent');
}));

test('caller-owned values keep a present undefined member as an escape', () => withDriver(async (d) => {
  await d.startOk(quirkSetup('undefined-members', gatedPolicy));
  await d.act(bind('notes.list', 'b1', returns({})));
  await d.act(invoke('i1', 'notes.list', { gone: { $value: 'undefined' }, kept: 1 }));
  assert.deepEqual(await d.observe({ expect: 'caller-input', of: 'i1' }), { gone: { $value: 'undefined' }, kept: 1 });
  const [policyCall] = await d.observe({ expect: 'policy-calls' });
  assert.deepEqual(policyCall.input, { gone: { $value: 'undefined' }, kept: 1 }, 'an input payload keeps every key it was given');
}));

test('resolve-confirmation of a pending or failed outcome calls resolveConfirmation with undefined', () => withDriver(async (d) => {
  await d.startOk(setup(gatedPolicy));
  await d.act(bind('notes.delete', 'b1', returns({})));
  await d.act(invoke('i1', 'notes.delete', {}));
  await d.act(invoke('i2', 'notes.create', {}));
  d.journal();
  await d.act({ host: 'resolve-confirmation', as: 'r1', confirmation: { of: 'i1' }, approved: true });
  await d.act({ host: 'resolve-confirmation', as: 'r2', confirmation: { of: 'i2' }, approved: false });
  assert.deepEqual(d.calls('resolveConfirmation'), [
    { call: 'resolveConfirmation', id: { '#': 'undefined' }, approved: true },
    { call: 'resolveConfirmation', id: { '#': 'undefined' }, approved: false },
  ]);
  assert.equal((await d.observe(outcome('r1'))).code, 'CONFIRMATION_NOT_FOUND');
  assert.equal((await d.observe(outcome('r2'))).code, 'CONFIRMATION_NOT_FOUND');
}));

for (const quirk of ['signal-absent', 'signal-undefined', 'signal-null']) {
  test(`no signal (${quirk}) is null in handler-signal and in handler-context alike`, () => withDriver(async (d) => {
    await d.startOk(quirkSetup(quirk, allowPolicy));
    await d.act(bind('notes.list', 'b1', gated));
    await d.act(invoke('i1', 'notes.list', {}));
    await d.act(invoke('i2', 'notes.list', {}, { signal: 's1' }));
    assert.equal(await d.observe({ expect: 'handler-signal', call: 1 }), null);
    assert.deepEqual(await d.observe({ expect: 'handler-context', call: 1 }),
      { invocationId: 'i1', requestedAt: 0, semanticContext: { activeScopeIds: [] }, signalAborted: null });
    assert.equal(await d.observe({ expect: 'handler-signal', call: 2 }), false, 'a caller signal is still observed');
    assert.equal((await d.observe({ expect: 'handler-context', call: 2 })).signalAborted, false);
  }));
}

// ------------------------------------------------------------------------------------------------
// Issue 12 section 6: a policy that answers by what it is asked
// ------------------------------------------------------------------------------------------------

const byRequest = (rules) => ({ policy: { mode: 'by-request', rules } });

test('by-request: the first rule matching capability and confirmed decides; no match throws the marker', () => withDriver(async (d) => {
  await d.startOk(setup({
    ...byRequest([
      { capability: 'notes.delete', confirmed: false, settle: { return: { decision: 'confirm' } } },
      { capability: 'notes.delete', confirmed: true, settle: { return: ALLOW }, async: true },
      { confirmed: false, capability: 'notes.list', settle: { return: ALLOW } },
      { capability: 'notes.list', settle: { return: { decision: 'deny' } } },
      { capability: 'notes.create', settle: { throw: 'error' } },
    ]),
    createId: 'sequential',
  }));
  await d.act(bind('notes.delete', 'b1', returns({ deleted: true })));
  await d.act(bind('notes.list', 'b2', returns({ listed: true })));
  await d.act(bind('notes.create', 'b3', returns({})));
  await d.act(bind('double.throws', 'b4', returns({})));
  d.journal();
  await d.act(invoke('i1', 'notes.delete', {}));
  assert.equal((await d.observe(outcome('i1'))).status, 'confirmation_required');
  const [first] = d.calls('policyResult');
  assert.equal(first.isPromise, false, 'a rule without async settles synchronously');
  await d.act({ host: 'resolve-confirmation', as: 'r1', confirmation: { of: 'i1' }, approved: true });
  const [second] = d.calls('policyResult');
  assert.equal(second.isPromise, true, 'async: true returns a promise');
  assert.deepEqual((await d.observe(outcome('r1'))).output, { deleted: true }, 'the confirmed pass matched the confirmed: true rule');
  await d.act(invoke('i2', 'notes.list', {}));
  assert.deepEqual((await d.observe(outcome('i2'))).output, { listed: true });
  await d.act(invoke('i3', 'notes.create', { text: 'a' }));
  assert.equal((await d.observe(outcome('i3'))).code, 'POLICY_EVALUATION_FAILED');
  d.journal();
  await d.act(invoke('i4', 'notes.delete', {}));
  const policyCalls = await d.observe({ expect: 'policy-calls' });
  assert.deepEqual(policyCalls.map((c) => [c.capabilityId, c.confirmed]), [
    ['notes.delete', false], ['notes.delete', true], ['notes.list', false], ['notes.create', false], ['notes.delete', false],
  ], 'every policy call is recorded, as in the other modes');
}));

test('by-request: a call no rule matches throws new Error("host-secret-7f3a") synchronously', () => withDriver(async (d) => {
  await d.startOk(setup(byRequest([{ capability: 'notes.list', confirmed: true, settle: { return: ALLOW } }])));
  await d.act(bind('notes.list', 'b1', returns({})));
  d.journal();
  await d.act(invoke('i1', 'notes.list', {}));
  const journal = d.journal();
  assert.deepEqual(journal.filter((e) => e.call === 'policyResult'), [{ call: 'policyResult', invocationId: 'i1', isPromise: false, threwSynchronously: true }]);
  const [settled] = journal.filter((e) => e.call === 'policySettled');
  assert.deepEqual(settled.threw, { name: 'Error', message: SECRET });
  assert.equal((await d.observe(outcome('i1'))).code, 'POLICY_EVALUATION_FAILED');
  assert.equal((await d.observe({ expect: 'policy-calls' })).length, 1);
}));

test('by-request: settlements take throw kinds and mutateInput; gate policy and malformed rules are adapter errors', () => withDriver(async (d) => {
  await d.startOk(setup(byRequest([
    { capability: 'notes.list', settle: { throw: 'abort-error' }, async: true },
    { settle: { return: ALLOW, mutateInput: [{ pointer: '/text', value: 'rewritten' }] } },
  ])));
  await d.act(bind('notes.list', 'b1', returns({})));
  await d.act(bind('notes.create', 'b2', returns({})));
  d.journal();
  await d.act(invoke('i1', 'notes.list', {}));
  assert.deepEqual(d.calls('policySettled')[0].threw, { name: 'AbortError', message: SECRET });
  await d.act(invoke('i2', 'notes.create', { text: 'a' }));
  const [, call] = await d.observe({ expect: 'policy-calls' });
  assert.deepEqual(call.input, { text: 'a' }, 'records are call-time copies');
  assert.deepEqual((await d.observe({ expect: 'caller-input', of: 'i2' })).text, 'rewritten', 'the double does not detach');
  assert.equal((await d.step({ gate: 'policy', call: 1, settle: { return: ALLOW } })).reply, 'error', 'a by-request policy has no gates');
  for (const rules of [undefined, {}, [1], [{ settle: { return: ALLOW }, colour: 'red' }], [{ capability: 3, settle: { return: ALLOW } }],
    [{ confirmed: 'yes', settle: { return: ALLOW } }], [{ settle: { return: ALLOW }, async: 'no' }], [{ capability: 'x' }],
    [{ settle: { throw: 'mystery' } }]]) {
    assert.equal((await d.start(setup(byRequest(rules)))).reply, 'error', JSON.stringify(rules));
  }
  assert.deepEqual(await d.start(setup(byRequest([]))), { reply: 'done' }, 'no rules: every call throws');
}));

// ------------------------------------------------------------------------------------------------
// Assist (profile assist) through createRcipAssist (lib/assist.mjs), against test/double-assist.mjs
// ------------------------------------------------------------------------------------------------

test('a module exporting createRcipAssist declares assist with its exported batch bound', () => withDriver(async (d) => {
  const hello = await d.hello();
  assert.deepEqual(hello.profiles, ['events', 'assist']);
  assert.equal(hello.assistBatchBound, 5);
}, { module: DOUBLE_ASSIST }));

test('assist-turn creates an orchestrator with the setup and runs a turn; calls are recorded; gates settle them', () => withDriver(async (d) => {
  await d.startOk(setup({ ...gatedPolicy, createId: 'sequential' }, { assist: { batchBound: 3, delays: { short: 10 } } }));
  await d.act(bind('notes.list', 'b1', returns({ listed: true })));
  await d.act(bind('notes.delete', 'b2', returns({ deleted: true })));
  d.journal();
  await d.act({ client: 'assist-turn', as: 't1', mode: 'default', messages: [{ role: 'user', content: 'go' }], signal: 's1' });
  const journal = d.journal();
  assert.deepEqual(journal.find((e) => e.call === 'createRcipAssist').members, {
    client: 'object', host: 'object', respond: 'function', confirm: 'function', batchBound: 3, delays: 'object',
  });
  assert.deepEqual(journal.find((e) => e.call === 'runTurn'), {
    call: 'runTurn', keys: ['mode', 'messages', 'signal'], mode: 'default', messages: [{ role: 'user', content: 'go' }], signalIsAbortSignal: true,
  });
  const ids = ['notes.create', 'notes.delete', 'notes.list', 'double.throws', 'double.rejects'];
  const decide = { phase: 'decide', mode: 'default', capabilities: ids, messages: [{ content: 'go', role: 'user' }], outcomes: [] };
  assert.deepEqual(await d.observe({ expect: 'assist-turn', of: 't1' }), { result: 'pending', calls: [decide] });
  assert.deepEqual(await d.step({ gate: 'assist', call: 2, settle: { text: 'x' } }), { reply: 'threw' }, 'a decision call never made');
  await d.act({ gate: 'assist', call: 1, settle: { actions: [
    { capabilityId: 'notes.list', input: {} },
    { capabilityId: 'notes.delete', input: { n: { $value: 'NaN' } }, delay: 'short' },
  ] } });
  assert.deepEqual(d.calls('answer')[0].answer, { actions: [
    { capabilityId: 'notes.list', input: {} },
    { capabilityId: 'notes.delete', input: { n: { '#': 'NaN' } }, delay: 'short' },
  ] }, 'escapes in action inputs become JavaScript values');
  assert.equal((await d.step({ gate: 'assist', call: 1, settle: { text: 'x' } })).reply, 'error', 'settled twice');
  await d.act({ gate: 'policy', call: 1, settle: { return: ALLOW } });
  await d.act({ gate: 'policy', call: 2, settle: { return: { decision: 'confirm' } } });
  assert.deepEqual(await d.step({ host: 'resolve-confirmation', as: 'r0', confirmation: { turn: 't1', action: 1 }, approved: true }), { reply: 'threw' },
    'action 1 never asked the host UI');
  assert.equal(await d.observe(outcome('r0')), 'threw');
  d.journal();
  await d.act({ host: 'resolve-confirmation', as: 'r1', confirmation: { turn: 't1', action: 2 }, approved: true });
  assert.deepEqual(d.calls('resolveConfirmation'), [{ call: 'resolveConfirmation', id: 'confirmation-1', approved: true }]);
  assert.equal((await d.step({ host: 'resolve-confirmation', as: 'r2', confirmation: { turn: 't1', action: 2 }, approved: true })).reply, 'threw',
    'the host UI resolves an action once');
  assert.equal(await d.observe(outcome('r1')), 'pending');
  await d.act({ gate: 'policy', call: 3, settle: { return: ALLOW } });
  const deleted = { status: 'succeeded', invocationId: 'invocation-2', capabilityId: 'notes.delete', output: { deleted: true } };
  assert.deepEqual(await d.observe(outcome('r1')), deleted);
  const listed = { status: 'succeeded', invocationId: 'invocation-1', capabilityId: 'notes.list', output: { listed: true } };
  const summarize = { ...decide, phase: 'summarize', outcomes: [listed, deleted] };
  assert.deepEqual(await d.observe({ expect: 'assist-turn', of: 't1' }), { result: 'pending', calls: [decide, summarize] },
    'the turn went on with the resolution\'s outcome');
  await d.act({ gate: 'assist', call: 2, settle: { text: 'Done.' } });
  assert.deepEqual(await d.observe({ expect: 'assist-turn', of: 't1' }), { result: { text: 'Done.', outcomes: [listed, deleted] }, calls: [decide, summarize] });
  assert.equal((await d.step({ expect: 'assist-turn', of: 'nope' })).reply, 'error');
  assert.equal((await d.step({ client: 'assist-turn', as: 't1', mode: 'default', messages: [] })).reply, 'error', 'a turn handle used twice');
}, { module: DOUBLE_ASSIST }));

test('assist answers: throw rejects the call; malformed answers and items become the values of the vocabulary', () => withDriver(async (d) => {
  await d.startOk(setup(allowPolicy));
  await d.act({ client: 'assist-turn', as: 't1', mode: 'read-only', messages: [] });
  await d.act({ gate: 'assist', call: 1, settle: { throw: 'error' } });
  assert.equal((await d.observe({ expect: 'assist-turn', of: 't1' })).result, 'threw');
  await d.act({ client: 'assist-turn', as: 't2', mode: 'default', messages: [] });
  d.journal();
  await d.act({ gate: 'assist', call: 2, settle: { malformed: 'not-an-answer' } });
  assert.deepEqual(d.calls('answer')[0].answer, 42);
  assert.deepEqual((await d.observe({ expect: 'assist-turn', of: 't2' })).result, { text: null, outcomes: [] }, 'text undefined reads as null');
  await d.act({ client: 'assist-turn', as: 't3', mode: 'default', messages: [] });
  await d.act({ gate: 'assist', call: 3, settle: { actions: [{ malformed: 'not-an-object' }, { malformed: 'no-capability' }, { capabilityId: 'notes.list', input: {}, delay: 'forever' }] } });
  assert.deepEqual(d.calls('answer')[0].answer, { actions: [7, { input: {} }, { capabilityId: 'notes.list', input: {}, delay: 'forever' }] });
  assert.equal((await d.step({ gate: 'assist', call: 4, settle: { throw: 'abort-error' } })).reply, 'error', 'only error is a thrown answer');
  assert.deepEqual(await d.step({ client: 'assist-turn', as: 't4', mode: 'default', messages: ['explode'] }), { reply: 'threw' });
  assert.equal((await d.observe({ expect: 'assist-turn', of: 't4' })).result, 'threw');
  assert.equal((await d.start(setup(allowPolicy, { assist: { batchBound: 'x' } }))).reply, 'error', 'a malformed assist setup');
}, { module: DOUBLE_ASSIST }));
