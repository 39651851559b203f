//! The invocation model's generated vectors (`suites::cases::from_model::invocation`, issue 5):
//! the coverage certificate is complete, the cases pass the vector schema, cite register ids and
//! never stop early at the generation configuration, and the translator gives the expectations
//! the texts call for on a few paths whose outcomes are derived here by hand: a reserved id
//! (CL-B04-3/4), expiry and a returned receipt (CL-B08-3, CL-B10-3 RECOMMENDED), a denial racing
//! an unbind (CL-B05 and its other reading), an already-aborted signal with invalid input
//! (CL-B03-1/2), an invalid output after an abort (CL-B11/CL-B12), and a context changed and
//! changed back (CL-B06), where the case must stop.

use model::invocation::Action::*;
use model::invocation::{Decision, HandlerResult, Request, SemanticContext};
use serde_json::{json, Value};
use suites::case::{Case, Provenance};
use suites::cases::from_model::bundled_problems;
use suites::cases::from_model::invocation::{
    differential_models, generated, generated_cases, generation_model, translate_with,
};

#[test]
fn generated_cases_pass_the_schema_cite_register_ids_and_run_to_the_end() {
    let generated = generated();
    let problems = bundled_problems(&generated, "rcip.model-invocation");
    assert!(problems.is_empty(), "{problems:#?}");
    // Beyond completeness (checked by `bundled_problems`), what the certificate measures.
    assert_eq!(generated.len(), 1);
    let certificate = &generated[0].certificate;
    // The thirteen codes of CL-B01.
    assert_eq!(certificate.codes_total, 13, "{certificate}");
    assert!(certificate.transitions_total >= 100, "{certificate}");
    for case in generated
        .iter()
        .flat_map(|g| &g.sections)
        .flat_map(|s| &s.cases)
    {
        assert!(
            case.requirements.len() >= 2,
            "{} cites {:?}",
            case.id,
            case.requirements
        );
        let provenance = case.provenance.as_ref().expect("provenance");
        assert!(provenance.by.contains("receipts 256"), "{}", provenance.by);
    }
    let (_, _, truncations) = generated_cases();
    assert!(
        truncations.iter().all(Option::is_none),
        "a generated case stopped early: {truncations:?}"
    );
}

fn translate(model_index: usize, actions: &[model::invocation::Action]) -> Case {
    let model = &differential_models()[model_index];
    let provenance = Provenance {
        kind: "model",
        by: "test".into(),
        seed: None,
        path: Vec::new(),
    };
    translate_with(
        model,
        0,
        actions,
        "rcip.model-invocation.test.001",
        "test",
        vec![],
        provenance,
    )
    .case
}

/// The `is` of every outcome expectation of `handle`, with its strictness if it has one.
fn outcomes(case: &Case, handle: &str) -> Vec<(Value, Option<String>)> {
    case.steps
        .iter()
        .filter(|s| s["expect"] == "outcome" && s["of"] == handle)
        .map(|s| {
            (
                s["is"].clone(),
                s.get("strictness")
                    .and_then(Value::as_str)
                    .map(str::to_string),
            )
        })
        .collect()
}

fn failed(invocation: Value, capability: Value, code: &str) -> Value {
    json!({ "status": "failed", "invocationId": invocation, "capabilityId": capability, "code": code, "validationIssues": { "$match": "any" } })
}

fn anonymous(code: &str) -> Value {
    let string = json!({ "$match": "type", "type": "string" });
    failed(string.clone(), string, code)
}

fn one_of(options: Vec<Value>) -> Value {
    json!({ "$match": "one-of", "options": options })
}

#[test]
fn a_reserved_id_is_refused_without_disturbing_the_first_invocation() {
    // CL-B04-1/3/4: the shared id is reserved from the first invoke; the second gets
    // INVOCATION_ALREADY_ACTIVE and the first stays pending.
    let case = translate(0, &[Invoke(0, Request::Valid), Invoke(1, Request::Valid)]);
    assert_eq!(
        outcomes(&case, "i1"),
        vec![(
            failed(
                json!("inv"),
                json!("tasks.purge"),
                "INVOCATION_ALREADY_ACTIVE"
            ),
            None
        )]
    );
    assert_eq!(
        outcomes(&case, "i0"),
        vec![(json!("pending"), None), (json!("pending"), None)]
    );
    let last_policy = case
        .steps
        .iter()
        .rev()
        .find(|s| s["expect"] == "policy-calls")
        .expect("policy-calls");
    assert_eq!(
        last_policy["is"].as_array().map(Vec::len),
        Some(1),
        "the refused invoke asks no policy"
    );
}

