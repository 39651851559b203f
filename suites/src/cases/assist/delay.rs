//! Section `rcip.assist.delay`: symbolic bounded delays between actions on the virtual clock
//! (RCIP-PROTO-ASSIST-09, CL-C03-1), none after the last action (CL-C03-2), none where the batch
//! asks none (PRJ-ASSIST-DELAY-01). Each timing is observed just before and exactly at its
//! boundary. Configured amounts (100, 200, 300 ms, PRJ-ASSIST-FMT-03) give REQUIRED checks; the
//! defaults 250, 750, 1500 (CL-C03-3) and the clamp to 0..10000 (CL-C03-4) are RECOMMENDED.

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};

const S: &str = "delay";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

/// [list with `delay`, search]: search starts exactly `ms` after list succeeded, not a
/// millisecond earlier (at once when `ms` is 0); then summarize follows at once.
fn one_delay(
    slug: &str,
    serial: u32,
    description: &str,
    setup: Setup,
    delay: &str,
    ms: i64,
    reqs: &[&str],
) -> Case {
    let mut steps: Vec<Value> = vec![
        turn("t1", "default", ask("go")),
        answer_actions(1, vec![act_delay("notes.list", delay), act("notes.search")]),
    ];
    if ms > 0 {
        steps.push(expect_handler_order(&["notes.list"]));
        steps.push(advance(ms - 1));
        steps.push(
            expect_handler_order(&["notes.list"]).note("one millisecond before the delay ends"),
        );
        steps.push(advance(1));
    }
    steps.extend([
        expect_handler_order(&["notes.list", "notes.search"]).note("exactly when the delay ends"),
        expect_turn(
            "t1",
            state(
                json!("pending"),
                vec![
                    decide_any(),
                    summarize_outcomes(vec![ok("notes.list"), ok("notes.search")]),
                ],
            ),
        ),
    ]);
    c(slug, serial, description)
        .requirements(reqs)
        .setup(setup.to_json())
        .steps(bind_all())
        .steps(steps)
}

/// The decision answering call 1: list (short delay), search (long delay), create.
fn short_then_long() -> Value {
    answer_actions(
        1,
        vec![
            act_delay("notes.list", "short"),
            act_delay("notes.search", "long"),
            act_with("notes.create", json!({ "text": "a" })),
        ],
    )
}

