//! Vectors from the Assist turn model (`model::assist`, RCIP-PROTO-ASSIST-01..12, CL-C01..C06,
//! PRJ-ASSIST-*): the translation of one model path into a case of the common format
//! (vectors/README.md, "Assist (profile `assist`)"), the coverage classification behind the
//! certificate, and `generated()`, the section `rcip.model-assist` (`vectors/rcip/model-assist.json`).
//!
//! The model's actions fall in two groups. The environment's (the decision callback's answers, a
//! settling invoke or resolution, the host UI, the clock, the caller's abort) each become the
//! vector step(s) that cause them. The turn's own (`StartAction`, `CallSummarize`,
//! `SkipSummarize`) are what the implementation does by itself before the next step, so they
//! become no step: which capability an entry names is fixed in the decide answer (read from the
//! path: the model reveals an entry when it starts), and where the model lets the turn choose
//! (summarize after nothing ran, CL-C04-3, or after a cancellation, PRJ-ASSIST-CANCEL-01) the
//! expectation accepts every choice. Paths are walked on `ObservableTurn`, the model minus the
//! outside actions no vector can interleave (see there).
//!
//! The realization (one fixed setup): every policy call is a gate, so an invoke settles when the
//! vector settles its policy (allow, deny, or confirm); each batch position `i` has its own read
//! capability `notes.read<i>` and non-read `notes.change<i>` whose handler is scripted, from the
//! path, to return `{done: true}` or to throw, so a settling invoke is one policy gate and an
//! action in flight is always waiting on its policy (where CL-B11 decides what an abort does); an
//! unknown proposal names `notes.missing<i>`, which the catalog does not declare. Every entry of a
//! batch carries a symbolic delay, the last one too (never waited, CL-C03-2). After every step
//! the case expects what the model's state says: the turn (`assist-turn`: result and callback
//! calls), the policy and handler calls and the orchestrator's own `invoke` calls
//! (`assist-invocations`: nothing starts after a non-success or a cancellation, nothing is invoked
//! for a local rejection) and the outcome of each host-UI resolution; a case
//! whose last state has nothing due then lets 10 s pass and checks all of it again.
//!
//! Readings where the texts leave room, and so the expectations accept every one: after a
//! cancellation the turn may settle (with a result or by throwing), stay pending while what it
//! waited on is unsettled (never after a cancelled delay: CL-C06-2 ends it), or still make its
//! one summarize call (PRJ-ASSIST-CANCEL-01); the action in flight at the cancellation may
//! be aborted (its outcome `EXECUTION_ABORTED`, no handler call) or finish, and the turn may
//! record its outcome or not (PRJ-ASSIST-CANCEL-02); stopping the wait for a decide answer or a
//! pending confirmation at once is checked as RECOMMENDED (PRJ-ASSIST-CANCEL-03); a local
//! rejection is any non-success in the REQUIRED checks and denied `POLICY_DENIED` in a
//! RECOMMENDED one (CL-C05-3); an over-bound or malformed decision may end the turn either way
//! (only PRJ-ASSIST-TURN-01's well-formed decisions owe a result). The model's reading kept: an
//! unknown id in default mode goes through `invoke` (failed `CAPABILITY_NOT_FOUND`), so an action
//! "ran" and summarize is owed (CL-C04-1).
//!
//! Coverage: `transition_class` never answers `None`. The transitions no vector can express
//! (a cancellation in the transient `Ready` and `BatchEnded` phases; an answer to a summarize
//! call the implementation may not have made) are not in `ObservableTurn`, so `cover` neither
//! counts them nor routes a path through them: 1,280 of the model's 2,558 states stay reachable.

use std::collections::BTreeSet;

use model::assist::{
    Action, AssistModel, CancelPoint, DecideAnswer, EntryResult, InvokeResult, Mode,
    ObservableTurn, Proposal, ResolutionResult, SummarizeAnswer, TurnPhase, TurnState,
};
use model::stateright::Model;
use model::visit::{cover, walk, Coverage};
use serde_json::{json, Value};

use super::{load_regressions, regressions_dir, Generated};
use crate::case::{Case, Provenance, Section, Strictness};
use crate::pattern::{any, of_type, one_of, subset, unordered};

/// The section every generated Assist case belongs to.
pub const SECTION: &str = "rcip.model-assist";

/// Confirmation TTL of the setup (ms); `ConfirmationExpires` advances the clock twice as far.
const TTL_MS: u64 = 1000;

/// Delay amounts of the setup (ms) and the symbol of batch position `i` (0-based): `i % 3`.
const DELAYS: [(&str, u64); 3] = [("short", 100), ("medium", 200), ("long", 300)];

/// The turn's only handle and its abort signal: every case can cancel it.
const TURN: &str = "t1";
const SIGNAL: &str = "s1";

/// How far the clock moves at the end of a case whose model state has nothing due: past every
/// delay and confirmation TTL of the setup.
const QUIET_MS: u64 = 10_000;

const DECIDE_TEXT: &str = "decided";
const SUMMARY_TEXT: &str = "summarized";

/// Safety limit for `cover` (the default view has 1,280 states).
const MAX_STATES: usize = 200_000;

fn messages() -> Value {
    json!([{ "role": "user", "content": "tidy my notes" }])
}

// ---------------------------------------------------------------------------------------------
// The realization: catalog, setup, per-entry capabilities
// ---------------------------------------------------------------------------------------------

/// The capability id batch position `i` (0-based) names for `proposal`.
fn capability(i: usize, proposal: Proposal) -> String {
    match proposal {
        Proposal::Read => format!("notes.read{}", i + 1),
        Proposal::NonRead => format!("notes.change{}", i + 1),
        Proposal::Unknown => format!("notes.missing{}", i + 1),
    }
}

/// The effects of `notes.change<i>` cycle through every non-read effect.
fn non_read_effect(i: usize) -> &'static str {
    ["destructive", "external", "write"][i % 3]
}

