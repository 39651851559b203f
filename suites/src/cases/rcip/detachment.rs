//! Section `rcip.detachment`: requests are detached from caller-owned mutable data
//! (RCIP-PROTO-LIFE-12, RCIP-LIFE-JSON-01/04, CL-B14-1): the runtime copies the input when `invoke`
//! accepts it, so a caller mutating its object during the policy wait changes nothing the policy
//! recheck, the handler or the approval sees. (The pending-confirmation variant is in
//! `rcip.confirmation`, slug `captures`.) The other direction (CL-B14-2, RCIP-LIFE-JSON-04/05): a
//! handler mutating the input it received leaves the caller's object (`caller-input`) and later
//! handler calls as they were (slug `handler-copy`). The request object itself is caller-owned
//! mutable data too (RCIP-PROTO-LIFE-12): a caller rewriting its `capabilityId` or `invocationId`
//! after `invoke` (step `mutate-request`), during the policy wait, the handler or a pending
//! confirmation, changes neither the outcome nor what the policy, the handler or the id reservation
//! (CL-B04-1) work with (slug `request`). Discovery metadata rewritten by the host after creation:
//! slug `definition` (`detached_definition.rs`); output a handler rewrites after returning it: slug
//! `output` (`detached_output.rs`).

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

/// The caller sets `member` of the request object it passed to invoke `of` (after the call).
fn mutate_request(of: &str, member: &str, value: &str) -> Value {
    json!({ "client": "mutate-request", "of": of, "member": member, "value": value })
}

