//! Section `rcip.definitions`: the application definition of CL-A02 (application, scopes,
//! capabilities with effect, schemas, tags and usage guidance) as the snapshot publishes it
//! (RCIP-PROTO-DEF-01..09, RCIP-PROTO-SNAP-10, CL-A07), and the creation-time configuration errors
//! other than identifier grammar: duplicates, undeclared scopes, blank guidance, invalid examples
//! (CL-B18-5..8), and an effect outside the four (PRJ-RCIP-DEF-01).

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};
use crate::pattern::{absent, of_type, subset, unordered};

const S: &str = "definitions";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

pub fn section() -> Section {
    let mut cases = vec![
        full(),
        optional_members(),
        effects(),
        multiple_scopes(),
        catalog_once(),
        empty_lists(),
        null_values(),
        parent_declared_later(),
    ];
    cases.extend(invalid_definitions());
    cases.extend(valid_guidance());
    make_section(
        S,
        "Application definitions and creation-time configuration errors",
        "definitions",
        cases,
    )
}

fn guidance() -> Value {
    json!({
        "whenToUse": "When the user asks to write down a note",
        "examples": [ { "description": "A short note", "input": { "text": "Buy milk" } } ]
    })
}

/// Every member of CL-A02, echoed by the snapshot.
fn full() -> Case {
    let def = Def::new("notes-app")
        .application(json!({ "id": "notes-app", "name": "Notes", "description": "A notes application", "version": "2.1.0" }))
        .scope("notes", None)
        .scope("notes.editor", Some("notes"))
        .cap(
            Cap::new("notes.create", "write")
                .scopes(&["notes", "notes.editor"])
                .input(create_input_schema())
                .output(create_output_schema())
                .tags(&["notes", "authoring"])
                .usage(guidance()),
        );
    c("full", 1, "Definition with every CL-A02 member is echoed by the snapshot")
        .requirements(&[
            "CL-A02-1", "CL-A02-2", "CL-A02-3", "CL-A02-4", "RCIP-PROTO-DEF-02", "RCIP-PROTO-DEF-03",
            "RCIP-PROTO-DEF-04", "RCIP-PROTO-DEF-06", "RCIP-PROTO-DEF-07", "RCIP-PROTO-DEF-08",
            "RCIP-PROTO-DEF-09", "RCIP-PROTO-SNAP-10", "CL-A07-1", "CL-A07-3", "CL-A01-1", "RCIP-PROTO-VER-03",
        ])
        .setup(Setup::new(&def).to_json())
        .steps([expect_snapshot(
            None,
            subset(json!({
                "protocolVersion": "1.0",
                "application": { "id": "notes-app", "name": "Notes", "description": "A notes application", "version": "2.1.0" },
                "scopes": unordered([
                    json!({ "id": "notes", "title": "Scope notes", "description": "The notes area" }),
                    json!({ "id": "notes.editor", "title": "Scope notes.editor", "description": "The notes.editor area", "parentId": "notes" }),
                ]),
                "capabilities": [subset(json!({
                    "id": "notes.create",
                    "title": "Title of notes.create",
                    "description": "Description of notes.create",
                    "scopeIds": ["notes", "notes.editor"],
                    "effect": "write",
                    "inputSchema": create_input_schema(),
                    "outputSchema": create_output_schema(),
                    "tags": ["notes", "authoring"],
                    "usage": guidance()
                }))]
            })),
        )])
}

/// Optional members may be left out; `tags` is still published (as an array), `usage` is not.
fn optional_members() -> Case {
    let def = single(vec![Cap::new("notes.list", "read").scopes(&["notes"])]);
    c("optional-members", 1, "Definition without version, parentId, tags or usage is accepted")
        .requirements(&["CL-A02-1", "CL-A02-3", "CL-A07-3", "RCIP-PROTO-DEF-08", "RCIP-PROTO-DEF-09"])
        .setup(Setup::new(&def).to_json())
        .steps([
            expect_snapshot(
                None,
                subset(json!({
                    "application": { "id": "notes-app", "name": "Notes", "description": "A notes application" },
                    "capabilities": [subset(json!({ "id": "notes.list", "tags": of_type("array") }))]
                })),
            ),
            expect_snapshot(None, subset(json!({ "capabilities": [subset(json!({ "tags": [], "usage": absent() }))] })))
                .strict(Strictness::Recommended)
                .note("an undeclared tags list is published empty and undeclared usage is not published"),
        ])
}

