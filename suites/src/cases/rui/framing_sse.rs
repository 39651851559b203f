//! Section `rui.framing-sse`: one record per SSE `data` event, multi-line data joined with LF
//! (RUI-FRAME-03, CL-D07-2), parsed as the WHATWG event stream (PRJ-RUI-FRAME-06): CRLF, LF and
//! CR line ends, one leading BOM dropped, comments and other fields ignored, events without data yield no frame, an empty
//! data event is an invalid frame, and an event left unterminated by the end of the stream is
//! truncated (PRJ-RUI-FRAME-07). Chunk boundaries fall between `data:` lines, between CR and LF
//! and inside UTF-8 characters.

use serde_json::{json, Value};

use super::support::observe::{
    at, committed, expect, logs, outside, rejected, rejected_any, strict, traced, State,
};
use super::support::stream::{text, Framing, Script};
use super::support::tuples::{begin, commit, node, Tx};
use super::support::{
    base_state, base_tx, case, code, invalid_begin_frame, sample_state, sample_tx,
};
use crate::case::{Case, Section, Strictness};

const SECTION: &str = "framing-sse";
const F: Framing = Framing::Sse;

pub fn section() -> Section {
    Section::new(
        "rui.framing-sse",
        "SSE framing: one record per data event",
        "suites::cases::rui::framing_sse",
    )
    .cases(vec![
        well_formed(),
        multi_line_data(),
        split_between_data_lines(),
        split_at_every_line_feed(),
        split_inside_field_name(),
        line_ends(
            "crlf-line-ends",
            "CRLF line ends delimit fields and events",
            "\r\n",
        ),
        line_ends(
            "cr-line-ends",
            "CR-only line ends delimit fields and events",
            "\r",
        ),
        crlf_split_between_cr_and_lf(),
        bom_at_stream_start(),
        comments_ignored(),
        other_fields_ignored(),
        event_without_data(),
        blank_lines_between_events(),
        no_space_after_colon(),
        empty_data_event(),
        invalid_utf8(),
        syntax_error(),
        two_records_one_event(),
        trailing_bytes(),
        record_across_two_events(),
        split_inside_utf8(),
        one_byte_chunks(),
        unterminated_event_at_end(),
        unterminated_field_at_end(),
        interrupted_between_events(),
    ])
}

fn sample_committed(script: &mut Script) {
    script.extend(sample_state().expect());
    script.extend(logs(vec![committed("t1", 1)], vec![], vec![]));
}

/// The record's compact text with a line break after each of its first `breaks` commas, so the
/// SSE framing carries it as a multi-line event.
fn broken(record: &Value, breaks: usize) -> String {
    text(record).replacen(',', ",\n", breaks)
}

fn well_formed() -> Case {
    let mut s = Script::new(F);
    s.records(&sample_tx());
    s.end();
    sample_committed(&mut s);
    case(
        SECTION,
        "well-formed-stream",
        1,
        F,
        "each data event carries one record; the transaction commits",
        &["RUI-FRAME-03", "CL-D07-2", "RUI-FRAME-01", "RUI-STATUS-02"],
    )
    .steps(s.steps())
}

fn multi_line_data() -> Case {
    let mut s = Script::new(F);
    for record in sample_tx() {
        s.payload(broken(&record, 3).as_bytes());
    }
    s.end();
    sample_committed(&mut s);
    case(
        SECTION,
        "multi-line-data",
        1,
        F,
        "data lines of one event are joined with LF into one record",
        &["CL-D07-2", "RUI-FRAME-03", "PRJ-RUI-FRAME-06"],
    )
    .steps(s.steps())
}

fn split_between_data_lines() -> Case {
    let mut s = Script::new(F);
    for record in sample_tx() {
        s.payload(broken(&record, 2).as_bytes());
    }
    let mut cuts = Vec::new();
    let mut from = 0;
    while let Some(lf) = s.position_from(b"\ndata: ", from) {
        cuts.push(lf + 1);
        from = lf + 1;
    }
    s.feed_cut(&cuts);
    s.end();
    sample_committed(&mut s);
    case(
        SECTION,
        "split-between-data-lines",
        1,
        F,
        "a chunk boundary before every data line of an event",
        &["CL-D07-2", "RUI-FRAME-02", "CL-D07-5"],
    )
    .steps(s.steps())
}

