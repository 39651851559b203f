//! The Rixx UI 0.1 transaction lifecycle as a stateright model: a stream of records and faults
//! (begin, node, data, delete, commit, abort, sequence gaps, stale bases, wrong new revisions,
//! duplicate nodes, dangling children, cycles, missing roots, invalid frames and records, unknown
//! operations and components, limits, end of stream) over several transactions, against a tiny
//! committed graph (2-3 node ids, a two-level data document) and its revision. Covers RUI
//! "Transaction", "Records", "Graph invariants" and "Recovery", as decided by CL-D01 (record
//! shapes), CL-D02 (when a transaction commits), CL-D03 (data and delete), CL-D04 (limits, here
//! the operation count), CL-D05 (recovery), CL-D06 (catalog validation), CL-D07 (a bad frame is
//! never applied), CL-D08 (stable rejection classes) and CL-D09 (one open transaction, `begin`
//! resynchronises).
//!
//! Reading guide: configuration (`TransactionModel`), state (`StreamState`), one `Action` enum
//! whose variants are the records and faults the stream can deliver next, guarded `actions()`,
//! one `match` in `next_state()`, then the properties.
//!
//! Abstractions: a frame is one `Action`; sequence numbers are implicit (a record is contiguous
//! unless it is `SequenceGap`); component names and props are valid unless the record says
//! otherwise; the data document is `{}`, `{"a": {}}` or `{"a": {"b": v}}`. Decisions where the
//! texts leave room:
//! - A fault that a record shows by itself (gap, invalid frame or record, unknown operation or
//!   component, invalid props, duplicate node, absent delete, missing data parent, limit) fails
//!   the transaction at that record; its later records are then outside a transaction (CL-D09).
//!   Graph invariants (root, dangling child, duplicate child, cycle) and the new revision are
//!   checked at `commit`.
//! - A stale base is rejected at `begin`, which opens nothing; the base cannot go stale later
//!   because only a commit moves the revision and one transaction is open at a time.
//! - PRJ-RUI-TX-08 accepts the other reading for every class in `Rejection::DEFERRABLE` (a stale
//!   base, a duplicate node, an unknown component, invalid props, a missing data parent, an absent
//!   delete, the operation limit): found only at commit, the transaction staying open until its
//!   closing record. `TransactionModel::deferred` selects, class by class, that reading (the
//!   default defers nothing: the decisions above); the translator into vectors runs every
//!   selection, so the vectors accept every reading the project allows.
//! - A record's shape (invalid frame, invalid record, unknown operation) is judged before whether
//!   a transaction is open.
//! - The operation limit is checked before the operation itself.
//! - When a commit breaks several invariants, the rejection names the first in the order of
//!   `commit_violations`; `commit_violations` lists all of them for comparisons that accept any.
//! - "Every structural child reference resolves" applies to every node of the resulting graph,
//!   reachable or not; "the reachable graph is acyclic" only to the nodes reachable from the root
//!   (the invariant list restricts only the second, issue 15); PRJ-RUI-GRAPH-06 keeps unreachable
//!   nodes in the graph.

use stateright::{Model, Property};

pub type NodeId = u8;

/// A node's child list, from a small alphabet that still produces every invariant violation:
/// none, one child (possibly itself, a cycle), or one child listed twice (a duplicate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Children {
    Empty,
    One(NodeId),
    Twice(NodeId),
}

impl Children {
    fn ids(self) -> impl Iterator<Item = NodeId> {
        let (first, second) = match self {
            Children::Empty => (None, None),
            Children::One(id) => (Some(id), None),
            Children::Twice(id) => (Some(id), Some(id)),
        };
        first.into_iter().chain(second)
    }
}

/// The data document (CL-D02 starts it as `{}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataDoc {
    /// `{}`
    Empty,
    /// `{"a": {}}`
    Member,
    /// `{"a": {"b": v}}`
    Nested,
}

/// The two JSON Pointers the model writes: `/a` and `/a/b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pointer {
    Member,
    Nested,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Graph {
    /// Node definitions by id; `None` is an absent node.
    pub nodes: Vec<Option<Children>>,
    pub data: DataDoc,
}

/// What a reader renders: the last known-good graph, its root and revision.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Committed {
    pub graph: Graph,
    pub root: Option<NodeId>,
    pub revision: u8,
}

