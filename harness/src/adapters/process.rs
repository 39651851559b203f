//! The process adapter: drives an implementation outside this repository over the driver protocol
//! (`harness/driver/README.md`). It launches the adapter command from argv (no shell), enforces a
//! per-request timeout, bounds what it reads, and turns a crash, hang, malformed reply or protocol
//! violation into an `AdapterError` (verdict `errored`) for that case; the broken process is killed
//! and a fresh one (with a new handshake) serves the next case, so a run never hangs.
//!
//! Never hang, never orphan (issue 14, section 2): a request is written to a non-blocking stdin
//! under the same deadline as its response (an adapter that stopped reading cannot block the
//! harness however large the request); the adapter runs in a process group of its own, and the
//! whole group is killed on timeout, crash and at the end of the run, so nothing it started
//! outlives it; a response that is not UTF-8 is a protocol violation. Each group is registered
//! with `interrupt` from its spawn to its end, so SIGINT or SIGTERM to the harness kills it too.
//! A request never waits past the run's overall deadline (`run --max-run-seconds`).
//!
//! The adapter's stderr is the implementation's own words (issue 27 §4): it is read on the calling
//! thread, in the same poll(2) as stdout (and as stdin while a request is written), so an adapter
//! that logs a lot never blocks on a full pipe, and after each response the pipe is read once more
//! to its current end. An adapter that writes its stderr before its response (Node on Linux pipes,
//! any unbuffered stderr) therefore has each line attributed to the case whose request was
//! answered after it: `take_stderr` hands the runner what was written since the previous case's
//! `finish` was answered. What the adapter writes before a case's `start` (at the handshake, or
//! after the previous case ended) goes to that case, after a line saying so; what it writes after
//! its response, asynchronously or through a buffer flushed later, goes to the case being run
//! when the harness reads it. Each job has its own process, so `--jobs` never mixes cases.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use serde_json::Value;

use crate::adapter::{Adapter, AdapterError, Implementation, Protocol, Reply};
use crate::driver;

/// How much of the adapter's stderr is kept between two `take_stderr` calls (the end of it): more
/// than a report shows (`quote::tail`), so the lines before a cut are whole.
const STDERR_TAIL_BYTES: usize = 64 * 1024;

/// The most of the adapter's stderr one read to its current end takes (`drain_stderr`).
const DRAIN_BYTES: usize = 1024 * 1024;

/// The harness's line between what an adapter wrote before a case's `start` and during the case.
const BEFORE_START: &[u8] = b"[harness] the lines above were written before this case started\n";

/// The end of what the adapter wrote to its stderr since it was last taken, and how much it wrote.
#[derive(Default)]
struct Captured {
    end: VecDeque<u8>,
    total: u64,
}

impl Captured {
    fn push(&mut self, bytes: &[u8]) {
        self.total += bytes.len() as u64;
        let bytes = &bytes[bytes.len().saturating_sub(STDERR_TAIL_BYTES)..];
        self.end.extend(bytes);
        let over = self.end.len().saturating_sub(STDERR_TAIL_BYTES);
        self.end.drain(..over);
    }

    fn append(&mut self, mut later: Captured) {
        let total = self.total + later.total;
        self.push(later.end.make_contiguous());
        self.total = total;
    }

    fn is_empty(&self) -> bool {
        self.total == 0
    }

    fn text(&mut self) -> String {
        String::from_utf8_lossy(self.end.make_contiguous()).trim().to_string()
    }
}

/// Read buffer for the adapter's stdout: large enough that a typical response arrives in one read.
const STDOUT_BUFFER_BYTES: usize = 64 * 1024;

struct Running {
    child: Child,
    stdin: ChildStdin,
    /// Read on the calling thread, waiting with `poll(2)` for the deadline: no reader thread, so a
    /// response wakes the harness directly (one context switch per response instead of two, which
    /// is most of the per-step overhead of the driver protocol).
    stdout: BufReader<ChildStdout>,
    /// Non-blocking; `None` once it reached its end (or could not be read).
    stderr: Option<ChildStderr>,
    captured: Captured,
    /// The last request failed because its deadline passed (not a crash or a bad answer).
    timed_out: bool,
}

