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
//! that logs a lot never blocks on a full pipe, and when a case ends (or its adapter breaks) the
//! pipe is read once more to its current end. An adapter that writes its stderr before its response (Node on Linux pipes,
//! any unbuffered stderr) therefore has each line attributed to the case whose request was
//! answered after it: `take_stderr` hands the runner what was written since the previous case's
//! `finish` was answered. What the adapter writes before a case's `start` (at the handshake, or
//! after the previous case ended) goes to that case, after a line saying so; what it writes after
//! its response, asynchronously or through a buffer flushed later, goes to the case being run
//! when the harness reads it. An adapter that declares `caseMarks` marks each case's beginning on
//! its stderr instead (`adapters/stderr.rs`): each case then gets exactly what was written from its
//! mark to the next, and whole cases can be sent ahead of the answers to earlier ones
//! (`harness/driver/README.md`, "Sending cases ahead"; `Adapter::announce_case`): the announced
//! requests are kept until asked for, and sent again to a fresh process when the one they went to
//! breaks. Each job has its own process, so `--jobs` never mixes cases.

use std::collections::VecDeque;
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::pipes::{Answer, Running};
use super::stderr::Captured;
use crate::adapter::{Adapter, AdapterError, Ahead, Implementation, Protocol, Reply};
use crate::driver;

/// The harness's line between what an adapter wrote before a case's `start` and during the case.
const BEFORE_START: &[u8] = b"[harness] the lines above were written before this case started\n";

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
    /// The adapter declared `pipelining` in its handshake and the harness uses it
    /// (`harness/driver/README.md`, "Pipelining"): requests go out before earlier answers arrive.
    pipelining: bool,
    /// The adapter declared `caseMarks`: its stderr is cut at the marks (`adapters/stderr.rs`).
    case_marks: bool,
    /// Pipelining with case marks: whole cases are sent ahead of the answers to earlier ones
    /// ("Sending cases ahead").
    cases_ahead: bool,
    /// Pipelining with `conditionalRequests`: steps that go only after a `done` answer are sent
    /// ahead of it, marked `ifDone` ("Conditional requests").
    conditional_steps: bool,
    /// Pipelining: the requests announced ([`Adapter::announce_case`], [`Adapter::send_ahead`])
    /// that the runner has not asked for yet, in order. Those sent to the running process are a
    /// prefix of it; the rest go when it runs (again, after a restart).
    script: VecDeque<Scripted>,
    /// Pipelining: the number the next step announced gets (`index` of its `step` request).
    next_ahead: usize,
    /// Pipelining: the current case's `start` was answered and its `finish` not yet called:
    /// steps announced go out at once.
    case_open: bool,
}

/// An announced request: its line (sent again to a fresh process should the one it went to
/// break before it was asked for), what it is, and whether the running process has it.
struct Scripted {
    line: String,
    call: Call,
    sent: bool,
}

/// What an announced request is; the runner asks for exactly these, in order.
enum Call {
    /// The `start` of the case with this id.
    Start(String),
    /// A step: its `index`, and the address of the step value announced: `step` is asked for
    /// that same value (the runner's plan holds it until the case ends), so it needs no second
    /// encoding to compare.
    Step { index: usize, step: usize, if_done: bool },
    Finish,
}

/// An adapter process started before its handshake ([`ProcessAdapter::spawn`]); ended (its whole
/// group) if it is dropped without being launched, e.g. when the run stops at a usage error.
pub struct Spawned {
    running: Option<Running>,
    argv: Vec<String>,
}

impl Drop for Spawned {
    fn drop(&mut self) {
        if let Some(running) = self.running.take() {
            running.kill();
        }
    }
}

/// Whether the harness may pipeline requests to an adapter that declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pipelining {
    /// Pipeline when the adapter's handshake declares `pipelining` (the default).
    #[default]
    IfDeclared,
    /// One request at a time whatever the adapter declares (`--no-pipelining`): to tell a
    /// pipelining bug of an adapter from a bug of the implementation behind it.
    Off,
}

