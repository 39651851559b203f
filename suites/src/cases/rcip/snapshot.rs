//! Section `rcip.snapshot`: the live snapshot (RCIP-PROTO-SNAP-01..10, CL-A07, CL-B15..B17):
//! revision rules and identity until the revision changes, availability as of the last refresh
//! while invoke checks live, deep immutability through the consumer's object, bound / available /
//! relevance as independent facts, relevance from the active context (scope hierarchy ignored,
//! RECOMMENDED), and redaction (REQUIRED, CL-B17 as revised: a capability's availability holds
//! only available, reason, reasonCode; never handlers, confirmation ids or policy data).

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};
use crate::pattern::{absent, one_of, present, subset};

const S: &str = "snapshot";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

pub fn section() -> Section {
    let mut cases = Vec::new();
    cases.extend(shape());
    cases.extend(revisions());
    cases.extend(identity());
    cases.extend(cached_availability());
    cases.extend(immutability());
    cases.extend(facts());
    cases.extend(relevance());
    cases.extend(redaction());
    make_section(S, "The live snapshot", "snapshot", cases)
}

fn ids() -> Vec<String> {
    notes().cap_ids()
}

fn shape() -> Vec<Case> {
    let entry = json!({
        "id": present(), "title": present(), "description": present(), "scopeIds": present(), "effect": present(),
        "inputSchema": present(), "outputSchema": present(), "tags": present(), "bound": present(),
        "available": present(), "relevance": present()
    });
    let def = single(vec![Cap::new("notes.list", "read").scopes(&["notes"])]);
    vec![c(
        "shape",
        1,
        "Snapshot carries every CL-A07 member, protocolVersion 1.0",
    )
    .requirements(&[
        "CL-A07-1",
        "CL-A07-2",
        "CL-A07-3",
        "CL-A07-4",
        "CL-A03-1",
        "RCIP-PROTO-SURF-01",
        "RCIP-PROTO-SURF-02",
        "RCIP-PROTO-VER-03",
        "CL-A01-1",
        "RCIP-PROTO-SNAP-01",
    ])
    .setup(Setup::new(&def).to_json())
    .steps([
        set_context(&["notes"], Some("notes")),
        bind("notes.list", "b1", returns(json!({}))),
        expect_snapshot(
            None,
            subset(json!({
                "protocolVersion": "1.0",
                "revision": crate::pattern::of_type("integer"),
                "application": subset(json!({ "id": "notes-app" })),
                "scopes": [subset(json!({ "id": "notes" }))],
                "context": { "activeScopeIds": ["notes"], "primaryScopeId": "notes" },
                "capabilities": [subset(entry)]
            })),
        ),
    ])]
}

