//! `conformance validate` (issue 15 §3): checks what a Rixx UI producer wrote, judging the stream
//! as a consumer would. The reference's own decoder and runtime (`reference::rui`) read it:
//! framing (CL-D07), record shapes (CL-D01), sequence numbers, transactions and revisions (CL-D02,
//! CL-D09), graph invariants, catalog and props (CL-D06), limits (CL-D04) and recovery (CL-D05).
//! Every violation is reported as soon as it is decided, with its position (frame index, and the
//! transaction id for a transaction's rejection), its stable code (CL-D08), its strictness and the
//! register entries behind it; then a summary.
//!
//! Strictness (issue 27 §6). The stream goes through two consumers: the reference with its
//! default readings, which take the RECOMMENDED reading of every open point, and a lenient one
//! taking the admissible readings that accept more (`LENIENT_ROWS`: a JSONL or json-seq text
//! without its final LF applied, an unfinished SSE event dropped, depth bounding values only, the
//! `-` index and the empty-pointer delete accepted). A violation both report is REQUIRED: every
//! admissible consumer rejects there (its entries: the REQUIRED and IMPL-DEFINED ones that list the
//! code). One only the default consumer reports is RECOMMENDED (its entries: the RECOMMENDED ones
//! that list the code, else those of the lenient readings, for what follows from one), and so is
//! one only the lenient consumer reports. A record that repeats a member name in one of its
//! objects is a RECOMMENDED finding of its own (PRJ-RUI-REC-06, RFC 8259 §4). The lenient consumer
//! reads only from where the default one finds something (issue 29 §3, `Lenient` below): the same
//! output at the cost of one consumer on a stream without violations.
//!
//! Exit 0: no REQUIRED violation (RECOMMENDED findings are reported; `--strict` makes them count);
//! 1: a REQUIRED violation; 2: bad usage, or an input that could not be read to its end (the
//! partial summary is still printed).
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
    /// a rejected transaction, or a record repeating a member name.
    pub kind: &'static str,
    /// `REQUIRED` or `RECOMMENDED` (see the module text).
    pub strictness: &'static str,
    /// The register entries behind it at its strictness, for the framing of the stream (filled
    /// when it is reported; see the module text).
    pub requirements: Vec<&'static str>,
}

/// The rows of the reference's choices table the lenient consumer takes: the admissible readings
/// under which a consumer accepts what the default (RECOMMENDED) reading rejects.
pub const LENIENT_ROWS: [&str; 6] = [
    "rui-jsonl-last-line-applied",
    "rui-sse-undispatched-dropped",
    "rui-json-seq-unterminated-applied",
    "rui-depth-values-only",
    "rui-array-append",
    "rui-delete-document-resets",
];

/// The RECOMMENDED entries whose other readings `LENIENT_ROWS` take in a stream of `framing`:
/// what a RECOMMENDED finding with no RECOMMENDED entry of its own (one that follows from such a
/// reading) cites.
fn lenient_readings(framing: Framing) -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = frame_reading(framing).into_iter().collect();
    ids.extend(["PRJ-RUI-LIMIT-12", "PRJ-RUI-DATA-06"]);
    ids
}

/// The RECOMMENDED entry that quarantines an unterminated last frame in `framing`.
fn frame_reading(framing: Framing) -> Option<&'static str> {
    match framing {
        Framing::Jsonl => Some("PRJ-RUI-FRAME-05"),
        Framing::Sse => Some("PRJ-RUI-FRAME-07"),
        Framing::JsonSeq => Some("PRJ-RUI-FRAME-13"),
        Framing::WebSocket => None,
    }
}

/// The entries behind a violation of `code` at `strictness` in a stream of `framing`.
fn requirements_for(code: &str, strictness: &str, framing: Framing) -> Vec<&'static str> {
    if code == REPEATED_MEMBER_NAME {
        return vec!["PRJ-RUI-REC-06"];
    }
    let recommended = strictness == RECOMMENDED;
    let readings = lenient_readings(framing);
    let own: Vec<&'static str> = requirements_of(code)
        .iter()
        .filter(|(id, level)| (*level == RECOMMENDED) == recommended && (!recommended || readings.contains(id)))
        .map(|(id, _)| *id)
        .collect();
    if own.is_empty() && recommended {
        // A transaction failed by a frame only the recommended reading quarantines.
        if code == "FRAME_INVALID" {
            return frame_reading(framing).into_iter().collect();
        }
        return readings;
    }
    own
}