/// Batch positions the catalog declares: the bound N. An over-bound batch's N + 1-th entry names
/// the undeclared `notes.read<N+1>`; nothing of that batch may run (CL-C01-4), and an
/// implementation ignoring the bound would show its first entries as policy calls.
fn positions(model: &AssistModel) -> usize {
    model.batch_bound as usize
}

fn definition(model: &AssistModel) -> Value {
    let mut capabilities = Vec::new();
    for i in 0..positions(model) {
        for (id, effect) in [
            (capability(i, Proposal::Read), "read"),
            (capability(i, Proposal::NonRead), non_read_effect(i)),
        ] {
            capabilities.push(json!({
                "id": id,
                "title": format!("Title of {id}"),
                "description": format!("Description of {id}"),
                "scopeIds": [],
                "effect": effect,
                "inputSchema": { "type": "object" },
                "outputSchema": { "type": "object" }
            }));
        }
    }
    json!({
        "protocolVersion": "1.0",
        "application": { "id": "notes", "name": "Notes", "description": "A notes application" },
        "scopes": [],
        "capabilities": capabilities
    })
}

fn setup(model: &AssistModel) -> Value {
    let delays: serde_json::Map<String, Value> = DELAYS
        .iter()
        .map(|(name, ms)| (name.to_string(), json!(ms)))
        .collect();
    json!({
        "definition": definition(model),
        "options": { "policy": { "mode": "gated" }, "confirmationTtlMs": TTL_MS },
        "assist": { "batchBound": model.batch_bound, "delays": delays }
    })
}

/// The capability ids a decision callback's snapshot lists in `mode`: every declared one in
/// default mode (all bound, available, no scopes: PRJ-ASSIST-SNAP-01), reads only in read-only
/// mode (CL-C05-1).
fn visible(model: &AssistModel, mode: Mode) -> Vec<String> {
    (0..positions(model))
        .flat_map(|i| {
            let mut ids = vec![capability(i, Proposal::Read)];
            if mode == Mode::Normal {
                ids.push(capability(i, Proposal::NonRead));
            }
            ids
        })
        .collect()
}

fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Normal => "default",
        Mode::ReadOnly => "read-only",
    }
}

/// What the decide answer of a path holds: the proposals of its entries (those the path starts,
/// then reads for those it never reaches), or nothing for text and malformed answers.
fn plan(model: &AssistModel, path: &[Action]) -> Vec<Proposal> {
    let started: Vec<Proposal> = path
        .iter()
        .filter_map(|a| match a {
            Action::StartAction(p) => Some(*p),
            _ => None,
        })
        .collect();
    let length = match path.iter().find_map(|a| match a {
        Action::Decide(answer) => Some(*answer),
        _ => None,
    }) {
        Some(DecideAnswer::Batch(k)) => k as usize,
        Some(DecideAnswer::OverBoundBatch) => model.batch_bound as usize + 1,
        _ => 0,
    };
    (0..length)
        .map(|i| started.get(i).copied().unwrap_or(Proposal::Read))
        .collect()
}

/// The handler of batch position `i`: it throws when the path ends that entry `Failed` (a
/// declared capability, so the outcome is `EXECUTION_FAILED`, CL-B12), else returns.
fn handler(failing: &BTreeSet<usize>, i: usize) -> Value {
    if failing.contains(&i) {
        json!({ "mode": "scripted", "settle": { "throw": "error" } })
    } else {
        json!({ "mode": "scripted", "settle": { "return": { "done": true } } })
    }
}

// ---------------------------------------------------------------------------------------------
// Patterns
// ---------------------------------------------------------------------------------------------

fn outcome(status: &str, capability: &str, code: &str) -> Value {
    json!({
        "status": status, "invocationId": of_type("string"), "capabilityId": capability,
        "code": code, "validationIssues": any()
    })
}

/// The canonical outcome (CL-A06) an entry's result shows. `strict_local`: a local rejection is
/// denied `POLICY_DENIED` (CL-C05-3, RECOMMENDED) rather than any non-success (CL-C05-2).
fn entry_outcome(i: usize, proposal: Proposal, result: EntryResult, strict_local: bool) -> Value {
    let cap = capability(i, proposal);
    match result {
        EntryResult::Succeeded => json!({
            "status": "succeeded", "invocationId": of_type("string"), "capabilityId": cap, "output": { "done": true }
        }),
        EntryResult::Failed if proposal == Proposal::Unknown => {
            outcome("failed", &cap, "CAPABILITY_NOT_FOUND")
        }
        EntryResult::Failed => outcome("failed", &cap, "EXECUTION_FAILED"),
        EntryResult::Denied => outcome("denied", &cap, "POLICY_DENIED"),
        EntryResult::Declined => outcome("denied", &cap, "CONFIRMATION_DECLINED"),
        EntryResult::Expired => outcome("failed", &cap, "CONFIRMATION_EXPIRED"),
        EntryResult::RejectedLocally if strict_local => json!({
            "status": "denied", "invocationId": any(), "capabilityId": cap, "code": "POLICY_DENIED", "validationIssues": any()
        }),
        EntryResult::RejectedLocally => json!({
            "status": one_of([json!("failed"), json!("denied")]), "invocationId": any(), "capabilityId": cap,
            "code": of_type("string"), "validationIssues": any()
        }),
        EntryResult::Cancelled => any_outcome(&cap),
    }
}

/// Any outcome of `capability`.
fn any_outcome(capability: &str) -> Value {
    subset(json!({ "capabilityId": capability }))
}

/// The entry in flight when the turn was cancelled (its invoke, confirmation or resolution was
/// pending): the last one started, since none starts after a cancellation.
fn in_flight(state: &TurnState) -> Option<usize> {
    match state.cancelled {
        Some(CancelPoint::ActionInFlight | CancelPoint::ConfirmationPending) => {
            state.entries.len().checked_sub(1)
        }
        _ => None,
    }
}

