// A scripted test double of the RCIP 2.x module (CLARIFICATIONS A01..A07), NOT an RCIP
// implementation: it exports the same functions, writes every call it receives to a journal (one
// JSON line each, in the file named by RCIP_DOUBLE_JOURNAL) with an exact description of the
// JavaScript values it was given, and behaves minimally but predictably so the adapter's mapping
// of every step can be checked: invoke looks up the binding, asks getAvailability, the policy and
// the handler, and settles to an outcome; a `confirm` decision makes a confirmation that expires
// on a setTimeout; every host change bumps the revision and notifies listeners.
//
// Deliberate quirks the tests rely on: a capability id `double.throws` makes invoke throw
// synchronously, `double.rejects` makes it return a rejected promise, `double.later` makes it
// settle after two chained 100 ms timers and `double.hops` after five setImmediate hops; an
// application id `explode` makes createRcipRuntime throw (and `chatty` makes it print to
// stdout); a capability effect `bogus` makes defineRcipCapability throw; an active scope id
// `undeclared` makes setContext throw; a failed outcome's message repeats the host error's
// message (a real runtime must not: CL-B02), so outcome-text has text to show.
//
// JavaScript optionality quirks (issue 12 section 4), chosen by the application id:
// `undefined-members` writes optional members with the value `undefined` into what it hands out
// (snapshot, its context and entries, policy and handler contexts, outcomes, events), and
// `signal-absent`, `signal-undefined`, `signal-null` give a handler whose caller passed no signal
// a `ctx` without `signal`, with `signal: undefined`, or with `signal: null`.

import fs from 'node:fs';

export const RCIP_PROTOCOL_VERSION = '1.0';

const JOURNAL = process.env.RCIP_DOUBLE_JOURNAL;

/** An exact, JSON-safe description of a JavaScript value, for the tests to inspect. */
export function describe(value, seen = new Map(), path = '') {
  switch (typeof value) {
    case 'undefined': return { '#': 'undefined' };
    case 'number':
      if (Number.isNaN(value)) return { '#': 'NaN' };
      if (value === Infinity) return { '#': 'Infinity' };
      if (value === -Infinity) return { '#': '-Infinity' };
      if (Object.is(value, -0)) return { '#': '-0' };
      return value;
    case 'bigint': return { '#': 'bigint', digits: value.toString() };
    case 'symbol': return { '#': 'symbol' };
    case 'function': return { '#': 'function' };
    case 'string':
    case 'boolean':
      return value;
    default:
      break;
  }
  if (value === null) return null;
  if (seen.has(value)) return { '#': 'same', as: seen.get(value) };
  seen.set(value, path);
  if (Array.isArray(value)) {
    const holes = [];
    const items = [];
    for (let i = 0; i < value.length; i += 1) {
      if (Object.hasOwn(value, i)) items.push(describe(value[i], seen, `${path}/${i}`));
      else {
        holes.push(i);
        items.push({ '#': 'hole' });
      }
    }
    return holes.length === 0 ? items : { '#': 'sparse', length: value.length, items };
  }
  const fields = {};
  for (const key of Object.keys(value)) fields[key] = describe(value[key], seen, `${path}/${key}`);
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype) return fields;
  if (proto === null) return { '#': 'null-prototype', fields };
  return { '#': 'instance', class: proto.constructor && proto.constructor.name, fields };
}

const handlerSerials = new WeakMap();
let nextHandlerSerial = 1;

/** A serial number per distinct handler object bound, so tests can see identity. */
function handlerSerial(handler) {
  if (!handlerSerials.has(handler)) handlerSerials.set(handler, nextHandlerSerial++);
  return handlerSerials.get(handler);
}

export function note(call, data = {}) {
  if (JOURNAL) fs.appendFileSync(JOURNAL, `${JSON.stringify({ call, ...data })}\n`);
}

export function defineRcipScope(scope) {
  note('defineRcipScope', { scope: describe(scope) });
  return scope;
}

