//! Section `rcip.preflight` (profile `preflight`, CL-B24-1/2): a batch dry-run of up to 16
//! proposals that reserves nothing and runs nothing. The texts give no API and no report, so the
//! vocabulary rests on project decisions (suites/register/project-rcip.toml): each proposal
//! reports the checks `invoke` makes before policy (PRJ-RCIP-PRE-01), more than 16 proposals are
//! refused as a whole (PRJ-RCIP-PRE-02), and "runs nothing" covers every host callback but the
//! availability probe, revisions, events and id reservations, also between proposals
//! (PRJ-RCIP-PRE-03).

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};

const S: &str = "preflight";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
        .strictness(Strictness::Profile)
        .profiles(&["preflight"])
}

fn list_proposal() -> Value {
    proposal("notes.list", json!({}), None)
}

fn create_input() -> Value {
    json!({ "text": "a" })
}

pub fn section() -> Section {
    let gated_setup = || Setup::new(&notes()).policy_gated().to_json();
    let cases = vec![
        c("bound", 1, "A batch of 16 proposals gets 16 reports")
            .requirements(&["CL-B24-1", "PRJ-RCIP-PRE-01"])
            .setup(gated_setup())
            .steps([
                bind("notes.list", "b1", returns(json!({ "items": [] }))),
                preflight("p1", vec![list_proposal(); 16]),
                expect_preflight("p1", Value::Array(vec![ready("notes.list"); 16])),
            ]),
        c("bound", 2, "A batch of 17 proposals is refused as a whole")
            .requirements(&["CL-B24-1", "PRJ-RCIP-PRE-02"])
            .setup(gated_setup())
            .steps([
                bind("notes.list", "b1", returns(json!({ "items": [] }))),
                preflight("p1", vec![list_proposal(); 17]),
                expect_preflight("p1", json!("rejected")),
                expect_policy_calls(None, json!([])).reqs(&["PRJ-RCIP-PRE-03"]),
                expect_handler_calls(None, json!([])).reqs(&["PRJ-RCIP-PRE-03"]),
            ]),
        c(
            "bound",
            3,
            "The 16th proposal of a full batch is checked like the first",
        )
        .requirements(&["CL-B24-1", "PRJ-RCIP-PRE-01"])
        .setup(gated_setup())
        .steps([
            bind("notes.list", "b1", returns(json!({ "items": [] }))),
            preflight("p1", {
                let mut batch = vec![list_proposal(); 15];
                batch.push(proposal("notes.nope", json!({}), None));
                batch
            }),
            expect_preflight("p1", {
                let mut reports = vec![ready("notes.list"); 15];
                reports.push(would_fail("notes.nope", "CAPABILITY_NOT_FOUND"));
                Value::Array(reports)
            }),
        ]),
        c("bound", 4, "An empty batch gets an empty list of reports")
            .requirements(&["PRJ-RCIP-PRE-02"])
            .setup(gated_setup())
            .steps([preflight("p1", vec![]), expect_preflight("p1", json!([]))]),
        c(
            "report",
            1,
            "Each proposal reports the code invoke would give before policy",
        )
        .requirements(&["PRJ-RCIP-PRE-01"])
        .setup(gated_setup())
        .steps([
            bind("notes.create", "b1", returns(created())),
            bind_avail("settings.read", "b2", returns(json!({})), unavailable()),
            preflight(
                "p1",
                vec![
                    proposal("notes.create", create_input(), None),
                    proposal("notes.nope", json!({}), None),
                    proposal("notes.delete", json!({ "id": "n1" }), None),
                    proposal("settings.read", json!({}), None),
                    proposal("notes.create", json!({ "text": 5 }), None),
                    proposal("notes.create", json!({ "text": { "$value": "NaN" } }), None),
                ],
            ),
            expect_preflight(
                "p1",
                json!([
                    ready("notes.create"),
                    would_fail("notes.nope", "CAPABILITY_NOT_FOUND"),
                    would_fail("notes.delete", "CAPABILITY_UNBOUND"),
                    would_fail("settings.read", "CAPABILITY_UNAVAILABLE"),
                    would_fail("notes.create", "INPUT_INVALID"),
                    would_fail("notes.create", "INPUT_INVALID"),
                ]),
            ),
        ]),
        c(
            "report",
            2,
            "A proposal failing two checks reports the first in invoke's order",
        )
        .requirements(&["PRJ-RCIP-PRE-01", "CL-B03-1"])
        .setup(gated_setup())
        .steps([
            bind_avail("notes.create", "b1", returns(created()), unavailable()),
            preflight(
                "p1",
                vec![
                    proposal("notes.delete", json!({ "wrong": true }), None),
                    proposal("notes.create", json!({ "text": 5 }), None),
                ],
            ),
            expect_preflight(
                "p1",
                json!([
                    would_fail("notes.delete", "CAPABILITY_UNBOUND"),
                    would_fail("notes.create", "CAPABILITY_UNAVAILABLE"),
                ]),
            ),
        ]),
        c(
            "report",
            3,
            "An id held by a pending invocation reports already active",
        )
        .requirements(&["PRJ-RCIP-PRE-01", "CL-B24-2"])
        .setup(gated_setup())
        .steps([
            bind("notes.create", "b1", returns(created())),
            invoke("i1", "notes.create", create_input()),
            preflight(
                "p1",
                vec![proposal("notes.create", create_input(), Some("i1"))],
            ),
            expect_preflight(
                "p1",
                json!([would_fail("notes.create", "INVOCATION_ALREADY_ACTIVE")]),
            ),
            gate_policy(1, ret(allow())),
            expect_outcome("i1", succeeded("i1", "notes.create", created()))
                .note("the holder of the id is undisturbed"),
        ]),
        c(
            "report",
            4,
            "An id held by a pending confirmation reports already active",
        )
        .requirements(&["PRJ-RCIP-PRE-01", "CL-B24-2"])
        .setup(gated_setup())
        .steps([
            bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
            invoke("i1", "notes.delete", json!({ "id": "n1" })),
            gate_policy(1, ret(confirm())),
            preflight(
                "p1",
                vec![proposal("notes.delete", json!({ "id": "n1" }), Some("i1"))],
            ),
            expect_preflight(
                "p1",
                json!([would_fail("notes.delete", "INVOCATION_ALREADY_ACTIVE")]),
            ),
            resolve("r1", "i1", true),
            gate_policy(2, ret(allow())),
            expect_outcome(
                "r1",
                succeeded("i1", "notes.delete", json!({ "deleted": true })),
            ),
        ]),
        c(
            "report",
            5,
            "A proposal policy would deny is ready: policy is not consulted",
        )
        .requirements(&["PRJ-RCIP-PRE-01", "CL-B24-2"])
        .setup(Setup::new(&notes()).policy(deny()).to_json())
        .steps([
            bind("notes.create", "b1", returns(created())),
            preflight("p1", vec![proposal("notes.create", create_input(), None)]),
            expect_preflight("p1", json!([ready("notes.create")])),
            expect_policy_calls(None, json!([])),
        ]),
        c(
            "reserve",
            1,
            "An id used in a preflight is free right after",
        )
        .requirements(&["CL-B24-2", "PRJ-RCIP-PRE-03"])
        .setup(gated_setup())
        .steps([
            bind("notes.create", "b1", returns(created())),
            preflight(
                "p1",
                vec![proposal("notes.create", create_input(), Some("x1"))],
            ),
            expect_preflight("p1", json!([ready("notes.create")])),
            invoke_id("i1", "notes.create", create_input(), "x1"),
            expect_pending("i1").note("waiting for policy, not INVOCATION_ALREADY_ACTIVE"),
            gate_policy(1, ret(allow())),
            expect_outcome("i1", succeeded("x1", "notes.create", created())),
        ]),
        c("reserve", 2, "Two proposals with one id are both ready")
            .requirements(&["CL-B24-2", "PRJ-RCIP-PRE-03"])
            .setup(gated_setup())
            .steps([
                bind("notes.create", "b1", returns(created())),
                preflight(
                    "p1",
                    vec![
                        proposal("notes.create", create_input(), Some("x1")),
                        proposal("notes.create", json!({ "text": "b" }), Some("x1")),
                    ],
                ),
                expect_preflight("p1", json!([ready("notes.create"), ready("notes.create")])),
            ]),
        c(
            "reserve",
            3,
            "A preflight makes no invocation id: createId is not called",
        )
        .requirements(&["CL-B24-2", "PRJ-RCIP-PRE-03"])
        .setup(
            Setup::new(&notes())
                .policy(allow())
                .sequential_ids()
                .to_json(),
        )
        .steps([
            bind("notes.create", "b1", returns(created())),
            preflight(
                "p1",
                vec![
                    proposal("notes.create", create_input(), None),
                    proposal("notes.create", create_input(), None),
                ],
            ),
            invoke_auto("i1", "notes.create", create_input()),
            expect_outcome("i1", succeeded("invocation-1", "notes.create", created())),
        ]),
        c("run", 1, "A preflight calls no policy and no handler")
            .requirements(&["CL-B24-2", "PRJ-RCIP-PRE-03"])
            .setup(gated_setup())
            .steps([
                bind("notes.create", "b1", gated()),
                bind("notes.list", "b2", gated()),
                preflight(
                    "p1",
                    vec![
                        proposal("notes.create", create_input(), None),
                        list_proposal(),
                    ],
                ),
                expect_preflight("p1", json!([ready("notes.create"), ready("notes.list")])),
                expect_policy_calls(None, json!([])),
                expect_handler_calls(None, json!([])),
            ]),
        c(
            "run",
            2,
            "A preflight publishes no revision and notifies no subscriber",
        )
        .requirements(&["CL-B24-2", "PRJ-RCIP-PRE-03"])
        .setup(gated_setup())
        .steps([
            bind("notes.list", "b1", returns(json!({ "items": [] }))),
            get_snapshot("s1"),
            subscribe("sub", "records"),
            preflight("p1", vec![list_proposal(), list_proposal()]),
            get_snapshot("s2"),
            expect_relation("s1", "s2", true, "equal"),
            expect_notifications("sub", notifications_after_subscribe(0))
                .note("at most the initial call at subscribe time, which PRJ-RCIP-SUB-01 only discourages"),
            expect_notifications("sub", json!([]))
                .strict(Strictness::Recommended)
                .reqs(&["PRJ-RCIP-SUB-01"]),
        ]),
        c("run", 3, "A preflight emits no event")
            .requirements(&["CL-B24-2", "PRJ-RCIP-PRE-03"])
            .profiles(&["events"])
            .setup(
                Setup::new(&notes())
                    .policy_gated()
                    .events("records")
                    .to_json(),
            )
            .steps([
                bind("notes.create", "b1", returns(created())),
                preflight(
                    "p1",
                    vec![
                        proposal("notes.create", create_input(), Some("x1")),
                        proposal("notes.nope", json!({}), Some("x2")),
                    ],
                ),
                expect_events(json!([])),
            ]),
    ];
    make_section(
        S,
        "Preflight dry-runs (profile preflight)",
        "preflight",
        cases,
    )
}
