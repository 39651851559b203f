//! Checks the Rixx UI transaction model (`model::transaction`, CL-D01..D09): every property at
//! the pinned configurations, scripted streams for recovery and the invariants, and deliberately
//! broken variants, to show the properties can fail.

mod common;

use common::{breaks, replay};
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
    assert_checks(TransactionModel::default(), 5_215);
}

#[test]
fn three_node_ids_hold_every_property() {
    assert_checks(
        TransactionModel {
            node_ids: 3,
            max_transactions: 2,
            ..Default::default()
        },
        6_925,
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
        model.commit_violations(&graph, 1),
        vec![
            Rejection::MissingRoot,
            Rejection::DanglingChild,
            Rejection::DuplicateChild
        ]
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
