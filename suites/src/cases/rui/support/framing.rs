//! The stream shapes the four framing sections share (`framing_jsonl`, `framing_sse`,
//! `framing_websocket`, `framing_json_seq`): the sample transaction committed through some
//! chunking, frames that are not JSON before, inside or instead of a transaction, a record cut over
//! two frames, a frame truncated by the end of the stream, and a stream interrupted inside a
//! transaction. Each function gives the steps in the framing it is handed; the section names the
//! case, its description and strictness, and the requirement ids the case covers there
//! (RUI-FRAME-03..06, CL-D07-1..5, PRJ-RUI-FRAME-*, CL-D05-*); nothing here cites a requirement of
//! its own except through the caller.

use serde_json::{json, Value};

use super::code;
use super::observe::{
    at, committed, expect, logs, outside, rejected, rejected_any, strict, traced, State,
};
use super::stream::{Framing, Script};
use super::tuples::{commit, node, Tx};
use super::{base_state, base_tx, sample_state, sample_tx};
use crate::case::Strictness;

/// The 2-, 3- and 4-byte UTF-8 characters of `sample_tx`, with their widths in bytes.
pub const SAMPLE_CHARACTERS: [(&str, usize); 3] =
    [("\u{e9}", 2), ("\u{65e5}", 3), ("\u{1f600}", 4)];

/// `write` puts the sample transaction on the stream in some shape; the stream ends and it has
/// committed, with nothing quarantined or rejected.
pub fn commits_sample(framing: Framing, write: impl FnOnce(&mut Script)) -> Vec<Value> {
    let mut script = Script::new(framing);
    write(&mut script);
    script.end();
    script.extend(sample_state().expect());
    script.extend(logs(vec![committed("t1", 1)], vec![], vec![]));
    script.steps()
}

/// The sample transaction, one frame a record, fed in chunks cut at the offsets `cuts` gives
/// for what was written; it commits.
pub fn commits_sample_cut(
    framing: Framing,
    cuts: impl FnOnce(&Script) -> Vec<usize>,
) -> Vec<Value> {
    commits_sample(framing, |script| {
        script.records(&sample_tx());
        let cuts = cuts(script);
        script.feed_cut(&cuts);
    })
}

/// Offsets inside each of `characters` (a character and its width in bytes), at its first
/// occurrence in what is written and not yet fed, in ascending order.
pub fn cuts_inside(script: &Script, characters: &[(&str, usize)]) -> Vec<usize> {
    let mut cuts = Vec::new();
    for (character, width) in characters {
        let start = script.find(character.as_bytes());
        cuts.extend((1..*width).map(|k| start + k));
    }
    cuts.sort_unstable();
    cuts
}

/// `write` puts the sample transaction on the stream with bytes between its frames that are no
/// frame; a stray commit after it shows by its frame index that they were not counted.
pub fn commits_sample_then_stray(framing: Framing, write: impl FnOnce(&mut Script)) -> Vec<Value> {
    let mut script = Script::new(framing);
    write(&mut script);
    let stray = script.record(&commit(5, 2, "r"));
    script.end();
    script.extend(sample_state().expect());
    script.extend(logs(vec![committed("t1", 1)], vec![], outside(&[stray])));
    script.steps()
}

/// A frame carrying `payload`, which is not JSON, opens nothing: then `rest` are all rejected as
/// outside a transaction, and nothing is committed.
pub fn not_json_frame(framing: Framing, payload: &[u8], rest: &[Value]) -> Vec<Value> {
    let mut script = Script::new(framing);
    let bad = script.payload(payload);
    let rest = script.records(rest);
    script.end();
    script.extend(State::empty().expect());
    script.extend(logs(
        vec![],
        vec![at(bad, code::FRAME_NOT_JSON)],
        outside(&rest),
    ));
    script.steps()
}

/// An invalid frame carrying `payload` where a begin was meant, then the node and commit of that
/// transaction: the frame is quarantined as not JSON, opens nothing, and the two records are
/// rejected as outside a transaction.
pub fn invalid_begin_frame(framing: Framing, payload: &[u8]) -> Vec<Value> {
    not_json_frame(
        framing,
        payload,
        &[node(1, "r", "Stack", json!({}), &[]), commit(2, 1, "r")],
    )
}

/// A frame carrying `payload`, which is not JSON, then `rest` (rejected as outside a
/// transaction), then a transaction `t2` that commits revision 1: parsing resumes at the next
/// frame.
pub fn not_json_then_begin(framing: Framing, payload: &[u8], rest: &[Value]) -> Vec<Value> {
    let mut script = Script::new(framing);
    let bad = script.payload(payload);
    let rest = script.records(rest);
    script.records(
        &Tx::begin("t2", 0)
            .node("r", "Stack", json!({}), &[])
            .commit(1, "r"),
    );
    script.end();
    script.extend(logs(
        vec![committed("t2", 1)],
        vec![at(bad, code::FRAME_NOT_JSON)],
        outside(&rest),
    ));
    script.push(expect("revision", json!(1)));
    script.steps()
}

