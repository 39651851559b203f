//! Section `rcip.expiry`: confirmation expiry on the runtime's clock (RCIP-LIFE-CONF-05/06,
//! CL-A01-5, CL-B08): default TTL 120000 ms, `expiresAt` = request time + TTL (PRJ-RCIP-CONF-02,
//! RECOMMENDED, in steps of its own),
//! release at expiry without a resolution (its id reservation too), CONFIRMATION_EXPIRED from the
//! retained receipt whatever `approved` says, returned once (RECOMMENDED, CL-B10-3). Vectors stay
//! off the boundary instant (CL-B08-4).

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};
use crate::pattern::any;

const S: &str = "expiry";
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

/// A gated policy and the given TTL (None: the default).
fn setup(ttl: Option<u64>) -> Value {
    let setup = Setup::new(&notes()).policy_gated();
    match ttl {
        Some(ms) => setup.ttl(ms).to_json(),
        None => setup.to_json(),
    }
}

/// `i1` (id `i1`) asks for confirmation at the current time; `expires_at` is checked.
fn pending(expires_at: u64) -> Vec<Value> {
    vec![
        bind(CAP, "b1", returns(done())),
        invoke("i1", CAP, input()),
        gate_policy(1, ret(confirm())),
        expect_outcome("i1", confirmation_required("i1", CAP, "destructive")),
        expect_expires_at("i1", json!(expires_at)),
    ]
}

fn steps(parts: Vec<Vec<Value>>) -> Vec<Value> {
    parts.into_iter().flatten().collect()
}

