//! The self-lint catches each defect class it promises (issue 2, item 5): duplicate or retired
//! ids, unknown requirements, uncovered testable requirements, bad descriptions, unknown
//! profiles, and register entries whose quote or hash no longer matches the spec text; and the
//! register discipline of issue 12: a REQUIRED project decision names the sentences that force it
//! (`derives-from`), and a REQUIRED check cites at least one REQUIRED requirement.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use suites::case::{Case, Section};
use suites::lint::{lint, Pending};
use suites::register::{normalise, quote_hash, Register, Requirement, Sources};

const SPEC: &str = "Reuse returns INVOCATION_ALREADY_ACTIVE; IDs are not durable idempotency keys after completion.";

fn requirement(id: &str, quote: &str, testability: &str) -> Requirement {
    Requirement {
        id: id.into(),
        source: "001_2b4ed8e7da12f44d.txt".into(),
        locator: "test".into(),
        quote: quote.into(),
        hash: quote_hash(quote),
        strictness: "REQUIRED".into(),
        testability: testability.into(),
        reason: (testability != "vector").then(|| "not observable".into()),
        profile: None,
        clarified_by: Vec::new(),
        codes: Vec::new(),
        derives_from: Vec::new(),
        choices: Vec::new(),
        no_choice_row: None,
        choice_row_pending: None,
        file: "rcip-life.toml".into(),
    }
}

/// A project decision (`PRJ-*`) of the given strictness, deriving from `derives_from`.
fn decision(id: &str, strictness: &str, derives_from: &[&str]) -> Requirement {
    Requirement {
        id: id.into(),
        source: "project".into(),
        locator: "a gap".into(),
        quote: "the decision".into(),
        hash: quote_hash("the decision"),
        strictness: strictness.into(),
        testability: "vector".into(),
        reason: Some("the reasoning".into()),
        profile: None,
        clarified_by: Vec::new(),
        codes: Vec::new(),
        derives_from: derives_from.iter().map(|d| d.to_string()).collect(),
        // An open point names the choice row that takes its other reading (issue 26 §2).
        choices: if strictness == "REQUIRED" { Vec::new() } else { vec!["demo-row".into()] },
        no_choice_row: None,
        choice_row_pending: None,
        file: "project-rcip.toml".into(),
    }
}

fn sources(text: &str) -> Sources {
    let mut texts = BTreeMap::new();
    texts.insert(
        "001_2b4ed8e7da12f44d.txt".to_string(),
        (text.as_bytes().to_vec(), normalise(text)),
    );
    Sources {
        dir: PathBuf::from("spec"),
        texts,
    }
}

fn register() -> Register {
    Register {
        requirements: vec![
            requirement(
                "RCIP-LIFE-POLICY-01",
                "Reuse returns INVOCATION_ALREADY_ACTIVE",
                "vector",
            ),
            requirement(
                "RCIP-LIFE-POLICY-02",
                "IDs are not durable idempotency keys after completion.",
                "untestable",
            ),
        ],
    }
}

fn section(cases: Vec<Case>) -> Vec<Section> {
    vec![Section::new("rcip.demo", "demo", "test").cases(cases)]
}

fn good(id: &str) -> Case {
    Case::new(id, "a reused id gets INVOCATION_ALREADY_ACTIVE")
        .requirements(&["RCIP-LIFE-POLICY-01"])
}

fn errors(sections: &[Section], register: &Register, spec: &str, retired: &[&str]) -> Vec<String> {
    let retired: BTreeSet<String> = retired.iter().map(|s| s.to_string()).collect();
    lint(register, &sources(spec), sections, &[], &retired).errors
}

#[test]
fn a_clean_suite_has_no_error_and_full_coverage() {
    let report = lint(
        &register(),
        &sources(SPEC),
        &section(vec![good("rcip.demo.reuse.001")]),
        &[],
        &BTreeSet::new(),
    );
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert!(report.coverage.contains("1 / 1"), "{}", report.coverage);
}

