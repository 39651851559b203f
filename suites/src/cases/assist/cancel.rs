//! Section `rcip.assist.cancel`: cancellation of a turn through its abort signal stops the batch,
//! no action starts after it (RCIP-PROTO-ASSIST-08, CL-C06-1), and a delay in progress ends
//! (CL-C06-2), in each phase: while the decide call is pending, during an action (its policy wait
//! or its handler), during a delay, while a confirmation is pending. Whether a summarize call
//! still follows (PRJ-ASSIST-CANCEL-01) and whether the action in progress is aborted too
//! (PRJ-ASSIST-CANCEL-02) are left open; stopping the other waits at once is RECOMMENDED
//! (PRJ-ASSIST-CANCEL-03). Each case also observes the orchestrator's own `invoke` calls
//! (`assist-invocations`): an action starts through `client.invoke` (CL-C02-1), so an orchestrator
//! that still calls it for the next action fails even when the runtime refuses the aborted request.

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};
use crate::pattern::any;

const S: &str = "cancel";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

/// The orchestrator's `invoke` calls for turn `of` are exactly those it made before the abort
/// (`before`, each with the proposed input `{}`): an action starts through `client.invoke`
/// (CL-C02-1), so calling it for the next action is starting that action after the cancellation
/// (CL-C06-1), even when the runtime then refuses the aborted request and no policy or handler
/// call shows it.
fn no_invoke_after_cancel(of: &str, before: &[&str]) -> Value {
    let calls: Vec<(&str, Value)> = before.iter().map(|id| (*id, json!({}))).collect();
    expect_invocations(of, &calls)
        .reqs(&["CL-C06-1", "CL-C02-1"])
        .note("no invoke call after the abort, not even one the runtime would refuse")
}

