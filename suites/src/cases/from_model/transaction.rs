//! Vectors from the Rixx UI transaction model (`model::transaction`, issue 5): translation of its
//! paths into `rui` cases of the common format (framing-neutral: the harness frames them in every
//! framing an implementation declares, issue 15), the coverage classification the
//! visitor walks with, and the generated section `rui.model-transaction` with its certificate.
//! Covers what the model covers: CL-D01..D05, CL-D09 and the stable codes of CL-D08
//! (PRJ-RUI-REC-01..03, PRJ-RUI-TX-01..08, PRJ-RUI-GRAPH-01..05, PRJ-RUI-CAT-01/02,
//! PRJ-RUI-DATA-01/03, PRJ-RUI-LIMIT-05, PRJ-RUI-FRAME-01).
//!
//! Concrete records for the model's abstract alphabet (the producer side, `Producer`): node id
//! `k` is `"n<k>"`, a `Box` (children allowed, any props) with props `{}`; the data document
//! `{}`, `{"a": {}}`, `{"a": {"b": 1}}` is written through the pointers `/a` (value `{}`) and
//! `/a/b` (value `1`); an unknown component is `"Unknown"` and invalid props are `Text` with
//! `{"text": 5}`, each on a fresh id `u<frame>` / `p<frame>` so that staging them twice is never
//! a duplicate node; a stale base is the committed revision minus one (plus one at revision 0);
//! a wrong new revision is base + 2; a gap is a data record (`/gap`) one position ahead; an
//! invalid frame is a line of broken JSON; an invalid record is a node record of arity 3; an
//! unknown operation is tag `upsert`. Sequence numbers are the producer's positions since its
//! last begin, so records after a discard keep the numbering the producer meant.
//!
//! Expectations come from the model's states, in every reading the project allows: the model
//! finds record faults at the record, PRJ-RUI-TX-08 accepts finding each deferrable class only at
//! commit, so every path is replayed through all 128 selections of `Rejection::DEFERRABLE`
//! (`TransactionModel::deferred`) and each observation expects the values of all readings
//! (`one-of` when they differ, IMPL-DEFINED). A rejected commit accepts every code of
//! `commit_failures` (PRJ-RUI-TX-07). The committed graph, data and revision are the same in
//! every reading (a transaction with a fault never commits, whenever the fault is found), which
//! `translate` checks. Once a `begin` meets a transaction open in some reading (a superseding
//! begin), every later check is RECOMMENDED (CL-D09-3 only recommends that it opens a new one).

use std::collections::BTreeSet;

use model::stateright::Model;
use model::transaction::{
    Action, Base, Children, DataDoc, Event, NewRevision, Pointer, Rejection, StreamState,
    TransactionModel,
};
use model::visit::{cover, Coverage, Path};
use serde_json::{json, Value};

use super::{load_regressions, regressions_dir, Generated, Regression};
use crate::case::{Case, Provenance, Section, Strictness};
use crate::cases::rui::support::observe::{expect, strict, traced};
use crate::cases::rui::support::setup;
use crate::cases::rui::support::stream::{Framing, Script};
use crate::pattern::one_of;

const SECTION: &str = "rui.model-transaction";
const MODEL: &str = "transaction";
/// A guard far above the default model's few thousand states.
const MAX_STATES: usize = 200_000;

/// The configuration the vectors are generated at (the model's default: 2 node ids, 3 begins,
/// operation limit 2), which reaches every code of the model.
pub fn model() -> TransactionModel {
    TransactionModel::default()
}

fn by(model: &TransactionModel) -> String {
    format!(
        "model::transaction ({} node ids, {} begins, operation limit {}; every reading of PRJ-RUI-TX-08)",
        model.node_ids, model.max_transactions, model.max_operations
    )
}

/// The stable code (CL-D08, /work/briefs/rui-codes) of each class of the model.
pub fn code(rejection: Rejection) -> &'static str {
    match rejection {
        Rejection::OutsideTransaction => "RECORD_OUTSIDE_TRANSACTION",
        Rejection::SequenceGap => "SEQUENCE_GAP",
        Rejection::StaleBase => "STALE_BASE_REVISION",
        Rejection::WrongNewRevision => "REVISION_MISMATCH",
        Rejection::DuplicateNode => "DUPLICATE_NODE",
        Rejection::MissingRoot => "ROOT_MISSING",
        Rejection::DanglingChild => "CHILD_UNRESOLVED",
        Rejection::DuplicateChild => "DUPLICATE_CHILD",
        Rejection::Cycle => "GRAPH_CYCLE",
        Rejection::InvalidFrame => "FRAME_INVALID",
        Rejection::InvalidRecord => "RECORD_INVALID",
        Rejection::UnknownOperation => "UNKNOWN_OPERATION",
        Rejection::UnknownComponent => "UNKNOWN_COMPONENT",
        Rejection::InvalidProps => "PROPS_INVALID",
        Rejection::DataParentMissing => "DATA_PARENT_MISSING",
        Rejection::DeleteAbsent => "DELETE_ABSENT",
        Rejection::LimitExceeded => "LIMIT_OPERATIONS",
        Rejection::Interrupted => "INTERRUPTED",
        Rejection::Superseded => "SUPERSEDED_BY_BEGIN",
    }
}

