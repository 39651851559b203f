// Rixx UI cases through the project's JavaScript consumer surface (issue 30 section 1; the texts
// define no JavaScript API for a Rixx UI consumer, so harness/node/README.md "Rixx UI consumer
// surface" defines a minimal one, the adapter's contract as CLARIFICATIONS A is for RCIP). This module maps
// the vocabulary of vectors/README.md ("Rixx UI setup", "Rixx UI steps") onto that surface and
// translates faithfully: every code, revision, graph and log comes from the consumer, never from
// here. CL-D01..D09 are the consumer's to implement; this file only carries bytes in and
// observations out.

import { fail, fromWire, toWire } from './values.mjs';
import { DONE, THREW, observed, unsupported, hostError, describeError } from './rcip.mjs';

/** The framings of CL-D07, by their profile names (vectors/README.md). */
export const FRAMINGS = ['jsonl', 'sse', 'websocket', 'json-seq'];
const LIMIT_KEYS = ['maxIdLength', 'maxStringLength', 'maxArrayLength', 'maxDepth', 'maxOperations', 'maxTransactionBytes'];
const SETUP_KEYS = ['framing', 'catalog', 'limits', 'actionPolicy', 'creation'];

/**
 * What the module declares for Rixx UI: undefined when it does not export `createRuiConsumer`;
 * else `{ framings, limits }` (the framings it lists in `RUI_FRAMINGS`, its `RUI_LIMITS` or null).
 * A module that exports the factory but declares no known framing is refused: it could run no case.
 */
export function ruiSurface(module) {
  if (typeof module.createRuiConsumer !== 'function') return undefined;
  const listed = module.RUI_FRAMINGS;
  if (!Array.isArray(listed) || listed.some((name) => !FRAMINGS.includes(name))) {
    throw new Error(`the module exports createRuiConsumer but RUI_FRAMINGS is not a list of ${FRAMINGS.join(', ')}`);
  }
  if (listed.length === 0) throw new Error('the module exports createRuiConsumer but RUI_FRAMINGS is empty');
  let limits = null;
  if (module.RUI_LIMITS !== undefined) {
    const declared = module.RUI_LIMITS;
    const bad = declared === null || typeof declared !== 'object'
      || LIMIT_KEYS.some((key) => !Number.isInteger(declared[key]) || declared[key] < 0);
    if (bad) throw new Error(`RUI_LIMITS must be an object with the integers ${LIMIT_KEYS.join(', ')}`);
    limits = Object.fromEntries(LIMIT_KEYS.map((key) => [key, declared[key]]));
  }
  return { framings: FRAMINGS.filter((name) => listed.includes(name)), limits };
}

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function checkSettlement(settle) {
  if (!isObject(settle) || (!Object.hasOwn(settle, 'return') && !Object.hasOwn(settle, 'throw'))) {
    fail('a settlement needs return or throw');
  }
  return settle;
}

/** The bytes of `{ "text": s }` (its UTF-8) or `{ "hex": h }`. */
function bytesOf(data) {
  if (!isObject(data)) fail('feed step without data');
  if (typeof data.text === 'string') return new TextEncoder().encode(data.text);
  if (typeof data.hex !== 'string' || data.hex.length % 2 !== 0 || /[^0-9a-fA-F]/.test(data.hex)) {
    fail('data is neither text nor an even number of hex digits');
  }
  return Uint8Array.from(Buffer.from(data.hex, 'hex'));
}

/** `bytes` cut into chunks of the given sizes; whatever is left is one last chunk. */
function chunksOf(bytes, sizes) {
  const out = [];
  let at = 0;
  if (sizes !== undefined) {
    if (!Array.isArray(sizes)) fail('chunks is not an array');
    for (const size of sizes) {
      if (!Number.isInteger(size) || size < 1) fail('a chunk size is not a positive integer');
      const end = Math.min(bytes.length, at + size);
      if (end > at) out.push(bytes.subarray(at, end));
      at = end;
    }
  }
  if (at < bytes.length) out.push(bytes.subarray(at));
  return out;
}

