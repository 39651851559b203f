//! Tests of the fault catalog's own definitions (issue 13 §1; `reference-driver --fault list`):
//! an injected fault is the realistic bug its catalog row describes, and only that bug. The
//! faults test of the harness shows that every fault is caught by some REQUIRED case; these show
//! the fault is the one named, so a fault that silently became another bug (which the suite would
//! still catch) is not mistaken for the catalog's. Expectations come from the catalog rows'
//! descriptions and the sentences they cite (CL-B08-1, CL-B10-1), not from the runtime's output.

#[path = "rcip_support.rs"]
mod support;

use std::cell::RefCell;
use std::rc::Rc;

use reference::choices::{Choices, Fault};
use reference::rcip::{AbortSignal, ErrorCode, HostValue, OutcomeBody};
use serde_json::json;
use support::*;

/// A rig with `fault` injected, the given policy and confirmation TTL, nothing bound yet.
fn rig_with(fault: Fault, policy: PolicyMode, ttl_ms: Option<u64>) -> Rig {
    let choices = Choices::default().with_fault(fault);
    Rig::with_choices(&definition(), policy, ttl_ms, false, false, choices)
}

/// A rig with `fault` injected whose policy confirms every call, with `notes.create` bound.
fn faulty(fault: Fault, ttl_ms: u64) -> Rig {
    let mut rig = rig_with(fault, PolicyMode::Fixed(Ok(confirm())), Some(ttl_ms));
    rig.bind("notes.create", HandlerMode::Returns(json!({ "id": "n1" })));
    rig
}

/// Invokes `notes.create` as `id`, which asks for a confirmation: its id and `expiresAt`.
fn confirmation(rig: &mut Rig, id: &str) -> (String, u64) {
    let ticket = rig.invoke("notes.create", json!({ "text": "a" }), id);
    match rig.outcome(ticket).map(|o| &o.body) {
        Some(OutcomeBody::ConfirmationRequired(info)) => (info.id.clone(), info.expires_at),
        other => panic!("not a confirmation: {other:?}"),
    }
}

/// `ttl-timer-overflow`: "a TTL of 2^31 ms or more expires at once (a 32-bit timer overflow)";
/// below 2^31 the TTL is kept (CL-B08-1: measured on the runtime's clock).
#[test]
fn ttl_timer_overflow_expires_at_once_only_from_2_pow_31() {
    let below = (1u64 << 31) - 1;
    let mut rig = faulty(Fault::TtlTimerOverflow, below);
    assert_eq!(confirmation(&mut rig, "i1").1, below);
    let mut rig = faulty(Fault::TtlTimerOverflow, 1 << 31);
    assert_eq!(confirmation(&mut rig, "i1").1, 0);
}

/// `receipt-capacity-small`: "only the latest 128 receipts are kept" (CL-B10-1 keeps 256).
#[test]
fn receipt_capacity_small_keeps_the_latest_128() {
    let mut rig = faulty(Fault::ReceiptCapacitySmall, 10);
    for n in 0..200 {
        confirmation(&mut rig, &format!("i{n}"));
        rig.runtime.advance(10);
    }
    assert_eq!(rig.runtime.receipt_count(), 128);
}

/// `expiry-one-ms-late`: "a confirmation is still pending 1 ms after its TTL ran out" (CL-B08-1
/// releases it at expiry); 2 ms after, it has expired.
#[test]
fn expiry_one_ms_late_keeps_the_confirmation_1_ms_past_the_ttl() {
    // 1 ms past the TTL it is still pending: the approval goes on to the policy recheck (which,
    // confirming again here, denies), not to CONFIRMATION_EXPIRED.
    for (after_ms, expected) in [
        (1001, denied(ErrorCode::PolicyDenied)),
        (1002, failed(ErrorCode::ConfirmationExpired)),
    ] {
        let mut rig = faulty(Fault::ExpiryOneMsLate, 1000);
        let (id, _) = confirmation(&mut rig, "i1");
        rig.runtime.advance(after_ms);
        let approved = rig.runtime.resolve_confirmation(&id, true);
        assert_eq!(
            rig.result(approved),
            expected,
            "approved {after_ms} ms after the request"
        );
    }
}

/// `availability-clone-rejects`: "an availability object that structuredClone cannot copy makes
/// the capability unavailable"; one that can be copied (plain JSON) still counts as it says.
#[test]
fn availability_clone_rejects_only_what_cannot_be_copied() {
    let mut rig = rig_with(
        Fault::AvailabilityCloneRejects,
        PolicyMode::Fixed(Ok(allow())),
        None,
    );
    let available = Rc::new(RefCell::new(json!({ "available": true })));
    rig.bind_with(
        "notes.create",
        HandlerMode::Returns(json!({ "id": "n1" })),
        Some(available),
    );
    let ticket = rig.invoke("notes.create", json!({ "text": "a" }), "i1");
    assert_eq!(rig.result(ticket), succeeded());
}

/// `availability-from-snapshot`: "invoke checks the published availability instead of the live
/// one" (against CL-B15-7): unavailable as of the last refresh stays unavailable for invoke after
/// the live value turned available, until a refresh publishes it.
#[test]
fn availability_from_snapshot_follows_the_published_value() {
    let mut rig = rig_with(
        Fault::AvailabilityFromSnapshot,
        PolicyMode::Fixed(Ok(allow())),
        None,
    );
    let live = Rc::new(RefCell::new(
        json!({ "available": false, "reason": "offline" }),
    ));
    rig.bind_with(
        "notes.create",
        HandlerMode::Returns(json!({ "id": "n1" })),
        Some(Rc::clone(&live)),
    );
    *live.borrow_mut() = json!({ "available": true });
    let stale = rig.invoke("notes.create", json!({ "text": "a" }), "i1");
    assert_eq!(rig.result(stale), failed(ErrorCode::CapabilityUnavailable));
    rig.runtime.refresh();
    let fresh = rig.invoke("notes.create", json!({ "text": "a" }), "i2");
    assert_eq!(rig.result(fresh), succeeded());
}

/// `expiry-receipt-dropped`: "an expired confirmation leaves no receipt (CONFIRMATION_NOT_FOUND)";
/// a cancelled one still leaves its receipt (CL-B09-1: EXECUTION_ABORTED).
#[test]
fn expiry_receipt_dropped_drops_only_expiry_receipts() {
    let mut rig = faulty(Fault::ExpiryReceiptDropped, 1000);
    let (expired, _) = confirmation(&mut rig, "i1");
    let signal = AbortSignal::new();
    let input = HostValue::from_json(&json!({ "text": "b" }));
    let cancelled = rig.invoke_signal("notes.create", input, "i2", &signal);
    let cancelled = rig.confirmation_id(cancelled);
    rig.runtime.abort(&signal);
    rig.runtime.advance(2000);
    let late = rig.runtime.resolve_confirmation(&expired, true);
    assert_eq!(rig.result(late), failed(ErrorCode::ConfirmationNotFound));
    let late = rig.runtime.resolve_confirmation(&cancelled, true);
    assert_eq!(rig.result(late), failed(ErrorCode::ExecutionAborted));
}
