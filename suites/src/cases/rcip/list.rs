//! Section `rcip.list`: `client.listCapabilities(filter?)` (RCIP-PROTO-SURF-03, CL-A03-2..5)
//! filtering by context (`all` / `current`), availability (`availableOnly`), scope and effect, alone
//! and combined; and that `context: 'current'` filters discovery, not invocation permission
//! (RCIP-LIFE-CTX-03/04). Order is not specified, so lists compare in any order (PRJ-RCIP-LIST-01).
//! Whether the scope hierarchy (`parentId`) affects relevance is only RECOMMENDED (CL-B16-3), so a
//! `current` list where the notes hierarchy could matter accepts the hierarchy-expanded list at
//! REQUIRED and asks for the flat one at RECOMMENDED (CONFLICTS.md, scope hierarchy).

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};
use crate::pattern::{one_of, unordered};

/// A `current` list: REQUIRED accepts `flat` (CL-B16-1) or `flat` plus `by_hierarchy` (the
/// capabilities a reading of the scope hierarchy would add); RECOMMENDED asks for `flat` alone
/// (CL-B16-3).
fn expect_current_list(of: &str, flat: &[&str], by_hierarchy: &[&str]) -> [Value; 2] {
    let as_set = |ids: &[&str]| unordered(ids.iter().map(|id| json!(id)));
    let expanded: Vec<&str> = flat.iter().chain(by_hierarchy).copied().collect();
    [
        json!({ "expect": "list", "of": of, "is": one_of([as_set(flat), as_set(&expanded)]) })
            .reqs(&["CL-B16-1", "PRJ-RCIP-SCOPE-01"])
            .note(
            "the scope hierarchy may add capabilities of related scopes (CL-B16-3 is RECOMMENDED)",
        ),
        expect_list(of, flat)
            .strict(Strictness::Recommended)
            .reqs(&["CL-B16-3"]),
    ]
}

const S: &str = "list";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

const ALL: [&str; 6] = [
    "notes.list",
    "notes.create",
    "notes.delete",
    "notes.share",
    "settings.read",
    "help.show",
];

