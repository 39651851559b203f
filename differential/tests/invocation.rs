//! Differential test of the RCIP invocation model (`model::invocation`, CL-B01..B12) against the
//! reference runtime (`reference::rcip`, through the harness's in-process adapter): random choice
//! sequences pick one of `differential_models()` (first choice) and a path in it
//! (`model::visit::walk`), the translator in `suites::cases::from_model::invocation` turns the path
//! into a case whose expectations after every step are what the model's state allows (every
//! reading the spec allows), and the reference must pass it.
//!
//! Configurations: the generation configuration (two requests sharing an id, one capability, one
//! host event); distinct ids over two capabilities with two host events and two ticks; three
//! requests sharing an id, two host events, a two-tick TTL and the "any effective change"
//! reading of CL-B06. A case stops where two allowed readings would part (see the translator).
//!
//! Case count: 3,000 random paths by default, 2.1 to 2.7 s in a debug build on the shared 2-core
//! machine (2,000 took 1.65 to 1.75 s); `DIFFERENTIAL_CASES` sets another count (50,000 took 19 s
//! in a release build). Path length: at most 28 choices (the first picks the configuration), more
//! than the deepest state of any configuration (15 steps at the default, 22 with three requests);
//! `walk` stops once every request has settled, so most random paths end after 3 to 8 actions.

use differential::{check, replay_regressions, Settings};
use suites::cases::from_model::invocation::translate_choices;

const DEFAULT_CASES: u32 = 3000;
const MAX_CHOICES: usize = 28;

#[test]
fn the_reference_agrees_with_the_invocation_model_on_random_paths() {
    check(
        "invocation",
        Settings::from_env(DEFAULT_CASES, MAX_CHOICES),
        translate_choices,
    );
}

#[test]
fn every_committed_invocation_regression_passes() {
    replay_regressions("invocation", translate_choices);
}
