//! Checks the `model-check` command line: a clean run exits 0 and prints the figures and every
//! property's verdict; unknown or misplaced options are usage errors with exit code 2.

use std::process::Command;

fn model_check(args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_model-check"))
        .args(args)
        .output()
        .expect("model-check runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_clean_run_prints_figures_and_verdicts() {
    let (code, stdout, _) = model_check(&["assist", "--batch-bound", "1"]);
    assert_eq!(code, Some(0), "{stdout}");
    for expected in [
        "unique states:",
        "max depth:",
        "unique states per second:",
        "holds           Assist never starts an action after cancellation",
        "example found   decide can answer with text",
    ] {
        assert!(
            stdout.contains(expected),
            "missing {expected:?} in\n{stdout}"
        );
    }
}

#[test]
fn a_depth_bound_is_reported_as_a_cut() {
    let (code, stdout, _) = model_check(&["transaction", "--depth", "2"]);
    assert_eq!(code, Some(1), "witnesses deeper than 2 steps are not found");
    assert!(
        stdout.contains("max depth: 2 steps (cut at the depth bound)"),
        "{stdout}"
    );
    assert!(stdout.contains("holds to depth"), "{stdout}");
}

#[test]
fn unknown_options_are_usage_errors() {
    for args in [
        &["assist", "--bogus"][..],
        &["assist", "--node-ids", "3"][..],
        &["nothing"][..],
        &[][..],
        &["invocation", "--invocations", "many"][..],
        &["assist", "--threads", "0"][..],
        &["assist", "--threads", "some"][..],
    ] {
        let (code, _, stderr) = model_check(args);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(stderr.starts_with("model-check: "), "{stderr}");
    }
}

#[test]
fn threads_default_to_one_under_a_depth_bound() {
    let (code, stdout, _) = model_check(&["transaction", "--depth", "2"]);
    assert_eq!(code, Some(1), "witnesses deeper than 2 steps are not found");
    assert!(stdout.contains("bounds: depth 2, threads 1"), "{stdout}");
    let (code, stdout, _) = model_check(&["assist", "--batch-bound", "1", "--threads", "2"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("bounds: depth unbounded, threads 2"), "{stdout}");
}
