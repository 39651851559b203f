//! Cases of section `rcip.policy`, slug `capability`: what the policy sees of the capability
//! (CL-A05-1: the policy context's `capability` is "its snapshot entry"). Its snapshot entry holds
//! the published contract (CL-A07-3) and the live members `bound`, `available` and `relevance`
//! (CL-A07-4, CL-B16-1), as of the call: observed with `policy-capability`, recorded when the
//! policy is called, on a first pass and on the confirmed pass after an approval. A runtime that
//! hands the policy its internal catalog object (no live members) fails. A policy that writes to
//! that object (settlement `mutateCapability`) changes neither the snapshot (CL-B14-3: it cannot be
//! mutated through an object handed to a consumer) nor the catalog the runtime validates with and
//! publishes (RCIP-PROTO-LIFE-12: once handed to the host, the object is host-owned mutable data):
//! a runtime handing out a shallow copy that shares the catalog's schema, tags or scope ids fails.

use serde_json::{json, Value};

use super::support::*;
use crate::case::Case;
use crate::pattern::{contains, subset};

fn c(n: u32, description: &str) -> Case {
    case("policy", "capability", n, description)
}

/// The `capability` policy call `call` received.
fn expect_policy_capability(call: u32, is: Value) -> Value {
    json!({ "expect": "policy-capability", "call": call, "is": is })
}

/// The snapshot entry of capability `index` of `notes()`: its contract (with `tags` only where
/// the definition declares them) and the live members given.
fn entry(index: usize, live: Value) -> Value {
    let mut fields = notes().to_json()["capabilities"][index].clone();
    if let (Some(fields), Some(live)) = (fields.as_object_mut(), live.as_object()) {
        for (key, value) in live {
            fields.insert(key.clone(), value.clone());
        }
    }
    subset(fields)
}

pub fn cases() -> Vec<Case> {
    let list_out = json!({ "items": [] });
    vec![
        c(
            1,
            "The policy is handed the capability's snapshot entry, live members too",
        )
        .requirements(&["CL-A05-1", "CL-A07-3", "CL-A07-4", "CL-B16-1"])
        .setup(Setup::new(&notes()).policy(allow()).to_json())
        .steps([
            set_context(&["notes"], None),
            bind("notes.list", "b1", returns(list_out.clone())),
            invoke("i1", "notes.list", json!({})),
            expect_outcome("i1", succeeded("i1", "notes.list", list_out.clone())).reqs(RUNS_AND_SUCCEEDS),
            expect_policy_capability(
                1,
                entry(
                    0,
                    json!({ "bound": true, "available": true, "relevance": "current" }),
                ),
            ),
        ]),
        c(
            2,
            "The entry the policy sees carries relevance other out of context",
        )
        .requirements(&["CL-A05-1", "CL-A07-4", "CL-B16-1"])
        .setup(Setup::new(&notes()).policy(allow()).to_json())
        .steps([
            set_context(&["settings"], None),
            bind_avail("notes.list", "b1", returns(list_out.clone()), available()),
            invoke("i1", "notes.list", json!({})),
            expect_outcome("i1", succeeded("i1", "notes.list", list_out.clone())).reqs(RUNS_AND_SUCCEEDS),
            expect_policy_capability(
                1,
                entry(
                    0,
                    json!({ "bound": true, "available": true, "relevance": "other" }),
                ),
            ),
        ]),
        c(
            3,
            "The confirmed pass hands the policy the snapshot entry again",
        )
        .requirements(&["CL-A05-1", "CL-A07-3", "CL-A07-4", "RCIP-LIFE-CONF-01"])
        .setup(Setup::new(&notes()).policy_gated().to_json())
        .steps([
            set_context(&["notes"], None),
            bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
            invoke("i1", "notes.delete", json!({ "id": "n1" })),
            gate_policy(1, ret(confirm())),
            resolve("r1", "i1", true),
            gate_policy(2, ret(allow())),
            expect_outcome(
                "r1",
                succeeded("i1", "notes.delete", json!({ "deleted": true })),
            ),
            expect_policy_capability(
                2,
                entry(
                    2,
                    json!({ "bound": true, "available": true, "relevance": "current" }),
                ),
            ),
        ]),
        c(
            4,
            "A policy writing to its capability changes no snapshot or validation",
        )
        .requirements(&["CL-A05-1", "CL-B14-3", "RCIP-PROTO-LIFE-12"])
        .setup(
            Setup::new(&notes())
                .policy_writing_capability(
                    allow(),
                    &[
                        ("/title", json!("Rewritten by the policy")),
                        ("/tags/0", json!("rewritten")),
                        ("/scopeIds/0", json!("settings")),
                        ("/inputSchema/additionalProperties", json!(true)),
                        ("/bound", json!(false)),
                    ],
                )
                .to_json(),
        )
        .steps([
            set_context(&["notes"], None),
            bind("notes.list", "b1", returns(list_out.clone())),
            invoke("i1", "notes.list", json!({})),
            expect_outcome("i1", succeeded("i1", "notes.list", list_out.clone())),
            invoke("i2", "notes.list", json!({ "extra": 1 })),
            expect_outcome("i2", failed("i2", "notes.list", "INPUT_INVALID")),
            expect_snapshot(
                None,
                subset(json!({ "capabilities": contains([entry(0, json!({
                        "bound": true, "available": true, "relevance": "current"
                    }))], false) })),
            ),
            invoke("i3", "notes.list", json!({})),
            expect_outcome("i3", succeeded("i3", "notes.list", list_out.clone())),
            expect_policy_capability(
                2,
                entry(
                    0,
                    json!({ "bound": true, "available": true, "relevance": "current" }),
                ),
            ),
        ]),
    ]
}
