//! Trace validation against the RCIP invocation model (`model::invocation`, CL-B01..B12,
//! RCIP-PROTO "Invocation lifecycle", RCIP-LIFE "Asynchronous policy and confirmation" and
//! "Cancellation and effects"): keeps the set of model states consistent with the trace so far,
//! advances it by each call, filters it by each observation, and stops at the first record that
//! leaves the set empty (trace validation as in TLA+ practice).
//!
//! How the trace maps onto the model (harness/README.md "Trace validation" says the same):
//! - Each `client.invoke` gets its own model slot, chosen so the slot's capability is the one
//!   invoked; ids are the trace's own (`InvocationModel::slot_ids`). Capabilities start unbound
//!   and every `bind` installs a new binding identity (a bind over a live binding is a rebind).
//! - The checker does not judge schemas: a declared capability's input is valid or invalid, and
//!   a returned handler value a valid or invalid output, whichever the outcomes show (schema
//!   checks are the fixed vectors' job). A policy settlement other than a well-formed
//!   allow/deny/confirm is a throw (CL-B12-3).
//! - Context values are compared as CL-B06-1 says (ordered active scopes and primary scope); the
//!   model's two context values are reassigned to concrete ones whenever no invocation in flight
//!   captured the value being replaced. Three values live at once are outside the model.
//! - Time: each pending confirmation expires when the clock passes its TTL
//!   (`options.confirmationTtlMs`, default 120000, CL-B08-1) counted from the invoke or from the
//!   confirm decision (PRJ-RCIP-CONF-04; a runtime keeps one reading); at exactly that instant
//!   either (CL-B08-4).
//! - Where the texts leave room, every admissible reading is a successor state (the readings the
//!   vector translator `suites/src/cases/from_model/invocation.rs` accepts with `one-of`): id
//!   check before or after the CL-B03 checks; an already-aborted signal in place of a CL-B03 code
//!   (departing from RECOMMENDED CL-B03-2); any code of several changed facts after policy
//!   (CL-B05-3 RECOMMENDED precedence; the own outcome of an allow or a confirm is not
//!   admissible, issue 13, that of a deny or a throw is, PRJ-RCIP-POLICY-01); INPUT_INVALID in
//!   place of a CL-B03 code for an input that may not be plain JSON (PRJ-RCIP-INPUT-01);
//!   POLICY_EVALUATION_FAILED for a `confirm` on the confirmed pass (departing from RECOMMENDED
//!   CL-B07-5); at approval, POLICY_DENIED (changed binding or context, PRJ-RCIP-CONF-01,
//!   CL-B07-4) or CAPABILITY_UNAVAILABLE when both apply; an invalid output after an abort as OUTPUT_INVALID or EXECUTION_ABORTED; an
//!   abort-like throw without abort either way (CL-B11-6); a returned receipt returned again
//!   (departing from RECOMMENDED CL-B10-3); a reordering of the same scopes as a change or not
//!   (CL-B06-3); and both readings of CL-B06 for a context changed and changed back (the caller
//!   runs the checker once per `ContextComparison`).

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use model::invocation::{
    Action, Binding, Code, Confirmation, ContextComparison, Decision, HandlerResult, IdAssignment,
    Invocation, InvocationModel, Outcome, Pass, Phase, ReceiptFate, ReceiptKind, Request,
    RuntimeState, SemanticContext, Slot,
};
use model::stateright::Model;
use serde_json::{json, Value};

use super::format::{Body, Clock, Record, Trace};

/// The most paths kept at once; beyond it the trace is too ambiguous to judge (exit 2).
const MAX_PATHS: usize = 32;

/// CL-B08-1: the default confirmation TTL.
const DEFAULT_TTL_MS: f64 = 120_000.0;

/// Why a trace cannot be judged by this model at all (exit 2, not a verdict).
#[derive(Debug, Clone)]
pub struct OutOfScope {
    pub line: usize,
    pub message: String,
}

/// Where a pending confirmation's TTL is counted from (PRJ-RCIP-CONF-04).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum TtlFrom {
    Invoke,
    Decision,
}

/// What a resolution handle refers to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Resolution {
    /// The `index`-th settled resolution of the slot's confirmation (`None` while pending).
    Of { slot: Slot, index: Option<usize> },
    /// A confirmation id the runtime never issued: CONFIRMATION_NOT_FOUND.
    Unknown,
}

/// How a binding's handler settles: through handler gates, or at once with a fixed settlement.
#[derive(Clone, Debug)]
enum HandlerMode {
    Gated,
    Immediate(Value),
}

/// How the host policy settles (the setup's `options.policy`, vectors/README.md "RCIP setup").
#[derive(Clone, Debug)]
enum PolicyMode {
    /// Through `gate: policy` calls.
    Gated,
    /// At once, with the same settlement for every call.
    Scripted(Value),
    /// At once, from the first rule matching the call's capability and pass.
    ByRequest(Vec<Value>),
    /// No policy option: the default policy, which CL-B22 only RECOMMENDS.
    Default,
}

/// One model state plus what the trace's names and the model's bookkeeping need.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Path {
    rt: RuntimeState,
    /// The policy calls made so far, in call order: which slot and which pass.
    policy_calls: Vec<(Slot, Pass)>,
    /// The handler calls made so far, in call order.
    handler_calls: Vec<Slot>,
    resolutions: BTreeMap<String, Resolution>,
    /// Per slot: how many of its settled resolutions are assigned to handles.
    assigned: BTreeMap<Slot, usize>,
    /// Per slot: the resolution handle waiting for the confirmed pass to settle.
    awaiting: BTreeMap<Slot, String>,
    /// The concrete (canonical) value each of the model's two context values stands for.
    contexts: [Option<String>; 2],
    /// Virtual ms (as integer micro-units) of each slot's accepted invoke and confirm decision.
    invoked_at: BTreeMap<Slot, i64>,
    decided_at: BTreeMap<Slot, i64>,
    ttl_from: Option<TtlFrom>,
    /// RECOMMENDED sentences this path departs from.
    departures: BTreeSet<&'static str>,
}

/// What stays the same on every path: the names of the trace.
struct Names {
    capabilities: Vec<String>,
    /// Invoke handle -> slot.
    invokes: BTreeMap<String, Slot>,
    /// Slot -> invoke handle.
    handles: BTreeMap<Slot, String>,
    /// Binding handle -> (capability, binding identity, handler mode).
    bindings: BTreeMap<String, (usize, u8, HandlerMode)>,
    /// (capability, identity) -> handler mode.
    modes: BTreeMap<(usize, u8), HandlerMode>,
    /// Per record index: the slots an abort call aborts (invoked earlier with that signal).
    abort_targets: BTreeMap<usize, Vec<Slot>>,
    /// Per record index of an invoke: whether its signal was aborted before.
    pre_aborted: BTreeSet<usize>,
    /// Confirmation ids seen in observed outcomes -> slot.
    confirmation_ids: BTreeMap<String, Slot>,
    ttl_ms: f64,
    policy: PolicyMode,
    /// Each capability's declared effect.
    effects: Vec<String>,
}

/// The verdict on one trace under one CL-B06 reading.
#[derive(Debug, Clone)]
pub enum Verdict {
    Explained {
        /// Paths still possible at the end.
        paths: usize,
        /// RECOMMENDED sentences every remaining path departs from (empty: some path follows
        /// every RECOMMENDED sentence).
        departures: Vec<String>,
        judged: usize,
        not_judged: BTreeMap<String, usize>,
    },
    NotExplained(Failure),
}

/// The first record no path explains.
#[derive(Debug, Clone)]
pub struct Failure {
    /// Index into the trace's records (`Trace::record`).
    pub record: usize,
    pub line: usize,
    /// The states possible just before the record, readable.
    pub before: Vec<String>,
    /// What the model allowed instead, readable.
    pub allowed: Vec<String>,
    /// The requirement ids involved.
    pub requirements: Vec<String>,
}

