//! Vectors from the `invocation` model (`model::invocation`, CL-B01..B12, RCIP-LIFE "Asynchronous
//! policy and confirmation" and "Cancellation and effects", RCIP-PROTO "Invocation lifecycle"):
//! the translator that turns one model path into a case of section `rcip.model-invocation`, the
//! coverage classification `model::visit::cover` walks with, and the configurations the
//! differential test draws from.
//!
//! Translation. Every model action becomes the step(s) that cause it (`invoke` with its own abort
//! signal, a `gate` settling the policy or handler call the action names, `resolve-confirmation`,
//! a clock `advance` of one tick, host `bind`/`unbind`/`set-context`/`set-availability`); after
//! each, the case expects what the model's state says: every invocation and resolution not yet
//! seen settled (its canonical outcome, or `pending`), the policy and handler call records so far,
//! the signal of every running handler, and a fresh snapshot: its revision against the one before
//! (CL-B15) and what its text never holds (CL-B17: the host-only availability member, the
//! confirmation ids `createId: "sequential"` makes known). The expectations come from the model
//! state and those sentences, never from the reference. Host features the model does not decide
//! (a function in the availability answer, the host-only member, a throwing listener) are drawn
//! per case (`host_features`), so a bug in one of them fails only the cases that carry it.
//!
//! Where the spec leaves room and the model picks one reading (model/README.md "Modelling
//! decisions"), the expectation accepts every reading (`one-of`), and a RECOMMENDED check names the
//! recommended one where there is one:
//! - the id check (CL-B04) may come before or after the CL-B03 checks, so a reserved id with a
//!   failing catalog, binding, availability or input check may give either code;
//! - an already-aborted signal is RECOMMENDED after the four CL-B03 checks (CL-B03-2), so
//!   `EXECUTION_ABORTED` is also accepted in their place (RECOMMENDED check: their code);
//! - the CL-B05 rechecks follow every policy decision, and a failing recheck decides an `allow`
//!   or a `confirm` (RCIP-LIFE-POLICY-04/05, CL-B05-1): their own outcome is not accepted when a
//!   fact changed, since it is what an implementation that skipped the recheck gives (issue 13);
//!   a `deny` or a `throw` may also give its own outcome (PRJ-RCIP-POLICY-01: no sentence orders
//!   a refusing answer against the rechecks); several changed facts: any of their codes,
//!   RECOMMENDED the CL-B05-3 precedence;
//! - `confirm` on the confirmed pass: RECOMMENDED `POLICY_DENIED` (CL-B07-5), also
//!   `POLICY_EVALUATION_FAILED` or a new confirmation (the handler still does not run); the case
//!   stops after that action, since a new confirmation's future differs;
//! - approval after an unbind or a changed context: `POLICY_DENIED` only (PRJ-RCIP-CONF-01;
//!   `CAPABILITY_UNBOUND` is not accepted); with availability lost as well, also
//!   `CAPABILITY_UNAVAILABLE` (CL-B07 orders neither against availability);
//! - an invalid output after an abort: `OUTPUT_INVALID` or `EXECUTION_ABORTED` (CL-B11 speaks of
//!   returns and throws only);
//! - a second resolution of a returned receipt: RECOMMENDED `CONFIRMATION_NOT_FOUND`, else the
//!   receipt's code again (CL-B10-3);
//! - `expiresAt` from the invoke or from the confirm decision (PRJ-RCIP-CONF-04).
//!
//! Two readings make the futures differ, so a case stops (before the action) where they would
//! part: a context changed and changed back before a recheck (CL-B06 by value at the check, or
//! any effective change), and a clock tick while a confirmation whose TTL could run from an
//! earlier invoke is pending. Neither happens at the generation configuration (one host event;
//! a shared id admits one invocation in flight, so no tick falls between an invoke and its
//! decision); the differential configurations reach them and then compare the prefix.
//!
//! Receipts: the reference keeps 256 (CL-B10, RCIP-LIFE-CONF-07). Every configuration here has at
//! most three confirmations and a receipt bound of 256, so no receipt is ever evicted, in the
//! model or in any implementation; eviction stays with the hand-written `rcip.receipts` vectors
//! (256 retained, the 257th evicts the oldest). Padding with 254 filler receipts would not emulate
//! a bound of 2: the fillers are older, so they, not the modelled receipts, would be evicted first.
//!
//! Time: a model tick is an `advance` of 1000 ms and the TTL is `ttl_ticks * 1000 - 500` ms, so a
//! confirmation lives through `ttl_ticks - 1` ticks and expires at the next, and no tick lands on
//! `expiresAt` (CL-B08-4). `conformance fuzz` also draws one configuration at `Timing::long_ticks`
//! (ticks of 2^31 ms, the TTL ending 1 ms before a tick); the generated vectors keep the standard
//! timing.

use std::collections::{BTreeMap, BTreeSet};

use model::invocation::{
    Action, Code, Confirmation, ContextComparison, Decision, HandlerResult, IdAssignment,
    Invocation, InvocationModel, Outcome, Pass, Phase, ReceiptFate, ReceiptKind, Request,
    RuntimeState, SemanticContext, Slot,
};
use model::stateright::Model;
use model::visit::{cover, walk, Coverage};
use serde_json::{json, Value};

pub use super::host_features::{HostFeatures, HOST_ONLY_MARKER};
use super::{load_regressions, regressions_dir, Generated};
use crate::case::{Case, Provenance, Section, Strictness};
use crate::pattern::{any, contains, of_type, one_of, present, subset, unordered};

/// The section every model-invocation case belongs to.
pub const SECTION: &str = "rcip.model-invocation";
/// Virtual milliseconds per model tick.
pub const TICK_MS: u64 = 1000;
/// The capability every undeclared-capability request names.
pub const UNDECLARED: &str = "tasks.missing";
/// A guard on the generation walk (the default configuration has 51,383 states).
const MAX_STATES: usize = 2_000_000;

/// The configuration the generated vectors are walked at: the model's default (two requests
/// sharing one id, one capability, one host event, TTL one tick, every decision and handler
/// result, request faults) with the receipt bound of CL-B10. It reaches every CL-B01 code.
pub fn generation_model() -> InvocationModel {
    InvocationModel {
        receipt_bound: 256,
        ..InvocationModel::default()
    }
}

/// The configurations the differential test draws from (the first choice picks one): the
/// generation configuration; distinct ids over two capabilities with two host events and two
/// ticks (a tick between an invoke and its decision, rebinding and context races on both
/// capabilities); three requests sharing an id with a two-tick TTL and context compared as "any
/// effective change" (the other CL-B06 reading).
pub fn differential_models() -> Vec<InvocationModel> {
    vec![
        generation_model(),
        InvocationModel {
            ids: IdAssignment::Distinct,
            capabilities: 2,
            host_events: 2,
            max_ticks: 2,
            ..generation_model()
        },
        InvocationModel {
            invocations: 3,
            host_events: 2,
            ttl_ticks: 2,
            max_ticks: 2,
            context_comparison: ContextComparison::AnyEffectiveChange,
            ..generation_model()
        },
    ]
}

/// A short description of a configuration, for provenance.
pub fn describe_model(model: &InvocationModel) -> String {
    format!(
        "model::invocation ({} requests, {} id, {} capabilit{}, {} host event{}, TTL {} tick{}, {} tick{} at most, receipts {}, context {})",
        model.invocations,
        match model.ids {
            IdAssignment::Shared => "shared",
            IdAssignment::Distinct => "distinct",
        },
        model.capabilities,
        if model.capabilities == 1 { "y" } else { "ies" },
        model.host_events,
        if model.host_events == 1 { "" } else { "s" },
        model.ttl_ticks,
        if model.ttl_ticks == 1 { "" } else { "s" },
        model.max_ticks,
        if model.max_ticks == 1 { "" } else { "s" },
        model.receipt_bound,
        match model.context_comparison {
            ContextComparison::ByValue => "by value",
            ContextComparison::AnyEffectiveChange => "any change",
        },
    )
}

// ---------------------------------------------------------------------------------------------
// The vocabulary a path is written in
// ---------------------------------------------------------------------------------------------

/// Capability `index` of the definition.
pub fn capability_id(index: usize) -> String {
    match index {
        0 => "tasks.purge".to_string(),
        1 => "tasks.archive".to_string(),
        n => format!("tasks.extra{n}"),
    }
}

/// The invocation id slot `slot` passes (one for every slot when ids are shared).
pub fn invocation_id(model: &InvocationModel, slot: Slot) -> String {
    match model.ids {
        IdAssignment::Shared => "inv".to_string(),
        IdAssignment::Distinct => format!("inv-{slot}"),
    }
}

/// How a path's model time becomes virtual milliseconds: the length of a tick and the TTL.
/// Either way a confirmation lives through `ttl_ticks - 1` ticks and expires at the next, and
/// no tick lands on `expiresAt` (CL-B08-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    pub tick_ms: u64,
    pub ttl_ms: u64,
}

impl Timing {
    /// The vectors' timing: ticks of `TICK_MS`, the TTL ending half a tick before a tick.
    pub fn standard(model: &InvocationModel) -> Timing {
        Timing {
            tick_ms: TICK_MS,
            ttl_ms: u64::from(model.ttl_ticks) * TICK_MS - TICK_MS / 2,
        }
    }