/// Empty lists are declarations like any other: `tags: []` (CL-A02-3, RCIP-PROTO-DEF-08: tags are
/// optional, so none at all is valid) and `examples: []` (CL-A02-4: examples are optional) make a
/// valid definition, so creation does not throw (none of CL-B18's creation errors applies); the
/// snapshot publishes the empty tags list as declared (CL-A07-3). A check
/// written with `every` where `some` was meant refuses exactly the empty list (found by the
/// StrykerJS run of the JavaScript subject, issue 25 section 3).
fn empty_lists() -> Case {
    let def = single(vec![Cap::new("notes.list", "read")
        .tags(&[])
        .usage(json!({ "whenToUse": "When the user asks for the notes", "examples": [] }))]);
    c("empty-lists", 1, "Empty tags and examples lists are accepted; tags [] is published")
        .requirements(&["CL-A02-3", "CL-A02-4", "RCIP-PROTO-DEF-08", "CL-A07-3"])
        .setup(Setup::new(&def).to_json())
        .steps([expect_snapshot(
            None,
            subset(json!({
                "capabilities": [subset(json!({
                    "id": "notes.list",
                    "tags": [],
                    "usage": subset(json!({ "whenToUse": "When the user asks for the notes" })),
                }))]
            })),
        )])
}

/// A scope may name a parent declared after it: CL-A02-2 gives each scope an optional `parentId`
/// and sets no order on the `scopes` list, and none of CL-B18's creation errors applies (every id is
/// valid and declared, and the parent chain has a root), so creation does not throw and the snapshot
/// publishes both scopes as declared (CL-A07-1, CL-A07-3). A parent check that walks the list in one pass, or
/// a parent-chain walk that looks up the wrong scope, refuses exactly this definition (found by the
/// StrykerJS run of the JavaScript subject, issue 25 section 3).
fn parent_declared_later() -> Case {
    let def = Def::new("notes-app")
        .scope("notes.editor", Some("notes"))
        .scope("notes", None)
        .cap(Cap::new("notes.list", "read").scopes(&["notes.editor"]));
    c("parent-order", 1, "A scope may name a parent declared after it")
        .requirements(&["CL-A02-2", "CL-A07-1", "CL-A07-3"])
        .setup(Setup::new(&def).to_json())
        .steps([expect_snapshot(
            None,
            subset(json!({
                "scopes": unordered([
                    json!({ "id": "notes.editor", "title": "Scope notes.editor", "description": "The notes.editor area", "parentId": "notes" }),
                    json!({ "id": "notes", "title": "Scope notes", "description": "The notes area" }),
                ]),
                "capabilities": [subset(json!({ "id": "notes.list", "scopeIds": ["notes.editor"] }))]
            })),
        )
        .reqs(&["CL-A02-2", "CL-A07-1", "CL-A07-3"])])
}

/// `null` is a JSON value like any other (CL-B13-1): a usage example whose input holds `null` is a
/// valid definition (CL-A02-4), and the snapshot publishes the guidance as declared (CL-A07-3,
/// RCIP-PROTO-DEF-09). A runtime that walks the snapshot to freeze it and treats `null` as an
/// object (`typeof null === 'object'`) throws from `getSnapshot` instead (found by the StrykerJS
/// run of the JavaScript subject, issue 25 section 3).
fn null_values() -> Case {
    let usage = json!({
        "whenToUse": "When the user asks for the notes",
        "examples": [ { "description": "Without a filter", "input": { "filter": null } } ]
    });
    let def = single(vec![Cap::new("notes.list", "read").usage(usage.clone())]);
    c("null-values", 1, "A usage example whose input holds null is accepted and published")
        .requirements(&["CL-A02-4", "CL-B13-1", "RCIP-PROTO-DEF-09", "CL-A07-3"])
        .setup(Setup::new(&def).to_json())
        .steps([expect_snapshot(
            None,
            subset(json!({ "capabilities": [subset(json!({ "id": "notes.list", "usage": usage }))] })),
        )])
}

