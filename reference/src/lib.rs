//! Reference runtimes for RCIP 1.0 (`rcip`) and Rixx UI 0.1 (`rui`), with the shared strict
//! JSON Schema profile of CL-B19 (`schema`). Sans-IO: every input is an explicit call, every
//! asynchronous host callback is a gate the caller settles, time moves only when told.

pub mod choices;
pub mod rcip;
pub mod rui;
pub mod schema;
