// The Assist orchestrator (RCIP-PROTO "Assist orchestration"; CLARIFICATIONS C01..C06): an
// optional consumer over a runtime's client. One host-provided callback decides each turn; the
// orchestrator runs the batch it answers through `client.invoke`, one action at a time, and asks
// the same callback to summarize once if anything ran. Confirmation is delegated to the trusted
// host UI (`confirm`); the orchestrator never resolves a confirmation itself.
//
//   const assist = createRcipAssist({ client, respond, confirm, batchBound, delays });
//   const { text, outcomes } = await assist.runTurn({ mode: 'default', messages, signal });
//
// `respond(request)` receives `{ phase, mode, snapshot, messages, outcomes }` and returns (or
// resolves to) `{ text }` or, in phase `decide`, `{ actions: [{ capabilityId, input, delay? }] }`.
// `confirm({ outcome, action, index })` is the host UI: it shows the `confirmation_required`
// outcome, calls `host.resolveConfirmation`, and returns (or resolves to) that resolution's outcome.

/** CL-C01: RECOMMENDED N = 8, clamped to 1..32. */
export const ASSIST_DEFAULT_BATCH_BOUND = 8;
const BATCH_BOUND_RANGE = [1, 32];
/** CL-C03: RECOMMENDED 250, 750, 1500 ms, each clamped to 0..10000. */
export const ASSIST_DEFAULT_DELAYS = Object.freeze({ short: 250, medium: 750, long: 1500 });
const DELAY_RANGE = [0, 10000];

const MODES = ['default', 'read-only'];

function clamp(value, [low, high], fallback) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(high, Math.max(low, Math.trunc(value)));
}

function isRecord(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Settles with `promise`, or with `CANCELLED` as soon as `signal` aborts (whichever is first). */
const CANCELLED = Symbol('cancelled');
function untilAborted(promise, signal) {
  if (signal === undefined) return Promise.resolve(promise);
  if (signal.aborted) return Promise.resolve(CANCELLED);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(CANCELLED);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(promise).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** A pause on the runtime's clock (`setTimeout`) that an abort ends at once (C06). */
function pause(ms, signal) {
  return untilAborted(new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    if (signal !== undefined) signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  }), signal);
}

/**
 * A `decide` answer: `{ text }`, `{ actions }` (1..bound well-formed actions), or `{ refused }`
 * for anything else (C01: "A batch over the bound, or a malformed answer, runs nothing").
 */
function readDecision(answer, bound) {
  if (!isRecord(answer)) return { refused: 'not an answer' };
  if (Array.isArray(answer.actions)) {
    const actions = answer.actions;
    if (actions.length < 1) return { refused: 'an empty batch' };
    if (actions.length > bound) return { refused: 'a batch over the bound' };
    for (const action of actions) {
      if (!isRecord(action) || typeof action.capabilityId !== 'string') return { refused: 'a malformed action' };
      if (action.delay !== undefined && !Object.hasOwn(ASSIST_DEFAULT_DELAYS, action.delay)) return { refused: 'an unknown delay' };
    }
    return { actions };
  }
  if (typeof answer.text === 'string') return { text: answer.text };
  return { refused: 'not an answer' };
}

