//! Section `rcip.availability`: the live availability check of step 2 (RCIP-PROTO-LIFE-03,
//! CL-B15-7): `getAvailability` is asked at every invocation, an unavailable capability fails with
//! CAPABILITY_UNAVAILABLE before policy and handler, recovers as soon as the host says so, and a
//! binding without a check is available (PRJ-RCIP-AVAIL-01).

use serde_json::json;

use super::support::*;
use crate::case::{Case, Section};

const S: &str = "availability";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

pub fn section() -> Section {
    let setup = || Setup::new(&notes()).policy(allow()).to_json();
    let out = json!({ "items": [] });
    make_section(
        S,
        "Live availability",
        "availability",
        vec![
            c(
                "unavailable",
                1,
                "An unavailable binding fails with CAPABILITY_UNAVAILABLE",
            )
            .requirements(&[
                "RCIP-PROTO-LIFE-03",
                "CL-A04-7",
                "CL-B01-1",
                "CL-B01-3",
                "RCIP-PROTO-SURF-08",
            ])
            .setup(setup())
            .steps([
                bind_avail("notes.list", "b1", returns(out.clone()), unavailable()),
                invoke("i1", "notes.list", json!({})),
                expect_outcome("i1", failed("i1", "notes.list", "CAPABILITY_UNAVAILABLE")),
                expect_policy_count(0),
                expect_handler_count(None, 0),
            ]),
            c(
                "unavailable",
                2,
                "Availability lost after binding is seen by the next invoke",
            )
            .requirements(&["RCIP-PROTO-LIFE-03", "CL-B15-7"])
            .setup(setup())
            .steps([
                bind_avail("notes.list", "b1", returns(out.clone()), available()),
                invoke("i1", "notes.list", json!({})),
                expect_outcome("i1", succeeded("i1", "notes.list", out.clone())),
                set_availability("b1", json!({ "available": false })),
                invoke("i2", "notes.list", json!({})),
                expect_outcome("i2", failed("i2", "notes.list", "CAPABILITY_UNAVAILABLE")),
                expect_handler_count(None, 1),
            ]),
            c(
                "recovers",
                1,
                "Availability regained is seen by the next invoke without refresh",
            )
            .requirements(&["RCIP-PROTO-LIFE-03", "CL-B15-7"])
            .setup(setup())
            .steps([
                bind_avail("notes.list", "b1", returns(out.clone()), unavailable()),
                invoke("i1", "notes.list", json!({})),
                expect_outcome("i1", failed("i1", "notes.list", "CAPABILITY_UNAVAILABLE")),
                set_availability("b1", available()),
                invoke("i2", "notes.list", json!({})),
                expect_outcome("i2", succeeded("i2", "notes.list", out.clone())),
            ]),
            c(
                "no-check",
                1,
                "A binding without getAvailability is available",
            )
            .requirements(&["PRJ-RCIP-AVAIL-01", "CL-A04-1", "RCIP-PROTO-LIFE-03"])
            .setup(setup())
            .steps([
                bind("notes.list", "b1", returns(out.clone())),
                invoke("i1", "notes.list", json!({})),
                expect_outcome("i1", succeeded("i1", "notes.list", out.clone())),
            ]),
            c(
                "per-binding",
                1,
                "Availability belongs to each binding separately",
            )
            .requirements(&["RCIP-PROTO-LIFE-03", "RCIP-PROTO-SURF-08"])
            .setup(setup())
            .steps([
                bind_avail("notes.list", "b1", returns(out.clone()), unavailable()),
                bind_avail("help.show", "b2", returns(json!({})), available()),
                invoke("i1", "help.show", json!({})),
                expect_outcome("i1", succeeded("i1", "help.show", json!({}))),
                invoke("i2", "notes.list", json!({})),
                expect_outcome("i2", failed("i2", "notes.list", "CAPABILITY_UNAVAILABLE")),
            ]),
            c(
                "rebind",
                1,
                "A new binding brings its own availability check",
            )
            .requirements(&["RCIP-PROTO-SURF-08", "RCIP-PROTO-LIFE-03"])
            .setup(setup())
            .steps([
                bind_avail("notes.list", "b1", returns(out.clone()), unavailable()),
                unbind("b1"),
                bind_avail("notes.list", "b2", returns(out.clone()), available()),
                invoke("i1", "notes.list", json!({})),
                expect_outcome("i1", succeeded("i1", "notes.list", out.clone())),
            ]),
            // getAvailability returns { available, reason?, reasonCode? } (CL-A04-7): what else the
            // host's object holds is the host's, never published (CL-B17-1) and never a reason to
            // refuse the call; nothing in the texts asks the runtime to clone it.
            c(
                "host-members",
                1,
                "Members that cannot be cloned do not change availability",
            )
            .requirements(&["RCIP-PROTO-LIFE-03", "CL-A04-7", "CL-B17-1"])
            .setup(setup())
            .steps([
                bind_avail(
                    "notes.list",
                    "b1",
                    returns(out.clone()),
                    json!({ "available": true, "reason": "ok", "audit": { "$value": "function" },
                            "session": { "$value": "class-instance", "class": "Session", "fields": { "token": "t-1" } } }),
                ),
                invoke("i1", "notes.list", json!({})),
                expect_outcome("i1", succeeded("i1", "notes.list", out.clone())),
                expect_snapshot(
                    None,
                    snapshot_caps(&notes().cap_ids(), &[("notes.list", json!({ "availability": { "available": true, "reason": "ok" } }))]),
                ),
            ]),
            // An optional member whose value is undefined is absent (CL-A04-7 `reason?`).
            c(
                "undefined-members",
                1,
                "An undefined reason is absent from the published availability",
            )
            .requirements(&["RCIP-PROTO-LIFE-03", "CL-A04-7", "CL-B17-1"])
            .setup(setup())
            .steps([
                bind_avail(
                    "notes.list",
                    "b1",
                    returns(out.clone()),
                    json!({ "available": false, "reason": { "$value": "undefined" }, "reasonCode": "maintenance" }),
                ),
                invoke("i1", "notes.list", json!({})),
                expect_outcome("i1", failed("i1", "notes.list", "CAPABILITY_UNAVAILABLE")),
                expect_snapshot(
                    None,
                    snapshot_caps(&notes().cap_ids(), &[("notes.list", json!({ "availability": { "available": false, "reasonCode": "maintenance" } }))]),
                ),
            ]),
        ],
    )
}
