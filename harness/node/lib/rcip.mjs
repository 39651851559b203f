// One RCIP case driven through a JavaScript implementation of the RCIP 2.x API (CLARIFICATIONS
// section A): the setup of vectors/README.md ("RCIP setup") builds the definition with the define*
// helpers and calls createRcipRuntime; every step of "RCIP steps" becomes the API call the table
// names; every expectation becomes the canonical observation. Every policy and handler callback is
// the adapter's: scripted ones settle as the vector says, gated ones return a promise that only a
// `gate` step settles. Assist (profile `assist`) is driven through `createRcipAssist` when the
// module exports it (./assist.mjs); otherwise its setup and steps answer `unsupported`.
// Neither is `preflight` (CL-B24): section A names no 2.x API for it, so the adapter does not
// declare the profile and its steps answer `unsupported`.

import { AssistTurns, assistOptions } from './assist.mjs';
import { ReactHost } from './react.mjs';
import {
  AdapterError, canonical, copyStructure, fail, formatPointer, fromWire, parsePointer, setAtPointer,
  toWire, toWireOptional,
} from './values.mjs';

/** The marker every scripted host error carries (vectors/README.md, handlers; CL-B02). */
export const HOST_SECRET = 'host-secret-7f3a';

/** `setup.options.createId`: what comes before `${prefix}-${n}` in the ids it returns. */
const ID_FORMS = Object.freeze({ sequential: '', 'host-prefixed': 'host-' });

/**
 * `invoke-malformed` kinds (vectors/README.md): whether the step carries `capability` and
 * `input` for the request built from it.
 */
const MALFORMED_REQUESTS = Object.freeze({
  undefined: { capability: false, input: false },
  null: { capability: false, input: false },
  'not-an-object': { capability: false, input: false },
  'capability-id-not-string': { capability: false, input: true },
  'input-absent': { capability: true, input: false },
  'invocation-id-not-string': { capability: true, input: true },
  'signal-not-abort-signal': { capability: true, input: true },
  'signal-null': { capability: true, input: true },
  'signal-aborted-only': { capability: true, input: true },
});

/** `resolve-confirmation` with `{"malformed": kind}`: the confirmation id passed (a fresh one). */
const MALFORMED_CONFIRMATION_IDS = Object.freeze({
  undefined: () => undefined,
  null: () => null,
  number: () => 42,
  object: () => ({}),
});

/** Members the harness strips before sending; tolerated (and ignored) if a runner sends them. */
const META_KEYS = ['is', 'throws', 'strictness', 'requirements', 'note', 'runtime'];

/** Members each step may carry besides META_KEYS, keyed by `<kind>:<verb>`. */
const STEP_MEMBERS = {
  'host:bind': { required: ['capability', 'as', 'handler'], optional: ['availability', 'definition'] },
  'host:unbind': { required: ['binding'], optional: [] },
  'host:set-availability': { required: ['binding', 'availability'], optional: [] },
  'host:set-context': { required: ['context'], optional: [] },
  'host:refresh': { required: [], optional: [] },
  'host:resolve-confirmation': { required: ['as', 'confirmation', 'approved'], optional: [] },
  'host:create-runtime': { required: ['as'], optional: [] },
  'host:mutate-definition': { required: ['pointer', 'value'], optional: [] },
  'host:mutate-output': { required: ['call', 'pointer', 'value'], optional: [] },
  'client:invoke': { required: ['as', 'capability', 'input'], optional: ['invocationId', 'signal'] },
  'client:invoke-malformed': { required: ['as', 'request'], optional: ['capability', 'input'] },
  'client:abort': { required: ['signal'], optional: [] },
  'client:mutate-input': { required: ['of', 'pointer', 'value'], optional: [] },
  'client:mutate-request': { required: ['of', 'member', 'value'], optional: [] },
  'client:get-snapshot': { required: ['as'], optional: [] },
  'client:mutate-snapshot': { required: ['of', 'pointer', 'value'], optional: [] },
  'client:list': { required: ['as'], optional: ['filter'] },
  'client:subscribe': { required: ['as', 'listener'], optional: [] },
  'client:unsubscribe': { required: ['of'], optional: [] },
  'client:assist-turn': { required: ['as', 'mode', 'messages'], optional: ['signal'] },
  'client:preflight': { required: ['as', 'proposals'], optional: [] },
  'gate:policy': { required: ['call', 'settle'], optional: [] },
  'gate:handler': { required: ['call', 'settle'], optional: [] },
  'gate:assist': { required: ['call', 'settle'], optional: [] },
  'clock:advance': { required: ['ms'], optional: [] },
  'expect:outcome': { required: ['of'], optional: [] },
  'expect:policy-calls': { required: [], optional: ['capability'] },
  'expect:handler-calls': { required: [], optional: ['capability'] },
  'expect:handler-signal': { required: ['call'], optional: [] },
  'expect:handler-context': { required: ['call'], optional: [] },
  'expect:policy-capability': { required: ['call'], optional: [] },
  'expect:caller-input': { required: ['of'], optional: [] },
  'expect:preflight': { required: ['of'], optional: [] },
  'expect:snapshot': { required: [], optional: ['of'] },
  'expect:snapshot-text': { required: [], optional: ['of'] },
  'expect:snapshot-relation': { required: ['a', 'b'], optional: [] },
  'expect:list': { required: ['of'], optional: [] },
  'expect:notifications': { required: ['of'], optional: [] },
  'expect:events': { required: [], optional: [] },
  'expect:outcome-text': { required: ['of'], optional: [] },
  'expect:assist-turn': { required: ['of'], optional: [] },
  'expect:assist-invocations': { required: ['of'], optional: [] },
  'react:render': { required: ['tree'], optional: ['transition'] },
  'react:resolve': { required: ['on'], optional: [] },
  'react:unmount': { required: [], optional: [] },
  'react:server-render': { required: ['tree'], optional: [] },
  'react:hydrate': { required: ['tree'], optional: [] },
  'expect:handler-states': { required: [], optional: ['capability'] },
  'expect:boundary': { required: ['key'], optional: [] },
  'expect:hook-client': { required: ['key'], optional: [] },
  'expect:hook-snapshot': { required: ['key'], optional: [] },
};
/** The kinds of step: a step has exactly one of these members, and it names the step. */
const STEP_KINDS = ['host', 'client', 'gate', 'clock', 'expect', 'react'];
// Each entry's members as one set (META_KEYS, required and optional): checked on every step.
for (const members of Object.values(STEP_MEMBERS)) members.allowed = new Set([...META_KEYS, ...members.required, ...members.optional]);