#[test]
fn an_expired_confirmation_gives_its_receipt_once() {
    // TTL 500 ms, tick 1000 ms: the confirmation issued at 0 expires at 500 (CL-B08); resolving
    // it gives CONFIRMATION_EXPIRED (CL-B08-3); `expiresAt` is only required present (its value is
    // PRJ-RCIP-CONF-02, checked by the expiry cases); resolving again is RECOMMENDED
    // CONFIRMATION_NOT_FOUND, REQUIRED one of that and the receipt again (CL-B10-3).
    let case = translate(
        0,
        &[
            Invoke(0, Request::Valid),
            PolicySettles(0, Decision::Confirm),
            AdvanceClock,
            Approve(0),
            Decline(0),
        ],
    );
    assert_eq!(case.setup["options"]["confirmationTtlMs"], json!(500));
    let confirmation = json!({
        "status": "confirmation_required", "invocationId": "inv", "capabilityId": "tasks.purge",
        "confirmation": { "id": { "$match": "type", "type": "string" }, "effect": "destructive", "expiresAt": { "$match": "present" } }
    });
    assert_eq!(outcomes(&case, "i0").last(), Some(&(confirmation, None)));
    assert!(case
        .steps
        .iter()
        .any(|s| s == &json!({ "clock": "advance", "ms": 1000 })));
    assert_eq!(
        outcomes(&case, "r0-1"),
        vec![(anonymous("CONFIRMATION_EXPIRED"), None)]
    );
    assert_eq!(
        outcomes(&case, "r0-2"),
        vec![
            (
                one_of(vec![
                    anonymous("CONFIRMATION_NOT_FOUND"),
                    anonymous("CONFIRMATION_EXPIRED")
                ]),
                None
            ),
            (
                anonymous("CONFIRMATION_NOT_FOUND"),
                Some("RECOMMENDED".into())
            ),
        ]
    );
}

#[test]
fn a_denial_racing_an_unbind_accepts_the_recheck_or_the_denial() {
    // CL-B05-1, RCIP-LIFE-POLICY-04/05 against CL-A05-3: no sentence orders a refusing answer
    // against the rechecks, so the changed binding's CAPABILITY_UNBOUND and the denial's own
    // POLICY_DENIED are both accepted (PRJ-RCIP-POLICY-01, issue 26); an `allow` racing the
    // unbind stays pinned to the recheck (the next test's subject in issue 13).
    let case = translate(
        0,
        &[
            Invoke(0, Request::Valid),
            Unbind(0),
            PolicySettles(0, Decision::Deny),
        ],
    );
    assert_eq!(
        outcomes(&case, "i0").last(),
        Some(&(
            json!({ "$match": "one-of", "options": [
                failed(json!("inv"), json!("tasks.purge"), "CAPABILITY_UNBOUND"),
                json!({ "status": "denied", "invocationId": "inv", "capabilityId": "tasks.purge",
                        "code": "POLICY_DENIED", "validationIssues": { "$match": "any" } }),
            ] }),
            None
        ))
    );
    assert!(case.requirements.iter().any(|id| id == "PRJ-RCIP-POLICY-01"));
    let allowed = translate(0, &[Invoke(0, Request::Valid), Unbind(0), PolicySettles(0, Decision::Allow)]);
    assert_eq!(
        outcomes(&allowed, "i0").last(),
        Some(&(failed(json!("inv"), json!("tasks.purge"), "CAPABILITY_UNBOUND"), None))
    );
    let last_handlers = case
        .steps
        .iter()
        .rev()
        .find(|s| s["expect"] == "handler-calls")
        .expect("handler-calls");
    assert_eq!(
        last_handlers["is"],
        json!([]),
        "CL-B05-2: the handler does not run"
    );
}

#[test]
fn an_aborted_signal_with_invalid_input_recommends_the_input_check() {
    // CL-B03-1 REQUIRED order of the four checks; CL-B03-2 RECOMMENDED: the aborted signal after
    // them, so EXECUTION_ABORTED is accepted only as the non-recommended reading.
    let case = translate(0, &[Abort(0), Invoke(0, Request::InvalidInput)]);
    let input_invalid = failed(json!("inv"), json!("tasks.purge"), "INPUT_INVALID");
    assert_eq!(
        outcomes(&case, "i0"),
        vec![
            (
                one_of(vec![
                    input_invalid.clone(),
                    failed(json!("inv"), json!("tasks.purge"), "EXECUTION_ABORTED")
                ]),
                None
            ),
            (input_invalid, Some("RECOMMENDED".into())),
        ]
    );
    let position = |step: &Value| case.steps.iter().position(|s| s == step);
    let abort = position(&json!({ "client": "abort", "signal": "s0" }));
    let invoke = case.steps.iter().position(|s| s["client"] == "invoke");
    assert!(
        abort.is_some() && abort < invoke,
        "the signal is aborted before the invoke"
    );
}

