//! Section `rcip.assist.read-only`: read-only mode removes non-read capabilities from the
//! callback's snapshot (RCIP-PROTO-ASSIST-11, CL-C05-1) and rejects a proposed non-read or unknown
//! action locally, without calling `invoke` (RCIP-PROTO-ASSIST-12, CL-C05-2): host policy is never
//! asked and no handler runs. RECOMMENDED: the local outcome is denied `POLICY_DENIED` (CL-C05-3).
//! The rejection happens when the batch reaches the action and stops the batch
//! (PRJ-ASSIST-LOCAL-01, CL-C02-2).

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};

const S: &str = "read-only";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

/// A read-only batch whose only action `action` is rejected locally.
fn rejected(slug: &str, description: &str, action: Value, capability: &str, reqs: &[&str]) -> Case {
    c(slug, 1, description)
        .requirements(reqs)
        .setup(Setup::allow().to_json())
        .steps(bind_all())
        .steps([
            turn("t1", "read-only", ask("change something")),
            answer_actions(1, vec![action]),
            expect_policy_order(&[]).note("invoke would have asked host policy: it was not called"),
            expect_handler_order(&[]),
            expect_invocations("t1", &[])
                .note("rejected locally: the orchestrator made no invoke call"),
            expect_turn(
                "t1",
                nothing_ran(
                    decide("read-only", &READS, ask("change something")),
                    vec![non_success(capability)],
                ),
            ),
            expect_turn(
                "t1",
                nothing_ran(decide_any(), vec![rejected_locally(capability)]),
            )
            .strict(Strictness::Recommended)
            .reqs(&["CL-C05-3"]),
        ])
}

pub fn section() -> Section {
    let write_reqs = &["RCIP-PROTO-ASSIST-12", "CL-C05-2", "CL-C05-1", "CL-C04-3"];
    make_section(
        S,
        "Assist read-only mode",
        "read_only",
        vec![
            rejected(
                "write",
                "A proposed write is rejected locally, without invoke",
                act_with("notes.create", json!({ "text": "a" })),
                "notes.create",
                write_reqs,
            ),
            rejected(
                "destructive",
                "A proposed destructive action is rejected locally",
                act("notes.delete"),
                "notes.delete",
                write_reqs,
            ),
            rejected(
                "external",
                "A proposed external action is rejected locally",
                act("notes.share"),
                "notes.share",
                write_reqs,
            ),
            rejected(
                "unknown",
                "A proposed unknown capability is rejected locally",
                act("notes.archive"),
                "notes.archive",
                &["CL-C05-2", "CL-C04-3"],
            ),
            c("reads", 1, "Read actions run through invoke in read-only mode")
                .requirements(&["CL-C02-1", "RCIP-PROTO-ASSIST-12", "CL-C05-1", "CL-C04-1"])
                .setup(Setup::allow().to_json())
                .steps(bind_all())
                .steps([
                    turn("t1", "read-only", ask("what is there?")),
                    answer_actions(1, vec![act("notes.list"), act_with("notes.search", json!({ "q": "x" }))]),
                    expect_policy_calls(&[
                        ("notes.list", json!({}), false),
                        ("notes.search", json!({ "q": "x" }), false),
                    ]),
                    expect_handler_order(&["notes.list", "notes.search"]),
                    expect_turn(
                        "t1",
                        state(
                            json!("pending"),
                            vec![
                                decide("read-only", &READS, ask("what is there?")),
                                summarize("read-only", &READS, vec![ok("notes.list"), ok("notes.search")]),
                            ],
                        ),
                    ),
                ]),
            c("mid-batch", 1, "A write after a read is rejected when reached and stops the batch")
                .requirements(&["PRJ-ASSIST-LOCAL-01", "CL-C05-2", "CL-C02-2", "CL-C04-1", "RCIP-PROTO-ASSIST-12"])
                .setup(Setup::allow().to_json())
                .steps(bind_all())
                .steps([
                    turn("t1", "read-only", ask("list then add")),
                    answer_actions(
                        1,
                        vec![act("notes.list"), act_with("notes.create", json!({ "text": "a" })), act("notes.search")],
                    ),
                    expect_policy_order(&["notes.list"]),
                    expect_handler_order(&["notes.list"]),
                    expect_turn(
                        "t1",
                        state(
                            json!("pending"),
                            vec![
                                decide_any(),
                                summarize("read-only", &READS, vec![ok("notes.list"), non_success("notes.create")]),
                            ],
                        ),
                    )
                    .note("the read ran, so summarize follows; the search after the rejection never started"),
                    expect_turn(
                        "t1",
                        state(
                            json!("pending"),
                            vec![
                                decide_any(),
                                summarize_outcomes(vec![ok("notes.list"), rejected_locally("notes.create")]),
                            ],
                        ),
                    )
                    .strict(Strictness::Recommended)
                    .reqs(&["CL-C05-3"]),
                    answer_text(2, "Listed; adding is not allowed here."),
                    expect_handler_order(&["notes.list"]),
                    expect_turn(
                        "t1",
                        state(
                            result(
                                json!("Listed; adding is not allowed here."),
                                vec![ok("notes.list"), non_success("notes.create")],
                            ),
                            vec![decide_any(), summarize_any()],
                        ),
                    )
                    .reqs(&["PRJ-ASSIST-TURN-01"]),
                ]),
            c("default-mode", 1, "The same write runs through invoke in default mode")
                .requirements(&["CL-C05-2", "CL-C02-1"])
                .setup(Setup::allow().to_json())
                .steps(bind_all())
                .steps([
                    turn("t1", "default", ask("add")),
                    answer_actions(1, vec![act_with("notes.create", json!({ "text": "a" }))]),
                    expect_policy_calls(&[("notes.create", json!({ "text": "a" }), false)])
                        .note("the local rejection belongs to read-only mode only"),
                    expect_handler_order(&["notes.create"]),
                ]),
        ],
    )
}
