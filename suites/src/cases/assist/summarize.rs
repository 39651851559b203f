//! Section `rcip.assist.summarize`: after any action ran, exactly one summarize call follows the
//! batch with the completed outcomes (RCIP-PROTO-ASSIST-04, CL-C04-1, CL-C01-1); it may return
//! text only, and actions it returns are never executed (RCIP-PROTO-ASSIST-05, CL-C04-2). Whether
//! summarize is called when the batch ended before any action ran is IMPL-DEFINED (CL-C04-3).

use serde_json::json;

use super::support::*;
use crate::case::{Case, Section, Strictness};

const S: &str = "summarize";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

/// Turn `t1` ran [list, search]; summarize (call 2) is waiting.
fn ran_two(mode: &str) -> Vec<serde_json::Value> {
    vec![
        turn("t1", mode, ask("look around")),
        answer_actions(1, vec![act("notes.list"), act("notes.search")]),
        // The two actions ran in order through invoke (CL-C02-1, RCIP-PROTO-ASSIST-06).
        expect_handler_order(&["notes.list", "notes.search"]).reqs(&["CL-C02-1", "RCIP-PROTO-ASSIST-06"]),
    ]
}

pub fn section() -> Section {
    let two_ok = || vec![ok("notes.list"), ok("notes.search")];
    make_section(
        S,
        "Assist summarize phase",
        "summarize",
        vec![
            c(
                "once",
                1,
                "One summarize call follows the batch with its completed outcomes",
            )
            .requirements(&[
                "RCIP-PROTO-ASSIST-04",
                "CL-C04-1",
                "RCIP-PROTO-ASSIST-02",
                "CL-C01-1",
                "PRJ-ASSIST-TURN-01",
            ])
            .setup(Setup::allow().to_json())
            .steps(bind_all())
            .steps(ran_two("default"))
            .steps([
                expect_turn(
                    "t1",
                    state(
                        json!("pending"),
                        vec![
                            decide("default", &ALL, ask("look around")),
                            summarize("default", &ALL, two_ok()),
                        ],
                    ),
                ),
                answer_text(2, "Two notes."),
                expect_turn(
                    "t1",
                    state(
                        result(json!("Two notes."), two_ok()),
                        vec![decide_any(), summarize_any()],
                    ),
                )
                .note("the summarize text is the turn's final text; no third call"),
            ]),
            c(
                "once",
                2,
                "Read-only summarize sees the mode and only read capabilities",
            )
            .requirements(&[
                "RCIP-PROTO-ASSIST-04",
                "CL-C04-1",
                "CL-C01-1",
                "CL-C05-1",
                "RCIP-PROTO-ASSIST-11",
            ])
            .setup(Setup::allow().to_json())
            .steps(bind_all())
            .steps(ran_two("read-only"))
            .step(expect_turn(
                "t1",
                state(
                    json!("pending"),
                    vec![
                        decide("read-only", &READS, ask("look around")),
                        summarize("read-only", &READS, two_ok()),
                    ],
                ),
            )),
            c(
                "actions-ignored",
                1,
                "Actions answered by summarize are never executed",
            )
            .requirements(&["RCIP-PROTO-ASSIST-05", "CL-C04-2", "PRJ-ASSIST-TURN-01"])
            .setup(Setup::allow().to_json())
            .steps(bind_all())
            .steps(ran_two("default"))
            .steps([
                answer_actions(
                    2,
                    vec![
                        act_with("notes.create", json!({ "text": "more" })),
                        act("notes.delete"),
                    ],
                ),
                expect_policy_order(&["notes.list", "notes.search"]),
                expect_handler_order(&["notes.list", "notes.search"]),
                expect_turn(
                    "t1",
                    state(
                        result(crate::pattern::any(), two_ok()),
                        vec![decide_any(), summarize_any()],
                    ),
                )
                .note("the turn ends with the batch's outcomes; no further callback call"),
                advance(20000),
                expect_handler_order(&["notes.list", "notes.search"]),
            ]),
            c(
                "actions-ignored",
                2,
                "Read actions answered by summarize are not executed either",
            )
            .requirements(&["RCIP-PROTO-ASSIST-05", "CL-C04-2"])
            .setup(Setup::allow().to_json())
            .steps(bind_all())
            .steps([
                turn("t1", "read-only", ask("look")),
                answer_actions(1, vec![act("notes.list")]),
                answer_actions(2, vec![act("notes.search"), act("notes.list")]),
                expect_policy_order(&["notes.list"]),
                expect_handler_order(&["notes.list"]),
                expect_turn(
                    "t1",
                    state(
                        result(crate::pattern::any(), vec![ok("notes.list")]),
                        vec![decide_any(), summarize_any()],
                    ),
                ),
            ]),
            c(
                "not-retried",
                1,
                "A summarize call that throws is not retried and runs nothing",
            )
            .requirements(&["CL-C04-1", "CL-C04-2"])
            .setup(Setup::allow().to_json())
            .steps(bind_all())
            .steps(ran_two("default"))
            .steps([
                answer_throw(2),
                expect_handler_order(&["notes.list", "notes.search"]),
                expect_turn(
                    "t1",
                    state(ended(two_ok()), vec![decide_any(), summarize_any()]),
                ),
            ]),
            c(
                "not-retried",
                2,
                "A malformed summarize answer is not retried",
            )
            .requirements(&["CL-C04-1"])
            .setup(Setup::allow().to_json())
            .steps(bind_all())
            .steps(ran_two("default"))
            .steps([
                answer_malformed(2),
                expect_turn(
                    "t1",
                    state(ended(two_ok()), vec![decide_any(), summarize_any()]),
                ),
            ]),
            // The same with the turn holding an abort signal that never aborts: waiting for a
            // callback while watching the signal must still hear its rejection (a wait that
            // drops the rejection leaves the turn pending for ever). Found by the StrykerJS run of
            // the JavaScript subject (issue 25 section 3).
            c(
                "not-retried",
                3,
                "A throwing summarize ends a turn that holds an abort signal too",
            )
            .requirements(&["CL-C04-1", "CL-C04-2", "PRJ-ASSIST-TURN-01"])
            .setup(Setup::allow().to_json())
            .steps(bind_all())
            .steps([
                turn_signal("t1", "default", ask("look around"), "s1"),
                answer_actions(1, vec![act("notes.list"), act("notes.search")]),
                expect_handler_order(&["notes.list", "notes.search"]),
                answer_throw(2),
                expect_turn(
                    "t1",
                    state(ended(two_ok()), vec![decide_any(), summarize_any()]),
                ),
            ]),
            c(
                "after-failure",
                1,
                "A batch that stopped on a failure is still summarized once",
            )
            .requirements(&["CL-C04-1", "RCIP-PROTO-ASSIST-04", "CL-C02-2"])
            .setup(Setup::allow().to_json())
            .steps(bind_all_but(&[("notes.list", throws())]))
            .steps([
                turn("t1", "default", ask("go")),
                answer_actions(1, vec![act("notes.list"), act("notes.search")]),
                expect_turn(
                    "t1",
                    state(
                        json!("pending"),
                        vec![
                            decide_any(),
                            summarize(
                                "default",
                                &ALL,
                                vec![failed("notes.list", "EXECUTION_FAILED")],
                            ),
                        ],
                    ),
                ),
            ]),
            c(
                "first-rejected",
                1,
                "Summarize may or may not follow a batch whose first was rejected",
            )
            .requirements(&["CL-C04-3", "CL-C05-2"])
            .strictness(Strictness::ImplDefined)
            .setup(Setup::allow().to_json())
            .steps(bind_all())
            .steps([
                turn("t1", "read-only", ask("write")),
                answer_actions(
                    1,
                    vec![
                        act_with("notes.create", json!({ "text": "a" })),
                        act("notes.list"),
                    ],
                ),
                expect_handler_order(&[]).strict(Strictness::Required),
                expect_turn(
                    "t1",
                    nothing_ran(decide_any(), vec![non_success("notes.create")]),
                ),
            ]),
            c(
                "turns",
                1,
                "A second turn gets its own decide call and summarize",
            )
            .requirements(&["CL-C04-1", "CL-C01-1"])
            .setup(Setup::allow().to_json())
            .steps(bind_all())
            .steps([
                turn("t1", "default", ask("hello")),
                answer_text(1, "Hi."),
                turn("t2", "default", ask("list")),
                expect_turn(
                    "t2",
                    state(
                        json!("pending"),
                        vec![decide("default", &ALL, crate::pattern::any())],
                    ),
                )
                .note("call 2 is the second turn's decide; the first turn made one call"),
                answer_actions(2, vec![act("notes.list")]),
                expect_turn(
                    "t2",
                    state(
                        json!("pending"),
                        vec![decide_any(), summarize_outcomes(vec![ok("notes.list")])],
                    ),
                ),
                answer_text(3, "One list."),
                expect_turn(
                    "t2",
                    state(
                        result(json!("One list."), vec![ok("notes.list")]),
                        vec![decide_any(), summarize_any()],
                    ),
                ),
                expect_turn(
                    "t1",
                    state(result(json!("Hi."), vec![]), vec![decide_any()]),
                ),
            ]),
        ],
    )
}