/// Revision rules of CL-B15: strictly increasing on bind, effective unbind, refresh and success.
fn revisions() -> Vec<Case> {
    let setup = || Setup::new(&notes()).policy(allow()).to_json();
    vec![
        c(
            "revision-bind",
            1,
            "Binding a capability increases the revision",
        )
        .requirements(&["CL-B15-1", "RCIP-PROTO-SNAP-01"])
        .setup(setup())
        .steps([
            get_snapshot("s1"),
            bind("notes.list", "b1", returns(json!({ "items": [] }))),
            get_snapshot("s2"),
            expect_relation("s1", "s2", false, "greater"),
        ]),
        c(
            "revision-unbind",
            1,
            "An effective unbind increases the revision",
        )
        .requirements(&["CL-B15-2"])
        .setup(setup())
        .steps([
            bind("notes.list", "b1", returns(json!({ "items": [] }))),
            get_snapshot("s1"),
            unbind("b1"),
            get_snapshot("s2"),
            expect_relation("s1", "s2", false, "greater"),
        ]),
        // CL-B20-3 makes an unbind function idempotent: a second call has no effect beyond the
        // first's, so the revision (published state, observed by listeners) stays where the
        // first call left it, and CL-B15-5 then keeps the very snapshot object. REQUIRED: the
        // sentence is; this case was RECOMMENDED before issue 25 with no reason recorded.
        c(
            "revision-unbind",
            2,
            "A repeated unbind changes nothing, not even the revision",
        )
        .requirements(&["CL-B20-3", "CL-B15-5"])
        .setup(setup())
        .steps([
            bind("notes.list", "b1", returns(json!({ "items": [] }))),
            unbind("b1"),
            get_snapshot("s1"),
            subscribe("sub1", "records"),
            unbind("b1"),
            get_snapshot("s2"),
            expect_relation("s1", "s2", true, "equal").reqs(&["CL-B20-3", "CL-B15-5"]),
            expect_notifications("sub1", notifications_after_subscribe(0))
                .reqs(&["CL-B20-3"])
                .note("no new revision, so nothing for a listener to observe"),
        ]),
        // CL-B20-2: "a stale unbind after a rebind does nothing": not the newer binding's
        // removal (rcip.binding.stale-unbind.001), and no revision either.
        c(
            "revision-unbind",
            3,
            "A stale unbind after a rebind changes nothing, not even the revision",
        )
        .requirements(&["CL-B20-2", "CL-B15-5"])
        .setup(setup())
        .steps([
            bind("notes.list", "b1", returns(json!({ "items": [] }))),
            unbind("b1"),
            bind("notes.list", "b2", returns(json!({ "items": [] }))),
            get_snapshot("s1"),
            subscribe("sub1", "records"),
            unbind("b1"),
            get_snapshot("s2"),
            expect_relation("s1", "s2", true, "equal").reqs(&["CL-B20-2", "CL-B15-5"]),
            expect_notifications("sub1", notifications_after_subscribe(0))
                .reqs(&["CL-B20-2"])
                .note("no new revision, so nothing for a listener to observe"),
            unbind("b1").note("and again: still stale"),
            get_snapshot("s3"),
            expect_relation("s1", "s3", true, "equal").reqs(&["CL-B20-2", "CL-B20-3", "CL-B15-5"]),
        ]),
        c("revision-refresh", 1, "refresh increases the revision")
            .requirements(&["CL-B15-3", "RCIP-PROTO-SURF-10", "CL-A04-9"])
            .setup(setup())
            .steps([
                get_snapshot("s1"),
                refresh(),
                get_snapshot("s2"),
                expect_relation("s1", "s2", false, "greater"),
            ]),
        c(
            "revision-refresh",
            2,
            "Each of two refreshes increases the revision again",
        )
        .requirements(&["CL-B15-3"])
        .setup(setup())
        .steps([
            refresh(),
            get_snapshot("s1"),
            refresh(),
            get_snapshot("s2"),
            expect_relation("s1", "s2", false, "greater"),
        ]),
        c(
            "revision-success",
            1,
            "A successful invocation increases the revision",
        )
        .requirements(&["CL-B15-4", "RCIP-PROTO-LIFE-10"])
        .setup(setup())
        .steps([
            bind("notes.list", "b1", returns(json!({ "items": [] }))),
            get_snapshot("s1"),
            invoke("i1", "notes.list", json!({})),
            expect_outcome("i1", succeeded("i1", "notes.list", json!({ "items": [] }))).reqs(RUNS_AND_SUCCEEDS),
            get_snapshot("s2"),
            expect_relation("s1", "s2", false, "greater"),
        ]),
        c(
            "revision-failure",
            1,
            "A failed invocation leaves the snapshot unchanged",
        )
        .requirements(&["CL-B15-8"])
        .strictness(Strictness::Recommended)
        .setup(setup())
        .steps([
            bind("notes.create", "b1", returns(created())),
            get_snapshot("s1"),
            invoke("i1", "notes.create", json!({ "text": 1 })),
            expect_outcome("i1", failed("i1", "notes.create", "INPUT_INVALID"))
                .strict(Strictness::Required)
                .reqs(&["RCIP-PROTO-LIFE-04"]),
            get_snapshot("s2"),
            expect_relation("s1", "s2", true, "equal"),
        ]),
        c(
            "revision-failure",
            2,
            "A denied invocation leaves the snapshot unchanged",
        )
        .requirements(&["CL-B15-8"])
        .strictness(Strictness::Recommended)
        .setup(Setup::new(&notes()).policy(deny()).to_json())
        .steps([
            bind("notes.create", "b1", returns(created())),
            get_snapshot("s1"),
            invoke("i1", "notes.create", json!({ "text": "a" })),
            expect_outcome("i1", denied("i1", "notes.create", "POLICY_DENIED"))
                .strict(Strictness::Required)
                .reqs(&["CL-A05-3"]),
            get_snapshot("s2"),
            expect_relation("s1", "s2", true, "equal"),
        ]),
        c(
            "revision-failure",
            3,
            "A handler failure leaves the snapshot unchanged",
        )
        .requirements(&["CL-B15-8"])
        .strictness(Strictness::Recommended)
        .setup(setup())
        .steps([
            bind("notes.create", "b1", throws()),
            get_snapshot("s1"),
            invoke("i1", "notes.create", json!({ "text": "a" })),
            expect_outcome("i1", failed("i1", "notes.create", "EXECUTION_FAILED"))
                .strict(Strictness::Required)
                .reqs(&["CL-B12-2"]),
            get_snapshot("s2"),
            expect_relation("s1", "s2", true, "equal"),
        ]),
        c(
            "revision-context",
            1,
            "A changed context publishes a new snapshot with it",
        )
        .requirements(&[
            "PRJ-RCIP-SNAP-02",
            "RCIP-PROTO-SURF-09",
            "CL-A04-8",
            "RCIP-PROTO-SNAP-01",
        ])
        .setup(setup())
        .steps([
            set_context(&["settings"], None),
            get_snapshot("s1"),
            set_context(&["notes"], None),
            get_snapshot("s2"),
            expect_relation("s1", "s2", false, "greater"),
            expect_snapshot(
                Some("s2"),
                subset(json!({ "context": subset(json!({ "activeScopeIds": ["notes"] })) })),
            ),
        ]),
        c(
            "revision-context",
            2,
            "Re-publishing an identical context may or may not bump",
        )
        .requirements(&["CL-B15-9"])
        .strictness(Strictness::ImplDefined)
        .setup(setup())
        .steps([
            set_context(&["notes"], Some("notes")),
            get_snapshot("s1"),
            set_context(&["notes"], Some("notes")),
            get_snapshot("s2"),
            expect_relation_is(
                "s1",
                "s2",
                one_of([
                    json!({ "identical": true, "revision": "equal" }),
                    json!({ "identical": false, "revision": "greater" }),
                ]),
            ),
        ]),
    ]
}

