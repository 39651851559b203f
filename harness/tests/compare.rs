//! `conformance compare` (issue 31) on real runs: the bundled reference, its alternate readings
//! and the reference with an injected fault, over one small part of the suite. Checks what a spec
//! author reads from it (a requirement the fault breaks is flagged, the fault's cases are REQUIRED
//! disagreements listed first, an open point the alternate reads otherwise is split) and that it
//! refuses what cannot be compared. The browser test (harness/browser/test/compare.test.mjs)
//! checks the HTML page.

mod common;

use std::path::{Path, PathBuf};

use common::{conformance, scratch};
use serde_json::Value;

const SELECTION: [&str; 4] = ["--filter", "rcip.policy-race", "--filter", "rcip.binding"];
const FAULT: &str = "binding-recheck-skipped";

fn driver() -> &'static str {
    env!("CARGO_BIN_EXE_reference-driver")
}

/// Runs the selection against `subject` (extra `run` arguments) and returns the report's path.
fn report(dir: &Path, name: &str, subject: &[&str], status: i32) -> PathBuf {
    let path = dir.join(format!("{name}.json"));
    let mut args = vec!["run", "--quiet"];
    args.extend(SELECTION);
    args.extend(["--report", path.to_str().unwrap()]);
    args.extend(subject);
    let out = conformance(&args);
    assert_eq!(out.status.code(), Some(status), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    path
}

fn runs(dir: &Path) -> [PathBuf; 3] {
    [
        report(dir, "reference", &[], 0),
        report(dir, "alternate", &["--adapter", "--", driver(), "--choices", "alternate"], 0),
        report(dir, "fault", &["--adapter", "--", driver(), "--fault", FAULT], 1),
    ]
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_fault_is_a_required_disagreement_and_its_requirements_are_flagged() {
    let dir = scratch("compare", "fault");
    let [reference, alternate, fault] = runs(&dir);
    let markdown = dir.join("compare.md");
    let out = conformance(&[
        "compare",
        reference.to_str().unwrap(),
        alternate.to_str().unwrap(),
        fault.to_str().unwrap(),
        "--same-codebase",
        "reference,reference (alternate choices)",
        "--markdown",
        markdown.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("3 implementations (2 independent code bases)"), "{stdout}");
    let text = std::fs::read_to_string(&markdown).unwrap();

    // Every REQUIRED case the fault fails is a REQUIRED disagreement, and those come first.
    let failed: Vec<String> = read(&fault)["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["verdict"] == "fail" && c["strictness"] == "REQUIRED")
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect();
    assert!(!failed.is_empty(), "the fault fails a REQUIRED case of the selection");
    let disagreements = text.split("## Disagreements").nth(1).unwrap().split("\n## ").next().unwrap();
    let rows: Vec<&str> = disagreements.lines().filter(|l| l.starts_with("| rcip.")).collect();
    for id in &failed {
        let row = rows.iter().position(|r| r.starts_with(&format!("| {id} |"))).unwrap();
        assert!(row < failed.len(), "{id} is among the first {} rows (row {row})", failed.len());
        assert!(rows[row].contains("**REQUIRED**"), "{}", rows[row]);
    }
    assert!(disagreements.contains(&format!("({}, {} REQUIRED)", rows.len(), failed.len())), "{disagreements}");

    // A requirement the fault's failing steps name: passed by the reference's code base only, so
    // fewer than two independent implementations pass it, and it is flagged.
    let named: String = read(&fault)["cases"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["differences"].as_array().unwrap().clone())
        .find(|d| d["strictness"] == "REQUIRED")
        .and_then(|d| d["requirements"][0].as_str().map(str::to_string))
        .unwrap();
    let flagged = text.split("## REQUIRED requirements fewer than two").nth(1).unwrap().split("\n## ").next().unwrap();
    let row = flagged
        .lines()
        .find(|l| l.starts_with(&format!("| {} |", crate_md(&named))))
        .unwrap_or_else(|| panic!("{named} is flagged:\n{flagged}"));
    assert!(row.ends_with("| **fail** | 1 |"), "{row}");

    // The alternate reading of an open point shows as a split.
    let open = text.split("## Open points").nth(1).unwrap();
    assert!(
        open.contains("| yes |") || open.contains("| **independent** |"),
        "some open point is read otherwise by the alternate:\n{open}"
    );
}

/// `escape::markdown_inline` writes `-` as is and `_` as `\_`: a requirement id as the report shows it.
fn crate_md(id: &str) -> String {
    id.replace('_', "\\_")
}

#[test]
fn what_cannot_be_compared_is_refused() {
    let dir = scratch("compare", "refused");
    let reference = report(&dir, "reference", &[], 0);
    let reference = reference.to_str().unwrap();
    let expect = |args: &[&str], message: &str| {
        let out = conformance(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    };
    expect(&["compare", reference], "at least two implementations");
    expect(&["compare", reference, reference], "two reports of implementation reference 0.1.0");
    let fault = report(&dir, "fault", &["--adapter", "--", driver(), "--fault", FAULT], 1);
    let fault = fault.to_str().unwrap();
    expect(&["compare", reference, fault, "--same-codebase", "reference,referense"], "\"referense\"");
    expect(&["compare", reference, fault, "--same-codebase", "reference"], "at least two");
    let other = env!("CARGO_MANIFEST_DIR").to_string() + "/examples/third-party-vectors";
    expect(&["--vectors", &other, "compare", reference, fault], "other vectors");
    let markdown = dir.join("same.md");
    std::fs::copy(reference, &markdown).unwrap();
    expect(&["compare", reference, markdown.to_str().unwrap(), "--markdown", markdown.to_str().unwrap()], "destroy the input");
    let missing = dir.join("missing.json");
    expect(&["compare", reference, missing.to_str().unwrap()], "missing.json");
}
