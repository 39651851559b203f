//! Checks that stateright's multi-threaded BFS, which `model-check` uses by default for a full
//! exploration (`--threads auto`), explores exactly what one thread explores: the same generated
//! and unique state counts (the counts pinned in `assist.rs`, `transaction.rs` and
//! `invocation.rs`) and the same verdicts. A full exploration expands every reachable state once
//! whatever the order the threads reach it in, so these counts cannot depend on scheduling.

use model::assist::AssistModel;
use model::check::{self, Bounds, Summary};
use model::invocation::InvocationModel;
use model::transaction::TransactionModel;

const TWO_THREADS: Bounds = Bounds {
    depth: None,
    threads: 2,
};

fn assert_same_exploration(two: Summary, one: Summary, unique_states: usize) {
    assert_eq!(two.unique_states, unique_states);
    assert_eq!(one.unique_states, unique_states);
    assert_eq!(two.states, one.states);
    assert!(two.complete && one.complete);
    let verdicts = |summary: &Summary| -> Vec<(&'static str, bool)> {
        summary
            .properties
            .iter()
            .map(|p| (p.name, p.as_expected()))
            .collect()
    };
    assert_eq!(verdicts(&two), verdicts(&one));
    assert!(two.all_as_expected());
}

#[test]
fn two_threads_explore_the_pinned_assist_space() {
    let model = AssistModel::default();
    assert_same_exploration(
        check::run(model.clone(), TWO_THREADS),
        check::run(model, Bounds::default()),
        2_558,
    );
}

#[test]
fn two_threads_explore_the_pinned_transaction_space() {
    let model = TransactionModel::default();
    assert_same_exploration(
        check::run(model.clone(), TWO_THREADS),
        check::run(model, Bounds::default()),
        5_272,
    );
}

#[test]
fn two_threads_explore_the_pinned_invocation_space() {
    let model = InvocationModel::default();
    assert_same_exploration(
        check::run(model.clone(), TWO_THREADS),
        check::run(model, Bounds::default()),
        51_383,
    );
}