pub struct Checker {
    model: InvocationModel,
    names: Names,
    clock: Clock,
}

fn micros(ms: f64) -> i64 {
    (ms * 1000.0).round() as i64
}

impl Checker {
    /// Prepares the model configuration and the names of `trace` under one CL-B06 reading.
    pub fn new(trace: &Trace, comparison: ContextComparison) -> Result<Checker, OutOfScope> {
        let out = |line: usize, message: String| OutOfScope { line, message };
        let setup = &trace.header.setup;
        if setup.get("creation").and_then(Value::as_str) == Some("throws") {
            return Err(out(1, "a setup whose creation throws has no runtime to judge".into()));
        }
        let policy = setup.pointer("/options/policy").cloned().unwrap_or(Value::Null);
        let policy = match policy.get("mode").and_then(Value::as_str).unwrap_or("absent") {
            "gated" => PolicyMode::Gated,
            "scripted" => PolicyMode::Scripted(policy.get("settle").cloned().unwrap_or(Value::Null)),
            "by-request" => PolicyMode::ByRequest(policy.get("rules").and_then(Value::as_array).cloned().unwrap_or_default()),
            "absent" => PolicyMode::Default,
            other => return Err(out(1, format!("policy mode `{}` is unknown to check-trace", crate::quote::bounded(other)))),
        };
        let effects: Vec<String> = setup
            .pointer("/definition/capabilities")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|c| c.get("effect").and_then(Value::as_str).unwrap_or_default().to_string())
            .collect();
        let capabilities: Vec<String> = setup
            .pointer("/definition/capabilities")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|c| c.get("id").and_then(Value::as_str).map(str::to_string))
            .collect();
        if capabilities.is_empty() {
            return Err(out(1, "the setup declares no capability".into()));
        }
        let ttl_ms = setup.pointer("/options/confirmationTtlMs").and_then(Value::as_f64).unwrap_or(DEFAULT_TTL_MS);
        let count = capabilities.len();
        let mut names = Names {
            capabilities,
            invokes: BTreeMap::new(),
            handles: BTreeMap::new(),
            bindings: BTreeMap::new(),
            modes: BTreeMap::new(),
            abort_targets: BTreeMap::new(),
            pre_aborted: BTreeSet::new(),
            confirmation_ids: BTreeMap::new(),
            ttl_ms,
            policy,
            effects,
        };
        let mut per_capability = vec![0usize; count];
        let mut installs = vec![0u8; count];
        let mut slot_ids: BTreeMap<Slot, usize> = BTreeMap::new();
        let mut id_numbers: BTreeMap<String, usize> = BTreeMap::new();
        let mut signals: BTreeMap<String, Vec<Slot>> = BTreeMap::new();
        let mut aborted: BTreeSet<String> = BTreeSet::new();
        for (index, record) in trace.records().enumerate() {
            let record = &record;
            let line = record.line;
            let query = match &record.body {
                Body::Call { call, .. } => call,
                Body::Observation { query, .. } => query,
            };
            if query.get("react").is_some() {
                return Err(out(line, "the React host binds through rendering: outside the invocation model".into()));
            }
            if query.get("runtime").is_some() {
                return Err(out(line, "a second runtime (`runtime`) is outside the invocation model".into()));
            }
            let Body::Call { call, threw } = &record.body else { continue };
            let host = call.get("host").and_then(Value::as_str);
            let client = call.get("client").and_then(Value::as_str);
            let gate = call.get("gate").and_then(Value::as_str);
            match (host, client, gate) {
                (Some("create-runtime"), _, _) => return Err(out(line, "a second runtime (`create-runtime`) is outside the invocation model".into())),
                // CL-B02-1 decides only that these settle to some outcome; which one no text says.
                (_, Some("invoke-malformed"), _) => {
                    return Err(out(line, "a malformed invoke request (`invoke-malformed`) is outside the invocation model".into()))
                }
                (Some("resolve-confirmation"), _, _) if call.pointer("/confirmation/malformed").is_some() => {
                    return Err(out(line, "a confirmation id that is not a string (`malformed`) is outside the invocation model".into()))
                }
                (_, Some("assist-turn"), _) | (_, _, Some("assist")) => {
                    return Err(out(line, "an Assist gate without an Assist turn is outside the invocation model".into()))
                }
                (_, _, Some("action-policy")) => return Err(out(line, "Rixx UI action policies are outside the invocation model".into())),
                (Some("bind"), _, _) if !threw => {
                    let capability = call.get("capability").and_then(Value::as_str).unwrap_or_default();
                    let Some(c) = names.capabilities.iter().position(|id| id == capability) else {
                        return Err(out(line, format!("bind of `{capability}`, which the definition does not declare, did not throw")));
                    };
                    let handler = call.get("handler").cloned().unwrap_or(Value::Null);
                    let mode = match handler.get("sameAs").and_then(Value::as_str) {
                        Some(b) => names.bindings.get(b).map(|(_, _, m)| m.clone()).unwrap_or(HandlerMode::Gated),
                        None if handler.get("mode").and_then(Value::as_str) == Some("scripted") => {
                            HandlerMode::Immediate(handler.get("settle").cloned().unwrap_or(Value::Null))
                        }
                        None => HandlerMode::Gated,
                    };
                    if installs[c] == u8::MAX {
                        return Err(out(line, "more than 255 bindings of one capability".into()));
                    }
                    let identity = installs[c];
                    installs[c] += 1;
                    if let Some(b) = call.get("as").and_then(Value::as_str) {
                        names.bindings.insert(b.to_string(), (c, identity, mode.clone()));
                    }
                    names.modes.insert((c, identity), mode);
                }
                (_, Some("invoke"), _) => {
                    let capability = call.get("capability").and_then(Value::as_str).unwrap_or_default();
                    let c = names.capabilities.iter().position(|id| id == capability).unwrap_or(0);
                    let slot = per_capability[c] * count + c;
                    per_capability[c] += 1;
                    let id = match call.get("invocationId").and_then(Value::as_str) {
                        Some(id) => {
                            let next = id_numbers.len();
                            *id_numbers.entry(format!("given:{id}")).or_insert(next)
                        }
                        None => {
                            let next = id_numbers.len();
                            id_numbers.insert(format!("generated:{index}"), next);
                            next
                        }
                    };
                    slot_ids.insert(slot, id);
                    let handle = call.get("as").and_then(Value::as_str).unwrap_or_default().to_string();
                    names.invokes.insert(handle.clone(), slot);
                    names.handles.insert(slot, handle);
                    if let Some(signal) = call.get("signal").and_then(Value::as_str) {
                        signals.entry(signal.to_string()).or_default().push(slot);
                        if aborted.contains(signal) {
                            names.pre_aborted.insert(index);
                        }
                    }
                }
                (_, Some("abort"), _) => {
                    let signal = call.get("signal").and_then(Value::as_str).unwrap_or_default().to_string();
                    names.abort_targets.insert(index, signals.get(&signal).cloned().unwrap_or_default());
                    aborted.insert(signal);
                }
                _ => {}
            }
        }
        let slots = per_capability.iter().max().copied().unwrap_or(0) * count;
        let unused = id_numbers.len();
        let model = InvocationModel {
            invocations: slots,
            capabilities: count,
            ids: IdAssignment::Distinct,
            receipt_bound: 256,
            ttl_ticks: 1,
            max_ticks: 0,
            host_events: u8::MAX,
            resolutions: u8::MAX,
            request_faults: true,
            decisions: Decision::ALL.to_vec(),
            handler_results: HandlerResult::ALL.to_vec(),
            context_comparison: comparison,
            // Slots no invoke uses get ids of their own, never compared.
            slot_ids: Some((0..slots).map(|s| slot_ids.get(&s).copied().unwrap_or(unused + s)).collect()),
            fault: None,
        };
        Ok(Checker { model, names, clock: trace.header.clock })
    }

    fn initial(&self) -> Path {
        let mut rt = self.model.init_states().remove(0);
        for binding in &mut rt.bindings {
            *binding = Binding { live: None, installs: 0 };
        }
        Path {
            rt,
            policy_calls: Vec::new(),
            handler_calls: Vec::new(),
            resolutions: BTreeMap::new(),
            assigned: BTreeMap::new(),
            awaiting: BTreeMap::new(),
            contexts: [Some(canonical_context(&Value::Null)), None],
            invoked_at: BTreeMap::new(),
            decided_at: BTreeMap::new(),
            ttl_from: None,
            departures: BTreeSet::new(),
        }
    }

    /// Runs the whole trace.
    pub fn check(mut self, trace: &Trace) -> Result<Verdict, OutOfScope> {
        let mut paths = vec![self.initial()];
        let mut now = 0.0f64;
        let mut judged = 0;
        let mut not_judged: BTreeMap<String, usize> = BTreeMap::new();
        for (index, record) in trace.records().enumerate() {
            let record = &record;
            let mut next: Vec<Path> = Vec::new();
            if self.clock == Clock::Real && record.at > now {
                let to = record.at;
                next = dedup(paths.iter().flat_map(|p| self.advance(p, to)).collect());
                now = to;
                if next.is_empty() {
                    return Ok(Verdict::NotExplained(self.failure(index, record, &paths, vec!["time passing".into()], vec!["CL-B08-2".into()])));
                }
                paths = std::mem::take(&mut next);
            }
            match &record.body {
                Body::Call { call, threw } => {
                    let Some(kind) = self.call_kind(call) else {
                        *not_judged.entry(call_name(call)).or_default() += 1;
                        continue;
                    };
                    judged += 1;
                    for path in &paths {
                        next.extend(self.apply(index, record, &kind, *threw, path, now)?);
                    }
                    if let CallKind::Advance(ms) = kind {
                        now += ms;
                    }
                    let next = dedup(next);
                    if next.len() > MAX_PATHS {
                        return Err(OutOfScope {
                            line: record.line,
                            message: format!(
                                "more than {MAX_PATHS} model paths fit the trace so far: it leaves too much unobserved (e.g. outcomes of invokes whose input validity or default-policy decision only an outcome shows); record the outcomes as they settle"
                            ),
                        });
                    }
                    if next.is_empty() {
                        let (allowed, requirements) = self.call_expectations(&kind, *threw, &paths);
                        return Ok(Verdict::NotExplained(self.failure(index, record, &paths, allowed, requirements)));
                    }
                    paths = next;
                }
                Body::Observation { query, value } => {
                    let Some(observation) = observation_kind(query) else {
                        *not_judged.entry(format!("observe {}", query.get("expect").and_then(Value::as_str).unwrap_or("?"))).or_default() += 1;
                        continue;
                    };
                    judged += 1;
                    let kept: Vec<Path> = paths.iter().filter(|p| self.observe(p, &observation, value)).cloned().collect();
                    if kept.is_empty() {
                        let allowed: Vec<String> =
                            paths.iter().map(|p| self.expected(p, &observation)).collect::<BTreeSet<_>>().into_iter().collect();
                        let requirements = observation_requirements(&observation, value, &paths, &self);
                        return Ok(Verdict::NotExplained(self.failure(index, record, &paths, allowed, requirements)));
                    }
                    if let (Observation::Outcome(_), Some(id)) = (&observation, value.pointer("/confirmation/id").and_then(Value::as_str)) {
                        if let Some(slot) = self.outcome_slot(&kept[0], &observation) {
                            self.names.confirmation_ids.insert(id.to_string(), slot);
                        }
                    }
                    paths = kept;
                }
            }
        }
        let fewest = paths.iter().map(|p| p.departures.len()).min().unwrap_or(0);
        let departures = if fewest == 0 {
            Vec::new()
        } else {
            paths.iter().find(|p| p.departures.len() == fewest).map(|p| p.departures.iter().map(|d| d.to_string()).collect()).unwrap_or_default()
        };
        Ok(Verdict::Explained { paths: paths.len(), departures, judged, not_judged })
    }

    fn failure(&self, index: usize, record: &Record, paths: &[Path], allowed: Vec<String>, mut requirements: Vec<String>) -> Failure {
        requirements.sort();
        requirements.dedup();
        Failure { record: index, line: record.line, before: paths.iter().map(|p| self.describe(p)).collect(), allowed, requirements }
    }
}

