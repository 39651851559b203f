//! The conformance runner: loads and validates vectors, drives an implementation through an
//! `Adapter`, judges each case into a verdict, and reports.

pub mod adapter;
pub mod adapters;
