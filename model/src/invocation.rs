//! The RCIP 1.0 invocation and confirmation lifecycle as a stateright model: concurrent
//! invocations (sharing one invocation id or not) racing the host's binding, context and
//! availability changes, aborts, the asynchronous policy gate, confirmations with their TTL and
//! receipts, and the handler gate. Covers RCIP-PROTO "Invocation lifecycle" and RCIP-LIFE
//! "Asynchronous policy and confirmation" and "Cancellation and effects", decided in detail by
//! CL-B01 (codes and statuses), CL-B02 (always settles), CL-B03 (check order), CL-B04 (id
//! reservation), CL-B05 (rechecks after policy, RECOMMENDED precedence), CL-B06 (identical
//! context is no change), CL-B07 (single-use approval and its rechecks), CL-B08 (expiry), CL-B09
//! (cancellation), CL-B10 (bounded receipts), CL-B11 (abort) and CL-B12 (handler results, no
//! retry).
//!
//! Reading guide: configuration (`InvocationModel`), state (`RuntimeState`, one `Invocation` per
//! client request), one `Action` enum of the spec's verbs, guarded `actions()`, one `match` in
//! `next_state()`, then the properties, named as sentences.
//!
//! Modelling decisions where the texts leave room (each is repeated where it is implemented):
//! - The id check of CL-B04 comes before the catalog lookup of CL-B03.
//! - The CL-B05 rechecks run after every policy settlement, whatever the decision (the texts say
//!   "after awaiting policy"), so a deny or a throw racing an unbind reports the recheck's code.
//! - Abort never reaches a recheck: CL-B11 settles the invocation at the abort itself.
//! - A handler that returns an invalid output after an abort gives `OUTPUT_INVALID` (CL-B11 only
//!   speaks of normal returns and throws).
//! - Receipts that were returned (CL-B10 RECOMMENDED: once) leave the store and free its room.
//! - Confirmations expiring on the same tick leave receipts in the order they were issued (timers
//!   with one deadline fire in creation order).

use std::collections::BTreeSet;

use stateright::{Model, Property};

/// Index of a client request (the i-th concurrent `client.invoke` call the model makes).
pub type Slot = usize;
/// Index of a declared capability in the catalog.
pub type CapabilityIndex = usize;
/// An invocation id; with `IdAssignment::Shared` every request uses id 0.
pub type InvocationId = usize;
/// The identity of one installed binding: the n-th `bindCapability` for a capability. Identities
/// are never reused, which is what makes "changed binding identity" (CL-B05) decidable by `==`.
pub type BindingIdentity = u8;

/// The thirteen error codes of CL-B01, exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    InvocationAlreadyActive,
    CapabilityNotFound,
    CapabilityUnbound,
    CapabilityUnavailable,
    InputInvalid,
    PolicyEvaluationFailed,
    PolicyDenied,
    ConfirmationDeclined,
    ConfirmationExpired,
    ConfirmationNotFound,
    ExecutionAborted,
    ExecutionFailed,
    OutputInvalid,
}

impl Code {
    pub const ALL: [Code; 13] = [
        Code::InvocationAlreadyActive,
        Code::CapabilityNotFound,
        Code::CapabilityUnbound,
        Code::CapabilityUnavailable,
        Code::InputInvalid,
        Code::PolicyEvaluationFailed,
        Code::PolicyDenied,
        Code::ConfirmationDeclined,
        Code::ConfirmationExpired,
        Code::ConfirmationNotFound,
        Code::ExecutionAborted,
        Code::ExecutionFailed,
        Code::OutputInvalid,
    ];

    /// The wire spelling of CL-B01.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::InvocationAlreadyActive => "INVOCATION_ALREADY_ACTIVE",
            Code::CapabilityNotFound => "CAPABILITY_NOT_FOUND",
            Code::CapabilityUnbound => "CAPABILITY_UNBOUND",
            Code::CapabilityUnavailable => "CAPABILITY_UNAVAILABLE",
            Code::InputInvalid => "INPUT_INVALID",
            Code::PolicyEvaluationFailed => "POLICY_EVALUATION_FAILED",
            Code::PolicyDenied => "POLICY_DENIED",
            Code::ConfirmationDeclined => "CONFIRMATION_DECLINED",
            Code::ConfirmationExpired => "CONFIRMATION_EXPIRED",
            Code::ConfirmationNotFound => "CONFIRMATION_NOT_FOUND",
            Code::ExecutionAborted => "EXECUTION_ABORTED",
            Code::ExecutionFailed => "EXECUTION_FAILED",
            Code::OutputInvalid => "OUTPUT_INVALID",
        }
    }

    /// CL-B01: `denied` for the two codes that are a decision against the operation, `failed`
    /// for every other code.
    pub fn status(self) -> Status {
        match self {
            Code::PolicyDenied | Code::ConfirmationDeclined => Status::Denied,
            _ => Status::Failed,
        }
    }
}

/// The four outcome statuses of RCIP-PROTO "Invocation lifecycle".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    Succeeded,
    ConfirmationRequired,
    Failed,
    Denied,
}

/// An outcome as the client or host sees it: status plus code (CL-A06 without the payloads).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    Succeeded,
    ConfirmationRequired,
    Failed(Code),
    Denied(Code),
}

impl Outcome {
    /// The only constructor for error outcomes, so the status always follows CL-B01.
    pub fn error(code: Code) -> Outcome {
        match code.status() {
            Status::Denied => Outcome::Denied(code),
            _ => Outcome::Failed(code),
        }
    }

    pub fn status(self) -> Status {
        match self {
            Outcome::Succeeded => Status::Succeeded,
            Outcome::ConfirmationRequired => Status::ConfirmationRequired,
            Outcome::Failed(_) => Status::Failed,
            Outcome::Denied(_) => Status::Denied,
        }
    }

    pub fn code(self) -> Option<Code> {
        match self {
            Outcome::Failed(code) | Outcome::Denied(code) => Some(code),
            _ => None,
        }
    }
}