/// The quarantine code of the model's invalid frame (a complete line that is not JSON).
pub const FRAME_NOT_JSON: &str = "FRAME_NOT_JSON";

/// The requirement ids behind each code.
fn code_requirements(code: &str) -> &'static [&'static str] {
    match code {
        "RECORD_OUTSIDE_TRANSACTION" => &["PRJ-RUI-REC-01", "CL-D05-8", "CL-D09-4"],
        "RECORD_INVALID" => &["PRJ-RUI-REC-02", "CL-D01-9", "PRJ-RUI-REC-05"],
        "UNKNOWN_OPERATION" => &["PRJ-RUI-REC-03", "CL-D05-9"],
        "SEQUENCE_GAP" => &["PRJ-RUI-TX-01", "RUI-TX-02", "RUI-RECOV-03", "CL-D05-4"],
        "STALE_BASE_REVISION" => &["PRJ-RUI-TX-02", "RUI-RECOV-05", "CL-D02-5", "CL-D05-5"],
        "REVISION_MISMATCH" => &["PRJ-RUI-TX-03", "RUI-COMMIT-01", "CL-D02-6"],
        "DUPLICATE_NODE" => &["PRJ-RUI-GRAPH-01", "RUI-NODE-02", "CL-D02-7"],
        "ROOT_MISSING" => &["PRJ-RUI-GRAPH-02", "RUI-INV-02", "CL-D02-8"],
        "CHILD_UNRESOLVED" => &["PRJ-RUI-GRAPH-03", "RUI-INV-03", "CL-D02-8"],
        "DUPLICATE_CHILD" => &["PRJ-RUI-GRAPH-05", "RUI-INV-05", "CL-D02-8"],
        "GRAPH_CYCLE" => &["PRJ-RUI-GRAPH-04", "RUI-INV-04", "CL-D02-8"],
        "FRAME_INVALID" => &["PRJ-RUI-TX-04", "RUI-RECOV-01", "CL-D05-3"],
        "FRAME_NOT_JSON" => &["PRJ-RUI-FRAME-01", "RUI-RECOV-01", "CL-D05-1"],
        "UNKNOWN_COMPONENT" => &["PRJ-RUI-CAT-01", "RUI-RECOV-07", "RUI-INV-07"],
        "PROPS_INVALID" => &["PRJ-RUI-CAT-02", "RUI-INV-07"],
        "DATA_PARENT_MISSING" => &["PRJ-RUI-DATA-01", "CL-D03-2"],
        "DELETE_ABSENT" => &["PRJ-RUI-DATA-03", "CL-D03-5"],
        "LIMIT_OPERATIONS" => &["PRJ-RUI-LIMIT-05", "PRJ-RUI-LIMIT-09", "CL-D04-3"],
        "INTERRUPTED" => &["PRJ-RUI-TX-05", "RUI-RECOV-09", "CL-D05-7"],
        "SUPERSEDED_BY_BEGIN" => &["PRJ-RUI-TX-06", "CL-D09-2", "CL-D09-3"],
        _ => &[],
    }
}

// ---------------------------------------------------------------------------------------------
// Concrete records

fn node_id(id: u8) -> String {
    format!("n{id}")
}

fn children_json(children: Children) -> Value {
    match children {
        Children::Empty => json!([]),
        Children::One(id) => json!([node_id(id)]),
        Children::Twice(id) => json!([node_id(id), node_id(id)]),
    }
}

fn pointer_text(pointer: Pointer) -> &'static str {
    match pointer {
        Pointer::Member => "/a",
        Pointer::Nested => "/a/b",
    }
}

/// What one action puts on the stream.
enum Frame {
    Record(Value),
    Payload(&'static [u8]),
    End,
}

/// The producer: writes each action as the record a producer would send, numbering `seq` from
/// its own last begin (it does not know what the runtime discarded).
struct Producer {
    seq: u64,
    base: u64,
    begins: u32,
}

impl Producer {
    fn new() -> Producer {
        Producer {
            seq: 1,
            base: 0,
            begins: 0,
        }
    }

    fn next_seq(&mut self) -> u64 {
        let seq = self.seq;
        self.seq += 1;
        seq
    }