/// The outcomes the turn has completed: exactly these, or (after a cancellation with an entry
/// in flight) the ones before it with or without any outcome of that entry.
fn outcomes(state: &TurnState, strict_local: bool) -> Value {
    let flying = in_flight(state);
    let definite: Vec<Value> = state
        .entries
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != flying)
        .filter_map(|(i, e)| {
            e.result
                .map(|r| entry_outcome(i, e.proposal, r, strict_local))
        })
        .collect();
    match flying.and_then(|i| state.entries.get(i).map(|e| (i, e))) {
        None => Value::Array(definite),
        Some((i, entry)) => {
            let mut with = definite.clone();
            with.push(any_outcome(&capability(i, entry.proposal)));
            one_of([Value::Array(definite), Value::Array(with)])
        }
    }
}

/// The decide call (CL-C01-1, PRJ-ASSIST-MSG-01). `brief` after the first check of a case: the
/// call was recorded at call time and cannot change, so later checks only pin its phase, mode and
/// (empty) outcomes, which keeps the vectors small.
fn decide_call(model: &AssistModel, mode: Mode, brief: bool) -> Value {
    if brief {
        return json!({ "phase": "decide", "mode": mode_name(mode), "capabilities": any(), "messages": any(), "outcomes": [] });
    }
    let caps: Vec<Value> = visible(model, mode)
        .into_iter()
        .map(Value::String)
        .collect();
    json!({ "phase": "decide", "mode": mode_name(mode), "capabilities": unordered(caps), "messages": messages(), "outcomes": [] })
}

fn summarize_call(model: &AssistModel, mode: Mode, outcomes: Value) -> Value {
    let caps: Vec<Value> = visible(model, mode)
        .into_iter()
        .map(Value::String)
        .collect();
    json!({ "phase": "summarize", "mode": mode_name(mode), "capabilities": unordered(caps), "messages": any(), "outcomes": outcomes })
}

fn observation(result: Value, calls: Vec<Value>) -> Value {
    json!({ "result": result, "calls": calls })
}

/// Whether a cancelled turn may still be pending: while it may wait for what was in flight at
/// the cancellation (an invoke or resolution the vector has not settled yet, the decide answer or
/// the host UI, which PRJ-ASSIST-CANCEL-03 only RECOMMENDS it stop waiting for, or a summarize
/// answer no step gives). Not after a delay was cancelled (CL-C06-2: the delay ends), nor once
/// the action in flight has settled: nothing is left to wait for.
fn may_wait(state: &TurnState) -> bool {
    match state.cancelled {
        Some(CancelPoint::Delay) => false,
        Some(CancelPoint::ActionInFlight) => {
            matches!(state.phase, TurnPhase::Invoking | TurnPhase::Resolving)
        }
        _ => true,
    }
}

/// The `assist-turn` observation the model allows in `state` (a state the turn rests in between
/// two steps). `wait_allowed`: after a cancellation the turn may still be pending (REQUIRED
/// checks); `false` for the RECOMMENDED check of PRJ-ASSIST-CANCEL-03.
fn turn_pattern(
    model: &AssistModel,
    state: &TurnState,
    strict_local: bool,
    wait_allowed: bool,
) -> Value {
    let decide = decide_call(model, state.mode, state.steps > 0);
    let done = outcomes(state, strict_local);
    let summarize = summarize_call(model, state.mode, done.clone());
    let well_formed = matches!(
        state.decided,
        Some(DecideAnswer::Text | DecideAnswer::Batch(_))
    );
    if state.cancelled.is_some() {
        let mut ended = vec![
            json!("threw"),
            json!({ "text": any(), "outcomes": done.clone() }),
        ];
        if wait_allowed && may_wait(state) {
            ended.push(json!("pending"));
        }
        let without = observation(one_of(ended), vec![decide.clone()]);
        // Cancelled during a summarize call that was owed (an action had gone through invoke).
        let owed_before = state.cancelled == Some(CancelPoint::Summarizing)
            && state.summarize_calls == 1
            && state.entries.iter().any(|e| e.invoked);
        return match (state.decided, owed_before) {
            // The summarize call was owed and made before the cancellation.
            (_, true) => observation(
                if wait_allowed {
                    any()
                } else {
                    one_of([json!("threw"), json!({ "text": any(), "outcomes": done })])
                },
                vec![decide, summarize],
            ),
            // Cancelled while deciding, or after a text answer: no summarize follows a decision
            // that was never a batch.
            (None | Some(DecideAnswer::Text), false) => without,
            (_, false) => one_of([without, observation(any(), vec![decide, summarize])]),
        };
    }
    let optional = ObservableTurn::summarize_optional(state);
    match state.phase {
        TurnPhase::Deciding
        | TurnPhase::Ready
        | TurnPhase::Invoking
        | TurnPhase::AwaitingHost
        | TurnPhase::Resolving
        | TurnPhase::Delaying => observation(json!("pending"), vec![decide]),
        TurnPhase::Done if state.decided == Some(DecideAnswer::Text) => {
            observation(json!({ "text": DECIDE_TEXT, "outcomes": [] }), vec![decide])
        }
        TurnPhase::BatchEnded | TurnPhase::Summarizing | TurnPhase::Done if optional => {
            // CL-C04-3: the turn may end without summarize (a well-formed decision then owes
            // its result, PRJ-ASSIST-TURN-01), or make the call, which no step answers.
            let ended = if well_formed {
                json!({ "text": null, "outcomes": done })
            } else {
                one_of([json!("threw"), json!({ "text": any(), "outcomes": done })])
            };
            one_of([
                observation(ended, vec![decide.clone()]),
                observation(json!("pending"), vec![decide, summarize]),
            ])
        }
        TurnPhase::BatchEnded | TurnPhase::Summarizing => {
            observation(json!("pending"), vec![decide, summarize])
        }
        TurnPhase::Done => {
            let text = match state.summarized {
                Some(SummarizeAnswer::Text) => json!(SUMMARY_TEXT),
                _ => Value::Null,
            };
            observation(
                json!({ "text": text, "outcomes": done }),
                vec![decide, summarize],
            )
        }
    }
}

fn policy_call(capability: &str, confirmed: bool) -> Value {
    json!({ "capabilityId": capability, "input": {}, "semanticContext": any(), "confirmed": confirmed })
}

fn handler_call(capability: &str) -> Value {
    json!({ "capabilityId": capability, "input": {}, "invocationId": of_type("string"), "semanticContext": any() })
}