/// Whether the concurrent requests share one invocation id (to race CL-B04) or each get their
/// own (as `createId` would give them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IdAssignment {
    Shared,
    Distinct,
}

/// What "changed semantic context" means for a recheck. CL-B06 says the comparison is by value,
/// which leaves open whether a change that was later undone (A, then B, then A again) counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContextComparison {
    /// Compare the context captured at `invoke` with the current one at the check: A→B→A is no
    /// change. The default, as the literal reading of CL-B06.
    ByValue,
    /// Any effective (value-changing) `setContext` since capture counts, even if undone.
    AnyEffectiveChange,
}

/// Deliberate bugs, for tests that show each property can fail. Never set in a real check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InvocationFault {
    /// The recheck after policy forgets binding identity (breaks CL-B05).
    SkipBindingRecheck,
    /// The id is not reserved while the policy is pending (breaks CL-B04).
    ReleaseIdAtPolicy,
    /// A handler that throws is started again (breaks CL-B12 "never retries").
    RetryThrowingHandler,
    /// An approval is not consumed, so a second approve runs the confirmed pass again (breaks
    /// CL-B07 "single use").
    ReusableApproval,
    /// Receipts are never evicted (breaks CL-B10).
    UnboundedReceipts,
}

/// The model's configuration: how many requests race, over how many capabilities, and the
/// budgets that keep the state space finite.
#[derive(Clone, Debug)]
pub struct InvocationModel {
    /// Concurrent `client.invoke` calls, one per slot; slot `i` targets capability
    /// `i % capabilities`.
    pub invocations: usize,
    /// Declared capabilities (1 or 2); all start bound and available.
    pub capabilities: usize,
    pub ids: IdAssignment,
    /// Retained expiry/cancellation receipts (CL-B10 says 256; see `receipts_generalise`).
    pub receipt_bound: usize,
    /// The confirmation TTL in clock ticks. A tick is an `advance` of the virtual clock that
    /// jumps over instants, so no tick lands exactly on `expiresAt` (CL-B08 IMPL-DEFINED
    /// boundary).
    pub ttl_ticks: u8,
    /// How many times the clock may advance.
    pub max_ticks: u8,
    /// Budget shared by bind, unbind, rebind, setContext and availability changes.
    pub host_events: u8,
    /// `resolveConfirmation` calls per confirmation id (2 lets a second resolution observe
    /// `CONFIRMATION_NOT_FOUND` and a returned receipt).
    pub resolutions: u8,
    /// Whether `invoke` is also called with an undeclared capability id or an invalid input.
    pub request_faults: bool,
    /// The answers the policy gate may settle with (all four by default; a narrower list keeps
    /// a focused configuration small, e.g. only `Confirm` and `Allow` to study receipts).
    pub decisions: Vec<Decision>,
    /// The results the handler gate may settle with.
    pub handler_results: Vec<HandlerResult>,
    pub context_comparison: ContextComparison,
    /// The invocation id of each slot, overriding `ids` when set: trace validation
    /// (`conformance check-trace`) replays a recorded trace whose requests share ids in any
    /// pattern. `None` in every checked configuration.
    pub slot_ids: Option<Vec<InvocationId>>,
    pub fault: Option<InvocationFault>,
}

impl Default for InvocationModel {
    /// The configuration the tests pin: two requests sharing one id on one capability, one host
    /// event, TTL reached in one tick.
    fn default() -> Self {
        InvocationModel {
            invocations: 2,
            capabilities: 1,
            ids: IdAssignment::Shared,
            receipt_bound: 2,
            ttl_ticks: 1,
            max_ticks: 1,
            host_events: 1,
            resolutions: 2,
            request_faults: true,
            decisions: Decision::ALL.to_vec(),
            handler_results: HandlerResult::ALL.to_vec(),
            context_comparison: ContextComparison::ByValue,
            slot_ids: None,
            fault: None,
        }
    }
}

/// Two distinct values of `{ activeScopeIds, primaryScopeId }`. Values are opaque: the model
/// only compares them, which is all CL-B06 needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SemanticContext {
    Initial,
    Other,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Binding {
    /// The live binding's identity, `None` while unbound (CL-B20: a capability may be declared
    /// but unbound).
    pub live: Option<BindingIdentity>,
    /// How many bindings were ever installed; the next identity.
    pub installs: u8,
}

/// Which policy pass an invocation is in: the first one (its result goes to `invoke`) or the
/// confirmed pass after approval (its result goes to `resolveConfirmation`), CL-B07.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pass {
    Initial,
    Confirmed,
}

/// Where one request is in the lifecycle of RCIP-PROTO "Invocation lifecycle". Every
/// non-terminal phase waits on exactly one external gate; the runtime's own checks happen inside
/// the step that opens the gate, as they are synchronous.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    NotInvoked,
    AwaitingPolicy { pass: Pass },
    AwaitingConfirmation,
    HandlerRunning { pass: Pass },
    Settled,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReceiptKind {
    Expired,
    Cancelled,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReceiptFate {
    Retained,
    /// Returned to a resolution and removed (CL-B10 RECOMMENDED: once).
    Returned,
    /// Pushed out by a newer receipt (CL-B10: oldest first).
    Evicted,
}

/// The life of the confirmation a request may create (at most one: a `confirm` on the confirmed
/// pass is `POLICY_DENIED`, CL-B07 RECOMMENDED).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Confirmation {
    NotIssued,
    Pending {
        ticks_left: u8,
    },
    Approved,
    Declined,
    Receipt {
        kind: ReceiptKind,
        fate: ReceiptFate,
    },
}

/// What values a handler start happened under, when one of them forbids the start. Computed from
/// plain facts (signal, binding identity, context, live availability), independently of the
/// runtime's ordered checks, so a property can judge those checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hazard {
    Aborted,
    BindingChanged,
    ContextChanged,
    Unavailable,
}

