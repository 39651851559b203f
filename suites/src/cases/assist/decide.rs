//! Section `rcip.assist.decide`: what the decision callback receives (RCIP-PROTO-ASSIST-02,
//! CL-C01-1: snapshot filtered by mode, messages, mode, phase, completed outcomes;
//! PRJ-ASSIST-SNAP-01, PRJ-ASSIST-MSG-01) and what it may answer in the decide phase
//! (RCIP-PROTO-ASSIST-03, CL-C01-2: text or one batch; CL-C01-4: a malformed answer runs nothing;
//! PRJ-ASSIST-BATCH-01/02 for malformed items). A text answer ends the turn without a summarize
//! call (RCIP-PROTO-ASSIST-04: summarize follows only if actions ran).

use serde_json::json;

use super::support::*;
use crate::case::{Case, Section, Strictness};

const S: &str = "decide";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

/// Nothing ran: no policy call and no handler call at all.
fn nothing_invoked() -> [serde_json::Value; 2] {
    [expect_policy_order(&[]), expect_handler_order(&[])]
}

pub fn section() -> Section {
    let setup = || Setup::allow().to_json();
    let messages = || ask("tidy my notes");
    let two_turn_messages = json!([
        { "role": "user", "content": "what did I write?" },
        { "role": "assistant", "content": "three notes" },
        { "role": "user", "content": "list them" }
    ]);
    let malformed =
        |n: u32, slug: &str, description: &str, batch: Vec<serde_json::Value>, reqs: &[&str]| {
            c(slug, n, description)
                .requirements(reqs)
                .setup(setup())
                .steps(bind_all())
                .steps([turn("t1", "default", messages()), answer_actions(1, batch)])
                .steps(nothing_invoked())
                .step(expect_turn("t1", nothing_ran(decide_any(), vec![])))
        };
    make_section(S, "Assist decide phase: what the callback sees and answers", "decide", vec![
        c("view", 1, "Default-mode decide sees every capability, the messages, no outcome")
            .requirements(&["RCIP-PROTO-ASSIST-02", "CL-C01-1", "PRJ-ASSIST-SNAP-01", "PRJ-ASSIST-MSG-01"])
            .setup(setup())
            .steps(bind_all())
            .steps([
                turn("t1", "default", messages()),
                expect_turn("t1", state(json!("pending"), vec![decide("default", &ALL, messages())])),
            ]),
        c("view", 2, "Read-only decide sees only the read capabilities")
            .requirements(&["RCIP-PROTO-ASSIST-11", "CL-C05-1", "CL-C01-1", "PRJ-ASSIST-MSG-01"])
            .setup(setup())
            .steps(bind_all())
            .steps([
                turn("t1", "read-only", messages()),
                expect_turn("t1", state(json!("pending"), vec![decide("read-only", &READS, messages())])),
            ]),
        c("view", 3, "Decide receives every in-memory message, in order")
            .requirements(&["RCIP-PROTO-ASSIST-02", "CL-C01-1", "PRJ-ASSIST-MSG-01"])
            .setup(setup())
            .steps(bind_all())
            .steps([
                turn("t1", "default", two_turn_messages.clone()),
                expect_turn("t1", state(json!("pending"), vec![decide("default", &ALL, two_turn_messages)])),
            ]),
        c("text-only", 1, "A text answer ends the turn with that text, no summarize call")
            .requirements(&["RCIP-PROTO-ASSIST-03", "CL-C01-2", "RCIP-PROTO-ASSIST-04", "PRJ-ASSIST-TURN-01"])
            .setup(setup())
            .steps(bind_all())
            .steps([
                turn("t1", "default", messages()),
                answer_text(1, "Nothing to do."),
                expect_turn("t1", state(result(json!("Nothing to do."), vec![]), vec![decide("default", &ALL, messages())])),
            ])
            .steps(nothing_invoked()),
        c("text-only", 2, "A read-only text answer ends the turn the same way")
            .requirements(&["RCIP-PROTO-ASSIST-03", "CL-C01-2", "RCIP-PROTO-ASSIST-04", "PRJ-ASSIST-TURN-01"])
            .setup(setup())
            .steps(bind_all())
            .steps([
                turn("t1", "read-only", messages()),
                answer_text(1, "Read-only answer."),
                expect_turn("t1", state(result(json!("Read-only answer."), vec![]), vec![decide("read-only", &READS, messages())])),
            ])
            .steps(nothing_invoked()),
        c("text-only", 3, "An empty text answer is still text: no action, no summarize")
            .requirements(&["RCIP-PROTO-ASSIST-03", "CL-C01-2", "PRJ-ASSIST-TURN-01"])
            .setup(setup())
            .steps(bind_all())
            .steps([
                turn("t1", "default", messages()),
                answer_text(1, ""),
                expect_turn("t1", state(result(json!(""), vec![]), vec![decide_any()])),
            ])
            .steps(nothing_invoked()),
        c("malformed", 1, "An answer that is neither text nor a batch runs nothing")
            .requirements(&["CL-C01-4", "RCIP-PROTO-ASSIST-03", "CL-C04-3"])
            .setup(setup())
            .steps(bind_all())
            .steps([turn("t1", "default", messages()), answer_malformed(1)])
            .steps(nothing_invoked())
            .step(expect_turn("t1", nothing_ran(decide_any(), vec![]))),
        malformed(
            2,
            "malformed",
            "A batch holding a non-object item runs none of its actions",
            vec![act("notes.list"), json!({ "malformed": "not-an-object" })],
            &["CL-C01-4", "PRJ-ASSIST-BATCH-01", "CL-C04-3"],
        ),
        malformed(
            3,
            "malformed",
            "A batch holding an action without capability id runs nothing",
            vec![act("notes.list"), act("notes.search"), json!({ "malformed": "no-capability" })],
            &["CL-C01-4", "PRJ-ASSIST-BATCH-01", "CL-C04-3"],
        ),
        malformed(
            4,
            "malformed",
            "A malformed first item stops the later valid actions too",
            vec![json!({ "malformed": "no-capability" }), act("notes.list")],
            &["CL-C01-4", "PRJ-ASSIST-BATCH-01", "CL-C04-3"],
        ),
        malformed(
            5,
            "malformed",
            "An unknown delay symbol makes the whole batch malformed",
            vec![act_delay("notes.list", "forever"), act("notes.search")],
            &["PRJ-ASSIST-BATCH-02", "CL-C03-1"],
        )
        .strictness(Strictness::Recommended),
        c("empty-batch", 1, "An empty batch runs nothing and the turn does not hang")
            .requirements(&["CL-C01-2", "CL-C04-3"])
            .setup(setup())
            .steps(bind_all())
            .steps([turn("t1", "default", messages()), answer_actions(1, vec![])])
            .steps(nothing_invoked())
            .step(expect_turn("t1", nothing_ran(decide_any(), vec![]))),
        c("throws", 1, "A decide callback that throws runs nothing and is not retried")
            .requirements(&["CL-C01-4", "CL-C04-3"])
            .setup(setup())
            .steps(bind_all())
            .steps([turn("t1", "default", messages()), answer_throw(1)])
            .steps(nothing_invoked())
            .step(expect_turn("t1", nothing_ran(decide_any(), vec![])).note(
                "a throw is no answer: like a malformed one it runs nothing, and a second decide call would be a retry",
            )),
    ])
}