    /// Ticks of 2^31 ms and a TTL ending 1 ms before a tick (`ttl_ticks` of at least 2): the TTL
    /// is 2^32 - 1 ms or more, past what a 32-bit timer holds (CL-A01-5, CL-B08-1: the TTL is
    /// measured on the runtime's clock whatever its size, as `rcip.expiry.large-ttl` checks),
    /// and the tick that expires it comes 1 ms after `expiresAt` (CL-B08-1/2: expired then, as
    /// `rcip.expiry.default-ttl.003` checks), away from the boundary CL-B08-4 leaves open.
    pub fn long_ticks(model: &InvocationModel) -> Timing {
        let tick_ms = 1u64 << 31;
        Timing {
            tick_ms,
            ttl_ms: u64::from(model.ttl_ticks) * tick_ms - 1,
        }
    }
}

fn context_value(context: SemanticContext) -> Value {
    match context {
        SemanticContext::Initial => json!({ "activeScopeIds": ["tasks"] }),
        SemanticContext::Other => json!({ "activeScopeIds": ["archive"] }),
    }
}

/// The context as a call record shows it: the active scopes; a `primaryScopeId` member, if an
/// implementation writes one, is not constrained (none is ever set).
fn context_pattern(context: SemanticContext) -> Value {
    subset(context_value(context))
}

fn valid_input(slot: Slot) -> Value {
    json!({ "text": format!("t{slot}") })
}

/// The model's invalid input, concretely: for slot 0 a value of the wrong type (CL-B19), for
/// the others an object whose extra member is `undefined`, not plain JSON (CL-B13-1/2: rejected
/// as `INPUT_INVALID`; coerced as `JSON.stringify` would, it would be valid input).
fn invalid_input(slot: Slot) -> Value {
    if slot == 0 {
        json!({ "text": 7 })
    } else {
        json!({ "text": format!("t{slot}"), "note": { "$value": "undefined" } })
    }
}

fn valid_output() -> Value {
    json!({ "done": true })
}

/// The handler's invalid output, concretely: for slot 0 a value of the wrong type, for the
/// others an object whose extra member is `undefined`, not plain JSON (CL-B12-1, CL-B13-1: failed
/// `OUTPUT_INVALID`; coerced as `JSON.stringify` would, it would be valid output).
fn invalid_output(slot: Slot) -> Value {
    if slot == 0 {
        json!({ "done": "yes" })
    } else {
        json!({ "done": true, "note": { "$value": "undefined" } })
    }
}

/// The application definition: two scopes (the two context values) and `capabilities`
/// destructive capabilities without scopes (relevance plays no part, RCIP-LIFE "Scope relevance
/// is not authorization"), each taking `{text: string}` and returning `{done: boolean}`.
fn definition(model: &InvocationModel) -> Value {
    let capabilities: Vec<Value> = (0..model.capabilities)
        .map(|c| {
            json!({
                "id": capability_id(c),
                "title": format!("Capability {c}"),
                "description": "A destructive task the model invokes",
                "scopeIds": [],
                "effect": "destructive",
                "inputSchema": {
                    "type": "object",
                    "properties": { "text": { "type": "string" } },
                    "required": ["text"],
                    "additionalProperties": false
                },
                "outputSchema": {
                    "type": "object",
                    "properties": { "done": { "type": "boolean" } },
                    "required": ["done"],
                    "additionalProperties": false
                }
            })
        })
        .collect();
    json!({
        "protocolVersion": "1.0",
        "application": { "id": "tasks-app", "name": "Tasks", "description": "The invocation model's application" },
        "scopes": [
            { "id": "tasks", "title": "Tasks", "description": "The tasks area" },
            { "id": "archive", "title": "Archive", "description": "The archive area" }
        ],
        "capabilities": capabilities
    })
}

fn setup(model: &InvocationModel, timing: Timing) -> Value {
    json!({
        "definition": definition(model),
        "options": { "policy": { "mode": "gated" }, "confirmationTtlMs": timing.ttl_ms, "createId": "sequential" }
    })
}

fn binding_handle(capability: usize, identity: u8) -> String {
    format!("b{capability}-{identity}")
}

/// The message of every error a policy or handler of a case throws (the `error` settlement,
/// vectors/README.md): CL-B02-2 keeps it out of every outcome's text.
pub const HOST_ERROR_TEXT: &str = "host-secret-7f3a";

/// The host's availability answer: `available` with, in the cases that draw them
/// (`HostFeatures`), the host-only member `hostSession` (CL-B17-1 says it is never published, so
/// its value never appears in a snapshot) and, in the `available: true` answer, the function
/// member `hostHook`, which `structuredClone` cannot copy (CL-A04-7: the answer is read by its
/// three members, as `rcip.availability.host-members` checks). Neither changes an outcome (the
/// checks read `available` only). The `available: false` answer is plain JSON, so an
/// implementation that published it whole could not drop the marker with the function.
fn availability(features: &HostFeatures, available: bool) -> Value {
    let mut answer = if available {
        json!({ "available": true })
    } else {
        json!({ "available": false, "reason": "Offline", "reasonCode": "offline" })
    };
    if let Some(object) = answer.as_object_mut() {
        if features.host_only_marker {
            object.insert("hostSession".into(), json!(HOST_ONLY_MARKER));
        }
        if available && features.function_member {
            object.insert("hostHook".into(), json!({ "$value": "function" }));
        }
    }
    answer
}

fn bind_step(features: &HostFeatures, capability: usize, identity: u8, available: bool) -> Value {
    json!({
        "host": "bind", "capability": capability_id(capability), "as": binding_handle(capability, identity),
        "handler": { "mode": "gated" }, "availability": availability(features, available)
    })
}

/// How the gated policy settles policy call `call` (1-based) with `decision`. The model's
/// `Throw` stands for a policy that fails: an odd call throws, an even one returns a decision
/// 0.1 does not know, both failed `POLICY_EVALUATION_FAILED` (CL-B12-3, CL-A05-2).
/// A second bind of a capability while `identity` is live: it throws a host configuration error
/// and changes nothing (CL-B20-1, RCIP-LIFE-BIND-03).
fn duplicate_bind_step(features: &HostFeatures, capability: usize, identity: u8, available: bool) -> Value {
    let mut step = bind_step(features, capability, identity, available);
    if let Some(object) = step.as_object_mut() {
        object.insert(
            "as".into(),
            json!(format!("{}-again", binding_handle(capability, identity))),
        );
        object.insert("throws".into(), json!(true));
        object.insert(
            "requirements".into(),
            json!(["CL-B20-1", "RCIP-LIFE-BIND-03"]),
        );
    }
    step
}

fn decision_settle(decision: Decision, call: u32) -> Value {
    match decision {
        Decision::Throw if call % 2 == 0 => json!({ "return": { "decision": "maybe" } }),
        Decision::Allow => json!({ "return": { "decision": "allow" } }),
        Decision::Deny => json!({ "return": { "decision": "deny", "reason": "not now" } }),
        Decision::Confirm => {
            json!({ "return": { "decision": "confirm", "reason": "destructive" } })
        }
        Decision::Throw => json!({ "throw": "error" }),
    }
}

fn handler_settle(result: HandlerResult, slot: Slot) -> Value {
    match result {
        HandlerResult::Output => json!({ "return": valid_output() }),
        HandlerResult::InvalidOutput => json!({ "return": invalid_output(slot) }),
        HandlerResult::Throw => json!({ "throw": "error" }),
    }
}

fn with(mut step: Value, key: &str, value: Value) -> Value {
    if let Some(object) = step.as_object_mut() {
        object.insert(key.to_string(), value);
    }
    step
}

fn excludes(text: &str) -> Value {
    json!({ "$match": "excludes", "text": text })
}

fn expect_outcome(of: &str, is: Value) -> Value {
    json!({ "expect": "outcome", "of": of, "is": is })
}

// ---------------------------------------------------------------------------------------------
// Outcomes and the readings they allow
// ---------------------------------------------------------------------------------------------

/// One allowed outcome, before the ids are attached.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Shape {
    Succeeded,
    /// `confirmation_required` expiring at one of these instants.
    Confirmation(Vec<u64>),
    Error(Code),
}

/// The ids an outcome carries: concrete, or any string (PRJ-RCIP-OUT-01: resolutions that find a
/// receipt or nothing).
#[derive(Clone, Debug)]
struct Ids {
    invocation: Value,
    capability: Value,
}

impl Ids {
    fn of(invocation: String, capability: String) -> Ids {
        Ids {
            invocation: json!(invocation),
            capability: json!(capability),
        }
    }

    fn anonymous() -> Ids {
        Ids {
            invocation: of_type("string"),
            capability: of_type("string"),
        }
    }
}

fn render(shape: &Shape, ids: &Ids) -> Value {
    match shape {
        Shape::Succeeded => json!({
            "status": "succeeded", "invocationId": ids.invocation, "capabilityId": ids.capability,
            "output": valid_output()
        }),
        // The expiry instants stay in the shape (two confirmations issued at different instants
        // are different shapes), but only the presence of `expiresAt` is checked (CL-A06-4): its
        // value is the project reading PRJ-RCIP-CONF-02, checked by the expiry cases, while the
        // model's clock steps check when the confirmation really expires (CL-B08).
        Shape::Confirmation(_) => json!({
            "status": "confirmation_required", "invocationId": ids.invocation, "capabilityId": ids.capability,
            "confirmation": { "id": of_type("string"), "effect": "destructive", "expiresAt": present() }
        }),
        Shape::Error(code) => {
            let status = match code.status() {
                model::invocation::Status::Denied => "denied",
                _ => "failed",
            };
            json!({
                "status": status, "invocationId": ids.invocation, "capabilityId": ids.capability,
                "code": code.as_str(), "validationIssues": any()
            })
        }
    }
}

