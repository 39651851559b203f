//! Section `rcip.confirmation`: confirmation and `host.resolveConfirmation` (RCIP-PROTO-SURF-11,
//! CL-A04-10, CL-A06-4, RCIP-LIFE-CONF-01..04, CL-B07): approval re-runs binding, availability,
//! schema and policy (confirmed: true) before the handler; approval is single use (also while the
//! confirmed pass is pending); declining gives CONFIRMATION_DECLINED; a changed binding or context
//! while pending denies at approval; unknown ids give CONFIRMATION_NOT_FOUND.

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};
use crate::pattern::any;

const S: &str = "confirmation";
const CAP: &str = "notes.delete";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

fn input() -> Value {
    json!({ "id": "n1" })
}

fn done() -> Value {
    json!({ "deleted": true })
}

fn setup() -> Value {
    Setup::new(&notes()).policy_gated().to_json()
}

/// `i1` waits for confirmation: bound with an availability check, context `notes`.
fn pending() -> Vec<Value> {
    vec![
        set_context(&["notes"], None),
        bind_avail(CAP, "b1", returns(done()), available()),
        invoke("i1", CAP, input()),
        gate_policy(1, ret(confirm())),
        expect_outcome("i1", confirmation_required("i1", CAP, "destructive")),
    ]
}

/// A policy answering by what it is asked (`confirm`, then `allow` on the confirmed pass): used
/// where the texts leave open whether, or when, approval consults the policy before refusing.
fn setup_by_request() -> Value {
    Setup::new(&notes()).policy_confirm_then_allow().to_json()
}

/// `pending()` under [`setup_by_request`]: the first pass answers `confirm` by itself.
fn pending_by_request() -> Vec<Value> {
    vec![
        set_context(&["notes"], None),
        bind_avail(CAP, "b1", returns(done()), available()),
        invoke("i1", CAP, input()),
        expect_outcome("i1", confirmation_required("i1", CAP, "destructive")),
    ]
}

/// Approves `i1` as `r1`; the confirmed pass of policy (call 2) allows.
fn approve_and_allow() -> Vec<Value> {
    vec![resolve("r1", "i1", true), gate_policy(2, ret(allow()))]
}

fn steps(parts: Vec<Vec<Value>>) -> Vec<Value> {
    parts.into_iter().flatten().collect()
}

