//! Helpers the CLI test files share: the `conformance` binary run to completion, a fresh scratch
//! folder per test, and the handshake a shell adapter answers with.

#![allow(dead_code)] // each test file uses the helpers it needs

use std::path::PathBuf;
use std::process::{Command, Output};

/// The handshake reply of a scripted shell adapter that declares both protocols and no profile.
pub const HELLO: &str = r#"{"reply":"hello","protocol":"rcip-rui-driver/1","implementation":{"name":"sh","version":"1"},"protocols":["rcip","rui"],"profiles":[],"limits":null,"assistBatchBound":null}"#;

/// Runs `conformance ARGS...` (no colours) and waits for it.
pub fn conformance(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conformance")).args(args).env("NO_COLOR", "1").output().expect("runs")
}

/// An empty folder of this test process, named after the test file (`prefix`) and the test.
pub fn scratch(prefix: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("harness-{prefix}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
