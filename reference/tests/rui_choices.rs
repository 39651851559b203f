//! The Rixx UI rows of the choices table that issue 26 §2 adds (`reference::choices::TABLE`, each
//! citing its PRJ-RUI-* open point): at each, the reference takes the registered reading by default
//! and the other admissible reading when only that row takes its alternate, and the neighbouring
//! behaviour the row does not decide stays as it was.

use reference::choices::{Choice, Choices};
use reference::rui::codes::QuarantineCode;
use reference::rui::framing::{DecodedFrame, Decoder, Framing};
use reference::rui::{ActionPolicy, Catalog, Config, Limits, Runtime, TransactionOutcome};
use serde_json::{json, Value};

const RS: u8 = 0x1E;
const TRUNCATED: DecodedFrame = DecodedFrame::Quarantined(QuarantineCode::FrameTruncated);
const NOT_JSON: DecodedFrame = DecodedFrame::Quarantined(QuarantineCode::FrameNotJson);

fn decode(framing: Framing, choices: &Choices, stream: &[u8]) -> Vec<DecodedFrame> {
    let mut decoder = Decoder::choosing(framing, choices);
    let mut out = Vec::new();
    decoder
        .push(stream, &mut out)
        .expect("a stream framing takes bytes");
    decoder.finish(&mut out);
    out
}

/// What `stream` decodes to by default and with only `choice` taking its alternate.
fn both(framing: Framing, choice: Choice, stream: &[u8]) -> (Vec<DecodedFrame>, Vec<DecodedFrame>) {
    (
        decode(framing, &Choices::default(), stream),
        decode(framing, &Choices::only(&[choice]), stream),
    )
}

fn complete(bytes: &[u8]) -> DecodedFrame {
    DecodedFrame::Complete(bytes.to_vec())
}

#[test]
fn jsonl_blank_line_is_ignored_or_a_frame_that_is_not_json() {
    let (default, alternate) = both(
        Framing::Jsonl,
        Choice::RuiJsonlBlankLineFrame,
        b"[1]\n\n \t\r\n[2]\n",
    );
    assert_eq!(default, vec![complete(b"[1]"), complete(b"[2]")]);
    // The blank lines are frames; their bytes are parsed (and fail) like any other frame's.
    assert_eq!(
        alternate,
        vec![
            complete(b"[1]"),
            complete(b""),
            complete(b" \t\r"),
            complete(b"[2]")
        ]
    );
}

#[test]
fn jsonl_last_line_without_lf_is_truncated_or_applied_when_it_parses() {
    let (default, alternate) = both(Framing::Jsonl, Choice::RuiJsonlLastLineApplied, b"[1]\n[2]");
    assert_eq!(default, vec![complete(b"[1]"), TRUNCATED]);
    assert_eq!(alternate, vec![complete(b"[1]"), complete(b"[2]")]);
    // A last line that does not parse is not this row's business.
    let (default, alternate) = both(Framing::Jsonl, Choice::RuiJsonlLastLineApplied, b"[1]\n[2");
    assert_eq!(
        (default, alternate),
        (
            vec![complete(b"[1]"), TRUNCATED],
            vec![complete(b"[1]"), TRUNCATED]
        )
    );
}

#[test]
fn jsonl_last_line_cut_inside_its_value_is_truncated_or_not_json() {
    let (default, alternate) = both(
        Framing::Jsonl,
        Choice::RuiJsonlCutLineNotJson,
        b"[1]\n[\"be",
    );
    assert_eq!(default, vec![complete(b"[1]"), TRUNCATED]);
    assert_eq!(alternate, vec![complete(b"[1]"), NOT_JSON]);
    // A last line that parses stays truncated under this row alone.
    let (_, alternate) = both(Framing::Jsonl, Choice::RuiJsonlCutLineNotJson, b"[2]");
    assert_eq!(alternate, vec![TRUNCATED]);
}

