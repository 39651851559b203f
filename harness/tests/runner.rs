//! The runner's judgement, against a scripted adapter: each verdict of `vectors/README.md`
//! ("Verdicts") arises exactly when it should, expectations never reach the adapter, and a broken
//! adapter is `errored`, not a failure of the implementation.

mod common;

use std::collections::BTreeSet;
use std::path::PathBuf;

use harness::adapter::{Adapter, AdapterError, Implementation, Protocol, Reply};
use harness::loader::{Case, CaseParts};
use harness::runner::run_case;
use harness::verdict::Verdict;
use serde_json::{json, Value};

/// Answers each request with the next scripted reply and records what it was sent.
struct Scripted {
    implementation: Implementation,
    start: Reply,
    replies: Vec<Result<Reply, AdapterError>>,
    sent: Vec<Value>,
}

impl Scripted {
    fn new(start: Reply, replies: Vec<Result<Reply, AdapterError>>) -> Scripted {
        Scripted {
            implementation: Implementation {
                name: "scripted".into(),
                version: "0".into(),
                protocols: [Protocol::Rcip].into_iter().collect(),
                profiles: BTreeSet::from(["events".to_string()]),
                ..Implementation::default()
            },
            start,
            replies,
            sent: Vec::new(),
        }
    }
}

impl Adapter for Scripted {
    fn implementation(&self) -> &Implementation {
        &self.implementation
    }
    fn start(&mut self, _: &str, _: Protocol, _: &Value) -> Result<Reply, AdapterError> {
        Ok(self.start.clone())
    }
    fn step(&mut self, step: &Value) -> Result<Reply, AdapterError> {
        self.sent.push(step.clone());
        if self.replies.is_empty() {
            return Err(AdapterError("script exhausted".into()));
        }
        self.replies.remove(0)
    }
}

fn case(setup: Value, steps: Vec<Value>, profiles: &[&str]) -> Case {
    let profiles = profiles.iter().map(|p| p.to_string()).collect();
    Case::from(CaseParts { profiles, ..common::test_case("rcip.test.case.001", Protocol::Rcip, setup, steps) })
}

fn outcome_step(strictness: Option<&str>) -> Value {
    let mut step = json!({ "expect": "outcome", "of": "i1", "is": { "status": "failed", "code": "CAPABILITY_UNBOUND" }, "note": "n" });
    if let Some(s) = strictness {
        step["strictness"] = json!(s);
    }
    step
}

fn observed(code: &str) -> Result<Reply, AdapterError> {
    Ok(Reply::Observed(json!({ "status": "failed", "code": code })))
}

#[test]
fn a_matching_observation_passes_and_the_adapter_never_sees_the_expectation() {
    let mut adapter = Scripted::new(Reply::Done, vec![Ok(Reply::Done), observed("CAPABILITY_UNBOUND")]);
    let c = case(json!({}), vec![json!({"host": "refresh", "requirements": ["CL-B15-1"]}), outcome_step(None)], &[]);
    let result = run_case(&mut adapter, &c);
    assert_eq!(result.verdict, Verdict::Pass);
    assert_eq!(adapter.sent, vec![json!({"host": "refresh"}), json!({"expect": "outcome", "of": "i1"})]);
}

#[test]
fn a_required_difference_fails_with_a_diff() {
    let mut adapter = Scripted::new(Reply::Done, vec![observed("POLICY_DENIED")]);
    let result = run_case(&mut adapter, &case(json!({}), vec![outcome_step(None)], &[]));
    assert_eq!(result.verdict, Verdict::Fail);
    let text = harness::console::render_case(&result);
    assert!(text.contains("-  \"code\": \"CAPABILITY_UNBOUND\""), "{text}");
    assert!(text.contains("+  \"code\": \"POLICY_DENIED\""), "{text}");
}

#[test]
fn a_recommended_difference_alone_is_non_strict() {
    let mut adapter = Scripted::new(Reply::Done, vec![observed("POLICY_DENIED")]);
    let result = run_case(&mut adapter, &case(json!({}), vec![outcome_step(Some("RECOMMENDED"))], &[]));
    assert_eq!(result.verdict, Verdict::NonStrict);
}

#[test]
fn a_recommended_and_a_required_difference_fail() {
    let mut adapter = Scripted::new(Reply::Done, vec![observed("X"), observed("Y")]);
    let steps = vec![outcome_step(Some("RECOMMENDED")), outcome_step(None)];
    assert_eq!(run_case(&mut adapter, &case(json!({}), steps, &[])).verdict, Verdict::Fail);
}

#[test]
fn an_action_that_throws_unexpectedly_fails_and_an_expected_throw_passes() {
    let mut adapter = Scripted::new(Reply::Done, vec![Ok(Reply::Threw)]);
    let step = json!({"host": "set-context", "context": {}});
    assert_eq!(run_case(&mut adapter, &case(json!({}), vec![step.clone()], &[])).verdict, Verdict::Fail);
    let mut adapter = Scripted::new(Reply::Done, vec![Ok(Reply::Threw)]);
    let mut expected = step;
    expected["throws"] = json!(true);
    assert_eq!(run_case(&mut adapter, &case(json!({}), vec![expected], &[])).verdict, Verdict::Pass);
}

