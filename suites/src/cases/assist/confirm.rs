//! Section `rcip.assist.confirm`: a `confirmation_required` outcome mid-batch waits for the trusted
//! host UI's resolution (RCIP-PROTO-ASSIST-10, CL-C02-3) and the SDK never approves by itself
//! (CL-C02-4). The batch then goes on with the outcome of that resolution: approved (CL-B07-3: the
//! confirmed pass of policy, then the handler), declined (denied `CONFIRMATION_DECLINED`, CL-B07-2)
//! or expired (failed `CONFIRMATION_EXPIRED`, CL-B08-3), the last two stopping the batch (CL-C02-2).

use serde_json::json;

use super::support::*;
use crate::case::{Case, Section};

const S: &str = "confirm";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

/// Turn `t1` proposes [list, delete, search]; policy allows list and asks to confirm delete.
fn waiting_on_delete() -> Vec<serde_json::Value> {
    vec![
        turn("t1", "default", ask("clean up")),
        answer_actions(
            1,
            vec![act("notes.list"), act("notes.delete"), act("notes.search")],
        ),
        gate_policy(1, allow()),
        gate_policy(2, confirm()),
        expect_handler_order(&["notes.list"]),
        expect_turn("t1", state(json!("pending"), vec![decide_any()]))
            .note("the batch waits for the host UI: no further action, no summarize"),
    ]
}

pub fn section() -> Section {
    make_section(
        S,
        "Assist and confirmation by the trusted host UI",
        "confirm",
        vec![
            c("approved", 1, "A host-approved confirmation runs the action; the batch goes on")
                .requirements(&["RCIP-PROTO-ASSIST-10", "CL-C02-3", "CL-B07-3", "CL-C02-1"])
                .setup(Setup::gated_policy().to_json())
                .steps(bind_all())
                .steps(waiting_on_delete())
                .steps([
                    resolve("r1", "t1", 2, true),
                    expect_outcome("r1", json!("pending")).note("the confirmed pass of policy is pending"),
                    gate_policy(3, allow()),
                    expect_outcome("r1", ok("notes.delete")).note("the host UI gets the resolution's outcome"),
                    expect_handler_order(&["notes.list", "notes.delete"]),
                    gate_policy(4, allow()),
                    expect_policy_calls(&[
                        ("notes.list", json!({}), false),
                        ("notes.delete", json!({}), false),
                        ("notes.delete", json!({}), true),
                        ("notes.search", json!({}), false),
                    ]),
                    expect_handler_order(&["notes.list", "notes.delete", "notes.search"]),
                    expect_turn(
                        "t1",
                        state(
                            json!("pending"),
                            vec![
                                decide_any(),
                                summarize_outcomes(vec![ok("notes.list"), ok("notes.delete"), ok("notes.search")]),
                            ],
                        ),
                    )
                    .note(
                        "the completed outcome of the confirmed action is the resolution's, not confirmation_required",
                    ),
                ]),
            c("declined", 1, "A host-declined confirmation stops the batch, denied DECLINED")
                .requirements(&["RCIP-PROTO-ASSIST-10", "CL-C02-3", "CL-C02-2", "CL-B07-2"])
                .setup(Setup::gated_policy().to_json())
                .steps(bind_all())
                .steps(waiting_on_delete())
                .steps([
                    resolve("r1", "t1", 2, false),
                    expect_outcome("r1", denied("notes.delete", "CONFIRMATION_DECLINED")),
                    expect_policy_order(&["notes.list", "notes.delete"]),
                    expect_handler_order(&["notes.list"]),
                    expect_turn(
                        "t1",
                        state(
                            json!("pending"),
                            vec![
                                decide_any(),
                                summarize_outcomes(vec![
                                    ok("notes.list"),
                                    denied("notes.delete", "CONFIRMATION_DECLINED"),
                                ]),
                            ],
                        ),
                    ),
                    answer_text(2, "Declined."),
                    expect_turn(
                        "t1",
                        state(
                            result(
                                json!("Declined."),
                                vec![ok("notes.list"), denied("notes.delete", "CONFIRMATION_DECLINED")],
                            ),
                            vec![decide_any(), summarize_any()],
                        ),
                    )
                    .reqs(&["PRJ-ASSIST-TURN-01"]),
                ]),
            c("expired", 1, "A confirmation that expired while waiting stops the batch")
                .requirements(&["RCIP-PROTO-ASSIST-10", "CL-C02-3", "CL-C02-2", "CL-B08-3"])
                .setup(Setup::gated_policy().ttl(1000).to_json())
                .steps(bind_all())
                .steps(waiting_on_delete())
                .steps([
                    advance(1500),
                    expect_handler_order(&["notes.list"]),
                    expect_no_policy_call("notes.search"),
                    resolve("r1", "t1", 2, true),
                    expect_outcome("r1", failed("notes.delete", "CONFIRMATION_EXPIRED")),
                    expect_policy_order(&["notes.list", "notes.delete"]),
                    expect_handler_order(&["notes.list"]),
                    expect_turn(
                        "t1",
                        state(
                            json!("pending"),
                            vec![
                                decide_any(),
                                summarize_outcomes(vec![
                                    ok("notes.list"),
                                    failed("notes.delete", "CONFIRMATION_EXPIRED"),
                                ]),
                            ],
                        ),
                    )
                    .note("the host UI's late approval gives CONFIRMATION_EXPIRED, and the batch stops on it"),
                    answer_text(2, "Too late."),
                    expect_turn(
                        "t1",
                        state(
                            result(
                                json!("Too late."),
                                vec![ok("notes.list"), failed("notes.delete", "CONFIRMATION_EXPIRED")],
                            ),
                            vec![decide_any(), summarize_any()],
                        ),
                    )
                    .reqs(&["PRJ-ASSIST-TURN-01"]),
                ]),
            c("never-approves", 1, "The SDK never approves a pending confirmation by itself")
                .requirements(&["RCIP-PROTO-ASSIST-10", "CL-C02-4", "CL-C02-3"])
                .setup(Setup::gated_policy().to_json())
                .steps(bind_all())
                .steps(waiting_on_delete())
                .steps([
                    advance(60000),
                    expect_policy_order(&["notes.list", "notes.delete"])
                        .note("no confirmed pass of policy: nobody approved"),
                    expect_handler_order(&["notes.list"]),
                    expect_turn("t1", state(json!("pending"), vec![decide_any()])),
                    resolve("r1", "t1", 2, true),
                    gate_policy(3, allow()),
                    expect_handler_order(&["notes.list", "notes.delete"])
                        .note("the confirmation was still pending for the host UI, not consumed by the SDK"),
                ]),
            c("first", 1, "A confirmation on the first action holds back the whole batch")
                .requirements(&["RCIP-PROTO-ASSIST-10", "CL-C02-3", "CL-C02-1"])
                .setup(Setup::gated_policy().to_json())
                .steps(bind_all())
                .steps([
                    turn("t1", "default", ask("share it")),
                    answer_actions(1, vec![act("notes.share"), act("notes.list")]),
                    gate_policy(1, confirm()),
                    expect_policy_order(&["notes.share"]),
                    expect_handler_order(&[]),
                    resolve("r1", "t1", 1, true),
                    gate_policy(2, allow()),
                    gate_policy(3, allow()),
                    expect_handler_order(&["notes.share", "notes.list"]),
                    expect_turn(
                        "t1",
                        state(
                            json!("pending"),
                            vec![decide_any(), summarize_outcomes(vec![ok("notes.share"), ok("notes.list")])],
                        ),
                    ),
                ]),
        ],
    )
}
