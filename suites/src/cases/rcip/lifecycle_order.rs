//! Section `rcip.lifecycle-order`: the order of the checks of one invocation (RCIP-PROTO-LIFE-01..05,
//! CL-B03-1): catalog lookup, live binding, availability, input schema, then policy; each failure
//! wins over every later one and stops before policy. RECOMMENDED (CL-B03-2): an already-aborted
//! signal is reported after those four and before policy runs. Where the plain-JSON check of the
//! input sits against the first three is open (PRJ-RCIP-INPUT-01): non-JSON input behind a
//! failing earlier check accepts either code; the order against the input schema is REQUIRED.

use serde_json::json;

use super::support::*;
use crate::case::{Case, Section, Strictness};
use crate::pattern::escape;

const S: &str = "lifecycle-order";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

/// An earlier CL-B03-1 check fails for a request whose input is not plain JSON: CL-B03-1 orders
/// the input *schema* after catalog, binding and availability, but no sentence places the
/// plain-JSON check of CL-B13 (it may run as the request is captured), so the earlier check's
/// code or INPUT_INVALID (CL-B13-3) is accepted (PRJ-RCIP-INPUT-01, IMPL-DEFINED).
fn before_or_plain_json(handle: &str, capability: &str, code: &str) -> serde_json::Value {
    expect_outcome(
        handle,
        crate::pattern::one_of([failed(handle, capability, code), failed(handle, capability, "INPUT_INVALID")]),
    )
    .strict(Strictness::ImplDefined)
    .reqs(&["CL-B03-1", "CL-B13-3", "PRJ-RCIP-INPUT-01"])
}

