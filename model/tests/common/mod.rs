//! Helpers shared by the model tests: replaying a scripted path (each step must be one the model
//! offers, so a script cannot take a transition the model forbids) and checking that a
//! deliberately broken variant breaks a named property.

use std::collections::BTreeSet;
use std::fmt::Debug;
use std::hash::Hash;

use stateright::{Checker, HasDiscoveries, Model};

/// Runs `actions` from the model's first initial state and returns the final state; panics if
/// an action is not enabled where the script uses it.
#[allow(dead_code)]
pub fn replay<M>(model: &M, actions: &[M::Action]) -> M::State
where
    M: Model,
    M::Action: Clone + Debug + PartialEq,
{
    replay_from(model, model.init_states().remove(0), actions)
}

#[allow(dead_code)]
pub fn replay_from<M>(model: &M, mut state: M::State, actions: &[M::Action]) -> M::State
where
    M: Model,
    M::Action: Clone + Debug + PartialEq,
{
    for action in actions {
        let mut enabled = Vec::new();
        model.actions(&state, &mut enabled);
        assert!(
            enabled.contains(action),
            "{action:?} is not enabled here; enabled: {enabled:?}"
        );
        state = model
            .next_state(&state, action.clone())
            .expect("an enabled action leads somewhere");
    }
    state
}

/// Checks `model` until `property` has a discovery and returns whether it did; the run stops at
/// the first discovery, so a broken variant is shown quickly.
pub fn breaks<M>(model: M, property: &'static str) -> bool
where
    M: Model + Send + Sync + 'static,
    M::State: Clone + Debug + Hash + PartialEq + Send + Sync + 'static,
    M::Action: Clone + Debug + PartialEq,
{
    assert!(
        model.properties().iter().any(|p| p.name == property),
        "no property named {property:?}"
    );
    let checker = model
        .checker()
        .finish_when(HasDiscoveries::AnyOf(BTreeSet::from([property])))
        .spawn_bfs()
        .join();
    checker.discovery(property).is_some()
}