/// The optional modes a handshake declares.
#[derive(Debug, Clone, Copy)]
struct Declared {
    pipelining: bool,
    case_marks: bool,
    conditional_requests: bool,
}

/// How a request's answer could not be had.
enum Broken {
    /// The answer to this request (or to a request before it that the caller waited for).
    Request(String),
    /// The answer to a request of an earlier case that is read and dropped (a pipelined
    /// `finish`): as in step-by-step mode, where a broken `finish` only costs a restart.
    Dropped,
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
        Self::launch_with(argv, timeout, run_deadline, Pipelining::IfDeclared)
    }

    /// [`launch_until`](Self::launch_until), pipelining as `pipelining` allows.
    pub fn launch_with(
        argv: Vec<String>,
        timeout: Duration,
        run_deadline: Option<Instant>,
        pipelining: Pipelining,
    ) -> Result<ProcessAdapter, String> {
        let spawned = Self::spawn(argv)?;
        Self::launch_spawned(spawned, timeout, run_deadline, pipelining)
    }

    /// Starts the adapter process without its handshake, so that it can load what it loads while
    /// the harness loads the vectors (the Node adapter's start is about a second of CPU time,
    /// issue 29 §2); [`launch_spawned`](Self::launch_spawned) then performs the handshake. The
    /// error is the one [`launch_with`](Self::launch_with) gives for a command that cannot start.
    pub fn spawn(argv: Vec<String>) -> Result<Spawned, String> {
        let running = Running::launch(&argv)?;
        Ok(Spawned { running: Some(running), argv })
    }

    /// [`launch_with`](Self::launch_with) for a process already started with [`spawn`](Self::spawn).
    pub fn launch_spawned(
        mut spawned: Spawned,
        timeout: Duration,
        run_deadline: Option<Instant>,
        pipelining: Pipelining,
    ) -> Result<ProcessAdapter, String> {
        let running = spawned.running.take().ok_or("internal: the adapter was already launched")?;
        let argv = std::mem::take(&mut spawned.argv);
        let (running, implementation, declared) = Self::handshake(running, timeout, run_deadline).map_err(|(e, _)| e)?;
        Ok(ProcessAdapter {
            argv,
            timeout,
            implementation,
            running: Some(running),
            next_step: 0,
            timed_out: false,
            run_deadline,
            stderr: Captured::default(),
            pipelining: declared.pipelining && pipelining == Pipelining::IfDeclared,
            case_marks: declared.case_marks,
            cases_ahead: declared.pipelining && declared.case_marks && pipelining == Pipelining::IfDeclared,
            conditional_steps: declared.pipelining && declared.conditional_requests && pipelining == Pipelining::IfDeclared,
            script: VecDeque::new(),
            next_ahead: 0,
            case_open: false,
        })
    }

    /// Whether requests are pipelined to this adapter.
    pub fn pipelining(&self) -> bool {
        self.pipelining
    }

    /// Whether whole cases are sent ahead to this adapter ("Sending cases ahead").
    pub fn cases_ahead(&self) -> bool {
        self.cases_ahead
    }

    /// `Ok((process, implementation, modes declared))`; `Err((message, timed out))`.
    fn start_process(argv: &[String], timeout: Duration, run_deadline: Option<Instant>) -> Result<(Running, Implementation, Declared), (String, bool)> {
        let running = Running::launch(argv).map_err(|e| (e, false))?;
        Self::handshake(running, timeout, run_deadline)
    }

    /// The handshake with a started process; a process that fails it is ended.
    fn handshake(mut running: Running, timeout: Duration, run_deadline: Option<Instant>) -> Result<(Running, Implementation, Declared), (String, bool)> {
        let answer = exchange(&mut running, &driver::hello(), timeout, run_deadline);
        let declared = answer.and_then(|line| {
            let declared = Declared {
                pipelining: driver::decode_pipelining(&line)?,
                case_marks: driver::decode_case_marks(&line)?,
                conditional_requests: driver::decode_conditional_requests(&line)?,
            };
            Ok((driver::decode_hello(&line)?, declared))
        });
        match declared {
            Ok((implementation, declared)) => {
                if declared.case_marks {
                    running.stream.cut_at_marks();
                }
                Ok((running, implementation, declared))
            }
            Err(e) => {
                let timed_out = running.timed_out;
                Err((with_stderr(format!("handshake failed: {e}"), &running.kill_and_capture().take_all().text()), timed_out))
            }
        }
    }

    fn ensure_running(&mut self) -> Result<(), AdapterError> {
        if self.running.is_some() {
            return Ok(());
        }
        let (running, implementation, declared) =
            Self::start_process(&self.argv, self.timeout, self.run_deadline).map_err(|(e, timed_out)| {
                self.timed_out |= timed_out;
                AdapterError(format!("restarting the adapter: {e}"))
            })?;
        if implementation.name != self.implementation.name || implementation.version != self.implementation.version {
            running.kill();
            return Err(AdapterError("the restarted adapter reports a different implementation".into()));
        }
        if self.pipelining && !declared.pipelining {
            running.kill();
            return Err(AdapterError("the restarted adapter no longer declares pipelining".into()));
        }
        if self.case_marks != declared.case_marks {
            running.kill();
            return Err(AdapterError("the restarted adapter declares caseMarks differently".into()));
        }
        if self.conditional_steps && !declared.conditional_requests {
            running.kill();
            return Err(AdapterError("the restarted adapter no longer declares conditionalRequests".into()));
        }
        self.running = Some(running);
        Ok(())
    }

    /// The deadline of an answer awaited from now: the request timeout, or the run's deadline
    /// when that comes first (`true`: cut by it).
    fn deadline(&self) -> (Instant, bool) {
        let own = Instant::now() + self.timeout;
        match self.run_deadline {
            Some(at) if at < own => (at, true),
            _ => (own, false),
        }
    }

    /// Reads answers in order until the first one that is kept, dropping (after decoding) those
    /// of requests whose case is over. Each answer has its own deadline, counted from when the
    /// harness starts waiting for it: the adapter gets the same time per request as when it
    /// receives one at a time.
    fn next_answer(&mut self) -> Result<Reply, Broken> {
        loop {
            let (deadline, cut) = self.deadline();
            let timeout = self.timeout;
            let Some(running) = self.running.as_mut() else {
                return Err(Broken::Request("adapter is not running".into()));
            };
            let Some(awaited) = running.awaiting.pop_front() else {
                return Err(Broken::Request("internal: no request is awaiting an answer".into()));
            };
            running.timed_out = false;
            // What the adapter wrote to stderr before it answered is in the pipe now, and belongs
            // to this request's case: it is read whenever the harness waits (`wait_readable`) and
            // to the pipe's current end when the case ends (`take_stderr`) or breaks (`broken`),
            // not after every answer (a system call per answer, 4% of a fuzz campaign).
            let answer = running.read_answer(awaited.end, deadline, timeout);
            let answer = match answer {
                Err(_) if cut && running.timed_out => Err(
                    "the run's overall deadline (--max-run-seconds) passed before the adapter answered: the case is not finished"
                        .to_string(),
                ),
                other => other,
            };
            let reply = answer.and_then(|line| decode_awaited(&line, awaited.kind));
            match (reply, awaited.kind) {
                (Ok(Ok(reply)), Answer::Kept) => return Ok(reply),
                (Ok(Ok(_)), Answer::Skipped) => continue,
                (Ok(Err(e)) | Err(e), Answer::Skipped) => {
                    self.timed_out |= running.timed_out;
                    return Err(Broken::Request(e));
                }
                (Ok(Err(message)), Answer::Kept) => return Err(Broken::Request(format!("adapter error: {message}"))),
                (Err(e), Answer::Kept) => {
                    self.timed_out |= running.timed_out;
                    return Err(Broken::Request(e));
                }
                (Ok(Ok(_)), Answer::Finish) | (Ok(_), Answer::Unused) => continue,
                (Ok(Err(_)) | Err(_), Answer::Finish) | (Err(_), Answer::Unused) => return Err(Broken::Dropped),
            }
        }
    }

    /// Kills the process after a broken answer and returns the error with its stderr.
    /// What it wrote to stderr before breaking is the case's stderr (`take_stderr`), shown under
    /// the case with the error. Requests announced for later cases go to the next process.
    fn broken(&mut self, message: String) -> AdapterError {
        if let Some(running) = &self.running {
            self.timed_out |= running.timed_out;
        }
        self.end_process();
        AdapterError(message)
    }

    /// Ends the running process, keeping what it wrote to stderr for the current case; whatever
    /// it was sent and has not answered is sent again to the next process.
    fn end_process(&mut self) {
        if let Some(ended) = self.running.take() {
            let mut stream = ended.kill_and_capture();
            // With marks, what it wrote for the cases sent ahead after this one is dropped with
            // them: those cases run again on the next process, which writes its own.
            let (before, own) = stream.take_case();
            self.keep_case_text(before, own);
        }
        for entry in &mut self.script {
            entry.sent = false;
        }
    }

    /// Adds a case's text to what `take_stderr` hands over: what was written before the case
    /// started, after a line saying so, then its own.
    fn keep_case_text(&mut self, before: Captured, own: Captured) {
        if !before.is_empty() {
            self.stderr.append(before);
            self.stderr.push_own_line(BEFORE_START);
        }
        self.stderr.append(own);
    }

    /// Sends a request and decodes the reply; on any failure the process is killed.
    fn request(&mut self, message: &driver::Request<'_>) -> Result<Reply, AdapterError> {
        let line = request_line(message)?;
        self.request_line(&line)
    }

    fn request_line(&mut self, line: &str) -> Result<Reply, AdapterError> {
        self.ensure_running()?;
        let Some(running) = self.running.as_mut() else {
            return Err(AdapterError("adapter is not running".into()));
        };
        running.timed_out = false;
        if running.awaiting.is_empty() {
            if let Err(e) = running.check_quiet() {
                return Err(self.broken(e));
            }
        }
        running.send(line.as_bytes(), Answer::Kept);
        self.answer()
    }

    /// The next kept answer; on any failure the process is killed.
    fn answer(&mut self) -> Result<Reply, AdapterError> {
        match self.next_answer() {
            Ok(reply) => Ok(reply),
            Err(Broken::Request(e)) => Err(self.broken(e)),
            Err(Broken::Dropped) => Err(self.broken("the answer to a request of the previous case was broken".into())),
        }
    }

    /// Queues every announced request the running process does not have yet, in order, and
    /// writes what its stdin takes now.
    fn send_script(&mut self) {
        let Some(running) = self.running.as_mut() else { return };
        for entry in self.script.iter_mut().filter(|entry| !entry.sent) {
            let kind = match entry.call {
                Call::Finish => Answer::Finish,
                Call::Start(_) | Call::Step { .. } => Answer::Kept,
            };
            running.queue(entry.line.as_bytes(), kind);
            entry.sent = true;
        }
        running.write_some();
    }

    /// `finish` in pipelining mode: sent without waiting for its answer (read, and dropped, before
    /// the next kept answer, or by `take_stderr` with case marks); the answers to steps sent
    /// ahead that the case did not use (it ended at an `unsupported` answer, say) are dropped too.
    fn finish_pipelined(&mut self) {
        // `next_ahead` stays: it belongs to the case announced last, which may be a later one.
        self.case_open = false;
        let mut unused = 0;
        while let Some(Scripted { call: Call::Step { .. }, sent, .. }) = self.script.front() {
            unused += usize::from(*sent);
            self.script.pop_front();
        }
        let announced = match self.script.front() {
            Some(Scripted { call: Call::Finish, .. }) => self.script.pop_front(),
            _ => None,
        };
        let Some(running) = self.running.as_mut() else { return };
        // The unused steps are the oldest kept answers still awaited: everything before them was
        // read, and what follows them belongs to this `finish` and to later cases.
        for awaited in running.awaiting.iter_mut().filter(|a| a.kind == Answer::Kept).take(unused) {
            awaited.kind = Answer::Unused;
        }
        match announced {
            Some(entry) if entry.sent => {}
            Some(entry) => running.send(entry.line.as_bytes(), Answer::Finish),
            None => {
                if let Ok(line) = request_line(&driver::finish()) {
                    running.send(line.as_bytes(), Answer::Finish);
                }
            }
        }
    }

    /// `start` of an announced case: written (if not already) with everything announced after
    /// it, after whatever answers of earlier cases are still to be read. Should one of those be
    /// broken (the previous case's `finish` timed out, say), the process is ended and a fresh one
    /// gets the case and everything after it, exactly as after a broken `finish` in step-by-step
    /// mode.
    fn start_announced(&mut self) -> Result<Reply, AdapterError> {
        for attempt in 0..2 {
            self.ensure_running()?;
            let Some(running) = self.running.as_mut() else {
                return Err(AdapterError("adapter is not running".into()));
            };
            let unsent = self.script.front().is_some_and(|entry| !entry.sent);
            if unsent && running.awaiting.is_empty() {
                if let Err(e) = running.check_quiet() {
                    return Err(self.broken(e));
                }
            }
            self.send_script();
            match self.next_answer() {
                Ok(reply) => {
                    self.case_open = true;
                    return Ok(reply);
                }
                Err(Broken::Request(e)) => return Err(self.broken(e)),
                Err(Broken::Dropped) if attempt == 0 => self.end_process(),
                Err(Broken::Dropped) => return Err(self.broken("a dropped answer was broken".into())),
            }
        }
        Err(AdapterError("internal: start was not sent".into()))
    }

    /// Drops the conditional steps sent ahead that the runner went on past (the answer before
    /// them was not `done`, so the adapter skipped them), up to the step at `asked`: their
    /// answers, which must be `skipped`, are read and dropped before the next kept one.
    fn skip_conditional_steps(&mut self, asked: usize) {
        while let Some(Scripted { call: Call::Step { step, if_done: true, .. }, sent, .. }) = self.script.front() {
            if *step == asked {
                return;
            }
            let sent = *sent;
            self.script.pop_front();
            self.next_step += 1;
            if let (true, Some(running)) = (sent, self.running.as_mut()) {
                // Every answer before this request's was read: it is the oldest one kept.
                if let Some(awaited) = running.awaiting.iter_mut().find(|awaited| awaited.kind == Answer::Kept) {
                    awaited.kind = Answer::Skipped;
                }
            }
        }
    }

    /// Reads (and drops) the answers awaited before the next kept one: the requests of the case
    /// just finished that it did not use, and its `finish`. A broken one ends the process (the
    /// next case starts on a fresh one), as a broken `finish` does in step-by-step mode.
    fn read_dropped(&mut self) {
        loop {
            let Some(running) = self.running.as_mut() else { return };
            if running.awaiting.front().is_none_or(|awaited| awaited.kind == Answer::Kept) {
                return;
            }
            let (deadline, _) = self.deadline();
            let timeout = self.timeout;
            let Some(running) = self.running.as_mut() else { return };
            let Some(awaited) = running.awaiting.pop_front() else { return };
            let answer = running.read_answer(awaited.end, deadline, timeout).and_then(|line| decode_awaited(&line, awaited.kind));
            let fine = match awaited.kind {
                Answer::Finish | Answer::Skipped => matches!(answer, Ok(Ok(_))),
                Answer::Unused | Answer::Kept => answer.is_ok(),
            };
            if !fine {
                self.end_process();
                return;
            }
        }
    }
}

