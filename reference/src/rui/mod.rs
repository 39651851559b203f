//! Rixx UI Protocol 0.1 reference runtime (spec 004 and CLARIFICATIONS section D): framing
//! (`framing`, CL-D07), records (`records`, CL-D01), transactions and recovery (`transaction`,
//! `runtime`, CL-D02..D05, CL-D09), data pointers (`pointer`, CL-D03), the limits profile
//! (`limits`, CL-D04), the catalog (`catalog`, CL-D06), the committed graph and its invariants
//! (`graph`), one frame read into one record in a single pass (`reader`), action dispatch (`actions`, CL-D06) and the stable codes (`codes`, CL-D08).
//!
//! Sans-IO and deterministic: bytes, messages, the end of a stream, dispatches and policy
//! settlements are explicit calls; nothing reads a clock or a random source; every rejection is a
//! stable code and no input makes it panic.

pub mod actions;
pub mod catalog;
pub mod codes;
pub mod framing;
pub mod graph;
pub mod limits;
pub mod pointer;
pub mod reader;
pub mod records;
pub mod runtime;
pub mod transaction;

pub use actions::{ActionPolicy, DispatchId, DispatchStatus, PolicyCall, PolicySettlement};
pub use catalog::{Catalog, CatalogError};
pub use codes::{DispatchCode, QuarantineCode, RejectionCode, TransactionCode};
pub use framing::Framing;
pub use graph::{Node, Snapshot};
pub use limits::{Limits, Measure};
pub use runtime::{Config, Quarantined, Rejection, Runtime, TransactionOutcome, TransactionResult};
