// The Assist side of one RCIP case (vectors/README.md "Assist (profile `assist`)", CLARIFICATIONS
// C01..C06), for a module exporting `createRcipAssist`. Section C names no JavaScript API, so the
// adapter drives this one (the subject in ../subject/ implements it):
//
//   createRcipAssist({ client, host, respond, confirm, batchBound?, delays?: { short?, medium?, long? } })
//     -> { runTurn({ mode, messages, signal? }) -> Promise<{ text, outcomes }> }
//   respond({ phase, mode, snapshot, messages, outcomes }) -> { text } | { actions: [...] } (or a promise)
//   confirm({ outcome, action, index }) -> the outcome of the host UI's resolution (or a promise)
//
// Every turn gets its own orchestrator (same client, host and configuration), so each call of
// `respond` and `confirm` is known to belong to its turn. `respond` is the decision callback: each
// call is recorded (deep-copied at call time) and returns a promise a `gate: assist` step settles.
// `confirm` is the trusted host UI: it waits for a `resolve-confirmation` step naming the turn and
// the action, which calls `host.resolveConfirmation` and hands the orchestrator that very promise.

import { fail, fromWire, toWire, toWireOptional } from './values.mjs';

/** The marker every scripted host error carries (vectors/README.md; CL-B02). */
const HOST_SECRET = 'host-secret-7f3a';

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `setup.assist` as createRcipAssist options: only the members the vector gives. */
export function assistOptions(setup) {
  if (setup === undefined) return {};
  if (!isObject(setup)) fail('setup.assist must be an object');
  const options = {};
  for (const key of Object.keys(setup)) {
    if (!['batchBound', 'delays'].includes(key)) fail(`setup.assist has an unexpected member ${JSON.stringify(key)}`);
  }
  if (setup.batchBound !== undefined) {
    if (!Number.isInteger(setup.batchBound)) fail('setup.assist.batchBound must be an integer');
    options.batchBound = setup.batchBound;
  }
  if (setup.delays !== undefined) {
    if (!isObject(setup.delays)) fail('setup.assist.delays must be an object');
    options.delays = {};
    for (const [name, ms] of Object.entries(setup.delays)) {
      if (!['short', 'medium', 'long'].includes(name) || !Number.isInteger(ms)) fail(`setup.assist.delays.${name} must be an integer delay`);
      options.delays[name] = ms;
    }
  }
  return options;
}

/** A vector answer `A` (the gate's `settle`) as the value `respond` resolves with. */
export function answerValue(settle) {
  if (!isObject(settle)) fail('an assist answer must be an object');
  if (Object.hasOwn(settle, 'throw')) {
    if (settle.throw !== 'error') fail(`unknown assist throw ${JSON.stringify(settle.throw)}`);
    return { error: new Error(HOST_SECRET) };
  }
  if (Object.hasOwn(settle, 'text')) return { value: { text: fromWire(settle.text) } };
  if (settle.malformed === 'not-an-answer') return { value: 42 };
  if (!Array.isArray(settle.actions)) fail(`not an assist answer: ${JSON.stringify(settle)}`);
  const actions = settle.actions.map((item) => {
    if (!isObject(item)) fail('each assist action must be an object');
    if (item.malformed === 'not-an-object') return 7;
    if (item.malformed === 'no-capability') return { input: {} };
    if (item.malformed !== undefined) fail(`unknown malformed action ${JSON.stringify(item.malformed)}`);
    const action = { capabilityId: item.capabilityId, input: fromWire(item.input) };
    if (Object.hasOwn(item, 'delay')) action.delay = item.delay;
    return action;
  });
  return { value: { actions } };
}

/** The ids of the snapshot the callback received, in its order. */
function capabilityIds(snapshot) {
  const list = isObject(snapshot) ? snapshot.capabilities : undefined;
  if (!Array.isArray(list)) return toWireOptional(list);
  return list.map((item) => toWire(isObject(item) ? item.id : item));
}

/**
 * The turns of one case. `kase` is the RcipCase (its runtimes, signals, outcome handles, hooks);
 * `canonicalOutcome` writes an outcome the way `outcome` observes it.
 */
export class AssistTurns {
  constructor(kase, options, canonicalOutcome) {
    this.kase = kase;
    this.options = options;
    this.canonicalOutcome = canonicalOutcome;
    this.turns = new Map();
    /** Every call of every turn's decision callback, in call order (the `gate: assist` k). */
    this.calls = [];
  }

