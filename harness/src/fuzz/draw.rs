//! The cases `conformance fuzz` draws (issue 18 §1): which model each case comes from, the
//! seeded choice sequence behind it, and the translation of that sequence into a case of the
//! vector format.
//!
//! A choice sequence becomes a path exactly as in the differential tests and the committed
//! regressions (`model::visit::walk`: the first choice picks the initial state or configuration,
//! each further one an enabled action), and the path becomes a case through the very translation
//! that writes `vectors/*/model-*.json` (`suites::cases::from_model`): its expectations after
//! every step are every outcome the model allows there, each with the strictness of the
//! requirement behind it, so IMPL-DEFINED latitude is a `one-of`, never a failure.
//!
//! Determinism: case `n` of a run is drawn from its own RNG, seeded from the run's seed and `n`
//! alone (ChaCha, proptest's portable generator), so the cases do not depend on how many ran
//! before, on timing, or on the implementation.

use std::fmt;

use model::stateright::Model;
use model::visit::walk;
use proptest::collection::vec;
use proptest::prelude::any;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use suites::cases::from_model::{assist, invocation, transaction};

/// A model `fuzz` draws paths from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Target {
    /// `model::invocation` (CL-B01..B12): the differential test's configurations.
    Invocation,
    /// `model::assist` (CL-C01..C06), in the view the vectors are written from.
    Assist,
    /// `model::transaction` (CL-D01..D09).
    Transaction,
}

impl Target {
    pub const ALL: [Target; 3] = [Target::Invocation, Target::Assist, Target::Transaction];

    pub fn name(self) -> &'static str {
        match self {
            Target::Invocation => "invocation",
            Target::Assist => "assist",
            Target::Transaction => "transaction",
        }
    }

    pub fn parse(text: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == text)
    }

    /// Model actions per path when `--max-steps` is not given: more than the deepest state of
    /// every configuration the translation uses (the differential tests' bounds), so any
    /// reachable state can be drawn.
    pub fn default_max_steps(self) -> usize {
        match self {
            Target::Invocation => 27,
            Target::Assist => 23,
            Target::Transaction => 39,
        }
    }

    /// The case a choice sequence stands for, or `None` when its path is empty (nothing to
    /// judge). The case keeps the translation's section; `fuzz` renames it when it is written.
    pub fn translate(self, choices: &[u32]) -> Option<suites::case::Case> {
        match self {
            Target::Invocation => invocation::translate_choices(choices),
            Target::Assist => {
                let (init, path) = walk(&assist::vector_model(), choices);
                assist::translate(init, &path)
            }
            Target::Transaction => {
                let (init, path) = walk(&transaction::model(), choices);
                transaction::translate(init, &path)
            }
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The choices of case `index` (0-based) of a run with `seed`: between one and `max_steps`
/// actions after the choice of the initial state. proptest's ChaCha generator is used for its
/// promise that a seed gives the same values on every system and proptest version.
pub fn choices(seed: u64, index: u64, max_steps: usize) -> Vec<u32> {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&index.to_le_bytes());
    // A fixed tag, so these streams differ from any other use of the same seed.
    bytes[16..24].copy_from_slice(b"rcipfuzz");
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    vec(any::<u32>(), 2..=max_steps.max(1) + 1)
        .new_tree(&mut runner)
        .map(|tree| tree.current())
        .unwrap_or_default()
}

impl Target {
    /// The simplest choices that walk the same path as `choices`: each choice replaced by the
    /// index it selects (the walk takes it modulo the number of options), and the choices the
    /// walk never reaches dropped. The shrinker works on this form, so "a smaller value" means
    /// "an earlier option" and every value it tries is a distinct path.
    pub fn canonical(self, choices: &[u32]) -> Vec<u32> {
        match self {
            Target::Invocation => {
                let models = invocation::differential_models();
                let Some((&first, rest)) = choices.split_first() else { return Vec::new() };
                let pick = first as usize % models.len();
                let mut out = vec![pick as u32];
                out.extend(canonical_walk(&models[pick], rest));
                out
            }
            Target::Assist => canonical_walk(&assist::vector_model(), choices),
            Target::Transaction => canonical_walk(&transaction::model(), choices),
        }
    }
}

/// `model::visit::walk`, recording the index each choice selects instead of the action.
fn canonical_walk<M: Model>(model: &M, choices: &[u32]) -> Vec<u32>
where
    M::Action: Clone,
{
    let inits = model.init_states();
    let Some((&first, rest)) = choices.split_first() else { return Vec::new() };
    if inits.is_empty() {
        return Vec::new();
    }
    let init = first as usize % inits.len();
    let mut out = vec![init as u32];
    let Some(mut state) = inits.into_iter().nth(init) else { return out };
    let mut enabled = Vec::new();
    for &choice in rest {
        enabled.clear();
        model.actions(&state, &mut enabled);
        if enabled.is_empty() {
            break;
        }
        let index = choice as usize % enabled.len();
        let action = enabled.swap_remove(index);
        let Some(next) = model.next_state(&state, action) else { break };
        out.push(index as u32);
        state = next;
    }
    out
}
