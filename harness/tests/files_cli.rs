//! Every input and output path of the `conformance` CLI as a careless or hostile user meets it
//! (issue 28): a FIFO, a device or an over-large file given as any input is refused at once
//! with exit 2 and a message naming the path; two outputs that are one file under two spellings
//! are refused before anything runs; a case id used as a trace file name never leaves the trace
//! folder; `fuzz --out` is checked before fuzzing; float and `--jobs` options out of range are
//! usage errors, never a panic.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

mod common;

/// Runs `conformance`, killing it (and failing the test) if it is still running after 60 s: a
/// FIFO read blocks forever.
fn conformance(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("conformance {args:?} hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn scratch(name: &str) -> PathBuf {
    common::scratch("files-cli", name)
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).to_string()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).to_string()
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Asserts exit 2 and an error naming `path` with `phrase`.
fn refused(output: &Output, path: &Path, phrase: &str) {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(2), "{err}{}", stdout(output));
    assert!(err.contains(&path.display().to_string()) && err.contains(phrase), "expected {} and {phrase:?}: {err}", path.display());
}

/// A vector set of the bundled schemas and register with one RCIP case of id `id`, the schema
/// optionally relaxed to accept any id (a hand-written set with a schema of its own).
fn vector_set(dir: &Path, id: &str, any_id: bool) {
    let bundled = harness::bundled_vectors();
    std::fs::create_dir_all(dir.join("schema")).unwrap();
    for entry in std::fs::read_dir(bundled.join("schema")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.join("schema").join(entry.file_name())).unwrap();
    }
    if any_id {
        let path = dir.join("schema").join("case.schema.json");
        let mut schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        schema["properties"]["id"]["pattern"] = json!("^rcip\\.");
        std::fs::write(&path, schema.to_string()).unwrap();
    }
    std::fs::copy(bundled.join("requirements.json"), dir.join("requirements.json")).unwrap();
    std::fs::create_dir_all(dir.join("rcip")).unwrap();
    std::fs::create_dir_all(dir.join("rui")).unwrap();
    let source: Value = serde_json::from_str(&std::fs::read_to_string(bundled.join("rcip").join("default-policy.json")).unwrap()).unwrap();
    let mut case = source["cases"][0].clone();
    case["id"] = json!(id);
    let file = json!({
        "format": source["format"],
        "protocol": "rcip",
        "section": "rcip.x",
        "title": "One case",
        "generated": source["generated"],
        "cases": [case],
    });
    std::fs::write(dir.join("rcip").join("x.json"), file.to_string()).unwrap();
}

