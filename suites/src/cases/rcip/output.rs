//! Section `rcip.output`: output validation after execution (RCIP-PROTO-LIFE-08, RCIP-LIFE-OUTPUT-01/02,
//! RCIP-LIFE-SCHEMA-04..06, CL-B12-1, CL-B19-2..4): an output failing its schema gives OUTPUT_INVALID
//! even though the handler already ran (a write may have happened), it is not retried, and a valid
//! output is returned exactly: not coerced, no defaults inserted, extra members kept when allowed.

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};

const S: &str = "output";
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

/// The handler returns `output`; the invocation must give OUTPUT_INVALID after one handler call.
fn invalid(slug: &str, n: u32, description: &str, output: Value, reqs: &[&str]) -> Case {
    let mut all = vec![
        "CL-B12-1",
        "RCIP-PROTO-LIFE-08",
        "RCIP-LIFE-OUTPUT-01",
        "RCIP-LIFE-SCHEMA-04",
    ];
    all.extend_from_slice(reqs);
    c(slug, n, description)
        .requirements(&all)
        .setup(setup())
        .steps([
            bind(CAP, "b1", returns(output)),
            invoke("i1", CAP, input()),
            expect_outcome("i1", failed("i1", CAP, "OUTPUT_INVALID")),
            expect_handler_count(None, 1),
        ])
}

fn open_output(schema: Value) -> Value {
    Setup::new(&single(vec![
        Cap::new("notes.export", "read").output(schema)
    ]))
    .policy(allow())
    .to_json()
}

pub fn section() -> Section {
    let cases = vec![
        c("valid", 1, "A schema-valid output is returned exactly")
            .requirements(&["RCIP-PROTO-LIFE-08", "CL-A06-1", "RCIP-PROTO-LIFE-09"])
            .setup(setup())
            .steps([
                bind(CAP, "b1", returns(json!({ "id": "n-42" }))),
                invoke("i1", CAP, input()),
                expect_outcome("i1", succeeded("i1", CAP, json!({ "id": "n-42" }))),
            ]),
        invalid("schema", 1, "An output member of the wrong type gives OUTPUT_INVALID", json!({ "id": 42 }), &["CL-B19-2"]),
        invalid("schema", 2, "An output missing a required member gives OUTPUT_INVALID", json!({}), &[]),
        invalid("schema", 3, "A forbidden extra output member gives OUTPUT_INVALID", json!({ "id": "n1", "secret": "x" }), &[]),
        invalid("schema", 4, "An array where an object is declared gives OUTPUT_INVALID", json!(["n1"]), &[]),
        invalid("schema", 5, "A handler returning undefined gives OUTPUT_INVALID",
            crate::pattern::escape::undefined(), &["CL-B13-2"]),
        c("after-write", 1, "OUTPUT_INVALID after a write: the handler ran once, no retry")
            .requirements(&["RCIP-LIFE-OUTPUT-02", "CL-B12-1", "CL-B12-4", "RCIP-PROTO-LIFE-15"])
            .setup(setup())
            .steps([
                bind(CAP, "b1", gated()),
                invoke("i1", CAP, input()),
                expect_handler_calls(None, json!([handler_call(CAP, input(), "i1", crate::pattern::any())])),
                gate_handler(1, ret(json!({ "id": 1 }))),
                expect_outcome("i1", failed("i1", CAP, "OUTPUT_INVALID")),
                advance(600_000),
                expect_handler_count(None, 1),
                expect_policy_count(1),
            ]),
        c("after-write", 2, "OUTPUT_INVALID does not publish a new revision")
            .requirements(&["CL-B15-8", "RCIP-LIFE-OUTPUT-02"])
            .strictness(Strictness::Recommended)
            .setup(setup())
            .steps([
                bind(CAP, "b1", returns(json!({ "id": 1 }))),
                get_snapshot("s1"),
                invoke("i1", CAP, input()),
                expect_outcome("i1", failed("i1", CAP, "OUTPUT_INVALID")).strict(Strictness::Required).reqs(&["CL-B12-1"]),
                get_snapshot("s2"),
                expect_relation("s1", "s2", true, "equal"),
            ]),
        c("after-write", 3, "The id of an OUTPUT_INVALID invocation is free again")
            .requirements(&["CL-B04-5", "RCIP-LIFE-POLICY-03"])
            .setup(setup())
            .steps([
                bind(CAP, "b1", returns(json!({ "id": 1 }))),
                invoke("i1", CAP, input()),
                expect_outcome("i1", failed("i1", CAP, "OUTPUT_INVALID")),
                invoke_id("again", CAP, input(), "i1"),
                expect_outcome("again", failed("i1", CAP, "OUTPUT_INVALID")),
                expect_handler_count(None, 2),
            ]),
        c("not-modified", 1, "A numeric string output is not coerced to an integer")
            .requirements(&["CL-B19-2", "RCIP-LIFE-SCHEMA-05", "CL-B12-1"])
            .setup(open_output(json!({ "type": "object", "properties": { "n": { "type": "integer" } } })))
            .steps([
                bind("notes.export", "b1", returns(json!({ "n": "5" }))),
                invoke("i1", "notes.export", json!({})),
                expect_outcome("i1", failed("i1", "notes.export", "OUTPUT_INVALID")),
            ]),
        c("not-modified", 2, "Output defaults are not inserted")
            .requirements(&["CL-B19-3", "RCIP-LIFE-SCHEMA-05"])
            .setup(open_output(json!({
                "type": "object", "properties": { "n": { "type": "integer", "default": 0 }, "s": { "type": "string" } }
            })))
            .steps([
                bind("notes.export", "b1", returns(json!({ "s": "x" }))),
                invoke("i1", "notes.export", json!({})),
                expect_outcome("i1", succeeded("i1", "notes.export", json!({ "s": "x" }))),
            ]),
        c("not-modified", 3, "Undeclared output members are kept when not forbidden")
            .requirements(&["CL-B19-4", "RCIP-LIFE-SCHEMA-06"])
            .setup(open_output(json!({ "type": "object", "properties": { "s": { "type": "string" } } })))
            .steps([
                bind("notes.export", "b1", returns(json!({ "s": "x", "extra": [1, { "k": null }] }))),
                invoke("i1", "notes.export", json!({})),
                expect_outcome("i1", succeeded("i1", "notes.export", json!({ "s": "x", "extra": [1, { "k": null }] }))),
            ]),
    ];
    make_section(S, "Output validation", "output", cases)
}
