//! Lifecycle tests of the RCIP reference runtime, written from spec 000 ("Invocation lifecycle"),
//! spec 001 ("Asynchronous policy and confirmation", "Cancellation and effects", "Context and
//! availability") and CLARIFICATIONS B. Each test names the requirement it checks; expectations
//! come from those sentences, not from the runtime's output.

#[path = "rcip_support.rs"]
mod support;

use std::cell::RefCell;
use std::rc::Rc;

use reference::rcip::{
    AbortSignal, BindingSpec, ErrorCode, GateError, HostErrorName, HostValue, InvokeRequest,
    ListFilter, OutcomeBody, Phase, Runtime, RuntimeOptions, Snapshot, Status, RECEIPT_CAPACITY,
};
use serde_json::{json, Value};
use support::*;

fn text(t: &str) -> Value {
    json!({ "text": t })
}

fn created() -> Value {
    json!({ "id": "n1" })
}

// ---------------------------------------------------------------------------------------------
// Check order and outcomes (CL-B01, CL-B03, RCIP-PROTO-LIFE-01..05)
// ---------------------------------------------------------------------------------------------

#[test]
fn cl_b03_1_check_order_catalog_binding_availability_input_then_policy() {
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(allow())));
    let i = rig.invoke("notes.nope", text("a"), "i1");
    assert_eq!(rig.result(i), failed(ErrorCode::CapabilityNotFound));
    let i = rig.invoke("notes.create", json!({ "text": 5 }), "i2");
    assert_eq!(
        rig.result(i),
        failed(ErrorCode::CapabilityUnbound),
        "unbound is checked before input"
    );
    let availability = Rc::new(RefCell::new(json!({ "available": false })));
    rig.bind_with(
        "notes.create",
        HandlerMode::Returns(created()),
        Some(Rc::clone(&availability)),
    );
    let i = rig.invoke("notes.create", json!({ "text": 5 }), "i3");
    assert_eq!(
        rig.result(i),
        failed(ErrorCode::CapabilityUnavailable),
        "availability before input"
    );
    *availability.borrow_mut() = json!({ "available": true });
    let i = rig.invoke("notes.create", json!({ "text": 5, "extra": true }), "i4");
    assert_eq!(rig.result(i), failed(ErrorCode::InputInvalid));
    match rig.outcome(i).map(|o| &o.body) {
        Some(OutcomeBody::Error(error)) => {
            let pairs: Vec<(String, String)> = error
                .validation_issues
                .iter()
                .flatten()
                .map(|issue| (issue.instance_path.clone(), issue.keyword.clone()))
                .collect();
            assert_eq!(
                pairs,
                vec![
                    ("".into(), "additionalProperties".into()),
                    ("/text".into(), "type".into())
                ]
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        rig.policy_count(),
        0,
        "policy is asked only after the four checks pass"
    );
    let i = rig.invoke("notes.create", text("a"), "i5");
    assert_eq!(rig.result(i), succeeded());
    assert_eq!(rig.policy_count(), 1);
}

#[test]
fn cl_b03_2_an_already_aborted_signal_is_reported_before_policy() {
    let mut rig = Rig::new(PolicyMode::Gated);
    rig.bind("notes.create", HandlerMode::Returns(created()));
    let signal = AbortSignal::new();
    signal.abort();
    let i = rig.invoke_signal(
        "notes.create",
        HostValue::from_json(&text("a")),
        "i1",
        &signal,
    );
    assert_eq!(rig.result(i), failed(ErrorCode::ExecutionAborted));
    assert_eq!(rig.policy_count(), 0);
    // The four checks still come first.
    let i = rig.invoke_signal(
        "notes.create",
        HostValue::from_json(&json!({})),
        "i2",
        &signal,
    );
    assert_eq!(rig.result(i), failed(ErrorCode::InputInvalid));
}

#[test]
fn cl_a06_outcome_shapes() {
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(allow())));
    rig.bind("notes.create", HandlerMode::Returns(created()));
    let i = rig.invoke("notes.create", text("a"), "i1");
    let outcome = rig.outcome(i).map(|o| o.to_json());
    assert_eq!(
        outcome,
        Some(
            json!({ "status": "succeeded", "invocationId": "i1", "capabilityId": "notes.create", "output": created() })
        )
    );
}

// ---------------------------------------------------------------------------------------------
// Reservation (CL-B04, RCIP-LIFE-POLICY-01..03)
// ---------------------------------------------------------------------------------------------

