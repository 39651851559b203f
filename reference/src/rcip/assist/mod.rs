//! The Assist orchestrator (`@binaried/rcip/assist`): the "Assist orchestration" paragraph of the
//! RCIP protocol text (RCIP-PROTO-ASSIST-01..12) with CLARIFICATIONS C01..C06, built on the
//! reference runtime's client and host surfaces and driven deterministically like it.
//!
//! - `config`: the batch bound and the symbolic delay amounts, with their clamps (CL-C01-3,
//!   CL-C03-3/4).
//! - `answer`: what the decision callback may answer in each phase (CL-C01-2/4, CL-C04-2).
//! - `turn`: one turn as a sans-IO state machine (C01..C06).
//! - `assistant`: the orchestrator over a [`crate::rcip::Runtime`]: callback gates, invocations,
//!   pauses on the virtual clock, host-UI resolution, cancellation.
//!
//! Out of scope as the text says (RCIP-PROTO-ASSIST-13): no provider, prompt format, transport
//! or durable chat store; messages are values held in memory for the callback.

mod answer;
mod assistant;
mod config;
mod turn;

pub use answer::{read_decide, read_summarize, AnswerError, Proposal, ProposedAction};
pub use assistant::{
    AssistGateError, Assistant, CallbackAnswer, CallbackId, DecisionFn, TurnId, TurnRequest,
};
pub use config::{
    declared_batch_bound, AssistConfig, Delay, DelayAmounts, ALTERNATE_BATCH_BOUND,
    DEFAULT_BATCH_BOUND, DEFAULT_LONG_MS, DEFAULT_MEDIUM_MS, DEFAULT_SHORT_MS, MAX_BATCH_BOUND,
    MAX_DELAY_MS, MIN_BATCH_BOUND,
};
pub use turn::{filtered, AssistError, CallbackView, Mode, Next, Phase, Surface, Turn, TurnEnd};
