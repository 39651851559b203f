//! The invocation lifecycle (RCIP-PROTO-LIFE-01..15, spec 000 "Invocation lifecycle" steps 1-8,
//! spec 001 "Asynchronous policy and confirmation", "Cancellation and effects") with CL-B02..B12
//! and CL-B22: id reservation, the check order, policy as a gate the driver settles, rechecks
//! after policy, confirmations with TTL on the virtual clock, single-use approval, receipts,
//! aborts at every checkpoint, execution with a signal, output validation, refresh after success.
//!
//! Every path ends in exactly one outcome per ticket; nothing here returns an error to the
//! client (CL-B02-1). Decisions where the texts are silent (each also listed in `mod.rs`):
//! - a reserved id is checked before the catalog lookup, and its failure does not disturb the
//!   holder; every `invoke` emits `requested` then one terminal event;
//! - input that is not plain JSON gives `INPUT_INVALID` without `validationIssues`; schema failures
//!   of input and output carry them;
//! - after a policy settles (also synchronously) the rechecks of CL-B05 run first, in the
//!   RECOMMENDED order abort, binding, context, availability; then a throwing or malformed answer
//!   gives `POLICY_EVALUATION_FAILED`; a malformed answer is anything but an object whose
//!   `decision` is `allow`, `deny` or `confirm`;
//! - approval checks, in order: binding or context changed (`POLICY_DENIED`, CL-B07-4),
//!   availability, input schema, abort, then the confirmed policy pass; `confirm` again on the
//!   confirmed pass is `POLICY_DENIED` (CL-B07-5);
//! - approval at exactly `expiresAt` finds the confirmation expired (timers due at or before the
//!   clock fire first; CL-B08-4);
//! - expiry and cancellation of a pending confirmation emit a `failed` event; resolving a
//!   receipt or an unknown id emits none; a decline emits `confirmation_declined` only;
//! - an unknown confirmation id resolves to `CONFIRMATION_NOT_FOUND` with empty invocation and
//!   capability ids; a receipt's outcome carries the ids it recorded;
//! - a handler throwing an `AbortError` without any abort is `EXECUTION_FAILED` (CL-B11-6);
//! - a handler gets the caller's signal (or a fresh one when the caller gave none), so
//!   unbinding never aborts a running handler (RCIP-LIFE-CANCEL-07).

use serde_json::Value;

use super::definition::{CapabilityHandle, Effect};
use super::outcome::{ConfirmationInfo, ErrorCode, Outcome, OutcomeBody, ValidationIssue};
use super::runtime::{
    AbortSignal, Answer, CallId, HandlerCall, HostError, HostErrorName, Phase, PolicyCall, Runtime,
    Settlement, Ticket,
};
use super::snapshot::SemanticContext;
use super::value::HostValue;
use crate::choices::{Choice, Fault};

/// A request past the checks before policy: its catalog entry, the live binding, detached input.
pub(super) type CheckedRequest = (CapabilityHandle, u64, Value);

/// Why a request fails before policy: the code, and validation issues for a schema failure.
pub(super) type RequestRejection = (ErrorCode, Option<Vec<ValidationIssue>>);

/// `client.invoke({ capabilityId, input, invocationId?, signal? })`.
#[derive(Debug, Clone)]
pub struct InvokeRequest {
    pub capability_id: String,
    /// The caller's own value: it may be mutated after the call, which changes nothing.
    pub input: HostValue,
    pub invocation_id: Option<String>,
    pub signal: Option<AbortSignal>,
}

/// One invocation past its synchronous checks: everything the later steps need, captured.
#[derive(Debug, Clone)]
pub(super) struct Operation {
    /// The ticket the next outcome settles (the invoke's, or a resolution's).
    pub(super) ticket: Ticket,
    pub(super) invocation_id: String,
    pub(super) capability: CapabilityHandle,
    /// The detached input (CL-B14-1).
    pub(super) input: Value,
    pub(super) signal: Option<AbortSignal>,
    /// The binding live when the invocation started (binding identity, CL-B05).
    pub(super) binding: u64,
    /// The context when the invocation started (compared by value, CL-B06).
    pub(super) context: SemanticContext,
    pub(super) requested_at: u64,
    pub(super) confirmed: bool,
}

