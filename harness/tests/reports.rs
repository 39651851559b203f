//! Reports and expectations against a scripted adapter: the JSON report validates against
//! harness/report.schema.json, JUnit marks failures and skips, the certification level never
//! counts a skip, an unsupported or an errored case as a pass, and the expectations file turns
//! listed failures into xfail while reporting stale entries.

use std::collections::BTreeSet;
use std::path::PathBuf;

use harness::adapter::{Adapter, AdapterError, Implementation, Protocol, Reply};
use harness::certification;
use harness::expectations::Expectations;
use harness::loader::{Case, Vectors};
use harness::report::Run;
use harness::runner::{run_case, CaseResult};
use harness::verdict::Verdict;
use serde_json::{json, Value};

/// Observes `{"status": <the case's scripted status>}` for every expectation.
struct Echo {
    implementation: Implementation,
    answer: Value,
}

impl Adapter for Echo {
    fn implementation(&self) -> &Implementation {
        &self.implementation
    }
    fn start(&mut self, _: &str, _: Protocol, setup: &Value) -> Result<Reply, AdapterError> {
        self.answer = setup.get("answer").cloned().unwrap_or(Value::Null);
        if self.answer == json!("broken") {
            return Err(AdapterError("broken".into()));
        }
        Ok(Reply::Done)
    }
    fn step(&mut self, _: &Value) -> Result<Reply, AdapterError> {
        Ok(Reply::Observed(self.answer.clone()))
    }
}

fn echo() -> Echo {
    Echo {
        implementation: Implementation {
            name: "echo".into(),
            version: "1".into(),
            protocols: [Protocol::Rcip].into_iter().collect(),
            profiles: BTreeSet::from(["events".to_string()]),
            ..Implementation::default()
        },
        answer: Value::Null,
    }
}

fn case(id: &str, strictness: &str, profiles: &[&str], answer: Value) -> Case {
    Case {
        id: id.into(),
        protocol: Protocol::Rcip,
        section: id.rsplitn(3, '.').nth(2).unwrap_or("rcip").into(),
        file: PathBuf::from("t.json"),
        description: "d".into(),
        requirements: vec!["CL-B05-1".into()],
        strictness: strictness.into(),
        profiles: profiles.iter().map(|p| p.to_string()).collect(),
        setup: json!({ "answer": answer }),
        steps: vec![json!({"expect": "outcome", "of": "i1", "is": "ok"})],
        notes: None,
        raw: Value::Null,
    }
}

fn judge(cases: &[Case]) -> Vec<CaseResult> {
    let mut adapter = echo();
    cases.iter().map(|c| run_case(&mut adapter, c)).collect()
}

fn vectors(cases: Vec<Case>) -> Vectors {
    Vectors { digest: "0".repeat(64), cases, ..Vectors::default() }
}

fn run<'v>(vectors: &'v Vectors, results: Vec<CaseResult>) -> Run<'v> {
    Run { vectors, implementation: echo().implementation, results: vectors.cases.iter().zip(results).collect() }
}

#[test]
fn the_json_report_validates_against_its_schema() {
    let v = vectors(vec![
        case("rcip.a.x.001", "REQUIRED", &[], json!("ok")),
        case("rcip.a.x.002", "REQUIRED", &[], json!("no")),
        case("rcip.a.x.003", "REQUIRED", &[], json!("broken")),
    ]);
    let results = judge(&v.cases);
    let report = run(&v, results).to_json();
    let schema: Value = serde_json::from_str(include_str!("../report.schema.json")).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&report).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(report["summary"]["total"]["fail"], json!(1));
    assert_eq!(report["summary"]["total"]["errored"], json!(1));
}

