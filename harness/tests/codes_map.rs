//! The handshake's `codes` map (issue 27 §5, `harness/driver/README.md` "codes"): a Rixx UI
//! consumer with code names of its own (the reference driver with `--rename-codes`, a one-to-one
//! renaming) fails on names alone without the map, and with it (`--declare-codes`) gets the
//! verdict the register-named reference gets, case by case; a map that is malformed, repeats an
//! own name or maps onto a name the register lacks is refused before any case; every report
//! prints the map.

use std::path::PathBuf;
use std::time::Duration;

use harness::adapters::process::ProcessAdapter;
use harness::loader::Vectors;
use harness::runner::run_case;
use harness::verdict::Verdict;
use serde_json::Value;

mod common;
use common::{conformance, HELLO};

const DRIVER: &str = env!("CARGO_BIN_EXE_reference-driver");

/// The verdict of every Rixx UI case through the reference driver with `args`.
fn rui_verdicts(args: &[&str]) -> Vec<(String, Verdict)> {
    let vectors = Vectors::load(&harness::bundled_vectors()).expect("vectors load");
    let mut argv = vec![DRIVER.to_string()];
    argv.extend(args.iter().map(|a| a.to_string()));
    let mut adapter = ProcessAdapter::launch(argv, Duration::from_secs(30)).expect("the driver starts");
    vectors.cases.iter().filter(|c| c.protocol == harness::adapter::Protocol::Rui).map(|case| (case.id.clone(), run_case(&mut adapter, case).verdict)).collect()
}

#[test]
fn own_code_names_fail_without_the_map_and_pass_every_case_the_reference_passes_with_it() {
    let plain = rui_verdicts(&[]);
    let renamed = rui_verdicts(&["--rename-codes"]);
    let mapped = rui_verdicts(&["--rename-codes", "--declare-codes"]);
    let passing = plain.iter().filter(|(_, v)| *v == Verdict::Pass).count();
    assert!(passing > 300, "the reference passes {passing} Rixx UI cases");
    let failing_on_names = renamed.iter().filter(|(_, v)| *v == Verdict::Fail).count();
    assert!(failing_on_names > 100, "only {failing_on_names} cases failed on the renamed codes");
    assert_eq!(mapped, plain, "with the map, every Rixx UI case gets the reference's verdict");
}

fn scratch(name: &str) -> PathBuf {
    common::scratch("codes-map", name)
}

/// A shell adapter whose handshake carries `codes` as written (`codes_json`).
fn adapter_with_codes(codes_json: &str) -> String {
    let hello = HELLO.replacen("\"assistBatchBound\":null", &format!("\"assistBatchBound\":null,\"codes\":{codes_json}"), 1);
    format!("read l; echo '{hello}'; exec cat > /dev/null")
}

#[test]
fn a_malformed_repeated_or_unknown_map_is_refused_before_any_case() {
    for (codes, says) in [
        (r#"["FRAME_NOT_JSON"]"#, "codes must be an object"),
        (r#"{"bad":1}"#, "must map to a string"),
        (r#"{"bad":"FRAME_NOT_JSON","bad":"SEQUENCE_GAP"}"#, "duplicate key \"bad\""),
        (r#"{"bad":"NOT_A_CODE"}"#, "\"bad\" maps onto \"NOT_A_CODE\""),
        (r#"{"aborted":"EXECUTION_ABORTED"}"#, "CL-B01-1"),
    ] {
        let adapter = adapter_with_codes(codes);
        let output = conformance(&["run", "--quiet", "--filter", "rui.framing-jsonl", "--adapter", "--", "sh", "-c", &adapter]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{codes}: {stderr}");
        assert!(stderr.contains(says), "{codes}: {stderr}");
    }
}

#[test]
fn every_report_prints_the_map() {
    let dir = scratch("reports");
    let (report, markdown) = (dir.join("report.json"), dir.join("report.md"));
    let output = conformance(&[
        "run",
        "--filter",
        "rui.framing-jsonl",
        "--report",
        report.to_str().unwrap(),
        "--markdown",
        markdown.to_str().unwrap(),
        "--adapter",
        "--",
        DRIVER,
        "--rename-codes",
        "--declare-codes",
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("codes translated onto the register's: ") && stdout.contains("frame-not-json -> FRAME_NOT_JSON"), "{stdout}");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(report["implementation"]["codes"]["frame-truncated"], "FRAME_TRUNCATED");
    let markdown = std::fs::read_to_string(&markdown).unwrap();
    assert!(markdown.contains("| Rixx UI codes translated | ") && markdown.contains("sequence-gap → SEQUENCE\\_GAP"), "{markdown}");
    // Without a map no report mentions one.
    let output = conformance(&["run", "--filter", "rui.framing-jsonl", "--report", dir.join("plain.json").to_str().unwrap()]);
    assert!(!String::from_utf8_lossy(&output.stdout).contains("codes translated"));
    let plain: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("plain.json")).unwrap()).unwrap();
    assert!(plain["implementation"].get("codes").is_none());
    let _ = std::fs::remove_dir_all(dir);
}
