//! `conformance validate` (issue 15 §3): checks what a Rixx UI producer wrote, judging the stream
//! as a consumer would. The reference's own decoder and runtime (`reference::rui`) read it:
//! framing (CL-D07), record shapes (CL-D01), sequence numbers, transactions and revisions (CL-D02,
//! CL-D09), graph invariants, catalog and props (CL-D06), limits (CL-D04) and recovery (CL-D05).
//! Every violation is reported as soon as it is decided, with its position (frame index, and the
//! transaction id for a transaction's rejection), its stable code (CL-D08) and the register
//! entries that define the code; then a summary. Exit 0: clean; 1: violations; 2: bad usage, or
//! an input that could not be read to its end (the partial summary is still printed).
//!
//! Constant memory on a stream of any length: the [`Validator`] hands each result to a sink and
//! makes the runtime forget it (`Runtime::forget_results`), and input is read in bounded chunks
//! (`input.rs`) or message by message (`live.rs`). What stays is the committed snapshot, the open
//! transaction (both bounded by the limits) and the frame being decoded.

pub mod generate;
mod held;
mod input;
pub mod live;

pub use input::{read_messages, read_stream};

use crate::escape::terminal;
use reference::rui::{ActionPolicy, Catalog, Config, Framing, Limits, Runtime, TransactionOutcome};
use serde_json::{json, Value};

/// One problem found in the stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The 0-based index of the frame that showed it (for a transaction interrupted by the end of
    /// the stream: the number of frames received).
    pub frame: u64,
    /// The transaction a rejection ended.
    pub transaction: Option<String>,
    pub code: &'static str,
    /// What kind of failure it is: a quarantined frame, a record rejected outside a transaction,
    /// or a rejected transaction.
    pub kind: &'static str,
}

impl Violation {
    /// `frame N` or `frame N, transaction ID`.
    pub fn position(&self) -> String {
        match &self.transaction {
            Some(id) => format!("frame {}, transaction {id}", self.frame),
            None => format!("frame {}", self.frame),
        }
    }

    /// The register entries (`vectors/requirements.json`) that define this code.
    pub fn requirements(&self) -> &'static [&'static str] {
        requirements_of(self.code)
    }

    pub fn to_json(&self) -> Value {
        let mut v = json!({ "frame": self.frame, "kind": self.kind, "code": self.code, "requirements": self.requirements() });
        if let Some(id) = &self.transaction {
            v["transactionId"] = json!(id);
        }
        v
    }

    pub fn to_text(&self) -> String {
        format!("{}: {} {} ({})", self.position(), self.kind, self.code, self.requirements().join(", "))
    }
}

