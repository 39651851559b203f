//! Section `rui.framing-sse`: one record per SSE `data` event, multi-line data joined with LF
//! (RUI-FRAME-03, CL-D07-2), parsed as the WHATWG event stream (PRJ-RUI-FRAME-06): CRLF, LF and
//! CR line ends, one leading BOM dropped, comments and other fields ignored, events without data yield no frame, an empty
//! data event is an invalid frame, and an event left unterminated by the end of the stream is
//! truncated (PRJ-RUI-FRAME-07). Chunk boundaries fall between `data:` lines, between CR and LF
//! and inside UTF-8 characters.

use serde_json::{json, Value};

use super::support::framing::{
    commits_sample, commits_sample_cut, commits_sample_then_stray, cuts_inside,
    interrupted_in_open, invalid_begin_frame, not_json_discards_open, not_json_frame,
    not_json_then_begin, open_t1, record_across_two_frames, t1_rejected_either, truncated_in_open,
    SAMPLE_CHARACTERS,
};
use super::support::stream::{text, Framing, Script};
use super::support::tuples::{begin, commit, node, Tx};
use super::support::{case, sample_tx};
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

/// The record's compact text with a line break after each of its first `breaks` commas, so the
/// SSE framing carries it as a multi-line event.
fn broken(record: &Value, breaks: usize) -> String {
    text(record).replacen(',', ",\n", breaks)
}

/// Each record of the sample transaction as a multi-line event, `broken` after `breaks` commas.
fn broken_records(script: &mut Script, breaks: usize) {
    for record in sample_tx() {
        script.payload(broken(&record, breaks).as_bytes());
    }
}

/// Each record of the sample transaction as an event of two data lines, every line ending in
/// `eol`.
fn records_with_line_ends(script: &mut Script, eol: &str) {
    for record in sample_tx() {
        let lines: Vec<String> = broken(&record, 1)
            .split('\n')
            .map(|l| format!("data: {l}{eol}"))
            .collect();
        script.raw_frame(format!("{}{eol}", lines.concat()).as_bytes());
    }
}

fn well_formed() -> Case {
    case(
        SECTION,
        "well-formed-stream",
        1,
        F,
        "each data event carries one record; the transaction commits",
        &["RUI-FRAME-03", "CL-D07-2", "RUI-FRAME-01", "RUI-STATUS-02"],
    )
    .steps(commits_sample(F, |s| {
        s.records(&sample_tx());
    }))
}

fn multi_line_data() -> Case {
    case(
        SECTION,
        "multi-line-data",
        1,
        F,
        "data lines of one event are joined with LF into one record",
        &["CL-D07-2", "RUI-FRAME-03", "PRJ-RUI-FRAME-06"],
    )
    .steps(commits_sample(F, |s| broken_records(s, 3)))
}

fn split_between_data_lines() -> Case {
    case(
        SECTION,
        "split-between-data-lines",
        1,
        F,
        "a chunk boundary before every data line of an event",
        &["CL-D07-2", "RUI-FRAME-02", "CL-D07-5"],
    )
    .steps(commits_sample(F, |s| {
        broken_records(s, 2);
        let mut cuts = Vec::new();
        let mut from = 0;
        while let Some(lf) = s.position_from(b"\ndata: ", from) {
            cuts.push(lf + 1);
            from = lf + 1;
        }
        s.feed_cut(&cuts);
    }))
}

fn line_ends(slug: &str, description: &str, eol: &str) -> Case {
    case(
        SECTION,
        slug,
        1,
        F,
        description,
        &["PRJ-RUI-FRAME-06", "CL-D07-2", "RUI-FRAME-03"],
    )
    .steps(commits_sample(F, |s| records_with_line_ends(s, eol)))
}

fn crlf_split_between_cr_and_lf() -> Case {
    case(
        SECTION,
        "crlf-split-between-cr-and-lf",
        1,
        F,
        "a CRLF cut between CR and LF is one line end, not two",
        &["PRJ-RUI-FRAME-06", "CL-D07-2", "RUI-FRAME-02"],
    )
    .steps(commits_sample(F, |s| {
        records_with_line_ends(s, "\r\n");
        let cuts: Vec<usize> = s.offsets_of(b'\r').into_iter().map(|cr| cr + 1).collect();
        s.feed_cut(&cuts);
    }))
}

