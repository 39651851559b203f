//! The Rixx UI runtime: frames in, transactions decided, one committed snapshot out (spec
//! "Transaction", "Abort", "Recovery"; CL-D02, CL-D05-1..9, CL-D09-1..4; RUI-TX-01..03,
//! RUI-ABORT-01/02, RUI-RECOV-01..09).
//!
//! Sans-IO: the host feeds bytes ([`Runtime::feed`]), whole messages ([`Runtime::feed_message`])
//! and the end of the stream ([`Runtime::end`]), and reads what happened: the committed snapshot,
//! one result per finished transaction, the quarantined frames and the records rejected outside a
//! transaction. Frames are numbered from 0 in arrival order, valid or not, over the runtime's whole
//! life (after [`Runtime::end`] a new stream may start, e.g. a reconnect; numbering continues).
//!
//! Per frame, in order:
//! - an invalid frame is quarantined (`FRAME_NOT_JSON`, `FRAME_TRUNCATED`); an open transaction is
//!   discarded with `FRAME_INVALID` (CL-D05-1..3); decoding resumes at the next frame boundary;
//! - a value that is not a record is `RECORD_INVALID` or `UNKNOWN_OPERATION`: the open transaction
//!   is discarded with that code (CL-D05-9), or, with none open, the record is rejected with it;
//! - `begin` discards an open transaction (`SUPERSEDED_BY_BEGIN`, CL-D09-2) and opens a new one
//!   (CL-D09-3, RECOMMENDED: a begin is a resynchronisation point); a begin whose seq is not 0 is
//!   an invalid record (PRJ-RUI-REC-04);
//! - any other record with no open transaction is rejected `RECORD_OUTSIDE_TRANSACTION`
//!   (CL-D05-8), which is how the remaining records of a discarded transaction end (CL-D09-4);
//! - a record whose seq is not the next position discards the transaction (`SEQUENCE_GAP`,
//!   CL-D05-4, RUI-RECOV-03);
//! - operations are staged; `commit` commits or rejects (see `transaction.rs`), `abort` ends the
//!   transaction as `aborted` with the snapshot unchanged (RUI-ABORT-01/02).
//!
//! At the end of the stream, a frame the decoder was still holding is quarantined first (so a
//! transaction cut inside a frame ends `FRAME_INVALID`, one of the two results PRJ-RUI-FRAME-12
//! accepts; `rui-truncated-end-interrupted` takes the other), then a transaction still open is
//! discarded with `INTERRUPTED` (CL-D05-7, RUI-RECOV-09). Discarding never touches the committed snapshot
//! (CL-D05-6, RUI-RECOV-06). Nothing here records a data value: results hold ids, revisions and
//! codes only (CL-D08-3).

use serde_json::Value;

use super::actions::{
    ActionPolicy, ActionRequest, DispatchId, DispatchStatus, Dispatcher, PolicyCall,
    PolicySettlement, SettleError,
};
use super::catalog::Catalog;
use super::codes::{QuarantineCode, RejectionCode, TransactionCode};
use super::framing::{
    parse_frame, payload_len, record_text_len, repeats_a_name, Decoder, Frame, Framing,
    WrongInputKind,
};
use super::graph::{Node, Snapshot};
use super::limits::{Limits, Measure};
use super::pointer;
use super::reader::read_frame;
use super::records::{parse_record, Record, RecordError};
use super::transaction::{OpenTransaction, Operation};
use crate::choices::{Choice, Choices, Fault};

/// How a finished transaction ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransactionOutcome {
    Committed { revision: u64 },
    Aborted,
    Rejected(TransactionCode),
}

/// One finished transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransactionResult {
    pub transaction_id: String,
    pub outcome: TransactionOutcome,
    /// The index of the frame that ended it (its commit or abort record, the invalid frame or
    /// superseding begin that discarded it), or the last frame received when the end of the
    /// stream interrupted it: where a stream validator reports it.
    pub frame: u64,
}

/// One quarantined frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quarantined {
    pub frame: u64,
    pub code: QuarantineCode,
}

/// One record rejected outside a transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rejection {
    pub frame: u64,
    pub code: RejectionCode,
}

