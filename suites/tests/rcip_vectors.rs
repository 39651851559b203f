//! Checks of the RCIP case builders (`suites::cases::rcip`, issue 3): every case validates against
//! the vector schemas, the self-lint finds nothing in any rcip case, every testable RCIP requirement
//! of the register is cited (except the listed vocabulary gaps), every error code of CL-B01 is the
//! expected result of at least three cases, every RECOMMENDED requirement has a check whose mismatch
//! is non-strict, and every IMPL-DEFINED requirement has a case accepting its alternatives. Also
//! writes the rcip vectors to `target/tmp/rcip-vectors` so the harness can run them
//! (`cargo run -p harness -- --vectors target/tmp/rcip-vectors run`) before `regen` can.

use std::collections::{BTreeMap, BTreeSet};

use std::path::PathBuf;

use serde_json::Value;

use suites::case::{Section, Strictness};
use suites::lint::lint;
use suites::register::{Register, Sources};
use suites::vector_schema::VectorSchemas;

/// Testable requirements the step vocabulary cannot observe (reported in the closing note):
/// none since the `handler-context`, `caller-input` and `preflight` vocabulary.
const VOCABULARY_GAPS: [(&str, &str); 0] = [];

const CODES: [&str; 13] = [
    "INVOCATION_ALREADY_ACTIVE",
    "CAPABILITY_NOT_FOUND",
    "CAPABILITY_UNBOUND",
    "CAPABILITY_UNAVAILABLE",
    "INPUT_INVALID",
    "POLICY_EVALUATION_FAILED",
    "POLICY_DENIED",
    "CONFIRMATION_DECLINED",
    "CONFIRMATION_EXPIRED",
    "CONFIRMATION_NOT_FOUND",
    "EXECUTION_ABORTED",
    "EXECUTION_FAILED",
    "OUTPUT_INVALID",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The RCIP sections as `regen` writes them: each step that can fail citing what decides it.
fn sections() -> Vec<Section> {
    let mut sections = suites::cases::rcip::sections();
    suites::step_ids::cite_all(&mut sections);
    sections
}

#[test]
fn every_case_and_file_validates_against_the_vector_schemas() {
    let schemas =
        VectorSchemas::load(&root().join("vectors").join("schema")).expect("schemas load");
    let problems: Vec<String> = sections()
        .iter()
        .flat_map(|s| schemas.problems(s))
        .collect();
    assert!(
        problems.is_empty(),
        "{} schema problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

fn register() -> Register {
    Register::load(&root().join("suites").join("register")).expect("register loads")
}

#[test]
fn the_self_lint_finds_nothing_in_rcip_cases() {
    let register = register();
    let sources = Sources::load(&root().join("suites").join("spec")).expect("spec loads");
    let report = lint(&register, &sources, &sections(), &[], &BTreeSet::new());
    let ours: Vec<&String> = report
        .errors
        .iter()
        .filter(|e| e.starts_with("case rcip.") || e.starts_with("section rcip."))
        .collect();
    assert!(
        ours.is_empty(),
        "lint errors in rcip cases:\n{}",
        ours.iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Every id a case cites, at case or step level, with the strictness it is checked at.
fn citations() -> BTreeMap<String, Vec<(String, Strictness, Value)>> {
    let mut cited: BTreeMap<String, Vec<(String, Strictness, Value)>> = BTreeMap::new();
    for section in sections() {
        for c in &section.cases {
            for rid in &c.requirements {
                cited.entry(rid.clone()).or_default().push((
                    c.id.clone(),
                    c.strictness,
                    c.to_json(),
                ));
            }
            for s in &c.steps {
                let strictness = s
                    .get("strictness")
                    .and_then(Value::as_str)
                    .and_then(Strictness::parse)
                    .unwrap_or(c.strictness);
                for rid in s
                    .get("requirements")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                {
                    cited.entry(rid.to_string()).or_default().push((
                        c.id.clone(),
                        strictness,
                        s.clone(),
                    ));
                }
            }
        }
    }
    cited
}

/// The testable requirements issue 3 must cover: the RCIP texts, CL-A and CL-B, and this issue's
/// project decisions, without Assist (issue 7).
fn in_scope(register: &Register) -> Vec<(String, String)> {
    register
        .requirements
        .iter()
        .filter(|r| r.testability == "vector")
        .filter(|r| {
            r.id.starts_with("RCIP-")
                || r.id.starts_with("CL-A")
                || r.id.starts_with("CL-B")
                || r.id.starts_with("PRJ-RCIP-")
        })
        .filter(|r| !r.id.starts_with("RCIP-PROTO-ASSIST-"))
        .map(|r| (r.id.clone(), r.strictness.clone()))
        .collect()
}

#[test]
fn every_testable_rcip_requirement_is_cited_except_the_vocabulary_gaps() {
    let cited = citations();
    let uncovered: BTreeSet<String> = in_scope(&register())
        .into_iter()
        .map(|(id, _)| id)
        .filter(|id| !cited.contains_key(id))
        .collect();
    let gaps: BTreeSet<String> = VOCABULARY_GAPS
        .iter()
        .map(|(id, _)| id.to_string())
        .collect();
    assert_eq!(
        uncovered, gaps,
        "uncovered requirements differ from the documented vocabulary gaps"
    );
}

fn codes_in(value: &Value, found: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(code)) = map.get("code") {
                found.insert(code.clone());
            }
            map.values().for_each(|v| codes_in(v, found));
        }
        Value::Array(items) => items.iter().for_each(|v| codes_in(v, found)),
        _ => {}
    }
}

#[test]
fn every_error_code_is_expected_by_at_least_three_cases() {
    let mut per_code: BTreeMap<String, usize> = BTreeMap::new();
    for section in sections() {
        for c in &section.cases {
            let mut found = BTreeSet::new();
            for s in c
                .steps
                .iter()
                .filter(|s| s.get("expect").and_then(Value::as_str) == Some("outcome"))
            {
                codes_in(s.get("is").unwrap_or(&Value::Null), &mut found);
            }
            for code in found {
                *per_code.entry(code).or_default() += 1;
            }
        }
    }
    for code in CODES {
        let n = per_code.get(code).copied().unwrap_or(0);
        assert!(n >= 3, "{code} is the expected result of only {n} cases");
    }
    let unknown: Vec<&String> = per_code
        .keys()
        .filter(|c| !CODES.contains(&c.as_str()))
        .collect();
    assert!(unknown.is_empty(), "codes outside CL-B01-1: {unknown:?}");
}

/// Whether a pattern lists alternatives: `one-of`, or `unordered` (every order of the items is an
/// admissible reading, as for PRJ-RCIP-LIST-01).
fn has_one_of(value: &Value) -> bool {
    match value {
        Value::Object(map) => {
            matches!(
                map.get("$match").and_then(Value::as_str),
                Some("one-of" | "unordered")
            ) || map.values().any(has_one_of)
        }
        Value::Array(items) => items.iter().any(has_one_of),
        _ => false,
    }
}

#[test]
fn recommended_points_are_non_strict_and_impl_defined_points_accept_alternatives() {
    let cited = citations();
    for (id, strictness) in in_scope(&register()) {
        let Some(uses) = cited.get(&id) else { continue };
        match strictness.as_str() {
            "RECOMMENDED" => assert!(
                uses.iter().any(|(_, s, _)| *s == Strictness::Recommended),
                "{id} is RECOMMENDED but no check citing it is RECOMMENDED"
            ),
            "IMPL-DEFINED" => assert!(
                uses.iter()
                    .any(|(_, _, json)| has_one_of(json)
                        || json.to_string().contains("\"may-throw\"")),
                "{id} is IMPL-DEFINED but no case citing it lists alternatives"
            ),
            _ => {}
        }
    }
}

#[test]
fn descriptions_are_unique_within_a_section() {
    for section in sections() {
        let mut seen = BTreeSet::new();
        for c in &section.cases {
            assert!(
                seen.insert(c.description.clone()),
                "{}: description repeated in {}",
                c.id,
                section.id
            );
        }
    }
}

/// A check whose mismatch is a failure must not be attributed to a RECOMMENDED requirement (that
/// would report a RECOMMENDED point as failed); checks inherit the case's ids unless they name
/// their own.
#[test]
fn failing_checks_are_never_attributed_to_recommended_requirements() {
    let register = register();
    let level: BTreeMap<&str, &str> = register
        .requirements
        .iter()
        .map(|r| (r.id.as_str(), r.strictness.as_str()))
        .collect();
    let mut problems = Vec::new();
    for section in sections() {
        for c in &section.cases {
            let creation = c.setup.get("creation").and_then(Value::as_str);
            let mut checks: Vec<(String, &Value)> = Vec::new();
            if matches!(creation, Some("throws")) {
                checks.push(("creation".into(), &c.setup));
            }
            for (i, s) in c.steps.iter().enumerate() {
                if s.get("expect").is_some() || s.get("throws").is_some() {
                    checks.push((format!("step {i}"), s));
                }
            }
            for (at, check) in checks {
                let strictness = check
                    .get("strictness")
                    .and_then(Value::as_str)
                    .and_then(Strictness::parse)
                    .unwrap_or(c.strictness);
                if strictness == Strictness::Recommended {
                    continue;
                }
                let ids: Vec<String> = match check.get("requirements").and_then(Value::as_array) {
                    Some(ids) => ids
                        .iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect(),
                    None => c.requirements.clone(),
                };
                for id in ids
                    .iter()
                    .filter(|id| level.get(id.as_str()) == Some(&"RECOMMENDED"))
                {
                    problems.push(format!(
                        "{} {at}: {} check attributed to RECOMMENDED {id}",
                        c.id,
                        strictness.as_str()
                    ));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
