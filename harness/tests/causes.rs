//! Failures grouped by cause (issue 27 §1) on realistic many-failure runs: the bundled reference
//! with an injected fault of its catalog, every case run in-process. The fault
//! `availability-clone-rejects` (an availability answer that structuredClone cannot copy makes
//! the capability unavailable) fails a hundred cases with one symptom: the report has one cause
//! holding most of them, every view lists it first, the console prints one diff for it and the
//! other cases by id, and the grouping is the same whatever order the results come in. A run with
//! more than 150 failing cases (two faults' failures joined) gives an HTML page under 2 MB, and a
//! JSON report written before `groups` and `stderr` existed gives the same views.

use std::collections::BTreeSet;

use harness::adapter::Adapter as _;
use harness::adapters::reference::ReferenceAdapter;
use harness::causes::group;
use harness::console::render_groups;
use harness::loader::Vectors;
use harness::report::{Run, Scope};
use harness::runner::{run_case, unsupported_reason, CaseResult};
use harness::verdict::Verdict;
use reference::choices::{Choices, Fault};
use serde_json::Value;

fn vectors() -> Vectors {
    let vectors = Vectors::load(&harness::bundled_vectors()).expect("the bundled vectors load");
    assert!(vectors.errors.is_empty());
    vectors
}

/// Every case's result against the reference with `fault` (unsupported cases as such).
fn results(vectors: &Vectors, fault: &str) -> Vec<CaseResult> {
    let choices = Choices::default().with_fault(Fault::named(fault).expect("a fault of the catalog"));
    let mut adapter = ReferenceAdapter::with_choices(choices);
    vectors
        .cases
        .iter()
        .map(|case| match unsupported_reason(&adapter, case) {
            Some(reason) => CaseResult::not_run(case, Verdict::Unsupported, reason),
            None => run_case(&mut adapter, case),
        })
        .collect()
}

fn run<'v>(vectors: &'v Vectors, results: Vec<CaseResult>, fault: &str) -> Run<'v> {
    let mut implementation = ReferenceAdapter::new().implementation().clone();
    implementation.name = format!("reference (fault {fault})");
    Run { vectors, implementation, results: vectors.cases.iter().zip(results).collect(), scope: Scope::complete_official() }
}

fn not_passing(results: &[CaseResult]) -> BTreeSet<String> {
    results.iter().filter(|r| matches!(r.verdict, Verdict::Fail | Verdict::Errored | Verdict::NonStrict)).map(|r| r.id.clone()).collect()
}

