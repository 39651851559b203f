//! Section `rui.framing-jsonl`: one record per JSONL line (RUI-FRAME-06, CL-D07-1): well-formed
//! streams, every invalid-frame kind (invalid UTF-8, syntax error, trailing bytes, two values, a
//! record broken over lines, an unterminated last line), chunk boundaries inside UTF-8
//! characters and around line feeds, blank lines (PRJ-RUI-FRAME-04) and interrupted streams.

use serde_json::json;

use super::support::framing::{
    commits_base_then_t1, commits_sample, commits_sample_cut, commits_sample_then_stray,
    cuts_inside, invalid_begin_frame, not_json_discards_open, not_json_frame, not_json_then_begin,
    record_across_two_frames, t1_rejected_either, truncated_in_open,
};
use super::support::observe::{
    aborted, at, committed, expect, logs, outside, rejected, strict, traced, State,
};
use super::support::stream::{text, Framing, Script};
use super::support::tuples::{begin, commit, node, Tx};
use super::support::{base_state, base_tx, case, code, sample_tx};
use crate::case::{Case, Section, Strictness};
use crate::pattern::one_of;

const SECTION: &str = "framing-jsonl";
const F: Framing = Framing::Jsonl;

pub fn section() -> Section {
    Section::new(
        "rui.framing-jsonl",
        "JSONL framing: one record per line",
        "suites::cases::rui::framing_jsonl",
    )
    .cases(vec![
        well_formed(),
        two_transactions(),
        crlf_line_ends(),
        crlf_split_between_cr_and_lf(),
        split_inside_utf8(2, "\u{e9}"),
        split_inside_utf8(3, "\u{65e5}"),
        split_inside_utf8(4, "\u{1f600}"),
        one_byte_chunks(),
        split_around_line_feeds(),
        split_across_feed_steps(),
        record_across_two_lines(),
        invalid_utf8_outside(),
        invalid_utf8_inside(),
        encoded_surrogate(),
        syntax_error(),
        trailing_bytes(),
        two_values_one_line(),
        blank_line_ignored(),
        whitespace_line_ignored(),
        unterminated_last_line(),
        unterminated_begin_opens_nothing(),
        interrupted_between_lines(),
        interrupted_mid_line(),
        garbage_prefix_not_recovered(),
        abort_then_commit_lines(),
    ])
}

/// Each record of the sample transaction on a line ending in CRLF.
fn crlf_records(script: &mut Script) {
    for record in sample_tx() {
        script.raw_frame(format!("{}\r\n", text(&record)).as_bytes());
    }
}

fn well_formed() -> Case {
    case(
        SECTION,
        "well-formed-stream",
        1,
        F,
        "each LF-terminated line carries one record; the transaction commits",
        &["RUI-FRAME-06", "CL-D07-1", "RUI-FRAME-01", "RUI-STATUS-02"],
    )
    .steps(commits_sample(F, |s| {
        s.records(&sample_tx());
    }))
}

fn two_transactions() -> Case {
    case(
        SECTION,
        "two-transactions-one-chunk",
        1,
        F,
        "two transactions delivered in one chunk both commit",
        &["RUI-FRAME-06", "CL-D07-1"],
    )
    .steps(commits_base_then_t1(F, true))
}

fn crlf_line_ends() -> Case {
    case(
        SECTION,
        "crlf-line-ends",
        1,
        F,
        "a CR before the LF is insignificant whitespace of the JSON text",
        &["PRJ-RUI-FRAME-03", "CL-D07-1"],
    )
    .steps(commits_sample(F, crlf_records))
}

fn split_inside_utf8(width: usize, character: &str) -> Case {
    let slug = format!("split-inside-{width}-byte-character");
    let description = format!("chunks cut inside a {width}-byte UTF-8 character decode as one");
    case(
        SECTION,
        &slug,
        1,
        F,
        &description,
        &["CL-D07-1", "RUI-FRAME-02", "CL-D07-5"],
    )
    .steps(commits_sample_cut(F, |s| {
        cuts_inside(s, &[(character, width)])
    }))
}

