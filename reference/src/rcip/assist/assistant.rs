//! The Assist orchestrator over a reference RCIP runtime (RCIP-PROTO-ASSIST-01: a consumer of the
//! same client and host surfaces): it runs [`Turn`]s, calling the host's decision callback,
//! invoking actions through [`Runtime::invoke`] with the turn's signal, pausing on the runtime's
//! virtual clock, and routing the trusted host UI's resolution of a confirmation
//! ([`Assistant::resolve_confirmation`], which calls `host.resolveConfirmation`) back to the turn.
//! It never resolves a confirmation by itself (CL-C02-4).
//!
//! Driven like the runtime: the decision callback answers [`CallbackAnswer::Ready`] or
//! [`CallbackAnswer::Pending`] (settled later with [`Assistant::settle_callback`]); after anything
//! changed the runtime (a gate settled, a signal aborted, the clock moved), [`Assistant::pump`]
//! lets every turn react; [`Assistant::advance`] moves the clock, stopping at each pause's end so
//! the next action starts at exactly that virtual time (CL-C03-1). The turn's signal is passed to
//! `invoke`, so cancelling a turn also aborts its invocation in progress (PRJ-ASSIST-CANCEL-02;
//! the alternate reading, `Choice::AssistCancelLeavesInvocation`, passes no signal).

use serde_json::Value;

use super::config::AssistConfig;
use super::turn::{CallbackView, Mode, Next, Surface, Turn};
use crate::rcip::{AbortSignal, HostError, HostValue, InvokeRequest, Runtime, Ticket};

/// Identifies one call of the decision callback: the k-th call of this orchestrator is `k - 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct CallbackId(pub u64);

/// Identifies a turn of this orchestrator, in start order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct TurnId(pub usize);

/// The decision callback's immediate answer: settled now, or later by its [`CallbackId`].
#[derive(Debug, Clone)]
pub enum CallbackAnswer {
    /// Returned this value (a promise already settled counts too), or threw.
    Ready(Result<Value, HostError>),
    Pending,
}

/// The host's decision callback (RCIP-PROTO-ASSIST-02).
pub type DecisionFn = Box<dyn FnMut(&CallbackView, CallbackId) -> CallbackAnswer>;

/// One turn's request: mode, in-memory messages, and an optional abort signal.
#[derive(Debug, Clone)]
pub struct TurnRequest {
    pub mode: Mode,
    pub messages: Vec<Value>,
    pub signal: Option<AbortSignal>,
}

/// A driving call that named something this orchestrator does not have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssistGateError {
    UnknownCall,
    UnknownTurn,
    /// The named action of the turn never asked for a confirmation.
    NoConfirmation,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wait {
    Callback(CallbackId),
    Invocation(Ticket),
    /// The host UI has not resolved this action's confirmation yet.
    Resolution(usize),
    Timer(u64),
    Nothing,
}

struct Slot {
    turn: Turn,
    signal: Option<AbortSignal>,
    wait: Wait,
    /// Every `invoke` the orchestrator made for this turn: capability id and input, in order.
    invocations: Vec<(String, Value)>,
}

/// The orchestrator.
pub struct Assistant {
    config: AssistConfig,
    decide: DecisionFn,
    turns: Vec<Slot>,
    calls: u64,
}

struct Live<'a>(&'a mut Runtime);

impl Surface for Live<'_> {
    fn snapshot(&mut self) -> Value {
        self.0.get_snapshot().json().clone()
    }
    fn now(&self) -> u64 {
        self.0.now()
    }
}

impl Assistant {
    pub fn new(config: AssistConfig, decide: DecisionFn) -> Assistant {
        Assistant {
            config,
            decide,
            turns: Vec::new(),
            calls: 0,
        }
    }

    pub fn config(&self) -> &AssistConfig {
        &self.config
    }

    pub fn turn(&self, id: TurnId) -> Option<&Turn> {
        self.turns.get(id.0).map(|slot| &slot.turn)
    }

    /// The `invoke` calls made for turn `id`, in order: capability id and input as passed.
    pub fn invocations(&self, id: TurnId) -> Option<&[(String, Value)]> {
        self.turns.get(id.0).map(|slot| slot.invocations.as_slice())
    }

    /// Starts a turn: the decide call happens now.
    pub fn start_turn(&mut self, runtime: &mut Runtime, request: TurnRequest) -> TurnId {
        let aborted = request.signal.as_ref().is_some_and(AbortSignal::is_aborted);
        let (turn, next) = Turn::start(
            self.config,
            request.mode,
            request.messages,
            aborted,
            &mut Live(runtime),
        );
        self.turns.push(Slot {
            turn,
            signal: request.signal,
            wait: Wait::Nothing,
            invocations: Vec::new(),
        });
        let id = TurnId(self.turns.len() - 1);
        self.drive(id.0, next, runtime);
        self.pump(runtime);
        id
    }

    /// Settles a pending callback call. A call its turn no longer waits for (cancelled) accepts
    /// the late answer and ignores it.
    pub fn settle_callback(
        &mut self,
        runtime: &mut Runtime,
        call: CallbackId,
        result: Result<Value, HostError>,
    ) -> Result<(), AssistGateError> {
        if call.0 >= self.calls {
            return Err(AssistGateError::UnknownCall);
        }
        let waiting = self
            .turns
            .iter()
            .position(|slot| slot.wait == Wait::Callback(call));
        if let Some(index) = waiting {
            let next = match self.turns.get_mut(index) {
                Some(slot) => slot.turn.answer(result.map_err(|_| ()), &mut Live(runtime)),
                None => Next::Done,
            };
            self.drive(index, next, runtime);
        }
        self.pump(runtime);
        Ok(())
    }