#[test]
fn creation_expectations_are_checked() {
    let mut adapter = Scripted::new(Reply::Threw, vec![]);
    assert_eq!(run_case(&mut adapter, &case(json!({"creation": "throws"}), vec![], &[])).verdict, Verdict::Pass);
    let mut adapter = Scripted::new(Reply::Done, vec![]);
    assert_eq!(run_case(&mut adapter, &case(json!({"creation": "throws"}), vec![], &[])).verdict, Verdict::Fail);
    let mut adapter = Scripted::new(Reply::Threw, vec![]);
    assert_eq!(run_case(&mut adapter, &case(json!({}), vec![], &[])).verdict, Verdict::Fail);
    let mut adapter = Scripted::new(Reply::Threw, vec![]);
    assert_eq!(run_case(&mut adapter, &case(json!({"creation": "may-throw"}), vec![outcome_step(None)], &[])).verdict, Verdict::Pass);
}

#[test]
fn a_missing_profile_or_an_unsupported_step_is_unsupported() {
    let mut adapter = Scripted::new(Reply::Done, vec![]);
    assert_eq!(run_case(&mut adapter, &case(json!({}), vec![], &["assist"])).verdict, Verdict::Unsupported);
    assert!(adapter.sent.is_empty());
    let mut adapter = Scripted::new(Reply::Done, vec![Ok(Reply::Unsupported("no".into()))]);
    assert_eq!(run_case(&mut adapter, &case(json!({}), vec![outcome_step(None)], &["events"])).verdict, Verdict::Unsupported);
}

#[test]
fn a_broken_adapter_is_errored() {
    let mut adapter = Scripted::new(Reply::Done, vec![Err(AdapterError("crashed".into()))]);
    assert_eq!(run_case(&mut adapter, &case(json!({}), vec![outcome_step(None)], &[])).verdict, Verdict::Errored);
    let mut adapter = Scripted::new(Reply::Done, vec![Ok(Reply::Done)]);
    assert_eq!(run_case(&mut adapter, &case(json!({}), vec![outcome_step(None)], &[])).verdict, Verdict::Errored);
}

#[test]
fn impl_defined_alternatives_are_reported() {
    let mut adapter = Scripted::new(Reply::Done, vec![Ok(Reply::Observed(json!(0)))]);
    let step = json!({"expect": "outcome", "of": "i1", "is": {"$match": "one-of", "options": [{"$value": "-0"}, 0]}});
    let result = run_case(&mut adapter, &case(json!({}), vec![step], &[]));
    assert_eq!(result.verdict, Verdict::Pass);
    assert_eq!(result.alternatives.len(), 1);
}

#[test]
fn an_observation_beyond_the_driver_bound_is_errored_in_process_as_over_stdio() {
    // 600,000 invalid JSON Lines frames, each quarantined: the observation's JSON would pass the
    // 16 MiB response bound of the driver protocol, so the reference refuses to build it.
    let setup = json!({ "framing": "jsonl", "catalog": { "id": "demo@1.0.0", "components": {
        "Box": { "props": { "type": "object" }, "children": true } } } });
    let steps = vec![
        json!({ "feed": "bytes", "data": { "text": "x\n".repeat(600_000) } }),
        json!({ "expect": "quarantine", "is": { "$match": "type", "type": "array" } }),
    ];
    let case = Case::from(CaseParts {
        file: PathBuf::from("memory.json"),
        description: "a flood of invalid frames".into(),
        requirements: vec!["CL-D05-1".into()],
        profiles: vec!["jsonl".into()],
        ..common::test_case("rui.memory.quarantine.001", Protocol::Rui, setup, steps)
    });
    let result = run_case(&mut harness::adapters::reference::ReferenceAdapter::new(), &case);
    assert_eq!(result.verdict, Verdict::Errored, "{:?}", result.reason);
    assert!(result.reason.unwrap_or_default().contains("more than the driver protocol's bound"));
}