pub fn section() -> Section {
    let configured = || Setup::allow().test_delays();
    let required = &["RCIP-PROTO-ASSIST-09", "CL-C03-1"];
    make_section(
        S,
        "Assist symbolic delays on the virtual clock",
        "delay",
        vec![
            one_delay(
                "short",
                1,
                "A short delay waits exactly the configured short amount",
                configured(),
                "short",
                SHORT,
                required,
            ),
            one_delay(
                "medium",
                1,
                "A medium delay waits exactly the configured medium amount",
                configured(),
                "medium",
                MEDIUM,
                required,
            ),
            one_delay(
                "long",
                1,
                "A long delay waits exactly the configured long amount",
                configured(),
                "long",
                LONG,
                required,
            ),
            c("mixed", 1, "Delays add up: each waits after its own action")
                .requirements(required)
                .setup(configured().to_json())
                .steps(bind_all())
                .steps([
                    turn("t1", "default", ask("go")),
                    short_then_long(),
                    expect_handler_order(&["notes.list"]),
                    advance(SHORT - 1),
                    expect_handler_order(&["notes.list"]),
                    advance(1),
                    expect_handler_order(&["notes.list", "notes.search"]),
                    advance(LONG - 1),
                    expect_handler_order(&["notes.list", "notes.search"]),
                    advance(1),
                    expect_handler_order(&["notes.list", "notes.search", "notes.create"]),
                ]),
            // A clock step fires every timer that falls due inside it, in order, those set while
            // it runs included (vectors/README.md "clock"): two delays inside one step both end.
            c("one-step-spans-delays", 1, "One clock step spanning two delays runs all three actions")
                .requirements(required)
                .setup(configured().to_json())
                .steps(bind_all())
                .steps([
                    turn("t1", "default", ask("go")),
                    short_then_long(),
                    expect_handler_order(&["notes.list"]),
                    advance(SHORT + LONG - 1),
                    expect_handler_order(&["notes.list", "notes.search"])
                        .note("the short delay ended inside the step; the long one has 1 ms left"),
                    advance(1),
                    expect_handler_order(&["notes.list", "notes.search", "notes.create"]),
                ]),
            c("one-step-spans-delays", 2, "A step shorter than the delay starts nothing")
                .requirements(required)
                .setup(configured().to_json())
                .steps(bind_all())
                .steps([
                    turn("t1", "default", ask("go")),
                    answer_actions(1, vec![act_delay("notes.list", "long"), act("notes.search")]),
                    advance(1),
                    expect_handler_order(&["notes.list"]),
                    advance(LONG - 2),
                    expect_handler_order(&["notes.list"]),
                    advance(SHORT + LONG),
                    expect_handler_order(&["notes.list", "notes.search"]),
                ]),
            c("after-action", 1, "A delay counts from the end of its action, not from its start")
                .requirements(&["RCIP-PROTO-ASSIST-09", "CL-C03-1", "CL-C02-1"])
                .setup(configured().to_json())
                .steps(bind_all_but(&[("notes.list", gated())]))
                .steps([
                    turn("t1", "default", ask("go")),
                    answer_actions(1, vec![act_delay("notes.list", "short"), act("notes.search")]),
                    advance(500),
                    expect_handler_order(&["notes.list"]),
                    gate_handler(1),
                    expect_handler_order(&["notes.list"]).note("the delay starts now, at 500 ms"),
                    advance(SHORT - 1),
                    expect_handler_order(&["notes.list"]),
                    advance(1),
                    expect_handler_order(&["notes.list", "notes.search"]),
                ]),
            c("none-after-last", 1, "A delay on the last action is not waited: summarize at once")
                .requirements(&["CL-C03-2", "RCIP-PROTO-ASSIST-09"])
                .setup(configured().to_json())
                .steps(bind_all())
                .steps([
                    turn("t1", "default", ask("go")),
                    answer_actions(1, vec![act("notes.list"), act_delay("notes.search", "long")]),
                    expect_handler_order(&["notes.list", "notes.search"]),
                    expect_turn(
                        "t1",
                        state(
                            json!("pending"),
                            vec![decide_any(), summarize_outcomes(vec![ok("notes.list"), ok("notes.search")])],
                        ),
                    )
                    .note("no clock advance: nothing waited after the last action"),
                ]),
            c("none-after-last", 2, "A batch of one with a delay summarizes at once")
                .requirements(&["CL-C03-2", "RCIP-PROTO-ASSIST-09"])
                .setup(configured().to_json())
                .steps(bind_all())
                .steps([
                    turn("t1", "default", ask("go")),
                    answer_actions(1, vec![act_delay("notes.list", "medium")]),
                    expect_turn(
                        "t1",
                        state(json!("pending"), vec![decide_any(), summarize_outcomes(vec![ok("notes.list")])]),
                    ),
                    answer_text(2, "Listed."),
                    expect_turn(
                        "t1",
                        state(result(json!("Listed."), vec![ok("notes.list")]), vec![decide_any(), summarize_any()]),
                    )
                    .reqs(&["PRJ-ASSIST-TURN-01"]),
                ]),
            c("after-stop", 1, "A failed action's delay is not waited: the batch stops at once")
                .requirements(&["CL-C03-2", "CL-C02-2"])
                .setup(configured().to_json())
                .steps(bind_all_but(&[("notes.create", throws())]))
                .steps([
                    turn("t1", "default", ask("go")),
                    answer_actions(
                        1,
                        vec![
                            json!({ "capabilityId": "notes.create", "input": { "text": "a" }, "delay": "long" }),
                            act("notes.list"),
                        ],
                    ),
                    expect_turn(
                        "t1",
                        state(
                            json!("pending"),
                            vec![decide_any(), summarize_outcomes(vec![failed("notes.create", "EXECUTION_FAILED")])],
                        ),
                    ),
                    advance(LONG * 10),
                    expect_handler_order(&["notes.create"]),
                ]),
            c("no-delay", 1, "Actions without delays run back to back with no time passing")
                .requirements(&["PRJ-ASSIST-DELAY-01", "CL-C02-1"])
                .setup(configured().to_json())
                .steps(bind_all())
                .steps([
                    turn("t1", "default", ask("go")),
                    answer_actions(
                        1,
                        vec![act("notes.list"), act("notes.search"), act_with("notes.create", json!({ "text": "a" }))],
                    ),
                    expect_handler_order(&["notes.list", "notes.search", "notes.create"]),
                ]),
            one_delay("defaults", 1, "Default short delay is 250 ms", Setup::allow(), "short", 250, &["CL-C03-3"])
                .strictness(Strictness::Recommended),
            one_delay("defaults", 2, "Default medium delay is 750 ms", Setup::allow(), "medium", 750, &["CL-C03-3"])
                .strictness(Strictness::Recommended),
            one_delay("defaults", 3, "Default long delay is 1500 ms", Setup::allow(), "long", 1500, &["CL-C03-3"])
                .strictness(Strictness::Recommended),
            one_delay(
                "clamp",
                1,
                "A configured delay over 10000 ms is clamped to 10000",
                Setup::allow().delays(SHORT, MEDIUM, 20000),
                "long",
                10000,
                &["CL-C03-4"],
            )
            .strictness(Strictness::Recommended),
            one_delay(
                "clamp",
                2,
                "A negative configured delay is clamped to 0",
                Setup::allow().delays(-50, MEDIUM, LONG),
                "short",
                0,
                &["CL-C03-4"],
            )
            .strictness(Strictness::Recommended),
        ],
    )
}
