//! `conformance validate` (issue 15 §3, file and stdin mode): checks what a Rixx UI producer
//! wrote, judging the stream as a consumer would. The reference's own decoder and runtime
//! (`reference::rui`) read it in 64 KiB chunks: framing (CL-D07), record shapes (CL-D01),
//! sequence numbers, transactions and revisions (CL-D02, CL-D09), graph invariants, catalog and
//! props (CL-D06), limits (CL-D04) and recovery (CL-D05). Every violation is reported with its
//! frame index (or transaction id), its stable code (CL-D08) and the register entry that defines
//! the code; then a summary. Exit 0: clean; 1: violations; 2: bad usage or unreadable input.
//!
//! Live mode (`--url`, SSE and WebSocket endpoints) is not built yet; a WebSocket stream has no
//! file form (its frames are messages), so `--framing websocket` is refused here with that reason.

use std::io::Read;

use reference::rui::{
    ActionPolicy, Catalog, Config, Framing, Limits, Runtime, TransactionOutcome,
};
use serde_json::{json, Value};

/// One problem found in the stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// `frame N` or `transaction ID`.
    pub position: String,
    pub code: String,
    /// What kind of failure it is: a quarantined frame, a record rejected outside a transaction,
    /// a rejected transaction, or a stream that ended inside one.
    pub kind: &'static str,
}

/// What validating a stream found.
#[derive(Debug, Clone, Default)]
pub struct Findings {
    pub violations: Vec<Violation>,
    pub bytes: u64,
    pub committed: usize,
    pub rejected: usize,
    pub aborted: usize,
    pub final_revision: u64,
}

impl Findings {
    pub fn to_json(&self) -> Value {
        json!({
            "violations": self.violations.iter().map(|v| json!({
                "position": v.position, "kind": v.kind, "code": v.code
            })).collect::<Vec<_>>(),
            "summary": {
                "bytes": self.bytes, "committed": self.committed, "rejected": self.rejected,
                "aborted": self.aborted, "finalRevision": self.final_revision
            }
        })
    }

    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for v in &self.violations {
            out.push_str(&format!("{}: {} {}\n", v.position, v.kind, v.code));
        }
        out.push_str(&format!(
            "{} bytes; transactions: {} committed, {} rejected, {} aborted; final revision {}; {} violation(s)\n",
            self.bytes,
            self.committed,
            self.rejected,
            self.aborted,
            self.final_revision,
            self.violations.len()
        ));
        out
    }
}

/// Why validation could not start or read its input (exit 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

/// Builds the consumer runtime: the framing by name, the catalog and optional limits as the
/// vector format writes them (`setup.catalog`, `setup.limits`).
pub fn runtime(framing: &str, catalog: &Value, limits: Option<&Value>) -> Result<Runtime, UsageError> {
    let framing = Framing::from_name(framing)
        .ok_or_else(|| UsageError(format!("unknown framing '{framing}' (jsonl, sse, json-seq)")))?;
    if !framing.is_stream() {
        return Err(UsageError(
            "a websocket stream is a sequence of messages and has no file form; --url (live mode) is not built yet".into(),
        ));
    }
    let catalog = Catalog::from_json(catalog).map_err(|e| UsageError(format!("the catalog is not a valid catalog: {e:?}")))?;
    let limits = match limits {
        Some(limits) => Limits::from_json(limits).map_err(|e| UsageError(format!("the limits are not a limits profile: {e}")))?,
        None => Limits::default(),
    };
    Ok(Runtime::new(Config {
        framing,
        catalog,
        limits,
        action_policy: ActionPolicy::Gated,
        choices: Default::default(),
    }))
}