/// The register entries that list each code (`codes` in `vectors/requirements.json`; a unit test
/// keeps this table equal to the register).
const CODE_REQUIREMENTS: &[(&str, &[&str])] = &[
    ("FRAME_NOT_JSON", &["PRJ-RUI-FRAME-01", "PRJ-RUI-FRAME-14"]),
    ("FRAME_TRUNCATED", &["PRJ-RUI-FRAME-02", "PRJ-RUI-FRAME-13", "PRJ-RUI-FRAME-14"]),
    ("RECORD_OUTSIDE_TRANSACTION", &["PRJ-RUI-REC-01"]),
    ("RECORD_INVALID", &["PRJ-RUI-REC-02", "PRJ-RUI-DATA-02"]),
    ("UNKNOWN_OPERATION", &["PRJ-RUI-REC-03"]),
    ("SEQUENCE_GAP", &["PRJ-RUI-TX-01"]),
    ("STALE_BASE_REVISION", &["PRJ-RUI-TX-02"]),
    ("REVISION_MISMATCH", &["PRJ-RUI-TX-03"]),
    ("FRAME_INVALID", &["PRJ-RUI-TX-04"]),
    ("INTERRUPTED", &["PRJ-RUI-TX-05"]),
    ("SUPERSEDED_BY_BEGIN", &["PRJ-RUI-TX-06"]),
    ("DUPLICATE_NODE", &["PRJ-RUI-GRAPH-01"]),
    ("ROOT_MISSING", &["PRJ-RUI-GRAPH-02"]),
    ("CHILD_UNRESOLVED", &["PRJ-RUI-GRAPH-03"]),
    ("GRAPH_CYCLE", &["PRJ-RUI-GRAPH-04"]),
    ("DUPLICATE_CHILD", &["PRJ-RUI-GRAPH-05"]),
    ("LIMIT_ID_LENGTH", &["PRJ-RUI-LIMIT-01"]),
    ("LIMIT_STRING_LENGTH", &["PRJ-RUI-LIMIT-02"]),
    ("LIMIT_ARRAY_LENGTH", &["PRJ-RUI-LIMIT-03"]),
    ("LIMIT_DEPTH", &["PRJ-RUI-LIMIT-04", "PRJ-RUI-LIMIT-12"]),
    ("LIMIT_OPERATIONS", &["PRJ-RUI-LIMIT-05"]),
    ("LIMIT_TRANSACTION_BYTES", &["PRJ-RUI-LIMIT-06"]),
    ("UNKNOWN_COMPONENT", &["PRJ-RUI-CAT-01"]),
    ("PROPS_INVALID", &["PRJ-RUI-CAT-02"]),
    ("CHILDREN_NOT_ALLOWED", &["PRJ-RUI-CAT-03"]),
    ("DATA_PARENT_MISSING", &["PRJ-RUI-DATA-01"]),
    ("POINTER_INVALID", &["PRJ-RUI-DATA-02", "PRJ-RUI-DATA-06"]),
    ("DELETE_ABSENT", &["PRJ-RUI-DATA-03"]),
];

fn requirements_of(code: &str) -> &'static [&'static str] {
    CODE_REQUIREMENTS.iter().find(|(c, _)| *c == code).map(|(_, r)| *r).unwrap_or(&[])
}

/// Why reading stopped.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Stop {
    /// The stream ended (end of file, the server closed it): judged whole.
    #[default]
    End,
    /// `--max-seconds` passed (live mode): a stop condition, not a violation; a transaction still
    /// open is neither committed nor interrupted.
    Deadline,
    /// The input could not be read to its end (a stall, a reset, garbage where HTTP or WebSocket
    /// was expected, a malformed message file): what was read so far is judged, and the run exits 2.
    Error(String),
}

/// What validating a stream found so far (violations are counted here and handed to the sink).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Bytes of a byte stream, or of all messages together.
    pub bytes: u64,
    /// WebSocket messages (0 for a byte stream).
    pub messages: u64,
    pub frames: u64,
    pub committed: u64,
    pub rejected: u64,
    pub aborted: u64,
    pub quarantined: u64,
    pub rejected_records: u64,
    pub violations: u64,
    pub final_revision: u64,
    /// A transaction was still open when reading stopped at the deadline or on an error.
    pub open_transaction: bool,
    pub stop: Stop,
}

impl Summary {
    pub fn to_json(&self) -> Value {
        let mut summary = json!({
            "bytes": self.bytes, "messages": self.messages, "frames": self.frames,
            "committed": self.committed, "rejected": self.rejected, "aborted": self.aborted,
            "quarantined": self.quarantined, "rejectedRecords": self.rejected_records,
            "violations": self.violations, "finalRevision": self.final_revision,
            "openTransaction": self.open_transaction,
            "stoppedBy": match self.stop { Stop::End => "end", Stop::Deadline => "max-seconds", Stop::Error(_) => "error" },
        });
        if let Stop::Error(message) = &self.stop {
            summary["error"] = json!(message);
        }
        summary
    }

    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{} bytes{}, {} frames; transactions: {} committed, {} rejected, {} aborted; final revision {}; {} violation(s)",
            self.bytes,
            if self.messages > 0 { format!(" in {} messages", self.messages) } else { String::new() },
            self.frames,
            self.committed,
            self.rejected,
            self.aborted,
            self.final_revision,
            self.violations
        );
        match &self.stop {
            Stop::End => {}
            Stop::Deadline => out.push_str("; stopped at --max-seconds"),
            Stop::Error(message) => out.push_str(&format!("; stopped early: {message}")),
        }
        if self.open_transaction {
            out.push_str(" (a transaction was still open)");
        }
        out.push('\n');
        out
    }

    /// 0 clean, 1 violations, 2 the input could not be read to its end.
    pub fn exit_code(&self) -> u8 {
        match (&self.stop, self.violations) {
            (Stop::Error(_), _) => 2,
            (_, 0) => 0,
            _ => 1,
        }
    }
}

