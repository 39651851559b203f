//! One Assist turn as a stateright model: the decide call, a sequential batch of actions through
//! `client.invoke` with their outcomes (including a confirmation the host UI approves, declines
//! or lets expire), symbolic delays between actions, the single summarize call, read-only mode
//! and cancellation at any point. Covers RCIP-PROTO "Assist orchestration" as decided by CL-C01
//! (decide answers and the batch bound), CL-C02 (sequential, stop at the first non-success, the
//! host resolves confirmations), CL-C03 (delays between actions only), CL-C04 (one summarize,
//! whose actions never run), CL-C05 (read-only mode rejects locally) and CL-C06 (cancellation).
//!
//! Reading guide: configuration (`AssistModel`), state (`TurnState`), one `Action` enum of the
//! turn's verbs, guarded `actions()`, one `match` in `next_state()`, then the properties.
//!
//! Abstractions: the RCIP runtime behind `client.invoke` is a gate that may settle with any
//! outcome (the invocation model covers how); which capability a batch entry names is revealed
//! when the entry starts (`StartAction`), which is equivalent to fixing the whole batch at decide
//! time because nothing observes an entry before it starts, and keeps the state space small; the
//! delay's symbol (`short`, `medium`, `long`) does not change control flow, so a delay is one
//! step. Decisions where the texts leave room:
//! - Whether `summarize` runs when no action ran is IMPL-DEFINED (CL-C04); the model allows both,
//!   also after an over-bound or malformed decision.
//! - After cancellation the model allows `summarize` to be called or skipped (at most once): C04
//!   and C06 do not say which wins.
//! - Cancelling while the decide call is pending ends the turn at once.
//! - In normal mode an unknown proposal is invoked and fails with `CAPABILITY_NOT_FOUND` at once
//!   (CL-B03 lookup); in read-only mode it is rejected locally like any non-read one (CL-C05).

use stateright::{Model, Property};

/// The host's mode for the turn (CL-C05).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    Normal,
    ReadOnly,
}

/// What the decide callback answers (CL-C01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecideAnswer {
    Text,
    /// A batch of 1..=N actions.
    Batch(u8),
    /// A batch of N + 1 actions.
    OverBoundBatch,
    Malformed,
}

/// What a batch entry proposes: a `read` capability, a non-read one (`write`, `external`,
/// `destructive`), or a capability id the catalog does not declare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Proposal {
    Read,
    NonRead,
    Unknown,
}

/// How the `client.invoke` promise of a started entry settles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InvokeResult {
    Succeeded,
    Failed,
    Denied,
    ConfirmationRequired,
}

/// How the `resolveConfirmation` promise settles after the host UI approved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResolutionResult {
    Succeeded,
    Failed,
    Denied,
}

/// What the summarize callback answers (CL-C04).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SummarizeAnswer {
    Text,
    /// Actions, which are never executed.
    Actions,
    Malformed,
}

/// The final result of one batch entry, as the turn sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryResult {
    Succeeded,
    Failed,
    Denied,
    /// The host UI declined (denied `CONFIRMATION_DECLINED`).
    Declined,
    /// The confirmation expired (failed `CONFIRMATION_EXPIRED`).
    Expired,
    /// The turn was cancelled while the confirmation was pending (CL-B09).
    Cancelled,
    /// Rejected by Assist without `invoke` (CL-C05 RECOMMENDED: denied `POLICY_DENIED`).
    RejectedLocally,
}

/// Where the turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TurnPhase {
    Deciding,
    /// The next batch entry may start.
    Ready,
    /// `client.invoke` of the current entry is pending.
    Invoking,
    /// The current entry returned `confirmation_required`; the host UI decides (CL-C02).
    AwaitingHost,
    /// The host approved; `resolveConfirmation` is pending.
    Resolving,
    /// A symbolic delay before the next entry (CL-C03).
    Delaying,
    BatchEnded,
    Summarizing,
    Done,
}

