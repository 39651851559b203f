// Outcomes (RCIP-PROTO "Invocation lifecycle"; CLARIFICATIONS A06, B01, B02): the four statuses,
// the stable codes and the status each code carries. Messages are fixed texts per code: they
// never carry a handler's or policy's error text, a stack trace, or a data value (B02), so
// nothing a host callback throws can cross the client boundary.

/** B01: status `denied` for these two codes, `failed` for every other one. */
const DENIED_CODES = new Set(['POLICY_DENIED', 'CONFIRMATION_DECLINED']);

const MESSAGES = Object.freeze({
  INVOCATION_ALREADY_ACTIVE: 'This invocation id is already in use by an active invocation.',
  CAPABILITY_NOT_FOUND: 'The capability is not declared in the catalog.',
  CAPABILITY_UNBOUND: 'The capability has no live binding.',
  CAPABILITY_UNAVAILABLE: 'The capability is currently unavailable.',
  INPUT_INVALID: 'The input does not satisfy the capability input contract.',
  POLICY_EVALUATION_FAILED: 'The host policy could not be evaluated.',
  POLICY_DENIED: 'The host policy denied this invocation.',
  CONFIRMATION_DECLINED: 'The confirmation was declined.',
  CONFIRMATION_EXPIRED: 'The confirmation expired.',
  CONFIRMATION_NOT_FOUND: 'No pending confirmation has this id.',
  EXECUTION_ABORTED: 'The invocation was aborted.',
  EXECUTION_FAILED: 'The capability handler failed.',
  OUTPUT_INVALID: 'The handler output does not satisfy the capability output contract.',
});

export const CODES = Object.freeze(Object.keys(MESSAGES));

/**
 * A failed or denied outcome. `validationIssues` (each `{ instancePath, keyword, message }`) is
 * present only when a schema was checked and reported issues.
 */
export function errorOutcome(code, invocationId, capabilityId, validationIssues) {
  const error = { code, message: MESSAGES[code] };
  if (validationIssues !== undefined) error.validationIssues = validationIssues;
  return {
    status: DENIED_CODES.has(code) ? 'denied' : 'failed',
    invocationId,
    capabilityId,
    error,
  };
}

export function succeededOutcome(invocationId, capabilityId, output) {
  return { status: 'succeeded', invocationId, capabilityId, output };
}

export function confirmationOutcome(invocationId, capabilityId, confirmation) {
  return { status: 'confirmation_required', invocationId, capabilityId, confirmation };
}

/** The event phase that ends an invocation with this outcome (B23). */
export function terminalPhase(outcome) {
  switch (outcome.status) {
    case 'succeeded': return 'succeeded';
    case 'denied': return 'denied';
    case 'failed': return 'failed';
    default: return undefined;
  }
}