/// The open transaction: the committed graph with its operations applied so far (equivalent to
/// a list of staged operations, since a commit applies all of them at once, CL-D02).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Staging {
    pub graph: Graph,
    /// Node ids defined by a `node` record in this transaction (CL-D02: at most once each).
    pub defined: Vec<bool>,
    pub operations: u8,
    /// Faults of classes in `TransactionModel::deferred` found so far, in record order, each
    /// class once: the transaction stays open and its commit is rejected (PRJ-RUI-TX-08). Always
    /// empty when nothing is deferred.
    pub faults: Vec<Rejection>,
}

/// One stable class per failure the texts and CL-D05 name (CL-D08). The reference defines its
/// own codes; a later mapping pairs them with these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rejection {
    OutsideTransaction,
    SequenceGap,
    StaleBase,
    WrongNewRevision,
    DuplicateNode,
    MissingRoot,
    DanglingChild,
    DuplicateChild,
    Cycle,
    InvalidFrame,
    InvalidRecord,
    UnknownOperation,
    UnknownComponent,
    InvalidProps,
    DataParentMissing,
    DeleteAbsent,
    LimitExceeded,
    /// The stream ended inside a transaction.
    Interrupted,
    /// A `begin` arrived while a transaction was open (CL-D09).
    Superseded,
}

impl Rejection {
    pub const ALL: [Rejection; 19] = [
        Rejection::OutsideTransaction,
        Rejection::SequenceGap,
        Rejection::StaleBase,
        Rejection::WrongNewRevision,
        Rejection::DuplicateNode,
        Rejection::MissingRoot,
        Rejection::DanglingChild,
        Rejection::DuplicateChild,
        Rejection::Cycle,
        Rejection::InvalidFrame,
        Rejection::InvalidRecord,
        Rejection::UnknownOperation,
        Rejection::UnknownComponent,
        Rejection::InvalidProps,
        Rejection::DataParentMissing,
        Rejection::DeleteAbsent,
        Rejection::LimitExceeded,
        Rejection::Interrupted,
        Rejection::Superseded,
    ];

    /// The classes PRJ-RUI-TX-08 lets a runtime find at the offending record or only at commit
    /// (every failure but a gap, an invalid frame or record, an unknown operation, a superseding
    /// begin, and the commit-time checks themselves).
    pub const DEFERRABLE: [Rejection; 7] = [
        Rejection::StaleBase,
        Rejection::DuplicateNode,
        Rejection::UnknownComponent,
        Rejection::InvalidProps,
        Rejection::DataParentMissing,
        Rejection::DeleteAbsent,
        Rejection::LimitExceeded,
    ];
}

/// What the last delivered frame did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    Opened,
    /// An invalid frame was quarantined (CL-D05-1); `Rejected(InvalidFrame)` follows only when it
    /// discarded an open transaction.
    Quarantined,
    Staged,
    Committed,
    Aborted,
    Rejected(Rejection),
    StreamEnded,
}

/// Sticky records of a step that broke a transition rule; they stay `false` in a correct runtime
/// (so cost no states) and let properties judge transitions, which stateright properties cannot
/// see directly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Breaches {
    pub commit_moved_revision_wrongly: bool,
    pub non_commit_changed_committed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StreamState {
    pub committed: Committed,
    pub open: Option<Staging>,
    /// `begin` records delivered so far (the model's bound on the stream).
    pub begun: u8,
    pub ended: bool,
    pub last: Vec<Event>,
    pub breaches: Breaches,
}

/// Whether a `begin` names the committed revision or another one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    Current,
    Stale,
}

/// Whether a `commit` names `baseRevision + 1` or another revision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NewRevision {
    BasePlusOne,
    Wrong,
}

/// The frames the stream can deliver next: the records of CL-D01 and the faults of CL-D05.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Begin(Base),
    Node(NodeId, Children),
    NodeWithUnknownComponent,
    NodeWithInvalidProps,
    Data(Pointer),
    DeleteNode(NodeId),
    DeleteData(Pointer),
    Commit(NewRevision, NodeId),
    Abort,
    /// A record whose sequence number skips ahead.
    SequenceGap,
    /// A frame that is not one complete JSON record (CL-D07).
    InvalidFrame,
    /// A known tag with the wrong arity or field type (CL-D01).
    InvalidRecord,
    /// A well-formed record with a tag 0.1 does not know.
    UnknownOperation,
    EndOfStream,
}

/// Deliberate bugs, for tests that show each property can fail. Never set in a real check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TransactionFault {
    /// `abort` applies the staged operations (breaks "Abort ... leaves the committed snapshot
    /// unchanged").
    AbortAppliesStaging,
    /// Commit skips the acyclicity check (breaks the graph invariants).
    SkipCycleCheck,
}