impl Running {
    fn launch(argv: &[String]) -> Result<Running, String> {
        let (program, args) = argv.split_first().ok_or("the adapter command is empty")?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // A group of its own: everything the adapter starts can be ended with it.
            .process_group(0);
        // Registered as a live group, so SIGINT or SIGTERM to the harness ends it (`interrupt`).
        let mut child =
            crate::interrupt::spawn_group(&mut command).map_err(|e| format!("cannot start adapter {program:?}: {e}"))?;
        let pipes = (|| {
            let stdin = child.stdin.take().ok_or("no stdin pipe")?;
            // Writes never block: a request to an adapter that stopped reading waits in poll(2)
            // for the request's deadline instead (`write_all_within`).
            let flags = rustix::fs::fcntl_getfl(&stdin).map_err(|e| format!("cannot configure the adapter's stdin: {e}"))?;
            rustix::fs::fcntl_setfl(&stdin, flags | rustix::fs::OFlags::NONBLOCK)
                .map_err(|e| format!("cannot configure the adapter's stdin: {e}"))?;
            let stdout = child.stdout.take().ok_or("no stdout pipe")?;
            let stderr = child.stderr.take().ok_or("no stderr pipe")?;
            // Read when poll(2) says so, and to its current end after each response.
            let flags = rustix::fs::fcntl_getfl(&stderr).map_err(|e| format!("cannot configure the adapter's stderr: {e}"))?;
            rustix::fs::fcntl_setfl(&stderr, flags | rustix::fs::OFlags::NONBLOCK)
                .map_err(|e| format!("cannot configure the adapter's stderr: {e}"))?;
            Ok::<_, String>((stdin, stdout, stderr))
        })();
        let (stdin, stdout, stderr) = match pipes {
            Ok(pipes) => pipes,
            Err(e) => {
                // Started but unusable: ended and unregistered like any other adapter.
                crate::interrupt::kill_group(child.id() as i32);
                let _ = child.kill();
                let _ = child.wait();
                return Err(e);
            }
        };
        let stdout = BufReader::with_capacity(STDOUT_BUFFER_BYTES, stdout);
        Ok(Running { child, stdin, stdout, stderr: Some(stderr), captured: Captured::default(), timed_out: false })
    }

    /// Reads the adapter's stderr to its current end, without waiting, and at most
    /// `DRAIN_BYTES` at a time: an adapter that writes without end cannot hold the harness here
    /// (the next poll(2) comes back to it, under the request's deadline).
    fn drain_stderr(&mut self) {
        let Some(pipe) = self.stderr.as_mut() else { return };
        let mut buffer = [0u8; 8192];
        for _ in 0..DRAIN_BYTES / buffer.len() {
            match pipe.read(&mut buffer) {
                Ok(0) => {
                    self.stderr = None;
                    return;
                }
                Ok(n) => self.captured.push(&buffer[..n]),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => return,
                Err(_) => {
                    self.stderr = None;
                    return;
                }
            }
        }
    }