/// The begin record `["begin",0,"t1",0]` cut into two frames, each not JSON; the node and commit
/// of that transaction are rejected as outside one.
pub fn record_across_two_frames(framing: Framing) -> Vec<Value> {
    let mut script = Script::new(framing);
    let first = script.payload(b"[\"begin\",0,");
    let second = script.payload(b"\"t1\",0]");
    let rest = script.records(&[node(1, "r", "Stack", json!({}), &[]), commit(2, 1, "r")]);
    script.end();
    script.extend(State::empty().expect());
    script.extend(logs(
        vec![],
        vec![
            at(first, code::FRAME_NOT_JSON),
            at(second, code::FRAME_NOT_JSON),
        ],
        outside(&rest),
    ));
    script.steps()
}

/// The baseline and then `t1`, restaging `a` as Text "bye", committed as revision 2, both in
/// one chunk; the stream then ends if `end` is set (the WebSocket case leaves the connection
/// open).
pub fn commits_base_then_t1(framing: Framing, end: bool) -> Vec<Value> {
    let mut script = Script::new(framing);
    script.records(&base_tx());
    script.records(
        &Tx::begin("t1", 1)
            .node("a", "Text", json!({ "text": "bye" }), &[])
            .commit(2, "r"),
    );
    if end {
        script.end();
    }
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.graph["nodes"]["a"]["props"] = json!({ "text": "bye" });
    state.revision = 2;
    script.extend(state.expect());
    script.extend(logs(
        vec![committed("t0", 1), committed("t1", 2)],
        vec![],
        vec![],
    ));
    script.steps()
}

/// The transaction `t1` after the baseline, restaging `a` as Text "bye", left open.
pub fn open_t1() -> Vec<Value> {
    Tx::begin("t1", 1)
        .node("a", "Text", json!({ "text": "bye" }), &[])
        .open()
}

/// The baseline committed, the records `open` of `t1` staged, then the frame `bad` writes (it
/// returns its index), which is not JSON: `t1` is discarded and `rest` rejected as outside a
/// transaction; the baseline stays.
pub fn not_json_discards_open(
    framing: Framing,
    open: &[Value],
    bad: impl FnOnce(&mut Script) -> usize,
    rest: &[Value],
) -> Vec<Value> {
    let mut script = Script::new(framing);
    script.records(&base_tx());
    script.records(open);
    let bad = bad(&mut script);
    let rest = script.records(rest);
    script.end();
    script.extend(base_state().expect());
    script.extend(logs(
        vec![committed("t0", 1), rejected("t1", code::FRAME_INVALID)],
        vec![at(bad, code::FRAME_NOT_JSON)],
        outside(&rest),
    ));
    script.steps()
}

/// The baseline committed and `t1` rejected, as FRAME_INVALID or INTERRUPTED: which is
/// `strictness` (a reading the texts leave open), traced to `requirements`.
pub fn t1_rejected_either(strictness: Strictness, requirements: &[&str]) -> Value {
    traced(
        strict(
            expect(
                "transactions",
                json!([
                    committed("t0", 1),
                    rejected_any("t1", &[code::FRAME_INVALID, code::INTERRUPTED])
                ]),
            ),
            strictness,
        ),
        requirements,
    )
}

/// The baseline committed, `t1` open (`open_t1`), then `tail` as the last bytes of the stream:
/// one frame, truncated. `rejection` is the step for `t1` (see `t1_rejected_either`);
/// `truncation` is how strict the truncated frame's quarantine is, and why, when it is less
/// strict than the case.
pub fn truncated_in_open(
    framing: Framing,
    tail: &[u8],
    rejection: Value,
    truncation: Option<(Strictness, &[&str])>,
) -> Vec<Value> {
    let mut script = Script::new(framing);
    script.records(&base_tx());
    script.records(&open_t1());
    let cut = script.raw_frame(tail);
    script.end();
    script.extend(base_state().expect());
    let quarantine = expect("quarantine", json!([at(cut, code::FRAME_TRUNCATED)]));
    script.extend(vec![
        rejection,
        match truncation {
            Some((strictness, requirements)) => {
                traced(strict(quarantine, strictness), requirements)
            }
            None => quarantine,
        },
        expect("rejections", json!([])),
    ]);
    script.steps()
}

/// The baseline committed, `t1` open, and the stream ends between frames: `t1` is rejected as
/// INTERRUPTED and the baseline stays.
pub fn interrupted_in_open(framing: Framing) -> Vec<Value> {
    let mut script = Script::new(framing);
    script.records(&base_tx());
    script.records(&open_t1());
    script.end();
    script.extend(base_state().expect());
    script.extend(logs(
        vec![committed("t0", 1), rejected("t1", code::INTERRUPTED)],
        vec![],
        vec![],
    ));
    script.steps()
}
