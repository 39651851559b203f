//! The coverage visitor (`model::visit`) on a toy model whose transitions and codes are known by
//! hand: every class and code is covered by shortest paths, `finish` is appended, inexpressible
//! transitions are not counted, an unreachable code is reported missing, and the state limit is
//! reported as truncation.

use model::visit::{cover, Coverage};
use stateright::Model;

/// A counter from 0 to 3: `Inc` adds one, `Reset` goes back to 0 (enabled from 2 on). Reaching 3
/// shows code `DONE`.
#[derive(Clone)]
struct Counter;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Step {
    Inc,
    Reset,
}

impl Model for Counter {
    type State = u8;
    type Action = Step;
    fn init_states(&self) -> Vec<u8> {
        vec![0]
    }
    fn actions(&self, state: &u8, actions: &mut Vec<Step>) {
        if *state < 3 {
            actions.push(Step::Inc);
        }
        if *state >= 2 {
            actions.push(Step::Reset);
        }
    }
    fn next_state(&self, state: &u8, action: Step) -> Option<u8> {
        Some(match action {
            Step::Inc => state + 1,
            Step::Reset => 0,
        })
    }
}

struct ByValue {
    express_reset_at_3: bool,
    extra_code: Option<&'static str>,
}

impl Coverage<Counter> for ByValue {
    fn transition_class(&self, state: &u8, action: &Step) -> Option<String> {
        if *action == Step::Reset && *state == 3 && !self.express_reset_at_3 {
            return None;
        }
        Some(format!("{action:?}@{state}"))
    }
    fn codes(&self, state: &u8) -> Vec<String> {
        if *state == 3 {
            vec!["DONE".into()]
        } else {
            vec![]
        }
    }
    fn all_codes(&self) -> Vec<String> {
        let mut codes = vec!["DONE".to_string()];
        codes.extend(self.extra_code.map(String::from));
        codes
    }
    fn finish(&self, _: &Counter, state: &u8) -> Vec<Step> {
        // Bring every path to 3 so its end observes DONE.
        (*state..3).map(|_| Step::Inc).collect()
    }
}

#[test]
fn every_class_and_code_is_covered_by_shortest_paths_with_finish_appended() {
    let coverage = ByValue { express_reset_at_3: true, extra_code: None };
    let (paths, certificate) = cover("counter", &Counter, &coverage, 1000);
    // Classes: Inc@0, Inc@1, Inc@2, Reset@2, Reset@3.
    assert_eq!(certificate.transitions_total, 5);
    assert_eq!(certificate.transitions_covered, 5);
    assert_eq!((certificate.codes_covered, certificate.codes_total), (1, 1));
    assert!(certificate.complete(), "{certificate}");
    assert_eq!(certificate.unique_states, 4);
    // The first path targets Inc@0 and is finished up to 3, covering Inc@0..Inc@2 and DONE.
    assert_eq!(paths[0].target, "Inc@0");
    assert_eq!(paths[0].actions, vec![Step::Inc, Step::Inc, Step::Inc]);
    // Then Reset@2 (shortest: Inc, Inc, Reset, finished with three Incs) and Reset@3.
    assert_eq!(paths[1].target, "Reset@2");
    assert_eq!(paths[1].actions, vec![Step::Inc, Step::Inc, Step::Reset, Step::Inc, Step::Inc, Step::Inc]);
    assert_eq!(paths[2].target, "Reset@3");
    assert_eq!(paths.len(), 3);
}

#[test]
fn inexpressible_transitions_are_not_counted_and_unreachable_codes_are_missing() {
    let coverage = ByValue { express_reset_at_3: false, extra_code: Some("NEVER") };
    let (paths, certificate) = cover("counter", &Counter, &coverage, 1000);
    assert_eq!(certificate.transitions_total, 4);
    assert_eq!(certificate.transitions_covered, 4);
    assert_eq!((certificate.codes_covered, certificate.codes_total), (1, 2));
    assert_eq!(certificate.missing, vec!["code:NEVER".to_string()]);
    assert!(!certificate.complete());
    assert_eq!(paths.len(), 2);
    assert!(certificate.to_string().contains("missing: code:NEVER"), "{certificate}");
}

#[test]
fn the_state_limit_is_reported_as_truncation() {
    let coverage = ByValue { express_reset_at_3: true, extra_code: None };
    let (_, certificate) = cover("counter", &Counter, &coverage, 2);
    assert!(certificate.truncated);
    assert!(!certificate.complete());
    assert_eq!(certificate.unique_states, 2);
}

#[test]
fn walk_replays_choices_modulo_the_enabled_actions_and_stops_when_they_run_out() {
    use model::visit::walk;
    // At 0 and 1 only Inc is enabled; at 2 the choices are [Inc, Reset]: 3 % 2 picks Reset.
    assert_eq!(walk(&Counter, &[0, 7, 7, 3, 0]), (0, vec![Step::Inc, Step::Inc, Step::Reset, Step::Inc]));
    assert_eq!(walk(&Counter, &[]), (0, vec![]));
    assert_eq!(walk(&Counter, &[5]), (0, vec![]));
}