/// What a settled outcome may be: the REQUIRED alternatives (the model's reading first) and, when
/// the spec recommends fewer of them, the RECOMMENDED ones.
#[derive(Clone, Debug)]
struct Allowed {
    required: Vec<Shape>,
    recommended: Option<Vec<Shape>>,
    ids: Ids,
}

fn push_unique(shapes: &mut Vec<Shape>, shape: Shape) {
    if !shapes.contains(&shape) {
        shapes.push(shape);
    }
}

fn pattern(shapes: &[Shape], ids: &Ids) -> Value {
    match shapes {
        [one] => render(one, ids),
        many => one_of(many.iter().map(|s| render(s, ids))),
    }
}

// ---------------------------------------------------------------------------------------------
// The translator
// ---------------------------------------------------------------------------------------------

/// A translated path: the case, and whether it stopped early where readings part.
pub struct Translation {
    pub case: Case,
    pub truncated_at: Option<usize>,
}

struct Handle {
    name: String,
    /// Seen settled: no further expectation.
    done: bool,
}

struct Translator<'a> {
    model: &'a InvocationModel,
    timing: Timing,
    /// The unrelated host features this case carries (`host_features`).
    features: HostFeatures,
    steps: Vec<Value>,
    handles: Vec<Handle>,
    /// Outcome patterns of handles that settled with the current action.
    settled: BTreeMap<String, Allowed>,
    policy_records: Vec<Value>,
    handler_records: Vec<Value>,
    /// The latest policy / handler call number of each slot (1-based, per runtime).
    policy_call_of: BTreeMap<Slot, u32>,
    handler_call_of: BTreeMap<Slot, u32>,
    /// The resolution handle waiting on each slot's confirmed pass.
    approving: BTreeMap<Slot, String>,
    now_ms: u64,
    invoked_ms: BTreeMap<Slot, u64>,
    decided_ms: BTreeMap<Slot, u64>,
    /// Slots whose captured context saw an effective `setContext` since capture.
    context_touched: BTreeSet<Slot>,
    /// Set once an already-aborted request passed every CL-B03 check: CL-B03-2 only RECOMMENDS
    /// that policy is then not called, so the policy call records are RECOMMENDED from there on.
    policy_calls_recommended: bool,
    /// Snapshots taken so far (`snap0` after the preamble, `snap1` after a refresh, then one
    /// after every action).
    snapshots: usize,
    /// Confirmations issued so far: with `createId: "sequential"` their ids are among
    /// `confirmation-1` .. `confirmation-N` (CL-A01-6).
    confirmations: usize,
    /// Whether a policy or handler call has thrown (`new Error("host-secret-7f3a")`, the
    /// `error` settlement): from then on every settled outcome's text is checked for it.
    thrown: bool,
    /// The IMPL-DEFINED entries whose readings an expectation of the path accepts: the case
    /// cites them.
    open_points: std::cell::RefCell<BTreeSet<&'static str>>,
    /// Set when the action just translated accepts readings whose futures differ: the case
    /// stops after it.
    parts_after: std::cell::Cell<bool>,
}