fn one_byte_chunks() -> Case {
    case(
        SECTION,
        "one-byte-chunks",
        1,
        F,
        "a stream delivered one byte per chunk gives the same commit",
        &["CL-D07-1", "RUI-FRAME-02"],
    )
    .steps(commits_sample(F, |s| {
        s.records(&sample_tx());
        s.feed_bytewise();
    }))
}

fn split_around_line_feeds() -> Case {
    case(
        SECTION,
        "split-around-line-feeds",
        1,
        F,
        "chunks ending just before and just after each LF",
        &["CL-D07-1", "RUI-FRAME-02"],
    )
    .steps(commits_sample_cut(F, |s| {
        let len = s.pending_len();
        let mut cuts = Vec::new();
        for lf in s.offsets_of(b'\n') {
            cuts.push(lf);
            if lf + 1 < len {
                cuts.push(lf + 1);
            }
        }
        cuts
    }))
}

fn split_across_feed_steps() -> Case {
    case(
        SECTION,
        "split-across-feed-steps",
        1,
        F,
        "a line split over two feeds applies only once complete",
        &["CL-D07-1", "RUI-FRAME-02", "CL-D07-5"],
    )
    .steps(commits_sample(F, |s| {
        s.records(&sample_tx());
        let middle = s.find(b"\"Button\"") + 3;
        s.feed_prefix(middle);
        s.interject(expect("transactions", json!([])));
        s.interject(expect("graph", State::empty().graph));
    }))
}

fn record_across_two_lines() -> Case {
    case(
        SECTION,
        "record-across-two-lines",
        1,
        F,
        "a record broken over two lines is two invalid frames",
        &[
            "RUI-FRAME-06",
            "CL-D07-1",
            "RUI-FRAME-01",
            "PRJ-RUI-FRAME-01",
            "CL-D05-1",
        ],
    )
    .steps(record_across_two_frames(F))
}

fn invalid_utf8_outside() -> Case {
    case(
        SECTION,
        "invalid-utf8-outside-transaction",
        1,
        F,
        "a line of invalid UTF-8 is quarantined; the next begin commits",
        &[
            "PRJ-RUI-FRAME-01",
            "RUI-RECOV-01",
            "CL-D05-1",
            "CL-D05-2",
            "CL-D07-1",
        ],
    )
    .steps(not_json_then_begin(
        F,
        b"[\"begin\",0,\"t\xff\",0]",
        &[node(1, "r", "Stack", json!({}), &[]), commit(2, 1, "r")],
    ))
}

fn invalid_utf8_inside() -> Case {
    case(
        SECTION,
        "invalid-utf8-inside-transaction",
        1,
        F,
        "an invalid UTF-8 line discards the open transaction",
        &[
            "PRJ-RUI-FRAME-01",
            "PRJ-RUI-TX-04",
            "CL-D05-3",
            "CL-D09-4",
            "RUI-RECOV-06",
        ],
    )
    .steps(not_json_discards_open(
        F,
        &Tx::begin("t1", 1)
            .node("r", "Stack", json!({}), &["a"])
            .open(),
        |s| s.payload(b"[\"node\",2,\"a\",\"Text\",{\"text\":\"\xc3\x28\"},[]]"),
        &[commit(3, 2, "r")],
    ))
}

fn encoded_surrogate() -> Case {
    case(
        SECTION,
        "utf8-encoded-surrogate",
        1,
        F,
        "a UTF-8 encoded surrogate is invalid UTF-8: the line is quarantined",
        &["PRJ-RUI-FRAME-01", "CL-D05-1", "CL-D07-1"],
    )
    .steps(not_json_frame(
        F,
        b"[\"begin\",0,\"\xed\xa0\x80\",0]",
        &[commit(1, 1, "r")],
    ))
}

fn syntax_error() -> Case {
    case(
        SECTION,
        "syntax-error",
        1,
        F,
        "a terminated line with a JSON syntax error is not JSON, not truncated",
        &["PRJ-RUI-FRAME-01", "CL-D05-1", "CL-D05-2", "CL-D07-1"],
    )
    .steps(not_json_then_begin(F, b"[\"begin\",0,\"t1\",0", &[]))
}

