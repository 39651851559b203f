//! Adapters: the implementations of the `Adapter` trait that ship with the harness.

pub mod reference;
