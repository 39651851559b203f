//! Section `rui.commit`: newRevision must equal baseRevision + 1 (RUI-COMMIT-01, CL-D02-6); the
//! base revision must be the committed one (RUI-RECOV-05, CL-D02-5, CL-D05-5); the runtime applies
//! all staged operations, validates the resulting graph, then swaps atomically (RUI-COMMIT-02..04,
//! CL-D02-9): a failing commit applies nothing, not even its valid data records, and leaves an
//! array of the committed data as it was after replacing, removing or appending its elements.

use serde_json::{json, Value};

use super::support::observe::{committed, expect, logs, n, nodes, State};
use super::support::stream::{Framing, Script};
use super::support::tuples::Tx;
use super::support::{base_state, base_tx, case, code, failing, failing_after, Found, Prior};
use crate::case::{Case, Section, Strictness};
use crate::pattern::{any, one_of};

const SECTION: &str = "commit";
const F: Framing = Framing::Any;

pub fn section() -> Section {
    Section::new(
        "rui.commit",
        "Commit: revisions, validation, atomic swap",
        "suites::cases::rui::commit",
    )
    .cases(vec![
        revision_skips(),
        revision_repeats_base(),
        stale_base_behind(),
        stale_base_ahead(),
        stale_and_mismatch(),
        atomic_on_invalid_root(),
        atomic_on_data_failure(),
        atomic_on_array_changes(),
        atomic_on_array_append(),
        root_can_change(),
        validates_resulting_graph(),
        swap_after_validation(),
    ])
}

fn revision_skips() -> Case {
    let tx = Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &[])
        .commit(2, "r");
    case(
        SECTION,
        "revision-skips",
        1,
        F,
        "newRevision baseRevision + 2 is a revision mismatch",
        &["RUI-COMMIT-01", "CL-D02-6", "PRJ-RUI-TX-03", "CL-D08-1"],
    )
    .steps(failing(
        F,
        Prior::Empty,
        &tx,
        "t1",
        json!(code::REVISION_MISMATCH),
        Found::AtOrAfter(2),
    ))
}

fn revision_repeats_base() -> Case {
    let tx = Tx::begin("t1", 1)
        .node("a", "Text", json!({ "text": "bye" }), &[])
        .commit(1, "r");
    case(
        SECTION,
        "revision-repeats-base",
        1,
        F,
        "newRevision equal to baseRevision is a revision mismatch",
        &["RUI-COMMIT-01", "CL-D02-6", "PRJ-RUI-TX-03", "RUI-RECOV-06"],
    )
    .steps(failing(
        F,
        Prior::Base,
        &tx,
        "t1",
        json!(code::REVISION_MISMATCH),
        Found::AtOrAfter(2),
    ))
}

fn stale_base_behind() -> Case {
    let tx = Tx::begin("t1", 0)
        .node("a", "Text", json!({ "text": "bye" }), &[])
        .commit(1, "r");
    case(
        SECTION,
        "stale-base-behind",
        1,
        F,
        "a base revision behind the committed one is rejected as stale",
        &[
            "RUI-RECOV-05",
            "CL-D02-5",
            "CL-D05-5",
            "PRJ-RUI-TX-02",
            "RUI-RECOV-06",
        ],
    )
    .steps(failing(
        F,
        Prior::Base,
        &tx,
        "t1",
        json!(code::STALE_BASE_REVISION),
        Found::AtOrAfter(0),
    ))
}

fn stale_base_ahead() -> Case {
    let tx = Tx::begin("t1", 3)
        .node("r", "Stack", json!({}), &[])
        .commit(4, "r");
    case(
        SECTION,
        "stale-base-ahead",
        1,
        F,
        "a base revision ahead of the committed one is also stale",
        &["RUI-RECOV-05", "CL-D02-5", "CL-D05-5", "PRJ-RUI-TX-02"],
    )
    .steps(failing(
        F,
        Prior::Empty,
        &tx,
        "t1",
        json!(code::STALE_BASE_REVISION),
        Found::AtOrAfter(0),
    ))
}