/// WHATWG's event stream is `stream = [ bom ] *event`: one leading U+FEFF is not part of the first
/// field name, so the first event still carries its data (issue 30: a consumer that keeps the BOM
/// loses the `begin` frame, and with it the whole transaction). The chunk boundary falls inside
/// the BOM's three bytes.
fn bom_at_stream_start() -> Case {
    case(
        SECTION,
        "bom-at-stream-start",
        1,
        F,
        "one BOM before the first event is dropped; every event is a frame",
        &["PRJ-RUI-FRAME-06", "CL-D07-2", "RUI-FRAME-03"],
    )
    .steps(commits_sample(F, |s| {
        s.raw(b"\xEF\xBB\xBF");
        s.records(&sample_tx());
        s.feed_cut(&[1]);
    }))
}

fn comments_ignored() -> Case {
    case(
        SECTION,
        "comments-ignored",
        1,
        F,
        "comment lines inside and between events are ignored",
        &["PRJ-RUI-FRAME-06", "PRJ-RUI-FRAME-11", "CL-D07-2"],
    )
    .steps(commits_sample_then_stray(F, |s| {
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
    }))
}

fn other_fields_ignored() -> Case {
    case(
        SECTION,
        "other-fields-ignored",
        1,
        F,
        "event, id and retry fields do not change the record",
        &["PRJ-RUI-FRAME-06", "CL-D07-2", "RUI-FRAME-03"],
    )
    .steps(commits_sample(F, |s| {
        for (i, record) in sample_tx().iter().enumerate() {
            s.raw_frame(
                format!(
                    "event: rui\nid: {i}\nretry: 1000\ndata: {}\n\n",
                    text(record)
                )
                .as_bytes(),
            );
        }
    }))
}

fn event_without_data() -> Case {
    case(
        SECTION,
        "event-without-data-no-frame",
        1,
        F,
        "an event with no data field yields no frame and is not counted",
        &["PRJ-RUI-FRAME-06", "PRJ-RUI-FRAME-11", "RUI-FRAME-03"],
    )
    .steps(commits_sample_then_stray(F, |s| {
        let records = sample_tx();
        s.records(&records[..2]);
        s.raw(b"event: ping\n\n");
        s.raw(b"id: 9\n\n");
        s.records(&records[2..]);
    }))
}

fn blank_lines_between_events() -> Case {
    case(
        SECTION,
        "blank-lines-between-events",
        1,
        F,
        "extra blank lines dispatch nothing and are not counted",
        &["PRJ-RUI-FRAME-06", "PRJ-RUI-FRAME-11", "CL-D07-2"],
    )
    .steps(commits_sample_then_stray(F, |s| {
        let records = sample_tx();
        s.raw(b"\n\n");
        s.records(&records[..3]);
        s.raw(b"\n\n\n");
        s.records(&records[3..]);
    }))
}

fn no_space_after_colon() -> Case {
    case(
        SECTION,
        "no-space-after-colon",
        1,
        F,
        "a data field without a space after the colon carries the record",
        &["PRJ-RUI-FRAME-06", "CL-D07-2"],
    )
    .steps(commits_sample(F, |s| {
        for record in sample_tx() {
            s.raw_frame(format!("data:{}\n\n", text(&record)).as_bytes());
        }
    }))
}

fn empty_data_event() -> Case {
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
    .steps(not_json_discards_open(
        F,
        &open_t1(),
        |s| s.raw_frame(b"data:\n\n"),
        &[commit(2, 2, "r")],
    ))
}

fn invalid_utf8() -> Case {
    case(
        SECTION,
        "invalid-utf8",
        1,
        F,
        "an invalid UTF-8 byte before the value: the event is quarantined",
        &["PRJ-RUI-FRAME-01", "RUI-RECOV-01", "CL-D05-1", "CL-D05-2"],
    )
    .steps(not_json_then_begin(
        F,
        b"\xff[\"begin\",0,\"t1\",0]",
        &[node(1, "r", "Stack", json!({}), &[]), commit(2, 1, "r")],
    ))
}