    /// Ends the adapter's whole process group (the adapter and everything it started that did
    /// not leave the group), then reaps the adapter.
    fn kill_group(&mut self) {
        crate::interrupt::kill_group(self.child.id() as i32);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn kill(mut self) {
        self.kill_group();
    }

    /// Kills the process group and returns what it wrote to its stderr since it was last taken:
    /// everything it wrote before dying is in the pipe by then, read without waiting (a process
    /// outside the group holding the pipe open cannot make this wait).
    fn kill_and_capture(mut self) -> Captured {
        self.kill_group();
        self.drain_stderr();
        self.captured
    }

    /// Waits until stdout has something to read (data or end of file), at most `wait`, reading
    /// the adapter's stderr whenever it has something meanwhile.
    fn readable_within(&mut self, wait: Duration) -> Result<bool, String> {
        let until = Instant::now().checked_add(wait);
        loop {
            let left = until.map_or(wait, |at| at.saturating_duration_since(Instant::now()));
            let timeout = Timespec::try_from(left).unwrap_or(Timespec { tv_sec: i64::MAX, tv_nsec: 0 });
            let (stdout_ready, stderr_ready) = {
                let mut fds = vec![PollFd::new(self.stdout.get_ref(), PollFlags::IN)];
                if let Some(stderr) = &self.stderr {
                    fds.push(PollFd::new(stderr, PollFlags::IN));
                }
                match poll(&mut fds, Some(&timeout)) {
                    Ok(0) => return Ok(false),
                    Ok(_) => (!fds[0].revents().is_empty(), fds.get(1).is_some_and(|fd| !fd.revents().is_empty())),
                    Err(rustix::io::Errno::INTR) => continue,
                    Err(e) => return Err(format!("cannot wait for the adapter's stdout: {e}")),
                }
            };
            if stderr_ready {
                self.drain_stderr();
            }
            if stdout_ready {
                return Ok(true);
            }
            // A stderr that is always readable must not keep this past its wait.
            if left.is_zero() || until.is_some_and(|at| Instant::now() >= at) {
                return Ok(false);
            }
        }
    }

    /// Fills the read buffer, waiting at most until `deadline`. `Ok(false)`: end of file.
    fn fill(&mut self, deadline: Instant, timeout: Duration) -> Result<bool, String> {
        if !self.stdout.buffer().is_empty() {
            return Ok(true);
        }
        // Most responses arrive within tens of microseconds: wait for them awake first.
        driver::spin_until_readable(self.stdout.get_ref());
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || !self.readable_within(left)? {
            self.timed_out = true;
            return Err(format!("no response within {} ms", timeout.as_millis()));
        }
        loop {
            match self.stdout.fill_buf() {
                Ok(bytes) => return Ok(!bytes.is_empty()),
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(format!("cannot read the adapter's stdout: {e}")),
            }
        }
    }

    /// Reads one newline-terminated response, refusing one longer than `MAX_LINE_BYTES` without
    /// reading the rest of it.
    fn read_line(&mut self, deadline: Instant, timeout: Duration) -> Result<String, String> {
        let mut line = Vec::new();
        loop {
            if !self.fill(deadline, timeout)? {
                return Err("the adapter closed its stdout (exited or crashed)".into());
            }
            let buffer = self.stdout.buffer();
            let (taken, complete) = match buffer.iter().position(|b| *b == b'\n') {
                Some(end) => (end + 1, true),
                None => (buffer.len(), false),
            };
            line.extend_from_slice(&buffer[..taken]);
            self.stdout.consume(taken);
            if line.len() > driver::MAX_LINE_BYTES + 1 || (!complete && line.len() > driver::MAX_LINE_BYTES) {
                return Err(format!("response line longer than {} bytes", driver::MAX_LINE_BYTES));
            }
            if complete {
                // The protocol is UTF-8 JSON: replacing bad bytes would judge an answer the
                // adapter never gave.
                let text = String::from_utf8(line).map_err(|e| {
                    format!("response is not valid UTF-8 (byte {}): a protocol violation", e.utf8_error().valid_up_to())
                })?;
                return Ok(text.trim_end_matches(['\n', '\r']).to_string());
            }
        }
    }

    /// Writes all of `bytes` to the adapter's non-blocking stdin, waiting in poll(2) whenever the
    /// pipe is full, at most until `deadline`.
    fn write_all_within(&mut self, mut bytes: &[u8], deadline: Instant, timeout: Duration) -> Result<(), String> {
        while !bytes.is_empty() {
            match self.stdin.write(bytes) {
                Ok(0) => return Err("cannot write to the adapter: its stdin is closed".into()),
                Ok(n) => bytes = &bytes[n..],
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    let wait = Timespec::try_from(left).unwrap_or(Timespec { tv_sec: i64::MAX, tv_nsec: 0 });
                    // An adapter blocked on its full stderr reads no request: its stderr is read too.
                    let (stdin_ready, stderr_ready) = {
                        let mut fds = vec![PollFd::new(&self.stdin, PollFlags::OUT)];
                        if let Some(stderr) = &self.stderr {
                            fds.push(PollFd::new(stderr, PollFlags::IN));
                        }
                        match poll(&mut fds, Some(&wait)) {
                            Ok(_) => (!fds[0].revents().is_empty(), fds.get(1).is_some_and(|fd| !fd.revents().is_empty())),
                            Err(rustix::io::Errno::INTR) => continue,
                            Err(e) => return Err(format!("cannot wait for the adapter's stdin: {e}")),
                        }
                    };
                    if stderr_ready {
                        self.drain_stderr();
                    }
                    if !stdin_ready && Instant::now() >= deadline {
                        self.timed_out = true;
                        return Err(format!(
                            "the adapter did not read its request within {} ms (stdin full)",
                            timeout.as_millis()
                        ));
                    }
                }
                Err(e) => return Err(format!("cannot write to the adapter (it may have exited): {e}")),
            }
        }
        Ok(())
    }

