//! Section `rcip.detachment`: requests are detached from caller-owned mutable data
//! (RCIP-PROTO-LIFE-12, RCIP-LIFE-JSON-01/04, CL-B14-1): the runtime copies the input when `invoke`
//! accepts it, so a caller mutating its object during the policy wait changes nothing the policy
//! recheck, the handler or the approval sees. (The pending-confirmation variant is in
//! `rcip.confirmation`, slug `captures`.) The other direction (CL-B14-2, RCIP-LIFE-JSON-04/05): a
//! handler mutating the input it received leaves the caller's object (`caller-input`) and later
//! handler calls as they were (slug `handler-copy`).

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section};
use crate::pattern::any;

const S: &str = "detachment";

/// A handler mutating its copy changes nothing else (CL-B14-2, spec 001 "Context and
/// availability" ¶3 s4), observed on the caller's own object (`caller-input`).
const HANDLER_COPY: [&str; 3] = ["CL-B14-2", "RCIP-LIFE-JSON-04", "RCIP-LIFE-JSON-05"];

/// `settle` with the input mutations the handler applies before settling.
fn mutating(mut settle: Value, mutations: &[(&str, Value)]) -> Value {
    let list: Vec<Value> = mutations
        .iter()
        .map(|(pointer, value)| json!({ "pointer": pointer, "value": value }))
        .collect();
    if let Some(object) = settle.as_object_mut() {
        object.insert("mutateInput".into(), Value::Array(list));
    }
    settle
}

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
        c(
            "handler-copy",
            1,
            "A handler mutating its input leaves the caller's object as it was",
        )
        .requirements(&HANDLER_COPY)
        .setup(Setup::new(&notes()).policy(allow()).to_json())
        .steps([
            bind(
                "notes.create",
                "b1",
                scripted(mutating(
                    ret(created()),
                    &[("/text", json!("by handler")), ("/extra", json!(1))],
                )),
            ),
            invoke("i1", "notes.create", json!({ "text": "original" })),
            expect_outcome("i1", succeeded("i1", "notes.create", created())),
            expect_caller_input("i1", json!({ "text": "original" })),
        ]),
        c(
            "handler-copy",
            2,
            "A later-settling handler's nested mutation leaves the caller's object",
        )
        .requirements(&HANDLER_COPY)
        .setup(
            Setup::new(&single(vec![Cap::new("notes.tag", "write")]))
                .policy(allow())
                .to_json(),
        )
        .steps([
            bind("notes.tag", "b1", gated()),
            invoke(
                "i1",
                "notes.tag",
                json!({ "tags": ["a", "b"], "meta": { "by": "ann" } }),
            ),
            gate_handler(
                1,
                mutating(
                    ret(json!({})),
                    &[("/tags/0", json!("z")), ("/meta/by", json!("mallory"))],
                ),
            ),
            expect_outcome("i1", succeeded("i1", "notes.tag", json!({}))),
            expect_caller_input("i1", json!({ "tags": ["a", "b"], "meta": { "by": "ann" } })),
        ]),
        c(
            "handler-copy",
            3,
            "The caller's object shows the caller's change, not the handler's",
        )
        .requirements(&HANDLER_COPY)
        .setup(Setup::new(&notes()).policy(allow()).to_json())
        .steps([
            bind("notes.create", "b1", gated()),
            invoke("i1", "notes.create", json!({ "text": "original" })),
            mutate_input("i1", "/text", json!("by caller")),
            gate_handler(
                1,
                mutating(ret(created()), &[("/text", json!("by handler"))]),
            ),
            expect_outcome("i1", succeeded("i1", "notes.create", created())),
            expect_caller_input("i1", json!({ "text": "by caller" })).note(
                "the observation is live: the caller's own write shows, the handler's does not",
            ),
            expect_handler_calls(
                None,
                json!([handler_call(
                    "notes.create",
                    json!({ "text": "original" }),
                    "i1",
                    any()
                )]),
            )
            .reqs(&["CL-B14-1", "RCIP-LIFE-JSON-01"]),
        ]),
        c(
            "handler-copy",
            4,
            "A handler mutating its copy rewrites no pending confirmation",
        )
        .requirements(&[
            "CL-B14-2",
            "RCIP-LIFE-JSON-04",
            "RCIP-LIFE-JSON-05",
            "RCIP-LIFE-CONF-01",
        ])
        .setup(setup())
        .steps([
            bind(
                "notes.delete",
                "b1",
                scripted(mutating(
                    ret(json!({ "deleted": true })),
                    &[("/id", json!("other"))],
                )),
            ),
            invoke("i1", "notes.delete", json!({ "id": "keep" })),
            gate_policy(1, ret(confirm())),
            invoke("i2", "notes.delete", json!({ "id": "keep" })),
            gate_policy(2, ret(confirm())),
            resolve("r1", "i1", true),
            gate_policy(3, ret(allow())),
            expect_outcome(
                "r1",
                succeeded("i1", "notes.delete", json!({ "deleted": true })),
            ),
            expect_caller_input("i1", json!({ "id": "keep" })),
            resolve("r2", "i2", true)
                .note("i2's confirmation was pending while i1's handler mutated its copy"),
            expect_policy_calls(
                None,
                json!([
                    policy_call("notes.delete", json!({ "id": "keep" }), any(), false),
                    policy_call("notes.delete", json!({ "id": "keep" }), any(), false),
                    policy_call("notes.delete", json!({ "id": "keep" }), any(), true),
                    policy_call("notes.delete", json!({ "id": "keep" }), any(), true),
                ]),
            ),
            gate_policy(4, ret(allow())),
            expect_outcome(
                "r2",
                succeeded("i2", "notes.delete", json!({ "deleted": true })),
            ),
            expect_handler_calls(
                None,
                json!([
                    handler_call("notes.delete", json!({ "id": "keep" }), "i1", any()),
                    handler_call("notes.delete", json!({ "id": "keep" }), "i2", any()),
                ]),
            ),
        ]),
    ];
    make_section(S, "Detached requests", "detachment", cases)
}
