//! The `conformance` and `reference-driver` executables as a user meets them (issue 14): an
//! unknown flag is a usage error (exit 2), an output path that cannot be written stops the run
//! before it starts, a selection or vector directory with no case is an error, and an adapter
//! that never answers is stopped by the circuit breaker instead of costing hours, leaving no
//! process behind.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

mod common;
use common::{assert_no_adapter_left, conformance, HELLO};

fn scratch(name: &str) -> PathBuf {
    common::scratch("cli", name)
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
fn a_flag_that_the_chosen_subject_would_ignore_is_a_usage_error() {
    // `--reference-choices` configures the bundled reference; with an adapter it would be ignored.
    for command in ["run", "fuzz"] {
        let output = conformance(&[command, "--reference-choices", "alternate", "--adapter", "--", "/bin/true"]);
        assert_eq!(output.status.code(), Some(2), "{command}");
        assert!(stderr(&output).contains("--reference-choices applies to the bundled reference"), "{command}: {}", stderr(&output));
        let output = conformance(&[command, "--adapter"]);
        assert_eq!(output.status.code(), Some(2), "{command}");
        assert!(stderr(&output).contains("give the adapter as"), "{command}: {}", stderr(&output));
        // `--no-pipelining` configures a process adapter; the bundled reference has none.
        let output = conformance(&[command, "--no-pipelining"]);
        assert_eq!(output.status.code(), Some(2), "{command}");
        assert!(stderr(&output).contains("--no-pipelining applies to an --adapter"), "{command}: {}", stderr(&output));
    }
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
    assert_no_adapter_left(&pids);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_partition_the_selection_and_their_merged_reports_equal_the_unsharded_run() {
    let dir = scratch("shards");
    let path = |name: &str| dir.join(name).display().to_string();
    let section = "rcip.policy-race";
    let output = conformance(&["run", "--quiet", "--section", section, "--report", &path("full.json"), "--markdown", &path("full.md")]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let mut ids_of_shards = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let report = path(&format!("shard{k}.json"));
        let output = conformance(&["run", "--quiet", "--section", section, "--shard", &shard, "--report", &report]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains("not certified (partial run"), "a shard certifies nothing: {stdout}");
        assert!(stdout.contains(&format!("--shard {shard}")), "{stdout}");
        let text = std::fs::read_to_string(&report).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        ids_of_shards.push(json["cases"].as_array().unwrap().iter().map(|c| c["id"].to_string()).collect::<Vec<_>>());
    }
    let total: usize = ids_of_shards.iter().map(Vec::len).sum();
    let full: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path("full.json")).unwrap()).unwrap();
    assert_eq!(total, full["cases"].as_array().unwrap().len(), "the shards partition the selection");
    assert!(ids_of_shards.iter().all(|ids| !ids.is_empty()));

    let (s1, s2, s3) = (path("shard1.json"), path("shard2.json"), path("shard3.json"));
    let output = conformance(&[
        "report", "--merge", &s3, &s1, &s2, "--report", &path("merged.json"), "--markdown", &path("merged.md"),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(path("merged.json")).unwrap(), std::fs::read_to_string(path("full.json")).unwrap());
    assert_eq!(std::fs::read_to_string(path("merged.md")).unwrap(), std::fs::read_to_string(path("full.md")).unwrap());

    // A missing or repeated shard is refused.
    let output = conformance(&["report", "--merge", &s1, &s2]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("shard(s) 3/3 missing"), "{}", stderr(&output));
    let output = conformance(&["report", "--merge", &s1, &s1, &s2, &s3]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("given twice"), "{}", stderr(&output));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_shard_keeps_its_cases_when_others_are_added() {
    use harness::select::Shard;
    // Membership depends on the case id alone.
    let ids: Vec<String> = (0..200).map(|i| format!("rcip.demo.case.{i:03}")).collect();
    let before: Vec<u64> = ids.iter().map(|id| Shard::of(id, 4)).collect();
    let mut more = ids.clone();
    more.push("rcip.demo.new.001".into());
    let after: Vec<u64> = more.iter().take(200).map(|id| Shard::of(id, 4)).collect();
    assert_eq!(before, after);
    assert!((1..=4).all(|k| before.contains(&k)), "every shard gets cases");
    assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
    assert!(Shard::parse("0/4").is_err() && Shard::parse("5/4").is_err() && Shard::parse("x").is_err());
}

#[test]
fn the_third_party_example_set_runs_and_a_wrong_expectation_in_it_fails() {
    let example = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples").join("third-party-vectors");
    let output = conformance(&["--vectors", &example.display().to_string(), "run"]);
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert_eq!(output.status.code(), Some(0), "{stdout}{}", stderr(&output));
    assert!(stdout.contains("3 cases from"), "{stdout}");
    assert!(stdout.contains("RCIP 1.0: not certified (the vector set is not the official one"), "{stdout}");

    // The same set with a `lacks` that the reference's listing contradicts.
    let dir = scratch("third-party");
    for sub in ["rcip", "rui"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        std::fs::copy(example.join(sub).join("example.json"), dir.join(sub).join("example.json")).unwrap();
    }
    let file = dir.join("rcip").join("example.json");
    let mut set: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    set["cases"][0]["steps"][2]["is"]["items"] = serde_json::json!(["notes.list"]);
    std::fs::write(&file, serde_json::to_string(&set).unwrap()).unwrap();
    let output = conformance(&["--vectors", &dir.display().to_string(), "run"]);
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("which the array must lack"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn validate_judges_a_producer_stream_with_exit_0_1_or_2() {
    let dir = scratch("validate");
    let catalog = dir.join("catalog.json");
    std::fs::write(&catalog, r#"{"id":"demo@1.0.0","components":{"Stack":{"props":{"type":"object"},"children":true}}}"#).unwrap();
    let good = dir.join("good.sse");
    std::fs::write(&good, "data: [\"begin\",0,\"t1\",0]\n\ndata: [\"node\",1,\"r\",\"Stack\",{},[]]\n\ndata: [\"commit\",2,1,\"r\"]\n\n").unwrap();
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "[\"begin\",0,\"t1\",0]\n[\"node\",1,\"r\",\"Ghost\",{},[]]\n[\"commit\",2,1,\"r\"]\n").unwrap();
    let path = |p: &PathBuf| p.to_string_lossy().to_string();
    let ok = conformance(&["validate", "--catalog", &path(&catalog), "--framing", "sse", &path(&good)]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    assert!(String::from_utf8_lossy(&ok.stdout).contains("1 committed"));
    let found = conformance(&["validate", "--catalog", &path(&catalog), "--framing", "jsonl", "--format", "json", &path(&bad)]);
    assert_eq!(found.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&found.stdout).expect("JSON output");
    assert_eq!(report["violations"][0]["code"], "UNKNOWN_COMPONENT");
    assert_eq!((report["violations"][0]["frame"].as_u64(), report["violations"][0]["transactionId"].as_str()), (Some(2), Some("t1")));
    assert_eq!(report["violations"][0]["requirements"], serde_json::json!(["PRJ-RUI-CAT-01"]));
    let missing = conformance(&["validate", "--catalog", &path(&catalog), "--framing", "jsonl", "/no/such/stream"]);
    assert_eq!(missing.status.code(), Some(2));
    let ws = conformance(&["validate", "--catalog", &path(&catalog), "--framing", "websocket", &path(&good)]);
    assert_eq!(ws.status.code(), Some(2), "SSE bytes are not the websocket file form");
    assert!(stderr(&ws).contains("line 1"), "{}", stderr(&ws));
    let messages = dir.join("good.messages");
    std::fs::write(&messages, "{\"text\":\"[\\\"begin\\\",0,\\\"t1\\\",0]\"}\n{\"text\":\"[\\\"node\\\",1,\\\"r\\\",\\\"Stack\\\",{},[]]\"}\n{\"text\":\"[\\\"commit\\\",2,1,\\\"r\\\"]\"}\n").unwrap();
    let ws = conformance(&["validate", "--catalog", &path(&catalog), "--framing", "websocket", &path(&messages)]);
    assert_eq!(ws.status.code(), Some(0), "{}", stderr(&ws));
    assert!(String::from_utf8_lossy(&ws.stdout).contains("in 3 messages"));
    // A catalog with a key given twice is refused (issue 28), not read as its last value.
    let twice = dir.join("twice.json");
    std::fs::write(&twice, r#"{"id":"demo@1.0.0","components":{"Stack":{"props":{"type":"object"},"children":true}},"components":{}}"#).unwrap();
    let refused = conformance(&["validate", "--catalog", &path(&twice), "--framing", "sse", &path(&good)]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("twice.json: duplicate key \"components\" in the top-level object"), "{}", stderr(&refused));
}
