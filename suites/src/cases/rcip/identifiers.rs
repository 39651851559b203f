//! Section `rcip.identifiers`: the identifier grammar of RCIP-PROTO-ID-01..04 and CL-B18-1..4 for
//! application, scope and capability ids: valid ids are accepted and published verbatim, invalid
//! ids make creation throw (CL-B18-5), ids are case-sensitive, and the IMPL-DEFINED runs of
//! capitals or digits (CL-B18-9) are accepted or rejected at creation. Cases about id syntax give
//! the application, its scope and its capabilities distinct ids; whether ids of different kinds
//! share one namespace is IMPL-DEFINED (PRJ-RCIP-ID-01) and has its own cases (`shared-namespace`).

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};
use crate::pattern::{subset, unordered};

const S: &str = "identifiers";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

pub fn section() -> Section {
    let mut cases = Vec::new();
    cases.extend(valid_capability_ids());
    cases.extend(invalid_capability_ids());
    cases.extend(scope_and_application_ids());
    cases.extend(case_sensitivity());
    cases.extend(impl_defined());
    cases.extend(shared_namespace());
    make_section(S, "Identifier grammar", "identifiers", cases)
}

/// Valid ids and the requirement each one exercises beyond "starts with a lowercase letter".
const VALID: [(&str, &str, &str); 8] = [
    (
        "a",
        "A single lowercase letter is a valid capability id",
        "RCIP-PROTO-ID-01",
    ),
    (
        "notes",
        "A lowercase word is a valid capability id",
        "RCIP-PROTO-ID-01",
    ),
    (
        "polls.prepareCreate",
        "A dotted lower-camel id (polls.prepareCreate) is valid",
        "RCIP-PROTO-ID-03",
    ),
    (
        "notes_list",
        "An underscore followed by a lowercase letter is valid",
        "RCIP-PROTO-ID-02",
    ),
    (
        "notes-list",
        "A hyphen followed by a lowercase letter is valid",
        "RCIP-PROTO-ID-02",
    ),
    (
        "a.b.c",
        "Several single-letter segments separated by dots are valid",
        "CL-B18-2",
    ),
    (
        "notes.list_all-items",
        "Mixed dot, underscore and hyphen separators are valid",
        "CL-B18-2",
    ),
    (
        "ui.openEditorPanel",
        "Several lower-camel humps in one segment are valid",
        "RCIP-PROTO-ID-03",
    ),
];

fn valid_capability_ids() -> Vec<Case> {
    VALID
        .iter()
        .enumerate()
        .map(|(i, (id, description, requirement))| {
            let def = distinct_kinds(Cap::new(id, "read"));
            c("capability-valid", i as u32 + 1, description)
                .requirements(&["CL-B18-1", "CL-B18-3", requirement])
                .setup(Setup::new(&def).policy(allow()).to_json())
                .steps([
                    expect_snapshot(
                        None,
                        subset(json!({ "capabilities": [subset(json!({ "id": id }))] })),
                    ),
                    bind(id, "b1", returns(json!({}))),
                    invoke("i1", id, json!({})),
                    expect_outcome("i1", succeeded("i1", id, json!({}))),
                ])
        })
        .collect()
}

/// One capability in an application and a scope whose ids differ from every capability id used
/// here, so a case about id syntax does not depend on whether ids of different kinds share one
/// namespace (PRJ-RCIP-ID-01).
fn distinct_kinds(cap: Cap) -> Def {
    Def::new("id-grammar").scope("id-area", None).cap(cap)
}

/// Invalid capability ids: creation throws.
const INVALID: [(&str, &str, &str); 18] = [
    (
        "Notes",
        "An id starting with a capital letter is rejected",
        "RCIP-PROTO-ID-01",
    ),
    (
        "1notes",
        "An id starting with a digit is rejected",
        "RCIP-PROTO-ID-01",
    ),
    (
        "_notes",
        "An id starting with an underscore is rejected",
        "RCIP-PROTO-ID-01",
    ),
    (
        "-notes",
        "An id starting with a hyphen is rejected",
        "RCIP-PROTO-ID-01",
    ),
    (
        ".notes",
        "An id starting with a dot is rejected",
        "RCIP-PROTO-ID-01",
    ),
    ("", "An empty id is rejected", "RCIP-PROTO-ID-01"),
    (
        "notes.",
        "An id ending with a dot is rejected",
        "RCIP-PROTO-ID-02",
    ),
    (
        "notes-",
        "An id ending with a hyphen is rejected",
        "RCIP-PROTO-ID-02",
    ),
    (
        "notes..list",
        "Two dots in a row are rejected",
        "RCIP-PROTO-ID-02",
    ),
    (
        "notes._list",
        "A dot followed by an underscore is rejected",
        "RCIP-PROTO-ID-02",
    ),
    (
        "notes.List",
        "A dot followed by a capital letter is rejected",
        "RCIP-PROTO-ID-02",
    ),
    (
        "notes_1list",
        "An underscore followed by a digit is rejected",
        "RCIP-PROTO-ID-02",
    ),
    ("notes list", "A space inside an id is rejected", "CL-B18-3"),
    ("notes/list", "A slash inside an id is rejected", "CL-B18-3"),
    ("notes:list", "A colon inside an id is rejected", "CL-B18-3"),
    (
        "not\u{e9}s",
        "A non-ASCII letter inside an id is rejected",
        "CL-B18-3",
    ),
    // Issue 25 zoo (identifier-trimmed): an id checked after trimming. The first character is
    // a space, not a lowercase letter; the last one is a space, not a segment character.
    (
        " notes.list",
        "An id starting with a space is rejected",
        "RCIP-PROTO-ID-01",
    ),
    (
        "notes.list ",
        "An id ending with a space is rejected",
        "CL-B18-3",
    ),
];

