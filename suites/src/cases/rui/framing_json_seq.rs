//! Section `rui.framing-json-seq`: RFC 7464 JSON text sequences on a raw HTTP stream (RUI-FRAME-05,
//! CL-D07-4): RS-prefixed texts ending in LF; a text cut by the next RS or by the end of the
//! stream is truncated (PRJ-RUI-FRAME-08), consecutive RS are not frames (PRJ-RUI-FRAME-09).
//! Chunk boundaries fall between RS and text, between LF and RS and inside UTF-8 characters.

use serde_json::{json, Value};

use super::support::framing::{
    commits_sample, commits_sample_cut, commits_sample_then_stray, cuts_inside,
    interrupted_in_open, invalid_begin_frame, not_json_frame, not_json_then_begin,
    t1_rejected_either, truncated_in_open, SAMPLE_CHARACTERS,
};
use super::support::observe::{at, committed, logs, outside, rejected, traced, State};
use super::support::stream::{text, Framing, Script, RS};
use super::support::tuples::{begin, commit, node, Tx};
use super::support::{base_state, base_tx, case, code, sample_state, sample_tx};
use crate::case::{Case, Section, Strictness};

const SECTION: &str = "framing-json-seq";
const F: Framing = Framing::JsonSeq;

pub fn section() -> Section {
    Section::new(
        "rui.framing-json-seq",
        "RFC 7464 JSON text sequences",
        "suites::cases::rui::framing_json_seq",
    )
    .cases(vec![
        well_formed(),
        split_after_rs(),
        split_between_lf_and_rs(),
        split_before_lf(),
        split_inside_utf8(),
        one_byte_chunks(),
        text_spans_lines(),
        consecutive_rs_ignored(),
        text_cut_by_next_rs(),
        complete_text_without_lf_before_rs(),
        truncated_at_end(
            "truncated-at-end",
            "a text cut mid-value by the end of the stream is truncated",
            false,
        ),
        truncated_at_end(
            "complete-text-without-lf-at-end",
            "a final text without its LF is truncated even if it parses",
            true,
        ),
        not_json_with_lf(),
        invalid_utf8(),
        lf_only_element(),
        two_values_one_text(),
        trailing_bytes(),
        resume_at_next_rs(),
        interrupted_between_texts(),
    ])
}

fn well_formed() -> Case {
    case(
        SECTION,
        "well-formed-stream",
        1,
        F,
        "each RS-prefixed LF-terminated text is one record; commits",
        &["RUI-FRAME-05", "CL-D07-4", "RUI-FRAME-01", "RUI-STATUS-02"],
    )
    .steps(commits_sample(F, |s| {
        s.records(&sample_tx());
    }))
}

fn split_after_rs() -> Case {
    case(
        SECTION,
        "split-between-rs-and-text",
        1,
        F,
        "a chunk boundary right after every RS",
        &["CL-D07-4", "RUI-FRAME-02", "CL-D07-5"],
    )
    .steps(commits_sample_cut(F, |s| {
        s.offsets_of(RS).into_iter().map(|rs| rs + 1).collect()
    }))
}

fn split_between_lf_and_rs() -> Case {
    case(
        SECTION,
        "split-between-lf-and-rs",
        1,
        F,
        "a chunk boundary between each LF and the next RS",
        &["CL-D07-4", "RUI-FRAME-02"],
    )
    .steps(commits_sample_cut(F, |s| {
        s.offsets_of(RS).into_iter().filter(|rs| *rs > 0).collect()
    }))
}

fn split_inside_utf8() -> Case {
    case(
        SECTION,
        "split-inside-utf8-characters",
        1,
        F,
        "chunks cut inside 2-, 3- and 4-byte UTF-8 characters",
        &["CL-D07-4", "RUI-FRAME-02", "CL-D07-5"],
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
        "a text sequence delivered one byte per chunk",
        &["CL-D07-4", "RUI-FRAME-02"],
    )
    .steps(commits_sample(F, |s| {
        s.records(&sample_tx());
        s.feed_bytewise();
    }))
}

fn text_spans_lines() -> Case {
    case(
        SECTION,
        "text-spans-lines",
        1,
        F,
        "a text holding LF whitespace ends only at its last LF before RS",
        &["CL-D07-4", "PRJ-RUI-FRAME-08", "RUI-FRAME-05"],
    )
    .steps(commits_sample(F, |s| {
        for record in sample_tx() {
            let pretty = serde_json::to_string_pretty(&record).unwrap_or_default();
            s.payload(pretty.as_bytes());
        }
    }))
}

