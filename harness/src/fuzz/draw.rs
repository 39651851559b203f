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
//! before, on timing, or on the implementation. Half the cases are drawn with swarm testing and a
//! quarter with directed weights (`choices`).

use std::fmt;

use model::invocation::{
    Action as InvocationAction, Confirmation, Decision, Phase, Request, RuntimeState,
};
use model::stateright::Model;
use model::transaction::{Action as TransactionAction, Base, Children, NewRevision, StreamState};
use model::visit::walk;
use proptest::prelude::Rng;
use proptest::test_runner::{RngAlgorithm, TestRng};
use suites::cases::from_model::{assist, invocation, transaction};

/// A model `fuzz` draws paths from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Target {
    /// `model::invocation` (CL-B01..B12): the differential test's configurations, and one of them
    /// again with ticks of 2^31 ms (`invocation::fuzz_configurations`).
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
            Target::Invocation => invocation::translate_fuzz_choices(choices),
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
/// uniformly among the enabled actions, except every fourth case (`index % 4 == 2`), drawn with
/// directed weights (`invocation_weight`, `transaction_weight`): each enabled action is picked
/// in proportion to a weight its model gives it in the current state, so the rare combinations
/// the uniform and the swarm draws reach only after thousands of cases (a host change while a
/// confirmation is pending, then the approval; several nodes then a commit in one transaction)
/// come within hundreds (the Assist model has no directed weights: its directed cases are
/// uniform). Every action a path takes is still an enabled action of the model, so a directed
/// path is judged exactly like any other. proptest's ChaCha generator gives the same values on
/// every system and proptest version.
pub fn choices(target: Target, seed: u64, index: u64, max_steps: usize) -> Vec<u32> {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&index.to_le_bytes());
    // A fixed tag, so these streams differ from any other use of the same seed.
    bytes[16..24].copy_from_slice(b"rcipfuzz");
    let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let steps = 1 + (rng.next_u32() as usize) % max_steps.max(1);
    let swarm = (index % 2 == 1).then(|| rng.next_u64());
    let directed = index % 4 == 2;
    // The directed invocation paths take turns: host changes while a confirmation is pending,
    // also while a policy call awaits, or none (time and resolutions only).
    let host_changes = match (index / 4) % 3 {
        0 => HostChanges::WhileConfirmationPending,
        1 => HostChanges::WhilePolicyOrConfirmationPending,
        _ => HostChanges::Never,
    };
    let mut draw = Draw { rng, steps, swarm, directed };
    match target {
        Target::Invocation => {
            let configurations = invocation::fuzz_configurations();
            let pick = draw.rng.next_u32() as usize % configurations.len();
            let mut out = vec![pick as u32];
            out.extend(draw.walk(&configurations[pick].0, &|state, _, action| {
                invocation_weight(state, action, host_changes)
            }));
            out
        }
        Target::Assist => draw.walk(&assist::vector_model(), &|_, _, _| 1),
        Target::Transaction => draw.walk(&transaction::model(), &transaction_weight),
    }
}

/// When a directed invocation path makes host changes.
#[derive(Clone, Copy)]
enum HostChanges {
    WhileConfirmationPending,
    WhilePolicyOrConfirmationPending,
    Never,
}

/// The directed weight of an invocation-model action: the way to a pending confirmation (a valid
/// request, a `confirm` decision) is favoured, host changes (binding, context, availability) are
/// drawn only while a confirmation is pending (or a policy call, or never: `host_changes`) and
/// then often (CL-B07-3/4, CL-B05: what the rechecks at approval and after policy must notice), and so
/// is the approval and a clock tick (CL-B08: expiry). Every
/// enabled action keeps a weight of at least 1 except the host changes while nothing awaits,
/// which the uniform and swarm draws cover.
fn invocation_weight(state: &RuntimeState, action: &InvocationAction, host_changes: HostChanges) -> u32 {
    let pending = state.invocations.iter().any(|i| matches!(i.confirmation, Confirmation::Pending { .. }));
    let awaiting_policy = state.invocations.iter().any(|i| matches!(i.phase, Phase::AwaitingPolicy { .. }));
    let host_weight = match host_changes {
        HostChanges::WhileConfirmationPending if pending => 4,
        HostChanges::WhilePolicyOrConfirmationPending if pending || awaiting_policy => 4,
        _ => 0,
    };
    match action {
        InvocationAction::Invoke(_, Request::Valid) => 4,
        InvocationAction::PolicySettles(_, Decision::Confirm) => 4,
        // A resolution, of a pending confirmation or of a receipt it left (CL-B07..B10).
        InvocationAction::Approve(_) => 8,
        // A tick matters only while a confirmation is pending (CL-B08), the only time it is enabled.
        InvocationAction::AdvanceClock => 4,
        InvocationAction::Bind(_)
        | InvocationAction::Unbind(_)
        | InvocationAction::Rebind(_)
        | InvocationAction::SetContext(_)
        | InvocationAction::LoseAvailability(_)
        | InvocationAction::RestoreAvailability(_) => host_weight,
        _ => 1,
    }
}

