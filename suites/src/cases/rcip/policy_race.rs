//! Section `rcip.policy-race`: every race the lifecycle text names while a policy is pending
//! (RCIP-LIFE-POLICY-04..07, RCIP-PROTO-LIFE-13, CL-B05, CL-B06, CL-B11): unbind, rebind, context
//! change (by value: identical re-publication and change-and-back are no change; reordering is
//! IMPL-DEFINED), availability loss and abort, with the handler never running; and the
//! RECOMMENDED precedence abort > binding > context > availability when several changed. A deny
//! or a throwing policy racing an unbind may report itself or the recheck (PRJ-RCIP-POLICY-01).

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};
use crate::pattern::one_of;

const S: &str = "policy-race";
const CAP: &str = "notes.create";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

fn input() -> Value {
    json!({ "text": "a" })
}

fn setup() -> Value {
    Setup::new(&notes()).policy_gated().to_json()
}

/// Binds (with an availability check), sets a context and starts `i1`, whose policy is pending.
fn pending(context_active: &[&str]) -> Vec<Value> {
    vec![
        set_context(context_active, None),
        bind_avail(CAP, "b1", returns(created()), available()),
        invoke("i1", CAP, input()),
        expect_pending("i1"),
    ]
}

/// The policy allows, then the outcome and handler count are checked.
fn settle_allow(outcome: Value, handler_calls: usize) -> Vec<Value> {
    vec![
        gate_policy(1, ret(allow())),
        expect_outcome("i1", outcome),
        expect_handler_count(None, handler_calls),
    ]
}

fn with(mut steps: Vec<Value>, middle: Vec<Value>, end: Vec<Value>) -> Vec<Value> {
    steps.extend(middle);
    steps.extend(end);
    steps
}

