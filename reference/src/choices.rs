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
    PolicyAnswerBeforeRecheck,
    PlainJsonAtCapture,
    ReorderIsNoChange,
    ConfirmAgainIsEvaluationFailure,
    ApprovalAtExpiryAccepted,
    TtlFromInvoke,
    ExpiresAtIsoDate,
    ReceiptAnswersUntilEvicted,
    AbortErrorIsAborted,
    NegativeZeroKept,
    SchemaRefNonSchemaUnchecked,
    SharedReferencesRejected,
    NullPrototypeRejected,
    AccessorsRejected,
    FailedInvocationBumpsRevision,
    IdenticalContextBumpsRevision,
    FirstScopeActiveAtStart,
    ScopeHierarchyRelevance,
    UndeclaredScopesDropped,
    DuplicateScopesKept,
    DefaultPolicyConfirmsWrites,
    DefaultPolicyConfirmsReads,
    DefaultPolicyRejudgesConfirmedPass,
    RequestedAtHandlerStart,
    RequestedAgainOnApproval,
    ListenersReverseOrder,
    ListReversed,
    ListenerCalledAtSubscribe,
    OwnIdFormat,
    OneIdNamespace,
    IdentifierRunsRefused,
    AssistBatchBound,
    AssistDelayDurations,
    AssistDelayClampWider,
    AssistUnknownDelayIgnored,
    AssistCancelLeavesInvocation,
    AssistSummarizeAfterCancel,
    AssistCancelKeepsWaiting,
    AssistSummarizeWithoutActions,
    AssistReadOnlyRejectionFailed,
    RuiArrayAppend,
    RuiBeginWhileOpenWaits,
    RuiLimitsProfile,
    RuiDepthValuesOnly,
    RuiLimitsBoundWholeRecord,
    RuiDepthFromRecord,
    RuiOperationsCountRecords,
    RuiBytesCountWhitespace,
    RuiPolicyFailureDenies,
    RuiPointerRecordInvalid,
    RuiJsonlBlankLineFrame,
    RuiJsonlLastLineApplied,
    RuiJsonlCutLineNotJson,
    RuiSseUndispatchedDropped,
    RuiJsonSeqUnterminatedApplied,
    RuiJsonSeqEmptyElement,
    RuiTruncatedEndInterrupted,
    RuiCommitChecksReversed,
    RuiFailAtRecord,
    RuiUnreachableCycleFails,
    RuiScalarParentPointerInvalid,
    RuiDeleteDocumentResets,
    RuiIndexAtLengthRefused,
    ReactNestedOwnerInnerWins,
    ReactRefreshOnMount,
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
        choice: Choice::PolicyAnswerBeforeRecheck,
        name: "policy-answer-before-recheck",
        requirements: &["PRJ-RCIP-POLICY-01"],
        default: "a failing CL-B05 recheck decides after every policy answer, a deny or a throw included",
        alternate: "a deny, a throw or a malformed answer is reported as such; only allow and confirm are rechecked",
    },
    ChoiceRow {
        choice: Choice::PlainJsonAtCapture,
        name: "plain-json-at-capture",
        requirements: &["PRJ-RCIP-INPUT-01"],
        default: "the plain-JSON check of an input runs with its schema check, after catalog, binding and availability",
        alternate: "the plain-JSON check runs as the request is captured, before the catalog lookup",
    },
    ChoiceRow {
        choice: Choice::ReorderIsNoChange,
        name: "reorder-is-no-change",
        requirements: &["CL-B06-3"],
        default: "a reordering of the same active scopes is a changed context",
        alternate: "a reordering of the same active scopes (same primary) is not a change",
    },
    // CL-B07-5 admits a third reading no row takes: asking again (a new confirmation on the
    // confirmed pass). The vectors accept it (the model cases' one-of, the RECOMMENDED hand
    // cases), but the invocation trace checker (`harness/src/trace/invocation.rs`) explores
    // `model::invocation`, where an invocation holds one `Confirmation` (issued, pending,
    // resolved, receipt); a second one needs a second confirmation state per invocation (its own
    // id, TTL timer and receipt beside the first's receipt) in the model, its transitions and the
    // translator, so a reference row taking it would produce traces the checker rejects.
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
        choice: Choice::TtlFromInvoke,
        name: "ttl-from-invoke",
        requirements: &["PRJ-RCIP-CONF-04"],
        default: "a confirmation's TTL runs from the confirm decision",
        alternate: "a confirmation's TTL runs from the invoke call",
    },
    ChoiceRow {
        choice: Choice::ExpiresAtIsoDate,
        name: "expires-at-iso-date",
        requirements: &["PRJ-RCIP-CONF-02"],
        default: "confirmation.expiresAt is the expiry instant in milliseconds on the runtime clock",
        alternate: "confirmation.expiresAt is the same instant as an RFC 3339 date-time string",
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
        choice: Choice::SchemaRefNonSchemaUnchecked,
        name: "schema-ref-non-schema-unchecked",
        requirements: &["PRJ-RCIP-SCHEMA-01"],
        default: "the target of a $ref into const, enum, default or examples is held to the strict profile",
        alternate: "the target of a $ref into const, enum, default or examples is applied as a schema without the profile walk (its format or unknown keyword ignored)",
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
        choice: Choice::AccessorsRejected,
        name: "accessors-rejected",
        requirements: &["PRJ-RCIP-JSON-01"],
        default: "an accessor property of an input or output is read once, while copying",
        alternate: "an input or output holding an accessor property is not plain JSON",
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
        choice: Choice::FirstScopeActiveAtStart,
        name: "first-scope-active-at-start",
        requirements: &["PRJ-RCIP-CTX-01"],
        default: "a new runtime starts with no active scope and no primary scope",
        alternate: "a new runtime starts with the first declared scope active and primary",
    },
    ChoiceRow {
        choice: Choice::ScopeHierarchyRelevance,
        name: "scope-hierarchy-relevance",
        requirements: &["CL-B16-3", "PRJ-RCIP-SCOPE-01"],
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
        choice: Choice::DuplicateScopesKept,
        name: "duplicate-scopes-kept",
        requirements: &["CL-B21-3"],
        default: "a repeated active scope id is collapsed, keeping first-seen order",
        alternate: "a repeated active scope id is kept as given",
    },
    ChoiceRow {
        choice: Choice::DefaultPolicyConfirmsWrites,
        name: "default-policy-confirms-writes",
        requirements: &["CL-B22-2", "CL-B22-3"],
        default: "default policy: read allowed, destructive confirmed, write and external denied",
        alternate: "default policy: read allowed, every other effect needs confirmation",
    },
    ChoiceRow {
        choice: Choice::DefaultPolicyConfirmsReads,
        name: "default-policy-confirms-reads",
        requirements: &["CL-B22-1"],
        default: "default policy: a read is allowed",
        alternate: "default policy: a read needs confirmation",
    },
    ChoiceRow {
        choice: Choice::DefaultPolicyRejudgesConfirmedPass,
        name: "default-policy-rejudges-confirmed-pass",
        requirements: &["CL-B22-4"],
        default: "default policy: the confirmed pass is allowed",
        alternate: "default policy: the confirmed pass applies the same table, so a confirm is answered again",
    },
    ChoiceRow {
        choice: Choice::RequestedAtHandlerStart,
        name: "requested-at-handler-start",
        requirements: &["PRJ-RCIP-EXEC-01"],
        default: "ctx.requestedAt is the clock when invoke was called",
        alternate: "ctx.requestedAt is the clock when the handler starts",
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
        choice: Choice::ListReversed,
        name: "list-reversed",
        requirements: &["PRJ-RCIP-LIST-01"],
        default: "listCapabilities returns the matching capabilities in catalog order",
        alternate: "listCapabilities returns them in reverse catalog order",
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
        choice: Choice::OneIdNamespace,
        name: "one-id-namespace",
        requirements: &["PRJ-RCIP-ID-01"],
        default: "application, scope and capability ids have a namespace each: a capability id equal to a scope or the application id is accepted",
        alternate: "one namespace for every kind: such a capability id makes creation throw IDENTIFIER_DUPLICATE",
    },
    ChoiceRow {
        choice: Choice::IdentifierRunsRefused,
        name: "identifier-runs-refused",
        requirements: &["CL-B18-9"],
        default: "runs of capitals or digits inside an id segment (getURL, v22) are accepted",
        alternate: "such an id makes creation throw IDENTIFIER_INVALID",
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
        choice: Choice::AssistDelayClampWider,
        name: "assist-delay-clamp-wider",
        requirements: &["CL-C03-4"],
        default: "requested delay amounts are clamped to 0..10000 ms",
        alternate: "requested delay amounts are clamped to 0..60000 ms",
    },
    ChoiceRow {
        choice: Choice::AssistUnknownDelayIgnored,
        name: "assist-unknown-delay-ignored",
        requirements: &["PRJ-ASSIST-BATCH-02"],
        default: "an action whose delay is not short, medium or long makes the decide answer malformed",
        alternate: "such a delay is read as no delay and the batch runs",
    },
    ChoiceRow {
        choice: Choice::AssistCancelLeavesInvocation,
        name: "assist-cancel-leaves-invocation",
        requirements: &["PRJ-ASSIST-CANCEL-02"],
        default: "the turn's signal reaches invoke: cancelling a turn aborts its invocation in progress",
        alternate: "invoke gets no signal: the invocation in progress finishes, and no later action starts",
    },
    ChoiceRow {
        choice: Choice::AssistSummarizeAfterCancel,
        name: "assist-summarize-after-cancel",
        requirements: &["PRJ-ASSIST-CANCEL-01"],
        default: "a cancelled turn ends without its summarize call",
        alternate: "a cancelled turn still makes its one summarize call when an action went through invoke, then ends cancelled",
    },
    ChoiceRow {
        choice: Choice::AssistCancelKeepsWaiting,
        name: "assist-cancel-keeps-waiting",
        requirements: &["PRJ-ASSIST-CANCEL-03"],
        default: "a turn cancelled while it waits for the decide answer or a confirmation's resolution stops waiting at once",
        alternate: "a turn cancelled while it waits for the decide answer or a confirmation's resolution waits for it, then stops (no action after it)",
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
        requirements: &["CL-D03-6", "PRJ-RUI-DATA-06"],
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
    ChoiceRow {
        choice: Choice::RuiDepthValuesOnly,
        name: "rui-depth-values-only",
        requirements: &["PRJ-RUI-LIMIT-12"],
        default: "maxDepth bounds props and data values and the node tree from its root",
        alternate: "maxDepth bounds only the nesting of props and data values",
    },
    ChoiceRow {
        choice: Choice::RuiLimitsBoundWholeRecord,
        name: "rui-limits-bound-whole-record",
        requirements: &["PRJ-RUI-LIMIT-13"],
        default: "the bounds cover node ids, the strings and arrays of props and data values, child lists, and each value's own depth",
        alternate: "the bounds also cover every other string and member name of a record, the transaction id, the record tuple and a data value's depth from the document root",
    },
    ChoiceRow {
        choice: Choice::RuiDepthFromRecord,
        name: "rui-depth-from-record",
        requirements: &["PRJ-RUI-LIMIT-14"],
        default: "a props object or data value is depth 1 (handshake limitsMeasure absent)",
        alternate: "depth counts from the record tuple, so a props object or data value is depth 2 (handshake limitsMeasure.depth \"record\")",
    },
    ChoiceRow {
        choice: Choice::RuiOperationsCountRecords,
        name: "rui-operations-count-records",
        requirements: &["PRJ-RUI-LIMIT-15"],
        default: "operations are the node, data and delete records (handshake limitsMeasure absent)",
        alternate: "begin and the closing commit count as operations too (handshake limitsMeasure.operations \"records\")",
    },
    ChoiceRow {
        choice: Choice::RuiBytesCountWhitespace,
        name: "rui-bytes-count-whitespace",
        requirements: &["PRJ-RUI-LIMIT-16"],
        default: "a record counts the bytes of its JSON value's text, without whitespace around it",
        alternate: "a record counts its frame's payload as it came, whitespace around the value included (a CR before a JSONL LF)",
    },
    ChoiceRow {
        choice: Choice::RuiPolicyFailureDenies,
        name: "rui-policy-failure-denies",
        requirements: &["PRJ-RUI-ACT-03"],
        default: "a throwing or malformed action policy rejects the dispatch POLICY_EVALUATION_FAILED",
        alternate: "a throwing or malformed action policy denies the dispatch POLICY_DENIED",
    },
    ChoiceRow {
        choice: Choice::RuiPointerRecordInvalid,
        name: "rui-pointer-record-invalid",
        requirements: &["PRJ-RUI-DATA-02"],
        default: "a data pointer outside RFC 6901 syntax fails the transaction POINTER_INVALID",
        alternate: "a data pointer outside RFC 6901 syntax makes the record invalid (RECORD_INVALID)",
    },
    ChoiceRow {
        choice: Choice::RuiJsonlBlankLineFrame,
        name: "rui-jsonl-blank-line-frame",
        requirements: &["PRJ-RUI-FRAME-04"],
        default: "a JSONL line that is empty or only whitespace is ignored and not counted",
        alternate: "a JSONL line that is empty or only whitespace is a frame, quarantined FRAME_NOT_JSON",
    },
    ChoiceRow {
        choice: Choice::RuiJsonlLastLineApplied,
        name: "rui-jsonl-last-line-applied",
        requirements: &["PRJ-RUI-FRAME-05"],
        default: "a JSONL last line without LF that parses is quarantined FRAME_TRUNCATED",
        alternate: "a JSONL last line without LF that parses is a frame (JSON Lines needs no final separator)",
    },
    ChoiceRow {
        choice: Choice::RuiJsonlCutLineNotJson,
        name: "rui-jsonl-cut-line-not-json",
        requirements: &["PRJ-RUI-FRAME-14"],
        default: "a JSONL last line without LF that does not parse is quarantined FRAME_TRUNCATED",
        alternate: "a JSONL last line without LF that does not parse is quarantined FRAME_NOT_JSON",
    },
    ChoiceRow {
        choice: Choice::RuiSseUndispatchedDropped,
        name: "rui-sse-undispatched-dropped",
        requirements: &["PRJ-RUI-FRAME-07"],
        default: "an SSE event with data not dispatched when the stream ends is quarantined FRAME_TRUNCATED",
        alternate: "an SSE event with data not dispatched when the stream ends is dropped silently (no frame)",
    },
    ChoiceRow {
        choice: Choice::RuiJsonSeqUnterminatedApplied,
        name: "rui-json-seq-unterminated-applied",
        requirements: &["PRJ-RUI-FRAME-13"],
        default: "a json-seq element without its final LF is quarantined FRAME_TRUNCATED even if it parses",
        alternate: "a json-seq element without its final LF that parses as an array or object is a frame",
    },
    ChoiceRow {
        choice: Choice::RuiJsonSeqEmptyElement,
        name: "rui-json-seq-empty-element",
        requirements: &["PRJ-RUI-FRAME-09"],
        default: "consecutive RS octets delimit no element: nothing is surfaced or counted",
        alternate: "an RS right after an RS delimits an empty element, quarantined FRAME_NOT_JSON",
    },
    ChoiceRow {
        choice: Choice::RuiTruncatedEndInterrupted,
        name: "rui-truncated-end-interrupted",
        requirements: &["PRJ-RUI-FRAME-12"],
        default: "a frame cut by the end of the stream inside a transaction fails it FRAME_INVALID",
        alternate: "a frame cut by the end of the stream inside a transaction is quarantined and the transaction fails INTERRUPTED",
    },
    ChoiceRow {
        choice: Choice::RuiCommitChecksReversed,
        name: "rui-commit-checks-reversed",
        requirements: &["PRJ-RUI-TX-07"],
        default: "commit checks: bounds, base revision, newRevision, operations, nodes, structure",
        alternate: "commit checks: bounds, operations, nodes, structure, newRevision, base revision",
    },
    ChoiceRow {
        choice: Choice::RuiFailAtRecord,
        name: "rui-fail-at-record",
        requirements: &["PRJ-RUI-TX-08"],
        default: "a stale base, a passed bound or a duplicate node is found only at commit",
        alternate: "a stale base (at begin), a passed bound or a duplicate node ends the transaction at that record",
    },
    ChoiceRow {
        choice: Choice::RuiUnreachableCycleFails,
        name: "rui-unreachable-cycle-fails",
        requirements: &["PRJ-RUI-GRAPH-07"],
        default: "a cycle among nodes the root does not reach does not fail the commit",
        alternate: "a cycle anywhere in the resulting graph fails the commit GRAPH_CYCLE",
    },
    ChoiceRow {
        choice: Choice::RuiScalarParentPointerInvalid,
        name: "rui-scalar-parent-pointer-invalid",
        requirements: &["PRJ-RUI-DATA-05"],
        default: "data under an existing scalar parent fails DATA_PARENT_MISSING",
        alternate: "data under an existing scalar parent fails POINTER_INVALID",
    },
    ChoiceRow {
        choice: Choice::RuiDeleteDocumentResets,
        name: "rui-delete-document-resets",
        requirements: &["PRJ-RUI-DATA-06"],
        default: "a delete with the empty pointer fails POINTER_INVALID",
        alternate: "a delete with the empty pointer resets the data document to {}",
    },
    ChoiceRow {
        choice: Choice::RuiIndexAtLengthRefused,
        name: "rui-index-at-length-refused",
        requirements: &["PRJ-RUI-DATA-07"],
        default: "data at the index equal to an array's length appends that element",
        alternate: "data at an index naming no element (the array's length included) fails POINTER_INVALID",
    },
    ChoiceRow {
        choice: Choice::ReactNestedOwnerInnerWins,
        name: "react-nested-owner-inner-wins",
        requirements: &["PRJ-REACT-02"],
        default: "effects run children first, so of two nested context owners mounting together the outer publishes last",
        alternate: "effects run parents first, so of two nested context owners mounting together the inner publishes last",
    },
    ChoiceRow {
        choice: Choice::ReactRefreshOnMount,
        name: "react-refresh-on-mount",
        requirements: &["PRJ-REACT-03"],
        default: "useRcipCapability calls refresh only when revision changes after mount",
        alternate: "useRcipCapability also calls refresh when it mounts (twice under Strict Mode)",
    },
];