#[derive(Clone, Debug)]
pub struct TransactionModel {
    /// Node ids in the alphabet (2 or 3).
    pub node_ids: u8,
    /// `begin` records per stream.
    pub max_transactions: u8,
    /// The declared operation limit per transaction (CL-D04).
    pub max_operations: u8,
    /// Classes of `Rejection::DEFERRABLE` found only at commit (PRJ-RUI-TX-08); the others fail
    /// the transaction at the offending record.
    pub deferred: Vec<Rejection>,
    pub fault: Option<TransactionFault>,
}

impl Default for TransactionModel {
    fn default() -> Self {
        TransactionModel {
            node_ids: 2,
            max_transactions: 3,
            max_operations: 2,
            deferred: Vec::new(),
            fault: None,
        }
    }
}

impl TransactionModel {
    fn empty_graph(&self) -> Graph {
        Graph {
            nodes: vec![None; self.node_ids as usize],
            data: DataDoc::Empty,
        }
    }

    /// The child lists a node record may carry: none, each id once (itself included), and the
    /// next id twice.
    fn children_alphabet(&self, id: NodeId) -> Vec<Children> {
        let mut alphabet = vec![Children::Empty];
        alphabet.extend((0..self.node_ids).map(Children::One));
        alphabet.push(Children::Twice((id + 1) % self.node_ids));
        alphabet
    }

    /// Every graph invariant a commit of `graph` with `root` breaks, in the order the model
    /// reports the first of them.
    pub fn commit_violations(&self, graph: &Graph, root: NodeId) -> Vec<Rejection> {
        let mut violations = Vec::new();
        let defined = |id: NodeId| graph.nodes[id as usize].is_some();
        if !defined(root) {
            violations.push(Rejection::MissingRoot);
        }
        // "Every structural child reference resolves": every node's, reachable or not (the
        // invariant list restricts only acyclicity to the reachable graph).
        if graph
            .nodes
            .iter()
            .flatten()
            .any(|c| c.ids().any(|id| !defined(id)))
        {
            violations.push(Rejection::DanglingChild);
        }
        if graph
            .nodes
            .iter()
            .flatten()
            .any(|c| matches!(c, Children::Twice(_)))
        {
            violations.push(Rejection::DuplicateChild);
        }
        if defined(root) && reaches_cycle(graph, root, &mut Vec::new()) {
            violations.push(Rejection::Cycle);
        }
        violations
    }

    /// Every code a commit of `staging` with these fields may be rejected with (PRJ-RUI-TX-07:
    /// any of them is accepted): the deferred faults, a wrong new revision, then the broken graph
    /// invariants. Empty when the commit succeeds.
    pub fn commit_failures(
        &self,
        staging: &Staging,
        new_revision: NewRevision,
        root: NodeId,
    ) -> Vec<Rejection> {
        let mut failures = staging.faults.clone();
        if new_revision == NewRevision::Wrong {
            failures.push(Rejection::WrongNewRevision);
        }
        failures.extend(
            self.commit_violations(&staging.graph, root)
                .into_iter()
                .filter(|v| {
                    !(*v == Rejection::Cycle
                        && self.fault == Some(TransactionFault::SkipCycleCheck))
                }),
        );
        failures
    }

    /// A fresh staging area on the committed graph.
    fn open_staging(&self, committed: &Committed, faults: Vec<Rejection>) -> Staging {
        Staging {
            graph: committed.graph.clone(),
            defined: vec![false; self.node_ids as usize],
            operations: 0,
            faults,
        }
    }

    /// CL-D03: writes need an existing parent; deletes need an existing member.
    fn apply_data(&self, data: DataDoc, action: Action) -> Result<DataDoc, Rejection> {
        match (action, data) {
            (Action::Data(Pointer::Member), _) => Ok(DataDoc::Member),
            (Action::Data(Pointer::Nested), DataDoc::Empty) => Err(Rejection::DataParentMissing),
            (Action::Data(Pointer::Nested), _) => Ok(DataDoc::Nested),
            (Action::DeleteData(Pointer::Member), DataDoc::Empty) => Err(Rejection::DeleteAbsent),
            (Action::DeleteData(Pointer::Member), _) => Ok(DataDoc::Empty),
            (Action::DeleteData(Pointer::Nested), DataDoc::Nested) => Ok(DataDoc::Member),
            (Action::DeleteData(Pointer::Nested), _) => Err(Rejection::DeleteAbsent),
            _ => Ok(data),
        }
    }