fn syntax_error() -> Case {
    case(
        SECTION,
        "syntax-error",
        1,
        F,
        "a dispatched event with a syntax error discards the transaction",
        &["PRJ-RUI-FRAME-01", "PRJ-RUI-TX-04", "CL-D05-3", "CL-D09-4"],
    )
    .steps(not_json_discards_open(
        F,
        &Tx::begin("t1", 1).open(),
        |s| s.payload(b"[\"node\",1,\"a\",\"Text\",{\"text\":\"bye\"},[]"),
        &[commit(2, 2, "r")],
    ))
}

fn two_records_one_event() -> Case {
    let both = format!(
        "{}\n{}",
        text(&begin("t1", 0)),
        text(&node(1, "r", "Stack", json!({}), &[]))
    );
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
    .steps(not_json_frame(F, both.as_bytes(), &[commit(2, 1, "r")]))
}

fn record_across_two_events() -> Case {
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
    .steps(record_across_two_frames(F))
}

fn split_inside_utf8() -> Case {
    case(
        SECTION,
        "split-inside-utf8-characters",
        1,
        F,
        "chunks cut inside 2-, 3- and 4-byte UTF-8 characters",
        &["CL-D07-2", "RUI-FRAME-02", "CL-D07-5"],
    )
    .steps(commits_sample_cut(F, |s| {
        cuts_inside(s, &SAMPLE_CHARACTERS)
    }))
}

fn one_byte_chunks() -> Case {
    case(
        SECTION,
        "one-byte-chunks",
        1,
        F,
        "multi-line events delivered one byte per chunk",
        &["CL-D07-2", "RUI-FRAME-02"],
    )
    .steps(commits_sample(F, |s| {
        broken_records(s, 2);
        s.feed_bytewise();
    }))
}

fn truncated_at_end(slug: &str, description: &str, tail: &[u8]) -> Case {
    let rejection = t1_rejected_either(
        Strictness::ImplDefined,
        &["PRJ-RUI-FRAME-12", "CL-D05-3", "CL-D05-7"],
    );
    case(
        SECTION,
        slug,
        1,
        F,
        description,
        &["RUI-FRAME-03", "CL-D07-2", "RUI-FRAME-02", "CL-D07-5"],
    )
    .steps(truncated_in_open(
        F,
        tail,
        rejection,
        Some((Strictness::Recommended, &["PRJ-RUI-FRAME-07"])),
    ))
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
    case(
        SECTION,
        "interrupted-between-events",
        1,
        F,
        "the stream ends after whole events inside a transaction",
        &["RUI-RECOV-09", "CL-D05-7", "PRJ-RUI-TX-05", "CL-D07-2"],
    )
    .steps(interrupted_in_open(F))
}

fn split_at_every_line_feed() -> Case {
    case(
        SECTION,
        "split-after-every-line-feed",
        1,
        F,
        "a chunk boundary after every LF, blank lines included",
        &["CL-D07-2", "RUI-FRAME-02", "PRJ-RUI-FRAME-06"],
    )
    .steps(commits_sample(F, |s| {
        broken_records(s, 2);
        let len = s.pending_len();
        let cuts: Vec<usize> = s
            .offsets_of(b'\n')
            .into_iter()
            .map(|lf| lf + 1)
            .filter(|c| *c < len)
            .collect();
        s.feed_cut(&cuts);
    }))
}

fn split_inside_field_name() -> Case {
    case(
        SECTION,
        "split-inside-field-name",
        1,
        F,
        "chunks cut inside the data field name and before its space",
        &["CL-D07-2", "RUI-FRAME-02", "PRJ-RUI-FRAME-06"],
    )
    .steps(commits_sample(F, |s| {
        broken_records(s, 1);
        let mut cuts = Vec::new();
        let mut from = 0;
        while let Some(field) = s.position_from(b"data: ", from) {
            cuts.extend([field + 2, field + 5]);
            from = field + 6;
        }
        s.feed_cut(&cuts);
    }))
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