fn invalid_capability_ids() -> Vec<Case> {
    INVALID
        .iter()
        .enumerate()
        .map(|(i, (id, description, requirement))| {
            let def = single(vec![Cap::new(id, "read")]);
            c("capability-invalid", i as u32 + 1, description)
                .requirements(&["CL-B18-5", requirement])
                .setup(Setup::new(&def).creation("throws").to_json())
        })
        .collect()
}

/// A setup of `def` whose application id is `id`, a value that is not a string (CL-B18-1 starts
/// an id with a lowercase letter, so no other value is one): creation throws.
fn with_application_id(def: &Def, id: Value) -> Value {
    let mut setup = Setup::new(def).creation("throws").to_json();
    setup["definition"]["application"]["id"] = id;
    setup
}

/// The grammar applies to application and scope ids as well (CL-B18-1).
fn scope_and_application_ids() -> Vec<Case> {
    let app = |id: &str| {
        Def::new(id)
            .scope("notes", None)
            .cap(Cap::new("notes.list", "read"))
    };
    let scope = |id: &str| {
        Def::new("notes-app")
            .scope(id, None)
            .cap(Cap::new("notes.list", "read"))
    };
    let valid_scope = Def::new("notes-app")
        .scope("notes.editor_main-panel", None)
        .cap(Cap::new("notes.list", "read").scopes(&["notes.editor_main-panel"]));
    vec![
        c(
            "application-invalid",
            1,
            "An application id starting with a capital letter is rejected",
        )
        .requirements(&["CL-B18-1", "CL-B18-5", "RCIP-PROTO-ID-01"])
        .setup(Setup::new(&app("Notes")).creation("throws").to_json()),
        c(
            "application-invalid",
            2,
            "An application id with a dot before a digit is rejected",
        )
        .requirements(&["CL-B18-2", "CL-B18-5", "RCIP-PROTO-ID-02"])
        .setup(Setup::new(&app("notes.2")).creation("throws").to_json()),
        c("application-not-string", 1, "A null application id is rejected at creation")
            .requirements(&["CL-B18-1", "CL-B18-5", "RCIP-PROTO-ID-01"])
            .setup(with_application_id(&app("notes"), json!(null))),
        c("application-not-string", 2, "An undefined application id is rejected at creation")
            .requirements(&["CL-B18-1", "CL-B18-5", "RCIP-PROTO-ID-01"])
            .setup(with_application_id(&app("notes"), crate::pattern::escape::undefined())),
        c("application-not-string", 3, "A numeric application id is rejected at creation")
            .requirements(&["CL-B18-1", "CL-B18-5", "RCIP-PROTO-ID-01"])
            .setup(with_application_id(&app("notes"), json!(7))),
        c(
            "application-valid",
            1,
            "A dotted lower-camel application id is accepted",
        )
        .requirements(&["CL-B18-1", "RCIP-PROTO-ID-03"])
        .setup(Setup::new(&app("acme.notesApp")).to_json())
        .steps([expect_snapshot(
            None,
            subset(json!({ "application": subset(json!({ "id": "acme.notesApp" })) })),
        )]),
        c(
            "scope-invalid",
            1,
            "A scope id starting with a digit is rejected",
        )
        .requirements(&["CL-B18-1", "CL-B18-5", "RCIP-PROTO-ID-01"])
        .setup(Setup::new(&scope("9notes")).creation("throws").to_json()),
        c(
            "scope-invalid",
            2,
            "A scope id with a hyphen before a capital is rejected",
        )
        .requirements(&["CL-B18-2", "CL-B18-5", "RCIP-PROTO-ID-02"])
        .setup(
            Setup::new(&scope("notes-Editor"))
                .creation("throws")
                .to_json(),
        ),
        c(
            "scope-invalid",
            3,
            "A scope id with a trailing underscore is rejected",
        )
        .requirements(&["CL-B18-2", "CL-B18-5", "RCIP-PROTO-ID-02"])
        .setup(Setup::new(&scope("notes_")).creation("throws").to_json()),
        c(
            "scope-valid",
            1,
            "A scope id with all three separators is accepted",
        )
        .requirements(&["CL-B18-1", "CL-B18-2", "RCIP-PROTO-ID-02"])
        .setup(Setup::new(&valid_scope).to_json())
        .steps([expect_snapshot(
            None,
            subset(json!({
                "scopes": [subset(json!({ "id": "notes.editor_main-panel" }))],
                "capabilities": [subset(json!({ "scopeIds": ["notes.editor_main-panel"] }))]
            })),
        )]),
    ]
}