impl<'a> Translator<'a> {
    fn new(model: &'a InvocationModel, timing: Timing, features: HostFeatures) -> Translator<'a> {
        Translator {
            model,
            timing,
            features,
            steps: Vec::new(),
            handles: Vec::new(),
            settled: BTreeMap::new(),
            policy_records: Vec::new(),
            handler_records: Vec::new(),
            policy_call_of: BTreeMap::new(),
            handler_call_of: BTreeMap::new(),
            approving: BTreeMap::new(),
            now_ms: 0,
            invoked_ms: BTreeMap::new(),
            decided_ms: BTreeMap::new(),
            context_touched: BTreeSet::new(),
            policy_calls_recommended: false,
            snapshots: 0,
            confirmations: 0,
            thrown: false,
            open_points: Default::default(),
            parts_after: Default::default(),
        }
    }

    fn ids_of(&self, slot: Slot) -> Ids {
        Ids::of(
            invocation_id(self.model, slot),
            capability_id(self.model.capability_of(slot)),
        )
    }

    /// The preamble: the model's initial context, every capability bound (identity 0, gated
    /// handler, available).
    fn preamble(&mut self, state: &RuntimeState) {
        self.steps
            .push(json!({ "host": "set-context", "context": context_value(state.context) }));
        for (capability, binding) in state.bindings.iter().enumerate() {
            if let Some(identity) = binding.live {
                self.steps
                    .push(bind_step(&self.features, capability, identity, state.available[capability]));
            }
        }
        // A refresh changes nothing the model decides (invoke and the rechecks read live
        // availability, CL-B15-7, and the published one equals it right after the binds), but
        // it must publish a new revision (CL-B15-3).
        self.observe_snapshot(None);
        // The refresh publishes a revision, so the recording listener is notified at least once.
        // PRJ-RCIP-SUB-02 (in the cases that draw it): a listener that throws (at every revision
        // of the path), subscribed first, keeps no other listener from being notified and
        // changes no outcome.
        let mut notified_by = vec!["CL-B15-3"];
        if self.features.throwing_listener {
            self.steps
                .push(json!({ "client": "subscribe", "as": "listener-throws", "listener": "throws" }));
            notified_by.insert(0, "PRJ-RCIP-SUB-02");
        }
        self.steps
            .push(json!({ "client": "subscribe", "as": "listener", "listener": "records" }));
        self.steps.push(json!({ "host": "refresh" }));
        self.observe_snapshot(Some("CL-B15-3"));
        self.steps.push(json!({
            "expect": "notifications", "of": "listener", "is": contains([json!({ "revision": any() })], false),
            "requirements": notified_by
        }));
        // CL-B16-1: the capabilities declare no scopes, so each is `current` whatever the context
        // (the model's context changes never make one `other`).
        let capabilities: Vec<Value> = (0..self.model.capabilities)
            .map(|c| subset(json!({ "id": capability_id(c), "relevance": "current" })))
            .collect();
        self.steps.push(json!({
            "expect": "snapshot", "of": format!("snap{}", self.snapshots - 1),
            "is": subset(json!({ "capabilities": unordered(capabilities) })),
            "requirements": ["CL-B16-1"]
        }));
    }

    /// CL-B15 and CL-B17 along the path: a fresh snapshot after the preamble, after a refresh
    /// and after every action, pinned only in what the texts decide for every reading.
    /// - Against the one before: it strictly increases with a bind, an effective unbind, a
    ///   refresh or a successful invocation (`bump`, CL-B15-1/2/3/4); otherwise it is the identical object with
    ///   an equal revision or a new one with a greater revision (CL-B15-5: identical until the
    ///   revision changes; RCIP-PROTO-SNAP-01: the revision increases monotonically), since the
    ///   texts leave open whether a changed context, an availability change, a confirmation or a
    ///   failed invocation bumps it (CL-B15-8 is only RECOMMENDED, CL-B15-9 IMPL-DEFINED).
    /// - Its JSON text never holds the host-only availability member (CL-B17-1, in the cases
    ///   that draw it) nor a confirmation id issued so far (CL-B17-2). Its other content (relevance, availability
    ///   as of the last refresh, CL-B15-6) is not pinned here.
    fn observe_snapshot(&mut self, bump: Option<&'static str>) {
        let name = format!("snap{}", self.snapshots);
        self.steps
            .push(json!({ "client": "get-snapshot", "as": name }));
        if self.snapshots > 0 {
            let previous = format!("snap{}", self.snapshots - 1);
            let (is, requirements) = match bump {
                Some(id) => (
                    json!({ "identical": false, "revision": "greater" }),
                    vec![id, "CL-B15-5", "RCIP-PROTO-SNAP-01"],
                ),
                None => (
                    one_of([
                        json!({ "identical": true, "revision": "equal" }),
                        json!({ "identical": false, "revision": "greater" }),
                    ]),
                    vec!["CL-B15-5", "RCIP-PROTO-SNAP-01"],
                ),
            };
            self.steps.push(json!({
                "expect": "snapshot-relation", "a": previous, "b": name, "is": is, "requirements": requirements
            }));
        }
        if self.features.host_only_marker {
            self.steps.push(json!({
                "expect": "snapshot-text", "of": name, "is": excludes(HOST_ONLY_MARKER),
                "requirements": ["CL-B17-1", "RCIP-PROTO-SNAP-08"]
            }));
        }
        for n in 1..=self.confirmations {
            self.steps.push(json!({
                "expect": "snapshot-text", "of": name, "is": excludes(&format!("confirmation-{n}")),
                "requirements": ["CL-B17-2", "RCIP-PROTO-SNAP-09"]
            }));
        }
        self.snapshots += 1;
    }

    /// Whether two readings the spec allows would part at `action`, so the case must stop.
    fn readings_part(&self, state: &RuntimeState, action: Action) -> bool {
        match action {
            // CL-B06: by value at the check, or any effective change since capture.
            Action::PolicySettles(slot, _) => self.context_reverted(state, slot),
            Action::Approve(slot) => {
                matches!(
                    state.invocations[slot].confirmation,
                    Confirmation::Pending { .. }
                ) && self.context_reverted(state, slot)
            }
            // PRJ-RCIP-CONF-04: a TTL from the invoke would expire earlier than one from the
            // decision.
            Action::AdvanceClock => state.invocations.iter().enumerate().any(|(slot, i)| {
                matches!(i.confirmation, Confirmation::Pending { .. })
                    && self.invoked_ms.get(&slot) != self.decided_ms.get(&slot)
            }),
            _ => false,
        }
    }

    fn context_reverted(&self, state: &RuntimeState, slot: Slot) -> bool {
        let Some(captured) = state.invocations[slot].captured else {
            return false;
        };
        self.context_touched.contains(&slot) && captured.context == state.context
    }

    /// The steps that cause `action` in `before`.
    fn action_steps(&mut self, before: &RuntimeState, action: Action) -> Vec<Value> {
        let model = self.model;
        match action {
            Action::Invoke(slot, request) => {
                let (capability, input) = match request {
                    Request::Valid => (capability_id(model.capability_of(slot)), valid_input(slot)),
                    Request::InvalidInput => (
                        capability_id(model.capability_of(slot)),
                        invalid_input(slot),
                    ),
                    Request::UndeclaredCapability => (UNDECLARED.to_string(), valid_input(slot)),
                };
                vec![json!({
                    "client": "invoke", "as": format!("i{slot}"), "capability": capability, "input": input,
                    "invocationId": invocation_id(model, slot), "signal": format!("s{slot}")
                })]
            }
            Action::PolicySettles(slot, decision) => {
                let call = self.policy_call_of.get(&slot).copied().unwrap_or(0);
                vec![
                    json!({ "gate": "policy", "call": call, "settle": decision_settle(decision, call) }),
                ]
            }
            Action::HandlerSettles(slot, result) => {
                let call = self.handler_call_of.get(&slot).copied().unwrap_or(0);
                vec![
                    json!({ "gate": "handler", "call": call, "settle": handler_settle(result, slot) }),
                ]
            }
            Action::Abort(slot) => vec![json!({ "client": "abort", "signal": format!("s{slot}") })],
            Action::Approve(slot) | Action::Decline(slot) => {
                let n = before.invocations[slot].resolve_calls + 1;
                vec![json!({
                    "host": "resolve-confirmation", "as": format!("r{slot}-{n}"),
                    "confirmation": { "of": format!("i{slot}") }, "approved": matches!(action, Action::Approve(_))
                })]
            }
            Action::AdvanceClock => vec![json!({ "clock": "advance", "ms": self.timing.tick_ms })],
            Action::Bind(capability) => {
                let identity = before.bindings[capability].installs;
                vec![
                    bind_step(&self.features, capability, identity, before.available[capability]),
                    duplicate_bind_step(&self.features, capability, identity, before.available[capability]),
                ]
            }
            Action::Unbind(capability) => match before.bindings[capability].live {
                Some(identity) => vec![
                    json!({ "host": "unbind", "binding": binding_handle(capability, identity) }),
                ],
                None => Vec::new(),
            },
            Action::Rebind(capability) => {
                let mut steps = Vec::new();
                if let Some(identity) = before.bindings[capability].live {
                    steps.push(json!({ "host": "unbind", "binding": binding_handle(capability, identity) }));
                }
                let identity = before.bindings[capability].installs;
                steps.push(bind_step(
                    &self.features,
                    capability,
                    identity,
                    before.available[capability],
                ));
                steps.push(duplicate_bind_step(
                    &self.features,
                    capability,
                    identity,
                    before.available[capability],
                ));
                // CL-B20-2/3: the replaced binding's unbind, called again now that it is stale,
                // removes nothing.
                if let Some(old) = before.bindings[capability].live {
                    steps.push(json!({
                        "host": "unbind", "binding": binding_handle(capability, old),
                        "requirements": ["CL-B20-2", "CL-B20-3"]
                    }));
                }
                steps
            }
            Action::SetContext(context) => {
                vec![json!({ "host": "set-context", "context": context_value(context) })]
            }
            Action::LoseAvailability(capability) | Action::RestoreAvailability(capability) => {
                let binding = &before.bindings[capability];
                // While unbound the last installed binding's answer no longer matters; the next
                // `bind` carries the availability the model holds.
                let identity = binding.live.unwrap_or(binding.installs.saturating_sub(1));
                vec![json!({
                    "host": "set-availability", "binding": binding_handle(capability, identity),
                    "availability": availability(&self.features, matches!(action, Action::RestoreAvailability(_)))
                })]
            }
        }
    }

    /// The facts the CL-B05 rechecks find changed for `slot`, as codes in the RECOMMENDED
    /// precedence (CL-B05-3).
    fn rechecks_failing(&self, state: &RuntimeState, slot: Slot) -> Vec<Code> {
        let invocation = &state.invocations[slot];
        let capability = self.model.capability_of(slot);
        let Some(captured) = invocation.captured else {
            return Vec::new();
        };
        let mut codes = Vec::new();
        if invocation.signal_aborted {
            codes.push(Code::ExecutionAborted);
        }
        if state.bindings[capability].live != Some(captured.binding) {
            codes.push(Code::CapabilityUnbound);
        }
        if self.context_changed(state, slot) {
            codes.push(Code::PolicyDenied);
        }
        if !state.available[capability] {
            codes.push(Code::CapabilityUnavailable);
        }
        codes
    }

    fn context_changed(&self, state: &RuntimeState, slot: Slot) -> bool {
        let Some(captured) = state.invocations[slot].captured else {
            return false;
        };
        match self.model.context_comparison {
            ContextComparison::ByValue => state.context != captured.context,
            ContextComparison::AnyEffectiveChange => state.context_epoch != captured.context_epoch,
        }
    }

    fn shape_of(&self, outcome: Outcome, slot: Slot) -> Shape {
        match outcome {
            Outcome::Succeeded => Shape::Succeeded,
            Outcome::ConfirmationRequired => {
                let ttl = self.timing.ttl_ms;
                let mut instants = vec![self.now_ms + ttl];
                if let Some(&invoked) = self.invoked_ms.get(&slot) {
                    push_unique_u64(&mut instants, invoked + ttl);
                }
                Shape::Confirmation(instants)
            }
            Outcome::Failed(code) | Outcome::Denied(code) => Shape::Error(code),
        }
    }

    /// The outcome of `client.invoke` for `slot`, settled by `action` from `before`.
    fn allowed_invoke(
        &self,
        before: &RuntimeState,
        action: Action,
        slot: Slot,
        outcome: Outcome,
    ) -> Allowed {
        let model_shape = self.shape_of(outcome, slot);
        let mut allowed = Allowed {
            required: vec![model_shape],
            recommended: None,
            ids: self.ids_of(slot),
        };
        match action {
            Action::Invoke(_, request) => {
                if request == Request::UndeclaredCapability {
                    allowed.ids = Ids::of(invocation_id(self.model, slot), UNDECLARED.to_string());
                }
                if outcome.code().is_some() {
                    self.invoke_readings(before, slot, request, &mut allowed);
                }
            }
            Action::PolicySettles(_, decision) => {
                self.policy_readings(before, slot, decision, Pass::Initial, &mut allowed)
            }
            Action::HandlerSettles(_, result) => {
                self.handler_readings(&before.invocations[slot], result, &mut allowed)
            }
            _ => {}
        }
        allowed
    }

    /// CL-B03/CL-B04: a rejected `invoke`.
    fn invoke_readings(
        &self,
        before: &RuntimeState,
        slot: Slot,
        request: Request,
        allowed: &mut Allowed,
    ) {
        let capability = self.model.capability_of(slot);
        let reserved = before.reserved.contains(&self.model.id_of(slot));
        let aborted = before.invocations[slot].signal_aborted;
        let b03 = if request == Request::UndeclaredCapability {
            Some(Code::CapabilityNotFound)
        } else if before.bindings[capability].live.is_none() {
            Some(Code::CapabilityUnbound)
        } else if !before.available[capability] {
            Some(Code::CapabilityUnavailable)
        } else if request == Request::InvalidInput {
            Some(Code::InputInvalid)
        } else {
            None
        };
        let mut required = allowed.required.clone();
        if reserved {
            push_unique(&mut required, Shape::Error(Code::InvocationAlreadyActive));
        }
        if let Some(code) = b03 {
            push_unique(&mut required, Shape::Error(code));
        }
        // PRJ-RCIP-INPUT-01 (IMPL-DEFINED): an input that is not plain JSON (`invalid_input`
        // of every slot but 0) may be refused as the request is captured, before the catalog,
        // binding and availability checks.
        if request == Request::InvalidInput && slot != 0 && b03.is_some_and(|code| code != Code::InputInvalid) {
            push_unique(&mut required, Shape::Error(Code::InputInvalid));
            self.open_points.borrow_mut().insert("PRJ-RCIP-INPUT-01");
        }
        let recommended: Vec<Shape> = required.clone();
        if aborted {
            push_unique(&mut required, Shape::Error(Code::ExecutionAborted));
        }
        if b03.is_some() && required.len() != recommended.len() {
            allowed.recommended = Some(recommended);
        }
        allowed.required = required;
    }

    /// Whether one of the four CL-B03 checks fails for this request.
    fn b03_fails(&self, before: &RuntimeState, slot: Slot, request: Request) -> bool {
        let capability = self.model.capability_of(slot);
        request != Request::Valid
            || before.bindings[capability].live.is_none()
            || !before.available[capability]
    }

    /// CL-B05 and its readings, for a policy settlement of `pass`.
    fn policy_readings(
        &self,
        before: &RuntimeState,
        slot: Slot,
        decision: Decision,
        pass: Pass,
        allowed: &mut Allowed,
    ) {
        let failing = self.rechecks_failing(before, slot);
        if failing.is_empty() {
            if (decision, pass) == (Decision::Confirm, Pass::Confirmed) {
                // CL-B07-5 only RECOMMENDS POLICY_DENIED for `confirm` on the confirmed pass;
                // REQUIRED is only that the handler does not run without an `allow`, which a
                // failed POLICY_EVALUATION_FAILED (an answer the pass cannot use) also keeps, and
                // so does asking again: a new confirmation (issue 26). The readings part there
                // (a pending confirmation keeps the id reserved), so the case stops after it.
                allowed.recommended = Some(allowed.required.clone());
                push_unique(
                    &mut allowed.required,
                    Shape::Error(Code::PolicyEvaluationFailed),
                );
                push_unique(&mut allowed.required, Shape::Confirmation(Vec::new()));
                self.parts_after.set(true);
            }
            return;
        }
        // RCIP-LIFE-POLICY-04/05 and CL-B05-1: after awaiting policy the runtime rechecks, and
        // a failing recheck decides an `allow` or a `confirm`; which of several failing rechecks
        // answers first is RECOMMENDED (CL-B05-3). A refusing answer (deny, throw) may also be
        // reported as itself (PRJ-RCIP-POLICY-01, IMPL-DEFINED): no sentence orders it against
        // the rechecks, and the handler does not run either way.
        let mut required = allowed.required.clone();
        let mut recommended = allowed.required.clone();
        for code in &failing {
            push_unique(&mut required, Shape::Error(*code));
        }
        let own = match decision {
            Decision::Deny => Some(Code::PolicyDenied),
            Decision::Throw => Some(Code::PolicyEvaluationFailed),
            Decision::Allow | Decision::Confirm => None,
        };
        if let Some(code) = own {
            push_unique(&mut required, Shape::Error(code));
            push_unique(&mut recommended, Shape::Error(code));
            self.open_points.borrow_mut().insert("PRJ-RCIP-POLICY-01");
        }
        if recommended.len() != required.len() {
            allowed.recommended = Some(recommended);
        }
        allowed.required = required;
    }

    /// The outcome of a resolution of `slot`'s confirmation, settled by `action` from `before`;
    /// `own` when the resolution settled at its own call.
    fn allowed_resolution(
        &self,
        before: &RuntimeState,
        action: Action,
        slot: Slot,
        outcome: Outcome,
        own: bool,
    ) -> Allowed {
        let model_shape = self.shape_of(outcome, slot);
        let mut allowed = Allowed {
            required: vec![model_shape.clone()],
            recommended: None,
            ids: self.ids_of(slot),
        };
        let invocation = &before.invocations[slot];
        match action {
            Action::Approve(_) | Action::Decline(_) if own => match invocation.confirmation {
                Confirmation::Pending { .. } => {
                    if matches!(action, Action::Approve(_)) {
                        self.approval_readings(before, slot, &mut allowed);
                    }
                }
                Confirmation::Receipt {
                    kind,
                    fate: ReceiptFate::Returned,
                } => {
                    allowed.ids = Ids::anonymous();
                    let again = match kind {
                        ReceiptKind::Expired => Code::ConfirmationExpired,
                        ReceiptKind::Cancelled => Code::ExecutionAborted,
                    };
                    allowed.recommended = Some(vec![model_shape]);
                    push_unique(&mut allowed.required, Shape::Error(again));
                }
                _ => allowed.ids = Ids::anonymous(),
            },
            Action::PolicySettles(_, decision) => {
                self.policy_readings(before, slot, decision, Pass::Confirmed, &mut allowed)
            }
            Action::HandlerSettles(_, result) => {
                self.handler_readings(invocation, result, &mut allowed)
            }
            _ => {}
        }
        allowed
    }

    /// CL-B07 at approval: which checks may answer first.
    fn approval_readings(&self, before: &RuntimeState, slot: Slot, allowed: &mut Allowed) {
        let capability = self.model.capability_of(slot);
        let Some(captured) = before.invocations[slot].captured else {
            return;
        };
        let live = before.bindings[capability].live;
        if live != Some(captured.binding) || self.context_changed(before, slot) {
            push_unique(&mut allowed.required, Shape::Error(Code::PolicyDenied));
        }
        if !before.available[capability] {
            push_unique(
                &mut allowed.required,
                Shape::Error(Code::CapabilityUnavailable),
            );
        }
    }

    /// CL-B11/CL-B12: an invalid output after an abort.
    fn handler_readings(
        &self,
        invocation: &Invocation,
        result: HandlerResult,
        allowed: &mut Allowed,
    ) {
        if result == HandlerResult::InvalidOutput && invocation.signal_aborted {
            push_unique(&mut allowed.required, Shape::Error(Code::ExecutionAborted));
        }
    }

    /// Applies one action: its steps, the bookkeeping of calls and handles, then the
    /// expectations the model's next state gives.
    fn apply(&mut self, before: &RuntimeState, action: Action, after: &RuntimeState) {
        let steps = self.action_steps(before, action);
        self.steps.extend(steps);
        if action == Action::AdvanceClock {
            self.now_ms += self.timing.tick_ms;
        }
        if matches!(
            action,
            Action::PolicySettles(_, Decision::Throw)
                | Action::HandlerSettles(_, HandlerResult::Throw)
        ) {
            self.thrown = true;
        }
        if let Action::SetContext(context) = action {
            if context != before.context {
                for (slot, invocation) in before.invocations.iter().enumerate() {
                    if invocation.captured.is_some() && invocation.phase != Phase::Settled {
                        self.context_touched.insert(slot);
                    }
                }
            }
        }
        self.settled.clear();
        let mut new_handles = Vec::new();
        for slot in 0..after.invocations.len() {
            let (was, now) = (&before.invocations[slot], &after.invocations[slot]);
            if let Action::Invoke(s, _) = action {
                if s == slot {
                    new_handles.push(format!("i{slot}"));
                    self.invoked_ms.insert(slot, self.now_ms);
                    self.context_touched.remove(&slot);
                }
            }
            if now.policy_calls > was.policy_calls {
                let confirmed = matches!(
                    now.phase,
                    Phase::AwaitingPolicy {
                        pass: Pass::Confirmed
                    }
                );
                let (capability, input) = (
                    capability_id(self.model.capability_of(slot)),
                    valid_input(slot),
                );
                self.policy_records.push(json!({
                    "capabilityId": capability, "input": input,
                    "semanticContext": context_pattern(after.context), "confirmed": confirmed
                }));
                self.policy_call_of
                    .insert(slot, self.policy_records.len() as u32);
            }
            if now.handler_starts > was.handler_starts {
                self.handler_records.push(json!({
                    "capabilityId": capability_id(self.model.capability_of(slot)), "input": valid_input(slot),
                    "invocationId": invocation_id(self.model, slot), "semanticContext": context_pattern(after.context)
                }));
                self.handler_call_of
                    .insert(slot, self.handler_records.len() as u32);
            }
            if was.invoke_outcome.is_none() {
                if let Some(outcome) = now.invoke_outcome {
                    if outcome == Outcome::ConfirmationRequired {
                        self.decided_ms.insert(slot, self.now_ms);
                        self.confirmations += 1;
                    }
                    if let Action::Invoke(_, request) = action {
                        if outcome == Outcome::error(Code::ExecutionAborted)
                            && !self.b03_fails(before, slot, request)
                        {
                            self.policy_calls_recommended = true;
                        }
                    }
                    let allowed = self.allowed_invoke(before, action, slot, outcome);
                    self.settled.insert(format!("i{slot}"), allowed);
                }
            }
            let own_call = matches!(action, Action::Approve(s) | Action::Decline(s) if s == slot);
            if own_call {
                new_handles.push(format!("r{slot}-{}", now.resolve_calls));
            }
            for outcome in now.resolutions.iter().skip(was.resolutions.len()).copied() {
                let (name, own) = if own_call {
                    (format!("r{slot}-{}", now.resolve_calls), true)
                } else {
                    (self.approving.remove(&slot).unwrap_or_default(), false)
                };
                let allowed = self.allowed_resolution(before, action, slot, outcome, own);
                self.settled.insert(name, allowed);
            }
            if own_call && now.resolutions.len() == was.resolutions.len() {
                self.approving
                    .insert(slot, format!("r{slot}-{}", now.resolve_calls));
            }
        }
        for name in new_handles {
            self.handles.push(Handle { name, done: false });
        }
        self.expectations(after);
        let bump = match action {
            Action::Bind(_) | Action::Rebind(_) => Some("CL-B15-1"),
            Action::Unbind(capability) if before.bindings[capability].live.is_some() => {
                Some("CL-B15-2")
            }
            _ => None,
        }
        .or_else(|| {
            self.settled
                .values()
                .any(|allowed| allowed.required == [Shape::Succeeded])
                .then_some("CL-B15-4")
        });
        self.observe_snapshot(bump);
    }

    fn expectations(&mut self, after: &RuntimeState) {
        for handle in self.handles.iter_mut().filter(|h| !h.done) {
            match self.settled.get(&handle.name) {
                Some(allowed) => {
                    handle.done = true;
                    self.steps.push(expect_outcome(
                        &handle.name,
                        pattern(&allowed.required, &allowed.ids),
                    ));
                    if let Some(recommended) = &allowed.recommended {
                        self.steps.push(with(
                            expect_outcome(&handle.name, pattern(recommended, &allowed.ids)),
                            "strictness",
                            json!(Strictness::Recommended.as_str()),
                        ));
                    }
                    // CL-B02-2: no message carries the text a policy or handler threw.
                    if self.thrown {
                        self.steps.push(json!({
                            "expect": "outcome-text", "of": handle.name, "is": excludes(HOST_ERROR_TEXT),
                            "requirements": ["CL-B02-2", "RCIP-PROTO-OUT-03"]
                        }));
                    }
                }
                None => self
                    .steps
                    .push(expect_outcome(&handle.name, json!("pending"))),
            }
        }
        let mut policy_calls = json!({ "expect": "policy-calls", "is": self.policy_records });
        if self.policy_calls_recommended {
            policy_calls = with(
                policy_calls,
                "strictness",
                json!(Strictness::Recommended.as_str()),
            );
        }
        self.steps.push(policy_calls);
        self.steps
            .push(json!({ "expect": "handler-calls", "is": self.handler_records }));
        for (slot, invocation) in after.invocations.iter().enumerate() {
            if matches!(invocation.phase, Phase::HandlerRunning { .. }) {
                if let Some(&call) = self.handler_call_of.get(&slot) {
                    self.steps.push(json!({ "expect": "handler-signal", "call": call, "is": invocation.signal_aborted }));
                }
            }
        }
    }
}

fn push_unique_u64(values: &mut Vec<u64>, value: u64) {
    if !values.contains(&value) {
        values.push(value);
    }
}

/// Translates the path `actions` from initial state `init` of `model` into a case with id
/// `id`, carrying every unrelated host feature (`HostFeatures::ALL`). Actions that are not
/// enabled end the path (a path from `walk` or `cover` never has one).
pub fn translate_with(
    model: &InvocationModel,
    init: usize,
    actions: &[Action],
    id: &str,
    description: &str,
    requirements: Vec<String>,
    provenance: Provenance,
) -> Translation {
    translate_timed(
        model,
        Timing::standard(model),
        HostFeatures::ALL,
        init,
        actions,
        id,
        description,
        requirements,
        provenance,
    )
}

/// [`translate_with`] at a given timing, with the given host features.
#[allow(clippy::too_many_arguments)]
pub fn translate_timed(
    model: &InvocationModel,
    timing: Timing,
    features: HostFeatures,
    init: usize,
    actions: &[Action],
    id: &str,
    description: &str,
    requirements: Vec<String>,
    provenance: Provenance,
) -> Translation {
    let mut translator = Translator::new(model, timing, features);
    let mut truncated_at = None;
    let Some(mut state) = model.init_states().into_iter().nth(init) else {
        return Translation {
            case: Case::new(id, description),
            truncated_at: Some(0),
        };
    };
    translator.preamble(&state);
    // Issue 27 §3: each observation cites the ids of the transition it follows that decide it.
    let mut citer = crate::step_ids::PathCiter::default();
    let case_strictness = Strictness::Required.as_str();
    citer.cite(&mut translator.steps, case_strictness);
    for (index, &action) in actions.iter().enumerate() {
        if translator.readings_part(&state, action) {
            truncated_at = Some(index);
            break;
        }
        let Some(next) = model.next_state(&state, action) else {
            truncated_at = Some(index);
            break;
        };
        let from = translator.steps.len();
        translator.apply(&state, action, &next);
        citer.transition(&requirements_of(model, &state, action));
        citer.cite(&mut translator.steps[from..], case_strictness);
        state = next;
        if translator.parts_after.take() && index + 1 < actions.len() {
            truncated_at = Some(index + 1);
            break;
        }
    }
    let mut cited: Vec<&str> = requirements.iter().map(String::as_str).collect();
    for open_point in translator.open_points.borrow().iter() {
        if !cited.contains(open_point) {
            cited.push(open_point);
        }
    }
    for id in &citer.cited {
        if !cited.contains(&id.as_str()) {
            cited.push(id);
        }
    }
    let mut case = crate::cases::rcip::support::listener_errors_may_surface(Case::new(id, description)
        .requirements(&cited)
        .setup(setup(model, timing))
        .steps(translator.steps))
        .provenance(provenance);
    if let Some(index) = truncated_at {
        case = case.notes(format!(
            "The model path continues after action {index}, where readings the spec allows part; the case stops there."
        ));
    }
    Translation { case, truncated_at }
}

/// The differential test's translation: the first choice picks a configuration of
/// `differential_models()`, the rest is walked (`model::visit::walk`) in it.
pub fn translate_choices(choices: &[u32]) -> Option<Case> {
    let models = differential_models();
    let (&first, rest) = choices.split_first()?;
    let model = &models[first as usize % models.len()];
    let (init, path) = walk(model, rest);
    if path.is_empty() {
        return None;
    }
    let provenance = Provenance {
        kind: "proptest",
        by: describe_model(model),
        seed: None,
        path: path.iter().map(|a| format!("{a:?}")).collect(),
    };
    let requirements = path_requirements(model, init, &path);
    Some(
        translate_timed(
            model,
            Timing::standard(model),
            HostFeatures::drawn(&HostFeatures::seed_of_choices(choices)),
            init,
            &path,
            &format!("{SECTION}.differential.001"),
            "A random model path",
            requirements,
            provenance,
        )
        .case,
    )
}

/// The configurations `conformance fuzz` draws from (the first choice picks one): the
/// differential ones at the standard timing, and the third of them (three requests, a two-tick
/// TTL, two ticks) at `Timing::long_ticks`, where the TTL passes 2^32 ms and the expiring tick
/// lands 1 ms after `expiresAt`. Kept apart from `differential_models`, whose order the committed
/// regressions replay.
pub fn fuzz_configurations() -> Vec<(InvocationModel, Timing)> {
    let mut configurations: Vec<(InvocationModel, Timing)> = differential_models()
        .into_iter()
        .map(|model| {
            let timing = Timing::standard(&model);
            (model, timing)
        })
        .collect();
    let long = differential_models().swap_remove(2);
    let timing = Timing::long_ticks(&long);
    configurations.push((long, timing));
    configurations
}

/// The fuzzer's translation: as [`translate_choices`], over `fuzz_configurations()`.
pub fn translate_fuzz_choices(choices: &[u32]) -> Option<Case> {
    let configurations = fuzz_configurations();
    let (&first, rest) = choices.split_first()?;
    let (model, timing) = &configurations[first as usize % configurations.len()];
    let (init, path) = walk(model, rest);
    if path.is_empty() {
        return None;
    }
    let mut by = describe_model(model);
    if *timing != Timing::standard(model) {
        by.push_str(&format!(
            ", ticks of {} ms, TTL {} ms",
            timing.tick_ms, timing.ttl_ms
        ));
    }
    let provenance = Provenance {
        kind: "proptest",
        by,
        seed: None,
        path: path.iter().map(|a| format!("{a:?}")).collect(),
    };
    let requirements = path_requirements(model, init, &path);
    Some(
        translate_timed(
            model,
            *timing,
            HostFeatures::drawn(&HostFeatures::seed_of_choices(choices)),
            init,
            &path,
            &format!("{SECTION}.differential.001"),
            "A random model path",
            requirements,
            provenance,
        )
        .case,
    )
}

// ---------------------------------------------------------------------------------------------
// Coverage
// ---------------------------------------------------------------------------------------------

/// The transition classes, codes and finishing actions of the invocation model at one
/// configuration (the one `cover` walks).
pub struct InvocationCoverage {
    pub model: InvocationModel,
}

fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::NotInvoked => "not-invoked",
        Phase::AwaitingPolicy {
            pass: Pass::Initial,
        } => "policy",
        Phase::AwaitingPolicy {
            pass: Pass::Confirmed,
        } => "confirmed-policy",
        Phase::AwaitingConfirmation => "confirmation-pending",
        Phase::HandlerRunning {
            pass: Pass::Initial,
        } => "handler",
        Phase::HandlerRunning {
            pass: Pass::Confirmed,
        } => "confirmed-handler",
        Phase::Settled => "settled",
    }
}

