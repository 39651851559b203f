//! Section `rui.actions`: action requests remain inert until commit and pass to host policy
//! independently from component validity (RUI-INV-08, RUI-INV-09, CL-D06-4..6): a dispatch of a
//! staged, aborted, rejected, interrupted or deleted request is ACTION_NOT_FOUND and never reaches
//! the policy; a dispatch of a committed request calls the policy once with node, prop,
//! capabilityId and input (PRJ-RUI-ACT-04), and the policy may allow, deny or fail it.

use serde_json::{json, Value};

use super::support::observe::{aborted, committed, expect, logs, n, nodes, noted, open_point_at, rejected, traced, State};
use super::support::setup::{action, scripted_decision, setup_with_policy};
use super::support::stream::{Framing, Script};
use super::support::tuples::Tx;
use super::support::{case, code};

/// What `committed_button` commits.
fn button_state() -> State {
    State::new(
        1,
        "r",
        nodes(vec![
            ("r", n("Stack", json!({}), &["b"])),
            (
                "b",
                n(
                    "Button",
                    button("notes.save", json!({ "id": 1 }), "Save"),
                    &[],
                ),
            ),
        ]),
        json!({}),
    )
}

/// The committed button unchanged after `t2` ended with `result`.
/// The committed button state and logs after a second transaction that failed with `result`;
/// `ids` are the sentences that decide that failure and that it leaves the committed state as it
/// was (issue 27 §3: the case is about dispatch, not about why the transaction failed).
fn unchanged_after(s: &mut Script, result: Value, ids: &[&str]) {
    for step in button_state().expect() {
        s.push(traced(step, ids));
    }
    let mut logs = logs(vec![committed("t1", 1), result], vec![], vec![]);
    logs[0] = traced(logs[0].clone(), ids);
    s.extend(logs);
}
use crate::case::{Case, Section};
use crate::pattern::one_of;

const SECTION: &str = "actions";
const F: Framing = Framing::Any;

pub fn section() -> Section {
    Section::new(
        "rui.actions",
        "Action requests: inert until commit, then host policy",
        "suites::cases::rui::actions",
    )
    .cases(vec![
        inert_before_commit(),
        allowed_after_commit(),
        denied_for_valid_component(),
        scripted(
            "scripted-allow",
            "a scripted policy that allows: the dispatch is allowed",
            json!({ "decision": "allow" }),
            allowed(),
        ),
        scripted(
            "scripted-deny-with-reason",
            "a scripted deny with a reason: denied POLICY_DENIED",
            json!({ "decision": "deny", "reason": "not now" }),
            denied(),
        ),
        scripted(
            "malformed-decision",
            "a decision that is neither allow nor deny fails evaluation",
            json!({ "decision": "maybe" }),
            evaluation_failed(),
        ),
        scripted(
            "decision-not-object",
            "a policy returning a bare string fails evaluation",
            json!("allow"),
            evaluation_failed(),
        ),
        policy_throws_gated(),
        policy_throws_scripted(),
        two_dispatches_independent(),
        not_found(
            "non-action-prop",
            "a prop that is not an action prop is not dispatchable",
            |s| s.push(dispatch("d1", "b", "label")),
        ),
        not_found(
            "unknown-node",
            "a node id the committed graph lacks is not dispatchable",
            |s| s.push(dispatch("d1", "ghost", "onPress")),
        ),
        not_found(
            "action-shaped-prop-of-plain-component",
            "a request-shaped prop of a component without actions is inert",
            |s| {
                s.records(
                    &Tx::begin("t2", 1)
                        .node(
                            "x",
                            "Box",
                            json!({ "onPress": action("notes.save", json!({})) }),
                            &[],
                        )
                        .commit(2, "r"),
                );
                s.push(dispatch("d1", "x", "onPress"));
            },
        ),
        not_found(
            "rejected-transaction-node",
            "a request of a rejected transaction is never dispatchable",
            |s| {
                s.records(
                    &Tx::begin("t2", 1)
                        .node("c", "Button", button("notes.delete", json!({}), "Del"), &[])
                        .commit(2, "ghost"),
                );
                s.end();
                unchanged_after(s, rejected("t2", code::ROOT_MISSING), &["PRJ-RUI-GRAPH-02", "RUI-RECOV-06"]);
                s.push(dispatch("d1", "c", "onPress"));
            },
        ),
        not_found(
            "aborted-transaction-node",
            "a request of an aborted transaction is never dispatchable",
            |s| {
                s.records(
                    &Tx::begin("t2", 1)
                        .node("c", "Button", button("notes.delete", json!({}), "Del"), &[])
                        .abort("E_USER", "stop"),
                );
                unchanged_after(s, aborted("t2"), &["RUI-ABORT-01", "RUI-ABORT-02"]);
                s.push(dispatch("d1", "c", "onPress"));
            },
        ),
        not_found(
            "interrupted-transaction-node",
            "a request of an interrupted transaction is never dispatchable",
            |s| {
                s.records(
                    &Tx::begin("t2", 1)
                        .node("c", "Button", button("notes.delete", json!({}), "Del"), &[])
                        .open(),
                );
                s.end();
                unchanged_after(s, rejected("t2", code::INTERRUPTED), &["PRJ-RUI-TX-05", "RUI-RECOV-09"]);
                s.push(dispatch("d1", "c", "onPress"));
            },
        ),
        not_found(
            "deleted-node",
            "a request whose node a later commit deleted is gone",
            |s| {
                s.records(
                    &Tx::begin("t2", 1)
                        .node("r", "Stack", json!({}), &[])
                        .delete_node("b")
                        .commit(2, "r"),
                );
                s.push(dispatch("d1", "b", "onPress"));
            },
        ),
        committed_request_while_new_staged(),
        replaced_request_after_commit(),
        input_passed_verbatim(),
    ])
}