fn stale_and_mismatch() -> Case {
    let tx = Tx::begin("t1", 5)
        .node("r", "Stack", json!({}), &[])
        .commit(9, "r");
    let codes = one_of([
        json!(code::STALE_BASE_REVISION),
        json!(code::REVISION_MISMATCH),
    ]);
    case(
        SECTION,
        "stale-and-mismatch",
        1,
        F,
        "a stale base and a wrong newRevision: either code",
        &["CL-D02-5", "CL-D02-6", "PRJ-RUI-TX-07"],
    )
    .strictness(Strictness::ImplDefined)
    .steps(failing(
        F,
        Prior::Empty,
        &tx,
        "t1",
        codes,
        Found::AtOrAfter(0),
    ))
}

fn atomic_on_invalid_root() -> Case {
    let tx = Tx::begin("t1", 1)
        .node("a", "Text", json!({ "text": "bye" }), &[])
        .node("b", "Text", json!({ "text": "new" }), &[])
        .data("/title", json!("Away"))
        .data("/extra", json!([1, 2]))
        .delete_data("/title")
        .commit(2, "ghost");
    case(
        SECTION,
        "atomic-on-invalid-root",
        1,
        F,
        "a failing commit applies none of its valid node, data or delete",
        &[
            "RUI-COMMIT-04",
            "CL-D02-9",
            "RUI-RECOV-06",
            "CL-D05-6",
            "RUI-ABORT-02",
            "PRJ-RUI-GRAPH-02",
        ],
    )
    .steps(failing(
        F,
        Prior::Base,
        &tx,
        "t1",
        json!(code::ROOT_MISSING),
        Found::AtOrAfter(6),
    ))
}

fn atomic_on_data_failure() -> Case {
    let tx = Tx::begin("t1", 1)
        .node("a", "Text", json!({ "text": "bye" }), &[])
        .data("/title", json!("Away"))
        .data("/cfg/theme", json!("dark"))
        .commit(2, "r");
    case(
        SECTION,
        "atomic-on-data-failure",
        1,
        F,
        "a data failure also discards the node changes staged before it",
        &["RUI-COMMIT-04", "CL-D02-9", "CL-D05-6", "PRJ-RUI-DATA-01"],
    )
    .steps(failing(
        F,
        Prior::Base,
        &tx,
        "t1",
        json!(code::DATA_PARENT_MISSING),
        Found::AtOrAfter(3),
    ))
}

/// The changes a failing commit undoes are inside an array the committed data already holds: an
/// element replaced, one removed (the later ones move up) and the moved one replaced. An
/// implementation that stages on a shallow copy of the data document, or undoes array changes
/// wrongly, leaves the committed array changed.
fn atomic_on_array_changes() -> Case {
    let t1 = Tx::begin("t1", 1).data("/list", json!([1, 2, 3])).commit(2, "r");
    let tx = Tx::begin("t2", 2)
        .data("/list/0", json!("x"))
        .delete_data("/list/1")
        .data("/list/1", json!({ "y": 1 }))
        .data("/cfg/theme", json!("dark"))
        .commit(3, "r");
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.revision = 2;
    state.data = json!({ "title": "Home", "list": [1, 2, 3] });
    case(
        SECTION,
        "atomic-on-array-changes",
        1,
        F,
        "a failing commit leaves a committed array as it was after changing it",
        &["RUI-COMMIT-04", "CL-D02-9", "CL-D05-6", "PRJ-RUI-DATA-01"],
    )
    .steps(failing_after(
        F,
        &[base_tx(), t1],
        vec![committed("t0", 1), committed("t1", 2)],
        state,
        &tx,
        "t2",
        json!(code::DATA_PARENT_MISSING),
        Found::AtOrAfter(4),
    ))
}