/// Each of the four effects is accepted and published.
fn effects() -> Case {
    let def = single(vec![
        Cap::new("a.read", "read"),
        Cap::new("a.write", "write"),
        Cap::new("a.external", "external"),
        Cap::new("a.destructive", "destructive"),
    ]);
    c(
        "effects",
        1,
        "Each of read, write, external, destructive is accepted",
    )
    .requirements(&["RCIP-PROTO-DEF-06", "CL-A07-3"])
    .setup(Setup::new(&def).to_json())
    .steps([expect_snapshot(
        None,
        snapshot_caps(
            &def.cap_ids(),
            &[
                ("a.read", json!({ "effect": "read" })),
                ("a.write", json!({ "effect": "write" })),
                ("a.external", json!({ "effect": "external" })),
                ("a.destructive", json!({ "effect": "destructive" })),
            ],
        ),
    )])
}

/// Zero, one or several scopes per capability.
fn multiple_scopes() -> Case {
    let def = Def::new("notes-app")
        .scope("notes", None)
        .scope("settings", None)
        .cap(Cap::new("help.show", "read"))
        .cap(Cap::new("notes.list", "read").scopes(&["notes"]))
        .cap(Cap::new("notes.export", "read").scopes(&["notes", "settings"]));
    c(
        "scopes",
        1,
        "Capabilities with zero, one or two scopes keep their scope lists",
    )
    .requirements(&["RCIP-PROTO-DEF-04", "CL-A02-3", "CL-A07-3"])
    .setup(Setup::new(&def).to_json())
    .steps([expect_snapshot(
        None,
        snapshot_caps(
            &def.cap_ids(),
            &[
                ("help.show", json!({ "scopeIds": [] })),
                ("notes.list", json!({ "scopeIds": ["notes"] })),
                ("notes.export", json!({ "scopeIds": ["notes", "settings"] })),
            ],
        ),
    )])
}

/// The catalog is fixed at creation: binding and unbinding never add or remove entries.
fn catalog_once() -> Case {
    let def = notes();
    let ids = def.cap_ids();
    c(
        "catalog",
        1,
        "Catalog lists every declared capability, bound or not",
    )
    .requirements(&[
        "RCIP-PROTO-DEF-01",
        "RCIP-LIFE-BIND-07",
        "CL-B20-4",
        "RCIP-PROTO-SNAP-01",
    ])
    .setup(Setup::new(&def).policy(allow()).to_json())
    .steps([
        expect_snapshot(None, snapshot_caps(&ids, &[])),
        bind("notes.create", "b1", returns(created())),
        expect_snapshot(
            None,
            snapshot_caps(&ids, &[("notes.create", json!({ "bound": true }))]),
        ),
        unbind("b1"),
        expect_snapshot(
            None,
            snapshot_caps(&ids, &[("notes.create", json!({ "bound": false }))]),
        ),
    ])
}

