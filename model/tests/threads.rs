//! Checks that stateright's multi-threaded BFS, which `model-check` uses by default for a full
//! exploration (`--threads auto`), explores exactly what one thread explores: the generated and
//! unique state counts one thread gives (the unique counts are pinned in `assist.rs`,
//! `transaction.rs` and `invocation.rs`; the generated counts are the ones in model/README.md)
//! and every property as expected. A full exploration expands every reachable state once, in
//! whatever order the threads reach it, so these counts cannot depend on scheduling.

use model::assist::AssistModel;
use model::check::{self, Bounds, Summary};
use model::invocation::InvocationModel;
use model::transaction::TransactionModel;

const TWO_THREADS: Bounds = Bounds {
    depth: None,
    threads: 2,
};

fn assert_explores(summary: Summary, states: usize, unique_states: usize) {
    assert_eq!(summary.states, states);
    assert_eq!(summary.unique_states, unique_states);
    assert!(summary.complete);
    assert!(summary.all_as_expected(), "{:?}", summary.properties);
}

#[test]
fn two_threads_explore_the_pinned_assist_space() {
    assert_explores(
        check::run(AssistModel::default(), TWO_THREADS),
        2_558,
        2_558,
    );
}

#[test]
fn two_threads_explore_the_pinned_transaction_space() {
    assert_explores(
        check::run(TransactionModel::default(), TWO_THREADS),
        128_172,
        5_272,
    );
}

#[test]
fn two_threads_explore_the_pinned_invocation_space() {
    assert_explores(
        check::run(InvocationModel::default(), TWO_THREADS),
        117_097,
        51_383,
    );
}