    /// Applies one record to the open transaction: `Ok(true)` when it committed, `Ok(false)`
    /// when it staged, `Err` with the class that fails the transaction.
    fn apply_in_transaction(
        &self,
        state: &mut StreamState,
        staging: &mut Staging,
        action: Action,
    ) -> Result<bool, Rejection> {
        let is_operation = matches!(
            action,
            Action::Node(..)
                | Action::NodeWithUnknownComponent
                | Action::NodeWithInvalidProps
                | Action::Data(_)
                | Action::DeleteNode(_)
                | Action::DeleteData(_)
        );
        if is_operation {
            if staging.operations >= self.max_operations {
                return Err(Rejection::LimitExceeded);
            }
            staging.operations += 1;
        }
        match action {
            Action::Node(id, children) => {
                if staging.defined[id as usize] {
                    return Err(Rejection::DuplicateNode);
                }
                staging.defined[id as usize] = true;
                staging.graph.nodes[id as usize] = Some(children);
            }
            Action::NodeWithUnknownComponent => return Err(Rejection::UnknownComponent),
            Action::NodeWithInvalidProps => return Err(Rejection::InvalidProps),
            Action::Data(_) | Action::DeleteData(_) => {
                staging.graph.data = self.apply_data(staging.graph.data, action)?;
            }
            Action::DeleteNode(id) => {
                if staging.graph.nodes[id as usize].take().is_none() {
                    return Err(Rejection::DeleteAbsent);
                }
            }
            Action::Commit(new_revision, root) => {
                if let Some(first) = self.commit_failures(staging, new_revision, root).first() {
                    return Err(*first);
                }
                state.committed = Committed {
                    graph: staging.graph.clone(),
                    root: Some(root),
                    revision: state.committed.revision + 1,
                };
                return Ok(true);
            }
            Action::SequenceGap => return Err(Rejection::SequenceGap),
            Action::Begin(_)
            | Action::Abort
            | Action::InvalidFrame
            | Action::InvalidRecord
            | Action::UnknownOperation
            | Action::EndOfStream => {}
        }
        Ok(false)
    }
}

impl TransactionModel {
    /// The state after `action` (defined for every action, enabled or not).
    pub fn step(&self, state: &StreamState, action: Action) -> StreamState {
        let next = self.next_state(state, action);
        next.unwrap_or_else(|| state.clone())
    }
}

/// Depth-first search from `id` over defined children: true if it meets a node on its own path.
fn reaches_cycle(graph: &Graph, id: NodeId, path: &mut Vec<NodeId>) -> bool {
    if path.contains(&id) {
        return true;
    }
    let Some(children) = graph.nodes[id as usize] else {
        return false;
    };
    path.push(id);
    let found = children
        .ids()
        .any(|child| reaches_cycle(graph, child, path));
    path.pop();
    found
}

impl Model for TransactionModel {
    type State = StreamState;
    type Action = Action;

    fn init_states(&self) -> Vec<Self::State> {
        vec![StreamState {
            committed: Committed {
                graph: self.empty_graph(),
                root: None,
                revision: 0,
            },
            open: None,
            begun: 0,
            ended: false,
            last: Vec::new(),
            breaches: Breaches::default(),
        }]
    }

    fn actions(&self, state: &Self::State, actions: &mut Vec<Self::Action>) {
        if state.ended {
            return;
        }
        if state.begun < self.max_transactions {
            actions.push(Action::Begin(Base::Current));
            actions.push(Action::Begin(Base::Stale));
        }
        for id in 0..self.node_ids {
            for children in self.children_alphabet(id) {
                actions.push(Action::Node(id, children));
            }
        }
        actions.push(Action::NodeWithUnknownComponent);
        actions.push(Action::NodeWithInvalidProps);
        for pointer in [Pointer::Member, Pointer::Nested] {
            actions.push(Action::Data(pointer));
            actions.push(Action::DeleteData(pointer));
        }
        for id in 0..self.node_ids {
            actions.push(Action::DeleteNode(id));
        }
        for root in 0..self.node_ids {
            actions.push(Action::Commit(NewRevision::BasePlusOne, root));
        }
        actions.push(Action::Commit(NewRevision::Wrong, 0));
        actions.push(Action::Abort);
        // A gap is relative to an open transaction's sequence; outside one every record is
        // already rejected as outside.
        if state.open.is_some() {
            actions.push(Action::SequenceGap);
        }
        actions.push(Action::InvalidFrame);
        actions.push(Action::InvalidRecord);
        actions.push(Action::UnknownOperation);
        actions.push(Action::EndOfStream);
    }

