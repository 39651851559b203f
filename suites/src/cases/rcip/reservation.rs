//! Section `rcip.reservation`: invocation id reservation (RCIP-PROTO-LIFE-11, RCIP-LIFE-POLICY-01..03,
//! CL-B04, CL-B11-2): an id is reserved from the moment `invoke` accepts it until the invocation
//! settles (policy wait, pending confirmation, running handler), in one namespace per runtime across
//! capabilities; reuse gives INVOCATION_ALREADY_ACTIVE without disturbing the first; after
//! settlement (any outcome, decline, approval, abort) the id is free again and is no idempotency key.

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};

const S: &str = "reservation";
const CAP: &str = "notes.create";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

fn input() -> Value {
    json!({ "text": "a" })
}

/// A second invocation reusing id `i1` (with valid input for `capability`) is already active.
fn busy(handle: &str, capability: &str) -> Vec<Value> {
    let input = if capability == CAP {
        json!({ "text": "dup" })
    } else {
        json!({ "id": "dup" })
    };
    vec![
        invoke_id(handle, capability, input, "i1"),
        expect_outcome(
            handle,
            failed("i1", capability, "INVOCATION_ALREADY_ACTIVE"),
        ),
    ]
}

fn steps(parts: Vec<Vec<Value>>) -> Vec<Value> {
    parts.into_iter().flatten().collect()
}