pub fn section() -> Section {
    let unbound = failed("i1", CAP, "CAPABILITY_UNBOUND");
    let ctx_denied = denied("i1", CAP, "POLICY_DENIED");
    let unavailable_out = failed("i1", CAP, "CAPABILITY_UNAVAILABLE");
    let ok = succeeded("i1", CAP, created());
    let cases = vec![
        c(
            "control",
            1,
            "Nothing changing while policy is pending lets the handler run",
        )
        .requirements(&["RCIP-LIFE-POLICY-04", "CL-B05-1"])
        .setup(setup())
        .steps(with(
            pending(&["notes"]),
            vec![],
            settle_allow(ok.clone(), 1),
        )),
        c(
            "unbind",
            1,
            "Unbind while policy is pending gives CAPABILITY_UNBOUND",
        )
        .requirements(&[
            "RCIP-LIFE-POLICY-05",
            "CL-B05-1",
            "CL-B05-2",
            "RCIP-PROTO-LIFE-13",
        ])
        .setup(setup())
        .steps(with(
            pending(&["notes"]),
            vec![unbind("b1")],
            settle_allow(unbound.clone(), 0),
        )),
        c(
            "rebind",
            1,
            "Unbind and rebind while policy is pending gives CAPABILITY_UNBOUND",
        )
        .requirements(&[
            "RCIP-LIFE-POLICY-05",
            "RCIP-LIFE-POLICY-04",
            "CL-B05-1",
            "CL-B05-2",
            "RCIP-PROTO-LIFE-13",
        ])
        .setup(setup())
        .steps(with(
            pending(&["notes"]),
            vec![
                unbind("b1"),
                bind(CAP, "b2", returns(json!({ "id": "new" }))),
            ],
            settle_allow(unbound.clone(), 0),
        )),
        c(
            "rebind",
            2,
            "A rebind during policy runs neither the old nor the new handler",
        )
        .requirements(&["RCIP-LIFE-POLICY-05", "CL-B05-2"])
        .setup(setup())
        .steps(with(
            pending(&["notes"]),
            vec![unbind("b1"), bind(CAP, "b2", gated())],
            vec![
                gate_policy(1, ret(allow())),
                expect_outcome("i1", unbound.clone()),
                expect_handler_count(None, 0),
                invoke("i2", CAP, input()),
                gate_policy(2, ret(allow())),
                expect_handler_count(None, 1).note("a fresh invocation uses the new binding"),
            ],
        )),
        c(
            "context",
            1,
            "A context change while policy is pending gives denied POLICY_DENIED",
        )
        .requirements(&[
            "RCIP-LIFE-POLICY-06",
            "CL-B05-1",
            "CL-B05-2",
            "CL-B06-1",
            "RCIP-PROTO-LIFE-13",
        ])
        .setup(setup())
        .steps(with(
            pending(&["notes"]),
            vec![set_context(&["settings"], None)],
            settle_allow(ctx_denied.clone(), 0),
        )),
        c(
            "context",
            2,
            "Re-publishing an identical context is not a change",
        )
        .requirements(&["CL-B06-2", "RCIP-LIFE-POLICY-06"])
        .setup(setup())
        .steps(with(
            pending(&["notes"]),
            vec![set_context(&["notes"], None)],
            settle_allow(ok.clone(), 1),
        )),
        c(
            "context",
            3,
            "A context changed and changed back compares equal by value",
        )
        .requirements(&["CL-B06-1", "RCIP-LIFE-POLICY-06"])
        .setup(setup())
        .steps(with(
            pending(&["notes"]),
            vec![
                set_context(&["settings"], None),
                set_context(&["notes"], None),
            ],
            settle_allow(ok.clone(), 1),
        )),
        c(
            "context",
            4,
            "A changed primary scope alone is a context change",
        )
        .requirements(&["CL-B06-1", "RCIP-LIFE-POLICY-06"])
        .setup(setup())
        .steps([
            set_context(&["notes", "settings"], Some("notes")),
            bind(CAP, "b1", returns(created())),
            invoke("i1", CAP, input()),
            set_context(&["notes", "settings"], Some("settings")),
            gate_policy(1, ret(allow())),
            expect_outcome("i1", ctx_denied.clone()),
            expect_handler_count(None, 0),
        ]),
        c("context", 5, "An added active scope is a context change")
            .requirements(&["CL-B06-1", "RCIP-LIFE-POLICY-06"])
            .setup(setup())
            .steps(with(
                pending(&["notes"]),
                vec![set_context(&["notes", "settings"], None)],
                settle_allow(ctx_denied.clone(), 0),
            )),
        c(
            "context",
            6,
            "Reordering the same active scopes may or may not be a change",
        )
        .requirements(&["CL-B06-3"])
        .strictness(Strictness::ImplDefined)
        .setup(setup())
        .steps(with(
            pending(&["notes", "settings"]),
            vec![set_context(&["settings", "notes"], None)],
            vec![
                gate_policy(1, ret(allow())),
                expect_outcome("i1", one_of([ok.clone(), ctx_denied.clone()])),
            ],
        )),
        c(
            "availability",
            1,
            "Availability lost while policy is pending: CAPABILITY_UNAVAILABLE",
        )
        .requirements(&["RCIP-LIFE-POLICY-07", "CL-B05-1", "CL-B05-2", "CL-B15-7"])
        .setup(setup())
        .steps(with(
            pending(&["notes"]),
            vec![set_availability("b1", unavailable())],
            settle_allow(unavailable_out.clone(), 0),
        )),
        c(
            "availability",
            2,
            "Availability lost and regained before policy settles is fine",
        )
        .requirements(&["RCIP-LIFE-POLICY-07", "CL-B15-7"])
        .setup(setup())
        .steps(with(
            pending(&["notes"]),
            vec![
                set_availability("b1", unavailable()),
                set_availability("b1", available()),
            ],
            settle_allow(ok.clone(), 1),
        )),
        c(
            "abort",
            1,
            "Abort while policy is pending settles at once with EXECUTION_ABORTED",
        )
        .requirements(&[
            "RCIP-LIFE-CANCEL-02",
            "CL-B11-1",
            "CL-B05-1",
            "RCIP-LIFE-POLICY-04",
        ])
        .setup(setup())
        .steps([
            bind(CAP, "b1", returns(created())),
            invoke_signal("i1", CAP, input(), "s1"),
            expect_pending("i1"),
            abort("s1"),
            expect_outcome("i1", failed("i1", CAP, "EXECUTION_ABORTED")),
            gate_policy(1, ret(allow())),
            expect_outcome("i1", failed("i1", CAP, "EXECUTION_ABORTED")),
            expect_handler_count(None, 0),
        ]),
        c(
            "abort",
            2,
            "A late confirm after abort creates no confirmation",
        )
        .requirements(&["RCIP-LIFE-CANCEL-04", "CL-B11-3"])
        .setup(setup())
        .steps([
            bind(CAP, "b1", returns(created())),
            invoke_signal("i1", CAP, input(), "s1"),
            abort("s1"),
            gate_policy(1, ret(confirm())),
            expect_outcome("i1", failed("i1", CAP, "EXECUTION_ABORTED")),
            expect_handler_count(None, 0),
        ]),
        c(
            "abort",
            3,
            "A late policy failure after abort changes nothing",
        )
        .requirements(&["RCIP-LIFE-CANCEL-04", "CL-B11-3", "CL-B02-1"])
        .setup(setup())
        .steps([
            bind(CAP, "b1", returns(created())),
            invoke_signal("i1", CAP, input(), "s1"),
            abort("s1"),
            gate_policy(1, throw_error()),
            expect_outcome("i1", failed("i1", CAP, "EXECUTION_ABORTED")),
            expect_handler_count(None, 0),
        ]),
        c("precedence", 1, "Abort wins over a changed binding")
            .requirements(&["CL-B05-1", "CL-B11-1"])
            .setup(setup())
            .steps([
                bind(CAP, "b1", returns(created())),
                invoke_signal("i1", CAP, input(), "s1"),
                unbind("b1"),
                abort("s1"),
                gate_policy(1, ret(allow())),
                expect_outcome("i1", failed("i1", CAP, "EXECUTION_ABORTED")),
                expect_handler_count(None, 0),
            ]),
        c(
            "precedence",
            2,
            "A changed binding wins over a changed context",
        )
        .requirements(&["CL-B05-1"])
        .setup(setup())
        .steps(with(
            pending(&["notes"]),
            vec![
                unbind("b1"),
                set_context(&["settings"], None),
                gate_policy(1, ret(allow())),
            ],
            vec![
                expect_outcome("i1", one_of([unbound.clone(), ctx_denied.clone()]))
                    .reqs(&["CL-B05-1"]),
                expect_outcome("i1", unbound.clone())
                    .strict(Strictness::Recommended)
                    .reqs(&["CL-B05-3"]),
                expect_handler_count(None, 0),
            ],
        )),
        c(
            "precedence",
            3,
            "A changed context wins over lost availability",
        )
        .requirements(&["CL-B05-1"])
        .setup(setup())
        .steps(with(
            pending(&["notes"]),
            vec![
                set_availability("b1", unavailable()),
                set_context(&["settings"], None),
                gate_policy(1, ret(allow())),
            ],
            vec![
                expect_outcome("i1", one_of([ctx_denied.clone(), unavailable_out.clone()]))
                    .reqs(&["CL-B05-1"]),
                expect_outcome("i1", ctx_denied.clone())
                    .strict(Strictness::Recommended)
                    .reqs(&["CL-B05-3"]),
                expect_handler_count(None, 0),
            ],
        )),
        c(
            "precedence",
            4,
            "A changed binding wins over lost availability",
        )
        .requirements(&["CL-B05-1"])
        .setup(setup())
        .steps(with(
            pending(&["notes"]),
            vec![
                set_availability("b1", unavailable()),
                unbind("b1"),
                bind_avail(CAP, "b2", returns(created()), unavailable()),
                gate_policy(1, ret(allow())),
            ],
            vec![
                expect_outcome("i1", one_of([unbound.clone(), unavailable_out.clone()]))
                    .reqs(&["CL-B05-1"]),
                expect_outcome("i1", unbound.clone())
                    .strict(Strictness::Recommended)
                    .reqs(&["CL-B05-3"]),
                expect_handler_count(None, 0),
            ],
        )),
        c(
            "deny-wins",
            1,
            "A deny after a context change is still denied, handler idle",
        )
        .requirements(&["RCIP-LIFE-POLICY-06", "CL-B05-2"])
        .setup(setup())
        .steps(with(
            pending(&["notes"]),
            vec![
                set_context(&["settings"], None),
                gate_policy(1, ret(deny())),
            ],
            vec![
                expect_outcome("i1", ctx_denied.clone()),
                expect_handler_count(None, 0),
            ],
        )),
        c(
            "refusal-vs-recheck",
            1,
            "A deny racing an unbind: denied or unbound, handler idle",
        )
        .requirements(&["PRJ-RCIP-POLICY-01", "CL-A05-3", "CL-B05-1", "CL-B05-2"])
        .strictness(Strictness::ImplDefined)
        .setup(setup())
        .steps(with(
            pending(&["notes"]),
            vec![unbind("b1"), gate_policy(1, ret(deny()))],
            vec![
                expect_outcome("i1", one_of([unbound.clone(), denied("i1", CAP, "POLICY_DENIED")])),
                expect_handler_count(None, 0).strict(Strictness::Required).reqs(&["CL-B05-2"]),
            ],
        )),
        c(
            "refusal-vs-recheck",
            2,
            "A throwing policy racing an unbind: either code, handler idle",
        )
        .requirements(&["PRJ-RCIP-POLICY-01", "CL-B12-3", "CL-B05-1", "CL-B05-2"])
        .strictness(Strictness::ImplDefined)
        .setup(setup())
        .steps(with(
            pending(&["notes"]),
            vec![unbind("b1"), gate_policy(1, throw_error())],
            vec![
                expect_outcome("i1", one_of([unbound.clone(), failed("i1", CAP, "POLICY_EVALUATION_FAILED")])),
                expect_handler_count(None, 0).strict(Strictness::Required).reqs(&["CL-B05-2"]),
            ],
        )),
    ];
    make_section(S, "Races while a policy is pending", "policy_race", cases)
}