    /// Anything readable while no request is pending: a response out of turn (which would be
    /// matched to the wrong request), or the end of file of an adapter that exited.
    fn check_quiet(&mut self) -> Result<(), String> {
        if self.stdout.buffer().is_empty() && !self.readable_within(Duration::ZERO)? {
            return Ok(());
        }
        let unsolicited = match self.stdout.fill_buf() {
            Ok([]) => return Err("the adapter closed its stdout (exited or crashed)".into()),
            Ok(bytes) => bytes,
            Err(e) => return Err(format!("cannot read the adapter's stdout: {e}")),
        };
        let shown = crate::quote::bounded(String::from_utf8_lossy(unsolicited).lines().next().unwrap_or(""));
        Err(format!("response out of turn (no request was pending): {shown}"))
    }
}

pub struct ProcessAdapter {
    argv: Vec<String>,
    timeout: Duration,
    implementation: Implementation,
    running: Option<Running>,
    /// Index of the next step of the current case, for the `step` request.
    next_step: usize,
    /// The current case failed because a request's deadline passed.
    timed_out: bool,
    /// The run's overall deadline (`run --max-run-seconds`): no request waits past it.
    run_deadline: Option<Instant>,
    /// What adapters that were ended wrote to stderr since `take_stderr` was last called.
    stderr: Captured,
}

impl ProcessAdapter {
    /// Launches the adapter and performs the handshake. An adapter that cannot start or answer
    /// the handshake is an error for the whole run.
    pub fn launch(argv: Vec<String>, timeout: Duration) -> Result<ProcessAdapter, String> {
        Self::launch_until(argv, timeout, None)
    }

    /// [`launch`](Self::launch), no request (the handshake included) waiting past `run_deadline`:
    /// a request cut by it is an error saying so, its case `errored`.
    pub fn launch_until(argv: Vec<String>, timeout: Duration, run_deadline: Option<Instant>) -> Result<ProcessAdapter, String> {
        let (running, implementation) = Self::start_process(&argv, timeout, run_deadline).map_err(|(e, _)| e)?;
        Ok(ProcessAdapter {
            argv,
            timeout,
            implementation,
            running: Some(running),
            next_step: 0,
            timed_out: false,
            run_deadline,
            stderr: Captured::default(),
        })
    }

    /// `Err((message, timed out))`.
    fn start_process(argv: &[String], timeout: Duration, run_deadline: Option<Instant>) -> Result<(Running, Implementation), (String, bool)> {
        let mut running = Running::launch(argv).map_err(|e| (e, false))?;
        let answer = exchange(&mut running, &driver::hello(), timeout, run_deadline);
        let implementation = answer.and_then(|line| driver::decode_hello(&line));
        match implementation {
            Ok(implementation) => Ok((running, implementation)),
            Err(e) => {
                let timed_out = running.timed_out;
                Err((with_stderr(format!("handshake failed: {e}"), &running.kill_and_capture().text()), timed_out))
            }
        }
    }

    fn ensure_running(&mut self) -> Result<(), AdapterError> {
        if self.running.is_some() {
            return Ok(());
        }
        let (running, implementation) = Self::start_process(&self.argv, self.timeout, self.run_deadline).map_err(|(e, timed_out)| {
            self.timed_out |= timed_out;
            AdapterError(format!("restarting the adapter: {e}"))
        })?;
        if implementation.name != self.implementation.name || implementation.version != self.implementation.version {
            running.kill();
            return Err(AdapterError("the restarted adapter reports a different implementation".into()));
        }
        self.running = Some(running);
        Ok(())
    }

    /// Sends a request and decodes the reply; on any failure the process is killed.
    fn request(&mut self, message: &driver::Request<'_>) -> Result<Reply, AdapterError> {
        self.ensure_running()?;
        let Some(running) = self.running.as_mut() else {
            return Err(AdapterError("adapter is not running".into()));
        };
        let result = exchange(running, message, self.timeout, self.run_deadline).and_then(|line| driver::decode_reply(&line));
        match result {
            Ok(reply) => Ok(reply),
            Err(e) => {
                // What it wrote before breaking is the case's stderr (`take_stderr`), shown
                // under the case with the error.
                self.timed_out |= running.timed_out;
                if let Some(ended) = self.running.take() {
                    self.stderr.append(ended.kill_and_capture());
                }
                Err(AdapterError(e))
            }
        }
    }
}