/// Whether `value` holds an escape (vectors/README.md "Values JSON cannot carry") for a value
/// that is not plain JSON, or may be refused as such (CL-B13-2; shared references and null
/// prototypes, CL-B13-5/6). A `literal` object and `-0` (kept or normalised, CL-B13-4) are
/// plain JSON either way.
fn holds_escape(value: &Value) -> bool {
    match value {
        Value::Object(map) => {
            let not_plain = map.get("$value").and_then(Value::as_str).is_some_and(|tag| !matches!(tag, "literal" | "-0"));
            not_plain || map.values().any(holds_escape)
        }
        Value::Array(items) => items.iter().any(holds_escape),
        _ => false,
    }
}

/// A call the model judges, decoded.
#[derive(Debug, Clone)]
enum CallKind {
    Bind { capability: usize, available: bool },
    Unbind { binding: String },
    SetAvailability { binding: String, available: bool },
    SetContext(Value),
    Resolve { handle: String, target: Target, approved: bool },
    /// `escaped`: the input holds a `$value` escape, so it may not be plain JSON.
    Invoke { handle: String, undeclared: bool, escaped: bool },
    Abort,
    PolicyGate { call: usize, decision: Decision },
    HandlerGate { call: usize, settle: Value },
    Advance(f64),
    /// A call that changes nothing the model tracks (refresh).
    Inert,
}

#[derive(Debug, Clone)]
enum Target {
    Of(String),
    Id(String),
}

fn call_name(call: &Value) -> String {
    for key in ["host", "client", "gate", "clock"] {
        if let Some(kind) = call.get(key).and_then(Value::as_str) {
            return format!("{key} {kind}");
        }
    }
    "call".into()
}

fn available_of(value: Option<&Value>) -> bool {
    value.and_then(|a| a.get("available")).and_then(Value::as_bool).unwrap_or(true)
}

/// CL-B06-1: the ordered active scopes and the primary scope, as one comparable string.
fn canonical_context(context: &Value) -> String {
    json!([context.get("activeScopeIds").cloned().unwrap_or(Value::Null), context.get("primaryScopeId").cloned().unwrap_or(Value::Null)]).to_string()
}

/// The same scopes in another order (and the same primary scope): CL-B06-3 leaves open whether
/// that is a change.
fn same_scopes(a: &str, b: &str) -> bool {
    let parse = |s: &str| -> Option<(Vec<String>, Value)> {
        let v: Value = serde_json::from_str(s).ok()?;
        let mut scopes: Vec<String> = v.get(0)?.as_array()?.iter().map(|x| x.to_string()).collect();
        scopes.sort();
        Some((scopes, v.get(1).cloned().unwrap_or(Value::Null)))
    };
    a != b && parse(a).is_some() && parse(a) == parse(b)
}

fn decision_of(settle: &Value) -> Decision {
    match settle.pointer("/return/decision").and_then(Value::as_str) {
        Some("allow") => Decision::Allow,
        Some("deny") => Decision::Deny,
        Some("confirm") => Decision::Confirm,
        // A throw, a rejected promise or a malformed decision (CL-B12-3).
        _ => Decision::Throw,
    }
}

fn dedup(paths: Vec<Path>) -> Vec<Path> {
    if paths.len() < 2 {
        return paths;
    }
    // Membership only (the order kept is the order found), so a cheap hash is enough.
    let mut seen: HashSet<Path, BuildHasherDefault<FxHasher>> = HashSet::default();
    paths.into_iter().filter(|p| seen.insert(p.clone())).collect()
}

