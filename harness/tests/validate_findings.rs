//! `conformance validate` as a producer's tool (issue 27 §6), through the CLI: each violation
//! carries its strictness and register entries; the exit status is 1 only for a REQUIRED
//! violation unless `--strict`; an interrupted transaction is reported at the last frame; a
//! record repeating a member name is a RECOMMENDED finding (PRJ-RUI-REC-06).

use std::path::{Path, PathBuf};

use serde_json::Value;

mod common;
use common::conformance;

const CATALOG: &str = r#"{ "id": "demo@1.0.0", "components": {
  "Stack": { "props": { "type": "object" }, "children": true },
  "Text": { "props": { "type": "object", "properties": { "text": { "type": "string" } }, "required": ["text"] }, "children": false } } }"#;

fn scratch(name: &str) -> PathBuf {
    common::scratch("validate-findings", name)
}

/// Validates `stream` (JSONL) with `extra` options and the JSON output; (exit status, violations
/// as (frame, code, strictness, requirements), summary).
fn validate(dir: &Path, stream: &str, extra: &[&str]) -> (Option<i32>, Vec<(u64, String, String, Vec<String>)>, Value) {
    let (catalog, input) = (dir.join("catalog.json"), dir.join("stream.jsonl"));
    std::fs::write(&catalog, CATALOG).unwrap();
    std::fs::write(&input, stream).unwrap();
    let mut args = vec!["validate", "--catalog", catalog.to_str().unwrap(), "--framing", "jsonl", "--format", "json"];
    args.extend(extra);
    args.push(input.to_str().unwrap());
    let output = conformance(&args);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stdout)));
    let strings = |v: &Value| v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect::<Vec<_>>();
    let violations = report["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["frame"].as_u64().unwrap(), v["code"].as_str().unwrap().into(), v["strictness"].as_str().unwrap().into(), strings(&v["requirements"])))
        .collect();
    (output.status.code(), violations, report["summary"].clone())
}

fn finding(frame: u64, code: &str, strictness: &str, requirements: &[&str]) -> (u64, String, String, Vec<String>) {
    (frame, code.into(), strictness.into(), requirements.iter().map(|s| s.to_string()).collect())
}

#[test]
fn recommended_findings_exit_0_and_count_only_under_strict() {
    let dir = scratch("recommended");
    // The last line has no LF but parses: only the RECOMMENDED reading (PRJ-RUI-FRAME-05)
    // quarantines it, so the transaction fails only under that reading.
    let stream = "[\"begin\",0,\"t1\",0]\n[\"node\",1,\"r\",\"Stack\",{},[]]\n[\"commit\",2,1,\"r\"]";
    let (status, violations, summary) = validate(&dir, stream, &[]);
    assert_eq!(
        violations,
        vec![
            finding(2, "FRAME_TRUNCATED", "RECOMMENDED", &["PRJ-RUI-FRAME-05"]),
            finding(2, "FRAME_INVALID", "RECOMMENDED", &["PRJ-RUI-FRAME-05"]),
        ]
    );
    assert_eq!((status, &summary["required"], &summary["recommended"]), (Some(0), &Value::from(0), &Value::from(2)));
    let (status, _, summary) = validate(&dir, stream, &["--strict"]);
    assert_eq!((status, &summary["strict"]), (Some(1), &Value::Bool(true)));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_required_violation_exits_1_and_an_interrupted_transaction_is_at_the_last_frame() {
    let dir = scratch("required");
    // t1 commits; t2 names an unknown component (REQUIRED); t3 is open when the stream ends after
    // frame 7, its last.
    let stream = concat!(
        "[\"begin\",0,\"t1\",0]\n[\"node\",1,\"r\",\"Stack\",{},[]]\n[\"commit\",2,1,\"r\"]\n",
        "[\"begin\",0,\"t2\",1]\n[\"node\",1,\"g\",\"Ghost\",{},[]]\n[\"commit\",2,2,\"r\"]\n",
        "[\"begin\",0,\"t3\",1]\n[\"node\",1,\"r\",\"Stack\",{},[]]\n",
    );
    let (status, violations, summary) = validate(&dir, stream, &[]);
    assert_eq!(
        violations,
        vec![finding(5, "UNKNOWN_COMPONENT", "REQUIRED", &["PRJ-RUI-CAT-01"]), finding(7, "INTERRUPTED", "REQUIRED", &["PRJ-RUI-TX-05"])]
    );
    assert_eq!((status, &summary["frames"]), (Some(1), &Value::from(8)));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_record_repeating_a_member_name_is_reported_as_recommended() {
    let dir = scratch("repeated");
    let stream = "[\"begin\",0,\"t1\",0]\n[\"node\",1,\"r\",\"Text\",{\"text\":\"a\",\"\\u0074ext\":\"b\"},[]]\n[\"commit\",2,1,\"r\"]\n";
    let (status, violations, summary) = validate(&dir, stream, &[]);
    assert_eq!(violations, vec![finding(1, "REPEATED_MEMBER_NAME", "RECOMMENDED", &["PRJ-RUI-REC-06"])]);
    assert_eq!((status, &summary["committed"]), (Some(0), &Value::from(1)));
    assert_eq!(validate(&dir, stream, &["--strict"]).0, Some(1));
    let _ = std::fs::remove_dir_all(dir);
}
