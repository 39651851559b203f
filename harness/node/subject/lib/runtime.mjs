// The RCIP runtime (RCIP-PROTO "Runtime surfaces", "Snapshot semantics", "Invocation lifecycle";
// RCIP-LIFE throughout; CLARIFICATIONS A01, A03..A07, B01..B17, B20..B23, B25):
// `createRcipRuntime(definition, options?)` returns `{ client, host }` over one private state.
//
// Reading guide: `invoke` runs the lifecycle's numbered steps in order. Steps 1-3 (catalog,
// binding, live availability, input) and the reserved-id check are synchronous, so a request is
// captured (copied) before `invoke` returns. Step 4 (policy) may wait; while it waits an abort
// settles the invocation at once and the late policy result is ignored (RCIP-LIFE "Cancellation").
// After every policy wait the runtime rechecks abort, binding identity, semantic context and
// availability (RCIP-LIFE "Asynchronous policy"). A `confirm` decision parks the invocation as a
// pending confirmation until the host resolves it, it expires, or its signal aborts (step 5).
// Steps 6-8 run the handler with a detached input copy, validate its output and refresh the
// snapshot after a success.

import { checkDefinition } from './definition.mjs';
import { ConfigurationError } from './errors.mjs';
import { copyJson, deepFreeze, plainJsonViolation } from './json.mjs';
import { confirmationOutcome, errorOutcome, succeededOutcome, terminalPhase } from './outcomes.mjs';
import { compileSchema } from './schema.mjs';

/** RCIP-LIFE: "Default expiry is two minutes." (CL-B08) */
const DEFAULT_CONFIRMATION_TTL_MS = 120000;
/** RCIP-LIFE: "The runtime retains only the latest 256 non-sensitive expiry/cancellation receipts." */
const RECEIPT_LIMIT = 256;
/** The longest delay a JavaScript timer holds: 2^31 - 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function isRecord(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** An AbortSignal, or anything that behaves like one (a polyfill, another realm). */
function isSignal(value) {
  return value !== null && typeof value === 'object' && typeof value.aborted === 'boolean'
    && typeof value.addEventListener === 'function' && typeof value.removeEventListener === 'function';
}

/**
 * CL-B22 (RECOMMENDED): without a host policy, `read` is allowed, `destructive` needs
 * confirmation, `write` and `external` are denied; a confirmed pass is allowed.
 */
function defaultPolicy({ capability, confirmed }) {
  if (confirmed) return { decision: 'allow' };
  if (capability.effect === 'read') return { decision: 'allow' };
  if (capability.effect === 'destructive') return { decision: 'confirm' };
  return { decision: 'deny' };
}

/** CL-B06: ordered active scope list and primary scope, compared by value. */
function sameContext(a, b) {
  return a.primaryScopeId === b.primaryScopeId
    && a.activeScopeIds.length === b.activeScopeIds.length
    && a.activeScopeIds.every((id, i) => id === b.activeScopeIds[i]);
}

function copyContext(context) {
  const out = { activeScopeIds: [...context.activeScopeIds] };
  if (context.primaryScopeId !== undefined) out.primaryScopeId = context.primaryScopeId;
  return out;
}

