//! The stable rejection codes of Rixx UI 0.1 (CL-D08-1: "stable codes of the project's choosing,
//! one per failure class"), exactly the fixed list shared with the vectors (briefs/rui-codes.md):
//! frame quarantine (CL-D05-1, CL-D07), records rejected outside a transaction (CL-D05-8,
//! CL-D01-9, CL-D09-4), transaction rejections (CL-D02..D05, CL-D09-2) and dispatch results
//! (CL-D06-6). A code is an enum variant so no caller can invent one; `as_str` is its wire form.
//! Codes carry no data values (CL-D08-3).

use std::fmt;

/// Why a frame was quarantined (CL-D05-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum QuarantineCode {
    /// The frame's bytes are not exactly one JSON value (invalid UTF-8, syntax error, trailing
    /// garbage, an empty frame).
    FrameNotJson,
    /// A frame cut short: an RFC 7464 text cut by the next RS or the end of the stream, a JSONL
    /// line or SSE event left unterminated when the stream ends.
    FrameTruncated,
}

impl QuarantineCode {
    pub fn as_str(self) -> &'static str {
        match self {
            QuarantineCode::FrameNotJson => "FRAME_NOT_JSON",
            QuarantineCode::FrameTruncated => "FRAME_TRUNCATED",
        }
    }
}

/// Why a record was rejected while no transaction was open (CL-D05-8, CL-D09-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RejectionCode {
    RecordOutsideTransaction,
    RecordInvalid,
    UnknownOperation,
}

impl RejectionCode {
    pub fn as_str(self) -> &'static str {
        match self {
            RejectionCode::RecordOutsideTransaction => "RECORD_OUTSIDE_TRANSACTION",
            RejectionCode::RecordInvalid => "RECORD_INVALID",
            RejectionCode::UnknownOperation => "UNKNOWN_OPERATION",
        }
    }
}

/// Why a transaction was rejected (its result is `rejected` with this code).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TransactionCode {
    SequenceGap,
    StaleBaseRevision,
    RevisionMismatch,
    DuplicateNode,
    RootMissing,
    ChildUnresolved,
    GraphCycle,
    DuplicateChild,
    LimitIdLength,
    LimitStringLength,
    LimitArrayLength,
    LimitDepth,
    LimitOperations,
    LimitTransactionBytes,
    UnknownComponent,
    PropsInvalid,
    ChildrenNotAllowed,
    DataParentMissing,
    PointerInvalid,
    DeleteAbsent,
    FrameInvalid,
    RecordInvalid,
    UnknownOperation,
    Interrupted,
    SupersededByBegin,
}

impl TransactionCode {
    /// Every code, in declaration order (for tests that check the list is the shared one).
    pub const ALL: [TransactionCode; 25] = [
        TransactionCode::SequenceGap,
        TransactionCode::StaleBaseRevision,
        TransactionCode::RevisionMismatch,
        TransactionCode::DuplicateNode,
        TransactionCode::RootMissing,
        TransactionCode::ChildUnresolved,
        TransactionCode::GraphCycle,
        TransactionCode::DuplicateChild,
        TransactionCode::LimitIdLength,
        TransactionCode::LimitStringLength,
        TransactionCode::LimitArrayLength,
        TransactionCode::LimitDepth,
        TransactionCode::LimitOperations,
        TransactionCode::LimitTransactionBytes,
        TransactionCode::UnknownComponent,
        TransactionCode::PropsInvalid,
        TransactionCode::ChildrenNotAllowed,
        TransactionCode::DataParentMissing,
        TransactionCode::PointerInvalid,
        TransactionCode::DeleteAbsent,
        TransactionCode::FrameInvalid,
        TransactionCode::RecordInvalid,
        TransactionCode::UnknownOperation,
        TransactionCode::Interrupted,
        TransactionCode::SupersededByBegin,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            TransactionCode::SequenceGap => "SEQUENCE_GAP",
            TransactionCode::StaleBaseRevision => "STALE_BASE_REVISION",
            TransactionCode::RevisionMismatch => "REVISION_MISMATCH",
            TransactionCode::DuplicateNode => "DUPLICATE_NODE",
            TransactionCode::RootMissing => "ROOT_MISSING",
            TransactionCode::ChildUnresolved => "CHILD_UNRESOLVED",
            TransactionCode::GraphCycle => "GRAPH_CYCLE",
            TransactionCode::DuplicateChild => "DUPLICATE_CHILD",
            TransactionCode::LimitIdLength => "LIMIT_ID_LENGTH",
            TransactionCode::LimitStringLength => "LIMIT_STRING_LENGTH",
            TransactionCode::LimitArrayLength => "LIMIT_ARRAY_LENGTH",
            TransactionCode::LimitDepth => "LIMIT_DEPTH",
            TransactionCode::LimitOperations => "LIMIT_OPERATIONS",
            TransactionCode::LimitTransactionBytes => "LIMIT_TRANSACTION_BYTES",
            TransactionCode::UnknownComponent => "UNKNOWN_COMPONENT",
            TransactionCode::PropsInvalid => "PROPS_INVALID",
            TransactionCode::ChildrenNotAllowed => "CHILDREN_NOT_ALLOWED",
            TransactionCode::DataParentMissing => "DATA_PARENT_MISSING",
            TransactionCode::PointerInvalid => "POINTER_INVALID",
            TransactionCode::DeleteAbsent => "DELETE_ABSENT",
            TransactionCode::FrameInvalid => "FRAME_INVALID",
            TransactionCode::RecordInvalid => "RECORD_INVALID",
            TransactionCode::UnknownOperation => "UNKNOWN_OPERATION",
            TransactionCode::Interrupted => "INTERRUPTED",
            TransactionCode::SupersededByBegin => "SUPERSEDED_BY_BEGIN",
        }
    }
}

/// Why a dispatched action request did not reach an `allowed` decision (CL-D06-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DispatchCode {
    /// The host policy denied the request (status `denied`).
    PolicyDenied,
    /// No committed node holds an action request in that prop (status `rejected`).
    ActionNotFound,
    /// The policy threw or returned a malformed decision (status `rejected`).
    PolicyEvaluationFailed,
}

impl DispatchCode {
    pub fn as_str(self) -> &'static str {
        match self {
            DispatchCode::PolicyDenied => "POLICY_DENIED",
            DispatchCode::ActionNotFound => "ACTION_NOT_FOUND",
            DispatchCode::PolicyEvaluationFailed => "POLICY_EVALUATION_FAILED",
        }
    }
}

macro_rules! display_as_str {
    ($($t:ty),*) => {$(
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    )*};
}

display_as_str!(QuarantineCode, RejectionCode, TransactionCode, DispatchCode);
