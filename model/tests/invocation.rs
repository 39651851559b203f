//! Checks the RCIP invocation and confirmation model (`model::invocation`, CL-B01..B12): every
//! property at the pinned configurations, scripted paths for the decisions the model encodes
//! (CL-B04, B05 precedence, B06, B07, B08, B09, B10, B11), and one deliberately broken variant per
//! safety property family, to show those properties can fail.

mod common;

use common::{breaks, replay};
use model::check::{self, Bounds, Verdict};
use model::invocation::Action::*;
use model::invocation::*;
use stateright::{Checker, Model};

fn assert_checks(model: InvocationModel, unique_states: usize) {
    let checker = model.checker().spawn_bfs().join();
    checker.assert_properties();
    assert_eq!(checker.unique_state_count(), unique_states);
}

/// Three requests with distinct ids whose only policy answer is `confirm`: the smallest space
/// where more receipts exist than a bound of 2 retains (see the comment on receipts generalising
/// to 256 in `invocation.rs`).
fn receipts_model() -> InvocationModel {
    InvocationModel {
        invocations: 3,
        receipt_bound: 2,
        host_events: 0,
        request_faults: false,
        decisions: vec![Decision::Confirm],
        ..Default::default()
    }
}

#[test]
fn default_configuration_holds_every_property() {
    assert_checks(InvocationModel::default(), 51_383);
}

#[test]
fn distinct_ids_hold_every_property() {
    assert_checks(
        InvocationModel {
            ids: IdAssignment::Distinct,
            ..Default::default()
        },
        60_774,
    );
}

#[test]
fn two_capabilities_sharing_an_id_hold_every_property() {
    assert_checks(
        InvocationModel {
            capabilities: 2,
            ..Default::default()
        },
        66_788,
    );
}

#[test]
fn receipts_are_evicted_with_a_bound_of_two() {
    let model = receipts_model();
    assert!(model.eviction_reachable());
    assert_checks(model, 30_394);
}

#[test]
fn any_effective_change_comparison_holds_every_property() {
    assert_checks(
        InvocationModel {
            context_comparison: ContextComparison::AnyEffectiveChange,
            ..Default::default()
        },
        51_383,
    );
}

fn outcome(state: &RuntimeState, slot: Slot) -> Option<Outcome> {
    state.invocations[slot].invoke_outcome
}

#[test]
fn an_identical_context_is_no_change() {
    // CL-B06
    let state = replay(
        &InvocationModel::default(),
        &[
            Invoke(0, Request::Valid),
            SetContext(SemanticContext::Initial),
            PolicySettles(0, Decision::Allow),
            HandlerSettles(0, HandlerResult::Output),
        ],
    );
    assert_eq!(outcome(&state, 0), Some(Outcome::Succeeded));
}

#[test]
fn a_changed_context_denies_after_policy() {
    // CL-B05
    let state = replay(
        &InvocationModel::default(),
        &[
            Invoke(0, Request::Valid),
            SetContext(SemanticContext::Other),
            PolicySettles(0, Decision::Allow),
        ],
    );
    assert_eq!(
        outcome(&state, 0),
        Some(Outcome::Denied(Code::PolicyDenied))
    );
    assert_eq!(state.invocations[0].handler_starts, 0);
}

#[test]
fn a_context_changed_and_restored_depends_on_the_comparison() {
    let script = [
        Invoke(0, Request::Valid),
        SetContext(SemanticContext::Other),
        SetContext(SemanticContext::Initial),
        PolicySettles(0, Decision::Allow),
    ];
    let by_value = InvocationModel {
        host_events: 2,
        ..Default::default()
    };
    assert_eq!(replay(&by_value, &script).invocations[0].handler_starts, 1);
    let any_change = InvocationModel {
        context_comparison: ContextComparison::AnyEffectiveChange,
        ..by_value
    };
    let state = replay(&any_change, &script);
    assert_eq!(
        outcome(&state, 0),
        Some(Outcome::Denied(Code::PolicyDenied))
    );
}

#[test]
fn rechecks_after_policy_follow_the_recommended_precedence() {
    // CL-B05 RECOMMENDED: binding > context > availability, and before the decision itself.
    let model = InvocationModel {
        host_events: 3,
        ..Default::default()
    };
    let cases = [
        (
            vec![
                LoseAvailability(0),
                SetContext(SemanticContext::Other),
                Unbind(0),
            ],
            Code::CapabilityUnbound,
        ),
        (
            vec![LoseAvailability(0), SetContext(SemanticContext::Other)],
            Code::PolicyDenied,
        ),
        (vec![LoseAvailability(0)], Code::CapabilityUnavailable),
    ];
    for (changes, code) in cases {
        for decision in Decision::ALL {
            let mut script = vec![Invoke(0, Request::Valid)];
            script.extend(changes.iter().copied());
            script.push(PolicySettles(0, decision));
            let state = replay(&model, &script);
            assert_eq!(outcome(&state, 0), Some(Outcome::error(code)), "{script:?}");
        }
    }
}

