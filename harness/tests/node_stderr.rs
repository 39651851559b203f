//! The implementation's own words under its failures (issue 27 §4), through the Node adapter: a
//! JavaScript implementation whose `bindCapability` throws a named error
//! (`tests/node-fixtures/bind-throws.mjs`: `class DataCloneError extends Error`, message naming the
//! capability) is run with two jobs, each adapter process serving many cases one after another.
//! The console shows the error's class name and message under the failing case, after its diff;
//! the JSON report keeps it in the case's `stderr`; each case's stderr names only capabilities that
//! case binds (attribution across a reused process and two jobs); a passing case keeps its stderr
//! only with `--keep-stderr`; and the failures form one cause, "first differ at `host bind`".
//!
//! Needs node (20 or later) and the Node adapter's and the subject's packages: they are installed
//! with `npm ci` when missing, as `harness/node/subject/certify.sh` does.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// The sections run: availability answers bind (and fail), the binding cases include binds that
/// must throw (and pass, with something on stderr).
const SECTIONS: [&str; 4] = ["rcip.availability", "rcip.binding", "rcip.lifecycle-order", "rcip.list"];

fn run(dir: &Path, extra: &[&str]) -> (String, Value) {
    common::node_packages();
    let report = dir.join("report.json");
    let mut args: Vec<String> = vec!["run".into(), "--jobs".into(), "2".into()];
    for section in SECTIONS {
        args.extend(["--section".into(), section.into()]);
    }
    args.extend(extra.iter().map(|a| a.to_string()));
    args.extend(["--report".into(), report.display().to_string(), "--adapter".into(), "--".into(), "node".into()]);
    for arg in ["harness/node/adapter.mjs", "--name", "bind-throws", "--version", "1", "harness/tests/node-fixtures/bind-throws.mjs"] {
        args.push(arg.into());
    }
    let output = Command::new(env!("CARGO_BIN_EXE_conformance")).args(&args).current_dir(common::repo()).env("NO_COLOR", "1").output().expect("runs");
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&report).expect("the report")).expect("JSON");
    (stdout, report)
}

/// The capabilities each case binds with an availability answer (which the fixture refuses).
fn bound_with_availability() -> std::collections::BTreeMap<String, BTreeSet<String>> {
    let vectors = harness::loader::Vectors::load(&harness::bundled_vectors()).expect("the bundled vectors");
    vectors
        .cases
        .iter()
        .map(|case| {
            let bound = case
                .body()
                .1
                .iter()
                .filter(|s| s["host"] == "bind" && s.get("availability").is_some())
                .filter_map(|s| s["capability"].as_str().map(str::to_string))
                .collect();
            (case.id.clone(), bound)
        })
        .collect()
}

const THREW: &str = "[node-adapter] bindCapability threw: DataCloneError: ";

#[test]
fn a_named_error_the_implementation_threw_shows_under_its_failing_case() {
    let dir = common::scratch("node-stderr", "named");
    let (stdout, report) = run(&dir, &[]);
    let bound = bound_with_availability();
    let cases = report["cases"].as_array().expect("cases");
    let mut failing_with_words = 0;
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let verdict = case["verdict"].as_str().unwrap();
        let stderr = case["stderr"].as_str();
        if verdict == "pass" {
            assert!(stderr.is_none(), "{id} passed: its stderr is kept only with --keep-stderr");
            continue;
        }
        // Attribution: every refused bind in a case's stderr is one of that case's own binds.
        for line in stderr.unwrap_or("").lines().filter(|l| l.starts_with(THREW)) {
            let capability = line[THREW.len()..].split(':').next().unwrap();
            assert!(bound[id].contains(capability), "{id}: its stderr names {capability}, which it does not bind: {line}");
        }
        if !bound[id].is_empty() {
            let stderr = stderr.unwrap_or_else(|| panic!("{id} ({verdict}) binds with an availability answer and kept no stderr"));
            for capability in &bound[id] {
                let words = format!("{THREW}{capability}: the availability answer could not be cloned");
                assert!(stderr.contains(&words), "{id}: {words:?} missing from\n{stderr}");
            }
            failing_with_words += 1;
        }
    }
    assert!(failing_with_words >= 10, "{failing_with_words} cases");

    // The console: one cause for the bug, its example's diff, then the implementation's words.
    let groups = report["groups"].as_array().expect("groups");
    let main = &groups[0];
    assert_eq!(main["at"], "host bind", "{main}");
    assert_eq!(main["mismatches"][0]["shape"], "the call threw", "{main}");
    assert!(main["cases"].as_array().unwrap().len() >= 10, "{main}");
    let example = main["representative"].as_str().unwrap();
    let title = main["title"].as_str().unwrap();
    assert!(stdout.contains(&format!("== cause 1 of 1: {title}")), "{stdout}");
    let shown = &stdout[stdout.find(&format!("\n{example} fail\n")).unwrap_or_else(|| panic!("{example} not shown:\n{stdout}"))..];
    let diff = shown.find("+  \"threw\": true").expect("its diff");
    let words = shown.find(&format!("  adapter stderr:\n    {THREW}")).expect("its stderr");
    assert!(diff < words, "the stderr comes under the diff:\n{shown}");
    // The other cases of the cause are listed by id, without their diffs.
    let other = main["cases"][1].as_str().unwrap();
    assert!(stdout.contains(&format!("\n  {other}\n")), "{stdout}");
    assert!(!stdout.contains(&format!("\n{other} fail\n")), "only one diff per cause without --all-diffs:\n{stdout}");
}

#[test]
fn keep_stderr_keeps_it_for_passing_cases_too() {
    let dir = common::scratch("node-stderr", "keep");
    let (_, report) = run(&dir, &["--keep-stderr", "--all-diffs"]);
    // A bind that must throw (a second live binding, CL-B20-1) passes, and the adapter logged it.
    let kept: Vec<&Value> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["verdict"] == "pass" && c["stderr"].as_str().is_some_and(|s| s.contains("bindCapability threw: ")))
        .collect();
    assert!(!kept.is_empty(), "no passing case kept its stderr");
}