/// The phases of the invocations a host change can still reach, or `idle`.
fn in_flight_summary(state: &RuntimeState) -> String {
    let phases: BTreeSet<&str> = state
        .invocations
        .iter()
        .filter(|i| i.in_flight())
        .map(|i| phase_name(i.phase))
        .collect();
    if phases.is_empty() {
        "idle".to_string()
    } else {
        phases.into_iter().collect::<Vec<_>>().join("+")
    }
}

fn facts(model: &InvocationModel, state: &RuntimeState, slot: Slot) -> String {
    let invocation = &state.invocations[slot];
    let capability = model.capability_of(slot);
    let mut facts = Vec::new();
    if invocation.signal_aborted {
        facts.push("aborted");
    }
    if let Some(captured) = invocation.captured {
        match state.bindings[capability].live {
            None => facts.push("unbound"),
            Some(identity) if identity != captured.binding => facts.push("rebound"),
            _ => {}
        }
        let changed = match model.context_comparison {
            ContextComparison::ByValue => state.context != captured.context,
            ContextComparison::AnyEffectiveChange => state.context_epoch != captured.context_epoch,
        };
        if changed {
            facts.push("context-changed");
        }
    }
    if !state.available[capability] {
        facts.push("unavailable");
    }
    if facts.is_empty() {
        "unchanged".to_string()
    } else {
        facts.join("+")
    }
}

