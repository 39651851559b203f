//! Section `rcip.abort`: cancellation around execution (RCIP-LIFE-CANCEL-01/07/08/09, CL-B11,
//! CL-A04-3): the handler's signal follows the caller's abort; a handler that returns after an abort
//! gives `succeeded` (the invocation waits for it), one that throws after an abort gives
//! EXECUTION_ABORTED; an abort-like error without any abort is IMPL-DEFINED; unbinding does not
//! abort a running handler; aborting after settlement changes nothing.

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};
use crate::pattern::one_of;

const S: &str = "abort";
const CAP: &str = "notes.create";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

fn input() -> Value {
    json!({ "text": "a" })
}

fn setup() -> Value {
    Setup::new(&notes()).policy(allow()).to_json()
}

/// The gated handler of `i1` (signal `s1`) is running.
fn running() -> Vec<Value> {
    vec![
        bind(CAP, "b1", gated()),
        invoke_signal("i1", CAP, input(), "s1"),
        expect_handler_count(None, 1).reqs(HANDLER_STARTED),
        expect_pending("i1"),
    ]
}

fn steps(parts: Vec<Vec<Value>>) -> Vec<Value> {
    parts.into_iter().flatten().collect()
}

pub fn section() -> Section {
    let aborted = failed("i1", CAP, "EXECUTION_ABORTED");
    let ok = succeeded("i1", CAP, created());
    let cases = vec![
        c(
            "signal",
            1,
            "The handler's signal is not aborted without an abort",
        )
        .requirements(&["CL-A04-3", "RCIP-PROTO-LIFE-07"])
        .setup(setup())
        .steps(steps(vec![running(), vec![expect_signal(1, false)]])),
        c(
            "signal",
            2,
            "Aborting the caller's signal aborts the handler's signal",
        )
        .requirements(&["CL-A04-3", "RCIP-PROTO-LIFE-07"])
        .setup(setup())
        .steps(steps(vec![
            running(),
            vec![abort("s1"), expect_signal(1, true)],
        ])),
        c(
            "signal",
            3,
            "Without a caller signal, ctx still holds an unaborted signal",
        )
        .requirements(&["PRJ-RCIP-EXEC-02", "CL-A04-3", "RCIP-PROTO-LIFE-07"])
        .setup(setup())
        .steps([
            bind(CAP, "b1", gated()),
            invoke("i1", CAP, input()),
            expect_handler_signal_is(1, json!(false)),
        ]),
        c(
            "success-after-abort",
            1,
            "A handler returning after an abort gives succeeded",
        )
        .requirements(&["RCIP-LIFE-CANCEL-08", "CL-B11-4"])
        .setup(setup())
        .steps(steps(vec![
            running(),
            vec![
                abort("s1"),
                expect_pending("i1").note("an abort during execution waits for the handler"),
                gate_handler(1, ret(created())),
                expect_outcome("i1", ok.clone()),
            ],
        ])),
        c(
            "success-after-abort",
            2,
            "Success after an abort still refreshes the snapshot",
        )
        .requirements(&["RCIP-LIFE-CANCEL-08", "CL-B15-4", "RCIP-PROTO-LIFE-10"])
        .setup(setup())
        .steps(steps(vec![
            running(),
            vec![
                abort("s1"),
                get_snapshot("s-before"),
                gate_handler(1, ret(created())),
                expect_outcome("i1", ok.clone()),
                get_snapshot("s-after"),
                expect_relation("s-before", "s-after", false, "greater"),
            ],
        ])),
        c(
            "throw-after-abort",
            1,
            "A handler throwing after an abort gives EXECUTION_ABORTED",
        )
        .requirements(&["RCIP-LIFE-CANCEL-09", "CL-B11-5"])
        .setup(setup())
        .steps(steps(vec![
            running(),
            vec![
                abort("s1"),
                gate_handler(1, throw_error()),
                expect_outcome("i1", aborted.clone()),
            ],
        ])),
        c(
            "throw-after-abort",
            2,
            "An AbortError after an abort gives EXECUTION_ABORTED",
        )
        .requirements(&["RCIP-LIFE-CANCEL-09", "CL-B11-5"])
        .setup(setup())
        .steps(steps(vec![
            running(),
            vec![
                abort("s1"),
                gate_handler(1, throw_abort_error()),
                expect_outcome("i1", aborted.clone()),
            ],
        ])),
        c(
            "invalid-after-abort",
            1,
            "Invalid output after an abort is still OUTPUT_INVALID",
        )
        .requirements(&["CL-B12-1", "RCIP-LIFE-CANCEL-08"])
        .setup(setup())
        .steps(steps(vec![
            running(),
            vec![
                abort("s1"),
                gate_handler(1, ret(json!({ "id": 7 }))),
                expect_outcome("i1", failed("i1", CAP, "OUTPUT_INVALID")),
            ],
        ])),
        c(
            "abort-error-without-abort",
            1,
            "An AbortError without any abort is FAILED or ABORTED",
        )
        .requirements(&["CL-B11-6"])
        .strictness(Strictness::ImplDefined)
        .setup(setup())
        .steps(steps(vec![
            running(),
            vec![
                gate_handler(1, throw_abort_error()),
                expect_outcome(
                    "i1",
                    one_of([failed("i1", CAP, "EXECUTION_FAILED"), aborted.clone()]),
                ),
            ],
        ])),
        c(
            "throw-without-abort",
            1,
            "A plain error without abort is EXECUTION_FAILED, not aborted",
        )
        .requirements(&["CL-B12-2", "RCIP-LIFE-CANCEL-09"])
        .setup(setup())
        .steps(steps(vec![
            running(),
            vec![
                gate_handler(1, throw_error()),
                expect_outcome("i1", failed("i1", CAP, "EXECUTION_FAILED")),
            ],
        ])),
        c(
            "unbind-running",
            1,
            "Unbinding does not abort an already-running handler",
        )
        .requirements(&["RCIP-LIFE-CANCEL-07", "RCIP-LIFE-BIND-04"])
        .setup(setup())
        .steps(steps(vec![
            running(),
            vec![
                unbind("b1"),
                expect_signal(1, false),
                expect_pending("i1"),
                gate_handler(1, ret(created())),
                expect_outcome("i1", ok.clone()),
            ],
        ])),
        c(
            "after-settlement",
            1,
            "Aborting after the outcome changes nothing",
        )
        .requirements(&["CL-B11-4", "CL-B02-1"])
        .setup(setup())
        .steps([
            bind(CAP, "b1", returns(created())),
            invoke_signal("i1", CAP, input(), "s1"),
            expect_outcome("i1", ok.clone()),
            abort("s1"),
            expect_outcome("i1", ok.clone()),
            expect_handler_count(None, 1).reqs(HANDLER_STARTED),
        ]),
        c(
            "before-execution",
            1,
            "Abort during a pending policy never starts the handler",
        )
        .requirements(&[
            "RCIP-LIFE-CANCEL-01",
            "RCIP-LIFE-CANCEL-02",
            "CL-B11-1",
            "CL-B11-3",
        ])
        .setup(Setup::new(&notes()).policy_gated().to_json())
        .steps([
            bind(CAP, "b1", returns(created())),
            invoke_signal("i1", CAP, input(), "s1"),
            abort("s1"),
            expect_outcome("i1", aborted.clone()),
            gate_policy(1, ret(allow())),
            advance(1000),
            expect_handler_count(None, 0),
        ]),
        c(
            "shared-signal",
            1,
            "One signal shared by two invocations aborts both",
        )
        .requirements(&["CL-B11-1", "RCIP-LIFE-CANCEL-02"])
        .setup(Setup::new(&notes()).policy_gated().to_json())
        .steps([
            bind(CAP, "b1", returns(created())),
            invoke_signal("i1", CAP, input(), "s1"),
            invoke_signal("i2", CAP, json!({ "text": "b" }), "s1"),
            abort("s1"),
            expect_outcome("i1", aborted.clone()),
            expect_outcome("i2", failed("i2", CAP, "EXECUTION_ABORTED")),
            gate_policy(1, ret(allow())),
            gate_policy(2, ret(allow())),
            expect_handler_count(None, 0),
        ]),
        c(
            "other-signal",
            1,
            "Aborting one invocation's signal leaves another running",
        )
        .requirements(&["CL-B11-1", "CL-A04-3"])
        .setup(Setup::new(&notes()).policy_gated().to_json())
        .steps([
            bind(CAP, "b1", returns(created())),
            invoke_signal("i1", CAP, input(), "s1"),
            invoke_signal("i2", CAP, json!({ "text": "b" }), "s2"),
            abort("s1"),
            gate_policy(2, ret(allow())),
            expect_outcome("i2", succeeded("i2", CAP, created())),
            expect_outcome("i1", aborted.clone()),
        ]),
    ];
    make_section(S, "Abort around execution", "abort", cases)
}