/** One Rixx UI case: a fresh consumer built from the setup, then its steps. */
export class RuiCase {
  constructor(module, surface, setup, hooks) {
    this.module = module;
    this.surface = surface;
    this.hooks = hooks;
    this.react = undefined;
    /** Policy calls as the host saw them, `{ node, prop, capabilityId, input }` at call time. */
    this.policyCalls = [];
    /** Gated policy calls waiting for their `gate` step: `{ resolve, reject, settled }`. */
    this.gates = [];
    /** Dispatch handles: `{ state: "pending" | "settled" | "threw", value }`. */
    this.dispatches = new Map();
    if (!isObject(setup)) fail('setup must be an object');
    for (const key of Object.keys(setup)) {
      if (!SETUP_KEYS.includes(key)) fail(`setup has an unexpected member ${JSON.stringify(key)}`);
    }
    if (!FRAMINGS.includes(setup.framing)) fail('setup.framing is not one of jsonl, sse, websocket, json-seq');
    if (!isObject(setup.catalog)) fail('setup.catalog is missing');
    const policy = setup.actionPolicy === undefined ? { mode: 'gated' } : setup.actionPolicy;
    if (!isObject(policy) || !['gated', 'scripted'].includes(policy.mode)) fail('actionPolicy.mode is not gated or scripted');
    if (policy.mode === 'scripted') checkSettlement(policy.settle);
    this.setup = setup;
    this.policy = policy;
  }

  /** Builds the consumer: `done`, `threw` (a host configuration error) or `unsupported`. */
  start() {
    const { framing } = this.setup;
    if (!this.surface.framings.includes(framing)) return unsupported(`the module does not declare the ${framing} framing`);
    const options = { catalog: structuredClone(this.setup.catalog), framing };
    if (this.setup.limits !== undefined) options.limits = { ...this.setup.limits };
    try {
      this.consumer = this.module.createRuiConsumer(options);
    } catch (error) {
      // The surface's one way to say "I cannot run under these bounds" (README, "Rixx UI consumer
      // surface"): the case needs exactly these limits, so it is unsupported, not failed.
      if (error && error.code === 'RUI_LIMITS_UNSUPPORTED') return unsupported('the consumer cannot run under setup.limits');
      this.hooks.log(`createRuiConsumer threw: ${describeError(error)}`);
      return THREW;
    }
    if (this.consumer === null || typeof this.consumer !== 'object') fail('createRuiConsumer returned no consumer object');
    this.consumer.setActionPolicy((request) => this.decide(request));
    return DONE;
  }

  /** The host action policy (vectors/README.md `actionPolicy`): records the call, then settles. */
  decide(request) {
    this.hooks.activity();
    const plain = isObject(request) ? request : {};
    this.policyCalls.push({
      node: toWire(plain.node),
      prop: toWire(plain.prop),
      capabilityId: toWire(plain.capabilityId),
      input: toWire(plain.input),
    });
    if (this.policy.mode === 'scripted') return this.settleNow(this.policy.settle);
    return new Promise((resolve, reject) => {
      this.gates.push({ resolve, reject, settled: false });
    });
  }

  settleNow(settle) {
    if (Object.hasOwn(settle, 'throw')) throw hostError(settle.throw);
    return fromWire(settle.return);
  }

  step(step) {
    if (!isObject(step)) fail('a step must be an object');
    if (typeof step.feed === 'string') return this.feed(step);
    if (step.dispatch === 'action') return this.dispatch(step);
    if (step.gate === 'action-policy') return this.gate(step);
    if (typeof step.expect === 'string') return observed(this.observe(step));
    // Keys only: a step may carry stream data, which diagnostics never echo (CL-D08-3).
    fail(`not a Rixx UI step (keys: ${Object.keys(step).join(', ')})`);
    return undefined;
  }