fn confirmation_name(confirmation: Confirmation) -> &'static str {
    match confirmation {
        Confirmation::NotIssued => "not-issued",
        Confirmation::Pending { .. } => "pending",
        Confirmation::Approved => "approved",
        Confirmation::Declined => "declined",
        Confirmation::Receipt {
            kind: ReceiptKind::Expired,
            fate: ReceiptFate::Retained,
        } => "expiry-receipt",
        Confirmation::Receipt {
            kind: ReceiptKind::Cancelled,
            fate: ReceiptFate::Retained,
        } => "cancellation-receipt",
        Confirmation::Receipt {
            fate: ReceiptFate::Returned,
            ..
        } => "receipt-returned",
        Confirmation::Receipt {
            fate: ReceiptFate::Evicted,
            ..
        } => "receipt-evicted",
    }
}

/// The transition class of `action` in `state` for `model`: the action kind and the state facts
/// the spec distinguishes for it.
pub fn class_of(model: &InvocationModel, state: &RuntimeState, action: Action) -> String {
    match action {
        Action::Invoke(slot, request) => {
            let capability = model.capability_of(slot);
            format!(
                "invoke-{}@{}/{}/{}/{}",
                match request {
                    Request::Valid => "valid",
                    Request::InvalidInput => "invalid-input",
                    Request::UndeclaredCapability => "undeclared",
                },
                if state.reserved.contains(&model.id_of(slot)) {
                    "id-reserved"
                } else {
                    "id-free"
                },
                if state.bindings[capability].live.is_some() {
                    "bound"
                } else {
                    "unbound"
                },
                if state.available[capability] {
                    "available"
                } else {
                    "unavailable"
                },
                if state.invocations[slot].signal_aborted {
                    "signal-aborted"
                } else {
                    "signal-live"
                },
            )
        }
        Action::PolicySettles(slot, decision) => format!(
            "policy-{}@{}/{}",
            match decision {
                Decision::Allow => "allow",
                Decision::Deny => "deny",
                Decision::Confirm => "confirm",
                Decision::Throw => "throw",
            },
            phase_name(state.invocations[slot].phase),
            facts(model, state, slot)
        ),
        Action::HandlerSettles(slot, result) => format!(
            "handler-{}@{}/{}",
            match result {
                HandlerResult::Output => "output",
                HandlerResult::InvalidOutput => "invalid-output",
                HandlerResult::Throw => "throw",
            },
            phase_name(state.invocations[slot].phase),
            if state.invocations[slot].signal_aborted {
                "signal-aborted"
            } else {
                "signal-live"
            }
        ),
        Action::Abort(slot) => format!("abort@{}", phase_name(state.invocations[slot].phase)),
        Action::Approve(slot) | Action::Decline(slot) => {
            let confirmation = state.invocations[slot].confirmation;
            let verb = if matches!(action, Action::Approve(_)) {
                "approve"
            } else {
                "decline"
            };
            match confirmation {
                Confirmation::Pending { .. } if verb == "approve" => {
                    format!("approve@pending/{}", facts(model, state, slot))
                }
                _ => format!("{verb}@{}", confirmation_name(confirmation)),
            }
        }
        Action::AdvanceClock => {
            let expiring = state.invocations.iter().any(|i| matches!(i.confirmation, Confirmation::Pending { ticks_left } if ticks_left <= 1));
            format!(
                "advance-clock@{}",
                if expiring { "expires" } else { "ticks" }
            )
        }
        Action::Bind(_) => format!("bind@{}", in_flight_summary(state)),
        Action::Unbind(_) => format!("unbind@{}", in_flight_summary(state)),
        Action::Rebind(_) => format!("rebind@{}", in_flight_summary(state)),
        Action::SetContext(context) => format!(
            "set-context-{}@{}",
            if context == state.context {
                "identical"
            } else {
                "changed"
            },
            in_flight_summary(state)
        ),
        Action::LoseAvailability(_) => format!("lose-availability@{}", in_flight_summary(state)),
        Action::RestoreAvailability(_) => {
            format!("restore-availability@{}", in_flight_summary(state))
        }
    }
}

