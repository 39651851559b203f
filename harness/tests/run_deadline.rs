//! `run --max-run-seconds` (issue 28: "no run-level deadline: an adapter that answers just under
//! the step timeout takes hours"): when the budget passes, the request in progress is cut and its
//! case `errored` saying why, every case not run is `errored` ("not run: ...") and counted, the
//! adapters are killed and the run exits 2; the option is bounded like the other time options.

use std::path::PathBuf;
use std::time::{Duration, Instant};

mod common;
use common::{assert_no_adapter_left, conformance, HELLO};

fn scratch(name: &str) -> PathBuf {
    common::scratch("deadline", name)
}

#[test]
fn an_adapter_answering_just_under_the_step_timeout_is_stopped_by_the_run_deadline() {
    let dir = scratch("slow");
    let report = dir.join("report.json");
    let pids = dir.join("pids");
    // Shakes hands at once, then answers every request after 30 s: just under the step timeout
    // of 40 s, so neither the timeout nor the circuit breaker ever stops it.
    let adapter = format!(
        "echo $$ >> '{p}'; sleep 300 & read l; echo '{HELLO}'; while read l; do case \"$l\" in *'\"bye\"'*) exit 0;; esac; \
         sleep 30; echo '{{\"reply\":\"unsupported\",\"reason\":\"slow\"}}'; done",
        p = pids.display()
    );
    let began = Instant::now();
    let output = conformance(&[
        "run",
        "--quiet",
        "--filter",
        "rcip.",
        "--step-timeout",
        "40000",
        "--max-run-seconds",
        "1.5",
        "--report",
        report.to_str().unwrap(),
        "--adapter",
        "--",
        "sh",
        "-c",
        &adapter,
    ]);
    let elapsed = began.elapsed();
    let err = String::from_utf8_lossy(&output.stderr).to_string();
    assert_eq!(output.status.code(), Some(2), "{err}");
    // One answer alone would take 30 s.
    assert!(elapsed < Duration::from_secs(25), "{elapsed:?}");
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let cases = json["cases"].as_array().unwrap();
    assert!(cases.len() > 100, "every selected case is in the report: {}", cases.len());
    let reason = |c: &serde_json::Value| c["reason"].as_str().unwrap_or("").to_string();
    assert_eq!(cases[0]["verdict"], "errored");
    assert!(reason(&cases[0]).contains("overall deadline (--max-run-seconds) passed before the adapter answered"), "{}", reason(&cases[0]));
    let not_run = cases[1..]
        .iter()
        .filter(|c| c["verdict"] == "errored" && reason(c).starts_with("not run: the run stopped when its overall deadline passed"))
        .count();
    assert_eq!(not_run, cases.len() - 1, "every other case is errored as not run");
    assert!(err.contains(&format!("{not_run} case(s) were not run")), "{err}");
    assert!(json["scope"]["stopped"].as_str().unwrap().contains("--max-run-seconds"));
    assert_no_adapter_left(&pids);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_run_budget_is_a_finite_number_of_seconds_above_zero() {
    for bad in ["0", "-1", "inf", "NaN", "1e300", "soon"] {
        let output = conformance(&["run", &format!("--max-run-seconds={bad}")]);
        let err = String::from_utf8_lossy(&output.stderr).to_string();
        assert_eq!(output.status.code(), Some(2), "--max-run-seconds {bad}: {err}");
        assert!(err.contains("--max-run-seconds"), "{err}");
    }
}

#[test]
fn a_budget_the_run_stays_within_changes_nothing() {
    let output = conformance(&["run", "--quiet", "--filter", "rcip.policy-race.", "--max-run-seconds", "600"]);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
}