/// What a runtime is built from.
#[derive(Debug, Clone)]
pub struct Config {
    pub framing: Framing,
    pub catalog: Catalog,
    pub limits: Limits,
    pub action_policy: ActionPolicy,
    /// Which behaviour to take where the texts leave a choice (`crate::choices`).
    pub choices: Choices,
}

/// A Rixx UI runtime for one host.
#[derive(Debug, Clone)]
pub struct Runtime {
    framing: Framing,
    choices: Choices,
    catalog: Catalog,
    limits: Limits,
    decoder: Decoder,
    committed: Snapshot,
    commits: u64,
    open: Option<OpenTransaction>,
    next_frame: u64,
    transactions: Vec<TransactionResult>,
    quarantine: Vec<Quarantined>,
    rejections: Vec<Rejection>,
    dispatcher: Dispatcher,
    /// The stream is ending: what the decoder still held is being drained.
    ending: bool,
    /// Frames whose record repeats a member name (PRJ-RUI-REC-06), noted only on request
    /// (`note_repeated_names`, for a stream validator); `None` otherwise.
    repeated_names: Option<Vec<u64>>,
}

impl Runtime {
    pub fn new(config: Config) -> Runtime {
        let failure_denies = config.choices.takes(Choice::RuiPolicyFailureDenies);
        let decoder = Decoder::choosing(config.framing, &config.choices);
        // The runtime counts in its own measure (PRJ-RUI-LIMIT-14/15), whatever the profile says.
        let limits = Limits {
            measure: Measure::of(&config.choices),
            ..config.limits
        };
        Runtime {
            framing: config.framing,
            choices: config.choices,
            catalog: config.catalog,
            limits,
            decoder,
            committed: Snapshot::empty(),
            commits: 0,
            open: None,
            next_frame: 0,
            transactions: Vec::new(),
            quarantine: Vec::new(),
            rejections: Vec::new(),
            dispatcher: Dispatcher::new(config.action_policy, failure_denies),
            ending: false,
            repeated_names: None,
        }
    }