  startTurn(step) {
    const kase = this.kase;
    const name = step.as;
    if (typeof name !== 'string' || name === '') fail('assist-turn needs a handle name');
    if (this.turns.has(name)) fail(`turn handle ${JSON.stringify(name)} is used twice`);
    if (!Array.isArray(step.messages)) fail('assist-turn messages must be an array');
    const rt = kase.runtimes.get('');
    const turn = { calls: [], invocations: [], confirmations: new Map(), handle: { state: 'threw', value: undefined, error: undefined } };
    this.turns.set(name, turn);
    const respond = (request) => {
      kase.hooks.activity();
      const call = { turn: name, settled: false, resolve: undefined, reject: undefined };
      const promise = new Promise((resolve, reject) => {
        call.resolve = resolve;
        call.reject = reject;
      });
      kase.guard(() => turn.calls.push({
        phase: toWireOptional(request && request.phase),
        mode: toWireOptional(request && request.mode),
        capabilities: capabilityIds(request && request.snapshot),
        messages: toWire(request && request.messages),
        outcomes: Array.isArray(request && request.outcomes)
          ? request.outcomes.map((outcome) => this.canonicalOutcome(outcome))
          : toWireOptional(request && request.outcomes),
      }));
      this.calls.push(call);
      return promise;
    };
    const confirm = (request) => {
      kase.hooks.activity();
      const index = request && Number.isInteger(request.index) ? request.index + 1 : turn.confirmations.size + 1;
      return new Promise((resolve, reject) => {
        turn.confirmations.set(index, { outcome: request && request.outcome, resolve, reject, resolved: false });
      });
    };
    const request = { mode: step.mode, messages: fromWire(step.messages) };
    if (Object.hasOwn(step, 'signal')) request.signal = kase.signalNamed(step.signal).signal;
    return kase.attempt('createRcipAssist / runTurn', () => {
      const client = recordingClient(rt.client, (request) => kase.guard(() => turn.invocations.push({
        capabilityId: toWireOptional(request && request.capabilityId),
        input: toWire(request && request.input),
      })));
      const assist = kase.module.createRcipAssist({ client, host: rt.host, respond, confirm, ...this.options });
      turn.handle = kase.track(assist.runTurn(request), 'runTurn');
    });
  }

  /** `gate: assist` call k; a call never made answers `threw` (as for the RCIP gates). */
  gate(step) {
    const k = step.call;
    if (!Number.isInteger(k) || k < 1) fail('gate assist call must be an integer >= 1');
    const answer = answerValue(step.settle);
    const call = this.calls[k - 1];
    if (call === undefined) {
      this.kase.hooks.log(`gate assist call ${k}: only ${this.calls.length} decision call(s) were made`);
      return { reply: 'threw' };
    }
    if (call.settled) fail(`gate assist call ${k} was already settled`);
    call.settled = true;
    if (answer.error !== undefined) call.reject(answer.error);
    else call.resolve(answer.value);
    return { reply: 'done' };
  }

  /**
   * The host UI resolves the confirmation of action k of a turn through `host.resolveConfirmation`;
   * the resolution is handle `as`, and the orchestrator continues with that same promise. An
   * action that never asked the host UI answers `threw`.
   */
  resolve(step) {
    const kase = this.kase;
    const name = step.as;
    const { turn: turnName, action } = step.confirmation;
    const turn = this.turns.get(turnName);
    if (turn === undefined) fail(`no turn named ${JSON.stringify(turnName)} in this case`);
    if (!Number.isInteger(action) || action < 1) fail('confirmation action must be an integer >= 1');
    kase.outcomes.set(name, { state: 'threw', error: undefined });
    const pending = turn.confirmations.get(action);
    if (pending === undefined || pending.resolved) {
      kase.hooks.log(`resolve-confirmation: action ${action} of ${turnName} is not waiting for the host UI`);
      return { reply: 'threw' };
    }
    pending.resolved = true;
    const confirmation = isObject(pending.outcome) ? pending.outcome.confirmation : undefined;
    const id = isObject(confirmation) ? confirmation.id : undefined;
    const rt = kase.runtimes.get('');
    return kase.attempt('resolveConfirmation', () => {
      let result;
      try {
        result = rt.host.resolveConfirmation(id, step.approved);
      } catch (error) {
        pending.reject(error);
        throw error;
      }
      kase.outcomes.set(name, kase.track(result, 'resolveConfirmation'));
      pending.resolve(result);
    });
  }

  /** `expect: assist-invocations`: every invoke the orchestrator made for turn `of`, in order. */
  invocations(step) {
    const turn = this.turns.get(step.of);
    if (turn === undefined) fail(`no turn named ${JSON.stringify(step.of)} in this case`);
    return turn.invocations;
  }

  observe(step) {
    const turn = this.turns.get(step.of);
    if (turn === undefined) fail(`no turn named ${JSON.stringify(step.of)} in this case`);
    const { handle } = turn;
    let result;
    if (handle.state === 'pending') result = 'pending';
    else if (handle.state === 'threw') result = 'threw';
    else if (!isObject(handle.value)) result = toWireOptional(handle.value);
    else {
      const { text, outcomes } = handle.value;
      result = {
        text: text === undefined ? null : toWireOptional(text),
        outcomes: Array.isArray(outcomes) ? outcomes.map((outcome) => this.canonicalOutcome(outcome)) : toWireOptional(outcomes),
      };
    }
    return { result, calls: turn.calls };
  }
}

/**
 * The runtime's client as the orchestrator sees it, recording each `invoke` request (its
 * capability id and input at call time) before passing it on unchanged. Every other member is the
 * client's own, bound to it, so private state and identity-sensitive code still work.
 */
function recordingClient(client, record) {
  return new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property === 'invoke' && typeof value === 'function') {
        return (request) => {
          record(request);
          return value.call(target, request);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