#[test]
fn cl_b04_ids_are_reserved_across_policy_and_confirmation_and_released_after() {
    let mut rig = Rig::new(PolicyMode::Gated);
    rig.bind("notes.create", HandlerMode::Returns(created()));
    rig.bind("notes.list", HandlerMode::Returns(json!({})));
    let first = rig.invoke("notes.create", text("a"), "same");
    assert_eq!(rig.result(first), None);
    // One namespace across capabilities (CL-B04-2); the first is not disturbed (CL-B04-4).
    let second = rig.invoke("notes.list", json!({}), "same");
    assert_eq!(
        rig.result(second),
        failed(ErrorCode::InvocationAlreadyActive)
    );
    assert_eq!(rig.result(first), None);
    assert_eq!(rig.policy_count(), 1);
    rig.settle_policy(1, confirm());
    assert_eq!(rig.result(first), confirmation_required());
    let third = rig.invoke("notes.create", text("b"), "same");
    assert_eq!(
        rig.result(third),
        failed(ErrorCode::InvocationAlreadyActive),
        "reserved while confirming"
    );
    let confirmation = rig.confirmation_id(first);
    let resolution = rig.runtime.resolve_confirmation(&confirmation, false);
    assert_eq!(
        rig.result(resolution),
        denied(ErrorCode::ConfirmationDeclined)
    );
    // CL-B04-5: free again after resolution.
    let fourth = rig.invoke("notes.create", text("c"), "same");
    assert_eq!(rig.result(fourth), None, "accepted: waiting for policy");
    assert!(rig.runtime.reserved_ids().contains(&"same".to_string()));
}

// ---------------------------------------------------------------------------------------------
// Rechecks after policy (CL-B05, CL-B06, RCIP-LIFE-POLICY-04..07)
// ---------------------------------------------------------------------------------------------

fn pending_create(rig: &mut Rig) -> reference::rcip::Ticket {
    rig.invoke("notes.create", text("a"), "i1")
}

#[test]
fn cl_b05_unbind_or_rebind_during_policy_gives_capability_unbound() {
    let mut rig = Rig::new(PolicyMode::Gated);
    let token = rig.bind("notes.create", HandlerMode::Returns(created()));
    let i = pending_create(&mut rig);
    rig.runtime.unbind(&token);
    rig.bind("notes.create", HandlerMode::Returns(created()));
    rig.settle_policy(1, allow());
    assert_eq!(rig.result(i), failed(ErrorCode::CapabilityUnbound));
    assert_eq!(rig.handler_count(), 0, "CL-B05-2: the handler does not run");
}

#[test]
fn cl_b05_changed_context_during_policy_is_denied() {
    let mut rig = Rig::new(PolicyMode::Gated);
    rig.bind("notes.create", HandlerMode::Returns(created()));
    let i = pending_create(&mut rig);
    rig.set_context(&["notes"], None);
    rig.settle_policy(1, allow());
    assert_eq!(rig.result(i), denied(ErrorCode::PolicyDenied));
    assert_eq!(rig.handler_count(), 0);
}

#[test]
fn cl_b06_2_republishing_an_identical_context_is_not_a_change() {
    let mut rig = Rig::new(PolicyMode::Gated);
    rig.bind("notes.create", HandlerMode::Returns(created()));
    rig.set_context(&["notes"], Some("notes"));
    let i = pending_create(&mut rig);
    rig.set_context(&["notes", "notes"], Some("notes"));
    rig.set_context(&["settings"], None);
    rig.set_context(&["notes"], Some("notes"));
    rig.settle_policy(1, allow());
    assert_eq!(
        rig.result(i),
        succeeded(),
        "compared by value: back to the same context"
    );
}

#[test]
fn cl_b05_lost_availability_during_policy_gives_capability_unavailable() {
    let mut rig = Rig::new(PolicyMode::Gated);
    let availability = Rc::new(RefCell::new(json!({ "available": true })));
    rig.bind_with(
        "notes.create",
        HandlerMode::Returns(created()),
        Some(Rc::clone(&availability)),
    );
    let i = pending_create(&mut rig);
    *availability.borrow_mut() = json!({ "available": false });
    rig.settle_policy(1, allow());
    assert_eq!(rig.result(i), failed(ErrorCode::CapabilityUnavailable));
    assert_eq!(rig.handler_count(), 0);
}

// ---------------------------------------------------------------------------------------------
// Confirmation (CL-B07, RCIP-LIFE-CONF-01..04)
// ---------------------------------------------------------------------------------------------

#[test]
fn cl_b07_approval_reruns_policy_confirmed_and_is_single_use() {
    let mut rig = Rig::new(PolicyMode::Gated);
    rig.bind("notes.create", HandlerMode::Returns(created()));
    let i = pending_create(&mut rig);
    rig.settle_policy(1, confirm());
    let confirmation = rig.confirmation_id(i);
    let approval = rig.runtime.resolve_confirmation(&confirmation, true);
    assert_eq!(
        rig.result(approval),
        None,
        "waits for the confirmed policy pass"
    );
    assert_eq!(
        rig.records.borrow().policy.get(1).map(|r| r.confirmed),
        Some(true)
    );
    rig.settle_policy(2, allow());
    assert_eq!(rig.result(approval), succeeded());
    assert_eq!(
        rig.outcome(approval).map(|o| o.invocation_id.as_str()),
        Some("i1")
    );
    let again = rig.runtime.resolve_confirmation(&confirmation, true);
    assert_eq!(rig.result(again), failed(ErrorCode::ConfirmationNotFound));
    assert_eq!(rig.handler_count(), 1);
}

