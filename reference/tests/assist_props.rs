//! Property test of the Assist orchestrator (`reference::rcip::assist`) over the reference RCIP
//! runtime: arbitrary decide answers (text, batches of any size with any capability, delay and
//! input, malformed answers, throws, answered at once or later), arbitrary policy decisions and
//! handler results (at once or gated), arbitrary host-UI resolutions (approve, decline, approve
//! after expiry), arbitrary summarize answers and a cancellation at an arbitrary point. Whatever
//! happens, the invocations the runtime saw (its `requested` events) show:
//!
//! - never more than the bound N, and none for a batch over it or a malformed answer (CL-C01-2/4);
//! - the batch's actions in batch order, one at a time (CL-C02-1);
//! - no action after a non-success outcome (CL-C02-2) nor after the cancellation (CL-C06-1);
//! - in read-only mode, no invocation of a non-read or unknown capability (CL-C05-2);
//! - at most one summarize call, made only if an action went through invoke, and always made then
//!   when the turn was not cancelled (CL-C04-1); actions it answers never run (CL-C04-2);
//! - the turn has ended once nothing is left to settle.
//!
//! Case counts are small by default so `cargo test -p reference` stays fast; set
//! `PROPTEST_CASES` for more. Failures persist to `proptest-regressions/assist_props.txt`.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};
use reference::rcip::assist::{
    AssistConfig, Assistant, CallbackAnswer, CallbackId, CallbackView, DelayAmounts, Mode, Phase,
    TurnEnd, TurnId, TurnRequest,
};
use reference::rcip::{
    AbortSignal, Answer, BindingSpec, CallId, Definition, HostError, HostValue,
    Phase as EventPhase, PolicyCall, RcipEvent, Runtime, RuntimeOptions, Status,
};
use serde_json::{json, Value};

fn config(default_cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default_cases);
    Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/assist_props.txt",
        ))),
        ..Config::default()
    }
}

/// Declared capabilities and their effects; index 5 in a scenario is an undeclared id.
const CAPS: [(&str, &str); 5] = [
    ("notes.list", "read"),
    ("notes.search", "read"),
    ("notes.create", "write"),
    ("notes.delete", "destructive"),
    ("notes.share", "external"),
];
const UNKNOWN: &str = "notes.archive";
const TTL_MS: u64 = 1000;

fn cap_id(index: u8) -> &'static str {
    CAPS.get(usize::from(index)).map_or(UNKNOWN, |(id, _)| id)
}

fn is_read(id: &str) -> bool {
    CAPS.iter().any(|(c, effect)| *c == id && *effect == "read")
}