#[test]
fn one_cause_holds_most_of_what_availability_clone_rejects_fails() {
    let vectors = vectors();
    let results = results(&vectors, "availability-clone-rejects");
    let failing = not_passing(&results);
    assert!(failing.len() >= 20, "the fault fails many cases: {}", failing.len());
    let run = run(&vectors, results.clone(), "availability-clone-rejects");
    let report = run.to_json();
    let schema: Value = serde_json::from_str(include_str!("../report.schema.json")).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&report).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");

    // Every case that did not pass is in exactly one group.
    let groups = report["groups"].as_array().expect("groups");
    let mut grouped = BTreeSet::new();
    for g in groups {
        for id in g["cases"].as_array().unwrap() {
            assert!(grouped.insert(id.as_str().unwrap().to_string()), "{id} is in two groups");
        }
        assert_eq!(g["representative"], g["cases"][0]);
        // The fault has one symptom: every first difference found the capability unavailable.
        assert!(g["title"].as_str().unwrap().contains("CAPABILITY_UNAVAILABLE"), "{g}");
    }
    assert_eq!(grouped, failing);

    // The main cause: one group, first, holding more than half of the failing cases.
    let main = &groups[0];
    let size = main["cases"].as_array().unwrap().len();
    println!("{} cases did not pass; {} groups; the first holds {size}: {}", failing.len(), groups.len(), main["title"]);
    assert_eq!(main["verdict"], "fail");
    assert!(size * 2 > failing.len(), "{size} of {}", failing.len());
    assert!(groups[1..].iter().all(|g| g["cases"].as_array().unwrap().len() < size));

    // Deterministic: the same groups whatever order the results come in.
    let reversed: Vec<&CaseResult> = results.iter().rev().collect();
    assert_eq!(group(reversed), run.groups());

    // The console: the cause's title, one case's diffs, the others by id.
    let shown: Vec<&CaseResult> = results.iter().collect();
    let text = render_groups(&run.groups(), &shown, false);
    let title = main["title"].as_str().unwrap();
    assert!(text.contains(&format!("== cause 1 of {}: {title}", groups.iter().filter(|g| g["cases"].as_array().unwrap().len() > 1).count())), "{text}");
    let ids: Vec<&str> = main["cases"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert!(text.contains(&format!("\n{} fail\n", ids[0])), "the representative's diffs");
    for id in &ids[1..] {
        assert!(text.contains(&format!("\n  {id}\n")), "{id} listed");
        assert!(!text.contains(&format!("\n{id} fail\n")), "{id}: one diff per cause");
    }
    let everything = render_groups(&run.groups(), &shown, true);
    for id in &failing {
        assert!(everything.contains(&format!("\n{id} ")), "--all-diffs shows {id}");
    }
    println!("console: {} lines for the groups, {} with --all-diffs", text.lines().count(), everything.lines().count());
    assert!(text.lines().count() * 5 < everything.lines().count());

    // The other views list the causes too, first among the failures.
    let markdown = harness::certification::render(&run);
    let causes = markdown.find("## Failures by cause").expect("a Markdown section");
    assert!(causes < markdown.find("## Cases that did not pass").unwrap());
    assert!(markdown.contains(&format!("| 1 | {size} | ")), "{markdown}");
    let xml = harness::junit::render(&run).unwrap();
    assert!(xml.contains(r#"<property name="cause.1""#) && xml.contains(r#"<property name="cause" value="1"/>"#), "JUnit properties");
    let page = harness::html::render(&run).unwrap();
    let causes = page.find(r#"<h2 id="causes">"#).expect("an HTML section");
    assert!(causes < page.find(r#"<h2 id="map">"#).unwrap(), "the causes come before the map");
    assert!(page.contains(r#"<details class="group" id="cause-1""#));
}

/// A run with more than 150 cases that did not pass: the failures of three faults joined, each
/// case taking its result under the first fault that fails it.
#[test]
fn the_page_of_a_run_with_150_failing_cases_stays_under_2_mb() {
    let vectors = vectors();
    // Three faults: since model cases draw their host features per case (issue 27 §2), no one
    // fault fails 150 cases any more.
    let mut joined = results(&vectors, "availability-clone-rejects");
    for fault in ["approval-skips-policy", "listener-throw-stops-others"] {
        for (result, other) in joined.iter_mut().zip(results(&vectors, fault)) {
            if result.verdict == Verdict::Pass {
                *result = other;
            }
        }
    }
    let failing = not_passing(&joined).len();
    assert!(failing >= 150, "{failing}");
    let run = run(&vectors, joined, "joined");
    let page = harness::html::render(&run).unwrap();
    println!("HTML page of a run with {failing} cases not passing: {} bytes", page.len());
    assert!(page.len() < 2_000_000, "{} bytes", page.len());
}

/// A report of an older version has neither `groups` nor `stderr`: `report` recomputes the groups
/// from its cases, so every view is the same.
#[test]
fn a_report_without_groups_gives_the_same_views() {
    let vectors = vectors();
    let results = results(&vectors, "availability-clone-rejects");
    let run = run(&vectors, results, "availability-clone-rejects");
    let mut report = run.to_json();
    let mut old = report.clone();
    old.as_object_mut().unwrap().remove("groups");
    let path = std::path::Path::new("old.json");
    let reread = harness::merge::single(&vectors, path, &old).expect("an older report loads");
    assert_eq!(reread.to_json(), report);
    assert_eq!(harness::html::render(&reread).unwrap(), harness::html::render(&run).unwrap());
    assert_eq!(harness::certification::render(&reread), harness::certification::render(&run));
    // A case's stderr goes through the report and back.
    report["cases"][0].as_object_mut().unwrap().insert("stderr".into(), Value::from("[x] it said so"));
    let reread = harness::merge::single(&vectors, path, &report).unwrap();
    assert_eq!(reread.results[0].1.stderr.as_deref(), Some("[x] it said so"));
}
