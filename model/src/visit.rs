//! The coverage visitor behind the model-generated vectors (issue "model-generated vectors"): it
//! walks a model breadth first and picks a small set of action paths that together take every
//! transition class (an action kind in a state class where it is enabled, as the caller
//! classifies them) and reach every outcome code, then reports a coverage certificate. The
//! classification and the codes come from the translator in `suites`, which knows what a vector
//! can express; this module only searches.
//!
//! Determinism: states are explored in `actions()` order from `init_states()` order, classes are
//! kept in a `BTreeMap` keyed by their first discovery, so the same model gives the same paths on
//! every machine. The `HashMap` below only answers "seen before?" and never decides an order.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::hash::Hash;

use stateright::Model;

/// What the translator tells the visitor about one model.
pub trait Coverage<M: Model> {
    /// The transition class of taking `action` in `state` (for example `"approve@confirmation-pending"`),
    /// or `None` for a transition the vectors cannot express (it is then neither required nor
    /// counted).
    fn transition_class(&self, state: &M::State, action: &M::Action) -> Option<String>;
    /// The outcome or rejection codes observable in `state` (settled so far).
    fn codes(&self, state: &M::State) -> Vec<String>;
    /// Every code the certificate measures against, reachable or not.
    fn all_codes(&self) -> Vec<String>;
    /// Actions that bring `state` to a quiet end (every pending thing settled), appended to each
    /// chosen path so its vector observes final outcomes. May be empty.
    fn finish(&self, model: &M, state: &M::State) -> Vec<M::Action>;
}

/// One chosen path: the actions from the initial state at `init` (index into `init_states()`), and
/// what it was chosen for.
#[derive(Clone, Debug)]
pub struct Path<A> {
    pub init: usize,
    pub actions: Vec<A>,
    /// The transition class or `code:<CODE>` that made the visitor pick this path.
    pub target: String,
}

/// Transitions and codes covered by the chosen paths, against what the model can reach.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Certificate {
    pub model: String,
    pub unique_states: usize,
    pub transitions_total: usize,
    pub transitions_covered: usize,
    pub codes_total: usize,
    pub codes_covered: usize,
    /// Classes and codes not covered (unreachable codes included), sorted.
    pub missing: Vec<String>,
    pub paths: usize,
    /// True when `max_states` cut the walk short, so "total" counts only what was explored.
    pub truncated: bool,
}

impl Certificate {
    pub fn complete(&self) -> bool {
        self.missing.is_empty() && !self.truncated
    }
}

impl std::fmt::Display for Certificate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} unique states; transitions covered {}/{}; outcome codes covered {}/{}; {} paths",
            self.model,
            self.unique_states,
            self.transitions_covered,
            self.transitions_total,
            self.codes_covered,
            self.codes_total,
            self.paths
        )?;
        if self.truncated {
            write!(f, "; TRUNCATED at the state limit")?;
        }
        if !self.missing.is_empty() {
            write!(f, "; missing: {}", self.missing.join(", "))?;
        }
        Ok(())
    }
}

struct Node<S, A> {
    state: S,
    init: usize,
    parent: Option<(usize, A)>,
}