#[test]
fn each_case_defect_is_reported() {
    let cases = vec![
        good("rcip.demo.reuse.001"),
        good("rcip.demo.reuse.001"),
        good("rcip.demo.retired.001"),
        good("rcip.other.reuse.001"),
        good("rcip.demo.reuse.1"),
        Case::new("rcip.demo.long.001", "x".repeat(71)).requirements(&["RCIP-LIFE-POLICY-01"]),
        Case::new("rcip.demo.should.001", "Should reject reuse")
            .requirements(&["RCIP-LIFE-POLICY-01"]),
        Case::new("rcip.demo.testthat.001", "test that reuse fails")
            .requirements(&["RCIP-LIFE-POLICY-01"]),
        good("rcip.demo.unknown.001").requirements(&["RCIP-LIFE-NOPE-01"]),
        good("rcip.demo.untestable.001").requirements(&["RCIP-LIFE-POLICY-02"]),
        good("rcip.demo.profile.001").profiles(&["teleport"]),
        Case::new("rcip.demo.none.001", "cites nothing"),
    ];
    let found = errors(
        &section(cases),
        &register(),
        SPEC,
        &["rcip.demo.retired.001"],
    );
    for expected in [
        "duplicate id",
        "retired id",
        "must start with its section",
        "3-digit serial",
        "over 70 characters",
        "not start with should/test that",
        "unknown requirement RCIP-LIFE-NOPE-01",
        "whose testability is untestable",
        "unknown profile teleport",
        "cites no requirement",
    ] {
        assert!(
            found.iter().any(|e| e.contains(expected)),
            "no error containing {expected:?} in {found:#?}"
        );
    }
    assert_eq!(
        found
            .iter()
            .filter(|e| e.contains("not start with should"))
            .count(),
        2
    );
}

#[test]
fn an_uncovered_testable_requirement_is_an_error_unless_pending() {
    let found = errors(
        &section(vec![Case::new("rcip.demo.x.001", "cites nothing")]),
        &register(),
        SPEC,
        &[],
    );
    assert!(
        found
            .iter()
            .any(|e| e.contains("RCIP-LIFE-POLICY-01") && e.contains("no case cites it")),
        "{found:?}"
    );
    let pending = [Pending {
        id: "RCIP-LIFE-POLICY-01".into(),
        issue: 9,
        reason: "later".into(),
    }];
    let cases = section(vec![
        Case::new("rcip.demo.x.001", "other").requirements(&["RCIP-LIFE-POLICY-01"])
    ]);
    let report = lint(
        &register(),
        &sources(SPEC),
        &cases,
        &pending,
        &BTreeSet::new(),
    );
    assert!(
        report.errors.iter().any(|e| e.contains("is covered now")),
        "{:?}",
        report.errors
    );
}

#[test]
fn spec_drift_and_a_stale_hash_are_reported() {
    let drifted = SPEC.replace("INVOCATION_ALREADY_ACTIVE", "INVOCATION_BUSY");
    let found = errors(
        &section(vec![good("rcip.demo.reuse.001")]),
        &register(),
        &drifted,
        &[],
    );
    assert!(
        found
            .iter()
            .any(|e| e.contains("RCIP-LIFE-POLICY-01") && e.contains("no longer found")),
        "{found:?}"
    );

    let mut stale = register();
    stale.requirements[0].hash = "sha256:0000000000000000".into();
    let found = errors(
        &section(vec![good("rcip.demo.reuse.001")]),
        &stale,
        SPEC,
        &[],
    );
    assert!(
        found.iter().any(|e| e.contains("does not match its quote")),
        "{found:?}"
    );
}

#[test]
fn whitespace_does_not_change_a_quote_hash() {
    assert_eq!(quote_hash("a  b\n c "), quote_hash("a b c"));
    assert_ne!(quote_hash("a b c"), quote_hash("a b d"));
}

