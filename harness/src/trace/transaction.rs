//! Trace validation of a Rixx UI consumer against the transaction model (`model::transaction`,
//! RUI "Transaction", "Records", "Graph invariants", "Recovery"; CL-D01..D05, CL-D08, CL-D09):
//! the records the consumer received, in order, advance the set of model states; its outcomes
//! (`transactions`: committed with the revision, aborted, rejected with the code; `quarantine`,
//! `rejections`, `frames`, the committed `revision`, `graph` and `data`) filter it; the first
//! record no path explains is reported.
//!
//! How a trace maps onto the model (harness/README.md "Trace validation" says the same), the
//! inverse of the producer of `suites/src/cases/from_model/transaction.rs`:
//! - A frame is one model action. A payload that is not JSON is `InvalidFrame` (quarantined
//!   `FRAME_NOT_JSON`); an array with a known tag and the wrong arity is `InvalidRecord`; a tag 0.1
//!   does not know is `UnknownOperation`. Inside a transaction a record whose sequence number
//!   skips ahead is `SequenceGap`. A `begin` naming the committed revision is `Begin(Current)`,
//!   any other `Begin(Stale)`; a `commit` naming the committed revision + 1 is
//!   `Commit(BasePlusOne, root)`, any other `Commit(Wrong, root)`. A `node` of a component the
//!   catalog lacks is `NodeWithUnknownComponent`, one whose props fail the component's schema
//!   `NodeWithInvalidProps`, any other `Node(id, children)` with `[]`, `[c]` or `[c, c]` children.
//!   Node ids are numbered in order of first use; data pointers must use one member name at the
//!   first level and one at the second (the model's `/a`, `/a/b`), a value written at the first
//!   level `{}`, unless the trace writes nothing deeper: then the one first-level member may hold
//!   any value, and the `data` observation compares which member is present, not its value (the
//!   fixed vectors judge values). `feed: end` is `EndOfStream`.
//! - Every reading PRJ-RUI-TX-08 allows (each deferrable class found at its record or only at
//!   commit, `TransactionModel::deferred`, 128 selections) is tried; any explaining the trace is
//!   enough. A rejected commit may name any code of `commit_failures` (PRJ-RUI-TX-07), a limit
//!   the record's own fault too.
//! - Outside the model: framing-specific streams (`feed: bytes`/`message`: check-trace does not
//!   decode framings), action dispatch, action policies and components with action props, a
//!   frame near a limit other than `maxOperations` (checked conservatively: the longest string,
//!   longest array, depth and the bytes of all frames against the setup's limits or the minimum
//!   profile),
//!   more than 8 node ids, longer child lists, other data shapes, a payload that is JSON but not
//!   a record array, sequence numbers that go back.
//! - A `begin` that supersedes an open transaction opens the new one (RECOMMENDED CL-D09-3) or
//!   nothing; a commit whose graph holds a cycle among nodes the root does not reach commits
//!   (RECOMMENDED PRJ-RUI-GRAPH-07) or fails with GRAPH_CYCLE; a trace only the departing reading
//!   explains is explained, and the report names the entry it departs from.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use jsonschema::{Draft, Validator};
use model::transaction::{Action, Base, Children, DataDoc, Event, NewRevision, Pointer, Rejection, StreamState, TransactionModel};
use model::stateright::Model;
use serde_json::{json, Value};

use super::format::{Body, Record, Trace};
use super::invocation::{Failure, OutOfScope, Verdict};
// The stable code (CL-D08) of each class of the model, as the generated vectors name them.
use suites::cases::from_model::transaction::{code, own_fault};

/// The most node ids the checker numbers.
const MAX_NODE_IDS: usize = 8;

/// The minimum profile's operation limit (vectors/README.md "Rixx UI setup"), when the setup
/// names none: the implementation's own is at least that.
const MIN_PROFILE_OPERATIONS: u64 = 64;

/// The quarantine code of a frame that is not JSON.
const FRAME_NOT_JSON: &str = "FRAME_NOT_JSON";


/// Whether any cycle runs through the nodes of a graph, reachable from its root or not.
fn has_cycle(nodes: &[Option<Children>]) -> bool {
    let children = |id: usize| -> Vec<usize> {
        match nodes.get(id).copied().flatten() {
            Some(Children::One(child)) | Some(Children::Twice(child)) => vec![usize::from(child)],
            _ => Vec::new(),
        }
    };
    // 0 unvisited, 1 on the current path, 2 done; iterative, the graph has at most 8 nodes.
    let mut mark = vec![0u8; nodes.len()];
    for start in 0..nodes.len() {
        if mark[start] != 0 || nodes[start].is_none() {
            continue;
        }
        let mut stack = vec![(start, 0usize)];
        mark[start] = 1;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            let kids = children(node);
            if let Some(&child) = kids.get(*next) {
                *next += 1;
                match mark.get(child) {
                    Some(1) => return true,
                    Some(0) if nodes[child].is_some() => {
                        mark[child] = 1;
                        stack.push((child, 0));
                    }
                    _ => {}
                }
            } else {
                mark[node] = 2;
                stack.pop();
            }
        }
    }
    false
}

