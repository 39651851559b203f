//! Section `rcip.events` (profile `events`, CL-B23, CL-A01-7): the `onEvent` observer and its
//! phases, in the order of the lifecycle they mark (PRJ-RCIP-EVT-01), each event naming its
//! invocation and capability; and an observer that throws never changes an outcome (CL-B23-2).

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};
use crate::pattern::one_of;

const S: &str = "events";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
        .strictness(Strictness::Profile)
        .profiles(&["events"])
}

fn ev(phase: &str, invocation: &str, capability: &str) -> Value {
    json!({ "phase": phase, "invocationId": invocation, "capabilityId": capability })
}

fn evs(invocation: &str, capability: &str, phases: &[&str]) -> Value {
    Value::Array(
        phases
            .iter()
            .map(|p| ev(p, invocation, capability))
            .collect(),
    )
}

pub fn section() -> Section {
    let recorded = |policy: Setup| policy.events("records").to_json();
    let throwing = |policy: Setup| policy.events("throws").to_json();
    let def = notes();
    let cases = vec![
        c(
            "success",
            1,
            "A success emits requested, started, succeeded",
        )
        .requirements(&["CL-B23-1", "CL-A01-7", "PRJ-RCIP-EVT-01"])
        .setup(recorded(Setup::new(&def).policy(allow())))
        .steps([
            bind("notes.create", "b1", returns(created())),
            invoke("i1", "notes.create", json!({ "text": "a" })),
            expect_outcome("i1", succeeded("i1", "notes.create", created())).reqs(RUNS_AND_SUCCEEDS),
            expect_events(evs(
                "i1",
                "notes.create",
                &["requested", "started", "succeeded"],
            )),
        ]),
        c(
            "success",
            2,
            "started is emitted when the handler starts, not at the end",
        )
        .requirements(&["CL-B23-1", "PRJ-RCIP-EVT-01"])
        .setup(recorded(Setup::new(&def).policy(allow())))
        .steps([
            bind("notes.create", "b1", gated()),
            invoke("i1", "notes.create", json!({ "text": "a" })),
            expect_events(evs("i1", "notes.create", &["requested", "started"])),
            gate_handler(1, ret(created())),
            expect_events(evs(
                "i1",
                "notes.create",
                &["requested", "started", "succeeded"],
            )),
        ]),
        // The invocation settles at the abort (CL-B11-1); the late policy answer runs nothing
        // (CL-B11-3), so it adds no event: one terminal event per settlement (PRJ-RCIP-EVT-01).
        c("failed", 3, "An abort in the policy wait emits requested, failed, once")
            .requirements(&["PRJ-RCIP-EVT-01", "CL-B23-1", "CL-B11-1", "CL-B11-3", "RCIP-LIFE-CANCEL-04"])
            .setup(recorded(Setup::new(&def).policy_gated()))
            .steps([
                bind("notes.create", "b1", returns(created())),
                invoke_signal("i1", "notes.create", json!({ "text": "a" }), "s1"),
                abort("s1"),
                expect_outcome("i1", failed("i1", "notes.create", "EXECUTION_ABORTED")),
                gate_policy(1, ret(allow())),
                expect_handler_count(None, 0),
                expect_events(evs("i1", "notes.create", &["requested", "failed"])),
            ]),
        // The same race with the late policy call rejecting instead of answering: the rejection
        // runs nothing either (CL-B11-3), so there is still one terminal event (PRJ-RCIP-EVT-01),
        // and the id the abort released (CL-B11-2, CL-B04-5) can be reserved again by a new invocation whose
        // reservation the late rejection must not release (CL-B04-3). A runtime that guards only
        // its answer callback against a settled invocation settles the aborted one a second time
        // here (found by the StrykerJS run of the JavaScript subject, issue 25 section 3).
        c("failed", 4, "A late policy rejection after an abort emits nothing and frees nothing")
            .requirements(&["PRJ-RCIP-EVT-01", "CL-B23-1", "CL-B11-1", "CL-B11-2", "CL-B11-3", "CL-B04-1", "CL-B04-3", "CL-B04-5"])
            .setup(recorded(Setup::new(&def).policy_gated()))
            .steps([
                bind("notes.create", "b1", returns(created())),
                invoke_signal("i1", "notes.create", json!({ "text": "a" }), "s1"),
                abort("s1"),
                expect_outcome("i1", failed("i1", "notes.create", "EXECUTION_ABORTED")).reqs(&["CL-B11-1"]),
                invoke_id("i2", "notes.create", json!({ "text": "b" }), "i1"),
                expect_pending("i2").reqs(&["CL-B11-2", "CL-B04-5"]),
                gate_policy(1, throw_error()),
                invoke_id("i3", "notes.create", json!({ "text": "c" }), "i1"),
                expect_outcome("i3", failed("i1", "notes.create", "INVOCATION_ALREADY_ACTIVE")).reqs(&["CL-B04-1", "CL-B04-3"]),
                expect_pending("i2").reqs(&["CL-B04-1", "CL-B11-3"]),
                expect_handler_count(None, 0).reqs(&["CL-B11-3"]),
                expect_events(one_of([
                    json!([
                        ev("requested", "i1", "notes.create"), ev("failed", "i1", "notes.create"),
                        ev("requested", "i1", "notes.create"),
                    ]),
                    json!([
                        ev("requested", "i1", "notes.create"), ev("failed", "i1", "notes.create"),
                        ev("requested", "i1", "notes.create"),
                        ev("requested", "i1", "notes.create"), ev("failed", "i1", "notes.create"),
                    ]),
                ]))
                .reqs(&["PRJ-RCIP-EVT-01", "CL-B23-1"]),
            ]),
        // A second invoke with a reserved id fails INVOCATION_ALREADY_ACTIVE (CL-B04-3). Whether
        // that refused call reports events is not decided (PRJ-RCIP-EVT-01 starts at "requested
        // when invoke accepts the request"): none, or its own requested then failed ("a failure
        // before the handler emits requested then failed"). Either way every phase is one of
        // CL-B23-1's, and the first invocation's events are untouched. Found by the StrykerJS run
        // of the JavaScript subject (issue 25 section 3): a duplicate reported with a phase of "".
        c("duplicate", 1, "A duplicate id reports no events, or requested then failed")
            .requirements(&["CL-B23-1", "PRJ-RCIP-EVT-01", "CL-B04-3"])
            .setup(recorded(Setup::new(&def).policy_gated()))
            .steps([
                bind("notes.create", "b1", returns(created())),
                invoke("i1", "notes.create", json!({ "text": "a" })),
                invoke_id("i2", "notes.create", json!({ "text": "b" }), "i1"),
                expect_outcome("i2", failed("i1", "notes.create", "INVOCATION_ALREADY_ACTIVE")),
                expect_events(one_of([
                    evs("i1", "notes.create", &["requested"]),
                    evs("i1", "notes.create", &["requested", "requested", "failed"]),
                ])),
            ]),
        c("denied", 1, "A policy denial emits requested, denied")
            .requirements(&["CL-B23-1", "PRJ-RCIP-EVT-01"])
            .setup(recorded(Setup::new(&def).policy(deny())))
            .steps([
                bind("notes.create", "b1", returns(created())),
                invoke("i1", "notes.create", json!({ "text": "a" })),
                expect_events(evs("i1", "notes.create", &["requested", "denied"])),
            ]),
        c(
            "failed",
            1,
            "A handler failure emits requested, started, failed",
        )
        .requirements(&["CL-B23-1", "PRJ-RCIP-EVT-01"])
        .setup(recorded(Setup::new(&def).policy(allow())))
        .steps([
            bind("notes.create", "b1", throws()),
            invoke("i1", "notes.create", json!({ "text": "a" })),
            expect_events(evs(
                "i1",
                "notes.create",
                &["requested", "started", "failed"],
            )),
        ]),
        c(
            "failed",
            2,
            "Invalid input emits requested, failed and never started",
        )
        .requirements(&["CL-B23-1", "PRJ-RCIP-EVT-01"])
        .setup(recorded(Setup::new(&def).policy(allow())))
        .steps([
            bind("notes.create", "b1", returns(created())),
            invoke("i1", "notes.create", json!({ "text": 1 })),
            expect_events(evs("i1", "notes.create", &["requested", "failed"])),
        ]),
        c(
            "confirmation",
            1,
            "A confirm decision emits requested, confirmation_requested",
        )
        .requirements(&["CL-B23-1", "PRJ-RCIP-EVT-01"])
        .setup(recorded(Setup::new(&def).policy_gated()))
        .steps([
            bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
            invoke("i1", "notes.delete", json!({ "id": "n1" })),
            gate_policy(1, ret(confirm())),
            expect_events(evs(
                "i1",
                "notes.delete",
                &["requested", "confirmation_requested"],
            )),
        ]),
        c(
            "confirmation",
            2,
            "An approved confirmation continues with started, succeeded",
        )
        .requirements(&["CL-B23-1", "PRJ-RCIP-EVT-01"])
        .setup(recorded(Setup::new(&def).policy_gated()))
        .steps([
            bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
            invoke("i1", "notes.delete", json!({ "id": "n1" })),
            gate_policy(1, ret(confirm())),
            resolve("r1", "i1", true),
            gate_policy(2, ret(allow())),
            expect_outcome(
                "r1",
                succeeded("i1", "notes.delete", json!({ "deleted": true })),
            )
            .reqs(&["CL-B07-3", "RCIP-PROTO-LIFE-06", "CL-A06-1"]),
            // No sentence says `requested` marks only the invoke call: an approval, which asks
            // again to run the captured operation, may emit it once more (found by the alternate
            // reference, issue 12).
            expect_events(one_of([
                evs(
                    "i1",
                    "notes.delete",
                    &[
                        "requested",
                        "confirmation_requested",
                        "started",
                        "succeeded",
                    ],
                ),
                evs(
                    "i1",
                    "notes.delete",
                    &[
                        "requested",
                        "confirmation_requested",
                        "requested",
                        "started",
                        "succeeded",
                    ],
                ),
            ])),
        ]),
        c(
            "confirmation",
            3,
            "A declined confirmation emits confirmation_declined",
        )
        .requirements(&["CL-B23-1", "PRJ-RCIP-EVT-01"])
        .setup(recorded(Setup::new(&def).policy_gated()))
        .steps([
            bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
            invoke("i1", "notes.delete", json!({ "id": "n1" })),
            gate_policy(1, ret(confirm())),
            resolve("r1", "i1", false),
            expect_events(one_of([
                evs(
                    "i1",
                    "notes.delete",
                    &[
                        "requested",
                        "confirmation_requested",
                        "confirmation_declined",
                    ],
                ),
                evs(
                    "i1",
                    "notes.delete",
                    &[
                        "requested",
                        "confirmation_requested",
                        "confirmation_declined",
                        "denied",
                    ],
                ),
            ])),
        ]),
        c(
            "observer-throws",
            1,
            "A throwing observer does not change a success",
        )
        .requirements(&["CL-B23-2", "CL-B02-1"])
        .setup(throwing(Setup::new(&def).policy(allow())))
        .steps([
            bind("notes.create", "b1", returns(created())),
            invoke("i1", "notes.create", json!({ "text": "a" })),
            expect_outcome("i1", succeeded("i1", "notes.create", created())),
            expect_handler_count(None, 1),
            expect_events(evs(
                "i1",
                "notes.create",
                &["requested", "started", "succeeded"],
            ))
            .reqs(&["CL-B23-1", "PRJ-RCIP-EVT-01"]),
        ]),
        c(
            "observer-throws",
            2,
            "A throwing observer does not change a denial",
        )
        .requirements(&["CL-B23-2", "CL-B02-1"])
        .setup(throwing(Setup::new(&def).policy(deny())))
        .steps([
            bind("notes.create", "b1", returns(created())),
            invoke("i1", "notes.create", json!({ "text": "a" })),
            expect_outcome("i1", denied("i1", "notes.create", "POLICY_DENIED")),
        ]),
        c(
            "observer-throws",
            3,
            "A throwing observer does not change a confirmation flow",
        )
        .requirements(&["CL-B23-2", "CL-B02-1"])
        .setup(throwing(Setup::new(&def).policy_gated()))
        .steps([
            bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
            invoke("i1", "notes.delete", json!({ "id": "n1" })),
            gate_policy(1, ret(confirm())),
            expect_outcome(
                "i1",
                confirmation_required("i1", "notes.delete", "destructive"),
            ),
            resolve("r1", "i1", true),
            gate_policy(2, ret(allow())),
            expect_outcome(
                "r1",
                succeeded("i1", "notes.delete", json!({ "deleted": true })),
            ),
        ]),
        c(
            "observer-throws",
            4,
            "A throwing observer does not change a handler failure",
        )
        .requirements(&["CL-B23-2", "CL-B02-1"])
        .setup(throwing(Setup::new(&def).policy(allow())))
        .steps([
            bind("notes.create", "b1", throws()),
            invoke("i1", "notes.create", json!({ "text": "a" })),
            expect_outcome("i1", failed("i1", "notes.create", "EXECUTION_FAILED")),
        ]),
    ];
    make_section(S, "Lifecycle events (profile events)", "events", cases)
}