/// The request is detached when invoke accepts it (RCIP-PROTO-LIFE-12): what a step observes is
/// the request as it was at the call, whatever the caller wrote into its object since.
const REQUEST: [&str; 1] = ["RCIP-PROTO-LIFE-12"];

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
        // The policy context's input (CL-A05-1) is the policy's to read; the operation a
        // confirmation captured is the original one (RCIP-LIFE-CONF-01), kept in the runtime's own
        // copy (RCIP-LIFE-JSON-01). Written for a runtime that hands the policy its captured input.
        c("policy-copy", 1, "A policy mutating its input rewrites no captured operation")
            .requirements(&["RCIP-LIFE-CONF-01", "RCIP-LIFE-JSON-01", "CL-A05-1", "CL-B07-3"])
            .setup(setup())
            .steps([
                bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
                invoke("i1", "notes.delete", json!({ "id": "keep" })),
                gate_policy(1, mutating(ret(confirm()), &[("/id", json!("other"))])),
                resolve("r1", "i1", true),
                gate_policy(2, ret(allow())),
                expect_outcome("r1", succeeded("i1", "notes.delete", json!({ "deleted": true }))),
                expect_handler_calls(
                    None,
                    json!([handler_call("notes.delete", json!({ "id": "keep" }), "i1", any())]),
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
        c(
            "request",
            1,
            "A caller rewriting capabilityId during the policy wait changes nothing",
        )
        .requirements(&["RCIP-PROTO-LIFE-12", "CL-A06-1"])
        .setup(setup())
        .steps([
            bind("notes.create", "b1", returns(created())),
            bind("notes.delete", "b2", returns(json!({ "deleted": true }))),
            invoke("i1", "notes.create", json!({ "text": "original" })),
            mutate_request("i1", "capabilityId", "notes.delete")
                .note("a capability that is bound too, so a runtime reading the request again runs it"),
            gate_policy(1, ret(allow())),
            expect_outcome("i1", succeeded("i1", "notes.create", created()))
                .reqs(&["RCIP-PROTO-LIFE-12", "CL-A06-1"])
                .note("the outcome names the capability the request named at invoke"),
            expect_policy_calls(
                None,
                json!([policy_call("notes.create", json!({ "text": "original" }), any(), false)]),
            )
            .reqs(&REQUEST),
            expect_handler_calls(
                None,
                json!([handler_call("notes.create", json!({ "text": "original" }), "i1", any())]),
            )
            .reqs(&REQUEST),
        ]),
        c(
            "request",
            2,
            "A caller rewriting invocationId during the policy wait changes nothing",
        )
        .requirements(&["RCIP-PROTO-LIFE-12", "CL-A06-1", "CL-B04-1", "CL-B04-3", "CL-B04-5"])
        .setup(setup())
        .steps([
            bind("notes.create", "b1", returns(created())),
            invoke_id("i1", "notes.create", json!({ "text": "original" }), "req-1"),
            mutate_request("i1", "invocationId", "req-2"),
            invoke_id("i2", "notes.create", json!({ "text": "second" }), "req-1"),
            expect_outcome("i2", failed("req-1", "notes.create", "INVOCATION_ALREADY_ACTIVE"))
                .reqs(&["RCIP-PROTO-LIFE-12", "CL-B04-1", "CL-B04-3"])
                .note("the id invoke accepted stays reserved through the policy wait"),
            gate_policy(1, ret(allow())),
            expect_outcome("i1", succeeded("req-1", "notes.create", created()))
                .reqs(&["RCIP-PROTO-LIFE-12", "CL-A06-1"]),
            expect_handler_calls(
                None,
                json!([handler_call("notes.create", json!({ "text": "original" }), "req-1", any())]),
            )
            .reqs(&REQUEST),
            invoke_id("i3", "notes.create", json!({ "text": "third" }), "req-1"),
            gate_policy(2, ret(allow())),
            expect_outcome("i3", succeeded("req-1", "notes.create", created()))
                .reqs(&["RCIP-PROTO-LIFE-12", "CL-B04-5"])
                .note("settlement released the id invoke accepted, not the one the caller wrote later"),
        ]),
        c(
            "request",
            3,
            "A caller rewriting its request while the handler runs changes nothing",
        )
        .requirements(&["RCIP-PROTO-LIFE-12", "CL-A06-1"])
        .setup(Setup::new(&notes()).policy(allow()).to_json())
        .steps([
            bind("notes.create", "b1", gated()),
            bind("notes.delete", "b2", returns(json!({ "deleted": true }))),
            invoke("i1", "notes.create", json!({ "text": "original" })),
            mutate_request("i1", "capabilityId", "notes.delete"),
            mutate_request("i1", "invocationId", "changed"),
            gate_handler(1, ret(created())),
            expect_outcome("i1", succeeded("i1", "notes.create", created()))
                .reqs(&["RCIP-PROTO-LIFE-12", "CL-A06-1"]),
            expect_handler_calls(
                None,
                json!([handler_call("notes.create", json!({ "text": "original" }), "i1", any())]),
            )
            .reqs(&REQUEST),
        ]),
        c(
            "request",
            4,
            "A caller rewriting its request during a confirmation changes nothing",
        )
        .requirements(&["RCIP-PROTO-LIFE-12", "RCIP-LIFE-CONF-01", "CL-A06-1"])
        .setup(setup())
        .steps([
            bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
            bind("notes.create", "b2", returns(created())),
            invoke("i1", "notes.delete", json!({ "id": "keep" })),
            gate_policy(1, ret(confirm())),
            expect_outcome("i1", confirmation_any("i1", "notes.delete")),
            mutate_request("i1", "capabilityId", "notes.create"),
            mutate_request("i1", "invocationId", "other"),
            resolve("r1", "i1", true),
            gate_policy(2, ret(allow())),
            expect_outcome("r1", succeeded("i1", "notes.delete", json!({ "deleted": true })))
                .reqs(&["RCIP-PROTO-LIFE-12", "RCIP-LIFE-CONF-01", "CL-A06-1"])
                .note("the confirmation captured the original operation, not the caller's object"),
            expect_policy_calls(
                None,
                json!([
                    policy_call("notes.delete", json!({ "id": "keep" }), any(), false),
                    policy_call("notes.delete", json!({ "id": "keep" }), any(), true),
                ]),
            )
            .reqs(&["RCIP-PROTO-LIFE-12", "RCIP-LIFE-CONF-01"]),
            expect_handler_calls(
                None,
                json!([handler_call("notes.delete", json!({ "id": "keep" }), "i1", any())]),
            )
            .reqs(&["RCIP-PROTO-LIFE-12", "RCIP-LIFE-CONF-01"]),
        ]),
    ];
    let cases = cases
        .into_iter()
        .chain(super::detached_definition::cases())
        .chain(super::detached_output::cases())
        .collect();
    make_section(S, "Detached requests", "detachment", cases)
}