/// A callback call waiting for its gate.
pub(super) enum Waiting {
    Policy(Operation),
    Handler(Operation),
}

pub(super) struct PendingConfirmation {
    pub(super) seq: u64,
    pub(super) op: Operation,
    pub(super) expires_at: u64,
}

/// Why a receipt exists (CL-B08-3, CL-B09-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReceiptKind {
    Expired,
    Cancelled,
}

/// A non-sensitive record of an expired or cancelled confirmation (RCIP-LIFE-CONF-07): ids only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receipt {
    pub confirmation_id: String,
    pub invocation_id: String,
    pub capability_id: String,
    pub kind: ReceiptKind,
}

/// Which alternates of the default policy's rows (CL-B22, RECOMMENDED throughout) are taken.
struct DefaultPolicyReading {
    /// `Choice::DefaultPolicyConfirmsWrites`: every non-read effect needs confirmation.
    confirm_writes: bool,
    /// `Choice::DefaultPolicyConfirmsReads`: a read needs confirmation too (CL-B22-1).
    confirm_reads: bool,
    /// `Choice::DefaultPolicyRejudgesConfirmedPass`: the confirmed pass applies the same table
    /// instead of allowing (CL-B22-4), so a `confirm` there is answered again (CL-B07-5).
    rejudge_confirmed: bool,
}

/// The default policy of CL-B22 (RECOMMENDED), or the alternates `reading` takes.
fn default_decision(effect: Effect, confirmed: bool, reading: &DefaultPolicyReading) -> Decision {
    if confirmed && !reading.rejudge_confirmed {
        return Decision::Allow;
    }
    let confirm_writes = reading.confirm_writes;
    match effect {
        Effect::Read if reading.confirm_reads => Decision::Confirm,
        Effect::Read => Decision::Allow,
        Effect::Destructive => Decision::Confirm,
        Effect::Write | Effect::External if confirm_writes => Decision::Confirm,
        Effect::Write | Effect::External => Decision::Deny,
    }
}

enum Decision {
    Allow,
    Deny,
    Confirm,
}

/// How a policy pass settled: the host policy's settlement (parsed in `after_policy`), or the
/// default policy's decision, which is always well-formed and so needs no host value.
enum PolicyAnswer {
    Host(Settlement),
    Default(Decision),
}

/// CL-A05-2..4; anything else is malformed (CL-B12-3).
fn parse_decision(value: &HostValue) -> Option<Decision> {
    value.as_object()?;
    match value.get("decision")?.as_str()? {
        "allow" => Some(Decision::Allow),
        "deny" => Some(Decision::Deny),
        "confirm" => Some(Decision::Confirm),
        _ => None,
    }
}

impl Runtime {
    /// `client.invoke(request)`: returns the ticket of its outcome, which may already be settled.
    pub fn invoke(&mut self, request: InvokeRequest) -> Ticket {
        self.process_aborts_inner();
        self.settled_log.clear();
        let ticket = self.new_ticket();
        let invocation_id = match request.invocation_id {
            Some(id) => id,
            None => self.make_id("invocation"),
        };
        let capability_id = request.capability_id;
        self.emit(Phase::Requested, &invocation_id, &capability_id);
        // CL-B04-3/4: a reserved id fails without disturbing its holder.
        if self.reserved.contains(&invocation_id) {
            self.finish_error(
                ticket,
                &invocation_id,
                &capability_id,
                ErrorCode::InvocationAlreadyActive,
                None,
            );
            return ticket;
        }
        self.reserved.insert(invocation_id.clone());
        let fail = |rt: &mut Runtime, code: ErrorCode, issues: Option<Vec<ValidationIssue>>| {
            rt.release(&invocation_id);
            rt.finish_error(ticket, &invocation_id, &capability_id, code, issues);
            ticket
        };
        let aborted = request.signal.as_ref().is_some_and(AbortSignal::is_aborted);
        // CL-B03-2 is RECOMMENDED: the alternate reports the abort before every other check.
        if aborted && self.choices.takes(Choice::AbortBeforeLookup) {
            return fail(self, ErrorCode::ExecutionAborted, None);
        }
        let (capability, binding, input) = match self.check_request(&capability_id, &request.input)
        {
            Ok(checked) => checked,
            Err((code, issues)) => return fail(self, code, issues),
        };
        // CL-B03-2: an already-aborted signal is reported before policy runs.
        if request.signal.as_ref().is_some_and(AbortSignal::is_aborted) {
            return fail(self, ErrorCode::ExecutionAborted, None);
        }
        let op = Operation {
            ticket,
            invocation_id,
            capability,
            input,
            signal: request.signal,
            binding,
            context: self.context.clone(),
            requested_at: self.now,
            confirmed: false,
        };
        self.ask_policy(op);
        ticket
    }

