//! Section `rcip.policy`: host policy (RCIP-PROTO-LIFE-05, CL-A01-4, CL-A05): the policy context it
//! receives, its three decisions, synchronous, already-resolved and later-settling answers, and a
//! throwing or malformed policy (POLICY_EVALUATION_FAILED, CL-B12-3), asked once per pass with no
//! retry (CL-B12-4). The capability entry the policy is handed: slug `capability`
//! (`policy_capability.rs`).

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section};
use crate::pattern::any;

const S: &str = "policy";
const CAP: &str = "notes.create";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

fn input() -> Value {
    json!({ "text": "a" })
}

/// Binds `notes.create`, invokes once, expects `outcome`; handler calls as given.
fn run(outcome: Value, handler_calls: usize) -> Vec<Value> {
    vec![
        bind(CAP, "b1", returns(created())),
        invoke("i1", CAP, input()),
        expect_outcome("i1", outcome),
        expect_handler_count(None, handler_calls),
    ]
}

pub fn section() -> Section {
    let def = notes();
    let mut cases = vec![
        c("allow", 1, "A synchronous allow runs the handler")
            .requirements(&[
                "RCIP-PROTO-LIFE-05",
                "CL-A05-2",
                "CL-A01-4",
                "RCIP-PROTO-LIFE-07",
            ])
            .setup(Setup::new(&def).policy(allow()).to_json())
            .steps(run(succeeded("i1", CAP, created()), 1)),
        c(
            "allow",
            2,
            "An already-resolved promise of allow runs the handler",
        )
        .requirements(&["RCIP-PROTO-LIFE-05", "CL-A05-2", "CL-A01-4"])
        .setup(Setup::new(&def).policy_async(allow()).to_json())
        .steps(run(succeeded("i1", CAP, created()), 1)),
        c(
            "allow",
            3,
            "A policy settling later holds the invocation until it allows",
        )
        .requirements(&["RCIP-PROTO-LIFE-05", "CL-A05-2", "CL-A01-4", "CL-A03-7"])
        .setup(Setup::new(&def).policy_gated().to_json())
        .steps([
            bind(CAP, "b1", returns(created())),
            invoke("i1", CAP, input()),
            expect_pending("i1"),
            expect_handler_count(None, 0),
            gate_policy(1, ret(allow())),
            expect_outcome("i1", succeeded("i1", CAP, created())),
            expect_handler_count(None, 1),
        ]),
        c(
            "context",
            1,
            "Policy receives capability, input, semantic context, confirmed false",
        )
        .requirements(&["CL-A05-1", "RCIP-PROTO-LIFE-05"])
        .setup(Setup::new(&def).policy_gated().to_json())
        .steps([
            set_context(&["notes"], Some("notes")),
            bind(CAP, "b1", returns(created())),
            invoke("i1", CAP, input()),
            expect_policy_calls(
                None,
                json!([policy_call(
                    CAP,
                    input(),
                    context(&["notes"], Some("notes")),
                    false
                )]),
            ),
            expect_policy_calls(Some("notes.list"), json!([])),
        ]),
        c(
            "deny",
            1,
            "A synchronous deny gives denied POLICY_DENIED and no handler run",
        )
        .requirements(&[
            "RCIP-PROTO-LIFE-05",
            "CL-A05-3",
            "CL-B01-2",
            "RCIP-PROTO-OUT-01",
        ])
        .setup(Setup::new(&def).policy(deny()).to_json())
        .steps(run(denied("i1", CAP, "POLICY_DENIED"), 0)),
        c(
            "deny",
            2,
            "An already-resolved deny gives denied POLICY_DENIED",
        )
        .requirements(&["RCIP-PROTO-LIFE-05", "CL-A05-3", "CL-B01-2"])
        .setup(Setup::new(&def).policy_async(deny()).to_json())
        .steps(run(denied("i1", CAP, "POLICY_DENIED"), 0)),
        c(
            "deny",
            3,
            "A deny without a reason gives denied POLICY_DENIED",
        )
        .requirements(&["CL-A05-3", "CL-B01-2"])
        .setup(Setup::new(&def).policy_gated().to_json())
        .steps([
            bind(CAP, "b1", returns(created())),
            invoke("i1", CAP, input()),
            gate_policy(1, ret(json!({ "decision": "deny" }))),
            expect_outcome("i1", denied("i1", CAP, "POLICY_DENIED")),
            expect_handler_count(None, 0),
        ]),
        c(
            "confirm",
            1,
            "A confirm decision gives confirmation_required with the effect",
        )
        .requirements(&[
            "RCIP-PROTO-LIFE-05",
            "CL-A05-4",
            "CL-A06-4",
            "PRJ-RCIP-CONF-03",
            "RCIP-PROTO-OUT-01",
        ])
        .setup(Setup::new(&def).policy(confirm()).to_json())
        .steps(run(confirmation_required("i1", CAP, "write"), 0)),
        c(
            "confirm",
            2,
            "A confirm without a reason gives confirmation_required",
        )
        .requirements(&["CL-A05-4", "CL-A06-4"])
        .setup(Setup::new(&def).policy_gated().to_json())
        .steps([
            bind(CAP, "b1", returns(created())),
            invoke("i1", CAP, input()),
            gate_policy(1, ret(json!({ "decision": "confirm" }))),
            expect_outcome("i1", confirmation_any("i1", CAP)),
            expect_handler_count(None, 0),
        ]),
        c(
            "throws",
            1,
            "A policy that throws gives POLICY_EVALUATION_FAILED",
        )
        .requirements(&[
            "CL-B12-3",
            "CL-B02-1",
            "RCIP-PROTO-OUT-02",
            "RCIP-PROTO-OUT-03",
        ])
        .setup(Setup::new(&def).policy_throws(false).to_json())
        .steps(run(failed("i1", CAP, "POLICY_EVALUATION_FAILED"), 0)),
        c(
            "throws",
            2,
            "A rejected policy promise gives POLICY_EVALUATION_FAILED",
        )
        .requirements(&["CL-B12-3", "CL-B02-1"])
        .setup(Setup::new(&def).policy_throws(true).to_json())
        .steps(run(failed("i1", CAP, "POLICY_EVALUATION_FAILED"), 0)),
        c(
            "throws",
            3,
            "A later-settling policy that rejects gives POLICY_EVALUATION_FAILED",
        )
        .requirements(&["CL-B12-3", "CL-B02-1", "RCIP-PROTO-OUT-03"])
        .setup(Setup::new(&def).policy_gated().to_json())
        .steps([
            bind(CAP, "b1", returns(created())),
            invoke("i1", CAP, input()),
            gate_policy(1, throw_error()),
            expect_outcome("i1", failed("i1", CAP, "POLICY_EVALUATION_FAILED")),
            expect_handler_count(None, 0),
        ]),
        c("no-retry", 1, "A failed policy is asked once, never again")
            .requirements(&["CL-B12-4", "RCIP-LIFE-POLICY-09", "RCIP-PROTO-LIFE-15"])
            .setup(Setup::new(&def).policy_gated().to_json())
            .steps([
                bind(CAP, "b1", returns(created())),
                invoke("i1", CAP, input()),
                gate_policy(1, throw_error()),
                expect_outcome("i1", failed("i1", CAP, "POLICY_EVALUATION_FAILED")).reqs(&["CL-B12-3"]),
                advance(300_000),
                expect_policy_count(1),
                expect_handler_count(None, 0),
            ]),
    ];
    cases.extend(malformed());
    cases.extend(super::policy_capability::cases());
    make_section(S, "Host policy", "policy", cases)
}