#[test]
fn cl_b07_4_changed_binding_or_context_while_pending_denies_at_approval() {
    for change in ["rebind", "context"] {
        let mut rig = Rig::new(PolicyMode::Fixed(Ok(confirm())));
        let token = rig.bind("notes.create", HandlerMode::Returns(created()));
        let i = pending_create(&mut rig);
        let confirmation = rig.confirmation_id(i);
        if change == "rebind" {
            rig.runtime.unbind(&token);
            rig.bind("notes.create", HandlerMode::Returns(created()));
        } else {
            rig.set_context(&["settings"], None);
        }
        let approval = rig.runtime.resolve_confirmation(&confirmation, true);
        assert_eq!(
            rig.result(approval),
            denied(ErrorCode::PolicyDenied),
            "{change}"
        );
        assert_eq!(rig.handler_count(), 0, "{change}");
    }
}

#[test]
fn cl_b07_5_confirm_again_on_the_confirmed_pass_is_denied() {
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(confirm())));
    rig.bind("notes.create", HandlerMode::Returns(created()));
    let i = pending_create(&mut rig);
    let approval = rig
        .runtime
        .resolve_confirmation(&rig.confirmation_id(i), true);
    assert_eq!(rig.result(approval), denied(ErrorCode::PolicyDenied));
}

#[test]
fn cl_b14_1_confirmation_captures_the_input_at_invoke() {
    let mut rig = Rig::new(PolicyMode::Gated);
    rig.bind("notes.create", HandlerMode::Returns(created()));
    let input = HostValue::from_json(&text("original"));
    let i = rig.invoke_signal("notes.create", input.clone(), "i1", &AbortSignal::new());
    assert_eq!(
        input.set_at_pointer("/text", HostValue::string("during policy")),
        Ok(())
    );
    rig.settle_policy(1, confirm());
    assert_eq!(
        input.set_at_pointer("/text", HostValue::string("during confirmation")),
        Ok(())
    );
    let approval = rig
        .runtime
        .resolve_confirmation(&rig.confirmation_id(i), true);
    rig.settle_policy(2, allow());
    assert_eq!(rig.result(approval), succeeded());
    let records = rig.records.borrow();
    let inputs: Vec<&Value> = records
        .policy
        .iter()
        .map(|r| &r.input)
        .chain(records.handler.iter().map(|r| &r.input))
        .collect();
    assert_eq!(
        inputs,
        vec![&text("original"), &text("original"), &text("original")]
    );
}

#[test]
fn cl_b14_2_a_handler_mutating_its_input_changes_nothing_else() {
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(allow())));
    rig.bind("notes.create", HandlerMode::MutatesThenReturns(created()));
    let input = HostValue::from_json(&text("mine"));
    let i = rig.invoke_signal("notes.create", input.clone(), "i1", &AbortSignal::new());
    assert_eq!(rig.result(i), succeeded());
    assert_eq!(input.to_plain_json(), Ok(text("mine")));
}

// ---------------------------------------------------------------------------------------------
// Expiry, cancellation, receipts (CL-B08..B10, RCIP-LIFE-CONF-05..08)
// ---------------------------------------------------------------------------------------------

#[test]
fn cl_b08_default_ttl_is_two_minutes_and_expiry_releases_at_once() {
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(confirm())));
    rig.bind("notes.create", HandlerMode::Returns(created()));
    rig.runtime.advance(1_000);
    let i = pending_create(&mut rig);
    match rig.outcome(i).map(|o| &o.body) {
        Some(OutcomeBody::ConfirmationRequired(info)) => assert_eq!(info.expires_at, 121_000),
        other => panic!("{other:?}"),
    }
    let confirmation = rig.confirmation_id(i);
    rig.runtime.advance(119_999);
    assert_eq!(rig.runtime.pending_confirmation_count(), 1);
    rig.runtime.advance(1);
    assert_eq!(
        rig.runtime.pending_confirmation_count(),
        0,
        "released without a resolution"
    );
    assert!(
        rig.runtime.reserved_ids().is_empty(),
        "the id reservation too"
    );
    let late = rig.runtime.resolve_confirmation(&confirmation, true);
    assert_eq!(rig.result(late), failed(ErrorCode::ConfirmationExpired));
    // CL-B10-3 (RECOMMENDED): a receipt answers once.
    let again = rig.runtime.resolve_confirmation(&confirmation, false);
    assert_eq!(rig.result(again), failed(ErrorCode::ConfirmationNotFound));
    assert_eq!(rig.handler_count(), 0);
}

