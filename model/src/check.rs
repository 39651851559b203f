//! Runs a model with stateright's breadth-first checker and summarises the result per property
//! (holds, counterexample with its path, example found, no example), for the `model-check`
//! binary and the tests. No requirement of its own; it reports on the properties of
//! `invocation`, `assist` and `transaction`.
//!
//! stateright's BFS keeps overwriting a discovery's path, so the path it reports is often far
//! from the shortest (see CRATE-NOTES). A counterexample is therefore re-found here with a plain
//! single-threaded BFS that keeps the first state breaking the property: the shortest path, and a
//! deterministic one, since `actions()` lists actions in a fixed order.

use std::collections::{HashMap, VecDeque};
use std::fmt::Debug;
use std::hash::Hash;

use stateright::{Checker, Expectation, Model, Property};

/// How far and how wide to check.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// Check every state reachable in at most this many steps (actions); `None` explores every
    /// reachable state.
    pub depth: Option<usize>,
    pub threads: usize,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            depth: None,
            threads: 1,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// An `always` property with no counterexample in the explored space.
    Holds,
    /// An `always` property broken; the shortest path of actions to a breaking state.
    Counterexample(Vec<String>),
    /// A `sometimes` property with a witness; the path stateright reported.
    ExampleFound(Vec<String>),
    /// A `sometimes` property without a witness in the explored space.
    NoExample,
}

#[derive(Clone, Debug)]
pub struct PropertyResult {
    pub name: &'static str,
    pub verdict: Verdict,
}

impl PropertyResult {
    /// Whether the verdict is the one the property asks for.
    pub fn as_expected(&self) -> bool {
        matches!(self.verdict, Verdict::Holds | Verdict::ExampleFound(_))
    }
}

#[derive(Clone, Debug)]
pub struct Summary {
    pub states: usize,
    pub unique_states: usize,
    /// The most steps from an initial state to a checked state.
    pub max_depth: usize,
    /// False when the depth bound cut exploration short, so "holds" means "holds to that depth".
    pub complete: bool,
    pub properties: Vec<PropertyResult>,
}

impl Summary {
    pub fn all_as_expected(&self) -> bool {
        self.properties.iter().all(PropertyResult::as_expected)
    }

    pub fn result(&self, name: &str) -> Option<&PropertyResult> {
        self.properties.iter().find(|p| p.name == name)
    }
}

/// Checks `model` breadth first within `bounds` and summarises every property, in the order the
/// model lists them.
pub fn run<M>(model: M, bounds: Bounds) -> Summary
where
    M: Model + Clone + Send + Sync + 'static,
    M::State: Clone + Debug + Eq + Hash + Send + Sync + 'static,
    M::Action: Clone + Debug + PartialEq,
{
    let properties = model.properties();
    let mut builder = model.clone().checker().threads(bounds.threads.max(1));
    // stateright counts the initial state as depth 1 and neither checks nor expands states at
    // its target depth, so checking every state within `depth` steps needs a target two deeper.
    if let Some(depth) = bounds.depth {
        builder = builder.target_max_depth(depth + 2);
    }
    let checker = builder.spawn_bfs().join();
    let results = properties
        .iter()
        .map(|property| {
            let discovery = checker.discovery(property.name);
            let verdict = match (&property.expectation, discovery) {
                (Expectation::Sometimes, Some(path)) => {
                    Verdict::ExampleFound(format_actions(path.into_actions()))
                }
                (Expectation::Sometimes, None) => Verdict::NoExample,
                (_, None) => Verdict::Holds,
                (_, Some(path)) => Verdict::Counterexample(
                    shortest_counterexample(&model, property, bounds.depth)
                        .unwrap_or_else(|| format_actions(path.into_actions())),
                ),
            };
            PropertyResult {
                name: property.name,
                verdict,
            }
        })
        .collect();
    let steps = checker.max_depth().saturating_sub(1);
    Summary {
        states: checker.state_count(),
        unique_states: checker.unique_state_count(),
        max_depth: bounds.depth.map_or(steps, |depth| steps.min(depth)),
        complete: bounds.depth.is_none_or(|depth| steps <= depth),
        properties: results,
    }
}

fn format_actions<A: Debug>(actions: Vec<A>) -> Vec<String> {
    actions.into_iter().map(|a| format!("{a:?}")).collect()
}

/// A state the shortest-path search reached: how (parent index and action label) and in how
/// many steps.
struct Discovered<S> {
    state: S,
    parent: Option<(usize, String)>,
    steps: usize,
}

/// The shortest path of actions from an initial state to a state where `property` (an `always`)
/// is false, searching no more than `depth` steps deep.
pub fn shortest_counterexample<M>(
    model: &M,
    property: &Property<M>,
    depth: Option<usize>,
) -> Option<Vec<String>>
where
    M: Model,
    M::State: Clone + Eq + Hash,
    M::Action: Debug,
{
    let mut arena: Vec<Discovered<M::State>> = Vec::new();
    // Membership only, never iterated: the search order comes from the arena and `actions()`.
    let mut seen: HashMap<M::State, usize> = HashMap::new();
    let mut frontier = VecDeque::new();
    for state in model.init_states() {
        if seen.contains_key(&state) {
            continue;
        }
        seen.insert(state.clone(), arena.len());
        frontier.push_back(arena.len());
        arena.push(Discovered {
            state,
            parent: None,
            steps: 0,
        });
    }
    while let Some(index) = frontier.pop_front() {
        let Discovered { state, steps, .. } = &arena[index];
        if !(property.condition)(model, state) {
            let mut actions = Vec::new();
            let mut at = index;
            while let Some((parent, action)) = &arena[at].parent {
                actions.push(action.clone());
                at = *parent;
            }
            actions.reverse();
            return Some(actions);
        }
        if depth.is_some_and(|d| *steps >= d) {
            continue;
        }
        let next_steps = steps + 1;
        let state = state.clone();
        let mut actions = Vec::new();
        model.actions(&state, &mut actions);
        for action in actions {
            let label = format!("{action:?}");
            let Some(next) = model.next_state(&state, action) else {
                continue;
            };
            if seen.contains_key(&next) {
                continue;
            }
            seen.insert(next.clone(), arena.len());
            frontier.push_back(arena.len());
            arena.push(Discovered {
                state: next,
                parent: Some((index, label)),
                steps: next_steps,
            });
        }
    }
    None
}
