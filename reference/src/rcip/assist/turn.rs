//! One Assist turn as a sans-IO state machine (RCIP-PROTO-ASSIST-02..12, CLARIFICATIONS C01..C06):
//! every input is a method call (the callback's answer, an invocation's outcome, a wake-up of the
//! clock, a cancellation) and every method returns the one thing the turn needs next ([`Next`]):
//! a callback call with its view, an invocation, the host UI's resolution of a confirmation, a
//! pause until a virtual time, or nothing (the turn has ended).
//!
//! - decide: the callback sees the snapshot filtered by mode, the messages, the mode, the phase and
//!   the completed outcomes (none yet) (CL-C01-1); it answers text (the turn ends with it) or one
//!   batch of at most N actions (CL-C01-2); over the bound, malformed, or a throw: nothing runs.
//! - the batch runs one action at a time through `invoke` (CL-C02-1) and stops at the first outcome
//!   other than `succeeded` (CL-C02-2); `confirmation_required` waits for the host UI's resolution
//!   and continues with its outcome; the turn never resolves a confirmation itself (CL-C02-3/4).
//! - a symbolic delay is waited after its action succeeded when another action follows, never
//!   after the last (CL-C03-1/2, PRJ-ASSIST-FMT-02); no delay means none (PRJ-ASSIST-DELAY-01).
//! - read-only: the view lists read capabilities only (CL-C05-1); a non-read or unknown action is
//!   rejected when reached, without `invoke`, as denied `POLICY_DENIED` (CL-C05-2/3,
//!   PRJ-ASSIST-LOCAL-01), which stops the batch.
//! - after the batch, if any action went through `invoke`, exactly one summarize call, whose text
//!   (if any) is the final text and whose actions are ignored (CL-C04-1/2).
//! - cancellation ends the turn at once whatever it waits on (CL-C06-1/2): no action starts after
//!   it, a pause ends, a pending answer or resolution is no longer waited for (PRJ-ASSIST-CANCEL-03;
//!   the row `assist-cancel-keeps-waiting` still waits for that answer or resolution, then stops).
//!
//! Choices where the texts are silent: no summarize call when no action went through `invoke`
//! (CL-C04-3), nor after a cancellation (PRJ-ASSIST-CANCEL-01; the row
//! `assist-summarize-after-cancel` still makes it when an action went through `invoke`); a summarize answer that throws or
//! is not text leaves the final text empty (`None`); a throwing or malformed decide answer and a
//! batch over the bound end the turn with an [`AssistError`]; a local rejection's invocation id is
//! `assist-local-<k>` (k: the action's 1-based position).

use serde_json::Value;

use super::answer::{read_decide_with, read_summarize, AnswerError, Proposal, ProposedAction};
use super::config::AssistConfig;
use crate::choices::Fault;
use crate::rcip::{ErrorCode, Outcome, OutcomeBody, Status};

/// The orchestrator's mode (RCIP-PROTO-ASSIST-11).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Default,
    ReadOnly,
}

impl Mode {
    pub fn parse(text: &str) -> Option<Mode> {
        match text {
            "default" => Some(Mode::Default),
            "read-only" => Some(Mode::ReadOnly),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Default => "default",
            Mode::ReadOnly => "read-only",
        }
    }
}

/// The phase of a callback call (CL-C01-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Decide,
    Summarize,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Decide => "decide",
            Phase::Summarize => "summarize",
        }
    }
}

/// Everything one callback call receives (CL-C01-1), detached from the turn.
#[derive(Debug, Clone, PartialEq)]
pub struct CallbackView {
    pub phase: Phase,
    pub mode: Mode,
    /// The client's snapshot (CL-A07 JSON), its capabilities filtered by mode.
    pub snapshot: Value,
    pub messages: Vec<Value>,
    /// The outcomes completed so far in this turn, in batch order.
    pub outcomes: Vec<Outcome>,
}

impl CallbackView {
    /// The capability ids of the filtered snapshot, in snapshot order.
    pub fn capability_ids(&self) -> Vec<String> {
        capabilities(&self.snapshot)
            .iter()
            .filter_map(|entry| entry.get("id").and_then(Value::as_str).map(str::to_string))
            .collect()
    }
}