#[test]
fn cl_b09_cancelling_a_pending_confirmation_releases_it_and_leaves_a_receipt() {
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(confirm())));
    rig.bind("notes.create", HandlerMode::Returns(created()));
    let signal = AbortSignal::new();
    let i = rig.invoke_signal(
        "notes.create",
        HostValue::from_json(&text("a")),
        "i1",
        &signal,
    );
    let confirmation = rig.confirmation_id(i);
    rig.runtime.abort(&signal);
    assert_eq!(rig.runtime.pending_confirmation_count(), 0);
    assert!(rig.runtime.reserved_ids().is_empty());
    let late = rig.runtime.resolve_confirmation(&confirmation, true);
    assert_eq!(rig.result(late), failed(ErrorCode::ExecutionAborted));
    assert_eq!(rig.handler_count(), 0);
}

#[test]
fn cl_b10_at_most_256_receipts_oldest_evicted_first() {
    let mut rig = Rig::with(PolicyMode::Fixed(Ok(confirm())), Some(10), false);
    rig.bind("notes.create", HandlerMode::Returns(created()));
    let mut confirmations = Vec::new();
    for n in 0..=RECEIPT_CAPACITY {
        let i = rig.invoke("notes.create", text("a"), &format!("i{n}"));
        confirmations.push(rig.confirmation_id(i));
        rig.runtime.advance(10);
    }
    assert_eq!(rig.runtime.receipt_count(), RECEIPT_CAPACITY);
    let oldest = rig.runtime.resolve_confirmation(&confirmations[0], true);
    assert_eq!(
        rig.result(oldest),
        failed(ErrorCode::ConfirmationNotFound),
        "the 257th evicted the first"
    );
    let second = rig.runtime.resolve_confirmation(&confirmations[1], true);
    assert_eq!(
        rig.result(second),
        failed(ErrorCode::ConfirmationExpired),
        "the latest 256 are retained"
    );
}

#[test]
fn cl_b10_4_declines_and_approvals_leave_no_receipt() {
    let mut rig = Rig::new(PolicyMode::Default);
    rig.bind("notes.delete", HandlerMode::Returns(json!({})));
    for (n, approved) in [(1, true), (2, false)] {
        let i = rig.invoke("notes.delete", json!({}), &format!("i{n}"));
        let resolution = rig
            .runtime
            .resolve_confirmation(&rig.confirmation_id(i), approved);
        assert!(rig.result(resolution).is_some());
    }
    assert_eq!(rig.runtime.receipt_count(), 0);
}

// ---------------------------------------------------------------------------------------------
// Abort and execution (CL-B11, CL-B12, RCIP-LIFE-CANCEL-01..09, RCIP-LIFE-OUTPUT-01)
// ---------------------------------------------------------------------------------------------

#[test]
fn cl_b11_abort_during_policy_settles_at_once_and_a_late_allow_runs_nothing() {
    let mut rig = Rig::new(PolicyMode::Gated);
    rig.bind("notes.create", HandlerMode::Returns(created()));
    let signal = AbortSignal::new();
    let i = rig.invoke_signal(
        "notes.create",
        HostValue::from_json(&text("a")),
        "i1",
        &signal,
    );
    let settled = rig.runtime.abort(&signal);
    assert_eq!(settled, vec![i]);
    assert_eq!(rig.result(i), failed(ErrorCode::ExecutionAborted));
    assert!(
        rig.runtime.reserved_ids().is_empty(),
        "CL-B11-2: the id is released at once"
    );
    assert_eq!(rig.settle_policy(1, allow()), vec![]);
    assert_eq!(rig.handler_count(), 0, "CL-B11-3");
}

#[test]
fn cl_b11_4_5_handler_after_abort_success_or_aborted() {
    for (result, expected) in [
        (Ok(HostValue::from_json(&created())), succeeded()),
        (Err(throw()), failed(ErrorCode::ExecutionAborted)),
    ] {
        let mut rig = Rig::new(PolicyMode::Fixed(Ok(allow())));
        rig.bind("notes.create", HandlerMode::Gated);
        let signal = AbortSignal::new();
        let i = rig.invoke_signal(
            "notes.create",
            HostValue::from_json(&text("a")),
            "i1",
            &signal,
        );
        rig.runtime.abort(&signal);
        assert_eq!(
            rig.result(i),
            None,
            "an abort during execution waits for the handler"
        );
        assert!(rig
            .records
            .borrow()
            .handler
            .first()
            .is_some_and(|h| h.signal.is_aborted()));
        rig.settle_handler(1, result);
        assert_eq!(rig.result(i), expected);
    }
}

