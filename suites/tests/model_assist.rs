//! The Assist model's generated vectors (`suites::cases::from_model::assist`, issue 5): the
//! coverage certificate is complete, the cases pass the vector schema and cite register ids, and
//! the translator gives the steps and expectations the texts call for on a few paths whose
//! expectations are derived here by hand: a read-only local rejection (CL-C05-2, CL-C04-3), a
//! batch stopped by a denial (CL-C02-2, CL-C04-1/2), the virtual time of a delay (CL-C03-1/2,
//! PRJ-ASSIST-DELAY-01), and a cancellation no vector can interleave (ObservableTurn).

use model::assist::Action::*;
use model::assist::{AssistModel, DecideAnswer, InvokeResult, Proposal, SummarizeAnswer};
use serde_json::{json, Value};
use suites::case::Case;
use suites::cases::from_model::assist::{generated, translate, translate_path, vector_model};
use suites::cases::from_model::bundled_problems;

#[test]
fn generated_cases_pass_the_schema_and_cite_register_ids() {
    let generated = generated();
    let problems = bundled_problems(&generated, "rcip.model-assist");
    assert!(problems.is_empty(), "{problems:#?}");
    // Beyond completeness (checked by `bundled_problems`), what the certificate measures.
    assert_eq!(generated.len(), 1);
    let certificate = &generated[0].certificate;
    // Eight codes: succeeded, EXECUTION_FAILED, CAPABILITY_NOT_FOUND, POLICY_DENIED,
    // CONFIRMATION_DECLINED, CONFIRMATION_EXPIRED, a confirmation cancelled, a local rejection.
    assert_eq!(certificate.codes_total, 8, "{certificate}");
    assert!(certificate.transitions_total >= 100, "{certificate}");
    let cases: Vec<&Case> = generated
        .iter()
        .flat_map(|g| &g.sections)
        .flat_map(|s| &s.cases)
        .collect();
    for case in &cases {
        assert_eq!(case.profiles, vec!["assist".to_string()]);
        // Beyond RCIP-PROTO-ASSIST-01, every target maps to what it exercises.
        assert!(
            case.requirements.len() >= 3,
            "{} cites {:?}",
            case.id,
            case.requirements
        );
        let provenance = case.provenance.as_ref().expect("provenance");
        assert!(provenance
            .path
            .first()
            .is_some_and(|p| p.contains("batch bound 2")));
    }
    assert!(cases.len() >= 100, "{} cases", cases.len());
}

fn case(path: &[model::assist::Action], read_only: bool) -> Case {
    translate_path(&vector_model(), usize::from(read_only), path, "hand")
        .expect("the path is one of the view")
}

fn steps_where<'a>(case: &'a Case, key: &str, value: &str) -> Vec<&'a Value> {
    case.steps
        .iter()
        .filter(|s| s.get(key).and_then(Value::as_str) == Some(value))
        .collect()
}

fn last_expect<'a>(case: &'a Case, kind: &str) -> &'a Value {
    let found: Vec<&Value> = steps_where(case, "expect", kind)
        .into_iter()
        .filter(|s| s.get("strictness").is_none())
        .collect();
    &found.last().expect("an expectation of that kind")["is"]
}

/// CL-C05-2: in read-only mode a proposed non-read action is rejected without `invoke`, so host
/// policy is never asked and no handler runs; nothing was invoked, so whether summarize is called
/// is IMPL-DEFINED (CL-C04-3) and the turn's last expectation accepts both; a well-formed decision
/// without summarize ends with its result, text null (PRJ-ASSIST-TURN-01, vectors/README.md).
#[test]
fn a_read_only_rejection_invokes_nothing_and_leaves_summarize_open() {
    let case = case(
        &[
            Decide(DecideAnswer::Batch(1)),
            StartAction(Proposal::NonRead),
            SkipSummarize,
        ],
        true,
    );
    let gates = steps_where(&case, "gate", "assist");
    assert_eq!(gates.len(), 1);
    assert_eq!(
        gates[0]["settle"],
        json!({ "actions": [{ "capabilityId": "notes.change1", "input": {}, "delay": "short" }] })
    );
    assert!(steps_where(&case, "gate", "policy").is_empty());
    assert_eq!(last_expect(&case, "policy-calls"), &json!([]));
    assert_eq!(last_expect(&case, "handler-calls"), &json!([]));
    let turn = last_expect(&case, "assist-turn");
    assert_eq!(turn["$match"], "one-of");
    let options = turn["options"].as_array().expect("options");
    assert_eq!(options.len(), 2);
    assert_eq!(options[0]["result"]["text"], Value::Null);
    assert_eq!(
        options[0]["result"]["outcomes"][0]["capabilityId"],
        "notes.change1"
    );
    assert_eq!(options[0]["calls"].as_array().map(Vec::len), Some(1));
    assert_eq!(options[1]["result"], "pending");
    assert_eq!(options[1]["calls"][1]["phase"], "summarize");
    // The RECOMMENDED check names the local outcome: denied POLICY_DENIED (CL-C05-3).
    let recommended: Vec<&Value> = steps_where(&case, "expect", "assist-turn")
        .into_iter()
        .filter(|s| s.get("strictness").and_then(Value::as_str) == Some("RECOMMENDED"))
        .collect();
    assert!(!recommended.is_empty());
    let strict = &recommended.last().expect("a check")["is"]["options"][0]["result"]["outcomes"][0];
    assert_eq!(
        (strict["status"].as_str(), strict["code"].as_str()),
        (Some("denied"), Some("POLICY_DENIED"))
    );
}

