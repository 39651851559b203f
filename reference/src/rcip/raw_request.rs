//! `invoke` and `resolveConfirmation` called with what a JavaScript caller can pass but the typed
//! entries ([`InvokeRequest`], a `&str` confirmation id) cannot hold: no argument, `null`, a
//! number, a `capabilityId` or `invocationId` that is not a string, no `input` member, a `signal`
//! that is not an AbortSignal, a confirmation id that is not a string. CL-B02-1 decides only that
//! such a call settles to an outcome (no throw, no rejected promise); which outcome is not
//! decided by any text, so this module's reading is one admissible choice among many, and the
//! vectors (`rcip.malformed`) pin only that an outcome comes.
//!
//! The reference's reading: a request is read member by member, as JavaScript would read
//! `request.capabilityId` and so on (a getter member answers once per read; a value that is not
//! an object has no members). A request the reference cannot read is refused with a CL-B01 code
//! before anything is reserved, asked or run, and its outcome carries the invocation id `""`
//! (none was read and none is made: `createId` is not called):
//! - no `capabilityId` string (not an object, `null`, a number, a member of another type):
//!   `CAPABILITY_NOT_FOUND` with capability id `""` (no catalog entry has such an id: the lookup
//!   of CL-B03-1 comes first);
//! - an `invocationId` present (not `undefined`) that is not a string: `INPUT_INVALID`;
//! - a `signal` present (not `undefined`) that is not an AbortSignal: `INPUT_INVALID` (an abort
//!   the caller believes it can send would never arrive, so the request is not run).
//!
//! A readable request goes through [`Runtime::invoke`] as usual; an absent `input` is `undefined`,
//! which is not plain JSON (CL-B13-2), so it fails `INPUT_INVALID` after the catalog, binding and
//! availability checks (CL-B03-1). A confirmation id that is not a string names no confirmation:
//! `CONFIRMATION_NOT_FOUND` with empty ids, as an unknown id (CL-B07-1, PRJ-RCIP-OUT-01).
//! Every `invoke` emits `requested` and one terminal event, a refused one too (`mod.rs`).

use super::lifecycle::InvokeRequest;
use super::outcome::{ErrorCode, Outcome};
use super::runtime::{AbortSignal, Phase, Runtime, Ticket};
use super::value::HostValue;

/// The `signal` member of a request as a JavaScript caller passes it.
#[derive(Debug, Clone)]
pub enum RawSignal {
    /// No `signal` member (or one holding `undefined`).
    Absent,
    /// A real AbortSignal.
    Signal(AbortSignal),
    /// Any other value: a plain object, a string, `null`, ...
    NotASignal(HostValue),
}

/// `client.invoke(argument)` with an argument of any kind (CL-A03-7 names the well-formed one).
#[derive(Debug, Clone)]
pub struct RawInvokeRequest {
    /// The argument itself: [`HostValue::Undefined`] when `invoke` was called without one. Its
    /// `capabilityId`, `input` and `invocationId` members are read from it; a `signal` member in
    /// it is ignored, the signal is [`RawInvokeRequest::signal`] (a host value cannot hold one).
    pub argument: HostValue,
    /// The `signal` member (not read when `argument` is not an object).
    pub signal: RawSignal,
}

impl RawInvokeRequest {
    /// The request as [`Runtime::invoke`] takes it, or the capability id to report and the code
    /// of the refusal.
    fn read(self) -> Result<InvokeRequest, (String, ErrorCode)> {
        let member = |key: &str| {
            self.argument
                .get(key)
                .map_or(HostValue::Undefined, HostValue::read_member)
        };
        let capability_id = match member("capabilityId") {
            HostValue::String(id) => id,
            _ => return Err((String::new(), ErrorCode::CapabilityNotFound)),
        };
        let invocation_id = match member("invocationId") {
            HostValue::Undefined => None,
            HostValue::String(id) => Some(id),
            _ => return Err((capability_id, ErrorCode::InputInvalid)),
        };
        // Past the capability id the argument is an object (nothing else has members).
        let signal = match self.signal {
            RawSignal::Signal(signal) => Some(signal),
            RawSignal::Absent | RawSignal::NotASignal(HostValue::Undefined) => None,
            RawSignal::NotASignal(_) => return Err((capability_id, ErrorCode::InputInvalid)),
        };
        Ok(InvokeRequest {
            capability_id,
            input: member("input"),
            invocation_id,
            signal,
        })
    }
}

impl Runtime {
    /// `client.invoke(argument)` for an argument of any kind: a readable request runs as
    /// [`Runtime::invoke`]; any other is refused at once (see the module's reading). Never fails.
    pub fn invoke_raw(&mut self, request: RawInvokeRequest) -> Ticket {
        match request.read() {
            Ok(request) => self.invoke(request),
            Err((capability_id, code)) => {
                self.process_aborts_inner();
                self.settled_log.clear();
                let ticket = self.new_ticket();
                self.emit(Phase::Requested, "", &capability_id);
                self.finish_error(ticket, "", &capability_id, code, None);
                ticket
            }
        }
    }

    /// `host.resolveConfirmation(confirmationId, approved)` with a confirmation id of any kind: a
    /// string resolves as [`Runtime::resolve_confirmation`]; anything else names no confirmation.
    pub fn resolve_confirmation_raw(&mut self, confirmation_id: &HostValue, approved: bool) -> Ticket {
        match confirmation_id {
            HostValue::String(id) => self.resolve_confirmation(id, approved),
            // Every confirmation id is a string (CL-A06-4; createId's answer or the runtime's
            // own), so none is found: the outcome of an unknown id (CL-B07-1, PRJ-RCIP-OUT-01).
            _ => {
                self.process_aborts_inner();
                self.settled_log.clear();
                let ticket = self.new_ticket();
                self.settle(ticket, Outcome::error("", "", ErrorCode::ConfirmationNotFound));
                ticket
            }
        }
    }
}