pub fn section() -> Section {
    let ok = succeeded("i1", CAP, done());
    let policy_denied = denied("i1", CAP, "POLICY_DENIED");
    let cases = vec![
        c("approve", 1, "Approval re-runs policy confirmed, then runs the handler once")
            .requirements(&[
                "RCIP-PROTO-SURF-11", "CL-A04-10", "CL-B07-3", "RCIP-PROTO-LIFE-06", "RCIP-LIFE-CONF-03", "CL-A06-1",
            ])
            .setup(setup())
            .steps(steps(vec![
                pending(),
                vec![expect_handler_count(None, 0)],
                approve_and_allow(),
                vec![
                    expect_outcome("r1", ok.clone()),
                    expect_outcome("i1", confirmation_required("i1", CAP, "destructive")),
                    expect_policy_calls(
                        None,
                        json!([
                            policy_call(CAP, input(), context(&["notes"], None), false),
                            policy_call(CAP, input(), context(&["notes"], None), true),
                        ]),
                    ),
                    expect_handler_calls(None, json!([handler_call(CAP, input(), "i1", context(&["notes"], None))])),
                ],
            ])),
        c("approve", 2, "The resolution stays pending until the confirmed policy settles")
            .requirements(&["CL-B07-3", "RCIP-PROTO-LIFE-06", "CL-A04-10"])
            .setup(setup())
            .steps(steps(vec![
                pending(),
                vec![
                    resolve("r1", "i1", true),
                    expect_pending("r1"),
                    expect_handler_count(None, 0),
                    gate_policy(2, ret(allow())),
                    expect_outcome("r1", ok.clone()),
                ],
            ])),
        c("approve", 3, "A confirmation of a read capability carries effect read")
            .requirements(&["PRJ-RCIP-CONF-03", "CL-A06-4"])
            .setup(setup())
            .steps([
                bind("notes.list", "b1", returns(json!({ "items": [] }))),
                invoke("i1", "notes.list", json!({})),
                gate_policy(1, ret(confirm())),
                expect_outcome("i1", confirmation_required("i1", "notes.list", "read")),
                resolve("r1", "i1", true),
                gate_policy(2, ret(allow())),
                expect_outcome("r1", succeeded("i1", "notes.list", json!({ "items": [] }))),
            ]),
        c("approve", 4, "Confirmation ids come from createId with prefix confirmation")
            .requirements(&["CL-A01-6", "CL-A04-10"])
            .setup(Setup::new(&notes()).policy_gated().sequential_ids().to_json())
            .steps([
                bind(CAP, "b1", returns(done())),
                invoke("i1", CAP, input()),
                gate_policy(1, ret(confirm())),
                expect_outcome(
                    "i1",
                    json!({
                        "status": "confirmation_required", "invocationId": "i1", "capabilityId": CAP,
                        "confirmation": { "id": "confirmation-1", "effect": "destructive", "expiresAt": crate::pattern::present() }
                    }),
                ),
                resolve_id("r1", "confirmation-1", true),
                gate_policy(2, ret(allow())),
                expect_outcome("r1", ok.clone()),
            ]),
        // `host-prefixed` ids are of a form no runtime makes by itself: a runtime that ignores
        // createId issues ids of its own and fails here (issue 25 §3).
        c("approve", 5, "A runtime-made invocation and its confirmation carry createId's ids")
            .requirements(&["CL-A01-6", "CL-A06-4", "CL-A04-10", "CL-A04-4"])
            .setup(Setup::new(&notes()).policy_gated().host_prefixed_ids().to_json())
            .steps([
                bind(CAP, "b1", returns(done())),
                invoke_auto("i1", CAP, input()),
                gate_policy(1, ret(confirm())),
                expect_outcome(
                    "i1",
                    json!({
                        "status": "confirmation_required", "invocationId": "host-invocation-1", "capabilityId": CAP,
                        "confirmation": { "id": "host-confirmation-1", "effect": "destructive", "expiresAt": crate::pattern::present() }
                    }),
                )
                .reqs(&["CL-A01-6", "CL-A06-4"]),
                resolve_id("r1", "host-confirmation-1", true),
                gate_policy(2, ret(allow())),
                expect_outcome("r1", succeeded("host-invocation-1", CAP, done()))
                    .reqs(&["CL-A01-6", "CL-A04-10", "CL-B07-3", "CL-A06-1"]),
                expect_handler_context(1, crate::pattern::subset(json!({ "invocationId": "host-invocation-1" })))
                    .reqs(&["CL-A01-6", "CL-A04-4"]),
            ]),
        c("decline", 1, "Declining gives denied CONFIRMATION_DECLINED and no handler run")
            .requirements(&["CL-B07-2", "RCIP-PROTO-SURF-11", "CL-B01-2"])
            .setup(setup())
            .steps(steps(vec![
                pending(),
                vec![
                    resolve("r1", "i1", false),
                    expect_outcome("r1", denied("i1", CAP, "CONFIRMATION_DECLINED")),
                    expect_handler_count(None, 0),
                ],
            ])),
        c("decline", 2, "A decline is final: approving afterwards finds nothing")
            .requirements(&["CL-B07-1", "CL-B07-2", "CL-B10-4", "RCIP-LIFE-CONF-02"])
            .setup(setup())
            .steps(steps(vec![
                pending(),
                vec![
                    resolve("r1", "i1", false),
                    expect_outcome("r1", denied("i1", CAP, "CONFIRMATION_DECLINED")),
                    resolve("r2", "i1", true),
                    expect_outcome("r2", failed_code("CONFIRMATION_NOT_FOUND")),
                    expect_handler_count(None, 0),
                ],
            ])),
        c("twice", 1, "A second approval of the same id gets CONFIRMATION_NOT_FOUND")
            .requirements(&["CL-B07-1", "RCIP-LIFE-CONF-02", "CL-B10-4"])
            .setup(setup())
            .steps(steps(vec![
                pending(),
                approve_and_allow(),
                vec![
                    expect_outcome("r1", ok.clone()),
                    resolve("r2", "i1", true),
                    expect_outcome("r2", failed_code("CONFIRMATION_NOT_FOUND")),
                    expect_handler_count(None, 1),
                ],
            ])),
        c("twice", 2, "A second approval while the first is in policy finds nothing")
            .requirements(&["CL-B07-1", "RCIP-LIFE-CONF-02"])
            .setup(setup())
            .steps(steps(vec![
                pending(),
                vec![
                    resolve("r1", "i1", true),
                    expect_pending("r1"),
                    resolve("r2", "i1", true),
                    expect_outcome("r2", failed_code("CONFIRMATION_NOT_FOUND")),
                    gate_policy(2, ret(allow())),
                    expect_outcome("r1", ok.clone()),
                    // The approval re-ran policy once; the second approval found nothing to run.
                    expect_policy_count(2).reqs(&["CL-B07-3", "CL-B07-1"]),
                    expect_handler_count(None, 1),
                ],
            ])),
        c("twice", 3, "A decline after an approval finds nothing")
            .requirements(&["CL-B07-1", "RCIP-LIFE-CONF-02"])
            .setup(setup())
            .steps(steps(vec![
                pending(),
                approve_and_allow(),
                vec![
                    resolve("r2", "i1", false),
                    expect_outcome("r2", failed_code("CONFIRMATION_NOT_FOUND")),
                    expect_outcome("r1", ok.clone()),
                ],
            ])),
        c("unknown", 1, "Approving an id that never existed gets CONFIRMATION_NOT_FOUND")
            .requirements(&["CL-B07-1", "CL-B02-1", "PRJ-RCIP-OUT-01", "RCIP-PROTO-SURF-11"])
            .setup(setup())
            .steps([resolve_id("r1", "no-such-confirmation", true), expect_outcome("r1", failed_code("CONFIRMATION_NOT_FOUND"))]),
        c("unknown", 2, "Declining an id that never existed gets CONFIRMATION_NOT_FOUND")
            .requirements(&["CL-B07-1", "CL-B02-1", "PRJ-RCIP-OUT-01"])
            .setup(setup())
            .steps([resolve_id("r1", "", false), expect_outcome("r1", failed_code("CONFIRMATION_NOT_FOUND"))]),
        c("unknown", 3, "An invocation id is not a confirmation id")
            .requirements(&["CL-B07-1", "PRJ-RCIP-OUT-01", "CL-A01-6"])
            .setup(Setup::new(&notes()).policy_gated().sequential_ids().to_json())
            .steps(steps(vec![
                pending(),
                vec![
                    resolve_id("r1", "i1", true),
                    expect_outcome("r1", failed_code("CONFIRMATION_NOT_FOUND")),
                    expect_policy_count(1),
                ],
            ])),
        c("rebind", 1, "Rebinding while confirmation is pending denies at approval")
            .requirements(&["CL-B07-4", "RCIP-LIFE-CONF-04", "RCIP-PROTO-LIFE-13"])
            .setup(setup_by_request())
            .steps(steps(vec![
                pending_by_request(),
                vec![unbind("b1"), bind(CAP, "b2", returns(done())), resolve("r1", "i1", true)],
                vec![
                    expect_outcome("r1", policy_denied.clone())
                        .note("whether the confirmed policy pass runs before the refusal is open; it allows if asked"),
                    expect_handler_count(None, 0),
                ],
            ])),
        c("unbind", 1, "Unbinding while confirmation is pending blocks the approval")
            .requirements(&["PRJ-RCIP-CONF-01", "CL-B07-4", "RCIP-LIFE-CONF-04"])
            .setup(setup_by_request())
            .steps(steps(vec![
                pending_by_request(),
                vec![unbind("b1"), resolve("r1", "i1", true)],
                vec![expect_outcome("r1", policy_denied.clone()), expect_handler_count(None, 0)],
            ])),
        c("context", 1, "A context change while confirmation is pending denies at approval")
            .requirements(&["CL-B07-4", "RCIP-LIFE-CONF-04", "RCIP-PROTO-LIFE-13"])
            .setup(setup_by_request())
            .steps(steps(vec![
                pending_by_request(),
                vec![set_context(&["settings"], None), resolve("r1", "i1", true)],
                vec![expect_outcome("r1", policy_denied.clone()), expect_handler_count(None, 0)],
            ])),
        c("context", 2, "An identical context re-published while pending is no change")
            .requirements(&["CL-B06-2", "CL-B07-4"])
            .setup(setup())
            .steps(steps(vec![
                pending(),
                vec![set_context(&["notes"], None)],
                approve_and_allow(),
                vec![expect_outcome("r1", ok.clone())],
            ])),
        c("context", 3, "A context changed and changed back while pending is no change")
            .requirements(&["CL-B06-1", "CL-B07-4"])
            .setup(setup())
            .steps(steps(vec![
                pending(),
                vec![set_context(&["settings"], None), set_context(&["notes"], None)],
                approve_and_allow(),
                vec![expect_outcome("r1", ok.clone())],
            ])),
        c("availability", 1, "Availability lost while pending fails the approval")
            .requirements(&["CL-B07-3", "RCIP-LIFE-CONF-03", "RCIP-PROTO-LIFE-06"])
            .setup(setup_by_request())
            .steps(steps(vec![
                pending_by_request(),
                vec![
                    set_availability("b1", unavailable()),
                    resolve("r1", "i1", true),
                    expect_outcome("r1", failed("i1", CAP, "CAPABILITY_UNAVAILABLE")),
                    expect_handler_count(None, 0),
                ],
            ])),
        c("availability", 2, "Availability checked live at approval, not from the snapshot")
            .requirements(&["CL-B07-3", "CL-B15-7", "RCIP-LIFE-CONF-03"])
            .setup(setup())
            .steps(steps(vec![
                pending(),
                vec![set_availability("b1", unavailable()), refresh(), set_availability("b1", available())],
                approve_and_allow(),
                vec![expect_outcome("r1", ok.clone())],
            ])),
        c("policy-recheck", 1, "A confirmed pass that denies gives denied POLICY_DENIED")
            .requirements(&["CL-B07-3", "RCIP-LIFE-CONF-03", "RCIP-PROTO-LIFE-06"])
            .setup(setup())
            .steps(steps(vec![
                pending(),
                vec![
                    resolve("r1", "i1", true),
                    gate_policy(2, ret(deny())),
                    expect_outcome("r1", policy_denied.clone()),
                    expect_handler_count(None, 0),
                ],
            ])),
        c("policy-recheck", 2, "A confirmed pass that throws gives POLICY_EVALUATION_FAILED")
            .requirements(&["CL-B07-3", "CL-B12-3", "CL-B02-1"])
            .setup(setup())
            .steps(steps(vec![
                pending(),
                vec![
                    resolve("r1", "i1", true),
                    gate_policy(2, throw_error()),
                    expect_outcome("r1", failed("i1", CAP, "POLICY_EVALUATION_FAILED")),
                    expect_handler_count(None, 0),
                ],
            ])),
        c("policy-recheck", 3, "A confirmed pass that asks to confirm again is denied")
            .requirements(&["CL-B07-5", "RCIP-LIFE-CONF-03"])
            .strictness(Strictness::Recommended)
            .setup(setup())
            .steps(steps(vec![
                pending(),
                vec![
                    resolve("r1", "i1", true),
                    gate_policy(2, ret(confirm())),
                    expect_outcome("r1", policy_denied.clone()),
                    expect_handler_count(None, 0),
                ],
            ])),
        c("policy-recheck", 4, "A scripted policy confirming every pass ends denied")
            .requirements(&["CL-B07-5"])
            .strictness(Strictness::Recommended)
            .setup(Setup::new(&notes()).policy(confirm()).to_json())
            .steps([
                bind(CAP, "b1", returns(done())),
                invoke("i1", CAP, input()),
                expect_outcome("i1", confirmation_required("i1", CAP, "destructive"))
                    .strict(Strictness::Required)
                    .reqs(&["CL-A05-4"]),
                resolve("r1", "i1", true),
                expect_outcome("r1", policy_denied.clone()),
                expect_handler_count(None, 0),
            ]),
        c("captures", 1, "The caller's later input mutation does not reach the approval")
            .requirements(&["RCIP-LIFE-CONF-01", "CL-B14-1", "RCIP-PROTO-LIFE-12", "RCIP-LIFE-JSON-01"])
            .setup(setup())
            .steps(steps(vec![
                pending(),
                vec![mutate_input("i1", "/id", json!("n2")), mutate_input("i1", "/extra", json!(true))],
                approve_and_allow(),
                vec![
                    expect_outcome("r1", ok.clone()),
                    expect_policy_calls(None, json!([any(), policy_call(CAP, input(), any(), true)])),
                    expect_handler_calls(None, json!([handler_call(CAP, input(), "i1", any())])),
                ],
            ])),
    ];
    let mut cases = cases;
    cases.extend(after_change());
    make_section(S, "Confirmation and its resolution", "confirmation", cases)
}