#[test]
fn cl_b11_6_abort_error_without_abort_is_execution_failed() {
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(allow())));
    rig.bind(
        "notes.create",
        HandlerMode::Throws(HostErrorName::AbortError),
    );
    let i = pending_create(&mut rig);
    assert_eq!(rig.result(i), failed(ErrorCode::ExecutionFailed));
}

#[test]
fn rcip_life_cancel_07_unbinding_does_not_abort_a_running_handler() {
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(allow())));
    let token = rig.bind("notes.create", HandlerMode::Gated);
    let i = pending_create(&mut rig);
    rig.runtime.unbind(&token);
    assert!(rig
        .records
        .borrow()
        .handler
        .first()
        .is_some_and(|h| !h.signal.is_aborted()));
    rig.settle_handler(1, Ok(HostValue::from_json(&created())));
    assert_eq!(rig.result(i), succeeded());
}

#[test]
fn cl_b12_output_policy_and_handler_failures() {
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(allow())));
    rig.bind("notes.create", HandlerMode::Gated);
    for (n, output, code) in [
        (
            1,
            Ok(HostValue::from_json(&json!({ "id": 7 }))),
            ErrorCode::OutputInvalid,
        ),
        (2, Ok(HostValue::Number(f64::NAN)), ErrorCode::OutputInvalid),
        (3, Ok(HostValue::Undefined), ErrorCode::OutputInvalid),
        (4, Err(throw()), ErrorCode::ExecutionFailed),
    ] {
        let i = rig.invoke("notes.create", text("a"), &format!("i{n}"));
        rig.settle_handler(n, output);
        assert_eq!(rig.result(i), failed(code), "case {n}");
    }
    assert_eq!(rig.handler_count(), 4, "CL-B12-4: nothing is retried");
    for answer in [
        Err(HostErrorName::Error),
        Ok(json!({ "decision": "maybe" })),
        Ok(json!("allow")),
        Ok(json!(null)),
    ] {
        let mut rig = Rig::new(PolicyMode::Fixed(answer.clone()));
        rig.bind("notes.create", HandlerMode::Returns(created()));
        let i = pending_create(&mut rig);
        assert_eq!(
            rig.result(i),
            failed(ErrorCode::PolicyEvaluationFailed),
            "{answer:?}"
        );
        assert_eq!(rig.policy_count(), 1, "no retry of the policy");
    }
}

#[test]
fn cl_b02_no_host_error_text_crosses_the_client_boundary() {
    let mut rig = Rig::new(PolicyMode::Fixed(Err(HostErrorName::Error)));
    rig.bind("notes.create", HandlerMode::Throws(HostErrorName::Error));
    let i = pending_create(&mut rig);
    let text = rig
        .outcome(i)
        .map(|o| o.to_json().to_string())
        .unwrap_or_default();
    assert!(!text.is_empty() && !text.contains("host-secret"), "{text}");
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(allow())));
    rig.bind("notes.create", HandlerMode::Throws(HostErrorName::Error));
    let i = pending_create(&mut rig);
    let text = rig
        .outcome(i)
        .map(|o| o.to_json().to_string())
        .unwrap_or_default();
    assert!(
        text.contains("EXECUTION_FAILED") && !text.contains("host-secret"),
        "{text}"
    );
}

// ---------------------------------------------------------------------------------------------
// JSON values (CL-B13)
// ---------------------------------------------------------------------------------------------

#[test]
fn cl_b13_3_non_json_input_is_input_invalid() {
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(allow())));
    rig.bind("notes.list", HandlerMode::Returns(json!({})));
    let cyclic = HostValue::object(vec![]);
    if let Some(object) = cyclic.as_object() {
        object.insert("me", cyclic.clone());
    }
    let bad = [
        HostValue::object(vec![("n".into(), HostValue::Number(f64::INFINITY))]),
        HostValue::object(vec![("u".into(), HostValue::Undefined)]),
        HostValue::object(vec![("f".into(), HostValue::Function)]),
        HostValue::object_with(reference::rcip::Prototype::Class("Point".into()), vec![]),
        cyclic,
    ];
    for (n, input) in bad.into_iter().enumerate() {
        let i = rig.invoke_signal("notes.list", input, &format!("i{n}"), &AbortSignal::new());
        assert_eq!(rig.result(i), failed(ErrorCode::InputInvalid), "value {n}");
    }
    assert_eq!(rig.handler_count(), 0);
}

// ---------------------------------------------------------------------------------------------
// Snapshot (CL-B15..B17, CL-A07)
// ---------------------------------------------------------------------------------------------

