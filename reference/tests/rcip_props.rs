//! Property tests of the RCIP reference runtime: arbitrary host values (NaN, ±Infinity, -0,
//! undefined, bigint, symbols, functions, class instances, null-prototype objects, sparse arrays,
//! cycles and shared references) never make the plain-JSON rule (CL-B13), definitions, contexts,
//! filters or `invoke` panic; arbitrary sequences of client calls, host actions, gate
//! settlements, clock advances and aborts never panic, settle every invocation exactly once with a
//! CL-B01 code (CL-B02-1), keep no host text in outcomes (CL-B02-2), keep revisions monotonic
//! (CL-B15) and retain at most 256 receipts (CL-B10-1), and the receipt ring keeps exactly the
//! latest 256 (RCIP-LIFE-CONF-07/08).
//!
//! Case counts are small by default so `cargo test -p reference` stays fast; set
//! `PROPTEST_CASES` for more. Failures persist to `proptest-regressions/rcip_props.txt`.

#[path = "rcip_support.rs"]
mod support;

use std::rc::Rc;

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};
use reference::rcip::{
    AbortSignal, BindingToken, Definition, ErrorCode, GateError, HostObject, HostValue,
    InvokeRequest, ListFilter, ObjectData, OutcomeBody, Prototype, Runtime, Status, Ticket,
    RECEIPT_CAPACITY,
};
use serde_json::{json, Value};
use support::*;

fn config(default_cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default_cases);
    Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/rcip_props.txt",
        ))),
        ..Config::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Arbitrary host values
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone)]
enum Spec {
    Undefined,
    Null,
    Bool(bool),
    Number(f64),
    Text(String),
    BigInt,
    Symbol,
    Function,
    Object(u8, Vec<(String, Spec)>),
    Array(Vec<Option<Spec>>),
}

fn number() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => (-5i32..5).prop_map(f64::from),
        2 => any::<f64>(),
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
        1 => Just(-0.0),
        1 => Just(0.5),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("text".to_string()),
        Just("id".to_string()),
        Just("a/b~c".to_string()),
        "[a-z]{1,3}"
    ]
}

fn spec() -> impl Strategy<Value = Spec> {
    let leaf = prop_oneof![
        1 => Just(Spec::Undefined),
        2 => Just(Spec::Null),
        2 => any::<bool>().prop_map(Spec::Bool),
        4 => number().prop_map(Spec::Number),
        4 => "[a-z ]{0,6}".prop_map(Spec::Text),
        1 => Just(Spec::BigInt),
        1 => Just(Spec::Symbol),
        1 => Just(Spec::Function),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            // Mostly plain objects (prototype 0..6 → plain; 7 null; 8 class).
            (0u8..9, prop::collection::vec((key(), inner.clone()), 0..4))
                .prop_map(|(p, m)| Spec::Object(p, m)),
            prop::collection::vec(prop::option::weighted(0.9, inner), 0..4).prop_map(Spec::Array),
        ]
    })
}

/// A spec plus links that make members point at other objects of the same value (cycles when
/// the target is an ancestor, shared references otherwise).
fn host_value() -> impl Strategy<Value = (Spec, Vec<(usize, usize, String)>)> {
    (
        spec(),
        prop::collection::vec((any::<usize>(), any::<usize>(), key()), 0..3),
    )
}

fn build(spec: &Spec, objects: &mut Vec<HostObject>) -> HostValue {
    match spec {
        Spec::Undefined => HostValue::Undefined,
        Spec::Null => HostValue::Null,
        Spec::Bool(b) => HostValue::Bool(*b),
        Spec::Number(n) => HostValue::Number(*n),
        Spec::Text(t) => HostValue::String(t.clone()),
        Spec::BigInt => HostValue::BigInt("9007199254740993".into()),
        Spec::Symbol => HostValue::Symbol,
        Spec::Function => HostValue::Function,
        Spec::Object(prototype, members) => {
            let prototype = match prototype {
                7 => Prototype::Null,
                8 => Prototype::Class("Point".into()),
                _ => Prototype::Plain,
            };
            let members = members
                .iter()
                .map(|(k, v)| (k.clone(), build(v, objects)))
                .collect();
            let value = HostValue::object_with(prototype, members);
            if let Some(object) = value.as_object() {
                objects.push(object.clone());
            }
            value
        }
        Spec::Array(items) => {
            let items = items
                .iter()
                .map(|item| item.as_ref().map(|s| build(s, objects)))
                .collect();
            let value = HostValue::sparse_array(items);
            if let Some(object) = value.as_object() {
                objects.push(object.clone());
            }
            value
        }
    }
}