/// Declining, or letting expire, a confirmation whose binding, context or availability changed
/// while it was pending (issue 13): the change decides only an approval (CL-B07-4 "at approval",
/// CL-B07-3), so a decline is still CONFIRMATION_DECLINED (CL-B07-2) and an expired one still
/// answers CONFIRMATION_EXPIRED from its receipt (CL-B08-2/3); the handler never runs.
fn after_change() -> Vec<Case> {
    let changes: [(&str, &str, Vec<Value>); 4] = [
        (
            "rebind",
            "a rebinding",
            vec![unbind("b1"), bind(CAP, "b2", returns(done()))],
        ),
        ("unbind", "an unbinding", vec![unbind("b1")]),
        (
            "context",
            "a context change",
            vec![set_context(&["settings"], None)],
        ),
        (
            "availability",
            "lost availability",
            vec![set_availability("b1", unavailable())],
        ),
    ];
    let mut cases = Vec::new();
    for (slug, what, change) in changes {
        cases.push(
            c(
                &format!("decline-after-{slug}"),
                1,
                &format!("Declining after {what} is CONFIRMATION_DECLINED"),
            )
            .requirements(&["CL-B07-2", "CL-B07-4", "RCIP-PROTO-SURF-11"])
            .setup(setup_by_request())
            .steps(steps(vec![
                pending_by_request(),
                change.clone(),
                vec![
                    resolve("r1", "i1", false),
                    expect_outcome("r1", denied("i1", CAP, "CONFIRMATION_DECLINED")),
                    expect_handler_count(None, 0),
                ],
            ])),
        );
        cases.push(
            c(
                &format!("expire-after-{slug}"),
                1,
                &format!("Expiry after {what} gives CONFIRMATION_EXPIRED"),
            )
            .requirements(&["CL-B08-2", "CL-B08-3", "CL-B07-4", "RCIP-LIFE-CONF-06"])
            .setup(setup_by_request())
            .steps(steps(vec![
                pending_by_request(),
                change,
                vec![
                    advance(120_001),
                    resolve("r1", "i1", true),
                    expect_outcome("r1", failed_code("CONFIRMATION_EXPIRED")),
                    expect_handler_count(None, 0),
                ],
            ])),
        );
    }
    cases
}