fn button(capability: &str, input: Value, label: &str) -> Value {
    json!({ "label": label, "onPress": action(capability, input) })
}

/// `t1`: root `r` (Stack) with button `b` whose onPress asks `notes.save` with `{ "id": 1 }`.
fn committed_button() -> Vec<Value> {
    Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &["b"])
        .node(
            "b",
            "Button",
            button("notes.save", json!({ "id": 1 }), "Save"),
            &[],
        )
        .commit(1, "r")
}

fn dispatch(handle: &str, node: &str, prop: &str) -> Value {
    json!({ "dispatch": "action", "as": handle, "node": node, "prop": prop })
}

fn gate(call: u64, decision: Value) -> Value {
    json!({ "gate": "action-policy", "call": call, "settle": { "return": decision } })
}

fn outcome(handle: &str, is: Value) -> Value {
    json!({ "expect": "dispatch", "of": handle, "is": is })
}

fn calls(is: Value) -> Value {
    expect("action-policy-calls", is)
}

fn call(node: &str, capability: &str, input: Value) -> Value {
    json!({ "node": node, "prop": "onPress", "capabilityId": capability, "input": input })
}

fn allowed() -> Value {
    json!({ "status": "allowed" })
}

fn denied() -> Value {
    json!({ "status": "denied", "code": code::POLICY_DENIED })
}

/// A policy that throws or settles malformed: the request is never dispatched (CL-D06-6); whether
/// that is reported as an evaluation failure or as a denial the texts leave open (PRJ-RUI-ACT-03).
fn evaluation_failed() -> Value {
    one_of([
        json!({ "status": "rejected", "code": code::POLICY_EVALUATION_FAILED }),
        denied(),
    ])
}

fn not_found_status() -> Value {
    json!({ "status": "rejected", "code": code::ACTION_NOT_FOUND })
}

fn inert_before_commit() -> Case {
    let records = committed_button();
    let mut s = Script::new(F);
    s.records(&records[..3]);
    s.push(dispatch("staged", "b", "onPress"));
    s.push(outcome("staged", not_found_status()));
    s.push(calls(json!([])));
    s.records(&records[3..]);
    s.push(calls(json!([])));
    s.push(dispatch("committed", "b", "onPress"));
    s.push(outcome("committed", json!("pending")));
    s.push(calls(json!([call("b", "notes.save", json!({ "id": 1 }))])));
    s.push(gate(1, json!({ "decision": "allow" })));
    s.push(outcome("committed", allowed()));
    s.push(outcome("staged", not_found_status()));
    case(
        SECTION,
        "inert-before-commit",
        1,
        F,
        "a staged request is not dispatchable; after commit it reaches policy",
        &[
            "RUI-INV-08",
            "CL-D06-5",
            "CL-D06-4",
            "PRJ-RUI-ACT-02",
            "PRJ-RUI-ACT-04",
        ],
    )
    .steps(s.steps())
}