/// Every policy call so far: one per invoked declared entry, then its confirmed pass once the
/// host UI approved (CL-B07-3); nothing for a local rejection (CL-C05-2) or an unknown id
/// (CL-B03).
fn policy_calls(state: &TurnState) -> Value {
    let mut calls = Vec::new();
    for (i, e) in state.entries.iter().enumerate() {
        if e.invoked && e.proposal != Proposal::Unknown {
            calls.push(policy_call(&capability(i, e.proposal), false));
            if e.approved {
                calls.push(policy_call(&capability(i, e.proposal), true));
            }
        }
    }
    Value::Array(calls)
}

/// Every handler call so far: one per entry whose policy allowed (its result `Succeeded` or
/// `Failed`, a declared capability). The entry in flight at a cancellation may or may not have
/// run (PRJ-ASSIST-CANCEL-02 with CL-B11).
fn handler_calls(state: &TurnState) -> Value {
    let flying = in_flight(state);
    let mut definite = Vec::new();
    let mut maybe = None;
    for (i, e) in state.entries.iter().enumerate() {
        let ran = matches!(e.result, Some(EntryResult::Succeeded | EntryResult::Failed))
            && e.proposal != Proposal::Unknown;
        if Some(i) == flying {
            if ran {
                maybe = Some(handler_call(&capability(i, e.proposal)));
            }
        } else if ran {
            definite.push(handler_call(&capability(i, e.proposal)));
        }
    }
    match maybe {
        None => Value::Array(definite),
        Some(call) => {
            let mut with = definite.clone();
            with.push(call);
            one_of([Value::Array(definite), Value::Array(with)])
        }
    }
}

/// Every `invoke` call the orchestrator made so far (`assist-invocations`), in order: one per
/// entry the model invoked, with the proposed input. An action starts through `client.invoke`
/// (CL-C02-1), never after a non-success (CL-C02-2) or a cancellation (CL-C06-1), and a local
/// rejection makes no call (CL-C05-2). Unlike the policy and handler calls, this list also shows
/// a call the runtime refuses at once (an aborted signal, CL-B03), so an orchestrator that goes
/// on invoking after the abort fails even when the runtime saves it.
fn invocations(state: &TurnState) -> Value {
    let calls: Vec<Value> = state
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.invoked)
        .map(|(i, e)| json!({ "capabilityId": capability(i, e.proposal), "input": {} }))
        .collect();
    Value::Array(calls)
}

fn resolution_handle(i: usize) -> String {
    format!("r{}", i + 1)
}

/// Every expectation of `state`: the turn, policy and handler calls, each resolution's outcome.
fn expectations(model: &AssistModel, state: &TurnState) -> Vec<Value> {
    let mut steps = vec![
        json!({ "expect": "assist-turn", "of": TURN, "is": turn_pattern(model, state, false, true) }),
        json!({ "expect": "policy-calls", "is": policy_calls(state) }),
        json!({ "expect": "handler-calls", "is": handler_calls(state) }),
        json!({
            "expect": "assist-invocations", "of": TURN, "is": invocations(state),
            "requirements": ["CL-C02-1", "CL-C02-2", "CL-C05-2", "CL-C06-1"]
        }),
    ];
    let flying = in_flight(state);
    for (i, e) in state.entries.iter().enumerate() {
        let resolved =
            e.approved || matches!(e.result, Some(EntryResult::Declined | EntryResult::Expired));
        if !resolved || Some(i) == flying {
            continue;
        }
        let is = match e.result {
            None => json!("pending"),
            Some(result) => entry_outcome(i, e.proposal, result, false),
        };
        steps.push(json!({ "expect": "outcome", "of": resolution_handle(i), "is": is }));
    }
    if state
        .entries
        .iter()
        .any(|e| e.result == Some(EntryResult::RejectedLocally))
    {
        steps.push(json!({
            "expect": "assist-turn", "of": TURN, "is": turn_pattern(model, state, true, true),
            "strictness": "RECOMMENDED", "requirements": ["CL-C05-3"]
        }));
    }
    steps
}

// ---------------------------------------------------------------------------------------------
// Steps
// ---------------------------------------------------------------------------------------------

fn batch_items(plan: &[Proposal]) -> Vec<Value> {
    plan.iter()
        .enumerate()
        .map(|(i, p)| json!({ "capabilityId": capability(i, *p), "input": {}, "delay": DELAYS[i % 3].0 }))
        .collect()
}

fn gate_assist(call: u32, settle: Value) -> Value {
    json!({ "gate": "assist", "call": call, "settle": settle })
}

fn gate_policy(call: usize, decision: Value) -> Value {
    json!({ "gate": "policy", "call": call, "settle": { "return": decision } })
}

fn allow() -> Value {
    json!({ "decision": "allow" })
}

fn advance(ms: u64) -> Value {
    json!({ "clock": "advance", "ms": ms })
}

fn resolve(i: usize, approved: bool) -> Value {
    json!({
        "host": "resolve-confirmation", "as": resolution_handle(i),
        "confirmation": { "turn": TURN, "action": i + 1 }, "approved": approved
    })
}

/// Whether the turn itself takes `action` (no vector step causes it).
fn internal(action: &Action) -> bool {
    matches!(
        action,
        Action::StartAction(_) | Action::CallSummarize | Action::SkipSummarize
    )
}

/// The 1-based number of the policy call the last entry is waiting on in `state` (its first pass,
/// or its confirmed pass once approved): calls are numbered in entry order (see
/// [`policy_calls`]).
fn pending_policy_call(state: &TurnState) -> usize {
    match &policy_calls(state) {
        Value::Array(calls) => calls.len(),
        _ => 0,
    }
}