    /// Steps 1-3 and CL-B03-1: catalog, binding, live availability, input (plain JSON, then its
    /// schema). Shared with the `preflight` dry-run so both report the same code for one request.
    pub(super) fn check_request(
        &mut self,
        capability_id: &str,
        input: &HostValue,
    ) -> Result<CheckedRequest, RequestRejection> {
        // PRJ-RCIP-INPUT-01 is IMPL-DEFINED: the alternate checks plain JSON on capture.
        if self.choices.takes(Choice::PlainJsonAtCapture)
            && input.to_plain_json_with(self.plain_rules()).is_err()
        {
            return Err((ErrorCode::InputInvalid, None));
        }
        let Some(capability) = self.definition.capability(capability_id) else {
            return Err((ErrorCode::CapabilityNotFound, None));
        };
        if self.choices.injects(Fault::CheckOrderSchemaFirst) {
            self.checked_input(&capability, input)?;
        }
        let Some(binding) = self.binding_id(capability_id) else {
            return Err((ErrorCode::CapabilityUnbound, None));
        };
        if self.live_available(capability_id) != Some(true) {
            return Err((ErrorCode::CapabilityUnavailable, None));
        }
        let input = self.checked_input(&capability, input)?;
        Ok((capability, binding, input))
    }

    /// The input check of step 3: plain JSON (CL-B13), then the input schema.
    fn checked_input(
        &self,
        capability: &CapabilityHandle,
        input: &HostValue,
    ) -> Result<Value, RequestRejection> {
        let plain = if self.choices.injects(Fault::InputCoercedToJson) {
            input.to_stringified_json()
        } else {
            input.to_plain_json_with(self.plain_rules()).ok()
        };
        let Some(input) = plain else {
            return Err((ErrorCode::InputInvalid, None));
        };
        let issues = capability.def().input.validate(&input);
        if !issues.is_empty() {
            let issues = issues.iter().map(ValidationIssue::from_schema).collect();
            return Err((ErrorCode::InputInvalid, Some(issues)));
        }
        Ok(input)
    }

    /// `host.resolveConfirmation(confirmationId, approved)`: returns the ticket of its outcome.
    pub fn resolve_confirmation(&mut self, confirmation_id: &str, approved: bool) -> Ticket {
        self.process_aborts_inner();
        self.settled_log.clear();
        let ticket = self.new_ticket();
        if let Some(pending) = self.confirmations.remove(confirmation_id) {
            self.timers
                .remove(&(pending.expires_at, pending.seq, confirmation_id.to_string()));
            if approved && self.choices.injects(Fault::ConfirmationResolvableTwice) {
                self.confirmations.insert(
                    confirmation_id.to_string(),
                    PendingConfirmation {
                        seq: pending.seq,
                        op: pending.op.clone(),
                        expires_at: pending.expires_at,
                    },
                );
            }
            let mut op = pending.op;
            op.ticket = ticket;
            if approved {
                self.approve(op);
            } else {
                // CL-B07-2; CL-B10-4: no receipt.
                self.release(&op.invocation_id);
                self.emit(
                    Phase::ConfirmationDeclined,
                    &op.invocation_id,
                    op.capability.id(),
                );
                let outcome = Outcome::error(
                    &op.invocation_id,
                    op.capability.id(),
                    ErrorCode::ConfirmationDeclined,
                );
                self.settle(ticket, outcome);
            }
            return ticket;
        }
        // CL-B08-3, CL-B09-2, CL-B10-3: a retained receipt answers once.
        if let Some(index) = self
            .receipts
            .iter()
            .position(|r| r.confirmation_id == confirmation_id)
        {
            // CL-B10-3 is RECOMMENDED: the alternate keeps answering until eviction.
            let receipt = if self.choices.takes(Choice::ReceiptAnswersUntilEvicted) {
                self.receipts.get(index).cloned()
            } else {
                self.receipts.remove(index)
            };
            if let Some(receipt) = receipt {
                let code = match receipt.kind {
                    ReceiptKind::Expired => ErrorCode::ConfirmationExpired,
                    ReceiptKind::Cancelled if self.choices.injects(Fault::CancelReceiptCode) => {
                        ErrorCode::ConfirmationExpired
                    }
                    ReceiptKind::Cancelled => ErrorCode::ExecutionAborted,
                };
                self.settle(
                    ticket,
                    Outcome::error(&receipt.invocation_id, &receipt.capability_id, code),
                );
                return ticket;
            }
        }
        // CL-B07-1, CL-B10-2: used, evicted or never issued.
        self.settle(
            ticket,
            Outcome::error("", "", ErrorCode::ConfirmationNotFound),
        );
        ticket
    }

