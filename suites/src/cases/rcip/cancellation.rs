//! Section `rcip.cancellation`: cancelling a pending confirmation by aborting the original signal
//! (RCIP-LIFE-CONF-06, RCIP-PROTO-LIFE-14, CL-B09): it is released at once (its id reservation
//! too), resolving it later gives EXECUTION_ABORTED while its receipt is retained, once
//! (RECOMMENDED, CL-B10-3); aborting after the confirmation was resolved changes nothing.

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};

const S: &str = "cancellation";
const CAP: &str = "notes.delete";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

fn input() -> Value {
    json!({ "id": "n1" })
}

fn done() -> Value {
    json!({ "deleted": true })
}

fn setup() -> Value {
    Setup::new(&notes()).policy_gated().to_json()
}

/// `i1` with signal `s1` waits for confirmation.
fn pending() -> Vec<Value> {
    vec![
        bind(CAP, "b1", returns(done())),
        invoke_signal("i1", CAP, input(), "s1"),
        gate_policy(1, ret(confirm())),
        expect_outcome("i1", confirmation_required("i1", CAP, "destructive")),
    ]
}

fn steps(parts: Vec<Vec<Value>>) -> Vec<Value> {
    parts.into_iter().flatten().collect()
}

pub fn section() -> Section {
    let aborted = failed_code("EXECUTION_ABORTED");
    let cases = vec![
        c(
            "approve",
            1,
            "Approving a cancelled confirmation gives EXECUTION_ABORTED",
        )
        .requirements(&[
            "CL-B09-1",
            "CL-B09-2",
            "RCIP-LIFE-CONF-06",
            "RCIP-LIFE-CONF-07",
            "RCIP-PROTO-LIFE-14",
        ])
        .setup(setup())
        .steps(steps(vec![
            pending(),
            vec![
                abort("s1"),
                resolve("r1", "i1", true),
                expect_outcome("r1", aborted.clone()),
                expect_policy_count(1),
                expect_handler_count(None, 0),
            ],
        ])),
        c(
            "decline",
            1,
            "Declining a cancelled confirmation gives EXECUTION_ABORTED",
        )
        .requirements(&["CL-B09-2", "RCIP-LIFE-CONF-07"])
        .setup(setup())
        .steps(steps(vec![
            pending(),
            vec![
                abort("s1"),
                resolve("r1", "i1", false),
                expect_outcome("r1", aborted.clone()),
            ],
        ])),
        c(
            "original-outcome",
            1,
            "Cancelling leaves the original confirmation_required outcome",
        )
        .requirements(&["CL-B09-1", "CL-A03-7"])
        .setup(setup())
        .steps(steps(vec![
            pending(),
            vec![
                abort("s1"),
                expect_outcome("i1", confirmation_required("i1", CAP, "destructive")),
            ],
        ])),
        c(
            "releases-id",
            1,
            "Cancellation releases the invocation id at once",
        )
        .requirements(&["CL-B09-1", "CL-B04-5", "RCIP-LIFE-CONF-06"])
        .setup(setup())
        .steps(steps(vec![
            pending(),
            vec![
                abort("s1"),
                invoke_id("again", CAP, input(), "i1"),
                gate_policy(2, ret(allow())),
                expect_outcome("again", succeeded("i1", CAP, done())),
            ],
        ])),
        c(
            "releases-id",
            2,
            "Without cancellation the pending confirmation keeps the id",
        )
        .requirements(&["CL-B04-1", "RCIP-LIFE-POLICY-01", "RCIP-PROTO-LIFE-11"])
        .setup(setup())
        .steps(steps(vec![
            pending(),
            vec![
                invoke_id("again", CAP, input(), "i1"),
                expect_outcome("again", failed("i1", CAP, "INVOCATION_ALREADY_ACTIVE")),
            ],
        ])),
        c(
            "receipt-once",
            1,
            "A cancellation receipt is returned once, then NOT_FOUND",
        )
        .requirements(&["CL-B10-3"])
        .strictness(Strictness::Recommended)
        .setup(setup())
        .steps(steps(vec![
            pending(),
            vec![
                abort("s1"),
                resolve("r1", "i1", false),
                expect_outcome("r1", aborted.clone())
                    .strict(Strictness::Required)
                    .reqs(&["CL-B09-2"]),
                resolve("r2", "i1", true),
                expect_outcome("r2", failed_code("CONFIRMATION_NOT_FOUND")),
            ],
        ])),
        c(
            "after-resolution",
            1,
            "Aborting after the approval completed changes nothing",
        )
        .requirements(&["CL-B11-4", "CL-B10-4"])
        .setup(setup())
        .steps(steps(vec![
            pending(),
            vec![
                resolve("r1", "i1", true),
                gate_policy(2, ret(allow())),
                expect_outcome("r1", succeeded("i1", CAP, done())),
                abort("s1"),
                expect_outcome("r1", succeeded("i1", CAP, done())),
                resolve("r2", "i1", true),
                expect_outcome("r2", failed_code("CONFIRMATION_NOT_FOUND")),
            ],
        ])),
        c(
            "after-resolution",
            2,
            "Aborting after a decline leaves no receipt behind",
        )
        .requirements(&["CL-B10-4", "CL-B07-1"])
        .setup(setup())
        .steps(steps(vec![
            pending(),
            vec![
                resolve("r1", "i1", false),
                expect_outcome("r1", denied("i1", CAP, "CONFIRMATION_DECLINED")),
                abort("s1"),
                resolve("r2", "i1", true),
                expect_outcome("r2", failed_code("CONFIRMATION_NOT_FOUND")),
            ],
        ])),
        c(
            "during-confirmed-pass",
            1,
            "Abort while the confirmed policy pass waits aborts it",
        )
        .requirements(&["CL-B11-1", "CL-B11-3", "RCIP-LIFE-CANCEL-02"])
        .setup(setup())
        .steps(steps(vec![
            pending(),
            vec![
                resolve("r1", "i1", true),
                expect_pending("r1"),
                abort("s1"),
                expect_outcome("r1", failed("i1", CAP, "EXECUTION_ABORTED")),
                gate_policy(2, ret(allow())),
                expect_outcome("r1", failed("i1", CAP, "EXECUTION_ABORTED")),
                expect_handler_count(None, 0),
            ],
        ])),
    ];
    make_section(
        S,
        "Cancellation of a pending confirmation",
        "cancellation",
        cases,
    )
}