fn realise((spec, links): &(Spec, Vec<(usize, usize, String)>)) -> HostValue {
    let mut objects = Vec::new();
    let value = build(spec, &mut objects);
    if !objects.is_empty() {
        for (from, to, key) in links {
            let (Some(from), Some(to)) = (
                objects.get(from % objects.len()),
                objects.get(to % objects.len()),
            ) else {
                continue;
            };
            let target = HostValue::Object(to.clone());
            from.update(|data| match data {
                ObjectData::Object { members, .. } => members.push((key.clone(), target)),
                ObjectData::Array { items } => items.push(Some(target)),
            });
        }
    }
    value
}

proptest! {
    #![proptest_config(config(128))]

    // CL-B13: the plain-JSON rule is total; a copy is a fixed point of the rule; Debug terminates.
    #[test]
    fn host_values_never_panic_and_plain_copies_are_fixed_points(value in host_value()) {
        let value = realise(&value);
        let _ = format!("{value:?}");
        if let Ok(copy) = value.to_plain_json() {
            prop_assert_eq!(HostValue::from_json(&copy).to_plain_json(), Ok(copy.clone()));
        }
        // Every consumer of host values is total too.
        let _ = Definition::define(&value);
        let _ = ListFilter::from_host(&value);
        let mut rig = Rig::new(PolicyMode::Fixed(Ok(allow())));
        let _ = rig.runtime.set_context(&value);
        rig.bind("notes.create", HandlerMode::Returns(json!({ "id": "n1" })));
        let wrapped = HostValue::object(vec![("text".into(), value.clone())]);
        for input in [value, wrapped] {
            let ticket = rig.runtime.invoke(InvokeRequest {
                capability_id: "notes.create".into(), input, invocation_id: None, signal: None,
            });
            let outcome = rig.outcome(ticket);
            prop_assert!(outcome.is_some(), "a synchronous invocation settles at once");
            let status = outcome.map(|o| o.status());
            prop_assert!(matches!(status, Some(Status::Succeeded) | Some(Status::Failed)), "{:?}", outcome);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Arbitrary step sequences
// ---------------------------------------------------------------------------------------------

const CAPS: [&str; 5] = [
    "notes.list",
    "notes.create",
    "notes.delete",
    "settings.read",
    "help.show",
];

#[derive(Debug, Clone)]
enum Step {
    Invoke {
        cap: usize,
        input: u8,
        id: Option<u8>,
        signal: Option<u8>,
    },
    Bind {
        cap: usize,
        handler: u8,
        availability: Option<bool>,
    },
    Unbind {
        k: usize,
    },
    SetAvailability {
        k: usize,
        available: bool,
    },
    SetContext {
        scopes: Vec<u8>,
        primary: Option<u8>,
    },
    Refresh,
    SettlePolicy {
        k: usize,
        answer: u8,
    },
    SettleHandler {
        k: usize,
        answer: u8,
    },
    Resolve {
        k: usize,
        approved: bool,
    },
    Advance {
        ms: u64,
    },
    Abort {
        signal: u8,
    },
    Subscribe {
        throws: bool,
    },
    Snapshot,
    List {
        current: bool,
        available: bool,
    },
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => (0..=CAPS.len(), 0u8..6, prop::option::of(0u8..4), prop::option::of(0u8..3))
            .prop_map(|(cap, input, id, signal)| Step::Invoke { cap, input, id, signal }),
        4 => (0..CAPS.len(), 0u8..5, prop::option::of(any::<bool>()))
            .prop_map(|(cap, handler, availability)| Step::Bind { cap, handler, availability }),
        1 => any::<usize>().prop_map(|k| Step::Unbind { k }),
        1 => (any::<usize>(), any::<bool>()).prop_map(|(k, available)| Step::SetAvailability { k, available }),
        1 => (prop::collection::vec(0u8..4, 0..3), prop::option::of(0u8..4))
            .prop_map(|(scopes, primary)| Step::SetContext { scopes, primary }),
        1 => Just(Step::Refresh),
        4 => (any::<usize>(), 0u8..6).prop_map(|(k, answer)| Step::SettlePolicy { k, answer }),
        4 => (any::<usize>(), 0u8..5).prop_map(|(k, answer)| Step::SettleHandler { k, answer }),
        3 => (any::<usize>(), any::<bool>()).prop_map(|(k, approved)| Step::Resolve { k, approved }),
        2 => prop_oneof![Just(0u64), Just(1), 0u64..2_000, Just(120_000)].prop_map(|ms| Step::Advance { ms }),
        2 => (0u8..3).prop_map(|signal| Step::Abort { signal }),
        1 => any::<bool>().prop_map(|throws| Step::Subscribe { throws }),
        1 => Just(Step::Snapshot),
        1 => (any::<bool>(), any::<bool>()).prop_map(|(current, available)| Step::List { current, available }),
    ]
}

fn input_value(kind: u8) -> HostValue {
    match kind {
        0 => HostValue::from_json(&json!({})),
        1 => HostValue::from_json(&json!({ "text": "a" })),
        2 => HostValue::from_json(&json!({ "text": 3 })),
        3 => HostValue::object(vec![("text".into(), HostValue::Number(f64::NAN))]),
        4 => HostValue::Undefined,
        _ => HostValue::from_json(&json!({ "text": "b", "extra": [1, 2] })),
    }
}

fn handler_mode(kind: u8) -> HandlerMode {
    match kind {
        0 => HandlerMode::Gated,
        1 => HandlerMode::Returns(json!({ "id": "n1" })),
        2 => HandlerMode::Returns(json!({ "id": 7 })),
        3 => HandlerMode::Throws(reference::rcip::HostErrorName::Error),
        _ => HandlerMode::MutatesThenReturns(json!({})),
    }
}

fn policy_answer(kind: u8) -> reference::rcip::Settlement {
    match kind {
        0 => Ok(HostValue::from_json(&allow())),
        1 => Ok(HostValue::from_json(&deny())),
        2 => Ok(HostValue::from_json(&confirm())),
        3 => Err(throw()),
        4 => Ok(HostValue::Number(f64::NAN)),
        _ => Ok(HostValue::from_json(&json!({ "decision": "later" }))),
    }
}

fn handler_answer(kind: u8) -> reference::rcip::Settlement {
    match kind {
        0 => Ok(HostValue::from_json(&json!({ "id": "n1" }))),
        1 => Ok(HostValue::from_json(&json!({}))),
        2 => Err(throw()),
        3 => Err(reference::rcip::HostError {
            name: reference::rcip::HostErrorName::AbortError,
            message: "x".into(),
        }),
        _ => Ok(HostValue::Function),
    }
}

struct Driver {
    rig: Rig,
    tickets: Vec<Ticket>,
    tokens: Vec<(BindingToken, Option<Rc<std::cell::RefCell<Value>>>)>,
    signals: Vec<AbortSignal>,
    confirmations: Vec<String>,
    last_revision: u64,
}

impl Driver {
    fn check(&mut self) -> Result<(), TestCaseError> {
        prop_assert_eq!(
            self.rig.runtime.duplicate_settlements(),
            0,
            "a ticket settled twice"
        );
        prop_assert!(self.rig.runtime.receipt_count() <= RECEIPT_CAPACITY);
        let revision = self.rig.runtime.get_snapshot().revision();
        prop_assert!(revision >= self.last_revision, "revisions never go back");
        self.last_revision = revision;
        for ticket in &self.tickets {
            if let Some(outcome) = self.rig.runtime.outcome(*ticket) {
                let text = outcome.to_json().to_string();
                prop_assert!(
                    !text.contains("host-secret"),
                    "host text crossed the boundary: {}",
                    text
                );
                if let Some(code) = outcome.code() {
                    prop_assert!(ErrorCode::ALL.contains(&code));
                }
                if let OutcomeBody::ConfirmationRequired(info) = &outcome.body {
                    if !self.confirmations.contains(&info.id) {
                        self.confirmations.push(info.id.clone());
                    }
                }
            }
        }
        Ok(())
    }

    fn run(&mut self, step: &Step) {
        let runtime = &mut self.rig.runtime;
        match step {
            Step::Invoke {
                cap,
                input,
                id,
                signal,
            } => {
                let signal =
                    signal.map(|s| self.signals[usize::from(s) % self.signals.len()].clone());
                let ticket = runtime.invoke(InvokeRequest {
                    // One past the catalog: an undeclared capability.
                    capability_id: CAPS.get(*cap).copied().unwrap_or("notes.nope").into(),
                    input: input_value(*input),
                    invocation_id: id.map(|n| format!("id-{n}")),
                    signal,
                });
                self.tickets.push(ticket);
            }
            Step::Bind {
                cap,
                handler,
                availability,
            } => {
                let cell = availability.map(|a| {
                    Rc::new(std::cell::RefCell::new(
                        json!({ "available": a, "secret": 1 }),
                    ))
                });
                let live = self
                    .rig
                    .runtime
                    .get_snapshot()
                    .capabilities()
                    .iter()
                    .any(|c| {
                        c.get("id") == Some(&json!(CAPS[*cap]))
                            && c.get("bound") == Some(&json!(true))
                    });
                if !live {
                    let token =
                        self.rig
                            .bind_with(CAPS[*cap], handler_mode(*handler), cell.clone());
                    self.tokens.push((token, cell));
                }
            }
            Step::Unbind { k } => {
                if !self.tokens.is_empty() {
                    let (token, _) = &self.tokens[k % self.tokens.len()];
                    runtime.unbind(token);
                }
            }
            Step::SetAvailability { k, available } => {
                if !self.tokens.is_empty() {
                    if let (_, Some(cell)) = &self.tokens[k % self.tokens.len()] {
                        *cell.borrow_mut() = json!({ "available": available });
                    }
                }
            }
            Step::SetContext { scopes, primary } => {
                let names = ["notes", "settings", "archive", "Notes"];
                let mut context = json!({ "activeScopeIds": scopes.iter().map(|s| names[usize::from(*s)]).collect::<Vec<_>>() });
                if let (Some(p), Some(object)) = (primary, context.as_object_mut()) {
                    object.insert("primaryScopeId".into(), json!(names[usize::from(*p)]));
                }
                let _ = runtime.set_context(&HostValue::from_json(&context));
            }
            Step::Refresh => runtime.refresh(),
            Step::SettlePolicy { k, answer } => {
                let calls = runtime.pending_calls();
                if let Some(call) = calls.get(k % calls.len().max(1)) {
                    if runtime.settle_policy(*call, policy_answer(*answer))
                        == Err(GateError::WrongKind)
                    {
                        let _ = runtime.settle_handler(*call, handler_answer(*answer));
                    }
                }
            }
            Step::SettleHandler { k, answer } => {
                let calls = runtime.pending_calls();
                if let Some(call) = calls.get(k % calls.len().max(1)) {
                    if runtime.settle_handler(*call, handler_answer(*answer))
                        == Err(GateError::WrongKind)
                    {
                        let _ = runtime.settle_policy(*call, policy_answer(*answer));
                    }
                }
            }
            Step::Resolve { k, approved } => {
                let id = match self.confirmations.get(k % self.confirmations.len().max(1)) {
                    Some(id) => id.clone(),
                    None => "confirmation-unknown".into(),
                };
                let ticket = runtime.resolve_confirmation(&id, *approved);
                self.tickets.push(ticket);
            }
            Step::Advance { ms } => {
                runtime.advance(*ms);
            }
            Step::Abort { signal } => {
                let signal = self.signals[usize::from(*signal) % self.signals.len()].clone();
                runtime.abort(&signal);
            }
            Step::Subscribe { throws } => {
                let throws = *throws;
                runtime.subscribe(Box::new(
                    move |_| if throws { Err(throw()) } else { Ok(()) },
                ));
            }
            Step::Snapshot => {
                let _ = runtime.get_snapshot();
            }
            Step::List { current, available } => {
                let _ = runtime.list_capabilities(&ListFilter {
                    current_only: *current,
                    available_only: *available,
                    ..ListFilter::default()
                });
            }
        }
    }

    /// Settles every open gate (policy: allow; handler: a valid output) and lets confirmations
    /// expire, until nothing is pending.
    fn drain(&mut self) {
        for _ in 0..16 {
            let runtime = &mut self.rig.runtime;
            let calls = runtime.pending_calls();
            if calls.is_empty() && runtime.pending_confirmation_count() == 0 {
                return;
            }
            for call in calls {
                if runtime.settle_policy(call, policy_answer(0)) == Err(GateError::WrongKind) {
                    let _ = runtime.settle_handler(call, handler_answer(0));
                }
            }
            runtime.advance(200_000);
        }
    }
}

fn policy_mode(kind: u8) -> PolicyMode {
    match kind {
        0 => PolicyMode::Default,
        1 => PolicyMode::Gated,
        2 => PolicyMode::Fixed(Ok(allow())),
        _ => PolicyMode::Fixed(Ok(confirm())),
    }
}

proptest! {
    #![proptest_config(config(96))]

    // CL-B02-1, CL-B04, CL-B10-1, CL-B15: total, settles once, bounded receipts, monotonic.
    #[test]
    fn random_steps_never_panic_and_every_invocation_settles_once(
        policy in 0u8..4,
        ttl in prop_oneof![Just(None), Just(Some(1_000u64)), Just(Some(5u64))],
        steps in prop::collection::vec(step(), 1..40),
    ) {
        let rig = Rig::with(policy_mode(policy), ttl, true);
        let mut driver = Driver {
            rig,
            tickets: Vec::new(),
            tokens: Vec::new(),
            signals: vec![AbortSignal::new(), AbortSignal::new(), AbortSignal::new()],
            confirmations: Vec::new(),
            last_revision: 0,
        };
        for step in &steps {
            driver.run(step);
            driver.check()?;
        }
        driver.drain();
        driver.check()?;
        for ticket in &driver.tickets {
            prop_assert!(driver.rig.runtime.outcome(*ticket).is_some(), "ticket {:?} never settled", ticket);
        }
        prop_assert!(driver.rig.runtime.reserved_ids().is_empty(), "ids still reserved: {:?}", driver.rig.runtime.reserved_ids());
        prop_assert_eq!(driver.rig.runtime.pending_confirmation_count(), 0);
    }
}

// ---------------------------------------------------------------------------------------------
// The receipt ring (CL-B10, RCIP-LIFE-CONF-07/08)
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(12))]

    // Each confirmation ends by expiry (true) or cancellation (false); afterwards exactly the
    // latest min(n, 256) receipts answer with their own code, and every older one is evicted.
    #[test]
    fn the_ring_keeps_exactly_the_latest_256_receipts(ends in prop::collection::vec(any::<bool>(), 0..300)) {
        let mut rig = Rig::with(PolicyMode::Fixed(Ok(confirm())), Some(5), false);
        rig.bind("notes.delete", HandlerMode::Returns(json!({})));
        let mut issued = Vec::new();
        for (n, expires) in ends.iter().enumerate() {
            let signal = AbortSignal::new();
            let ticket = rig.invoke_signal("notes.delete", HostValue::from_json(&json!({})), &format!("i{n}"), &signal);
            issued.push((rig.confirmation_id(ticket), *expires));
            if *expires {
                rig.runtime.advance(5);
            } else {
                rig.runtime.abort(&signal);
            }
            prop_assert!(rig.runtime.receipt_count() <= RECEIPT_CAPACITY);
        }
        prop_assert_eq!(rig.runtime.receipt_count(), ends.len().min(RECEIPT_CAPACITY));
        let evicted = ends.len().saturating_sub(RECEIPT_CAPACITY);
        for (index, (id, expires)) in issued.iter().enumerate() {
            let ticket = rig.runtime.resolve_confirmation(id, true);
            let expected = if index < evicted {
                ErrorCode::ConfirmationNotFound
            } else if *expires {
                ErrorCode::ConfirmationExpired
            } else {
                ErrorCode::ExecutionAborted
            };
            prop_assert_eq!(rig.result(ticket), failed(expected), "receipt {}", index);
        }
        prop_assert_eq!(rig.handler_count(), 0);
    }
}

