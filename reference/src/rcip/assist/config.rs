//! The orchestrator's bounds (CL-C01-2/3, CL-C03-1/3/4): the declared batch bound N (default 8,
//! clamped to 1..32) and the amounts of the three symbolic delays (defaults 250, 750, 1500 ms,
//! each clamped to 0..10000). Requested values outside the ranges are clamped, never rejected,
//! so building an orchestrator cannot fail.

use crate::choices::{Choice, Choices, Fault};

/// RECOMMENDED default of the batch bound N (CL-C01-3).
pub const DEFAULT_BATCH_BOUND: usize = 8;
/// The batch bound N of the alternate reading (`Choice::AssistBatchBound`).
pub const ALTERNATE_BATCH_BOUND: usize = 3;

/// The delay amounts of the alternate reading (`Choice::AssistDelayDurations`).
const ALTERNATE_DELAYS_MS: [u64; 3] = [100, 400, 2000];

/// The bound N an orchestrator under these choices declares when none is requested.
pub fn declared_batch_bound(choices: &Choices) -> usize {
    if choices.takes(Choice::AssistBatchBound) {
        ALTERNATE_BATCH_BOUND
    } else {
        DEFAULT_BATCH_BOUND
    }
}

/// The clamp of the batch bound (CL-C01-3).
pub const MIN_BATCH_BOUND: usize = 1;
pub const MAX_BATCH_BOUND: usize = 32;
/// RECOMMENDED default delay amounts in ms (CL-C03-3).
pub const DEFAULT_SHORT_MS: u64 = 250;
pub const DEFAULT_MEDIUM_MS: u64 = 750;
pub const DEFAULT_LONG_MS: u64 = 1500;
/// The clamp of every delay amount (CL-C03-4).
pub const MAX_DELAY_MS: u64 = 10_000;
/// The upper clamp of the alternate reading (`Choice::AssistDelayClampWider`).
const ALTERNATE_MAX_DELAY_MS: u64 = 60_000;

/// A symbolic delay (CL-C03-1): the pause after an action before the next one starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delay {
    Short,
    Medium,
    Long,
}

impl Delay {
    /// The three symbols; any other text is not a delay (the answer is then malformed).
    pub fn parse(symbol: &str) -> Option<Delay> {
        match symbol {
            "short" => Some(Delay::Short),
            "medium" => Some(Delay::Medium),
            "long" => Some(Delay::Long),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Delay::Short => "short",
            Delay::Medium => "medium",
            Delay::Long => "long",
        }
    }
}

/// Requested amounts, in ms; `None` takes the default. Any integer may be requested.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DelayAmounts {
    pub short: Option<i64>,
    pub medium: Option<i64>,
    pub long: Option<i64>,
}

/// The effective bounds of one orchestrator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AssistConfig {
    batch_bound: usize,
    short_ms: u64,
    medium_ms: u64,
    long_ms: u64,
    /// CL-C04-3 (IMPL-DEFINED): summarize also when no action went through `invoke`.
    summarize_without_actions: bool,
    /// CL-C05-3 (RECOMMENDED denied `POLICY_DENIED`): the alternate fails the local rejection
    /// with `CAPABILITY_NOT_FOUND`.
    read_only_rejection_not_found: bool,
    /// PRJ-ASSIST-BATCH-02 (RECOMMENDED malformed): the alternate reads an unknown delay as none.
    unknown_delay_ignored: bool,
    /// PRJ-ASSIST-CANCEL-02 (IMPL-DEFINED): the alternate does not pass the turn's signal to invoke.
    cancel_leaves_invocation: bool,
    /// PRJ-ASSIST-CANCEL-01 (IMPL-DEFINED): the alternate still makes the one summarize call after
    /// a cancellation when an action went through `invoke`.
    summarize_after_cancel: bool,
    /// PRJ-ASSIST-CANCEL-03 (RECOMMENDED stop waiting): the alternate still waits for the decide
    /// answer or the resolution it waited for when cancelled.
    cancel_keeps_waiting: bool,
    /// At most one injected fault of the catalog (`crate::choices::FAULTS`).
    fault: Option<Fault>,
}

impl Default for AssistConfig {
    fn default() -> Self {
        AssistConfig::new(None, DelayAmounts::default())
    }
}

impl AssistConfig {
    /// The configuration for a requested bound and requested delay amounts, clamped.
    pub fn new(batch_bound: Option<i64>, delays: DelayAmounts) -> AssistConfig {
        AssistConfig::with_choices(batch_bound, delays, &Choices::default())
    }