/// Explores every reachable state (within `max_states`, a guard against a model far larger than
/// intended) and returns the chosen paths with their certificate.
pub fn cover<M, C>(name: &str, model: &M, coverage: &C, max_states: usize) -> (Vec<Path<M::Action>>, Certificate)
where
    M: Model,
    M::State: Clone + Eq + Hash,
    M::Action: Clone,
    C: Coverage<M>,
{
    let mut nodes: Vec<Node<M::State, M::Action>> = Vec::new();
    let mut seen: HashMap<M::State, usize> = HashMap::new();
    let mut queue = VecDeque::new();
    for (init, state) in model.init_states().into_iter().enumerate() {
        if seen.contains_key(&state) || !model.within_boundary(&state) {
            continue;
        }
        seen.insert(state.clone(), nodes.len());
        queue.push_back(nodes.len());
        nodes.push(Node { state, init, parent: None });
    }
    // First discovery of each class: (node index, action); of each code: node index.
    let mut class_at: BTreeMap<String, (usize, usize, M::Action)> = BTreeMap::new();
    let mut code_at: BTreeMap<String, usize> = BTreeMap::new();
    let mut order = 0usize;
    let mut truncated = false;
    let mut actions = Vec::new();
    while let Some(index) = queue.pop_front() {
        for code in coverage.codes(&nodes[index].state) {
            code_at.entry(code).or_insert(index);
        }
        actions.clear();
        model.actions(&nodes[index].state, &mut actions);
        for action in actions.drain(..) {
            if let Some(class) = coverage.transition_class(&nodes[index].state, &action) {
                if let std::collections::btree_map::Entry::Vacant(slot) = class_at.entry(class) {
                    slot.insert((order, index, action.clone()));
                    order += 1;
                }
            }
            let Some(next) = model.next_state(&nodes[index].state, action.clone()) else { continue };
            if seen.contains_key(&next) || !model.within_boundary(&next) {
                continue;
            }
            if nodes.len() >= max_states {
                truncated = true;
                continue;
            }
            let init = nodes[index].init;
            seen.insert(next.clone(), nodes.len());
            queue.push_back(nodes.len());
            nodes.push(Node { state: next, init, parent: Some((index, action)) });
        }
    }

    let path_to = |mut index: usize| -> (usize, Vec<M::Action>) {
        let mut reversed = Vec::new();
        while let Some((parent, action)) = &nodes[index].parent {
            reversed.push(action.clone());
            index = *parent;
        }
        reversed.reverse();
        (nodes[index].init, reversed)
    };

    let mut covered_classes = BTreeSet::new();
    let mut covered_codes = BTreeSet::new();
    let mut paths = Vec::new();
    let mark = |init: usize, actions: &[M::Action], classes: &mut BTreeSet<String>, codes: &mut BTreeSet<String>| {
        let Some(mut state) = model.init_states().into_iter().nth(init) else { return };
        codes.extend(coverage.codes(&state));
        for action in actions {
            if let Some(class) = coverage.transition_class(&state, action) {
                classes.insert(class);
            }
            match model.next_state(&state, action.clone()) {
                Some(next) => state = next,
                None => return,
            }
            codes.extend(coverage.codes(&state));
        }
    };
    let mut by_discovery: Vec<_> = class_at.iter().collect();
    by_discovery.sort_by_key(|(_, (order, _, _)): &(&String, &(usize, usize, M::Action))| *order);
    let targets = by_discovery
        .into_iter()
        .map(|(class, (_, index, action))| (class.clone(), *index, Some(action.clone())))
        .chain(code_at.iter().map(|(code, index)| (format!("code:{code}"), *index, None)));
    for (target, index, action) in targets {
        let done = match target.strip_prefix("code:") {
            Some(code) => covered_codes.contains(code),
            None => covered_classes.contains(&target),
        };
        if done {
            continue;
        }
        let (init, mut actions) = path_to(index);
        let mut state = nodes[index].state.clone();
        if let Some(action) = action {
            if let Some(next) = model.next_state(&state, action.clone()) {
                state = next;
            }
            actions.push(action);
        }
        let finish = coverage.finish(model, &state);
        actions.extend(finish);
        mark(init, &actions, &mut covered_classes, &mut covered_codes);
        paths.push(Path { init, actions, target });
    }

    let all_codes: BTreeSet<String> = coverage.all_codes().into_iter().chain(code_at.keys().cloned()).collect();
    let mut missing: Vec<String> = class_at.keys().filter(|c| !covered_classes.contains(*c)).cloned().collect();
    missing.extend(all_codes.iter().filter(|c| !covered_codes.contains(*c)).map(|c| format!("code:{c}")));
    let certificate = Certificate {
        model: name.to_string(),
        unique_states: nodes.len(),
        transitions_total: class_at.len(),
        transitions_covered: class_at.keys().filter(|c| covered_classes.contains(*c)).count(),
        codes_total: all_codes.len(),
        codes_covered: all_codes.iter().filter(|c| covered_codes.contains(*c)).count(),
        missing,
        paths: paths.len(),
        truncated,
    };
    (paths, certificate)
}

/// Replays a choice sequence as a path: the first choice picks the initial state, each further
/// choice picks among the actions enabled at that point (modulo their number); the walk stops
/// when no action is enabled or the choices run out. This is how a differential test's random
/// (and shrunk) input and a committed regression become the same model path.
pub fn walk<M>(model: &M, choices: &[u32]) -> (usize, Vec<M::Action>)
where
    M: Model,
    M::Action: Clone,
{
    let inits = model.init_states();
    let Some((&first, rest)) = choices.split_first() else { return (0, Vec::new()) };
    if inits.is_empty() {
        return (0, Vec::new());
    }
    let init = first as usize % inits.len();
    let mut state = inits.into_iter().nth(init).expect("index is within the initial states");
    let mut path = Vec::new();
    let mut enabled = Vec::new();
    for &choice in rest {
        enabled.clear();
        model.actions(&state, &mut enabled);
        if enabled.is_empty() {
            break;
        }
        let action = enabled.swap_remove(choice as usize % enabled.len());
        let Some(next) = model.next_state(&state, action.clone()) else { break };
        path.push(action);
        state = next;
    }
    (init, path)
}
