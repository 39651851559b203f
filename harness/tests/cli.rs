//! The `conformance` and `reference-driver` executables as a user meets them (issue 14): an
//! unknown flag is a usage error (exit 2), an output path that cannot be written stops the run
//! before it starts, a selection or vector directory with no case is an error, and an adapter
//! that never answers is stopped by the circuit breaker instead of costing hours, leaving no
//! process behind.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const HELLO: &str = r#"{"reply":"hello","protocol":"rcip-rui-driver/1","implementation":{"name":"sh","version":"1"},"protocols":["rcip","rui"],"profiles":[],"limits":null,"assistBatchBound":null}"#;

fn conformance(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conformance")).args(args).env("NO_COLOR", "1").output().expect("runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("harness-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).to_string()
}

#[test]
fn every_executable_rejects_an_unknown_flag_with_usage_and_exit_2() {
    for args in [vec!["--no-such-flag"], vec!["run", "--no-such-flag"], vec!["list", "--no-such-flag"]] {
        let output = conformance(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(stderr(&output).contains("Usage"), "{args:?}: {}", stderr(&output));
    }
    let output = Command::new(env!("CARGO_BIN_EXE_reference-driver")).arg("--no-such-flag").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("Usage"), "{}", stderr(&output));
}

#[test]
fn output_paths_are_checked_before_the_run_starts() {
    let dir = scratch("outputs");
    let marker = dir.join("adapter-started");
    let adapter = format!("touch '{}'; sleep 30", marker.display());
    let missing = dir.join("no-such-dir").join("report.json");
    let twice = dir.join("twice.json");
    for (flags, expected) in [
        (vec!["--report".to_string(), missing.display().to_string()], "does not exist".to_string()),
        (vec!["--junit".to_string(), dir.display().to_string()], "is a directory".to_string()),
        (
            vec![
                "--report".to_string(),
                twice.display().to_string(),
                "--write-expectations".to_string(),
                twice.display().to_string(),
            ],
            "the same path".to_string(),
        ),
    ] {
        let mut args = vec!["run".to_string()];
        args.extend(flags);
        args.extend(["--adapter", "--", "sh", "-c"].map(String::from));
        args.push(adapter.clone());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = conformance(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(stderr(&output).contains(&expected), "{args:?}: {}", stderr(&output));
        assert!(!marker.exists(), "the adapter was started before the outputs were checked");
    }
    assert!(!twice.exists(), "the check leaves no file behind");
}

#[test]
fn a_selection_or_a_vector_directory_without_a_case_is_an_error() {
    let output = conformance(&["run", "--filter", "rcip.no-such-section.", "--quiet"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("no case selected"), "{}", stderr(&output));

    // The bundled vectors without rui/: every Rixx UI case would vanish.
    let dir = scratch("no-rui");
    let bundled = harness::bundled_vectors();
    for sub in ["schema", "rcip"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        for entry in std::fs::read_dir(bundled.join(sub)).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), dir.join(sub).join(entry.file_name())).unwrap();
        }
    }
    std::fs::copy(bundled.join("requirements.json"), dir.join("requirements.json")).unwrap();
    let vectors = dir.display().to_string();
    let output = conformance(&["--vectors", &vectors, "run", "--section", "rcip.policy-race", "--quiet"]);
    assert_eq!(output.status.code(), Some(2), "{}", String::from_utf8_lossy(&output.stdout));
    assert!(stderr(&output).contains("rui") && stderr(&output).contains("missing"), "{}", stderr(&output));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_adapter_that_never_answers_is_stopped_by_the_circuit_breaker_and_leaves_no_process() {
    let dir = scratch("breaker");
    let pids = dir.join("pids");
    let report = dir.join("report.json");
    // Shakes hands, then never reads stdin again; each process records its pid and starts a child.
    let adapter = format!(
        "echo $$ >> '{p}'; sleep 300 & echo $! >> '{p}'; read l; echo '{HELLO}'; exec sleep 300",
        p = pids.display()
    );
    let began = Instant::now();
    let output = conformance(&[
        "run",
        "--quiet",
        "--step-timeout",
        "300",
        "--max-timeouts",
        "3",
        "--report",
        &report.display().to_string(),
        "--adapter",
        "--",
        "sh",
        "-c",
        &adapter,
    ]);
    let elapsed = began.elapsed();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("stopped after 3 consecutive cases timed out"), "{}", stderr(&output));
    // step-timeout x (K + 1) plus a generous margin for process starts on a loaded machine.
    assert!(elapsed < Duration::from_millis(300 * 4) + Duration::from_secs(20), "{elapsed:?}");
    let text = std::fs::read_to_string(&report).unwrap();
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cases = report["cases"].as_array().unwrap();
    assert!(cases.len() > 1000, "every selected case is in the report");
    assert!(cases.iter().all(|c| c["verdict"] == "errored"));
    assert!(cases.last().unwrap()["reason"].as_str().unwrap().starts_with("not run: the run stopped"));
    assert!(report["scope"]["stopped"].is_string());
    for pid in std::fs::read_to_string(&pids).unwrap().lines() {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        assert!(stat.is_empty() || stat.contains(") Z"), "adapter process {pid} left behind: {stat}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