export function defineRcipCapability(capability) {
  note('defineRcipCapability', { capability: describe(capability) });
  if (capability && capability.effect === 'bogus') throw new Error('invalid effect');
  return capability;
}

export function defineRcipApplication(definition) {
  note('defineRcipApplication', { definition: describe(definition) });
  return definition;
}

function outcomeError(status, invocationId, capabilityId, code, message, extra = {}) {
  return { status, invocationId, capabilityId, error: { code, message, ...extra } };
}

function deepFreeze(value) {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze(value[key]);
  }
  return value;
}

export function createRcipRuntime(definition, options) {
  note('createRcipRuntime', {
    argumentCount: arguments.length,
    options: describe(options),
    now: Date.now(),
  });
  if (definition && definition.application && definition.application.id === 'explode') {
    throw new Error('host configuration error');
  }
  if (definition && definition.application && definition.application.id === 'chatty') {
    console.log('chatty implementation writes to stdout');
    process.stdout.write('and writes raw bytes too\n');
  }
  const opts = options || {};
  const quirk = definition && definition.application ? definition.application.id : undefined;
  const undefinedMembers = quirk === 'undefined-members';
  const ttl = opts.confirmationTtlMs ?? 120000;
  const catalog = definition.capabilities;
  const bindings = new Map();
  const pending = new Map();
  const expired = new Set();
  const listeners = new Set();
  const counters = new Map();
  let context = { activeScopeIds: [] };
  let revision = 1;
  let snapshot;

  const nextId = (prefix) => {
    if (opts.createId) return opts.createId(prefix);
    const n = (counters.get(prefix) || 0) + 1;
    counters.set(prefix, n);
    return `${prefix}-double-${n}`;
  };
  const emit = (phase, invocationId, capabilityId) => {
    if (!opts.onEvent) return;
    try {
      opts.onEvent(undefinedMembers ? { phase, invocationId, capabilityId: undefined } : { phase, invocationId, capabilityId });
    } catch (error) {
      note('onEventThrew', { message: error.message });
    }
  };
  const bump = () => {
    revision += 1;
    snapshot = undefined;
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch (error) {
        note('listenerThrew', { message: error.message });
      }
    }
  };
  const entry = (capability) => ({
    id: capability.id,
    effect: capability.effect,
    bound: bindings.has(capability.id),
    ...(undefinedMembers ? { usage: undefined, availability: undefined } : {}),
  });
  const published = () => (undefinedMembers ? { primaryScopeId: undefined, ...context } : context);
  const getSnapshot = () => {
    if (snapshot === undefined) {
      snapshot = deepFreeze({
        protocolVersion: '1.0',
        revision,
        context: { ...published() },
        capabilities: catalog.map(entry),
      });
    }
    return snapshot;
  };

  async function runHandler(binding, input, invocationId, capabilityId, signal) {
    emit('started', invocationId, capabilityId);
    const ctx = { signal: signal || new AbortController().signal, invocationId, requestedAt: Date.now(), semanticContext: published() };
    if (!signal && quirk === 'signal-absent') delete ctx.signal;
    if (!signal && quirk === 'signal-undefined') ctx.signal = undefined;
    if (!signal && quirk === 'signal-null') ctx.signal = null;
    if (undefinedMembers) ctx.requestedAt = undefined;
    let result;
    try {
      result = binding.handler.execute(input, ctx);
      note('handlerResult', { capabilityId, isPromise: result instanceof Promise, threwSynchronously: false });
    } catch (error) {
      note('handlerResult', { capabilityId, isPromise: false, threwSynchronously: true });
      result = Promise.reject(error);
    }
    let output;
    try {
      output = await result;
    } catch (error) {
      note('handlerSettled', { capabilityId, threw: { name: error.name, message: error.message }, inputAfter: describe(input) });
      emit('failed', invocationId, capabilityId);
      const code = error.name === 'AbortError' ? 'EXECUTION_ABORTED' : 'EXECUTION_FAILED';
      return outcomeError('failed', invocationId, capabilityId, code, `handler failed: ${error.message}`);
    }
    note('handlerSettled', { capabilityId, output: describe(output), inputAfter: describe(input) });
    emit('succeeded', invocationId, capabilityId);
    bump();
    return { status: 'succeeded', invocationId, capabilityId, output };
  }

  async function decide(capability, input, confirmed, invocationId) {
    if (!opts.policy) return { decision: 'allow' };
    let result;
    try {
      result = opts.policy({ capability: entry(capability), input, semanticContext: published(), confirmed });
    } catch (error) {
      note('policyResult', { invocationId, isPromise: false, threwSynchronously: true });
      throw error;
    }
    note('policyResult', { invocationId, isPromise: result instanceof Promise, threwSynchronously: false });
    const decision = await result;
    note('policySettled', { invocationId, decision: describe(decision) });
    return decision;
  }

  async function run(request, invocationId) {
    const capabilityId = request.capabilityId;
    const input = request.input;
    emit('requested', invocationId, capabilityId);
    const capability = catalog.find((c) => c.id === capabilityId);
    if (!capability) return outcomeError('failed', invocationId, capabilityId, 'CAPABILITY_NOT_FOUND', 'unknown');
    const binding = bindings.get(capabilityId);
    if (!binding) return outcomeError('failed', invocationId, capabilityId, 'CAPABILITY_UNBOUND', 'unbound');
    if (binding.handler.getAvailability) {
      const availability = binding.handler.getAvailability();
      note('availability', { capabilityId, availability: describe(availability) });
      if (availability && availability.available === false) {
        return outcomeError('failed', invocationId, capabilityId, 'CAPABILITY_UNAVAILABLE', 'unavailable');
      }
    }
    const schema = capability.inputSchema || {};
    if (Array.isArray(schema.required) && schema.required.includes('text') && typeof (input && input.text) !== 'string') {
      return outcomeError('failed', invocationId, capabilityId, 'INPUT_INVALID', 'input invalid', {
        validationIssues: [{ instancePath: '/text', keyword: 'type', message: 'must be string' }],
      });
    }
    let decision;
    try {
      decision = await decide(capability, input, false, invocationId);
    } catch (error) {
      note('policySettled', { invocationId, threw: { name: error.name, message: error.message } });
      return outcomeError('failed', invocationId, capabilityId, 'POLICY_EVALUATION_FAILED', `policy failed: ${error.message}`);
    }
    if (request.signal && request.signal.aborted) {
      return outcomeError('failed', invocationId, capabilityId, 'EXECUTION_ABORTED', 'aborted');
    }
    if (decision && decision.decision === 'deny') {
      emit('denied', invocationId, capabilityId);
      return outcomeError('denied', invocationId, capabilityId, 'POLICY_DENIED', 'denied');
    }
    if (decision && decision.decision === 'confirm') {
      const id = nextId('confirmation');
      const expiresAt = Date.now() + ttl;
      const timer = setTimeout(() => {
        note('expired', { id, now: Date.now() });
        pending.delete(id);
        expired.add(id);
      }, ttl);
      pending.set(id, { request, invocationId, capability, binding, timer });
      emit('confirmation_requested', invocationId, capabilityId);
      return {
        status: 'confirmation_required', invocationId, capabilityId,
        confirmation: { id, title: 'Confirm', description: 'Please confirm', effect: capability.effect, expiresAt },
      };
    }
    return runHandler(binding, input, invocationId, capabilityId, request.signal);
  }

  /** Two chained 100 ms sleeps: the second timer exists only once the first one's promise settled. */
  async function later(request) {
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    await sleep(100);
    note('later', { now: Date.now() });
    await sleep(100);
    note('later', { now: Date.now() });
    return { status: 'succeeded', invocationId: request.invocationId, capabilityId: request.capabilityId, output: {} };
  }

  /** Settles after five macrotask hops (real setImmediate): only a settle loop waits for it. */
  async function hops(request) {
    for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
    return { status: 'succeeded', invocationId: request.invocationId, capabilityId: request.capabilityId, output: {} };
  }

  const client = {
    getSnapshot,
    listCapabilities(...args) {
      note('listCapabilities', { argumentCount: args.length, filter: describe(args[0]) });
      const filter = args[0] || {};
      return getSnapshot().capabilities.filter((c) => filter.effect === undefined || c.effect === filter.effect);
    },
    subscribe(listener) {
      note('subscribe', { listenerIsFunction: typeof listener === 'function' });
      listeners.add(listener);
      return () => {
        note('unsubscribe');
        listeners.delete(listener);
      };
    },
    invoke(...args) {
      const [request] = args;
      const isRequest = request !== null && typeof request === 'object';
      note('invoke', {
        argumentCount: args.length,
        request: describe(request),
        keys: isRequest ? Object.keys(request) : null,
        signalIsAbortSignal: isRequest && request.signal instanceof AbortSignal,
        now: Date.now(),
      });
      // A careless runtime: anything but an object makes it throw (the adapter records `threw`).
      if (!isRequest) throw new TypeError('not a request');
      if (request.capabilityId === 'double.throws') throw new Error('invoke threw');
      if (request.capabilityId === 'double.rejects') return Promise.reject(new Error('invoke rejected'));
      if (request.capabilityId === 'double.later') return later(request);
      if (request.capabilityId === 'double.hops') return hops(request);
      const invocationId = request.invocationId ?? nextId('invocation');
      if (!undefinedMembers) return run(request, invocationId);
      // Optional members present with the value undefined, as a TypeScript object may hold them.
      return run(request, invocationId).then((outcome) => (outcome.error
        ? { ...outcome, output: undefined, confirmation: undefined, error: { validationIssues: undefined, ...outcome.error } }
        : { ...outcome, error: undefined }));
    },
  };

  const host = {
    bindCapability(capability, handler) {
      const fromCatalog = catalog.find((c) => c.id === (capability && capability.id));
      note('bindCapability', {
        id: capability && capability.id,
        catalogIdentical: fromCatalog === capability,
        structurallyEqual: JSON.stringify(fromCatalog) === JSON.stringify(capability),
        handlerMembers: Object.keys(handler).sort(),
      });
      note('bindHandler', { handler: handlerSerial(handler) });
      if (bindings.has(capability.id)) throw new Error('already bound');
      const binding = { handler };
      bindings.set(capability.id, binding);
      bump();
      return () => {
        note('unbind', { id: capability.id });
        if (bindings.get(capability.id) === binding) {
          bindings.delete(capability.id);
          bump();
        }
      };
    },
    setContext(next) {
      note('setContext', { context: describe(next) });
      if (next && Array.isArray(next.activeScopeIds) && next.activeScopeIds.includes('undeclared')) {
        throw new Error('undeclared scope');
      }
      context = { ...next };
      bump();
    },
    refresh() {
      note('refresh');
      bump();
    },
    resolveConfirmation(id, approved) {
      note('resolveConfirmation', { id: describe(id), approved: describe(approved) });
      return (async () => {
        if (expired.has(id)) {
          expired.delete(id);
          return outcomeError('failed', undefined, undefined, 'CONFIRMATION_EXPIRED', 'expired');
        }
        const waiting = pending.get(id);
        if (!waiting) return outcomeError('failed', undefined, undefined, 'CONFIRMATION_NOT_FOUND', 'not found');
        pending.delete(id);
        clearTimeout(waiting.timer);
        const { request, invocationId, capability, binding } = waiting;
        if (!approved) {
          emit('confirmation_declined', invocationId, capability.id);
          return outcomeError('denied', invocationId, capability.id, 'CONFIRMATION_DECLINED', 'declined');
        }
        const decision = await decide(capability, request.input, true, invocationId);
        if (!decision || decision.decision !== 'allow') {
          return outcomeError('denied', invocationId, capability.id, 'POLICY_DENIED', 'denied');
        }
        return runHandler(binding, request.input, invocationId, capability.id, request.signal);
      })();
    },
  };

  return { client, host };
}