/// Where a cancellation arrived, kept only for the coverage witnesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CancelPoint {
    Deciding,
    BetweenActions,
    ActionInFlight,
    ConfirmationPending,
    Delay,
    AfterBatch,
    Summarizing,
}

/// One started batch entry and the facts it started under; the flags stay `false` in a correct
/// turn, so they cost no states and let properties judge the turn's guards.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BatchEntry {
    pub proposal: Proposal,
    pub invoked: bool,
    /// The host UI approved this entry's confirmation.
    pub approved: bool,
    pub result: Option<EntryResult>,
    pub started_after_cancel: bool,
    pub started_after_non_success: bool,
    pub started_after_summarize: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TurnState {
    pub mode: Mode,
    pub phase: TurnPhase,
    pub cancelled: Option<CancelPoint>,
    pub decided: Option<DecideAnswer>,
    /// Entries of the accepted batch (0 when the decision ran nothing).
    pub batch_len: u8,
    pub entries: Vec<BatchEntry>,
    pub delays: u8,
    pub summarize_calls: u8,
    pub summarized: Option<SummarizeAnswer>,
    /// Steps the turn took; bounded liveness is stated over it.
    pub steps: u8,
}

/// Deliberate bugs, for tests that show each property can fail. Never set in a real check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AssistFault {
    /// The batch goes on after a non-success (breaks CL-C02).
    ContinueAfterNonSuccess,
    /// Cancellation is noted but the batch goes on (breaks CL-C06).
    StartAfterCancel,
    /// Read-only mode invokes non-read proposals (breaks CL-C05).
    InvokeNonReadInReadOnly,
    /// Actions returned by summarize are run (breaks CL-C04).
    RunSummarizeActions,
}

#[derive(Clone, Debug)]
pub struct AssistModel {
    /// The implementation's declared batch bound N (CL-C01 RECOMMENDS 8; 2 already shows every
    /// interleaving of "first", "between" and "last", and the bound check is one comparison).
    pub batch_bound: u8,
    pub fault: Option<AssistFault>,
}

impl Default for AssistModel {
    fn default() -> Self {
        AssistModel {
            batch_bound: 2,
            fault: None,
        }
    }
}

/// The turn's verbs: the two callbacks' answers, the batch's steps, the host UI's resolutions,
/// the clock ending a delay, and the caller's cancellation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Decide(DecideAnswer),
    StartAction(Proposal),
    InvokeSettles(InvokeResult),
    HostApproves,
    HostDeclines,
    ConfirmationExpires,
    ResolutionSettles(ResolutionResult),
    DelayElapses,
    CallSummarize,
    SkipSummarize,
    SummarizeAnswers(SummarizeAnswer),
    Cancel,
}

impl AssistModel {
    /// The most steps a turn can take: decide; per entry start, invoke settles, approve,
    /// resolution settles; a delay between entries; the summarize call and answer; a cancel.
    pub fn max_turn_steps(&self) -> u8 {
        let n = self.batch_bound;
        1 + 4 * n + (n - 1) + 2 + 1
    }

    fn any_invoked(state: &TurnState) -> bool {
        state.entries.iter().any(|e| e.invoked)
    }

    /// An entry reached its final result: go on to a delay, or end the batch (CL-C02, CL-C03).
    fn finish_entry(&self, state: &mut TurnState, result: EntryResult) {
        if let Some(entry) = state.entries.last_mut() {
            entry.result = Some(result);
        }
        let goes_on = result == EntryResult::Succeeded
            || self.fault == Some(AssistFault::ContinueAfterNonSuccess);
        let stopped =
            state.cancelled.is_some() && self.fault != Some(AssistFault::StartAfterCancel);
        if goes_on && !stopped && (state.entries.len() as u8) < state.batch_len {
            state.phase = TurnPhase::Delaying;
            state.delays += 1;
        } else {
            state.phase = TurnPhase::BatchEnded;
        }
    }
}

impl Model for AssistModel {
    type State = TurnState;
    type Action = Action;

