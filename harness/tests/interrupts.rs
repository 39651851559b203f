//! SIGINT and SIGTERM to `conformance run` and `fuzz` (issue 28): the adapter's whole process group is
//! killed, its children and an adapter that ignores the end of its stdin included; no report is
//! left half-written, and a report of an earlier run is removed rather than left looking
//! current; the exit code is 128 + the signal (130, 143).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::HELLO;

fn scratch(name: &str) -> PathBuf {
    common::scratch("interrupts", name)
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path).unwrap_or_default().lines().map(str::to_string).collect()
}

/// The live (not zombie) processes whose process group is one of `groups`.
fn live_members(groups: &[String]) -> Vec<String> {
    let mut live = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        // "pid (comm) state ppid pgrp ...": the command name may hold spaces and parentheses.
        let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else { continue };
        let fields: Vec<&str> = after.split_whitespace().collect();
        if fields.len() > 2 && fields[0] != "Z" && groups.iter().any(|g| g == fields[2]) {
            live.push(stat.trim().to_string());
        }
    }
    live
}

/// Kills the adapter groups listed in a pid file when dropped: a failing test leaves nothing.
struct Reaper(PathBuf);

impl Drop for Reaper {
    fn drop(&mut self) {
        for group in lines(&self.0) {
            if let Some(pid) = group.parse().ok().and_then(rustix::process::Pid::from_raw) {
                let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
            }
        }
    }
}

/// Runs an adapter that starts a child, ignores SIGINT, SIGTERM and the end of its stdin, and
/// hangs after the handshake; sends `signal` to the run once every adapter has shaken hands;
/// returns the run's exit code and stderr.
fn interrupt_run(dir: &Path, signal: rustix::process::Signal, jobs: usize, report: &Path) -> (Option<i32>, String, Vec<String>) {
    let jobs_text = jobs.to_string();
    let args = ["run", "--quiet", "--step-timeout", "60000", "--jobs", &jobs_text, "--report", report.to_str().unwrap()];
    // One per job: the adapter that answered the run's handshake serves the first job.
    interrupt(dir, signal, &args, jobs)
}

/// `conformance ARGS --adapter -- <the adapter above>`, interrupted by `signal` once `adapters`
/// adapters have shaken hands.
fn interrupt(dir: &Path, signal: rustix::process::Signal, args: &[&str], adapters: usize) -> (Option<i32>, String, Vec<String>) {
    let pids = dir.join("pids");
    let ready = dir.join("ready");
    let _reaper = Reaper(pids.clone());
    let adapter = format!(
        "echo $$ >> '{p}'; sleep 1000 & trap '' INT TERM HUP; read l; echo '{HELLO}'; echo up >> '{r}'; \
         while true; do sleep 1; done",
        p = pids.display(),
        r = ready.display()
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .args(args)
        .args(["--adapter", "--", "sh", "-c", &adapter])
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while lines(&ready).len() < adapters {
        assert!(started.elapsed() < Duration::from_secs(60), "the adapters never shook hands");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    let pid = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
    rustix::process::kill_process(pid, signal).unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("the run did not end on the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    let groups = lines(&pids);
    assert_eq!(groups.len(), adapters, "every adapter started is accounted for");
    // SIGKILL is delivered at once, but a dying process leaves /proc a moment later.
    let started = Instant::now();
    let mut live = live_members(&groups);
    while !live.is_empty() && started.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(50));
        live = live_members(&groups);
    }
    (output.status.code(), String::from_utf8_lossy(&output.stderr).to_string(), live)
}

fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect()
}

#[test]
fn sigint_kills_every_adapter_group_and_writes_no_report() {
    let dir = scratch("int");
    let report = dir.join("report.json");
    let (code, err, live) = interrupt_run(&dir, rustix::process::Signal::INT, 2, &report);
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("interrupted by SIGINT"), "{err}");
    assert!(live.is_empty(), "adapter processes survived the interrupt: {live:?}");
    assert!(!report.exists(), "no report is written for an interrupted run");
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigterm_kills_the_adapter_group_and_removes_an_earlier_report() {
    let dir = scratch("term");
    let report = dir.join("report.json");
    std::fs::write(&report, "{\"an\": \"earlier run\"}\n").unwrap();
    let (code, err, live) = interrupt_run(&dir, rustix::process::Signal::TERM, 1, &report);
    assert_eq!(code, Some(143), "{err}");
    assert!(err.contains("interrupted by SIGTERM") && err.contains("removed the outputs of an earlier run"), "{err}");
    assert!(live.is_empty(), "adapter processes survived the interrupt: {live:?}");
    assert!(!report.exists(), "the earlier run's report must not be left looking current");
    assert!(temporaries(&dir).is_empty(), "{:?}", temporaries(&dir));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_interrupted_fuzz_kills_its_adapter_group_and_writes_no_finding() {
    let dir = scratch("fuzz");
    let out = dir.join("findings");
    let args = ["fuzz", "--step-timeout", "60000", "--out", out.to_str().unwrap()];
    let (code, err, live) = interrupt(&dir, rustix::process::Signal::INT, &args, 1);
    assert_eq!(code, Some(130), "{err}");
    assert!(live.is_empty(), "adapter processes survived the interrupt: {live:?}");
    assert!(!out.exists(), "nothing is written");
    let _ = std::fs::remove_dir_all(&dir);
}