#[test]
fn cl_b15_revisions_and_identity() {
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(allow())));
    let s0 = rig.runtime.get_snapshot();
    assert!(
        Snapshot::same(&s0, &rig.runtime.get_snapshot()),
        "CL-B15-5: same object"
    );
    let token = rig.bind("notes.create", HandlerMode::Returns(created()));
    let s1 = rig.runtime.get_snapshot();
    assert!(s1.revision() > s0.revision(), "bind");
    rig.runtime.refresh();
    let s2 = rig.runtime.get_snapshot();
    assert!(s2.revision() > s1.revision(), "refresh");
    let i = rig.invoke("notes.create", json!({}), "bad");
    assert_eq!(rig.result(i), failed(ErrorCode::InputInvalid));
    assert!(
        Snapshot::same(&s2, &rig.runtime.get_snapshot()),
        "CL-B15-8: failures keep the revision"
    );
    let i = pending_create(&mut rig);
    assert_eq!(rig.result(i), succeeded());
    let s3 = rig.runtime.get_snapshot();
    assert!(s3.revision() > s2.revision(), "success");
    rig.runtime.unbind(&token);
    let s4 = rig.runtime.get_snapshot();
    assert!(s4.revision() > s3.revision(), "effective unbind");
    rig.runtime.unbind(&token);
    assert!(
        Snapshot::same(&s4, &rig.runtime.get_snapshot()),
        "a stale unbind changes nothing"
    );
}

#[test]
fn cl_b15_6_snapshot_availability_is_as_of_the_last_refresh() {
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(allow())));
    let availability = Rc::new(RefCell::new(json!({ "available": true })));
    rig.bind_with(
        "notes.list",
        HandlerMode::Returns(json!({})),
        Some(Rc::clone(&availability)),
    );
    *availability.borrow_mut() =
        json!({ "available": false, "reason": "Offline", "token": "secret" });
    let entry = |rig: &mut Rig| {
        rig.runtime
            .get_snapshot()
            .capabilities()
            .first()
            .cloned()
            .unwrap_or(Value::Null)
    };
    assert_eq!(entry(&mut rig).get("available"), Some(&json!(true)));
    let i = rig.invoke("notes.list", json!({}), "i1");
    assert_eq!(
        rig.result(i),
        failed(ErrorCode::CapabilityUnavailable),
        "CL-B15-7: invoke checks live"
    );
    rig.runtime.refresh();
    // CL-B17-1: only the redacted fields.
    assert_eq!(
        entry(&mut rig).get("availability"),
        Some(&json!({ "available": false, "reason": "Offline" }))
    );
}

#[test]
fn cl_b16_relevance_bound_available_are_independent() {
    let mut rig = Rig::new(PolicyMode::Default);
    rig.bind("settings.read", HandlerMode::Returns(json!({})));
    rig.set_context(&["notes"], None);
    let snapshot = rig.runtime.get_snapshot();
    let facts: Vec<(String, Value, Value, Value)> = snapshot
        .capabilities()
        .iter()
        .map(|c| {
            let get = |k: &str| c.get(k).cloned().unwrap_or(Value::Null);
            (
                get("id").as_str().unwrap_or("").to_string(),
                get("bound"),
                get("available"),
                get("relevance"),
            )
        })
        .collect();
    let expect = |id: &str, bound: bool, current: bool| {
        (
            id.to_string(),
            json!(bound),
            json!(bound),
            json!(if current { "current" } else { "other" }),
        )
    };
    assert_eq!(
        facts,
        vec![
            expect("notes.list", false, true),
            expect("notes.create", false, true),
            expect("notes.delete", false, true),
            expect("settings.read", true, false),
            expect("help.show", false, true),
        ]
    );
    let current = rig.runtime.list_capabilities(&ListFilter {
        current_only: true,
        ..ListFilter::default()
    });
    assert_eq!(current.len(), 4);
    let available = rig.runtime.list_capabilities(&ListFilter {
        available_only: true,
        ..ListFilter::default()
    });
    assert_eq!(
        available
            .iter()
            .filter_map(|c| c.get("id"))
            .collect::<Vec<_>>(),
        vec![&json!("settings.read")]
    );
}

#[test]
fn cl_b17_2_no_confirmation_id_or_handler_in_snapshots() {
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(confirm())));
    rig.bind("notes.create", HandlerMode::Returns(created()));
    let i = pending_create(&mut rig);
    let confirmation = rig.confirmation_id(i);
    rig.runtime.refresh();
    let text = rig.runtime.get_snapshot().json().to_string();
    assert!(!text.contains(&confirmation), "{text}");
}

// ---------------------------------------------------------------------------------------------
// Host surface (CL-A04, CL-B20, CL-B21) and default policy (CL-B22)
// ---------------------------------------------------------------------------------------------