/// CL-B15-5, RCIP-LIFE-AVAIL-04: the same object until the revision changes.
fn identity() -> Vec<Case> {
    vec![
        c(
            "identity",
            1,
            "Two getSnapshot calls with no change return the same object",
        )
        .requirements(&["CL-B15-5", "RCIP-LIFE-AVAIL-04", "CL-A03-1"])
        .setup(Setup::new(&notes()).to_json())
        .steps([
            get_snapshot("s1"),
            get_snapshot("s2"),
            expect_relation("s1", "s2", true, "equal"),
        ]),
        c(
            "identity",
            2,
            "Listing and subscribing do not replace the snapshot",
        )
        .requirements(&["CL-B15-5", "RCIP-LIFE-AVAIL-04"])
        .setup(Setup::new(&notes()).to_json())
        .steps([
            bind("notes.list", "b1", returns(json!({ "items": [] }))),
            get_snapshot("s1"),
            list("l1", None),
            subscribe("sub1", "records"),
            list(
                "l2",
                Some(json!({ "context": "current", "availableOnly": true })),
            ),
            get_snapshot("s2"),
            expect_relation("s1", "s2", true, "equal"),
        ]),
        c(
            "identity",
            3,
            "Availability changes without refresh keep the same snapshot",
        )
        .requirements(&[
            "CL-B15-5",
            "CL-B15-6",
            "RCIP-LIFE-AVAIL-03",
            "RCIP-LIFE-AVAIL-04",
        ])
        .setup(Setup::new(&notes()).to_json())
        .steps([
            bind_avail(
                "notes.list",
                "b1",
                returns(json!({ "items": [] })),
                available(),
            ),
            get_snapshot("s1"),
            set_availability("b1", unavailable()),
            get_snapshot("s2"),
            expect_relation("s1", "s2", true, "equal"),
        ]),
    ]
}