pub fn section() -> Section {
    make_section(
        S,
        "Assist cancellation in each phase",
        "cancel",
        vec![
            c("decide", 1, "Cancelled during decide: the batch answered later never runs")
                .requirements(&["RCIP-PROTO-ASSIST-08", "CL-C06-1", "CL-C02-1", "PRJ-ASSIST-CANCEL-01"])
                .setup(Setup::allow().to_json())
                .steps(bind_all())
                .steps([
                    turn_signal("t1", "default", ask("go"), "s1"),
                    abort("s1"),
                    expect_turn("t1", cancelled(decide_any(), vec![json!([])]))
                        .strict(Strictness::Recommended)
                        .reqs(&["PRJ-ASSIST-CANCEL-03"])
                        .note("the turn stops waiting for the answer"),
                    answer_actions(1, vec![act("notes.list"), act("notes.search")]),
                    expect_policy_order(&[]),
                    expect_handler_order(&[]),
                    advance(20000),
                    expect_handler_order(&[]),
                    no_invoke_after_cancel("t1", &[]),
                    expect_turn("t1", cancelled(decide_any(), vec![json!([])])),
                ]),
            c("action", 1, "Cancelled during a handler: no later action starts")
                .requirements(&["RCIP-PROTO-ASSIST-08", "CL-C06-1", "CL-C02-1", "PRJ-ASSIST-CANCEL-01", "PRJ-ASSIST-CANCEL-02"])
                .setup(Setup::allow().to_json())
                .steps(bind_all_but(&[("notes.list", gated())]))
                .steps([
                    turn_signal("t1", "default", ask("go"), "s1"),
                    answer_actions(1, vec![act("notes.list"), act("notes.search"), act("notes.create")]),
                    expect_handler_order(&["notes.list"]),
                    abort("s1"),
                    gate_handler(1),
                    expect_policy_order(&["notes.list"]),
                    expect_handler_order(&["notes.list"]),
                    advance(20000),
                    expect_handler_order(&["notes.list"]),
                    no_invoke_after_cancel("t1", &["notes.list"]),
                    expect_turn("t1", cancelled(decide_any(), vec![json!([]), json!([any()])])),
                ]),
            c("action", 2, "Cancelled during an action's policy wait: no later action starts")
                .requirements(&["RCIP-PROTO-ASSIST-08", "CL-C06-1", "CL-C02-1", "PRJ-ASSIST-CANCEL-02"])
                .setup(Setup::gated_policy().to_json())
                .steps(bind_all())
                .steps([
                    turn_signal("t1", "default", ask("go"), "s1"),
                    answer_actions(1, vec![act("notes.list"), act("notes.search")]),
                    expect_policy_order(&["notes.list"]),
                    abort("s1"),
                    gate_policy(1, allow()),
                    expect_policy_order(&["notes.list"]),
                    expect_no_handler_call("notes.search"),
                    advance(20000),
                    expect_no_policy_call("notes.search"),
                    expect_no_handler_call("notes.search"),
                    no_invoke_after_cancel("t1", &["notes.list"]),
                    expect_turn("t1", cancelled(decide_any(), vec![json!([]), json!([any()])]))
                        .reqs(&["PRJ-ASSIST-CANCEL-01", "CL-C06-1", "CL-C04-1"])
                        .note("summarize or not (CANCEL-01); never more than one (CL-C04-1); no later action (CL-C06-1)"),
                ]),
            c("delay", 1, "Cancelled during a delay: the delay ends and nothing follows")
                .requirements(&["RCIP-PROTO-ASSIST-08", "CL-C06-2", "CL-C06-1", "CL-C02-1", "PRJ-ASSIST-CANCEL-01"])
                .setup(Setup::allow().test_delays().to_json())
                .steps(bind_all())
                .steps([
                    turn_signal("t1", "default", ask("go"), "s1"),
                    answer_actions(1, vec![act_delay("notes.list", "long"), act("notes.search")]),
                    advance(LONG / 3),
                    expect_handler_order(&["notes.list"]),
                    abort("s1"),
                    expect_turn("t1", cancelled(decide_any(), vec![json!([ok("notes.list")])]))
                        .note("no clock advance: the turn no longer waits on the delay"),
                    advance(LONG * 10),
                    expect_handler_order(&["notes.list"]),
                    expect_no_policy_call("notes.search"),
                    no_invoke_after_cancel("t1", &["notes.list"]),
                ]),
            c("confirmation", 1, "Cancelled while a confirmation is pending: nothing follows")
                .requirements(&["RCIP-PROTO-ASSIST-08", "CL-C06-1", "CL-C02-1", "PRJ-ASSIST-CANCEL-02"])
                .setup(Setup::default_policy().to_json())
                .steps(bind_all())
                .steps([
                    turn_signal("t1", "default", ask("clean"), "s1"),
                    answer_actions(1, vec![act("notes.delete"), act("notes.list")]),
                    expect_handler_order(&[]),
                    abort("s1"),
                    expect_turn("t1", cancelled(decide_any(), vec![json!([]), json!([any()])]))
                        .strict(Strictness::Recommended)
                        .reqs(&["PRJ-ASSIST-CANCEL-03", "PRJ-ASSIST-CANCEL-01"])
                        .note("the turn stops waiting for the host UI"),
                    resolve("r1", "t1", 1, true)
                        .note("a late approval may run the confirmed action itself (CANCEL-02) but nothing after it"),
                    advance(20000),
                    expect_no_policy_call("notes.list"),
                    expect_no_handler_call("notes.list"),
                    no_invoke_after_cancel("t1", &["notes.delete"]),
                    expect_turn("t1", cancelled(decide_any(), vec![json!([]), json!([any()])]))
                        .reqs(&["PRJ-ASSIST-CANCEL-01", "CL-C06-1", "CL-C04-1"])
                        .note("summarize or not (CANCEL-01); never more than one (CL-C04-1); no later action (CL-C06-1)"),
                ]),
            c("after-end", 1, "Aborting after the turn ended changes nothing")
                .requirements(&["RCIP-PROTO-ASSIST-08", "PRJ-ASSIST-TURN-01"])
                .setup(Setup::allow().to_json())
                .steps(bind_all())
                .steps([
                    turn_signal("t1", "default", ask("go"), "s1"),
                    answer_actions(1, vec![act("notes.list")]),
                    answer_text(2, "Done."),
                    abort("s1"),
                    expect_turn(
                        "t1",
                        state(result(json!("Done."), vec![ok("notes.list")]), vec![decide_any(), summarize_any()]),
                    ),
                ]),
        ],
    )
}