#[test]
fn availability_lost_and_returned_before_the_recheck_runs_the_handler() {
    let model = InvocationModel {
        host_events: 2,
        ..Default::default()
    };
    let state = replay(
        &model,
        &[
            Invoke(0, Request::Valid),
            LoseAvailability(0),
            RestoreAvailability(0),
            PolicySettles(0, Decision::Allow),
        ],
    );
    assert_eq!(state.invocations[0].handler_starts, 1);
}

#[test]
fn a_rebind_during_policy_gives_capability_unbound_and_releases_the_id() {
    // CL-B05, CL-B04
    let state = replay(
        &InvocationModel::default(),
        &[
            Invoke(0, Request::Valid),
            Rebind(0),
            PolicySettles(0, Decision::Allow),
            Invoke(1, Request::Valid),
        ],
    );
    assert_eq!(
        outcome(&state, 0),
        Some(Outcome::error(Code::CapabilityUnbound))
    );
    assert_eq!(state.invocations[0].handler_starts, 0);
    assert!(state.invocations[1].in_flight());
}

#[test]
fn a_reserved_id_is_rejected_without_disturbing_its_holder() {
    // CL-B04
    let state = replay(
        &InvocationModel::default(),
        &[Invoke(0, Request::Valid), Invoke(1, Request::Valid)],
    );
    assert_eq!(
        outcome(&state, 1),
        Some(Outcome::error(Code::InvocationAlreadyActive))
    );
    assert_eq!(
        state.invocations[0].phase,
        Phase::AwaitingPolicy {
            pass: Pass::Initial
        }
    );
}

#[test]
fn the_id_check_comes_before_the_catalog_lookup() {
    let state = replay(
        &InvocationModel::default(),
        &[
            Invoke(0, Request::Valid),
            Invoke(1, Request::UndeclaredCapability),
        ],
    );
    assert_eq!(
        outcome(&state, 1),
        Some(Outcome::error(Code::InvocationAlreadyActive))
    );
}

#[test]
fn an_abort_during_policy_settles_at_once_and_ignores_the_late_result() {
    // CL-B11
    let model = InvocationModel::default();
    let state = replay(&model, &[Invoke(0, Request::Valid), Abort(0)]);
    assert_eq!(
        outcome(&state, 0),
        Some(Outcome::error(Code::ExecutionAborted))
    );
    assert!(state.reserved.is_empty());
    let mut enabled = Vec::new();
    model.actions(&state, &mut enabled);
    assert!(!enabled.iter().any(|a| matches!(a, PolicySettles(0, _))));
}

#[test]
fn an_already_aborted_signal_is_reported_after_the_four_checks() {
    // CL-B03 RECOMMENDED
    let model = InvocationModel::default();
    let state = replay(&model, &[Abort(0), Invoke(0, Request::Valid)]);
    assert_eq!(
        outcome(&state, 0),
        Some(Outcome::error(Code::ExecutionAborted))
    );
    assert_eq!(state.invocations[0].policy_calls, 0);
    let state = replay(&model, &[Abort(0), Invoke(0, Request::InvalidInput)]);
    assert_eq!(outcome(&state, 0), Some(Outcome::error(Code::InputInvalid)));
}

#[test]
fn a_handler_after_an_abort_reports_what_it_did() {
    // CL-B11, CL-B12
    let model = InvocationModel::default();
    let run = |result, abort: bool| {
        let mut script = vec![Invoke(0, Request::Valid), PolicySettles(0, Decision::Allow)];
        if abort {
            script.push(Abort(0));
        }
        script.push(HandlerSettles(0, result));
        outcome(&replay(&model, &script), 0)
    };
    assert_eq!(run(HandlerResult::Output, true), Some(Outcome::Succeeded));
    assert_eq!(
        run(HandlerResult::Throw, true),
        Some(Outcome::error(Code::ExecutionAborted))
    );
    assert_eq!(
        run(HandlerResult::Throw, false),
        Some(Outcome::error(Code::ExecutionFailed))
    );
    assert_eq!(
        run(HandlerResult::InvalidOutput, true),
        Some(Outcome::error(Code::OutputInvalid))
    );
}

#[test]
fn an_approval_is_single_use_and_runs_the_confirmed_pass() {
    // CL-B07
    let state = replay(
        &InvocationModel::default(),
        &[
            Invoke(0, Request::Valid),
            PolicySettles(0, Decision::Confirm),
            Approve(0),
            Approve(0),
            PolicySettles(0, Decision::Allow),
            HandlerSettles(0, HandlerResult::Output),
        ],
    );
    let invocation = &state.invocations[0];
    assert_eq!(
        invocation.invoke_outcome,
        Some(Outcome::ConfirmationRequired)
    );
    assert_eq!(
        invocation.resolutions,
        vec![
            Outcome::error(Code::ConfirmationNotFound),
            Outcome::Succeeded
        ]
    );
    assert_eq!(invocation.policy_calls, 2);
}