/// What an accepted invocation captured at `invoke`: the checks after policy and at approval
/// compare against it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Captured {
    pub binding: BindingIdentity,
    pub context: SemanticContext,
    pub context_epoch: u8,
}

/// One client request and its observable history.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Invocation {
    pub phase: Phase,
    pub signal_aborted: bool,
    pub captured: Option<Captured>,
    pub confirmation: Confirmation,
    /// What `client.invoke` settled with.
    pub invoke_outcome: Option<Outcome>,
    /// What each settled `host.resolveConfirmation` call for this request's confirmation gave,
    /// in settlement order.
    pub resolutions: Vec<Outcome>,
    pub resolve_calls: u8,
    pub approvals_used: u8,
    pub policy_calls: u8,
    pub handler_starts: u8,
    /// Set when a handler started although a fact forbade it; stays `None` in a correct runtime.
    pub unsafe_start: Option<Hazard>,
    /// Lifecycle steps taken by this request (invoke, each gate settlement, a consuming
    /// resolution, an expiry or a settling abort); bounded liveness is stated over it.
    pub steps: u8,
}

impl Invocation {
    fn new() -> Self {
        Invocation {
            phase: Phase::NotInvoked,
            signal_aborted: false,
            captured: None,
            confirmation: Confirmation::NotIssued,
            invoke_outcome: None,
            resolutions: Vec::new(),
            resolve_calls: 0,
            approvals_used: 0,
            policy_calls: 0,
            handler_starts: 0,
            unsafe_start: None,
            steps: 0,
        }
    }

    /// Accepted and not yet settled: the span over which CL-B04 reserves the id.
    pub fn in_flight(&self) -> bool {
        matches!(
            self.phase,
            Phase::AwaitingPolicy { .. }
                | Phase::AwaitingConfirmation
                | Phase::HandlerRunning { .. }
        )
    }

    fn outcomes(&self) -> impl Iterator<Item = Outcome> + '_ {
        self.invoke_outcome
            .iter()
            .copied()
            .chain(self.resolutions.iter().copied())
    }
}

/// The runtime (one per model: CL-B25 isolation is outside this model) plus its clients.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RuntimeState {
    pub bindings: Vec<Binding>,
    pub available: Vec<bool>,
    pub context: SemanticContext,
    /// Effective context changes so far; only counted under `AnyEffectiveChange`, so it does not
    /// split states the `ByValue` comparison cannot tell apart.
    pub context_epoch: u8,
    pub host_events_left: u8,
    pub ticks: u8,
    /// The runtime's id reservations (CL-B04), kept apart from the phases so a runtime that
    /// releases too early is visible as a disagreement.
    pub reserved: BTreeSet<InvocationId>,
    pub invocations: Vec<Invocation>,
    /// Slots in the order their confirmations were issued: the order of expiry timers.
    pub confirmation_log: Vec<Slot>,
    /// Slots in the order their receipts were created, oldest first (CL-B10).
    pub receipt_log: Vec<Slot>,
}

/// What `client.invoke` is asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Request {
    /// The slot's capability with an input that satisfies its schema.
    Valid,
    /// The slot's capability with an input that fails its schema (CL-B13).
    InvalidInput,
    /// A capability id the catalog does not declare.
    UndeclaredCapability,
}

/// How the host policy's promise settles (CL-A05; `Throw` also stands for a malformed decision,
/// CL-B12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    Allow,
    Deny,
    Confirm,
    Throw,
}

impl Decision {
    pub const ALL: [Decision; 4] = [
        Decision::Allow,
        Decision::Deny,
        Decision::Confirm,
        Decision::Throw,
    ];
}

/// How the handler's promise settles (CL-B12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandlerResult {
    Output,
    InvalidOutput,
    Throw,
}

impl HandlerResult {
    pub const ALL: [HandlerResult; 3] = [
        HandlerResult::Output,
        HandlerResult::InvalidOutput,
        HandlerResult::Throw,
    ];
}

/// The verbs of the client, the host and the clock, plus the two gates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `client.invoke` for a slot.
    Invoke(Slot, Request),
    /// The policy gate of a slot settles.
    PolicySettles(Slot, Decision),
    /// The handler gate of a slot settles.
    HandlerSettles(Slot, HandlerResult),
    /// The slot's `AbortSignal` fires (also before `invoke`: an already-aborted signal).
    Abort(Slot),
    /// `host.resolveConfirmation(<the slot's confirmation id>, true)`.
    Approve(Slot),
    /// `host.resolveConfirmation(<the slot's confirmation id>, false)`.
    Decline(Slot),
    /// The virtual clock advances one tick.
    AdvanceClock,
    Bind(CapabilityIndex),
    Unbind(CapabilityIndex),
    /// Unbind and bind a new handler in one host step (a React re-render): a new identity.
    Rebind(CapabilityIndex),
    SetContext(SemanticContext),
    LoseAvailability(CapabilityIndex),
    RestoreAvailability(CapabilityIndex),
}

/// The longest lifecycle: invoke, policy `confirm`, approve, confirmed policy `allow`, handler
/// settles. Every step moves a request to a later phase or settles it, so no request takes more.
pub const MAX_LIFECYCLE_STEPS: u8 = 5;

// Why checking eviction with a bound of 2 or 3 generalises to 256 (CL-B10). The receipt store is
// a FIFO of retained receipts touched by three operations only: append (on expiry or
// cancellation), remove the receipt of one id (when a resolution returns it) and evict the oldest
// retained receipt while more than `bound` are retained. Confirmation ids are opaque (compared
// for equality only), and the bound enters the logic solely through the comparison
// `retained > bound`; no branch depends on its value otherwise. So the store is parametric in the
// bound: its reachable shapes are "fewer than bound retained", "exactly bound retained" and "an
// append that overflows by one and evicts the oldest", combined with removals at the front, in the
// middle or at the back, and a removal that makes room so the next append evicts nothing. With
// bound 2 and three confirmations every one of these shapes and every relative order between an
// eviction, an expiry, a cancellation and a resolution of an older, a middle or a newer id is
// reachable (bound 3 with four confirmations checks the same again, see README), and the
// properties are stated relative to the bound ("retained <= bound", "evicted oldest first",
// "an evicted id gives CONFIRMATION_NOT_FOUND", "returned at most once"). What a larger bound adds
// is only more appends before the first eviction, which no property or branch can tell apart.
// An off-by-one in the comparison (retaining bound - 1 or bound + 1) breaks a property at any bound,
// so it shows at 2 as it would at 256. That 256 itself is the number an implementation uses is a
// fact about a constant, which a vector with 257 expiries checks, not a model.

