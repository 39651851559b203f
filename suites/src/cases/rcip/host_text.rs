//! Section `rcip.host-text`: no handler or policy error text crosses the client boundary
//! (CL-B02-2, RCIP-PROTO-OUT-03). Every scripted host error carries the marker `host-secret-7f3a`
//! as its message (vectors/README.md); the outcome's human-readable text must not contain it,
//! whichever path turned the error into an outcome.

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section};

const S: &str = "host-text";
const CAP: &str = "notes.create";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description).requirements(&["CL-B02-2", "RCIP-PROTO-OUT-03", "CL-B02-1"])
}

fn input() -> Value {
    json!({ "text": "a" })
}

pub fn section() -> Section {
    let allow_setup = || Setup::new(&notes()).policy(allow()).to_json();
    let gated_setup = || Setup::new(&notes()).policy_gated().to_json();
    make_section(
        S,
        "Host error text never reaches the client",
        "host_text",
        vec![
            c(
                "handler-throws",
                1,
                "A thrown handler error's text is not in the outcome",
            )
            .setup(allow_setup())
            .steps([
                bind(CAP, "b1", throws()),
                invoke("i1", CAP, input()),
                expect_outcome("i1", failed("i1", CAP, "EXECUTION_FAILED")),
                expect_no_host_text("i1"),
            ]),
            c(
                "handler-throws",
                2,
                "A rejected handler promise's text is not in the outcome",
            )
            .setup(allow_setup())
            .steps([
                bind(
                    CAP,
                    "b1",
                    json!({ "mode": "scripted", "async": true, "settle": throw_error() }),
                ),
                invoke("i1", CAP, input()),
                expect_outcome("i1", failed("i1", CAP, "EXECUTION_FAILED")),
                expect_no_host_text("i1"),
            ]),
            c(
                "handler-throws",
                3,
                "An error thrown after an abort leaves no text in the outcome",
            )
            .setup(allow_setup())
            .steps([
                bind(CAP, "b1", gated()),
                invoke_signal("i1", CAP, input(), "s1"),
                abort("s1"),
                gate_handler(1, throw_error()),
                expect_outcome("i1", failed("i1", CAP, "EXECUTION_ABORTED")),
                expect_no_host_text("i1"),
            ]),
            c(
                "handler-throws",
                4,
                "An AbortError's text is not in the outcome",
            )
            .setup(allow_setup())
            .steps([
                bind(CAP, "b1", scripted(throw_abort_error())),
                invoke("i1", CAP, input()),
                expect_no_host_text("i1"),
            ]),
            c(
                "policy-throws",
                1,
                "A throwing policy's error text is not in the outcome",
            )
            .setup(Setup::new(&notes()).policy_throws(false).to_json())
            .steps([
                bind(CAP, "b1", returns(created())),
                invoke("i1", CAP, input()),
                expect_outcome("i1", failed("i1", CAP, "POLICY_EVALUATION_FAILED")),
                expect_no_host_text("i1"),
            ]),
            c(
                "policy-throws",
                2,
                "A rejected policy promise's text is not in the outcome",
            )
            .setup(gated_setup())
            .steps([
                bind(CAP, "b1", returns(created())),
                invoke("i1", CAP, input()),
                gate_policy(1, throw_error()),
                expect_outcome("i1", failed("i1", CAP, "POLICY_EVALUATION_FAILED")),
                expect_no_host_text("i1"),
            ]),
            c(
                "policy-throws",
                3,
                "A confirmed pass that throws leaves no text in the resolution",
            )
            .setup(gated_setup())
            .steps([
                bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
                invoke("i1", "notes.delete", json!({ "id": "n1" })),
                gate_policy(1, ret(confirm())),
                resolve("r1", "i1", true),
                gate_policy(2, throw_error()),
                expect_outcome(
                    "r1",
                    failed("i1", "notes.delete", "POLICY_EVALUATION_FAILED"),
                ),
                expect_no_host_text("r1"),
            ]),
        ],
    )
}