/// The multiply-rotate hash of rustc's FxHasher: paths hold hundreds of invocations in long
/// traces, and SipHash dominated the checker's time.
#[derive(Default)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u8(&mut self, byte: u8) {
        self.write_u64(u64::from(byte));
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// What an observation asks.
#[derive(Debug, Clone)]
enum Observation {
    Outcome(String),
    PolicyCalls(Option<String>),
    HandlerCalls(Option<String>),
    HandlerSignal(usize),
}

fn observation_kind(query: &Value) -> Option<Observation> {
    let capability = query.get("capability").and_then(Value::as_str).map(str::to_string);
    match query.get("expect").and_then(Value::as_str)? {
        "outcome" => Some(Observation::Outcome(query.get("of")?.as_str()?.to_string())),
        "policy-calls" => Some(Observation::PolicyCalls(capability)),
        "handler-calls" => Some(Observation::HandlerCalls(capability)),
        "handler-signal" => Some(Observation::HandlerSignal(query.get("call")?.as_u64()? as usize)),
        _ => None,
    }
}

fn status_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Succeeded => "succeeded",
        Outcome::ConfirmationRequired => "confirmation_required",
        Outcome::Failed(_) => "failed",
        Outcome::Denied(_) => "denied",
    }
}

fn outcome_text(outcome: Option<Outcome>) -> String {
    match outcome {
        None => "pending".into(),
        Some(o) => match o.code() {
            Some(code) => format!("{} {}", status_name(o), code.as_str()),
            None => status_name(o).into(),
        },
    }
}

/// Whether an observed outcome value is the model's outcome.
fn outcome_matches(model: Option<Outcome>, value: &Value) -> bool {
    match (model, value) {
        (None, Value::String(s)) => s == "pending",
        (Some(_), Value::String(_)) | (None, _) => false,
        (Some(o), Value::Object(object)) => {
            object.get("status").and_then(Value::as_str) == Some(status_name(o))
                && object.get("code").and_then(Value::as_str) == o.code().map(Code::as_str)
        }
        _ => false,
    }
}

/// The requirement ids behind an outcome code.
fn code_requirements(code: Code) -> &'static [&'static str] {
    match code {
        Code::InvocationAlreadyActive => &["CL-B04-1", "CL-B04-3", "CL-B04-5"],
        Code::CapabilityNotFound | Code::InputInvalid => &["CL-B03-1"],
        Code::CapabilityUnbound | Code::CapabilityUnavailable => &["CL-B03-1", "CL-B05-1"],
        Code::PolicyEvaluationFailed => &["CL-B12-3"],
        Code::PolicyDenied => &["CL-B05-1", "CL-B07-4"],
        Code::ConfirmationDeclined => &["CL-B07-2"],
        Code::ConfirmationExpired => &["CL-B08-2", "CL-B08-3"],
        Code::ConfirmationNotFound => &["CL-B07-1", "CL-B10-2"],
        Code::ExecutionAborted => &["CL-B09-2", "CL-B11-1"],
        Code::ExecutionFailed => &["CL-B12-2"],
        Code::OutputInvalid => &["CL-B12-1"],
    }
}

fn code_named(name: &str) -> Option<Code> {
    Code::ALL.iter().copied().find(|c| c.as_str() == name)
}

fn observation_requirements(observation: &Observation, value: &Value, paths: &[Path], checker: &Checker) -> Vec<String> {
    let mut ids: BTreeSet<&str> = BTreeSet::new();
    match observation {
        Observation::Outcome(_) => {
            let mut outcomes: Vec<Option<Outcome>> = paths.iter().map(|p| checker.outcome_of(p, observation)).collect();
            outcomes.dedup();
            for outcome in outcomes {
                match outcome {
                    None => {
                        ids.insert("CL-B02-1");
                    }
                    Some(o) => ids.extend(o.code().map(code_requirements).unwrap_or(&[])),
                }
            }
            match value {
                Value::String(s) if s == "threw" => {
                    ids.insert("CL-B02-1");
                }
                Value::String(_) => {
                    ids.insert("CL-B02-1");
                }
                _ => {
                    if let Some(code) = value.get("code").and_then(Value::as_str).and_then(code_named) {
                        ids.extend(code_requirements(code));
                        if value.get("status").and_then(Value::as_str) != Some(status_name(Outcome::error(code))) {
                            ids.insert(if code.status() == model::invocation::Status::Denied { "CL-B01-2" } else { "CL-B01-3" });
                        }
                    } else if value.get("code").is_some() {
                        ids.insert("CL-B01-1");
                    }
                }
            }
        }
        Observation::PolicyCalls(_) => ids.extend(["CL-B03-1", "CL-B07-3", "CL-B11-1", "CL-B12-4"]),
        Observation::HandlerCalls(_) => ids.extend(["CL-B05-2", "CL-B11-3", "CL-B12-4"]),
        Observation::HandlerSignal(_) => ids.extend(["CL-B11-4"]),
    }
    ids.into_iter().map(str::to_string).collect()
}

impl Checker {
    fn call_kind(&self, call: &Value) -> Option<CallKind> {
        let text = |key: &str| call.get(key).and_then(Value::as_str).unwrap_or_default().to_string();
        if let Some(host) = call.get("host").and_then(Value::as_str) {
            return match host {
                "bind" => Some(CallKind::Bind {
                    capability: self.names.capabilities.iter().position(|c| *c == text("capability")).unwrap_or(usize::MAX),
                    available: available_of(call.get("availability")),
                }),
                "unbind" => Some(CallKind::Unbind { binding: text("binding") }),
                "set-availability" => Some(CallKind::SetAvailability { binding: text("binding"), available: available_of(call.get("availability")) }),
                "set-context" => Some(CallKind::SetContext(call.get("context").cloned().unwrap_or(Value::Null))),
                "refresh" => Some(CallKind::Inert),
                "resolve-confirmation" => {
                    let confirmation = call.get("confirmation").cloned().unwrap_or(Value::Null);
                    let target = match confirmation.get("of").and_then(Value::as_str) {
                        Some(of) => Target::Of(of.to_string()),
                        None => Target::Id(confirmation.get("id").and_then(Value::as_str).unwrap_or_default().to_string()),
                    };
                    Some(CallKind::Resolve { handle: text("as"), target, approved: call.get("approved").and_then(Value::as_bool).unwrap_or(false) })
                }
                _ => None,
            };
        }
        if let Some(client) = call.get("client").and_then(Value::as_str) {
            return match client {
                "invoke" => Some(CallKind::Invoke {
                    handle: text("as"),
                    undeclared: !self.names.capabilities.contains(&text("capability")),
                    escaped: call.get("input").is_some_and(holds_escape),
                }),
                "abort" => Some(CallKind::Abort),
                _ => None,
            };
        }
        match call.get("gate").and_then(Value::as_str) {
            Some("policy") => {
                return Some(CallKind::PolicyGate {
                    call: call.get("call").and_then(Value::as_u64).unwrap_or(0) as usize,
                    decision: decision_of(call.get("settle").unwrap_or(&Value::Null)),
                })
            }
            Some("handler") => {
                return Some(CallKind::HandlerGate {
                    call: call.get("call").and_then(Value::as_u64).unwrap_or(0) as usize,
                    settle: call.get("settle").cloned().unwrap_or(Value::Null),
                })
            }
            _ => {}
        }
        if call.get("clock").and_then(Value::as_str) == Some("advance") {
            return Some(CallKind::Advance(call.get("ms").and_then(Value::as_f64).unwrap_or(0.0)));
        }
        None
    }

    /// The model's successor for `action`, with the bookkeeping of policy and handler calls.
    fn step(&self, path: &Path, action: Action) -> Option<Path> {
        self.step_with(path, action, true)
    }

    /// `assign_awaiting: false` for a resolution call, whose own settlement is assigned to its
    /// own handle (a second resolution during the confirmed pass must not take the first's).
    fn step_with(&self, path: &Path, action: Action, assign_awaiting: bool) -> Option<Path> {
        let mut next = path.clone();
        // The model's host-event budget bounds exploration; a trace is not explored.
        next.rt.host_events_left = u8::MAX;
        next.rt = self.model.next_state(&next.rt, action)?;
        self.book(path, &mut next, assign_awaiting);
        Some(next)
    }