/// The step generator reaches every outcome: over a fixed-seed sample of sequences every CL-B01
/// code and every status occurs, so the properties above are not vacuous.
#[test]
fn the_step_generator_reaches_every_code_and_status() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = (0u8..4, prop::collection::vec(step(), 1..40));
    let mut codes = std::collections::BTreeSet::new();
    let mut statuses = std::collections::BTreeSet::new();
    for _ in 0..400 {
        let Ok(tree) = strategy.new_tree(&mut runner) else {
            panic!("generates")
        };
        let (policy, steps) = tree.current();
        let mut driver = Driver {
            rig: Rig::with(policy_mode(policy), Some(1_000), false),
            tickets: Vec::new(),
            tokens: Vec::new(),
            signals: vec![AbortSignal::new(), AbortSignal::new(), AbortSignal::new()],
            confirmations: Vec::new(),
            last_revision: 0,
        };
        for step in &steps {
            driver.run(step);
            let _ = driver.check();
        }
        driver.drain();
        for ticket in &driver.tickets {
            if let Some(outcome) = driver.rig.runtime.outcome(*ticket) {
                statuses.insert(outcome.status());
                codes.extend(outcome.code());
            }
        }
    }
    let missing: Vec<&str> = ErrorCode::ALL
        .iter()
        .filter(|c| !codes.contains(c))
        .map(|c| c.as_str())
        .collect();
    assert!(missing.is_empty(), "codes never reached: {missing:?}");
    assert_eq!(statuses.len(), 4, "{statuses:?}");
}

#[test]
fn a_fresh_runtime_from_the_catalog_has_nothing_pending() {
    let Ok(runtime) = Runtime::new(&definition(), reference::rcip::RuntimeOptions::default())
    else {
        panic!("creates")
    };
    assert!(runtime.pending_calls().is_empty());
    assert_eq!(runtime.receipt_count(), 0);
}