    /// [`AssistConfig::new`] under the given readings of the open points of section C
    /// (`crate::choices`): the defaults of N and of the delays, summarize without actions, and
    /// the local outcome of a read-only rejection.
    pub fn with_choices(
        batch_bound: Option<i64>,
        delays: DelayAmounts,
        choices: &Choices,
    ) -> AssistConfig {
        let default_bound = declared_batch_bound(choices);
        let [short, medium, long] = if choices.takes(Choice::AssistDelayDurations) {
            ALTERNATE_DELAYS_MS
        } else {
            [DEFAULT_SHORT_MS, DEFAULT_MEDIUM_MS, DEFAULT_LONG_MS]
        };
        // CL-C03-4 is RECOMMENDED: the alternate clamps requested amounts to a wider range.
        let max = if choices.takes(Choice::AssistDelayClampWider) {
            ALTERNATE_MAX_DELAY_MS
        } else {
            MAX_DELAY_MS
        };
        let clamp_delay = |requested: i64| clamp_delay(requested, max);
        AssistConfig {
            batch_bound: batch_bound.map_or(default_bound, clamp_bound),
            short_ms: delays.short.map_or(short, clamp_delay),
            medium_ms: delays.medium.map_or(medium, clamp_delay),
            long_ms: delays.long.map_or(long, clamp_delay),
            summarize_without_actions: choices.takes(Choice::AssistSummarizeWithoutActions),
            read_only_rejection_not_found: choices.takes(Choice::AssistReadOnlyRejectionFailed),
            unknown_delay_ignored: choices.takes(Choice::AssistUnknownDelayIgnored),
            cancel_leaves_invocation: choices.takes(Choice::AssistCancelLeavesInvocation),
            summarize_after_cancel: choices.takes(Choice::AssistSummarizeAfterCancel),
            cancel_keeps_waiting: choices.takes(Choice::AssistCancelKeepsWaiting),
            fault: choices.fault(),
        }
    }

    /// Whether a `delay` that is not a symbol is read as no delay (PRJ-ASSIST-BATCH-02).
    pub fn unknown_delay_ignored(&self) -> bool {
        self.unknown_delay_ignored
    }

    /// Whether a cancelled turn leaves its invocation in progress running (PRJ-ASSIST-CANCEL-02).
    pub fn cancel_leaves_invocation(&self) -> bool {
        self.cancel_leaves_invocation
    }

    /// Whether a cancelled turn still makes its one summarize call (PRJ-ASSIST-CANCEL-01).
    pub fn summarize_after_cancel(&self) -> bool {
        self.summarize_after_cancel
    }

    /// Whether a cancelled turn still waits for its decide answer or resolution
    /// (PRJ-ASSIST-CANCEL-03).
    pub fn cancel_keeps_waiting(&self) -> bool {
        self.cancel_keeps_waiting
    }

    /// Whether `fault` is injected.
    pub fn injects(&self, fault: Fault) -> bool {
        self.fault == Some(fault)
    }

    /// Whether a batch that ended before any action went through `invoke` is summarized.
    pub fn summarize_without_actions(&self) -> bool {
        self.summarize_without_actions
    }

    /// Whether a read-only rejection is failed `CAPABILITY_NOT_FOUND` (else denied
    /// `POLICY_DENIED`).
    pub fn read_only_rejection_not_found(&self) -> bool {
        self.read_only_rejection_not_found
    }

    /// The declared bound N: a batch of more actions runs nothing (CL-C01-4).
    pub fn batch_bound(&self) -> usize {
        self.batch_bound
    }

    /// The amount of a symbolic delay, in ms.
    pub fn delay_ms(&self, delay: Delay) -> u64 {
        match delay {
            Delay::Short => self.short_ms,
            Delay::Medium => self.medium_ms,
            Delay::Long => self.long_ms,
        }
    }
}

fn clamp_bound(requested: i64) -> usize {
    let clamped = requested.clamp(MIN_BATCH_BOUND as i64, MAX_BATCH_BOUND as i64);
    usize::try_from(clamped).unwrap_or(DEFAULT_BATCH_BOUND)
}

fn clamp_delay(requested: i64, max: u64) -> u64 {
    u64::try_from(requested.clamp(0, i64::try_from(max).unwrap_or(i64::MAX))).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    // CL-C01-3: default 8, clamp 1..32.
    #[test]
    fn bound_default_and_clamp() {
        assert_eq!(AssistConfig::default().batch_bound(), 8);
        let bound = |n| AssistConfig::new(Some(n), DelayAmounts::default()).batch_bound();
        assert_eq!(
            (
                bound(0),
                bound(-4),
                bound(1),
                bound(32),
                bound(40),
                bound(i64::MAX)
            ),
            (1, 1, 1, 32, 32, 32)
        );
    }

    // CL-C03-3/4: defaults 250, 750, 1500; clamp 0..10000.
    #[test]
    fn delay_defaults_and_clamp() {
        let config = AssistConfig::default();
        assert_eq!(
            [Delay::Short, Delay::Medium, Delay::Long].map(|d| config.delay_ms(d)),
            [250, 750, 1500]
        );
        let config = AssistConfig::new(
            None,
            DelayAmounts {
                short: Some(-50),
                medium: Some(7),
                long: Some(20_000),
            },
        );
        assert_eq!(
            [Delay::Short, Delay::Medium, Delay::Long].map(|d| config.delay_ms(d)),
            [0, 7, 10_000]
        );
    }

    #[test]
    fn symbols() {
        assert_eq!(Delay::parse("medium"), Some(Delay::Medium));
        assert_eq!(Delay::parse("Medium"), None);
        assert_eq!(Delay::parse("forever"), None);
        assert_eq!(Delay::Long.as_str(), "long");
    }
}