pub fn section() -> Section {
    let expired = failed_code("CONFIRMATION_EXPIRED");
    let ok = succeeded("i1", CAP, done());
    let cases = vec![
        c("default-ttl", 1, "The default TTL puts expiresAt 120000 ms after the request")
            .requirements(&["CL-B08-1", "RCIP-LIFE-CONF-05", "CL-A01-5", "CL-A06-4"])
            .setup(setup(None))
            .steps(pending(120_000)),
        c("default-ttl", 2, "With the default TTL approval 1 ms before expiry succeeds")
            .requirements(&["CL-B08-1", "RCIP-LIFE-CONF-05", "CL-A01-5"])
            .setup(setup(None))
            .steps(steps(vec![
                pending(120_000),
                vec![advance(119_999), resolve("r1", "i1", true), gate_policy(2, ret(allow())), expect_outcome("r1", ok.clone())],
            ])),
        c("default-ttl", 3, "With the default TTL approval 1 ms after expiry is expired")
            .requirements(&["CL-B08-1", "CL-B08-3", "RCIP-LIFE-CONF-05", "CL-A01-5", "RCIP-LIFE-CONF-07"])
            .setup(setup(None))
            .steps(steps(vec![
                pending(120_000),
                vec![advance(120_001), resolve("r1", "i1", true), expect_outcome("r1", expired.clone()), expect_handler_count(None, 0)],
            ])),
        c("custom-ttl", 1, "confirmationTtlMs sets expiresAt and the expiry instant")
            .requirements(&["CL-A01-5", "CL-B08-1", "CL-B08-3"])
            .setup(setup(Some(1000)))
            .steps(steps(vec![
                pending(1000),
                vec![advance(1001), resolve("r1", "i1", true), expect_outcome("r1", expired.clone()), expect_handler_count(None, 0)],
            ])),
        c("custom-ttl", 2, "The TTL is measured from the request on the runtime clock")
            .requirements(&["CL-B08-1"])
            .setup(setup(Some(1000)))
            .steps(steps(vec![
                vec![advance(5000)],
                pending(6000),
                vec![advance(999), resolve("r1", "i1", true), gate_policy(2, ret(allow())), expect_outcome("r1", ok.clone())],
            ])),
        c("custom-ttl", 3, "The TTL runs from the invoke or from the confirm decision")
            .requirements(&["PRJ-RCIP-CONF-04", "CL-B08-1"])
            .setup(setup(Some(1000)))
            .steps([
                bind(CAP, "b1", returns(done())),
                invoke("i1", CAP, input()),
                advance(300),
                gate_policy(1, ret(confirm())),
                expect_outcome(
                    "i1",
                    json!({
                        "status": "confirmation_required", "invocationId": "i1", "capabilityId": CAP,
                        "confirmation": { "id": crate::pattern::of_type("string"), "effect": "destructive",
                            "expiresAt": crate::pattern::present() }
                    }),
                ),
                expect_expires_at("i1", crate::pattern::one_of([json!(1000), json!(1300)]))
                .note("whether the TTL starts at invoke or at the confirm decision is not specified"),
            ]),
        c("decline-expired", 1, "Declining an expired confirmation also gives EXPIRED")
            .requirements(&["CL-B08-3", "RCIP-LIFE-CONF-07"])
            .setup(setup(Some(1000)))
            .steps(steps(vec![pending(1000), vec![advance(2000), resolve("r1", "i1", false), expect_outcome("r1", expired.clone())]])),
        large_ttl(1, "A TTL of 2^31 ms keeps the confirmation pending", 1 << 31, 60_000),
        large_ttl(2, "A TTL of 2^31 - 1 ms keeps the confirmation pending", (1 << 31) - 1, 60_000),
        large_ttl(3, "A TTL of 2^32 + 5 ms is still pending after 2^32 ms", (1 << 32) + 5, 1 << 32),
        c("receipt-once", 1, "An expiry receipt is returned once, then CONFIRMATION_NOT_FOUND")
            .requirements(&["CL-B10-3"])
            .strictness(Strictness::Recommended)
            .setup(setup(Some(1000)))
            .steps(steps(vec![
                pending(1000),
                vec![
                    advance(1500),
                    resolve("r1", "i1", true),
                    expect_outcome("r1", expired.clone()).strict(Strictness::Required).reqs(&["CL-B08-3"]),
                    resolve("r2", "i1", false),
                    expect_outcome("r2", failed_code("CONFIRMATION_NOT_FOUND")),
                ],
            ])),
        c("releases-id", 1, "Expiry releases the invocation id at once")
            .requirements(&["CL-B08-2", "CL-B04-5", "RCIP-LIFE-CONF-06", "RCIP-PROTO-LIFE-14"])
            .setup(setup(Some(1000)))
            .steps(steps(vec![
                pending(1000),
                vec![
                    advance(1001),
                    invoke_id("again", CAP, input(), "i1"),
                    gate_policy(2, ret(confirm())),
                    expect_outcome("again", confirmation_required("i1", CAP, "destructive")),
                ],
            ])),
        c("releases-id", 2, "Before expiry the id is still reserved")
            .requirements(&["CL-B04-1", "RCIP-LIFE-POLICY-01", "CL-B08-2"])
            .setup(setup(Some(1000)))
            .steps(steps(vec![
                pending(1000),
                vec![
                    advance(999),
                    invoke_id("dup", CAP, input(), "i1"),
                    expect_outcome("dup", failed("i1", CAP, "INVOCATION_ALREADY_ACTIVE")),
                ],
            ])),
        // A runtime that keeps the abort listener of an expired confirmation turns its expiry
        // receipt into a cancellation when the signal is aborted later.
        c("releases-listener", 1, "An abort after expiry leaves the expiry receipt as it was")
            .requirements(&["RCIP-LIFE-CONF-06", "CL-B08-3", "CL-B08-2"])
            .setup(setup(Some(1000)))
            .steps([
                bind(CAP, "b1", returns(done())),
                invoke_signal("i1", CAP, input(), "s1"),
                gate_policy(1, ret(confirm())),
                expect_outcome("i1", confirmation_required("i1", CAP, "destructive")),
                advance(1001),
                abort("s1"),
                resolve("r1", "i1", true),
                expect_outcome("r1", expired.clone()),
                expect_policy_count(1),
                expect_handler_count(None, 0),
            ]),
        c("no-handler", 1, "An expired confirmation never runs the handler or policy again")
            .requirements(&["CL-B08-2", "RCIP-LIFE-CONF-06"])
            .setup(setup(Some(1000)))
            .steps(steps(vec![
                pending(1000),
                vec![advance(10_000), expect_policy_count(1), expect_handler_count(None, 0), expect_policy_calls(None, json!([any()]))],
            ])),
        c("independent", 1, "Two confirmations expire each at its own time")
            .requirements(&["CL-B08-1", "CL-B08-3"])
            .setup(setup(Some(1000)))
            .steps([
                bind(CAP, "b1", returns(done())),
                invoke("i1", CAP, input()),
                gate_policy(1, ret(confirm())),
                advance(600),
                invoke("i2", CAP, json!({ "id": "n2" })),
                gate_policy(2, ret(confirm())),
                expect_outcome("i2", confirmation_required("i2", CAP, "destructive")),
                advance(600),
                resolve("r1", "i1", true),
                expect_outcome("r1", expired.clone()),
                resolve("r2", "i2", true),
                gate_policy(3, ret(allow())),
                expect_outcome("r2", succeeded("i2", CAP, done())),
            ]),
    ];
    make_section(S, "Confirmation expiry", "expiry", cases)
}

/// A confirmation with TTL `ttl` is approved `after` ms later, before it runs out: a TTL at or past
/// 2^31 ms (where a 32-bit timer overflows) is as long as it says (CL-A01-5, CL-B08-1).
fn large_ttl(n: u32, description: &str, ttl: u64, after: u64) -> Case {
    c("large-ttl", n, description)
        .requirements(&["CL-A01-5", "CL-B08-1"])
        .setup(setup(Some(ttl)))
        .steps(steps(vec![
            pending(ttl),
            vec![
                advance(after),
                resolve("r1", "i1", true),
                gate_policy(2, ret(allow())),
                expect_outcome("r1", succeeded("i1", CAP, done())),
            ],
        ]))
}