    /// Settles the policy call `call` (a gate). Returns the tickets that settled as a result.
    /// A call whose invocation already settled (it was aborted) accepts the late result and
    /// ignores it (CL-B11-3); a call that was never pending is an error.
    pub fn settle_policy(
        &mut self,
        call: CallId,
        result: Settlement,
    ) -> Result<Vec<Ticket>, GateError> {
        self.settle_gate(call, result, true)
    }

    /// Settles the handler call `call` (a gate), like [`Runtime::settle_policy`].
    pub fn settle_handler(
        &mut self,
        call: CallId,
        result: Settlement,
    ) -> Result<Vec<Ticket>, GateError> {
        self.settle_gate(call, result, false)
    }

    fn settle_gate(
        &mut self,
        call: CallId,
        result: Settlement,
        policy: bool,
    ) -> Result<Vec<Ticket>, GateError> {
        self.process_aborts_inner();
        self.settled_log.clear();
        if self.orphaned.remove(&call) {
            return Ok(Vec::new());
        }
        match self.waiting.remove(&call) {
            Some(Waiting::Policy(op)) if policy => {
                self.after_policy(op, PolicyAnswer::Host(result))
            }
            Some(Waiting::Handler(op)) if !policy => self.after_handler(op, result),
            Some(other) => {
                self.waiting.insert(call, other);
                return Err(GateError::WrongKind);
            }
            None => return Err(GateError::UnknownCall),
        }
        Ok(self.take_settled())
    }

    /// Advances the virtual clock by `ms`, firing due expiry timers in order (CL-B08-2).
    pub fn advance(&mut self, ms: u64) -> Vec<Ticket> {
        self.process_aborts_inner();
        self.settled_log.clear();
        self.now = self.now.saturating_add(ms);
        while let Some(first) = self.timers.first().cloned() {
            // CL-B08-4 (IMPL-DEFINED): due at expiresAt, or only once the clock is past it.
            let at_expiry_pending = self.choices.takes(Choice::ApprovalAtExpiryAccepted)
                || self.choices.injects(Fault::ExpiryOneMsLate);
            if first.0 > self.now || (at_expiry_pending && first.0 == self.now) {
                break;
            }
            self.timers.remove(&first);
            if let Some(pending) = self.confirmations.remove(&first.2) {
                self.drop_confirmation(&first.2, pending, ReceiptKind::Expired);
            }
        }
        self.take_settled()
    }

    /// Aborts `signal` and lets the runtime react at once (CL-B09-1, CL-B11-1/2).
    pub fn abort(&mut self, signal: &AbortSignal) -> Vec<Ticket> {
        signal.abort();
        self.process_aborts()
    }

    /// Reacts to signals aborted since the last call (the abort event listeners of JavaScript):
    /// an invocation waiting for policy settles `EXECUTION_ABORTED` and releases its id; a pending
    /// confirmation is cancelled and leaves a receipt; a running handler only sees its signal.
    pub fn process_aborts(&mut self) -> Vec<Ticket> {
        self.settled_log.clear();
        self.process_aborts_inner();
        self.take_settled()
    }