#[test]
fn the_same_handler_can_be_bound_again_and_the_request_mutated_after_invoke() {
    let capabilities: Vec<Value> = ["notes.list", "notes.read"]
        .iter()
        .map(|id| json!({ "id": id, "title": "t", "description": "d", "scopeIds": ["notes"], "effect": "read",
            "inputSchema": { "type": "object" }, "outputSchema": { "type": "object" } }))
        .collect();
    let definition = json!({ "protocolVersion": "1.0",
        "application": { "id": "notes", "name": "Notes", "description": "A notes application" },
        "scopes": [{ "id": "notes", "title": "Scope notes", "description": "The notes area" }],
        "capabilities": capabilities });
    let steps = vec![
        json!({ "host": "bind", "capability": "notes.list", "as": "b1", "handler": { "mode": "scripted", "settle": { "return": { "n": 1 } } } }),
        json!({ "host": "unbind", "binding": "b1" }),
        json!({ "host": "bind", "capability": "notes.list", "as": "b2", "handler": { "sameAs": "b1" } }),
        json!({ "client": "invoke", "as": "i1", "capability": "notes.list", "input": {} }),
        json!({ "client": "mutate-request", "of": "i1", "member": "capabilityId", "value": "notes.read" }),
        json!({ "client": "mutate-request", "of": "i1", "member": "invocationId", "value": "changed" }),
        json!({ "expect": "outcome", "of": "i1", "is": { "$match": "subset", "fields": {
            "status": "succeeded", "capabilityId": "notes.list", "output": { "n": 1 },
            "invocationId": { "$match": "not", "pattern": "changed" } } } }),
    ];
    let case = Case::from(common::test_case("rcip.test.same-handler.001", Protocol::Rcip, json!({ "definition": definition }), steps));
    let result = run_case(&mut harness::adapters::reference::ReferenceAdapter::new(), &case);
    assert_eq!(result.verdict, Verdict::Pass, "{}", harness::console::render_case(&result));
    assert_eq!(result.checks, 2);
}

#[test]
fn the_frames_observation_lists_every_frame_accepted_quarantined_or_rejected() {
    let setup = json!({ "framing": "jsonl", "catalog": { "id": "demo@1.0.0", "components": {
        "Stack": { "props": { "type": "object" }, "children": true } } } });
    // A record that is not an array (RECORD_INVALID outside a transaction), a frame that is not
    // JSON (FRAME_NOT_JSON), then one committed transaction of three records.
    let text = "42\nx\n[\"begin\",0,\"t1\",0]\n[\"node\",1,\"r\",\"Stack\",{},[]]\n[\"commit\",2,1,\"r\"]\n";
    let steps = vec![
        json!({ "feed": "bytes", "data": { "text": text } }),
        json!({ "feed": "end" }),
        json!({ "expect": "frames", "is": [
            { "frame": 0, "result": "rejected", "code": "RECORD_INVALID" },
            { "frame": 1, "result": "quarantined", "code": "FRAME_NOT_JSON" },
            { "frame": 2, "result": "accepted" },
            { "frame": 3, "result": "accepted" },
            { "frame": 4, "result": "accepted" }
        ] }),
        json!({ "expect": "revision", "is": 1 }),
    ];
    let case = Case::from(CaseParts {
        requirements: vec!["CL-D05-1".into()],
        profiles: vec!["jsonl".into()],
        ..common::test_case("rui.test.frames.001", Protocol::Rui, setup, steps)
    });
    let result = run_case(&mut harness::adapters::reference::ReferenceAdapter::new(), &case);
    assert_eq!(result.verdict, Verdict::Pass, "{}", harness::console::render_case(&result));
}

#[test]
fn the_assist_invocations_observation_lists_the_orchestrator_invoke_calls() {
    let capability = |id: &str| json!({ "id": id, "title": "t", "description": "d", "scopeIds": [], "effect": "read",
        "inputSchema": { "type": "object" }, "outputSchema": { "type": "object" } });
    let setup = json!({
        "definition": { "protocolVersion": "1.0",
            "application": { "id": "notes", "name": "Notes", "description": "A notes application" },
            "scopes": [], "capabilities": [capability("notes.list"), capability("notes.search")] },
        "options": { "policy": { "mode": "scripted", "settle": { "return": { "decision": "allow" } } } } });
    let steps = vec![
        json!({ "host": "bind", "capability": "notes.list", "as": "b1", "handler": { "mode": "scripted", "settle": { "return": {} } } }),
        json!({ "host": "bind", "capability": "notes.search", "as": "b2", "handler": { "mode": "scripted", "settle": { "return": {} } } }),
        json!({ "client": "assist-turn", "as": "t1", "mode": "default", "messages": [] }),
        json!({ "expect": "assist-invocations", "of": "t1", "is": [] }),
        json!({ "gate": "assist", "call": 1, "settle": { "actions": [
            { "capabilityId": "notes.list", "input": {} }, { "capabilityId": "notes.search", "input": { "q": "a" } } ] } }),
        json!({ "expect": "assist-invocations", "of": "t1", "is": [
            { "capabilityId": "notes.list", "input": {} }, { "capabilityId": "notes.search", "input": { "q": "a" } } ] }),
    ];
    let case = Case::from(CaseParts {
        requirements: vec!["CL-C01-1".into()],
        profiles: vec!["assist".into()],
        ..common::test_case("rcip.test.assist-invocations.001", Protocol::Rcip, setup, steps)
    });
    let result = run_case(&mut harness::adapters::reference::ReferenceAdapter::new(), &case);
    assert_eq!(result.verdict, Verdict::Pass, "{}", harness::console::render_case(&result));
    assert_eq!(result.checks, 3);
}