export function createRcipRuntime(definition, options) {
  const catalog = checkDefinition(definition);
  const settings = checkOptions(options);
  const byId = new Map(catalog.capabilities.map((entry) => [entry.id, entry]));

  // ----------------------------------------------------------------------------------------------
  // State: all of it private to this runtime (CL-B25).
  // ----------------------------------------------------------------------------------------------
  let revision = 0;
  let snapshot;
  let context = { activeScopeIds: [] };
  /** capability id -> live binding `{ entry, handler, published }` (one per id, B20). */
  const bindings = new Map();
  const listeners = new Set();
  /** Invocation ids reserved from acceptance until settlement (B04). */
  const reserved = new Set();
  /** confirmation id -> pending invocation. */
  const pending = new Map();
  /** confirmation id -> `{ code, invocationId, capabilityId }`, oldest first (B10). */
  const receipts = new Map();
  const idCounters = new Map();

  function nextId(prefix) {
    if (settings.createId !== undefined) {
      try {
        const id = settings.createId(prefix);
        if (typeof id === 'string' && id !== '') return id;
      } catch {
        // A failing createId must not make invoke throw (B02): the runtime's own ids take over.
      }
    }
    const n = (idCounters.get(prefix) || 0) + 1;
    idCounters.set(prefix, n);
    return `${prefix}-${n}`;
  }

  function emit(phase, invocationId, capabilityId) {
    if (settings.onEvent === undefined) return;
    try {
      settings.onEvent({ phase, invocationId, capabilityId });
    } catch {
      // B23: observer exceptions never change an outcome.
    }
  }

  // ----------------------------------------------------------------------------------------------
  // Snapshot (A07, B15..B17)
  // ----------------------------------------------------------------------------------------------

  /** A new revision: the cached snapshot is dropped and every subscriber hears of it. */
  function publish() {
    revision += 1;
    snapshot = undefined;
    for (const listener of [...listeners]) {
      if (!listeners.has(listener)) continue;
      try {
        listener(getSnapshot());
      } catch {
        // A throwing subscriber must not disturb the host call that published, nor the others.
      }
    }
  }

  /**
   * What a binding's availability check says now, redacted to `{ available, reason?,
   * reasonCode? }` (B17). A check that throws or answers something else than an object with a
   * boolean `available` counts as unavailable (a runtime cannot run what it cannot vouch for).
   */
  function readAvailability(handler) {
    if (typeof handler.getAvailability !== 'function') return undefined;
    let available;
    let reason;
    let reasonCode;
    try {
      const answer = handler.getAvailability();
      if (!isRecord(answer)) return { available: false };
      // Each member is read once: what is checked is what is published (a getter may answer
      // differently when read again, PRJ-RCIP-JSON-02).
      ({ available, reason, reasonCode } = answer);
    } catch {
      return { available: false };
    }
    if (typeof available !== 'boolean') return { available: false };
    const redacted = { available };
    if (typeof reason === 'string') redacted.reason = reason;
    if (typeof reasonCode === 'string') redacted.reasonCode = reasonCode;
    return redacted;
  }

  /** Live availability (RCIP-LIFE: `invoke` always checks live availability, B15). */
  function availableNow(binding) {
    const availability = readAvailability(binding.handler);
    return availability === undefined || availability.available === true;
  }

  function relevance(entry) {
    // B16: current when the capability has no scopes or one of them is active; the scope
    // hierarchy (`parentId`) plays no part (B16, RECOMMENDED).
    if (entry.scopeIds.length === 0) return 'current';
    return entry.scopeIds.some((id) => context.activeScopeIds.includes(id)) ? 'current' : 'other';
  }

  function getSnapshot() {
    if (snapshot === undefined) {
      snapshot = deepFreeze({
        protocolVersion: '1.0',
        revision,
        application: copyJson(catalog.application),
        scopes: copyJson(catalog.scopes),
        context: copyContext(context),
        capabilities: catalog.capabilities.map((entry) => {
          const binding = bindings.get(entry.id);
          const published = binding === undefined ? undefined : binding.published;
          const item = {
            id: entry.id,
            title: entry.title,
            description: entry.description,
            scopeIds: copyJson(entry.scopeIds),
            effect: entry.effect,
            inputSchema: copyJson(entry.inputSchema),
            outputSchema: copyJson(entry.outputSchema),
            tags: copyJson(entry.tags),
          };
          if (entry.usage !== undefined) item.usage = copyJson(entry.usage);
          item.bound = binding !== undefined;
          item.available = binding !== undefined && (published === undefined || published.available === true);
          if (published !== undefined) item.availability = { ...published };
          item.relevance = relevance(entry);
          return item;
        }),
      });
    }
    return snapshot;
  }

  function snapshotEntry(id) {
    return getSnapshot().capabilities.find((item) => item.id === id);
  }

  // ----------------------------------------------------------------------------------------------
  // Invocation (RCIP-PROTO "Invocation lifecycle", B03..B14)
  // ----------------------------------------------------------------------------------------------

  /**
   * One accepted invocation: what was captured at `invoke` and where it stands. `settle` ends
   * the promise currently owed to a caller (the invoke's, then a resolution's).
   */
  function newInvocation(id, entry, binding, input, signal, requestedAt) {
    return {
      id,
      entry,
      binding,
      input,
      signal,
      requestedAt,
      context: copyContext(context),
      phase: 'checks',
      settle: undefined,
      onAbort: undefined,
    };
  }

  /** Ends an invocation with `outcome`: releases its id and reports the terminal event. */
  function finish(inv, outcome) {
    detachAbort(inv);
    inv.phase = 'settled';
    reserved.delete(inv.id);
    inv.input = undefined;
    const phase = terminalPhase(outcome);
    if (phase !== undefined) emit(phase, inv.id, inv.entry.id);
    const settle = inv.settle;
    inv.settle = undefined;
    if (settle !== undefined) settle(outcome);
    return outcome;
  }

  function fail(inv, code, issues) {
    return finish(inv, errorOutcome(code, inv.id, inv.entry.id, issues));
  }

  function watchAbort(inv, onAbort) {
    detachAbort(inv);
    if (inv.signal === undefined) return;
    inv.onAbort = onAbort;
    inv.signal.addEventListener('abort', onAbort, { once: true });
  }

  function detachAbort(inv) {
    if (inv.onAbort !== undefined && inv.signal !== undefined) inv.signal.removeEventListener('abort', inv.onAbort);
    inv.onAbort = undefined;
  }

  function invoke(request) {
    try {
      return Promise.resolve(startInvocation(request));
    } catch {
      // Unreachable by design; kept so that invoke settles to an outcome whatever happens (B02).
      const capabilityId = isRecord(request) && typeof request.capabilityId === 'string' ? request.capabilityId : '';
      return Promise.resolve(errorOutcome('EXECUTION_FAILED', '', capabilityId));
    }
  }

  function startInvocation(request) {
    const requestedAt = Date.now();
    const fields = isRecord(request) ? request : {};
    // A06 outcomes carry a string capabilityId; a request without one is reported with "".
    const capabilityId = typeof fields.capabilityId === 'string' ? fields.capabilityId : '';
    const given = fields.invocationId;
    const validId = given === undefined || (typeof given === 'string' && given !== '');
    const id = typeof given === 'string' && given !== '' ? given : nextId('invocation');
    const signal = isSignal(fields.signal) ? fields.signal : undefined;

    // B04: a reserved id is refused without touching the invocation that holds it.
    if (reserved.has(id)) {
      emit('requested', id, capabilityId);
      emit('failed', id, capabilityId);
      return errorOutcome('INVOCATION_ALREADY_ACTIVE', id, capabilityId);
    }
    reserved.add(id);
    emit('requested', id, capabilityId);
    const placeholder = { id: capabilityId };
    const inv = newInvocation(id, placeholder, undefined, undefined, signal, requestedAt);

    // Lifecycle 1: the declared capability and its live binding.
    const entry = byId.get(capabilityId);
    if (entry === undefined) return fail(inv, 'CAPABILITY_NOT_FOUND');
    inv.entry = entry;
    if (!validId) return fail(inv, 'INPUT_INVALID');
    const binding = bindings.get(entry.id);
    if (binding === undefined) return fail(inv, 'CAPABILITY_UNBOUND');
    inv.binding = binding;
    // Lifecycle 2: current (live) availability.
    if (!availableNow(binding)) return fail(inv, 'CAPABILITY_UNAVAILABLE');
    // Lifecycle 3: plain JSON (B13), then the declared input schema, on a detached copy (B14).
    if (plainJsonViolation(fields.input) !== null) return fail(inv, 'INPUT_INVALID');
    inv.input = copyJson(fields.input);
    const issues = binding.validateInput(inv.input);
    if (issues !== null) return fail(inv, 'INPUT_INVALID', issues);
    // B03 (RECOMMENDED): an already-aborted request stops here; policy is not called.
    if (signal !== undefined && signal.aborted) return fail(inv, 'EXECUTION_ABORTED');

    return new Promise((resolve) => {
      inv.settle = resolve;
      askPolicy(inv, false);
    });
  }

  /**
   * Lifecycle 4 (and 5, with `confirmed`): asks host policy, waits for its answer unless the
   * request is aborted first, rechecks what may have changed, and acts on the decision.
   */
  function askPolicy(inv, confirmed) {
    inv.phase = confirmed ? 'confirmed-policy' : 'policy';
    // RCIP-LIFE: "Abort before execution prevents starting the handler and releases a pending
    // policy wait even if its callback has not settled."
    watchAbort(inv, () => {
      if (inv.phase === 'policy' || inv.phase === 'confirmed-policy') fail(inv, 'EXECUTION_ABORTED');
    });
    const policyContext = {
      capability: snapshotEntry(inv.entry.id),
      input: copyJson(inv.input),
      semanticContext: copyContext(context),
      confirmed,
    };
    let answer;
    try {
      answer = settings.policy(policyContext);
    } catch {
      // A policy that throws has settled too: the rechecks still come first (below).
      afterPolicy(inv, undefined, confirmed);
      return;
    }
    const phase = inv.phase;
    Promise.resolve(answer).then(
      (decision) => {
        if (inv.phase !== phase) return; // aborted meanwhile: the late result runs nothing
        afterPolicy(inv, decision, confirmed);
      },
      () => {
        if (inv.phase !== phase) return;
        afterPolicy(inv, undefined, confirmed);
      },
    );
  }

  /** `decision` is undefined when the policy threw or its promise rejected. */
  function afterPolicy(inv, decision, confirmed) {
    // RCIP-LIFE: "After awaiting policy, RCIP rechecks binding identity, semantic context,
    // availability, and cancellation" (B05; this order of precedence is the RECOMMENDED one).
    // The sentence holds whatever the policy answered, a throw or a malformed answer included:
    // a failing recheck decides the outcome before B12's POLICY_EVALUATION_FAILED.
    if (inv.signal !== undefined && inv.signal.aborted) {
      fail(inv, 'EXECUTION_ABORTED');
      return;
    }
    if (bindings.get(inv.entry.id) !== inv.binding) {
      fail(inv, 'CAPABILITY_UNBOUND');
      return;
    }
    if (!sameContext(context, inv.context)) {
      fail(inv, 'POLICY_DENIED');
      return;
    }
    if (!availableNow(inv.binding)) {
      fail(inv, 'CAPABILITY_UNAVAILABLE');
      return;
    }
    const known = isRecord(decision) && ['allow', 'deny', 'confirm'].includes(decision.decision);
    if (!known) {
      fail(inv, 'POLICY_EVALUATION_FAILED');
      return;
    }
    switch (decision.decision) {
      case 'allow':
        execute(inv);
        return;
      case 'deny':
        fail(inv, 'POLICY_DENIED');
        return;
      default:
        // B07 (RECOMMENDED): `confirm` again on the confirmed pass is a denial.
        if (confirmed) fail(inv, 'POLICY_DENIED');
        else requestConfirmation(inv);
    }
  }

  /**
   * B08: the expiry timer. A timer delay of 2^31 ms or more overflows in JavaScript (the callback
   * then runs at once), so a long TTL is waited for in steps no longer than that; `inv.timer`
   * always holds the current step, which `clearTimeout` cancels.
   */
  function armExpiry(inv, expiresAt) {
    const left = expiresAt - Date.now();
    if (left <= 0) {
      release(inv, 'CONFIRMATION_EXPIRED');
      return;
    }
    const step = Math.min(left, MAX_TIMER_MS);
    inv.timer = setTimeout(() => {
      if (step === left) release(inv, 'CONFIRMATION_EXPIRED');
      else armExpiry(inv, expiresAt);
    }, step);
  }

  /** Lifecycle 5: the operation is captured and parked until the host resolves it. */
  function requestConfirmation(inv) {
    const confirmationId = nextId('confirmation');
    const expiresAt = Date.now() + settings.confirmationTtlMs;
    inv.phase = 'confirmation';
    inv.confirmationId = confirmationId;
    armExpiry(inv, expiresAt);
    // B09: aborting the original signal cancels the pending confirmation at once.
    watchAbort(inv, () => {
      if (inv.phase === 'confirmation') release(inv, 'EXECUTION_ABORTED');
    });
    pending.set(confirmationId, inv);
    emit('confirmation_requested', inv.id, inv.entry.id);
    const settle = inv.settle;
    inv.settle = undefined;
    settle(confirmationOutcome(inv.id, inv.entry.id, {
      id: confirmationId,
      title: inv.entry.title,
      description: inv.entry.description,
      effect: inv.entry.effect,
      expiresAt,
    }));
  }

  /**
   * Expiry or cancellation of a pending confirmation (B08, B09): payload, listener and id
   * reservation are released, and a receipt answers a later resolution once (B10).
   */
  function release(inv, code) {
    clearTimeout(inv.timer);
    detachAbort(inv);
    pending.delete(inv.confirmationId);
    reserved.delete(inv.id);
    inv.phase = 'released';
    inv.input = undefined;
    receipts.set(inv.confirmationId, { code, invocationId: inv.id, capabilityId: inv.entry.id });
    while (receipts.size > RECEIPT_LIMIT) receipts.delete(receipts.keys().next().value);
  }

  function resolveConfirmation(confirmationId, approved) {
    const inv = typeof confirmationId === 'string' ? pending.get(confirmationId) : undefined;
    if (inv === undefined) {
      const receipt = typeof confirmationId === 'string' ? receipts.get(confirmationId) : undefined;
      if (receipt !== undefined) {
        // B10 (RECOMMENDED): a receipt is returned once, whatever `approved` says.
        receipts.delete(confirmationId);
        return Promise.resolve(errorOutcome(receipt.code, receipt.invocationId, receipt.capabilityId));
      }
      // No invocation is known for this id: the outcome still carries string ids (A06).
      return Promise.resolve(errorOutcome('CONFIRMATION_NOT_FOUND', '', ''));
    }
    // B07: single use. The confirmation leaves `pending` now, so a second resolution is not found.
    pending.delete(confirmationId);
    clearTimeout(inv.timer);
    detachAbort(inv);
    return new Promise((resolve) => {
      inv.settle = resolve;
      if (approved !== true) {
        emit('confirmation_declined', inv.id, inv.entry.id);
        // The decline is reported by its own phase; `finish` adds no second event for it.
        inv.phase = 'settled';
        reserved.delete(inv.id);
        inv.input = undefined;
        inv.settle = undefined;
        resolve(errorOutcome('CONFIRMATION_DECLINED', inv.id, inv.entry.id));
        return;
      }
      approve(inv);
    });
  }

  /** B07: approval re-runs binding, availability, input schema and policy (`confirmed: true`). */
  function approve(inv) {
    inv.phase = 'approval';
    // RCIP-LIFE: "A changed binding or semantic context while the dialog is pending denies the
    // operation."
    if (bindings.get(inv.entry.id) !== inv.binding || !sameContext(context, inv.context)) {
      fail(inv, 'POLICY_DENIED');
      return;
    }
    if (!availableNow(inv.binding)) {
      fail(inv, 'CAPABILITY_UNAVAILABLE');
      return;
    }
    const issues = inv.binding.validateInput(inv.input);
    if (issues !== null) {
      fail(inv, 'INPUT_INVALID', issues);
      return;
    }
    askPolicy(inv, true);
  }

  /** Lifecycle 6..8: the handler, its output, and the refresh after a success. */
  function execute(inv) {
    inv.phase = 'running';
    detachAbort(inv);
    emit('started', inv.id, inv.entry.id);
    const ctx = {
      // The caller's signal, or one that never aborts: a handler can always pass `ctx.signal` on.
      signal: inv.signal !== undefined ? inv.signal : new AbortController().signal,
      invocationId: inv.id,
      requestedAt: inv.requestedAt,
      semanticContext: copyContext(inv.context),
    };
    let result;
    try {
      result = inv.binding.handler.execute(copyJson(inv.input), ctx);
    } catch (error) {
      result = Promise.reject(error);
    }
    Promise.resolve(result).then(
      (output) => {
        // B12: output that is not plain JSON, or fails the output schema, is OUTPUT_INVALID.
        if (plainJsonViolation(output) !== null) {
          fail(inv, 'OUTPUT_INVALID');
          return;
        }
        const kept = copyJson(output);
        const issues = inv.binding.validateOutput(kept);
        if (issues !== null) {
          fail(inv, 'OUTPUT_INVALID', issues);
          return;
        }
        // Lifecycle 8: "refreshes the live snapshot after success" (a new revision, B15).
        republishAvailability();
        publish();
        finish(inv, succeededOutcome(inv.id, inv.entry.id, kept));
      },
      () => {
        // B11: a throw after an abort request is EXECUTION_ABORTED; otherwise EXECUTION_FAILED
        // (also for an abort-like error without any abort: B11 leaves that open).
        const aborted = inv.signal !== undefined && inv.signal.aborted;
        fail(inv, aborted ? 'EXECUTION_ABORTED' : 'EXECUTION_FAILED');
      },
    );
  }

  function republishAvailability() {
    for (const binding of bindings.values()) binding.published = readAvailability(binding.handler);
  }

  // ----------------------------------------------------------------------------------------------
  // Surfaces
  // ----------------------------------------------------------------------------------------------

  const client = {
    getSnapshot,
    listCapabilities(filter) {
      const f = isRecord(filter) ? filter : {};
      return getSnapshot().capabilities.filter((item) => (f.context !== 'current' || item.relevance === 'current')
        && (f.availableOnly !== true || item.available)
        && (f.scopeId === undefined || item.scopeIds.includes(f.scopeId))
        && (f.effect === undefined || item.effect === f.effect));
    },
    subscribe(listener) {
      if (typeof listener !== 'function') throw new TypeError('subscribe needs a listener function');
      // Each subscription is its own: the same function subscribed twice is called twice.
      const own = (value) => listener(value);
      listeners.add(own);
      return () => {
        listeners.delete(own);
      };
    },
    invoke,
  };

  const host = {
    bindCapability(capability, handler) {
      const entry = catalog.byObject.get(capability);
      if (entry === undefined) {
        throw new ConfigurationError('bindCapability needs the capability object of this runtime\'s catalog');
      }
      if (!isRecord(handler) || typeof handler.execute !== 'function') {
        throw new ConfigurationError('bindCapability needs a handler with an execute function');
      }
      if (handler.getAvailability !== undefined && typeof handler.getAvailability !== 'function') {
        throw new ConfigurationError('getAvailability must be a function');
      }
      if (bindings.has(entry.id)) throw new ConfigurationError(`${entry.id} already has a live binding`);
      // RCIP-LIFE: "Schema compilation happens at binding"; an invalid schema throws here.
      const validateInput = compileSchema(entry.inputSchema, `inputSchema of ${entry.id}`);
      const validateOutput = compileSchema(entry.outputSchema, `outputSchema of ${entry.id}`);
      const binding = { entry, handler, validateInput, validateOutput, published: undefined };
      binding.published = readAvailability(handler);
      bindings.set(entry.id, binding);
      publish();
      // B20: removes only the binding it installed, and only once.
      return () => {
        if (bindings.get(entry.id) !== binding) return;
        bindings.delete(entry.id);
        publish();
      };
    },
    setContext(next) {
      const checked = checkContext(next, catalog);
      if (sameContext(checked, context)) return; // B06/B15: an identical context is not a change
      context = checked;
      publish();
    },
    refresh() {
      republishAvailability();
      publish();
    },
    resolveConfirmation,
  };

  return { client, host };
}