/// One realistic implementation bug the reference can inject (issue 13): each is modelled on a
/// sentence (its requirement ids) and on a mistake implementers make. At most one is injected at a
/// time; the suite must fail at least one REQUIRED check for each (`harness/tests/faults.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fault {
    RecheckSkippedAfterPolicy,
    BindingRecheckSkipped,
    ContextRecheckSkipped,
    AvailabilityRecheckSkipped,
    ApprovalIgnoresBindingChange,
    ApprovalIgnoresContextChange,
    ApprovalIgnoresAvailability,
    ApprovalSkipsPolicy,
    ConfirmationResolvableTwice,
    ExpiryOneMsLate,
    ExpiryNever,
    TtlTimerOverflow,
    ExpiryReceiptDropped,
    CancelReceiptCode,
    ReceiptCapacitySmall,
    IdReleasedAtPolicy,
    IdNeverReleased,
    CheckOrderSchemaFirst,
    AbortWaitsForPolicy,
    HostTextInMessage,
    OutputSchemaSkipped,
    OutputCoercedToJson,
    InputCoercedToJson,
    PolicyThrowDenied,
    MalformedDecisionAllows,
    ThrowAfterAbortFailed,
    HandlerSignalMissing,
    AvailabilityExtrasPublished,
    ConfirmationIdPublished,
    SnapshotNotCached,
    UnbindKeepsRevision,
    RefreshKeepsRevision,
    SuccessKeepsRevision,
    AvailabilityFromSnapshot,
    UnscopedIsOther,
    StaleUnbindRemoves,
    DuplicateBindReplaces,
    ListenerThrowStopsOthers,
    ObserverThrowFailsInvocation,
    EventsOutOfOrder,
    AvailabilityCloneRejects,
    AssistBatchOverBoundRuns,
    AssistBatchContinues,
    AssistSummarizeSkipped,
    AssistReadOnlyUnfiltered,
    AssistReadOnlyInvokes,
    AssistDelayAfterLast,
    RuiRevisionGapAccepted,
    RuiStaleBaseAccepted,
    RuiPartialApply,
    RuiDuplicateNodeAccepted,
    RuiCycleAccepted,
    RuiOperationLimitIgnored,
    RuiStreamEndCommits,
    RuiUnknownComponentAccepted,
    ReactRefUpdatedInRender,
    ReactBindInRender,
    ReactEffectsOnServer,
    ReactCleanupKeepsBinding,
    ReactContextNotCleared,
    ReactStaleHandler,
    ReactHookOutsideProviderSilent,
    ReactOutermostProvider,
    ReactContextMerged,
    ReactRevisionIgnored,
}