    pub(super) fn process_aborts_inner(&mut self) {
        let waits_for_policy = self.choices.injects(Fault::AbortWaitsForPolicy);
        let aborted_calls: Vec<CallId> = self
            .waiting
            .iter()
            .filter_map(|(call, waiting)| match waiting {
                Waiting::Policy(op) if Runtime::operation_aborted(op) && !waits_for_policy => {
                    Some(*call)
                }
                _ => None,
            })
            .collect();
        for call in aborted_calls {
            if let Some(Waiting::Policy(op)) = self.waiting.remove(&call) {
                self.orphaned.insert(call);
                self.release(&op.invocation_id);
                self.finish_error(
                    op.ticket,
                    &op.invocation_id,
                    op.capability.id(),
                    ErrorCode::ExecutionAborted,
                    None,
                );
            }
        }
        let mut cancelled: Vec<(u64, String)> = self
            .confirmations
            .iter()
            .filter(|(_, pending)| Runtime::operation_aborted(&pending.op))
            .map(|(id, pending)| (pending.seq, id.clone()))
            .collect();
        cancelled.sort();
        for (_, id) in cancelled {
            if let Some(pending) = self.confirmations.remove(&id) {
                self.timers
                    .remove(&(pending.expires_at, pending.seq, id.clone()));
                self.drop_confirmation(&id, pending, ReceiptKind::Cancelled);
            }
        }
    }

    /// Expiry or cancellation: releases the payload and the id at once and keeps a receipt
    /// (RCIP-LIFE-CONF-06/07).
    fn drop_confirmation(&mut self, id: &str, pending: PendingConfirmation, kind: ReceiptKind) {
        let op = pending.op;
        self.release(&op.invocation_id);
        self.emit(Phase::Failed, &op.invocation_id, op.capability.id());
        if kind == ReceiptKind::Expired && self.choices.injects(Fault::ExpiryReceiptDropped) {
            return;
        }
        self.remember(Receipt {
            confirmation_id: id.to_string(),
            invocation_id: op.invocation_id,
            capability_id: op.capability.id().to_string(),
            kind,
        });
    }

    /// Step 4 (and the confirmed pass of step 5): asks host policy, or the default policy.
    fn ask_policy(&mut self, op: Operation) {
        let answer = match self.policy.is_some() {
            false => PolicyAnswer::Default(default_decision(
                op.capability.def().effect,
                op.confirmed,
                &DefaultPolicyReading {
                    confirm_writes: self.choices.takes(Choice::DefaultPolicyConfirmsWrites),
                    confirm_reads: self.choices.takes(Choice::DefaultPolicyConfirmsReads),
                    rejudge_confirmed: self
                        .choices
                        .takes(Choice::DefaultPolicyRejudgesConfirmedPass),
                },
            )),
            true => {
                let call = self.new_call();
                let request = PolicyCall {
                    call,
                    capability: self.entry_of(&op.capability),
                    input: HostValue::from_json(&op.input),
                    semantic_context: self.context.clone(),
                    confirmed: op.confirmed,
                };
                let answer = match self.policy.as_mut() {
                    Some(policy) => policy(request),
                    None => Answer::Ready(Err(super::runtime::HostError::error("no policy"))),
                };
                if let Answer::Pending = answer {
                    if self.choices.injects(Fault::IdReleasedAtPolicy) {
                        self.release(&op.invocation_id);
                    }
                    self.park(call, Waiting::Policy(op));
                    return;
                }
                match answer {
                    Answer::Ready(result) => PolicyAnswer::Host(result),
                    Answer::Pending => return,
                }
            }
        };
        self.after_policy(op, answer);
    }

    /// After the policy settled: the rechecks of CL-B05 (RCIP-LIFE-POLICY-04..07), then the
    /// decision.
    fn after_policy(&mut self, op: Operation, answer: PolicyAnswer) {
        let refuses = |decision: &Option<Decision>| matches!(decision, None | Some(Decision::Deny));
        let answer_first = self.choices.takes(Choice::PolicyAnswerBeforeRecheck);
        let result = match answer {
            PolicyAnswer::Default(decision) => {
                if let Some(code) = self.recheck(&op) {
                    return self.fail_op(op, code);
                }
                return self.decide(op, Some(decision));
            }
            PolicyAnswer::Host(result) => result,
        };
        // PRJ-RCIP-POLICY-01: a deny, a throw or a malformed answer already keeps the handler
        // from running, so the alternate reports it even when a recheck would fail; an `allow`
        // or a `confirm` is always rechecked first (CL-B05-1).
        if !(answer_first && refuses(&self.host_decision(&result))) {
            if let Some(code) = self.recheck(&op) {
                return self.fail_op(op, code);
            }
        }
        let decision = self.host_decision(&result);
        self.decide(op, decision);
    }