fn definition() -> Definition {
    let capabilities: Vec<Value> = CAPS
        .iter()
        .map(|(id, effect)| {
            let input = if *id == "notes.create" {
                json!({ "type": "object", "properties": { "text": { "type": "string" } }, "required": ["text"], "additionalProperties": false })
            } else {
                json!({ "type": "object" })
            };
            json!({ "id": id, "title": id, "description": id, "scopeIds": [], "effect": effect,
                    "inputSchema": input, "outputSchema": { "type": "object" } })
        })
        .collect();
    let value = json!({
        "protocolVersion": "1.0",
        "application": { "id": "notes", "name": "Notes", "description": "Notes" },
        "scopes": [],
        "capabilities": capabilities
    });
    match Definition::define(&HostValue::from_json(&value)) {
        Ok(definition) => definition,
        Err(e) => panic!("the test definition is valid: {e}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone)]
struct Action {
    cap: u8,
    /// 0: none, 1..3: short, medium, long, 4: an unknown symbol (malformed).
    delay: u8,
    /// For notes.create: whether the input passes its schema.
    valid_input: bool,
}

#[derive(Debug, Clone)]
enum Decide {
    Text,
    Batch(Vec<Action>),
    NotAnAnswer,
    Throw,
}

#[derive(Debug, Clone)]
struct Scenario {
    read_only: bool,
    bound: i64,
    decide: Decide,
    decide_later: bool,
    /// 0 allow, 1 deny, 2 confirm (cycled).
    policy: Vec<u8>,
    /// 0 returns, 1 throws, 2 gated then returns, 3 gated then throws (cycled).
    handlers: Vec<u8>,
    /// 0 approve, 1 decline, 2 approve after expiry (cycled).
    resolutions: Vec<u8>,
    summarize_actions: bool,
    cancel_at: Option<u8>,
}

fn action() -> impl Strategy<Value = Action> {
    (
        0u8..6,
        prop_oneof![6 => Just(0u8), 3 => 1u8..4, 1 => Just(4u8)],
        prop_oneof![9 => Just(true), 1 => Just(false)],
    )
        .prop_map(|(cap, delay, valid_input)| Action {
            cap,
            delay,
            valid_input,
        })
}

fn decide() -> impl Strategy<Value = Decide> {
    prop_oneof![
        1 => Just(Decide::Text),
        8 => proptest::collection::vec(action(), 0..12).prop_map(Decide::Batch),
        1 => Just(Decide::NotAnAnswer),
        1 => Just(Decide::Throw),
    ]
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (
        any::<bool>(),
        prop_oneof![Just(-1i64), Just(0), 1i64..12, Just(40)],
        decide(),
        any::<bool>(),
        proptest::collection::vec(
            prop_oneof![6 => Just(0u8), 1 => Just(1u8), 2 => Just(2u8)],
            1..8,
        ),
        proptest::collection::vec(
            prop_oneof![6 => Just(0u8), 1 => Just(1u8), 2 => Just(2u8), 1 => Just(3u8)],
            1..8,
        ),
        proptest::collection::vec(0u8..3, 1..4),
        any::<bool>(),
        proptest::option::of(0u8..24),
    )
        .prop_map(
            |(
                read_only,
                bound,
                decide,
                decide_later,
                policy,
                handlers,
                resolutions,
                summarize_actions,
                cancel_at,
            )| {
                Scenario {
                    read_only,
                    bound,
                    decide,
                    decide_later,
                    policy,
                    handlers,
                    resolutions,
                    summarize_actions,
                    cancel_at,
                }
            },
        )
}

fn decide_answer(decide: &Decide) -> Result<Value, HostError> {
    match decide {
        Decide::Text => Ok(json!({ "text": "nothing to do" })),
        Decide::NotAnAnswer => Ok(json!(42)),
        Decide::Throw => Err(HostError::error("host-secret-7f3a")),
        Decide::Batch(actions) => Ok(json!({ "actions": actions.iter().map(|a| {
            let id = cap_id(a.cap);
            let input = if id == "notes.create" {
                if a.valid_input { json!({ "text": "a" }) } else { json!({ "text": 5 }) }
            } else {
                json!({})
            };
            match a.delay {
                0 => json!({ "capabilityId": id, "input": input }),
                1 => json!({ "capabilityId": id, "input": input, "delay": "short" }),
                2 => json!({ "capabilityId": id, "input": input, "delay": "medium" }),
                3 => json!({ "capabilityId": id, "input": input, "delay": "long" }),
                _ => json!({ "capabilityId": id, "input": input, "delay": "soon" }),
            }
        }).collect::<Vec<_>>() })),
    }
}

// ---------------------------------------------------------------------------------------------
// The world: a runtime whose callbacks follow the scenario, and the orchestrator
// ---------------------------------------------------------------------------------------------

struct Cycle(Vec<u8>, usize);

impl Cycle {
    fn next(&mut self) -> u8 {
        let value = self
            .0
            .get(self.1 % self.0.len().max(1))
            .copied()
            .unwrap_or(0);
        self.1 += 1;
        value
    }
}

struct World {
    runtime: Runtime,
    assistant: Assistant,
    /// Capability id of every invocation the runtime was asked for, in order.
    requested: Rc<RefCell<Vec<String>>>,
    /// Gated handler calls not settled yet, with whether they will return.
    gated: Rc<RefCell<VecDeque<(CallId, bool)>>>,
    /// Phases of every callback call.
    phases: Rc<RefCell<Vec<Phase>>>,
}

fn world(scenario: &Scenario) -> World {
    let requested: Rc<RefCell<Vec<String>>> = Rc::default();
    let record = Rc::clone(&requested);
    let mut policy = Cycle(scenario.policy.clone(), 0);
    let runtime_options = RuntimeOptions {
        policy: Some(Box::new(move |_call: PolicyCall| {
            let decision = match policy.next() {
                0 => "allow",
                1 => "deny",
                _ => "confirm",
            };
            Answer::Ready(Ok(HostValue::from_json(&json!({ "decision": decision }))))
        })),
        confirmation_ttl_ms: Some(TTL_MS),
        create_id: None,
        on_event: Some(Box::new(move |event: &RcipEvent| {
            if event.phase == EventPhase::Requested {
                record.borrow_mut().push(event.capability_id.clone());
            }
            Ok(())
        })),
        choices: Default::default(),
    };
    let definition = definition();
    let mut runtime = match Runtime::new(&definition, runtime_options) {
        Ok(runtime) => runtime,
        Err(e) => panic!("the test runtime builds: {e}"),
    };
    let gated: Rc<RefCell<VecDeque<(CallId, bool)>>> = Rc::default();
    let handlers = Rc::new(RefCell::new(Cycle(scenario.handlers.clone(), 0)));
    for (id, _) in CAPS {
        let gated = Rc::clone(&gated);
        let handlers = Rc::clone(&handlers);
        let capability = definition
            .capability(id)
            .unwrap_or_else(|| panic!("{id} is declared"));
        let spec = BindingSpec {
            handler: Box::new(move |call| match handlers.borrow_mut().next() {
                0 => Answer::Ready(Ok(HostValue::from_json(&json!({})))),
                1 => Answer::Ready(Err(HostError::error("host-secret-7f3a"))),
                kind => {
                    gated.borrow_mut().push_back((call.call, kind == 2));
                    Answer::Pending
                }
            }),
            availability: None,
        };
        if runtime.bind(&capability, spec).is_err() {
            panic!("{id} binds");
        }
    }
    let phases: Rc<RefCell<Vec<Phase>>> = Rc::default();
    let seen = Rc::clone(&phases);
    let decide = decide_answer(&scenario.decide);
    let decide_later = scenario.decide_later;
    let summary = if scenario.summarize_actions {
        json!({ "actions": [{ "capabilityId": "notes.create", "input": { "text": "more" } }] })
    } else {
        json!({ "text": "done" })
    };
    let callback = Box::new(move |view: &CallbackView, _: CallbackId| {
        seen.borrow_mut().push(view.phase);
        match view.phase {
            Phase::Decide if decide_later => CallbackAnswer::Pending,
            Phase::Decide => CallbackAnswer::Ready(decide.clone()),
            Phase::Summarize => CallbackAnswer::Ready(Ok(summary.clone())),
        }
    });
    let assist_config = AssistConfig::new(Some(scenario.bound), DelayAmounts::default());
    World {
        runtime,
        assistant: Assistant::new(assist_config, callback),
        requested,
        gated,
        phases,
    }
}

/// Runs the scenario to its end. Returns the world, the turn, the effective bound and the number of
/// invocations requested when the cancellation happened (if it did).
fn run(scenario: &Scenario) -> (World, TurnId, Option<usize>) {
    let mut w = world(scenario);
    let signal = AbortSignal::new();
    let turn = w.assistant.start_turn(
        &mut w.runtime,
        TurnRequest {
            mode: if scenario.read_only {
                Mode::ReadOnly
            } else {
                Mode::Default
            },
            messages: vec![json!("hi")],
            signal: Some(signal.clone()),
        },
    );
    let mut decide_settled = !scenario.decide_later;
    let mut resolutions = Cycle(scenario.resolutions.clone(), 0);
    let mut resolved: Vec<usize> = Vec::new();
    let mut cancelled_at = None;
    for tick in 0u8..96 {
        if scenario.cancel_at == Some(tick) {
            w.runtime.abort(&signal);
            w.assistant.pump(&mut w.runtime);
            cancelled_at = Some(w.requested.borrow().len());
        }
        let ended = w.assistant.turn(turn).and_then(|t| t.end()).is_some();
        if !decide_settled {
            decide_settled = true;
            let answer = decide_answer(&scenario.decide);
            assert_eq!(
                w.assistant
                    .settle_callback(&mut w.runtime, CallbackId(0), answer),
                Ok(())
            );
            continue;
        }
        let gated = w.gated.borrow_mut().pop_front();
        if let Some((call, returns)) = gated {
            let result = if returns {
                Ok(HostValue::from_json(&json!({})))
            } else {
                Err(HostError::error("x"))
            };
            assert!(
                w.runtime.settle_handler(call, result).is_ok(),
                "a gated handler call settles once"
            );
            w.assistant.pump(&mut w.runtime);
            continue;
        }
        let waiting_action = w.assistant.turn(turn).map_or(0, |t| t.outcomes().len() + 1);
        let asked = w
            .assistant
            .turn(turn)
            .and_then(|t| t.confirmation_of(waiting_action))
            .is_some();
        if !ended && asked && !resolved.contains(&waiting_action) {
            resolved.push(waiting_action);
            let kind = resolutions.next();
            if kind == 2 {
                w.assistant.advance(&mut w.runtime, TTL_MS + 1);
            }
            let outcome =
                w.assistant
                    .resolve_confirmation(&mut w.runtime, turn, waiting_action, kind != 1);
            assert!(
                outcome.is_ok(),
                "the host UI resolves the confirmation the turn asked for"
            );
            continue;
        }
        if let Some(deadline) = w.assistant.next_deadline() {
            let now = w.runtime.now();
            w.assistant
                .advance(&mut w.runtime, deadline.saturating_sub(now));
            continue;
        }
        if ended {
            break;
        }
        w.assistant.advance(&mut w.runtime, 1);
    }
    (w, turn, cancelled_at)
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn assist_invariants_hold(scenario in scenario()) {
        let (w, turn_id, cancelled_at) = run(&scenario);
        let turn = w.assistant.turn(turn_id).cloned();
        prop_assert!(turn.is_some());
        let turn = turn.unwrap_or_else(|| unreachable!());
        let requested = w.requested.borrow().clone();
        let bound = w.assistant.config().batch_bound();

        // The turn has ended once nothing is left to settle.
        prop_assert!(turn.end().is_some(), "turn still running: {:?}", turn.end());

        // CL-C01-2/4: never more than N; nothing for an over-bound or malformed batch.
        prop_assert!(requested.len() <= bound);
        let batch: Vec<&Action> = match &scenario.decide {
            Decide::Batch(actions) => actions.iter().collect(),
            _ => Vec::new(),
        };
        let malformed = batch.is_empty() || batch.iter().any(|a| a.delay == 4);
        if malformed || batch.len() > bound {
            prop_assert!(requested.is_empty(), "{requested:?}");
        }

        // CL-C02-1: the invocations are the batch's actions, in batch order, one per action.
        let ids: Vec<&str> = batch.iter().map(|a| cap_id(a.cap)).collect();
        prop_assert!(requested.len() <= ids.len());
        for (seen, proposed) in requested.iter().zip(&ids) {
            prop_assert_eq!(seen.as_str(), *proposed);
        }

        // CL-C05-2: read-only never invokes a non-read or unknown capability.
        if scenario.read_only {
            prop_assert!(requested.iter().all(|id| is_read(id)), "{requested:?}");
        }

        // CL-C02-2: only the last outcome may be other than succeeded (a local rejection
        // included), and no invocation follows it; an invocation without outcome is only the one
        // a cancellation interrupted.
        let outcomes = turn.outcomes();
        if let Some((_, earlier)) = outcomes.split_last() {
            prop_assert!(earlier.iter().all(|o| o.status() == Status::Succeeded));
        }
        let local = outcomes.iter().filter(|o| o.invocation_id.starts_with("assist-local-")).count();
        prop_assert!(local <= 1);
        let invoked_outcomes = outcomes.len() - local;
        if cancelled_at.is_some() {
            prop_assert!(requested.len() == invoked_outcomes || requested.len() == invoked_outcomes + 1);
        } else {
            prop_assert_eq!(requested.len(), invoked_outcomes);
        }
        if outcomes.last().is_some_and(|o| o.status() != Status::Succeeded) {
            prop_assert_eq!(requested.len(), invoked_outcomes);
        }

        // CL-C06-1: nothing is invoked after the cancellation.
        if let Some(at) = cancelled_at {
            prop_assert_eq!(requested.len(), at);
        }

        // CL-C04-1/2: one summarize call exactly when an action went through invoke (unless the
        // turn was cancelled first); its actions never ran (the counts above already bound them).
        let phases = w.phases.borrow().clone();
        let summaries = phases.iter().filter(|p| **p == Phase::Summarize).count();
        prop_assert!(summaries <= 1);
        prop_assert_eq!(phases.first().copied(), Some(Phase::Decide));
        if summaries == 1 {
            prop_assert!(turn.invoked() > 0);
        }
        let cancelled = matches!(turn.end(), Some(TurnEnd::Failed(e)) if e.code() == "ASSIST_CANCELLED");
        if turn.invoked() > 0 && !cancelled {
            prop_assert_eq!(summaries, 1);
        }
        prop_assert_eq!(requested.len(), turn.invoked());
    }
}

/// `Assistant::advance` moves the clock by exactly the amount asked and stops at every pause's
/// end on the way: a pause that ends after the step is neither reached early nor skipped, and
/// one that ends within the step is woken inside it (the turn's next action then runs).
#[test]
fn advance_moves_the_clock_by_the_amount_asked() {
    let action = |delay| Action {
        cap: 0,
        delay,
        valid_input: true,
    };
    let scenario = Scenario {
        read_only: false,
        bound: 4,
        decide: Decide::Batch(vec![action(3), action(3)]),
        decide_later: false,
        policy: vec![0],
        handlers: vec![0],
        resolutions: vec![0],
        summarize_actions: false,
        cancel_at: None,
    };
    let mut w = world(&scenario);
    w.assistant.start_turn(
        &mut w.runtime,
        TurnRequest {
            mode: Mode::Default,
            messages: vec![json!("hi")],
            signal: None,
        },
    );
    let start = w.runtime.now();
    let Some(deadline) = w.assistant.next_deadline() else {
        panic!("a batch of delayed actions pauses");
    };
    assert!(deadline > start + 1, "a long delay is more than 1 ms");
    let requested = w.requested.borrow().len();
    w.assistant.advance(&mut w.runtime, 1);
    assert_eq!(w.runtime.now(), start + 1);
    assert_eq!(
        w.assistant.next_deadline(),
        Some(deadline),
        "the pause has not ended"
    );
    assert_eq!(w.requested.borrow().len(), requested);
    w.assistant.advance(&mut w.runtime, deadline - start);
    assert_eq!(w.runtime.now(), deadline + 1);
    assert!(
        w.requested.borrow().len() > requested,
        "the pause ended inside the step"
    );
}