/// A row of the fault catalog.
#[derive(Debug, Clone, Copy)]
pub struct FaultRow {
    pub fault: Fault,
    pub name: &'static str,
    pub requirements: &'static [&'static str],
    pub description: &'static str,
}

/// The fault catalog (`reference-driver --fault list`).
pub const FAULTS: &[FaultRow] = &[
    FaultRow {
        fault: Fault::RecheckSkippedAfterPolicy,
        name: "recheck-skipped-after-policy",
        requirements: &["CL-B05-1", "RCIP-LIFE-POLICY-04"],
        description: "after an asynchronous policy settles nothing is rechecked",
    },
    FaultRow {
        fault: Fault::BindingRecheckSkipped,
        name: "binding-recheck-skipped",
        requirements: &["CL-B05-2", "RCIP-LIFE-POLICY-05"],
        description: "after policy, a changed or removed binding is not noticed",
    },
    FaultRow {
        fault: Fault::ContextRecheckSkipped,
        name: "context-recheck-skipped",
        requirements: &["CL-B05-1", "RCIP-LIFE-POLICY-06"],
        description: "after policy, a changed semantic context is not noticed",
    },
    FaultRow {
        fault: Fault::AvailabilityRecheckSkipped,
        name: "availability-recheck-skipped",
        requirements: &["CL-B05-1", "RCIP-LIFE-POLICY-07"],
        description: "after policy, lost availability is not noticed",
    },
    FaultRow {
        fault: Fault::ApprovalIgnoresBindingChange,
        name: "approval-ignores-binding-change",
        requirements: &["CL-B07-4", "RCIP-LIFE-CONF-04"],
        description: "approval runs although the binding changed while pending",
    },
    FaultRow {
        fault: Fault::ApprovalIgnoresContextChange,
        name: "approval-ignores-context-change",
        requirements: &["CL-B07-4", "RCIP-LIFE-CONF-04"],
        description: "approval runs although the context changed while pending",
    },
    FaultRow {
        fault: Fault::ApprovalIgnoresAvailability,
        name: "approval-ignores-availability",
        requirements: &["CL-B07-3", "RCIP-LIFE-CONF-03"],
        description: "approval does not recheck live availability",
    },
    FaultRow {
        fault: Fault::ApprovalSkipsPolicy,
        name: "approval-skips-policy",
        requirements: &["CL-B07-3", "RCIP-PROTO-LIFE-06"],
        description: "approval runs the handler without the confirmed policy pass",
    },
    FaultRow {
        fault: Fault::ConfirmationResolvableTwice,
        name: "confirmation-resolvable-twice",
        requirements: &["CL-B07-1", "RCIP-LIFE-CONF-02"],
        description: "an approved confirmation can be approved again",
    },
    FaultRow {
        fault: Fault::ExpiryOneMsLate,
        name: "expiry-one-ms-late",
        requirements: &["CL-B08-1", "RCIP-LIFE-CONF-05"],
        description: "a confirmation is still pending 1 ms after its TTL ran out",
    },
    FaultRow {
        fault: Fault::ExpiryNever,
        name: "expiry-never",
        requirements: &["CL-B08-2", "RCIP-LIFE-CONF-06"],
        description: "a pending confirmation never expires",
    },
    FaultRow {
        fault: Fault::TtlTimerOverflow,
        name: "ttl-timer-overflow",
        requirements: &["CL-B08-1", "CL-A01-5"],
        description: "a TTL of 2^31 ms or more expires at once (a 32-bit timer overflow)",
    },
    FaultRow {
        fault: Fault::ExpiryReceiptDropped,
        name: "expiry-receipt-dropped",
        requirements: &["CL-B08-3", "RCIP-LIFE-CONF-07"],
        description: "an expired confirmation leaves no receipt (CONFIRMATION_NOT_FOUND)",
    },
    FaultRow {
        fault: Fault::CancelReceiptCode,
        name: "cancel-receipt-code",
        requirements: &["CL-B09-2"],
        description: "a cancelled confirmation's receipt answers CONFIRMATION_EXPIRED",
    },
    FaultRow {
        fault: Fault::ReceiptCapacitySmall,
        name: "receipt-capacity-small",
        requirements: &["CL-B10-1", "RCIP-LIFE-CONF-07"],
        description: "only the latest 128 receipts are kept",
    },
    FaultRow {
        fault: Fault::IdReleasedAtPolicy,
        name: "id-released-at-policy",
        requirements: &["CL-B04-1", "RCIP-LIFE-POLICY-01"],
        description: "an invocation id is released when the policy starts",
    },
    FaultRow {
        fault: Fault::IdNeverReleased,
        name: "id-never-released",
        requirements: &["CL-B04-5"],
        description: "an invocation id stays reserved after it settles",
    },
    FaultRow {
        fault: Fault::CheckOrderSchemaFirst,
        name: "check-order-schema-first",
        requirements: &["CL-B03-1", "RCIP-PROTO-LIFE-03"],
        description: "the input schema is checked before binding and availability",
    },
    FaultRow {
        fault: Fault::AbortWaitsForPolicy,
        name: "abort-waits-for-policy",
        requirements: &["CL-B11-1", "RCIP-LIFE-CANCEL-02"],
        description: "an abort during the policy wait settles only when the policy does",
    },
    FaultRow {
        fault: Fault::HostTextInMessage,
        name: "host-text-in-message",
        requirements: &["CL-B02-2"],
        description: "a handler's error text reaches the outcome message",
    },
    FaultRow {
        fault: Fault::OutputSchemaSkipped,
        name: "output-schema-skipped",
        requirements: &["CL-B12-1", "RCIP-LIFE-OUTPUT-01"],
        description: "handler output is not validated against the output schema",
    },
    FaultRow {
        fault: Fault::OutputCoercedToJson,
        name: "output-coerced-to-json",
        requirements: &["CL-B12-1", "CL-B13-1"],
        description: "non-JSON output is coerced as JSON.stringify would (NaN to null, undefined dropped)",
    },
    FaultRow {
        fault: Fault::InputCoercedToJson,
        name: "input-coerced-to-json",
        requirements: &["CL-B13-1", "CL-B13-2"],
        description: "non-JSON input is coerced as JSON.stringify would instead of INPUT_INVALID",
    },
    FaultRow {
        fault: Fault::PolicyThrowDenied,
        name: "policy-throw-denied",
        requirements: &["CL-B12-3"],
        description: "a throwing policy gives denied POLICY_DENIED",
    },
    FaultRow {
        fault: Fault::MalformedDecisionAllows,
        name: "malformed-decision-allows",
        requirements: &["CL-B12-3", "CL-A05-2"],
        description: "an unknown policy decision is treated as allow",
    },
    FaultRow {
        fault: Fault::ThrowAfterAbortFailed,
        name: "throw-after-abort-failed",
        requirements: &["CL-B11-5", "RCIP-LIFE-CANCEL-09"],
        description: "a handler throwing after an abort gives EXECUTION_FAILED",
    },
    FaultRow {
        fault: Fault::HandlerSignalMissing,
        name: "handler-signal-missing",
        requirements: &["PRJ-RCIP-EXEC-02", "CL-A04-3"],
        description: "a handler's ctx has no signal when the caller passed none (ctx.signal copied from the request)",
    },
    FaultRow {
        fault: Fault::AvailabilityExtrasPublished,
        name: "availability-extras-published",
        requirements: &["CL-B17-1", "RCIP-PROTO-SNAP-08"],
        description: "every member the host's availability returned is published",
    },
    FaultRow {
        fault: Fault::ConfirmationIdPublished,
        name: "confirmation-id-published",
        requirements: &["CL-B17-2", "RCIP-PROTO-SNAP-09"],
        description: "the snapshot lists pending confirmation ids",
    },
    FaultRow {
        fault: Fault::SnapshotNotCached,
        name: "snapshot-not-cached",
        requirements: &["CL-B15-5"],
        description: "getSnapshot returns a new object every call",
    },
    FaultRow {
        fault: Fault::UnbindKeepsRevision,
        name: "unbind-keeps-revision",
        requirements: &["CL-B15-2"],
        description: "an effective unbind publishes no revision",
    },
    FaultRow {
        fault: Fault::RefreshKeepsRevision,
        name: "refresh-keeps-revision",
        requirements: &["CL-B15-3", "RCIP-PROTO-SURF-10"],
        description: "refresh publishes no revision",
    },
    FaultRow {
        fault: Fault::SuccessKeepsRevision,
        name: "success-keeps-revision",
        requirements: &["CL-B15-4"],
        description: "a successful invocation publishes no revision",
    },
    FaultRow {
        fault: Fault::AvailabilityFromSnapshot,
        name: "availability-from-snapshot",
        requirements: &["CL-B15-7", "RCIP-LIFE-AVAIL-01"],
        description: "invoke checks the published availability instead of the live one",
    },
    FaultRow {
        fault: Fault::UnscopedIsOther,
        name: "unscoped-is-other",
        requirements: &["CL-B16-1"],
        description: "a capability without scopes is relevance other",
    },
    FaultRow {
        fault: Fault::StaleUnbindRemoves,
        name: "stale-unbind-removes",
        requirements: &["CL-B20-2", "RCIP-LIFE-BIND-03"],
        description: "a stale unbind function removes the newer binding",
    },
    FaultRow {
        fault: Fault::DuplicateBindReplaces,
        name: "duplicate-bind-replaces",
        requirements: &["CL-B20-1", "RCIP-LIFE-BIND-02"],
        description: "a second live binding replaces the first instead of throwing",
    },
    FaultRow {
        fault: Fault::ListenerThrowStopsOthers,
        name: "listener-throw-stops-others",
        requirements: &["PRJ-RCIP-SUB-02", "CL-A03-6"],
        description: "a throwing listener keeps later listeners from being notified",
    },
    FaultRow {
        fault: Fault::ObserverThrowFailsInvocation,
        name: "observer-throw-fails-invocation",
        requirements: &["CL-B23-2"],
        description: "an onEvent observer that throws fails the invocation",
    },
    FaultRow {
        fault: Fault::EventsOutOfOrder,
        name: "events-out-of-order",
        requirements: &["PRJ-RCIP-EVT-01", "CL-B23-1"],
        description: "started is emitted after the terminal event",
    },
    FaultRow {
        fault: Fault::AvailabilityCloneRejects,
        name: "availability-clone-rejects",
        requirements: &["CL-A04-7", "RCIP-PROTO-LIFE-03"],
        description: "an availability object that structuredClone cannot copy makes the capability unavailable",
    },
    FaultRow {
        fault: Fault::AssistBatchOverBoundRuns,
        name: "assist-batch-over-bound-runs",
        requirements: &["CL-C01-4", "RCIP-PROTO-ASSIST-05"],
        description: "a batch over the declared bound N is executed",
    },
    FaultRow {
        fault: Fault::AssistBatchContinues,
        name: "assist-batch-continues",
        requirements: &["CL-C02-2", "RCIP-PROTO-ASSIST-07"],
        description: "the batch continues after an outcome other than succeeded",
    },
    FaultRow {
        fault: Fault::AssistSummarizeSkipped,
        name: "assist-summarize-skipped",
        requirements: &["CL-C04-1"],
        description: "no summarize call after a batch whose actions ran",
    },
    FaultRow {
        fault: Fault::AssistReadOnlyUnfiltered,
        name: "assist-read-only-unfiltered",
        requirements: &["CL-C05-1"],
        description: "in read-only mode the callback's snapshot lists every capability",
    },
    FaultRow {
        fault: Fault::AssistReadOnlyInvokes,
        name: "assist-read-only-invokes",
        requirements: &["CL-C05-2"],
        description: "in read-only mode a non-read action goes through invoke",
    },
    FaultRow {
        fault: Fault::AssistDelayAfterLast,
        name: "assist-delay-after-last",
        requirements: &["CL-C03-2"],
        description: "a delay runs after the last action before summarize",
    },
    FaultRow {
        fault: Fault::RuiRevisionGapAccepted,
        name: "rui-revision-gap-accepted",
        requirements: &["CL-D02-5", "RUI-COMMIT-01"],
        description: "a commit with newRevision past baseRevision + 1 is accepted",
    },
    FaultRow {
        fault: Fault::RuiStaleBaseAccepted,
        name: "rui-stale-base-accepted",
        requirements: &["CL-D02-4", "RUI-RECOV-05"],
        description: "a transaction on a stale base revision commits",
    },
    FaultRow {
        fault: Fault::RuiPartialApply,
        name: "rui-partial-apply",
        requirements: &["CL-D02-8", "RUI-COMMIT-04", "RUI-RECOV-06"],
        description: "a transaction failing at commit applies the operations before the failure",
    },
    FaultRow {
        fault: Fault::RuiDuplicateNodeAccepted,
        name: "rui-duplicate-node-accepted",
        requirements: &["CL-D02-7"],
        description: "a node id defined twice in one transaction is accepted",
    },
    FaultRow {
        fault: Fault::RuiCycleAccepted,
        name: "rui-cycle-accepted",
        requirements: &["RUI-INV-03"],
        description: "a child cycle is committed",
    },
    FaultRow {
        fault: Fault::RuiOperationLimitIgnored,
        name: "rui-operation-limit-ignored",
        requirements: &["CL-D04-3"],
        description: "the operations-per-transaction bound is not enforced",
    },
    FaultRow {
        fault: Fault::RuiStreamEndCommits,
        name: "rui-stream-end-commits",
        requirements: &["CL-D05-6"],
        description: "a stream ending inside a transaction keeps its staging for the next feed",
    },
    FaultRow {
        fault: Fault::RuiUnknownComponentAccepted,
        name: "rui-unknown-component-accepted",
        requirements: &["CL-D05-8", "RUI-RECOV-07"],
        description: "a node of an undeclared component is committed",
    },
    FaultRow {
        fault: Fault::ReactRefUpdatedInRender,
        name: "react-ref-updated-in-render",
        requirements: &["RCIP-LIFE-BIND-06", "RCIP-LIFE-AVAIL-02"],
        description: "useRcipCapability assigns its latest-handler ref during render, so an abandoned render's execute and getAvailability are the ones invoked",
    },
    FaultRow {
        fault: Fault::ReactBindInRender,
        name: "react-bind-in-render",
        requirements: &["RCIP-LIFE-BIND-06", "RCIP-LIFE-SSR-04", "RCIP-LIFE-BIND-05"],
        description: "useRcipCapability binds during render (once per instance, guarded by a ref) instead of in an effect",
    },
    FaultRow {
        fault: Fault::ReactEffectsOnServer,
        name: "react-effects-on-server",
        requirements: &["RCIP-LIFE-SSR-04"],
        description: "the hooks' setup runs during the server render (an isomorphic layout effect), binding and publishing context on the server runtime",
    },
    FaultRow {
        fault: Fault::ReactCleanupKeepsBinding,
        name: "react-cleanup-keeps-binding",
        requirements: &["CL-A08-5", "RCIP-LIFE-BIND-05"],
        description: "the effect cleanup of useRcipCapability does not call unbind",
    },
    FaultRow {
        fault: Fault::ReactContextNotCleared,
        name: "react-context-not-cleared",
        requirements: &["RCIP-LIFE-CTX-06", "CL-A08-4"],
        description: "useRcipContext does not clear the context when its owner unmounts",
    },
    FaultRow {
        fault: Fault::ReactStaleHandler,
        name: "react-stale-handler",
        requirements: &["RCIP-LIFE-AVAIL-02", "RCIP-LIFE-BIND-06"],
        description: "useRcipCapability keeps the execute and getAvailability of the render it bound with",
    },
    FaultRow {
        fault: Fault::ReactHookOutsideProviderSilent,
        name: "react-hook-outside-provider-silent",
        requirements: &["CL-A08-6", "RCIP-PROTO-SURF-12"],
        description: "a hook used outside every RcipProvider does nothing instead of throwing",
    },
    FaultRow {
        fault: Fault::ReactOutermostProvider,
        name: "react-outermost-provider",
        requirements: &["CL-A08-1", "RCIP-PROTO-SURF-13", "RCIP-LIFE-CTX-05"],
        description: "hooks below nested providers use the outermost provider's runtime",
    },
    FaultRow {
        fault: Fault::ReactContextMerged,
        name: "react-context-merged",
        requirements: &["RCIP-LIFE-CTX-06"],
        description: "useRcipContext adds its scopes to the published context instead of replacing it",
    },
    FaultRow {
        fault: Fault::ReactRevisionIgnored,
        name: "react-revision-ignored",
        requirements: &["CL-A08-5", "RCIP-LIFE-AVAIL-02"],
        description: "useRcipCapability does not call refresh when its revision changes",
    },
];