fn line_ends(slug: &str, description: &str, eol: &str) -> Case {
    let mut s = Script::new(F);
    for record in sample_tx() {
        let lines: Vec<String> = broken(&record, 1)
            .split('\n')
            .map(|l| format!("data: {l}{eol}"))
            .collect();
        s.raw_frame(format!("{}{eol}", lines.concat()).as_bytes());
    }
    s.end();
    sample_committed(&mut s);
    case(
        SECTION,
        slug,
        1,
        F,
        description,
        &["PRJ-RUI-FRAME-06", "CL-D07-2", "RUI-FRAME-03"],
    )
    .steps(s.steps())
}

fn crlf_split_between_cr_and_lf() -> Case {
    let mut s = Script::new(F);
    for record in sample_tx() {
        let lines: Vec<String> = broken(&record, 1)
            .split('\n')
            .map(|l| format!("data: {l}\r\n"))
            .collect();
        s.raw_frame(format!("{}\r\n", lines.concat()).as_bytes());
    }
    let cuts: Vec<usize> = s.offsets_of(b'\r').into_iter().map(|cr| cr + 1).collect();
    s.feed_cut(&cuts);
    s.end();
    sample_committed(&mut s);
    case(
        SECTION,
        "crlf-split-between-cr-and-lf",
        1,
        F,
        "a CRLF cut between CR and LF is one line end, not two",
        &["PRJ-RUI-FRAME-06", "CL-D07-2", "RUI-FRAME-02"],
    )
    .steps(s.steps())
}

/// WHATWG's event stream is `stream = [ bom ] *event`: one leading U+FEFF is not part of the first
/// field name, so the first event still carries its data (issue 30: a consumer that keeps the BOM
/// loses the `begin` frame, and with it the whole transaction). The chunk boundary falls inside
/// the BOM's three bytes.
fn bom_at_stream_start() -> Case {
    let mut s = Script::new(F);
    s.raw(b"\xEF\xBB\xBF");
    s.records(&sample_tx());
    s.feed_cut(&[1]);
    s.end();
    sample_committed(&mut s);
    case(
        SECTION,
        "bom-at-stream-start",
        1,
        F,
        "one BOM before the first event is dropped; every event is a frame",
        &["PRJ-RUI-FRAME-06", "CL-D07-2", "RUI-FRAME-03"],
    )
    .steps(s.steps())
}

fn comments_ignored() -> Case {
    let mut s = Script::new(F);
    s.raw(b": stream opened\n\n");
    for record in sample_tx() {
        let lines: Vec<String> = broken(&record, 1)
            .split('\n')
            .map(|l| format!("data: {l}\n"))
            .collect();
        s.raw_frame(
            format!(
                ": keep-alive\n{}: between\n{}\n",
                lines[0],
                lines[1..].concat()
            )
            .as_bytes(),
        );
    }
    let stray = s.record(&commit(5, 2, "r"));
    s.end();
    s.extend(sample_state().expect());
    s.extend(logs(vec![committed("t1", 1)], vec![], outside(&[stray])));
    case(
        SECTION,
        "comments-ignored",
        1,
        F,
        "comment lines inside and between events are ignored",
        &["PRJ-RUI-FRAME-06", "PRJ-RUI-FRAME-11", "CL-D07-2"],
    )
    .steps(s.steps())
}

fn other_fields_ignored() -> Case {
    let mut s = Script::new(F);
    for (i, record) in sample_tx().iter().enumerate() {
        s.raw_frame(
            format!(
                "event: rui\nid: {i}\nretry: 1000\ndata: {}\n\n",
                text(record)
            )
            .as_bytes(),
        );
    }
    s.end();
    sample_committed(&mut s);
    case(
        SECTION,
        "other-fields-ignored",
        1,
        F,
        "event, id and retry fields do not change the record",
        &["PRJ-RUI-FRAME-06", "CL-D07-2", "RUI-FRAME-03"],
    )
    .steps(s.steps())
}

