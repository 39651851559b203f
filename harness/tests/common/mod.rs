//! Helpers the test files share: the `conformance` binary run to completion, a fresh scratch
//! folder per test, the handshake a shell adapter answers with, the check that no adapter process
//! outlived its run, the Node adapter's packages, and a case built in the test rather than loaded
//! from vectors/.

#![allow(dead_code)] // each test file uses the helpers it needs

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use harness::adapter::Protocol;
use harness::loader::CaseParts;
use serde_json::Value;

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

/// Every process whose id is a line of the file `pids` (each adapter started appends its own) is
/// gone or a zombie: the run left no adapter behind.
pub fn assert_no_adapter_left(pids: &Path) {
    for pid in std::fs::read_to_string(pids).unwrap().lines() {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        assert!(stat.is_empty() || stat.contains(") Z"), "adapter process {pid} left behind: {stat}");
    }
}

/// The repository's root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `npm ci` in `dir` unless `marker` (a package it installs) is there.
fn install(dir: &Path, marker: &str) {
    if dir.join("node_modules").join(marker).exists() {
        return;
    }
    let status = Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund"])
        .current_dir(dir)
        .status()
        .unwrap_or_else(|e| panic!("this test needs npm (and node 20 or later) to install {}: {e}", dir.display()));
    assert!(status.success(), "npm ci in {} failed", dir.display());
}

/// The Node adapter's and the JavaScript subject's packages, installed with `npm ci` when missing
/// (as `harness/node/subject/certify.sh` does); once per test process, since the tests run in
/// parallel and two `npm ci` in one folder collide.
pub fn node_packages() {
    static INSTALLED: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    INSTALLED.get_or_init(|| {
        let node = repo().join("harness/node");
        install(&node, "@sinonjs/fake-timers");
        install(&node.join("subject"), "ajv");
    });
}

/// The parts of a REQUIRED test case `id` (of the section its id names, from `test.json`, described
/// `d`, citing CL-B05-1, no profiles, no notes); a test overrides the fields it is about with
/// `CaseParts { field, ..test_case(…) }` and builds it with `Case::from`.
pub fn test_case(id: &str, protocol: Protocol, setup: Value, steps: Vec<Value>) -> CaseParts {
    CaseParts {
        id: id.into(),
        protocol,
        section: id.rsplitn(3, '.').nth(2).unwrap_or_default().into(),
        file: PathBuf::from("test.json"),
        description: "d".into(),
        requirements: vec!["CL-B05-1".into()],
        strictness: "REQUIRED".into(),
        profiles: vec![],
        setup,
        steps,
        notes: None,
    }
}