impl Fault {
    /// The fault of a catalog name.
    pub fn named(name: &str) -> Option<Fault> {
        FAULTS
            .iter()
            .find(|row| row.name == name)
            .map(|row| row.fault)
    }

    pub fn name(self) -> &'static str {
        FAULTS
            .iter()
            .find(|row| row.fault == self)
            .map_or("", |row| row.name)
    }
}

/// The reference's configuration at its open points: the behaviour it takes at each row of
/// [`TABLE`], and at most one injected [`Fault`] (ARCHITECTURE "Choices and faults in the
/// reference": one value given at construction, consulted at named decision points).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Choices {
    alternate: BTreeSet<Choice>,
    fault: Option<Fault>,
}

impl Choices {
    /// The alternate behaviour at every row of [`TABLE`].
    pub fn alternate() -> Choices {
        Choices {
            alternate: TABLE.iter().map(|row| row.choice).collect(),
            fault: None,
        }
    }

    /// The alternate behaviour at the given rows only (for tests of one decision point).
    pub fn only(choices: &[Choice]) -> Choices {
        Choices {
            alternate: choices.iter().copied().collect(),
            fault: None,
        }
    }

    /// Each row of [`TABLE`] takes its default or its alternate independently, drawn from `seed`
    /// (issue 26 §3): rows that fail only in combination are tried by many seeds, and a seed
    /// always draws the same rows, so a failing seed replays ([`Choices::spelling`] names them).
    pub fn random(seed: u64) -> Choices {
        let mut state = seed;
        Choices {
            alternate: TABLE
                .iter()
                .filter(|_| splitmix64(&mut state) & 1 == 1)
                .map(|row| row.choice)
                .collect(),
            fault: None,
        }
    }

