//! The open points of the texts as one table (issue 12 §3): every place where the spec texts, the
//! CLARIFICATIONS or the project register leave an implementation more than one admissible
//! behaviour (an IMPL-DEFINED alternative, a RECOMMENDED behaviour an implementation may skip, a
//! silence the register records). The reference takes the default behaviour of every row unless it
//! is built with [`Choices::alternate`], which takes the other admissible behaviour at every row.
//!
//! The alternate reference exists to prove the vectors never pin a choice the texts leave open:
//! run against it, a case may report `non-strict` only where a RECOMMENDED check is what differs,
//! never `fail`. Each decision point in `rcip`, `rcip::assist` and `rui` cites its row's
//! [`Choice`]; `reference-driver --choices list` prints this table.

use std::collections::BTreeSet;

/// One open point of the texts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Choice {
    AbortBeforeLookup,
    RecheckOrderReversed,
    ReorderIsNoChange,
    ConfirmAgainIsEvaluationFailure,
    ApprovalAtExpiryAccepted,
    ReceiptAnswersUntilEvicted,
    AbortErrorIsAborted,
    NegativeZeroKept,
    SharedReferencesRejected,
    NullPrototypeRejected,
    FailedInvocationBumpsRevision,
    IdenticalContextBumpsRevision,
    ScopeHierarchyRelevance,
    UndeclaredScopesDropped,
    DefaultPolicyConfirmsWrites,
    RequestedAtHandlerStart,
    NoSignalWithoutCaller,
    RequestedAgainOnApproval,
    ListenersReverseOrder,
    ListenerCalledAtSubscribe,
    OwnIdFormat,
    AssistBatchBound,
    AssistDelayDurations,
    AssistSummarizeWithoutActions,
    AssistReadOnlyRejectionFailed,
    RuiArrayAppend,
    RuiBeginWhileOpenWaits,
    RuiLimitsProfile,
}

/// A row of the table: the choice, the requirement ids that leave it open, and both behaviours.
#[derive(Debug, Clone, Copy)]
pub struct ChoiceRow {
    pub choice: Choice,
    pub name: &'static str,
    pub requirements: &'static [&'static str],
    pub default: &'static str,
    pub alternate: &'static str,
}