/// Why validation could not start (exit 2, nothing read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

/// Builds the consumer runtime: the framing by name, the catalog and optional limits as the
/// vector format writes them (`setup.catalog`, `setup.limits`).
pub fn runtime(framing: &str, catalog: &Value, limits: Option<&Value>) -> Result<Runtime, UsageError> {
    let framing = Framing::from_name(framing)
        .ok_or_else(|| UsageError(format!("unknown framing '{framing}' (jsonl, sse, websocket, json-seq)")))?;
    let catalog = Catalog::from_json(catalog).map_err(|e| UsageError(format!("the catalog is not a valid catalog: {e:?}")))?;
    let limits = match limits {
        Some(limits) => Limits::from_json(limits).map_err(|e| UsageError(format!("the limits are not a limits profile: {e}")))?,
        None => Limits::default(),
    };
    Ok(Runtime::new(Config { framing, catalog, limits, action_policy: ActionPolicy::Gated, choices: Default::default() }))
}

/// The streaming judge: input goes in piece by piece, each violation goes to the sink as soon as
/// the runtime decides it, and nothing decided is kept.
pub struct Validator {
    runtime: Runtime,
    summary: Summary,
    found: Vec<Violation>,
    trail: Option<Trail>,
    /// The bytes the decoder holds for a frame not yet ended (`held.rs`).
    held: held::Held,
}

/// The longest frame the validator holds while decoding it (the decoder keeps a frame's bytes
/// until its delimiter arrives). A frame still open past it stops the stream with an error rather
/// than growing without bound; blank separators and SSE comments between frames are not part of
/// one and never count. WebSocket messages and frames have the same bound (`live.rs`), as do the
/// lines of the message file (`input.rs`).
pub const MAX_FRAME_BYTES: u64 = 64 << 20;

/// Every result so far in the vector format's observation forms (`transactions`, `quarantine`,
/// `rejections`; vectors/README.md), kept only on request ([`Validator::keep_trail`]): for judging
/// the validator against a vector's expectations. It grows with the stream.
#[derive(Debug, Clone, Default)]
pub struct Trail {
    pub transactions: Vec<Value>,
    pub quarantine: Vec<Value>,
    pub rejections: Vec<Value>,
}

impl Validator {
    pub fn new(runtime: Runtime) -> Validator {
        let held = held::Held::new(runtime.framing());
        Validator { runtime, summary: Summary::default(), found: Vec::new(), trail: None, held }
    }

    /// Keeps every result from now on (see [`Trail`]); memory then grows with the stream.
    pub fn keep_trail(&mut self) {
        self.trail.get_or_insert_with(Trail::default);
    }

    pub fn trail(&self) -> Option<&Trail> {
        self.trail.as_ref()
    }

    /// Frames received so far.
    pub fn frames(&self) -> u64 {
        self.runtime.frames_received()
    }

    /// The committed revision now.
    pub fn revision(&self) -> u64 {
        self.runtime.committed().revision
    }

    pub fn framing(&self) -> Framing {
        self.runtime.framing()
    }

    /// The next chunk of a byte stream (JSONL, SSE, JSON text sequences).
    pub fn bytes(&mut self, chunk: &[u8], sink: &mut dyn FnMut(&Violation)) -> Result<(), UsageError> {
        self.runtime.feed(chunk).map_err(|e| UsageError(e.to_string()))?;
        self.summary.bytes += chunk.len() as u64;
        self.collect(sink);
        let held = self.held.push(chunk);
        if held > MAX_FRAME_BYTES {
            return Err(UsageError(format!(
                "a frame not ended after {} bytes: longer than the validator holds ({} MiB)",
                held,
                MAX_FRAME_BYTES >> 20
            )));
        }
        Ok(())
    }

