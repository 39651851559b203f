//! The pipes of one adapter process (`adapters/process.rs` drives the protocol over them): its
//! launch in a process group of its own, requests queued and written to a non-blocking stdin, the
//! answers read in order from stdout under a deadline with poll(2), and its stderr read whenever
//! it has something (`adapters/stderr.rs` keeps it for the cases).

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};

use super::stderr::Stream;
use crate::driver;

/// The most of the adapter's stderr one read to its current end takes (`drain_stderr`).
const DRAIN_BYTES: usize = 1024 * 1024;

/// Read buffer for the adapter's stdout: large enough that a typical response arrives in one read.
const STDOUT_BUFFER_BYTES: usize = 64 * 1024;
/// The capacity asked for the adapter's stdin and stdout pipes (Linux's default unprivileged
/// maximum; the default capacity is 64 KiB). Eight cases sent ahead often hold more than 64 KiB of
/// requests: in a larger pipe they go out in one write instead of several, each after a wait in
/// poll(2) for the adapter to read. Asking is best effort: a smaller pipe only costs those waits.
const PIPE_BYTES: usize = 1024 * 1024;

pub(super) struct Running {
    pub(super) child: Child,
    pub(super) stdin: ChildStdin,
    /// Read on the calling thread, waiting with `poll(2)` for the deadline: no reader thread, so a
    /// response wakes the harness directly (one context switch per response instead of two, which
    /// is most of the per-step overhead of the driver protocol).
    pub(super) stdout: BufReader<ChildStdout>,
    /// Non-blocking; `None` once it reached its end (or could not be read).
    pub(super) stderr: Option<ChildStderr>,
    /// What it wrote to its stderr and no case has taken yet.
    pub(super) stream: Stream,
    /// The last request failed because its deadline passed (not a crash or a bad answer).
    pub(super) timed_out: bool,
    /// Request bytes queued and not yet written (the pipe was full): written whenever the harness
    /// waits for an answer, so a pipelining harness and adapter never both block on full pipes.
    pub(super) unwritten: Vec<u8>,
    /// Bytes ever queued and ever written: a request whose end is past `written` is not yet
    /// (entirely) with the adapter.
    pub(super) queued: u64,
    pub(super) written: u64,
    /// Why writing stopped (the adapter closed its stdin): reported for the first request it cut.
    pub(super) write_error: Option<String>,
    /// The requests written (or queued) whose answers have not been read, oldest first.
    pub(super) awaiting: VecDeque<Awaited>,
}

/// A request whose answer is still to be read.
#[derive(Debug, Clone, Copy)]
pub(super) struct Awaited {
    /// `Running::queued` just after its line.
    pub(super) end: u64,
    pub(super) kind: Answer,
}

/// What becomes of an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Answer {
    /// Returned to the caller.
    Kept,
    /// Read and dropped: a pipelined `finish`. Anything but a well-formed answer other than
    /// `error` is broken, as a `finish` answered so is when requests go one at a time.
    Finish,
    /// Read and dropped: a step sent ahead of an answer that ended its case. Any well-formed
    /// answer will do, `error` and `skipped` included (the case may have no runtime).
    Unused,
    /// Read and dropped: a step sent with `ifDone` after an answer other than `done`, which the
    /// adapter must answer `skipped` ("Conditional requests"); anything else breaks the case.
    Skipped,
}

impl Running {
    pub(super) fn launch(argv: &[String]) -> Result<Running, String> {
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
            // for the request's deadline instead (`wait_readable`).
            let flags = rustix::fs::fcntl_getfl(&stdin).map_err(|e| format!("cannot configure the adapter's stdin: {e}"))?;
            rustix::fs::fcntl_setfl(&stdin, flags | rustix::fs::OFlags::NONBLOCK)
                .map_err(|e| format!("cannot configure the adapter's stdin: {e}"))?;
            let stdout = child.stdout.take().ok_or("no stdout pipe")?;
            let _ = rustix::pipe::fcntl_setpipe_size(&stdin, PIPE_BYTES);
            let _ = rustix::pipe::fcntl_setpipe_size(&stdout, PIPE_BYTES);
            let stderr = child.stderr.take().ok_or("no stderr pipe")?;
            // Read when poll(2) says so, and to its current end when a case ends.
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
        Ok(Running {
            child,
            stdin,
            stdout,
            stderr: Some(stderr),
            stream: Stream::default(),
            timed_out: false,
            unwritten: Vec::new(),
            queued: 0,
            written: 0,
            write_error: None,
            awaiting: VecDeque::new(),
        })
    }