/// Every open point the reference implements both ways, in the order of the texts.
pub const TABLE: &[ChoiceRow] = &[
    ChoiceRow {
        choice: Choice::AbortBeforeLookup,
        name: "abort-before-lookup",
        requirements: &["CL-B03-2"],
        default: "an already-aborted signal is reported after catalog, binding, availability and input checks, before policy",
        alternate: "an already-aborted signal is reported before the catalog lookup",
    },
    ChoiceRow {
        choice: Choice::RecheckOrderReversed,
        name: "recheck-order-reversed",
        requirements: &["CL-B05-3"],
        default: "after policy: abort, binding, context, availability, in that precedence",
        alternate: "after policy: availability, context, binding, abort, in that precedence",
    },
    ChoiceRow {
        choice: Choice::ReorderIsNoChange,
        name: "reorder-is-no-change",
        requirements: &["CL-B06-3"],
        default: "a reordering of the same active scopes is a changed context",
        alternate: "a reordering of the same active scopes (same primary) is not a change",
    },
    ChoiceRow {
        choice: Choice::ConfirmAgainIsEvaluationFailure,
        name: "confirm-again-evaluation-failure",
        requirements: &["CL-B07-5"],
        default: "confirm again on the confirmed pass gives denied POLICY_DENIED",
        alternate: "confirm again on the confirmed pass gives failed POLICY_EVALUATION_FAILED",
    },
    ChoiceRow {
        choice: Choice::ApprovalAtExpiryAccepted,
        name: "approval-at-expiry-accepted",
        requirements: &["CL-B08-4"],
        default: "a confirmation expires when the clock reaches expiresAt",
        alternate: "a confirmation expires only once the clock passes expiresAt",
    },
    ChoiceRow {
        choice: Choice::ReceiptAnswersUntilEvicted,
        name: "receipt-answers-until-evicted",
        requirements: &["CL-B10-3"],
        default: "a receipt answers once, then CONFIRMATION_NOT_FOUND",
        alternate: "a receipt answers every resolution until it is evicted",
    },
    ChoiceRow {
        choice: Choice::AbortErrorIsAborted,
        name: "abort-error-is-aborted",
        requirements: &["CL-B11-6"],
        default: "a handler throwing an AbortError without an abort gives EXECUTION_FAILED",
        alternate: "a handler throwing an AbortError without an abort gives EXECUTION_ABORTED",
    },
    ChoiceRow {
        choice: Choice::NegativeZeroKept,
        name: "negative-zero-kept",
        requirements: &["CL-B13-4"],
        default: "-0 in inputs and outputs is normalised to 0",
        alternate: "-0 is kept",
    },
    ChoiceRow {
        choice: Choice::SharedReferencesRejected,
        name: "shared-references-rejected",
        requirements: &["CL-B13-5"],
        default: "shared acyclic references are accepted (copied per occurrence)",
        alternate: "shared acyclic references are not plain JSON",
    },
    ChoiceRow {
        choice: Choice::NullPrototypeRejected,
        name: "null-prototype-rejected",
        requirements: &["CL-B13-6"],
        default: "null-prototype objects are plain JSON",
        alternate: "null-prototype objects are not plain JSON",
    },
    ChoiceRow {
        choice: Choice::FailedInvocationBumpsRevision,
        name: "failed-invocation-bumps-revision",
        requirements: &["CL-B15-8"],
        default: "failed and denied invocations publish no revision",
        alternate: "every failed or denied invocation publishes a new revision",
    },
    ChoiceRow {
        choice: Choice::IdenticalContextBumpsRevision,
        name: "identical-context-bumps-revision",
        requirements: &["CL-B15-9"],
        default: "setContext with an identical value publishes nothing",
        alternate: "setContext with an identical value publishes a new revision",
    },
    ChoiceRow {
        choice: Choice::ScopeHierarchyRelevance,
        name: "scope-hierarchy-relevance",
        requirements: &["CL-B16-3"],
        default: "relevance ignores parentId",
        alternate: "a capability is current when an ancestor of one of its scopes is active",
    },
    ChoiceRow {
        choice: Choice::UndeclaredScopesDropped,
        name: "undeclared-scopes-dropped",
        requirements: &["CL-B21-1", "CL-B21-2"],
        default: "setContext with an undeclared scope or an inactive primary throws",
        alternate: "undeclared scopes and an inactive primary are dropped without throwing",
    },
    ChoiceRow {
        choice: Choice::DefaultPolicyConfirmsWrites,
        name: "default-policy-confirms-writes",
        requirements: &["CL-B22-2", "CL-B22-3"],
        default: "default policy: read allowed, destructive confirmed, write and external denied",
        alternate: "default policy: read allowed, every other effect needs confirmation",
    },
    ChoiceRow {
        choice: Choice::RequestedAtHandlerStart,
        name: "requested-at-handler-start",
        requirements: &["PRJ-RCIP-EXEC-01"],
        default: "ctx.requestedAt is the clock when invoke was called",
        alternate: "ctx.requestedAt is the clock when the handler starts",
    },
    ChoiceRow {
        choice: Choice::NoSignalWithoutCaller,
        name: "no-signal-without-caller",
        requirements: &["CL-A04-3"],
        default: "a handler gets a fresh signal when the caller passed none",
        alternate: "a handler's ctx has no signal when the caller passed none",
    },
    ChoiceRow {
        choice: Choice::RequestedAgainOnApproval,
        name: "requested-again-on-approval",
        requirements: &["CL-B23-1"],
        default: "one requested event per invoke",
        alternate: "an approval emits requested again before the confirmed policy pass",
    },
    ChoiceRow {
        choice: Choice::ListenersReverseOrder,
        name: "listeners-reverse-order",
        requirements: &["RCIP-PROTO-SURF-04"],
        default: "listeners are notified in subscription order",
        alternate: "listeners are notified in reverse subscription order",
    },
    ChoiceRow {
        choice: Choice::ListenerCalledAtSubscribe,
        name: "listener-called-at-subscribe",
        requirements: &["PRJ-RCIP-SUB-01"],
        default: "subscribe does not call the listener",
        alternate: "subscribe calls the listener once with the current snapshot",
    },
    ChoiceRow {
        choice: Choice::OwnIdFormat,
        name: "own-id-format",
        requirements: &["CL-A01-6"],
        default: "without createId, ids are <prefix>-<n>",
        alternate: "without createId, ids are rt_<prefix>_<n>",
    },
    ChoiceRow {
        choice: Choice::AssistBatchBound,
        name: "assist-batch-bound",
        requirements: &["CL-C01-3"],
        default: "the declared batch bound N is 8",
        alternate: "the declared batch bound N is 3",
    },
    ChoiceRow {
        choice: Choice::AssistDelayDurations,
        name: "assist-delay-durations",
        requirements: &["CL-C03-3"],
        default: "delays short/medium/long are 250/750/1500 ms",
        alternate: "delays short/medium/long are 100/400/2000 ms",
    },
    ChoiceRow {
        choice: Choice::AssistSummarizeWithoutActions,
        name: "assist-summarize-without-actions",
        requirements: &["CL-C04-3"],
        default: "no summarize call when the batch ended before any action ran",
        alternate: "summarize is called when the batch ended before any action ran",
    },
    ChoiceRow {
        choice: Choice::AssistReadOnlyRejectionFailed,
        name: "assist-read-only-rejection-failed",
        requirements: &["CL-C05-3"],
        default: "a non-read action in read-only mode is denied POLICY_DENIED locally",
        alternate: "a non-read action in read-only mode is failed CAPABILITY_NOT_FOUND locally",
    },
    ChoiceRow {
        choice: Choice::RuiArrayAppend,
        name: "rui-array-append",
        requirements: &["CL-D03-6"],
        default: "a data pointer ending in - fails the transaction",
        alternate: "a data pointer ending in - appends to the array",
    },
    ChoiceRow {
        choice: Choice::RuiBeginWhileOpenWaits,
        name: "rui-begin-while-open-waits",
        requirements: &["CL-D09-3"],
        default: "a begin while a transaction is open discards it and opens a new one",
        alternate: "a begin while a transaction is open discards it and opens nothing",
    },
    ChoiceRow {
        choice: Choice::RuiLimitsProfile,
        name: "rui-limits-profile",
        requirements: &["CL-D04-1"],
        default: "the declared limits profile of the reference",
        alternate: "a larger declared limits profile (every bound doubled)",
    },
];

