//! The `Adapter` trait: the one interface between the runner and an implementation under test
//! (ARCHITECTURE "Harness"). The in-process reference adapter and the stdio process adapter are its
//! implementations. A mismatch is never an `Err`: adapters report what they observed and the runner
//! judges. `Err` means the adapter itself broke (infrastructure), which gives an `errored` verdict.

use std::collections::BTreeSet;
use std::fmt;

use serde_json::Value;

/// Which protocol a case belongs to: the first segment of its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Protocol {
    Rcip,
    Rui,
}

impl Protocol {
    pub fn from_case_id(id: &str) -> Option<Protocol> {
        match id.split('.').next() {
            Some("rcip") => Some(Protocol::Rcip),
            Some("rui") => Some(Protocol::Rui),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Protocol::Rcip => "rcip",
            Protocol::Rui => "rui",
        }
    }
}

/// What an implementation declares about itself before any case runs (the handshake).
#[derive(Debug, Clone, Default)]
pub struct Implementation {
    pub name: String,
    pub version: String,
    /// Protocols it implements; cases of other protocols are `unsupported`.
    pub protocols: BTreeSet<Protocol>,
    /// Declared profiles: `events`, `preflight`, `assist`, and the framings it decodes.
    pub profiles: BTreeSet<String>,
    /// Declared Rixx UI limits profile (CL-D04), as the `limits` object of the vector format.
    pub rui_limits: Option<Value>,
    /// How it counts depth and operations under those limits (handshake `limitsMeasure`,
    /// PRJ-RUI-LIMIT-14/15); the runner translates `setup.limits` into it.
    pub rui_limits_measure: crate::measure::LimitsMeasure,
    /// Declared Assist batch bound (CL-C01).
    pub assist_batch_bound: Option<u64>,
    /// Declared map from its own Rixx UI code names to the register's (`crate::codes`).
    pub codes: Option<crate::codes::CodeMap>,
}

/// A step announced ahead of its turn (`Adapter::announce_case`, `Adapter::send_ahead`).
#[derive(Debug, Clone, Copy)]
pub struct Ahead<'a> {
    pub step: &'a Value,
    /// Asked for only if the step before it is answered `done` (the second and later request of
    /// a framed `feed: records` step sent as WebSocket messages). Announced only to an adapter
    /// that `sends_conditional_steps`. When the step before it is answered otherwise, the runner
    /// goes on with the next step it asks for (or `finish`), and the adapter drops this one.
    pub if_done: bool,
}

/// The answer to one request (start a case, or one step).
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// The action ran and returned normally.
    Done,
    /// The action threw (a host configuration error).
    Threw,
    /// The observation an expectation asked for, in the canonical form of `vectors/README.md`.
    Observed(Value),
    /// The implementation cannot do this step (or this setup); the case becomes `unsupported`.
    Unsupported(String),
}

/// The adapter broke: crash, hang, malformed reply, protocol violation, or a step it could not
/// even interpret. The case gets an `errored` verdict; the run goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdapterError(pub String);

impl fmt::Display for AdapterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AdapterError {}

/// Drives one implementation. One case at a time: `start` builds a fresh runtime from the case's
/// setup, then `step` is called once per step. Action steps arrive without `throws`,
/// `strictness`, `requirements` and `note`; expectation steps arrive without `is` as well, so an
/// adapter answers with what it observes and never sees what is expected.
pub trait Adapter {
    fn implementation(&self) -> &Implementation;

    /// Builds a fresh runtime for case `case` (its id, for diagnostics). `Done`: built; `Threw`: construction threw a host
    /// configuration error; `Unsupported`: this setup cannot be run (e.g. limits it cannot take).
    fn start(&mut self, case: &str, protocol: Protocol, setup: &Value) -> Result<Reply, AdapterError>;

    /// Runs one step of the current case.
    fn step(&mut self, step: &Value) -> Result<Reply, AdapterError>;

    /// The runner announces a case's run it will ask for after everything announced before it:
    /// `start` with `setup`, then `steps` in this order (unless an answer ends the case first),
    /// then, when `whole`, `finish`; when not `whole`, later steps are announced with
    /// [`send_ahead`](Self::send_ahead) and no other case is announced before this one's
    /// `finish`. It is called right before `start` with the case's first steps, and, to an
    /// adapter that sends whole cases ahead (`sends_cases_ahead`), also for later cases while
    /// earlier ones run. Returns whether the adapter took the announcement: one that did not is
    /// driven request by request (`start`, `step`, `finish` as they are called). The process
    /// adapter takes it when pipelining (`harness/driver/README.md`, "Pipelining", "Sending
    /// cases ahead"); others need not.
    fn announce_case(&mut self, _case: &str, _protocol: Protocol, _setup: &Value, _steps: &[Ahead<'_>], _whole: bool) -> bool {
        false
    }

    /// Whether the runner may announce a step whose sending depends on the answer before it
    /// (marked [`Ahead::if_done`]): the process adapter with an adapter declaring
    /// `conditionalRequests` (`harness/driver/README.md`, "Conditional requests").
    fn sends_conditional_steps(&self) -> bool {
        false
    }

    /// Whether [`announce_case`](Self::announce_case) takes cases announced before the current
    /// one has finished: the runner then prepares and announces cases ahead of their turn.
    fn sends_cases_ahead(&self) -> bool {
        false
    }

    /// Forgets every announced case that has not started: the runner will not run them (a fuzz
    /// campaign stopped at a disagreement). What was sent for them is answered and dropped, or the
    /// adapter is ended, before anything else is asked.
    fn withdraw_ahead(&mut self) {}

    /// The runner announces the steps it will ask for next, in this order, unless an answer ends
    /// the case first: called before a step not yet announced (a step whose sending depends on
    /// an earlier answer). An adapter that can (the process adapter with a pipelining adapter,
    /// `harness/driver/README.md`, "Pipelining") sends them now, without waiting for the answers
    /// of the requests before them; `step` is then called with exactly these steps and returns
    /// their answers in order. The runner never announces a step whose sending depends on an
    /// earlier answer, unless the adapter `sends_conditional_steps`. Others ignore it.
    fn send_ahead(&mut self, _steps: &[Ahead<'_>]) {}

    /// The case is over; release its runtime.
    fn finish(&mut self) {}

    /// Whether the current case broke because the adapter did not answer in time (the circuit
    /// breaker of a run counts these). Adapters without deadlines never time out.
    fn timed_out(&self) -> bool {
        false
    }

    /// What the implementation wrote to its stderr since this was last called (issue 27 §4),
    /// bounded to its end (`quote::tail`); the runner calls it after each case's `finish`. `None`:
    /// nothing written, or an adapter with no stderr of its own (the in-process reference).
    fn take_stderr(&mut self) -> Option<String> {
        None
    }
}
