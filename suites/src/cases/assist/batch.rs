//! Section `rcip.assist.batch`: one bounded batch run over the same client (RCIP-PROTO-ASSIST-01,
//! -03, -06, -07): the declared bound N (CL-C01-2; over it nothing runs, CL-C01-4; RECOMMENDED
//! N = 8 and the clamp 1..32, CL-C01-3), actions one at a time in order through `client.invoke`
//! (CL-C02-1), and the stop at the first outcome other than `succeeded` (CL-C02-2), followed by the
//! one summarize call (CL-C04-1) and the turn's result (PRJ-ASSIST-TURN-01).

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};

const S: &str = "batch";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

/// A batch of `n` reads that must all run, in order, then be summarized.
fn all_run(
    slug: &str,
    serial: u32,
    description: &str,
    setup: Setup,
    n: usize,
    reqs: &[&str],
) -> Case {
    let ids = read_ids(n);
    let inputs: Vec<(&str, Value)> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| (*id, json!({ "n": i })))
        .collect();
    let outcomes: Vec<Value> = ids.iter().map(|id| ok(id)).collect();
    c(slug, serial, description)
        .requirements(reqs)
        .setup(setup.to_json())
        .steps(bind_all())
        .steps([
            turn("t1", "default", ask("go")),
            answer_actions(1, reads(n)),
            expect_handler_calls(&inputs),
            expect_invocations("t1", &inputs)
                .reqs(&["CL-C02-1"])
                .note("each action, in order, through client.invoke with its proposed input"),
            expect_turn(
                "t1",
                state(
                    json!("pending"),
                    vec![decide_any(), summarize_outcomes(outcomes)],
                ),
            ),
        ])
}

/// A batch of `n` reads over the bound: nothing runs.
fn none_run(
    slug: &str,
    serial: u32,
    description: &str,
    setup: Setup,
    n: usize,
    reqs: &[&str],
) -> Case {
    c(slug, serial, description)
        .requirements(reqs)
        .setup(setup.to_json())
        .steps(bind_all())
        .steps([
            turn("t1", "default", ask("go")),
            answer_actions(1, reads(n)),
            expect_policy_order(&[]),
            expect_handler_order(&[]),
            expect_turn("t1", nothing_ran(decide_any(), vec![])),
        ])
}