#[test]
fn an_invalid_output_after_an_abort_accepts_both_codes() {
    // CL-B11-4/5 speak of returns and throws; an invalid output after an abort is OUTPUT_INVALID
    // (CL-B12-1) or EXECUTION_ABORTED. The handler's signal shows the abort.
    let case = translate(
        0,
        &[
            Invoke(0, Request::Valid),
            PolicySettles(0, Decision::Allow),
            Abort(0),
            HandlerSettles(0, HandlerResult::InvalidOutput),
        ],
    );
    assert_eq!(
        outcomes(&case, "i0").last(),
        Some(&(
            one_of(vec![
                failed(json!("inv"), json!("tasks.purge"), "OUTPUT_INVALID"),
                failed(json!("inv"), json!("tasks.purge"), "EXECUTION_ABORTED")
            ]),
            None
        ))
    );
    let signals: Vec<&Value> = case
        .steps
        .iter()
        .filter(|s| s["expect"] == "handler-signal")
        .map(|s| &s["is"])
        .collect();
    assert_eq!(signals, vec![&json!(false), &json!(true)]);
}

#[test]
fn a_context_changed_and_back_stops_the_case_before_the_recheck() {
    // CL-B06-1 compares by value; whether a change undone before the check counts is open, so
    // the case stops before the policy settles (configuration 1: two host events).
    let case = translate(
        1,
        &[
            Invoke(0, Request::Valid),
            SetContext(SemanticContext::Other),
            SetContext(SemanticContext::Initial),
            PolicySettles(0, Decision::Allow),
        ],
    );
    assert!(
        case.notes
            .as_deref()
            .is_some_and(|n| n.contains("action 3")),
        "{:?}",
        case.notes
    );
    assert!(
        case.steps.iter().all(|s| s.get("gate").is_none()),
        "no policy settlement after the readings part"
    );
    assert_eq!(
        generation_model().host_events,
        1,
        "the generation configuration cannot revert a context"
    );
}

#[test]
fn the_snapshot_revision_is_pinned_only_where_the_texts_decide_it() {
    // CL-B15-1/2/3/4: a bind, an effective unbind, a refresh and a successful invocation strictly
    // increase the revision; elsewhere (a policy call pending, an availability change) CL-B15-5 only ties
    // identity to an unchanged revision, and RCIP-PROTO-SNAP-01 forbids a decrease.
    let case = translate(
        1,
        &[
            Invoke(0, Request::Valid),
            PolicySettles(0, Decision::Allow),
            HandlerSettles(0, HandlerResult::Output),
            Unbind(0),
            LoseAvailability(0),
        ],
    );
    let relations: Vec<&Value> = case
        .steps
        .iter()
        .filter(|s| s["expect"] == "snapshot-relation")
        .map(|s| &s["is"])
        .collect();
    let bumped = json!({ "identical": false, "revision": "greater" });
    let either = one_of(vec![
        json!({ "identical": true, "revision": "equal" }),
        bumped.clone(),
    ]);
    // The first relation is the preamble's refresh (CL-B15-3).
    assert_eq!(
        relations,
        vec![&bumped, &either, &either, &bumped, &bumped, &either]
    );
    // CL-B17-1: the host-only availability member never appears in any snapshot's text.
    let texts = case
        .steps
        .iter()
        .filter(|s| s["expect"] == "snapshot-text")
        .count();
    assert_eq!(
        texts, 7,
        "one text check per snapshot (no confirmation was issued)"
    );
}

#[test]
fn a_snapshot_never_shows_an_issued_confirmation_id() {
    // CL-B17-2 with `createId: "sequential"` (CL-A01-6): the confirmation's id is `confirmation-1`.
    let case = translate(
        0,
        &[
            Invoke(0, Request::Valid),
            PolicySettles(0, Decision::Confirm),
        ],
    );
    assert_eq!(case.setup["options"]["createId"], json!("sequential"));
    let last = case
        .steps
        .iter()
        .rev()
        .find(|s| s["expect"] == "snapshot-text")
        .expect("a text check");
    assert_eq!(
        last["is"],
        json!({ "$match": "excludes", "text": "confirmation-1" })
    );
}

#[test]
fn the_long_tick_configuration_passes_a_32_bit_timer_and_ticks_1_ms_after_expiry() {
    // CL-A01-5, CL-B08-1/2: the fuzz-only configuration at `Timing::long_ticks`.
    let configurations = suites::cases::from_model::invocation::fuzz_configurations();
    let (model, timing) = configurations.last().expect("a long-tick configuration");
    assert!(model.ttl_ticks >= 2, "the confirmation outlives one tick");
    assert_eq!(timing.tick_ms, 1 << 31);
    assert!(
        timing.ttl_ms >= (1u64 << 32) - 1 && timing.ttl_ms % timing.tick_ms == timing.tick_ms - 1
    );
    let case = suites::cases::from_model::invocation::translate_fuzz_choices(&[
        (configurations.len() - 1) as u32,
        0,
        0,
    ])
    .expect("a path");
    assert_eq!(
        case.setup["options"]["confirmationTtlMs"],
        json!(timing.ttl_ms)
    );
}
