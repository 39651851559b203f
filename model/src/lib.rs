//! Executable stateright models of the RCIP 1.0 and Rixx UI 0.1 lifecycles: the invocation and
//! confirmation lifecycle (`invocation`, CL-B01..B12), the Assist turn (`assist`, CL-C01..C06) and
//! the Rixx UI transaction lifecycle (`transaction`, CL-D01..D09). Each model states its
//! requirements as properties named as sentences; `check` runs a model breadth first and
//! summarises every property for the `model-check` binary and the tests; `visit` picks the paths
//! behind the model-generated vectors; `explore` serves a model in stateright's Explorer and finds a
//! generated vector's path in it.

pub mod assist;
pub mod check;
pub mod explore;
pub mod front;
pub mod invocation;
pub mod transaction;
pub mod visit;

/// Re-exported so callers (the vector translators in `suites`) name the `Model` trait of the very
/// stateright version the models implement.
pub use stateright;