/// CL-B15-6/7, RCIP-LIFE-AVAIL-03, RCIP-PROTO-SURF-10: cached availability, live invoke check.
fn cached_availability() -> Vec<Case> {
    let list_out = json!({ "items": [] });
    vec![
        c(
            "cached-availability",
            1,
            "Snapshot keeps old availability until refresh, invoke checks live",
        )
        .requirements(&[
            "CL-B15-6",
            "CL-B15-7",
            "RCIP-LIFE-AVAIL-03",
            "RCIP-PROTO-SURF-10",
            "RCIP-PROTO-LIFE-03",
        ])
        .setup(Setup::new(&notes()).policy(allow()).to_json())
        .steps([
            bind_avail("notes.list", "b1", returns(list_out.clone()), available()),
            set_availability("b1", unavailable()),
            expect_snapshot(
                None,
                snapshot_caps(&ids(), &[("notes.list", json!({ "available": true }))]),
            ),
            invoke("i1", "notes.list", json!({})),
            expect_outcome("i1", failed("i1", "notes.list", "CAPABILITY_UNAVAILABLE")),
            refresh(),
            expect_snapshot(
                None,
                snapshot_caps(&ids(), &[("notes.list", json!({ "available": false }))]),
            ),
        ]),
        c(
            "cached-availability",
            2,
            "An invocation succeeds on live availability the snapshot lacks",
        )
        .requirements(&["CL-B15-6", "CL-B15-7", "RCIP-LIFE-AVAIL-03"])
        .setup(Setup::new(&notes()).policy(allow()).to_json())
        .steps([
            bind_avail("notes.list", "b1", returns(list_out.clone()), unavailable()),
            set_availability("b1", available()),
            expect_snapshot(
                None,
                snapshot_caps(&ids(), &[("notes.list", json!({ "available": false }))]),
            ),
            invoke("i1", "notes.list", json!({})),
            expect_outcome("i1", succeeded("i1", "notes.list", list_out.clone())),
        ]),
        c(
            "cached-availability",
            3,
            "The refresh after a success republishes live availability",
        )
        .requirements(&["RCIP-PROTO-LIFE-10", "RCIP-PROTO-SURF-10", "CL-B15-4"])
        .setup(Setup::new(&notes()).policy(allow()).to_json())
        .steps([
            bind_avail("notes.list", "b1", returns(list_out.clone()), available()),
            bind("help.show", "b2", returns(json!({}))),
            set_availability("b1", unavailable()),
            invoke("i1", "help.show", json!({})),
            expect_outcome("i1", succeeded("i1", "help.show", json!({}))).reqs(RUNS_AND_SUCCEEDS),
            expect_snapshot(
                None,
                snapshot_caps(&ids(), &[("notes.list", json!({ "available": false }))]),
            ),
        ]),
    ]
}

/// CL-B14-3, RCIP-LIFE-AVAIL-04: mutating the consumer's object changes nothing.
fn immutability() -> Vec<Case> {
    let titles: Vec<(&str, Value)> = vec![
        ("notes.list", json!({ "title": "Title of notes.list" })),
        ("notes.create", json!({ "title": "Title of notes.create" })),
        ("notes.delete", json!({ "title": "Title of notes.delete" })),
        ("notes.share", json!({ "title": "Title of notes.share" })),
        (
            "settings.read",
            json!({ "title": "Title of settings.read" }),
        ),
        ("help.show", json!({ "title": "Title of help.show" })),
    ];
    let reqs = ["CL-B14-3", "RCIP-LIFE-AVAIL-04", "RCIP-PROTO-LIFE-12"];
    vec![
        c("immutable", 1, "Writing a capability title through a snapshot changes nothing")
            .requirements(&reqs)
            .setup(Setup::new(&notes()).to_json())
            .steps([
                get_snapshot("s1"),
                mutate_snapshot("s1", "/capabilities/0/title", json!("Hijacked")),
                expect_snapshot(Some("s1"), snapshot_caps(&ids(), &titles)),
                refresh(),
                expect_snapshot(None, snapshot_caps(&ids(), &titles)),
            ]),
        c("immutable", 2, "Writing the revision through a snapshot does not move it")
            .requirements(&reqs)
            .setup(Setup::new(&notes()).to_json())
            .steps([
                get_snapshot("s1"),
                mutate_snapshot("s1", "/revision", json!(1_000_000_000)),
                refresh(),
                get_snapshot("s2"),
                expect_relation("s1", "s2", false, "greater")
                    .note("had the write landed, s1 would hold a revision above any real one"),
            ]),
        c("immutable", 3, "Writing a schema through a snapshot does not change validation")
            .requirements(&reqs)
            .setup(Setup::new(&notes()).policy(allow()).to_json())
            .steps([
                bind("notes.create", "b1", returns(created())),
                get_snapshot("s1"),
                mutate_snapshot("s1", "/capabilities/1/inputSchema/properties/text/type", json!("integer")),
                mutate_snapshot("s1", "/capabilities/1/inputSchema/type", json!("string")),
                invoke("i1", "notes.create", json!({ "text": "still a string" })),
                expect_outcome("i1", succeeded("i1", "notes.create", created())),
                expect_snapshot(None, snapshot_caps(&ids(), &[("notes.create", json!({ "inputSchema": create_input_schema() }))])),
            ]),
        c("immutable", 4, "Adding members or context scopes through a snapshot changes nothing")
            .requirements(&reqs)
            .setup(Setup::new(&notes()).to_json())
            .steps([
                set_context(&["notes"], None),
                get_snapshot("s1"),
                mutate_snapshot("s1", "/extra", json!(true)),
                mutate_snapshot("s1", "/context/activeScopeIds/1", json!("settings")),
                mutate_snapshot("s1", "/application/name", json!("Other")),
                expect_snapshot(
                    Some("s1"),
                    subset(json!({
                        "extra": absent(),
                        "context": subset(json!({ "activeScopeIds": ["notes"] })),
                        "application": subset(json!({ "name": "Notes" }))
                    })),
                ),
                expect_snapshot(
                    None,
                    subset(json!({ "extra": absent(), "context": subset(json!({ "activeScopeIds": ["notes"] })) })),
                ),
            ]),
    ]
}

