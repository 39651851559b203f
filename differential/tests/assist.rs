//! Differential test of the Assist turn model (`model::assist`, CL-C01..C06) against the reference
//! orchestrator (`reference::rcip::assist`, through the harness's in-process adapter): random
//! choice sequences become paths of `ObservableTurn` (`model::visit::walk`), the translator in
//! `suites::cases::from_model::assist` turns each into a case whose expectations after every step
//! are what the model's state allows, and the reference must pass it.
//!
//! Case count: 3,000 random paths by default, 3 to 5 s in a debug build on the shared 2-core
//! machine depending on its load (2,000 took 1.9 to 3.1 s); `DIFFERENTIAL_CASES` sets another
//! count (30,000 took 54 s). Path length: at most 24 choices (the first picks the mode), enough
//! for the deepest turn of the default bound (13 steps: decide, two entries each confirmed and
//! resolved, a delay, summarize, a cancellation) with choices to spare, since `walk` stops when
//! the turn is over.

use differential::{check, replay_regressions, Settings};
use model::visit::walk;
use suites::cases::from_model::assist::{translate, vector_model};

const DEFAULT_CASES: u32 = 3000;
const MAX_CHOICES: usize = 24;

#[test]
fn the_reference_agrees_with_the_assist_model_on_random_turns() {
    let view = vector_model();
    check("assist", Settings::from_env(DEFAULT_CASES, MAX_CHOICES), |choices| {
        let (init, path) = walk(&view, choices);
        translate(init, &path)
    });
}

#[test]
fn every_committed_assist_regression_passes() {
    let view = vector_model();
    replay_regressions("assist", |choices| {
        let (init, path) = walk(&view, choices);
        translate(init, &path)
    });
}
