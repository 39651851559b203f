//! Reports and expectations against a scripted adapter: the JSON report validates against
//! harness/report.schema.json, JUnit marks failures and skips, the certification level never
//! counts a skip, an unsupported or an errored case as a pass, and the expectations file turns
//! listed failures into xfail while reporting stale entries.

mod common;

use std::collections::BTreeSet;
use std::path::PathBuf;

use harness::adapter::{Adapter, AdapterError, Implementation, Protocol, Reply};
use harness::certification;
use harness::expectations::{baseline, Expectations};
use harness::loader::{Case, CaseParts, LoadError, Vectors};
use harness::report::{Run, Scope};
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
    let steps = vec![json!({"expect": "outcome", "of": "i1", "is": "ok"})];
    Case::from(CaseParts {
        file: PathBuf::from("t.json"),
        strictness: strictness.into(),
        profiles: profiles.iter().map(|p| p.to_string()).collect(),
        ..common::test_case(id, Protocol::Rcip, json!({ "answer": answer }), steps)
    })
}

fn judge(cases: &[Case]) -> Vec<CaseResult> {
    let mut adapter = echo();
    cases.iter().map(|c| run_case(&mut adapter, c)).collect()
}

fn vectors(cases: Vec<Case>) -> Vectors {
    Vectors { digest: "0".repeat(64), cases, ..Vectors::default() }
}

fn run<'v>(vectors: &'v Vectors, results: Vec<CaseResult>) -> Run<'v> {
    Run {
        vectors,
        implementation: echo().implementation,
        results: vectors.cases.iter().zip(results).collect(),
        scope: Scope::complete_official(),
    }
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
    let selected = Run {
        vectors: &v,
        implementation: echo().implementation,
        results: vec![(&v.cases[0], judge(&v.cases[..1]).remove(0))],
        scope: Scope::complete_official(),
    };
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

#[test]
fn only_the_complete_official_set_with_no_selection_is_certified() {
    let v = vectors(vec![case("rcip.a.x.001", "REQUIRED", &[], json!("ok"))]);
    let certified = |scope: Scope| {
        let mut run = run(&v, judge(&v.cases));
        run.scope = scope;
        certification::level(&run, Protocol::Rcip)
    };
    assert_eq!(certified(Scope::complete_official()), "RCIP 1.0: REQUIRED + RECOMMENDED");
    let other_set = certified(Scope { official: false, ..Scope::default() });
    assert!(other_set.contains("not certified") && other_set.contains("not the official"), "{other_set}");
    // A selection certifies nothing even when it happens to select every case.
    let filtered = certified(Scope { selection: vec!["--filter rcip.".into()], ..Scope::complete_official() });
    assert_eq!(filtered, "RCIP 1.0: not certified (partial run selected by --filter rcip.: 1 of the 1 RCIP 1.0 cases ran; a certification needs a run without a selection)");
    let stopped = certified(Scope { stopped: Some("the run stopped".into()), ..Scope::complete_official() });
    assert!(stopped.contains("not certified (the run stopped"), "{stopped}");
    // The Markdown report says what the run covered.
    let mut partial = run(&v, judge(&v.cases));
    partial.scope = Scope { selection: vec!["--section rcip.a".into()], ..Scope::complete_official() };
    let text = certification::render(&partial);
    assert!(text.contains("| scope | 1 of 1 cases of the official vector set, selected by --section rcip.a |"), "{text}");
    // The bundled vectors are the official set of this build.
    let bundled = Vectors::load(&harness::bundled_vectors()).unwrap();
    assert!(bundled.is_official(), "digest {} vs {}", bundled.digest, harness::loader::OFFICIAL_DIGEST);
}

#[test]
fn junit_shows_load_errors_as_errors_and_escapes_what_xml_forbids() {
    let mut v = vectors(vec![case("rcip.a.x.001", "REQUIRED", &[], json!("ok"))]);
    v.errors.push(LoadError { file: PathBuf::from("rcip/broken.json"), pointer: "/cases/0/id".into(), message: "bad id".into() });
    let mut results = judge(&v.cases);
    results[0].verdict = Verdict::Errored;
    results[0].reason = Some("adapter said \u{FFFF}\u{1} and \u{FFFE}".into());
    let xml = harness::junit::render(&run(&v, results)).unwrap();
    assert!(xml.contains("load errors"), "{xml}");
    assert!(xml.contains("rcip/broken.json at /cases/0/id: bad id"), "{xml}");
    assert!(xml.contains("errors=\"2\""), "one load error and one errored case: {xml}");
    assert!(!xml.contains('\u{FFFF}') && !xml.contains('\u{1}') && !xml.contains('\u{FFFE}'), "{xml}");
    assert!(xml.contains("\\uffff\\u0001 and \\ufffe"), "{xml}");
}