/// Why a turn ended without a result (stable codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssistError {
    /// The turn's signal was aborted (CL-C06-1).
    Cancelled,
    /// The decide callback threw (or its promise rejected).
    CallbackFailed,
    /// The decide answer was neither text nor a well-formed batch (CL-C01-4).
    AnswerMalformed,
    /// The batch held more than N actions (CL-C01-4).
    BatchOverBound,
}

impl AssistError {
    pub fn code(self) -> &'static str {
        match self {
            AssistError::Cancelled => "ASSIST_CANCELLED",
            AssistError::CallbackFailed => "ASSIST_CALLBACK_FAILED",
            AssistError::AnswerMalformed => "ASSIST_ANSWER_MALFORMED",
            AssistError::BatchOverBound => "ASSIST_BATCH_OVER_BOUND",
        }
    }
}

/// How a turn ended: its final text, or an error; the outcomes are the turn's either way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnEnd {
    Finished { text: Option<String> },
    Failed(AssistError),
}

/// What the turn needs next.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// Call the decision callback with this view, then give its answer to [`Turn::answer`].
    Call(CallbackView),
    /// Invoke this action through the client, then give its outcome to [`Turn::settled`].
    Invoke {
        action: usize,
        capability_id: String,
        input: Value,
    },
    /// Wait for the host UI to resolve this confirmation; give the resolution's outcome to
    /// [`Turn::settled`].
    AwaitResolution {
        action: usize,
        confirmation_id: String,
    },
    /// Wake the turn ([`Turn::wake`]) when the clock reaches `until`.
    Sleep { until: u64 },
    /// Nothing: the turn has ended (or the input was not one it waited for).
    Done,
}

/// What a turn reads from the runtime it runs over.
pub trait Surface {
    /// `client.getSnapshot()` as CL-A07 JSON.
    fn snapshot(&mut self) -> Value;
    /// The runtime's virtual clock, in ms.
    fn now(&self) -> u64;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Answer(Phase),
    /// Action at this index (0-based) is being invoked.
    Action(usize),
    /// Action at this index waits for the host UI's resolution.
    Resolution(usize),
    Sleep(u64),
    Done,
}

/// One turn.
#[derive(Debug, Clone)]
pub struct Turn {
    config: AssistConfig,
    mode: Mode,
    messages: Vec<Value>,
    state: State,
    calls: Vec<CallbackView>,
    batch: Vec<ProposedAction>,
    next_action: usize,
    invoked: usize,
    outcomes: Vec<Outcome>,
    /// (action index, confirmation id) of every confirmation an action asked for.
    confirmations: Vec<(usize, String)>,
    end: Option<TurnEnd>,
    /// The turn's signal was aborted while it goes on to its summarize call or (under
    /// `assist-cancel-keeps-waiting`) still waits for the answer or resolution it waited for.
    cancelled: bool,
}