fn event_without_data() -> Case {
    let mut s = Script::new(F);
    let records = sample_tx();
    s.records(&records[..2]);
    s.raw(b"event: ping\n\n");
    s.raw(b"id: 9\n\n");
    s.records(&records[2..]);
    let stray = s.record(&commit(5, 2, "r"));
    s.end();
    s.extend(sample_state().expect());
    s.extend(logs(vec![committed("t1", 1)], vec![], outside(&[stray])));
    case(
        SECTION,
        "event-without-data-no-frame",
        1,
        F,
        "an event with no data field yields no frame and is not counted",
        &["PRJ-RUI-FRAME-06", "PRJ-RUI-FRAME-11", "RUI-FRAME-03"],
    )
    .steps(s.steps())
}

fn blank_lines_between_events() -> Case {
    let mut s = Script::new(F);
    let records = sample_tx();
    s.raw(b"\n\n");
    s.records(&records[..3]);
    s.raw(b"\n\n\n");
    s.records(&records[3..]);
    let stray = s.record(&commit(5, 2, "r"));
    s.end();
    s.extend(sample_state().expect());
    s.extend(logs(vec![committed("t1", 1)], vec![], outside(&[stray])));
    case(
        SECTION,
        "blank-lines-between-events",
        1,
        F,
        "extra blank lines dispatch nothing and are not counted",
        &["PRJ-RUI-FRAME-06", "PRJ-RUI-FRAME-11", "CL-D07-2"],
    )
    .steps(s.steps())
}

fn no_space_after_colon() -> Case {
    let mut s = Script::new(F);
    for record in sample_tx() {
        s.raw_frame(format!("data:{}\n\n", text(&record)).as_bytes());
    }
    s.end();
    sample_committed(&mut s);
    case(
        SECTION,
        "no-space-after-colon",
        1,
        F,
        "a data field without a space after the colon carries the record",
        &["PRJ-RUI-FRAME-06", "CL-D07-2"],
    )
    .steps(s.steps())
}

fn empty_data_event() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .node("a", "Text", json!({ "text": "bye" }), &[])
            .open(),
    );
    let empty = s.raw_frame(b"data:\n\n");
    let rest = s.records(&[commit(2, 2, "r")]);
    s.end();
    s.extend(base_state().expect());
    s.extend(logs(
        vec![committed("t0", 1), rejected("t1", code::FRAME_INVALID)],
        vec![at(empty, code::FRAME_NOT_JSON)],
        outside(&rest),
    ));
    case(
        SECTION,
        "empty-data-event",
        1,
        F,
        "an event whose data is empty is an invalid frame",
        &[
            "PRJ-RUI-FRAME-06",
            "PRJ-RUI-FRAME-01",
            "PRJ-RUI-TX-04",
            "CL-D05-3",
        ],
    )
    .steps(s.steps())
}

fn invalid_utf8() -> Case {
    let mut s = Script::new(F);
    let bad = s.payload(b"\xff[\"begin\",0,\"t1\",0]");
    let rest = s.records(&[node(1, "r", "Stack", json!({}), &[]), commit(2, 1, "r")]);
    s.records(
        &Tx::begin("t2", 0)
            .node("r", "Stack", json!({}), &[])
            .commit(1, "r"),
    );
    s.end();
    s.extend(logs(
        vec![committed("t2", 1)],
        vec![at(bad, code::FRAME_NOT_JSON)],
        outside(&rest),
    ));
    s.push(expect("revision", json!(1)));
    case(
        SECTION,
        "invalid-utf8",
        1,
        F,
        "an invalid UTF-8 byte before the value: the event is quarantined",
        &["PRJ-RUI-FRAME-01", "RUI-RECOV-01", "CL-D05-1", "CL-D05-2"],
    )
    .steps(s.steps())
}