#[test]
fn a_new_baseline_keeps_the_entries_that_still_apply() {
    let cases = vec![
        case("rcip.a.x.001", "REQUIRED", &[], json!("no")),
        case("rcip.a.x.002", "REQUIRED", &[], json!("no")),
        case("rcip.a.y.001", "REQUIRED", &[], json!("ok")),
        case("rcip.a.z.001", "REQUIRED", &[], json!("no")),
        case("rcip.c.x.001", "REQUIRED", &[], json!("no")),
        case("rcip.b.x.001", "REQUIRED", &[], json!("ok")),
    ];
    let expectations: Expectations = toml::from_str(
        r#"
        [[xfail]]
        prefix = "rcip.a.x."
        reason = "issue 1: \"quoted\""
        [[xfail]]
        prefix = "rcip.a.y."
        reason = "fixed since"
        [[xfail]]
        id = "rcip.gone.x.001"
        reason = "case removed"
        [[xfail]]
        id = "rcip.b.x.001"
        reason = "not run this time"
        [[skip]]
        prefix = "rcip.a.z."
        reason = "no transport"
        "#,
    )
    .unwrap();
    // The run selected every case but rcip.b.x.001.
    let mut results = judge(&cases[..5]);
    results[3] = CaseResult::not_run(&cases[3], Verdict::Skip, "listed as skipped");
    let _ = expectations.apply(&cases, &mut results);
    let written = baseline(&expectations, &cases, &results.iter().collect::<Vec<_>>(), "abc");
    let reread: Expectations = toml::from_str(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
    let xfail: Vec<(Option<&str>, Option<&str>, &str)> =
        reread.xfail.iter().map(|e| (e.id.as_deref(), e.prefix.as_deref(), e.reason.as_str())).collect();
    assert_eq!(
        xfail,
        vec![
            (None, Some("rcip.a.x."), "issue 1: \"quoted\""),
            (Some("rcip.b.x.001"), None, "not run this time"),
            (Some("rcip.c.x.001"), None, "baseline: fail when the baseline was taken"),
        ],
        "{written}"
    );
    assert_eq!(reread.skip.len(), 1, "{written}");
    assert_eq!(reread.skip[0].prefix.as_deref(), Some("rcip.a.z."));

    // A prefix entry whose cases now partly pass is narrowed to the ones still failing.
    let mut results = judge(&cases[..5]);
    results[1].verdict = Verdict::Pass;
    let _ = expectations.apply(&cases, &mut results);
    let written = baseline(&expectations, &cases, &results.iter().collect::<Vec<_>>(), "abc");
    let reread: Expectations = toml::from_str(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
    let ids: Vec<(&str, &str)> =
        reread.xfail.iter().filter_map(|e| e.id.as_deref().map(|id| (id, e.reason.as_str()))).collect();
    assert!(ids.contains(&("rcip.a.x.001", "issue 1: \"quoted\"")), "{written}");
    assert!(!ids.iter().any(|(id, _)| *id == "rcip.a.x.002"), "{written}");
    assert!(!reread.xfail.iter().any(|e| e.prefix.is_some()), "{written}");
    assert!(ids.iter().any(|(id, reason)| *id == "rcip.c.x.001" && reason.starts_with("baseline")), "{written}");
}

#[test]
fn the_markdown_report_passes_no_html_or_markup_from_adapters_or_vectors() {
    let v = vectors(vec![case("rcip.a.x.001", "REQUIRED", &[], json!("broken"))]);
    let mut results = judge(&v.cases);
    results[0].reason = Some("<script>alert(1)</script> | <img src=x onerror=alert(2)>\n[x](javascript:y) \x1b[2J".into());
    let mut run = run(&v, results);
    run.implementation.name = "<script>alert(3)</script>".into();
    let text = certification::render(&run);
    assert!(!text.contains("<script") && !text.contains("<img") && !text.contains('\x1b'), "{text}");
    assert!(text.contains("&lt;script&gt;alert(1)&lt;/script&gt; \\| &lt;img src=x onerror=alert(2)&gt; \\[x\\](javascript:y) \\u001b\\[2J |"), "{text}");
    assert!(text.contains("# Conformance report: &lt;script&gt;alert(3)&lt;/script&gt; 1"), "{text}");
}

#[test]
fn junit_writes_terminal_escape_sequences_as_text() {
    let v = vectors(vec![case("rcip.a.x.001", "REQUIRED", &[], json!("broken"))]);
    let mut results = judge(&v.cases);
    results[0].reason = Some("adapter said \x1b]0;owned\x07\x1b[2J".into());
    let xml = harness::junit::render(&run(&v, results)).unwrap();
    assert!(!xml.contains('\x1b'), "{xml}");
    assert!(xml.contains("adapter said \\u001b]0;owned\\u0007\\u001b[2J"), "{xml}");
}
