// End-to-end checks of the adapter against a real implementation: the JavaScript subject in
// ../subject/ (an RCIP runtime and Assist orchestrator written from the texts). The scripted
// double (test/double.mjs) checks the step mapping; these check what only a real implementation
// showed: the Assist API the adapter drives (createRcipAssist, respond, confirm) works end to end,
// a turn's confirmation reaches the runtime's own resolveConfirmation, protocol objects come back
// canonical, and an `undefined` confirmation id reaches the implementation as itself.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { ALLOW, Driver, bind, gated, invoke, outcome, returns, setup } from './driver.mjs';

const SUBJECT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'subject', 'index.mjs');

async function withSubject(body) {
  const driver = new Driver({ module: SUBJECT });
  try {
    await body(driver);
  } finally {
    await driver.close();
  }
}

test('the subject declares rcip, events and assist with its batch bound', () => withSubject(async (d) => {
  const hello = await d.hello();
  assert.deepEqual(hello.protocols, ['rcip']);
  assert.deepEqual(hello.profiles, ['events', 'assist']);
  assert.equal(hello.assistBatchBound, 8);
  assert.equal(hello.implementation.name, 'rcip-subject-js');
}));

test('confirmation through the subject: confirmed pass, then the handler; resolving undefined is not found', () => withSubject(async (d) => {
  await d.startOk(setup({ policy: { mode: 'gated' }, createId: 'sequential', events: 'records' }));
  await d.act(bind('notes.delete', 'b1', returns({ deleted: true })));
  await d.act(invoke('i1', 'notes.delete', { id: 'n1' }));
  await d.act({ gate: 'policy', call: 1, settle: { return: { decision: 'confirm' } } });
  assert.deepEqual(await d.observe(outcome('i1')), {
    status: 'confirmation_required', invocationId: 'i1', capabilityId: 'notes.delete',
    confirmation: { id: 'confirmation-1', effect: 'destructive', expiresAt: 120000 },
  });
  await d.act({ host: 'resolve-confirmation', as: 'r1', confirmation: { of: 'i1' }, approved: true });
  await d.act({ gate: 'policy', call: 2, settle: { return: ALLOW } });
  assert.deepEqual(await d.observe(outcome('r1')), { status: 'succeeded', invocationId: 'i1', capabilityId: 'notes.delete', output: { deleted: true } });
  await d.act({ host: 'resolve-confirmation', as: 'r2', confirmation: { of: 'r1' }, approved: true });
  assert.deepEqual(await d.observe(outcome('r2')), { status: 'failed', invocationId: '', capabilityId: '', code: 'CONFIRMATION_NOT_FOUND' },
    'the adapter passed undefined and reports what the subject answered');
  assert.deepEqual((await d.observe({ expect: 'events' })).map((e) => e.phase),
    ['requested', 'confirmation_requested', 'started', 'succeeded']);
}));

test('an Assist turn through the subject: decide, actions, host-UI confirmation, summarize', () => withSubject(async (d) => {
  await d.startOk(setup({ policy: { mode: 'by-request', rules: [
    { capability: 'notes.delete', confirmed: false, settle: { return: { decision: 'confirm' } } },
    { settle: { return: ALLOW } },
  ] } }, { assist: { batchBound: 2, delays: { short: 50 } } }));
  await d.act(bind('notes.list', 'b1', returns({ listed: true })));
  await d.act(bind('notes.delete', 'b2', gated));
  await d.act({ client: 'assist-turn', as: 't1', mode: 'default', messages: [{ role: 'user', content: 'tidy' }] });
  await d.act({ gate: 'assist', call: 1, settle: { actions: [
    { capabilityId: 'notes.list', input: {}, delay: 'short' },
    { capabilityId: 'notes.delete', input: { id: 'n1' } },
  ] } });
  assert.equal((await d.observe({ expect: 'handler-calls' })).length, 1);
  assert.equal((await d.observe({ expect: 'policy-calls', capability: 'notes.delete' })).length, 0, 'the short delay is running');
  await d.act({ clock: 'advance', ms: 50 });
  const [, asked] = await d.observe({ expect: 'policy-calls' });
  assert.deepEqual([asked.capabilityId, asked.confirmed], ['notes.delete', false]);
  await d.act({ host: 'resolve-confirmation', as: 'r1', confirmation: { turn: 't1', action: 2 }, approved: true });
  await d.act({ gate: 'handler', call: 1, settle: { return: { deleted: true } } });
  assert.equal((await d.observe(outcome('r1'))).status, 'succeeded');
  const turn = await d.observe({ expect: 'assist-turn', of: 't1' });
  assert.equal(turn.result, 'pending');
  assert.deepEqual(turn.calls.map((c) => c.phase), ['decide', 'summarize']);
  assert.deepEqual(turn.calls[1].outcomes.map((o) => o.status), ['succeeded', 'succeeded']);
  await d.act({ gate: 'assist', call: 2, settle: { text: 'Tidied.' } });
  const done = await d.observe({ expect: 'assist-turn', of: 't1' });
  assert.equal(done.result.text, 'Tidied.');
  assert.deepEqual(done.result.outcomes.map((o) => o.capabilityId), ['notes.list', 'notes.delete']);
  assert.deepEqual(
    await d.observe({ expect: 'assist-invocations', of: 't1' }),
    [{ capabilityId: 'notes.list', input: {} }, { capabilityId: 'notes.delete', input: { id: 'n1' } }],
    'every invoke the orchestrator made, in order, with its input (issue 14)',
  );
  assert.equal((await d.step({ expect: 'assist-invocations', of: 'nope' })).reply, 'error');
}));
