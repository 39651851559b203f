//! The process adapter: drives an implementation outside this repository over the driver protocol
//! (`harness/driver/README.md`). It launches the adapter command from argv (no shell), enforces a
//! per-request timeout, bounds what it reads, and turns a crash, hang, malformed reply or protocol
//! violation into an `AdapterError` (verdict `errored`) for that case; the broken process is killed
//! and a fresh one (with a new handshake) serves the next case, so a run never hangs.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::Value;

use crate::adapter::{Adapter, AdapterError, Implementation, Protocol, Reply};
use crate::driver;

/// How much of the adapter's stderr is kept for error reports.
const STDERR_TAIL_BYTES: usize = 64 * 1024;

struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Result<String, String>>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    stderr_reader: thread::JoinHandle<()>,
}

impl Running {
    fn launch(argv: &[String]) -> Result<Running, String> {
        let (program, args) = argv.split_first().ok_or("the adapter command is empty")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start adapter {program:?}: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin pipe")?;
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let stderr_pipe = child.stderr.take().ok_or("no stderr pipe")?;
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || read_lines(stdout, sender));
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = stderr.clone();
        let stderr_reader = thread::spawn(move || keep_tail(stderr_pipe, tail));
        Ok(Running { child, stdin, lines, stderr, stderr_reader })
    }

    fn stderr_tail(&self) -> String {
        let tail = self.stderr.lock().map(|t| t.iter().copied().collect::<Vec<u8>>()).unwrap_or_default();
        String::from_utf8_lossy(&tail).trim().to_string()
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Kills the process and returns the end of its stderr. The stderr reader is given a moment
    /// to drain what the process wrote before dying (a grandchild holding the pipe open must not
    /// make this wait forever).
    fn kill_and_tail(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        for _ in 0..50 {
            if self.stderr_reader.is_finished() {
                break;
            }
            thread::sleep(Duration::from_millis(10));
        }
        self.stderr_tail()
    }
}

/// Reads newline-terminated lines, refusing any longer than `MAX_LINE_BYTES`.
fn read_lines(stdout: impl Read, sender: mpsc::Sender<Result<String, String>>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        let limit = driver::MAX_LINE_BYTES as u64 + 1;
        match (&mut reader).take(limit).read_until(b'\n', &mut line) {
            Ok(0) => {
                let _ = sender.send(Err("the adapter closed its stdout (exited or crashed)".into()));
                return;
            }
            Ok(_) if line.last() != Some(&b'\n') && line.len() > driver::MAX_LINE_BYTES => {
                let _ = sender.send(Err(format!("response line longer than {} bytes", driver::MAX_LINE_BYTES)));
                return;
            }
            Ok(_) => {
                let text = String::from_utf8_lossy(&line).trim_end_matches(['\n', '\r']).to_string();
                if sender.send(Ok(text)).is_err() {
                    return;
                }
            }
            Err(e) => {
                let _ = sender.send(Err(format!("cannot read the adapter's stdout: {e}")));
                return;
            }
        }
    }
}

fn keep_tail(mut stderr: impl Read, tail: Arc<Mutex<VecDeque<u8>>>) {
    let mut buffer = [0u8; 4096];
    while let Ok(n) = stderr.read(&mut buffer) {
        if n == 0 {
            return;
        }
        if let Ok(mut tail) = tail.lock() {
            tail.extend(&buffer[..n]);
            while tail.len() > STDERR_TAIL_BYTES {
                tail.pop_front();
            }
        }
    }
}

pub struct ProcessAdapter {
    argv: Vec<String>,
    timeout: Duration,
    implementation: Implementation,
    running: Option<Running>,
    /// Index of the next step of the current case, for the `step` request.
    next_step: usize,
}

impl ProcessAdapter {
    /// Launches the adapter and performs the handshake. An adapter that cannot start or answer
    /// the handshake is an error for the whole run.
    pub fn launch(argv: Vec<String>, timeout: Duration) -> Result<ProcessAdapter, String> {
        let (running, implementation) = Self::start_process(&argv, timeout)?;
        Ok(ProcessAdapter { argv, timeout, implementation, running: Some(running), next_step: 0 })
    }

    fn start_process(argv: &[String], timeout: Duration) -> Result<(Running, Implementation), String> {
        let mut running = Running::launch(argv)?;
        let answer = exchange(&mut running, &driver::hello(), timeout);
        let implementation = answer.and_then(|line| driver::decode_hello(&line));
        match implementation {
            Ok(implementation) => Ok((running, implementation)),
            Err(e) => Err(with_stderr(format!("handshake failed: {e}"), &running.kill_and_tail())),
        }
    }

    fn ensure_running(&mut self) -> Result<(), AdapterError> {
        if self.running.is_some() {
            return Ok(());
        }
        let (running, implementation) =
            Self::start_process(&self.argv, self.timeout).map_err(|e| AdapterError(format!("restarting the adapter: {e}")))?;
        if implementation.name != self.implementation.name || implementation.version != self.implementation.version {
            running.kill();
            return Err(AdapterError("the restarted adapter reports a different implementation".into()));
        }
        self.running = Some(running);
        Ok(())
    }

    /// Sends a request and decodes the reply; on any failure the process is killed.
    fn request(&mut self, message: &Value) -> Result<Reply, AdapterError> {
        self.ensure_running()?;
        let Some(running) = self.running.as_mut() else {
            return Err(AdapterError("adapter is not running".into()));
        };
        let result = exchange(running, message, self.timeout).and_then(|line| driver::decode_reply(&line));
        match result {
            Ok(reply) => Ok(reply),
            Err(e) => {
                let tail = self.running.take().map(Running::kill_and_tail);
                Err(AdapterError(with_stderr(e, tail.as_deref().unwrap_or(""))))
            }
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

fn exchange(running: &mut Running, message: &Value, timeout: Duration) -> Result<String, String> {
    // Anything already waiting was sent without a request: the adapter answered out of turn, and
    // every later answer would be matched to the wrong request.
    if let Ok(unsolicited) = running.lines.try_recv() {
        let shown: String = unsolicited.unwrap_or_else(|e| e).chars().take(200).collect();
        return Err(format!("response out of turn (no request was pending): {shown}"));
    }
    let mut line = serde_json::to_string(message).map_err(|e| e.to_string())?;
    line.push('\n');
    running
        .stdin
        .write_all(line.as_bytes())
        .and_then(|_| running.stdin.flush())
        .map_err(|e| format!("cannot write to the adapter (it may have exited): {e}"))?;
    match running.lines.recv_timeout(timeout) {
        Ok(answer) => answer,
        Err(RecvTimeoutError::Timeout) => Err(format!("no response within {} ms", timeout.as_millis())),
        Err(RecvTimeoutError::Disconnected) => Err("the adapter's stdout reader stopped".into()),
    }
}

impl Adapter for ProcessAdapter {
    fn implementation(&self) -> &Implementation {
        &self.implementation
    }

    fn start(&mut self, case: &str, protocol: Protocol, setup: &Value) -> Result<Reply, AdapterError> {
        self.next_step = 0;
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
            let _ = serde_json::to_string(&driver::bye())
                .map(|l| running.stdin.write_all(format!("{l}\n").as_bytes()));
            let _ = running.stdin.flush();
            // Give a well-behaved adapter a moment to exit on its own, then make sure it is gone.
            for _ in 0..20 {
                if let Ok(Some(_)) = running.child.try_wait() {
                    return;
                }
                thread::sleep(Duration::from_millis(10));
            }
            running.kill();
        }
    }
}
