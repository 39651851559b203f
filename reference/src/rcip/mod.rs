//! The RCIP 1.0 reference runtime: spec 000 (protocol; Assist excepted) and spec 001 (lifecycle)
//! with CLARIFICATIONS sections A and B, sans-IO and deterministic. The runtime is driven by calls
//! (client calls, host actions, gate settlements of pending policy and handler calls, clock
//! advances, aborts) and reports what settled; no thread, timer or wall clock is involved.
//!
//! - `value`: host values that can hold what JSON cannot, the plain-JSON rule (CL-B13) and detached
//!   copies (CL-B14).
//! - `ident`: identifiers (CL-B18-1..4, 9). `definition`: the catalog and creation-time validation
//!   (CL-A02, CL-B18-5..8, CL-B19-8).
//! - `snapshot`: snapshot, context, availability redaction, relevance, list filters (CL-A03,
//!   CL-A07, CL-B15..B17). `outcome`: outcomes and codes (CL-A06, CL-B01).
//! - `runtime`: state, host and discovery surfaces, subscriptions, events (CL-A01, CL-A04, CL-B20,
//!   CL-B21, CL-B23, CL-B25). `lifecycle`: `invoke`, policy, confirmation, execution (CL-B02..B12,
//!   CL-B22). `preflight`: the `preflight` profile's dry-run (CL-B24). `react`: the abstract React
//!   host of the `react` profile (CL-A08, issue 17).
//!
//! Asynchrony: policy and handler callbacks answer [`Answer::Ready`] or [`Answer::Pending`]; a
//! pending call is settled later with [`Runtime::settle_policy`] / [`Runtime::settle_handler`] by
//! its [`CallId`]. `invoke` and `resolve_confirmation` return a [`Ticket`] whose outcome
//! ([`Runtime::outcome`]) appears when it settles. Time moves only with [`Runtime::advance`];
//! an abort is [`Runtime::abort`] (or [`AbortSignal::abort`] followed by
//! [`Runtime::process_aborts`]; every driving call also processes aborts first).
//!
//! Choices where CLARIFICATIONS leaves room (IMPL-DEFINED) or the texts are silent:
//! - CL-B13-4 `-0` is normalised to `0`; CL-B13-5 shared acyclic references are accepted (copied
//!   per occurrence); CL-B13-6 null-prototype objects are accepted. Copies are bounded: depth 128,
//!   2^18 nodes (beyond: not plain JSON).
//! - CL-B18-9 runs of capitals or digits inside a segment are accepted.
//! - CL-B19 (see `crate::schema`): schemas are compiled at creation (the "or earlier" of CL-B19-8),
//!   `$anchor` accepted, unreferenced `$defs` checked, `$ref` must be fragment-only.
//! - CL-B06-3 a reordering of the same active scopes is a change; CL-B15-9 re-publishing an
//!   identical context does not bump the revision (nor notify).
//! - CL-B08-4 approval at exactly `expiresAt` gives `CONFIRMATION_EXPIRED`.
//! - CL-B11-6 an `AbortError` thrown without an abort is `EXECUTION_FAILED`.
//! - Snapshot revisions start at 0; availability is read at bind and at every refresh (host
//!   `refresh` and the refresh after success); other publications (unbind, context) keep it.
//! - Events: every `invoke` emits `requested` and exactly one terminal phase (`failed`/`denied`/
//!   `succeeded`, or `confirmation_requested`); a decline emits `confirmation_declined`; expiry and
//!   cancellation of a pending confirmation emit `failed`; receipts and unknown ids emit nothing.
//! - Listeners are called after every revision change (never at subscription), in subscription
//!   order, each isolated from the others' failures.
//! - Without a `createId` option ids are `<prefix>-<n>`, counted per prefix and per runtime, so two
//!   runtimes issue equal ids; each id is meaningful only in the runtime that issued it (CL-B25).
//! - Snapshots are plain JSON behind `Rc<Snapshot>` with no way to write through them (CL-B14-3).
//! - Further lifecycle choices are listed in `lifecycle.rs`, definition choices in
//!   `definition.rs`, snapshot choices in `snapshot.rs`.

pub mod assist;
mod definition;
mod ident;
mod lifecycle;
mod outcome;
mod preflight;
mod raw_request;
pub mod react;
mod runtime;
mod snapshot;
mod value;

pub use definition::{
    CapabilityDef, CapabilityHandle, ConfigError, Definition, Effect, ScopeDef,
    RCIP_PROTOCOL_VERSION,
};
pub use ident::is_identifier;
pub use lifecycle::{GateError, InvokeRequest, Receipt, ReceiptKind};
pub use outcome::{
    ConfirmationInfo, ErrorCode, Outcome, OutcomeBody, OutcomeError, Status, ValidationIssue,
};
pub use preflight::{PreflightError, Proposal, ProposalReport, PREFLIGHT_BOUND};
pub use raw_request::{RawInvokeRequest, RawSignal};
pub use runtime::{
    AbortSignal, Answer, AvailabilityFn, BindingSpec, BindingToken, CallId, CreateIdFn, EventFn,
    HandlerCall, HandlerFn, HostError, HostErrorName, ListenerFn, Phase, PolicyCall, PolicyFn,
    RcipEvent, Runtime, RuntimeOptions, Settlement, SubscriptionId, Ticket,
    DEFAULT_CONFIRMATION_TTL_MS, RECEIPT_CAPACITY,
};
pub use snapshot::{ListFilter, LiveStatus, PublishedAvailability, SemanticContext, Snapshot};
pub use value::{
    json_number, parse_pointer, Getter, HostObject, HostValue, NotPlain, ObjectData, PlainRules,
    PointerError, Prototype, MAX_JSON_DEPTH, MAX_JSON_NODES,
};