const NO_ASSIST = 'the module exports no createRcipAssist: the adapter cannot drive an Assist orchestrator (profile assist)';
const NO_REACT = 'the implementation offers no React entry (CLARIFICATIONS A08): the adapter cannot render React trees (profile react)';

const SETUP_KEYS = ['definition', 'options', 'creation', 'assist', 'react'];
const OPTION_KEYS = ['policy', 'confirmationTtlMs', 'createId', 'events'];

/** Replies (the `reply` members of harness/driver/schema/response.schema.json). */
export const DONE = Object.freeze({ reply: 'done' });
export const THREW = Object.freeze({ reply: 'threw' });
export const observed = (value) => ({ reply: 'observed', value: canonical(value) });
export const unsupported = (reason) => ({ reply: 'unsupported', reason });

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A member of a protocol object observed from the implementation, read with JavaScript's
 * optionality (issue 12 section 4): `undefined` stays `undefined` (the member is absent, and
 * `record` leaves it out), anything else is written out with `toWireOptional`.
 */
function optional(value) {
  return value === undefined ? undefined : toWireOptional(value);
}

/** An observation record without the members whose value is `undefined` (absent). */
function record(members) {
  const out = {};
  for (const [key, value] of Object.entries(members)) {
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function handleName(step, key) {
  const name = step[key];
  if (typeof name !== 'string' || name === '') fail(`step member ${JSON.stringify(key)} must be a handle name`);
  return name;
}

function lookup(map, name, what) {
  if (!map.has(name)) fail(`no ${what} named ${JSON.stringify(name)} in this case`);
  return map.get(name);
}

function positiveInteger(value, what) {
  if (!Number.isInteger(value) || value < 1) fail(`${what} must be an integer >= 1`);
  return value;
}

/** The error a scripted or gated callback throws (vectors/README.md, settlements). */
export function hostError(kind) {
  const error = new Error(HOST_SECRET);
  if (kind === 'abort-error') error.name = 'AbortError';
  else if (kind !== 'error') fail(`unknown throw kind ${JSON.stringify(kind)}`);
  return error;
}

const POLICY_MODES = ['absent', 'gated', 'scripted', 'by-request'];

/**
 * Checks the rules of a `by-request` policy (issue 12 section 6): each
 * `{capability?: id, confirmed?: bool, settle: S, async?: bool}`.
 */
function checkRules(rules) {
  if (!Array.isArray(rules)) fail('a by-request policy needs a rules array');
  for (const rule of rules) {
    if (!isObject(rule)) fail('each by-request rule must be an object');
    for (const key of Object.keys(rule)) {
      if (!['capability', 'confirmed', 'settle', 'async'].includes(key)) fail(`by-request rule has an unexpected member ${JSON.stringify(key)}`);
    }
    if (Object.hasOwn(rule, 'capability') && typeof rule.capability !== 'string') fail('rule capability must be a string');
    if (Object.hasOwn(rule, 'confirmed') && typeof rule.confirmed !== 'boolean') fail('rule confirmed must be a boolean');
    if (Object.hasOwn(rule, 'async') && typeof rule.async !== 'boolean') fail('rule async must be a boolean');
    checkSettlement(rule.settle);
  }
  return rules;
}

/**
 * The first rule whose present members equal what the policy is asked: `capability` against
 * `ctx.capability.id`, `confirmed` against `ctx.confirmed`. Undefined when none matches.
 */
export function matchRule(rules, context) {
  const capabilityId = isObject(context) && isObject(context.capability) ? context.capability.id : undefined;
  const confirmed = isObject(context) ? context.confirmed : undefined;
  return rules.find((rule) => (!Object.hasOwn(rule, 'capability') || rule.capability === capabilityId)
    && (!Object.hasOwn(rule, 'confirmed') || rule.confirmed === confirmed));
}

/** Checks a settlement `S` and returns it: `{ return }` or `{ throw }`, with optional mutateInput. */
function checkSettlement(settle) {
  if (!isObject(settle)) fail('a settlement must be an object');
  for (const key of Object.keys(settle)) {
    if (!['return', 'throw', 'mutateInput', 'mutateCapability'].includes(key)) fail(`settlement has an unexpected member ${JSON.stringify(key)}`);
  }
  if (Object.hasOwn(settle, 'return') === Object.hasOwn(settle, 'throw')) fail('a settlement holds exactly one of return and throw');
  if (Object.hasOwn(settle, 'throw')) hostError(settle.throw);
  for (const member of ['mutateInput', 'mutateCapability']) {
    if (!Object.hasOwn(settle, member)) continue;
    if (!Array.isArray(settle[member])) fail(`${member} must be an array`);
    for (const m of settle[member]) {
      if (!isObject(m) || typeof m.pointer !== 'string' || !Object.hasOwn(m, 'value')) fail(`each ${member} needs pointer and value`);
    }
  }
  return settle;
}

/**
 * One case: its runtimes, the handles its steps name, and the records its observations read.
 * `hooks.activity()` marks that something happened (the settle loop waits for quiet);
 * `hooks.fault(message)` records a failure of the adapter inside a callback the implementation
 * called, so the step answers `error` instead of the implementation being blamed.
 */
export class RcipCase {
  /** `react` is `{ env, entry }` (react-env.mjs and the A08 entry) when the profile is declared. */
  constructor(module, setup, hooks, react) {
    this.module = module;
    this.hooks = hooks;
    this.reactSupport = react;
    this.runtimes = new Map();
    this.bindings = new Map();
    this.outcomes = new Map();
    this.inputs = new Map();
    /** The request object the caller passed to each invoke (for mutate-request). */
    this.requests = new Map();
    this.snapshots = new Map();
    this.lists = new Map();
    this.subscriptions = new Map();
    this.signals = new Map();
    this.checkSetup(setup);
    this.setup = setup;
    this.options = setup.options || {};
  }

  checkSetup(setup) {
    if (!isObject(setup)) fail('setup must be an object');
    for (const key of Object.keys(setup)) {
      if (!SETUP_KEYS.includes(key)) fail(`setup has an unexpected member ${JSON.stringify(key)}`);
    }
    if (!Object.hasOwn(setup, 'definition')) fail('setup needs a definition');
    if (setup.creation !== undefined && !['succeeds', 'throws', 'may-throw'].includes(setup.creation)) {
      fail(`unknown creation ${JSON.stringify(setup.creation)}`);
    }
    const options = setup.options;
    if (options === undefined) return;
    if (!isObject(options)) fail('setup.options must be an object');
    for (const key of Object.keys(options)) {
      if (!OPTION_KEYS.includes(key)) fail(`setup.options has an unexpected member ${JSON.stringify(key)}`);
    }
    const policy = options.policy;
    if (policy !== undefined) {
      if (!isObject(policy) || !POLICY_MODES.includes(policy.mode)) fail(`options.policy needs mode ${POLICY_MODES.join(', ')}`);
      if (policy.mode === 'scripted') checkSettlement(policy.settle);
      if (policy.mode === 'by-request') checkRules(policy.rules);
    }
    if (options.createId !== undefined && !Object.hasOwn(ID_FORMS, options.createId)) fail('options.createId is "sequential" or "host-prefixed"');
    if (options.events !== undefined && !['records', 'throws'].includes(options.events)) fail('options.events is records or throws');
  }

  /** Builds the definition and the main runtime: `done`, `threw` or `unsupported`. */
  start() {
    if (typeof this.module.createRcipAssist === 'function') {
      this.assist = new AssistTurns(this, assistOptions(this.setup.assist), canonicalOutcome);
    } else if (this.setup.assist !== undefined) {
      return unsupported(NO_ASSIST);
    }
    if (this.setup.react !== undefined) {
      if (this.reactSupport === undefined) return unsupported(NO_REACT);
      this.reactHost();
    }
    try {
      this.definition = this.buildDefinition(fromWire(this.setup.definition));
      this.runtimes.set('', this.createRuntime(''));
    } catch (error) {
      if (error instanceof AdapterError) throw error;
      this.hooks.log(`creating the runtime threw: ${describeError(error)}`);
      return THREW;
    }
    return DONE;
  }

  /** The definition through defineRcipScope / defineRcipCapability / defineRcipApplication. */
  buildDefinition(raw) {
    const m = this.module;
    this.definedCapabilities = [];
    // The objects the host handed to each helper, for mutate-definition (issue 25).
    this.passed = { application: raw, scopes: [], capabilities: [] };
    if (isObject(raw)) {
      if (Array.isArray(raw.scopes)) this.passed.scopes = [...raw.scopes];
      if (Array.isArray(raw.capabilities)) this.passed.capabilities = [...raw.capabilities];
      if (Array.isArray(raw.scopes)) raw.scopes = raw.scopes.map((scope) => m.defineRcipScope(scope));
      if (Array.isArray(raw.capabilities)) {
        raw.capabilities = raw.capabilities.map((capability) => m.defineRcipCapability(capability));
        this.definedCapabilities = raw.capabilities;
      }
    }
    return m.defineRcipApplication(raw);
  }

  /** The catalog's own capability object for `id`: from the application definition first. */
  catalogCapability(id) {
    const fromApplication = this.definition && this.definition.capabilities;
    const lists = [Array.isArray(fromApplication) ? fromApplication : [], this.definedCapabilities];
    for (const list of lists) {
      const found = list.find((capability) => isObject(capability) && capability.id === id);
      if (found !== undefined) return found;
    }
    return fail(`capability ${JSON.stringify(id)} is not in the catalog`);
  }

  /** A runtime with its own callbacks, records, gates and id counters (CL-B25). */
  createRuntime(name) {
    const rt = {
      name,
      policyCalls: [],
      /** The `capability` each policy call received, as JSON at call time (policy-capability). */
      policyCapabilities: [],
      handlerCalls: [],
      policyGates: [],
      handlerGates: [],
      events: [],
      idCounters: new Map(),
    };
    const options = this.runtimeOptions(rt);
    const made = options === undefined
      ? this.module.createRcipRuntime(this.definition)
      : this.module.createRcipRuntime(this.definition, options);
    rt.runtime = made;
    rt.client = made && made.client;
    rt.host = made && made.host;
    return rt;
  }

  runtimeOptions(rt) {
    const setup = this.setup.options;
    if (setup === undefined) return undefined;
    const options = {};
    const policy = setup.policy;
    if (policy !== undefined && policy.mode !== 'absent') options.policy = this.policyCallback(rt, policy);
    if (setup.confirmationTtlMs !== undefined) options.confirmationTtlMs = setup.confirmationTtlMs;
    if (setup.createId !== undefined) {
      const form = ID_FORMS[setup.createId];
      options.createId = (prefix) => {
        this.hooks.activity();
        const n = (rt.idCounters.get(prefix) || 0) + 1;
        rt.idCounters.set(prefix, n);
        return `${form}${prefix}-${n}`;
      };
    }
    if (setup.events !== undefined) {
      options.onEvent = (event) => {
        this.hooks.activity();
        this.guard(() => rt.events.push(record({
          phase: optional(event && event.phase),
          invocationId: optional(event && event.invocationId),
          capabilityId: optional(event && event.capabilityId),
        })));
        if (setup.events === 'throws') throw new Error(HOST_SECRET);
      };
    }
    return options;
  }

  /** Runs adapter code inside a callback; a failure is the adapter's, reported at the step's end. */
  guard(body) {
    try {
      return body();
    } catch (error) {
      this.hooks.fault(`inside a callback: ${describeError(error)}`);
      return undefined;
    }
  }

  policyCallback(rt, policy) {
    return (context) => {
      this.hooks.activity();
      // `input` is a payload (every key of it matters, so `undefined` inside is an escape);
      // the other members are the policy context's own, read with JavaScript optionality.
      this.guard(() => {
        const capability = context && context.capability;
        rt.policyCalls.push(record({
          capabilityId: optional(capability && capability.id),
          input: toWire(context && context.input),
          semanticContext: optional(context && context.semanticContext),
          confirmed: optional(context && context.confirmed),
        }));
        rt.policyCapabilities.push(toWireOptional(capability));
      });
      const input = context && context.input;
      const capability = context && context.capability;
      if (policy.mode === 'gated') {
        return new Promise((resolve, reject) => rt.policyGates.push({ resolve, reject, input, capability, settled: false }));
      }
      if (policy.mode === 'by-request') {
        const rule = matchRule(policy.rules, context);
        // No rule for what was asked: the policy fails as a host error would (CL-B12).
        if (rule === undefined) throw hostError('error');
        this.writeCapability(rule.settle, capability);
        return this.settleNow(rule.settle, rule.async === true, input);
      }
      this.writeCapability(policy.settle, capability);
      return this.settleNow(policy.settle, policy.async === true, input);
    };
  }

  /**
   * A scripted settlement: the value (or throw), or an already-settled promise when `async`.
   * `call` (a handler call record) keeps the very value returned, for mutate-output.
   */
  settleNow(settle, async, input, call) {
    let value;
    let error;
    let threw = false;
    try {
      this.applyMutations(settle, input);
      if (Object.hasOwn(settle, 'throw')) {
        threw = true;
        error = hostError(settle.throw);
      } else {
        value = fromWire(settle.return);
        if (call !== undefined) call.output = value;
      }
    } catch (failure) {
      this.hooks.fault(`scripted settlement: ${describeError(failure)}`);
      return undefined;
    }
    if (async) return threw ? Promise.reject(error) : Promise.resolve(value);
    if (threw) throw error;
    return value;
  }

  /**
   * A policy's `mutateCapability`: it writes to the capability of its context (issue 25); a
   * write the object refuses (frozen, not an object, a member missing on the way) is swallowed,
   * as a host's own failed write would be. The adapter's own values are never the target.
   */
  writeCapability(settle, capability) {
    for (const mutation of settle.mutateCapability || []) {
      try {
        setAtPointer(capability, mutation.pointer, fromWire(mutation.value));
      } catch (error) {
        this.hooks.log(`mutateCapability ${mutation.pointer} (swallowed): ${describeError(error)}`);
      }
    }
  }

  applyMutations(settle, input) {
    for (const mutation of settle.mutateInput || []) setAtPointer(input, mutation.pointer, fromWire(mutation.value));
  }

  /** Checks a handler `H` (gated or scripted, plus `extraModes`) and returns it. */
  checkHandler(handler, extraModes = []) {
    const modes = ['gated', 'scripted', ...extraModes];
    if (!isObject(handler) || !modes.includes(handler.mode)) fail(`handler needs mode ${modes.join(' or ')}`);
    if (handler.mode === 'scripted') checkSettlement(handler.settle);
    return handler;
  }

  /** Records one handler call (handler-calls, handler-signal, handler-context) at call time. */
  recordHandlerCall(rt, capabilityId, input, ctx) {
    this.hooks.activity();
    return this.guard(() => rt.handlerCalls[rt.handlerCalls.push({
      record: record({
        capabilityId,
        input: toWire(input),
        invocationId: optional(ctx && ctx.invocationId),
        semanticContext: optional(ctx && ctx.semanticContext),
      }),
      signal: ctx && ctx.signal,
      context: handlerContext(ctx),
    }) - 1]);
  }

  /** A gated or scripted handler call: recorded, then a gate promise or the scripted settlement. */
  runHandler(rt, capabilityId, handler, input, ctx) {
    const call = this.recordHandlerCall(rt, capabilityId, input, ctx);
    if (handler.mode === 'gated') {
      return new Promise((resolve, reject) => rt.handlerGates.push({ resolve, reject, input, call, settled: false }));
    }
    return this.settleNow(handler.settle, handler.async === true, input, call);
  }

  handlerObject(rt, capabilityId, handler, binding) {
    this.checkHandler(handler);
    const object = {
      execute: (input, ctx) => this.runHandler(rt, capabilityId, handler, input, ctx),
    };
    if (binding.availability !== undefined) {
      object.getAvailability = () => {
        this.hooks.activity();
        return this.guard(() => fromWire(binding.availability));
      };
    }
    return object;
  }

  runtimeOf(step) {
    if (step.runtime === undefined) return this.runtimes.get('');
    return lookup(this.runtimes, step.runtime, 'runtime');
  }

  signalNamed(name) {
    if (!this.signals.has(name)) this.signals.set(name, new AbortController());
    return this.signals.get(name);
  }

  /**
   * Watches what an API call returned: a promise (or value) becomes a settled/threw handle. A
   * rejection is logged like a throw (`attempt`), naming the call `what`: the implementation's own
   * words reach the harness, which shows them under the failing case (issue 27 §4).
   */
  track(result, what = 'a call') {
    const handle = { state: 'pending', value: undefined, error: undefined };
    Promise.resolve(result).then(
      (value) => {
        handle.state = 'settled';
        handle.value = value;
        this.hooks.activity();
      },
      (error) => {
        handle.state = 'threw';
        handle.error = error;
        this.hooks.log(`${what} rejected: ${describeError(error)}`);
        this.hooks.activity();
      },
    );
    return handle;
  }

  /** Runs one implementation call of an action step: `done`, or `threw` if it threw. */
  attempt(what, call) {
    try {
      call();
      return DONE;
    } catch (error) {
      if (error instanceof AdapterError) throw error;
      this.hooks.log(`${what} threw: ${describeError(error)}`);
      return THREW;
    }
  }

  /** Answers one step (vectors/README.md "RCIP steps"); a clock step is asynchronous. */
  async step(step) {
    if (!isObject(step)) fail('step must be an object');
    let kind;
    let kinds = 0;
    for (const k of STEP_KINDS) {
      if (Object.hasOwn(step, k)) {
        kind = k;
        kinds += 1;
      }
    }
    if (kinds !== 1) fail('a step has exactly one of host, client, gate, clock, expect, react');
    const verb = step[kind];
    const key = `${kind}:${verb}`;
    const members = Object.hasOwn(STEP_MEMBERS, key) ? STEP_MEMBERS[key] : undefined;
    if (members === undefined) fail(`unknown step ${kind}: ${JSON.stringify(verb)}`);
    for (const name of Object.keys(step)) {
      if (name !== kind && !members.allowed.has(name)) fail(`step ${key} has an unexpected member ${JSON.stringify(name)}`);
    }
    for (const name of members.required) {
      if (!Object.hasOwn(step, name)) fail(`step ${key} needs ${JSON.stringify(name)}`);
    }
    if (this.runtimes.size === 0) fail('no runtime: the case did not start one');
    switch (key) {
      case 'host:bind': return this.bind(step);
      case 'host:unbind': return this.unbind(step);
      case 'host:set-availability': return this.setAvailability(step);
      case 'host:set-context': {
        const rt = this.runtimeOf(step);
        const context = fromWire(step.context);
        return this.attempt('setContext', () => rt.host.setContext(context));
      }
      case 'host:refresh': {
        const rt = this.runtimeOf(step);
        return this.attempt('refresh', () => rt.host.refresh());
      }
      case 'host:resolve-confirmation': return this.resolveConfirmation(step);
      case 'host:mutate-definition': return this.mutateDefinition(step);
      case 'host:mutate-output': {
        // The handler kept the object it returned and writes to it later (issue 25): the outcome
        // the runtime settled with must not change (RCIP-LIFE-JSON-01 copies successful output).
        const k = positiveInteger(step.call, 'mutate-output call');
        const call = this.runtimeOf(step).handlerCalls[k - 1];
        if (call === undefined || !Object.hasOwn(call, 'output')) fail(`mutate-output: handler call ${k} has returned no value`);
        setAtPointer(call.output, step.pointer, fromWire(step.value));
        return DONE;
      }
      case 'host:create-runtime': {
        const name = handleName(step, 'as');
        return this.attempt('createRcipRuntime (second runtime)', () => this.runtimes.set(name, this.createRuntime(name)));
      }
      case 'client:invoke': return this.invoke(step);
      case 'client:invoke-malformed': return this.invokeMalformed(step);
      case 'client:abort': {
        this.signalNamed(handleName(step, 'signal')).abort();
        return DONE;
      }
      case 'client:mutate-input': {
        const input = lookup(this.inputs, handleName(step, 'of'), 'invocation');
        setAtPointer(input, step.pointer, fromWire(step.value));
        return DONE;
      }
      case 'client:mutate-request': {
        // The caller changes its own request object after invoke (issue 14): what the runtime
        // does with the request it already accepted must not change.
        if (!['capabilityId', 'invocationId'].includes(step.member)) fail('mutate-request member is capabilityId or invocationId');
        const request = lookup(this.requests, handleName(step, 'of'), 'invocation');
        request[step.member] = fromWire(step.value);
        return DONE;
      }
      case 'client:get-snapshot': {
        const rt = this.runtimeOf(step);
        const name = handleName(step, 'as');
        this.snapshots.set(name, { threw: true });
        return this.attempt('getSnapshot', () => this.snapshots.set(name, { value: rt.client.getSnapshot() }));
      }
      case 'client:mutate-snapshot': {
        const snapshot = lookup(this.snapshots, handleName(step, 'of'), 'snapshot');
        const replacement = fromWire(step.value);
        try {
          setAtPointer(snapshot.value, step.pointer, replacement);
        } catch (error) {
          this.hooks.log(`mutate-snapshot (swallowed): ${describeError(error)}`);
        }
        return DONE;
      }
      case 'client:list': {
        const rt = this.runtimeOf(step);
        const name = handleName(step, 'as');
        const hasFilter = Object.hasOwn(step, 'filter');
        const filter = hasFilter ? fromWire(step.filter) : undefined;
        this.lists.set(name, { threw: true });
        return this.attempt('listCapabilities', () => {
          const result = hasFilter ? rt.client.listCapabilities(filter) : rt.client.listCapabilities();
          this.lists.set(name, { value: result });
        });
      }
      case 'client:subscribe': return this.subscribe(step);
      case 'client:unsubscribe': {
        const subscription = lookup(this.subscriptions, handleName(step, 'of'), 'subscription');
        return this.attempt('unsubscribe', () => subscription.unsubscribe());
      }
      case 'gate:policy':
      case 'gate:handler': return this.gate(step);
      case 'clock:advance': return this.hooks.advance(step.ms);
      case 'client:assist-turn':
        return this.assist === undefined ? unsupported(NO_ASSIST) : this.assist.startTurn(step);
      case 'gate:assist':
        return this.assist === undefined ? unsupported(NO_ASSIST) : this.assist.gate(step);
      case 'expect:assist-turn':
        return this.assist === undefined ? unsupported(NO_ASSIST) : observed(this.assist.observe(step));
      case 'expect:assist-invocations':
        return this.assist === undefined ? unsupported(NO_ASSIST) : observed(this.assist.invocations(step));
      case 'react:render':
      case 'react:resolve':
      case 'react:unmount':
      case 'react:server-render':
      case 'react:hydrate':
        return this.reactSupport === undefined ? unsupported(NO_REACT) : this.reactHost().step(step);
      case 'expect:handler-states':
      case 'expect:boundary':
      case 'expect:hook-client':
      case 'expect:hook-snapshot':
        return this.reactSupport === undefined ? unsupported(NO_REACT) : observed(this.reactHost().observe(key, step));
      case 'client:preflight':
      case 'expect:preflight':
        return unsupported('the RCIP 2.x API (CLARIFICATIONS section A) has no preflight call (profile preflight)');
      default: return observed(this.observe(key, step));
    }
  }

  /** The case's React host (profile react), made at its first use: it loads React and jsdom. */
  reactHost() {
    if (this.react === undefined) this.react = new ReactHost(this, this.reactSupport.env, this.reactSupport.entry, this.setup.react);
    return this.react;
  }

  /**
   * After the act() around a step has committed: a `react` step whose rendering React reported as
   * uncaught answers `threw`; for any other step such an error is logged (the step's own call
   * returned as it did).
   */
  afterAct(step, reply) {
    if (this.react === undefined) return reply;
    return this.react.conclude(reply, isObject(step) && Object.hasOwn(step, 'react'));
  }

  /** Unmounts what the case rendered (call inside act): at the next start, or at finish. */
  dispose() {
    if (this.react !== undefined) this.react.dispose();
  }

  bind(step) {
    const rt = this.runtimeOf(step);
    if (typeof step.capability !== 'string') fail('bind needs a capability id');
    if (step.definition !== undefined && !['catalog', 'copy'].includes(step.definition)) fail('bind definition is catalog or copy');
    const catalog = this.catalogCapability(step.capability);
    const definition = step.definition === 'copy' ? copyStructure(catalog) : catalog;
    // `{"sameAs": b}`: the very same binding object (execute, getAvailability) bind b passed, so an
    // implementation that compares handlers by identity sees the same one (issue 14). Its
    // availability is b's: set-availability through either handle changes what it returns.
    const same = isObject(step.handler) && Object.hasOwn(step.handler, 'sameAs');
    const first = same ? lookup(this.bindings, step.handler.sameAs, 'binding') : undefined;
    const binding = same
      ? {
        get availability() { return first.availability; },
        set availability(value) { first.availability = value; },
        unbind: undefined,
        object: first.object,
      }
      : { availability: step.availability, unbind: undefined, object: undefined };
    const handler = same ? first.object : this.handlerObject(rt, step.capability, step.handler, binding);
    binding.object = handler;
    this.bindings.set(handleName(step, 'as'), binding);
    return this.attempt('bindCapability', () => {
      binding.unbind = rt.host.bindCapability(definition, handler);
    });
  }

  /**
   * The host rewrites a member of the definition it passed, after creation (issue 25): in the
   * object it handed to defineRcipCapability / defineRcipScope (a `/capabilities/i` or `/scopes/i`
   * pointer) or defineRcipApplication (any other), where the member must exist (else the vector
   * is wrong), and in the objects those helpers returned, where a refused write is swallowed.
   */
  mutateDefinition(step) {
    if (typeof step.pointer !== 'string') fail('mutate-definition needs a pointer');
    const tokens = parsePointer(step.pointer);
    const nested = tokens.length > 2 && ['capabilities', 'scopes'].includes(tokens[0]);
    const own = nested ? this.passed[tokens[0]][Number(tokens[1])] : this.passed.application;
    if (nested && own === undefined) fail(`mutate-definition: no ${tokens[0]} item ${tokens[1]} was passed`);
    const rest = nested ? formatPointer(tokens.slice(2)) : step.pointer;
    setAtPointer(own, rest, fromWire(step.value));
    try {
      setAtPointer(this.definition, step.pointer, fromWire(step.value));
    } catch (error) {
      this.hooks.log(`mutate-definition on the defined objects (swallowed): ${describeError(error)}`);
    }
    return DONE;
  }

  unbind(step) {
    const binding = lookup(this.bindings, handleName(step, 'binding'), 'binding');
    return this.attempt('unbind', () => binding.unbind());
  }

  setAvailability(step) {
    const binding = lookup(this.bindings, handleName(step, 'binding'), 'binding');
    if (binding.availability === undefined) fail('set-availability on a binding made without availability (no getAvailability was given)');
    fromWire(step.availability);
    binding.availability = step.availability;
    return DONE;
  }

  invoke(step) {
    const rt = this.runtimeOf(step);
    const name = handleName(step, 'as');
    const input = fromWire(step.input);
    const request = { capabilityId: step.capability, input };
    if (Object.hasOwn(step, 'invocationId')) request.invocationId = step.invocationId;
    if (Object.hasOwn(step, 'signal')) request.signal = this.signalNamed(handleName(step, 'signal')).signal;
    this.inputs.set(name, input);
    this.requests.set(name, request);
    this.outcomes.set(name, { state: 'threw', error: undefined });
    return this.attempt('invoke', () => {
      const result = rt.client.invoke(request);
      this.outcomes.set(name, this.track(result, 'invoke'));
    });
  }

  /**
   * `invoke-malformed` (CL-B02-1): calls `client.invoke` with the malformed argument the step
   * names, built literally (no argument at all for `undefined`); a synchronous throw or a
   * rejection is recorded as `threw`, exactly as for `invoke`.
   */
  invokeMalformed(step) {
    const rt = this.runtimeOf(step);
    const name = handleName(step, 'as');
    const kind = step.request;
    const shape = MALFORMED_REQUESTS[kind];
    if (shape === undefined) fail(`invoke-malformed request ${JSON.stringify(kind)} is not one of ${Object.keys(MALFORMED_REQUESTS).join(', ')}`);
    for (const member of ['capability', 'input']) {
      if (Object.hasOwn(step, member) !== shape[member]) fail(`invoke-malformed ${kind} ${shape[member] ? 'needs' : 'takes no'} ${member}`);
    }
    if (shape.capability && typeof step.capability !== 'string') fail('invoke-malformed capability must be a string');
    const input = shape.input ? fromWire(step.input) : undefined;
    let request;
    switch (kind) {
      case 'null': request = null; break;
      case 'not-an-object': request = 42; break;
      case 'capability-id-not-string': request = { capabilityId: 42, input }; break;
      case 'input-absent': request = { capabilityId: step.capability }; break;
      case 'invocation-id-not-string': request = { capabilityId: step.capability, input, invocationId: 42 }; break;
      case 'signal-not-abort-signal': request = { capabilityId: step.capability, input, signal: {} }; break;
      case 'signal-null': request = { capabilityId: step.capability, input, signal: null }; break;
      case 'signal-aborted-only': request = { capabilityId: step.capability, input, signal: { aborted: false } }; break;
      default: request = undefined;
    }
    if (shape.input) this.inputs.set(name, input);
    if (isObject(request)) this.requests.set(name, request);
    this.outcomes.set(name, { state: 'threw', error: undefined });
    return this.attempt('invoke', () => {
      const result = kind === 'undefined' ? rt.client.invoke() : rt.client.invoke(request);
      this.outcomes.set(name, this.track(result, 'invoke'));
    });
  }

  resolveConfirmation(step) {
    const rt = this.runtimeOf(step);
    const name = handleName(step, 'as');
    const which = step.confirmation;
    if (typeof step.approved !== 'boolean') fail('resolve-confirmation needs approved true or false');
    if (!isObject(which)) fail('resolve-confirmation needs a confirmation object');
    let id;
    if (Object.hasOwn(which, 'turn')) {
      return this.assist === undefined ? unsupported(NO_ASSIST) : this.assist.resolve(step);
    } else if (Object.hasOwn(which, 'id')) {
      if (typeof which.id !== 'string') fail('confirmation id must be a string');
      id = which.id;
    } else if (Object.hasOwn(which, 'malformed')) {
      // A confirmation id that is not a string (CL-B02-1), passed as is.
      if (!Object.hasOwn(MALFORMED_CONFIRMATION_IDS, which.malformed)) fail(`confirmation malformed is one of ${Object.keys(MALFORMED_CONFIRMATION_IDS).join(', ')}`);
      id = MALFORMED_CONFIRMATION_IDS[which.malformed]();
    } else if (Object.hasOwn(which, 'of')) {
      const origin = lookup(this.outcomes, handleName(which, 'of'), 'invocation or resolution');
      const confirmation = origin.state === 'settled' && isObject(origin.value) ? origin.value.confirmation : undefined;
      // An outcome without a confirmation id (pending, rejected, or of another status) passes
      // that missing id, `undefined`, as is: what the implementation does with it is the
      // observation (issue 12 section 4); the adapter never answers on its behalf.
      id = isObject(confirmation) ? confirmation.id : undefined;
      if (id === undefined) this.hooks.log(`resolve-confirmation: the outcome of ${which.of} carries no confirmation id; passing undefined`);
    } else {
      fail('confirmation needs of, id, malformed, or turn and action');
    }
    this.outcomes.set(name, { state: 'threw', error: undefined });
    return this.attempt('resolveConfirmation', () => {
      this.outcomes.set(name, this.track(rt.host.resolveConfirmation(id, step.approved), 'resolveConfirmation'));
    });
  }

  subscribe(step) {
    const rt = this.runtimeOf(step);
    const name = handleName(step, 'as');
    if (!['records', 'throws'].includes(step.listener)) fail('listener is records or throws');
    // `snapshots` keeps the very object getSnapshot() returned inside each call (or that it
    // threw), for a `{"notification": k, "of": sub}` side of snapshot-relation (issue 25).
    const subscription = { calls: [], snapshots: [], unsubscribe: undefined };
    const listener = () => {
      this.hooks.activity();
      let revision;
      try {
        const snapshot = rt.client.getSnapshot();
        subscription.snapshots.push({ value: snapshot });
        revision = this.guard(() => optional(snapshot && snapshot.revision));
      } catch (error) {
        this.hooks.log(`getSnapshot inside a listener threw: ${describeError(error)}`);
        subscription.snapshots.push({ threw: true });
        revision = 'threw';
      }
      subscription.calls.push(record({ revision }));
      if (step.listener === 'throws') throw new Error(HOST_SECRET);
    };
    this.subscriptions.set(name, subscription);
    return this.attempt('subscribe', () => {
      subscription.unsubscribe = rt.client.subscribe(listener);
    });
  }

  gate(step) {
    const rt = this.runtimeOf(step);
    const k = positiveInteger(step.call, 'gate call');
    const settle = checkSettlement(step.settle);
    const isPolicy = step.gate === 'policy';
    if (isPolicy && !(this.options.policy && this.options.policy.mode === 'gated')) fail('gate policy in a case whose policy is not gated');
    const gates = isPolicy ? rt.policyGates : rt.handlerGates;
    const gate = gates[k - 1];
    if (gate === undefined) {
      // The implementation has not made that call: the step fails here (not an adapter error).
      this.hooks.log(`gate ${step.gate} call ${k}: only ${gates.length} gated call(s) were made`);
      return THREW;
    }
    if (gate.settled) fail(`gate ${step.gate} call ${k} was already settled`);
    gate.settled = true;
    if (isPolicy) this.writeCapability(settle, gate.capability);
    this.applyMutations(settle, gate.input);
    if (Object.hasOwn(settle, 'throw')) gate.reject(hostError(settle.throw));
    else {
      const value = fromWire(settle.return);
      if (gate.call !== undefined) gate.call.output = value;
      gate.resolve(value);
    }
    return DONE;
  }

  observe(key, step) {
    switch (key) {
      case 'expect:outcome': return this.outcomeOf(lookup(this.outcomes, handleName(step, 'of'), 'invocation or resolution'));
      case 'expect:outcome-text': return this.outcomeText(lookup(this.outcomes, handleName(step, 'of'), 'invocation or resolution'));
      case 'expect:policy-calls':
      case 'expect:handler-calls': {
        const rt = this.runtimeOf(step);
        const records = key === 'expect:policy-calls' ? rt.policyCalls : rt.handlerCalls.map((call) => call.record);
        if (step.capability === undefined) return records;
        return records.filter((record) => record.capabilityId === step.capability);
      }
      case 'expect:handler-signal': {
        const call = this.runtimeOf(step).handlerCalls[positiveInteger(step.call, 'handler-signal call') - 1];
        if (call === undefined) return null;
        return signalState(call.signal);
      }
      case 'expect:policy-capability': {
        const capability = this.runtimeOf(step).policyCapabilities[positiveInteger(step.call, 'policy-capability call') - 1];
        return capability === undefined ? null : capability;
      }
      case 'expect:handler-context': {
        const call = this.runtimeOf(step).handlerCalls[positiveInteger(step.call, 'handler-context call') - 1];
        return call === undefined ? null : call.context;
      }
      case 'expect:caller-input': return toWire(lookup(this.inputs, handleName(step, 'of'), 'invocation'));
      case 'expect:snapshot-text': {
        // The snapshot's own JSON text, as a consumer serialising it would see it (CL-B17-2).
        let snapshot;
        if (step.of !== undefined) {
          const taken = lookup(this.snapshots, handleName(step, 'of'), 'snapshot');
          if (taken.threw) return 'threw';
          snapshot = taken.value;
        } else {
          try {
            snapshot = this.runtimeOf(step).client.getSnapshot();
          } catch (error) {
            if (error instanceof AdapterError) throw error;
            this.hooks.log(`getSnapshot threw: ${describeError(error)}`);
            return 'threw';
          }
        }
        try {
          return JSON.stringify(snapshot) ?? '';
        } catch (error) {
          this.hooks.log(`JSON.stringify of the snapshot threw: ${describeError(error)}`);
          return 'threw';
        }
      }
      case 'expect:snapshot': {
        if (step.of !== undefined) {
          const snapshot = lookup(this.snapshots, handleName(step, 'of'), 'snapshot');
          return snapshot.threw ? 'threw' : toWireOptional(snapshot.value);
        }
        const rt = this.runtimeOf(step);
        try {
          return toWireOptional(rt.client.getSnapshot());
        } catch (error) {
          if (error instanceof AdapterError) throw error;
          this.hooks.log(`getSnapshot threw: ${describeError(error)}`);
          return 'threw';
        }
      }
      case 'expect:snapshot-relation': {
        const a = this.snapshotSide(step, 'a');
        const b = this.snapshotSide(step, 'b');
        if (a.none || b.none) return 'none';
        if (a.threw || b.threw) return 'threw';
        const ra = a.value && a.value.revision;
        const rb = b.value && b.value.revision;
        let revision = null;
        if (rb === ra) revision = 'equal';
        else if (rb > ra) revision = 'greater';
        else if (rb < ra) revision = 'less';
        return { identical: a.value === b.value, revision };
      }
      case 'expect:list': {
        const list = lookup(this.lists, handleName(step, 'of'), 'list');
        if (list.threw) return 'threw';
        if (!Array.isArray(list.value)) return toWireOptional(list.value);
        return list.value.map((entry) => toWire(isObject(entry) ? entry.id : entry));
      }
      case 'expect:notifications': return lookup(this.subscriptions, handleName(step, 'of'), 'subscription').calls;
      case 'expect:events': return this.runtimeOf(step).events;
      default: return fail(`unknown expectation ${key}`);
    }
  }

  /**
   * One side of snapshot-relation: a get-snapshot handle, or `{notification: k | "last", of: sub}`,
   * the object getSnapshot() returned inside that listener call (`{none: true}` if not made).
   */
  snapshotSide(step, key) {
    const side = step[key];
    if (!isObject(side)) return lookup(this.snapshots, handleName(step, key), 'snapshot');
    for (const member of Object.keys(side)) {
      if (!['notification', 'of'].includes(member)) fail(`snapshot-relation ${key} has an unexpected member ${JSON.stringify(member)}`);
    }
    const { snapshots } = lookup(this.subscriptions, handleName(side, 'of'), 'subscription');
    const which = side.notification;
    if (which !== 'last') positiveInteger(which, `snapshot-relation ${key}.notification`);
    const taken = which === 'last' ? snapshots[snapshots.length - 1] : snapshots[which - 1];
    return taken === undefined ? { none: true } : taken;
  }

  /** "pending", "threw", or the canonical outcome of vectors/README.md (CL-A06 without messages). */
  outcomeOf(handle) {
    if (handle.state === 'pending') return 'pending';
    if (handle.state === 'threw') return 'threw';
    return canonicalOutcome(handle.value);
  }

  /**
   * Every string reachable in an outcome, joined with "\n" ("" when pending): every own member
   * at any depth, non-enumerable ones included (an Error's `message`, `stack` and `cause`), except
   * the succeeded outcome's `output`, which is the application's own data (RCIP-PROTO-OUT-03:
   * implementation details and stack traces never cross the client boundary, in any member).
   */
  outcomeText(handle) {
    if (handle.state === 'pending') return '';
    if (handle.state === 'threw') {
      // A call that threw hands the caller an error object of the runtime's own: its message.
      const error = handle.error;
      return error === undefined ? '' : String(isObject(error) && 'message' in error ? error.message : error);
    }
    return reachableStrings(handle.value, new Set(['output'])).join('\n');
  }
}

/**
 * The strings reachable from `value`: the value itself if a string, and for an object (or a
 * function) every own string-keyed member's value, enumerable or not, read once each (a getter
 * that throws counts as nothing), depth-first, cycles visited once. `skip` names top-level
 * members left out. Bounded (64 levels, 10,000 objects) so a hostile outcome cannot hang the
 * adapter.
 */
export function reachableStrings(value, skip = new Set()) {
  const strings = [];
  const seen = new Set();
  const visit = (v, depth, top) => {
    if (typeof v === 'string') {
      strings.push(v);
      return;
    }
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return;
    if (seen.has(v) || depth > 64 || seen.size >= 10000) return;
    seen.add(v);
    let keys;
    try {
      keys = Reflect.ownKeys(v);
    } catch {
      return;
    }
    for (const key of keys) {
      if (typeof key !== 'string' || (top && skip.has(key))) continue;
      let member;
      try {
        member = v[key];
      } catch {
        continue;
      }
      visit(member, depth + 1, false);
    }
  };
  visit(value, 0, true);
  return strings;
}

/**
 * Whether a handler's signal is aborted now: a boolean, or `null` for "no signal". `ctx.signal`
 * absent, `undefined` or `null` (or anything without a boolean `aborted`, such as a number) is
 * "no signal": one rule for `handler-signal` and the `signalAborted` of `handler-context`, so an
 * implementation that gives no signal when the caller passed none is observed the same way in
 * both (issue 12 section 4). An object with a boolean `aborted` (an AbortSignal, or a
 * look-alike from another realm or a polyfill) reports that boolean.
 */
export function signalState(signal) {
  if (signal === null || (typeof signal !== 'object' && typeof signal !== 'function')) return null;
  let aborted;
  try {
    aborted = signal.aborted;
  } catch {
    return null;
  }
  return typeof aborted === 'boolean' ? aborted : null;
}

/**
 * What a handler's `ctx` carried at call time (CL-A04): `{invocationId, requestedAt,
 * semanticContext, signalAborted}`, the first three read with JavaScript optionality (an
 * `undefined` member is absent), `signalAborted` as `signalState` gives it.
 */
export function handlerContext(ctx) {
  const context = isObject(ctx) ? ctx : {};
  return {
    ...record({
      invocationId: optional(context.invocationId),
      requestedAt: optional(context.requestedAt),
      semanticContext: optional(context.semanticContext),
    }),
    signalAborted: signalState(context.signal),
  };
}

/** CL-A06 outcome to the canonical observation: ids, status, output or code, issues, confirmation. */
export function canonicalOutcome(outcome) {
  if (!isObject(outcome)) return toWireOptional(outcome);
  // Every member except the `output` payload is read with JavaScript optionality: a member whose
  // value is `undefined` is absent (issue 12 section 4).
  const has = (object, key) => object[key] !== undefined;
  const out = {};
  for (const key of ['status', 'invocationId', 'capabilityId']) {
    if (has(outcome, key)) out[key] = toWireOptional(outcome[key]);
  }
  switch (outcome.status) {
    case 'succeeded':
      if ('output' in outcome) out.output = toWire(outcome.output);
      return out;
    case 'failed':
    case 'denied': {
      const error = outcome.error;
      if (!isObject(error)) {
        if (has(outcome, 'error')) out.error = toWireOptional(error);
        return out;
      }
      if (has(error, 'code')) out.code = toWireOptional(error.code);
      if (error.validationIssues !== undefined) {
        out.validationIssues = Array.isArray(error.validationIssues)
          ? error.validationIssues.map((issue) => {
            if (!isObject(issue)) return toWireOptional(issue);
            const kept = {};
            if (has(issue, 'instancePath')) kept.instancePath = toWireOptional(issue.instancePath);
            if (has(issue, 'keyword')) kept.keyword = toWireOptional(issue.keyword);
            return kept;
          })
          : toWireOptional(error.validationIssues);
      }
      return out;
    }
    case 'confirmation_required': {
      const confirmation = outcome.confirmation;
      if (!isObject(confirmation)) {
        if (has(outcome, 'confirmation')) out.confirmation = toWireOptional(confirmation);
        return out;
      }
      const kept = {};
      for (const key of ['id', 'effect', 'expiresAt']) {
        if (has(confirmation, key)) kept[key] = toWireOptional(confirmation[key]);
      }
      out.confirmation = kept;
      return out;
    }
    default: {
      // An unknown status: show everything, so the difference is visible in the report.
      return toWireOptional(outcome);
    }
  }
}

/** The most characters of an error's message a log line quotes: its beginning and its end. */
const MESSAGE_CHARS = 500;

/** `text` within MESSAGE_CHARS: its first 400 and last 100 characters around `…`, and its length. */
function bounded(text) {
  if (text.length <= MESSAGE_CHARS) return text;
  return `${text.slice(0, MESSAGE_CHARS - 100)}…${text.slice(-100)} (${text.length} characters)`;
}

/**
 * An error as a log line names it: `name: message`, bounded. `name` is the error's own, or its
 * class's when the class did not set one (`class DataCloneError extends Error {}` keeps the name
 * `Error`, which would hide what was thrown). Never throws, whatever was thrown.
 */
export function describeError(error) {
  try {
    if (error instanceof Error || (error !== null && typeof error === 'object' && typeof error.message === 'string')) {
      let name = typeof error.name === 'string' ? error.name : 'Error';
      const constructorName = typeof error.constructor === 'function' ? error.constructor.name : '';
      if (name === 'Error' && typeof constructorName === 'string' && constructorName !== '' && constructorName !== 'Error') {
        name = constructorName;
      }
      return bounded(`${name}: ${String(error.message)}`);
    }
    return bounded(`thrown ${typeof error}: ${String(error)}`);
  } catch {
    return 'an unprintable value';
  }
}