/// The requirement ids behind each code.
fn code_requirements(code: &str) -> &'static [&'static str] {
    match code {
        "RECORD_OUTSIDE_TRANSACTION" => &["PRJ-RUI-REC-01", "CL-D05-8", "CL-D09-4"],
        "RECORD_INVALID" => &["PRJ-RUI-REC-02", "CL-D01-9"],
        "UNKNOWN_OPERATION" => &["PRJ-RUI-REC-03", "CL-D05-9"],
        "SEQUENCE_GAP" => &["PRJ-RUI-TX-01", "CL-D05-4"],
        "STALE_BASE_REVISION" => &["PRJ-RUI-TX-02", "CL-D02-5", "CL-D05-5"],
        "REVISION_MISMATCH" => &["PRJ-RUI-TX-03", "CL-D02-6"],
        "DUPLICATE_NODE" => &["PRJ-RUI-GRAPH-01", "CL-D02-7"],
        "ROOT_MISSING" | "CHILD_UNRESOLVED" | "DUPLICATE_CHILD" | "GRAPH_CYCLE" => &["CL-D02-8"],
        "FRAME_INVALID" => &["PRJ-RUI-TX-04", "CL-D05-3"],
        "FRAME_NOT_JSON" => &["PRJ-RUI-FRAME-01", "CL-D05-1"],
        "UNKNOWN_COMPONENT" => &["PRJ-RUI-CAT-01"],
        "PROPS_INVALID" => &["PRJ-RUI-CAT-02"],
        "DATA_PARENT_MISSING" => &["PRJ-RUI-DATA-01", "CL-D03-2"],
        "DELETE_ABSENT" => &["PRJ-RUI-DATA-03", "CL-D03-5"],
        "LIMIT_OPERATIONS" => &["PRJ-RUI-LIMIT-05", "CL-D04-3"],
        "INTERRUPTED" => &["PRJ-RUI-TX-05", "CL-D05-7"],
        "SUPERSEDED_BY_BEGIN" => &["PRJ-RUI-TX-06", "CL-D09-2", "CL-D09-3"],
        _ => &[],
    }
}

/// One frame as decoded once for the whole trace; whether it is in sequence, and which base or
/// revision it names, depend on each path.
#[derive(Clone, Debug)]
enum Frame {
    NotJson,
    InvalidRecord,
    UnknownOperation,
    Begin { seq: u64, id: String, base: u64 },
    Node { seq: u64, kind: NodeKind },
    /// A write; its pointer is outside the model's document when it is `Err` (which matters
    /// only where the record is applied: not in a gap, nor outside a transaction).
    Data { seq: u64, pointer: Result<Pointer, String>, scalar: Option<String> },
    DeleteData { seq: u64, pointer: Pointer },
    DeleteNode { seq: u64, id: u8 },
    Commit { seq: u64, revision: u64, root: u8 },
    Abort { seq: u64 },
    End,
}

#[derive(Clone, Copy, Debug)]
enum NodeKind {
    Valid(u8, Children),
    UnknownComponent,
    InvalidProps,
}

/// One record of the trace as the checker uses it.
enum Step {
    /// Frames received (with the index of the first).
    Frames(usize, Vec<Frame>),
    Observe(Observation),
    /// Not judged.
    Other(String),
}