  feed(step) {
    const websocket = this.setup.framing === 'websocket';
    switch (step.feed) {
      case 'bytes':
        if (websocket) fail('feed: bytes in a websocket case (whole messages only)');
        for (const chunk of chunksOf(bytesOf(step.data), step.chunks)) this.consumer.write(chunk);
        return DONE;
      case 'message':
        if (!websocket) fail('feed: message in a case that is not framed as websocket');
        this.consumer.receiveMessage(bytesOf(step.data));
        return DONE;
      case 'end':
        this.consumer.end();
        return DONE;
      default:
        // `feed: records` never reaches an adapter: the harness frames it as bytes or messages.
        return fail(`unknown feed ${JSON.stringify(step.feed)}`);
    }
  }

  dispatch(step) {
    for (const key of ['as', 'node', 'prop']) {
      if (typeof step[key] !== 'string') fail(`step member ${key} is not a string`);
    }
    if (this.dispatches.has(step.as)) fail(`dispatch handle ${step.as} used twice`);
    const entry = { state: 'pending', value: undefined };
    this.dispatches.set(step.as, entry);
    let result;
    try {
      result = this.consumer.dispatchAction(step.node, step.prop);
    } catch (error) {
      entry.state = 'threw';
      this.hooks.log(`dispatchAction threw: ${describeError(error)}`);
      return THREW;
    }
    Promise.resolve(result).then(
      (value) => {
        this.hooks.activity();
        entry.state = 'settled';
        entry.value = value;
      },
      (error) => {
        this.hooks.activity();
        entry.state = 'threw';
        this.hooks.log(`dispatchAction rejected: ${describeError(error)}`);
      },
    );
    return DONE;
  }

  gate(step) {
    if (!Number.isInteger(step.call) || step.call < 1) fail('gate.call must be an integer >= 1');
    const settle = checkSettlement(step.settle);
    const gate = this.gates[step.call - 1];
    // A gate for a call the consumer never made: the implementation did not ask for it.
    if (gate === undefined || gate.settled) return THREW;
    gate.settled = true;
    if (Object.hasOwn(settle, 'throw')) gate.reject(hostError(settle.throw));
    else gate.resolve(fromWire(settle.return));
    return DONE;
  }

  observe(step) {
    const consumer = this.consumer;
    switch (step.expect) {
      case 'graph': {
        const { revision, root, nodes } = consumer.getSnapshot();
        return toWire({ revision, root, nodes });
      }
      case 'data':
        return toWire(consumer.getSnapshot().data);
      case 'revision':
        return toWire(consumer.getSnapshot().revision);
      case 'transactions':
        return toWire(consumer.getTransactions());
      case 'quarantine':
        return toWire(consumer.getQuarantine());
      case 'rejections':
        return toWire(consumer.getRejections());
      case 'frames':
        return this.frames();
      case 'dispatch': {
        if (typeof step.of !== 'string' || !this.dispatches.has(step.of)) fail(`no dispatch named ${JSON.stringify(step.of)}`);
        const entry = this.dispatches.get(step.of);
        if (entry.state === 'pending') return 'pending';
        if (entry.state === 'threw') return 'threw';
        return toWire(entry.value);
      }
      case 'action-policy-calls':
        return this.policyCalls;
      default:
        return fail(`unknown Rixx UI observation ${JSON.stringify(step.expect)}`);
    }
  }

  /** One entry per frame received: quarantined, rejected, or accepted (vectors/README.md). */
  frames() {
    const count = this.consumer.getFrameCount();
    if (!Number.isInteger(count) || count < 0) fail('getFrameCount() did not return a count');
    const quarantined = new Map(this.consumer.getQuarantine().map((entry) => [entry.frame, entry.code]));
    const rejected = new Map(this.consumer.getRejections().map((entry) => [entry.frame, entry.code]));
    const out = [];
    for (let frame = 0; frame < count; frame += 1) {
      if (quarantined.has(frame)) out.push({ frame, result: 'quarantined', code: toWire(quarantined.get(frame)) });
      else if (rejected.has(frame)) out.push({ frame, result: 'rejected', code: toWire(rejected.get(frame)) });
      else out.push({ frame, result: 'accepted' });
    }
    return out;
  }

  dispose() {
    this.consumer = undefined;
  }
}