/// CL-C02-2: a denial stops the batch, so the second proposal never reaches policy; CL-C04-1: an
/// action ran, so exactly one summarize call follows with the completed outcome; its text is the
/// turn's final text.
#[test]
fn a_denial_stops_the_batch_and_summarize_gets_its_outcome() {
    let case = case(
        &[
            Decide(DecideAnswer::Batch(2)),
            StartAction(Proposal::Read),
            InvokeSettles(InvokeResult::Denied),
            CallSummarize,
            SummarizeAnswers(SummarizeAnswer::Text),
        ],
        false,
    );
    let policy_gates = steps_where(&case, "gate", "policy");
    assert_eq!(policy_gates.len(), 1);
    assert_eq!(policy_gates[0]["call"], 1);
    assert_eq!(policy_gates[0]["settle"]["return"]["decision"], "deny");
    let calls = last_expect(&case, "policy-calls")
        .as_array()
        .expect("calls")
        .clone();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0]["capabilityId"], "notes.read1");
    assert_eq!(calls[0]["confirmed"], false);
    let denied = json!({
        "status": "denied", "invocationId": { "$match": "type", "type": "string" }, "capabilityId": "notes.read1",
        "code": "POLICY_DENIED", "validationIssues": { "$match": "any" }
    });
    let turn = last_expect(&case, "assist-turn");
    assert_eq!(
        turn["result"],
        json!({ "text": "summarized", "outcomes": [denied.clone()] })
    );
    assert_eq!(turn["calls"][1]["phase"], "summarize");
    assert_eq!(turn["calls"][1]["outcomes"], json!([denied]));
    let summarize_gate = steps_where(&case, "gate", "assist");
    assert_eq!(
        summarize_gate.last().map(|g| g["call"].clone()),
        Some(json!(2))
    );
}

/// CL-C03-1: the next action starts when its delay has passed on the virtual clock, not a
/// millisecond earlier (`short` is 100 ms in the setup); CL-C03-2: the last action's delay is not
/// waited, so summarize follows it at once.
#[test]
fn a_delay_holds_the_next_action_until_its_time() {
    let case = case(
        &[
            Decide(DecideAnswer::Batch(2)),
            StartAction(Proposal::Read),
            InvokeSettles(InvokeResult::Succeeded),
            DelayElapses,
            StartAction(Proposal::Read),
            InvokeSettles(InvokeResult::Succeeded),
        ],
        false,
    );
    let clocks: Vec<u64> = steps_where(&case, "clock", "advance")
        .iter()
        .filter_map(|s| s["ms"].as_u64())
        .collect();
    // The last step lets 10 s pass with nothing due: the owed summarize call stays unanswered.
    assert_eq!(clocks, vec![99, 1, 10_000]);
    let position = |pred: &dyn Fn(&Value) -> bool| case.steps.iter().position(pred).expect("step");
    let first_clock = position(&|s| s["ms"] == 99);
    let second_clock = position(&|s| s["ms"] == 1);
    let policy_between = case.steps[first_clock..second_clock]
        .iter()
        .find(|s| s["expect"] == "policy-calls")
        .expect("a policy check inside the delay");
    assert_eq!(
        policy_between["is"].as_array().map(Vec::len),
        Some(1),
        "notes.read2 must not start early"
    );
    let policy_after = case.steps[second_clock..]
        .iter()
        .find(|s| s["expect"] == "policy-calls")
        .expect("a policy check after the delay");
    assert_eq!(policy_after["is"][1]["capabilityId"], "notes.read2");
    // The path ends with both actions done: the owed summarize call is pending at once, no clock
    // step needed, and no third action or second summarize call appears while time passes.
    assert_eq!(
        last_expect(&case, "policy-calls").as_array().map(Vec::len),
        Some(2)
    );
    let wait = position(&|s| s["ms"] == 10_000);
    let before_wait = case.steps[second_clock..wait]
        .iter()
        .rfind(|s| s["expect"] == "assist-turn")
        .expect("a turn check before the wait");
    assert_eq!(
        before_wait["is"]["calls"][1]["phase"], "summarize",
        "CL-C03-2: the last delay is not waited"
    );
    let turn = last_expect(&case, "assist-turn");
    assert_eq!(turn["result"], "pending");
    assert_eq!(turn["calls"][1]["phase"], "summarize");
    assert_eq!(
        turn["calls"][1]["outcomes"].as_array().map(Vec::len),
        Some(2)
    );
}

/// A cancellation while the next entry is about to start cannot be put between two steps (the
/// turn starts it at once), so such a path is not one of the vectors' view.
#[test]
fn a_cancellation_between_the_answer_and_the_first_start_is_not_translated() {
    let path = [Decide(DecideAnswer::Batch(1)), Cancel];
    assert!(translate(0, &path).is_none());
    // The full model does allow it (it over-approximates the interleavings).
    use model::stateright::Model;
    let full = AssistModel::default();
    let state = full.init_states().remove(0);
    let ready = full
        .next_state(&state, Decide(DecideAnswer::Batch(1)))
        .expect("decided");
    let mut actions = Vec::new();
    full.actions(&ready, &mut actions);
    assert!(actions.contains(&Cancel));
}
