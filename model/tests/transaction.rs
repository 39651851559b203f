//! Checks the Rixx UI transaction model (`model::transaction`, CL-D01..D09): every property at
//! the pinned configurations, scripted streams for recovery and the invariants, and deliberately
//! broken variants, to show the properties can fail.

mod common;

use common::{breaks, replay, replay_from};
use model::transaction::Action::*;
use model::transaction::*;
use stateright::{Checker, Model};

fn assert_checks(model: TransactionModel, unique_states: usize) {
    let checker = model.checker().spawn_bfs().join();
    checker.assert_properties();
    assert_eq!(checker.unique_state_count(), unique_states);
}

#[test]
fn default_stream_holds_every_property() {
    assert_checks(TransactionModel::default(), 5_272);
}

#[test]
fn three_node_ids_hold_every_property() {
    assert_checks(
        TransactionModel {
            node_ids: 3,
            max_transactions: 2,
            ..Default::default()
        },
        // 8,121 while a dangling child of an unreachable node committed (before issue 15).
        6_957,
    );
}

#[test]
fn a_commit_applies_all_staged_operations_at_once() {
    // CL-D02
    let state = replay(
        &TransactionModel::default(),
        &[
            Begin(Base::Current),
            Node(0, Children::One(1)),
            Node(1, Children::Empty),
            Commit(NewRevision::BasePlusOne, 0),
        ],
    );
    assert_eq!(state.committed.revision, 1);
    assert_eq!(state.committed.root, Some(0));
    assert_eq!(
        state.committed.graph.nodes,
        vec![Some(Children::One(1)), Some(Children::Empty)]
    );
}

#[test]
fn a_cycle_outside_the_reachable_graph_is_allowed() {
    // RUI "Graph invariants": the reachable graph is acyclic.
    let state = replay(
        &TransactionModel::default(),
        &[
            Begin(Base::Current),
            Node(0, Children::Empty),
            Node(1, Children::One(1)),
            Commit(NewRevision::BasePlusOne, 0),
        ],
    );
    assert_eq!(state.last, vec![Event::Committed]);
}

#[test]
fn a_gap_discards_staging_and_later_records_are_outside() {
    // CL-D05, CL-D09
    let state = replay(
        &TransactionModel::default(),
        &[
            Begin(Base::Current),
            Node(0, Children::Empty),
            SequenceGap,
            Commit(NewRevision::BasePlusOne, 0),
        ],
    );
    assert_eq!(
        state.last,
        vec![Event::Rejected(Rejection::OutsideTransaction)]
    );
    assert_eq!(state.committed.revision, 0);
}

#[test]
fn a_begin_while_open_resynchronises() {
    // CL-D09 RECOMMENDED
    let state = replay(
        &TransactionModel::default(),
        &[
            Begin(Base::Current),
            Node(0, Children::One(1)),
            Begin(Base::Current),
            Node(0, Children::Empty),
            Commit(NewRevision::BasePlusOne, 0),
        ],
    );
    assert_eq!(state.committed.graph.nodes[0], Some(Children::Empty));
}

#[test]
fn commit_violations_lists_every_broken_invariant() {
    let model = TransactionModel::default();
    let graph = Graph {
        nodes: vec![Some(Children::Twice(1)), None],
        data: DataDoc::Empty,
    };
    assert_eq!(
        model.commit_violations(&graph, 0),
        vec![Rejection::DanglingChild, Rejection::DuplicateChild]
    );
    // With the root missing nothing is reachable, yet the dangling child is still a violation:
    // every child reference resolves, reachable or not (PRJ-RUI-GRAPH-03, issue 15); so is the
    // duplicate child, on any node (PRJ-RUI-GRAPH-05).
    assert_eq!(
        model.commit_violations(&graph, 1),
        vec![Rejection::MissingRoot, Rejection::DanglingChild, Rejection::DuplicateChild]
    );
}