#[test]
fn sse_undispatched_event_is_truncated_or_dropped() {
    let (default, alternate) = both(
        Framing::Sse,
        Choice::RuiSseUndispatchedDropped,
        b"data: [1]\n\ndata: [2]\n",
    );
    assert_eq!(default, vec![complete(b"[1]"), TRUNCATED]);
    assert_eq!(alternate, vec![complete(b"[1]")]);
    // The reading survives the reset at the end of a stream.
    let mut decoder = Decoder::choosing(
        Framing::Sse,
        &Choices::only(&[Choice::RuiSseUndispatchedDropped]),
    );
    let mut out = Vec::new();
    for _ in 0..2 {
        decoder.push(b"data: [3]", &mut out).expect("bytes");
        decoder.finish(&mut out);
    }
    assert!(out.is_empty(), "{out:?}");
}

#[test]
fn json_seq_element_without_lf_is_truncated_or_applied_when_it_holds_a_container() {
    let stream = [
        &[RS][..],
        b"[1]",
        &[RS],
        b"{\"a\":1} ",
        &[RS],
        b"12",
        &[RS],
        b"[1",
    ]
    .concat();
    let (default, alternate) = both(
        Framing::JsonSeq,
        Choice::RuiJsonSeqUnterminatedApplied,
        &stream,
    );
    assert_eq!(default, vec![TRUNCATED, TRUNCATED, TRUNCATED, TRUNCATED]);
    // A scalar without its LF may have been cut (RFC 7464 section 2.4); half an array was.
    assert_eq!(
        alternate,
        vec![
            complete(b"[1]"),
            complete(b"{\"a\":1} "),
            TRUNCATED,
            TRUNCATED
        ]
    );
}

fn catalog() -> Catalog {
    Catalog::from_json(&json!({ "id": "demo@1.0.0", "components": {
        "Box": { "props": { "type": "object" }, "children": true } } }))
    .expect("the demo catalog is valid")
}

fn runtime(choices: Choices) -> Runtime {
    Runtime::new(Config {
        framing: Framing::Jsonl,
        catalog: catalog(),
        limits: Limits::default(),
        action_policy: ActionPolicy::Gated,
        choices,
    })
}

fn lines(records: &[Value]) -> Vec<u8> {
    records
        .iter()
        .flat_map(|r| format!("{r}\n").into_bytes())
        .collect()
}

/// Feeds `stream` and ends it; the last transaction's result and the rejections' codes.
fn run(choices: Choices, stream: &[u8]) -> (Runtime, String, Vec<&'static str>) {
    let mut rt = runtime(choices);
    rt.feed(stream).expect("jsonl takes bytes");
    rt.end();
    let last = match rt.transactions().last().map(|t| t.outcome) {
        Some(TransactionOutcome::Committed { revision }) => format!("committed {revision}"),
        Some(TransactionOutcome::Aborted) => "aborted".into(),
        Some(TransactionOutcome::Rejected(code)) => code.as_str().into(),
        None => "none".into(),
    };
    let rejections = rt.rejections().iter().map(|r| r.code.as_str()).collect();
    (rt, last, rejections)
}

fn base() -> Vec<Value> {
    vec![
        json!(["begin", 0, "t0", 0]),
        json!(["node", 1, "r", "Box", {}, []]),
        json!(["data", 2, "/s", "x"]),
        json!(["data", 3, "/list", [1, 2]]),
        json!(["commit", 4, 1, "r"]),
    ]
}

/// `base()` committed, then transaction `t1` on revision 1 with `body` and `["commit", n, 2, "r"]`.
fn second(body: &[Value]) -> Vec<u8> {
    let mut records = base();
    records.push(json!(["begin", 0, "t1", 1]));
    for (seq, record) in body.iter().enumerate() {
        let mut record = record.clone();
        record[1] = json!(seq + 1);
        records.push(record);
    }
    records.push(json!(["commit", body.len() + 1, 2, "r"]));
    lines(&records)
}