    /// Records the policy and handler calls a transition made, and assigns settled resolutions
    /// to the handle waiting for them.
    fn book(&self, before: &Path, next: &mut Path, assign_awaiting: bool) {
        for slot in 0..next.rt.invocations.len() {
            let (old, new) = (&before.rt.invocations[slot], &next.rt.invocations[slot]);
            for _ in old.policy_calls..new.policy_calls {
                let pass = match new.phase {
                    Phase::AwaitingPolicy { pass } => pass,
                    _ => Pass::Initial,
                };
                next.policy_calls.push((slot, pass));
            }
            for _ in old.handler_starts..new.handler_starts {
                next.handler_calls.push(slot);
            }
            let assigned = next.assigned.get(&slot).copied().unwrap_or(0);
            if assign_awaiting && new.resolutions.len() > assigned {
                if let Some(handle) = next.awaiting.remove(&slot) {
                    next.resolutions.insert(handle, Resolution::Of { slot, index: Some(assigned) });
                    next.assigned.insert(slot, assigned + 1);
                }
            }
        }
    }

    /// Settles `slot`'s pass with another admissible code in place of the model's.
    fn with_outcome(&self, path: &Path, slot: Slot, pass: Pass, code: Code, departure: Option<&'static str>) -> Path {
        let mut alt = path.clone();
        let invocation = &mut alt.rt.invocations[slot];
        match pass {
            Pass::Initial => invocation.invoke_outcome = Some(Outcome::error(code)),
            Pass::Confirmed => {
                if let Some(last) = invocation.resolutions.last_mut() {
                    *last = Outcome::error(code);
                }
            }
        }
        alt.departures.extend(departure);
        alt
    }

    fn apply(&self, index: usize, record: &Record, kind: &CallKind, threw: bool, path: &Path, now: f64) -> Result<Vec<Path>, OutOfScope> {
        let out = |message: String| OutOfScope { line: record.line, message };
        let mut results = Vec::new();
        match kind {
            CallKind::Inert => results.push(path.clone()),
            CallKind::Bind { capability, available, .. } => {
                if threw {
                    results.push(path.clone());
                } else {
                    let c = *capability;
                    let action = if path.rt.bindings[c].live.is_none() { Action::Bind(c) } else { Action::Rebind(c) };
                    let mut next = self.step(path, action).ok_or_else(|| out("bind".into()))?;
                    next = self.set_available(&next, c, *available);
                    results.push(next);
                }
            }
            CallKind::Unbind { binding } => match self.names.bindings.get(binding) {
                Some((c, identity, _)) if path.rt.bindings[*c].live == Some(*identity) => {
                    results.extend(self.step(path, Action::Unbind(*c)));
                }
                _ => results.push(path.clone()),
            },
            CallKind::SetAvailability { binding, available } => match self.names.bindings.get(binding) {
                Some((c, identity, _)) if path.rt.bindings[*c].live == Some(*identity) => results.push(self.set_available(path, *c, *available)),
                _ => results.push(path.clone()),
            },
            CallKind::SetContext(context) => {
                if threw {
                    results.push(path.clone());
                } else {
                    results.extend(self.set_context(path, context).map_err(out)?);
                }
            }
            CallKind::Invoke { handle, undeclared, escaped } => {
                let slot = self.names.invokes[handle];
                let mut start = path.clone();
                if self.names.pre_aborted.contains(&index) {
                    start = self.step(&start, Action::Abort(slot)).unwrap_or(start);
                }
                let requests: &[Request] = if *undeclared { &[Request::UndeclaredCapability] } else { &[Request::Valid, Request::InvalidInput] };
                for &request in requests {
                    let Some(mut next) = self.step(&start, Action::Invoke(slot, request)) else { continue };
                    if next.rt.invocations[slot].captured.is_some() {
                        next.invoked_at.insert(slot, micros(now));
                    }
                    results.extend(self.invoke_readings(&start, &next, slot, request, *escaped));
                    results.push(next);
                }
            }
            CallKind::Abort => {
                let mut next = path.clone();
                for &slot in self.names.abort_targets.get(&index).into_iter().flatten() {
                    let invocation = &next.rt.invocations[slot];
                    if !invocation.signal_aborted && invocation.phase != Phase::Settled {
                        next = self.step(&next, Action::Abort(slot)).unwrap_or(next);
                    }
                }
                results.push(next);
            }
            CallKind::Resolve { handle, target, approved } => results.extend(self.resolve(path, handle, target, *approved)),
            CallKind::PolicyGate { call, decision } => {
                let made = *call >= 1 && *call <= path.policy_calls.len();
                if made == threw {
                    // A settled gate the implementation never called, or a call it made whose
                    // gate could not be settled: no path explains either.
                    return Ok(Vec::new());
                }
                if !made {
                    results.push(path.clone());
                } else {
                    let (slot, pass) = path.policy_calls[call - 1];
                    if path.rt.invocations[slot].phase != (Phase::AwaitingPolicy { pass }) {
                        // CL-B11-3: a late policy result is ignored.
                        results.push(path.clone());
                    } else {
                        results.extend(self.policy_settles(path, slot, pass, *decision, now));
                    }
                }
            }
            CallKind::HandlerGate { call, settle } => {
                let made = *call >= 1 && *call <= path.handler_calls.len();
                if made == threw {
                    return Ok(Vec::new());
                }
                if !made {
                    results.push(path.clone());
                } else {
                    let slot = path.handler_calls[call - 1];
                    if matches!(path.rt.invocations[slot].phase, Phase::HandlerRunning { .. }) {
                        results.extend(self.handler_settles(path, slot, settle));
                    } else {
                        results.push(path.clone());
                    }
                }
            }
            CallKind::Advance(ms) => results.extend(self.advance(path, now + ms)),
        }
        // Policies and handlers that settle by themselves settle as soon as they are called.
        let mut settled = Vec::new();
        for result in results {
            settled.extend(self.run_immediate(result, now));
        }
        Ok(settled)
    }

    /// The decisions an immediate policy may settle a call of `slot`'s `pass` with, each with
    /// the RECOMMENDED sentence it departs from, if any.
    fn immediate_decisions(&self, slot: Slot, pass: Pass) -> Vec<(Decision, Option<&'static str>)> {
        let capability = self.model.capability_of(slot);
        match &self.names.policy {
            PolicyMode::Gated => Vec::new(),
            PolicyMode::Scripted(settle) => vec![(decision_of(settle), None)],
            PolicyMode::ByRequest(rules) => {
                let rule = rules.iter().find(|rule| {
                    rule.get("capability").and_then(Value::as_str).is_none_or(|c| c == self.names.capabilities[capability])
                        && rule.get("confirmed").and_then(Value::as_bool).is_none_or(|c| c == (pass == Pass::Confirmed))
                });
                vec![(rule.map(|r| decision_of(r.get("settle").unwrap_or(&Value::Null))).unwrap_or(Decision::Throw), None)]
            }
            PolicyMode::Default => {
                // CL-B22: read allowed, destructive confirmed, write and external denied, a
                // confirmed pass allowed; all RECOMMENDED, so every decision is admissible.
                let (recommended, sentence) = match (pass, self.names.effects[capability].as_str()) {
                    (Pass::Confirmed, _) => (Decision::Allow, "CL-B22-4"),
                    (_, "read") => (Decision::Allow, "CL-B22-1"),
                    (_, "destructive") => (Decision::Confirm, "CL-B22-2"),
                    _ => (Decision::Deny, "CL-B22-3"),
                };
                Decision::ALL.iter().map(|&d| (d, (d != recommended).then_some(sentence))).collect()
            }
        }
    }