/// Ids differing only in case are different ids.
fn case_sensitivity() -> Vec<Case> {
    let def = single(vec![
        Cap::new("notes.openEditor", "read"),
        Cap::new("notes.openeditor", "read"),
    ]);
    let one = single(vec![Cap::new("notes.openEditor", "read")]);
    vec![
        c(
            "case-sensitive",
            1,
            "Ids differing only in letter case are distinct capabilities",
        )
        .requirements(&["RCIP-PROTO-ID-04", "CL-B18-4"])
        .setup(Setup::new(&def).policy(allow()).to_json())
        .steps([
            expect_snapshot(
                None,
                subset(json!({ "capabilities": unordered([
                        subset(json!({ "id": "notes.openEditor" })),
                        subset(json!({ "id": "notes.openeditor" })),
                    ]) })),
            ),
            bind(
                "notes.openEditor",
                "b1",
                returns(json!({ "which": "camel" })),
            ),
            bind(
                "notes.openeditor",
                "b2",
                returns(json!({ "which": "lower" })),
            ),
            invoke("i1", "notes.openeditor", json!({})),
            expect_outcome(
                "i1",
                succeeded("i1", "notes.openeditor", json!({ "which": "lower" })),
            ),
            invoke("i2", "notes.openEditor", json!({})),
            expect_outcome(
                "i2",
                succeeded("i2", "notes.openEditor", json!({ "which": "camel" })),
            ),
        ]),
        c(
            "case-sensitive",
            2,
            "Invoking an id in another letter case finds no capability",
        )
        .requirements(&["RCIP-PROTO-ID-04", "CL-B18-4", "RCIP-PROTO-LIFE-01"])
        .setup(Setup::new(&one).policy(allow()).to_json())
        .steps([
            bind("notes.openEditor", "b1", returns(json!({}))),
            invoke("i1", "notes.openeditor", json!({})),
            expect_outcome(
                "i1",
                failed("i1", "notes.openeditor", "CAPABILITY_NOT_FOUND"),
            ),
            expect_handler_count(None, 0),
        ]),
    ]
}

/// CL-B18-9: runs of capitals or digits inside a segment may be accepted or rejected; when the
/// runtime accepts them it publishes the id verbatim and the capability works.
fn impl_defined() -> Vec<Case> {
    let ids = [
        (
            "notes.getURL",
            "A run of capitals (getURL) is accepted or rejected at creation",
        ),
        (
            "api.v2beta",
            "A digit inside a segment (v2beta) is accepted or rejected at creation",
        ),
        (
            "notes2",
            "A trailing digit in a segment is accepted or rejected at creation",
        ),
        (
            "notes.exportAsPDF",
            "A trailing run of capitals is accepted or rejected at creation",
        ),
    ];
    ids.iter()
        .enumerate()
        .map(|(i, (id, description))| {
            let def = single(vec![Cap::new(id, "read")]);
            c("impl-defined", i as u32 + 1, description)
                .requirements(&["CL-B18-9"])
                .strictness(Strictness::ImplDefined)
                .setup(Setup::new(&def).policy(allow()).creation("may-throw").to_json())
                .notes("creation may throw (CL-B18-9); when it does not, the id must work like any other")
                .steps([
                    expect_snapshot(None, subset(json!({ "capabilities": [subset(json!({ "id": id }))] }))),
                    bind(id, "b1", returns(json!({}))),
                    invoke("i1", id, json!({})),
                    expect_outcome("i1", succeeded("i1", id, json!({}))),
                ])
        })
        .collect()
}

/// A capability whose id is also a scope's or the application's: CL-B18-5 makes a duplicate id a
/// configuration error without saying whether ids of different kinds share one namespace, so
/// creation may throw (PRJ-RCIP-ID-01); when it does not, the capability works like any other.
fn shared_namespace() -> Vec<Case> {
    let cases = [
        (
            Def::new("notes-app")
                .scope("notes", None)
                .cap(Cap::new("notes", "read").scopes(&["notes"])),
            "A capability id equal to a scope id is accepted or refused",
        ),
        (
            Def::new("notes")
                .scope("area", None)
                .cap(Cap::new("notes", "read")),
            "A capability id equal to the application id is accepted or refused",
        ),
    ];
    cases
        .into_iter()
        .enumerate()
        .map(|(i, (def, description))| {
            c("shared-namespace", i as u32 + 1, description)
                .requirements(&["PRJ-RCIP-ID-01", "CL-B18-5"])
                .strictness(Strictness::ImplDefined)
                .setup(Setup::new(&def).policy(allow()).creation("may-throw").to_json())
                .notes("creation may throw (PRJ-RCIP-ID-01); when it does not, the capability must work like any other")
                .steps([
                    expect_snapshot(None, subset(json!({ "capabilities": [subset(json!({ "id": "notes" }))] }))),
                    bind("notes", "b1", returns(json!({}))),
                    invoke("i1", "notes", json!({})),
                    expect_outcome("i1", succeeded("i1", "notes", json!({}))),
                ])
        })
        .collect()
}