pub fn section() -> Section {
    let gated_policy = || Setup::new(&notes()).policy_gated().to_json();
    let allow_policy = || Setup::new(&notes()).policy(allow()).to_json();
    let ok = succeeded("i1", CAP, created());
    let cases = vec![
        c(
            "policy-wait",
            1,
            "A duplicate id during the policy wait is already active",
        )
        .requirements(&[
            "RCIP-LIFE-POLICY-01",
            "RCIP-LIFE-POLICY-02",
            "CL-B04-1",
            "CL-B04-3",
            "CL-B04-4",
            "RCIP-PROTO-LIFE-11",
        ])
        .setup(gated_policy())
        .steps(steps(vec![
            vec![
                bind(CAP, "b1", returns(created())),
                invoke("i1", CAP, input()),
            ],
            vec![
                invoke_id("dup", CAP, json!({ "text": "b" }), "i1"),
                expect_outcome("dup", failed("i1", CAP, "INVOCATION_ALREADY_ACTIVE")),
            ],
            vec![
                expect_pending("i1"),
                gate_policy(1, ret(allow())),
                expect_outcome("i1", ok.clone()),
                expect_handler_calls(
                    None,
                    json!([handler_call(CAP, input(), "i1", crate::pattern::any())]),
                ),
            ],
        ])),
        c(
            "policy-wait",
            2,
            "A rejected duplicate never reaches policy",
        )
        .requirements(&["CL-B04-3", "CL-B04-4"])
        .strictness(Strictness::Recommended)
        .setup(gated_policy())
        .steps(steps(vec![
            vec![
                bind(CAP, "b1", returns(created())),
                invoke("i1", CAP, input()),
            ],
            vec![invoke_id("dup", CAP, json!({ "text": "b" }), "i1")],
            vec![expect_policy_count(1)],
        ])),
        c(
            "policy-wait",
            3,
            "Repeated duplicates keep failing while the first is pending",
        )
        .requirements(&["CL-B04-3", "CL-B04-4", "RCIP-LIFE-POLICY-02"])
        .setup(gated_policy())
        .steps(steps(vec![
            vec![
                bind(CAP, "b1", returns(created())),
                invoke("i1", CAP, input()),
            ],
            vec![
                invoke_id("d1", CAP, input(), "i1"),
                invoke_id("d2", CAP, input(), "i1"),
            ],
            vec![
                expect_outcome("d1", failed("i1", CAP, "INVOCATION_ALREADY_ACTIVE")),
                expect_outcome("d2", failed("i1", CAP, "INVOCATION_ALREADY_ACTIVE")),
                gate_policy(1, ret(allow())),
                expect_outcome("i1", ok.clone()),
            ],
        ])),
        c(
            "across-capabilities",
            1,
            "Ids share one namespace across capabilities",
        )
        .requirements(&["CL-B04-2", "RCIP-LIFE-POLICY-01"])
        .setup(gated_policy())
        .steps(steps(vec![
            vec![
                bind(CAP, "b1", returns(created())),
                bind("notes.delete", "b2", returns(json!({ "deleted": true }))),
                invoke("i1", CAP, input()),
            ],
            busy("dup", "notes.delete"),
            vec![
                gate_policy(1, ret(allow())),
                expect_outcome("i1", ok.clone()),
            ],
        ])),
        c(
            "confirmation",
            1,
            "A duplicate id while confirmation is pending is already active",
        )
        .requirements(&[
            "RCIP-LIFE-POLICY-01",
            "CL-B04-1",
            "CL-B04-3",
            "CL-B04-4",
            "RCIP-PROTO-LIFE-11",
        ])
        // A policy that answers by what it is asked: whether the refused duplicate consulted the
        // policy (CL-B04-3 only RECOMMENDS it does not, policy-wait.002) cannot shift the answer
        // the confirmed pass gets.
        .setup(Setup::new(&notes()).policy_confirm_then_allow().to_json())
        .steps(steps(vec![
            vec![
                bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
                invoke("i1", "notes.delete", json!({ "id": "n1" })),
            ],
            busy("dup", "notes.delete"),
            vec![
                resolve("r1", "i1", true),
                expect_outcome(
                    "r1",
                    succeeded("i1", "notes.delete", json!({ "deleted": true })),
                ),
            ],
        ])),
        c(
            "handler",
            1,
            "A duplicate id while the handler runs is already active",
        )
        .requirements(&["CL-B04-1", "CL-B04-3", "CL-B04-4"])
        .setup(allow_policy())
        .steps(steps(vec![
            vec![bind(CAP, "b1", gated()), invoke("i1", CAP, input())],
            busy("dup", CAP),
            vec![
                expect_handler_count(None, 1),
                gate_handler(1, ret(created())),
                expect_outcome("i1", ok.clone()),
            ],
        ])),
        // Issue 25 zoo (expiry-timer-kept-after-resolution): an approval that leaves the expiry
        // timer armed releases the id at the expiry instant while the approved handler still runs.
        c(
            "handler",
            2,
            "An approved run still going at the expiry instant keeps its id",
        )
        .requirements(&["CL-B04-1", "RCIP-PROTO-LIFE-11", "CL-B07-1"])
        .setup(Setup::new(&notes()).policy_confirm_then_allow().ttl(1000).to_json())
        .steps(steps(vec![
            vec![
                bind("notes.delete", "b1", gated()),
                invoke("i1", "notes.delete", json!({ "id": "n1" })),
                resolve("r1", "i1", true),
                expect_handler_count(None, 1),
                advance(1000),
            ],
            busy("dup", "notes.delete"),
            vec![
                gate_handler(1, ret(json!({ "deleted": true }))),
                expect_outcome(
                    "r1",
                    succeeded("i1", "notes.delete", json!({ "deleted": true })),
                ),
            ],
        ])),
        c(
            "released",
            1,
            "The id is free right after success and runs again",
        )
        .requirements(&["CL-B04-5", "RCIP-LIFE-POLICY-03"])
        .setup(allow_policy())
        .steps([
            bind(CAP, "b1", returns(created())),
            invoke("i1", CAP, input()),
            expect_outcome("i1", ok.clone()),
            invoke_id("again", CAP, input(), "i1"),
            expect_outcome("again", ok.clone()),
            expect_handler_count(None, 2)
                .note("ids are not idempotency keys: the handler runs twice"),
        ]),
        c("released", 2, "The id is free right after a failure")
            .requirements(&["CL-B04-5", "RCIP-LIFE-POLICY-03"])
            .setup(allow_policy())
            .steps([
                bind(CAP, "b1", returns(created())),
                invoke("i1", CAP, json!({})),
                expect_outcome("i1", failed("i1", CAP, "INPUT_INVALID")),
                invoke_id("again", CAP, input(), "i1"),
                expect_outcome("again", ok.clone()),
            ]),
        c("released", 3, "The id is free right after a denial")
            .requirements(&["CL-B04-5", "RCIP-LIFE-POLICY-03"])
            .setup(gated_policy())
            .steps([
                bind(CAP, "b1", returns(created())),
                invoke("i1", CAP, input()),
                gate_policy(1, ret(deny())),
                expect_outcome("i1", denied("i1", CAP, "POLICY_DENIED")),
                invoke_id("again", CAP, input(), "i1"),
                gate_policy(2, ret(allow())),
                expect_outcome("again", ok.clone()),
            ]),
        c("released", 4, "The id is free right after a decline")
            .requirements(&["CL-B04-5", "RCIP-LIFE-POLICY-03"])
            .setup(gated_policy())
            .steps([
                bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
                invoke("i1", "notes.delete", json!({ "id": "n1" })),
                gate_policy(1, ret(confirm())),
                resolve("r1", "i1", false),
                expect_outcome("r1", denied("i1", "notes.delete", "CONFIRMATION_DECLINED")),
                invoke_id("again", "notes.delete", json!({ "id": "n1" }), "i1"),
                gate_policy(2, ret(confirm())),
                expect_outcome("again", confirmation_any("i1", "notes.delete")),
            ]),
        c(
            "released",
            5,
            "The id is free right after an approved invocation settles",
        )
        .requirements(&["CL-B04-5", "RCIP-LIFE-POLICY-03"])
        .setup(gated_policy())
        .steps([
            bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
            invoke("i1", "notes.delete", json!({ "id": "n1" })),
            gate_policy(1, ret(confirm())),
            resolve("r1", "i1", true),
            gate_policy(2, ret(allow())),
            expect_outcome(
                "r1",
                succeeded("i1", "notes.delete", json!({ "deleted": true })),
            ),
            invoke_id("again", "notes.delete", json!({ "id": "n1" }), "i1"),
            expect_pending("again"),
            expect_policy_count(3),
        ]),
        c(
            "released",
            6,
            "An abort during the policy wait releases the id at once",
        )
        .requirements(&["CL-B11-2", "CL-B04-5", "RCIP-LIFE-CANCEL-02"])
        .setup(gated_policy())
        .steps([
            bind(CAP, "b1", returns(created())),
            invoke_signal("i1", CAP, input(), "s1"),
            abort("s1"),
            expect_outcome("i1", failed("i1", CAP, "EXECUTION_ABORTED")),
            invoke_id("again", CAP, json!({ "text": "b" }), "i1"),
            expect_pending("again")
                .note("not INVOCATION_ALREADY_ACTIVE although policy call 1 is unsettled"),
            gate_policy(1, ret(allow())),
            gate_policy(2, ret(allow())),
            expect_outcome("again", ok.clone()),
            expect_handler_calls(
                None,
                json!([handler_call(
                    CAP,
                    json!({ "text": "b" }),
                    "i1",
                    crate::pattern::any()
                )]),
            ),
        ]),
        c(
            "released",
            7,
            "A duplicate rejected while pending does not hold the id",
        )
        .requirements(&["CL-B04-4", "CL-B04-5"])
        .setup(gated_policy())
        .steps([
            bind(CAP, "b1", returns(created())),
            invoke("i1", CAP, input()),
            invoke_id("dup", CAP, input(), "i1"),
            gate_policy(1, ret(allow())),
            expect_outcome("i1", ok.clone()),
            invoke_id("again", CAP, input(), "i1"),
            expect_pending("again"),
        ]),
    ];
    make_section(S, "Invocation id reservation", "reservation", cases)
}
