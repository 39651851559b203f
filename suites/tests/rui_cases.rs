//! Checks of the Rixx UI case builders (suites/src/cases/rui): every case validates against the
//! vector schemas, ids and descriptions follow the house rules, every stable code of CL-D08
//! (PRJ-RUI-* entries with `codes` in suites/register/project-rui.toml) is the result of at least
//! two distinct cases, and expected codes are only registered ones.

use std::collections::{BTreeMap, BTreeSet};

use std::path::PathBuf;

use serde_json::Value;
use suites::cases::rui;
use suites::register::Register;
use suites::vector_schema::VectorSchemas;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn every_rui_file_validates_against_the_vector_schema() {
    let schemas =
        VectorSchemas::load(&root().join("vectors").join("schema")).expect("schemas load");
    let problems: Vec<String> = rui::sections()
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

#[test]
fn case_ids_and_descriptions_follow_the_house_rules() {
    let mut seen = BTreeSet::new();
    for section in rui::sections() {
        assert!(section.id.starts_with("rui."), "{}", section.id);
        for case in &section.cases {
            assert!(seen.insert(case.id.clone()), "duplicate id {}", case.id);
            assert!(
                case.id.starts_with(&format!("{}.", section.id)),
                "{} outside {}",
                case.id,
                section.id
            );
            assert!(
                case.description.chars().count() <= 70,
                "{}: description too long",
                case.id
            );
            // A framed case lists its framing as a profile; a framing-neutral one (issue 15)
            // lists none and feeds records only.
            match case.setup.get("framing").and_then(Value::as_str) {
                Some(framing) => assert!(
                    case.profiles.iter().any(|p| p == framing),
                    "{}: framing {framing} not in profiles",
                    case.id
                ),
                None => {
                    assert!(
                        case.profiles.is_empty(),
                        "{}: neutral with profiles",
                        case.id
                    );
                    assert!(
                        case.steps
                            .iter()
                            .all(|s| !matches!(s["feed"].as_str(), Some("bytes" | "message"))),
                        "{}: a neutral case feeds records only",
                        case.id
                    );
                }
            }
        }
    }
    assert!(seen.len() >= 150, "only {} rui cases", seen.len());
}

/// Codes a case expects as a result, outside any `one-of` (a definite result), and inside one.
fn codes_in(value: &Value, definite: bool, found: &mut Vec<(String, bool)>) {
    match value {
        Value::Object(map) => {
            let alternatives = map.get("$match").and_then(Value::as_str) == Some("one-of");
            for (key, inner) in map {
                if key == "code" {
                    if let Some(code) = inner.as_str() {
                        found.push((code.to_string(), definite));
                    }
                }
                codes_in(inner, definite && !alternatives, found);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| codes_in(v, definite, found)),
        Value::String(text) if !definite => found.push((text.clone(), false)),
        _ => {}
    }
}

/// Codes that only IMPL-DEFINED entries list: never the one result of a case, always one of the
/// accepted results, so their alternatives are what counts.
fn open_codes() -> BTreeSet<String> {
    let register = Register::load(&root().join("suites").join("register")).expect("register loads");
    registered_codes()
        .into_iter()
        .filter(|code| {
            register
                .requirements
                .iter()
                .filter(|r| r.codes.contains(code))
                .all(|r| r.strictness == "IMPL-DEFINED")
        })
        .collect()
}

fn registered_codes() -> BTreeSet<String> {
    let register = Register::load(&root().join("suites").join("register")).expect("register loads");
    register
        .requirements
        .iter()
        .filter(|r| r.id.starts_with("PRJ-RUI-"))
        .flat_map(|r| r.codes.iter().cloned())
        .collect()
}

#[test]
fn every_stable_code_is_the_result_of_two_cases() {
    let registered = registered_codes();
    let open = open_codes();
    assert!(
        registered.len() >= 30,
        "project-rui.toml lists {} codes",
        registered.len()
    );
    let mut cases_per_code: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for section in rui::sections() {
        for case in &section.cases {
            let mut found = Vec::new();
            for step in case.steps.iter().filter(|s| s.get("expect").is_some()) {
                codes_in(&step["is"], true, &mut found);
            }
            for (code, definite) in found {
                let upper =
                    code.chars().all(|c| c.is_ascii_uppercase() || c == '_') && code.contains('_');
                if definite || upper {
                    assert!(
                        registered.contains(&code),
                        "{} expects unregistered code {code}",
                        case.id
                    );
                }
                if definite || (upper && open.contains(&code)) {
                    cases_per_code
                        .entry(code)
                        .or_default()
                        .insert(case.id.clone());
                }
            }
        }
    }
    let thin: Vec<String> = registered
        .iter()
        .filter(|c| cases_per_code.get(*c).map_or(0, BTreeSet::len) < 2)
        .map(|c| format!("{c}: {}", cases_per_code.get(c).map_or(0, BTreeSet::len)))
        .collect();
    assert!(thin.is_empty(), "codes with fewer than two cases: {thin:?}");
    for (code, cases) in &cases_per_code {
        println!("{code:<28} {}", cases.len());
    }
}

#[test]
fn sections_and_case_counts() {
    let mut total = 0;
    for section in rui::sections() {
        println!("{:<28} {}", section.id, section.cases.len());
        total += section.cases.len();
    }
    println!("total {total}");
}

/// A check whose mismatch is a failure is never attributed to a RECOMMENDED requirement, and a
/// REQUIRED check never to an IMPL-DEFINED one (checks inherit the case's ids unless they name
/// their own), so the certification report never counts a point at the wrong level.
#[test]
fn checks_are_attributed_to_requirements_of_their_level() {
    let register = Register::load(&root().join("suites").join("register")).expect("register loads");
    let level: BTreeMap<&str, &str> = register
        .requirements
        .iter()
        .map(|r| (r.id.as_str(), r.strictness.as_str()))
        .collect();
    let mut problems = Vec::new();
    for section in rui::sections() {
        for case in &section.cases {
            for (i, step) in case
                .steps
                .iter()
                .enumerate()
                .filter(|(_, s)| s.get("expect").is_some())
            {
                let strictness = step
                    .get("strictness")
                    .and_then(Value::as_str)
                    .unwrap_or(case.strictness.as_str());
                let ids: Vec<String> = match step.get("requirements").and_then(Value::as_array) {
                    Some(ids) => ids
                        .iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect(),
                    None => case.requirements.clone(),
                };
                for id in &ids {
                    let required_level = level.get(id.as_str()).copied().unwrap_or("");
                    let wrong = (strictness != "RECOMMENDED" && required_level == "RECOMMENDED")
                        || (strictness == "REQUIRED" && required_level == "IMPL-DEFINED");
                    if wrong {
                        problems.push(format!(
                            "{} step {i}: {strictness} check attributed to {required_level} {id}",
                            case.id
                        ));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