/// bound / available / relevance: three independent facts (RCIP-PROTO-SNAP-02..06, CL-B16-2).
fn facts() -> Vec<Case> {
    vec![
        c("facts", 1, "Bound, available and relevance combine independently")
            .requirements(&[
                "RCIP-PROTO-SNAP-02", "RCIP-PROTO-SNAP-03", "RCIP-PROTO-SNAP-04", "RCIP-PROTO-SNAP-05", "CL-B16-2",
                "RCIP-LIFE-BIND-08", "CL-A07-4",
            ])
            .setup(Setup::new(&notes()).to_json())
            .steps([
                set_context(&["notes"], None),
                bind_avail("notes.create", "b1", returns(created()), unavailable()),
                bind("settings.read", "b2", returns(json!({}))),
                expect_snapshot(
                    None,
                    snapshot_caps(
                        &ids(),
                        &[
                            ("notes.list", json!({ "bound": false, "relevance": "current" })),
                            ("notes.create", json!({ "bound": true, "available": false, "relevance": "current" })),
                            ("settings.read", json!({ "bound": true, "available": true, "relevance": "other" })),
                            ("help.show", json!({ "bound": false, "relevance": "current" })),
                            ("notes.share", json!({ "bound": false })),
                        ],
                    ),
                )
                .note("notes.share's scope is a child of the active one: its relevance is the next check"),
                expect_snapshot(None, snapshot_caps(&ids(), &[("notes.share", json!({ "relevance": "other" }))]))
                    .strict(Strictness::Recommended)
                    .reqs(&["CL-B16-3"]),
            ]),
        c("facts", 2, "An unbound capability is published as not available")
            .requirements(&["PRJ-RCIP-SNAP-01", "RCIP-PROTO-SNAP-04", "CL-B20-4"])
            .setup(Setup::new(&notes()).to_json())
            .steps([
                bind("notes.list", "b1", returns(json!({ "items": [] }))),
                unbind("b1"),
                expect_snapshot(
                    None,
                    snapshot_caps(
                        &ids(),
                        &[
                            ("notes.list", json!({ "bound": false, "available": false })),
                            ("notes.create", json!({ "bound": false, "available": false })),
                        ],
                    ),
                ),
            ]),
        c("facts", 3, "A binding without availability check is published as available")
            .requirements(&["PRJ-RCIP-AVAIL-01", "RCIP-PROTO-SNAP-04", "RCIP-PROTO-SURF-08"])
            .setup(Setup::new(&notes()).to_json())
            .steps([
                bind("notes.list", "b1", returns(json!({ "items": [] }))),
                expect_snapshot(None, snapshot_caps(&ids(), &[("notes.list", json!({ "bound": true, "available": true }))])),
            ]),
        c("facts", 4, "Relevance does not change while a handler runs")
            .requirements(&["RCIP-PROTO-SNAP-06", "CL-B16-2"])
            .setup(Setup::new(&notes()).policy(allow()).to_json())
            .steps([
                set_context(&["settings"], None),
                bind("notes.create", "b1", gated()),
                invoke("i1", "notes.create", json!({ "text": "a" })),
                expect_pending("i1"),
                expect_snapshot(None, snapshot_caps(&ids(), &[("notes.create", json!({ "relevance": "other", "bound": true }))])),
                gate_handler(1, ret(created())),
                expect_outcome("i1", succeeded("i1", "notes.create", created())),
                expect_snapshot(None, snapshot_caps(&ids(), &[("notes.create", json!({ "relevance": "other" }))])),
            ]),
        c("facts", 5, "Availability reason and reasonCode are published")
            .requirements(&["CL-A04-7", "CL-A07-4", "RCIP-PROTO-SNAP-08"])
            .setup(Setup::new(&notes()).to_json())
            .steps([
                bind_avail("notes.list", "b1", returns(json!({ "items": [] })), unavailable()),
                expect_snapshot(
                    None,
                    snapshot_caps(
                        &ids(),
                        &[(
                            "notes.list",
                            json!({ "available": false, "availability": { "available": false, "reason": "Offline", "reasonCode": "offline" } }),
                        )],
                    ),
                ),
            ]),
        // A published `availability` is the redacted live status (CL-B17-1, RCIP-PROTO-SNAP-08) of
        // an availability answer, `{ available, reason?, reasonCode? }` (CL-A04-7): CL-A07-4 makes
        // the member optional, so an entry without an answer (unbound, or bound without
        // getAvailability) may leave it out, but one it publishes holds a boolean `available`. A
        // runtime that spreads an absent answer (`{ ...undefined }`) publishes `availability: {}`
        // (found by the StrykerJS run of the JavaScript subject, issue 25 section 3).
        c("facts", 6, "A published availability holds a boolean available")
            .requirements(&["CL-A07-4", "CL-A04-7", "CL-B17-1", "RCIP-PROTO-SNAP-08"])
            .setup(Setup::new(&notes()).to_json())
            .steps([
                bind("notes.list", "b1", returns(json!({ "items": [] }))),
                expect_snapshot(
                    None,
                    snapshot_caps(
                        &ids(),
                        &[
                            ("notes.list", json!({ "availability": answer_or_absent() })),
                            ("notes.create", json!({ "availability": answer_or_absent() })),
                        ],
                    ),
                )
                .reqs(&["CL-A07-4", "CL-A04-7", "CL-B17-1"]),
            ]),
    ]
}