#[test]
fn cl_a04_2_cl_b20_binding_identity_duplicates_and_stale_unbinds() {
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(allow())));
    let handler = || -> reference::rcip::HandlerFn {
        Box::new(|_| reference::rcip::Answer::Ready(Ok(HostValue::object(vec![]))))
    };
    let Some(catalog) = rig.definition.capability("notes.list") else {
        panic!("declared")
    };
    let copy = catalog.structural_copy();
    let refused = rig.runtime.bind(
        &copy,
        BindingSpec {
            handler: handler(),
            availability: None,
        },
    );
    assert_eq!(
        refused.err().map(|e| e.code()),
        Some("BIND_NOT_CATALOG_DEFINITION")
    );
    let first = rig.runtime.bind(
        &catalog,
        BindingSpec {
            handler: handler(),
            availability: None,
        },
    );
    let Ok(first) = first else { panic!("binds") };
    let duplicate = rig.runtime.bind(
        &catalog,
        BindingSpec {
            handler: handler(),
            availability: None,
        },
    );
    assert_eq!(duplicate.err().map(|e| e.code()), Some("BIND_DUPLICATE"));
    assert!(rig.runtime.unbind(&first));
    let Ok(_second) = rig.runtime.bind(
        &catalog,
        BindingSpec {
            handler: handler(),
            availability: None,
        },
    ) else {
        panic!("rebinds")
    };
    assert!(!rig.runtime.unbind(&first), "a stale unbind does nothing");
    let i = rig.invoke("notes.list", json!({}), "i1");
    assert_eq!(rig.result(i), succeeded());
}

#[test]
fn cl_b21_set_context_rules() {
    let mut rig = Rig::new(PolicyMode::Default);
    rig.set_context(&["notes", "settings", "notes"], Some("settings"));
    assert_eq!(
        rig.runtime.context().active_scope_ids,
        vec!["notes".to_string(), "settings".to_string()]
    );
    let before = rig.runtime.get_snapshot();
    for bad in [
        json!({ "activeScopeIds": ["archive"] }),
        json!({ "activeScopeIds": ["notes"], "primaryScopeId": "settings" }),
        json!({ "activeScopeIds": "notes" }),
        json!(null),
    ] {
        assert!(
            rig.runtime
                .set_context(&HostValue::from_json(&bad))
                .is_err(),
            "{bad}"
        );
    }
    assert!(
        Snapshot::same(&before, &rig.runtime.get_snapshot()),
        "the context is unchanged"
    );
}

#[test]
fn cl_b22_default_policy() {
    let mut rig = Rig::new(PolicyMode::Default);
    for id in ["notes.list", "notes.create", "notes.delete"] {
        rig.bind(
            id,
            HandlerMode::Returns(if id == "notes.create" {
                created()
            } else {
                json!({})
            }),
        );
    }
    let read = rig.invoke("notes.list", json!({}), "r");
    assert_eq!(rig.result(read), succeeded());
    let write = rig.invoke("notes.create", text("a"), "w");
    assert_eq!(rig.result(write), denied(ErrorCode::PolicyDenied));
    let destructive = rig.invoke("notes.delete", json!({}), "d");
    assert_eq!(rig.result(destructive), confirmation_required());
    let approval = rig
        .runtime
        .resolve_confirmation(&rig.confirmation_id(destructive), true);
    assert_eq!(
        rig.result(approval),
        succeeded(),
        "a confirmed pass is allowed"
    );
}

// ---------------------------------------------------------------------------------------------
// Events (CL-B23), listeners, isolation (CL-B25)
// ---------------------------------------------------------------------------------------------

#[test]
fn cl_b23_events_follow_the_lifecycle_and_a_throwing_observer_changes_nothing() {
    for throws in [false, true] {
        let mut rig = Rig::from_definition(
            &definition(),
            PolicyMode::Fixed(Ok(confirm())),
            None,
            true,
            throws,
        );
        rig.bind("notes.create", HandlerMode::Returns(created()));
        let i = rig.invoke("notes.create", text("a"), "i1");
        assert_eq!(rig.result(i), confirmation_required());
        let declined = rig
            .runtime
            .resolve_confirmation(&rig.confirmation_id(i), false);
        assert_eq!(
            rig.result(declined),
            denied(ErrorCode::ConfirmationDeclined)
        );
        assert_eq!(
            rig.phases("i1"),
            vec![
                Phase::Requested,
                Phase::ConfirmationRequested,
                Phase::ConfirmationDeclined
            ],
            "observer throws: {throws}"
        );
        let failed_early = rig.invoke("notes.nope", json!({}), "i2");
        assert_eq!(
            rig.result(failed_early),
            failed(ErrorCode::CapabilityNotFound)
        );
        assert_eq!(
            rig.phases("i2"),
            vec![Phase::Requested, Phase::Failed],
            "no started before a failure"
        );
    }
}