    /// The frame for `action`, `committed` being the committed revision when it is sent and
    /// `frame` the index the frame gets.
    fn frame(&mut self, action: Action, committed: u64, frame: usize) -> Frame {
        match action {
            Action::Begin(base) => {
                self.begins += 1;
                self.seq = 1;
                self.base = match base {
                    Base::Current => committed,
                    Base::Stale if committed > 0 => committed - 1,
                    Base::Stale => committed + 1,
                };
                Frame::Record(json!(["begin", 0, self.tx_id(), self.base]))
            }
            Action::Node(id, children) => {
                let seq = self.next_seq();
                Frame::Record(json!([
                    "node",
                    seq,
                    node_id(id),
                    "Box",
                    {},
                    children_json(children)
                ]))
            }
            Action::NodeWithUnknownComponent => {
                let seq = self.next_seq();
                Frame::Record(json!(["node", seq, format!("u{frame}"), "Unknown", {}, []]))
            }
            Action::NodeWithInvalidProps => {
                let seq = self.next_seq();
                Frame::Record(json!(["node", seq, format!("p{frame}"), "Text", { "text": 5 }, []]))
            }
            Action::Data(pointer) => {
                let seq = self.next_seq();
                let value = match pointer {
                    Pointer::Member => json!({}),
                    Pointer::Nested => json!(1),
                };
                Frame::Record(json!(["data", seq, pointer_text(pointer), value]))
            }
            Action::DeleteData(pointer) => {
                let seq = self.next_seq();
                Frame::Record(json!(["delete", seq, "data", pointer_text(pointer)]))
            }
            Action::DeleteNode(id) => {
                let seq = self.next_seq();
                Frame::Record(json!(["delete", seq, "node", node_id(id)]))
            }
            Action::Commit(new_revision, root) => {
                let seq = self.next_seq();
                let revision = match new_revision {
                    NewRevision::BasePlusOne => self.base + 1,
                    NewRevision::Wrong => self.base + 2,
                };
                Frame::Record(json!(["commit", seq, revision, node_id(root)]))
            }
            Action::Abort => {
                let seq = self.next_seq();
                Frame::Record(json!(["abort", seq, "cancelled", "the producer cancelled"]))
            }
            Action::SequenceGap => {
                // One position skipped: the producer lost a record.
                self.seq += 1;
                let seq = self.next_seq();
                Frame::Record(json!(["data", seq, "/gap", true]))
            }
            Action::InvalidFrame => {
                self.seq += 1;
                Frame::Payload(b"[\"node\", {\"broken\": ")
            }
            Action::InvalidRecord => {
                let seq = self.next_seq();
                Frame::Record(json!(["node", seq, "n0"]))
            }
            Action::UnknownOperation => {
                let seq = self.next_seq();
                Frame::Record(json!(["upsert", seq, "n0", "Box", {}, []]))
            }
            Action::EndOfStream => Frame::End,
        }
    }