    /// The next chunk of the byte stream (JSONL, SSE, JSON text sequences).
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), WrongInputKind> {
        let mut decoder = self.take_decoder();
        let result = decoder.push_frames(chunk, &mut |frame| self.on_frame(frame));
        self.decoder = decoder;
        result
    }

    /// One whole message (WebSocket).
    pub fn feed_message(&mut self, message: &[u8]) -> Result<(), WrongInputKind> {
        let mut decoder = self.take_decoder();
        let result = decoder.message_frames(message, &mut |frame| self.on_frame(frame));
        self.decoder = decoder;
        result
    }

    /// The stream ends.
    pub fn end(&mut self) {
        let mut decoder = self.take_decoder();
        self.ending = true;
        decoder.finish_frames(&mut |frame| self.on_frame(frame));
        self.ending = false;
        self.decoder = decoder;
        if self.choices.injects(Fault::RuiStreamEndCommits) {
            return;
        }
        // Reported at the last frame received (the stream ended after it): a begin was received,
        // so there is one.
        if let Some(open) = self.open.take() {
            self.reject(
                open,
                TransactionCode::Interrupted,
                self.next_frame.saturating_sub(1),
            );
        }
    }

    /// The decoder, out of the runtime while it hands frames to it (frames borrow its buffer);
    /// a decoder of the same framing that holds nothing stands in meanwhile.
    fn take_decoder(&mut self) -> Decoder {
        let stand_in = Decoder::new(self.decoder.framing());
        std::mem::replace(&mut self.decoder, stand_in)
    }

    pub fn framing(&self) -> Framing {
        self.decoder.framing()
    }

    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The committed snapshot.
    pub fn committed(&self) -> &Snapshot {
        &self.committed
    }

    /// How many transactions committed.
    pub fn commits(&self) -> u64 {
        self.commits
    }

    /// Whether a transaction is open (staging).
    pub fn has_open_transaction(&self) -> bool {
        self.open.is_some()
    }

    /// The id of the transaction open now, if one is.
    pub fn open_transaction_id(&self) -> Option<&str> {
        self.open.as_ref().map(OpenTransaction::transaction_id)
    }

    pub fn transactions(&self) -> &[TransactionResult] {
        &self.transactions
    }

    /// How many frames the stream has delivered so far (each is 0-based indexed in order).
    pub fn frames_received(&self) -> u64 {
        self.next_frame
    }

    pub fn quarantine(&self) -> &[Quarantined] {
        &self.quarantine
    }

    pub fn rejections(&self) -> &[Rejection] {
        &self.rejections
    }

    /// Forgets the results recorded so far (transactions, quarantine, rejections) once the host
    /// has read them, so a host that follows a stream of any length (`conformance validate`) keeps
    /// constant memory. Frame numbering, the committed snapshot and any open transaction are
    /// untouched.
    pub fn forget_results(&mut self) {
        self.transactions.clear();
        self.quarantine.clear();
        self.rejections.clear();
        if let Some(found) = &mut self.repeated_names {
            found.clear();
        }
    }

    /// Takes `other`'s stream state, keeping this runtime's own configuration (framing, choices,
    /// catalog, limits): the bytes its decoder holds, the frame count, the committed snapshot and
    /// commit count, the open transaction. Results not yet forgotten are forgotten. For a host that
    /// follows one stream under two sets of readings and runs the second only where the first found
    /// something (`conformance validate`): from the same state, a runtime whose readings differ
    /// only where the first runtime rejects decides every other input the same way.
    pub fn resume_from(&mut self, other: &Runtime) {
        self.decoder.resume_from(&other.decoder);
        self.next_frame = other.next_frame;
        self.committed.clone_from(&other.committed);
        self.commits = other.commits;
        self.open.clone_from(&other.open);
        self.forget_results();
    }

    /// Whether this runtime stands where `other` does in the stream (see [`Runtime::resume_from`]:
    /// decoder state, frame count, committed snapshot, open transaction), whatever their readings.
    pub fn same_stream_state(&self, other: &Runtime) -> bool {
        self.next_frame == other.next_frame
            && self.committed.revision == other.committed.revision
            && self.open == other.open
            && self.decoder.same_state(&other.decoder)
            && self.committed == other.committed
    }

    /// From now on, notes every frame whose JSON record repeats a member name in one of its
    /// objects (PRJ-RUI-REC-06; the record is read as before, the last value of the name kept).
    pub fn note_repeated_names(&mut self) {
        self.repeated_names.get_or_insert_with(Vec::new);
    }

    /// The frames noted since the last `forget_results` (empty unless `note_repeated_names`).
    pub fn repeated_names(&self) -> &[u64] {
        self.repeated_names.as_deref().unwrap_or(&[])
    }

    /// The host UI dispatches the action request in prop `prop` of committed node `node`
    /// (CL-D06-5/6): only a committed node whose component marks `prop` as an action and which
    /// holds an action request there reaches the policy.
    pub fn dispatch(&mut self, node: &str, prop: &str) -> DispatchId {
        let request = self.committed.nodes.get(node).and_then(|definition| {
            let component = self.catalog.component(&definition.component)?;
            if !component.is_action(prop) {
                return None;
            }
            ActionRequest::from_prop(definition.props.get(prop)?)
        });
        match request {
            Some(request) => self.dispatcher.call_policy(node, prop, request),
            None => self.dispatcher.not_found(),
        }
    }

    /// Settles action-policy call `call` (1-based) of a gated policy.
    pub fn settle_action_policy(
        &mut self,
        call: usize,
        settlement: &PolicySettlement,
    ) -> Result<(), SettleError> {
        self.dispatcher.settle(call, settlement)
    }

    pub fn dispatch_status(&self, id: DispatchId) -> Option<DispatchStatus> {
        self.dispatcher.status(id)
    }

    pub fn action_policy_calls(&self) -> &[PolicyCall] {
        self.dispatcher.calls()
    }

    fn on_frame(&mut self, frame: Frame<'_>) {
        let index = self.next_frame;
        self.next_frame += 1;
        let bytes = match frame {
            Frame::Complete(bytes) => bytes,
            // PRJ-RUI-FRAME-12 is IMPL-DEFINED: under `rui-truncated-end-interrupted` a frame the
            // end of the stream cut short is logged, and the end itself (CL-D05-7) discards the
            // open transaction INTERRUPTED.
            Frame::Quarantined(code)
                if self.ending && self.choices.takes(Choice::RuiTruncatedEndInterrupted) =>
            {
                return self.quarantine.push(Quarantined { frame: index, code });
            }
            Frame::Quarantined(code) => return self.quarantine_frame(index, code),
        };
        // The wider reading of PRJ-RUI-LIMIT-13 bounds the whole record tuple, so it needs the
        // frame's JSON value; otherwise the record is read in one pass without building it.
        if self.choices.takes(Choice::RuiLimitsBoundWholeRecord) {
            let value: Value = match parse_frame(bytes) {
                Ok(value) => value,
                Err(code) => return self.quarantine_frame(index, code),
            };
            if let Some(found) = &mut self.repeated_names {
                if repeats_a_name(bytes) {
                    found.push(index);
                }
            }
            let exceeded = self.limits.check_whole_record(&value).err();
            return self.on_read(index, bytes, parse_record(value), exceeded);
        }
        let frame = match read_frame(bytes) {
            Ok(frame) => frame,
            Err(code) => return self.quarantine_frame(index, code),
        };
        if let Some(found) = &mut self.repeated_names {
            if frame.repeats_a_name {
                found.push(index);
            }
        }
        self.on_read(index, bytes, frame.record, None)
    }

    /// The record read from frame `index` (`bytes`), or why its JSON value is none, with a bound
    /// of the wider reading it already passed.
    fn on_read(
        &mut self,
        index: u64,
        bytes: &[u8],
        record: Result<Record, RecordError>,
        exceeded: Option<TransactionCode>,
    ) {
        // PRJ-RUI-LIMIT-16 is IMPL-DEFINED: `rui-bytes-count-whitespace` counts the frame's
        // payload as it came, JSON whitespace around the value included (not the json-seq LF).
        let text_len = if self.choices.takes(Choice::RuiBytesCountWhitespace) {
            payload_len(bytes, self.framing)
        } else {
            record_text_len(bytes)
        };
        // The record is checked where it lies and moved only into `on_record` (issue 29 §3).
        let checked = match &record {
            Ok(record) => self.pointer_field_check(record),
            Err(error) => Err(*error),
        };
        match (checked, record) {
            (Ok(()), Ok(record)) => self.on_record(index, record, text_len, exceeded),
            (Err(error), _) | (Ok(()), Err(error)) => self.record_error(index, error),
        }
    }

    /// A frame whose JSON value is no record (or no valid one): it ends an open transaction, or
    /// is rejected outside one.
    fn record_error(&mut self, index: u64, error: RecordError) {
        let (in_transaction, outside) = match error {
            RecordError::Invalid => (TransactionCode::RecordInvalid, RejectionCode::RecordInvalid),
            RecordError::UnknownOperation => (
                TransactionCode::UnknownOperation,
                RejectionCode::UnknownOperation,
            ),
        };
        match self.open.take() {
            Some(open) => self.reject(open, in_transaction, index),
            None => self.rejections.push(Rejection {
                frame: index,
                code: outside,
            }),
        }
    }

    /// Under the alternate reading of PRJ-RUI-DATA-02 (`Choice::RuiPointerRecordInvalid`) a data
    /// pointer outside RFC 6901 syntax is a field of the wrong form, so the record is invalid
    /// (CL-D01-9) rather than the transaction failing with POINTER_INVALID.
    fn pointer_field_check(&self, record: &Record) -> Result<(), RecordError> {
        let pointer = match record {
            Record::Data { pointer, .. } | Record::DeleteData { pointer, .. } => pointer,
            _ => return Ok(()),
        };
        if self.choices.takes(Choice::RuiPointerRecordInvalid) && !pointer::is_rfc6901(pointer) {
            return Err(RecordError::Invalid);
        }
        Ok(())
    }

    fn quarantine_frame(&mut self, frame: u64, code: QuarantineCode) {
        self.quarantine.push(Quarantined { frame, code });
        if let Some(open) = self.open.take() {
            self.reject(open, TransactionCode::FrameInvalid, frame);
        }
    }

    fn on_record(
        &mut self,
        frame: u64,
        record: Record,
        text_len: usize,
        exceeded: Option<TransactionCode>,
    ) {
        if let Record::Begin {
            transaction_id,
            base_revision,
            ..
        } = record
        {
            if let Some(open) = self.open.take() {
                self.reject(open, TransactionCode::SupersededByBegin, frame);
                // CL-D09-3 is RECOMMENDED: the alternate opens nothing until the next begin.
                if self.choices.takes(Choice::RuiBeginWhileOpenWaits) {
                    return;
                }
            }
            let mut open =
                OpenTransaction::begin(transaction_id, base_revision, text_len, &self.limits);
            if let Some(code) = exceeded {
                open.exceed(code);
            }
            return self.keep_open(open, frame);
        }
        let Some(mut open) = self.open.take() else {
            self.rejections.push(Rejection {
                frame,
                code: RejectionCode::RecordOutsideTransaction,
            });
            return;
        };
        if !open.take_seq(record.seq()) {
            return self.reject(open, TransactionCode::SequenceGap, frame);
        }
        open.count_bytes(text_len, &self.limits);
        if let Some(code) = exceeded {
            open.exceed(code);
        }
        let operation = match record {
            Record::Commit {
                new_revision,
                root_id,
                ..
            } => {
                open.count_closing(&self.limits);
                return self.commit(open, new_revision, root_id, frame);
            }
            Record::Abort { .. } => {
                let transaction_id = open.into_id();
                self.transactions.push(TransactionResult {
                    transaction_id,
                    outcome: TransactionOutcome::Aborted,
                    frame,
                });
                return;
            }
            Record::Node {
                node_id,
                component,
                props,
                children,
                ..
            } => Operation::Node {
                id: node_id,
                node: Node::new(component, props, children),
            },
            Record::Data { pointer, value, .. } => Operation::Data { pointer, value },
            Record::DeleteNode { node_id, .. } => Operation::DeleteNode { id: node_id },
            Record::DeleteData { pointer, .. } => Operation::DeleteData { pointer },
            // Handled above; kept in the match so a new record kind cannot be forgotten here.
            Record::Begin { .. } => return,
        };
        open.stage(operation, &self.limits, &self.choices);
        self.keep_open(open, frame);
    }

    /// Keeps `open` staging after the record at `frame`, unless a failure it already has is found
    /// there: PRJ-RUI-TX-08 leaves it to the runtime whether a stale base, a passed bound or a
    /// duplicate node is found at the offending record (`rui-fail-at-record`, which ends the
    /// transaction there, so its remaining records are outside one) or only at commit.
    fn keep_open(&mut self, open: OpenTransaction, frame: u64) {
        let early = self
            .choices
            .takes(Choice::RuiFailAtRecord)
            .then(|| open.failure_so_far(self.committed.revision, &self.choices))
            .flatten();
        match early {
            Some(code) => self.reject(open, code, frame),
            None => self.open = Some(open),
        }
    }

    fn commit(&mut self, open: OpenTransaction, new_revision: u64, root_id: String, frame: u64) {
        let transaction_id = open.transaction_id().to_string();
        let partial = self
            .choices
            .injects(Fault::RuiPartialApply)
            .then(|| open.apply_partially(&self.committed));
        match open.commit(
            &mut self.committed,
            new_revision,
            root_id,
            &self.catalog,
            &self.limits,
            &self.choices,
        ) {
            Ok(()) => {
                let revision = self.committed.revision;
                self.commits += 1;
                self.transactions.push(TransactionResult {
                    transaction_id,
                    outcome: TransactionOutcome::Committed { revision },
                    frame,
                });
            }
            Err(code) => {
                if let Some(partial) = partial {
                    self.committed = partial;
                }
                self.transactions.push(TransactionResult {
                    transaction_id,
                    outcome: TransactionOutcome::Rejected(code),
                    frame,
                });
            }
        }
    }

    fn reject(&mut self, open: OpenTransaction, code: TransactionCode, frame: u64) {
        let transaction_id = open.into_id();
        self.transactions.push(TransactionResult {
            transaction_id,
            outcome: TransactionOutcome::Rejected(code),
            frame,
        });
    }
}
