//! The HTML certification report and the way from a vector to the model (issue 19), without a
//! browser (harness/browser tests the page in Chromium): `run --html` and `report --html
//! REPORT.json` write the same page, which carries every requirement of the register and escapes
//! whatever text a report holds; a report of other vectors is refused; `explain CASE --model`
//! prints the Explorer path of a generated case, and every generated case's provenance replays in
//! the model `model-check explore` serves.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use harness::loader::Vectors;

fn conformance(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conformance")).args(args).env("NO_COLOR", "1").output().expect("runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("harness-html-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A run of one section against the reference with an injected fault (some cases fail), made
/// once for every test: its JSON report and its page.
fn failing_run() -> (PathBuf, PathBuf) {
    static RUN: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    RUN.get_or_init(|| {
        let dir = scratch("run");
        let (json, html) = (dir.join("r.json"), dir.join("r.html"));
        let output = conformance(&[
            "run", "--quiet", "--section", "rcip.policy-race", "--report", path(&json), "--html", path(&html),
            "--adapter", "--", env!("CARGO_BIN_EXE_reference-driver"), "--fault", "binding-recheck-skipped",
        ]);
        assert_eq!(output.status.code(), Some(1), "{}", text(&output));
        (json, html)
    })
    .clone()
}

#[test]
fn the_page_is_a_view_of_the_json_report_with_the_whole_register() {
    let dir = scratch("view");
    let (json, html) = failing_run();
    let again = dir.join("again.html");
    let output = conformance(&["report", "--html", path(&again), path(&json)]);
    assert_eq!(output.status.code(), Some(1), "a report with failures exits 1: {}", text(&output));
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(page, std::fs::read_to_string(&again).unwrap(), "run --html and report --html agree");

    let vectors = Vectors::load(&harness::bundled_vectors()).unwrap();
    for id in vectors.requirements.keys() {
        assert!(page.contains(&format!("id=\"req-{id}\"")), "{id} is on the map");
    }
    assert!(page.contains("data-status=\"fail\""), "failing requirements are coloured");
    assert!(page.contains("data-status=\"untested\""), "a one-section run leaves requirements untested");
    assert!(page.contains("not certified (partial run"), "{}", &page[..2000]);
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let failing = report["cases"].as_array().unwrap().iter().find(|c| c["verdict"] == "fail").unwrap();
    let id = failing["id"].as_str().unwrap();
    assert!(page.contains(&format!("<details class=\"case\" id=\"case-{id}\"")));
    // The causes first (issue 27), then the map; a case's details are data the page's script
    // builds them from: the diff's lines are there once each.
    assert!(page.find("<details class=\"group\" id=\"cause-1\"").unwrap() < page.find("<h2 id=\"map\">").unwrap());
    assert!(page.contains("\"--- expected\"") && page.contains("\"+++ actual\""), "the diff's lines are in the data");
    assert!(!page.contains("<pre class=\"diff\""), "no diff is written as markup");
    assert!(!page.contains("src=\"http") && !page.contains("href=\"http"), "no external asset");
}

#[test]
fn any_text_in_a_report_is_escaped() {
    let dir = scratch("escape");
    let (json, _) = failing_run();
    let mut report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let hostile = "</pre><script>alert(1)</script><img src=x onerror=alert(2)>\"'&";
    let case = report["cases"].as_array_mut().unwrap().iter_mut().find(|c| c["verdict"] == "fail").unwrap();
    case["reason"] = hostile.into();
    case["differences"][0]["actual"] = serde_json::json!({ "code": hostile });
    case["differences"][0]["mismatches"][0]["reason"] = hostile.into();
    report["implementation"]["name"] = hostile.into();
    let tampered = dir.join("tampered.json");
    std::fs::write(&tampered, report.to_string()).unwrap();
    let html = dir.join("tampered.html");
    let output = conformance(&["report", "--html", path(&html), path(&tampered)]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(page.matches("<script").count(), 2, "only the page's own script and its data");
    assert_eq!(page.matches("</script>").count(), 2, "nothing ends a script element early");
    assert!(page.contains("<script type=\"application/json\" id=\"report-data\">"));
    assert!(!page.contains("<img"));
    assert!(page.contains("&lt;script&gt;alert(1)&lt;"), "shown as text");
    assert!(page.contains("\\u003c/pre\\u003e\\u003cscript\\u003ealert(1)"), "in the data as JSON escapes");
}

#[test]
fn a_report_of_other_vectors_or_not_a_report_is_refused() {
    let dir = scratch("refuse");
    let (json, _) = failing_run();
    let mut report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    report["suite"]["vectorsDigest"] = "0".repeat(64).into();
    let other = dir.join("other.json");
    std::fs::write(&other, report.to_string()).unwrap();
    let output = conformance(&["report", "--html", path(&dir.join("x.html")), path(&other)]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output).contains("made from other vectors"), "{}", text(&output));
    std::fs::write(dir.join("junk.json"), "{}").unwrap();
    let output = conformance(&["report", "--html", path(&dir.join("y.html")), path(&dir.join("junk.json"))]);
    assert_eq!(output.status.code(), Some(2));
    let output = conformance(&["report", "--html", path(&dir.join("z.html"))]);
    assert_eq!(output.status.code(), Some(2), "a report or --merge is needed");
}

#[test]
fn explain_model_prints_the_explorer_path_of_a_generated_case() {
    let output = conformance(&["explain", "rui.model-transaction.regression-7118e302.001", "--model"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let out = text(&output);
    assert!(out.contains("model path (a shrunk differential-test failure, seed 0x5eed0005"), "{out}");
    assert!(out.contains("model-check -- explore transaction --port 3000"), "{out}");
    assert!(out.contains("http://127.0.0.1:3000/#/steps/0/"), "{out}");
    let output = conformance(&["explain", "rcip.policy-race.unbind.001", "--model"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output).contains("written by hand"), "{}", text(&output));
}

#[test]
fn every_generated_case_replays_in_the_model_explore_serves() {
    let vectors = Vectors::load(&harness::bundled_vectors()).unwrap();
    let generated: Vec<_> = vectors.cases.iter().filter(|c| c.provenance.is_some()).collect();
    assert!(generated.len() > 300, "the model-generated vectors load with their provenance");
    for model in ["model::invocation", "model::assist", "model::transaction"] {
        assert!(generated.iter().any(|c| c.provenance.as_ref().unwrap().by.starts_with(model)), "{model}");
    }
    for case in generated {
        let text = harness::explain::model_path(case).unwrap_or_else(|e| panic!("{e}"));
        let steps = case.provenance.as_ref().unwrap().path.len();
        assert!(text.matches("action ").count() >= steps.saturating_sub(1), "{}: {text}", case.id);
    }
}