#[test]
fn certification_needs_every_required_case_to_pass() {
    let passing = vectors(vec![
        case("rcip.a.x.001", "REQUIRED", &[], json!("ok")),
        case("rcip.a.x.002", "RECOMMENDED", &[], json!("ok")),
        case("rcip.a.x.003", "PROFILE", &["events"], json!("ok")),
        case("rcip.a.x.004", "PROFILE", &["assist"], json!("ok")),
    ]);
    let results = judge(&passing.cases);
    assert_eq!(
        certification::level(&run(&passing, results), Protocol::Rcip),
        "RCIP 1.0: REQUIRED + RECOMMENDED; profiles: events"
    );

    let recommended_differs = vectors(vec![
        case("rcip.a.x.001", "REQUIRED", &[], json!("ok")),
        case("rcip.a.x.002", "RECOMMENDED", &[], json!("no")),
    ]);
    let mut results = judge(&recommended_differs.cases);
    results[1].verdict = Verdict::NonStrict;
    assert_eq!(certification::level(&run(&recommended_differs, results), Protocol::Rcip), "RCIP 1.0: REQUIRED");

    for spoiled in [Verdict::Skip, Verdict::Unsupported, Verdict::Errored, Verdict::Xfail, Verdict::Fail] {
        let v = vectors(vec![case("rcip.a.x.001", "REQUIRED", &[], json!("ok"))]);
        let mut results = judge(&v.cases);
        results[0].verdict = spoiled;
        let level = certification::level(&run(&v, results), Protocol::Rcip);
        assert!(level.contains("not certified"), "{spoiled}: {level}");
    }
    let v = vectors(vec![case("rcip.a.x.001", "REQUIRED", &[], json!("ok"))]);
    let results = judge(&v.cases);
    assert_eq!(certification::level(&run(&v, results), Protocol::Rui), "Rixx UI 0.1: not implemented");
}

#[test]
fn a_filtered_run_is_never_certified() {
    let v = vectors(vec![
        case("rcip.a.x.001", "REQUIRED", &[], json!("ok")),
        case("rcip.a.x.002", "REQUIRED", &[], json!("no")),
    ]);
    // Only the passing case was selected: its result is good, but the failing one never ran.
    let selected = Run { vectors: &v, implementation: echo().implementation, results: vec![(&v.cases[0], judge(&v.cases[..1]).remove(0))] };
    assert_eq!(
        certification::level(&selected, Protocol::Rcip),
        "RCIP 1.0: not certified (partial run: 1 of 2 cases selected)"
    );
}

#[test]
fn the_markdown_report_lists_requirements_and_failures() {
    let v = vectors(vec![case("rcip.a.x.001", "REQUIRED", &[], json!("ok")), case("rcip.a.x.002", "REQUIRED", &[], json!("no"))]);
    let results = judge(&v.cases);
    let text = certification::render(&run(&v, results));
    assert!(text.contains("| CL-B05-1 | ? | fail | 2 |"), "{text}");
    assert!(text.contains("| rcip.a.x.002 | fail |"), "{text}");
    assert!(text.contains("not certified"), "{text}");
}

#[test]
fn junit_marks_failures_errors_and_skips() {
    let v = vectors(vec![
        case("rcip.a.x.001", "REQUIRED", &[], json!("ok")),
        case("rcip.a.x.002", "REQUIRED", &[], json!("no")),
        case("rcip.a.x.003", "REQUIRED", &[], json!("broken")),
        case("rcip.a.x.004", "PROFILE", &["assist"], json!("ok")),
    ]);
    let results = judge(&v.cases);
    let xml = harness::junit::render(&run(&v, results)).unwrap();
    assert!(xml.contains("<failure"), "{xml}");
    assert!(xml.contains("<error"), "{xml}");
    assert!(xml.contains("<skipped"), "{xml}");
    assert!(xml.contains("tests=\"4\""), "{xml}");
}

#[test]
fn expectations_turn_listed_failures_into_xfail_and_report_stale_entries() {
    let cases = vec![case("rcip.a.x.001", "REQUIRED", &[], json!("ok")), case("rcip.a.x.002", "REQUIRED", &[], json!("no"))];
    let expectations: Expectations = toml::from_str(
        r#"
        [[xfail]]
        id = "rcip.a.x.002"
        reason = "known"
        [[xfail]]
        id = "rcip.a.x.001"
        reason = "fixed since"
        [[skip]]
        prefix = "rcip.nothing."
        reason = "stale"
        "#,
    )
    .unwrap();
    let mut results = judge(&cases);
    let problems = expectations.apply(&cases, &mut results);
    assert_eq!(results[1].verdict, Verdict::Xfail);
    assert_eq!(results[0].verdict, Verdict::Pass);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems.iter().any(|p| p.contains("rcip.nothing.*")));
    assert!(problems.iter().any(|p| p.contains("rcip.a.x.001") && p.contains("pass")));
}
