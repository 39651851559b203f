//! The `suites` command line rejects what it does not know (issue 14, section 2): an unknown flag
//! or command prints usage and exits 2, never runs anything.

use std::process::Command;

#[test]
fn an_unknown_flag_or_command_is_a_usage_error() {
    for args in [
        vec!["--no-such-flag"],
        vec!["regen", "--no-such-flag"],
        vec!["no-such-command"],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_suites"))
            .args(&args)
            .output()
            .expect("suites runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("Usage"),
            "{args:?}"
        );
    }
}