    /// The choices a `--choices` value names: `default`, `alternate`, `random:SEED` (SEED a
    /// decimal `u64`) or `rows:NAME,NAME,...` (the alternate at exactly the named rows of
    /// [`TABLE`]; `rows:` alone is the default). An unknown form or row name is an error that
    /// says what is accepted.
    pub fn parse(text: &str) -> Result<Choices, String> {
        if text == "default" {
            return Ok(Choices::default());
        }
        if text == "alternate" {
            return Ok(Choices::alternate());
        }
        if let Some(seed) = text.strip_prefix("random:") {
            return seed.parse::<u64>().map(Choices::random).map_err(|_| {
                format!(
                    "random:SEED needs a decimal seed from 0 to {}, not {seed:?}",
                    u64::MAX
                )
            });
        }
        if let Some(names) = text.strip_prefix("rows:") {
            let mut alternate = BTreeSet::new();
            for name in names.split(',').filter(|n| !n.is_empty()) {
                match TABLE.iter().find(|row| row.name == name) {
                    Some(row) => alternate.insert(row.choice),
                    None => return Err(format!("unknown choice row {name:?} (reference-driver --choices list prints the table)")),
                };
            }
            return Ok(Choices {
                alternate,
                fault: None,
            });
        }
        Err(format!(
            "unknown choices {text:?}: give default, alternate, random:SEED or rows:NAME,NAME,..."
        ))
    }