fn consecutive_rs_ignored() -> Case {
    case(
        SECTION,
        "consecutive-rs-ignored",
        1,
        F,
        "consecutive RS octets are not empty texts and are not counted",
        &["PRJ-RUI-FRAME-09", "PRJ-RUI-FRAME-11", "CL-D07-4"],
    )
    .strictness(Strictness::Recommended)
    .steps(commits_sample_then_stray(F, |s| {
        let records = sample_tx();
        s.raw(&[RS, RS]);
        s.records(&records[..2]);
        s.raw(&[RS]);
        s.records(&records[2..]);
    }))
}

/// The open transaction `t1` (after the baseline), then `cut` as a text without its LF,
/// followed by a well-formed commit text: the cut text is truncated by the next RS.
fn cut_by_rs(slug: &str, description: &str, cut: &Value, whole: bool) -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(&Tx::begin("t1", 1).open());
    let full = text(cut);
    let bytes = if whole {
        full.as_bytes()
    } else {
        &full.as_bytes()[..full.len() - 6]
    };
    let truncated = s.raw_frame(&[&[RS][..], bytes].concat());
    let rest = s.records(&[commit(2, 2, "r")]);
    s.end();
    s.extend(base_state().expect());
    s.extend(logs(
        vec![committed("t0", 1), rejected("t1", code::FRAME_INVALID)],
        vec![at(truncated, code::FRAME_TRUNCATED)],
        outside(&rest),
    ));
    // A text that parses but lacks its LF may be read as complete (RFC 7464 parsers need no LF),
    // so refusing it is RECOMMENDED (PRJ-RUI-FRAME-13); a text cut mid-value is truncated
    // whatever the reading (CL-D07-4, PRJ-RUI-FRAME-02).
    let (requirements, strictness) = if whole {
        (
            vec![
                "PRJ-RUI-FRAME-13",
                "PRJ-RUI-TX-04",
                "CL-D05-3",
                "CL-D07-5",
                "RUI-FRAME-02",
            ],
            Strictness::Recommended,
        )
    } else {
        (
            vec![
                "CL-D07-4",
                "PRJ-RUI-FRAME-02",
                "PRJ-RUI-FRAME-08",
                "PRJ-RUI-TX-04",
                "CL-D05-3",
                "CL-D07-5",
            ],
            Strictness::Required,
        )
    };
    case(SECTION, slug, 1, F, description, &requirements)
        .strictness(strictness)
        .steps(s.steps())
}

fn text_cut_by_next_rs() -> Case {
    cut_by_rs(
        "text-cut-by-next-rs",
        "a text cut mid-value by the next RS is truncated; the next text parses",
        &node(1, "a", "Text", json!({ "text": "bye" }), &[]),
        false,
    )
}

fn complete_text_without_lf_before_rs() -> Case {
    cut_by_rs(
        "complete-text-without-lf-before-rs",
        "a parseable text without LF before the next RS is truncated",
        &node(1, "a", "Text", json!({ "text": "bye" }), &[]),
        true,
    )
}

fn truncated_at_end(slug: &str, description: &str, whole: bool) -> Case {
    let full = text(&commit(2, 2, "r"));
    let bytes = if whole {
        full.as_bytes()
    } else {
        &full.as_bytes()[..full.len() - 4]
    };
    // See `cut_by_rs`: only the text cut mid-value is truncated under every reading.
    let (case_strictness, choice_strictness) = if whole {
        (Strictness::Recommended, Strictness::Recommended)
    } else {
        (Strictness::Required, Strictness::ImplDefined)
    };
    let rejection = t1_rejected_either(
        choice_strictness,
        &["PRJ-RUI-FRAME-12", "CL-D05-3", "CL-D05-7"],
    );
    let requirements: &[&str] = if whole {
        &["PRJ-RUI-FRAME-13", "RUI-FRAME-02", "CL-D07-5"]
    } else {
        &[
            "CL-D07-4",
            "PRJ-RUI-FRAME-02",
            "PRJ-RUI-FRAME-08",
            "RUI-FRAME-02",
            "CL-D07-5",
        ]
    };
    case(SECTION, slug, 1, F, description, requirements)
        .strictness(case_strictness)
        .steps(truncated_in_open(
            F,
            &[&[RS][..], bytes].concat(),
            rejection,
            None,
        ))
}

fn not_json_with_lf() -> Case {
    case(
        SECTION,
        "not-json-with-lf",
        1,
        F,
        "a terminated text that is not JSON is invalid, not truncated",
        &[
            "PRJ-RUI-FRAME-01",
            "PRJ-RUI-FRAME-08",
            "CL-D05-1",
            "CL-D07-4",
        ],
    )
    .steps(not_json_then_begin(F, b"{\"begin\":0}}", &[]))
}