/// The register ids a transition exercises.
pub fn requirements_of(
    model: &InvocationModel,
    state: &RuntimeState,
    action: Action,
) -> Vec<&'static str> {
    let mut ids = vec!["CL-B02-1"];
    match action {
        Action::Invoke(slot, request) => {
            ids.extend(["CL-B03-1", "RCIP-PROTO-LIFE-01"]);
            if state.reserved.contains(&model.id_of(slot)) {
                ids.extend(["CL-B04-1", "CL-B04-3", "CL-B04-4", "RCIP-LIFE-POLICY-02"]);
            } else if state.invocations.iter().any(|i| i.captured.is_some())
                && model.ids == IdAssignment::Shared
            {
                ids.extend(["CL-B04-5", "RCIP-LIFE-POLICY-03"]);
            }
            if state.invocations[slot].signal_aborted {
                ids.push("CL-B03-2");
            }
            match request {
                Request::InvalidInput => ids.extend(["RCIP-PROTO-LIFE-04", "CL-B13-3"]),
                Request::UndeclaredCapability => {}
                Request::Valid => ids.extend([
                    "RCIP-PROTO-LIFE-02",
                    "RCIP-PROTO-LIFE-03",
                    "RCIP-LIFE-POLICY-01",
                ]),
            }
        }
        Action::PolicySettles(slot, decision) => {
            ids.extend(["CL-B05-1", "RCIP-LIFE-POLICY-04", "RCIP-PROTO-LIFE-05"]);
            let facts = facts(model, state, slot);
            if facts != "unchanged" {
                ids.extend(["CL-B05-2", "RCIP-PROTO-LIFE-13"]);
                if facts.contains('+') {
                    ids.push("CL-B05-3");
                }
                if facts.contains("unbound") || facts.contains("rebound") {
                    ids.push("RCIP-LIFE-POLICY-05");
                }
                if facts.contains("context") {
                    ids.extend(["RCIP-LIFE-POLICY-06", "CL-B06-1"]);
                }
                if facts.contains("unavailable") {
                    ids.push("RCIP-LIFE-POLICY-07");
                }
            }
            if matches!(
                state.invocations[slot].phase,
                Phase::AwaitingPolicy {
                    pass: Pass::Confirmed
                }
            ) {
                ids.extend(["CL-B07-3", "RCIP-PROTO-LIFE-06"]);
                if decision == Decision::Confirm {
                    ids.push("CL-B07-5");
                }
            }
            match decision {
                Decision::Throw => ids.push("CL-B12-3"),
                Decision::Allow => ids.push("RCIP-PROTO-LIFE-07"),
                Decision::Confirm => ids.push("RCIP-LIFE-CONF-01"),
                Decision::Deny => {}
            }
        }
        Action::HandlerSettles(slot, result) => {
            ids.extend(["CL-B12-4", "RCIP-PROTO-LIFE-08", "RCIP-PROTO-LIFE-09"]);
            let aborted = state.invocations[slot].signal_aborted;
            match result {
                HandlerResult::Output if aborted => ids.extend(["CL-B11-4", "RCIP-LIFE-CANCEL-08"]),
                HandlerResult::Output => {}
                HandlerResult::InvalidOutput => ids.push("CL-B12-1"),
                HandlerResult::Throw if aborted => ids.extend(["CL-B11-5", "RCIP-LIFE-CANCEL-09"]),
                HandlerResult::Throw => ids.push("CL-B12-2"),
            }
        }
        Action::Abort(slot) => match state.invocations[slot].phase {
            // Nothing was invoked: no host callback runs (invoke is what asks the host to run one).
            Phase::NotInvoked => ids.extend(["CL-B03-2", "RCIP-PROTO-SURF-05"]),
            Phase::AwaitingPolicy { .. } => {
                ids.extend(["CL-B11-1", "CL-B11-2", "CL-B11-3", "RCIP-LIFE-CANCEL-02"])
            }
            Phase::AwaitingConfirmation => ids.extend(["CL-B09-1", "RCIP-LIFE-CONF-06"]),
            Phase::HandlerRunning { .. } => {
                ids.extend(["RCIP-PROTO-LIFE-07", "RCIP-LIFE-CANCEL-07"])
            }
            Phase::Settled => {}
        },
        Action::Approve(slot) | Action::Decline(slot) => match state.invocations[slot].confirmation
        {
            Confirmation::Pending { .. } if matches!(action, Action::Decline(_)) => {
                ids.push("CL-B07-2")
            }
            Confirmation::Pending { .. } => {
                ids.extend(["CL-B07-3", "RCIP-LIFE-CONF-03", "RCIP-PROTO-LIFE-06"]);
                let facts = facts(model, state, slot);
                if facts.contains("bound") || facts.contains("context") {
                    ids.extend(["CL-B07-4", "RCIP-LIFE-CONF-04"]);
                }
                if facts.contains("unbound") {
                    ids.push("PRJ-RCIP-CONF-01");
                }
            }
            Confirmation::Approved | Confirmation::Declined => {
                ids.extend(["CL-B07-1", "RCIP-LIFE-CONF-02", "CL-B10-4"])
            }
            Confirmation::Receipt {
                kind: ReceiptKind::Expired,
                fate: ReceiptFate::Retained,
            } => ids.push("CL-B08-3"),
            Confirmation::Receipt {
                kind: ReceiptKind::Cancelled,
                fate: ReceiptFate::Retained,
            } => ids.push("CL-B09-2"),
            Confirmation::Receipt { .. } => ids.push("CL-B10-3"),
            Confirmation::NotIssued => {}
        },
        Action::AdvanceClock => ids.extend([
            "CL-B08-1",
            "CL-B08-2",
            "RCIP-LIFE-CONF-06",
            "PRJ-RCIP-CONF-02",
        ]),
        Action::Bind(_) | Action::Unbind(_) | Action::Rebind(_) => {
            ids.extend(["CL-B20-1", "RCIP-PROTO-LIFE-13"])
        }
        Action::SetContext(context) => {
            ids.push("CL-B06-1");
            if context == state.context {
                ids.push("CL-B06-2");
            }
        }
        Action::LoseAvailability(_) | Action::RestoreAvailability(_) => {
            ids.extend(["RCIP-PROTO-LIFE-03", "RCIP-LIFE-CONF-03"])
        }
    }
    ids
}

