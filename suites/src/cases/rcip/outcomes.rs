//! Section `rcip.outcomes`: the four outcome statuses and their shapes (RCIP-PROTO-OUT-01,
//! RCIP-PROTO-LIFE-09, CL-A06), the closed list of stable codes with their statuses (CL-B01,
//! RCIP-PROTO-OUT-02), and that `invoke` and `resolveConfirmation` always settle to an outcome
//! whatever the request or a host callback does (CL-B02-1, RCIP-PROTO-OUT-03); requests no text
//! describes (not an object, members of the wrong type): slug `malformed` (`malformed_request.rs`).

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section};
use crate::pattern::escape;

const S: &str = "outcomes";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

pub fn section() -> Section {
    let codes = vec![
        c("codes", 1, "Failures before policy carry their stable codes with status failed")
            .requirements(&["CL-B01-1", "CL-B01-3", "RCIP-PROTO-OUT-02", "CL-A06-2", "RCIP-PROTO-OUT-01"])
            .setup(Setup::new(&notes()).policy_gated().to_json())
            .steps([
                bind_avail("notes.list", "b1", returns(json!({ "items": [] })), unavailable()),
                bind("notes.create", "b2", returns(created())),
                invoke("i1", "no.such", json!({})),
                invoke("i2", "notes.delete", json!({ "id": "n1" })),
                invoke("i3", "notes.list", json!({})),
                invoke("i4", "notes.create", json!({ "text": 3 })),
                invoke("i5", "notes.create", json!({ "text": "a" })),
                invoke_id("i6", "notes.create", json!({ "text": "b" }), "i5"),
                expect_outcome("i1", failed("i1", "no.such", "CAPABILITY_NOT_FOUND")),
                expect_outcome("i2", failed("i2", "notes.delete", "CAPABILITY_UNBOUND")),
                expect_outcome("i3", failed("i3", "notes.list", "CAPABILITY_UNAVAILABLE")),
                expect_outcome("i4", failed("i4", "notes.create", "INPUT_INVALID")),
                expect_outcome("i6", failed("i5", "notes.create", "INVOCATION_ALREADY_ACTIVE")),
                expect_pending("i5"),
            ]),
        c("codes", 2, "Policy and confirmation denials carry status denied")
            .requirements(&["CL-B01-1", "CL-B01-2", "RCIP-PROTO-OUT-01", "CL-A06-2"])
            .setup(Setup::new(&notes()).policy_gated().to_json())
            .steps([
                bind("notes.create", "b1", returns(created())),
                bind("notes.delete", "b2", returns(json!({ "deleted": true }))),
                invoke("i1", "notes.create", json!({ "text": "a" })),
                gate_policy(1, ret(deny())),
                invoke("i2", "notes.delete", json!({ "id": "n1" })),
                gate_policy(2, ret(confirm())),
                resolve("r2", "i2", false),
                expect_outcome("i1", denied("i1", "notes.create", "POLICY_DENIED")),
                expect_outcome("r2", denied("i2", "notes.delete", "CONFIRMATION_DECLINED")),
            ]),
        c("codes", 3, "Execution-phase failures carry their codes with status failed")
            .requirements(&["CL-B01-1", "CL-B01-3", "RCIP-PROTO-OUT-02"])
            .setup(Setup::new(&notes()).policy_gated().to_json())
            .steps([
                bind("notes.create", "b1", gated()),
                invoke_signal("i1", "notes.create", json!({ "text": "a" }), "s1"),
                invoke("i2", "notes.create", json!({ "text": "b" })),
                invoke("i3", "notes.create", json!({ "text": "c" })),
                invoke("i4", "notes.create", json!({ "text": "d" })),
                gate_policy(1, ret(allow())),
                gate_policy(2, ret(allow())),
                gate_policy(3, ret(allow())),
                gate_policy(4, throw_error()),
                abort("s1"),
                gate_handler(1, throw_error()),
                gate_handler(2, throw_error()),
                gate_handler(3, ret(json!({ "id": false }))),
                expect_outcome("i1", failed("i1", "notes.create", "EXECUTION_ABORTED")),
                expect_outcome("i2", failed("i2", "notes.create", "EXECUTION_FAILED")),
                expect_outcome("i3", failed("i3", "notes.create", "OUTPUT_INVALID")),
                expect_outcome("i4", failed("i4", "notes.create", "POLICY_EVALUATION_FAILED")),
            ]),
        c("codes", 4, "Resolution failures carry their codes with status failed")
            .requirements(&["CL-B01-1", "CL-B01-3", "RCIP-PROTO-OUT-02"])
            .setup(Setup::new(&notes()).policy(confirm()).ttl(1000).to_json())
            .steps([
                bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
                invoke_signal("i1", "notes.delete", json!({ "id": "n1" }), "s1"),
                invoke("i2", "notes.delete", json!({ "id": "n2" })),
                abort("s1"),
                advance(1500),
                resolve("r1", "i1", true),
                resolve("r2", "i2", true),
                resolve_id("r3", "never-issued", true),
                expect_outcome("r1", failed_code("EXECUTION_ABORTED")),
                expect_outcome("r2", failed_code("CONFIRMATION_EXPIRED")),
                expect_outcome("r3", failed_code("CONFIRMATION_NOT_FOUND")),
            ]),
        c("shape", 1, "Every outcome names its invocation and capability")
            .requirements(&["CL-A06-1", "CL-A06-2", "CL-A06-4", "RCIP-PROTO-LIFE-09"])
            .setup(Setup::new(&notes()).policy_gated().to_json())
            .steps([
                bind("notes.list", "b1", returns(json!({ "items": ["a"] }))),
                bind("notes.delete", "b2", returns(json!({ "deleted": true }))),
                invoke("i1", "notes.list", json!({})),
                gate_policy(1, ret(allow())),
                invoke("i2", "notes.delete", json!({ "id": "n1" })),
                gate_policy(2, ret(confirm())),
                invoke("i3", "notes.list", json!({ "x": 1 })),
                expect_outcome("i1", json!({ "status": "succeeded", "invocationId": "i1", "capabilityId": "notes.list", "output": { "items": ["a"] } })),
                expect_outcome("i2", confirmation_required("i2", "notes.delete", "destructive")),
                expect_outcome("i3", failed("i3", "notes.list", "INPUT_INVALID")),
            ]),
    ];
    let mut cases = codes;
    cases.extend(never_throws());
    cases.extend(super::malformed_request::cases());
    make_section(S, "Outcomes and stable codes", "outcomes", cases)
}