pub fn section() -> Section {
    let setup = || Setup::new(&notes()).policy(allow()).to_json();
    let bad = json!({ "text": escape::nan() });
    make_section(
        S,
        "Order of the invocation checks",
        "lifecycle_order",
        vec![
            c(
                "not-found",
                1,
                "An undeclared capability id fails with CAPABILITY_NOT_FOUND",
            )
            .requirements(&["RCIP-PROTO-LIFE-01", "CL-B03-1", "CL-B01-1", "CL-B01-3"])
            .setup(setup())
            .steps([
                invoke("i1", "notes.archive", json!({})),
                expect_outcome("i1", failed("i1", "notes.archive", "CAPABILITY_NOT_FOUND")),
                expect_policy_count(0),
            ]),
            c("not-found", 2, "A scope id is not a capability id")
                .requirements(&["RCIP-PROTO-LIFE-01", "CL-B03-1"])
                .setup(setup())
                .steps([
                    invoke("i1", "settings", json!({})),
                    expect_outcome("i1", failed("i1", "settings", "CAPABILITY_NOT_FOUND")),
                ]),
            c("not-found", 3, "Undeclared id with non-JSON input: either code, never policy")
                .requirements(&["RCIP-PROTO-LIFE-01", "CL-B03-1", "CL-B13-3"])
                .setup(setup())
                .steps([
                    invoke("i1", "nothing.here", bad.clone()),
                    before_or_plain_json("i1", "nothing.here", "CAPABILITY_NOT_FOUND"),
                    expect_policy_count(0),
                ]),
            c(
                "unbound-first",
                1,
                "Unbound with non-JSON input: either code, never policy",
            )
            .requirements(&["RCIP-PROTO-LIFE-02", "CL-B03-1"])
            .setup(setup())
            .steps([
                invoke("i1", "notes.create", bad.clone()),
                before_or_plain_json("i1", "notes.create", "CAPABILITY_UNBOUND"),
                expect_policy_count(0),
            ]),
            c(
                "unbound-first",
                2,
                "An unbound capability fails before its input schema is checked",
            )
            .requirements(&["RCIP-PROTO-LIFE-02", "CL-B03-1"])
            .setup(setup())
            .steps([
                invoke("i1", "notes.create", json!({ "text": 5 })),
                expect_outcome("i1", failed("i1", "notes.create", "CAPABILITY_UNBOUND")),
                expect_policy_count(0),
            ]),
            c(
                "unavailable-first",
                1,
                "An unavailable capability fails before input validation",
            )
            .requirements(&["RCIP-PROTO-LIFE-03", "CL-B03-1"])
            .setup(setup())
            .steps([
                bind_avail("notes.create", "b1", returns(created()), unavailable()),
                invoke("i1", "notes.create", json!({ "text": 5 })),
                expect_outcome("i1", failed("i1", "notes.create", "CAPABILITY_UNAVAILABLE")),
                expect_policy_count(0),
                expect_handler_count(None, 0),
            ]),
            c(
                "unavailable-first",
                2,
                "Unavailable with non-JSON input: either code, never policy",
            )
            .requirements(&["RCIP-PROTO-LIFE-03", "CL-B03-1"])
            .setup(setup())
            .steps([
                bind_avail("notes.create", "b1", returns(created()), unavailable()),
                invoke("i1", "notes.create", bad.clone()),
                before_or_plain_json("i1", "notes.create", "CAPABILITY_UNAVAILABLE"),
                expect_policy_count(0),
            ]),
            c(
                "input-before-policy",
                1,
                "Invalid input fails before policy is asked",
            )
            .requirements(&["RCIP-PROTO-LIFE-04", "CL-B03-1", "CL-B13-3"])
            .setup(Setup::new(&notes()).policy_gated().to_json())
            .steps([
                bind("notes.create", "b1", returns(created())),
                invoke("i1", "notes.create", json!({ "text": "" })),
                expect_outcome("i1", failed("i1", "notes.create", "INPUT_INVALID")),
                expect_policy_count(0),
                expect_handler_count(None, 0),
            ]),
            c(
                "policy-last",
                1,
                "Valid input reaches policy once, unconfirmed, before the handler",
            )
            .requirements(&["RCIP-PROTO-LIFE-05", "CL-B03-1", "CL-A05-1"])
            .setup(Setup::new(&notes()).policy_gated().to_json())
            .steps([
                bind("notes.create", "b1", returns(created())),
                invoke("i1", "notes.create", json!({ "text": "a" })),
                expect_pending("i1"),
                expect_policy_calls(
                    None,
                    json!([policy_call(
                        "notes.create",
                        json!({ "text": "a" }),
                        crate::pattern::any(),
                        false
                    )]),
                ),
                expect_handler_count(None, 0),
                gate_policy(1, ret(allow())),
                expect_outcome("i1", succeeded("i1", "notes.create", created())),
            ]),
            c(
                "aborted-signal",
                1,
                "An already-aborted signal runs neither policy nor handler",
            )
            .requirements(&["RCIP-LIFE-CANCEL-01", "CL-B11-1", "CL-B03-2"])
            .setup(Setup::new(&notes()).policy_gated().to_json())
            .steps([
                abort("s1"),
                bind("notes.create", "b1", returns(created())),
                invoke_signal("i1", "notes.create", json!({ "text": "a" }), "s1"),
                expect_outcome("i1", failed("i1", "notes.create", "EXECUTION_ABORTED"))
                    .reqs(&["RCIP-LIFE-CANCEL-01", "CL-B11-1"]),
                expect_handler_count(None, 0).reqs(&["RCIP-LIFE-CANCEL-01", "CL-B11-1"]),
                expect_policy_count(0)
                    .strict(Strictness::Recommended)
                    .reqs(&["CL-B03-2"]),
            ]),
            c(
                "aborted-signal",
                2,
                "An already-aborted signal is reported after lookup failures",
            )
            .requirements(&["CL-B03-2"])
            .strictness(Strictness::Recommended)
            .setup(setup())
            .steps([
                abort("s1"),
                invoke_signal("i1", "notes.archive", json!({}), "s1"),
                expect_outcome("i1", failed("i1", "notes.archive", "CAPABILITY_NOT_FOUND")),
                invoke_signal("i2", "notes.create", json!({ "text": "a" }), "s1"),
                expect_outcome("i2", failed("i2", "notes.create", "CAPABILITY_UNBOUND")),
            ]),
            c(
                "aborted-signal",
                3,
                "An already-aborted signal is reported after input validation",
            )
            .requirements(&["CL-B03-2"])
            .strictness(Strictness::Recommended)
            .setup(setup())
            .steps([
                abort("s1"),
                bind_avail(
                    "notes.list",
                    "b1",
                    returns(json!({ "items": [] })),
                    unavailable(),
                ),
                bind("notes.create", "b2", returns(created())),
                invoke_signal("i1", "notes.list", json!({}), "s1"),
                expect_outcome("i1", failed("i1", "notes.list", "CAPABILITY_UNAVAILABLE")),
                invoke_signal("i2", "notes.create", json!({}), "s1"),
                expect_outcome("i2", failed("i2", "notes.create", "INPUT_INVALID")),
            ]),
        ],
    )
}
