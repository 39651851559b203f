//! `conformance fuzz` as a user meets it (issue 18 §1): nothing found against the reference is
//! exit 0; a fault of the reference driven over the driver protocol is found, shrunk, written as
//! a vector file that `conformance run --vectors DIR` loads and fails again (exit 1), and the
//! report names the seed, the path and the sentences broken; the same seed gives the same
//! output; bad usage is exit 2.

use std::path::PathBuf;
use std::process::{Command, Output};

fn conformance(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conformance")).args(args).env("NO_COLOR", "1").output().expect("runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).to_string()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).to_string()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("harness-fuzz-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The output without the line that carries the elapsed time.
fn without_timing(text: &str) -> String {
    text.lines().filter(|l| !l.starts_with("ran ")).collect::<Vec<_>>().join("\n")
}

#[test]
fn the_reference_in_process_and_over_stdio_gives_nothing_and_exit_0() {
    // The alternate reference over the transaction model has one known finding
    // (tests/fuzz_faults.rs); here the other two models.
    let output = conformance(&["fuzz", "--cases", "60", "--reference-choices", "alternate", "--model", "invocation", "--model", "assist"]);
    assert_eq!(output.status.code(), Some(0), "{}{}", stdout(&output), stderr(&output));
    assert!(stdout(&output).contains("seed 0x5eed0018"), "the seed is printed: {}", stdout(&output));
    assert!(stdout(&output).contains("ran 60 case(s)"), "{}", stdout(&output));
    let driver = env!("CARGO_BIN_EXE_reference-driver");
    let output = conformance(&["fuzz", "--cases", "60", "--seed", "7", "--adapter", "--", driver]);
    assert_eq!(output.status.code(), Some(0), "{}{}", stdout(&output), stderr(&output));
    assert!(stdout(&output).contains("nothing found"), "{}", stdout(&output));
}

#[test]
fn a_fault_over_stdio_is_found_shrunk_written_and_fails_again_under_run() {
    let dir = scratch("finding");
    let driver = env!("CARGO_BIN_EXE_reference-driver");
    let out = dir.display().to_string();
    let args = ["fuzz", "--out", &out, "--adapter", "--", driver, "--fault", "approval-skips-policy"];
    let output = conformance(&args);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}{}", stderr(&output));
    for expected in ["seed 0x5eed0018", "disagreement: case", "shrunk in", "sentences broken:", "CL-B07-3", "rerun: conformance run --vectors"] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    let written: Vec<PathBuf> = std::fs::read_dir(dir.join("rcip")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(written.len(), 1, "{written:?}");
    assert!(dir.join("rui").is_dir(), "both protocol directories exist, as the loader requires");

    // Deterministic: the same seed and implementation give the same cases, verdicts and file.
    let file = std::fs::read_to_string(&written[0]).unwrap();
    let again = conformance(&args);
    assert_eq!(without_timing(&stdout(&again)), without_timing(&text));
    assert_eq!(std::fs::read_to_string(&written[0]).unwrap(), file);

    // The finding reruns: it fails the faulty driver and passes the sound one.
    let rerun = conformance(&["run", "--vectors", &out, "--adapter", "--", driver, "--fault", "approval-skips-policy"]);
    assert_eq!(rerun.status.code(), Some(1), "{}{}", stdout(&rerun), stderr(&rerun));
    assert!(stdout(&rerun).contains("fail        rcip.fuzz."), "{}", stdout(&rerun));
    let sound = conformance(&["run", "--vectors", &out, "--adapter", "--", driver]);
    assert_eq!(sound.status.code(), Some(0), "{}{}", stdout(&sound), stderr(&sound));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_usage_is_exit_2() {
    let driver = env!("CARGO_BIN_EXE_reference-driver");
    for args in [
        vec!["fuzz", "--model", "nonsense"],
        vec!["fuzz", "--seed", "0xzz"],
        vec!["fuzz", "--cases", "0"],
        vec!["fuzz", "--budget-seconds", "-1"],
        vec!["fuzz", "--max-steps", "0"],
        vec!["fuzz", "--reference-fault", "no-such-fault"],
        vec!["fuzz", "--adapter"],
        vec!["fuzz", "--reference-fault", "expiry-never", "--adapter", "--", driver],
        vec!["fuzz", "--adapter", "--", "/no/such/adapter"],
    ] {
        let output = conformance(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}{}", stdout(&output), stderr(&output));
    }
}

#[test]
fn a_model_the_implementation_cannot_run_is_an_error_not_a_silent_pass() {
    // An adapter declaring only Rixx UI cannot run RCIP cases: fuzzing the invocation model
    // against it must not end "nothing found".
    let hello = r#"{"reply":"hello","protocol":"rcip-rui-driver/1","implementation":{"name":"sh","version":"1"},"protocols":["rui"],"profiles":[],"limits":null,"assistBatchBound":null}"#;
    let script = format!("read line; echo '{hello}'; while read line; do :; done");
    let output = conformance(&["fuzz", "--model", "invocation", "--cases", "5", "--adapter", "--", "sh", "-c", &script]);
    assert_eq!(output.status.code(), Some(2), "{}{}", stdout(&output), stderr(&output));
    assert!(stderr(&output).contains("no invocation case could run"), "{}", stderr(&output));
}

#[test]
fn a_budget_stops_the_draw_and_says_so() {
    let output = conformance(&["fuzz", "--cases", "100000000", "--budget-seconds", "0.5", "--model", "assist"]);
    assert_eq!(output.status.code(), Some(0), "{}{}", stdout(&output), stderr(&output));
    assert!(stdout(&output).contains("stopped by --budget-seconds"), "{}", stdout(&output));
}
