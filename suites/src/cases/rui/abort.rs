//! Section `rui.abort`: abort is terminal and leaves the committed snapshot unchanged
//! (RUI-ABORT-01, RUI-ABORT-02, CL-D01-8): the staged nodes, data and deletions are dropped, later
//! records are outside a transaction, and the next transaction builds on the unchanged revision.

use serde_json::json;

use super::support::observe::{aborted, committed, logs, outside, State};
use super::support::stream::{Framing, Script};
use super::support::tuples::{commit, node, Tx};
use super::support::{base_state, base_tx, case};
use crate::case::{Case, Section};

const SECTION: &str = "abort";
const F: Framing = Framing::Any;

pub fn section() -> Section {
    Section::new("rui.abort", "Abort", "suites::cases::rui::abort").cases(vec![
        leaves_snapshot_unchanged(),
        empty_transaction(),
        terminal(),
        next_transaction_builds_on_base(),
        abort_with_unresolved_staging(),
    ])
}

fn leaves_snapshot_unchanged() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .node("a", "Text", json!({ "text": "bye" }), &[])
            .data("/title", json!("Away"))
            .delete_data("/title")
            .abort("E_USER", "user cancelled"),
    );
    s.end();
    s.extend(base_state().expect());
    s.extend(logs(
        vec![committed("t0", 1), aborted("t1")],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "leaves-snapshot-unchanged",
        1,
        F,
        "abort drops staged nodes, data and deletes; snapshot unchanged",
        &["RUI-ABORT-02", "RUI-ABORT-01", "CL-D01-8"],
    )
    .steps(s.steps())
}

fn empty_transaction() -> Case {
    let mut s = Script::new(F);
    s.records(&Tx::begin("t1", 0).abort("E_NOTHING", "nothing to do"));
    s.end();
    s.extend(State::empty().expect());
    s.extend(logs(vec![aborted("t1")], vec![], vec![]));
    case(
        SECTION,
        "empty-transaction",
        1,
        F,
        "begin followed directly by abort aborts with nothing staged",
        &["CL-D01-8", "RUI-ABORT-02"],
    )
    .steps(s.steps())
}

fn terminal() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .node("a", "Text", json!({ "text": "bye" }), &[])
            .abort("E_USER", "stop"),
    );
    let stray = s.records(&[node(3, "b", "Box", json!({}), &[]), commit(4, 2, "r")]);
    s.end();
    s.extend(base_state().expect());
    s.extend(logs(
        vec![committed("t0", 1), aborted("t1")],
        vec![],
        outside(&stray),
    ));
    case(
        SECTION,
        "terminal",
        1,
        F,
        "records after an abort are outside a transaction; nothing commits",
        &["RUI-ABORT-01", "RUI-TX-03", "CL-D05-8", "PRJ-RUI-REC-01"],
    )
    .steps(s.steps())
}

fn next_transaction_builds_on_base() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .data("/title", json!("Away"))
            .abort("E_USER", "stop"),
    );
    s.records(
        &Tx::begin("t2", 1)
            .data("/title", json!("Back"))
            .commit(2, "r"),
    );
    s.end();
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.revision = 2;
    state.data = json!({ "title": "Back" });
    s.extend(state.expect());
    s.extend(logs(
        vec![committed("t0", 1), aborted("t1"), committed("t2", 2)],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "next-builds-on-unchanged-revision",
        1,
        F,
        "after an abort the next transaction uses the same base revision",
        &["RUI-ABORT-02", "CL-D02-5"],
    )
    .steps(s.steps())
}

fn abort_with_unresolved_staging() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .node("r", "Stack", json!({}), &["a", "ghost"])
            .abort("E_USER", "stop"),
    );
    s.end();
    s.extend(base_state().expect());
    s.extend(logs(
        vec![committed("t0", 1), aborted("t1")],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "abort-with-unresolved-staging",
        1,
        F,
        "staging that could not commit still aborts cleanly",
        &["RUI-ABORT-01", "RUI-ABORT-02", "RUI-COMMIT-03"],
    )
    .steps(s.steps())
}
