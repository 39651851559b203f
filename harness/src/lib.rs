//! The conformance runner: loads and validates vectors, drives an implementation through an
//! `Adapter`, judges each case into a verdict, and reports.

pub mod adapter;
pub mod adapters;
pub mod causes;
pub mod certification;
pub mod compare;
pub mod codes;
pub mod console;
pub mod digest;
pub mod escape;
pub mod driver;
pub mod expectations;
pub mod explain;
pub mod files;
pub mod framing;
pub mod fuzz;
pub mod handles;
pub mod html;
pub mod interrupt;
pub mod json;
pub mod junit;
pub mod loader;
pub mod matching;
pub mod measure;
pub mod merge;
pub mod quote;
pub mod report;
pub mod runner;
pub mod schema;
pub mod select;
pub mod session;
pub mod trace;
pub mod validate;
pub mod verdict;

use std::path::PathBuf;

/// The vector directory of this repository, found from the crate's own location so the CLI and
/// the test work from any working directory.
pub fn bundled_vectors() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("vectors")
}