/// An entry's `availability`: absent, or an availability answer with a boolean `available`.
fn answer_or_absent() -> Value {
    one_of([absent(), subset(json!({ "available": crate::pattern::of_type("boolean") }))])
}

/// CL-B16-1/3, RCIP-PROTO-SNAP-05, RCIP-PROTO-DEF-05.
fn relevance() -> Vec<Case> {
    let rel = |pairs: &[(&'static str, &'static str)]| -> Vec<(&'static str, Value)> {
        pairs
            .iter()
            .map(|(id, r)| (*id, json!({ "relevance": r })))
            .collect()
    };
    vec![
        c(
            "relevance",
            1,
            "Active scope makes its capabilities current, others other",
        )
        .requirements(&["CL-B16-1", "RCIP-PROTO-SNAP-05", "RCIP-PROTO-DEF-05"])
        .setup(Setup::new(&notes()).to_json())
        .steps([
            set_context(&["notes"], None),
            expect_snapshot(
                None,
                snapshot_caps(
                    &ids(),
                    &rel(&[
                        ("notes.list", "current"),
                        ("notes.create", "current"),
                        ("notes.delete", "current"),
                        ("settings.read", "other"),
                        ("help.show", "current"),
                    ]),
                ),
            ),
        ]),
        c(
            "relevance",
            2,
            "With no active scope only unscoped capabilities are current",
        )
        .requirements(&["CL-B16-1", "RCIP-PROTO-SNAP-05", "RCIP-PROTO-DEF-05"])
        .setup(Setup::new(&notes()).to_json())
        .steps([
            set_context(&[], None),
            expect_snapshot(
                None,
                snapshot_caps(
                    &ids(),
                    &rel(&[
                        ("notes.list", "other"),
                        ("notes.create", "other"),
                        ("notes.delete", "other"),
                        ("notes.share", "other"),
                        ("settings.read", "other"),
                        ("help.show", "current"),
                    ]),
                ),
            ),
        ]),
        c(
            "relevance",
            3,
            "One active scope among a capability's scopes makes it current",
        )
        .requirements(&["CL-B16-1", "RCIP-PROTO-SNAP-05"])
        .setup(
            Setup::new(
                &Def::new("notes-app")
                    .scope("notes", None)
                    .scope("settings", None)
                    .cap(Cap::new("notes.export", "read").scopes(&["notes", "settings"]))
                    .cap(Cap::new("notes.list", "read").scopes(&["notes"])),
            )
            .to_json(),
        )
        .steps([
            set_context(&["settings"], None),
            expect_snapshot(
                None,
                snapshot_caps(
                    &["notes.export".to_string(), "notes.list".to_string()],
                    &rel(&[("notes.export", "current"), ("notes.list", "other")]),
                ),
            ),
        ]),
        c(
            "relevance",
            4,
            "Several active scopes make each of their capabilities current",
        )
        .requirements(&["CL-B16-1", "RCIP-PROTO-SNAP-05"])
        .setup(Setup::new(&notes()).to_json())
        .steps([
            set_context(&["settings", "notes.editor"], Some("settings")),
            expect_snapshot(
                None,
                snapshot_caps(
                    &ids(),
                    &rel(&[
                        ("notes.share", "current"),
                        ("settings.read", "current"),
                        ("help.show", "current"),
                    ]),
                ),
            ),
            expect_snapshot(
                None,
                snapshot_caps(&ids(), &rel(&[("notes.list", "other")])),
            )
            .strict(Strictness::Recommended)
            .reqs(&["CL-B16-3"])
            .note("notes.list's scope is the parent of the active notes.editor"),
        ]),
        c(
            "relevance",
            5,
            "A parent scope does not make child-scoped capabilities current",
        )
        .requirements(&["CL-B16-3"])
        .strictness(Strictness::Recommended)
        .setup(Setup::new(&notes()).to_json())
        .steps([
            set_context(&["notes"], None),
            expect_snapshot(
                None,
                snapshot_caps(&ids(), &rel(&[("notes.share", "other")])),
            ),
        ]),
        c(
            "relevance",
            6,
            "A child scope does not make parent-scoped capabilities current",
        )
        .requirements(&["CL-B16-3"])
        .strictness(Strictness::Recommended)
        .setup(Setup::new(&notes()).to_json())
        .steps([
            set_context(&["notes.editor"], None),
            expect_snapshot(
                None,
                snapshot_caps(
                    &ids(),
                    &rel(&[("notes.list", "other"), ("notes.share", "current")]),
                ),
            ),
        ]),
        c("relevance", 7, "Relevance follows a context change")
            .requirements(&["CL-B16-1", "RCIP-PROTO-SURF-09"])
            .setup(Setup::new(&notes()).to_json())
            .steps([
                set_context(&["notes"], None),
                expect_snapshot(
                    None,
                    snapshot_caps(
                        &ids(),
                        &rel(&[("notes.list", "current"), ("settings.read", "other")]),
                    ),
                ),
                set_context(&["settings"], None),
                expect_snapshot(
                    None,
                    snapshot_caps(
                        &ids(),
                        &rel(&[("notes.list", "other"), ("settings.read", "current")]),
                    ),
                ),
            ]),
        c(
            "initial-context",
            1,
            "A new runtime has no active scope and no primary scope",
        )
        .requirements(&["PRJ-RCIP-CTX-01"])
        .strictness(Strictness::Recommended)
        .setup(Setup::new(&notes()).to_json())
        .steps([expect_snapshot(
            None,
            subset(json!({ "context": { "activeScopeIds": [] } })),
        )]),
    ]
}