fn trailing_bytes() -> Case {
    case(
        SECTION,
        "trailing-bytes-after-value",
        1,
        F,
        "bytes after the JSON value make the line invalid",
        &["PRJ-RUI-FRAME-01", "RUI-FRAME-01", "CL-D07-1"],
    )
    .steps(invalid_begin_frame(F, b"[\"begin\",0,\"t1\",0] x"))
}

fn two_values_one_line() -> Case {
    let both = format!(
        "{}{}",
        text(&begin("t1", 0)),
        text(&node(1, "r", "Stack", json!({}), &[]))
    );
    case(
        SECTION,
        "two-values-one-line",
        1,
        F,
        "a line holding two JSON values is one invalid frame",
        &[
            "PRJ-RUI-FRAME-01",
            "RUI-FRAME-01",
            "RUI-FRAME-06",
            "CL-D07-1",
        ],
    )
    .steps(not_json_frame(F, both.as_bytes(), &[commit(2, 1, "r")]))
}

/// A blank line between records: not a frame (PRJ-RUI-FRAME-04). A stray commit afterwards shows
/// the frame numbering skipped the blank line.
fn blank_line_case(slug: &str, description: &str, blank: &[u8]) -> Case {
    case(
        SECTION,
        slug,
        1,
        F,
        description,
        &["PRJ-RUI-FRAME-04", "PRJ-RUI-FRAME-11", "CL-D07-1"],
    )
    .strictness(Strictness::Recommended)
    .steps(commits_sample_then_stray(F, |s| {
        let records = sample_tx();
        s.records(&records[..2]);
        s.raw(blank);
        s.records(&records[2..]);
    }))
}

fn blank_line_ignored() -> Case {
    blank_line_case(
        "empty-line-ignored",
        "an empty line is not a frame: ignored and not counted",
        b"\n",
    )
}

fn whitespace_line_ignored() -> Case {
    blank_line_case(
        "whitespace-line-ignored",
        "a line of only JSON whitespace is not a frame",
        b" \t\r\n",
    )
}

fn unterminated_last_line() -> Case {
    // Whether t1 fails at all is PRJ-RUI-FRAME-05 (RECOMMENDED: JSON Lines lets the last line
    // end without LF, so a runtime may apply it and commit t1); when it is not applied, the
    // code is PRJ-RUI-FRAME-12's (IMPL-DEFINED). The step is only as strict as the first.
    let rejection = t1_rejected_either(
        Strictness::Recommended,
        &[
            "PRJ-RUI-FRAME-05",
            "PRJ-RUI-FRAME-12",
            "CL-D05-3",
            "CL-D05-7",
        ],
    );
    case(
        SECTION,
        "unterminated-last-line",
        1,
        F,
        "a final line without LF is truncated even if it parses; not applied",
        &["PRJ-RUI-FRAME-05", "RUI-FRAME-02", "CL-D07-5"],
    )
    .strictness(Strictness::Recommended)
    .steps(truncated_in_open(
        F,
        text(&commit(2, 2, "r")).as_bytes(),
        rejection,
        None,
    ))
}

fn unterminated_begin_opens_nothing() -> Case {
    let mut s = Script::new(F);
    let last = s.raw_frame(text(&begin("t1", 0)).as_bytes());
    s.end();
    s.extend(State::empty().expect());
    s.extend(logs(vec![], vec![at(last, code::FRAME_TRUNCATED)], vec![]));
    case(
        SECTION,
        "unterminated-begin-opens-nothing",
        1,
        F,
        "an unterminated begin line at the end opens no transaction",
        &["PRJ-RUI-FRAME-05", "RUI-FRAME-02", "CL-D07-5"],
    )
    .strictness(Strictness::Recommended)
    .steps(s.steps())
}