    /// The decision a host policy's settlement carries (`None`: it threw or answered malformed).
    fn host_decision(
        &self,
        result: &Result<HostValue, super::runtime::HostError>,
    ) -> Option<Decision> {
        match result {
            Ok(value) if self.choices.injects(Fault::MalformedDecisionAllows) => {
                parse_decision(value).or(Some(Decision::Allow))
            }
            Ok(value) => parse_decision(value),
            Err(_) if self.choices.injects(Fault::PolicyThrowDenied) => Some(Decision::Deny),
            Err(_) => None,
        }
    }

    /// Acts on a policy pass's decision (`None`: the policy threw or answered malformed).
    fn decide(&mut self, op: Operation, decision: Option<Decision>) {
        match decision {
            None => self.fail_op(op, ErrorCode::PolicyEvaluationFailed),
            Some(Decision::Deny) => self.fail_op(op, ErrorCode::PolicyDenied),
            Some(Decision::Confirm) if op.confirmed => {
                // CL-B07-5 is RECOMMENDED.
                let code = if self.choices.takes(Choice::ConfirmAgainIsEvaluationFailure) {
                    ErrorCode::PolicyEvaluationFailed
                } else {
                    ErrorCode::PolicyDenied
                };
                self.fail_op(op, code)
            }
            Some(Decision::Confirm) => self.request_confirmation(op),
            Some(Decision::Allow) => self.execute(op),
        }
    }

    /// CL-B05-1 in its RECOMMENDED order (CL-B05-3), or in the reverse order (the alternate).
    fn recheck(&mut self, op: &Operation) -> Option<ErrorCode> {
        let mut checks = [
            ErrorCode::ExecutionAborted,
            ErrorCode::CapabilityUnbound,
            ErrorCode::PolicyDenied,
            ErrorCode::CapabilityUnavailable,
        ];
        if self.choices.takes(Choice::RecheckOrderReversed) {
            checks.reverse();
        }
        if self.choices.injects(Fault::RecheckSkippedAfterPolicy) {
            return None;
        }
        let skipped = match self.choices.fault() {
            Some(Fault::BindingRecheckSkipped) => Some(ErrorCode::CapabilityUnbound),
            Some(Fault::ContextRecheckSkipped) => Some(ErrorCode::PolicyDenied),
            Some(Fault::AvailabilityRecheckSkipped) => Some(ErrorCode::CapabilityUnavailable),
            _ => None,
        };
        checks
            .into_iter()
            .filter(|code| Some(*code) != skipped)
            .find(|code| match code {
                ErrorCode::ExecutionAborted => Runtime::operation_aborted(op),
                ErrorCode::CapabilityUnbound => {
                    self.binding_id(op.capability.id()) != Some(op.binding)
                }
                ErrorCode::PolicyDenied => self.context_changed(&op.context, &self.context),
                // Lost availability is a property of a live binding; without one, the binding
                // recheck is what fails.
                _ => {
                    self.binding_id(op.capability.id()).is_some()
                        && self.live_available(op.capability.id()) != Some(true)
                }
            })
    }