#[test]
fn a_fifo_or_a_device_as_any_input_is_refused_at_once() {
    let dir = scratch("fifo");
    let fifo = dir.join("input.json");
    mkfifo(&fifo);
    let stream = dir.join("stream.jsonl");
    std::fs::write(&stream, "").unwrap();
    let catalog = dir.join("catalog.json");
    std::fs::write(&catalog, "{}").unwrap();
    for special in [fifo.as_path(), Path::new("/dev/zero")] {
        let phrase = if special == fifo { "FIFO" } else { "character device" };
        let output = conformance(&["validate", "--catalog", text(special), "--framing", "jsonl", text(&stream)]);
        refused(&output, special, phrase);
        let output = conformance(&["validate", "--catalog", text(&catalog), "--limits", text(special), "--framing", "jsonl", text(&stream)]);
        refused(&output, special, phrase);
        let output = conformance(&["validate", "--catalog", text(&catalog), "--framing", "jsonl", text(special)]);
        refused(&output, special, phrase);
        let output = conformance(&["check-trace", text(special)]);
        refused(&output, special, phrase);
        assert!(stderr(&output).contains("give -"), "{}", stderr(&output));
        let output = conformance(&["run", "--expectations", text(special), "--section", "rcip.policy-race", "--quiet"]);
        refused(&output, special, phrase);
        let output = conformance(&["report", text(special), "--html", text(&dir.join("r.html"))]);
        refused(&output, special, phrase);
        let output = conformance(&["report", "--merge", text(special), text(special), "--html", text(&dir.join("r.html"))]);
        refused(&output, special, phrase);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fifo_as_the_register_or_a_schema_of_a_vector_set_is_refused_at_once() {
    let dir = scratch("fifo-register");
    vector_set(&dir, "rcip.x.one.001", false);
    let register = dir.join("requirements.json");
    std::fs::remove_file(&register).unwrap();
    mkfifo(&register);
    let output = conformance(&["--vectors", text(&dir), "list"]);
    refused(&output, &register, "FIFO");
    // fuzz reads the register of the vector set too.
    let output = conformance(&["--vectors", text(&dir), "fuzz", "--cases", "1", "--out", text(&dir.join("out"))]);
    refused(&output, &register, "FIFO");
    std::fs::remove_file(&register).unwrap();
    std::fs::copy(harness::bundled_vectors().join("requirements.json"), &register).unwrap();
    let schema = dir.join("schema").join("extra.schema.json");
    mkfifo(&schema);
    let output = conformance(&["--vectors", text(&dir), "list"]);
    refused(&output, &schema, "FIFO");
    let output = conformance(&["--vectors", text(&dir), "check-trace", text(&dir.join("none.jsonl"))]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_input_larger_than_the_bound_is_refused_without_reading_it() {
    let dir = scratch("large");
    let large = dir.join("large.json");
    // Sparse: 300 MiB of holes cost no disk.
    std::fs::File::create(&large).unwrap().set_len(300 << 20).unwrap();
    let output = conformance(&["check-trace", text(&large)]);
    refused(&output, &large, "is larger than 268435456 bytes");
    let stream = dir.join("s.jsonl");
    std::fs::write(&stream, "").unwrap();
    let output = conformance(&["validate", "--catalog", text(&large), "--framing", "jsonl", text(&stream)]);
    refused(&output, &large, "is larger than 268435456 bytes");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn one_output_file_under_two_spellings_is_refused_before_the_run() {
    let dir = scratch("spellings");
    std::fs::create_dir_all(dir.join("d")).unwrap();
    let marker = dir.join("adapter-started");
    let adapter = format!("touch '{}'; sleep 30", marker.display());
    let report = dir.join("a.json");
    std::fs::write(&report, "previous").unwrap();
    let symlink = dir.join("link-to-a.json");
    std::os::unix::fs::symlink(&report, &symlink).unwrap();
    let hard = dir.join("hard-a.json");
    std::fs::hard_link(&report, &hard).unwrap();
    let dotted = dir.join("d").join("..").join("new.json");
    let plain = dir.join("new.json");
    for (first, second) in [("--junit", &symlink), ("--html", &hard), ("--markdown", &report)] {
        let output = conformance(&["run", "--report", text(&report), first, text(second), "--adapter", "--", "sh", "-c", &adapter]);
        refused(&output, second, "the same path is given for two outputs");
        assert!(!marker.exists(), "the adapter was started before the outputs were checked");
    }
    let output = conformance(&["run", "--report", text(&plain), "--write-expectations", text(&dotted), "--adapter", "--", "sh", "-c", &adapter]);
    refused(&output, &dotted, "the same path is given for two outputs");
    assert!(!marker.exists());
    assert!(!plain.exists(), "the check leaves no file behind");
    // A device is no output: the full disk of /dev/full would only show after the run.
    let output = conformance(&["run", "--report", "/dev/full", "--adapter", "--", "sh", "-c", &adapter]);
    refused(&output, Path::new("/dev/full"), "not a regular file");
    assert!(!marker.exists());
    // The same for `report`: checked before its inputs are read.
    let output = conformance(&["report", text(&report), "--html", text(&symlink), "--markdown", text(&report)]);
    refused(&output, &report, "the same path is given for two outputs");
    assert_eq!(std::fs::read_to_string(&report).unwrap(), "previous");
    // An output that is the input report would destroy it.
    let output = conformance(&["report", text(&report), "--html", text(&symlink)]);
    refused(&output, &symlink, "is the input report");
    assert_eq!(std::fs::read_to_string(&report).unwrap(), "previous");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_report_replaces_the_previous_one_whole_and_a_failed_one_leaves_it() {
    let dir = scratch("replace");
    let report = dir.join("report.json");
    std::fs::write(&report, "x".repeat(1 << 20)).unwrap();
    let output = conformance(&["run", "--section", "rcip.policy-race", "--quiet", "--report", text(&report)]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).expect("the whole new report, not a mix");
    assert!(written.get("results").is_some() || written.is_object());
    let names: Vec<String> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["report.json"], "no temporary file is left");
    // A report into a missing folder stops before the run and leaves every file as it was.
    let before = std::fs::read(&report).unwrap();
    let missing = dir.join("gone").join("r.html");
    let output = conformance(&["report", text(&report), "--html", text(&missing)]);
    refused(&output, &missing, "does not exist");
    assert_eq!(std::fs::read(&report).unwrap(), before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_case_id_as_a_trace_file_name_stays_inside_the_trace_folder() {
    let dir = scratch("trace-escape");
    let vectors = dir.join("vectors");
    let id = "rcip.x./../../escape.001";
    vector_set(&vectors, id, true);
    let traces = dir.join("traces");
    // The folder the id's first segment names exists: the id would climb out of it.
    std::fs::create_dir_all(traces.join("rcip.x.")).unwrap();
    let output = conformance(&["--vectors", text(&vectors), "run", "--quiet", "--trace-dir", text(&traces)]);
    assert_eq!(output.status.code(), Some(0), "{}{}", stdout(&output), stderr(&output));
    assert!(!dir.join("escape.001.jsonl").exists(), "a trace was written outside the trace folder");
    let written: Vec<String> = std::fs::read_dir(&traces).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    let trace = written.iter().find(|n| n.ends_with(".jsonl")).unwrap_or_else(|| panic!("no trace in {written:?}"));
    assert!(trace.starts_with("rcip.x.%2F"), "{trace}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_long_case_id_still_gets_its_trace_and_the_run_its_report() {
    let dir = scratch("trace-long");
    let vectors = dir.join("vectors");
    let id = format!("rcip.x.{}.001", "a".repeat(300));
    vector_set(&vectors, &id, false);
    let traces = dir.join("traces");
    let report = dir.join("report.json");
    let output = conformance(&["--vectors", text(&vectors), "run", "--quiet", "--trace-dir", text(&traces), "--report", text(&report)]);
    assert_eq!(output.status.code(), Some(0), "{}{}", stdout(&output), stderr(&output));
    assert!(report.exists(), "{}", stdout(&output));
    let written: Vec<String> = std::fs::read_dir(&traces).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(written.len(), 1, "{written:?}");
    assert!(written[0].len() <= 200 && written[0].starts_with("rcip.x.aaa") && written[0].ends_with(".jsonl"), "{written:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fuzz_out_is_checked_before_fuzzing() {
    let dir = scratch("fuzz-out");
    let file = dir.join("a-file");
    std::fs::write(&file, "").unwrap();
    for out in [file.clone(), file.join("below")] {
        let output = conformance(&["fuzz", "--cases", "1", "--out", text(&out)]);
        refused(&output, &out, "--out");
        assert!(!stdout(&output).contains("ran "), "fuzzing started: {}", stdout(&output));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn float_options_out_of_range_are_usage_errors_not_panics() {
    let dir = scratch("floats");
    let catalog = dir.join("catalog.json");
    std::fs::write(&catalog, "{}").unwrap();
    for (flag, value) in [("--stall-seconds", "1e300"), ("--max-seconds", "inf"), ("--stall-seconds", "NaN"), ("--max-seconds", "-1"), ("--stall-seconds", "0")] {
        let option = format!("{flag}={value}");
        let output = conformance(&["validate", "--catalog", text(&catalog), "--url", "http://127.0.0.1:9/", &option]);
        assert_eq!(output.status.code(), Some(2), "{flag} {value}: {}", stderr(&output));
        assert!(stderr(&output).contains(flag), "{flag} {value}: {}", stderr(&output));
    }
    for value in ["1e300", "inf", "-1", "0"] {
        let option = format!("--budget-seconds={value}");
        let output = conformance(&["fuzz", "--cases", "1", &option, "--out", text(&dir.join("out"))]);
        assert_eq!(output.status.code(), Some(2), "{value}: {}", stderr(&output));
        assert!(stderr(&output).contains("--budget-seconds"), "{value}: {}", stderr(&output));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn jobs_is_bounded() {
    for value in ["0", "2000"] {
        let output = conformance(&["run", "--jobs", value, "--section", "rcip.policy-race", "--quiet"]);
        assert_eq!(output.status.code(), Some(2), "--jobs {value}: {}", stderr(&output));
        assert!(stderr(&output).contains("--jobs") && stderr(&output).contains("256"), "--jobs {value}: {}", stderr(&output));
    }
}

#[test]
fn generate_stream_refuses_a_catalog_out_that_is_not_a_regular_file() {
    let output = conformance(&["generate-stream", "--framing", "jsonl", "--bytes", "10", "--catalog-out", "/dev/full"]);
    refused(&output, Path::new("/dev/full"), "not a regular file");
}