impl InvocationModel {
    /// The invocation id a slot's request carries.
    pub fn id_of(&self, slot: Slot) -> InvocationId {
        if let Some(id) = self.slot_ids.as_ref().and_then(|ids| ids.get(slot)) {
            return *id;
        }
        match self.ids {
            IdAssignment::Shared => 0,
            IdAssignment::Distinct => slot,
        }
    }

    /// The capability a slot's valid request targets.
    pub fn capability_of(&self, slot: Slot) -> CapabilityIndex {
        slot % self.capabilities
    }

    /// Whether the context changed since `captured`, under this configuration's CL-B06 reading.
    pub fn context_changed(&self, state: &RuntimeState, captured: &Captured) -> bool {
        match self.context_comparison {
            ContextComparison::ByValue => state.context != captured.context,
            ContextComparison::AnyEffectiveChange => state.context_epoch != captured.context_epoch,
        }
    }

    /// The facts that forbid a handler start, in no particular order: any one is a hazard.
    fn hazard(&self, state: &RuntimeState, slot: Slot) -> Option<Hazard> {
        let invocation = &state.invocations[slot];
        let capability = self.capability_of(slot);
        let captured = invocation.captured?;
        if invocation.signal_aborted {
            Some(Hazard::Aborted)
        } else if state.bindings[capability].live != Some(captured.binding) {
            Some(Hazard::BindingChanged)
        } else if self.context_changed(state, &captured) {
            Some(Hazard::ContextChanged)
        } else if !state.available[capability] {
            Some(Hazard::Unavailable)
        } else {
            None
        }
    }

    /// CL-B05: the rechecks after a policy settles, in the RECOMMENDED precedence abort >
    /// binding > context > availability.
    fn recheck_after_policy(&self, state: &RuntimeState, slot: Slot) -> Option<Code> {
        let invocation = &state.invocations[slot];
        let capability = self.capability_of(slot);
        let captured = invocation
            .captured
            .expect("an accepted invocation captured its context");
        if invocation.signal_aborted {
            Some(Code::ExecutionAborted)
        } else if state.bindings[capability].live != Some(captured.binding)
            && self.fault != Some(InvocationFault::SkipBindingRecheck)
        {
            Some(Code::CapabilityUnbound)
        } else if self.context_changed(state, &captured) {
            Some(Code::PolicyDenied)
        } else if !state.available[capability] {
            Some(Code::CapabilityUnavailable)
        } else {
            None
        }
    }

    /// CL-B07: the checks approval re-runs before the confirmed policy pass. A changed binding
    /// (including unbinding) or a changed context while pending denies; then live availability.
    /// The input is detached and was valid at `invoke` (CL-B14), so its schema check passes.
    fn recheck_at_approval(&self, state: &RuntimeState, slot: Slot) -> Option<Code> {
        let invocation = &state.invocations[slot];
        let capability = self.capability_of(slot);
        let captured = invocation
            .captured
            .expect("a confirmation belongs to an accepted invocation");
        if state.bindings[capability].live != Some(captured.binding)
            || self.context_changed(state, &captured)
        {
            Some(Code::PolicyDenied)
        } else if !state.available[capability] {
            Some(Code::CapabilityUnavailable)
        } else {
            None
        }
    }

    /// Settles a request's current pass: the first pass answers `invoke`, the confirmed pass
    /// answers the `resolveConfirmation` that approved. Either way the id is released (CL-B04).
    /// Public for trace validation, which settles with the other admissible reading where the
    /// texts leave one open.
    pub fn settle(&self, state: &mut RuntimeState, slot: Slot, pass: Pass, outcome: Outcome) {
        let id = self.id_of(slot);
        let invocation = &mut state.invocations[slot];
        match pass {
            Pass::Initial => invocation.invoke_outcome = Some(outcome),
            Pass::Confirmed => invocation.resolutions.push(outcome),
        }
        invocation.phase = Phase::Settled;
        state.reserved.remove(&id);
    }

    /// Releases a pending confirmation into a receipt (CL-B08 expiry, CL-B09 cancellation) and
    /// evicts the oldest retained receipt beyond the bound (CL-B10). Public for trace
    /// validation, which expires one confirmation when a recorded clock passes its own instant.
    pub fn release_into_receipt(&self, state: &mut RuntimeState, slot: Slot, kind: ReceiptKind) {
        let id = self.id_of(slot);
        let invocation = &mut state.invocations[slot];
        invocation.confirmation = Confirmation::Receipt {
            kind,
            fate: ReceiptFate::Retained,
        };
        invocation.phase = Phase::Settled;
        invocation.steps += 1;
        state.reserved.remove(&id);
        state.receipt_log.push(slot);
        if self.fault == Some(InvocationFault::UnboundedReceipts) {
            return;
        }
        let retained: Vec<Slot> = state
            .receipt_log
            .iter()
            .copied()
            .filter(|&s| is_retained(&state.invocations[s].confirmation))
            .collect();
        if retained.len() > self.receipt_bound {
            if let Confirmation::Receipt { fate, .. } =
                &mut state.invocations[retained[0]].confirmation
            {
                *fate = ReceiptFate::Evicted;
            }
        }
    }