    fn request_confirmation(&mut self, op: Operation) {
        let id = self.make_id("confirmation");
        // A 32-bit timer cannot hold 2^31 ms or more: the faulty runtime fires at once.
        let overflowed = self.ttl_ms >= 1 << 31 && self.choices.injects(Fault::TtlTimerOverflow);
        // PRJ-RCIP-CONF-04 is IMPL-DEFINED: the TTL runs from the confirm decision (now) or,
        // in the alternate, from the invoke call.
        let issued = if self.choices.takes(Choice::TtlFromInvoke) {
            op.requested_at
        } else {
            self.now
        };
        let expires_at = if overflowed {
            issued
        } else if self.choices.injects(Fault::ExpiryOneMsLate) {
            issued.saturating_add(self.ttl_ms).saturating_add(1)
        } else {
            issued.saturating_add(self.ttl_ms)
        };
        let seq = self.next_confirmation_seq;
        self.next_confirmation_seq += 1;
        let def = op.capability.def();
        let outcome = Outcome {
            invocation_id: op.invocation_id.clone(),
            capability_id: def.id.clone(),
            body: OutcomeBody::ConfirmationRequired(ConfirmationInfo {
                id: id.clone(),
                title: def.title.clone(),
                description: def.description.clone(),
                effect: def.effect,
                expires_at,
                expires_at_as_date: self.choices.takes(Choice::ExpiresAtIsoDate),
            }),
        };
        let ticket = op.ticket;
        self.emit(
            Phase::ConfirmationRequested,
            &op.invocation_id,
            &def.id.clone(),
        );
        if !self.choices.injects(Fault::ExpiryNever) {
            self.timers.insert((expires_at, seq, id.clone()));
        }
        self.confirmations.insert(
            id,
            PendingConfirmation {
                seq,
                op,
                expires_at,
            },
        );
        self.settle(ticket, outcome);
    }

    /// Approval (CL-B07-3/4, RCIP-LIFE-CONF-02..04): rechecks, then the confirmed policy pass.
    fn approve(&mut self, mut op: Operation) {
        if self.choices.takes(Choice::RequestedAgainOnApproval) {
            self.emit(Phase::Requested, &op.invocation_id, op.capability.id());
        }
        let context_changed = self.context_changed(&op.context, &self.context)
            && !self.choices.injects(Fault::ApprovalIgnoresContextChange);
        let binding_changed = self.binding_id(op.capability.id()) != Some(op.binding)
            && !self.choices.injects(Fault::ApprovalIgnoresBindingChange);
        if binding_changed || context_changed {
            return self.fail_op(op, ErrorCode::PolicyDenied);
        }
        if self.live_available(op.capability.id()) != Some(true)
            && !self.choices.injects(Fault::ApprovalIgnoresAvailability)
        {
            return self.fail_op(op, ErrorCode::CapabilityUnavailable);
        }
        let issues = op.capability.def().input.validate(&op.input);
        if !issues.is_empty() {
            let issues = issues.iter().map(ValidationIssue::from_schema).collect();
            self.release(&op.invocation_id);
            return self.finish_error(
                op.ticket,
                &op.invocation_id,
                op.capability.id(),
                ErrorCode::InputInvalid,
                Some(issues),
            );
        }
        if Runtime::operation_aborted(&op) {
            return self.fail_op(op, ErrorCode::ExecutionAborted);
        }
        op.confirmed = true;
        if self.choices.injects(Fault::ApprovalSkipsPolicy) {
            return self.execute(op);
        }
        self.ask_policy(op);
    }

    /// Step 6: runs the handler with a detached input and the cancellation signal.
    fn execute(&mut self, mut op: Operation) {
        let call = self.new_call();
        let capability_id = op.capability.id();
        if !self.choices.injects(Fault::EventsOutOfOrder) {
            self.emit(Phase::Started, &op.invocation_id, capability_id);
        }
        let request = HandlerCall {
            call,
            capability_id: capability_id.to_string(),
            // The runtime's own detached copy, moved: no later step reads the input, so the
            // handler mutating it changes nothing else (CL-B14-2) without a second copy.
            input: HostValue::from_owned_json(std::mem::take(&mut op.input)),
            invocation_id: op.invocation_id.clone(),
            requested_at: if self.choices.takes(Choice::RequestedAtHandlerStart) {
                self.now
            } else {
                op.requested_at
            },
            semantic_context: self.context.clone(),
            signal: match &op.signal {
                Some(signal) => Some(signal.clone()),
                None if self.choices.injects(Fault::HandlerSignalMissing) => None,
                None => Some(AbortSignal::new()),
            },
        };
        let answer = match self.bindings.get_mut(capability_id) {
            Some(binding) => (binding.handler)(request),
            // The recheck just before makes this unreachable; fail safe rather than panic.
            None => return self.fail_op(op, ErrorCode::CapabilityUnbound),
        };
        match answer {
            Answer::Pending => self.park(call, Waiting::Handler(op)),
            Answer::Ready(result) => self.after_handler(op, result),
        }
    }