/// Where a value is: identifies the step a plan sent ahead while the plan holds it.
fn address(value: &Value) -> usize {
    value as *const Value as usize
}

/// Decodes an answer as what its request awaits: `skipped` is the answer to a conditional step
/// the adapter had to skip (and a fine answer to one whose answer is dropped anyway), and no
/// answer to anything else.
fn decode_awaited(line: &str, kind: Answer) -> Result<Result<Reply, String>, String> {
    match kind {
        Answer::Skipped | Answer::Unused if driver::is_skipped(line) => Ok(Ok(Reply::Done)),
        Answer::Skipped => Err(format!(
            "a step sent with ifDone after an answer other than done was answered {} instead of skipped (harness/driver/README.md, \"Conditional requests\")",
            crate::quote::bounded(line)
        )),
        Answer::Kept | Answer::Finish | Answer::Unused => driver::decode_answer(line),
    }
}

/// The line of a step announced ahead: marked `ifDone` when it is conditional.
fn step_line(index: usize, ahead: &Ahead<'_>) -> Result<String, AdapterError> {
    request_line(&if ahead.if_done { driver::step_if_done(index, ahead.step) } else { driver::step(index, ahead.step) })
}

fn request_line(message: &driver::Request<'_>) -> Result<String, AdapterError> {
    let mut line = serde_json::to_string(message).map_err(|e| AdapterError(e.to_string()))?;
    line.push('\n');
    Ok(line)
}

