//! Tests of the reference's `preflight` profile (CL-B24-1/2, PRJ-RCIP-PRE-01..03): the bound of 16
//! proposals, the report of the checks `invoke` makes before policy, and that a dry-run reserves
//! nothing and runs nothing (no policy, handler or event; no revision). Expectations come from
//! CL-B24 and the project decisions in suites/register/project-rcip.toml, not from the output.

#[path = "rcip_support.rs"]
mod support;

use reference::rcip::{
    ErrorCode, HostValue, PreflightError, Proposal, ProposalReport, PREFLIGHT_BOUND,
};
use serde_json::{json, Value};
use support::*;

fn proposal(capability: &str, input: Value, id: Option<&str>) -> Proposal {
    Proposal {
        capability_id: capability.into(),
        input: HostValue::from_json(&input),
        invocation_id: id.map(str::to_string),
    }
}

fn ready(capability: &str) -> ProposalReport {
    ProposalReport::Ready {
        capability_id: capability.into(),
    }
}

fn code_of(report: &ProposalReport) -> Option<ErrorCode> {
    match report {
        ProposalReport::Ready { .. } => None,
        ProposalReport::Failed { code, .. } => Some(*code),
    }
}

#[test]
fn cl_b24_1_sixteen_proposals_are_checked_seventeen_refused() {
    let mut rig = Rig::new(PolicyMode::Gated);
    rig.bind("notes.list", HandlerMode::Returns(json!({})));
    let batch: Vec<Proposal> = (0..PREFLIGHT_BOUND)
        .map(|_| proposal("notes.list", json!({}), None))
        .collect();
    assert_eq!(PREFLIGHT_BOUND, 16);
    match rig.runtime.preflight(&batch) {
        Ok(reports) => assert_eq!(reports, vec![ready("notes.list"); 16]),
        Err(error) => panic!("16 proposals are within the bound: {error:?}"),
    }
    let mut over = batch.clone();
    over.push(proposal("notes.list", json!({}), None));
    assert_eq!(
        rig.runtime.preflight(&over),
        Err(PreflightError::TooManyProposals { count: 17 })
    );
    assert_eq!(
        PreflightError::TooManyProposals { count: 17 }.code(),
        "PREFLIGHT_BATCH_TOO_LARGE"
    );
    assert_eq!(rig.runtime.preflight(&[]), Ok(Vec::new()));
}

#[test]
fn prj_rcip_pre_01_reports_the_code_invoke_gives_before_policy() {
    let mut rig = Rig::new(PolicyMode::Gated);
    rig.bind("notes.create", HandlerMode::Returns(json!({ "id": "n1" })));
    let holder = rig.invoke("notes.create", json!({ "text": "a" }), "held");
    let batch = vec![
        proposal("notes.create", json!({ "text": "a" }), None),
        proposal("notes.nope", json!({}), None),
        proposal("notes.list", json!({}), None),
        proposal("notes.create", json!({ "text": 5 }), None),
        proposal("notes.create", json!({ "text": "a" }), Some("held")),
    ];
    let reports = match rig.runtime.preflight(&batch) {
        Ok(reports) => reports,
        Err(error) => panic!("{error:?}"),
    };
    let codes: Vec<Option<ErrorCode>> = reports.iter().map(code_of).collect();
    assert_eq!(
        codes,
        vec![
            None,
            Some(ErrorCode::CapabilityNotFound),
            Some(ErrorCode::CapabilityUnbound),
            Some(ErrorCode::InputInvalid),
            Some(ErrorCode::InvocationAlreadyActive),
        ]
    );
    // The holder of the reserved id is undisturbed (CL-B04-4 as invoke has it).
    assert_eq!(rig.result(holder), None);
    rig.settle_policy(1, allow());
    assert_eq!(rig.result(holder), succeeded());
}

#[test]
fn cl_b24_2_reserves_nothing_and_runs_nothing() {
    let mut rig = Rig::new(PolicyMode::Gated);
    rig.bind("notes.create", HandlerMode::Gated);
    let before = rig.runtime.get_snapshot();
    let events_before = rig.records.borrow().events.len();
    let batch = vec![
        proposal("notes.create", json!({ "text": "a" }), Some("p1")),
        proposal("notes.create", json!({ "text": "b" }), Some("p1")),
    ];
    assert_eq!(
        rig.runtime.preflight(&batch),
        Ok(vec![ready("notes.create"), ready("notes.create")]),
        "proposals do not reserve ids against each other"
    );
    assert!(rig.runtime.reserved_ids().is_empty());
    assert_eq!(rig.policy_count(), 0);
    assert_eq!(rig.handler_count(), 0);
    assert_eq!(rig.records.borrow().events.len(), events_before);
    let after = rig.runtime.get_snapshot();
    assert_eq!(before.revision(), after.revision());
    // The id used in the dry-run is free at once.
    let i = rig.invoke("notes.create", json!({ "text": "a" }), "p1");
    assert_eq!(rig.result(i), None, "waiting for policy, not rejected");
    assert_eq!(rig.policy_count(), 1);
}
