//! The harness against adapters that lie (issue 6, "Quality bar"): an implementation whose
//! answers are well-formed but wrong must get `fail` verdicts (with the difference shown), never
//! `pass` and never `errored`, the run must complete, the exit code must say so (1), and the
//! certification line must not grant a level. The liars are the real reference driver with its
//! stdout rewritten by `sed`, so everything but the lie is correct protocol traffic.

use std::process::Command;

use serde_json::Value;

/// Runs the CLI on `section` through the reference driver piped into `sed -u <script>`; returns
/// the exit code, the stdout and the JSON report.
fn run_through_liar(section: &str, sed_script: &str, name: &str) -> (i32, String, Value) {
    let driver = env!("CARGO_BIN_EXE_reference-driver");
    let report = std::env::temp_dir().join(format!("conformance-liar-{name}-{}.json", std::process::id()));
    let output = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .args(["run", "--section", section, "--step-timeout", "5000", "--report"])
        .arg(&report)
        .args(["--adapter", "--", "sh", "-c"])
        .arg(format!("'{driver}' | sed -u '{sed_script}'"))
        .env("NO_COLOR", "1")
        .output()
        .expect("the conformance binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    let text = std::fs::read_to_string(&report).unwrap_or_else(|e| panic!("no report ({e}); stdout:\n{stdout}"));
    let _ = std::fs::remove_file(&report);
    (output.status.code().unwrap_or(-1), stdout, serde_json::from_str(&text).expect("the report is JSON"))
}

fn verdicts(report: &Value) -> Vec<(String, String)> {
    report["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| (c["id"].as_str().unwrap_or_default().to_string(), c["verdict"].as_str().unwrap_or_default().to_string()))
        .collect()
}

#[test]
fn an_adapter_that_reports_the_wrong_code_fails_with_the_difference_shown() {
    // Every CAPABILITY_UNBOUND outcome is reported as POLICY_DENIED.
    let (code, stdout, report) =
        run_through_liar("rcip.policy-race", "s/CAPABILITY_UNBOUND/POLICY_DENIED/g", "code");
    assert_eq!(code, 1, "{stdout}");
    let verdicts = verdicts(&report);
    assert!(verdicts.len() > 5, "the whole section ran: {verdicts:?}");
    assert!(verdicts.iter().all(|(_, v)| v != "errored"), "a lie is not a broken adapter: {verdicts:?}");
    let unbind = verdicts.iter().find(|(id, _)| id == "rcip.policy-race.unbind.001").expect("the unbind race ran");
    assert_eq!(unbind.1, "fail");
    // Cases that never observe CAPABILITY_UNBOUND are untouched by the lie and still pass.
    assert!(verdicts.iter().any(|(_, v)| v == "pass"), "{verdicts:?}");
    assert!(stdout.contains("expected \"CAPABILITY_UNBOUND\", found \"POLICY_DENIED\""), "{stdout}");
    assert!(stdout.contains("RCIP 1.0: not certified"), "{stdout}");
}

#[test]
fn an_adapter_that_claims_success_for_every_outcome_passes_nothing_it_should_fail() {
    // Every observed status becomes "succeeded": errors and confirmations are hidden.
    let (code, stdout, report) =
        run_through_liar("rcip.confirmation", "s/\"status\":\"[a-z_]*\"/\"status\":\"succeeded\"/g", "status");
    assert_eq!(code, 1, "{stdout}");
    let verdicts = verdicts(&report);
    let failed = verdicts.iter().filter(|(_, v)| v == "fail").count();
    assert!(failed * 2 > verdicts.len(), "most confirmation cases observe a non-success status: {verdicts:?}");
    assert!(verdicts.iter().all(|(_, v)| v != "errored"), "{verdicts:?}");
}
