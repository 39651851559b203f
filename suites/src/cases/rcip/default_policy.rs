//! Section `rcip.default-policy`: the policy a runtime applies when the host gives none (CL-B22,
//! RECOMMENDED): `read` allowed, `destructive` needs confirmation and its confirmed pass is allowed,
//! `write` and `external` denied. Effects inform host policy (RCIP-PROTO-DEF-10).

use serde_json::json;

use super::support::*;
use crate::case::{Case, Section, Strictness};

const S: &str = "default-policy";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description).strictness(Strictness::Recommended)
}

pub fn section() -> Section {
    let setup = || Setup::new(&notes()).to_json();
    let explicit = || Setup::new(&notes()).policy_absent().to_json();
    make_section(
        S,
        "Default policy",
        "default_policy",
        vec![
            c("read", 1, "Without a host policy a read capability runs")
                .requirements(&["CL-B22-1", "RCIP-PROTO-DEF-10"])
                .setup(setup())
                .steps([
                    bind("notes.list", "b1", returns(json!({ "items": [] }))),
                    invoke("i1", "notes.list", json!({})),
                    expect_outcome("i1", succeeded("i1", "notes.list", json!({ "items": [] }))),
                ]),
            c(
                "write",
                1,
                "Without a host policy a write capability is denied",
            )
            .requirements(&["CL-B22-3", "RCIP-PROTO-DEF-10"])
            .setup(setup())
            .steps([
                bind("notes.create", "b1", returns(created())),
                invoke("i1", "notes.create", json!({ "text": "a" })),
                expect_outcome("i1", denied("i1", "notes.create", "POLICY_DENIED")),
                expect_handler_count(None, 0),
            ]),
            c(
                "external",
                1,
                "Without a host policy an external capability is denied",
            )
            .requirements(&["CL-B22-3", "RCIP-PROTO-DEF-10"])
            .setup(setup())
            .steps([
                bind("notes.share", "b1", returns(json!({}))),
                invoke("i1", "notes.share", json!({ "id": "n1", "to": "bob" })),
                expect_outcome("i1", denied("i1", "notes.share", "POLICY_DENIED")),
                expect_handler_count(None, 0),
            ]),
            c(
                "destructive",
                1,
                "Without a host policy a destructive capability needs confirmation",
            )
            .requirements(&["CL-B22-2", "RCIP-PROTO-DEF-10"])
            .setup(setup())
            .steps([
                bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
                invoke("i1", "notes.delete", json!({ "id": "n1" })),
                expect_outcome(
                    "i1",
                    confirmation_required("i1", "notes.delete", "destructive"),
                ),
                expect_handler_count(None, 0),
            ]),
            c(
                "destructive",
                2,
                "The default policy allows the confirmed pass of a destructive call",
            )
            .requirements(&["CL-B22-2", "CL-B22-4"])
            .setup(setup())
            .steps([
                bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
                invoke("i1", "notes.delete", json!({ "id": "n1" })),
                resolve("r1", "i1", true),
                expect_outcome(
                    "r1",
                    succeeded("i1", "notes.delete", json!({ "deleted": true })),
                ),
                expect_handler_count(None, 1),
            ]),
            c(
                "absent-option",
                1,
                "An explicitly absent policy option behaves as no policy",
            )
            .requirements(&["CL-B22-1", "CL-B22-3"])
            .setup(explicit())
            .steps([
                bind("notes.list", "b1", returns(json!({ "items": [] }))),
                bind("notes.create", "b2", returns(created())),
                invoke("i1", "notes.list", json!({})),
                expect_outcome("i1", succeeded("i1", "notes.list", json!({ "items": [] }))),
                invoke("i2", "notes.create", json!({ "text": "a" })),
                expect_outcome("i2", denied("i2", "notes.create", "POLICY_DENIED")),
            ]),
        ],
    )
}