    fn next_state(&self, last_state: &Self::State, action: Self::Action) -> Option<Self::State> {
        let mut state = last_state.clone();
        let mut events = Vec::new();
        match action {
            Action::Begin(base) => {
                state.begun += 1;
                // CL-D09: a begin while one is open discards it and resynchronises.
                if state.open.take().is_some() {
                    events.push(Event::Rejected(Rejection::Superseded));
                }
                match base {
                    Base::Current => {
                        state.open = Some(self.open_staging(&state.committed, Vec::new()));
                        events.push(Event::Opened);
                    }
                    // PRJ-RUI-TX-08: found at commit, the stale base opens a doomed transaction.
                    Base::Stale if self.deferred.contains(&Rejection::StaleBase) => {
                        state.open =
                            Some(self.open_staging(&state.committed, vec![Rejection::StaleBase]));
                        events.push(Event::Opened);
                    }
                    Base::Stale => events.push(Event::Rejected(Rejection::StaleBase)),
                }
            }
            // CL-D05, CL-D07: a frame that is not a whole record is quarantined and discards
            // the open transaction; so do records of the wrong shape or with an unknown tag.
            // An invalid frame is only quarantined when nothing is open; an invalid record or
            // unknown tag is rejected with the same code either way (PRJ-RUI-REC-02/03).
            Action::InvalidFrame => {
                events.push(Event::Quarantined);
                if state.open.take().is_some() {
                    events.push(Event::Rejected(Rejection::InvalidFrame));
                }
            }
            Action::InvalidRecord | Action::UnknownOperation => {
                state.open = None;
                events.push(Event::Rejected(match action {
                    Action::InvalidRecord => Rejection::InvalidRecord,
                    _ => Rejection::UnknownOperation,
                }));
            }
            Action::EndOfStream => {
                state.ended = true;
                if state.open.take().is_some() {
                    events.push(Event::Rejected(Rejection::Interrupted));
                }
                events.push(Event::StreamEnded);
            }
            Action::Abort => match state.open.take() {
                Some(staging) => {
                    if self.fault == Some(TransactionFault::AbortAppliesStaging) {
                        state.committed.graph = staging.graph;
                    }
                    events.push(Event::Aborted);
                }
                None => events.push(Event::Rejected(Rejection::OutsideTransaction)),
            },
            Action::Node(..)
            | Action::NodeWithUnknownComponent
            | Action::NodeWithInvalidProps
            | Action::Data(_)
            | Action::DeleteNode(_)
            | Action::DeleteData(_)
            | Action::Commit(..)
            | Action::SequenceGap => match state.open.take() {
                None => events.push(Event::Rejected(Rejection::OutsideTransaction)),
                Some(mut staging) => {
                    match self.apply_in_transaction(&mut state, &mut staging, action) {
                        Ok(true) => events.push(Event::Committed),
                        Ok(false) => {
                            state.open = Some(staging);
                            events.push(Event::Staged);
                        }
                        // PRJ-RUI-TX-08: a deferred class is remembered and the record staged
                        // nothing; the commit will fail.
                        Err(rejection)
                            if self.deferred.contains(&rejection)
                                && !matches!(action, Action::Commit(..)) =>
                        {
                            if !staging.faults.contains(&rejection) {
                                staging.faults.push(rejection);
                            }
                            state.open = Some(staging);
                            events.push(Event::Staged);
                        }
                        // CL-D02, CL-D05: nothing applies; the remaining records are outside.
                        Err(rejection) => events.push(Event::Rejected(rejection)),
                    }
                }
            },
        }
        state.last = events;
        // Judge the step against the rules it must keep, from before and after alone.
        let before = &last_state.committed;
        if state.last.contains(&Event::Committed) {
            if state.committed.revision != before.revision + 1 {
                state.breaches.commit_moved_revision_wrongly = true;
            }
        } else if state.committed != *before {
            state.breaches.non_commit_changed_committed = true;
        }
        Some(state)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        let mut properties = vec![
            Property::<Self>::always(
                "the committed UI graph satisfies every invariant in every reachable state",
                |m, s| {
                    let c = &s.committed;
                    match c.root {
                        None => c.revision == 0 && c.graph == m.empty_graph(),
                        Some(root) => {
                            c.revision > 0 && m.commit_violations(&c.graph, root).is_empty()
                        }
                    }
                },
            ),
            Property::<Self>::always("each commit raises the revision by exactly one", |_, s| {
                !s.breaches.commit_moved_revision_wrongly
            }),
            Property::<Self>::always(
                "abort, rejection and interruption never change the committed graph",
                |_, s| !s.breaches.non_commit_changed_committed,
            ),
            Property::<Self>::always("a rejected transaction never stays open", |_, s| {
                let rejected = s
                    .last
                    .iter()
                    .any(|e| matches!(e, Event::Rejected(r) if *r != Rejection::Superseded));
                !rejected || s.open.is_none()
            }),
            Property::<Self>::always("a transaction never outlives its stream", |_, s| {
                !s.ended || s.open.is_none()
            }),
            Property::<Self>::always(
                "a transaction never stages more operations than the limit",
                |m, s| {
                    s.open
                        .as_ref()
                        .is_none_or(|o| o.operations <= m.max_operations)
                },
            ),
            Property::<Self>::sometimes("a transaction can commit", |_, s| {
                s.last.contains(&Event::Committed)
            }),
            Property::<Self>::sometimes("a transaction can abort", |_, s| {
                s.last.contains(&Event::Aborted)
            }),
        ];
        if self.max_transactions >= 2 {
            properties.push(Property::<Self>::sometimes(
                "two transactions can commit one after the other",
                |_, s| s.committed.revision == 2,
            ));
        }
        for rejection in Rejection::ALL {
            if rejection == Rejection::Superseded && self.max_transactions < 2 {
                continue;
            }
            properties.push(rejection_witness(rejection));
        }
        properties
    }
}