#[test]
fn a_truncated_frame_at_the_end_fails_its_transaction_frame_invalid_or_interrupted() {
    let mut stream = lines(&[json!(["begin", 0, "t0", 0])]);
    stream.extend_from_slice(b"[\"node\", 1");
    let (rt, default, _) = run(Choices::default(), &stream);
    assert_eq!(default, "FRAME_INVALID");
    assert_eq!(rt.quarantine().len(), 1);
    let (rt, alternate, _) = run(
        Choices::only(&[Choice::RuiTruncatedEndInterrupted]),
        &stream,
    );
    assert_eq!(alternate, "INTERRUPTED");
    assert_eq!(rt.quarantine()[0].code, QuarantineCode::FrameTruncated);
    assert_eq!(rt.transactions().len(), 1);
}

#[test]
fn several_broken_commit_checks_give_one_code_in_either_order() {
    // A stale base and a node of an undeclared component at once.
    let mut records = base();
    records.extend([
        json!(["begin", 0, "t1", 0]),
        json!(["node", 1, "x", "Nope", {}, []]),
        json!(["commit", 2, 1, "r"]),
    ]);
    let (_, default, _) = run(Choices::default(), &lines(&records));
    assert_eq!(default, "STALE_BASE_REVISION");
    let (_, alternate, _) = run(
        Choices::only(&[Choice::RuiCommitChecksReversed]),
        &lines(&records),
    );
    assert_eq!(alternate, "UNKNOWN_COMPONENT");
    // newRevision is checked before the base in the alternate order.
    let mut records = base();
    records.extend([json!(["begin", 0, "t1", 0]), json!(["commit", 1, 5, "r"])]);
    let (_, alternate, _) = run(
        Choices::only(&[Choice::RuiCommitChecksReversed]),
        &lines(&records),
    );
    assert_eq!(alternate, "REVISION_MISMATCH");
    // One broken check gives its code in both orders.
    let (_, alternate, _) = run(
        Choices::only(&[Choice::RuiCommitChecksReversed]),
        &second(&[json!(["delete", 0, "node", "ghost"])]),
    );
    assert_eq!(alternate, "DELETE_ABSENT");
}

#[test]
fn a_stale_base_or_duplicate_node_is_found_at_commit_or_at_its_record() {
    let mut records = base();
    records.extend([
        json!(["begin", 0, "t1", 0]),
        json!(["node", 1, "r", "Box", {}, []]),
        json!(["commit", 2, 1, "r"]),
    ]);
    let (_, default, rejections) = run(Choices::default(), &lines(&records));
    assert_eq!(
        (default.as_str(), rejections),
        ("STALE_BASE_REVISION", vec![])
    );
    let (_, alternate, rejections) =
        run(Choices::only(&[Choice::RuiFailAtRecord]), &lines(&records));
    assert_eq!(alternate, "STALE_BASE_REVISION");
    assert_eq!(
        rejections,
        vec!["RECORD_OUTSIDE_TRANSACTION"; 2],
        "the node and commit after begin"
    );
    let body = [
        json!(["node", 0, "a", "Box", {}, []]),
        json!(["node", 0, "a", "Box", {}, []]),
        json!(["data", 0, "/s", "y"]),
    ];
    let (_, default, rejections) = run(Choices::default(), &second(&body));
    assert_eq!((default.as_str(), rejections), ("DUPLICATE_NODE", vec![]));
    let (rt, alternate, rejections) =
        run(Choices::only(&[Choice::RuiFailAtRecord]), &second(&body));
    assert_eq!(alternate, "DUPLICATE_NODE");
    assert_eq!(
        rejections,
        vec!["RECORD_OUTSIDE_TRANSACTION"; 2],
        "the data and commit after the second node"
    );
    assert_eq!(rt.committed().revision, 1);
    // A transaction with no failure so far stays open and commits.
    let (_, alternate, _) = run(
        Choices::only(&[Choice::RuiFailAtRecord]),
        &second(&[json!(["data", 0, "/s", "y"])]),
    );
    assert_eq!(alternate, "committed 2");
}