impl Turn {
    /// Starts a turn: the decide call, or an immediate end if the signal is already aborted.
    pub fn start(
        config: AssistConfig,
        mode: Mode,
        messages: Vec<Value>,
        aborted: bool,
        surface: &mut dyn Surface,
    ) -> (Turn, Next) {
        let mut turn = Turn {
            config,
            mode,
            messages,
            state: State::Done,
            calls: Vec::new(),
            batch: Vec::new(),
            next_action: 0,
            invoked: 0,
            outcomes: Vec::new(),
            confirmations: Vec::new(),
            end: None,
            cancelled: false,
        };
        let next = if aborted {
            turn.fail(AssistError::Cancelled)
        } else {
            turn.call(Phase::Decide, surface)
        };
        (turn, next)
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Every callback call made so far, in order.
    pub fn calls(&self) -> &[CallbackView] {
        &self.calls
    }

    /// One outcome per action processed so far (a local rejection included), in batch order.
    pub fn outcomes(&self) -> &[Outcome] {
        &self.outcomes
    }

    /// `None` while the turn runs.
    pub fn end(&self) -> Option<&TurnEnd> {
        self.end.as_ref()
    }

    /// How many actions went through `invoke`.
    pub fn invoked(&self) -> usize {
        self.invoked
    }

    /// The confirmation id the `action`-th action (1-based) asked the host UI for, if any.
    pub fn confirmation_of(&self, action: usize) -> Option<&str> {
        let index = action.checked_sub(1)?;
        self.confirmations
            .iter()
            .find(|(i, _)| *i == index)
            .map(|(_, id)| id.as_str())
    }

    /// The callback's answer to the pending call: `Ok(value)` it returned, `Err(())` it threw.
    pub fn answer(&mut self, answer: Result<Value, ()>, surface: &mut dyn Surface) -> Next {
        if self.cancelled {
            // No action starts after a cancellation (CL-C06-1), whatever the answer holds.
            return match self.state {
                State::Answer(Phase::Decide) => self.after_cancel(surface),
                State::Answer(Phase::Summarize) => self.fail(AssistError::Cancelled),
                _ => Next::Done,
            };
        }
        match self.state {
            State::Answer(Phase::Decide) => match answer {
                Err(()) => self.fail(AssistError::CallbackFailed),
                Ok(value) => match read_decide_with(
                    &value,
                    self.decide_bound(),
                    self.config.unknown_delay_ignored(),
                ) {
                    Ok(Proposal::Text(text)) => self.finish(Some(text)),
                    Ok(Proposal::Batch(actions)) => {
                        self.batch = actions;
                        self.run_next(surface)
                    }
                    Err(AnswerError::Malformed) => self.fail(AssistError::AnswerMalformed),
                    Err(AnswerError::OverBound { .. }) => self.fail(AssistError::BatchOverBound),
                },
            },
            State::Answer(Phase::Summarize) => {
                let text = answer.ok().as_ref().and_then(read_summarize);
                self.finish(text)
            }
            _ => Next::Done,
        }
    }

    /// The outcome of the running action's invocation, or of the host UI's resolution of its
    /// confirmation.
    pub fn settled(&mut self, outcome: Outcome, surface: &mut dyn Surface) -> Next {
        let index = match self.state {
            State::Action(index) | State::Resolution(index) => index,
            _ => return Next::Done,
        };
        if let (State::Action(_), OutcomeBody::ConfirmationRequired(info)) =
            (self.state, &outcome.body)
        {
            let confirmation_id = info.id.clone();
            self.confirmations.push((index, confirmation_id.clone()));
            self.state = State::Resolution(index);
            return Next::AwaitResolution {
                action: index + 1,
                confirmation_id,
            };
        }
        let succeeded = outcome.status() == Status::Succeeded
            || self.config.injects(Fault::AssistBatchContinues);
        self.outcomes.push(outcome);
        if self.cancelled {
            // The resolution a cancelled turn still waited for: recorded, and nothing follows.
            return self.after_cancel(surface);
        }
        let last = self.next_action >= self.batch.len();
        if last && succeeded && self.config.injects(Fault::AssistDelayAfterLast) {
            if let Some(pause) = self.batch.get(index).and_then(|a| a.delay) {
                let until = surface.now().saturating_add(self.config.delay_ms(pause));
                self.state = State::Sleep(until);
                return Next::Sleep { until };
            }
        }
        if !succeeded || last {
            return self.end_batch(surface);
        }
        let pause = self
            .batch
            .get(index)
            .and_then(|a| a.delay)
            .map_or(0, |d| self.config.delay_ms(d));
        if pause == 0 {
            return self.run_next(surface);
        }
        let until = surface.now().saturating_add(pause);
        self.state = State::Sleep(until);
        Next::Sleep { until }
    }

    /// The clock moved: a pause whose end has come lets the next action start.
    pub fn wake(&mut self, surface: &mut dyn Surface) -> Next {
        match self.state {
            State::Sleep(until) if surface.now() >= until => self.run_next(surface),
            State::Sleep(until) => Next::Sleep { until },
            _ => Next::Done,
        }
    }

    /// The turn's signal was aborted (CL-C06-1/2): no action starts after it and a pause ends.
    /// By default the turn ends at once. `None`: under `assist-cancel-keeps-waiting`
    /// (PRJ-ASSIST-CANCEL-03) it still waits for the decide answer or the host UI's resolution
    /// it waited for, and stops when that comes; under `assist-summarize-after-cancel`
    /// (PRJ-ASSIST-CANCEL-01) its one summarize call still follows when an action went through
    /// `invoke`, and the turn ends cancelled when it is answered.
    pub fn cancel(&mut self, surface: &mut dyn Surface) -> Option<Next> {
        if self.state == State::Done || self.cancelled {
            return Some(Next::Done);
        }
        self.cancelled = true;
        let waits = matches!(
            self.state,
            State::Answer(Phase::Decide) | State::Resolution(_)
        );
        if waits && self.config.cancel_keeps_waiting() {
            return None;
        }
        Some(self.after_cancel(surface))
    }

    /// Whether the turn's signal was aborted while the turn still runs.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled
    }