    /// A resolution that finds a receipt or nothing; the same whatever `approved` says (CL-B10
    /// RECOMMENDED). Returns `false` when the confirmation is still pending.
    fn resolve_without_pending(&self, state: &mut RuntimeState, slot: Slot) -> bool {
        let invocation = &mut state.invocations[slot];
        let outcome = match &mut invocation.confirmation {
            Confirmation::Pending { .. } => return false,
            Confirmation::Receipt {
                kind,
                fate: fate @ ReceiptFate::Retained,
            } => {
                *fate = ReceiptFate::Returned;
                match kind {
                    ReceiptKind::Expired => Outcome::error(Code::ConfirmationExpired),
                    ReceiptKind::Cancelled => Outcome::error(Code::ExecutionAborted),
                }
            }
            _ => Outcome::error(Code::ConfirmationNotFound),
        };
        invocation.resolutions.push(outcome);
        true
    }

    fn decides(&self, decision: Decision) -> bool {
        self.decisions.contains(&decision)
    }

    fn runs_to(&self, result: HandlerResult) -> bool {
        self.decides(Decision::Allow) && self.handler_results.contains(&result)
    }

    /// Which B01 codes this configuration can reach; the `sometimes` witnesses cover these.
    pub fn reachable_codes(&self) -> Vec<Code> {
        let confirms = self.decides(Decision::Confirm) && self.resolutions >= 1;
        Code::ALL
            .iter()
            .copied()
            .filter(|code| match code {
                Code::InvocationAlreadyActive => {
                    self.ids == IdAssignment::Shared && self.invocations >= 2
                }
                Code::CapabilityNotFound | Code::InputInvalid => self.request_faults,
                Code::CapabilityUnbound | Code::CapabilityUnavailable => self.host_events >= 1,
                Code::PolicyEvaluationFailed => self.decides(Decision::Throw),
                Code::PolicyDenied => self.decides(Decision::Deny),
                Code::ConfirmationDeclined => confirms,
                Code::ConfirmationExpired => confirms && self.max_ticks >= self.ttl_ticks,
                Code::ConfirmationNotFound => confirms && self.resolutions >= 2,
                Code::ExecutionAborted => true,
                Code::ExecutionFailed => self.runs_to(HandlerResult::Throw),
                Code::OutputInvalid => self.runs_to(HandlerResult::InvalidOutput),
            })
            .collect()
    }

    /// Whether more receipts can exist than the bound retains, so eviction is reachable.
    pub fn eviction_reachable(&self) -> bool {
        self.decides(Decision::Confirm) && self.invocations > self.receipt_bound
    }
}

fn is_retained(confirmation: &Confirmation) -> bool {
    matches!(
        confirmation,
        Confirmation::Receipt {
            fate: ReceiptFate::Retained,
            ..
        }
    )
}

impl Model for InvocationModel {
    type State = RuntimeState;
    type Action = Action;

    fn init_states(&self) -> Vec<Self::State> {
        vec![RuntimeState {
            bindings: vec![
                Binding {
                    live: Some(0),
                    installs: 1,
                };
                self.capabilities
            ],
            available: vec![true; self.capabilities],
            context: SemanticContext::Initial,
            context_epoch: 0,
            host_events_left: self.host_events,
            ticks: 0,
            reserved: BTreeSet::new(),
            invocations: vec![Invocation::new(); self.invocations],
            confirmation_log: Vec::new(),
            receipt_log: Vec::new(),
        }]
    }

    fn actions(&self, state: &Self::State, actions: &mut Vec<Self::Action>) {
        for (slot, invocation) in state.invocations.iter().enumerate() {
            match invocation.phase {
                Phase::NotInvoked => {
                    actions.push(Action::Invoke(slot, Request::Valid));
                    if self.request_faults {
                        actions.push(Action::Invoke(slot, Request::InvalidInput));
                        actions.push(Action::Invoke(slot, Request::UndeclaredCapability));
                    }
                }
                Phase::AwaitingPolicy { .. } => {
                    for &decision in &self.decisions {
                        actions.push(Action::PolicySettles(slot, decision));
                    }
                }
                Phase::HandlerRunning { .. } => {
                    for &result in &self.handler_results {
                        actions.push(Action::HandlerSettles(slot, result));
                    }
                }
                Phase::AwaitingConfirmation | Phase::Settled => {}
            }
            // Aborting after settlement changes nothing observable, so it is not offered.
            if !invocation.signal_aborted && invocation.phase != Phase::Settled {
                actions.push(Action::Abort(slot));
            }
            if invocation.confirmation != Confirmation::NotIssued
                && invocation.resolve_calls < self.resolutions
            {
                actions.push(Action::Approve(slot));
                actions.push(Action::Decline(slot));
            }
        }
        let confirmation_pending = state
            .invocations
            .iter()
            .any(|i| matches!(i.confirmation, Confirmation::Pending { .. }));
        // Time only matters to pending confirmations (CL-B08), so the clock moves only then.
        if confirmation_pending && state.ticks < self.max_ticks {
            actions.push(Action::AdvanceClock);
        }
        // Host changes matter only while some request may still observe them.
        let requests_open = state.invocations.iter().any(|i| i.phase != Phase::Settled);
        if state.host_events_left > 0 && requests_open {
            for capability in 0..self.capabilities {
                match state.bindings[capability].live {
                    None => actions.push(Action::Bind(capability)),
                    Some(_) => {
                        actions.push(Action::Unbind(capability));
                        actions.push(Action::Rebind(capability));
                    }
                }
                if state.available[capability] {
                    actions.push(Action::LoseAvailability(capability));
                } else {
                    actions.push(Action::RestoreAvailability(capability));
                }
            }
            actions.push(Action::SetContext(SemanticContext::Initial));
            actions.push(Action::SetContext(SemanticContext::Other));
        }
    }