export function createRcipAssist(options) {
  if (!isRecord(options) || !isRecord(options.client) || typeof options.client.invoke !== 'function') {
    throw new TypeError('createRcipAssist needs { client, respond, confirm? }');
  }
  if (typeof options.respond !== 'function') throw new TypeError('createRcipAssist needs a respond callback');
  if (options.confirm !== undefined && typeof options.confirm !== 'function') throw new TypeError('confirm must be a function');
  const { client, respond, confirm } = options;
  const bound = clamp(options.batchBound, BATCH_BOUND_RANGE, ASSIST_DEFAULT_BATCH_BOUND);
  const given = isRecord(options.delays) ? options.delays : {};
  const delays = {};
  for (const [name, fallback] of Object.entries(ASSIST_DEFAULT_DELAYS)) delays[name] = clamp(given[name], DELAY_RANGE, fallback);
  let localCount = 0;

  /** C01/C05: the snapshot the callback sees; read-only mode keeps only `read` capabilities. */
  function discovery(mode) {
    const snapshot = client.getSnapshot();
    if (mode !== 'read-only') return snapshot;
    return { ...snapshot, capabilities: snapshot.capabilities.filter((item) => item.effect === 'read') };
  }

  /** C05 (RECOMMENDED): the local outcome of an action rejected in read-only mode. */
  function localDenial(capabilityId) {
    localCount += 1;
    return {
      status: 'denied',
      invocationId: `assist-local-${localCount}`,
      capabilityId,
      error: { code: 'POLICY_DENIED', message: 'Read-only mode does not run state-changing actions.' },
    };
  }

  async function runTurn(request) {
    const turn = isRecord(request) ? request : {};
    if (!MODES.includes(turn.mode)) throw new TypeError('mode must be "default" or "read-only"');
    const { mode } = turn;
    const messages = Array.isArray(turn.messages) ? turn.messages : [];
    const signal = turn.signal !== undefined && turn.signal !== null ? turn.signal : undefined;
    const outcomes = [];
    const ask = (phase) => respond({ phase, mode, snapshot: discovery(mode), messages, outcomes: [...outcomes] });

    if (signal !== undefined && signal.aborted) return { text: null, outcomes };
    // The decide call is made at once; a throwing callback fails the turn (the error is the
    // host's own, so it goes back to the host that started the turn).
    const answer = await untilAborted(ask('decide'), signal);
    if (answer === CANCELLED) return { text: null, outcomes };
    const decision = readDecision(answer, bound);
    if (decision.text !== undefined) return { text: decision.text, outcomes };
    if (decision.actions === undefined) return { text: null, outcomes };

    const readable = mode === 'read-only' ? new Set(discovery(mode).capabilities.map((item) => item.id)) : undefined;
    let invoked = false;
    for (let index = 0; index < decision.actions.length; index += 1) {
      if (signal !== undefined && signal.aborted) return { text: null, outcomes };
      const action = decision.actions[index];
      // C05: a non-read (or unknown) action in read-only mode never reaches invoke.
      if (readable !== undefined && !readable.has(action.capabilityId)) {
        outcomes.push(localDenial(action.capabilityId));
        break;
      }
      invoked = true;
      const invocation = { capabilityId: action.capabilityId, input: action.input };
      if (signal !== undefined) invocation.signal = signal;
      let outcome = await untilAborted(client.invoke(invocation), signal);
      if (outcome === CANCELLED) return { text: null, outcomes };
      if (outcome.status === 'confirmation_required' && confirm !== undefined) {
        // C02: the host UI resolves; the batch goes on with the resolution's outcome.
        outcome = await untilAborted(confirm({ outcome, action, index }), signal);
        if (outcome === CANCELLED) return { text: null, outcomes };
      }
      outcomes.push(outcome);
      if (!isRecord(outcome) || outcome.status !== 'succeeded') break;
      // C03: the pause after this action, never after the last one.
      const last = index === decision.actions.length - 1;
      if (action.delay !== undefined && !last) {
        if ((await pause(delays[action.delay], signal)) === CANCELLED) return { text: null, outcomes };
      }
    }

    // C04: exactly one summarize call if any action ran; its actions are never executed, and a
    // failing or malformed summary leaves the outcomes as they are.
    if (!invoked) return { text: null, outcomes };
    let text = null;
    try {
      const summary = await untilAborted(ask('summarize'), signal);
      if (isRecord(summary) && typeof summary.text === 'string') text = summary.text;
    } catch {
      text = null;
    }
    return { text, outcomes };
  }

  return { runTurn, batchBound: bound, delays: Object.freeze({ ...delays }) };
}