    /// What a cancelled turn does once it waits for nothing more: its summarize call under
    /// `assist-summarize-after-cancel` (an action went through `invoke` and no summarize call was
    /// made yet), or the end.
    fn after_cancel(&mut self, surface: &mut dyn Surface) -> Next {
        let summarized = self.calls.iter().any(|call| call.phase == Phase::Summarize);
        if self.config.summarize_after_cancel() && self.invoked > 0 && !summarized {
            return self.call(Phase::Summarize, surface);
        }
        self.fail(AssistError::Cancelled)
    }

    fn call(&mut self, phase: Phase, surface: &mut dyn Surface) -> Next {
        let view = CallbackView {
            phase,
            mode: self.mode,
            snapshot: if self.config.injects(Fault::AssistReadOnlyUnfiltered) {
                surface.snapshot()
            } else {
                filtered(surface.snapshot(), self.mode)
            },
            messages: self.messages.clone(),
            outcomes: self.outcomes.clone(),
        };
        self.calls.push(view.clone());
        self.state = State::Answer(phase);
        Next::Call(view)
    }

    /// The bound a `decide` answer is read with: N, or none under the injected fault
    /// `assist-batch-over-bound-runs`.
    fn decide_bound(&self) -> usize {
        if self.config.injects(Fault::AssistBatchOverBoundRuns) {
            usize::MAX
        } else {
            self.config.batch_bound()
        }
    }

    fn run_next(&mut self, surface: &mut dyn Surface) -> Next {
        let index = self.next_action;
        let Some(action) = self.batch.get(index).cloned() else {
            return self.end_batch(surface);
        };
        self.next_action += 1;
        let rejects = !self.config.injects(Fault::AssistReadOnlyInvokes);
        if rejects
            && self.mode == Mode::ReadOnly
            && !is_read(&surface.snapshot(), &action.capability_id)
        {
            let local_id = format!("assist-local-{}", index + 1);
            let code = if self.config.read_only_rejection_not_found() {
                ErrorCode::CapabilityNotFound
            } else {
                ErrorCode::PolicyDenied
            };
            self.outcomes
                .push(Outcome::error(&local_id, &action.capability_id, code));
            return self.end_batch(surface);
        }
        self.invoked += 1;
        self.state = State::Action(index);
        Next::Invoke {
            action: index + 1,
            capability_id: action.capability_id,
            input: action.input,
        }
    }

    fn end_batch(&mut self, surface: &mut dyn Surface) -> Next {
        if self.config.injects(Fault::AssistSummarizeSkipped) {
            return self.finish(None);
        }
        if self.invoked > 0 || self.config.summarize_without_actions() {
            self.call(Phase::Summarize, surface)
        } else {
            self.finish(None)
        }
    }

    fn finish(&mut self, text: Option<String>) -> Next {
        self.state = State::Done;
        self.end = Some(TurnEnd::Finished { text });
        Next::Done
    }

    fn fail(&mut self, error: AssistError) -> Next {
        self.state = State::Done;
        self.end = Some(TurnEnd::Failed(error));
        Next::Done
    }
}

fn capabilities(snapshot: &Value) -> &[Value] {
    snapshot
        .get("capabilities")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn is_read_entry(entry: &Value) -> bool {
    entry.get("effect").and_then(Value::as_str) == Some("read")
}

/// The snapshot a callback sees: read-only keeps read capabilities only (CL-C05-1); default mode
/// removes nothing (PRJ-ASSIST-SNAP-01).
pub fn filtered(mut snapshot: Value, mode: Mode) -> Value {
    if mode == Mode::ReadOnly {
        if let Some(list) = snapshot
            .get_mut("capabilities")
            .and_then(Value::as_array_mut)
        {
            list.retain(is_read_entry);
        }
    }
    snapshot
}

/// Whether the snapshot declares `capability_id` with effect `read` (unknown ids are not read).
fn is_read(snapshot: &Value, capability_id: &str) -> bool {
    capabilities(snapshot).iter().any(|entry| {
        entry.get("id").and_then(Value::as_str) == Some(capability_id) && is_read_entry(entry)
    })
}