/// The steps that cause `action` in `state` (none for the turn's own actions). A delay's end
/// is two clock steps with the expectations of the still-waiting state between them, so a
/// vector also sees that the next entry does not start a millisecond early (CL-C03-1).
fn steps_of(
    model: &AssistModel,
    plan: &[Proposal],
    state: &TurnState,
    action: &Action,
) -> Vec<Value> {
    let last = state.entries.len().saturating_sub(1);
    match action {
        Action::Decide(DecideAnswer::Text) => vec![gate_assist(1, json!({ "text": DECIDE_TEXT }))],
        Action::Decide(DecideAnswer::Malformed) => vec![gate_assist(1, json!({ "malformed": "not-an-answer" }))],
        Action::Decide(_) => vec![gate_assist(1, json!({ "actions": batch_items(plan) }))],
        Action::InvokeSettles(result) => {
            let decision = match result {
                InvokeResult::Succeeded | InvokeResult::Failed => allow(),
                InvokeResult::Denied => json!({ "decision": "deny", "reason": "not now" }),
                InvokeResult::ConfirmationRequired => json!({ "decision": "confirm", "reason": "needs a person" }),
            };
            vec![gate_policy(pending_policy_call(state), decision)]
        }
        Action::HostApproves => vec![resolve(last, true)],
        Action::HostDeclines => vec![resolve(last, false)],
        Action::ConfirmationExpires => vec![advance(2 * TTL_MS), resolve(last, true)],
        Action::ResolutionSettles(result) => {
            let decision = match result {
                ResolutionResult::Succeeded | ResolutionResult::Failed => allow(),
                ResolutionResult::Denied => json!({ "decision": "deny", "reason": "not now" }),
            };
            vec![gate_policy(pending_policy_call(state), decision)]
        }
        Action::DelayElapses => {
            let ms = DELAYS[last % 3].1;
            let mut steps = vec![advance(ms - 1)];
            steps.extend(expectations(model, state));
            steps.push(advance(1));
            steps
        }
        Action::SummarizeAnswers(answer) => {
            let settle = match answer {
                SummarizeAnswer::Text => json!({ "text": SUMMARY_TEXT }),
                SummarizeAnswer::Actions => {
                    json!({ "actions": [{ "capabilityId": capability(0, Proposal::Read), "input": {} }] })
                }
                SummarizeAnswer::Malformed => json!({ "malformed": "not-an-answer" }),
            };
            vec![gate_assist(2, settle)]
        }
        Action::Cancel => vec![json!({ "client": "abort", "signal": SIGNAL })],
        Action::StartAction(_) | Action::CallSummarize | Action::SkipSummarize => Vec::new(),
    }
    .into_iter()
    .map(|step| with_note(step, action))
    .collect()
}

fn with_note(mut step: Value, action: &Action) -> Value {
    if step.get("expect").is_none() {
        if let Some(object) = step.as_object_mut() {
            object.insert("note".into(), json!(format!("model: {action:?}")));
        }
    }
    step
}

// ---------------------------------------------------------------------------------------------
// Translation
// ---------------------------------------------------------------------------------------------

/// The view every path is walked on: the default model (batch bound 2, both modes).
pub fn vector_model() -> ObservableTurn {
    ObservableTurn(AssistModel::default())
}

/// The turn's own actions that follow `state` before anything else can happen: the next entry
/// starts (the one `plan` names), or an owed summarize call is made.
fn settle_internally(
    view: &ObservableTurn,
    plan: &[Proposal],
    mut state: TurnState,
    path: &mut Vec<Action>,
) -> TurnState {
    loop {
        let action = match state.phase {
            TurnPhase::Ready => Action::StartAction(
                plan.get(state.entries.len())
                    .copied()
                    .unwrap_or(Proposal::Read),
            ),
            TurnPhase::BatchEnded if !ObservableTurn::summarize_optional(&state) => {
                Action::CallSummarize
            }
            _ => return state,
        };
        match view.next_state(&state, action) {
            Some(next) => {
                path.push(action);
                state = next;
            }
            None => return state,
        }
    }
}

