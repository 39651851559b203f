//! Exit codes when nothing ran (issue 28): a handshake declaring no protocol, or a run whose every
//! selected case is `unsupported`, exits 4 unless `--allow-nothing-judged` is given, so a CI gate
//! on the exit code cannot pass a run that judged nothing; an unknown or misspelt profile in the
//! handshake (`event`, `json1`) is an error (exit 2) listing the known profiles.

use std::process::{Command, Output};

fn hello(protocols: &str, profiles: &str) -> String {
    format!(
        r#"{{"reply":"hello","protocol":"rcip-rui-driver/1","implementation":{{"name":"sh","version":"1"}},"protocols":{protocols},"profiles":{profiles},"limits":null,"assistBatchBound":null}}"#
    )
}

/// `run` against an adapter that shakes hands with `hello`, then answers every request but
/// `bye` with `unsupported`.
fn run_with(hello: &str, extra: &[&str]) -> Output {
    let adapter = format!(
        "read l; echo '{hello}'; while read l; do case \"$l\" in *'\"bye\"'*) exit 0;; esac; \
         echo '{{\"reply\":\"unsupported\",\"reason\":\"not here\"}}'; done"
    );
    let mut args = vec!["run", "--quiet"];
    args.extend_from_slice(extra);
    args.extend(["--adapter", "--", "sh", "-c", &adapter]);
    Command::new(env!("CARGO_BIN_EXE_conformance")).args(&args).env("NO_COLOR", "1").output().expect("runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).to_string()
}

#[test]
fn a_handshake_declaring_no_protocol_judges_nothing_and_exits_4() {
    let output = run_with(&hello("[]", "[]"), &["--filter", "rcip.policy-race."]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(4), "{err}");
    assert!(err.contains("no case was judged") && err.contains("the handshake declares no protocol"), "{err}");
    assert!(err.contains("--allow-nothing-judged"), "{err}");
    let allowed = run_with(&hello("[]", "[]"), &["--filter", "rcip.policy-race.", "--allow-nothing-judged"]);
    assert_eq!(allowed.status.code(), Some(0), "{}", stderr(&allowed));
    assert!(stderr(&allowed).contains("warning: no case was judged"), "{}", stderr(&allowed));
}

#[test]
fn a_run_whose_every_case_is_unsupported_exits_4() {
    // Only RCIP declared, only Rixx UI selected.
    let output = run_with(&hello(r#"["rcip"]"#, "[]"), &["--filter", "rui."]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(4), "{err}");
    assert!(err.contains("no case was judged") && err.contains("implementation does not declare protocol rui"), "{err}");
    // The adapter answers `unsupported` to every start: sent, but still nothing judged.
    let output = run_with(&hello(r#"["rcip"]"#, "[]"), &["--filter", "rcip.policy-race."]);
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
}

#[test]
fn an_unknown_or_misspelt_profile_in_the_handshake_is_an_error_listing_the_known_ones() {
    for wrong in ["event", "json1"] {
        let output = run_with(&hello(r#"["rcip","rui"]"#, &format!(r#"["sse","{wrong}"]"#)), &["--filter", "rcip.policy-race."]);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{err}");
        assert!(err.contains(&format!("unknown profile \"{wrong}\" in handshake")), "{err}");
        assert!(err.contains("the known profiles are events, preflight, assist, react, jsonl, sse, websocket, json-seq"), "{err}");
    }
}

#[test]
fn a_run_that_judged_something_is_unaffected() {
    let output = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .args(["run", "--quiet", "--filter", "rcip.policy-race."])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

#[test]
fn the_reports_of_a_run_that_judged_nothing_exit_4_too() {
    let dir = std::env::temp_dir().join(format!("harness-exit-codes-report-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let report = dir.join("report.json");
    let report_text = report.to_str().unwrap();
    let output = run_with(&hello("[]", "[]"), &["--filter", "rcip.policy-race.", "--allow-nothing-judged", "--report", report_text]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let from = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_conformance")).arg("report").arg(&report).args(extra).output().expect("runs")
    };
    let output = from(&[]);
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    assert!(stderr(&output).contains("no case was judged"), "{}", stderr(&output));
    assert_eq!(from(&["--allow-nothing-judged"]).status.code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}