#[test]
fn rcip_proto_surf_04_listeners_are_isolated_from_each_other() {
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(allow())));
    let seen = Rc::new(RefCell::new(Vec::new()));
    rig.runtime.subscribe(Box::new(|_| Err(throw())));
    let recorder = Rc::clone(&seen);
    let id = rig.runtime.subscribe(Box::new(move |snapshot| {
        recorder.borrow_mut().push(snapshot.revision());
        Ok(())
    }));
    assert!(seen.borrow().is_empty(), "no call at subscription");
    rig.bind("notes.create", HandlerMode::Returns(created()));
    let i = pending_create(&mut rig);
    assert_eq!(
        rig.result(i),
        succeeded(),
        "a throwing listener changes no outcome"
    );
    assert_eq!(seen.borrow().len(), 2, "bind and the refresh after success");
    assert!(rig.runtime.unsubscribe(id));
    assert!(!rig.runtime.unsubscribe(id), "idempotent");
    rig.runtime.refresh();
    assert_eq!(seen.borrow().len(), 2);
}

#[test]
fn cl_b25_runtimes_from_one_definition_share_nothing_live() {
    let definition = definition();
    let mut a = Rig::from_definition(
        &definition,
        PolicyMode::Fixed(Ok(confirm())),
        None,
        false,
        false,
    );
    let mut b = Rig::from_definition(
        &definition,
        PolicyMode::Fixed(Ok(confirm())),
        None,
        false,
        false,
    );
    a.bind("notes.create", HandlerMode::Returns(created()));
    a.set_context(&["notes"], None);
    let i = a.invoke("notes.create", text("a"), "shared-id");
    let confirmation = a.confirmation_id(i);
    assert_eq!(
        b.runtime.get_snapshot().revision(),
        0,
        "no revisions shared"
    );
    assert!(
        b.runtime.context().active_scope_ids.is_empty(),
        "no context shared"
    );
    let foreign = b.runtime.resolve_confirmation(&confirmation, true);
    assert_eq!(
        b.result(foreign),
        failed(ErrorCode::ConfirmationNotFound),
        "no confirmation shared"
    );
    assert_eq!(a.runtime.pending_confirmation_count(), 1);
    b.bind("notes.create", HandlerMode::Returns(created()));
    let j = b.invoke("notes.create", text("a"), "shared-id");
    assert_eq!(
        b.result(j),
        confirmation_required(),
        "no reservation shared"
    );
}

#[test]
fn runtime_options_reject_a_zero_ttl() {
    let options = RuntimeOptions {
        confirmation_ttl_ms: Some(0),
        ..RuntimeOptions::default()
    };
    assert_eq!(
        Runtime::new(&definition(), options).err().map(|e| e.code()),
        Some("OPTION_INVALID")
    );
    let request = InvokeRequest {
        capability_id: "notes.list".into(),
        input: HostValue::object(vec![]),
        invocation_id: None,
        signal: None,
    };
    let Ok(mut runtime) = Runtime::new(&definition(), RuntimeOptions::default()) else {
        panic!("creates")
    };
    let ticket = runtime.invoke(request);
    assert_eq!(
        runtime.outcome(ticket).map(|o| o.invocation_id.clone()),
        Some("invocation-1".to_string())
    );
}

// ---------------------------------------------------------------------------------------------
// The gates a host settles (the reference's own API; not a protocol sentence)
// ---------------------------------------------------------------------------------------------

/// A pending policy call settles only through `settle_policy`, a pending handler call only
/// through `settle_handler`: a settlement through the other gate is refused (`WrongKind`) and
/// leaves the call pending, so the right gate still settles it afterwards.
#[test]
fn a_call_settles_only_through_its_own_gate() {
    let mut rig = Rig::new(PolicyMode::Gated);
    rig.bind("notes.create", HandlerMode::Gated);
    let ticket = rig.invoke("notes.create", text("a"), "gates");
    let policy = rig.policy_call(1);
    assert_eq!(
        rig.runtime
            .settle_handler(policy, Ok(HostValue::from_json(&allow()))),
        Err(GateError::WrongKind),
        "a policy call is not a handler call"
    );
    rig.settle_policy(1, allow());
    assert_eq!(rig.result(ticket), None, "the handler is now pending");
    let handler = rig.handler_call(1);
    assert_eq!(
        rig.runtime
            .settle_policy(handler, Ok(HostValue::from_json(&created()))),
        Err(GateError::WrongKind),
        "a handler call is not a policy call"
    );
    rig.settle_handler(1, Ok(HostValue::from_json(&created())));
    assert_eq!(rig.result(ticket), succeeded());
}

/// `take_outcome` (what a long-running driver uses so outcomes do not accumulate) hands over the
/// settled outcome once: afterwards the runtime holds nothing for the ticket.
#[test]
fn take_outcome_hands_the_outcome_over_once() {
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(allow())));
    rig.bind("notes.create", HandlerMode::Returns(created()));
    let ticket = rig.invoke("notes.create", text("a"), "once");
    let taken = rig
        .runtime
        .take_outcome(ticket)
        .map(|outcome| outcome.status());
    assert_eq!(taken, Some(Status::Succeeded));
    assert!(rig.runtime.outcome(ticket).is_none());
    assert!(rig.runtime.take_outcome(ticket).is_none());
}
