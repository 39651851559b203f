//! Section `rcip.handler-context`: what a handler's `ctx` carries (CL-A04-3..6): its `signal`, the
//! `invocationId`, the `semanticContext`, and `requestedAt`, the instant `invoke` was called on the
//! runtime's clock (PRJ-RCIP-EXEC-01), which stays the request's instant when policy settles late
//! or approval comes later. Observed with `handler-context`, recorded at call time.

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section};

const S: &str = "handler-context";
const CAP: &str = "notes.create";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

fn input() -> Value {
    json!({ "text": "a" })
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
        ])
        .setup(Setup::new(&notes()).policy(allow()).to_json())
        .steps([
            set_context(&["notes"], Some("notes")),
            bind(CAP, "b1", returns(created())),
            advance(250),
            invoke("i1", CAP, input()),
            expect_outcome("i1", succeeded("i1", CAP, created())),
            expect_handler_context(
                1,
                handler_context("i1", 250, context(&["notes"], Some("notes"))),
            )
            .note("no caller signal: ctx still holds one, not aborted"),
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
            expect_outcome("i1", succeeded("i1", CAP, created())),
            expect_handler_context(1, handler_context("i1", 100, context(&[], None)))
                .note("500 would be the start of execution, not the request"),
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
            expect_handler_context(1, handler_context("i1", 50, context(&[], None))),
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
            expect_handler_context(1, handler_context("i1", 0, context(&[], None))),
            expect_handler_context(2, handler_context("i2", 10, context(&[], None))),
            gate_handler(2, ret(created())),
            gate_handler(1, ret(created())),
            expect_outcome("i1", succeeded("i1", CAP, created())),
            expect_outcome("i2", succeeded("i2", CAP, created())),
        ]),
        c("signal", 1, "ctx.signal follows the caller's signal")
            .requirements(&["CL-A04-3", "CL-B11-4"])
            .setup(Setup::new(&notes()).policy(allow()).to_json())
            .steps([
                bind(CAP, "b1", gated()),
                invoke_signal("i1", CAP, input(), "s1"),
                expect_handler_context(1, handler_context("i1", 0, context(&[], None))),
                abort("s1"),
                expect_signal(1, true),
                gate_handler(1, ret(created())),
                expect_outcome("i1", succeeded("i1", CAP, created()))
                    .note("a handler that returns after the abort succeeds (CL-B11-4)"),
            ]),
    ];
    make_section(S, "What a handler's ctx carries", "handler_context", cases)
}
