//! Section `rcip.binding`: `host.bindCapability` and its unbind function (RCIP-PROTO-SURF-08,
//! CL-A04-1, RCIP-LIFE-BIND-03/04/07, CL-B20): a second live binding throws and leaves the first in
//! place, unbind removes only its own binding (a stale unbind after a rebind does nothing) and is
//! idempotent, a declared capability may stay unbound, and unbinding removes future access
//! (RCIP-LIFE-CANCEL-06).

use serde_json::json;

use super::support::*;
use crate::case::{Case, Section};

const S: &str = "binding";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

fn first() -> serde_json::Value {
    json!({ "id": "from-first" })
}

fn second() -> serde_json::Value {
    json!({ "id": "from-second" })
}

pub fn section() -> Section {
    let setup = || Setup::new(&notes()).policy(allow()).to_json();
    let ids = notes().cap_ids();
    make_section(
        S,
        "Bindings",
        "binding",
        vec![
            c("bind", 1, "A bound capability runs its handler")
                .requirements(&[
                    "RCIP-PROTO-SURF-08",
                    "CL-A04-1",
                    "RCIP-PROTO-LIFE-02",
                    "RCIP-PROTO-SURF-05",
                    "CL-A03-7",
                ])
                .setup(setup())
                .steps([
                    bind("notes.create", "b1", returns(first())),
                    invoke("i1", "notes.create", json!({ "text": "a" })),
                    expect_outcome("i1", succeeded("i1", "notes.create", first())),
                    expect_handler_count(Some("notes.create"), 1),
                ]),
            c(
                "duplicate",
                1,
                "A second live binding for one id throws and the first stays",
            )
            .requirements(&["RCIP-LIFE-BIND-03", "CL-B20-1"])
            .setup(setup())
            .steps([
                bind("notes.create", "b1", returns(first())),
                bind("notes.create", "b2", returns(second())).throws(true),
                invoke("i1", "notes.create", json!({ "text": "a" })),
                // The refused second binding installed nothing: the first one answers.
                expect_outcome("i1", succeeded("i1", "notes.create", first())).reqs(&["CL-B20-1", "RCIP-LIFE-BIND-03"]),
            ]),
            c("duplicate", 2, "Binding again after an unbind is allowed")
                .requirements(&["RCIP-LIFE-BIND-03", "CL-B20-1", "RCIP-LIFE-BIND-04"])
                .setup(setup())
                .steps([
                    bind("notes.create", "b1", returns(first())),
                    unbind("b1"),
                    bind("notes.create", "b2", returns(second())),
                    invoke("i1", "notes.create", json!({ "text": "a" })),
                    expect_outcome("i1", succeeded("i1", "notes.create", second())),
                ]),
            c(
                "duplicate",
                3,
                "Different capabilities can be bound at the same time",
            )
            .requirements(&["CL-B20-1", "RCIP-PROTO-SURF-08"])
            .setup(setup())
            .steps([
                bind("notes.create", "b1", returns(first())),
                bind("notes.list", "b2", returns(json!({ "items": [] }))),
                expect_snapshot(
                    None,
                    snapshot_caps(
                        &ids,
                        &[
                            ("notes.create", json!({ "bound": true })),
                            ("notes.list", json!({ "bound": true })),
                        ],
                    ),
                ),
            ]),
            c(
                "duplicate",
                4,
                "A failed duplicate bind does not publish a new revision",
            )
            .requirements(&["CL-B20-1"])
            .strictness(crate::case::Strictness::Recommended)
            .setup(setup())
            .steps([
                bind("notes.create", "b1", returns(first())),
                get_snapshot("s1"),
                bind("notes.create", "b2", returns(second()))
                    .throws(true)
                    .strict(crate::case::Strictness::Required),
                get_snapshot("s2"),
                expect_relation("s1", "s2", true, "equal"),
            ]),
            c(
                "stale-unbind",
                1,
                "A stale unbind after a rebind leaves the new binding",
            )
            .requirements(&["RCIP-LIFE-BIND-04", "CL-B20-2"])
            .setup(setup())
            .steps([
                bind("notes.create", "b1", returns(first())),
                unbind("b1"),
                bind("notes.create", "b2", returns(second())),
                unbind("b1"),
                expect_snapshot(
                    None,
                    snapshot_caps(&ids, &[("notes.create", json!({ "bound": true }))]),
                ),
                invoke("i1", "notes.create", json!({ "text": "a" })),
                expect_outcome("i1", succeeded("i1", "notes.create", second())),
            ]),
            c(
                "stale-unbind",
                2,
                "An unbind removes only the capability it was returned for",
            )
            .requirements(&["RCIP-LIFE-BIND-04", "CL-B20-2"])
            .setup(setup())
            .steps([
                bind("notes.create", "b1", returns(first())),
                bind("notes.list", "b2", returns(json!({ "items": [] }))),
                unbind("b1"),
                expect_snapshot(
                    None,
                    snapshot_caps(
                        &ids,
                        &[
                            ("notes.create", json!({ "bound": false })),
                            ("notes.list", json!({ "bound": true })),
                        ],
                    ),
                ),
                invoke("i1", "notes.list", json!({})),
                expect_outcome("i1", succeeded("i1", "notes.list", json!({ "items": [] }))),
            ]),
            c(
                "idempotent-unbind",
                1,
                "Calling an unbind function twice is harmless",
            )
            .requirements(&["CL-B20-3", "RCIP-LIFE-BIND-04"])
            .setup(setup())
            .steps([
                bind("notes.create", "b1", returns(first())),
                unbind("b1"),
                unbind("b1"),
                expect_snapshot(
                    None,
                    snapshot_caps(&ids, &[("notes.create", json!({ "bound": false }))]),
                ),
                bind("notes.create", "b2", returns(second())),
                invoke("i1", "notes.create", json!({ "text": "a" })),
                expect_outcome("i1", succeeded("i1", "notes.create", second())),
            ]),
            c(
                "unbound",
                1,
                "A declared capability never bound fails with CAPABILITY_UNBOUND",
            )
            .requirements(&["RCIP-LIFE-BIND-07", "CL-B20-4", "RCIP-PROTO-LIFE-02"])
            .setup(setup())
            .steps([
                expect_snapshot(
                    None,
                    snapshot_caps(&ids, &[("notes.create", json!({ "bound": false }))]),
                ),
                invoke("i1", "notes.create", json!({ "text": "a" })),
                expect_outcome("i1", failed("i1", "notes.create", "CAPABILITY_UNBOUND")),
                expect_policy_count(0),
            ]),
            c(
                "unbound",
                2,
                "After unbind the capability fails with CAPABILITY_UNBOUND",
            )
            .requirements(&[
                "RCIP-LIFE-CANCEL-06",
                "RCIP-LIFE-BIND-04",
                "CL-B20-4",
                "RCIP-PROTO-LIFE-02",
            ])
            .setup(setup())
            .steps([
                bind("notes.create", "b1", returns(first())),
                unbind("b1"),
                invoke("i1", "notes.create", json!({ "text": "a" })),
                expect_outcome("i1", failed("i1", "notes.create", "CAPABILITY_UNBOUND")),
                expect_handler_count(None, 0),
            ]),
            c(
                "unbound",
                3,
                "A stale unbind does not unbind a later binding's capability",
            )
            .requirements(&["CL-B20-2", "RCIP-LIFE-CANCEL-06"])
            .setup(setup())
            .steps([
                bind("notes.create", "b1", returns(first())),
                unbind("b1"),
                bind("notes.create", "b2", returns(second())),
                unbind("b1"),
                unbind("b1"),
                invoke("i1", "notes.create", json!({ "text": "a" })),
                expect_outcome("i1", succeeded("i1", "notes.create", second())),
                unbind("b2"),
                invoke("i2", "notes.create", json!({ "text": "a" })),
                expect_outcome("i2", failed("i2", "notes.create", "CAPABILITY_UNBOUND")),
            ]),
        ],
    )
}