    /// Reads the adapter's stderr to its current end, without waiting, and at most
    /// `DRAIN_BYTES` at a time: an adapter that writes without end cannot hold the harness here
    /// (the next poll(2) comes back to it, under the request's deadline).
    pub(super) fn drain_stderr(&mut self) {
        let Some(pipe) = self.stderr.as_mut() else { return };
        let mut buffer = [0u8; 8192];
        for _ in 0..DRAIN_BYTES / buffer.len() {
            match pipe.read(&mut buffer) {
                Ok(0) => {
                    self.stderr = None;
                    return;
                }
                Ok(n) => {
                    self.stream.push(&buffer[..n]);
                    // A pipe's read returns less than asked only when it was emptied: asking
                    // again would only say so (one system call per case for nothing).
                    if n < buffer.len() {
                        return;
                    }
                }
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
    pub(super) fn kill_group(&mut self) {
        crate::interrupt::kill_group(self.child.id() as i32);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub(super) fn kill(mut self) {
        self.kill_group();
    }

    /// Kills the process group and returns what it wrote to its stderr since it was last taken:
    /// everything it wrote before dying is in the pipe by then, read without waiting (a process
    /// outside the group holding the pipe open cannot make this wait).
    pub(super) fn kill_and_capture(mut self) -> Stream {
        self.kill_group();
        self.drain_stderr();
        self.stream
    }

    /// Queues one request line (written now as far as the pipe takes it, the rest while waiting
    /// for answers) and remembers that its answer is awaited.
    pub(super) fn send(&mut self, line: &[u8], kind: Answer) {
        self.queue(line, kind);
        self.write_some();
    }

    /// Queues one request line without writing it yet: the lines queued together go out in one
    /// write (`write_some`), a whole case in one system call rather than one per request.
    pub(super) fn queue(&mut self, line: &[u8], kind: Answer) {
        self.unwritten.extend_from_slice(line);
        self.queued += line.len() as u64;
        self.awaiting.push_back(Awaited { end: self.queued, kind });
    }

    /// Writes what the non-blocking stdin takes now. A failure stops writing for good; it is
    /// reported for the first request it cut (`wait_readable`).
    pub(super) fn write_some(&mut self) {
        let mut done = 0;
        while done < self.unwritten.len() && self.write_error.is_none() {
            match self.stdin.write(&self.unwritten[done..]) {
                Ok(0) => self.write_error = Some("cannot write to the adapter: its stdin is closed".into()),
                Ok(n) => done += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(e) => self.write_error = Some(format!("cannot write to the adapter (it may have exited): {e}")),
            }
        }
        self.written += done as u64;
        if self.write_error.is_some() {
            self.unwritten.clear();
        } else {
            self.unwritten.drain(..done);
        }
    }

    /// Writes every queued request, waiting in poll(2) while the pipe is full, at most until
    /// `deadline` (the end of a run: what is not written by then is not needed).
    pub(super) fn flush_within(&mut self, deadline: Instant) {
        loop {
            self.write_some();
            let left = deadline.saturating_duration_since(Instant::now());
            if self.unwritten.is_empty() || left.is_zero() {
                return;
            }
            let wait = Timespec::try_from(left).unwrap_or(Timespec { tv_sec: i64::MAX, tv_nsec: 0 });
            // An adapter blocked on its full stderr reads no request: its stderr is read too.
            let stderr_ready = {
                let mut fds = vec![PollFd::new(&self.stdin, PollFlags::OUT)];
                if let Some(stderr) = &self.stderr {
                    fds.push(PollFd::new(stderr, PollFlags::IN));
                }
                match poll(&mut fds, Some(&wait)) {
                    Ok(_) => fds.get(1).is_some_and(|fd| !fd.revents().is_empty()),
                    Err(rustix::io::Errno::INTR) => false,
                    Err(_) => return,
                }
            };
            if stderr_ready {
                self.drain_stderr();
            }
        }
    }

    /// Waits until stdout has something to read (data or end of file), at most until `deadline`,
    /// writing queued requests whenever the adapter's stdin takes them. `request_end`: where the
    /// request whose answer is awaited ends in the queue; a deadline passing before it was all
    /// written means the adapter stopped reading (it blocks nothing: stdin is non-blocking).
    pub(super) fn wait_readable(&mut self, request_end: u64, deadline: Instant, timeout: Duration) -> Result<(), String> {
        let mut spun = false;
        loop {
            self.write_some();
            if self.written < request_end {
                if let Some(error) = &self.write_error {
                    return Err(error.clone());
                }
            }
            // Most responses arrive within tens of microseconds: wait for them awake first.
            if !spun && self.unwritten.is_empty() {
                spun = true;
                if driver::spin_until_readable(self.stdout.get_ref()) {
                    return Ok(());
                }
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let wait = Timespec::try_from(left).unwrap_or(Timespec { tv_sec: i64::MAX, tv_nsec: 0 });
            let writing = !self.unwritten.is_empty();
            // stdout, then stdin while requests wait to be written, then stderr while it is open:
            // the adapter's stderr is read whenever it has something (`drain_stderr`).
            let (stdout_ready, stderr_ready) = {
                let mut fds = vec![PollFd::new(self.stdout.get_ref(), PollFlags::IN)];
                if writing {
                    fds.push(PollFd::new(&self.stdin, PollFlags::OUT));
                }
                let stderr_at = fds.len();
                if let Some(stderr) = &self.stderr {
                    fds.push(PollFd::new(stderr, PollFlags::IN));
                }
                match poll(&mut fds, Some(&wait)) {
                    Ok(_) => {}
                    Err(rustix::io::Errno::INTR) => continue,
                    Err(e) => return Err(format!("cannot wait for the adapter's stdout: {e}")),
                }
                (!fds[0].revents().is_empty(), fds.get(stderr_at).is_some_and(|fd| !fd.revents().is_empty()))
            };
            if stderr_ready {
                self.drain_stderr();
            }
            if stdout_ready {
                return Ok(());
            }
            // A stderr that is always readable must not keep this past its deadline.
            if Instant::now() >= deadline {
                self.timed_out = true;
                return Err(if self.written < request_end {
                    format!("the adapter did not read its request within {} ms (stdin full)", timeout.as_millis())
                } else {
                    format!("no response within {} ms", timeout.as_millis())
                });
            }
        }
    }

    /// Fills the read buffer, waiting at most until `deadline`. `Ok(false)`: end of file.
    pub(super) fn fill(&mut self, request_end: u64, deadline: Instant, timeout: Duration) -> Result<bool, String> {
        if !self.stdout.buffer().is_empty() {
            return Ok(true);
        }
        self.wait_readable(request_end, deadline, timeout)?;
        loop {
            match self.stdout.fill_buf() {
                Ok(bytes) => return Ok(!bytes.is_empty()),
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(format!("cannot read the adapter's stdout: {e}")),
            }
        }
    }

    /// Reads the answer to the oldest awaited request: one newline-terminated response, refusing
    /// one longer than `MAX_LINE_BYTES` without reading the rest of it.
    pub(super) fn read_answer(&mut self, request_end: u64, deadline: Instant, timeout: Duration) -> Result<String, String> {
        let mut line = Vec::new();
        loop {
            if !self.fill(request_end, deadline, timeout)? {
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

    /// Anything readable while no request is pending: a response out of turn (which would be
    /// matched to the wrong request), or the end of file of an adapter that exited.
    pub(super) fn check_quiet(&mut self) -> Result<(), String> {
        if !self.stdout.buffer().is_empty() {
            return self.out_of_turn();
        }
        let mut fds = [PollFd::new(self.stdout.get_ref(), PollFlags::IN)];
        match poll(&mut fds, Some(&Timespec { tv_sec: 0, tv_nsec: 0 })) {
            Ok(0) | Err(rustix::io::Errno::INTR) => Ok(()),
            Ok(_) => self.out_of_turn(),
            Err(e) => Err(format!("cannot wait for the adapter's stdout: {e}")),
        }
    }

    pub(super) fn out_of_turn(&mut self) -> Result<(), String> {
        let unsolicited = match self.stdout.fill_buf() {
            Ok([]) => return Err("the adapter closed its stdout (exited or crashed)".into()),
            Ok(bytes) => bytes,
            Err(e) => return Err(format!("cannot read the adapter's stdout: {e}")),
        };
        let shown = crate::quote::bounded(String::from_utf8_lossy(unsolicited).lines().next().unwrap_or(""));
        Err(format!("response out of turn (no request was pending): {shown}"))
    }
}