fn invalid_utf8() -> Case {
    let mut s = Script::new(F);
    s.records(&Tx::begin("t1", 0).node("r", "Stack", json!({}), &[]).open());
    let bad = s.payload(b"[\"data\",2,\"/t\",\"\xf8\x88\x80\x80\x80\"]");
    let rest = s.records(&[commit(3, 1, "r")]);
    s.end();
    s.extend(State::empty().expect());
    let mut logs = logs(
        vec![rejected("t1", code::FRAME_INVALID)],
        vec![at(bad, code::FRAME_NOT_JSON)],
        outside(&rest),
    );
    // The discarded transaction's remaining records are rejected as outside one (CL-D09-4).
    logs[2] = traced(logs[2].clone(), &["CL-D09-4", "PRJ-RUI-REC-01"]);
    s.extend(logs);
    case(
        SECTION,
        "invalid-utf8",
        1,
        F,
        "a text with a 5-byte UTF-8 form is quarantined; staging discarded",
        &["PRJ-RUI-FRAME-01", "PRJ-RUI-TX-04", "CL-D05-1", "CL-D05-3"],
    )
    .steps(s.steps())
}

fn lf_only_element() -> Case {
    let mut s = Script::new(F);
    let records = Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &[])
        .commit(1, "r");
    s.records(&records[..2]);
    let empty = s.payload(b"");
    let rest = s.records(&records[2..]);
    s.end();
    s.extend(State::empty().expect());
    s.extend(logs(
        vec![rejected("t1", code::FRAME_INVALID)],
        vec![at(empty, code::FRAME_NOT_JSON)],
        outside(&rest),
    ));
    case(
        SECTION,
        "empty-text",
        1,
        F,
        "an RS followed by only LF is a text that is not JSON",
        &[
            "PRJ-RUI-FRAME-01",
            "PRJ-RUI-FRAME-08",
            "PRJ-RUI-TX-04",
            "CL-D07-4",
        ],
    )
    .steps(s.steps())
}

fn two_values_one_text() -> Case {
    let both = format!(
        "{} {}",
        text(&begin("t1", 0)),
        text(&node(1, "r", "Stack", json!({}), &[]))
    );
    case(
        SECTION,
        "two-values-one-text",
        1,
        F,
        "two JSON values between one RS and LF are one invalid frame",
        &["PRJ-RUI-FRAME-01", "RUI-FRAME-01", "CL-D07-4"],
    )
    .steps(not_json_frame(F, both.as_bytes(), &[commit(2, 1, "r")]))
}

fn resume_at_next_rs() -> Case {
    let mut s = Script::new(F);
    let cut = s.raw_frame(&[&[RS][..], b"[\"begin\",0,\"t9"].concat());
    s.records(&sample_tx());
    s.end();
    s.extend(sample_state().expect());
    s.extend(logs(
        vec![committed("t1", 1)],
        vec![at(cut, code::FRAME_TRUNCATED)],
        vec![],
    ));
    case(
        SECTION,
        "resume-at-next-rs",
        1,
        F,
        "after a cut text parsing resumes at the next RS",
        &["RUI-RECOV-02", "CL-D05-2", "PRJ-RUI-FRAME-02", "CL-D07-4"],
    )
    .steps(s.steps())
}

fn interrupted_between_texts() -> Case {
    case(
        SECTION,
        "interrupted-between-texts",
        1,
        F,
        "the stream ends after whole texts inside a transaction",
        &["RUI-RECOV-09", "CL-D05-7", "PRJ-RUI-TX-05", "CL-D07-4"],
    )
    .steps(interrupted_in_open(F))
}

fn split_before_lf() -> Case {
    case(
        SECTION,
        "split-before-lf",
        1,
        F,
        "a chunk ending right before each text's LF does not end the text",
        &["CL-D07-4", "RUI-FRAME-02", "PRJ-RUI-FRAME-08"],
    )
    .steps(commits_sample_cut(F, |s| s.offsets_of(b'\n')))
}

fn trailing_bytes() -> Case {
    case(
        SECTION,
        "trailing-bytes-after-value",
        1,
        F,
        "bytes after the JSON value in a terminated text make it invalid",
        &["PRJ-RUI-FRAME-01", "RUI-FRAME-01", "CL-D07-4"],
    )
    .steps(invalid_begin_frame(F, b"[\"begin\",0,\"t1\",0] x"))
}