/// CL-B02-1: whatever the request, the call settles to an outcome.
fn never_throws() -> Vec<Case> {
    let odd: Vec<(&str, &str, Value, &str)> = vec![
        (
            "",
            "An empty capability id settles to CAPABILITY_NOT_FOUND",
            json!({}),
            "CAPABILITY_NOT_FOUND",
        ),
        (
            "Not An Id!",
            "A malformed capability id settles to CAPABILITY_NOT_FOUND",
            json!({}),
            "CAPABILITY_NOT_FOUND",
        ),
        (
            "notes.create",
            "An undefined input settles to INPUT_INVALID",
            escape::undefined(),
            "INPUT_INVALID",
        ),
        (
            "notes.create",
            "A cyclic input settles to INPUT_INVALID",
            json!({ "text": "a", "me": escape::reference("") }),
            "INPUT_INVALID",
        ),
    ];
    odd.into_iter()
        .enumerate()
        .map(|(i, (cap, description, input, code))| {
            c("never-throws", i as u32 + 1, description)
                .requirements(&["CL-B02-1", "RCIP-PROTO-OUT-03", "CL-A03-7"])
                .setup(Setup::new(&notes()).policy(allow()).to_json())
                .steps([
                    bind("notes.create", "b1", returns(created())),
                    invoke("i1", cap, input),
                    expect_outcome("i1", failed("i1", cap, code)),
                ])
        })
        .collect()
}