    fn run_immediate(&self, path: Path, now: f64) -> Vec<Path> {
        for slot in 0..path.rt.invocations.len() {
            let Phase::AwaitingPolicy { pass } = path.rt.invocations[slot].phase else { continue };
            let decisions = self.immediate_decisions(slot, pass);
            if decisions.is_empty() {
                continue;
            }
            let mut results = Vec::new();
            for (decision, departure) in decisions {
                for mut next in self.policy_settles(&path, slot, pass, decision, now) {
                    next.departures.extend(departure);
                    results.extend(self.run_immediate(next, now));
                }
            }
            return results;
        }
        for slot in 0..path.rt.invocations.len() {
            if !matches!(path.rt.invocations[slot].phase, Phase::HandlerRunning { .. }) {
                continue;
            }
            let capability = self.model.capability_of(slot);
            let Some(identity) = path.rt.invocations[slot].captured.map(|c| c.binding) else { continue };
            if let Some(HandlerMode::Immediate(settle)) = self.names.modes.get(&(capability, identity)) {
                return self.handler_settles(&path, slot, settle).into_iter().flat_map(|p| self.run_immediate(p, now)).collect();
            }
        }
        vec![path]
    }

    fn set_available(&self, path: &Path, c: usize, available: bool) -> Path {
        match (path.rt.available[c], available) {
            (true, false) => self.step(path, Action::LoseAvailability(c)).unwrap_or_else(|| path.clone()),
            (false, true) => self.step(path, Action::RestoreAvailability(c)).unwrap_or_else(|| path.clone()),
            _ => path.clone(),
        }
    }

    fn symbol_captured_in_flight(&self, path: &Path, symbol: SemanticContext) -> bool {
        path.rt.invocations.iter().any(|i| i.in_flight() && i.captured.is_some_and(|c| c.context == symbol))
    }

    fn set_context(&self, path: &Path, context: &Value) -> Result<Vec<Path>, String> {
        let value = canonical_context(context);
        let index = |s: SemanticContext| if s == SemanticContext::Initial { 0 } else { 1 };
        let current = path.rt.context;
        let other = if current == SemanticContext::Initial { SemanticContext::Other } else { SemanticContext::Initial };
        let current_value = path.contexts[index(current)].clone().unwrap_or_default();
        let mut results = Vec::new();
        if current_value == value {
            results.extend(self.step(path, Action::SetContext(current)));
            return Ok(results);
        }
        // CL-B06-3: a reordering of the same scopes may count as no change.
        if same_scopes(&current_value, &value) {
            if let Some(mut same) = self.step(path, Action::SetContext(current)) {
                same.contexts[index(current)] = Some(value.clone());
                results.push(same);
            }
        }
        if path.contexts[index(other)].as_deref() == Some(value.as_str()) {
            results.extend(self.step(path, Action::SetContext(other)));
        } else if !self.symbol_captured_in_flight(path, other) {
            let mut renamed = path.clone();
            renamed.contexts[index(other)] = Some(value.clone());
            results.extend(self.step(&renamed, Action::SetContext(other)));
        } else if !self.symbol_captured_in_flight(path, current) {
            // The current value is held by nobody in flight: the new value takes the current
            // symbol's place only if that is not a change anyone can see, which it is not
            // (the in-flight invocations captured `other`, and any value differs from it).
            let mut renamed = path.clone();
            renamed.contexts[index(current)] = Some(value.clone());
            if let Some(mut next) = self.step(&renamed, Action::SetContext(current)) {
                if self.model.context_comparison == ContextComparison::AnyEffectiveChange {
                    next.rt.context_epoch = next.rt.context_epoch.saturating_add(1);
                }
                results.push(next);
            }
        } else {
            return Err("a third distinct semantic context while invocations in flight captured the other two: the invocation model distinguishes two".into());
        }
        Ok(results)
    }

    /// The other readings of an invoke's rejection (`escaped`: its input may not be plain JSON).
    fn invoke_readings(&self, start: &Path, next: &Path, slot: Slot, request: Request, escaped: bool) -> Vec<Path> {
        let Some(Outcome::Failed(code)) = next.rt.invocations[slot].invoke_outcome else { return Vec::new() };
        let capability = self.model.capability_of(slot);
        let catalog = if request == Request::UndeclaredCapability {
            Some(Code::CapabilityNotFound)
        } else if start.rt.bindings[capability].live.is_none() {
            Some(Code::CapabilityUnbound)
        } else if !start.rt.available[capability] {
            Some(Code::CapabilityUnavailable)
        } else if request == Request::InvalidInput {
            Some(Code::InputInvalid)
        } else {
            None
        };
        let aborted = start.rt.invocations[slot].signal_aborted;
        let mut alternatives = Vec::new();
        if code == Code::InvocationAlreadyActive {
            // The id check may come after the CL-B03 checks (and the aborted signal).
            if let Some(c) = catalog {
                alternatives.push(self.with_outcome(next, slot, Pass::Initial, c, None));
                if aborted {
                    alternatives.push(self.with_outcome(next, slot, Pass::Initial, Code::ExecutionAborted, Some("CL-B03-2")));
                }
            } else if aborted {
                alternatives.push(self.with_outcome(next, slot, Pass::Initial, Code::ExecutionAborted, None));
            }
        } else if catalog == Some(code) && aborted {
            alternatives.push(self.with_outcome(next, slot, Pass::Initial, Code::ExecutionAborted, Some("CL-B03-2")));
        }
        // PRJ-RCIP-INPUT-01 (IMPL-DEFINED): an input that is not plain JSON may be refused as the
        // request is captured, before the catalog, binding and availability checks.
        if escaped && catalog == Some(code) && code != Code::InputInvalid {
            alternatives.push(self.with_outcome(next, slot, Pass::Initial, Code::InputInvalid, None));
        }
        alternatives
    }

    fn policy_settles(&self, path: &Path, slot: Slot, pass: Pass, decision: Decision, now: f64) -> Vec<Path> {
        let Some(mut next) = self.step(path, Action::PolicySettles(slot, decision)) else { return Vec::new() };
        if next.rt.invocations[slot].phase == Phase::AwaitingConfirmation {
            next.decided_at.insert(slot, micros(now));
        }
        let mut results = vec![next.clone()];
        let invocation = &path.rt.invocations[slot];
        if (decision, pass) == (Decision::Confirm, Pass::Confirmed) && next.rt.invocations[slot].resolutions.last() == Some(&Outcome::error(Code::PolicyDenied)) {
            // CL-B07-5 only RECOMMENDS POLICY_DENIED; an answer the pass cannot use may also
            // fail as POLICY_EVALUATION_FAILED (the handler still does not run).
            results.push(self.with_outcome(&next, slot, pass, Code::PolicyEvaluationFailed, Some("CL-B07-5")));
        }
        let Some(captured) = invocation.captured else { return results };
        let capability = self.model.capability_of(slot);
        let mut facts = Vec::new();
        if path.rt.bindings[capability].live != Some(captured.binding) {
            facts.push(Code::CapabilityUnbound);
        }
        if self.model.context_changed(&path.rt, &captured) {
            facts.push(Code::PolicyDenied);
        }
        if !path.rt.available[capability] {
            facts.push(Code::CapabilityUnavailable);
        }
        if facts.is_empty() || invocation.signal_aborted {
            return results;
        }
        // Any code of several changed facts (CL-B05-3 RECOMMENDED precedence: the model's). The
        // own outcome of an `allow` or a `confirm` is not admissible: it is what a runtime that
        // skipped the recheck gives (RCIP-LIFE-POLICY-04/05, CL-B05-1, issue 13); a deny or a
        // throw may give its own (PRJ-RCIP-POLICY-01, IMPL-DEFINED).
        for &code in &facts[1..] {
            results.push(self.with_outcome(&next, slot, pass, code, Some("CL-B05-3")));
        }
        let own = match decision {
            Decision::Deny => Some(Code::PolicyDenied),
            Decision::Throw => Some(Code::PolicyEvaluationFailed),
            Decision::Allow | Decision::Confirm => None,
        };
        if let Some(code) = own.filter(|code| !facts.contains(code)) {
            results.push(self.with_outcome(&next, slot, pass, code, None));
        }
        results
    }