fn syntax_error() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(&Tx::begin("t1", 1).open());
    let bad = s.payload(b"[\"node\",1,\"a\",\"Text\",{\"text\":\"bye\"},[]");
    let rest = s.records(&[commit(2, 2, "r")]);
    s.end();
    s.extend(base_state().expect());
    s.extend(logs(
        vec![committed("t0", 1), rejected("t1", code::FRAME_INVALID)],
        vec![at(bad, code::FRAME_NOT_JSON)],
        outside(&rest),
    ));
    case(
        SECTION,
        "syntax-error",
        1,
        F,
        "a dispatched event with a syntax error discards the transaction",
        &["PRJ-RUI-FRAME-01", "PRJ-RUI-TX-04", "CL-D05-3", "CL-D09-4"],
    )
    .steps(s.steps())
}

fn two_records_one_event() -> Case {
    let mut s = Script::new(F);
    let both = format!(
        "{}\n{}",
        text(&begin("t1", 0)),
        text(&node(1, "r", "Stack", json!({}), &[]))
    );
    let bad = s.payload(both.as_bytes());
    let rest = s.records(&[commit(2, 1, "r")]);
    s.end();
    s.extend(State::empty().expect());
    s.extend(logs(
        vec![],
        vec![at(bad, code::FRAME_NOT_JSON)],
        outside(&rest),
    ));
    case(
        SECTION,
        "two-records-one-event",
        1,
        F,
        "two records as data lines of one event are one invalid frame",
        &[
            "RUI-FRAME-03",
            "CL-D07-2",
            "RUI-FRAME-01",
            "PRJ-RUI-FRAME-01",
        ],
    )
    .steps(s.steps())
}

fn record_across_two_events() -> Case {
    let mut s = Script::new(F);
    let first = s.payload(b"[\"begin\",0,");
    let second = s.payload(b"\"t1\",0]");
    let rest = s.records(&[node(1, "r", "Stack", json!({}), &[]), commit(2, 1, "r")]);
    s.end();
    s.extend(State::empty().expect());
    s.extend(logs(
        vec![],
        vec![
            at(first, code::FRAME_NOT_JSON),
            at(second, code::FRAME_NOT_JSON),
        ],
        outside(&rest),
    ));
    case(
        SECTION,
        "record-across-two-events",
        1,
        F,
        "a record split over two events is two invalid frames",
        &[
            "RUI-FRAME-03",
            "CL-D07-2",
            "PRJ-RUI-FRAME-01",
            "RUI-FRAME-02",
        ],
    )
    .steps(s.steps())
}

fn split_inside_utf8() -> Case {
    let mut s = Script::new(F);
    s.records(&sample_tx());
    let mut cuts = Vec::new();
    for (character, width) in [("\u{e9}", 2), ("\u{65e5}", 3), ("\u{1f600}", 4)] {
        let start = s.find(character.as_bytes());
        cuts.extend((1..width).map(|k| start + k));
    }
    cuts.sort_unstable();
    s.feed_cut(&cuts);
    s.end();
    sample_committed(&mut s);
    case(
        SECTION,
        "split-inside-utf8-characters",
        1,
        F,
        "chunks cut inside 2-, 3- and 4-byte UTF-8 characters",
        &["CL-D07-2", "RUI-FRAME-02", "CL-D07-5"],
    )
    .steps(s.steps())
}

fn one_byte_chunks() -> Case {
    let mut s = Script::new(F);
    for record in sample_tx() {
        s.payload(broken(&record, 2).as_bytes());
    }
    s.feed_bytewise();
    s.end();
    sample_committed(&mut s);
    case(
        SECTION,
        "one-byte-chunks",
        1,
        F,
        "multi-line events delivered one byte per chunk",
        &["CL-D07-2", "RUI-FRAME-02"],
    )
    .steps(s.steps())
}