/// The code of a record that repeats a member name: a finding of `validate` (PRJ-RUI-REC-06),
/// not a code a consumer reports, so it is in no register entry's `codes`.
pub const REPEATED_MEMBER_NAME: &str = "REPEATED_MEMBER_NAME";

pub const REQUIRED: &str = "REQUIRED";
pub const RECOMMENDED: &str = "RECOMMENDED";

impl Violation {
    /// `frame N` or `frame N, transaction ID`.
    pub fn position(&self) -> String {
        match &self.transaction {
            Some(id) => format!("frame {}, transaction {id}", self.frame),
            None => format!("frame {}", self.frame),
        }
    }

    /// The register entries (`vectors/requirements.json`) behind this violation at its strictness.
    pub fn requirements(&self) -> &[&'static str] {
        &self.requirements
    }

    /// Whether it makes the run exit 1: REQUIRED always, RECOMMENDED under `--strict`.
    pub fn counts(&self, strict: bool) -> bool {
        strict || self.strictness == REQUIRED
    }

    pub fn to_json(&self) -> Value {
        let mut v = json!({ "frame": self.frame, "kind": self.kind, "code": self.code, "strictness": self.strictness, "requirements": self.requirements() });
        if let Some(id) = &self.transaction {
            v["transactionId"] = json!(id);
        }
        v
    }

    pub fn to_text(&self) -> String {
        format!("{}: {} {} [{}] ({})", self.position(), self.kind, self.code, self.strictness, self.requirements().join(", "))
    }
}

/// The register entries that list each code, with their strictness (`codes` in
/// `vectors/requirements.json`; a unit test keeps this table equal to the register).
const CODE_REQUIREMENTS: &[(&str, &[(&str, &str)])] = &[
    ("FRAME_NOT_JSON", &[("PRJ-RUI-FRAME-01", "REQUIRED"), ("PRJ-RUI-FRAME-14", "IMPL-DEFINED")]),
    ("FRAME_TRUNCATED", &[("PRJ-RUI-FRAME-02", "REQUIRED"), ("PRJ-RUI-FRAME-05", "RECOMMENDED"), ("PRJ-RUI-FRAME-07", "RECOMMENDED"), ("PRJ-RUI-FRAME-13", "RECOMMENDED"), ("PRJ-RUI-FRAME-14", "IMPL-DEFINED")]),
    ("RECORD_OUTSIDE_TRANSACTION", &[("PRJ-RUI-REC-01", "REQUIRED")]),
    ("RECORD_INVALID", &[("PRJ-RUI-REC-02", "REQUIRED"), ("PRJ-RUI-DATA-02", "IMPL-DEFINED")]),
    ("UNKNOWN_OPERATION", &[("PRJ-RUI-REC-03", "REQUIRED")]),
    ("SEQUENCE_GAP", &[("PRJ-RUI-TX-01", "REQUIRED")]),
    ("STALE_BASE_REVISION", &[("PRJ-RUI-TX-02", "REQUIRED")]),
    ("REVISION_MISMATCH", &[("PRJ-RUI-TX-03", "REQUIRED")]),
    ("FRAME_INVALID", &[("PRJ-RUI-TX-04", "REQUIRED")]),
    ("INTERRUPTED", &[("PRJ-RUI-TX-05", "REQUIRED")]),
    ("SUPERSEDED_BY_BEGIN", &[("PRJ-RUI-TX-06", "REQUIRED")]),
    ("DUPLICATE_NODE", &[("PRJ-RUI-GRAPH-01", "REQUIRED")]),
    ("ROOT_MISSING", &[("PRJ-RUI-GRAPH-02", "REQUIRED")]),
    ("CHILD_UNRESOLVED", &[("PRJ-RUI-GRAPH-03", "REQUIRED")]),
    ("GRAPH_CYCLE", &[("PRJ-RUI-GRAPH-04", "REQUIRED")]),
    ("DUPLICATE_CHILD", &[("PRJ-RUI-GRAPH-05", "REQUIRED")]),
    ("LIMIT_ID_LENGTH", &[("PRJ-RUI-LIMIT-01", "REQUIRED")]),
    ("LIMIT_STRING_LENGTH", &[("PRJ-RUI-LIMIT-02", "REQUIRED")]),
    ("LIMIT_ARRAY_LENGTH", &[("PRJ-RUI-LIMIT-03", "REQUIRED")]),
    ("LIMIT_DEPTH", &[("PRJ-RUI-LIMIT-04", "REQUIRED"), ("PRJ-RUI-LIMIT-12", "RECOMMENDED")]),
    ("LIMIT_OPERATIONS", &[("PRJ-RUI-LIMIT-05", "REQUIRED")]),
    ("LIMIT_TRANSACTION_BYTES", &[("PRJ-RUI-LIMIT-06", "REQUIRED")]),
    ("UNKNOWN_COMPONENT", &[("PRJ-RUI-CAT-01", "REQUIRED")]),
    ("PROPS_INVALID", &[("PRJ-RUI-CAT-02", "REQUIRED")]),
    ("CHILDREN_NOT_ALLOWED", &[("PRJ-RUI-CAT-03", "REQUIRED")]),
    ("DATA_PARENT_MISSING", &[("PRJ-RUI-DATA-01", "REQUIRED")]),
    ("POINTER_INVALID", &[("PRJ-RUI-DATA-02", "IMPL-DEFINED"), ("PRJ-RUI-DATA-06", "RECOMMENDED")]),
    ("DELETE_ABSENT", &[("PRJ-RUI-DATA-03", "REQUIRED")]),
];