/// The directed weight of a transaction-model action, given the actions `taken` before it:
/// outside a transaction a `begin` is favoured (mostly on the current revision); inside one,
/// content (nodes, an unknown or invalid component) and good commits are, against the records
/// that end or break the transaction at once. "Inside" is in any reading: after a `begin` with
/// no commit, abort or end of stream since, even when the model's transaction failed at a record
/// that PRJ-RUI-TX-08 lets an implementation find only at commit (a stale base, an unknown
/// component), since the commit is where such an implementation shows that it found it.
fn transaction_weight(state: &StreamState, taken: &[TransactionAction], action: &TransactionAction) -> u32 {
    let since_begin = taken.iter().rposition(|a| matches!(a, TransactionAction::Begin(_))).map(|i| &taken[i + 1..]);
    let closing = |a: &TransactionAction| {
        matches!(a, TransactionAction::Commit(..) | TransactionAction::Abort | TransactionAction::EndOfStream)
    };
    let open = state.open.is_some() || since_begin.is_some_and(|records| !records.iter().any(closing));
    if !open {
        return match action {
            TransactionAction::Begin(Base::Current) => 32,
            TransactionAction::Begin(Base::Stale) => 8,
            _ => 1,
        };
    }
    match action {
        // A leaf completes a graph whatever else is staged, so it is likelier than a node whose
        // children must be defined too (the operation limit is small).
        TransactionAction::Node(_, Children::Empty) => 12,
        TransactionAction::Node(..) => 4,
        TransactionAction::NodeWithUnknownComponent => 16,
        TransactionAction::NodeWithInvalidProps => 8,
        TransactionAction::Commit(NewRevision::BasePlusOne, _) => 16,
        _ => 1,
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
    /// Whether each step picks by the model's directed weights.
    directed: bool,
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

    /// A directed pick: an enabled action with probability proportional to its weight
    /// (uniform when every weight is 0).
    fn weighted_pick<S, A>(
        &mut self,
        state: &S,
        taken: &[A],
        enabled: &[A],
        weight: &dyn Fn(&S, &[A], &A) -> u32,
    ) -> usize {
        let weights: Vec<u64> = enabled.iter().map(|a| u64::from(weight(state, taken, a))).collect();
        let total: u64 = weights.iter().sum();
        if total == 0 {
            return self.rng.next_u32() as usize % enabled.len();
        }
        let mut ticket = self.rng.next_u64() % total;
        for (i, w) in weights.iter().enumerate() {
            if ticket < *w {
                return i;
            }
            ticket -= w;
        }
        enabled.len() - 1
    }

    /// The choices of one random path of `model` (initial state, then action indices among the
    /// enabled ones, in `actions()` order); `weight` is the model's directed weight.
    fn walk<M: Model>(&mut self, model: &M, weight: &dyn Fn(&M::State, &[M::Action], &M::Action) -> u32) -> Vec<u32>
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
        let mut taken = Vec::new();
        for _ in 0..self.steps {
            enabled.clear();
            model.actions(&state, &mut enabled);
            if enabled.is_empty() {
                break;
            }
            let index = match self.swarm {
                Some(_) => self.swarm_pick(&enabled),
                None if self.directed => self.weighted_pick(&state, &taken, &enabled, weight),
                None => self.rng.next_u32() as usize % enabled.len(),
            };
            let Some(next) = model.next_state(&state, enabled[index].clone()) else { break };
            out.push(index as u32);
            if self.directed {
                taken.push(enabled[index].clone());
            }
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
                let configurations = invocation::fuzz_configurations();
                let Some((&first, rest)) = choices.split_first() else { return Vec::new() };
                let pick = first as usize % configurations.len();
                let mut out = vec![pick as u32];
                out.extend(canonical_walk(&configurations[pick].0, rest));
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