    fn init_states(&self) -> Vec<Self::State> {
        [Mode::Normal, Mode::ReadOnly]
            .into_iter()
            .map(|mode| TurnState {
                mode,
                phase: TurnPhase::Deciding,
                cancelled: None,
                decided: None,
                batch_len: 0,
                entries: Vec::new(),
                delays: 0,
                summarize_calls: 0,
                summarized: None,
                steps: 0,
            })
            .collect()
    }

    fn actions(&self, state: &Self::State, actions: &mut Vec<Self::Action>) {
        match state.phase {
            TurnPhase::Deciding => {
                actions.push(Action::Decide(DecideAnswer::Text));
                for k in 1..=self.batch_bound {
                    actions.push(Action::Decide(DecideAnswer::Batch(k)));
                }
                actions.push(Action::Decide(DecideAnswer::OverBoundBatch));
                actions.push(Action::Decide(DecideAnswer::Malformed));
            }
            TurnPhase::Ready => {
                for proposal in [Proposal::Read, Proposal::NonRead, Proposal::Unknown] {
                    actions.push(Action::StartAction(proposal));
                }
            }
            TurnPhase::Invoking => {
                for result in [
                    InvokeResult::Succeeded,
                    InvokeResult::Failed,
                    InvokeResult::Denied,
                ] {
                    actions.push(Action::InvokeSettles(result));
                }
                // An invoke whose signal was aborted before it settled cannot ask for
                // confirmation: the abort settles it first (CL-B11).
                if state.cancelled.is_none() {
                    actions.push(Action::InvokeSettles(InvokeResult::ConfirmationRequired));
                }
            }
            TurnPhase::AwaitingHost => {
                actions.push(Action::HostApproves);
                actions.push(Action::HostDeclines);
                actions.push(Action::ConfirmationExpires);
            }
            TurnPhase::Resolving => {
                for result in [
                    ResolutionResult::Succeeded,
                    ResolutionResult::Failed,
                    ResolutionResult::Denied,
                ] {
                    actions.push(Action::ResolutionSettles(result));
                }
            }
            TurnPhase::Delaying => actions.push(Action::DelayElapses),
            TurnPhase::BatchEnded => {
                actions.push(Action::CallSummarize);
                // CL-C04: summarize is owed once an action ran; otherwise (and, by the model's
                // reading, after cancellation) skipping it is allowed.
                if !Self::any_invoked(state) || state.cancelled.is_some() {
                    actions.push(Action::SkipSummarize);
                }
            }
            TurnPhase::Summarizing => {
                for answer in [
                    SummarizeAnswer::Text,
                    SummarizeAnswer::Actions,
                    SummarizeAnswer::Malformed,
                ] {
                    actions.push(Action::SummarizeAnswers(answer));
                }
            }
            TurnPhase::Done => {}
        }
        if state.phase != TurnPhase::Done && state.cancelled.is_none() {
            actions.push(Action::Cancel);
        }
    }