#[test]
fn an_unreachable_cycle_commits_or_fails_graph_cycle() {
    let body = [
        json!(["node", 0, "u", "Box", {}, ["v"]]),
        json!(["node", 0, "v", "Box", {}, ["u"]]),
    ];
    let (_, default, _) = run(Choices::default(), &second(&body));
    assert_eq!(default, "committed 2");
    let (_, alternate, _) = run(
        Choices::only(&[Choice::RuiUnreachableCycleFails]),
        &second(&body),
    );
    assert_eq!(alternate, "GRAPH_CYCLE");
    // Shared children are no cycle in either reading.
    let shared = [
        json!(["node", 0, "u", "Box", {}, ["w"]]),
        json!(["node", 0, "v", "Box", {}, ["u", "w"]]),
        json!(["node", 0, "w", "Box", {}, []]),
    ];
    let (_, alternate, _) = run(
        Choices::only(&[Choice::RuiUnreachableCycleFails]),
        &second(&shared),
    );
    assert_eq!(alternate, "committed 2");
}

#[test]
fn data_under_a_scalar_parent_is_parent_missing_or_pointer_invalid() {
    let body = [json!(["data", 0, "/s/x", 1])];
    let (_, default, _) = run(Choices::default(), &second(&body));
    assert_eq!(default, "DATA_PARENT_MISSING");
    let (_, alternate, _) = run(
        Choices::only(&[Choice::RuiScalarParentPointerInvalid]),
        &second(&body),
    );
    assert_eq!(alternate, "POINTER_INVALID");
    // A parent that does not exist at all stays DATA_PARENT_MISSING.
    let (_, alternate, _) = run(
        Choices::only(&[Choice::RuiScalarParentPointerInvalid]),
        &second(&[json!(["data", 0, "/no/x", 1])]),
    );
    assert_eq!(alternate, "DATA_PARENT_MISSING");
}

#[test]
fn deleting_the_whole_document_is_refused_or_resets_it() {
    let body = [json!(["delete", 0, "data", ""])];
    let (_, default, _) = run(Choices::default(), &second(&body));
    assert_eq!(default, "POINTER_INVALID");
    let (rt, alternate, _) = run(
        Choices::only(&[Choice::RuiDeleteDocumentResets]),
        &second(&body),
    );
    assert_eq!(alternate, "committed 2");
    assert_eq!(rt.committed().data, json!({}));
}

#[test]
fn data_at_an_arrays_length_appends_or_is_refused() {
    let body = [json!(["data", 0, "/list/2", 3])];
    let (rt, default, _) = run(Choices::default(), &second(&body));
    assert_eq!(default, "committed 2");
    assert_eq!(rt.committed().data["list"], json!([1, 2, 3]));
    let (_, alternate, _) = run(
        Choices::only(&[Choice::RuiIndexAtLengthRefused]),
        &second(&body),
    );
    assert_eq!(alternate, "POINTER_INVALID");
    // Replacing an element that exists is unchanged, and '-' still follows rui-array-append.
    let (_, alternate, _) = run(
        Choices::only(&[Choice::RuiIndexAtLengthRefused]),
        &second(&[json!(["data", 0, "/list/1", 3])]),
    );
    assert_eq!(alternate, "committed 2");
    let both_rows = Choices::only(&[Choice::RuiIndexAtLengthRefused, Choice::RuiArrayAppend]);
    let (rt, alternate, _) = run(both_rows, &second(&[json!(["data", 0, "/list/-", 3])]));
    assert_eq!(alternate, "committed 2");
    assert_eq!(rt.committed().data["list"], json!([1, 2, 3]));
}