    /// The trusted host UI resolves the confirmation the `action`-th action (1-based) of `turn`
    /// asked for, through `host.resolveConfirmation`; the turn continues with its outcome. The
    /// ticket is the resolution's, as for any resolution.
    pub fn resolve_confirmation(
        &mut self,
        runtime: &mut Runtime,
        turn: TurnId,
        action: usize,
        approved: bool,
    ) -> Result<Ticket, AssistGateError> {
        let slot = self
            .turns
            .get_mut(turn.0)
            .ok_or(AssistGateError::UnknownTurn)?;
        let id = slot
            .turn
            .confirmation_of(action)
            .ok_or(AssistGateError::NoConfirmation)?
            .to_string();
        let ticket = runtime.resolve_confirmation(&id, approved);
        if slot.wait == Wait::Resolution(action) {
            slot.wait = Wait::Invocation(ticket);
        }
        self.pump(runtime);
        Ok(ticket)
    }

    /// The earliest virtual time a paused turn waits for.
    pub fn next_deadline(&self) -> Option<u64> {
        self.turns
            .iter()
            .filter_map(|slot| match slot.wait {
                Wait::Timer(until) => Some(until),
                _ => None,
            })
            .min()
    }

    /// Advances the runtime's clock by `ms`, stopping at every pause's end on the way.
    pub fn advance(&mut self, runtime: &mut Runtime, ms: u64) {
        let target = runtime.now().saturating_add(ms);
        while let Some(deadline) = self.next_deadline().filter(|d| *d <= target) {
            runtime.advance(deadline.saturating_sub(runtime.now()));
            self.pump(runtime);
        }
        runtime.advance(target.saturating_sub(runtime.now()));
        self.pump(runtime);
    }

    /// Lets every turn react to what changed: an aborted signal cancels its turn, a settled
    /// invocation or resolution moves its turn on, a pause whose end has come ends.
    pub fn pump(&mut self, runtime: &mut Runtime) {
        loop {
            let mut moved = false;
            for index in 0..self.turns.len() {
                let Some(slot) = self.turns.get_mut(index) else {
                    continue;
                };
                if slot.turn.end().is_none()
                    && !slot.turn.is_cancelled()
                    && slot.signal.as_ref().is_some_and(AbortSignal::is_aborted)
                {
                    // `None`: the turn still waits where it waited (PRJ-ASSIST-CANCEL-03).
                    if let Some(next) = slot.turn.cancel(&mut Live(runtime)) {
                        slot.wait = Wait::Nothing;
                        self.drive(index, next, runtime);
                    }
                    moved = true;
                    continue;
                }
                let next = match slot.wait {
                    Wait::Invocation(ticket) => match runtime.outcome(ticket).cloned() {
                        Some(outcome) => slot.turn.settled(outcome, &mut Live(runtime)),
                        None => continue,
                    },
                    Wait::Timer(until) if runtime.now() >= until => {
                        slot.turn.wake(&mut Live(runtime))
                    }
                    _ => continue,
                };
                moved = true;
                self.drive(index, next, runtime);
            }
            if !moved {
                break;
            }
        }
    }

    /// Carries out what a turn needs next, as far as it can go without outside input.
    fn drive(&mut self, index: usize, mut next: Next, runtime: &mut Runtime) {
        loop {
            let Some(slot) = self.turns.get_mut(index) else {
                return;
            };
            next = match next {
                Next::Call(view) => {
                    let call = CallbackId(self.calls);
                    self.calls += 1;
                    match (self.decide)(&view, call) {
                        CallbackAnswer::Ready(result) => {
                            slot.turn.answer(result.map_err(|_| ()), &mut Live(runtime))
                        }
                        CallbackAnswer::Pending => {
                            slot.wait = Wait::Callback(call);
                            return;
                        }
                    }
                }
                Next::Invoke {
                    capability_id,
                    input,
                    ..
                } => {
                    slot.invocations
                        .push((capability_id.clone(), input.clone()));
                    // PRJ-ASSIST-CANCEL-02 is IMPL-DEFINED: the alternate keeps the turn's signal
                    // from `invoke`, so a cancellation lets the invocation in progress finish.
                    let signal = if self.config.cancel_leaves_invocation() {
                        None
                    } else {
                        slot.signal.clone()
                    };
                    let ticket = runtime.invoke(InvokeRequest {
                        capability_id,
                        input: HostValue::from_json(&input),
                        invocation_id: None,
                        signal,
                    });
                    match runtime.outcome(ticket).cloned() {
                        Some(outcome) => slot.turn.settled(outcome, &mut Live(runtime)),
                        None => {
                            slot.wait = Wait::Invocation(ticket);
                            return;
                        }
                    }
                }
                Next::AwaitResolution { action, .. } => {
                    slot.wait = Wait::Resolution(action);
                    return;
                }
                Next::Sleep { until } => {
                    slot.wait = Wait::Timer(until);
                    return;
                }
                Next::Done => {
                    slot.wait = Wait::Nothing;
                    return;
                }
            };
        }
    }
}