/// Definitions whose creation must throw a host configuration error.
fn invalid_definitions() -> Vec<Case> {
    let throws = |def: &Def| Setup::new(def).creation("throws").to_json();
    let dup_caps = single(vec![
        Cap::new("notes.list", "read"),
        Cap::new("notes.list", "write"),
    ]);
    let dup_scopes = Def::new("notes-app")
        .scope("notes", None)
        .scope("notes", None)
        .cap(Cap::new("notes.list", "read"));
    let undeclared = single(vec![Cap::new("notes.list", "read").scopes(&["archive"])]);
    let undeclared_second = single(vec![
        Cap::new("notes.list", "read").scopes(&["notes", "archive"])
    ]);
    let with_usage = |usage: Value| {
        single(vec![Cap::new("notes.create", "write")
            .input(create_input_schema())
            .output(create_output_schema())
            .usage(usage)])
    };
    let blank_empty = with_usage(json!({ "whenToUse": "" }));
    let blank_spaces = with_usage(json!({ "whenToUse": "   \t " }));
    let bad_example = |input: Value| {
        with_usage(
            json!({ "whenToUse": "To write a note", "examples": [ { "description": "An example", "input": input } ] }),
        )
    };
    let bad_effect = single(vec![Cap::new("notes.list", "delete")]);
    vec![
        c(
            "duplicate-capability",
            1,
            "Two capabilities with one id make creation throw",
        )
        .requirements(&["CL-B18-5"])
        .setup(throws(&dup_caps)),
        c(
            "duplicate-scope",
            1,
            "Two scopes with one id make creation throw",
        )
        .requirements(&["CL-B18-5"])
        .setup(throws(&dup_scopes)),
        c(
            "undeclared-scope",
            1,
            "A capability citing an undeclared scope makes creation throw",
        )
        .requirements(&["CL-B18-6"])
        .setup(throws(&undeclared)),
        c(
            "undeclared-scope",
            2,
            "An undeclared scope after a declared one makes creation throw",
        )
        .requirements(&["CL-B18-6"])
        .setup(throws(&undeclared_second)),
        c(
            "blank-guidance",
            1,
            "Usage guidance with an empty whenToUse makes creation throw",
        )
        .requirements(&["CL-B18-7", "RCIP-PROTO-DEF-09"])
        .setup(throws(&blank_empty)),
        c(
            "blank-guidance",
            2,
            "Usage guidance with a whitespace whenToUse makes creation throw",
        )
        .requirements(&["CL-B18-7", "RCIP-PROTO-DEF-09"])
        .setup(throws(&blank_spaces)),
        c(
            "invalid-example",
            1,
            "A usage example of the wrong type makes creation throw",
        )
        .requirements(&["CL-B18-8", "RCIP-PROTO-DEF-09", "RCIP-LIFE-SCHEMA-08"])
        .setup(throws(&bad_example(json!({ "text": 42 })))),
        c(
            "invalid-example",
            2,
            "A usage example missing a required member makes creation throw",
        )
        .requirements(&["CL-B18-8", "RCIP-PROTO-DEF-09", "RCIP-LIFE-SCHEMA-08"])
        .setup(throws(&bad_example(json!({})))),
        c(
            "invalid-example",
            3,
            "A usage example with a forbidden extra member makes creation throw",
        )
        .requirements(&["CL-B18-8", "RCIP-PROTO-DEF-09", "RCIP-LIFE-SCHEMA-08"])
        .setup(throws(&bad_example(json!({ "text": "a", "pinned": true })))),
        c(
            "invalid-effect",
            1,
            "An effect outside the four makes creation throw",
        )
        .requirements(&["PRJ-RCIP-DEF-01", "RCIP-PROTO-DEF-06"])
        .strictness(Strictness::Recommended)
        .setup(throws(&bad_effect)),
    ]
}

/// Guidance that is valid: with and without examples.
fn valid_guidance() -> Vec<Case> {
    let with_examples = single(vec![Cap::new("notes.create", "write")
        .input(create_input_schema())
        .output(create_output_schema())
        .usage(guidance())]);
    let no_examples = single(vec![Cap::new("notes.create", "write")
        .input(create_input_schema())
        .output(create_output_schema())
        .usage(json!({ "whenToUse": "When the user dictates a note" }))]);
    vec![
        c("guidance", 1, "Guidance with a schema-valid example is accepted and published")
            .requirements(&["CL-B18-8", "RCIP-PROTO-DEF-09", "RCIP-PROTO-SNAP-10", "CL-A02-4"])
            .setup(Setup::new(&with_examples).to_json())
            .steps([expect_snapshot(None, subset(json!({ "capabilities": [subset(json!({ "usage": guidance() }))] })))]),
        c("guidance", 2, "Guidance without examples is accepted and published")
            .requirements(&["CL-B18-7", "RCIP-PROTO-DEF-09", "CL-A02-4"])
            .setup(Setup::new(&no_examples).to_json())
            .steps([expect_snapshot(
                None,
                subset(json!({ "capabilities": [subset(json!({ "usage": subset(json!({ "whenToUse": "When the user dictates a note" })) }))] })),
            )]),
    ]
}
