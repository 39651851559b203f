//! Adapters: the implementations of the `Adapter` trait that ship with the harness: the
//! in-process reference and the process adapter for anything speaking the driver protocol.

mod pipes;
pub mod process;
pub mod reference;
mod stderr;