fn allowed_after_commit() -> Case {
    let mut s = Script::new(F);
    s.records(&committed_button());
    s.push(dispatch("d1", "b", "onPress"));
    s.push(outcome("d1", json!("pending")));
    s.push(gate(1, json!({ "decision": "allow" })));
    s.push(outcome("d1", allowed()));
    s.push(calls(json!([call("b", "notes.save", json!({ "id": 1 }))])));
    case(
        SECTION,
        "allowed-after-commit",
        1,
        F,
        "a committed request waits for the gated policy, then is allowed",
        &["CL-D06-6", "RUI-INV-09", "PRJ-RUI-ACT-01", "PRJ-RUI-ACT-04"],
    )
    .steps(s.steps())
}

fn denied_for_valid_component() -> Case {
    let mut s = Script::new(F);
    s.records(&committed_button());
    s.push(traced(expect("revision", json!(1)), &["CL-D02-6", "RUI-COMMIT-04"]));
    s.push(dispatch("d1", "b", "onPress"));
    s.push(gate(
        1,
        json!({ "decision": "deny", "reason": "read-only session" }),
    ));
    s.push(noted(
        outcome("d1", denied()),
        "the Button committed, so its component is valid; policy still denies",
    ));
    s.push(calls(json!([call("b", "notes.save", json!({ "id": 1 }))])));
    case(
        SECTION,
        "denied-for-valid-component",
        1,
        F,
        "policy may deny a request whose component validated",
        &["CL-D06-6", "RUI-INV-09", "PRJ-RUI-ACT-01"],
    )
    .steps(s.steps())
}

fn scripted(slug: &str, description: &str, decision: Value, result: Value) -> Case {
    let mut s = Script::new(F);
    s.records(&committed_button());
    s.push(dispatch("d1", "b", "onPress"));
    s.push(outcome("d1", result.clone()));
    s.push(calls(json!([call("b", "notes.save", json!({ "id": 1 }))])));
    let registered = if result == evaluation_failed() {
        "PRJ-RUI-ACT-03"
    } else {
        "PRJ-RUI-ACT-01"
    };
    let built = case(
        SECTION,
        slug,
        1,
        F,
        description,
        &["CL-D06-6", "RUI-INV-09", registered],
    )
    .setup(setup_with_policy(F, scripted_decision(decision)))
    .steps(s.steps());
    open_point_at(built, "PRJ-RUI-ACT-03", "dispatch")
}

fn policy_throws_gated() -> Case {
    let mut s = Script::new(F);
    s.records(&committed_button());
    s.push(dispatch("d1", "b", "onPress"));
    s.push(json!({ "gate": "action-policy", "call": 1, "settle": { "throw": "error" } }));
    s.push(outcome("d1", evaluation_failed()));
    open_point_at(
        case(
            SECTION,
            "policy-throws",
            1,
            F,
            "a policy that throws never dispatches the request",
            &["CL-D06-6", "PRJ-RUI-ACT-03"],
        )
        .steps(s.steps()),
        "PRJ-RUI-ACT-03",
        "dispatch",
    )
}

fn policy_throws_scripted() -> Case {
    let mut s = Script::new(F);
    s.records(&committed_button());
    s.push(dispatch("d1", "b", "onPress"));
    s.push(outcome("d1", evaluation_failed()));
    s.push(calls(json!([call("b", "notes.save", json!({ "id": 1 }))])));
    open_point_at(
        case(
            SECTION,
            "policy-throws-scripted",
            1,
            F,
            "a scripted policy that throws fails evaluation at once",
            &["CL-D06-6", "PRJ-RUI-ACT-03"],
        )
        .setup(setup_with_policy(
            F,
            json!({ "mode": "scripted", "settle": { "throw": "error" } }),
        ))
        .steps(s.steps()),
        "PRJ-RUI-ACT-03",
        "dispatch",
    )
}