    fn next_state(&self, last_state: &Self::State, action: Self::Action) -> Option<Self::State> {
        let mut state = last_state.clone();
        state.steps += 1;
        match action {
            Action::Decide(answer) => {
                state.decided = Some(answer);
                match answer {
                    DecideAnswer::Text => state.phase = TurnPhase::Done,
                    DecideAnswer::Batch(k) => {
                        state.batch_len = k;
                        state.phase = TurnPhase::Ready;
                    }
                    // CL-C01: runs nothing.
                    DecideAnswer::OverBoundBatch | DecideAnswer::Malformed => {
                        state.phase = TurnPhase::BatchEnded
                    }
                }
            }
            Action::StartAction(proposal) => {
                let started_after_non_success = state
                    .entries
                    .iter()
                    .any(|e| e.result != Some(EntryResult::Succeeded));
                state.entries.push(BatchEntry {
                    proposal,
                    invoked: false,
                    approved: false,
                    result: None,
                    started_after_cancel: state.cancelled.is_some(),
                    started_after_non_success,
                    started_after_summarize: state.summarize_calls > 0,
                });
                let rejected_locally = state.mode == Mode::ReadOnly
                    && proposal != Proposal::Read
                    && self.fault != Some(AssistFault::InvokeNonReadInReadOnly);
                if rejected_locally {
                    self.finish_entry(&mut state, EntryResult::RejectedLocally);
                } else {
                    if let Some(entry) = state.entries.last_mut() {
                        entry.invoked = true;
                    }
                    if proposal == Proposal::Unknown {
                        self.finish_entry(&mut state, EntryResult::Failed);
                    } else {
                        state.phase = TurnPhase::Invoking;
                    }
                }
            }
            Action::InvokeSettles(result) => match result {
                InvokeResult::Succeeded => self.finish_entry(&mut state, EntryResult::Succeeded),
                InvokeResult::Failed => self.finish_entry(&mut state, EntryResult::Failed),
                InvokeResult::Denied => self.finish_entry(&mut state, EntryResult::Denied),
                InvokeResult::ConfirmationRequired => state.phase = TurnPhase::AwaitingHost,
            },
            Action::HostApproves => {
                if let Some(entry) = state.entries.last_mut() {
                    entry.approved = true;
                }
                state.phase = TurnPhase::Resolving;
            }
            Action::HostDeclines => self.finish_entry(&mut state, EntryResult::Declined),
            Action::ConfirmationExpires => self.finish_entry(&mut state, EntryResult::Expired),
            Action::ResolutionSettles(result) => {
                let result = match result {
                    ResolutionResult::Succeeded => EntryResult::Succeeded,
                    ResolutionResult::Failed => EntryResult::Failed,
                    ResolutionResult::Denied => EntryResult::Denied,
                };
                self.finish_entry(&mut state, result);
            }
            Action::DelayElapses => state.phase = TurnPhase::Ready,
            Action::CallSummarize => {
                state.summarize_calls += 1;
                state.phase = TurnPhase::Summarizing;
            }
            Action::SkipSummarize => state.phase = TurnPhase::Done,
            Action::SummarizeAnswers(answer) => {
                state.summarized = Some(answer);
                state.phase = TurnPhase::Done;
                // The fault runs the first summarize's actions once, which is enough to break
                // the property and keeps the faulty state space finite.
                if answer == SummarizeAnswer::Actions
                    && self.fault == Some(AssistFault::RunSummarizeActions)
                    && state.summarize_calls == 1
                {
                    state.batch_len = state.entries.len() as u8 + 1;
                    state.phase = TurnPhase::Ready;
                }
            }
            Action::Cancel => {
                let (point, phase) = match state.phase {
                    // The pending decide answer is abandoned; nothing ran.
                    TurnPhase::Deciding => (CancelPoint::Deciding, TurnPhase::Done),
                    TurnPhase::Ready => (CancelPoint::BetweenActions, TurnPhase::BatchEnded),
                    // The invoke or resolution in flight still settles (the runtime reports it),
                    // and the batch ends there.
                    TurnPhase::Invoking | TurnPhase::Resolving => {
                        (CancelPoint::ActionInFlight, state.phase)
                    }
                    // CL-B09: aborting the original signal cancels the pending confirmation.
                    TurnPhase::AwaitingHost => {
                        (CancelPoint::ConfirmationPending, TurnPhase::AwaitingHost)
                    }
                    // CL-C06: a delay in progress ends.
                    TurnPhase::Delaying => (CancelPoint::Delay, TurnPhase::BatchEnded),
                    TurnPhase::BatchEnded => (CancelPoint::AfterBatch, TurnPhase::BatchEnded),
                    TurnPhase::Summarizing => (CancelPoint::Summarizing, TurnPhase::Done),
                    TurnPhase::Done => return None,
                };
                state.cancelled = Some(point);
                if self.fault == Some(AssistFault::StartAfterCancel)
                    && matches!(state.phase, TurnPhase::Ready | TurnPhase::Delaying)
                {
                    return Some(state);
                }
                state.phase = phase;
                if point == CancelPoint::ConfirmationPending {
                    self.finish_entry(&mut state, EntryResult::Cancelled);
                }
            }
        }
        Some(state)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        let mut properties = vec![
            Property::<Self>::always("Assist never starts an action after a non-success", |_, s| {
                s.entries.iter().all(|e| !e.started_after_non_success)
            }),
            Property::<Self>::always("Assist never runs a summarize-phase action", |_, s| {
                s.entries.iter().all(|e| !e.started_after_summarize)
            }),
            Property::<Self>::always(
                "Assist never invokes a non-read capability in read-only mode",
                |_, s| {
                    s.mode == Mode::Normal
                        || s.entries.iter().all(|e| !e.invoked || e.proposal == Proposal::Read)
                },
            ),
            Property::<Self>::always("Assist never starts an action after cancellation", |_, s| {
                s.entries.iter().all(|e| !e.started_after_cancel)
            }),
            Property::<Self>::always("Assist never runs more actions than the bound", |m, s| {
                s.entries.len() <= m.batch_bound as usize
            }),
            Property::<Self>::always(
                "an over-bound or malformed decision runs nothing",
                |_, s| match s.decided {
                    Some(DecideAnswer::OverBoundBatch) | Some(DecideAnswer::Malformed) => {
                        s.entries.is_empty()
                    }
                    _ => true,
                },
            ),
            Property::<Self>::always(
                "summarize is called at most once, and once whenever an action ran in a turn that was not cancelled",
                |_, s| {
                    s.summarize_calls <= 1
                        && (s.phase != TurnPhase::Done
                            || s.cancelled.is_some()
                            || !AssistModel::any_invoked(s)
                            || s.summarize_calls == 1)
                },
            ),
            Property::<Self>::always("summarize follows only a batch decision", |_, s| {
                s.summarize_calls == 0 || s.decided.is_some_and(|d| d != DecideAnswer::Text)
            }),
            Property::<Self>::always(
                "a delay only ever separates two actions of the batch",
                |_, s| {
                    let succeeded = s
                        .entries
                        .iter()
                        .filter(|e| e.result == Some(EntryResult::Succeeded))
                        .count() as u8;
                    s.delays <= succeeded
                        && (s.delays == 0 || s.delays < s.batch_len)
                        && (s.phase != TurnPhase::Delaying || (s.entries.len() as u8) < s.batch_len)
                },
            ),
            Property::<Self>::always("every turn ends within a bounded number of steps", |m, s| {
                s.steps <= m.max_turn_steps()
            }),
            Property::<Self>::always("an unfinished turn always has a next step", |m, s| {
                let mut actions = Vec::new();
                m.actions(s, &mut actions);
                s.phase == TurnPhase::Done || actions.iter().any(|a| *a != Action::Cancel)
            }),
            Property::<Self>::sometimes("decide can answer with text", |_, s| {
                s.decided == Some(DecideAnswer::Text)
            }),
            Property::<Self>::sometimes("decide can answer with an over-bound batch", |_, s| {
                s.decided == Some(DecideAnswer::OverBoundBatch)
            }),
            Property::<Self>::sometimes("decide can answer malformed", |_, s| {
                s.decided == Some(DecideAnswer::Malformed)
            }),
            Property::<Self>::sometimes(
                "a full batch can succeed with a delay between each pair of actions",
                |m, s| {
                    s.entries.len() == m.batch_bound as usize
                        && s.entries.iter().all(|e| e.result == Some(EntryResult::Succeeded))
                        && s.delays == m.batch_bound - 1
                },
            ),
            Property::<Self>::sometimes("an action can fail", |_, s| {
                entry_ended(s, EntryResult::Failed)
            }),
            Property::<Self>::sometimes("an action can be denied", |_, s| {
                entry_ended(s, EntryResult::Denied)
            }),
            Property::<Self>::sometimes(
                "an action can succeed after the host approves its confirmation",
                |_, s| {
                    s.entries
                        .iter()
                        .any(|e| e.approved && e.result == Some(EntryResult::Succeeded))
                },
            ),
            Property::<Self>::sometimes("the host can decline a confirmation", |_, s| {
                entry_ended(s, EntryResult::Declined)
            }),
            Property::<Self>::sometimes("a confirmation can expire", |_, s| {
                entry_ended(s, EntryResult::Expired)
            }),
            Property::<Self>::sometimes("read-only mode can reject a proposal locally", |_, s| {
                entry_ended(s, EntryResult::RejectedLocally)
            }),
            Property::<Self>::sometimes("summarize can return actions that are not run", |_, s| {
                s.summarized == Some(SummarizeAnswer::Actions) && s.phase == TurnPhase::Done
            }),
            Property::<Self>::sometimes("summarize can be skipped when no action ran", |_, s| {
                s.phase == TurnPhase::Done
                    && s.summarize_calls == 0
                    && s.decided.is_some_and(|d| d != DecideAnswer::Text)
            }),
            Property::<Self>::sometimes("the turn can be cancelled while deciding", |_, s| {
                s.cancelled == Some(CancelPoint::Deciding)
            }),
            Property::<Self>::sometimes("the turn can be cancelled between actions", |_, s| {
                s.cancelled == Some(CancelPoint::BetweenActions)
            }),
            Property::<Self>::sometimes("the turn can be cancelled while an action is in flight", |_, s| {
                s.cancelled == Some(CancelPoint::ActionInFlight)
            }),
            Property::<Self>::sometimes(
                "the turn can be cancelled while a confirmation is pending",
                |_, s| entry_ended(s, EntryResult::Cancelled),
            ),
            Property::<Self>::sometimes("the turn can be cancelled after the batch", |_, s| {
                s.cancelled == Some(CancelPoint::AfterBatch)
            }),
            Property::<Self>::sometimes("the turn can be cancelled while summarizing", |_, s| {
                s.cancelled == Some(CancelPoint::Summarizing)
            }),
        ];
        // A delay needs two actions in the batch (CL-C03).
        if self.batch_bound >= 2 {
            properties.push(Property::<Self>::sometimes(
                "the turn can be cancelled during a delay",
                |_, s| s.cancelled == Some(CancelPoint::Delay),
            ));
        }
        properties
    }
}