#[derive(Clone, Debug)]
enum Observation {
    Transactions,
    Quarantine,
    Rejections,
    Frames,
    Revision,
    Graph,
    Data,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum TxResult {
    Committed(u8),
    Aborted,
    Rejected(BTreeSet<&'static str>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Path {
    state: StreamState,
    next_seq: u64,
    open_id: Option<String>,
    transactions: Vec<(String, TxResult)>,
    quarantine: Vec<(usize, &'static str)>,
    rejections: Vec<(usize, &'static str)>,
    /// The RECOMMENDED entries this path departs from: CL-D09-3 (a begin superseded an open
    /// transaction and opened nothing), PRJ-RUI-GRAPH-07 (a cycle among unreachable nodes failed
    /// the commit).
    departures: BTreeSet<&'static str>,
}

struct Names {
    /// Model node id -> concrete id.
    node_ids: Vec<String>,
    /// The data member names of the first and second level.
    members: [Option<String>; 2],
    max_operations: u8,
    /// The first-level member holds values other than `{}` (only its presence is compared).
    scalar_member: bool,
}

pub struct Checker {
    steps: Vec<(usize, Step)>,
    names: Names,
    /// Frames received in the whole trace.
    frames: usize,
}

impl Checker {
    pub fn new(trace: &Trace) -> Result<Checker, OutOfScope> {
        let out = |line: usize, message: String| OutOfScope { line, message };
        let setup = &trace.header.setup;
        let limits = setup.get("limits").and_then(Value::as_object);
        let bounds = Bounds::of(limits);
        let max_operations = limits.and_then(|l| l.get("maxOperations")).and_then(Value::as_u64).unwrap_or(MIN_PROFILE_OPERATIONS).min(u64::from(u8::MAX)) as u8;
        let mut components: BTreeMap<String, (Validator, bool, bool)> = BTreeMap::new();
        for (name, component) in setup.pointer("/catalog/components").and_then(Value::as_object).into_iter().flatten() {
            let schema = component.get("props").cloned().unwrap_or(json!({}));
            let validator = jsonschema::options()
                .with_draft(Draft::Draft202012)
                .build(&schema)
                .map_err(|e| out(1, format!("the props schema of `{name}` does not compile: {e}")))?;
            let has_actions = component.get("actions").and_then(Value::as_array).is_some_and(|a| !a.is_empty());
            components.insert(name.clone(), (validator, component.get("children").and_then(Value::as_bool).unwrap_or(false), has_actions));
        }
        let mut bounds = bounds;
        let mut decoder = Decoder { components, ids: Vec::new(), members: [None, None], scalars: BTreeSet::new() };
        let mut steps = Vec::new();
        let mut frames = 0usize;
        let mut ended = false;
        for record in trace.records() {
            let record = &record;
            let line = record.line;
            let step = match &record.body {
                Body::Call { call, threw } => {
                    if *threw {
                        return Err(out(line, "a feed the consumer threw on is outside the transaction model".into()));
                    }
                    if ended {
                        return Err(out(line, "frames after the end of the stream are outside the transaction model".into()));
                    }
                    match (call.get("feed").and_then(Value::as_str), call.get("dispatch"), call.get("gate")) {
                        (Some("records"), _, _) => {
                            let mut decoded = Vec::new();
                            for frame in call.get("frames").and_then(Value::as_array).into_iter().flatten() {
                                bounds.admit(frame).map_err(|m| out(line, m))?;
                                decoded.push(decoder.frame(frame).map_err(|m| out(line, m))?);
                            }
                            let first = frames;
                            frames += decoded.len();
                            Step::Frames(first, decoded)
                        }
                        (Some("end"), _, _) => {
                            ended = true;
                            Step::Frames(frames, vec![Frame::End])
                        }
                        (Some(other), _, _) => {
                            return Err(out(line, format!("a framing-specific stream (`feed: {}`): check-trace judges the records a consumer received (`feed: records`), not framings", crate::quote::bounded(other))))
                        }
                        (_, Some(_), _) | (_, _, Some(_)) => {
                            return Err(out(line, "action dispatch and action policies are outside the transaction model".into()))
                        }
                        _ => Step::Other("call".into()),
                    }
                }
                Body::Observation { query, .. } => match query.get("expect").and_then(Value::as_str).unwrap_or_default() {
                    "transactions" => Step::Observe(Observation::Transactions),
                    "quarantine" => Step::Observe(Observation::Quarantine),
                    "rejections" => Step::Observe(Observation::Rejections),
                    "frames" => Step::Observe(Observation::Frames),
                    "revision" => Step::Observe(Observation::Revision),
                    "graph" => Step::Observe(Observation::Graph),
                    "data" => Step::Observe(Observation::Data),
                    other => Step::Other(format!("observe {}", crate::quote::bounded(other))),
                },
            };
            steps.push((line, step));
        }
        // maxDepth bounds the tree too: a tree of fewer nodes than the bound never reaches it.
        if decoder.ids.len() as u64 >= bounds.depth {
            return Err(out(1, format!("{} node ids where maxDepth is {}: a tree could reach the depth limit (CL-D04), which is not in the transaction model", decoder.ids.len(), bounds.depth)));
        }
        // One first-level member holding any value, and nothing deeper: the model's `/a` with the
        // value left to the fixed vectors (the `data` observation then compares the shape only).
        let scalar_member = match (decoder.scalars.len(), &decoder.members) {
            (1, [first, None]) => first.as_ref().is_none_or(|m| decoder.scalars.contains(m)),
            _ => false,
        };
        if scalar_member {
            let name = decoder.scalars.iter().next().cloned();
            decoder.members[0] = name.clone();
            for (_, step) in &mut steps {
                if let Step::Frames(_, frames) = step {
                    for frame in frames {
                        if let Frame::Data { pointer, scalar, .. } = frame {
                            if *scalar == name {
                                *pointer = Ok(Pointer::Member);
                            }
                        }
                    }
                }
            }
        }
        let names = Names { node_ids: decoder.ids, members: decoder.members, max_operations, scalar_member };
        Ok(Checker { steps, names, frames })
    }

    fn model(&self, deferred: Vec<Rejection>) -> TransactionModel {
        TransactionModel {
            node_ids: self.names.node_ids.len().max(1) as u8,
            max_transactions: u8::MAX,
            max_operations: self.names.max_operations,
            deferred,
            fault: None,
        }
    }

    /// Every reading of PRJ-RUI-TX-08: each subset of the deferrable classes.
    fn readings(&self) -> Vec<TransactionModel> {
        (0..1u32 << Rejection::DEFERRABLE.len())
            .map(|bits| self.model(Rejection::DEFERRABLE.iter().enumerate().filter(|(i, _)| bits & (1 << i) != 0).map(|(_, r)| *r).collect()))
            .collect()
    }

    /// Runs the trace under every reading; explained if one explains it.
    pub fn check(&self, trace: &Trace) -> Result<Verdict, OutOfScope> {
        let mut best: Option<Failure> = None;
        let mut explained: Option<Verdict> = None;
        for model in self.readings() {
            match self.check_reading(&model, trace)? {
                Ok(verdict) => {
                    // A reading whose paths all depart from RECOMMENDED CL-D09-3 explains the
                    // trace only if no reading does without departing.
                    if !matches!(&verdict, Verdict::Explained { departures, .. } if !departures.is_empty()) {
                        return Ok(verdict);
                    }
                    explained.get_or_insert(verdict);
                }
                Err(failure) => {
                    if best.as_ref().is_none_or(|b| failure.record > b.record) {
                        best = Some(failure);
                    }
                }
            }
        }
        if let Some(verdict) = explained {
            return Ok(verdict);
        }
        Ok(Verdict::NotExplained(best.expect("at least one reading")))
    }

    fn check_reading(&self, model: &TransactionModel, trace: &Trace) -> Result<Result<Verdict, Failure>, OutOfScope> {
        let initial = Path {
            state: model.init_states().remove(0),
            next_seq: 0,
            open_id: None,
            transactions: Vec::new(),
            quarantine: Vec::new(),
            rejections: Vec::new(),
            departures: BTreeSet::new(),
        };
        let mut paths = vec![initial];
        let mut received = 0usize;
        let mut judged = 0;
        let mut not_judged: BTreeMap<String, usize> = BTreeMap::new();
        for (index, (line, step)) in self.steps.iter().enumerate() {
            match step {
                Step::Other(name) => *not_judged.entry(name.clone()).or_default() += 1,
                Step::Frames(first, frames) => {
                    judged += 1;
                    for (k, frame) in frames.iter().enumerate() {
                        let mut next = Vec::new();
                        for path in &paths {
                            next.extend(self.apply(model, path, frame, first + k).map_err(|m| OutOfScope { line: *line, message: m })?);
                        }
                        paths = dedup(next);
                    }
                    if !matches!(frames.last(), Some(Frame::End)) {
                        received = first + frames.len();
                    }
                }
                Step::Observe(observation) => {
                    judged += 1;
                    let record = trace.record(index);
                    let value = match &record.body {
                        Body::Observation { value, .. } => value,
                        Body::Call { .. } => &Value::Null,
                    };
                    let kept: Vec<Path> = paths.iter().filter(|p| self.observe(p, observation, value, received)).cloned().collect();
                    if kept.is_empty() {
                        return Ok(Err(self.failure(index, &record, &paths, observation, value, received)));
                    }
                    paths = dedup(kept);
                }
            }
        }
        // A departure is reported when every path that explains the trace needs it.
        let departures = match paths.split_first() {
            Some((first, rest)) => first
                .departures
                .iter()
                .filter(|d| rest.iter().all(|p| p.departures.contains(*d)))
                .map(|d| d.to_string())
                .collect(),
            None => Vec::new(),
        };
        Ok(Ok(Verdict::Explained { paths: paths.len(), departures, judged, not_judged }))
    }

    /// The path after one frame.
    /// The paths after one frame: the model's successor, and after a `begin` that superseded an
    /// open transaction also the one where it opens nothing (departing from RECOMMENDED CL-D09-3,
    /// as `reference-driver --choices alternate` does).
    fn apply(&self, model: &TransactionModel, path: &Path, frame: &Frame, index: usize) -> Result<Vec<Path>, String> {
        let open = path.state.open.is_some();
        let committed = u64::from(path.state.committed.revision);
        let in_sequence = |seq: u64| -> Result<bool, String> {
            if !open || seq == path.next_seq {
                Ok(true)
            } else if seq > path.next_seq {
                Ok(false)
            } else {
                Err(format!("a sequence number that goes back ({seq} where {} was next) is outside the transaction model", path.next_seq))
            }
        };
        let seq_of = match frame {
            Frame::Node { seq, .. } | Frame::Data { seq, .. } | Frame::DeleteData { seq, .. } | Frame::DeleteNode { seq, .. } | Frame::Commit { seq, .. } | Frame::Abort { seq } => Some(*seq),
            _ => None,
        };
        let gap = match seq_of {
            Some(seq) => !in_sequence(seq)?,
            None => false,
        };
        let seq_after = match (frame, seq_of) {
            (Frame::Begin { seq, .. }, _) => seq + 1,
            (_, Some(seq)) => seq + 1,
            _ => path.next_seq,
        };
        let action = match frame {
            _ if gap => Action::SequenceGap,
            Frame::NotJson => Action::InvalidFrame,
            Frame::InvalidRecord => Action::InvalidRecord,
            Frame::UnknownOperation => Action::UnknownOperation,
            Frame::End => Action::EndOfStream,
            Frame::Begin { base, .. } => Action::Begin(if *base == committed { Base::Current } else { Base::Stale }),
            Frame::Node { kind, .. } => match kind {
                NodeKind::Valid(id, children) => Action::Node(*id, *children),
                NodeKind::UnknownComponent => Action::NodeWithUnknownComponent,
                NodeKind::InvalidProps => Action::NodeWithInvalidProps,
            },
            // Outside a transaction a record is rejected whatever it writes.
            Frame::Data { pointer, .. } if !open => Action::Data(pointer.clone().unwrap_or(Pointer::Member)),
            Frame::Data { pointer, .. } => Action::Data(pointer.clone()?),
            Frame::DeleteData { pointer, .. } => Action::DeleteData(*pointer),
            Frame::DeleteNode { id, .. } => Action::DeleteNode(*id),
            Frame::Commit { revision, root, .. } => {
                Action::Commit(if *revision == committed + 1 { NewRevision::BasePlusOne } else { NewRevision::Wrong }, *root)
            }
            Frame::Abort { .. } => Action::Abort,
        };
        if path.state.begun == u8::MAX - 1 {
            return Err("more than 250 transactions are outside the transaction model".into());
        }
        let before = &path.state;
        let state = model.step(before, action);
        let mut successors = vec![(state.clone(), None)];
        if state.last.contains(&Event::Rejected(Rejection::Superseded)) {
            let mut waits = state.clone();
            waits.open = None;
            waits.last = vec![Event::Rejected(Rejection::Superseded)];
            successors.push((waits, Some("CL-D09-3")));
        }
        // PRJ-RUI-GRAPH-07 is RECOMMENDED: a cycle among nodes the root does not reach may also
        // fail the commit with GRAPH_CYCLE.
        if matches!(action, Action::Commit(..)) && state.last.contains(&Event::Committed) && has_cycle(&state.committed.graph.nodes) {
            let mut failed = before.clone();
            failed.open = None;
            failed.last = vec![Event::Rejected(Rejection::Cycle)];
            successors.push((failed, Some("PRJ-RUI-GRAPH-07")));
        }
        let mut results = Vec::new();
        for (state, departs) in successors {
            let mut next = path.clone();
            next.departures.extend(departs);
            next.next_seq = seq_after;
            let begin_id = match frame {
                Frame::Begin { id, .. } => Some(id.clone()),
                _ => None,
            };
            for event in &state.last {
                match *event {
                    Event::Opened => next.open_id = begin_id.clone(),
                    Event::Staged | Event::StreamEnded => {}
                    Event::Quarantined => next.quarantine.push((index, FRAME_NOT_JSON)),
                    Event::Committed => next.transactions.push((next.open_id.clone().unwrap_or_default(), TxResult::Committed(state.committed.revision))),
                    Event::Aborted => next.transactions.push((next.open_id.clone().unwrap_or_default(), TxResult::Aborted)),
                    Event::Rejected(Rejection::OutsideTransaction) => next.rejections.push((index, code(Rejection::OutsideTransaction))),
                    Event::Rejected(Rejection::StaleBase) if matches!(action, Action::Begin(_)) => {
                        next.transactions.push((begin_id.clone().unwrap_or_default(), TxResult::Rejected(BTreeSet::from([code(Rejection::StaleBase)]))))
                    }
                    Event::Rejected(r @ (Rejection::InvalidRecord | Rejection::UnknownOperation)) if before.open.is_none() => next.rejections.push((index, code(r))),
                    Event::Rejected(r) => {
                        let codes = match (action, &before.open) {
                            (Action::Commit(new_revision, root), Some(staging)) => {
                                let mut codes: BTreeSet<&'static str> = model.commit_failures(staging, new_revision, root).into_iter().map(code).collect();
                                codes.insert(code(r));
                                codes
                            }
                            _ if r == Rejection::LimitExceeded => {
                                let mut codes = BTreeSet::from([code(r)]);
                                codes.extend(own_fault(model, before, action).map(code));
                                codes
                            }
                            _ => BTreeSet::from([code(r)]),
                        };
                        next.transactions.push((next.open_id.clone().unwrap_or_default(), TxResult::Rejected(codes)));
                    }
                }
            }
            if state.open.is_none() {
                next.open_id = None;
            }
            next.state = state;
            results.push(next);
        }
        Ok(results)
    }

    fn observe(&self, path: &Path, observation: &Observation, value: &Value, received: usize) -> bool {
        match observation {
            Observation::Transactions => {
                let Some(entries) = value.as_array() else { return false };
                entries.len() == path.transactions.len()
                    && entries.iter().zip(&path.transactions).all(|(e, (id, result))| {
                        e.get("transactionId").and_then(Value::as_str) == Some(id.as_str())
                            && match result {
                                TxResult::Committed(revision) => e.get("result").and_then(Value::as_str) == Some("committed") && e.get("revision").and_then(Value::as_u64) == Some(u64::from(*revision)),
                                TxResult::Aborted => e.get("result").and_then(Value::as_str) == Some("aborted"),
                                TxResult::Rejected(codes) => {
                                    e.get("result").and_then(Value::as_str) == Some("rejected") && e.get("code").and_then(Value::as_str).is_some_and(|c| codes.contains(c))
                                }
                            }
                    })
            }
            Observation::Quarantine => *value == log_json(&path.quarantine),
            Observation::Rejections => *value == log_json(&path.rejections),
            Observation::Frames => *value == self.frames_json(path, received),
            Observation::Revision => value.as_u64() == Some(u64::from(path.state.committed.revision)),
            Observation::Graph => {
                let committed = &path.state.committed;
                let root = committed.root.map(|r| json!(self.names.node_ids[r as usize])).unwrap_or(Value::Null);
                let ids: BTreeSet<&str> = committed.graph.nodes.iter().enumerate().filter(|(_, n)| n.is_some()).map(|(i, _)| self.names.node_ids[i].as_str()).collect();
                let seen: Option<BTreeSet<&str>> = value.get("nodes").and_then(Value::as_object).map(|n| n.keys().map(String::as_str).collect());
                value.get("revision").and_then(Value::as_u64) == Some(u64::from(committed.revision)) && value.get("root") == Some(&root) && seen.as_ref() == Some(&ids)
            }
            Observation::Data => {
                let member = |level: usize| self.names.members[level].clone().unwrap_or_default();
                match path.state.committed.graph.data {
                    DataDoc::Empty => *value == json!({}),
                    DataDoc::Member if self.names.scalar_member => value.as_object().is_some_and(|o| o.len() == 1 && o.contains_key(&member(0))),
                    DataDoc::Member => *value == json!({ member(0): {} }),
                    DataDoc::Nested => {
                        let Some(object) = value.as_object() else { return false };
                        object.len() == 1 && object.get(&member(0)).and_then(Value::as_object).is_some_and(|inner| inner.len() == 1 && inner.contains_key(&member(1)))
                    }
                }
            }
        }
    }

    fn frames_json(&self, path: &Path, received: usize) -> Value {
        let entries: Vec<Value> = (0..received.min(self.frames))
            .map(|frame| {
                if let Some((_, code)) = path.quarantine.iter().find(|(f, _)| *f == frame) {
                    json!({ "frame": frame, "result": "quarantined", "code": code })
                } else if let Some((_, code)) = path.rejections.iter().find(|(f, _)| *f == frame) {
                    json!({ "frame": frame, "result": "rejected", "code": code })
                } else {
                    json!({ "frame": frame, "result": "accepted" })
                }
            })
            .collect();
        Value::Array(entries)
    }

    fn expected(&self, path: &Path, observation: &Observation, received: usize) -> String {
        match observation {
            Observation::Transactions => {
                let entries: Vec<String> = path
                    .transactions
                    .iter()
                    .map(|(id, result)| match result {
                        TxResult::Committed(r) => format!("{id} committed (revision {r})"),
                        TxResult::Aborted => format!("{id} aborted"),
                        TxResult::Rejected(codes) => format!("{id} rejected {}", codes.iter().copied().collect::<Vec<_>>().join(" | ")),
                    })
                    .collect();
                format!("transactions: [{}]", entries.join(", "))
            }
            Observation::Quarantine => format!("quarantine: {}", log_json(&path.quarantine)),
            Observation::Rejections => format!("rejections: {}", log_json(&path.rejections)),
            Observation::Frames => format!("frames: {}", self.frames_json(path, received)),
            Observation::Revision => format!("revision: {}", path.state.committed.revision),
            Observation::Graph => format!("graph at revision {}, root {}", path.state.committed.revision, path.state.committed.root.map(|r| self.names.node_ids[r as usize].clone()).unwrap_or_else(|| "null".into())),
            Observation::Data => format!("data: {:?}", path.state.committed.graph.data),
        }
    }

    fn failure(&self, index: usize, record: &Record, paths: &[Path], observation: &Observation, value: &Value, received: usize) -> Failure {
        let allowed: Vec<String> = paths.iter().map(|p| self.expected(p, observation, received)).collect::<BTreeSet<_>>().into_iter().collect();
        let mut codes: BTreeSet<String> = BTreeSet::new();
        collect_codes(value, &mut codes);
        for path in paths {
            for (_, result) in &path.transactions {
                if let TxResult::Rejected(c) = result {
                    codes.extend(c.iter().map(|c| c.to_string()));
                }
            }
            codes.extend(path.quarantine.iter().chain(&path.rejections).map(|(_, c)| c.to_string()));
        }
        let mut requirements: BTreeSet<String> = codes.iter().flat_map(|c| code_requirements(c).iter().map(|s| s.to_string())).collect();
        let general: &[&str] = match observation {
            Observation::Transactions => &["CL-D02-6", "CL-D02-9", "CL-D05-6"],
            Observation::Revision | Observation::Graph => &["CL-D02-1", "CL-D02-6", "CL-D02-9", "CL-D05-6"],
            Observation::Data => &["CL-D02-2", "CL-D02-9"],
            Observation::Quarantine | Observation::Rejections | Observation::Frames => &["CL-D05-1", "CL-D05-8"],
        };
        requirements.extend(general.iter().map(|s| s.to_string()));
        Failure { record: index, line: record.line, before: paths.iter().map(|p| self.describe(p)).collect(), allowed, requirements: requirements.into_iter().collect() }
    }

    fn describe(&self, path: &Path) -> String {
        let s = &path.state;
        let nodes: Vec<String> = s.committed.graph.nodes.iter().enumerate().filter_map(|(i, n)| n.map(|c| format!("{} {:?}", self.names.node_ids[i], c))).collect();
        format!(
            "committed revision {} (root {}, nodes [{}], data {:?}); {}",
            s.committed.revision,
            s.committed.root.map(|r| self.names.node_ids[r as usize].clone()).unwrap_or_else(|| "null".into()),
            nodes.join(", "),
            s.committed.graph.data,
            match (&s.open, &path.open_id) {
                (Some(staging), id) => format!("transaction {} open ({} operation(s), next seq {})", id.clone().unwrap_or_default(), staging.operations, path.next_seq),
                (None, _) => "no transaction open".into(),
            }
        )
    }
}

/// The limits of CL-D04 other than the operation count, which the model does not have: a trace
/// is judged only when no frame comes near them (every frame, and all frames together, within
/// every bound), so they never decide anything.
struct Bounds {
    id_length: u64,
    string_length: u64,
    array_length: u64,
    depth: u64,
    transaction_bytes: u64,
    /// Payload bytes of every frame so far.
    bytes: u64,
}

impl Bounds {
    /// The setup's limits, or the minimum profile's (vectors/README.md "Rixx UI setup"), which
    /// every implementation's own bounds reach.
    fn of(limits: Option<&serde_json::Map<String, Value>>) -> Bounds {
        let get = |name: &str, minimum: u64| limits.and_then(|l| l.get(name)).and_then(Value::as_u64).unwrap_or(minimum);
        Bounds {
            id_length: get("maxIdLength", 64),
            string_length: get("maxStringLength", 1024),
            array_length: get("maxArrayLength", 64),
            depth: get("maxDepth", 16),
            transaction_bytes: get("maxTransactionBytes", 65536),
            bytes: 0,
        }
    }

    fn admit(&mut self, frame: &Value) -> Result<(), String> {
        let text = match (frame.get("record"), frame.pointer("/payload/text").and_then(Value::as_str)) {
            (Some(record), _) => serde_json::to_string(record).unwrap_or_default(),
            (None, Some(text)) => text.to_string(),
            _ => String::new(),
        };
        self.bytes += text.len() as u64;
        let near = |what: &str| Err(format!("a frame near the limit {what} (CL-D04): only the operation limit is in the transaction model"));
        if self.bytes > self.transaction_bytes {
            return near("maxTransactionBytes");
        }
        let Ok(value) = serde_json::from_str::<Value>(&text) else { return Ok(()) };
        let (strings, arrays, depth) = extent(&value);
        if strings > self.string_length.min(self.id_length) {
            return near("maxStringLength or maxIdLength");
        }
        if arrays > self.array_length {
            return near("maxArrayLength");
        }
        if depth > self.depth {
            return near("maxDepth");
        }
        Ok(())
    }
}

/// The longest string (in characters), the longest array and the nesting depth of a value.
fn extent(value: &Value) -> (u64, u64, u64) {
    match value {
        Value::String(s) => (s.chars().count() as u64, 0, 0),
        Value::Array(items) => items.iter().map(extent).fold((0, items.len() as u64, 1), |(s, a, d), (s2, a2, d2)| (s.max(s2), a.max(a2), d.max(d2 + 1))),
        Value::Object(members) => members
            .iter()
            .map(|(k, v)| {
                let (s, a, d) = extent(v);
                (s.max(k.chars().count() as u64), a, d)
            })
            .fold((0, 0, 1), |(s, a, d), (s2, a2, d2)| (s.max(s2), a.max(a2), d.max(d2 + 1))),
        _ => (0, 0, 0),
    }
}

fn log_json(entries: &[(usize, &'static str)]) -> Value {
    Value::Array(entries.iter().map(|(frame, code)| json!({ "frame": frame, "code": code })).collect())
}

fn collect_codes(value: &Value, codes: &mut BTreeSet<String>) {
    match value {
        Value::Object(object) => {
            if let Some(code) = object.get("code").and_then(Value::as_str) {
                codes.insert(code.to_string());
            }
            object.values().for_each(|v| collect_codes(v, codes));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_codes(v, codes)),
        _ => {}
    }
}

fn dedup(paths: Vec<Path>) -> Vec<Path> {
    let mut seen: HashSet<Path> = HashSet::new();
    paths.into_iter().filter(|p| seen.insert(p.clone())).collect()
}

/// Decodes frames into the model's alphabet, numbering node ids and naming data members as they
/// first appear.
struct Decoder {
    /// Per component: its props validator, whether it takes children, whether it has action
    /// props.
    components: BTreeMap<String, (Validator, bool, bool)>,
    ids: Vec<String>,
    members: [Option<String>; 2],
    /// First-level members written with a value other than `{}`.
    scalars: BTreeSet<String>,
}

impl Decoder {
    fn id(&mut self, id: &Value) -> Result<u8, String> {
        let Some(id) = id.as_str() else { return Err("a node id that is not a string is outside the transaction model".into()) };
        if let Some(i) = self.ids.iter().position(|x| x == id) {
            return Ok(i as u8);
        }
        if self.ids.len() == MAX_NODE_IDS {
            return Err(format!("more than {MAX_NODE_IDS} node ids are outside the transaction model"));
        }
        self.ids.push(id.to_string());
        Ok((self.ids.len() - 1) as u8)
    }

    fn member(&mut self, level: usize, name: &str) -> Result<(), String> {
        match &self.members[level] {
            Some(known) if known != name => Err(format!("data members `{known}` and `{name}` at one level: the transaction model's data document has one member per level")),
            Some(_) => Ok(()),
            None => {
                self.members[level] = Some(name.to_string());
                Ok(())
            }
        }
    }

    fn pointer(&mut self, pointer: &Value) -> Result<Pointer, String> {
        let text = pointer.as_str().unwrap_or_default();
        let parts: Vec<&str> = text.split('/').skip(1).collect();
        if !text.starts_with('/') {
            return Err(format!("the data pointer `{}` is outside the transaction model", crate::quote::bounded(text)));
        }
        match parts.as_slice() {
            [a] => {
                self.member(0, a)?;
                Ok(Pointer::Member)
            }
            [a, b] => {
                self.member(0, a)?;
                self.member(1, b)?;
                Ok(Pointer::Nested)
            }
            _ => Err(format!("the data pointer `{}` is deeper than the transaction model's document", crate::quote::bounded(text))),
        }
    }

    fn frame(&mut self, frame: &Value) -> Result<Frame, String> {
        let record = match (frame.get("record"), frame.pointer("/payload/text").and_then(Value::as_str), frame.pointer("/payload/hex").and_then(Value::as_str)) {
            (Some(record), _, _) => record.clone(),
            (None, Some(text), _) => {
                if text.contains('\n') || text.contains('\r') {
                    return Err("a payload holding a line break frames differently in each framing: outside the transaction model".into());
                }
                match serde_json::from_str::<Value>(text) {
                    Ok(record) => record,
                    Err(_) => return Ok(Frame::NotJson),
                }
            }
            _ => return Err("a payload given in hex is outside what check-trace decodes".into()),
        };
        let Some(items) = record.as_array() else { return Err("a JSON payload that is not a record array is outside the transaction model".into()) };
        let Some(tag) = items.first().and_then(Value::as_str) else { return Err("a record without a string tag is outside the transaction model".into()) };
        let arity = match tag {
            "begin" | "data" | "delete" | "commit" | "abort" => 4,
            "node" => 6,
            _ => return Ok(Frame::UnknownOperation),
        };
        if items.len() != arity {
            return Ok(Frame::InvalidRecord);
        }
        // CL-D01-9: any other field type is an invalid record (`begin` carries seq 0, CL-D01-2).
        let string = |i: usize| items[i].is_string();
        let well_typed = items[1].is_u64()
            && match tag {
                "begin" => items[1].as_u64() == Some(0) && string(2) && items[3].is_u64(),
                "node" => {
                    string(2) && string(3) && items[4].is_object() && items[5].as_array().is_some_and(|c| c.iter().all(Value::is_string))
                }
                "data" => string(2),
                "delete" => matches!(items[2].as_str(), Some("node" | "data")) && string(3),
                "commit" => items[2].is_u64() && string(3),
                _ => string(2) && string(3),
            };
        if !well_typed {
            return Ok(Frame::InvalidRecord);
        }
        let seq = items[1].as_u64().unwrap_or_default();
        Ok(match tag {
            "begin" => {
                let (Some(id), Some(base)) = (items[2].as_str(), items[3].as_u64()) else { return Err("a begin record of unexpected field types is outside the transaction model".into()) };
                Frame::Begin { seq, id: id.to_string(), base }
            }
            "node" => {
                let Some(component) = items[3].as_str() else { return Err("a node record of unexpected field types is outside the transaction model".into()) };
                let Some((validator, takes_children, has_actions)) = self.components.get(component) else { return Ok(Frame::Node { seq, kind: NodeKind::UnknownComponent }) };
                if *has_actions {
                    return Err("a component with action props: action requests (CL-D06) are outside the transaction model".into());
                }
                let children = items[5].as_array().cloned().unwrap_or_default();
                if !validator.is_valid(&items[4]) {
                    return Ok(Frame::Node { seq, kind: NodeKind::InvalidProps });
                }
                if !takes_children && !children.is_empty() {
                    return Err("children on a component that takes none are outside the transaction model".into());
                }
                let id = self.id(&items[2])?;
                let children = match children.as_slice() {
                    [] => Children::Empty,
                    [c] => Children::One(self.id(c)?),
                    [c, d] if c == d => Children::Twice(self.id(c)?),
                    _ => return Err("a child list other than none, one child or one child twice is outside the transaction model".into()),
                };
                Frame::Node { seq, kind: NodeKind::Valid(id, children) }
            }
            "data" => {
                // A first-level write of anything but `{}` fits the model's document only when the
                // trace writes nothing deeper (decided once the whole trace is read, `scalar`); its
                // name is not taken as the member's here (the producer's gap filler is one).
                let first_level = items[2].as_str().is_some_and(|p| p.split('/').count() == 2);
                if first_level && items[3] != json!({}) {
                    let name = items[2].as_str().unwrap_or_default()[1..].to_string();
                    self.scalars.insert(name.clone());
                    let pointer = Err("a first-level data write other than `{}` next to deeper data is outside the transaction model".to_string());
                    Frame::Data { seq, pointer, scalar: Some(name) }
                } else {
                    Frame::Data { seq, pointer: self.pointer(&items[2]), scalar: None }
                }
            }
            "delete" => match items[2].as_str() {
                Some("node") => Frame::DeleteNode { seq, id: self.id(&items[3])? },
                Some("data") => Frame::DeleteData { seq, pointer: self.pointer(&items[3])? },
                _ => return Err("a delete of neither a node nor data is outside the transaction model".into()),
            },
            "commit" => {
                let Some(revision) = items[2].as_u64() else { return Err("a commit record of unexpected field types is outside the transaction model".into()) };
                Frame::Commit { seq, revision, root: self.id(&items[3])? }
            }
            _ => Frame::Abort { seq },
        })
    }
}