    fn tx_id(&self) -> String {
        format!("t{}", self.begins)
    }
}

// ---------------------------------------------------------------------------------------------
// Observations in one reading

/// A transaction result; a rejection carries every code accepted for it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Result_ {
    Committed(u8),
    Aborted,
    Rejected(BTreeSet<&'static str>),
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct TxEntry {
    id: String,
    result: Result_,
}

/// The logs of one reading after some step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Logs {
    transactions: Vec<TxEntry>,
    quarantine: Vec<(usize, &'static str)>,
    rejections: Vec<(usize, &'static str)>,
}

/// One reading replayed along a path: its state and logs after each action.
struct Run {
    states: Vec<StreamState>,
    logs: Vec<Logs>,
    /// Whether the operation limit failed a transaction somewhere (the case then declares it).
    hit_limit: bool,
}

fn replay(model: &TransactionModel, path: &[Action]) -> Run {
    let mut state = model.init_states().remove(0);
    let mut logs = Logs::default();
    let mut producer_begins = 0u32;
    let mut open_id: Option<String> = None;
    let mut run = Run {
        states: Vec::new(),
        logs: Vec::new(),
        hit_limit: false,
    };
    let mut frame = 0usize;
    for &action in path {
        let before = state.clone();
        state = model.step(&before, action);
        let this_frame = frame;
        if action != Action::EndOfStream {
            frame += 1;
        }
        let finish = |logs: &mut Logs, id: &Option<String>, result: Result_| {
            logs.transactions.push(TxEntry {
                id: id.clone().unwrap_or_default(),
                result,
            });
        };
        let rejected = |r: Rejection| Result_::Rejected(BTreeSet::from([code(r)]));
        if let Action::Begin(_) = action {
            producer_begins += 1;
        }
        let new_id = Some(format!("t{producer_begins}"));
        for event in &state.last {
            match *event {
                Event::Opened => open_id = new_id.clone(),
                Event::Staged | Event::StreamEnded => {}
                Event::Quarantined => logs.quarantine.push((this_frame, FRAME_NOT_JSON)),
                Event::Committed => finish(
                    &mut logs,
                    &open_id,
                    Result_::Committed(state.committed.revision),
                ),
                Event::Aborted => finish(&mut logs, &open_id, Result_::Aborted),
                Event::Rejected(Rejection::OutsideTransaction) => logs
                    .rejections
                    .push((this_frame, code(Rejection::OutsideTransaction))),
                Event::Rejected(Rejection::StaleBase) if matches!(action, Action::Begin(_)) => {
                    finish(&mut logs, &new_id, rejected(Rejection::StaleBase))
                }
                Event::Rejected(r @ (Rejection::InvalidRecord | Rejection::UnknownOperation))
                    if before.open.is_none() =>
                {
                    logs.rejections.push((this_frame, code(r)))
                }
                Event::Rejected(r) => {
                    if r == Rejection::LimitExceeded {
                        run.hit_limit = true;
                    }
                    let result = match (action, &before.open) {
                        (Action::Commit(new_revision, root), Some(staging)) => {
                            let accepted: BTreeSet<&'static str> = model
                                .commit_failures(staging, new_revision, root)
                                .into_iter()
                                .map(code)
                                .collect();
                            assert!(
                                accepted.contains(code(r)),
                                "the model's own code is accepted"
                            );
                            Result_::Rejected(accepted)
                        }
                        // The record that passes the operation limit may itself be faulty:
                        // both are found at that record, and the texts do not order them, so
                        // either code is accepted (the model checks the limit first).
                        _ if r == Rejection::LimitExceeded => {
                            let mut codes = BTreeSet::from([code(r)]);
                            codes.extend(own_fault(model, &before, action).map(code));
                            Result_::Rejected(codes)
                        }
                        _ => rejected(r),
                    };
                    finish(&mut logs, &open_id, result);
                }
            }
        }
        if let Some(staging) = &state.open {
            if staging.faults.contains(&Rejection::LimitExceeded) {
                run.hit_limit = true;
            }
        } else {
            open_id = None;
        }
        run.states.push(state.clone());
        run.logs.push(logs.clone());
    }
    run
}

/// The fault `action` shows by itself in `before`, ignoring the operation limit, when this reading
/// finds it at the record: the code a limit may also be reported with (the trace checker,
/// harness/src/trace/transaction.rs, accepts the same two).
pub fn own_fault(model: &TransactionModel, before: &StreamState, action: Action) -> Option<Rejection> {
    let mut unlimited = before.clone();
    unlimited.open.as_mut()?.operations = 0;
    let after = model.step(&unlimited, action);
    after.last.iter().find_map(|event| match event {
        Event::Rejected(r) if *r != Rejection::LimitExceeded => Some(*r),
        _ => None,
    })
}

/// Every reading PRJ-RUI-TX-08 allows for `path`: each subset of the deferrable classes found only
/// at commit. The first is the model's own (nothing deferred). Only classes that fault somewhere
/// on the path when everything is deferred are varied: that reading keeps every transaction open
/// longest, staging the same records in the same order as any other reading up to where that one
/// closes, so a class it never finds is found by no reading and deferring it changes nothing.
fn readings(base: &TransactionModel, path: &[Action]) -> Vec<TransactionModel> {
    let with = |deferred: Vec<Rejection>| TransactionModel {
        deferred,
        ..base.clone()
    };
    let latest = with(Rejection::DEFERRABLE.to_vec());
    let mut state = latest.init_states().remove(0);
    let mut faulting = BTreeSet::new();
    for action in path {
        state = latest.step(&state, *action);
        if let Some(staging) = &state.open {
            faulting.extend(staging.faults.iter().copied());
        }
    }
    let classes: Vec<Rejection> = Rejection::DEFERRABLE
        .into_iter()
        .filter(|r| faulting.contains(r))
        .collect();
    (0u32..(1 << classes.len()))
        .map(|mask| {
            with(
                classes
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask >> i & 1 == 1)
                    .map(|(_, r)| *r)
                    .collect(),
            )
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Observation values

fn graph_json(state: &StreamState) -> Value {
    let committed = &state.committed;
    let mut nodes = serde_json::Map::new();
    for (id, children) in committed.graph.nodes.iter().enumerate() {
        if let Some(children) = children {
            nodes.insert(
                node_id(id as u8),
                json!({ "component": "Box", "props": {}, "children": children_json(*children) }),
            );
        }
    }
    json!({
        "revision": committed.revision,
        "root": committed.root.map(node_id),
        "nodes": nodes,
    })
}

fn data_json(state: &StreamState) -> Value {
    match state.committed.graph.data {
        DataDoc::Empty => json!({}),
        DataDoc::Member => json!({ "a": {} }),
        DataDoc::Nested => json!({ "a": { "b": 1 } }),
    }
}

fn codes_pattern(codes: &BTreeSet<&'static str>) -> Value {
    if codes.len() == 1 {
        json!(codes.iter().next())
    } else {
        one_of(codes.iter().map(|c| json!(c)))
    }
}

fn transactions_json(entries: &[TxEntry]) -> Value {
    Value::Array(
        entries
            .iter()
            .map(|e| match &e.result {
                Result_::Committed(revision) => {
                    json!({ "transactionId": e.id, "result": "committed", "revision": revision })
                }
                Result_::Aborted => json!({ "transactionId": e.id, "result": "aborted" }),
                Result_::Rejected(codes) => {
                    json!({ "transactionId": e.id, "result": "rejected", "code": codes_pattern(codes) })
                }
            })
            .collect(),
    )
}

fn frame_log_json(entries: &[(usize, &'static str)]) -> Value {
    Value::Array(
        entries
            .iter()
            .map(|(frame, code)| json!({ "frame": frame, "code": code }))
            .collect(),
    )
}

/// The observations the vectors compare, in step order.
const OBSERVATIONS: [&str; 6] = [
    "graph",
    "data",
    "revision",
    "transactions",
    "quarantine",
    "rejections",
];

/// The value of observation `what` in one reading after one step; whether a rejection in it
/// accepts several codes.
fn observe(what: &str, state: &StreamState, logs: &Logs) -> (Value, bool) {
    match what {
        "graph" => (graph_json(state), false),
        "data" => (data_json(state), false),
        "revision" => (json!(state.committed.revision), false),
        "transactions" => {
            let several = logs
                .transactions
                .iter()
                .any(|e| matches!(&e.result, Result_::Rejected(c) if c.len() > 1));
            (transactions_json(&logs.transactions), several)
        }
        "quarantine" => (frame_log_json(&logs.quarantine), false),
        _ => (frame_log_json(&logs.rejections), false),
    }
}

/// The expectation of `what` after step `index` over every reading: exact when they agree, a
/// `one-of` of their values (IMPL-DEFINED, PRJ-RUI-TX-08) when they do not.
fn expectation(what: &str, runs: &[Run], index: usize) -> Value {
    let mut values: Vec<Value> = Vec::new();
    let mut several = false;
    for run in runs {
        let (value, multi) = observe(what, &run.states[index], &run.logs[index]);
        several |= multi;
        if !values.contains(&value) {
            values.push(value);
        }
    }
    let mut requirements = Vec::new();
    let pattern = if values.len() == 1 {
        values.remove(0)
    } else {
        requirements.push("PRJ-RUI-TX-08");
        one_of(values)
    };
    if several {
        requirements.push("PRJ-RUI-TX-07");
    }
    let step = expect(what, pattern);
    if requirements.is_empty() {
        step
    } else {
        traced(strict(step, Strictness::ImplDefined), &requirements)
    }
}

// ---------------------------------------------------------------------------------------------
// Translation

/// What ends a path so its vector observes final outcomes: a commit that closes whatever a reading
/// still holds open (rejected as outside a transaction when nothing is), then the end of the
/// stream. The root is a node the open staging defines, else `n0`.
pub fn finish(state: &StreamState) -> Vec<Action> {
    if state.ended {
        return Vec::new();
    }
    let graph = state
        .open
        .as_ref()
        .map(|s| &s.graph)
        .unwrap_or(&state.committed.graph);
    let root = graph.nodes.iter().position(Option::is_some).unwrap_or(0) as u8;
    vec![
        Action::Commit(NewRevision::BasePlusOne, root),
        Action::EndOfStream,
    ]
}

/// Whether `path` (from the model's initial state) still needs `finish`.
fn end_state(model: &TransactionModel, path: &[Action]) -> StreamState {
    path.iter()
        .fold(model.init_states().remove(0), |state, action| {
            model.step(&state, *action)
        })
}

/// The requirement ids of a target (a transition class or `code:<CODE>`).
fn target_requirements(target: &str) -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = vec!["CL-D02-3"];
    if let Some(code) = target.strip_prefix("code:") {
        ids.extend_from_slice(code_requirements(code));
        return ids;
    }
    let kind = target.split('@').next().unwrap_or("");
    let by_kind: &[&str] = match kind {
        k if k.starts_with("begin") => &["RUI-TX-01", "CL-D09-1", "CL-D01-2"],
        k if k.starts_with("node") => &["RUI-NODE-01", "CL-D01-3", "RUI-TX-02"],
        k if k.starts_with("data") => &["RUI-DATA-01", "CL-D03-1", "CL-D01-4", "PRJ-RUI-TX-09"],
        k if k.starts_with("delete-data") => {
            &["RUI-DEL-01", "CL-D03-4", "CL-D01-6", "PRJ-RUI-TX-09"]
        }
        k if k.starts_with("delete-node") => {
            &["RUI-DEL-01", "CL-D03-4", "CL-D01-5", "PRJ-RUI-GRAPH-06"]
        }
        k if k.starts_with("commit") => &[
            "RUI-COMMIT-02",
            "RUI-COMMIT-03",
            "RUI-COMMIT-04",
            "CL-D02-9",
            "CL-D01-7",
        ],
        "abort" => &["RUI-ABORT-01", "RUI-ABORT-02", "CL-D01-8", "RUI-TX-03"],
        "sequence-gap" => &["RUI-TX-02", "RUI-RECOV-03", "CL-D05-4", "PRJ-RUI-TX-01"],
        "invalid-frame" => &[
            "RUI-RECOV-01",
            "RUI-RECOV-02",
            "CL-D05-1",
            "CL-D05-2",
            "PRJ-RUI-FRAME-01",
        ],
        "invalid-record" => &["CL-D01-9", "PRJ-RUI-REC-02"],
        "unknown-operation" => &["CL-D05-9", "PRJ-RUI-REC-03"],
        "end-of-stream" => &["RUI-RECOV-09", "CL-D05-7"],
        _ => &[],
    };
    ids.extend_from_slice(by_kind);
    // The outcome named in the class (commit outcomes, record faults).
    for code in Rejection::ALL.iter().map(|r| code(*r)) {
        let slug = code.to_ascii_lowercase().replace('_', "-");
        if target.contains(&slug) {
            ids.extend_from_slice(code_requirements(code));
        }
    }
    if target.contains("@outside") && kind != "begin-current" && kind != "begin-stale" {
        ids.extend_from_slice(code_requirements("RECORD_OUTSIDE_TRANSACTION"));
    }
    ids
}

fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

fn describe(target: &str) -> String {
    let text = match target.strip_prefix("code:") {
        Some(code) => format!("model path reaching {code}"),
        None if target == DIFFERENTIAL => "random model path (differential test)".to_string(),
        None if target == REGRESSION => {
            "shrunk differential failure (committed regression)".to_string()
        }
        None => format!("model transition {}", target.replace('@', " in ")),
    };
    text.chars().take(70).collect()
}

/// The targets of paths that the visitor did not choose.
const DIFFERENTIAL: &str = "differential";
const REGRESSION: &str = "differential regression";

/// The case for one model path: `path` is completed with `finish`; `slug_text` names it.
pub fn case_for(
    model: &TransactionModel,
    path: &[Action],
    target: &str,
    id_slug: &str,
    provenance: (&'static str, Option<String>),
) -> Case {
    let mut path = path.to_vec();
    path.extend(finish(&end_state(model, &path)));
    let runs: Vec<Run> = readings(model, &path)
        .iter()
        .map(|m| replay(m, &path))
        .collect();
    let reference = &runs[0];
    for run in &runs[1..] {
        for (a, b) in run.states.iter().zip(&reference.states) {
            assert_eq!(
                a.committed, b.committed,
                "every reading commits the same graph: {path:?}"
            );
        }
    }
    let hit_limit = runs.iter().any(|r| r.hit_limit);

    let mut script = Script::new(Framing::Any);
    let mut producer = Producer::new();
    let mut committed_revision = 0u64;
    // What a fresh runtime shows; an observation is expected again once some reading changes it.
    let mut last: Vec<Value> = OBSERVATIONS.iter().map(|what| initial(what)).collect();
    // CL-D09-3 only RECOMMENDS that a begin while a transaction is open opens a new one (the
    // model's reading); after such a begin, what follows depends on that choice. A transaction
    // open in any reading counts, not only in the model's own: where a failure is found only at
    // commit (PRJ-RUI-TX-08), a begin that the model's reading sees with nothing open meets a
    // transaction still open, and an implementation taking that reading may take either choice.
    let mut superseded = false;
    let expectation = |what: &str, runs: &[Run], index: usize, superseded: bool| {
        let step = expectation(what, runs, index);
        if superseded {
            traced(strict(step, Strictness::Recommended), &["CL-D09-3"])
        } else {
            step
        }
    };
    // Issue 27 §3: the observations after a frame cite those ids of its transition (and of the
    // codes it gave) that decide each one, else those of the path so far.
    let mut citer = crate::step_ids::PathCiter::default();
    let initial_state = model.init_states().into_iter().next();
    for (index, action) in path.iter().enumerate() {
        let before = if index == 0 { initial_state.as_ref() } else { reference.states.get(index - 1) };
        let mut ids: Vec<&str> = before
            .and_then(|state| TransactionCoverage.transition_class(state, action))
            .map(|class| target_requirements(&class))
            .unwrap_or_default();
        for code in TransactionCoverage.codes(&reference.states[index]) {
            ids.extend_from_slice(code_requirements(&code));
        }
        citer.transition(&ids);
        let open_before = index
            .checked_sub(1)
            .is_some_and(|before| runs.iter().any(|run| run.states[before].open.is_some()));
        match producer.frame(*action, committed_revision, script.next_frame()) {
            Frame::Record(record) => {
                script.record(&record);
            }
            Frame::Payload(bytes) => {
                script.payload(bytes);
            }
            Frame::End => script.end(),
        }
        committed_revision = u64::from(reference.states[index].committed.revision);
        let final_step = index + 1 == path.len();
        let mut observed = Vec::new();
        for (slot, what) in OBSERVATIONS.iter().enumerate() {
            let step = expectation(what, &runs, index, superseded);
            if final_step || last[slot] != step["is"] {
                last[slot] = step["is"].clone();
                observed.push(step);
            }
        }
        if observed.is_empty() {
            // Nothing observable changed in any reading: the transactions log shows it.
            observed.push(expectation("transactions", &runs, index, superseded));
        }
        citer.cite(&mut observed, Strictness::Required.as_str());
        script.extend(observed);
        superseded |= open_before && matches!(action, Action::Begin(_));
    }

    let mut requirements: Vec<&str> = Vec::new();
    for id in target_requirements(target) {
        if !requirements.contains(&id) {
            requirements.push(id);
        }
    }
    // The codes the path shows in the model's own reading are checked by the case too.
    for state in &reference.states {
        for id in TransactionCoverage
            .codes(state)
            .iter()
            .flat_map(|c| code_requirements(c))
        {
            if !requirements.contains(id) {
                requirements.push(id);
            }
        }
    }
    for id in &citer.cited {
        if !requirements.contains(&id.as_str()) {
            requirements.push(id);
        }
    }
    let mut case_setup = setup::setup(Framing::Any);
    if hit_limit {
        // PRJ-RUI-LIMIT-05: the model's operation limit, declared exactly.
        case_setup["limits"] = setup::limits(&[("maxOperations", u64::from(model.max_operations))]);
        for id in ["PRJ-RUI-LIMIT-05", "CL-D04-1"] {
            if !requirements.contains(&id) {
                requirements.push(id);
            }
        }
    }
    let (kind, seed) = provenance;
    Case::new(format!("{SECTION}.{id_slug}.001"), describe(target))
        .requirements(&requirements)
        .setup(case_setup)
        .steps(script.steps())
        .notes(
            "Generated from the transaction model: expectations are the model's state after each \
             frame, in every reading PRJ-RUI-TX-08 allows (one-of where they differ).",
        )
        .provenance(Provenance {
            kind,
            by: by(model),
            seed,
            path: path.iter().map(|a| format!("{a:?}")).collect(),
        })
}

/// Observation values of a fresh runtime (CL-D02-1/2, empty logs).
fn initial(what: &str) -> Value {
    match what {
        "graph" => json!({ "revision": 0, "root": null, "nodes": {} }),
        "data" => json!({}),
        "revision" => json!(0),
        _ => json!([]),
    }
}

/// The differential tests' translation: a walked path (from the one initial state) as a case, or
/// `None` for an empty path.
pub fn translate(init: usize, path: &[Action]) -> Option<Case> {
    if path.is_empty() || init != 0 {
        return None;
    }
    Some(case_for(
        &model(),
        path,
        DIFFERENTIAL,
        "differential",
        ("proptest", None),
    ))
}

// ---------------------------------------------------------------------------------------------
// Coverage

/// The coverage classification of the transaction model (`model::visit::Coverage`).
pub struct TransactionCoverage;

fn doc_name(doc: DataDoc) -> &'static str {
    match doc {
        DataDoc::Empty => "empty-doc",
        DataDoc::Member => "member-doc",
        DataDoc::Nested => "nested-doc",
    }
}

impl Coverage<TransactionModel> for TransactionCoverage {
    /// Action kind × what the spec cares about in the state it is taken in: whether a transaction
    /// is open and at the operation limit, the staged node or data document the record touches,
    /// and for a commit every check it fails. Every transition is expressible as frames.
    fn transition_class(&self, state: &StreamState, action: &Action) -> Option<String> {
        let model = model();
        let place = match &state.open {
            None => "outside",
            Some(s) if s.operations >= model.max_operations => "open-at-limit",
            Some(_) => "open",
        };
        let staging = state.open.as_ref().filter(|_| place == "open");
        let kind = match (*action, staging) {
            (Action::Begin(Base::Current), _) => "begin-current".to_string(),
            (Action::Begin(Base::Stale), _) => {
                // The concrete stale base is below the committed revision, or above it at 0.
                let side = if state.committed.revision > 0 {
                    "past"
                } else {
                    "future"
                };
                format!("begin-stale-{side}")
            }
            (Action::Node(id, children), Some(s)) => {
                let shape = match children {
                    Children::Empty => "leaf",
                    Children::One(c) if c == id => "self-child",
                    Children::One(_) => "one-child",
                    Children::Twice(_) => "twice-child",
                };
                let history = if s.defined[id as usize] {
                    "redefined"
                } else if s.graph.nodes[id as usize].is_some() {
                    "replacing"
                } else {
                    "new"
                };
                format!("node-{shape}-{history}")
            }
            (Action::Node(..), None) => "node".to_string(),
            (Action::NodeWithUnknownComponent, _) => "node-unknown-component".to_string(),
            (Action::NodeWithInvalidProps, _) => "node-props-invalid".to_string(),
            (Action::Data(p), Some(s)) => {
                format!("data-{}-{}", pointer_name(p), doc_name(s.graph.data))
            }
            (Action::Data(p), None) => format!("data-{}", pointer_name(p)),
            (Action::DeleteData(p), Some(s)) => {
                format!("delete-data-{}-{}", pointer_name(p), doc_name(s.graph.data))
            }
            (Action::DeleteData(p), None) => format!("delete-data-{}", pointer_name(p)),
            (Action::DeleteNode(id), Some(s)) => {
                let present = if s.graph.nodes[id as usize].is_some() {
                    "present"
                } else {
                    "absent"
                };
                format!("delete-node-{present}")
            }
            (Action::DeleteNode(_), None) => "delete-node".to_string(),
            (Action::Commit(new_revision, root), Some(s)) => {
                let failures = model.commit_failures(s, new_revision, root);
                if failures.is_empty() {
                    "commit-accepted".to_string()
                } else {
                    let codes: BTreeSet<String> = failures
                        .iter()
                        .map(|r| code(*r).to_ascii_lowercase().replace('_', "-"))
                        .collect();
                    format!(
                        "commit-{}",
                        codes.into_iter().collect::<Vec<_>>().join("-and-")
                    )
                }
            }
            (Action::Commit(..), None) => "commit".to_string(),
            (Action::Abort, _) => "abort".to_string(),
            (Action::SequenceGap, _) => "sequence-gap".to_string(),
            (Action::InvalidFrame, _) => "invalid-frame".to_string(),
            (Action::InvalidRecord, _) => "invalid-record".to_string(),
            (Action::UnknownOperation, _) => "unknown-operation".to_string(),
            (Action::EndOfStream, _) => "end-of-stream".to_string(),
        };
        Some(format!("{kind}@{place}"))
    }

    fn codes(&self, state: &StreamState) -> Vec<String> {
        state
            .last
            .iter()
            .filter_map(|event| match event {
                Event::Quarantined => Some(FRAME_NOT_JSON.to_string()),
                Event::Rejected(r) => Some(code(*r).to_string()),
                _ => None,
            })
            .collect()
    }

    fn all_codes(&self) -> Vec<String> {
        let mut codes: Vec<String> = Rejection::ALL
            .iter()
            .map(|r| code(*r).to_string())
            .collect();
        codes.push(FRAME_NOT_JSON.to_string());
        codes
    }

    fn finish(&self, _model: &TransactionModel, state: &StreamState) -> Vec<Action> {
        finish(state)
    }
}

fn pointer_name(pointer: Pointer) -> &'static str {
    match pointer {
        Pointer::Member => "member",
        Pointer::Nested => "nested",
    }
}

/// The cases for the covering paths and the certificate.
pub fn covering_cases() -> (Vec<Case>, model::visit::Certificate) {
    let model = model();
    let (paths, certificate): (Vec<Path<Action>>, _) =
        cover(MODEL, &model, &TransactionCoverage, MAX_STATES);
    let cases = paths
        .iter()
        .map(|path| {
            case_for(
                &model,
                &path.actions,
                &path.target,
                &slug(&path.target),
                ("model", None),
            )
        })
        .collect();
    (cases, certificate)
}

/// One case per committed regression of the differential test (`suites/regressions/transaction.json`).
pub fn regression_cases(regressions: &[Regression]) -> Vec<Case> {
    let model = model();
    regressions
        .iter()
        .filter_map(|regression| {
            let (init, path) = model::visit::walk(&model, &regression.choices);
            if path.is_empty() || init != 0 {
                return None;
            }
            let mut case = case_for(
                &model,
                &path,
                REGRESSION,
                &regression.slug(),
                ("proptest", Some(regression.seed.clone())),
            );
            regression.annotate(&mut case);
            Some(case)
        })
        .collect()
}

pub fn generated() -> Vec<Generated> {
    let (mut cases, certificate) = covering_cases();
    let regressions = load_regressions(&regressions_dir(), MODEL).unwrap_or_else(|e| panic!("{e}"));
    cases.extend(regression_cases(&regressions));
    let mut ids = BTreeSet::new();
    for case in &cases {
        assert!(ids.insert(case.id.clone()), "duplicate case id {}", case.id);
    }
    let section = Section::new(
        SECTION,
        "Rixx UI transaction lifecycle: paths generated from the model",
        "suites::cases::from_model::transaction",
    )
    .cases(cases);
    vec![Generated {
        sections: vec![section],
        certificate,
    }]
}