    /// Step 7 and 8: the handler settled (CL-B11-4/5, CL-B12-1/2, RCIP-LIFE-OUTPUT-01).
    fn after_handler(&mut self, op: Operation, result: Settlement) {
        let output = match result {
            Err(_)
                if Runtime::operation_aborted(&op)
                    && self.choices.injects(Fault::ThrowAfterAbortFailed) =>
            {
                return self.fail_op(op, ErrorCode::ExecutionFailed)
            }
            Err(_) if Runtime::operation_aborted(&op) => {
                return self.fail_op(op, ErrorCode::ExecutionAborted)
            }
            Err(error) if self.choices.injects(Fault::HostTextInMessage) => {
                self.release(&op.invocation_id);
                let code = ErrorCode::ExecutionFailed;
                self.emit(Phase::Failed, &op.invocation_id, op.capability.id());
                let mut outcome = Outcome::error(&op.invocation_id, op.capability.id(), code);
                if let OutcomeBody::Error(body) = &mut outcome.body {
                    body.message = format!("{}: {}", code.message(), error.message);
                }
                return self.settle(op.ticket, outcome);
            }
            // CL-B11-6 (IMPL-DEFINED): an AbortError without an abort, read as an abort.
            Err(HostError {
                name: HostErrorName::AbortError,
                ..
            }) if self.choices.takes(Choice::AbortErrorIsAborted) => {
                return self.fail_op(op, ErrorCode::ExecutionAborted)
            }
            Err(_) => return self.fail_op(op, ErrorCode::ExecutionFailed),
            Ok(output) => output,
        };
        let plain = if self.choices.injects(Fault::OutputCoercedToJson) {
            output.to_stringified_json()
        } else {
            output.to_plain_json_with(self.plain_rules()).ok()
        };
        let Some(output) = plain else {
            return self.fail_op(op, ErrorCode::OutputInvalid);
        };
        let issues = if self.choices.injects(Fault::OutputSchemaSkipped) {
            Vec::new()
        } else {
            op.capability.def().output.validate(&output)
        };
        if !issues.is_empty() {
            let issues = issues.iter().map(ValidationIssue::from_schema).collect();
            self.release(&op.invocation_id);
            return self.finish_error(
                op.ticket,
                &op.invocation_id,
                op.capability.id(),
                ErrorCode::OutputInvalid,
                Some(issues),
            );
        }
        if self.observer_threw && self.choices.injects(Fault::ObserverThrowFailsInvocation) {
            return self.fail_op(op, ErrorCode::ExecutionFailed);
        }
        self.release(&op.invocation_id);
        self.emit(Phase::Succeeded, &op.invocation_id, op.capability.id());
        if self.choices.injects(Fault::EventsOutOfOrder) {
            self.emit(Phase::Started, &op.invocation_id, op.capability.id());
        }
        let outcome = Outcome {
            capability_id: op.capability.id().to_string(),
            invocation_id: op.invocation_id,
            body: OutcomeBody::Succeeded { output },
        };
        self.settle(op.ticket, outcome);
        // Step 8, CL-B15-4: refresh after success.
        if !self.choices.injects(Fault::SuccessKeepsRevision) {
            self.publish(true);
        }
    }

    fn fail_op(&mut self, op: Operation, code: ErrorCode) {
        self.release(&op.invocation_id);
        self.finish_error(op.ticket, &op.invocation_id, op.capability.id(), code, None);
    }

    /// Settles a failed or denied outcome and emits its terminal event.
    pub(super) fn finish_error(
        &mut self,
        ticket: Ticket,
        invocation_id: &str,
        capability_id: &str,
        code: ErrorCode,
        issues: Option<Vec<ValidationIssue>>,
    ) {
        let phase = match code.status() {
            super::outcome::Status::Denied => Phase::Denied,
            _ => Phase::Failed,
        };
        self.emit(phase, invocation_id, capability_id);
        self.settle(
            ticket,
            Outcome::error_with(invocation_id, capability_id, code, issues),
        );
        // CL-B15-8 is RECOMMENDED: the alternate publishes a revision for every failure.
        if self.choices.takes(Choice::FailedInvocationBumpsRevision) {
            self.publish(false);
        }
    }
}

/// Why a gate could not be settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateError {
    /// No such call is waiting (never pending, or already settled).
    UnknownCall,
    /// The call is a handler call settled as a policy call, or the reverse.
    WrongKind,
}
