//! Differential test of the Rixx UI transaction model (`model::transaction`, CL-D01..D09) against
//! the reference runtime (`reference::rui`, through the harness's in-process adapter): random
//! choice sequences become stream paths (`model::visit::walk`), the translator in
//! `suites::cases::from_model::transaction` turns each into a JSONL case whose expectations after
//! every frame are what the model allows in every reading of PRJ-RUI-TX-08, and the reference
//! must pass it.
//!
//! Case count: 800 random paths by default, about 2.5 s in a debug build on the shared 2-core
//! machine (2,000 take 6.4 s; each path is replayed through every reading of PRJ-RUI-TX-08 that
//! can differ on it); `DIFFERENTIAL_CASES` sets another
//! count. Path length: at most 40 choices, enough for the deepest states of the default bound
//! (3 begins, 2 operations each, faults in between: 12 steps) with room for the records outside
//! a transaction that the model also offers; `walk` stops at the end of the stream.

use differential::{check, replay_regressions, Settings};
use model::visit::walk;
use suites::cases::from_model::transaction::{model, translate};

const DEFAULT_CASES: u32 = 800;
const MAX_CHOICES: usize = 40;

#[test]
fn the_reference_agrees_with_the_transaction_model_on_random_streams() {
    let model = model();
    check(
        "transaction",
        Settings::from_env(DEFAULT_CASES, MAX_CHOICES),
        |choices| {
            let (init, path) = walk(&model, choices);
            translate(init, &path)
        },
    );
}

#[test]
fn every_committed_transaction_regression_passes() {
    let model = model();
    replay_regressions("transaction", |choices| {
        let (init, path) = walk(&model, choices);
        translate(init, &path)
    });
}
