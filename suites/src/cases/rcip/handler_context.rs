//! Section `rcip.handler-context`: what a handler's `ctx` carries (CL-A04-3..6): its `signal`, the
//! `invocationId`, the `semanticContext`, and `requestedAt`. CL-A04-5 only says `ctx` holds
//! `requestedAt`; which instant it is stays IMPL-DEFINED (PRJ-RCIP-EXEC-01: the invoke instant or
//! the instant the handler starts), so the requested-at cases check its presence at REQUIRED and
//! the instant with a one-of at IMPL-DEFINED. Cases about something else than the semantic context
//! do not set one and match it with `any` (the initial context is only RECOMMENDED,
//! PRJ-RCIP-CTX-01). Observed with `handler-context`, recorded at call time.

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};
use crate::pattern::{any, one_of, present, subset};

const S: &str = "handler-context";
const CAP: &str = "notes.create";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

fn input() -> Value {
    json!({ "text": "a" })
}

/// REQUIRED part of a requested-at check: the call was made for `invocation` and its `ctx` holds
/// a `requestedAt` (CL-A04-4, CL-A04-5); context and signal are other cases' business.
fn ctx_has_requested_at(call: u32, invocation: &str) -> Value {
    expect_handler_context(
        call,
        subset(json!({ "invocationId": invocation, "requestedAt": present() })),
    )
    .reqs(&["CL-A04-4", "CL-A04-5"])
}

/// IMPL-DEFINED part: `requestedAt` is one of the admissible instants (PRJ-RCIP-EXEC-01), in
/// milliseconds of the virtual clock: the invoke instant or the instant the handler started.
fn requested_at_is_one_of(call: u32, invoke_ms: u64, start_ms: u64) -> Value {
    let instant = if start_ms == invoke_ms {
        json!(invoke_ms)
    } else {
        one_of([json!(invoke_ms), json!(start_ms)])
    };
    expect_handler_context(call, subset(json!({ "requestedAt": instant })))
        .strict(Strictness::ImplDefined)
        .reqs(&["PRJ-RCIP-EXEC-01"])
}

pub fn section() -> Section {
    let cases = vec![
        c(
            "ctx",
            1,
            "ctx carries signal, invocation id, requestedAt and context",
        )
        .requirements(&[
            "CL-A04-3",
            "CL-A04-4",
            "CL-A04-5",
            "CL-A04-6",
            "PRJ-RCIP-EXEC-01",
            "PRJ-RCIP-EXEC-02",
        ])
        .setup(Setup::new(&notes()).policy(allow()).to_json())
        .steps([
            set_context(&["notes"], Some("notes")),
            bind(CAP, "b1", returns(created())),
            advance(250),
            invoke("i1", CAP, input()),
            expect_outcome("i1", succeeded("i1", CAP, created())).reqs(RUNS_AND_SUCCEEDS),
            expect_handler_context(
                1,
                handler_context("i1", context(&["notes"], Some("notes"))),
            )
            .note("no caller signal: ctx still holds an unaborted signal (PRJ-RCIP-EXEC-02)"),
            expect_requested_at(1, 250).note("policy allows at once: invoke and handler start are both at 250"),
        ]),
        c(
            "requested-at",
            1,
            "requestedAt is the invoke instant when policy settles later",
        )
        .requirements(&["CL-A04-5", "PRJ-RCIP-EXEC-01"])
        .setup(Setup::new(&notes()).policy_gated().to_json())
        .steps([
            bind(CAP, "b1", returns(created())),
            advance(100),
            invoke("i1", CAP, input()),
            advance(400),
            gate_policy(1, ret(allow())),
            expect_outcome("i1", succeeded("i1", CAP, created())).reqs(RUNS_AND_SUCCEEDS),
            ctx_has_requested_at(1, "i1"),
            requested_at_is_one_of(1, 100, 500).note("100: the invoke instant; 500: the handler start"),
        ]),
        c(
            "requested-at",
            2,
            "requestedAt is the invoke instant after a later approval",
        )
        .requirements(&["CL-A04-5", "PRJ-RCIP-EXEC-01", "RCIP-LIFE-CONF-01"])
        .setup(Setup::new(&notes()).policy_gated().to_json())
        .steps([
            bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
            advance(50),
            invoke("i1", "notes.delete", json!({ "id": "n1" })),
            gate_policy(1, ret(confirm())),
            advance(1000),
            resolve("r1", "i1", true),
            gate_policy(2, ret(allow())),
            expect_outcome(
                "r1",
                succeeded("i1", "notes.delete", json!({ "deleted": true })),
            ),
            ctx_has_requested_at(1, "i1"),
            requested_at_is_one_of(1, 50, 1050).note("50: the invoke instant; 1050: the handler start"),
        ]),
        c(
            "requested-at",
            3,
            "Each invocation's ctx carries its own id and requestedAt",
        )
        .requirements(&["CL-A04-4", "CL-A04-5", "PRJ-RCIP-EXEC-01"])
        .setup(Setup::new(&notes()).policy(allow()).to_json())
        .steps([
            bind(CAP, "b1", gated()),
            invoke("i1", CAP, input()),
            advance(10),
            invoke("i2", CAP, json!({ "text": "b" })),
            ctx_has_requested_at(1, "i1"),
            ctx_has_requested_at(2, "i2"),
            requested_at_is_one_of(1, 0, 0).note("policy allows at once: invoke and handler start coincide"),
            requested_at_is_one_of(2, 10, 10),
            gate_handler(2, ret(created())),
            gate_handler(1, ret(created())),
            expect_outcome("i1", succeeded("i1", CAP, created())).reqs(RUNS_AND_SUCCEEDS),
            expect_outcome("i2", succeeded("i2", CAP, created())).reqs(RUNS_AND_SUCCEEDS),
        ]),
        c("signal", 1, "ctx.signal follows the caller's signal")
            .requirements(&["CL-A04-3", "CL-B11-4"])
            .setup(Setup::new(&notes()).policy(allow()).to_json())
            .steps([
                bind(CAP, "b1", gated()),
                invoke_signal("i1", CAP, input(), "s1"),
                expect_handler_context(
                    1,
                    subset(json!({ "invocationId": "i1", "semanticContext": any(), "signalAborted": false })),
                )
                .note("no context was set: the initial one is not this case's business"),
                abort("s1"),
                expect_signal(1, true),
                gate_handler(1, ret(created())),
                expect_outcome("i1", succeeded("i1", CAP, created()))
                    .note("a handler that returns after the abort succeeds (CL-B11-4)"),
            ]),
    ];
    make_section(S, "What a handler's ctx carries", "handler_context", cases)
}