    fn next_state(&self, last_state: &Self::State, action: Self::Action) -> Option<Self::State> {
        let mut state = last_state.clone();
        match action {
            Action::Invoke(slot, request) => {
                let id = self.id_of(slot);
                let capability = self.capability_of(slot);
                state.invocations[slot].steps += 1;
                // CL-B04 before CL-B03: the id is the first thing `invoke` accepts, and a
                // reserved id must not disturb the invocation holding it.
                let rejection = if state.reserved.contains(&id) {
                    Some(Code::InvocationAlreadyActive)
                } else if request == Request::UndeclaredCapability {
                    Some(Code::CapabilityNotFound)
                } else if state.bindings[capability].live.is_none() {
                    Some(Code::CapabilityUnbound)
                } else if !state.available[capability] {
                    Some(Code::CapabilityUnavailable)
                } else if request == Request::InvalidInput {
                    Some(Code::InputInvalid)
                } else if state.invocations[slot].signal_aborted {
                    // CL-B03 RECOMMENDED: an already-aborted signal after the four checks, and
                    // policy is not called.
                    Some(Code::ExecutionAborted)
                } else {
                    None
                };
                let invocation = &mut state.invocations[slot];
                match rejection {
                    Some(code) => {
                        invocation.invoke_outcome = Some(Outcome::error(code));
                        invocation.phase = Phase::Settled;
                    }
                    None => {
                        invocation.captured = Some(Captured {
                            binding: state.bindings[capability]
                                .live
                                .expect("checked bound above"),
                            context: state.context,
                            context_epoch: state.context_epoch,
                        });
                        invocation.phase = Phase::AwaitingPolicy {
                            pass: Pass::Initial,
                        };
                        invocation.policy_calls += 1;
                        if self.fault != Some(InvocationFault::ReleaseIdAtPolicy) {
                            state.reserved.insert(id);
                        }
                    }
                }
            }
            Action::PolicySettles(slot, decision) => {
                let Phase::AwaitingPolicy { pass } = state.invocations[slot].phase else {
                    return None;
                };
                state.invocations[slot].steps += 1;
                // CL-B05 rechecks first, for every decision: the texts put them right "after
                // awaiting policy".
                if let Some(code) = self.recheck_after_policy(&state, slot) {
                    self.settle(&mut state, slot, pass, Outcome::error(code));
                    return Some(state);
                }
                match (decision, pass) {
                    (Decision::Throw, _) => self.settle(
                        &mut state,
                        slot,
                        pass,
                        Outcome::error(Code::PolicyEvaluationFailed),
                    ),
                    // CL-B07 RECOMMENDED: asking to confirm a confirmed operation is a denial.
                    (Decision::Deny, _) | (Decision::Confirm, Pass::Confirmed) => {
                        self.settle(&mut state, slot, pass, Outcome::error(Code::PolicyDenied))
                    }
                    (Decision::Confirm, Pass::Initial) => {
                        let invocation = &mut state.invocations[slot];
                        invocation.invoke_outcome = Some(Outcome::ConfirmationRequired);
                        invocation.confirmation = Confirmation::Pending {
                            ticks_left: self.ttl_ticks,
                        };
                        invocation.phase = Phase::AwaitingConfirmation;
                        state.confirmation_log.push(slot);
                    }
                    (Decision::Allow, _) => {
                        let hazard = self.hazard(&state, slot);
                        let invocation = &mut state.invocations[slot];
                        invocation.handler_starts += 1;
                        invocation.unsafe_start = invocation.unsafe_start.or(hazard);
                        invocation.phase = Phase::HandlerRunning { pass };
                    }
                }
            }
            Action::HandlerSettles(slot, result) => {
                let Phase::HandlerRunning { pass } = state.invocations[slot].phase else {
                    return None;
                };
                let invocation = &mut state.invocations[slot];
                invocation.steps += 1;
                // CL-B11: success and invalid output are reported as they are even after an
                // abort; only a throw turns into EXECUTION_ABORTED when the signal fired.
                let outcome = match result {
                    HandlerResult::Output => Outcome::Succeeded,
                    HandlerResult::InvalidOutput => Outcome::error(Code::OutputInvalid),
                    HandlerResult::Throw if invocation.signal_aborted => {
                        Outcome::error(Code::ExecutionAborted)
                    }
                    HandlerResult::Throw => {
                        // The fault retries once: enough to break the property while keeping
                        // the faulty state space finite.
                        if self.fault == Some(InvocationFault::RetryThrowingHandler)
                            && invocation.handler_starts == 1
                        {
                            invocation.handler_starts += 1;
                            return Some(state);
                        }
                        Outcome::error(Code::ExecutionFailed)
                    }
                };
                self.settle(&mut state, slot, pass, outcome);
            }
            Action::Abort(slot) => {
                state.invocations[slot].signal_aborted = true;
                match state.invocations[slot].phase {
                    // CL-B11: settles at once, releases the id, and the late policy result is
                    // ignored (the phase no longer waits on it).
                    Phase::AwaitingPolicy { pass } => {
                        state.invocations[slot].steps += 1;
                        self.settle(
                            &mut state,
                            slot,
                            pass,
                            Outcome::error(Code::ExecutionAborted),
                        );
                    }
                    // CL-B09: cancellation releases the pending confirmation at once.
                    Phase::AwaitingConfirmation => {
                        self.release_into_receipt(&mut state, slot, ReceiptKind::Cancelled);
                    }
                    // Before `invoke` the signal is simply already aborted; a running handler
                    // must cooperate with its signal, the runtime does not settle for it.
                    Phase::NotInvoked | Phase::HandlerRunning { .. } | Phase::Settled => {}
                }
            }
            Action::Approve(slot) => {
                state.invocations[slot].resolve_calls += 1;
                if self.fault == Some(InvocationFault::ReusableApproval)
                    && state.invocations[slot].confirmation == Confirmation::Approved
                {
                    let invocation = &mut state.invocations[slot];
                    invocation.approvals_used += 1;
                    invocation.policy_calls += 1;
                    invocation.phase = Phase::AwaitingPolicy {
                        pass: Pass::Confirmed,
                    };
                    return Some(state);
                }
                if self.resolve_without_pending(&mut state, slot) {
                    return Some(state);
                }
                let invocation = &mut state.invocations[slot];
                invocation.confirmation = Confirmation::Approved;
                invocation.approvals_used += 1;
                invocation.steps += 1;
                match self.recheck_at_approval(&state, slot) {
                    Some(code) => {
                        self.settle(&mut state, slot, Pass::Confirmed, Outcome::error(code));
                    }
                    None => {
                        let invocation = &mut state.invocations[slot];
                        invocation.phase = Phase::AwaitingPolicy {
                            pass: Pass::Confirmed,
                        };
                        invocation.policy_calls += 1;
                    }
                }
            }
            Action::Decline(slot) => {
                state.invocations[slot].resolve_calls += 1;
                if self.resolve_without_pending(&mut state, slot) {
                    return Some(state);
                }
                let invocation = &mut state.invocations[slot];
                invocation.confirmation = Confirmation::Declined;
                invocation.steps += 1;
                self.settle(
                    &mut state,
                    slot,
                    Pass::Confirmed,
                    Outcome::error(Code::ConfirmationDeclined),
                );
            }
            Action::AdvanceClock => {
                state.ticks += 1;
                for slot in state.confirmation_log.clone() {
                    if let Confirmation::Pending { ticks_left } =
                        state.invocations[slot].confirmation
                    {
                        if ticks_left <= 1 {
                            self.release_into_receipt(&mut state, slot, ReceiptKind::Expired);
                        } else {
                            state.invocations[slot].confirmation = Confirmation::Pending {
                                ticks_left: ticks_left - 1,
                            };
                        }
                    }
                }
            }
            Action::Bind(capability) => {
                state.host_events_left -= 1;
                let binding = &mut state.bindings[capability];
                binding.live = Some(binding.installs);
                binding.installs += 1;
            }
            Action::Unbind(capability) => {
                state.host_events_left -= 1;
                state.bindings[capability].live = None;
            }
            Action::Rebind(capability) => {
                state.host_events_left -= 1;
                let binding = &mut state.bindings[capability];
                binding.live = Some(binding.installs);
                binding.installs += 1;
            }
            Action::SetContext(context) => {
                state.host_events_left -= 1;
                // CL-B06: re-publishing an identical context is not a change.
                if context != state.context {
                    state.context = context;
                    if self.context_comparison == ContextComparison::AnyEffectiveChange {
                        state.context_epoch += 1;
                    }
                }
            }
            Action::LoseAvailability(capability) => {
                state.host_events_left -= 1;
                state.available[capability] = false;
            }
            Action::RestoreAvailability(capability) => {
                state.host_events_left -= 1;
                state.available[capability] = true;
            }
        }
        Some(state)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        let mut properties = vec![
            Property::<Self>::always("a handler runs at most once per invocation", |_, s| {
                s.invocations.iter().all(|i| i.handler_starts <= 1)
            }),
            Property::<Self>::always(
                "a handler never starts after an abort, unbind, context change or lost availability was observed",
                |_, s| s.invocations.iter().all(|i| i.unsafe_start.is_none()),
            ),
            Property::<Self>::always("a reserved id is never granted to a second invocation", |m, s| {
                (0..s.invocations.len()).all(|a| {
                    (a + 1..s.invocations.len()).all(|b| {
                        m.id_of(a) != m.id_of(b)
                            || !(s.invocations[a].in_flight() && s.invocations[b].in_flight())
                    })
                })
            }),
            Property::<Self>::always(
                "an id is reserved exactly while its invocation is in flight",
                |m, s| {
                    let in_flight: BTreeSet<InvocationId> = (0..s.invocations.len())
                        .filter(|&slot| s.invocations[slot].in_flight())
                        .map(|slot| m.id_of(slot))
                        .collect();
                    in_flight == s.reserved
                },
            ),
            Property::<Self>::always(
                "every invocation settles within five of its own lifecycle steps",
                |_, s| {
                    s.invocations.iter().all(|i| {
                        i.steps < MAX_LIFECYCLE_STEPS
                            || (i.steps == MAX_LIFECYCLE_STEPS && i.phase == Phase::Settled)
                    })
                },
            ),
            Property::<Self>::always(
                "an invocation in flight always has a step that moves it on",
                |m, s| {
                    let mut actions = Vec::new();
                    m.actions(s, &mut actions);
                    (0..s.invocations.len())
                        .filter(|&slot| s.invocations[slot].in_flight())
                        .all(|slot| {
                            actions.iter().any(|a| match *a {
                                Action::PolicySettles(x, _)
                                | Action::HandlerSettles(x, _)
                                | Action::Approve(x)
                                | Action::Decline(x) => x == slot,
                                _ => false,
                            })
                        })
                },
            ),
            Property::<Self>::always("no confirmation stays pending past its expiry", |_, s| {
                s.invocations.iter().all(|i| match i.confirmation {
                    Confirmation::Pending { ticks_left } => ticks_left >= 1,
                    _ => true,
                })
            }),
            Property::<Self>::always("an approval is used at most once", |_, s| {
                s.invocations.iter().all(|i| i.approvals_used <= 1)
            }),
            Property::<Self>::always("retained receipts never exceed the bound", |m, s| {
                s.invocations.iter().filter(|i| is_retained(&i.confirmation)).count()
                    <= m.receipt_bound
            }),
            Property::<Self>::always("receipts are evicted oldest first", |_, s| {
                let fates: Vec<ReceiptFate> = s
                    .receipt_log
                    .iter()
                    .filter_map(|&slot| match s.invocations[slot].confirmation {
                        Confirmation::Receipt { fate, .. } => Some(fate),
                        _ => None,
                    })
                    .collect();
                fates.len() == s.receipt_log.len()
                    && fates.iter().enumerate().all(|(older, fate)| {
                        *fate != ReceiptFate::Retained
                            || fates[older + 1..].iter().all(|f| *f != ReceiptFate::Evicted)
                    })
            }),
            Property::<Self>::always("a receipt is returned at most once", |_, s| {
                s.invocations.iter().all(|i| {
                    i.resolutions
                        .iter()
                        .filter(|o| {
                            matches!(
                                o.code(),
                                Some(Code::ConfirmationExpired) | Some(Code::ExecutionAborted)
                            )
                        })
                        .count()
                        <= 1
                })
            }),
            Property::<Self>::always(
                "no retry ever happens: one policy call per pass and one handler start",
                |_, s| {
                    s.invocations.iter().all(|i| {
                        i.policy_calls <= 1 + i.approvals_used && i.handler_starts <= 1
                    })
                },
            ),
            Property::<Self>::always("every outcome's status matches its code", |_, s| {
                s.invocations.iter().flat_map(|i| i.outcomes()).all(|o| match o {
                    Outcome::Failed(code) => code.status() == Status::Failed,
                    Outcome::Denied(code) => code.status() == Status::Denied,
                    _ => true,
                })
            }),
        ];
        if self.runs_to(HandlerResult::Output) {
            properties.push(Property::<Self>::sometimes(
                "an invocation can succeed",
                |_, s| {
                    s.invocations
                        .iter()
                        .flat_map(|i| i.outcomes())
                        .any(|o| o == Outcome::Succeeded)
                },
            ));
            properties.push(Property::<Self>::sometimes(
                "a handler can succeed after an abort",
                |_, s| {
                    s.invocations.iter().any(|i| {
                        i.signal_aborted
                            && i.handler_starts == 1
                            && i.outcomes().any(|o| o == Outcome::Succeeded)
                    })
                },
            ));
        }
        if self.decides(Decision::Confirm) {
            properties.push(Property::<Self>::sometimes(
                "an invocation can require confirmation",
                |_, s| {
                    s.invocations
                        .iter()
                        .any(|i| i.invoke_outcome == Some(Outcome::ConfirmationRequired))
                },
            ));
        }
        if self.decides(Decision::Confirm) && self.runs_to(HandlerResult::Output) {
            properties.push(Property::<Self>::sometimes(
                "an approved confirmation can run the handler",
                |_, s| {
                    s.invocations.iter().any(|i| {
                        i.approvals_used == 1 && i.resolutions.contains(&Outcome::Succeeded)
                    })
                },
            ));
        }
        if self.ids == IdAssignment::Shared && self.invocations >= 2 {
            properties.push(Property::<Self>::sometimes(
                "a released id can be used by a later invocation",
                |_, s| {
                    s.invocations
                        .iter()
                        .filter(|i| i.captured.is_some())
                        .count()
                        >= 2
                },
            ));
        }
        if self.eviction_reachable() {
            properties.push(Property::<Self>::sometimes(
                "a receipt can be evicted",
                |_, s| {
                    s.invocations.iter().any(|i| {
                        matches!(
                            i.confirmation,
                            Confirmation::Receipt {
                                fate: ReceiptFate::Evicted,
                                ..
                            }
                        )
                    })
                },
            ));
            properties.push(Property::<Self>::sometimes(
                "resolving an evicted confirmation gives CONFIRMATION_NOT_FOUND",
                |_, s| {
                    s.invocations.iter().any(|i| {
                        matches!(
                            i.confirmation,
                            Confirmation::Receipt {
                                fate: ReceiptFate::Evicted,
                                ..
                            }
                        ) && i
                            .resolutions
                            .contains(&Outcome::error(Code::ConfirmationNotFound))
                    })
                },
            ));
        }
        for code in self.reachable_codes() {
            properties.push(code_witness(code));
        }
        properties
    }
}