/// Reads `input` to its end in 64 KiB chunks through `runtime`, then judges what it recorded.
pub fn validate(mut runtime: Runtime, input: &mut dyn Read) -> Result<Findings, UsageError> {
    let mut buffer = vec![0u8; 64 * 1024];
    let mut bytes = 0u64;
    loop {
        let read = match input.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(UsageError(format!("cannot read the stream: {e}"))),
        };
        bytes += read as u64;
        runtime
            .feed(&buffer[..read])
            .map_err(|_| UsageError("the runtime refused a byte chunk".into()))?;
    }
    runtime.end();
    let mut findings = Findings { bytes, final_revision: runtime.committed().revision, ..Findings::default() };
    for q in runtime.quarantine() {
        findings.violations.push(Violation { position: format!("frame {}", q.frame), code: q.code.as_str().into(), kind: "quarantined frame" });
    }
    for r in runtime.rejections() {
        findings.violations.push(Violation { position: format!("frame {}", r.frame), code: r.code.as_str().into(), kind: "record outside a transaction" });
    }
    for t in runtime.transactions() {
        match &t.outcome {
            TransactionOutcome::Committed { .. } => findings.committed += 1,
            TransactionOutcome::Aborted => findings.aborted += 1,
            TransactionOutcome::Rejected(code) => {
                findings.rejected += 1;
                findings.violations.push(Violation {
                    position: format!("transaction {}", t.transaction_id),
                    code: code.as_str().into(),
                    kind: "rejected transaction",
                });
            }
        }
    }
    Ok(findings)
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

    fn check(framing: &str, stream: &str) -> Findings {
        let runtime = runtime(framing, &catalog(), None).expect("a runtime");
        validate(runtime, &mut stream.as_bytes()).expect("readable")
    }

    #[test]
    fn a_valid_stream_has_no_violation() {
        let stream = "[\"begin\",0,\"t1\",0]\n[\"node\",1,\"r\",\"Stack\",{},[\"a\"]]\n[\"node\",2,\"a\",\"Text\",{\"text\":\"hi\"},[]]\n[\"commit\",3,1,\"r\"]\n";
        let findings = check("jsonl", stream);
        assert!(findings.violations.is_empty(), "{findings:?}");
        assert_eq!((findings.committed, findings.final_revision), (1, 1));
        let sse: String = stream.lines().map(|l| format!("data: {l}\n\n")).collect();
        assert!(check("sse", &sse).violations.is_empty());
        let seq: String = stream.lines().map(|l| format!("\u{1e}{l}\n")).collect();
        assert!(check("json-seq", &seq).violations.is_empty());
    }

    #[test]
    fn each_kind_of_violation_is_reported_with_its_position_and_code() {
        let stream = "not json\n[\"node\",1,\"x\",\"Stack\",{},[]]\n[\"begin\",0,\"t1\",0]\n[\"node\",1,\"r\",\"Ghost\",{},[]]\n[\"commit\",2,1,\"r\"]\n[\"begin\",0,\"t2\",0]\n";
        let findings = check("jsonl", stream);
        let codes: Vec<(&str, &str)> = findings.violations.iter().map(|v| (v.position.as_str(), v.code.as_str())).collect();
        assert_eq!(codes.len(), 4, "{codes:?}");
        assert_eq!(codes[0].0, "frame 0");
        assert_eq!(codes[1].0, "frame 1");
        assert!(codes.iter().any(|(p, c)| *p == "transaction t1" && *c == "UNKNOWN_COMPONENT"), "{codes:?}");
        assert!(codes.iter().any(|(p, _)| *p == "transaction t2"), "the stream ended inside t2: {codes:?}");
        assert_eq!(findings.final_revision, 0);
        assert_eq!(findings.to_json()["summary"]["rejected"], json!(2));
    }

    #[test]
    fn bad_usage_is_refused_before_reading() {
        assert!(runtime("websocket", &catalog(), None).is_err());
        assert!(runtime("xml", &catalog(), None).is_err());
        assert!(runtime("jsonl", &json!({ "id": "no-version" }), None).is_err());
        assert!(runtime("jsonl", &catalog(), Some(&json!({ "maxDepth": "deep" }))).is_err());
    }
}