    fn handler_settles(&self, path: &Path, slot: Slot, settle: &Value) -> Vec<Path> {
        let Phase::HandlerRunning { pass } = path.rt.invocations[slot].phase else { return vec![path.clone()] };
        let aborted = path.rt.invocations[slot].signal_aborted;
        let mut results = Vec::new();
        if settle.get("return").is_some() {
            results.extend(self.step(path, Action::HandlerSettles(slot, HandlerResult::Output)));
            if let Some(invalid) = self.step(path, Action::HandlerSettles(slot, HandlerResult::InvalidOutput)) {
                if aborted {
                    // CL-B11 speaks of returns and throws only.
                    results.push(self.with_outcome(&invalid, slot, pass, Code::ExecutionAborted, None));
                }
                results.push(invalid);
            }
        } else {
            if let Some(thrown) = self.step(path, Action::HandlerSettles(slot, HandlerResult::Throw)) {
                if !aborted && settle.get("throw").and_then(Value::as_str) == Some("abort-error") {
                    // CL-B11-6: an abort-like error without any abort.
                    results.push(self.with_outcome(&thrown, slot, pass, Code::ExecutionAborted, None));
                }
                results.push(thrown);
            }
        }
        results
    }

    fn resolve(&self, path: &Path, handle: &str, target: &Target, approved: bool) -> Vec<Path> {
        let slot = match target {
            Target::Of(of) => self.names.invokes.get(of).copied(),
            Target::Id(id) => self.names.confirmation_ids.get(id).copied(),
        };
        let Some(slot) = slot.filter(|&s| path.rt.invocations[s].confirmation != Confirmation::NotIssued) else {
            let mut next = path.clone();
            next.resolutions.insert(handle.to_string(), Resolution::Unknown);
            return vec![next];
        };
        let before = path.rt.invocations[slot].resolutions.len();
        let returned_kind = match path.rt.invocations[slot].confirmation {
            Confirmation::Receipt { kind, fate: ReceiptFate::Returned } => Some(kind),
            _ => None,
        };
        let action = if approved { Action::Approve(slot) } else { Action::Decline(slot) };
        let Some(mut next) = self.step_with(path, action, false) else { return Vec::new() };
        let after = next.rt.invocations[slot].resolutions.len();
        if after > before {
            next.resolutions.insert(handle.to_string(), Resolution::Of { slot, index: Some(before) });
            next.assigned.insert(slot, after);
        } else {
            next.awaiting.insert(slot, handle.to_string());
            next.resolutions.insert(handle.to_string(), Resolution::Of { slot, index: None });
        }
        let mut results = vec![next.clone()];
        // CL-B10-3 RECOMMENDED: a receipt is returned once; returning it again is admissible.
        if let Some(kind) = returned_kind {
            let code = if kind == ReceiptKind::Expired { Code::ConfirmationExpired } else { Code::ExecutionAborted };
            results.push(self.with_outcome(&next, slot, Pass::Confirmed, code, Some("CL-B10-3")));
        }
        // Approval with a failing recheck: POLICY_DENIED for a changed binding (an unbind
        // included, PRJ-RCIP-CONF-01) or context (CL-B07-4), CAPABILITY_UNAVAILABLE for lost
        // availability; CL-B07 orders neither against the other.
        if approved && after > before {
            if let (Confirmation::Pending { .. }, Some(captured)) = (path.rt.invocations[slot].confirmation, path.rt.invocations[slot].captured) {
                let capability = self.model.capability_of(slot);
                let mut codes = Vec::new();
                if path.rt.bindings[capability].live != Some(captured.binding) || self.model.context_changed(&path.rt, &captured) {
                    codes.push(Code::PolicyDenied);
                }
                if !path.rt.available[capability] {
                    codes.push(Code::CapabilityUnavailable);
                }
                let model_code = next.rt.invocations[slot].resolutions.last().and_then(|o| o.code());
                for code in codes {
                    if Some(code) != model_code {
                        results.push(self.with_outcome(&next, slot, Pass::Confirmed, code, None));
                    }
                }
            }
        }
        results
    }

    /// Moves time to `to`: each pending confirmation whose deadline is passed expires; at
    /// exactly its deadline it may or may not (CL-B08-4).
    fn advance(&self, path: &Path, to: f64) -> Vec<Path> {
        let ttl = micros(self.names.ttl_ms);
        let to = micros(to);
        let readings: Vec<TtlFrom> = match path.ttl_from {
            Some(r) => vec![r],
            None => vec![TtlFrom::Invoke, TtlFrom::Decision],
        };
        let mut results = Vec::new();
        for reading in readings {
            let mut branches = vec![path.clone()];
            let pending: Vec<Slot> = path
                .rt
                .confirmation_log
                .iter()
                .copied()
                .filter(|&s| matches!(path.rt.invocations[s].confirmation, Confirmation::Pending { .. }))
                .collect();
            let mut fixed = false;
            for slot in pending {
                let start = match reading {
                    TtlFrom::Invoke => path.invoked_at.get(&slot),
                    TtlFrom::Decision => path.decided_at.get(&slot),
                };
                let Some(&start) = start else { continue };
                let deadline = start + ttl;
                let other = match reading {
                    TtlFrom::Invoke => path.decided_at.get(&slot),
                    TtlFrom::Decision => path.invoked_at.get(&slot),
                }
                .map(|&s| s + ttl);
                // The reading is fixed once it decides something the other would not.
                let decides = |d: i64| if d < to { Some(true) } else if d > to { Some(false) } else { None };
                if other.map(decides) != Some(decides(deadline)) {
                    fixed = true;
                }
                let choices: &[bool] = match decides(deadline) {
                    Some(true) => &[true],
                    Some(false) => &[false],
                    None => &[true, false],
                };
                let mut grown = Vec::new();
                for branch in &branches {
                    for &expire in choices {
                        let mut b = branch.clone();
                        if expire {
                            self.model.release_into_receipt(&mut b.rt, slot, ReceiptKind::Expired);
                        }
                        grown.push(b);
                    }
                }
                branches = grown;
            }
            for mut branch in branches {
                if fixed || path.ttl_from.is_some() {
                    branch.ttl_from = Some(reading);
                }
                results.push(branch);
            }
        }
        dedup(results)
    }

    fn outcome_slot(&self, path: &Path, observation: &Observation) -> Option<Slot> {
        let Observation::Outcome(handle) = observation else { return None };
        if let Some(&slot) = self.names.invokes.get(handle) {
            return Some(slot);
        }
        match path.resolutions.get(handle) {
            Some(Resolution::Of { slot, .. }) => Some(*slot),
            _ => None,
        }
    }

    /// The outcome a path gives for an outcome observation (`None`: pending).
    fn outcome_of(&self, path: &Path, observation: &Observation) -> Option<Outcome> {
        let Observation::Outcome(handle) = observation else { return None };
        if let Some(&slot) = self.names.invokes.get(handle) {
            return path.rt.invocations[slot].invoke_outcome;
        }
        match path.resolutions.get(handle) {
            Some(Resolution::Of { slot, index: Some(i) }) => path.rt.invocations[*slot].resolutions.get(*i).copied(),
            Some(Resolution::Of { index: None, .. }) => None,
            Some(Resolution::Unknown) => Some(Outcome::error(Code::ConfirmationNotFound)),
            None => None,
        }
    }

    fn calls_of(&self, path: &Path, capability: &Option<String>, policy: bool) -> Vec<(Slot, bool)> {
        let wanted = capability.as_ref().map(|c| self.names.capabilities.iter().position(|x| x == c));
        let calls: Vec<(Slot, bool)> = if policy {
            path.policy_calls.iter().map(|&(s, p)| (s, p == Pass::Confirmed)).collect()
        } else {
            path.handler_calls.iter().map(|&s| (s, false)).collect()
        };
        calls.into_iter().filter(|(s, _)| wanted.is_none_or(|w| w == Some(self.model.capability_of(*s)))).collect()
    }