impl ProcessAdapter {
    /// Moves what the running adapter wrote to stderr so far into `self.stderr`: all of it
    /// without marks; with marks, what belongs to the case that just finished.
    fn collect_stderr(&mut self) {
        let Some(running) = self.running.as_mut() else { return };
        // A read of an empty pipe per case costs a system call for nothing when the adapter's
        // later marks already say where this case's text ends.
        if !running.stream.next_case_closed() {
            running.drain_stderr();
        }
        let (before, own) = running.stream.take_case();
        self.keep_case_text(before, own);
    }

    /// A case starts: without marks, what the adapter wrote since the previous case was taken is
    /// marked as written before it (with marks, the mark itself says where the case begins).
    fn mark_case_start(&mut self) {
        if self.case_marks {
            return;
        }
        self.collect_stderr();
        if !self.stderr.is_empty() {
            self.stderr.push_own_line(BEFORE_START);
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

/// The handshake: one request and its response, both within `timeout` from now and before
/// `run_deadline`.
fn exchange(running: &mut Running, message: &driver::Request<'_>, timeout: Duration, run_deadline: Option<Instant>) -> Result<String, String> {
    running.timed_out = false;
    running.check_quiet()?;
    let own = Instant::now() + timeout;
    let (deadline, cut) = match run_deadline {
        Some(at) if at < own => (at, true),
        _ => (own, false),
    };
    let line = request_line(message).map_err(|e| e.0)?;
    running.send(line.as_bytes(), Answer::Kept);
    let end = running.awaiting.pop_front().map(|a| a.end).unwrap_or(running.queued);
    let result = running.read_answer(end, deadline, timeout);
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

    fn announce_case(&mut self, case: &str, protocol: Protocol, setup: &Value, steps: &[Ahead<'_>], whole: bool) -> bool {
        if !self.pipelining || (!self.cases_ahead && (self.case_open || !self.script.is_empty())) {
            return false;
        }
        let lines = (|| {
            let mut lines = vec![(request_line(&driver::start(case, protocol, setup))?, Call::Start(case.to_string()))];
            for (index, ahead) in steps.iter().enumerate() {
                lines.push((step_line(index, ahead)?, Call::Step { index, step: address(ahead.step), if_done: ahead.if_done }));
            }
            if whole {
                lines.push((request_line(&driver::finish())?, Call::Finish));
            }
            Ok::<_, AdapterError>(lines)
        })();
        let Ok(lines) = lines else { return false };
        self.script.extend(lines.into_iter().map(|(line, call)| Scripted { line, call, sent: false }));
        self.next_ahead = steps.len();
        // Written by the next `start` (`start_announced`), with every case announced before it:
        // the runner announces cases in batches, and a batch goes out in one write.
        true
    }

    fn sends_cases_ahead(&self) -> bool {
        self.cases_ahead
    }

    fn sends_conditional_steps(&self) -> bool {
        self.conditional_steps
    }

    fn withdraw_ahead(&mut self) {
        // Only cases that have not started are left; what was sent for them is not worth reading.
        if self.script.iter().any(|entry| entry.sent) {
            if let Some(ended) = self.running.take() {
                ended.kill();
            }
        }
        self.script.clear();
        self.next_ahead = 0;
    }

    fn start(&mut self, case: &str, protocol: Protocol, setup: &Value) -> Result<Reply, AdapterError> {
        self.next_step = 0;
        self.timed_out = false;
        self.mark_case_start();
        let announced = matches!(self.script.front(), Some(Scripted { call: Call::Start(id), .. }) if id == case);
        let reply = if announced {
            let reply = self.start_announced();
            self.script.pop_front();
            reply?
        } else if !self.script.is_empty() {
            return Err(self.broken(format!("internal: case {case} is not the case announced next")));
        } else {
            self.request(&driver::start(case, protocol, setup))?
        };
        match reply {
            Reply::Observed(_) => Err(AdapterError("start was answered with an observation".into())),
            reply => Ok(reply),
        }
    }

    fn send_ahead(&mut self, steps: &[Ahead<'_>]) {
        if !self.pipelining {
            return;
        }
        for ahead in steps {
            let index = self.next_ahead;
            let Ok(line) = step_line(index, ahead) else { return };
            self.next_ahead += 1;
            self.script.push_back(Scripted { line, call: Call::Step { index, step: address(ahead.step), if_done: ahead.if_done }, sent: false });
        }
        if self.case_open {
            self.send_script();
        }
    }

    fn step(&mut self, step: &Value) -> Result<Reply, AdapterError> {
        self.skip_conditional_steps(address(step));
        let index = self.next_step;
        self.next_step += 1;
        let Some(entry) = self.script.front() else {
            return self.request_line(&request_line(&driver::step(index, step))?);
        };
        let expected = matches!(entry.call, Call::Step { index: i, step: at, .. } if i == index && at == address(step));
        if !expected || !entry.sent {
            // The runner keeps to what it announced; anything else would pair answers with the
            // wrong requests.
            return Err(self.broken(format!("internal: step {index} is not the step sent ahead for it")));
        }
        self.script.pop_front();
        self.answer()
    }

    fn timed_out(&self) -> bool {
        self.timed_out
    }

    fn take_stderr(&mut self) -> Option<String> {
        if self.cases_ahead {
            // Everything the adapter writes for a case comes before its answer to the case's
            // `finish`; reading that answer (the adapter is usually cases ahead by now) puts the
            // whole of it in the pipe.
            self.read_dropped();
        }
        self.collect_stderr();
        let mut taken = std::mem::take(&mut self.stderr);
        crate::quote::tail(taken.end.make_contiguous(), taken.total)
    }

    fn finish(&mut self) {
        if self.pipelining {
            self.finish_pipelined();
        } else if self.running.is_some() {
            // The case is already judged; a broken finish only costs a restart for the next case.
            let _ = self.request(&driver::finish());
        }
    }
}

impl Drop for ProcessAdapter {
    fn drop(&mut self) {
        if let Some(mut running) = self.running.take() {
            if let Ok(bye) = request_line(&driver::bye()) {
                running.send(bye.as_bytes(), Answer::Unused);
            }
            running.flush_within(Instant::now() + Duration::from_millis(200));
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