/// One model path as a case, or `None` when the path is not one of `view` (an action not
/// enabled where it is taken). `target` names what the path was chosen for (the case id's
/// slug); `provenance` is filled by the caller.
pub fn translate_path(
    view: &ObservableTurn,
    init: usize,
    path: &[Action],
    target: &str,
) -> Option<Case> {
    let model = &view.0;
    let mut state = view.init_states().into_iter().nth(init)?;
    // Replay first: every action must be enabled where the path takes it.
    let mut full = Vec::new();
    {
        let mut s = state.clone();
        let mut enabled = Vec::new();
        for action in path {
            enabled.clear();
            view.actions(&s, &mut enabled);
            if !enabled.contains(action) {
                return None;
            }
            s = view.next_state(&s, *action)?;
            full.push(*action);
        }
        let proposals = plan(model, &full);
        settle_internally(view, &proposals, s, &mut full);
    }
    let proposals = plan(model, &full);
    let failing: BTreeSet<usize> = {
        let mut s = state.clone();
        for action in &full {
            s = view.next_state(&s, *action)?;
        }
        s.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.result == Some(EntryResult::Failed))
            .map(|(i, _)| i)
            .collect()
    };
    let mut steps = Vec::new();
    for i in 0..positions(model) {
        for proposal in [Proposal::Read, Proposal::NonRead] {
            let cap = capability(i, proposal);
            let is_entry = proposals.get(i) == Some(&proposal);
            let h = if is_entry {
                handler(&failing, i)
            } else {
                handler(&BTreeSet::new(), i)
            };
            steps.push(
                json!({ "host": "bind", "capability": cap, "as": format!("b{}", cap.replace('.', "-")), "handler": h }),
            );
        }
    }
    steps.push(json!({
        "client": "assist-turn", "as": TURN, "mode": mode_name(state.mode), "messages": messages(), "signal": SIGNAL
    }));
    let mut owe_expectations = true;
    // Issue 27 §3: the expectations after a run of transitions cite those of their ids that
    // decide each observation (else those of the path so far).
    let mut citer = crate::step_ids::PathCiter::default();
    let mut since: Vec<String> = Vec::new();
    let mut expect_after = |steps: &mut Vec<Value>, since: &mut Vec<String>, state: &TurnState| {
        // Nothing happened since the last expectations (time passed with nothing due): what
        // decided them decides these.
        if !since.is_empty() {
            citer.transition(since);
        }
        since.clear();
        let from = steps.len();
        steps.extend(expectations(model, state));
        citer.cite(&mut steps[from..], Strictness::Required.as_str());
    };
    for action in &full {
        if let Some(class) = AssistCoverage.transition_class(&state, action) {
            since.extend(requirements_of(&class));
        }
        if internal(action) {
            state = view.next_state(&state, *action)?;
            continue;
        }
        if owe_expectations {
            expect_after(&mut steps, &mut since, &state);
        }
        steps.extend(steps_of(model, &proposals, &state, action));
        let before = state.clone();
        state = view.next_state(&state, *action)?;
        owe_expectations = true;
        // PRJ-ASSIST-CANCEL-03 (RECOMMENDED): cancelled while waiting for the decide answer or
        // the host UI, the turn stops waiting at once.
        if *action == Action::Cancel
            && matches!(before.phase, TurnPhase::Deciding | TurnPhase::AwaitingHost)
        {
            let next = settle_internally(view, &proposals, state.clone(), &mut Vec::new());
            steps.push(json!({
                "expect": "assist-turn", "of": TURN, "is": turn_pattern(model, &next, false, false),
                "strictness": "RECOMMENDED", "requirements": ["PRJ-ASSIST-CANCEL-03"]
            }));
        }
    }
    if owe_expectations {
        expect_after(&mut steps, &mut since, &state);
    }
    // Time passing is an outside action only while a delay runs or a confirmation waits; anywhere
    // else the model has nothing due, so a long wait must change nothing: no action starts after
    // a cancelled delay (CL-C06-1/2), the turn takes no further step by itself.
    let clock_driven = state.cancelled.is_none()
        && matches!(state.phase, TurnPhase::Delaying | TurnPhase::AwaitingHost);
    if !clock_driven {
        steps.push(json!({ "clock": "advance", "ms": QUIET_MS, "note": "model: nothing is due; time passes" }));
        expect_after(&mut steps, &mut since, &state);
    }
    let cited = citer.cited;
    let slug = slugify(target);
    let id = format!("{SECTION}.{slug}.001");
    let mut requirements = requirements_of(target);
    // A target that is no transition class (a random or regression path): what every transition
    // on the path exercises.
    if requirements.len() <= 1 {
        let mut s = view.init_states().into_iter().nth(init)?;
        for action in &full {
            if let Some(class) = AssistCoverage.transition_class(&s, action) {
                requirements.extend(requirements_of(&class));
            }
            s = view.next_state(&s, *action)?;
        }
    }
    requirements.extend(cited);
    requirements.sort();
    requirements.dedup();
    let refs: Vec<&str> = requirements.iter().map(String::as_str).collect();
    Some(
        Case::new(id, description(target))
            .requirements(&refs)
            .strictness(Strictness::Required)
            .profiles(&["assist"])
            .setup(setup(model))
            .steps(steps),
    )
}

/// The case description: what the path was chosen for (the schema caps it at 70 characters;
/// the mode is part of every class).
fn description(target: &str) -> String {
    let text = format!("Model path: {target}");
    text.chars().take(70).collect()
}

/// The provenance's configuration line (the path's first entry).
fn configuration(view: &ObservableTurn, init: usize) -> String {
    let mode = view
        .init_states()
        .into_iter()
        .nth(init)
        .map_or("?", |s| mode_name(s.mode));
    format!(
        "model::assist::ObservableTurn (batch bound {}, {mode} mode); setup: gated policy, confirmation TTL {TTL_MS} ms, delays short/medium/long 100/200/300 ms",
        view.0.batch_bound
    )
}

fn provenance(
    kind: &'static str,
    seed: Option<String>,
    view: &ObservableTurn,
    init: usize,
    path: &[Action],
) -> Provenance {
    let mut entries = vec![configuration(view, init)];
    entries.extend(path.iter().map(|a| format!("{a:?}")));
    Provenance {
        kind,
        by: format!(
            "model::assist (batch bound {}, both modes)",
            view.0.batch_bound
        ),
        seed,
        path: entries,
    }
}

/// A case for a differential test's path (`model::visit::walk` on [`vector_model`]).
pub fn translate(init: usize, path: &[Action]) -> Option<Case> {
    let view = vector_model();
    let target = path
        .last()
        .map_or("start".to_string(), |a| format!("{a:?}"));
    let case = translate_path(&view, init, path, &format!("random path ending {target}"))?;
    let mut case = case;
    case.id = format!("{SECTION}.differential.001");
    Some(case.provenance(provenance("proptest", None, &view, init, path)))
}

fn slugify(text: &str) -> String {
    let mut slug = String::new();
    let mut dash = false;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if dash && !slug.is_empty() {
                slug.push('-');
            }
            dash = false;
            slug.push(c.to_ascii_lowercase());
        } else {
            dash = true;
        }
    }
    slug
}

// ---------------------------------------------------------------------------------------------
// Coverage
// ---------------------------------------------------------------------------------------------

/// The transition classes and codes of the Assist turn, as the vectors can show them.
pub struct AssistCoverage;

fn position(state: &TurnState) -> &'static str {
    if state.entries.len() <= 1 {
        "first"
    } else {
        "later"
    }
}

/// Whether the entry in progress is the batch's last.
fn more(state: &TurnState) -> &'static str {
    if (state.entries.len() as u8) < state.batch_len {
        "more-follow"
    } else {
        "last"
    }
}

fn cancelled(state: &TurnState) -> &'static str {
    if state.cancelled.is_some() {
        "after-cancel"
    } else {
        "live"
    }
}

fn result_name(result: impl std::fmt::Debug) -> String {
    slugify(&format!("{result:?}"))
}

/// Why summarize is optional in `state` (CL-C04-3 or PRJ-ASSIST-CANCEL-01), or `owed`.
fn summarize_reason(state: &TurnState) -> &'static str {
    if state.cancelled.is_some() {
        "after-cancel"
    } else if !ObservableTurn::summarize_optional(state) {
        "owed"
    } else {
        "nothing-invoked"
    }
}

