//! Section `rcip.outcomes`, slug `malformed` (issue 25 §3): `invoke` and `resolveConfirmation`
//! called with an argument a JavaScript caller can pass but CL-A03-7 / CL-A04-10 do not describe
//! (no argument, `null`, a number, a capability id or invocation id that is not a string, no
//! `input`, a `signal` that is not an AbortSignal, a confirmation id that is not a string) still
//! settle to an outcome (CL-B02-1: "no throw, no rejected promise, whatever the request ...
//! does"). A JavaScript implementation that destructures the request, calls
//! `signal.addEventListener` or a string method on what it was given throws instead.
//!
//! Which outcome such a request gets is not decided by any text, so every expectation admits any
//! CL-A06 outcome (`any_outcome`); the policy is a scripted `allow` and the handler a scripted
//! return, so a runtime that ignores a malformed member settles as well. After it, a well-formed
//! invocation still succeeds (the runtime keeps working; RCIP-PROTO-LIFE-07, CL-A06-1).

use serde_json::{json, Value};

use super::support::*;
use crate::case::Case;

const S: &str = "outcomes";
const CAP: &str = "notes.create";

/// The ids an "it settled to an outcome" check cites: the sentence, the outcome shapes, the codes.
const SETTLES: &[&str] = &["CL-B02-1", "CL-A06-1", "CL-A06-2", "CL-A06-4", "CL-B01-1", "CL-B01-2", "CL-B01-3"];

fn c(n: u32, description: &str) -> Case {
    case(S, "malformed", n, description).requirements(&["CL-B02-1"])
}

fn input() -> Value {
    json!({ "text": "a" })
}

/// The malformed call `call` (whose handle is `m1`) settles to an outcome, and a well-formed
/// invocation after it succeeds.
fn settles(n: u32, description: &str, call: Value) -> Case {
    c(n, description)
        .setup(Setup::new(&notes()).policy(allow()).to_json())
        .steps([
            bind(CAP, "b1", returns(created())),
            call,
            expect_outcome("m1", any_outcome()).reqs(SETTLES),
            invoke("i2", CAP, input()),
            expect_outcome("i2", succeeded("i2", CAP, created()))
                .reqs(&["RCIP-PROTO-LIFE-07", "CL-A06-1"]),
        ])
}

pub fn cases() -> Vec<Case> {
    let invokes: Vec<(&str, &str, Option<&str>, Option<Value>)> = vec![
        ("undefined", "invoke() without an argument settles to an outcome", None, None),
        ("null", "invoke(null) settles to an outcome", None, None),
        ("not-an-object", "invoke(42) settles to an outcome", None, None),
        ("capability-id-not-string", "A capabilityId that is not a string settles to an outcome", None, Some(input())),
        ("input-absent", "A request without input settles to an outcome", Some(CAP), None),
        ("invocation-id-not-string", "An invocationId that is not a string settles to an outcome", Some(CAP), Some(input())),
        ("signal-not-abort-signal", "A signal that is not an AbortSignal settles to an outcome", Some(CAP), Some(input())),
    ];
    let resolutions = [
        ("undefined", "resolveConfirmation(undefined) settles to an outcome"),
        ("null", "resolveConfirmation(null) settles to an outcome"),
        ("number", "A confirmation id that is a number settles to an outcome"),
        ("object", "A confirmation id that is an object settles to an outcome"),
    ];
    let mut cases: Vec<Case> = invokes
        .into_iter()
        .enumerate()
        .map(|(i, (kind, description, capability, input))| {
            settles(i as u32 + 1, description, invoke_malformed("m1", kind, capability, input))
                .requirements(&["CL-A03-7"])
        })
        .collect();
    let first = cases.len() as u32 + 1;
    cases.extend(resolutions.into_iter().enumerate().map(|(i, (kind, description))| {
        settles(first + i as u32, description, resolve_malformed("m1", kind, true)).requirements(&["CL-A04-10"])
    }));
    // Signals that only look like one: `null` (a caller's `signal ?? null`) and an object with a
    // boolean `aborted` but no listener methods. Written after the resolutions so that the ids
    // of the cases above stay (found by the StrykerJS run of the JavaScript subject, issue 25 §3:
    // an isSignal that lets either through makes invoke reject).
    let later = [
        ("signal-null", "A null signal settles to an outcome"),
        ("signal-aborted-only", "A signal-like object without listener methods settles to an outcome"),
    ];
    let next = cases.len() as u32 + 1;
    cases.extend(later.into_iter().enumerate().map(|(i, (kind, description))| {
        settles(next + i as u32, description, invoke_malformed("m1", kind, Some(CAP), Some(input())))
            .requirements(&["CL-A03-7"])
    }));
    cases
}
