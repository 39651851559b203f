//! The reference's raw entries (`Runtime::invoke_raw`, `Runtime::resolve_confirmation_raw`,
//! `reference/src/rcip/raw_request.rs`): whatever a JavaScript caller passes, the call settles to
//! an outcome at once and the runtime keeps working (CL-B02-1). Which outcome is the reference's
//! own reading (the texts decide none), asserted here so a change of reading is deliberate.

#[path = "rcip_support.rs"]
mod support;

use reference::rcip::{
    AbortSignal, ErrorCode, HostValue, RawInvokeRequest, RawSignal, Status,
};
use serde_json::json;
use support::*;

fn text() -> HostValue {
    HostValue::from_json(&json!({ "text": "a" }))
}

fn request(members: Vec<(&str, HostValue)>) -> HostValue {
    HostValue::object(members.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn cap() -> HostValue {
    HostValue::string("notes.create")
}

#[test]
fn cl_b02_1_every_malformed_request_settles_and_the_runtime_keeps_working() {
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(allow())));
    rig.bind("notes.create", HandlerMode::Returns(json!({ "id": "n1" })));
    let cases: Vec<(&str, HostValue, RawSignal, ErrorCode)> = vec![
        ("no argument", HostValue::Undefined, RawSignal::Absent, ErrorCode::CapabilityNotFound),
        ("null", HostValue::Null, RawSignal::Absent, ErrorCode::CapabilityNotFound),
        ("a number", HostValue::Number(42.0), RawSignal::Absent, ErrorCode::CapabilityNotFound),
        (
            "capabilityId 42",
            request(vec![("capabilityId", HostValue::Number(42.0)), ("input", text())]),
            RawSignal::Absent,
            ErrorCode::CapabilityNotFound,
        ),
        (
            "no input",
            request(vec![("capabilityId", cap())]),
            RawSignal::Absent,
            ErrorCode::InputInvalid,
        ),
        (
            "invocationId 42",
            request(vec![("capabilityId", cap()), ("input", text()), ("invocationId", HostValue::Number(42.0))]),
            RawSignal::Absent,
            ErrorCode::InputInvalid,
        ),
        (
            "signal {}",
            request(vec![("capabilityId", cap()), ("input", text())]),
            RawSignal::NotASignal(HostValue::object(Vec::new())),
            ErrorCode::InputInvalid,
        ),
    ];
    for (what, argument, signal, code) in cases {
        let ticket = rig.runtime.invoke_raw(RawInvokeRequest { argument, signal });
        let outcome = rig.outcome(ticket).unwrap_or_else(|| panic!("{what}: not settled"));
        assert_eq!((outcome.status(), outcome.code()), (Status::Failed, Some(code)), "{what}");
        // A request without input is readable: it runs as invoke does (a runtime-made id) and
        // fails the plain-JSON check; the others are refused before an id is read or made.
        let expected_id = if what == "no input" { "invocation-1" } else { "" };
        assert_eq!(outcome.invocation_id, expected_id, "{what}");
    }
    assert_eq!(rig.handler_count(), 0, "nothing ran");
    assert_eq!(rig.policy_count(), 0, "nothing was asked");
    let i = rig.invoke("notes.create", json!({ "text": "a" }), "i1");
    assert_eq!(rig.result(i), succeeded(), "the runtime keeps working");
}

#[test]
fn a_readable_raw_request_runs_as_invoke_does() {
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(allow())));
    rig.bind("notes.create", HandlerMode::Returns(json!({ "id": "n1" })));
    let signal = AbortSignal::new();
    let readable = request(vec![
        ("capabilityId", cap()),
        ("input", text()),
        ("invocationId", HostValue::Undefined),
    ]);
    let ticket = rig.runtime.invoke_raw(RawInvokeRequest {
        argument: readable.clone(),
        signal: RawSignal::Signal(signal.clone()),
    });
    assert_eq!(rig.result(ticket), succeeded(), "an undefined invocationId is absent");
    signal.abort();
    let ticket = rig.runtime.invoke_raw(RawInvokeRequest { argument: readable, signal: RawSignal::Signal(signal) });
    assert_eq!(rig.result(ticket), failed(ErrorCode::ExecutionAborted), "the signal is the caller's");
}

#[test]
fn cl_b02_1_a_confirmation_id_that_is_not_a_string_names_no_confirmation() {
    let mut rig = Rig::new(PolicyMode::Fixed(Ok(confirm())));
    rig.bind("notes.delete", HandlerMode::Returns(json!({ "deleted": true })));
    let pending = rig.invoke("notes.delete", json!({ "id": "n1" }), "i1");
    assert_eq!(rig.result(pending), confirmation_required());
    for id in [HostValue::Undefined, HostValue::Null, HostValue::Number(42.0), HostValue::object(Vec::new())] {
        let ticket = rig.runtime.resolve_confirmation_raw(&id, true);
        assert_eq!(rig.result(ticket), failed(ErrorCode::ConfirmationNotFound), "{id:?}");
    }
    let id = rig.confirmation_id(pending);
    let ticket = rig.runtime.resolve_confirmation_raw(&HostValue::string(&id), false);
    assert_eq!(rig.result(ticket), denied(ErrorCode::ConfirmationDeclined), "a string id resolves as usual");
}