    /// One whole WebSocket message.
    pub fn message(&mut self, message: &[u8], sink: &mut dyn FnMut(&Violation)) -> Result<(), UsageError> {
        self.runtime.feed_message(message).map_err(|e| UsageError(e.to_string()))?;
        self.summary.bytes += message.len() as u64;
        self.summary.messages += 1;
        self.collect(sink);
        Ok(())
    }

    /// The stream ended: a frame still held is truncated and an open transaction interrupted.
    pub fn end(&mut self, sink: &mut dyn FnMut(&Violation)) {
        self.runtime.end();
        self.collect(sink);
    }

    /// The summary so far, with how reading stopped.
    pub fn finish(mut self, stop: Stop) -> Summary {
        self.summary.final_revision = self.runtime.committed().revision;
        self.summary.frames = self.runtime.frames_received();
        self.summary.open_transaction = self.runtime.has_open_transaction();
        self.summary.stop = stop;
        self.summary
    }

    /// Hands the results decided since the last call to the sink, in frame order (a quarantined
    /// frame or rejected record before the transaction it ended), and forgets them.
    fn collect(&mut self, sink: &mut dyn FnMut(&Violation)) {
        let summary = &mut self.summary;
        let found = &mut self.found;
        for q in self.runtime.quarantine() {
            summary.quarantined += 1;
            found.push(Violation { frame: q.frame, transaction: None, code: q.code.as_str(), kind: "quarantined frame" });
        }
        for r in self.runtime.rejections() {
            summary.rejected_records += 1;
            found.push(Violation { frame: r.frame, transaction: None, code: r.code.as_str(), kind: "record rejected outside a transaction" });
        }
        for t in self.runtime.transactions() {
            match &t.outcome {
                TransactionOutcome::Committed { .. } => summary.committed += 1,
                TransactionOutcome::Aborted => summary.aborted += 1,
                TransactionOutcome::Rejected(code) => {
                    summary.rejected += 1;
                    found.push(Violation {
                        frame: t.frame,
                        transaction: Some(t.transaction_id.clone()),
                        code: code.as_str(),
                        kind: "rejected transaction",
                    });
                }
            }
        }
        if let Some(trail) = &mut self.trail {
            trail.quarantine.extend(self.runtime.quarantine().iter().map(|q| json!({ "frame": q.frame, "code": q.code.as_str() })));
            trail.rejections.extend(self.runtime.rejections().iter().map(|r| json!({ "frame": r.frame, "code": r.code.as_str() })));
            trail.transactions.extend(self.runtime.transactions().iter().map(|t| match t.outcome {
                TransactionOutcome::Committed { revision } => json!({ "transactionId": t.transaction_id, "result": "committed", "revision": revision }),
                TransactionOutcome::Aborted => json!({ "transactionId": t.transaction_id, "result": "aborted" }),
                TransactionOutcome::Rejected(code) => json!({ "transactionId": t.transaction_id, "result": "rejected", "code": code.as_str() }),
            }));
        }
        self.runtime.forget_results();
        // Stable: within one frame, the frame's own result comes before the transaction it ended.
        found.sort_by_key(|v| (v.frame, v.transaction.is_some()));
        summary.violations += found.len() as u64;
        for violation in found.drain(..) {
            sink(&violation);
        }
    }
}

/// Writes violations as they are found and the summary at the end, as text lines or as one JSON
/// document (`{"violations": [...], "summary": {...}}`) written incrementally, so nothing is kept.
/// Both go through `escape::terminal`: a transaction id or a value of the stream reaches the
/// terminal as text (in JSON, the `\uXXXX` it writes is the same character again).
pub struct Reporter<W: std::io::Write> {
    out: W,
    json: bool,
    written: u64,
}

impl<W: std::io::Write> Reporter<W> {
    pub fn new(mut out: W, json: bool) -> Reporter<W> {
        if json {
            let _ = out.write_all(b"{\"violations\":[");
        }
        Reporter { out, json, written: 0 }
    }