/**
 * A01 options. Anything given with the wrong type is a host configuration error; unknown members
 * are ignored (a newer host may pass options this runtime does not know).
 */
function checkOptions(options) {
  if (options !== undefined && !isRecord(options)) throw new ConfigurationError('options must be an object');
  const o = options || {};
  for (const name of ['policy', 'createId', 'onEvent']) {
    if (o[name] !== undefined && typeof o[name] !== 'function') throw new ConfigurationError(`options.${name} must be a function`);
  }
  const ttl = o.confirmationTtlMs === undefined ? DEFAULT_CONFIRMATION_TTL_MS : o.confirmationTtlMs;
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0) {
    throw new ConfigurationError('options.confirmationTtlMs must be a finite number of milliseconds >= 0');
  }
  return {
    policy: o.policy === undefined ? defaultPolicy : o.policy,
    createId: o.createId,
    onEvent: o.onEvent,
    confirmationTtlMs: ttl,
  };
}

/**
 * `setContext` input (A04): declared scope ids only, a primary scope that is active (B21,
 * RECOMMENDED: otherwise throw and keep the context), duplicates collapsed keeping first-seen
 * order.
 */
function checkContext(next, catalog) {
  if (!isRecord(next) || !Array.isArray(next.activeScopeIds)) {
    throw new ConfigurationError('setContext needs { activeScopeIds: [...], primaryScopeId? }');
  }
  const declared = new Set(catalog.scopes.map((scope) => scope.id));
  const active = [];
  for (const id of next.activeScopeIds) {
    if (!declared.has(id)) throw new ConfigurationError('setContext names an undeclared scope');
    if (!active.includes(id)) active.push(id);
  }
  const out = { activeScopeIds: active };
  if (next.primaryScopeId !== undefined) {
    if (!active.includes(next.primaryScopeId)) throw new ConfigurationError('the primary scope must be one of the active scopes');
    out.primaryScopeId = next.primaryScopeId;
  }
  return out;
}