#[test]
fn a_binding_changed_while_pending_denies_at_approval() {
    // CL-B07
    let state = replay(
        &InvocationModel::default(),
        &[
            Invoke(0, Request::Valid),
            PolicySettles(0, Decision::Confirm),
            Rebind(0),
            Approve(0),
        ],
    );
    assert_eq!(
        state.invocations[0].resolutions,
        vec![Outcome::Denied(Code::PolicyDenied)]
    );
    assert_eq!(state.invocations[0].handler_starts, 0);
}

#[test]
fn confirming_again_on_the_confirmed_pass_is_denied() {
    // CL-B07 RECOMMENDED
    let state = replay(
        &InvocationModel::default(),
        &[
            Invoke(0, Request::Valid),
            PolicySettles(0, Decision::Confirm),
            Approve(0),
            PolicySettles(0, Decision::Confirm),
        ],
    );
    assert_eq!(
        state.invocations[0].resolutions,
        vec![Outcome::Denied(Code::PolicyDenied)]
    );
}

#[test]
fn an_expired_receipt_is_returned_once_whatever_approved_says() {
    // CL-B08, CL-B10 RECOMMENDED
    let state = replay(
        &InvocationModel::default(),
        &[
            Invoke(0, Request::Valid),
            PolicySettles(0, Decision::Confirm),
            AdvanceClock,
            Invoke(1, Request::Valid),
            Decline(0),
            Approve(0),
        ],
    );
    assert_eq!(
        state.invocations[0].resolutions,
        vec![
            Outcome::error(Code::ConfirmationExpired),
            Outcome::error(Code::ConfirmationNotFound)
        ]
    );
    assert!(state.invocations[1].in_flight(), "expiry released the id");
}

#[test]
fn the_oldest_receipt_is_evicted_first() {
    // CL-B09, CL-B10 with a bound of 2
    let model = InvocationModel {
        ids: IdAssignment::Distinct,
        ..receipts_model()
    };
    let state = replay(
        &model,
        &[
            Invoke(0, Request::Valid),
            Invoke(1, Request::Valid),
            Invoke(2, Request::Valid),
            PolicySettles(1, Decision::Confirm),
            PolicySettles(0, Decision::Confirm),
            PolicySettles(2, Decision::Confirm),
            Abort(0),
            AdvanceClock,
            Approve(0),
            Approve(1),
            Approve(2),
        ],
    );
    assert_eq!(state.receipt_log, vec![0, 1, 2]);
    let resolution = |slot: Slot| state.invocations[slot].resolutions.clone();
    assert_eq!(
        resolution(0),
        vec![Outcome::error(Code::ConfirmationNotFound)]
    );
    assert_eq!(
        resolution(1),
        vec![Outcome::error(Code::ConfirmationExpired)]
    );
    assert_eq!(
        resolution(2),
        vec![Outcome::error(Code::ConfirmationExpired)]
    );
}

#[test]
fn skipping_the_binding_recheck_is_caught_with_a_shortest_counterexample() {
    let property =
        "a handler never starts after an abort, unbind, context change or lost availability was observed";
    let broken = InvocationModel {
        fault: Some(InvocationFault::SkipBindingRecheck),
        ..Default::default()
    };
    // Three steps are enough for the shortest counterexample.
    let bounds = Bounds {
        depth: Some(3),
        threads: 1,
    };
    let summary = check::run(broken, bounds);
    let Some(Verdict::Counterexample(path)) = summary.result(property).map(|r| r.verdict.clone())
    else {
        panic!("expected a counterexample for {property:?}");
    };
    assert_eq!(
        path,
        vec!["Invoke(0, Valid)", "Unbind(0)", "PolicySettles(0, Allow)"]
    );
}

#[test]
fn releasing_the_id_at_policy_grants_it_twice() {
    let broken = InvocationModel {
        fault: Some(InvocationFault::ReleaseIdAtPolicy),
        ..Default::default()
    };
    assert!(breaks(
        broken,
        "a reserved id is never granted to a second invocation"
    ));
}

#[test]
fn retrying_a_throwing_handler_is_caught() {
    let broken = InvocationModel {
        fault: Some(InvocationFault::RetryThrowingHandler),
        ..Default::default()
    };
    assert!(breaks(
        broken.clone(),
        "a handler runs at most once per invocation"
    ));
    assert!(breaks(
        broken,
        "no retry ever happens: one policy call per pass and one handler start"
    ));
}

#[test]
fn a_reusable_approval_is_caught() {
    let broken = InvocationModel {
        fault: Some(InvocationFault::ReusableApproval),
        ..Default::default()
    };
    assert!(breaks(broken, "an approval is used at most once"));
}

#[test]
fn unbounded_receipts_are_caught() {
    let broken = InvocationModel {
        fault: Some(InvocationFault::UnboundedReceipts),
        ..receipts_model()
    };
    assert!(breaks(broken, "retained receipts never exceed the bound"));
}