fn interrupted_between_lines() -> Case {
    let mut s = Script::new(F);
    s.records(&Tx::begin("t1", 0).node("r", "Stack", json!({}), &[]).open());
    s.end();
    s.extend(State::empty().expect());
    s.extend(logs(
        vec![rejected("t1", code::INTERRUPTED)],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "interrupted-between-lines",
        1,
        F,
        "the stream ends after whole lines inside a transaction",
        &["RUI-RECOV-09", "CL-D05-7", "PRJ-RUI-TX-05", "CL-D07-1"],
    )
    .steps(s.steps())
}

fn interrupted_mid_line() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(&Tx::begin("t1", 1).open());
    let full = text(&node(1, "a", "Text", json!({ "text": "bye" }), &[]));
    let cut = s.raw_frame(&full.as_bytes()[..full.len() / 2]);
    s.end();
    s.extend(base_state().expect());
    s.extend(vec![
        t1_rejected_either(
            Strictness::ImplDefined,
            &["PRJ-RUI-FRAME-12", "CL-D05-3", "CL-D05-7"],
        ),
        // A last line without LF is a line to JSON Lines (CL-D07-1), so half a record there is
        // either truncated (PRJ-RUI-FRAME-05) or a line that is not JSON (PRJ-RUI-FRAME-01).
        traced(
            strict(
                expect(
                    "quarantine",
                    json!([{ "frame": cut, "code": one_of([json!(code::FRAME_TRUNCATED), json!(code::FRAME_NOT_JSON)]) }]),
                ),
                Strictness::ImplDefined,
            ),
            &["PRJ-RUI-FRAME-14", "CL-D05-1", "CL-D07-5"],
        ),
        expect("rejections", json!([])),
    ]);
    case(
        SECTION,
        "interrupted-mid-line",
        1,
        F,
        "the stream ends inside a line: an invalid frame, staging discarded",
        &["RUI-RECOV-09", "CL-D05-7", "RUI-FRAME-02"],
    )
    .steps(s.steps())
}

fn garbage_prefix_not_recovered() -> Case {
    let mut s = Script::new(F);
    let bad = s.payload(format!("xx{}", text(&begin("t9", 0))).as_bytes());
    let rest = s.records(&[node(1, "r", "Stack", json!({}), &[]), commit(2, 1, "r")]);
    s.records(
        &Tx::begin("t1", 0)
            .node("s", "Stack", json!({}), &[])
            .commit(1, "s"),
    );
    s.end();
    s.extend(logs(
        vec![committed("t1", 1)],
        vec![at(bad, code::FRAME_NOT_JSON)],
        outside(&rest),
    ));
    s.push(expect("graph", json!({ "revision": 1, "root": "s", "nodes": { "s": { "component": "Stack", "props": {}, "children": [] } } })));
    case(
        SECTION,
        "garbage-prefix-not-recovered",
        1,
        F,
        "a record after garbage on the same line is never recovered",
        &[
            "RUI-RECOV-02",
            "CL-D05-2",
            "RUI-FRAME-02",
            "CL-D07-5",
            "PRJ-RUI-FRAME-01",
        ],
    )
    .steps(s.steps())
}

fn abort_then_commit_lines() -> Case {
    let mut s = Script::new(F);
    s.records(
        &Tx::begin("t1", 0)
            .node("r", "Stack", json!({}), &[])
            .abort("E_USER", "cancelled"),
    );
    s.records(
        &Tx::begin("t2", 0)
            .node("r", "Stack", json!({}), &[])
            .commit(1, "r"),
    );
    s.end();
    s.extend(State::single("r", "Stack", json!({})).expect());
    s.extend(logs(
        vec![aborted("t1"), committed("t2", 1)],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "abort-then-commit-lines",
        1,
        F,
        "an aborted and a committed transaction on consecutive lines",
        &["CL-D07-1", "RUI-ABORT-01", "CL-D01-8"],
    )
    .steps(s.steps())
}

fn crlf_split_between_cr_and_lf() -> Case {
    case(
        SECTION,
        "crlf-split-between-cr-and-lf",
        1,
        F,
        "CRLF line ends cut between CR and LF still end each line once",
        &["PRJ-RUI-FRAME-03", "CL-D07-1", "RUI-FRAME-02"],
    )
    .steps(commits_sample(F, |s| {
        crlf_records(s);
        let cuts: Vec<usize> = s.offsets_of(b'\r').into_iter().map(|cr| cr + 1).collect();
        s.feed_cut(&cuts);
    }))
}