/// Decisions outside CL-A05 are a malformed policy (CL-B12-3).
fn malformed() -> Vec<Case> {
    let answers = [
        (
            json!(null),
            "A policy answering null gives POLICY_EVALUATION_FAILED",
        ),
        (
            json!("allow"),
            "A bare string decision gives POLICY_EVALUATION_FAILED",
        ),
        (
            json!({}),
            "A decision object without decision gives POLICY_EVALUATION_FAILED",
        ),
        (
            json!({ "decision": "maybe" }),
            "An unknown decision gives POLICY_EVALUATION_FAILED",
        ),
        (
            json!({ "decision": "ALLOW" }),
            "A decision in the wrong case gives POLICY_EVALUATION_FAILED",
        ),
        (
            json!(true),
            "A boolean decision gives POLICY_EVALUATION_FAILED",
        ),
    ];
    answers
        .into_iter()
        .enumerate()
        .map(|(i, (answer, description))| {
            c("malformed", i as u32 + 1, description)
                .requirements(&["CL-B12-3", "CL-A05-2", "CL-B02-1"])
                .setup(Setup::new(&notes()).policy_gated().to_json())
                .steps([
                    bind(CAP, "b1", returns(created())),
                    invoke("i1", CAP, input()),
                    gate_policy(1, ret(answer)),
                    expect_outcome("i1", failed("i1", CAP, "POLICY_EVALUATION_FAILED")),
                    expect_handler_count(None, 0),
                    expect_policy_calls(None, json!([any()])),
                ])
        })
        .collect()
}