fn truncated_at_end(slug: &str, description: &str, tail: &[u8]) -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .node("a", "Text", json!({ "text": "bye" }), &[])
            .open(),
    );
    let cut = s.raw_frame(tail);
    s.end();
    s.extend(base_state().expect());
    s.extend(vec![
        traced(
            strict(
                expect(
                    "transactions",
                    json!([
                        committed("t0", 1),
                        rejected_any("t1", &[code::FRAME_INVALID, code::INTERRUPTED])
                    ]),
                ),
                Strictness::ImplDefined,
            ),
            &["PRJ-RUI-FRAME-12", "CL-D05-3", "CL-D05-7"],
        ),
        traced(
            strict(
                expect("quarantine", json!([at(cut, code::FRAME_TRUNCATED)])),
                Strictness::Recommended,
            ),
            &["PRJ-RUI-FRAME-07"],
        ),
        expect("rejections", json!([])),
    ]);
    case(
        SECTION,
        slug,
        1,
        F,
        description,
        &["RUI-FRAME-03", "CL-D07-2", "RUI-FRAME-02", "CL-D07-5"],
    )
    .steps(s.steps())
}

fn unterminated_event_at_end() -> Case {
    let tail = format!("data: {}\n", text(&commit(2, 2, "r")));
    truncated_at_end(
        "unterminated-event-at-end",
        "an event without its blank line at the end is truncated",
        tail.as_bytes(),
    )
}

fn unterminated_field_at_end() -> Case {
    let tail = format!("data: {}", text(&commit(2, 2, "r")));
    truncated_at_end(
        "unterminated-field-at-end",
        "a data line cut by the end of the stream is truncated",
        tail.as_bytes(),
    )
}

fn interrupted_between_events() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .node("a", "Text", json!({ "text": "bye" }), &[])
            .open(),
    );
    s.end();
    s.extend(base_state().expect());
    s.extend(logs(
        vec![committed("t0", 1), rejected("t1", code::INTERRUPTED)],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "interrupted-between-events",
        1,
        F,
        "the stream ends after whole events inside a transaction",
        &["RUI-RECOV-09", "CL-D05-7", "PRJ-RUI-TX-05", "CL-D07-2"],
    )
    .steps(s.steps())
}

fn split_at_every_line_feed() -> Case {
    let mut s = Script::new(F);
    for record in sample_tx() {
        s.payload(broken(&record, 2).as_bytes());
    }
    let len = s.pending_len();
    let cuts: Vec<usize> = s
        .offsets_of(b'\n')
        .into_iter()
        .map(|lf| lf + 1)
        .filter(|c| *c < len)
        .collect();
    s.feed_cut(&cuts);
    s.end();
    sample_committed(&mut s);
    case(
        SECTION,
        "split-after-every-line-feed",
        1,
        F,
        "a chunk boundary after every LF, blank lines included",
        &["CL-D07-2", "RUI-FRAME-02", "PRJ-RUI-FRAME-06"],
    )
    .steps(s.steps())
}

fn split_inside_field_name() -> Case {
    let mut s = Script::new(F);
    for record in sample_tx() {
        s.payload(broken(&record, 1).as_bytes());
    }
    let mut cuts = Vec::new();
    let mut from = 0;
    while let Some(field) = s.position_from(b"data: ", from) {
        cuts.extend([field + 2, field + 5]);
        from = field + 6;
    }
    s.feed_cut(&cuts);
    s.end();
    sample_committed(&mut s);
    case(
        SECTION,
        "split-inside-field-name",
        1,
        F,
        "chunks cut inside the data field name and before its space",
        &["CL-D07-2", "RUI-FRAME-02", "PRJ-RUI-FRAME-06"],
    )
    .steps(s.steps())
}

fn trailing_bytes() -> Case {
    case(
        SECTION,
        "trailing-bytes-after-value",
        1,
        F,
        "bytes after the JSON value in an event make the frame invalid",
        &["PRJ-RUI-FRAME-01", "RUI-FRAME-01", "CL-D07-2"],
    )
    .steps(invalid_begin_frame(F, b"[\"begin\",0,\"t1\",0] x"))
}