/// The register ids a CL-B01 code's witness exercises.
fn code_requirements(code: &str) -> Vec<&'static str> {
    let mut ids = vec!["CL-B01-1", "CL-B02-1"];
    ids.push(
        if code == "POLICY_DENIED" || code == "CONFIRMATION_DECLINED" {
            "CL-B01-2"
        } else {
            "CL-B01-3"
        },
    );
    ids.extend(match code {
        "INVOCATION_ALREADY_ACTIVE" => vec!["CL-B04-3"],
        "CAPABILITY_NOT_FOUND"
        | "CAPABILITY_UNBOUND"
        | "CAPABILITY_UNAVAILABLE"
        | "INPUT_INVALID" => vec!["CL-B03-1"],
        "POLICY_EVALUATION_FAILED" => vec!["CL-B12-3"],
        "POLICY_DENIED" => vec!["RCIP-PROTO-LIFE-05"],
        "CONFIRMATION_DECLINED" => vec!["CL-B07-2"],
        "CONFIRMATION_EXPIRED" => vec!["CL-B08-3"],
        "CONFIRMATION_NOT_FOUND" => vec!["CL-B07-1"],
        "EXECUTION_ABORTED" => vec!["CL-B11-1"],
        "EXECUTION_FAILED" => vec!["CL-B12-2"],
        "OUTPUT_INVALID" => vec!["CL-B12-1"],
        _ => vec![],
    });
    ids
}

/// Every requirement the actions of a path exercise (for cases not chosen for one target).
fn path_requirements(model: &InvocationModel, init: usize, path: &[Action]) -> Vec<String> {
    let mut ids = BTreeSet::new();
    let Some(mut state) = model.init_states().into_iter().nth(init) else {
        return Vec::new();
    };
    for &action in path {
        ids.extend(requirements_of(model, &state, action));
        match model.next_state(&state, action) {
            Some(next) => state = next,
            None => break,
        }
    }
    ids.into_iter().map(str::to_string).collect()
}

fn codes_of(state: &RuntimeState) -> Vec<String> {
    let codes: BTreeSet<&str> = state
        .invocations
        .iter()
        .flat_map(|i| i.invoke_outcome.iter().chain(i.resolutions.iter()))
        .filter_map(|o| o.code())
        .map(Code::as_str)
        .collect();
    codes.into_iter().map(str::to_string).collect()
}

impl Coverage<InvocationModel> for InvocationCoverage {
    /// Every transition of the model is expressible in the vocabulary (see the module text), so
    /// no class is `None`.
    fn transition_class(&self, state: &RuntimeState, action: &Action) -> Option<String> {
        Some(class_of(&self.model, state, *action))
    }

    fn codes(&self, state: &RuntimeState) -> Vec<String> {
        codes_of(state)
    }

    fn all_codes(&self) -> Vec<String> {
        Code::ALL.iter().map(|c| c.as_str().to_string()).collect()
    }

    /// Settle everything in flight: policy allows, handlers return, pending confirmations are
    /// declined, until nothing is in flight.
    fn finish(&self, model: &InvocationModel, state: &RuntimeState) -> Vec<Action> {
        finish(model, state)
    }
}

/// The actions that settle every invocation in flight.
pub fn finish(model: &InvocationModel, state: &RuntimeState) -> Vec<Action> {
    let mut state = state.clone();
    let mut actions = Vec::new();
    for _ in 0..4 * state.invocations.len() + 4 {
        let mut enabled = Vec::new();
        model.actions(&state, &mut enabled);
        let next = state
            .invocations
            .iter()
            .enumerate()
            .find_map(|(slot, invocation)| match invocation.phase {
                Phase::AwaitingPolicy { .. } => enabled
                    .iter()
                    .copied()
                    .find(|a| *a == Action::PolicySettles(slot, Decision::Allow))
                    .or_else(|| {
                        enabled
                            .iter()
                            .copied()
                            .find(|a| matches!(a, Action::PolicySettles(s, _) if *s == slot))
                    }),
                Phase::HandlerRunning { .. } => enabled
                    .iter()
                    .copied()
                    .find(|a| *a == Action::HandlerSettles(slot, HandlerResult::Output))
                    .or_else(|| {
                        enabled
                            .iter()
                            .copied()
                            .find(|a| matches!(a, Action::HandlerSettles(s, _) if *s == slot))
                    }),
                Phase::AwaitingConfirmation => enabled
                    .iter()
                    .copied()
                    .find(|a| *a == Action::Decline(slot)),
                _ => None,
            });
        let Some(action) = next else { break };
        let Some(after) = model.next_state(&state, action) else {
            break;
        };
        actions.push(action);
        state = after;
    }
    actions
}

// ---------------------------------------------------------------------------------------------
// The generated section
// ---------------------------------------------------------------------------------------------

/// `[a-z0-9]+(-[a-z0-9]+)*` from a class or code name.
pub fn slugify(text: &str) -> String {
    let mut slug = String::new();
    for ch in text.chars() {
        if ch.is_ascii_alphanumeric() {
            slug.push(ch.to_ascii_lowercase());
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    slug.trim_end_matches('-').to_string()
}

fn short(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        text.to_string()
    } else {
        text.chars()
            .take(limit.saturating_sub(3))
            .collect::<String>()
            + "..."
    }
}

fn provenance(
    model: &InvocationModel,
    path: &[Action],
    kind: &'static str,
    seed: Option<String>,
) -> Provenance {
    Provenance {
        kind,
        by: describe_model(model),
        seed,
        path: path.iter().map(|a| format!("{a:?}")).collect(),
    }
}

/// The cases chosen by `cover` at the generation configuration, one per target, with the
/// certificate.
pub fn generated_cases() -> (Vec<Case>, model::visit::Certificate, Vec<Option<usize>>) {
    let model = generation_model();
    let (paths, certificate) = cover(
        "invocation",
        &model,
        &InvocationCoverage {
            model: model.clone(),
        },
        MAX_STATES,
    );
    let mut cases = Vec::new();
    let mut truncations = Vec::new();
    let mut used = BTreeSet::new();
    for path in &paths {
        let (requirements, description) = match path.target.strip_prefix("code:") {
            Some(code) => (
                code_requirements(code),
                format!("Model path reaching {code}"),
            ),
            None => {
                let mut state = model.init_states().into_iter().nth(path.init);
                let mut requirements = Vec::new();
                // The target transition is the first action taken in its class.
                for &action in &path.actions {
                    let Some(current) = state else { break };
                    if class_of(&model, &current, action) == path.target {
                        requirements = requirements_of(&model, &current, action);
                        break;
                    }
                    state = model.next_state(&current, action);
                }
                (requirements, format!("Model: {}", path.target))
            }
        };
        let mut slug = slugify(&path.target);
        let mut serial = 1;
        while !used.insert(format!("{slug}.{serial:03}")) {
            serial += 1;
        }
        slug = format!("{slug}.{serial:03}");
        let id = format!("{SECTION}.{slug}");
        let translation = translate_timed(
            &model,
            Timing::standard(&model),
            HostFeatures::drawn(&id),
            path.init,
            &path.actions,
            &id,
            &short(&description, 70),
            requirements.into_iter().map(str::to_string).collect(),
            provenance(&model, &path.actions, "model", None),
        );
        truncations.push(translation.truncated_at);
        cases.push(translation.case);
    }
    (cases, certificate, truncations)
}

/// One case per committed regression (`suites/regressions/invocation.json`), replayed through
/// `translate_choices` as the differential test ran it; ids from a hash of the choices.
pub fn regression_cases() -> Result<Vec<Case>, String> {
    let models = differential_models();
    let mut cases = Vec::new();
    for regression in load_regressions(&regressions_dir(), "invocation")? {
        let Some((&first, rest)) = regression.choices.split_first() else {
            continue;
        };
        let model = &models[first as usize % models.len()];
        let (init, path) = walk(model, rest);
        if path.is_empty() {
            continue;
        }
        let id = format!("{SECTION}.{}.001", regression.slug());
        let requirements = path_requirements(model, init, &path);
        let description = regression.description();
        let translation = translate_timed(
            model,
            Timing::standard(model),
            HostFeatures::drawn(&id),
            init,
            &path,
            &id,
            &description,
            requirements,
            provenance(model, &path, "proptest", Some(regression.seed.clone())),
        );
        let mut case = translation.case;
        regression.annotate(&mut case);
        cases.push(case);
    }
    Ok(cases)
}

pub fn generated() -> Vec<Generated> {
    let (mut cases, certificate, _) = generated_cases();
    match regression_cases() {
        Ok(regressions) => cases.extend(regressions),
        Err(e) => panic!("suites/regressions/invocation.json: {e}"),
    }
    let section = Section::new(
        SECTION,
        "Paths of the invocation model (generated)",
        "suites::cases::from_model::invocation",
    )
    .cases(cases);
    vec![Generated {
        sections: vec![section],
        certificate,
    }]
}
