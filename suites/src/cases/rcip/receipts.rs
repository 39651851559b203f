//! Section `rcip.receipts`: the expiry/cancellation receipts (RCIP-LIFE-CONF-07/08, CL-B10): the
//! latest 256 are retained (the spec text wins over CL-B10-1's upper bound, register CONFLICTS.md),
//! the 257th evicts the oldest, whose id then gives CONFIRMATION_NOT_FOUND; declines and approvals
//! leave no receipt. The steps are generated in loops: one confirmation per invocation `k`
//! (handle and id `c<k>`, signal `s<k>`).

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section};

const S: &str = "receipts";
const CAP: &str = "notes.delete";
const TTL: u64 = 1000;

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

/// A policy that always asks for confirmation, so every invocation leaves one pending.
fn setup() -> Value {
    Setup::new(&notes()).policy(confirm()).ttl(TTL).to_json()
}

fn handle(k: u32) -> String {
    format!("c{k}")
}

/// Invocation `k` asks for confirmation and is cancelled at once: one cancellation receipt.
fn cancelled(k: u32) -> Vec<Value> {
    let (h, s) = (handle(k), format!("s{k}"));
    vec![
        invoke_signal(&h, CAP, json!({ "id": format!("n{k}") }), &s),
        abort(&s),
    ]
}

/// Invocations `from..=to` cancelled in order.
fn cancel_range(from: u32, to: u32) -> Vec<Value> {
    (from..=to).flat_map(cancelled).collect()
}

/// Invocations `from..=to` created 1 ms apart, then all expired in creation order.
fn expire_range(from: u32, to: u32) -> Vec<Value> {
    let mut steps: Vec<Value> = (from..=to)
        .flat_map(|k| {
            vec![
                invoke(&handle(k), CAP, json!({ "id": format!("n{k}") })),
                advance(1),
            ]
        })
        .collect();
    steps.push(advance(TTL + 1));
    steps
}

fn resolve_expect(k: u32, approved: bool, outcome: Value) -> Vec<Value> {
    let r = format!("r{k}");
    vec![
        resolve(&r, &handle(k), approved),
        expect_outcome(&r, outcome),
    ]
}

fn with_bind(body: Vec<Vec<Value>>) -> Vec<Value> {
    let mut steps = vec![bind(CAP, "b1", returns(json!({ "deleted": true })))];
    steps.extend(body.into_iter().flatten());
    steps
}

pub fn section() -> Section {
    let aborted = || failed_code("EXECUTION_ABORTED");
    let expired = || failed_code("CONFIRMATION_EXPIRED");
    let not_found = || failed_code("CONFIRMATION_NOT_FOUND");
    let cases = vec![
        c(
            "retained-256",
            1,
            "With 256 cancellation receipts the oldest is still retained",
        )
        .requirements(&["RCIP-LIFE-CONF-07", "CL-B10-1", "CL-B09-2"])
        .setup(setup())
        .steps(with_bind(vec![
            cancel_range(1, 256),
            resolve_expect(1, true, aborted()),
            resolve_expect(256, true, aborted()),
        ])),
        c(
            "evicted-257",
            1,
            "A 257th cancellation receipt evicts the oldest one",
        )
        .requirements(&[
            "RCIP-LIFE-CONF-08",
            "CL-B10-1",
            "CL-B10-2",
            "RCIP-LIFE-CONF-07",
        ])
        .setup(setup())
        .steps(with_bind(vec![
            cancel_range(1, 257),
            resolve_expect(1, true, not_found()),
            resolve_expect(2, true, aborted()),
            resolve_expect(257, false, aborted()),
        ])),
        c(
            "retained-256",
            2,
            "With 256 expiry receipts the oldest is still retained",
        )
        .requirements(&["RCIP-LIFE-CONF-07", "CL-B10-1", "CL-B08-3"])
        .setup(setup())
        .steps(with_bind(vec![
            expire_range(1, 256),
            resolve_expect(1, true, expired()),
            resolve_expect(256, false, expired()),
        ])),
        c(
            "evicted-257",
            2,
            "A 257th expiry receipt evicts the oldest one",
        )
        .requirements(&["RCIP-LIFE-CONF-08", "CL-B10-1", "CL-B10-2"])
        .setup(setup())
        .steps(with_bind(vec![
            expire_range(1, 257),
            resolve_expect(1, false, not_found()),
            resolve_expect(2, true, expired()),
        ])),
        c(
            "evicted-257",
            3,
            "An expiry after 256 cancellations evicts the oldest cancellation",
        )
        .requirements(&["RCIP-LIFE-CONF-08", "CL-B10-1", "CL-B10-2"])
        .setup(setup())
        .steps(with_bind(vec![
            cancel_range(1, 256),
            expire_range(257, 257),
            resolve_expect(1, true, not_found()),
            resolve_expect(2, true, aborted()),
            resolve_expect(257, true, expired()),
        ])),
        c(
            "evicted-300",
            1,
            "After 300 receipts only the latest 256 are retained",
        )
        .requirements(&[
            "RCIP-LIFE-CONF-08",
            "CL-B10-1",
            "CL-B10-2",
            "RCIP-LIFE-CONF-07",
        ])
        .setup(setup())
        .steps(with_bind(vec![
            cancel_range(1, 300),
            resolve_expect(44, true, not_found()),
            resolve_expect(45, true, aborted()),
            resolve_expect(1, true, not_found()),
        ])),
        c(
            "no-receipt",
            1,
            "Declines do not count toward the 256 retained receipts",
        )
        .requirements(&["CL-B10-4", "RCIP-LIFE-CONF-07"])
        .setup(setup())
        .steps(with_bind(vec![
            cancel_range(1, 256),
            vec![
                invoke("d1", CAP, json!({ "id": "d1" })),
                resolve("rd1", "d1", false),
            ],
            vec![
                invoke("d2", CAP, json!({ "id": "d2" })),
                resolve("rd2", "d2", false),
            ],
            vec![expect_outcome(
                "rd2",
                denied("d2", CAP, "CONFIRMATION_DECLINED"),
            )],
            resolve_expect(1, true, aborted()),
        ])),
        c(
            "no-receipt",
            2,
            "Approvals do not count toward the 256 retained receipts",
        )
        .requirements(&["CL-B10-4", "RCIP-LIFE-CONF-07"])
        .setup(Setup::new(&notes()).policy_gated().ttl(TTL).to_json())
        .notes(
            "gated policy: call k confirms invocation k; the approval's confirmed pass is call 258",
        )
        .steps({
            let mut steps = vec![bind(CAP, "b1", returns(json!({ "deleted": true })))];
            for k in 1..=256 {
                let (h, sig) = (handle(k), format!("s{k}"));
                steps.push(invoke_signal(
                    &h,
                    CAP,
                    json!({ "id": format!("n{k}") }),
                    &sig,
                ));
                steps.push(gate_policy(k, ret(confirm())));
                steps.push(abort(&sig));
            }
            steps.push(invoke("a1", CAP, json!({ "id": "a1" })));
            steps.push(gate_policy(257, ret(confirm())));
            steps.push(resolve("ra1", "a1", true));
            steps.push(gate_policy(258, ret(allow())));
            steps.push(expect_outcome(
                "ra1",
                succeeded("a1", CAP, json!({ "deleted": true })),
            ));
            steps.extend(resolve_expect(1, true, failed_code("EXECUTION_ABORTED")));
            steps
        }),
    ];
    make_section(S, "Expiry and cancellation receipts", "receipts", cases)
}