pub fn section() -> Section {
    let text_a = || json!({ "text": "a" });
    make_section(S, "Assist batches: bound, order, stop at the first non-success", "batch", vec![
        c("one", 1, "A batch of one runs through invoke on the same runtime, then summarize")
            .requirements(&[
                "RCIP-PROTO-ASSIST-01", "RCIP-PROTO-ASSIST-06", "CL-C02-1", "CL-C01-2", "RCIP-PROTO-ASSIST-04",
                "CL-C04-1", "RCIP-PROTO-ASSIST-02", "CL-C01-1", "PRJ-ASSIST-TURN-01",
            ])
            .setup(Setup::allow().to_json())
            .steps(bind_all())
            .steps([
                json!({ "client": "get-snapshot", "as": "s0" }),
                turn("t1", "default", ask("add a note")),
                answer_actions(1, vec![act_with("notes.create", text_a())]),
                expect_policy_calls(&[("notes.create", text_a(), false)])
                    .note("the action is an ordinary invocation: host policy sees it"),
                expect_handler_calls(&[("notes.create", text_a())]),
                json!({ "client": "get-snapshot", "as": "s1" }),
                json!({ "expect": "snapshot-relation", "a": "s0", "b": "s1", "is": { "identical": false, "revision": "greater" } })
                    .reqs(&["RCIP-PROTO-ASSIST-01", "CL-B15-4"])
                    .note("the success refreshed the runtime's own snapshot: same client and host"),
                expect_turn("t1", state(json!("pending"), vec![
                    decide("default", &ALL, ask("add a note")),
                    summarize("default", &ALL, vec![ok("notes.create")]),
                ])),
                answer_text(2, "Created one note."),
                expect_turn("t1", state(result(json!("Created one note."), vec![ok("notes.create")]), vec![
                    decide_any(),
                    summarize_any(),
                ])),
            ]),
        all_run("at-bound", 1, "A batch of exactly the declared bound runs every action",
            Setup::allow().bound(3), 3, &["CL-C01-2", "RCIP-PROTO-ASSIST-03", "CL-C02-1"]),
        all_run("at-bound", 2, "With a bound of 1 a batch of one runs",
            Setup::allow().bound(1), 1, &["CL-C01-2", "RCIP-PROTO-ASSIST-03"]),
        none_run("over-bound", 1, "A batch one over the declared bound runs nothing",
            Setup::allow().bound(3), 4, &["CL-C01-4", "CL-C01-2", "RCIP-PROTO-ASSIST-03", "CL-C04-3"]),
        none_run("over-bound", 2, "With a bound of 1 a batch of two runs nothing",
            Setup::allow().bound(1), 2, &["CL-C01-4", "CL-C01-2", "RCIP-PROTO-ASSIST-03", "CL-C04-3"]),
        all_run("default-bound", 1, "Without a configured bound a batch of 8 runs",
            Setup::allow(), 8, &["CL-C01-3"])
            .strictness(Strictness::Recommended),
        none_run("default-bound", 2, "Without a configured bound a batch of 9 runs nothing",
            Setup::allow(), 9, &["CL-C01-3"])
            .strictness(Strictness::Recommended),
        all_run("clamp", 1, "A bound of 0 is clamped to 1: a batch of one runs",
            Setup::allow().bound(0), 1, &["CL-C01-3"])
            .strictness(Strictness::Recommended),
        none_run("clamp", 2, "A bound of 0 is clamped to 1: a batch of two runs nothing",
            Setup::allow().bound(0), 2, &["CL-C01-3"])
            .strictness(Strictness::Recommended),
        all_run("clamp", 3, "A bound of 40 is clamped to 32: a batch of 32 runs",
            Setup::allow().bound(40), 32, &["CL-C01-3"])
            .strictness(Strictness::Recommended),
        none_run("clamp", 4, "A bound of 40 is clamped to 32: a batch of 33 runs nothing",
            Setup::allow().bound(40), 33, &["CL-C01-3"])
            .strictness(Strictness::Recommended),
        c("sequential", 1, "The next action starts only after the running handler settles")
            .requirements(&["CL-C02-1", "RCIP-PROTO-ASSIST-06", "PRJ-ASSIST-DELAY-01"])
            .setup(Setup::allow().to_json())
            .steps(bind_all_but(&[("notes.list", gated()), ("notes.search", gated())]))
            .steps([
                turn("t1", "default", ask("go")),
                answer_actions(1, vec![act("notes.list"), act("notes.search")]),
                expect_policy_order(&["notes.list"]),
                expect_handler_order(&["notes.list"]),
                gate_handler(1),
                expect_policy_order(&["notes.list", "notes.search"]),
                expect_handler_order(&["notes.list", "notes.search"]),
                expect_turn("t1", state(json!("pending"), vec![decide_any()]))
                    .note("the second action is still running: no summarize yet"),
                gate_handler(2),
                expect_turn("t1", state(json!("pending"), vec![
                    decide_any(),
                    summarize_outcomes(vec![ok("notes.list"), ok("notes.search")]),
                ])),
            ]),
        c("sequential", 2, "The next action's policy is asked only after the first settles")
            .requirements(&["CL-C02-1", "RCIP-PROTO-ASSIST-06"])
            .setup(Setup::gated_policy().to_json())
            .steps(bind_all())
            .steps([
                turn("t1", "default", ask("go")),
                answer_actions(1, vec![act("notes.list"), act("notes.search"), act_with("notes.create", text_a())]),
                expect_policy_order(&["notes.list"]),
                expect_handler_order(&[]),
                gate_policy(1, allow()),
                expect_policy_order(&["notes.list", "notes.search"]),
                expect_handler_order(&["notes.list"]),
                gate_policy(2, allow()),
                expect_policy_order(&["notes.list", "notes.search", "notes.create"]),
                gate_policy(3, allow()),
                expect_handler_order(&["notes.list", "notes.search", "notes.create"]),
                expect_turn("t1", state(json!("pending"), vec![
                    decide_any(),
                    summarize_outcomes(vec![ok("notes.list"), ok("notes.search"), ok("notes.create")]),
                ])),
            ]),
        c("sequential", 3, "Two actions of one capability run in batch order with their inputs")
            .requirements(&["CL-C02-1", "RCIP-PROTO-ASSIST-06"])
            .setup(Setup::allow().to_json())
            .steps(bind_all())
            .steps([
                turn("t1", "default", ask("go")),
                answer_actions(1, vec![
                    act_with("notes.create", json!({ "text": "first" })),
                    act_with("notes.create", json!({ "text": "second" })),
                ]),
                expect_handler_calls(&[
                    ("notes.create", json!({ "text": "first" })),
                    ("notes.create", json!({ "text": "second" })),
                ]),
            ]),
        c("stop", 1, "A failing first action stops the batch: the rest never start")
            .requirements(&["CL-C02-2", "RCIP-PROTO-ASSIST-07", "CL-C04-1", "PRJ-ASSIST-TURN-01"])
            .setup(Setup::allow().to_json())
            .steps(bind_all_but(&[("notes.create", throws())]))
            .steps([
                turn("t1", "default", ask("go")),
                answer_actions(1, vec![act_with("notes.create", text_a()), act("notes.list"), act("notes.search")]),
                expect_policy_order(&["notes.create"]),
                expect_handler_order(&["notes.create"]),
                expect_turn("t1", state(json!("pending"), vec![
                    decide_any(),
                    summarize_outcomes(vec![failed("notes.create", "EXECUTION_FAILED")]),
                ])),
                answer_text(2, "It failed."),
                expect_turn("t1", state(result(json!("It failed."), vec![failed("notes.create", "EXECUTION_FAILED")]), vec![
                    decide_any(),
                    summarize_any(),
                ])),
                expect_handler_order(&["notes.create"]),
            ]),
        c("stop", 2, "A failing middle action stops the batch after it")
            .requirements(&["CL-C02-2", "RCIP-PROTO-ASSIST-07", "CL-C04-1"])
            .setup(Setup::allow().to_json())
            .steps(bind_all_but(&[("notes.create", throws())]))
            .steps([
                turn("t1", "default", ask("go")),
                answer_actions(1, vec![act("notes.list"), act_with("notes.create", text_a()), act("notes.search")]),
                expect_handler_order(&["notes.list", "notes.create"]),
                expect_no_policy_call("notes.search"),
                expect_turn("t1", state(json!("pending"), vec![
                    decide_any(),
                    summarize_outcomes(vec![ok("notes.list"), failed("notes.create", "EXECUTION_FAILED")]),
                ])),
            ]),
        c("stop", 3, "A policy denial stops the batch")
            .requirements(&["CL-C02-2", "RCIP-PROTO-ASSIST-07"])
            .setup(Setup::gated_policy().to_json())
            .steps(bind_all())
            .steps([
                turn("t1", "default", ask("go")),
                answer_actions(1, vec![act("notes.list"), act_with("notes.create", text_a()), act("notes.search")]),
                gate_policy(1, allow()),
                gate_policy(2, deny()),
                expect_policy_order(&["notes.list", "notes.create"]),
                expect_handler_order(&["notes.list"]),
                expect_turn("t1", state(json!("pending"), vec![
                    decide_any(),
                    summarize_outcomes(vec![ok("notes.list"), denied("notes.create", "POLICY_DENIED")]),
                ])),
            ]),
        c("stop", 4, "Invalid input of the first action stops the batch")
            .requirements(&["CL-C02-2", "RCIP-PROTO-ASSIST-07"])
            .setup(Setup::allow().to_json())
            .steps(bind_all())
            .steps([
                turn("t1", "default", ask("go")),
                answer_actions(1, vec![act_with("notes.create", json!({ "text": 5 })), act("notes.list")]),
                expect_policy_order(&[]),
                expect_handler_order(&[]),
                expect_turn("t1", state(json!("pending"), vec![
                    decide_any(),
                    summarize_outcomes(vec![failed("notes.create", "INPUT_INVALID")]),
                ]))
                .note("invoke ran and failed: an action ran, so summarize follows"),
            ]),
        c("stop", 5, "An unavailable capability's failure stops the batch")
            .requirements(&["CL-C02-2", "RCIP-PROTO-ASSIST-07"])
            .setup(Setup::allow().to_json())
            .steps(ALL.iter().filter(|id| **id != "notes.create").map(|id| bind(id, returns())))
            .step(bind_available("notes.create", false))
            .steps([
                turn("t1", "default", ask("go")),
                answer_actions(1, vec![act_with("notes.create", text_a()), act("notes.list")]),
                expect_handler_order(&[]),
                expect_no_policy_call("notes.list"),
                expect_turn("t1", nothing_ran(decide_any(), vec![non_success("notes.create")]))
                    .note("the outcome may come from invoke (CAPABILITY_UNAVAILABLE) or from the orchestrator"),
            ]),
        c("stop", 6, "An undeclared capability in default mode stops the batch")
            .requirements(&["CL-C02-2", "RCIP-PROTO-ASSIST-07"])
            .setup(Setup::allow().to_json())
            .steps(bind_all())
            .steps([
                turn("t1", "default", ask("go")),
                answer_actions(1, vec![act("notes.archive"), act("notes.list")]),
                expect_policy_order(&[]),
                expect_handler_order(&[]),
                expect_turn("t1", nothing_ran(decide_any(), vec![non_success("notes.archive")]))
                    .note("the outcome may come from invoke (CAPABILITY_NOT_FOUND) or from the orchestrator"),
            ]),
    ])
}
