//! Section `rcip.detachment`: requests are detached from caller-owned mutable data
//! (RCIP-PROTO-LIFE-12, RCIP-LIFE-JSON-01/04, CL-B14-1): the runtime copies the input when `invoke`
//! accepts it, so a caller mutating its object during the policy wait changes nothing the policy
//! recheck, the handler or the approval sees. (The pending-confirmation variant is in
//! `rcip.confirmation`, slug `captures`.)

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section};
use crate::pattern::any;

const S: &str = "detachment";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

fn setup() -> Value {
    Setup::new(&notes()).policy_gated().to_json()
}

pub fn section() -> Section {
    let reqs = [
        "CL-B14-1",
        "RCIP-PROTO-LIFE-12",
        "RCIP-LIFE-JSON-01",
        "RCIP-LIFE-JSON-04",
    ];
    let cases = vec![
        c(
            "policy-wait",
            1,
            "Caller mutation during the policy wait does not reach the handler",
        )
        .requirements(&reqs)
        .setup(setup())
        .steps([
            bind("notes.create", "b1", returns(created())),
            invoke("i1", "notes.create", json!({ "text": "original" })),
            mutate_input("i1", "/text", json!("rewritten")),
            gate_policy(1, ret(allow())),
            expect_outcome("i1", succeeded("i1", "notes.create", created())),
            expect_handler_calls(
                None,
                json!([handler_call(
                    "notes.create",
                    json!({ "text": "original" }),
                    "i1",
                    any()
                )]),
            ),
        ]),
        c(
            "policy-wait",
            2,
            "Caller mutation making the input invalid changes nothing",
        )
        .requirements(&reqs)
        .setup(setup())
        .steps([
            bind("notes.create", "b1", returns(created())),
            invoke("i1", "notes.create", json!({ "text": "original" })),
            mutate_input("i1", "/text", json!(42)),
            mutate_input("i1", "/injected", json!({ "admin": true })),
            gate_policy(1, ret(allow())),
            expect_outcome("i1", succeeded("i1", "notes.create", created())),
            expect_handler_calls(
                None,
                json!([handler_call(
                    "notes.create",
                    json!({ "text": "original" }),
                    "i1",
                    any()
                )]),
            ),
        ]),
        c(
            "policy-wait",
            3,
            "Nested caller mutation does not reach the handler",
        )
        .requirements(&reqs)
        .setup(
            Setup::new(&single(vec![Cap::new("notes.tag", "write")]))
                .policy_gated()
                .to_json(),
        )
        .steps([
            bind("notes.tag", "b1", returns(json!({}))),
            invoke(
                "i1",
                "notes.tag",
                json!({ "tags": ["a", "b"], "meta": { "by": "ann" } }),
            ),
            mutate_input("i1", "/tags/0", json!("z")),
            mutate_input("i1", "/meta/by", json!("mallory")),
            gate_policy(1, ret(allow())),
            expect_outcome("i1", succeeded("i1", "notes.tag", json!({}))),
            expect_handler_calls(
                None,
                json!([handler_call(
                    "notes.tag",
                    json!({ "tags": ["a", "b"], "meta": { "by": "ann" } }),
                    "i1",
                    any()
                )]),
            ),
        ]),
        c(
            "confirmation",
            1,
            "Caller mutation while confirmation is pending reaches no pass",
        )
        .requirements(&[
            "CL-B14-1",
            "RCIP-LIFE-CONF-01",
            "RCIP-PROTO-LIFE-12",
            "RCIP-LIFE-JSON-01",
        ])
        .setup(setup())
        .steps([
            bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
            invoke("i1", "notes.delete", json!({ "id": "keep" })),
            gate_policy(1, ret(confirm())),
            mutate_input("i1", "/id", json!("other")),
            resolve("r1", "i1", true),
            mutate_input("i1", "/id", json!("third")),
            gate_policy(2, ret(allow())),
            expect_outcome(
                "r1",
                succeeded("i1", "notes.delete", json!({ "deleted": true })),
            ),
            expect_policy_calls(
                None,
                json!([
                    policy_call("notes.delete", json!({ "id": "keep" }), any(), false),
                    policy_call("notes.delete", json!({ "id": "keep" }), any(), true),
                ]),
            ),
            expect_handler_calls(
                None,
                json!([handler_call(
                    "notes.delete",
                    json!({ "id": "keep" }),
                    "i1",
                    any()
                )]),
            ),
        ]),
    ];
    make_section(S, "Detached requests", "detachment", cases)
}