    fn observe(&self, path: &Path, observation: &Observation, value: &Value) -> bool {
        match observation {
            Observation::Outcome(handle) => {
                if !self.names.invokes.contains_key(handle) && !path.resolutions.contains_key(handle) {
                    return false;
                }
                outcome_matches(self.outcome_of(path, observation), value)
            }
            Observation::PolicyCalls(capability) => {
                let calls = self.calls_of(path, capability, true);
                let Some(records) = value.as_array() else { return false };
                records.len() == calls.len()
                    && records.iter().zip(&calls).all(|(r, (_, confirmed))| r.get("confirmed").and_then(Value::as_bool) == Some(*confirmed))
            }
            Observation::HandlerCalls(capability) => value.as_array().is_some_and(|r| r.len() == self.calls_of(path, capability, false).len()),
            Observation::HandlerSignal(call) => match path.handler_calls.get(call.wrapping_sub(1)) {
                Some(&slot) => value.as_bool() == Some(path.rt.invocations[slot].signal_aborted),
                None => value.is_null(),
            },
        }
    }

    /// What a path says an observation shows, readable.
    fn expected(&self, path: &Path, observation: &Observation) -> String {
        match observation {
            Observation::Outcome(handle) => {
                if !self.names.invokes.contains_key(handle) && !path.resolutions.contains_key(handle) {
                    return format!("no invoke or resolution named {handle}");
                }
                format!("outcome of {handle}: {}", outcome_text(self.outcome_of(path, observation)))
            }
            Observation::PolicyCalls(capability) => {
                let calls = self.calls_of(path, capability, true);
                format!(
                    "{} policy call(s){}: {}",
                    calls.len(),
                    capability.as_ref().map(|c| format!(" of {c}")).unwrap_or_default(),
                    calls.iter().map(|(s, c)| format!("{}{}", self.handle(*s), if *c { " (confirmed)" } else { "" })).collect::<Vec<_>>().join(", ")
                )
            }
            Observation::HandlerCalls(capability) => {
                let calls = self.calls_of(path, capability, false);
                format!("{} handler call(s): {}", calls.len(), calls.iter().map(|(s, _)| self.handle(*s)).collect::<Vec<_>>().join(", "))
            }
            Observation::HandlerSignal(call) => match path.handler_calls.get(call.wrapping_sub(1)) {
                Some(&slot) => format!("handler call {call} ({}): signal aborted = {}", self.handle(slot), path.rt.invocations[slot].signal_aborted),
                None => format!("no handler call {call}"),
            },
        }
    }

    fn call_expectations(&self, kind: &CallKind, threw: bool, paths: &[Path]) -> (Vec<String>, Vec<String>) {
        let made = |policy: bool| -> Vec<String> {
            paths
                .iter()
                .map(|p| {
                    let n = if policy { p.policy_calls.len() } else { p.handler_calls.len() };
                    format!("{n} {} call(s) made so far", if policy { "policy" } else { "handler" })
                })
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect()
        };
        match kind {
            CallKind::PolicyGate { call, .. } => {
                let mut allowed = made(true);
                allowed.push(if threw {
                    format!("policy call {call} was made on every path, so settling it cannot fail")
                } else {
                    format!("no path has made policy call {call} by now")
                });
                (allowed, vec!["CL-B03-1".into(), "CL-B03-2".into(), "CL-B07-3".into(), "CL-B11-1".into(), "CL-B12-4".into()])
            }
            CallKind::HandlerGate { call, .. } => {
                let mut allowed = made(false);
                allowed.push(if threw {
                    format!("handler call {call} was made on every path, so settling it cannot fail")
                } else {
                    format!("no path has made handler call {call} by now")
                });
                (allowed, vec!["CL-B05-2".into(), "CL-B11-3".into(), "CL-B12-4".into()])
            }
            _ => (vec!["no successor state".into()], Vec::new()),
        }
    }

    fn handle(&self, slot: Slot) -> String {
        self.names.handles.get(&slot).cloned().unwrap_or_else(|| format!("slot {slot}"))
    }

    /// One path, readable: capabilities, context, then every invocation the trace made.
    fn describe(&self, path: &Path) -> String {
        let mut parts = Vec::new();
        for (c, id) in self.names.capabilities.iter().enumerate() {
            let binding = match path.rt.bindings[c].live {
                Some(identity) => {
                    let name = self.names.bindings.iter().find(|(_, (cap, i, _))| *cap == c && *i == identity).map(|(b, _)| b.clone());
                    format!("bound ({})", name.unwrap_or_else(|| format!("binding #{identity}")))
                }
                None => "unbound".into(),
            };
            parts.push(format!("{id}: {binding}, {}", if path.rt.available[c] { "available" } else { "unavailable" }));
        }
        let context = path.contexts[usize::from(path.rt.context == SemanticContext::Other)].clone().unwrap_or_default();
        parts.push(format!("context {}", readable_context(&context)));
        for (slot, invocation) in path.rt.invocations.iter().enumerate() {
            if invocation.phase == Phase::NotInvoked && !invocation.signal_aborted {
                continue;
            }
            parts.push(format!("{}: {}", self.handle(slot), describe_invocation(invocation)));
        }
        if !path.departures.is_empty() {
            parts.push(format!("departs from RECOMMENDED {}", path.departures.iter().copied().collect::<Vec<_>>().join(", ")));
        }
        parts.join("; ")
    }
}

/// A canonical context (`canonical_context`) as people write it.
fn readable_context(canonical: &str) -> String {
    let value: Value = serde_json::from_str(canonical).unwrap_or(Value::Null);
    match (value.get(0), value.get(1)) {
        (Some(Value::Null), _) | (None, _) => "(none set)".into(),
        (Some(scopes), Some(Value::Null)) | (Some(scopes), None) => format!("{{activeScopeIds: {scopes}}}"),
        (Some(scopes), Some(primary)) => format!("{{activeScopeIds: {scopes}, primaryScopeId: {primary}}}"),
    }
}

fn describe_invocation(invocation: &Invocation) -> String {
    let phase = match invocation.phase {
        Phase::NotInvoked => "not invoked".to_string(),
        Phase::AwaitingPolicy { pass: Pass::Initial } => "awaiting policy".into(),
        Phase::AwaitingPolicy { pass: Pass::Confirmed } => "awaiting policy (confirmed pass)".into(),
        Phase::AwaitingConfirmation => "awaiting confirmation".into(),
        Phase::HandlerRunning { .. } => "handler running".into(),
        Phase::Settled => "settled".into(),
    };
    let mut text = phase;
    if let Some(outcome) = invocation.invoke_outcome {
        text.push_str(&format!(", invoke gave {}", outcome_text(Some(outcome))));
    }
    match invocation.confirmation {
        Confirmation::NotIssued => {}
        Confirmation::Pending { .. } => text.push_str(", confirmation pending"),
        Confirmation::Approved => text.push_str(", confirmation approved"),
        Confirmation::Declined => text.push_str(", confirmation declined"),
        Confirmation::Receipt { kind, fate } => text.push_str(&format!(
            ", confirmation {} (receipt {})",
            if kind == ReceiptKind::Expired { "expired" } else { "cancelled" },
            match fate {
                ReceiptFate::Retained => "retained",
                ReceiptFate::Returned => "returned",
                ReceiptFate::Evicted => "evicted",
            }
        )),
    }
    if !invocation.resolutions.is_empty() {
        text.push_str(&format!(
            ", resolutions gave {}",
            invocation.resolutions.iter().map(|o| outcome_text(Some(*o))).collect::<Vec<_>>().join(", ")
        ));
    }
    if invocation.signal_aborted {
        text.push_str(", signal aborted");
    }
    text
}