#[test]
fn a_dangling_child_of_an_unreachable_node_is_rejected() {
    // PRJ-RUI-GRAPH-03 (issue 15): "Every structural child reference resolves" holds for every
    // node; only acyclicity is restricted to the reachable graph. PRJ-RUI-GRAPH-06.
    let three = TransactionModel {
        node_ids: 3,
        ..Default::default()
    };
    let state = replay(
        &three,
        &[
            Begin(Base::Current),
            Node(0, Children::Empty),
            Node(1, Children::One(2)),
            Commit(NewRevision::BasePlusOne, 0),
        ],
    );
    assert_eq!(state.last, vec![Event::Rejected(Rejection::DanglingChild)]);
    assert_eq!(state.committed.revision, 0);
    let state = replay(
        &TransactionModel::default(),
        &[
            Begin(Base::Current),
            Node(0, Children::Empty),
            Node(1, Children::Twice(0)),
            Commit(NewRevision::BasePlusOne, 0),
        ],
    );
    assert_eq!(state.last, vec![Event::Rejected(Rejection::DuplicateChild)]);
}

#[test]
fn every_reading_of_when_faults_are_found_holds_every_property() {
    // PRJ-RUI-TX-08: every deferrable class found only at commit.
    assert_checks(
        TransactionModel {
            deferred: Rejection::DEFERRABLE.to_vec(),
            ..Default::default()
        },
        DEFERRED_STATES,
    );
}

/// More than the default's 5,272: a doomed transaction stays open, so its later records stage.
const DEFERRED_STATES: usize = 28_361;

#[test]
fn a_deferred_fault_keeps_the_transaction_open_until_commit() {
    // PRJ-RUI-TX-08: found at commit, a duplicate node lets the transaction run to its commit,
    // which fails with any of the failures it has (PRJ-RUI-TX-07).
    let model = TransactionModel {
        deferred: vec![Rejection::DuplicateNode, Rejection::StaleBase],
        ..Default::default()
    };
    let open = replay(
        &model,
        &[
            Begin(Base::Stale),
            Node(0, Children::One(1)),
            Node(0, Children::Empty),
        ],
    );
    let staging = open.open.clone().expect("the transaction stays open");
    assert_eq!(
        staging.faults,
        vec![Rejection::StaleBase, Rejection::DuplicateNode]
    );
    assert_eq!(
        model.commit_failures(&staging, NewRevision::Wrong, 1),
        vec![
            Rejection::StaleBase,
            Rejection::DuplicateNode,
            Rejection::WrongNewRevision,
            Rejection::MissingRoot,
            Rejection::DanglingChild
        ]
    );
    let state = replay_from(&model, open, &[Commit(NewRevision::BasePlusOne, 0)]);
    assert_eq!(state.last, vec![Event::Rejected(Rejection::StaleBase)]);
    assert_eq!(state.committed.revision, 0);
}

#[test]
fn an_invalid_frame_discards_only_an_open_transaction() {
    // CL-D05-1..3: quarantined either way; FRAME_INVALID only for an open transaction.
    let model = TransactionModel::default();
    let state = replay(&model, &[InvalidFrame]);
    assert_eq!(state.last, vec![Event::Quarantined]);
    let state = replay(&model, &[Begin(Base::Current), InvalidFrame]);
    assert_eq!(
        state.last,
        vec![Event::Quarantined, Event::Rejected(Rejection::InvalidFrame)]
    );
}

#[test]
fn an_abort_that_applies_staging_is_caught() {
    let broken = TransactionModel {
        fault: Some(TransactionFault::AbortAppliesStaging),
        ..Default::default()
    };
    assert!(breaks(
        broken,
        "abort, rejection and interruption never change the committed graph"
    ));
}

#[test]
fn skipping_the_cycle_check_is_caught() {
    let broken = TransactionModel {
        fault: Some(TransactionFault::SkipCycleCheck),
        ..Default::default()
    };
    assert!(breaks(
        broken,
        "the committed UI graph satisfies every invariant in every reachable state"
    ));
}