/// A `sometimes` witness that a step can reject with `rejection`. Property conditions are plain
/// `fn` pointers, so each class gets its own non-capturing closure.
fn rejection_witness(rejection: Rejection) -> Property<TransactionModel> {
    macro_rules! witness {
        ($name:literal, $class:expr) => {
            Property::<TransactionModel>::sometimes($name, |_, s| {
                s.last.contains(&Event::Rejected($class))
            })
        };
    }
    match rejection {
        Rejection::OutsideTransaction => {
            witness!(
                "a record outside a transaction can be rejected",
                Rejection::OutsideTransaction
            )
        }
        Rejection::SequenceGap => {
            witness!("a sequence gap can be rejected", Rejection::SequenceGap)
        }
        Rejection::StaleBase => witness!("a stale base can be rejected", Rejection::StaleBase),
        Rejection::WrongNewRevision => {
            witness!(
                "a wrong new revision can be rejected",
                Rejection::WrongNewRevision
            )
        }
        Rejection::DuplicateNode => {
            witness!(
                "a duplicate node definition can be rejected",
                Rejection::DuplicateNode
            )
        }
        Rejection::MissingRoot => {
            witness!("a missing root can be rejected", Rejection::MissingRoot)
        }
        Rejection::DanglingChild => {
            witness!("a dangling child can be rejected", Rejection::DanglingChild)
        }
        Rejection::DuplicateChild => {
            witness!(
                "a duplicate child can be rejected",
                Rejection::DuplicateChild
            )
        }
        Rejection::Cycle => witness!("a cycle can be rejected", Rejection::Cycle),
        Rejection::InvalidFrame => {
            witness!("an invalid frame can be rejected", Rejection::InvalidFrame)
        }
        Rejection::InvalidRecord => {
            witness!(
                "an invalid record can be rejected",
                Rejection::InvalidRecord
            )
        }
        Rejection::UnknownOperation => {
            witness!(
                "an unknown operation can be rejected",
                Rejection::UnknownOperation
            )
        }
        Rejection::UnknownComponent => {
            witness!(
                "an unknown component can be rejected",
                Rejection::UnknownComponent
            )
        }
        Rejection::InvalidProps => {
            witness!("invalid props can be rejected", Rejection::InvalidProps)
        }
        Rejection::DataParentMissing => {
            witness!(
                "a data write without a parent can be rejected",
                Rejection::DataParentMissing
            )
        }
        Rejection::DeleteAbsent => {
            witness!(
                "deleting something absent can be rejected",
                Rejection::DeleteAbsent
            )
        }
        Rejection::LimitExceeded => {
            witness!(
                "exceeding the operation limit can be rejected",
                Rejection::LimitExceeded
            )
        }
        Rejection::Interrupted => {
            witness!(
                "an interrupted transaction can be discarded",
                Rejection::Interrupted
            )
        }
        Rejection::Superseded => {
            witness!(
                "a begin can supersede an open transaction",
                Rejection::Superseded
            )
        }
    }
}