impl Coverage<ObservableTurn> for AssistCoverage {
    fn transition_class(&self, state: &TurnState, action: &Action) -> Option<String> {
        let mode = mode_name(state.mode);
        let class = match action {
            Action::Decide(DecideAnswer::Batch(k)) => format!("decide batch{k}@{mode}"),
            Action::Decide(answer) => format!("decide {}@{mode}", result_name(answer)),
            // The start of entry k + 1 (k entries started so far).
            Action::StartAction(p) => {
                let at = if state.entries.is_empty() {
                    "first"
                } else {
                    "later"
                };
                format!("start {}@{mode} {at}", result_name(p))
            }
            Action::InvokeSettles(r) => {
                format!(
                    "invoke {}@{mode} {} {} {}",
                    result_name(r),
                    position(state),
                    more(state),
                    cancelled(state)
                )
            }
            Action::HostApproves => {
                format!("host approves@{mode} {} {}", position(state), more(state))
            }
            Action::HostDeclines => {
                format!("host declines@{mode} {} {}", position(state), more(state))
            }
            Action::ConfirmationExpires => format!(
                "confirmation expires@{mode} {} {}",
                position(state),
                more(state)
            ),
            Action::ResolutionSettles(r) => {
                format!(
                    "resolution {}@{mode} {} {} {}",
                    result_name(r),
                    position(state),
                    more(state),
                    cancelled(state)
                )
            }
            Action::DelayElapses => format!("delay elapses@{mode}"),
            // Where summarize is the turn's choice, calling and skipping it give the same vector
            // (its expectations accept both), so they are one class.
            Action::CallSummarize | Action::SkipSummarize
                if ObservableTurn::summarize_optional(state) =>
            {
                format!("summarize call or skip@{mode} {}", summarize_reason(state))
            }
            Action::CallSummarize => format!("summarize call@{mode} owed"),
            Action::SkipSummarize => format!("summarize skip@{mode} owed"),
            // `ObservableTurn` offers an answer only to an owed summarize call.
            Action::SummarizeAnswers(a) => format!("summarize answers {}@{mode}", result_name(a)),
            Action::Cancel => format!("cancel@{mode} {}", result_name(state.phase)),
        };
        Some(class)
    }

    fn codes(&self, state: &TurnState) -> Vec<String> {
        state
            .entries
            .iter()
            .filter_map(|e| e.result.map(|r| code(e.proposal, r).to_string()))
            .collect()
    }

    fn all_codes(&self) -> Vec<String> {
        ALL_CODES.iter().map(|c| c.to_string()).collect()
    }

    fn finish(&self, model: &ObservableTurn, state: &TurnState) -> Vec<Action> {
        let mut state = state.clone();
        let mut actions = Vec::new();
        for _ in 0..64 {
            let action = match state.phase {
                TurnPhase::Deciding => Action::Decide(DecideAnswer::Text),
                TurnPhase::Ready => Action::StartAction(Proposal::Read),
                TurnPhase::Invoking => Action::InvokeSettles(InvokeResult::Succeeded),
                TurnPhase::AwaitingHost => Action::HostDeclines,
                TurnPhase::Resolving => Action::ResolutionSettles(ResolutionResult::Succeeded),
                TurnPhase::Delaying => Action::DelayElapses,
                TurnPhase::BatchEnded if ObservableTurn::summarize_optional(&state) => {
                    Action::SkipSummarize
                }
                TurnPhase::BatchEnded => Action::CallSummarize,
                TurnPhase::Summarizing if ObservableTurn::summarize_optional(&state) => break,
                TurnPhase::Summarizing => Action::SummarizeAnswers(SummarizeAnswer::Text),
                TurnPhase::Done => break,
            };
            match model.next_state(&state, action) {
                Some(next) => {
                    actions.push(action);
                    state = next;
                }
                None => break,
            }
        }
        actions
    }
}

/// The observable code of an entry's result (the outcome the realization gives it).
fn code(proposal: Proposal, result: EntryResult) -> &'static str {
    match result {
        EntryResult::Succeeded => "succeeded",
        EntryResult::Failed if proposal == Proposal::Unknown => "failed/CAPABILITY_NOT_FOUND",
        EntryResult::Failed => "failed/EXECUTION_FAILED",
        EntryResult::Denied => "denied/POLICY_DENIED",
        EntryResult::Declined => "denied/CONFIRMATION_DECLINED",
        EntryResult::Expired => "failed/CONFIRMATION_EXPIRED",
        EntryResult::Cancelled => "cancelled-while-confirming",
        EntryResult::RejectedLocally => "local/POLICY_DENIED",
    }
}

/// Every code of the model's `EntryResult` as realized (`Failed` splits by proposal).
const ALL_CODES: [&str; 8] = [
    "succeeded",
    "failed/EXECUTION_FAILED",
    "failed/CAPABILITY_NOT_FOUND",
    "denied/POLICY_DENIED",
    "denied/CONFIRMATION_DECLINED",
    "failed/CONFIRMATION_EXPIRED",
    "cancelled-while-confirming",
    "local/POLICY_DENIED",
];