fn requirements_of(code: &str) -> &'static [(&'static str, &'static str)] {
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
    /// Of the violations: REQUIRED ones, and RECOMMENDED findings.
    pub required: u64,
    pub recommended: u64,
    /// `--strict`: RECOMMENDED findings count toward the exit code.
    pub strict: bool,
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
            "violations": self.violations, "required": self.required, "recommended": self.recommended, "strict": self.strict,
            "finalRevision": self.final_revision,
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
            "{} bytes{}, {} frames; transactions: {} committed, {} rejected, {} aborted; final revision {}; {} violation(s): {} REQUIRED, {} RECOMMENDED{}",
            self.bytes,
            if self.messages > 0 { format!(" in {} messages", self.messages) } else { String::new() },
            self.frames,
            self.committed,
            self.rejected,
            self.aborted,
            self.final_revision,
            self.violations,
            self.required,
            self.recommended,
            if self.strict { " (--strict: RECOMMENDED findings count)" } else { "" }
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

    /// 0: no REQUIRED violation (RECOMMENDED findings too under `--strict`); 1: one; 2: the input
    /// could not be read to its end.
    pub fn exit_code(&self) -> u8 {
        let counted = if self.strict { self.violations } else { self.required };
        match (&self.stop, counted) {
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
    consumer(framing, catalog, limits, Default::default())
}

/// The validator `conformance validate` runs: the default consumer, noting repeated member
/// names, beside the lenient one (`LENIENT_ROWS`) that tells REQUIRED violations from
/// RECOMMENDED findings; `strict`: RECOMMENDED findings count toward the exit code.
pub fn validator(framing: &str, catalog: &Value, limits: Option<&Value>, strict: bool) -> Result<Validator, UsageError> {
    let mut default = runtime(framing, catalog, limits)?;
    default.note_repeated_names();
    let rows = reference::choices::Choices::parse(&format!("rows:{}", LENIENT_ROWS.join(",")))
        .map_err(|e| UsageError(format!("the lenient readings: {e}")))?;
    let lenient = consumer(framing, catalog, limits, rows)?;
    let mut validator = Validator::new(default);
    validator.lenient = Some(Lenient { runtime: lenient, following: false, throughout: false, replay: Replay::default(), checkpoint_after: CHECKPOINT_AFTER });
    validator.summary.strict = strict;
    Ok(validator)
}

fn consumer(framing: &str, catalog: &Value, limits: Option<&Value>, choices: reference::choices::Choices) -> Result<Runtime, UsageError> {
    let framing = Framing::from_name(framing)
        .ok_or_else(|| UsageError(format!("unknown framing '{framing}' (jsonl, sse, websocket, json-seq)")))?;
    let catalog = Catalog::from_json(catalog).map_err(|e| UsageError(format!("the catalog is not a valid catalog: {e:?}")))?;
    let limits = match limits {
        Some(limits) => Limits::from_json(limits).map_err(|e| UsageError(format!("the limits are not a limits profile: {e}")))?,
        None => Limits::default(),
    };
    Ok(Runtime::new(Config { framing, catalog, limits, action_policy: ActionPolicy::Gated, choices }))
}

/// The streaming judge: input goes in piece by piece, each violation goes to the sink as soon as
/// the runtime decides it, and nothing decided is kept.
pub struct Validator {
    runtime: Runtime,
    /// The consumer taking the lenient readings (`validator`); without it (`Validator::new`)
    /// every violation is REQUIRED, as the default consumer's alone.
    lenient: Option<Lenient>,
    /// Default-consumer transaction rejections the lenient consumer has not decided yet: held
    /// while it still has that transaction open (so at most one).
    held_back: Vec<Violation>,
    summary: Summary,
    found: Vec<Violation>,
    trail: Option<Trail>,
    /// The bytes the decoder holds for a frame not yet ended (`held.rs`).
    held: held::Held,
}

/// The lenient consumer and how far it has read (issue 29 §3). Its readings differ from the
/// default consumer's only where the default one rejects (a frame it quarantines, a transaction it
/// rejects: `LENIENT_ROWS`), so from the same stream state, input the default consumer finds
/// nothing wrong with takes the lenient one to the same state with the same results. It therefore
/// reads only from where the default consumer finds something: it waits at a checkpoint (the
/// default consumer's state, copied) with the input since then kept for replay; when the default
/// consumer reports a violation, it replays that input and then follows step by step, comparing as
/// before, until both stand in the same state again with nothing held back. A test
/// (`tests/validate_vectors.rs`) compares this with following every step from the start.
struct Lenient {
    runtime: Runtime,
    /// It reads every step (from the first violation until the two consumers agree again).
    following: bool,
    /// It reads every step from the start (`Validator::follow_lenient_throughout`).
    throughout: bool,
    /// The input since its checkpoint, while it waits.
    replay: Replay,
    /// Input kept for replay before a new checkpoint is taken (see `CHECKPOINT_AFTER`).
    checkpoint_after: usize,
}

/// The input a waiting lenient consumer has not read: bytes (decoders are chunk-independent, so
/// they are kept joined), or whole messages joined with the length of each. The buffers are kept
/// from one checkpoint to the next, so waiting allocates nothing per step.
#[derive(Default)]
struct Replay {
    bytes: Vec<u8>,
    message_lens: Vec<usize>,
}

impl Replay {
    fn clear(&mut self) {
        self.bytes.clear();
        self.message_lens.clear();
        // What one long step grew stays bounded by the checkpoint interval afterwards.
        if self.bytes.capacity() > 4 * CHECKPOINT_AFTER {
            self.bytes.shrink_to(CHECKPOINT_AFTER);
        }
    }
}

/// Input kept for replay before the lenient consumer takes a new checkpoint (a copy of the default
/// consumer's state, whose cost grows with the committed snapshot): 1 MiB, so a checkpoint is taken
/// once per 16 chunks of 64 KiB, and memory stays bounded.
const CHECKPOINT_AFTER: usize = 1 << 20;

/// One step of input, as the validator received it.
#[derive(Clone, Copy)]
enum Step<'a> {
    Bytes(&'a [u8]),
    Message(&'a [u8]),
    End,
}

impl Lenient {
    fn feed(&mut self, step: Step) {
        // The same input as the default consumer's, which accepted it.
        match step {
            Step::Bytes(chunk) => {
                let _ = self.runtime.feed(chunk);
            }
            Step::Message(message) => {
                let _ = self.runtime.feed_message(message);
            }
            Step::End => self.runtime.end(),
        }
    }

    /// Brings the lenient consumer to the default consumer's position after `step`: it reads
    /// `step` when following; when waiting, it keeps `step` for replay, or, if the default
    /// consumer found something in it, replays everything since its checkpoint and follows.
    fn step(&mut self, step: Step, default_found: bool, default: &Runtime) {
        if self.following {
            return self.feed(step);
        }
        match step {
            Step::Bytes(chunk) => self.replay.bytes.extend_from_slice(chunk),
            Step::Message(message) => {
                self.replay.bytes.extend_from_slice(message);
                self.replay.message_lens.push(message.len());
            }
            Step::End => {}
        }
        if default_found {
            let mut replay = std::mem::take(&mut self.replay);
            if replay.message_lens.is_empty() {
                if !replay.bytes.is_empty() {
                    self.feed(Step::Bytes(&replay.bytes));
                }
            } else {
                let mut rest = &replay.bytes[..];
                for &len in &replay.message_lens {
                    let (message, after) = rest.split_at(len.min(rest.len()));
                    self.feed(Step::Message(message));
                    rest = after;
                }
            }
            if matches!(step, Step::End) {
                self.feed(Step::End);
            }
            replay.clear();
            self.replay = replay;
            self.following = true;
        } else if self.replay.bytes.len() > self.checkpoint_after || matches!(step, Step::End) {
            self.checkpoint(default);
        }
    }

    /// Waits from `default`'s state.
    fn checkpoint(&mut self, default: &Runtime) {
        self.runtime.resume_from(default);
        self.replay.clear();
        self.following = false;
    }
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
        Validator { runtime, lenient: None, held_back: Vec::new(), summary: Summary::default(), found: Vec::new(), trail: None, held }
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
        self.collect(Step::Bytes(chunk), sink);
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
        self.collect(Step::Message(message), sink);
        Ok(())
    }

    /// The stream ended: a frame still held is truncated and an open transaction interrupted.
    pub fn end(&mut self, sink: &mut dyn FnMut(&Violation)) {
        self.runtime.end();
        self.collect(Step::End, sink);
        // Whatever the lenient consumer never rejected is a RECOMMENDED finding.
        let held: Vec<Violation> = self.held_back.drain(..).map(|v| Violation { strictness: RECOMMENDED, ..v }).collect();
        self.report(held, sink);
    }

    /// The summary so far, with how reading stopped.
    pub fn finish(mut self, stop: Stop) -> Summary {
        self.summary.final_revision = self.runtime.committed().revision;
        self.summary.frames = self.runtime.frames_received();
        self.summary.open_transaction = self.runtime.has_open_transaction();
        self.summary.stop = stop;
        self.summary
    }

    /// Reports what is still held back for the lenient consumer's decision when reading stopped
    /// before the end (a deadline, an error) as RECOMMENDED findings; nothing after `end`.
    pub fn release(&mut self, sink: &mut dyn FnMut(&Violation)) {
        let held: Vec<Violation> = self.held_back.drain(..).map(|v| Violation { strictness: RECOMMENDED, ..v }).collect();
        self.report(held, sink);
    }

    /// The lenient consumer reads every step from the start, as before issue 29 §3, instead of
    /// only from where the default consumer finds something: the same output, more slowly (for
    /// comparing the two ways in tests).
    pub fn follow_lenient_throughout(&mut self) {
        if let Some(lenient) = &mut self.lenient {
            lenient.following = true;
            lenient.throughout = true;
        }
    }

    /// The lenient consumer takes a checkpoint once more than `bytes` of input wait for replay
    /// (default 1 MiB; 0: after every step the default consumer found nothing in), for tests.
    pub fn checkpoint_after(&mut self, bytes: usize) {
        if let Some(lenient) = &mut self.lenient {
            lenient.checkpoint_after = bytes;
        }
    }

    /// Hands the results decided in `step` to the sink, in frame order (a quarantined frame or
    /// rejected record before the transaction it ended), each with its strictness, and forgets
    /// them.
    fn collect(&mut self, step: Step, sink: &mut dyn FnMut(&Violation)) {
        let mut found = std::mem::take(&mut self.found);
        violations_of(&self.runtime, &mut self.summary, &mut found);
        if let Some(lenient) = &mut self.lenient {
            lenient.step(step, !found.is_empty(), &self.runtime);
        }
        for &frame in self.runtime.repeated_names() {
            found.push(Violation { frame, transaction: None, code: REPEATED_MEMBER_NAME, kind: "record repeating a member name", strictness: RECOMMENDED, requirements: Vec::new() });
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
        if let Some(Lenient { runtime: lenient, following: true, .. }) = &mut self.lenient {
            let mut also = Vec::new();
            violations_of(lenient, &mut Summary::default(), &mut also);
            lenient.forget_results();
            let lenient_open = lenient.open_transaction_id().map(str::to_string);
            found.append(&mut self.held_back);
            let mut decided = Vec::new();
            for violation in found.drain(..) {
                if violation.code == REPEATED_MEMBER_NAME {
                    decided.push(violation);
                    continue;
                }
                // The lenient consumer rejected the same frame, or the same transaction.
                let twin = also.iter().position(|other| match (&violation.transaction, &other.transaction) {
                    (Some(a), Some(b)) => a == b,
                    (None, None) => violation.frame == other.frame && violation.kind == other.kind,
                    _ => false,
                });
                match twin {
                    Some(at) => {
                        also.remove(at);
                        decided.push(violation);
                    }
                    // The lenient consumer still has that transaction open: wait for its result.
                    None if violation.transaction.is_some() && violation.transaction == lenient_open => self.held_back.push(violation),
                    None => decided.push(Violation { strictness: RECOMMENDED, ..violation }),
                }
            }
            // Rejected only under the lenient readings: a consumer taking them rejects here.
            decided.extend(also.into_iter().map(|v| Violation { strictness: RECOMMENDED, kind: lenient_kind(v.kind), ..v }));
            found = decided;
        }
        // Both consumers stand in the same state again with nothing held back: the lenient one
        // waits again.
        if let Some(lenient) = &mut self.lenient {
            if lenient.following && !lenient.throughout && self.held_back.is_empty() && lenient.runtime.same_stream_state(&self.runtime) {
                lenient.checkpoint(&self.runtime);
            }
        }
        self.report(found, sink);
    }

    /// Counts and hands over `found` in frame order (a frame's own result before the transaction
    /// it ended).
    fn report(&mut self, mut found: Vec<Violation>, sink: &mut dyn FnMut(&Violation)) {
        found.sort_by_key(|v| (v.frame, v.transaction.is_some()));
        let framing = self.runtime.framing();
        for mut violation in found.drain(..) {
            violation.requirements = requirements_for(violation.code, violation.strictness, framing);
            self.summary.violations += 1;
            if violation.strictness == REQUIRED {
                self.summary.required += 1;
            } else {
                self.summary.recommended += 1;
            }
            sink(&violation);
        }
        self.found = found;
    }
}

/// The kind of a violation only the lenient consumer reports.
fn lenient_kind(kind: &'static str) -> &'static str {
    match kind {
        "quarantined frame" => "frame quarantined by a consumer taking the lenient readings",
        "record rejected outside a transaction" => "record rejected by a consumer taking the lenient readings",
        _ => "transaction rejected by a consumer taking the lenient readings",
    }
}

/// The violations `runtime` decided since its last `forget_results`, counted into `summary`, all
/// REQUIRED until compared with the lenient consumer's.
fn violations_of(runtime: &Runtime, summary: &mut Summary, found: &mut Vec<Violation>) {
    for q in runtime.quarantine() {
        summary.quarantined += 1;
        found.push(Violation { frame: q.frame, transaction: None, code: q.code.as_str(), kind: "quarantined frame", strictness: REQUIRED, requirements: Vec::new() });
    }
    for r in runtime.rejections() {
        summary.rejected_records += 1;
        found.push(Violation { frame: r.frame, transaction: None, code: r.code.as_str(), kind: "record rejected outside a transaction", strictness: REQUIRED, requirements: Vec::new() });
    }
    for t in runtime.transactions() {
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
                    strictness: REQUIRED,
                    requirements: Vec::new(),
                });
            }
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
                // The stream ended after frame 5, its last.
                ("frame 5, transaction t2".to_string(), "INTERRUPTED"),
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

    /// `conformance validate`'s judgement: both consumers, as the CLI builds them.
    fn judge(framing: &str, stream: &str, strict: bool) -> (Vec<(u64, &'static str, &'static str, Vec<&'static str>)>, Summary) {
        let mut validator = validator(framing, &catalog(), None, strict).expect("a validator");
        let mut found = Vec::new();
        let stop = read_stream(&mut validator, &mut stream.as_bytes(), &mut |v| found.push((v.frame, v.code, v.strictness, v.requirements().to_vec())));
        validator.release(&mut |_| {});
        (found, validator.finish(stop))
    }

    #[test]
    fn a_violation_only_the_recommended_reading_finds_is_recommended_and_exits_0_unless_strict() {
        // The last JSONL line has no LF but parses: FRAME_TRUNCATED under PRJ-RUI-FRAME-05
        // (RECOMMENDED); a consumer taking the other reading commits the transaction.
        let stream = "[\"begin\",0,\"t1\",0]\n[\"node\",1,\"r\",\"Stack\",{},[]]\n[\"commit\",2,1,\"r\"]";
        let (found, summary) = judge("jsonl", stream, false);
        assert_eq!(
            found,
            vec![
                (2, "FRAME_TRUNCATED", RECOMMENDED, vec!["PRJ-RUI-FRAME-05"]),
                (2, "FRAME_INVALID", RECOMMENDED, vec!["PRJ-RUI-FRAME-05"]),
            ]
        );
        assert_eq!((summary.required, summary.recommended, summary.exit_code()), (0, 2, 0));
        assert_eq!(judge("jsonl", stream, true).1.exit_code(), 1);
        // A json-seq text without its final LF: PRJ-RUI-FRAME-13.
        let seq = "\u{1e}[\"begin\",0,\"t1\",0]\n\u{1e}[\"node\",1,\"r\",\"Stack\",{},[]]\n\u{1e}[\"commit\",2,1,\"r\"]";
        let (found, summary) = judge("json-seq", seq, false);
        assert_eq!(found[0], (2, "FRAME_TRUNCATED", RECOMMENDED, vec!["PRJ-RUI-FRAME-13"]));
        assert_eq!(summary.exit_code(), 0);
    }

    #[test]
    fn what_follows_from_a_recommended_rejection_is_recommended_too_and_a_required_one_exits_1() {
        // `-` as the last token of a pointer into an array: POINTER_INVALID under PRJ-RUI-DATA-06
        // (RECOMMENDED); the next transaction, on the revision the lenient reading commits, is
        // STALE_BASE_REVISION only for the recommended reading.
        let stream = concat!(
            "[\"begin\",0,\"t1\",0]\n[\"node\",1,\"r\",\"Stack\",{},[]]\n[\"data\",2,\"/list\",[1]]\n[\"commit\",3,1,\"r\"]\n",
            "[\"begin\",0,\"t2\",1]\n[\"data\",1,\"/list/-\",2]\n[\"commit\",2,2,\"r\"]\n",
            "[\"begin\",0,\"t3\",2]\n[\"commit\",1,3,\"r\"]\n",
        );
        let (found, summary) = judge("jsonl", stream, false);
        let seen: Vec<(u64, &str, &str)> = found.iter().map(|(f, c, s, _)| (*f, *c, *s)).collect();
        assert_eq!(seen, vec![(6, "POINTER_INVALID", RECOMMENDED), (8, "STALE_BASE_REVISION", RECOMMENDED)]);
        assert_eq!(found[0].3, vec!["PRJ-RUI-DATA-06"]);
        assert_eq!(summary.exit_code(), 0);
        // A REQUIRED violation (an unknown component fails under every reading) exits 1.
        let (found, summary) = judge("jsonl", "[\"begin\",0,\"t1\",0]\n[\"node\",1,\"r\",\"Ghost\",{},[]]\n[\"commit\",2,1,\"r\"]\n", false);
        assert_eq!(found, vec![(2, "UNKNOWN_COMPONENT", REQUIRED, vec!["PRJ-RUI-CAT-01"])]);
        assert_eq!((summary.required, summary.exit_code()), (1, 1));
    }

    #[test]
    fn a_record_repeating_a_member_name_is_a_recommended_finding() {
        let stream = "[\"begin\",0,\"t1\",0]\n[\"node\",1,\"r\",\"Text\",{\"text\":\"a\",\"text\":\"b\"},[]]\n[\"commit\",2,1,\"r\"]\n";
        let (found, summary) = judge("jsonl", stream, false);
        assert_eq!(found, vec![(1, REPEATED_MEMBER_NAME, RECOMMENDED, vec!["PRJ-RUI-REC-06"])]);
        assert_eq!((summary.committed, summary.exit_code()), (1, 0));
        assert_eq!(judge("jsonl", stream, true).1.exit_code(), 1);
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
                let entry = format!("{} {}", requirement["id"].as_str().unwrap(), requirement["strictness"].as_str().unwrap());
                expected.entry(code.as_str().unwrap().into()).or_default().push(entry);
            }
        }
        // Dispatch results (CL-D06-6) are not stream violations.
        for dispatch in ["POLICY_DENIED", "ACTION_NOT_FOUND", "POLICY_EVALUATION_FAILED"] {
            expected.remove(dispatch);
        }
        let table: std::collections::BTreeMap<String, Vec<String>> = CODE_REQUIREMENTS
            .iter()
            .map(|(c, r)| (c.to_string(), r.iter().map(|(id, level)| format!("{id} {level}")).collect()))
            .collect();
        assert_eq!(table, expected);
    }
}