fn entry_ended(state: &TurnState, result: EntryResult) -> bool {
    state.entries.iter().any(|e| e.result == Some(result))
}

/// The turn as its environment can drive it between two steps (the view the model-generated
/// vectors and the differential tests walk): the same states and transitions as [`AssistModel`],
/// minus the outside actions a caller cannot interleave. `Ready` and `BatchEnded` are left by the
/// turn itself without waiting on anything (it starts the next entry, or calls or skips
/// summarize, at once), so no cancellation can arrive there; and a summarize call the turn may
/// or may not make (CL-C04-3, or after a cancellation) cannot be answered, since the caller
/// cannot know it was made. Every path of this view is a path of `AssistModel`, so every property
/// of the full model holds here too; it has no properties of its own.
#[derive(Clone, Debug, Default)]
pub struct ObservableTurn(pub AssistModel);

impl ObservableTurn {
    /// Whether a summarize call in `state` is the implementation's choice rather than owed
    /// (CL-C04-1 owes it when an action ran in a turn that was not cancelled before it).
    pub fn summarize_optional(state: &TurnState) -> bool {
        !AssistModel::any_invoked(state) || state.cancelled.is_some()
    }
}

impl Model for ObservableTurn {
    type State = TurnState;
    type Action = Action;

    fn init_states(&self) -> Vec<Self::State> {
        self.0.init_states()
    }

    fn actions(&self, state: &Self::State, actions: &mut Vec<Self::Action>) {
        self.0.actions(state, actions);
        actions.retain(|action| match action {
            Action::Cancel => !matches!(state.phase, TurnPhase::Ready | TurnPhase::BatchEnded),
            Action::SummarizeAnswers(_) => !Self::summarize_optional(state),
            _ => true,
        });
    }

    fn next_state(&self, last_state: &Self::State, action: Self::Action) -> Option<Self::State> {
        self.0.next_state(last_state, action)
    }
}