#[test]
fn a_generated_step_outside_the_vocabulary_is_a_schema_problem() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../vectors/schema");
    let schemas = suites::vector_schema::VectorSchemas::load(&dir).unwrap();
    let valid = section(vec![good("rcip.demo.reuse.001")
        .setup(serde_json::json!({"definition": {}}))
        .step(serde_json::json!({"host": "refresh"}))]);
    assert!(
        schemas.problems(&valid[0]).is_empty(),
        "{:?}",
        schemas.problems(&valid[0])
    );
    let bad = section(vec![good("rcip.demo.reuse.001")
        .setup(serde_json::json!({"definition": {}}))
        .step(serde_json::json!({"host": "refresh", "when": "now"}))]);
    let problems = schemas.problems(&bad[0]);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("rcip.demo.reuse.001 step 0")),
        "{problems:?}"
    );
}

#[test]
fn a_required_project_decision_names_the_sentences_that_force_it() {
    let mut register = register();
    register
        .requirements
        .push(decision("PRJ-DEMO-01", "REQUIRED", &[]));
    register.requirements.push(decision(
        "PRJ-DEMO-02",
        "REQUIRED",
        &["RCIP-LIFE-POLICY-01"],
    ));
    register
        .requirements
        .push(decision("PRJ-DEMO-03", "RECOMMENDED", &[]));
    register.requirements.push(decision(
        "PRJ-DEMO-04",
        "REQUIRED",
        &["PRJ-DEMO-02", "CL-NOPE-01"],
    ));
    let cases = vec![good("rcip.demo.reuse.001").requirements(&[
        "PRJ-DEMO-01",
        "PRJ-DEMO-02",
        "PRJ-DEMO-03",
        "PRJ-DEMO-04",
    ])];
    let found = errors(&section(cases), &register, SPEC, &[]);
    let about = |id: &str| {
        found
            .iter()
            .filter(|e| e.contains(id))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert!(
        about("PRJ-DEMO-01")
            .iter()
            .any(|e| e.contains("derives-from")),
        "{found:#?}"
    );
    assert!(about("PRJ-DEMO-02: ").is_empty(), "{found:#?}");
    assert!(about("PRJ-DEMO-03: ").is_empty(), "{found:#?}");
    assert!(
        about("PRJ-DEMO-04")
            .iter()
            .any(|e| e.contains("names project decision PRJ-DEMO-02")),
        "{found:#?}"
    );
    assert!(
        about("PRJ-DEMO-04")
            .iter()
            .any(|e| e.contains("unknown id CL-NOPE-01")),
        "{found:#?}"
    );
    let report = lint(
        &register,
        &sources(SPEC),
        &section(vec![good("rcip.demo.reuse.001")]),
        &[],
        &BTreeSet::new(),
    );
    assert!(
        report
            .coverage
            .contains("REQUIRED 3, RECOMMENDED 1, IMPL-DEFINED 0, PROFILE 0"),
        "{}",
        report.coverage
    );
}

#[test]
fn a_required_check_citing_only_requirements_below_required_is_an_error() {
    use serde_json::json;
    let mut register = register();
    register
        .requirements
        .push(decision("PRJ-DEMO-05", "IMPL-DEFINED", &[]));
    register
        .requirements
        .push(decision("PRJ-DEMO-06", "RECOMMENDED", &[]));
    let step = |extra: serde_json::Value| {
        let mut step = json!({ "expect": "outcome", "of": "i1", "is": {} });
        if let (Some(step), Some(extra)) = (step.as_object_mut(), extra.as_object()) {
            step.extend(extra.clone());
        }
        step
    };
    let cases = vec![
        // the case cites only requirements below REQUIRED and its step inherits REQUIRED: an error
        Case::new("rcip.demo.below.001", "an open choice pinned at REQUIRED")
            .requirements(&["PRJ-DEMO-05"])
            .step(step(json!({}))),
        // a step's own citations replace the case's: REQUIRED step citing only RECOMMENDED
        good("rcip.demo.below.002").step(step(json!({ "requirements": ["PRJ-DEMO-06"] }))),
        // fine: the step lowers its strictness, or cites a REQUIRED sentence besides
        good("rcip.demo.fine.001").step(step(
            json!({ "requirements": ["PRJ-DEMO-06"], "strictness": "RECOMMENDED" }),
        )),
        good("rcip.demo.fine.002").step(step(
            json!({ "requirements": ["PRJ-DEMO-05", "RCIP-LIFE-POLICY-01"] }),
        )),
    ];
    let found = errors(&section(cases), &register, SPEC, &[]);
    let below: Vec<&String> = found
        .iter()
        .filter(|e| e.contains("below REQUIRED"))
        .collect();
    assert_eq!(below.len(), 2, "{found:#?}");
    assert!(
        below.iter().any(|e| e.contains("rcip.demo.below.001"))
            && below.iter().any(|e| e.contains("rcip.demo.below.002")),
        "{below:#?}"
    );
}

#[test]
fn a_required_check_pinning_a_member_only_weaker_sentences_decide_is_an_error() {
    use serde_json::json;
    let mut register = register();
    register
        .requirements
        .push(decision("PRJ-RCIP-CONF-02", "RECOMMENDED", &[]));
    register
        .requirements
        .push(decision("PRJ-RCIP-CTX-01", "RECOMMENDED", &[]));
    register
        .requirements
        .push(decision("PRJ-RCIP-SUB-01", "RECOMMENDED", &[]));
    let confirmation = |expires: serde_json::Value| {
        json!({ "expect": "outcome", "of": "i1", "is": { "$match": "subset", "fields": {
            "status": "confirmation_required", "confirmation": { "$match": "subset", "fields": { "expiresAt": expires } } } } })
    };
    let calls = json!({ "expect": "handler-calls", "is": [{ "capabilityId": "a", "semanticContext": { "activeScopeIds": [] } }] });
    let cases = vec![
        // expiresAt pinned at REQUIRED: only PRJ-RCIP-CONF-02 (RECOMMENDED here) decides it
        good("rcip.demo.pin.001").step(confirmation(json!(120000))),
        // the initial context pinned through a call record, with no set-context before
        good("rcip.demo.pin.002").step(calls.clone()),
        // notifications exactly [] at REQUIRED
        good("rcip.demo.pin.003").step(json!({ "expect": "notifications", "of": "n", "is": [] })),
        // fine: left open, or checked at the decider's strictness, or after a set-context
        good("rcip.demo.open.001").step(confirmation(json!({ "$match": "present" }))),
        good("rcip.demo.open.002").step(
            confirmation(json!(120000))
                .as_object()
                .map(|o| {
                    let mut o = o.clone();
                    o.insert("strictness".into(), json!("RECOMMENDED"));
                    o.insert("requirements".into(), json!(["PRJ-RCIP-CONF-02"]));
                    serde_json::Value::Object(o)
                })
                .unwrap_or_default(),
        ),
        good("rcip.demo.open.003")
            .step(json!({ "host": "set-context", "context": { "activeScopeIds": [] } }))
            .step(calls),
    ];
    let found = errors(&section(cases), &register, SPEC, &[]);
    let pins: Vec<&String> = found.iter().filter(|e| e.contains(" pins ")).collect();
    assert_eq!(pins.len(), 3, "{found:#?}");
    for id in [
        "rcip.demo.pin.001",
        "rcip.demo.pin.002",
        "rcip.demo.pin.003",
    ] {
        assert!(
            pins.iter().any(|e| e.contains(id)),
            "{id} not reported: {pins:#?}"
        );
    }
}

#[test]
fn an_open_point_names_exactly_one_choice_row_link() {
    let mut register = register();
    let mut unlinked = decision("PRJ-DEMO-11", "IMPL-DEFINED", &[]);
    unlinked.choices.clear();
    let mut twice = decision("PRJ-DEMO-12", "RECOMMENDED", &[]);
    twice.no_choice_row = Some("the reference has no such behaviour".into());
    let mut exempt = decision("PRJ-DEMO-13", "RECOMMENDED", &[]);
    exempt.choices.clear();
    exempt.no_choice_row = Some("the reference has no such behaviour".into());
    let mut pending = decision("PRJ-DEMO-14", "IMPL-DEFINED", &[]);
    pending.choices.clear();
    pending.choice_row_pending = Some("issue 26".into());
    let mut required = decision("PRJ-DEMO-15", "REQUIRED", &["RCIP-LIFE-POLICY-01"]);
    required.no_choice_row = Some("nothing is open".into());
    let mut misnamed = decision("PRJ-DEMO-16", "IMPL-DEFINED", &[]);
    misnamed.choices = vec!["Demo_Row".into()];
    register.requirements.extend([unlinked, twice, exempt, pending, required, misnamed]);
    let ids = ["PRJ-DEMO-11", "PRJ-DEMO-12", "PRJ-DEMO-13", "PRJ-DEMO-14", "PRJ-DEMO-15", "PRJ-DEMO-16"];
    let cases = vec![good("rcip.demo.reuse.001").requirements(&ids)];
    let found = errors(&section(cases), &register, SPEC, &[]);
    let about = |id: &str| found.iter().filter(|e| e.contains(&format!("{id}:"))).count();
    assert_eq!(about("PRJ-DEMO-11"), 1, "{found:#?}");
    assert_eq!(about("PRJ-DEMO-12"), 1, "{found:#?}");
    assert_eq!(about("PRJ-DEMO-13"), 0, "{found:#?}");
    // issue 26 §2: an entry still waiting for its row fails the check (once, naming the field).
    assert_eq!(about("PRJ-DEMO-14"), 1, "{found:#?}");
    assert!(found.iter().any(|e| e.contains("PRJ-DEMO-14") && e.contains("choice_row_pending")), "{found:#?}");
    assert_eq!(about("PRJ-DEMO-15"), 1, "{found:#?}");
    assert_eq!(about("PRJ-DEMO-16"), 1, "{found:#?}");
}

#[test]
fn a_required_step_without_ids_of_its_own_is_refused() {
    use serde_json::json;
    let outcome = || json!({ "expect": "outcome", "of": "i1", "is": {} });
    let cases = vec![
        // a REQUIRED expectation citing nothing of its own: refused, naming the case and step
        good("rcip.demo.bare.001").step(json!({ "client": "invoke", "as": "i1" })).step(outcome()),
        // a REQUIRED action that carries `throws`: refused alike
        good("rcip.demo.bare.002").step(json!({ "host": "bind", "throws": true })),
        // fine: the step cites its own; a RECOMMENDED step, an action without `throws` and one
        // that may throw or not (`"may"` never fails) are not required to
        good("rcip.demo.cited.001")
            .step(json!({ "client": "invoke", "as": "i1" }))
            .step(json!({ "expect": "outcome", "of": "i1", "is": {}, "requirements": ["RCIP-LIFE-POLICY-01"] }))
            .step(json!({ "expect": "outcome", "of": "i1", "is": {}, "strictness": "RECOMMENDED" }))
            .step(json!({ "host": "set-context", "throws": "may" })),
    ];
    let found = errors(&section(cases), &register(), SPEC, &[]);
    let bare: Vec<&String> = found.iter().filter(|e| e.contains("without requirement ids of its own")).collect();
    assert_eq!(bare.len(), 2, "{found:#?}");
    assert!(
        bare[0].starts_with("case rcip.demo.bare.001: step 2 (expect outcome) is a REQUIRED check"),
        "{bare:#?}"
    );
    assert!(
        bare[1].starts_with("case rcip.demo.bare.002: step 1 (host bind with throws true) is a REQUIRED check"),
        "{bare:#?}"
    );
}