pub fn section() -> Section {
    make_section(
        S,
        "listCapabilities filters",
        "list",
        vec![
            c(
                "no-filter",
                1,
                "Without a filter every declared capability is listed",
            )
            .requirements(&["RCIP-PROTO-SURF-03", "CL-A03-2", "PRJ-RCIP-LIST-01"])
            .setup(Setup::new(&notes()).to_json())
            .steps([list("l1", None), expect_list("l1", &ALL)]),
            c(
                "context",
                1,
                "context all lists every capability whatever the context",
            )
            .requirements(&["RCIP-PROTO-SURF-03", "CL-A03-2"])
            .setup(Setup::new(&notes()).to_json())
            .steps([
                set_context(&["settings"], None),
                list("l1", Some(json!({ "context": "all" }))),
                expect_list("l1", &ALL),
            ]),
            c(
                "context",
                2,
                "context current lists capabilities relevant to the active scopes",
            )
            .requirements(&["RCIP-PROTO-SURF-03", "CL-A03-2", "CL-B16-1"])
            .setup(Setup::new(&notes()).to_json())
            .steps([
                set_context(&["notes"], None),
                list("l1", Some(json!({ "context": "current" }))),
            ])
            .steps(expect_current_list(
                "l1",
                &["notes.list", "notes.create", "notes.delete", "help.show"],
                &["notes.share"],
            )),
            c(
                "context",
                3,
                "context current with no active scope lists unscoped ones only",
            )
            .requirements(&[
                "RCIP-PROTO-SURF-03",
                "CL-A03-2",
                "CL-B16-1",
                "RCIP-PROTO-DEF-05",
            ])
            .setup(Setup::new(&notes()).to_json())
            .steps([
                set_context(&[], None),
                list("l1", Some(json!({ "context": "current" }))),
                expect_list("l1", &["help.show"]),
            ]),
            c("context", 4, "context current follows a context change")
                .requirements(&["RCIP-PROTO-SURF-03", "CL-A03-2", "RCIP-PROTO-SURF-09"])
                .setup(Setup::new(&notes()).to_json())
                .steps([
                    set_context(&["settings"], None),
                    list("l1", Some(json!({ "context": "current" }))),
                    expect_list("l1", &["settings.read", "help.show"]),
                    set_context(&["notes.editor"], None),
                    list("l2", Some(json!({ "context": "current" }))),
                ])
                .steps(expect_current_list(
                    "l2",
                    &["notes.share", "help.show"],
                    &["notes.list", "notes.create", "notes.delete"],
                )),
            c(
                "available-only",
                1,
                "availableOnly lists bound capabilities that are available",
            )
            .requirements(&["RCIP-PROTO-SURF-03", "CL-A03-3", "PRJ-RCIP-SNAP-01"])
            .setup(Setup::new(&notes()).to_json())
            .steps([
                bind("notes.list", "b1", returns(json!({ "items": [] }))),
                bind_avail("notes.create", "b2", returns(created()), unavailable()),
                bind_avail("help.show", "b3", returns(json!({})), available()),
                list("l1", Some(json!({ "availableOnly": true }))),
                expect_list("l1", &["notes.list", "help.show"]),
            ]),
            c(
                "available-only",
                2,
                "availableOnly false lists every capability",
            )
            .requirements(&["RCIP-PROTO-SURF-03", "CL-A03-3"])
            .setup(Setup::new(&notes()).to_json())
            .steps([
                bind_avail("notes.create", "b1", returns(created()), unavailable()),
                list("l1", Some(json!({ "availableOnly": false }))),
                expect_list("l1", &ALL),
            ]),
            c(
                "available-only",
                3,
                "availableOnly follows availability republished by refresh",
            )
            .requirements(&["RCIP-PROTO-SURF-03", "CL-A03-3", "RCIP-PROTO-SURF-10"])
            .setup(Setup::new(&notes()).to_json())
            .steps([
                bind_avail(
                    "notes.list",
                    "b1",
                    returns(json!({ "items": [] })),
                    available(),
                ),
                list("l1", Some(json!({ "availableOnly": true }))),
                expect_list("l1", &["notes.list"]),
                set_availability("b1", unavailable()),
                refresh(),
                list("l2", Some(json!({ "availableOnly": true }))),
                expect_list("l2", &[]),
            ]),
            c(
                "scope",
                1,
                "scopeId lists the capabilities declaring that scope",
            )
            .requirements(&["RCIP-PROTO-SURF-03", "CL-A03-4"])
            .setup(Setup::new(&scoped()).to_json())
            .steps([
                list("l1", Some(json!({ "scopeId": "notes" }))),
                expect_list("l1", &["notes.list", "notes.create", "notes.export"]),
            ]),
            c(
                "scope",
                2,
                "scopeId of a scope no capability declares lists nothing",
            )
            .requirements(&["RCIP-PROTO-SURF-03", "CL-A03-4"])
            .setup(Setup::new(&scoped()).to_json())
            .steps([
                list("l1", Some(json!({ "scopeId": "archive" }))),
                expect_list("l1", &[]),
            ]),
            c(
                "scope",
                3,
                "scopeId filters by declared scopes, not by the active context",
            )
            .requirements(&["RCIP-PROTO-SURF-03", "CL-A03-4"])
            .setup(Setup::new(&scoped()).to_json())
            .steps([
                set_context(&["notes"], None),
                list("l1", Some(json!({ "scopeId": "settings" }))),
                expect_list("l1", &["settings.read", "notes.export"]),
            ]),
            c("effect", 1, "effect read lists the read capabilities")
                .requirements(&["RCIP-PROTO-SURF-03", "CL-A03-5", "RCIP-PROTO-DEF-06"])
                .setup(Setup::new(&notes()).to_json())
                .steps([
                    list("l1", Some(json!({ "effect": "read" }))),
                    expect_list("l1", &["notes.list", "settings.read", "help.show"]),
                ]),
            c(
                "effect",
                2,
                "effect destructive lists the destructive capabilities",
            )
            .requirements(&["RCIP-PROTO-SURF-03", "CL-A03-5"])
            .setup(Setup::new(&notes()).to_json())
            .steps([
                list("l1", Some(json!({ "effect": "destructive" }))),
                expect_list("l1", &["notes.delete"]),
            ]),
            c(
                "effect",
                3,
                "effect write and effect external each list their capability",
            )
            .requirements(&["RCIP-PROTO-SURF-03", "CL-A03-5"])
            .setup(Setup::new(&notes()).to_json())
            .steps([
                list("l1", Some(json!({ "effect": "write" }))),
                expect_list("l1", &["notes.create"]),
                list("l2", Some(json!({ "effect": "external" }))),
                expect_list("l2", &["notes.share"]),
            ]),
            c(
                "combined",
                1,
                "Filters combine: current, available and read together",
            )
            .requirements(&["RCIP-PROTO-SURF-03", "CL-A03-2", "CL-A03-3", "CL-A03-5"])
            .setup(Setup::new(&notes()).to_json())
            .steps([
                set_context(&["notes"], None),
                bind("notes.list", "b1", returns(json!({ "items": [] }))),
                bind("notes.create", "b2", returns(created())),
                bind("settings.read", "b3", returns(json!({}))),
                list(
                    "l1",
                    Some(json!({ "context": "current", "availableOnly": true, "effect": "read" })),
                ),
                expect_list("l1", &["notes.list"]),
            ]),
            c("combined", 2, "Filters combine: scope and effect together")
                .requirements(&["RCIP-PROTO-SURF-03", "CL-A03-4", "CL-A03-5"])
                .setup(Setup::new(&scoped()).to_json())
                .steps([
                    list("l1", Some(json!({ "scopeId": "notes", "effect": "write" }))),
                    expect_list("l1", &["notes.create"]),
                ]),
            c(
                "not-authorization",
                1,
                "A capability outside the current context can still be invoked",
            )
            .requirements(&["RCIP-LIFE-CTX-03", "RCIP-LIFE-CTX-04"])
            .setup(Setup::new(&notes()).policy(allow()).to_json())
            .steps([
                set_context(&["notes"], None),
                bind("settings.read", "b1", returns(json!({ "theme": "dark" }))),
                list("l1", Some(json!({ "context": "current" }))),
            ])
            .steps(expect_current_list(
                "l1",
                &["notes.list", "notes.create", "notes.delete", "help.show"],
                &["notes.share"],
            ))
            .steps([
                invoke("i1", "settings.read", json!({})),
                expect_outcome(
                    "i1",
                    succeeded("i1", "settings.read", json!({ "theme": "dark" })),
                ),
            ]),
            c(
                "not-authorization",
                2,
                "Relevance other does not make the policy deny",
            )
            .requirements(&["RCIP-LIFE-CTX-03", "RCIP-LIFE-CTX-04"])
            .setup(Setup::new(&notes()).policy_gated().to_json())
            .steps([
                set_context(&["settings"], None),
                bind("notes.create", "b1", returns(created())),
                invoke("i1", "notes.create", json!({ "text": "a" })),
                expect_policy_count(1),
                gate_policy(1, ret(allow())),
                expect_outcome("i1", succeeded("i1", "notes.create", created())),
            ]),
        ],
    )
}

/// Scoped capabilities only (no globally relevant or child-scoped ones, whose treatment by
/// `scopeId` neither text decides).
fn scoped() -> Def {
    Def::new("notes-app")
        .scope("notes", None)
        .scope("settings", None)
        .scope("archive", None)
        .cap(Cap::new("notes.list", "read").scopes(&["notes"]))
        .cap(Cap::new("notes.create", "write").scopes(&["notes"]))
        .cap(Cap::new("settings.read", "read").scopes(&["settings"]))
        .cap(Cap::new("notes.export", "external").scopes(&["notes", "settings"]))
}
