//! Section `rcip.context`: `host.setContext` (RCIP-PROTO-SURF-09, CL-A04-8) publishes the active
//! scope list and primary scope; the context holds declared scope ids only (RCIP-LIFE-CTX-01); an
//! undeclared scope or a primary scope that is not active throws and leaves the context unchanged,
//! duplicates collapse keeping first-seen order (CL-B21, RECOMMENDED); and the context reaches the
//! policy and the handler as `semanticContext` (CL-A04-6, CL-A05-1).

use serde_json::json;

use super::support::*;
use crate::case::{Case, Section, Strictness};
use crate::pattern::{absent, one_of, subset};

const S: &str = "context";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

fn snapshot_context(context: serde_json::Value) -> serde_json::Value {
    subset(json!({ "context": context }))
}

pub fn section() -> Section {
    let setup = || Setup::new(&notes()).policy(allow()).to_json();
    make_section(S, "Semantic context", "context", vec![
        c("set", 1, "setContext publishes the active scopes and the primary scope")
            .requirements(&["RCIP-PROTO-SURF-09", "CL-A04-8", "CL-A07-2", "RCIP-LIFE-CTX-01"])
            .setup(setup())
            .steps([
                set_context(&["notes", "settings"], Some("settings")),
                expect_snapshot(None, snapshot_context(json!({ "activeScopeIds": ["notes", "settings"], "primaryScopeId": "settings" }))),
            ]),
        c("set", 2, "Without a primary scope the context has no primaryScopeId")
            .requirements(&["RCIP-PROTO-SURF-09", "CL-A04-8", "CL-A07-2"])
            .setup(setup())
            .steps([
                set_context(&["settings", "notes"], None),
                expect_snapshot(None, snapshot_context(json!({ "activeScopeIds": ["settings", "notes"], "primaryScopeId": absent() }))),
            ]),
        c("set", 3, "A later setContext replaces the whole context")
            .requirements(&["RCIP-PROTO-SURF-09", "CL-A04-8"])
            .setup(setup())
            .steps([
                set_context(&["notes", "settings"], Some("notes")),
                set_context(&["notes.editor"], None),
                expect_snapshot(None, snapshot_context(json!({ "activeScopeIds": ["notes.editor"], "primaryScopeId": absent() }))),
            ]),
        c("undeclared", 1, "An undeclared scope id never enters the context")
            .requirements(&["RCIP-LIFE-CTX-01", "CL-B21-1"])
            .setup(setup())
            .steps([
                set_context(&["notes"], None),
                set_context(&["notes", "tenant-42"], None).throws(true).strict(Strictness::Recommended).reqs(&["CL-B21-1"]),
                expect_snapshot(
                    None,
                    snapshot_context(subset(json!({ "activeScopeIds": ["notes"] }))),
                )
                .reqs(&["RCIP-LIFE-CTX-01"])
                .note("whether it throws or drops the id, only declared ids may be published (RCIP-LIFE-CTX-01)"),
            ]),
        c("undeclared", 2, "setContext with only an undeclared scope leaves the context")
            .requirements(&["CL-B21-1", "RCIP-LIFE-CTX-01"])
            .setup(setup())
            .steps([
                set_context(&["settings"], Some("settings")),
                set_context(&["archive"], None).throws(true).strict(Strictness::Recommended),
                expect_snapshot(
                    None,
                    snapshot_context(one_of([
                        json!({ "activeScopeIds": ["settings"], "primaryScopeId": "settings" }),
                        json!({ "activeScopeIds": [] }),
                    ])),
                )
                .reqs(&["RCIP-LIFE-CTX-01"]),
                expect_snapshot(None, snapshot_context(json!({ "activeScopeIds": ["settings"], "primaryScopeId": "settings" })))
                    .strict(Strictness::Recommended)
                    .reqs(&["CL-B21-1"]),
            ]),
        c("primary-inactive", 1, "A primary scope that is not active throws and changes nothing")
            .requirements(&["CL-B21-2"])
            .strictness(Strictness::Recommended)
            .setup(setup())
            .steps([
                set_context(&["notes"], None),
                set_context(&["notes"], Some("settings")).throws(true),
                expect_snapshot(None, snapshot_context(json!({ "activeScopeIds": ["notes"] }))),
            ]),
        c("duplicates", 1, "Duplicate active ids collapse keeping first-seen order")
            .requirements(&["CL-B21-3"])
            .strictness(Strictness::Recommended)
            .setup(setup())
            .steps([
                set_context(&["settings", "notes", "settings", "notes"], None),
                expect_snapshot(None, snapshot_context(json!({ "activeScopeIds": ["settings", "notes"] }))),
            ]),
        c("semantic-context", 1, "Policy and handler receive the active context")
            .requirements(&["CL-A04-6", "CL-A05-1", "RCIP-PROTO-LIFE-05", "CL-A04-4"])
            .setup(setup())
            .steps([
                set_context(&["notes", "settings"], Some("notes")),
                bind("notes.create", "b1", returns(created())),
                invoke("i1", "notes.create", json!({ "text": "a" })),
                expect_outcome("i1", succeeded("i1", "notes.create", created())),
                expect_policy_calls(
                    None,
                    json!([policy_call("notes.create", json!({ "text": "a" }), context(&["notes", "settings"], Some("notes")), false)]),
                ),
                expect_handler_calls(
                    None,
                    json!([handler_call("notes.create", json!({ "text": "a" }), "i1", context(&["notes", "settings"], Some("notes")))]),
                ),
            ]),
        c("semantic-context", 2, "A handler sees the context current when it starts")
            .requirements(&["CL-A04-6", "RCIP-PROTO-SURF-09"])
            .setup(setup())
            .steps([
                bind("notes.create", "b1", returns(created())),
                set_context(&["settings"], None),
                invoke("i1", "notes.create", json!({ "text": "a" })),
                set_context(&["notes"], None),
                invoke("i2", "notes.create", json!({ "text": "b" })),
                expect_handler_calls(
                    None,
                    json!([
                        handler_call("notes.create", json!({ "text": "a" }), "i1", context(&["settings"], None)),
                        handler_call("notes.create", json!({ "text": "b" }), "i2", context(&["notes"], None)),
                    ]),
                ),
            ]),
        // `primaryScopeId?` (CL-A04-8): a member whose value is undefined is an absent member, so
        // setContext accepts it and publishes a context without a primary scope.
        c("undefined-primary", 1, "A primaryScopeId that is undefined counts as absent")
            .requirements(&["CL-A04-8", "CL-A07-2", "RCIP-PROTO-SURF-09"])
            .setup(setup())
            .steps([
                json!({ "host": "set-context", "context": { "activeScopeIds": ["notes"], "primaryScopeId": { "$value": "undefined" } } }),
                expect_snapshot(None, subset(json!({ "context": { "activeScopeIds": ["notes"] } }))),
            ]),
    ])
}
