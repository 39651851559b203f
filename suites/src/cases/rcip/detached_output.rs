//! Cases of section `rcip.detachment`, slug `output`: the runtime copies successful output
//! (RCIP-LIFE-JSON-01), so a handler that keeps the object it returned and writes to it after the
//! outcome settled (step `mutate-output`) changes nothing the caller observes: the outcome of the
//! invocation, or of the approval that ran the handler (RCIP-LIFE-CONF-01), holds the output as
//! returned. A runtime that hands the handler's own object back in the outcome fails. The output
//! is written through each way a handler returns: synchronously, through a promise it settles
//! later (a gate), and after an approval.

use serde_json::{json, Value};

use super::support::*;
use crate::case::Case;

fn c(n: u32, description: &str) -> Case {
    case("detachment", "output", n, description)
}

fn setup() -> Value {
    Setup::new(&notes()).policy_gated().to_json()
}

/// The handler of call `call` writes `value` at `pointer` of the value it returned.
fn mutate_output(call: u32, pointer: &str, value: Value) -> Value {
    json!({ "host": "mutate-output", "call": call, "pointer": pointer, "value": value })
}

pub fn cases() -> Vec<Case> {
    let items = json!({ "items": ["a", "b"] });
    vec![
        c(
            1,
            "A handler rewriting the output it returned changes no outcome",
        )
        .requirements(&["RCIP-LIFE-JSON-01", "CL-A06-1"])
        .setup(setup())
        .steps([
            bind("notes.list", "b1", returns(items.clone())),
            invoke("i1", "notes.list", json!({})),
            gate_policy(1, ret(allow())),
            expect_outcome("i1", succeeded("i1", "notes.list", items.clone())),
            mutate_output(1, "/items/0", json!("rewritten")),
            mutate_output(1, "/items/-", json!("added")),
            mutate_output(1, "/extra", json!(1)),
            expect_outcome("i1", succeeded("i1", "notes.list", items.clone())),
        ]),
        c(
            2,
            "Output a handler resolved later and then rewrote changes no outcome",
        )
        .requirements(&["RCIP-LIFE-JSON-01", "CL-A06-1"])
        .setup(setup())
        .steps([
            bind("notes.create", "b1", gated()),
            invoke("i1", "notes.create", json!({ "text": "hello" })),
            gate_policy(1, ret(allow())),
            gate_handler(1, ret(created())),
            expect_outcome("i1", succeeded("i1", "notes.create", created())),
            mutate_output(1, "/id", json!("rewritten")),
            expect_outcome("i1", succeeded("i1", "notes.create", created())),
        ]),
        c(
            3,
            "Output rewritten after an approved run changes no approval outcome",
        )
        .requirements(&["RCIP-LIFE-JSON-01", "RCIP-LIFE-CONF-01", "CL-A06-1"])
        .setup(setup())
        .steps([
            bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
            invoke("i1", "notes.delete", json!({ "id": "n1" })),
            gate_policy(1, ret(confirm())),
            resolve("r1", "i1", true),
            gate_policy(2, ret(allow())),
            expect_outcome(
                "r1",
                succeeded("i1", "notes.delete", json!({ "deleted": true })),
            ),
            mutate_output(1, "/deleted", json!(false)),
            expect_outcome(
                "r1",
                succeeded("i1", "notes.delete", json!({ "deleted": true })),
            ),
        ]),
    ]
}
