//! Section `rcip.subscribe`: `client.subscribe(listener)` observes snapshot revisions and returns
//! an unsubscribe function (RCIP-PROTO-SURF-04, CL-A03-6): one notification per new revision, none
//! for changes that keep the revision, none after unsubscribing, and listeners isolated from each
//! other and from the operation that published the revision (PRJ-RCIP-SUB-01, PRJ-RCIP-SUB-02).
//! The `handed` cases compare the snapshot `getSnapshot()` returns inside a listener call with the
//! one it returns after the step (CL-B15-5): the same object, so a listener handed the previous
//! cached snapshot, or a cache dropped after notifying, fails.

use serde_json::json;

use super::support::*;
use crate::case::{Case, Section, Strictness};
use crate::pattern::{contains, subset};

const S: &str = "subscribe";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

pub fn section() -> Section {
    let setup = || Setup::new(&notes()).policy(allow()).to_json();
    let list_out = json!({ "items": [] });
    make_section(
        S,
        "Snapshot subscriptions",
        "subscribe",
        vec![
            c("notify", 1, "A bind notifies a subscribed listener")
                .requirements(&["RCIP-PROTO-SURF-04", "CL-A03-6", "CL-B15-1"])
                .setup(setup())
                .steps([
                    subscribe("sub1", "records"),
                    bind("notes.list", "b1", returns(list_out.clone())),
                    expect_notifications("sub1", notifications_after_subscribe(1)),
                ]),
            c("notify", 2, "Bind, refresh and a success notify once each")
                .requirements(&["RCIP-PROTO-SURF-04", "CL-B15-1", "CL-B15-3", "CL-B15-4"])
                .setup(setup())
                .steps([
                    subscribe("sub1", "records"),
                    bind("notes.list", "b1", returns(list_out.clone())),
                    refresh(),
                    invoke("i1", "notes.list", json!({})),
                    expect_outcome("i1", succeeded("i1", "notes.list", list_out.clone())).reqs(RUNS_AND_SUCCEEDS),
                    expect_notifications("sub1", notifications_after_subscribe(3)),
                ]),
            c(
                "notify",
                3,
                "A context change notifies a subscribed listener",
            )
            .requirements(&["RCIP-PROTO-SURF-04", "PRJ-RCIP-SNAP-02"])
            .setup(setup())
            .steps([
                set_context(&["settings"], None),
                subscribe("sub1", "records"),
                set_context(&["notes"], None),
                expect_notifications("sub1", notifications_after_subscribe(1)),
            ]),
            c(
                "no-initial-call",
                1,
                "Subscribing does not call the listener by itself",
            )
            .requirements(&["PRJ-RCIP-SUB-01", "RCIP-PROTO-SURF-04"])
            .strictness(Strictness::Recommended)
            .setup(setup())
            .steps([
                subscribe("sub1", "records"),
                expect_notifications("sub1", notifications(0)),
                refresh(),
                expect_notifications("sub1", notifications(1)),
            ]),
            c("unchanged", 1, "A failed invocation does not notify")
                .requirements(&["CL-B15-8", "RCIP-PROTO-SURF-04"])
                .strictness(Strictness::Recommended)
                .setup(setup())
                .steps([
                    bind("notes.create", "b1", returns(created())),
                    subscribe("sub1", "records"),
                    invoke("i1", "notes.create", json!({})),
                    expect_outcome("i1", failed("i1", "notes.create", "INPUT_INVALID"))
                        .strict(Strictness::Required)
                        .reqs(&["RCIP-PROTO-LIFE-04"]),
                    expect_notifications("sub1", notifications_after_subscribe(0)),
                ]),
            c(
                "unchanged",
                2,
                "An availability change without refresh does not notify",
            )
            .requirements(&["CL-B15-6", "RCIP-LIFE-AVAIL-03", "RCIP-PROTO-SURF-04"])
            .setup(setup())
            .steps([
                bind_avail("notes.list", "b1", returns(list_out.clone()), available()),
                subscribe("sub1", "records"),
                set_availability("b1", unavailable()),
                expect_notifications("sub1", notifications_after_subscribe(0)),
            ]),
            c(
                "unsubscribe",
                1,
                "No notification reaches a listener after it unsubscribed",
            )
            .requirements(&["CL-A03-6", "RCIP-PROTO-SURF-04"])
            .setup(setup())
            .steps([
                subscribe("sub1", "records"),
                bind("notes.list", "b1", returns(list_out.clone())),
                unsubscribe("sub1"),
                refresh(),
                unbind("b1"),
                expect_notifications("sub1", notifications_after_subscribe(1)),
            ]),
            c(
                "unsubscribe",
                2,
                "Unsubscribing one listener leaves another subscribed",
            )
            .requirements(&["CL-A03-6", "RCIP-PROTO-SURF-04"])
            .setup(setup())
            .steps([
                subscribe("sub1", "records"),
                subscribe("sub2", "records"),
                unsubscribe("sub1"),
                refresh(),
                expect_notifications("sub1", notifications_after_subscribe(0)),
                expect_notifications("sub2", notifications_after_subscribe(1)),
            ]),
            c(
                "handed",
                1,
                "After a refresh a listener sees the snapshot getSnapshot returns next",
            )
            .requirements(&["RCIP-PROTO-SURF-04", "CL-B15-5", "CL-B15-3"])
            .setup(setup())
            .steps([
                get_snapshot("s0"),
                subscribe("sub1", "records"),
                refresh(),
                get_snapshot("s1"),
                expect_relation_to_notification("sub1", "s1", true, "equal"),
                json!({
                    "expect": "snapshot-relation", "a": "s0", "b": last_notification("sub1"),
                    "is": { "identical": false, "revision": "greater" }
                }),
            ]),
            c(
                "handed",
                2,
                "After setContext a listener sees the snapshot getSnapshot returns next",
            )
            .requirements(&["RCIP-PROTO-SURF-04", "CL-B15-5", "PRJ-RCIP-SNAP-02"])
            .setup(setup())
            .steps([
                set_context(&["settings"], None),
                subscribe("sub1", "records"),
                set_context(&["notes"], None),
                get_snapshot("s1"),
                expect_relation_to_notification("sub1", "s1", true, "equal"),
            ]),
            c(
                "handed",
                3,
                "After a bind a listener sees the snapshot getSnapshot returns next",
            )
            .requirements(&["RCIP-PROTO-SURF-04", "CL-B15-5", "CL-B15-1"])
            .setup(setup())
            .steps([
                subscribe("sub1", "records"),
                bind("notes.list", "b1", returns(list_out.clone())),
                get_snapshot("s1"),
                expect_relation_to_notification("sub1", "s1", true, "equal"),
            ]),
            // The revision a bind publishes is the one with the capability bound (CL-B15-1,
            // RCIP-PROTO-SNAP-03): written for a bind that notifies before it installs the
            // binding, so the listener's call caches a snapshot where it is still unbound.
            c("handed", 6, "The snapshot a bind notifies with shows the capability bound")
                .requirements(&["CL-B15-1", "RCIP-PROTO-SNAP-03", "CL-B15-5", "RCIP-PROTO-SURF-04"])
                .setup(setup())
                .steps([
                    subscribe("sub1", "records"),
                    bind("notes.list", "b1", returns(list_out.clone())),
                    expect_snapshot(
                        None,
                        subset(json!({ "capabilities": contains([subset(json!({ "id": "notes.list", "bound": true }))], false) })),
                    ),
                ]),
            c(
                "handed",
                4,
                "After an unbind a listener sees the snapshot getSnapshot returns next",
            )
            .requirements(&["RCIP-PROTO-SURF-04", "CL-B15-5", "CL-B15-2"])
            .setup(setup())
            .steps([
                bind("notes.list", "b1", returns(list_out.clone())),
                subscribe("sub1", "records"),
                unbind("b1"),
                get_snapshot("s1"),
                expect_relation_to_notification("sub1", "s1", true, "equal"),
            ]),
            c(
                "handed",
                5,
                "After a success a listener sees the snapshot getSnapshot returns next",
            )
            .requirements(&["RCIP-PROTO-SURF-04", "CL-B15-5", "CL-B15-4"])
            .setup(setup())
            .steps([
                bind("notes.list", "b1", returns(list_out.clone())),
                subscribe("sub1", "records"),
                invoke("i1", "notes.list", json!({})),
                expect_outcome("i1", succeeded("i1", "notes.list", list_out.clone())).reqs(RUNS_AND_SUCCEEDS),
                get_snapshot("s1"),
                expect_relation_to_notification("sub1", "s1", true, "equal"),
            ]),
            listener_errors_may_surface(c(
                "isolation",
                1,
                "A throwing listener neither breaks the bind nor other listeners",
            )
            .requirements(&["PRJ-RCIP-SUB-02", "RCIP-PROTO-SURF-04"])
            .setup(setup())
            .steps([
                subscribe("sub1", "throws"),
                subscribe("sub2", "records"),
                bind("notes.list", "b1", returns(list_out.clone())),
                refresh(),
                expect_notifications("sub1", notifications_after_subscribe(2)),
                expect_notifications("sub2", notifications_after_subscribe(2)),
            ])),
            c(
                "isolation",
                2,
                "A throwing listener does not change a success outcome",
            )
            .requirements(&["PRJ-RCIP-SUB-02", "CL-B02-1"])
            .setup(setup())
            .steps([
                bind("notes.list", "b1", returns(list_out.clone())),
                subscribe("sub1", "throws"),
                invoke("i1", "notes.list", json!({})),
                expect_outcome("i1", succeeded("i1", "notes.list", list_out.clone())),
                expect_notifications("sub1", notifications_after_subscribe(1)),
            ]),
        ],
    )
}