/// The requirement ids a target (transition class or `code:<code>`) exercises: by the action
/// kind (before `@`) and, where it matters, the context after it (mode, cancel phase).
fn requirements_of(target: &str) -> Vec<String> {
    let (kind, context) = target.split_once('@').unwrap_or((target, ""));
    let read_only = context.starts_with("read-only");
    let mut ids = vec!["RCIP-PROTO-ASSIST-01"];
    let add: &[&str] = match kind {
        "decide text" => &[
            "RCIP-PROTO-ASSIST-03",
            "CL-C01-1",
            "CL-C01-2",
            "PRJ-ASSIST-MSG-01",
            "PRJ-ASSIST-TURN-01",
        ],
        k if k.starts_with("decide batch") => &[
            "RCIP-PROTO-ASSIST-03",
            "CL-C01-1",
            "CL-C01-2",
            "CL-C02-1",
            "RCIP-PROTO-ASSIST-06",
        ],
        "decide overboundbatch" | "decide malformed" => {
            &["RCIP-PROTO-ASSIST-03", "CL-C01-4", "CL-C04-3"]
        }
        "start read" => &["CL-C02-1", "RCIP-PROTO-ASSIST-06"],
        "start nonread" | "start unknown" if read_only => &[
            "RCIP-PROTO-ASSIST-12",
            "CL-C05-2",
            "CL-C05-3",
            "PRJ-ASSIST-LOCAL-01",
            "CL-C04-3",
        ],
        // Default mode: a non-read action goes through invoke like any other (CL-C02-1); an
        // unknown id fails the lookup (CL-B03) and that non-success stops the batch.
        "start nonread" => &["CL-C02-1", "RCIP-PROTO-ASSIST-06"],
        "start unknown" => &["CL-C02-1", "CL-C02-2", "RCIP-PROTO-ASSIST-07", "CL-C04-1"],
        "invoke succeeded" | "resolution succeeded" => &[
            "CL-C02-1",
            "RCIP-PROTO-ASSIST-06",
            "CL-C04-1",
            "RCIP-PROTO-ASSIST-04",
        ],
        "invoke failed" | "invoke denied" | "resolution failed" | "resolution denied" => {
            &["RCIP-PROTO-ASSIST-07", "CL-C02-2", "CL-C04-1"]
        }
        "invoke confirmationrequired" => &["RCIP-PROTO-ASSIST-10", "CL-C02-3", "CL-C02-4"],
        "host approves" => &["RCIP-PROTO-ASSIST-10", "CL-C02-3", "CL-B07-3"],
        "host declines" => &["RCIP-PROTO-ASSIST-10", "CL-C02-3", "CL-C02-2", "CL-B07-2"],
        "confirmation expires" => &[
            "RCIP-PROTO-ASSIST-10",
            "CL-C02-3",
            "CL-C02-4",
            "CL-C02-2",
            "CL-B08-3",
        ],
        "delay elapses" => &[
            "RCIP-PROTO-ASSIST-09",
            "CL-C03-1",
            "CL-C03-2",
            "PRJ-ASSIST-FMT-02",
        ],
        "summarize call or skip" => &["RCIP-PROTO-ASSIST-04", "CL-C04-3", "PRJ-ASSIST-CANCEL-01"],
        "summarize call" | "summarize skip" => &["RCIP-PROTO-ASSIST-04", "CL-C04-1"],
        k if k.starts_with("summarize answers") => &[
            "RCIP-PROTO-ASSIST-04",
            "RCIP-PROTO-ASSIST-05",
            "CL-C04-2",
            "PRJ-ASSIST-TURN-01",
        ],
        "cancel" if context.ends_with("deciding") => {
            &["RCIP-PROTO-ASSIST-08", "CL-C06-1", "PRJ-ASSIST-CANCEL-03"]
        }
        "cancel" if context.ends_with("invoking") || context.ends_with("resolving") => &[
            "RCIP-PROTO-ASSIST-08",
            "CL-C06-1",
            "PRJ-ASSIST-CANCEL-01",
            "PRJ-ASSIST-CANCEL-02",
        ],
        "cancel" if context.ends_with("awaitinghost") => &[
            "RCIP-PROTO-ASSIST-08",
            "CL-C06-1",
            "PRJ-ASSIST-CANCEL-01",
            "PRJ-ASSIST-CANCEL-03",
            "CL-B09-1",
        ],
        "cancel" if context.ends_with("delaying") => &[
            "RCIP-PROTO-ASSIST-08",
            "CL-C06-1",
            "CL-C06-2",
            "PRJ-ASSIST-CANCEL-01",
        ],
        "cancel" => &["RCIP-PROTO-ASSIST-08", "CL-C06-1", "PRJ-ASSIST-CANCEL-01"],
        "code:local/POLICY_DENIED" => &["RCIP-PROTO-ASSIST-12", "CL-C05-2", "CL-C05-3"],
        "code:denied/CONFIRMATION_DECLINED" => &["CL-C02-3", "CL-C02-2", "CL-B07-2"],
        "code:failed/CONFIRMATION_EXPIRED" => &["CL-C02-3", "CL-C02-2", "CL-B08-3"],
        "code:cancelled-while-confirming" => &["CL-C06-1", "PRJ-ASSIST-CANCEL-03"],
        k if k.starts_with("code:") => &["CL-C02-2", "RCIP-PROTO-ASSIST-07"],
        _ => &[],
    };
    ids.extend_from_slice(add);
    if read_only {
        ids.extend_from_slice(&["RCIP-PROTO-ASSIST-11", "CL-C05-1"]);
    }
    ids.into_iter().map(str::to_string).collect()
}

// ---------------------------------------------------------------------------------------------
// Generation
// ---------------------------------------------------------------------------------------------

/// The model-generated section: one case per path `cover` chose on [`vector_model`], then one
/// per committed regression (`suites/regressions/assist.json`), and the certificate.
pub fn generated() -> Vec<Generated> {
    let view = vector_model();
    let (paths, certificate) = cover("assist", &view, &AssistCoverage, MAX_STATES);
    let mut cases = Vec::new();
    for path in &paths {
        let Some(case) = translate_path(&view, path.init, &path.actions, &path.target) else {
            continue;
        };
        cases.push(case.provenance(provenance("model", None, &view, path.init, &path.actions)));
    }
    let regressions =
        load_regressions(&regressions_dir(), "assist").unwrap_or_else(|e| panic!("{e}"));
    for regression in regressions {
        let (init, actions) = walk(&view, &regression.choices);
        let slug = regression.slug();
        let Some(mut case) = translate_path(
            &view,
            init,
            &actions,
            &format!("committed regression {slug}"),
        ) else {
            continue;
        };
        case.id = format!("{SECTION}.{slug}.001");
        regression.annotate(&mut case);
        cases.push(case.provenance(provenance(
            "proptest",
            Some(regression.seed.clone()),
            &view,
            init,
            &actions,
        )));
    }
    let section = Section::new(
        SECTION,
        "Assist turns generated by the model",
        "suites::cases::from_model::assist",
    )
    .cases(cases);
    vec![Generated {
        sections: vec![section],
        certificate,
    }]
}