/// RCIP-PROTO-SNAP-08/09, CL-B17 (REQUIRED since its 2026-12-01 revision): redacted live status
/// only. Every check of the published availability is REQUIRED; only the exact member list of a
/// whole capability entry stays RECOMMENDED (RCIP-PROTO-VER-05: minor releases may add optional
/// snapshot fields).
fn redaction() -> Vec<Case> {
    let leaky = json!({
        "available": false, "reason": "Signed out", "reasonCode": "auth",
        "token": "secret-token-123", "userRecord": { "email": "a@example.com" }
    });
    let no_private = json!({
        "handler": absent(), "execute": absent(), "getAvailability": absent(), "policy": absent(),
        "confirmation": absent(), "confirmations": absent(), "pendingConfirmation": absent()
    });
    vec![
        c("redaction", 1, "Extra availability fields from the host are not published")
            .requirements(&["RCIP-PROTO-SNAP-08", "RCIP-PROTO-SNAP-09", "CL-B17-1"])
            .setup(Setup::new(&notes()).to_json())
            .steps([
                bind_avail("notes.list", "b1", returns(json!({ "items": [] })), leaky.clone()),
                expect_snapshot(
                    None,
                    snapshot_caps(
                        &ids(),
                        &[("notes.list", json!({ "availability": { "available": false, "reason": "Signed out", "reasonCode": "auth" } }))],
                    ),
                ),
            ]),
        c("redaction", 2, "Extra availability fields stay unpublished after refresh")
            .requirements(&["RCIP-PROTO-SNAP-08", "RCIP-PROTO-SURF-10", "CL-B17-1"])
            .setup(Setup::new(&notes()).to_json())
            .steps([
                bind_avail("notes.list", "b1", returns(json!({ "items": [] })), available()),
                set_availability("b1", leaky),
                refresh(),
                expect_snapshot(
                    None,
                    snapshot_caps(
                        &ids(),
                        &[("notes.list", json!({ "availability": { "available": false, "reason": "Signed out", "reasonCode": "auth" } }))],
                    ),
                ),
            ]),
        c("redaction", 3, "No handler, confirmation or policy data appears in the snapshot")
            .requirements(&["CL-B17-2", "RCIP-PROTO-SNAP-09"])
            .setup(Setup::new(&notes()).policy(confirm()).to_json())
            .steps([
                bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
                invoke("i1", "notes.delete", json!({ "id": "n1" })),
                expect_outcome("i1", confirmation_any("i1", "notes.delete")).reqs(&["CL-A05-4", "CL-A06-4"]),
                refresh(),
                expect_snapshot(None, subset(no_private.clone())),
                expect_snapshot(None, snapshot_caps(&ids(), &[("notes.delete", no_private)])),
            ]),
        // Whatever member a leak would use, the ids and policy text never appear in the JSON text
        // of a snapshot (CL-B17-2, RCIP-PROTO-SNAP-09).
        c("redaction", 5, "No confirmation id or policy text appears in snapshot JSON")
            .requirements(&["CL-B17-2", "RCIP-PROTO-SNAP-09"])
            .setup(
                Setup::new(&notes())
                    .sequential_ids()
                    .policy(json!({ "decision": "confirm", "reason": "policy-data-5c1e" }))
                    .to_json(),
            )
            .steps([
                bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
                invoke("i1", "notes.delete", json!({ "id": "n1" })),
                expect_outcome("i1", confirmation_any("i1", "notes.delete")).reqs(&["CL-A05-4", "CL-A06-4"]),
                refresh(),
                get_snapshot("s1"),
                expect_snapshot_text(Some("s1"), "confirmation-1"),
                expect_snapshot_text(Some("s1"), "policy-data-5c1e"),
            ]),
        // An invocation's input and output are the application's private records: a runtime
        // that keeps a "last result" in the snapshot leaks them.
        c("redaction", 6, "No invocation input or output appears in snapshot JSON")
            .requirements(&["RCIP-PROTO-SNAP-09"])
            .setup(Setup::new(&notes()).policy(allow()).to_json())
            .steps([
                bind("notes.create", "b1", returns(json!({ "id": "output-record-3b9d" }))),
                invoke("i1", "notes.create", json!({ "text": "input-record-7e2a" })),
                expect_outcome("i1", succeeded("i1", "notes.create", json!({ "id": "output-record-3b9d" }))),
                get_snapshot("s1"),
                expect_snapshot_text(Some("s1"), "input-record-7e2a"),
                expect_snapshot_text(Some("s1"), "output-record-3b9d"),
            ]),
        c("redaction", 4, "Extra host fields are dropped; entries hold only CL-A07 members")
            .requirements(&["CL-B17-1", "CL-B17-2", "RCIP-PROTO-SNAP-08", "CL-A07-3", "CL-A07-4"])
            .setup(Setup::new(&single(vec![Cap::new("notes.list", "read").scopes(&["notes"]).tags(&["a"])])).to_json())
            .steps([
                bind_avail("notes.list", "b1", returns(json!({})), json!({ "available": true, "extra": 1 })),
                expect_snapshot(
                    None,
                    subset(json!({ "capabilities": [subset(json!({
                        "id": "notes.list", "available": true, "availability": { "available": true }
                    }))] })),
                )
                .reqs(&["CL-B17-1", "RCIP-PROTO-SNAP-08"])
                .note("the host's extra availability field is not published"),
                expect_snapshot(
                    None,
                    subset(json!({ "capabilities": [{
                        "id": "notes.list", "title": present(), "description": present(), "scopeIds": ["notes"],
                        "effect": "read", "inputSchema": present(), "outputSchema": present(), "tags": ["a"],
                        "bound": true, "available": true, "availability": { "available": true }, "relevance": present()
                    }] })),
                )
                .strict(Strictness::Recommended)
                .reqs(&["CL-A07-3", "CL-A07-4"])
                .note("RECOMMENDED: minor releases may add optional snapshot fields (RCIP-PROTO-VER-05)"),
            ]),
    ]
}