/// Which behaviour the reference takes at each open point: the default everywhere, or the
/// alternate at the rows it names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Choices {
    alternate: BTreeSet<Choice>,
}

impl Choices {
    /// The default behaviour at every row.
    pub fn default_reading() -> Choices {
        Choices::default()
    }

    /// The alternate behaviour at every row of [`TABLE`].
    pub fn alternate() -> Choices {
        Choices {
            alternate: TABLE.iter().map(|row| row.choice).collect(),
        }
    }

    /// The alternate behaviour at the given rows only (for tests of one decision point).
    pub fn only(choices: &[Choice]) -> Choices {
        Choices {
            alternate: choices.iter().copied().collect(),
        }
    }

    /// Whether the alternate behaviour is taken at `choice`.
    pub fn takes(&self, choice: Choice) -> bool {
        self.alternate.contains(&choice)
    }

    /// Whether every row takes its default.
    pub fn is_default(&self) -> bool {
        self.alternate.is_empty()
    }
}

/// The row of a choice.
pub fn row(choice: Choice) -> Option<&'static ChoiceRow> {
    TABLE.iter().find(|row| row.choice == choice)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_choice_has_exactly_one_row_with_a_unique_name() {
        let mut names = BTreeSet::new();
        let mut choices = BTreeSet::new();
        for row in TABLE {
            assert!(names.insert(row.name), "duplicate name {}", row.name);
            assert!(choices.insert(row.choice), "duplicate row {:?}", row.choice);
            assert!(!row.requirements.is_empty(), "{} cites nothing", row.name);
            assert_ne!(row.default, row.alternate, "{}", row.name);
        }
        assert!(TABLE.len() >= 25, "the table has {} rows", TABLE.len());
    }

    #[test]
    fn alternate_takes_every_row_and_default_none() {
        let alternate = Choices::alternate();
        let default = Choices::default_reading();
        for row in TABLE {
            assert!(alternate.takes(row.choice));
            assert!(!default.takes(row.choice));
        }
        assert!(default.is_default());
        assert!(!Choices::only(&[Choice::OwnIdFormat]).takes(Choice::NegativeZeroKept));
    }
}