    /// The `rows:` spelling of these choices (without the fault), in table order: what
    /// [`Choices::parse`] reads back to the same choices.
    pub fn spelling(&self) -> String {
        let names: Vec<&str> = TABLE
            .iter()
            .filter(|row| self.takes(row.choice))
            .map(|row| row.name)
            .collect();
        format!("rows:{}", names.join(","))
    }

    /// Whether the alternate behaviour is taken at `choice`.
    pub fn takes(&self, choice: Choice) -> bool {
        self.alternate.contains(&choice)
    }

    /// Whether every row takes its default and no fault is injected.
    pub fn is_default(&self) -> bool {
        self.alternate.is_empty() && self.fault.is_none()
    }

    /// These choices with `fault` injected (replacing any other).
    pub fn with_fault(mut self, fault: Fault) -> Choices {
        self.fault = Some(fault);
        self
    }

    /// Whether `fault` is the injected fault.
    pub fn injects(&self, fault: Fault) -> bool {
        self.fault == Some(fault)
    }

    pub fn fault(&self) -> Option<Fault> {
        self.fault
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014): a small, well-mixed generator, so that consecutive
/// seeds draw unrelated row sets; seeded, never from the clock.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_draws_the_same_rows_every_time_and_its_spelling_replays_them() {
        let mut sizes = BTreeSet::new();
        let mut drawn = BTreeSet::new();
        for seed in 0..16u64 {
            let choices = Choices::random(seed);
            assert_eq!(choices, Choices::random(seed));
            assert_eq!(
                Choices::parse(&format!("random:{seed}")),
                Ok(choices.clone())
            );
            assert_eq!(Choices::parse(&choices.spelling()), Ok(choices.clone()));
            sizes.insert(choices.alternate.len());
            drawn.insert(choices.spelling());
        }
        // Neither all-default nor all-alternate: seeds mix rows, and differ from each other.
        assert!(
            !sizes.contains(&0) && !sizes.contains(&TABLE.len()),
            "{sizes:?}"
        );
        assert_eq!(drawn.len(), 16);
    }

    #[test]
    fn the_choices_spellings_parse_and_nothing_else_does() {
        assert_eq!(Choices::parse("default"), Ok(Choices::default()));
        assert_eq!(Choices::parse("alternate"), Ok(Choices::alternate()));
        assert_eq!(Choices::parse("rows:"), Ok(Choices::default()));
        assert_eq!(
            Choices::parse("rows:own-id-format"),
            Ok(Choices::only(&[Choice::OwnIdFormat]))
        );
        assert_eq!(
            Choices::alternate().spelling().matches(',').count() + 1,
            TABLE.len()
        );
        for bad in [
            "",
            "Alternate",
            "random:",
            "random:-1",
            "random:x",
            "rows:no-such-row",
            "list",
        ] {
            assert!(Choices::parse(bad).is_err(), "{bad:?} parsed");
        }
    }

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
    fn every_fault_has_one_row_with_a_unique_name_and_a_sentence() {
        let mut names = BTreeSet::new();
        for row in FAULTS {
            assert!(names.insert(row.name), "duplicate fault {}", row.name);
            assert!(!row.requirements.is_empty(), "{} cites nothing", row.name);
            assert_eq!(Fault::named(row.name), Some(row.fault));
            assert_eq!(row.fault.name(), row.name);
        }
        assert!(
            FAULTS.len() >= 40,
            "the catalog has {} faults",
            FAULTS.len()
        );
        let faulty = Choices::default().with_fault(Fault::ExpiryNever);
        assert!(faulty.injects(Fault::ExpiryNever) && !faulty.is_default());
    }

    #[test]
    fn alternate_takes_every_row_and_default_none() {
        let alternate = Choices::alternate();
        let default = Choices::default();
        for row in TABLE {
            assert!(alternate.takes(row.choice));
            assert!(!default.takes(row.choice));
        }
        assert!(default.is_default());
        assert!(!Choices::only(&[Choice::OwnIdFormat]).takes(Choice::NegativeZeroKept));
    }
}