    pub fn violation(&mut self, violation: &Violation) {
        let _ = if self.json {
            let separator = if self.written == 0 { "\n" } else { ",\n" };
            write!(self.out, "{separator}{}", terminal(&violation.to_json().to_string()))
        } else {
            writeln!(self.out, "{}", terminal(&violation.to_text()))
        };
        self.written += 1;
    }

    pub fn summary(mut self, summary: &Summary) -> W {
        let _ = if self.json {
            writeln!(self.out, "\n],\"summary\":{}}}", terminal(&summary.to_json().to_string()))
        } else {
            write!(self.out, "{}", terminal(&summary.to_text()))
        };
        let _ = self.out.flush();
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> Value {
        json!({ "id": "demo@1.0.0", "components": {
            "Stack": { "props": { "type": "object" }, "children": true },
            "Text": { "props": { "type": "object", "properties": { "text": { "type": "string" } }, "required": ["text"] }, "children": false }
        } })
    }

    fn check(framing: &str, stream: &str) -> (Vec<Violation>, Summary) {
        let mut validator = Validator::new(runtime(framing, &catalog(), None).expect("a runtime"));
        let mut found = Vec::new();
        let stop = read_stream(&mut validator, &mut stream.as_bytes(), &mut |v| found.push(v.clone()));
        (found, validator.finish(stop))
    }

    #[test]
    fn a_valid_stream_has_no_violation() {
        let stream = "[\"begin\",0,\"t1\",0]\n[\"node\",1,\"r\",\"Stack\",{},[\"a\"]]\n[\"node\",2,\"a\",\"Text\",{\"text\":\"hi\"},[]]\n[\"commit\",3,1,\"r\"]\n";
        let (found, summary) = check("jsonl", stream);
        assert!(found.is_empty(), "{found:?}");
        assert_eq!((summary.committed, summary.final_revision, summary.frames, summary.exit_code()), (1, 1, 4, 0));
        let sse: String = stream.lines().map(|l| format!("data: {l}\n\n")).collect();
        assert!(check("sse", &sse).0.is_empty());
        let seq: String = stream.lines().map(|l| format!("\u{1e}{l}\n")).collect();
        assert!(check("json-seq", &seq).0.is_empty());
    }

    #[test]
    fn each_kind_of_violation_is_reported_in_frame_order_with_its_position_code_and_requirement() {
        let stream = "not json\n[\"node\",1,\"x\",\"Stack\",{},[]]\n[\"begin\",0,\"t1\",0]\n[\"node\",1,\"r\",\"Ghost\",{},[]]\n[\"commit\",2,1,\"r\"]\n[\"begin\",0,\"t2\",0]\n";
        let (found, summary) = check("jsonl", stream);
        let seen: Vec<(String, &str)> = found.iter().map(|v| (v.position(), v.code)).collect();
        assert_eq!(
            seen,
            vec![
                ("frame 0".to_string(), "FRAME_NOT_JSON"),
                ("frame 1".to_string(), "RECORD_OUTSIDE_TRANSACTION"),
                ("frame 4, transaction t1".to_string(), "UNKNOWN_COMPONENT"),
                ("frame 6, transaction t2".to_string(), "INTERRUPTED"),
            ]
        );
        assert_eq!(found[2].requirements(), ["PRJ-RUI-CAT-01"]);
        assert_eq!((summary.rejected, summary.violations, summary.final_revision, summary.exit_code()), (2, 4, 0, 1));
        assert_eq!(summary.to_json()["rejected"], json!(2));
    }

    #[test]
    fn a_quarantined_frame_comes_before_the_transaction_it_discards() {
        let (found, _) = check("jsonl", "[\"begin\",0,\"t1\",0]\n{oops\n");
        let seen: Vec<(u64, &str)> = found.iter().map(|v| (v.frame, v.code)).collect();
        assert_eq!(seen, vec![(1, "FRAME_NOT_JSON"), (1, "FRAME_INVALID")]);
    }

    #[test]
    fn blank_separators_and_heartbeats_are_no_frame_however_many() {
        // 65 MiB of blank lines (JSONL), of SSE heartbeat comments and of empty lines (SSE), of
        // consecutive RS (JSON text sequences), then a frame: no error, the frame is judged.
        for (framing, filler, frame) in [
            ("jsonl", &b"\n"[..], &b"not json\n"[..]),
            ("sse", &b":\n"[..], &b"data: not json\n\n"[..]),
            ("sse", &b"\r\n"[..], &b"data: not json\n\n"[..]),
            ("json-seq", &b"\x1e"[..], &b"\x1enot json\n\x1e"[..]),
        ] {
            let mut validator = Validator::new(runtime(framing, &catalog(), None).unwrap());
            let chunk = filler.repeat((1 << 20) / filler.len());
            for _ in 0..65 {
                validator.bytes(&chunk, &mut |_| {}).unwrap_or_else(|e| panic!("{framing}: {e:?}"));
            }
            let mut found = Vec::new();
            validator.bytes(frame, &mut |v| found.push(v.clone())).unwrap();
            assert_eq!(found.len(), 1, "{framing}: {found:?}");
            assert_eq!(validator.frames(), 1, "{framing}");
        }
    }

    #[test]
    fn a_stream_without_frame_boundaries_stops_with_an_error_instead_of_growing() {
        let mut validator = Validator::new(runtime("jsonl", &catalog(), None).unwrap());
        let chunk = vec![b'x'; 1 << 20];
        let mut fed = 0;
        let error = loop {
            match validator.bytes(&chunk, &mut |_| {}) {
                Ok(()) => fed += 1,
                Err(e) => break e,
            }
            assert!(fed <= 65, "never stopped");
        };
        assert_eq!(fed, 64);
        assert!(error.0.contains("a frame not ended after"), "{error:?}");
        // Frames keep the count at zero however long the stream is.
        let mut validator = Validator::new(runtime("jsonl", &catalog(), None).unwrap());
        for _ in 0..100 {
            validator.bytes(&chunk, &mut |_| {}).unwrap();
            validator.bytes(b"\n", &mut |_| {}).unwrap();
        }
    }

    #[test]
    fn bad_usage_is_refused_before_reading() {
        assert!(runtime("xml", &catalog(), None).is_err());
        assert!(runtime("jsonl", &json!({ "id": "no-version" }), None).is_err());
        assert!(runtime("jsonl", &catalog(), Some(&json!({ "maxDepth": "deep" }))).is_err());
    }

    #[test]
    fn the_json_report_is_one_document_written_as_it_goes() {
        let mut validator = Validator::new(runtime("jsonl", &catalog(), None).unwrap());
        let mut reporter = Reporter::new(Vec::new(), true);
        let stop = read_stream(&mut validator, &mut &b"x\ny\n"[..], &mut |v| reporter.violation(v));
        let out = reporter.summary(&validator.finish(stop));
        let report: Value = serde_json::from_slice(&out).expect("one JSON document");
        assert_eq!(report["violations"].as_array().map(Vec::len), Some(2));
        assert_eq!(report["summary"]["stoppedBy"], "end");
    }

    #[test]
    fn the_code_table_is_the_registers() {
        let text = std::fs::read_to_string(crate::bundled_vectors().join("requirements.json")).unwrap();
        let register: Value = serde_json::from_str(&text).unwrap();
        let mut expected: std::collections::BTreeMap<String, Vec<String>> = Default::default();
        for requirement in register["requirements"].as_array().unwrap() {
            for code in requirement["codes"].as_array().into_iter().flatten() {
                expected.entry(code.as_str().unwrap().into()).or_default().push(requirement["id"].as_str().unwrap().into());
            }
        }
        // Dispatch results (CL-D06-6) are not stream violations.
        for dispatch in ["POLICY_DENIED", "ACTION_NOT_FOUND", "POLICY_EVALUATION_FAILED"] {
            expected.remove(dispatch);
        }
        let table: std::collections::BTreeMap<String, Vec<String>> = CODE_REQUIREMENTS
            .iter()
            .map(|(c, r)| (c.to_string(), r.iter().map(|s| s.to_string()).collect()))
            .collect();
        assert_eq!(table, expected);
    }
}