impl ProcessAdapter {
    /// Moves what the running adapter wrote to stderr so far into `self.stderr`.
    fn collect_stderr(&mut self) {
        if let Some(running) = self.running.as_mut() {
            running.drain_stderr();
            self.stderr.append(std::mem::take(&mut running.captured));
        }
    }

    /// A case starts: what the adapter wrote since the previous case was taken is marked as
    /// written before it.
    fn mark_case_start(&mut self) {
        self.collect_stderr();
        if !self.stderr.is_empty() {
            // The harness's own line: not counted as bytes the adapter wrote.
            let total = self.stderr.total;
            self.stderr.push(BEFORE_START);
            self.stderr.total = total;
        }
    }
}

fn with_stderr(message: String, tail: &str) -> String {
    if tail.is_empty() {
        message
    } else {
        let last: Vec<&str> = tail.lines().rev().take(20).collect::<Vec<_>>().into_iter().rev().collect();
        format!("{message}\n  adapter stderr (last lines):\n    {}", last.join("\n    "))
    }
}

/// One request and its response, both within `timeout` from now and before `run_deadline`.
fn exchange(running: &mut Running, message: &driver::Request<'_>, timeout: Duration, run_deadline: Option<Instant>) -> Result<String, String> {
    running.timed_out = false;
    running.check_quiet()?;
    let own = Instant::now() + timeout;
    let (deadline, cut) = match run_deadline {
        Some(at) if at < own => (at, true),
        _ => (own, false),
    };
    let mut line = serde_json::to_string(message).map_err(|e| e.to_string())?;
    line.push('\n');
    let result = running.write_all_within(line.as_bytes(), deadline, timeout).and_then(|()| running.read_line(deadline, timeout));
    // What the adapter wrote to stderr before it answered is in the pipe now: it belongs to this
    // request's case.
    running.drain_stderr();
    match result {
        Err(_) if cut && running.timed_out => {
            Err("the run's overall deadline (--max-run-seconds) passed before the adapter answered: the case is not finished".into())
        }
        other => other,
    }
}

impl Adapter for ProcessAdapter {
    fn implementation(&self) -> &Implementation {
        &self.implementation
    }

    fn start(&mut self, case: &str, protocol: Protocol, setup: &Value) -> Result<Reply, AdapterError> {
        self.next_step = 0;
        self.timed_out = false;
        self.mark_case_start();
        match self.request(&driver::start(case, protocol, setup))? {
            Reply::Observed(_) => Err(AdapterError("start was answered with an observation".into())),
            reply => Ok(reply),
        }
    }

    fn step(&mut self, step: &Value) -> Result<Reply, AdapterError> {
        let index = self.next_step;
        self.next_step += 1;
        self.request(&driver::step(index, step))
    }

    fn timed_out(&self) -> bool {
        self.timed_out
    }

    fn take_stderr(&mut self) -> Option<String> {
        self.collect_stderr();
        let mut taken = std::mem::take(&mut self.stderr);
        crate::quote::tail(taken.end.make_contiguous(), taken.total)
    }

    fn finish(&mut self) {
        if self.running.is_some() {
            // The case is already judged; a broken finish only costs a restart for the next case.
            let _ = self.request(&driver::finish());
        }
    }
}

impl Drop for ProcessAdapter {
    fn drop(&mut self) {
        if let Some(mut running) = self.running.take() {
            let bye = serde_json::to_string(&driver::bye()).unwrap_or_default() + "\n";
            let _ = running.write_all_within(bye.as_bytes(), Instant::now() + Duration::from_millis(200), self.timeout);
            // Give a well-behaved adapter a moment to exit on its own, then end its whole group:
            // whatever it started must not outlive the run.
            for _ in 0..20 {
                if let Ok(Some(_)) = running.child.try_wait() {
                    break;
                }
                thread::sleep(Duration::from_millis(10));
            }
            running.kill();
        }
    }
}
