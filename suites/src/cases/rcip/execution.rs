//! Section `rcip.execution`: running the handler (RCIP-PROTO-LIFE-07, CL-A04-3..6, CL-B12-2/4):
//! it receives the validated input, the invocation id and the semantic context; the invocation waits
//! for it; synchronous, already-resolved and later-settling handlers all work; concurrent
//! invocations keep their own results; a throwing handler gives EXECUTION_FAILED and nothing is
//! ever retried (RCIP-PROTO-LIFE-15, RCIP-LIFE-POLICY-09). Runtime-made ids come from `createId`
//! (CL-A01-6; `host-prefixed` ids show a runtime that ignores it).

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section};
use crate::pattern::{of_type, subset};

const S: &str = "execution";
const CAP: &str = "notes.create";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

fn input() -> Value {
    json!({ "text": "a" })
}

fn setup() -> Value {
    Setup::new(&notes()).policy(allow()).to_json()
}

pub fn section() -> Section {
    let cases = vec![
        c(
            "call",
            1,
            "The handler receives input, invocation id and semantic context",
        )
        .requirements(&[
            "RCIP-PROTO-LIFE-07",
            "CL-A04-4",
            "CL-A04-6",
            "RCIP-PROTO-SURF-05",
        ])
        .setup(setup())
        .steps([
            set_context(&["notes"], None),
            bind(CAP, "b1", returns(created())),
            invoke("i1", CAP, input()),
            expect_outcome("i1", succeeded("i1", CAP, created())),
            expect_handler_calls(
                Some(CAP),
                json!([handler_call(CAP, input(), "i1", context(&["notes"], None))]),
            ),
        ]),
        c(
            "call",
            2,
            "A runtime-made invocation id comes from createId(invocation)",
        )
        .requirements(&["CL-A01-6", "CL-A04-4", "CL-A03-7"])
        .setup(
            Setup::new(&notes())
                .policy(allow())
                .sequential_ids()
                .to_json(),
        )
        .steps([
            bind(CAP, "b1", returns(created())),
            invoke_auto("i1", CAP, input()),
            expect_outcome("i1", succeeded("invocation-1", CAP, created())),
            expect_handler_calls(
                None,
                json!([handler_call(
                    CAP,
                    input(),
                    "invocation-1",
                    crate::pattern::any()
                )]),
            ),
        ]),
        c(
            "call",
            3,
            "Runtime-made invocation ids are strings, distinct per invocation",
        )
        .requirements(&["CL-A03-7", "CL-B04-2"])
        .setup(Setup::new(&notes()).policy_gated().to_json())
        .steps([
            bind(CAP, "b1", returns(created())),
            invoke_auto("i1", CAP, input()),
            invoke_auto("i2", CAP, json!({ "text": "b" })),
            expect_pending("i2").note("no INVOCATION_ALREADY_ACTIVE between two runtime-made ids"),
            gate_policy(1, ret(allow())),
            gate_policy(2, ret(allow())),
            expect_outcome("i1", succeeded(of_type("string"), CAP, created())),
            expect_outcome("i2", succeeded(of_type("string"), CAP, created())),
        ]),
        // `host-prefixed` ids are of a form no runtime makes by itself, so a runtime that
        // ignores createId fails here whatever it numbers (call 2 cannot tell: `sequential`
        // returns exactly the ids a runtime may make by itself).
        c(
            "call",
            4,
            "A runtime-made invocation id is the one createId returned",
        )
        .requirements(&["CL-A01-6", "CL-A04-4", "CL-A06-1"])
        .setup(
            Setup::new(&notes())
                .policy(allow())
                .host_prefixed_ids()
                .to_json(),
        )
        .steps([
            bind(CAP, "b1", returns(created())),
            invoke_auto("i1", CAP, input()),
            expect_outcome("i1", succeeded("host-invocation-1", CAP, created()))
                .reqs(&["CL-A01-6", "CL-A06-1"]),
            expect_handler_context(1, subset(json!({ "invocationId": "host-invocation-1" })))
                .reqs(&["CL-A01-6", "CL-A04-4"]),
        ]),
        c(
            "sync-async",
            1,
            "An already-resolved handler promise gives succeeded",
        )
        .requirements(&["RCIP-PROTO-LIFE-07", "CL-A06-1"])
        .setup(setup())
        .steps([
            bind(CAP, "b1", returns_async(created())),
            invoke("i1", CAP, input()),
            expect_outcome("i1", succeeded("i1", CAP, created())),
        ]),
        c(
            "sync-async",
            2,
            "The invocation waits for a handler that settles later",
        )
        .requirements(&["RCIP-PROTO-LIFE-07", "CL-A03-7"])
        .setup(setup())
        .steps([
            bind(CAP, "b1", gated()),
            invoke("i1", CAP, input()),
            expect_pending("i1"),
            advance(60_000),
            expect_pending("i1"),
            gate_handler(1, ret(created())),
            expect_outcome("i1", succeeded("i1", CAP, created())),
        ]),
        c(
            "concurrent",
            1,
            "Concurrent invocations settle in handler order with own outputs",
        )
        .requirements(&["RCIP-PROTO-LIFE-07", "RCIP-PROTO-LIFE-09"])
        .setup(setup())
        .steps([
            bind(CAP, "b1", gated()),
            invoke("i1", CAP, input()),
            invoke("i2", CAP, json!({ "text": "b" })),
            gate_handler(2, ret(json!({ "id": "second" }))),
            expect_pending("i1"),
            expect_outcome("i2", succeeded("i2", CAP, json!({ "id": "second" }))),
            gate_handler(1, ret(json!({ "id": "first" }))),
            expect_outcome("i1", succeeded("i1", CAP, json!({ "id": "first" }))),
        ]),
        c("throws", 1, "A handler that throws gives EXECUTION_FAILED")
            .requirements(&[
                "CL-B12-2",
                "CL-B02-1",
                "RCIP-PROTO-OUT-02",
                "RCIP-PROTO-OUT-03",
            ])
            .setup(setup())
            .steps([
                bind(CAP, "b1", throws()),
                invoke("i1", CAP, input()),
                expect_outcome("i1", failed("i1", CAP, "EXECUTION_FAILED")),
            ]),
        c(
            "throws",
            2,
            "A handler promise that rejects gives EXECUTION_FAILED",
        )
        .requirements(&["CL-B12-2", "CL-B02-1"])
        .setup(setup())
        .steps([
            bind(
                CAP,
                "b1",
                json!({ "mode": "scripted", "async": true, "settle": throw_error() }),
            ),
            invoke("i1", CAP, input()),
            expect_outcome("i1", failed("i1", CAP, "EXECUTION_FAILED")),
        ]),
        c(
            "throws",
            3,
            "A later-settling handler that throws gives EXECUTION_FAILED",
        )
        .requirements(&["CL-B12-2", "CL-B02-1", "RCIP-PROTO-OUT-03"])
        .setup(setup())
        .steps([
            bind(CAP, "b1", gated()),
            invoke("i1", CAP, input()),
            gate_handler(1, throw_error()),
            expect_outcome("i1", failed("i1", CAP, "EXECUTION_FAILED")),
        ]),
        c(
            "no-retry",
            1,
            "A failed handler is called once and never retried",
        )
        .requirements(&["CL-B12-4", "RCIP-PROTO-LIFE-15", "RCIP-LIFE-POLICY-09"])
        .setup(setup())
        .steps([
            bind(CAP, "b1", gated()),
            invoke("i1", CAP, input()),
            gate_handler(1, throw_error()),
            expect_outcome("i1", failed("i1", CAP, "EXECUTION_FAILED")).reqs(&["CL-B12-2"]),
            advance(600_000),
            refresh(),
            expect_handler_count(None, 1),
            expect_policy_count(1),
        ]),
        c(
            "no-retry",
            2,
            "A denied invocation is not retried after the context changes",
        )
        .requirements(&["CL-B12-4", "RCIP-LIFE-POLICY-09"])
        .setup(Setup::new(&notes()).policy_gated().to_json())
        .steps([
            set_context(&["notes"], None),
            bind(CAP, "b1", returns(created())),
            invoke("i1", CAP, input()),
            set_context(&["settings"], None),
            gate_policy(1, ret(allow())),
            expect_outcome("i1", denied("i1", CAP, "POLICY_DENIED")).reqs(&["CL-B05-1", "RCIP-LIFE-POLICY-06"]),
            set_context(&["notes"], None),
            advance(600_000),
            expect_policy_count(1),
            expect_handler_count(None, 0),
        ]),
        c(
            "no-retry",
            3,
            "A failed invocation with an unavailable binding is not retried",
        )
        .requirements(&["CL-B12-4", "RCIP-PROTO-LIFE-15"])
        .setup(setup())
        .steps([
            bind_avail(CAP, "b1", returns(created()), unavailable()),
            invoke("i1", CAP, input()),
            expect_outcome("i1", failed("i1", CAP, "CAPABILITY_UNAVAILABLE")).reqs(&["CL-B03-1", "RCIP-PROTO-LIFE-03"]),
            set_availability("b1", available()),
            refresh(),
            advance(600_000),
            expect_handler_count(None, 0),
        ]),
    ];
    make_section(S, "Handler execution", "execution", cases)
}
