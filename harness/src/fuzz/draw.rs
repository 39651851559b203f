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
//! before, on timing, or on the implementation. Half the cases are drawn with swarm testing
//! (`choices`).

use std::fmt;

use model::stateright::Model;
use model::visit::walk;
use proptest::prelude::Rng;
use proptest::test_runner::{RngAlgorithm, TestRng};
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

/// The choices of case `index` (0-based) of a run with `seed`, for `target`: a path of one to
/// `max_steps` model actions, written as the choices `model::visit::walk` replays into it.
///
/// Every other case (odd `index`) is drawn with swarm testing (Groce et al., ISSTA 2012): a
/// random half of the action kinds (`Invoke`, `PolicySettles`, `AdvanceClock`, `Commit`, ...,
/// the variant names) is left out of that path wherever another action is enabled, and each
/// step picks a kept kind uniformly, then one of its actions, so the remaining kinds combine
/// more deeply than a uniform pick among every enabled action would let them (a confirmation
/// approved after a context change, a commit after an unknown component). Even cases pick
/// uniformly among the enabled actions. proptest's ChaCha generator gives the same values on every system
/// and proptest version.
pub fn choices(target: Target, seed: u64, index: u64, max_steps: usize) -> Vec<u32> {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&index.to_le_bytes());
    // A fixed tag, so these streams differ from any other use of the same seed.
    bytes[16..24].copy_from_slice(b"rcipfuzz");
    let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let steps = 1 + (rng.next_u32() as usize) % max_steps.max(1);
    let swarm = (index % 2 == 1).then(|| rng.next_u64());
    let mut draw = Draw { rng, steps, swarm };
    match target {
        Target::Invocation => {
            let models = invocation::differential_models();
            let pick = draw.rng.next_u32() as usize % models.len();
            let mut out = vec![pick as u32];
            out.extend(draw.walk(&models[pick]));
            out
        }
        Target::Assist => draw.walk(&assist::vector_model()),
        Target::Transaction => draw.walk(&transaction::model()),
    }
}

/// The kind of an action: its variant name (`Node` for `Node(0, Empty)`).
fn kind_of(action: &impl fmt::Debug) -> String {
    let text = format!("{action:?}");
    text.split(['(', ' ', '{']).next().unwrap_or("").to_string()
}

struct Draw {
    rng: TestRng,
    steps: usize,
    /// The swarm salt: which action kinds this path leaves out (`None`: none).
    swarm: Option<u64>,
}

impl Draw {
    /// Whether the swarm keeps actions of this kind (the variant name of `action`).
    fn keeps(&self, action: &impl fmt::Debug) -> bool {
        let Some(salt) = self.swarm else { return true };
        let kind = kind_of(action);
        // FNV-1a over the kind, salted: a fixed function, unlike std's randomly keyed hasher.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325 ^ salt;
        for byte in kind.bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
        hash.rotate_right(29) & 1 == 0
    }

    /// A swarm pick: a kind this path keeps (all kinds when it keeps none that is enabled),
    /// uniformly among kinds, then one of its actions uniformly, so a kind with one action
    /// (`NodeWithUnknownComponent`) is as likely as one with eight (`Node`).
    fn swarm_pick<A: fmt::Debug>(&mut self, enabled: &[A]) -> usize {
        let mut kinds: Vec<(String, Vec<usize>)> = Vec::new();
        for (i, action) in enabled.iter().enumerate() {
            if !self.keeps(action) {
                continue;
            }
            let kind = kind_of(action);
            match kinds.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, members)) => members.push(i),
                None => kinds.push((kind, vec![i])),
            }
        }
        if kinds.is_empty() {
            return self.rng.next_u32() as usize % enabled.len();
        }
        let (_, members) = &kinds[self.rng.next_u32() as usize % kinds.len()];
        members[self.rng.next_u32() as usize % members.len()]
    }

    /// The choices of one random path of `model` (initial state, then action indices among the
    /// enabled ones, in `actions()` order).
    fn walk<M: Model>(&mut self, model: &M) -> Vec<u32>
    where
        M::Action: Clone + fmt::Debug,
    {
        let inits = model.init_states();
        if inits.is_empty() {
            return Vec::new();
        }
        let init = self.rng.next_u32() as usize % inits.len();
        let mut out = vec![init as u32];
        let Some(mut state) = inits.into_iter().nth(init) else { return out };
        let mut enabled = Vec::new();
        for _ in 0..self.steps {
            enabled.clear();
            model.actions(&state, &mut enabled);
            if enabled.is_empty() {
                break;
            }
            let index = match self.swarm {
                None => self.rng.next_u32() as usize % enabled.len(),
                Some(_) => self.swarm_pick(&enabled),
            };
            let Some(next) = model.next_state(&state, enabled[index].clone()) else { break };
            out.push(index as u32);
            state = next;
        }
        out
    }
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