/// A `sometimes` witness that some settled outcome carries `code`. Property conditions are plain
/// `fn` pointers, so each code gets its own non-capturing closure.
fn code_witness(code: Code) -> Property<InvocationModel> {
    macro_rules! witness {
        ($name:literal, $code:expr) => {
            Property::<InvocationModel>::sometimes($name, |_, s| {
                s.invocations
                    .iter()
                    .flat_map(|i| i.outcomes())
                    .any(|o| o.code() == Some($code))
            })
        };
    }
    match code {
        Code::InvocationAlreadyActive => {
            witness!(
                "an outcome can carry INVOCATION_ALREADY_ACTIVE",
                Code::InvocationAlreadyActive
            )
        }
        Code::CapabilityNotFound => {
            witness!(
                "an outcome can carry CAPABILITY_NOT_FOUND",
                Code::CapabilityNotFound
            )
        }
        Code::CapabilityUnbound => {
            witness!(
                "an outcome can carry CAPABILITY_UNBOUND",
                Code::CapabilityUnbound
            )
        }
        Code::CapabilityUnavailable => {
            witness!(
                "an outcome can carry CAPABILITY_UNAVAILABLE",
                Code::CapabilityUnavailable
            )
        }
        Code::InputInvalid => witness!("an outcome can carry INPUT_INVALID", Code::InputInvalid),
        Code::PolicyEvaluationFailed => {
            witness!(
                "an outcome can carry POLICY_EVALUATION_FAILED",
                Code::PolicyEvaluationFailed
            )
        }
        Code::PolicyDenied => witness!("an outcome can carry POLICY_DENIED", Code::PolicyDenied),
        Code::ConfirmationDeclined => {
            witness!(
                "an outcome can carry CONFIRMATION_DECLINED",
                Code::ConfirmationDeclined
            )
        }
        Code::ConfirmationExpired => {
            witness!(
                "an outcome can carry CONFIRMATION_EXPIRED",
                Code::ConfirmationExpired
            )
        }
        Code::ConfirmationNotFound => {
            witness!(
                "an outcome can carry CONFIRMATION_NOT_FOUND",
                Code::ConfirmationNotFound
            )
        }
        Code::ExecutionAborted => {
            witness!(
                "an outcome can carry EXECUTION_ABORTED",
                Code::ExecutionAborted
            )
        }
        Code::ExecutionFailed => {
            witness!(
                "an outcome can carry EXECUTION_FAILED",
                Code::ExecutionFailed
            )
        }
        Code::OutputInvalid => witness!("an outcome can carry OUTPUT_INVALID", Code::OutputInvalid),
    }
}
