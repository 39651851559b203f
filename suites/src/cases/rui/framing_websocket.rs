//! Section `rui.framing-websocket`: one record per WebSocket message, given to the runtime as
//! whole messages (RUI-FRAME-04, CL-D07-3; PRJ-RUI-FRAME-10). A message cannot be cut, so the
//! invalid-frame kinds are invalid UTF-8, syntax errors, an empty message and two records in one
//! message; an interrupted stream ends between messages.

use serde_json::json;

use super::support::framing::{
    commits_base_then_t1, commits_sample, interrupted_in_open, invalid_begin_frame,
    not_json_discards_open, not_json_frame, not_json_then_begin, open_t1,
};
use super::support::observe::{at, committed, logs, outside, rejected, State};
use super::support::stream::{text, Framing, Script};
use super::support::tuples::{begin, commit, node, Tx};
use super::support::{case, code, sample_state, sample_tx};
use crate::case::{Case, Section};

const SECTION: &str = "framing-websocket";
const F: Framing = Framing::WebSocket;

pub fn section() -> Section {
    Section::new(
        "rui.framing-websocket",
        "WebSocket framing: one record per message",
        "suites::cases::rui::framing_websocket",
    )
    .cases(vec![
        well_formed(),
        two_transactions(),
        surrounding_whitespace(),
        empty_message(),
        invalid_utf8(),
        syntax_error(),
        two_records_one_message(),
        trailing_bytes(),
        invalid_message_discards_open(),
        interrupted(),
        resume_at_next_message(),
    ])
}

fn well_formed() -> Case {
    case(
        SECTION,
        "well-formed-stream",
        1,
        F,
        "each message carries one record; the transaction commits",
        &["RUI-FRAME-04", "CL-D07-3", "RUI-FRAME-01", "RUI-STATUS-02"],
    )
    .steps(commits_sample(F, |s| {
        s.records(&sample_tx());
    }))
}

fn two_transactions() -> Case {
    case(
        SECTION,
        "two-transactions",
        1,
        F,
        "two transactions over consecutive messages both commit",
        &["RUI-FRAME-04", "CL-D07-3"],
    )
    .steps(commits_base_then_t1(F, false))
}

fn surrounding_whitespace() -> Case {
    case(
        SECTION,
        "whitespace-around-record",
        1,
        F,
        "JSON whitespace around the record in a message is insignificant",
        &["PRJ-RUI-FRAME-10", "CL-D07-3"],
    )
    .steps(commits_sample(F, |s| {
        for (i, record) in sample_tx().iter().enumerate() {
            let padded = if i % 2 == 0 {
                format!("{}\n", text(record))
            } else {
                format!(" \t{}\r\n", text(record))
            };
            s.payload(padded.as_bytes());
        }
    }))
}

fn empty_message() -> Case {
    case(
        SECTION,
        "empty-message",
        1,
        F,
        "an empty message is an invalid frame and discards the transaction",
        &[
            "PRJ-RUI-FRAME-10",
            "PRJ-RUI-FRAME-01",
            "PRJ-RUI-TX-04",
            "CL-D05-3",
        ],
    )
    .steps(not_json_discards_open(
        F,
        &open_t1(),
        |s| s.payload(b""),
        &[commit(2, 2, "r")],
    ))
}

fn invalid_utf8() -> Case {
    case(
        SECTION,
        "invalid-utf8-message",
        1,
        F,
        "a message with an overlong UTF-8 sequence is quarantined",
        &["PRJ-RUI-FRAME-01", "RUI-RECOV-01", "CL-D05-1", "CL-D07-3"],
    )
    .steps(invalid_begin_frame(F, b"[\"begin\",0,\"t\xc0\xaf\",0]"))
}

fn syntax_error() -> Case {
    case(
        SECTION,
        "syntax-error-message",
        1,
        F,
        "a message with a trailing comma is not JSON; the next begin commits",
        &["PRJ-RUI-FRAME-01", "CL-D05-1", "CL-D05-2", "CL-D07-3"],
    )
    .steps(not_json_then_begin(F, b"[\"begin\",0,\"t1\",0,]", &[]))
}

fn two_records_one_message() -> Case {
    let both = format!(
        "{}\n{}",
        text(&begin("t1", 0)),
        text(&node(1, "r", "Stack", json!({}), &[]))
    );
    case(
        SECTION,
        "two-records-one-message",
        1,
        F,
        "two records in one message are one invalid frame",
        &[
            "RUI-FRAME-04",
            "CL-D07-3",
            "RUI-FRAME-01",
            "PRJ-RUI-FRAME-01",
        ],
    )
    .steps(not_json_frame(F, both.as_bytes(), &[commit(2, 1, "r")]))
}

fn invalid_message_discards_open() -> Case {
    let mut s = Script::new(F);
    s.records(&Tx::begin("t1", 0).node("r", "Stack", json!({}), &[]).open());
    let bad = s.payload(b"{\"node\":");
    let rest = s.records(&[commit(2, 1, "r")]);
    s.records(
        &Tx::begin("t2", 0)
            .node("s", "Stack", json!({}), &[])
            .commit(1, "s"),
    );
    s.end();
    s.extend(logs(
        vec![rejected("t1", code::FRAME_INVALID), committed("t2", 1)],
        vec![at(bad, code::FRAME_NOT_JSON)],
        outside(&rest),
    ));
    s.extend(State::single("s", "Stack", json!({})).expect());
    case(
        SECTION,
        "invalid-message-discards-open",
        1,
        F,
        "an invalid message discards the open transaction; begin resyncs",
        &["PRJ-RUI-TX-04", "CL-D05-3", "CL-D09-4", "RUI-RECOV-02"],
    )
    .steps(s.steps())
}

fn interrupted() -> Case {
    case(
        SECTION,
        "interrupted",
        1,
        F,
        "the connection ends inside a transaction: staging discarded",
        &["RUI-RECOV-09", "CL-D05-7", "PRJ-RUI-TX-05", "CL-D07-3"],
    )
    .steps(interrupted_in_open(F))
}

fn resume_at_next_message() -> Case {
    let mut s = Script::new(F);
    let bad = s.payload(b"xx[\"begin\",0,\"t9\",0]");
    let rest = s.records(&[node(1, "r", "Stack", json!({}), &[]), commit(2, 1, "r")]);
    s.records(&sample_tx());
    s.end();
    s.extend(sample_state().expect());
    s.extend(logs(
        vec![committed("t1", 1)],
        vec![at(bad, code::FRAME_NOT_JSON)],
        outside(&rest),
    ));
    case(
        SECTION,
        "resume-at-next-message",
        1,
        F,
        "after an invalid message parsing resumes at the next message",
        &[
            "RUI-RECOV-02",
            "CL-D05-2",
            "RUI-FRAME-02",
            "PRJ-RUI-FRAME-01",
        ],
    )
    .steps(s.steps())
}

fn trailing_bytes() -> Case {
    case(
        SECTION,
        "trailing-bytes-after-value",
        1,
        F,
        "bytes after the JSON value in a message make the frame invalid",
        &["PRJ-RUI-FRAME-01", "RUI-FRAME-01", "CL-D07-3"],
    )
    .steps(invalid_begin_frame(F, b"[\"begin\",0,\"t1\",0]]"))
}