fn two_dispatches_independent() -> Case {
    let mut s = Script::new(F);
    s.records(&committed_button());
    s.push(dispatch("d1", "b", "onPress"));
    s.push(dispatch("d2", "b", "onPress"));
    s.push(outcome("d1", json!("pending")));
    s.push(outcome("d2", json!("pending")));
    s.push(gate(2, json!({ "decision": "deny" })));
    s.push(outcome("d1", json!("pending")));
    s.push(outcome("d2", denied()));
    s.push(gate(1, json!({ "decision": "allow" })));
    s.push(outcome("d1", allowed()));
    s.push(calls(json!([
        call("b", "notes.save", json!({ "id": 1 })),
        call("b", "notes.save", json!({ "id": 1 }))
    ])));
    case(
        SECTION,
        "two-dispatches-independent",
        1,
        F,
        "each dispatch is its own policy call, settled independently",
        &["CL-D06-6", "RUI-INV-09", "PRJ-RUI-ACT-04"],
    )
    .steps(s.steps())
}

/// After `committed_button`, `then` dispatches `d1`, which must be ACTION_NOT_FOUND with no
/// policy call at all.
fn not_found(slug: &str, description: &str, then: impl FnOnce(&mut Script)) -> Case {
    let mut s = Script::new(F);
    s.records(&committed_button());
    then(&mut s);
    s.push(outcome("d1", not_found_status()));
    s.push(calls(json!([])));
    case(
        SECTION,
        slug,
        1,
        F,
        description,
        &["CL-D06-5", "RUI-INV-08", "PRJ-RUI-ACT-02", "PRJ-RUI-ACT-04"],
    )
    .steps(s.steps())
}

fn committed_request_while_new_staged() -> Case {
    let mut s = Script::new(F);
    s.records(&committed_button());
    s.records(
        &Tx::begin("t2", 1)
            .node(
                "b",
                "Button",
                button("notes.delete", json!({ "id": 9 }), "Delete"),
                &[],
            )
            .open(),
    );
    s.push(dispatch("d1", "b", "onPress"));
    s.push(calls(json!([call("b", "notes.save", json!({ "id": 1 }))])));
    s.push(gate(1, json!({ "decision": "allow" })));
    s.push(outcome("d1", allowed()));
    case(
        SECTION,
        "committed-request-while-new-staged",
        1,
        F,
        "while a new request is staged, dispatch uses the committed one",
        &["RUI-INV-08", "CL-D06-5", "PRJ-RUI-ACT-04"],
    )
    .steps(s.steps())
}

fn replaced_request_after_commit() -> Case {
    let mut s = Script::new(F);
    s.records(&committed_button());
    s.records(
        &Tx::begin("t2", 1)
            .node(
                "b",
                "Button",
                button("notes.delete", json!({ "id": 9 }), "Delete"),
                &[],
            )
            .commit(2, "r"),
    );
    s.push(dispatch("d1", "b", "onPress"));
    s.push(calls(json!([call(
        "b",
        "notes.delete",
        json!({ "id": 9 })
    )])));
    s.push(gate(1, json!({ "decision": "allow" })));
    s.push(outcome("d1", allowed()));
    case(
        SECTION,
        "replaced-request-after-commit",
        1,
        F,
        "after a commit replaces the request, dispatch uses the new one",
        &["RUI-INV-08", "CL-D06-5", "CL-D06-6", "PRJ-RUI-ACT-04"],
    )
    .steps(s.steps())
}

fn input_passed_verbatim() -> Case {
    let input = json!({ "note": { "title": "T\u{e9}st", "tags": ["a", "b"], "pinned": false, "rank": 2.5, "parent": null } });
    let mut s = Script::new(F);
    s.records(
        &Tx::begin("t1", 0)
            .node("r", "Stack", json!({}), &["b"])
            .node(
                "b",
                "Button",
                button("notes.create", input.clone(), "Create"),
                &[],
            )
            .commit(1, "r"),
    );
    s.push(dispatch("d1", "b", "onPress"));
    s.push(calls(json!([call("b", "notes.create", input)])));
    s.push(gate(1, json!({ "decision": "deny" })));
    s.push(outcome("d1", denied()));
    case(
        SECTION,
        "input-passed-verbatim",
        1,
        F,
        "the policy receives the committed capabilityId and input as given",
        &["CL-D06-4", "CL-D06-6", "PRJ-RUI-ACT-04"],
    )
    .steps(s.steps())
}