/// A failing commit that first grew a committed array by the element at its length. Whether
/// that record appends (PRJ-RUI-DATA-07, RECOMMENDED) or is refused (CL-D03-1 read as creating
/// members only) is open, and so is the code when it is refused; either way the transaction fails
/// (at the refused record, at the missing parent after it, or at commit: PRJ-RUI-TX-08) and the
/// committed array keeps its length: an implementation that stages in place and does not take an
/// appended element back leaves it longer (RUI-COMMIT-04, CL-D02-9, CL-D05-6).
fn atomic_on_array_append() -> Case {
    let t1 = Tx::begin("t1", 1).data("/list", json!([1, 2, 3])).commit(2, "r");
    let tx = Tx::begin("t2", 2)
        .data("/list/3", json!(4))
        .data("/cfg/theme", json!("dark"))
        .commit(3, "r");
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.revision = 2;
    state.data = json!({ "title": "Home", "list": [1, 2, 3] });
    case(
        SECTION,
        "atomic-on-array-append",
        1,
        F,
        "a failing commit takes back an element appended to a committed array",
        &["RUI-COMMIT-04", "CL-D02-9", "CL-D05-6", "CL-D03-1"],
    )
    .steps(failing_after(
        F,
        &[base_tx(), t1],
        vec![committed("t0", 1), committed("t1", 2)],
        state,
        &tx,
        "t2",
        any(),
        Found::AtAnyOrAfter(&[1, 2]),
    ))
}

fn root_can_change() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .node("s", "Stack", json!({ "gap": 2 }), &["a"])
            .commit(2, "s"),
    );
    s.end();
    let state = State::new(
        2,
        "s",
        nodes(vec![
            ("r", n("Stack", json!({}), &["a"])),
            ("a", n("Text", json!({ "text": "hello" }), &[])),
            ("s", n("Stack", json!({ "gap": 2 }), &["a"])),
        ]),
        json!({ "title": "Home" }),
    );
    s.extend(state.expect());
    s.extend(logs(
        vec![committed("t0", 1), committed("t1", 2)],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "root-can-change",
        1,
        F,
        "a commit may name another existing node as the new root",
        &["CL-D01-7", "RUI-INV-02", "RUI-COMMIT-02"],
    )
    .steps(s.steps())
}

fn validates_resulting_graph() -> Case {
    let mut s = Script::new(F);
    s.records(
        &Tx::begin("t1", 0)
            .node("r", "Stack", json!({}), &["a", "b"])
            .node("b", "Stack", json!({}), &["c"])
            .node("c", "Text", json!({ "text": "c" }), &[])
            .node("a", "Text", json!({ "text": "a" }), &[])
            .commit(1, "r"),
    );
    s.end();
    let state = State::new(
        1,
        "r",
        nodes(vec![
            ("r", n("Stack", json!({}), &["a", "b"])),
            ("a", n("Text", json!({ "text": "a" }), &[])),
            ("b", n("Stack", json!({}), &["c"])),
            ("c", n("Text", json!({ "text": "c" }), &[])),
        ]),
        json!({}),
    );
    s.extend(state.expect());
    s.extend(logs(vec![committed("t1", 1)], vec![], vec![]));
    case(
        SECTION,
        "validates-resulting-graph",
        1,
        F,
        "children named before their definition resolve at commit",
        &["RUI-COMMIT-03", "CL-D02-8", "PRJ-RUI-TX-09"],
    )
    .steps(s.steps())
}

/// The old graph stays observable while the transaction stages, and the new one appears whole.
fn swap_after_validation() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    let tx: Vec<Value> = Tx::begin("t1", 1)
        .node("r", "Stack", json!({}), &["a", "b"])
        .node("b", "Text", json!({ "text": "two" }), &[])
        .data("/title", json!("Two"))
        .commit(2, "r");
    s.records(&tx[..3]);
    s.extend(base_state().expect());
    s.records(&tx[3..]);
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.graph["nodes"]["r"]["children"] = json!(["a", "b"]);
    state.graph["nodes"]["b"] = n("Text", json!({ "text": "two" }), &[]);
    state.revision = 2;
    state.data = json!({ "title": "Two" });
    s.extend(state.expect());
    s.push(expect(
        "transactions",
        json!([committed("t0", 1), committed("t1", 2)]),
    ));
    case(
        SECTION,
        "swap-after-validation",
        1,
        F,
        "the committed snapshot stays old while staging, then swaps whole",
        &["RUI-COMMIT-04", "RUI-COMMIT-02", "CL-D02-9"],
    )
    .steps(s.steps())
}
