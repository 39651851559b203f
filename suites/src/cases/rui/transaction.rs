//! Section `rui.transaction`: the transaction frame (RUI-TX-01..03, CL-D02-1..4): the initial
//! committed state, begin first, contiguous zero-based sequence numbers (a gap discards staging,
//! RUI-RECOV-03, CL-D05-4), exactly one closing commit or abort, staging invisible until commit,
//! and transaction ids that correlate results but are not remembered (RUI-REC-04, RUI-REC-05).

use serde_json::json;

use super::support::observe::{
    aborted, committed, expect, graph, logs, n, nodes, outside, rejected, State,
};
use super::support::stream::{Framing, Script};
use super::support::tuples::{abort, commit, data, node, Tx};
use super::support::{base_state, base_tx, case, code, failing, Found, Prior};
use crate::case::{Case, Section};

const SECTION: &str = "transaction";
const F: Framing = Framing::Any;

pub fn section() -> Section {
    Section::new(
        "rui.transaction",
        "Transactions: begin, sequence numbers, closing record",
        "suites::cases::rui::transaction",
    )
    .cases(vec![
        initial_state(),
        initial_state_after_empty_stream(),
        minimal_commit(),
        staging_invisible(),
        first_record_not_begin(),
        gap(
            "seq-skips",
            "a seq that skips a position is a sequence gap",
            |t| t.push(node(3, "x", "Box", json!({}), &[])),
            2,
        ),
        gap(
            "seq-repeats",
            "a repeated seq is a sequence gap",
            |t| {
                t.node("x", "Box", json!({}), &[])
                    .push(node(2, "y", "Box", json!({}), &[]))
                    .push(node(2, "z", "Box", json!({}), &[]))
            },
            3,
        ),
        gap(
            "seq-goes-back",
            "a seq lower than the position is a sequence gap",
            |t| t.push(node(1, "x", "Box", json!({}), &[])),
            2,
        ),
        gap_at_commit(),
        gap_at_abort(),
        seq_restarts(),
        commit_after_commit(),
        abort_after_commit(),
        transaction_id_reused(),
        transaction_ids_correlate(),
    ])
}

fn initial_state() -> Case {
    let mut steps = State::empty().expect();
    steps.extend(logs(vec![], vec![], vec![]));
    case(
        SECTION,
        "initial-state",
        1,
        F,
        "a fresh runtime: revision 0, no root, no nodes, data {}",
        &["CL-D02-1", "CL-D02-2"],
    )
    .steps(steps)
}

fn initial_state_after_empty_stream() -> Case {
    let mut s = Script::new(F);
    s.end();
    s.extend(State::empty().expect());
    s.extend(logs(vec![], vec![], vec![]));
    case(
        SECTION,
        "empty-stream",
        1,
        F,
        "a stream that ends with no bytes leaves the initial state",
        &["CL-D02-1", "CL-D02-2", "RUI-RECOV-09"],
    )
    .steps(s.steps())
}

fn minimal_commit() -> Case {
    let mut s = Script::new(F);
    s.records(
        &Tx::begin("t1", 0)
            .node("r", "Stack", json!({}), &[])
            .commit(1, "r"),
    );
    s.end();
    s.extend(State::single("r", "Stack", json!({})).expect());
    s.extend(logs(vec![committed("t1", 1)], vec![], vec![]));
    case(
        SECTION,
        "minimal-commit",
        1,
        F,
        "begin, one node and commit give revision 1 rooted at that node",
        &[
            "RUI-TX-01",
            "RUI-TX-02",
            "RUI-TX-03",
            "CL-D02-3",
            "CL-D02-4",
            "RUI-COMMIT-01",
        ],
    )
    .steps(s.steps())
}

fn staging_invisible() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .node("a", "Text", json!({ "text": "bye" }), &[])
            .data("/title", json!("Away"))
            .open(),
    );
    s.extend(base_state().expect());
    s.extend(logs(vec![committed("t0", 1)], vec![], vec![]));
    case(
        SECTION,
        "staging-invisible-until-commit",
        1,
        F,
        "staged records of an open transaction are not observable",
        &["RUI-COMMIT-04", "CL-D02-9", "CL-D09-1"],
    )
    .steps(s.steps())
}

fn first_record_not_begin() -> Case {
    let mut s = Script::new(F);
    let stray = s.records(&[
        node(1, "r", "Stack", json!({}), &[]),
        data(2, "/x", json!(1)),
        commit(3, 1, "r"),
    ]);
    s.end();
    s.extend(State::empty().expect());
    s.extend(logs(vec![], vec![], outside(&stray)));
    case(
        SECTION,
        "first-record-not-begin",
        1,
        F,
        "records before any begin are rejected as outside a transaction",
        &["RUI-TX-01", "CL-D02-3", "CL-D05-8", "PRJ-RUI-REC-01"],
    )
    .steps(s.steps())
}

/// After the baseline, `t1` gets one good node, then `shape` adds records ending in a gap at
/// record index `at`, then a node and a commit follow.
fn gap(slug: &str, description: &str, shape: impl FnOnce(Tx) -> Tx, at: usize) -> Case {
    let staged = shape(Tx::begin("t1", 1).node("a", "Text", json!({ "text": "bye" }), &[]));
    let next = staged.seq() + 5;
    let tx = staged
        .push(node(next, "w", "Box", json!({}), &[]))
        .push(commit(next + 1, 2, "r"));
    case(
        SECTION,
        slug,
        1,
        F,
        description,
        &[
            "RUI-TX-02",
            "CL-D02-4",
            "RUI-RECOV-03",
            "CL-D05-4",
            "CL-D09-4",
            "PRJ-RUI-TX-01",
        ],
    )
    .steps(failing(
        F,
        Prior::Base,
        &tx.open(),
        "t1",
        json!(code::SEQUENCE_GAP),
        Found::Discards(at),
    ))
}

fn gap_at_commit() -> Case {
    let tx = Tx::begin("t1", 1)
        .node("a", "Text", json!({ "text": "bye" }), &[])
        .push(commit(3, 2, "r"));
    case(
        SECTION,
        "seq-gap-at-commit",
        1,
        F,
        "a commit whose seq skips a position is a gap, not a commit",
        &[
            "RUI-TX-02",
            "RUI-TX-03",
            "CL-D02-4",
            "RUI-RECOV-03",
            "PRJ-RUI-TX-01",
        ],
    )
    .steps(failing(
        F,
        Prior::Base,
        &tx.open(),
        "t1",
        json!(code::SEQUENCE_GAP),
        Found::Discards(2),
    ))
}

fn gap_at_abort() -> Case {
    let tx = Tx::begin("t1", 1)
        .node("a", "Text", json!({ "text": "bye" }), &[])
        .push(abort(5, "E_USER", "stop"));
    case(
        SECTION,
        "seq-gap-at-abort",
        1,
        F,
        "an abort whose seq skips a position is a gap, not an abort",
        &["RUI-TX-02", "CL-D02-4", "RUI-RECOV-03", "PRJ-RUI-TX-01"],
    )
    .steps(failing(
        F,
        Prior::Base,
        &tx.open(),
        "t1",
        json!(code::SEQUENCE_GAP),
        Found::Discards(2),
    ))
}

fn seq_restarts() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .data("/title", json!("One"))
            .commit(2, "r"),
    );
    s.records(
        &Tx::begin("t2", 2)
            .data("/title", json!("Two"))
            .commit(3, "r"),
    );
    s.end();
    let mut state = base_state();
    state.graph["revision"] = json!(3);
    state.revision = 3;
    state.data = json!({ "title": "Two" });
    s.extend(state.expect());
    s.extend(logs(
        vec![committed("t0", 1), committed("t1", 2), committed("t2", 3)],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "seq-restarts-each-transaction",
        1,
        F,
        "seq counts from 0 again in every transaction",
        &["CL-D01-1", "RUI-TX-02", "CL-D02-4"],
    )
    .steps(s.steps())
}

fn commit_after_commit() -> Case {
    let mut s = Script::new(F);
    s.records(
        &Tx::begin("t1", 0)
            .node("r", "Stack", json!({}), &[])
            .commit(1, "r"),
    );
    let stray = s.records(&[commit(3, 2, "r")]);
    s.end();
    s.extend(State::single("r", "Stack", json!({})).expect());
    s.extend(logs(vec![committed("t1", 1)], vec![], outside(&stray)));
    case(
        SECTION,
        "commit-after-commit",
        1,
        F,
        "a second commit after the closing commit is outside a transaction",
        &["RUI-TX-03", "CL-D05-8", "PRJ-RUI-REC-01"],
    )
    .steps(s.steps())
}

fn abort_after_commit() -> Case {
    let mut s = Script::new(F);
    s.records(
        &Tx::begin("t1", 0)
            .node("r", "Stack", json!({}), &[])
            .commit(1, "r"),
    );
    let stray = s.records(&[abort(3, "E_LATE", "too late")]);
    s.end();
    s.extend(State::single("r", "Stack", json!({})).expect());
    s.extend(logs(vec![committed("t1", 1)], vec![], outside(&stray)));
    case(
        SECTION,
        "abort-after-commit",
        1,
        F,
        "an abort after the closing commit changes nothing",
        &["RUI-TX-03", "CL-D05-8", "PRJ-RUI-REC-01"],
    )
    .steps(s.steps())
}

fn transaction_id_reused() -> Case {
    let mut s = Script::new(F);
    s.records(
        &Tx::begin("same", 0)
            .node("r", "Stack", json!({}), &[])
            .commit(1, "r"),
    );
    s.records(
        &Tx::begin("same", 1)
            .node("r", "Stack", json!({ "gap": 2 }), &[])
            .commit(2, "r"),
    );
    s.end();
    s.extend(
        State::new(
            2,
            "r",
            nodes(vec![("r", n("Stack", json!({ "gap": 2 }), &[]))]),
            json!({}),
        )
        .expect(),
    );
    s.extend(logs(
        vec![committed("same", 1), committed("same", 2)],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "transaction-id-reused",
        1,
        F,
        "a reused transactionId commits again: no completed registry",
        &["RUI-REC-05", "RUI-REC-04"],
    )
    .steps(s.steps())
}

fn transaction_ids_correlate() -> Case {
    let mut s = Script::new(F);
    s.records(
        &Tx::begin("alpha", 0)
            .node("r", "Stack", json!({}), &[])
            .commit(1, "r"),
    );
    s.records(
        &Tx::begin("beta", 1)
            .node("r", "Stack", json!({}), &[])
            .abort("E_USER", "no"),
    );
    s.records(
        &Tx::begin("gamma", 1)
            .node("r", "Stack", json!({}), &[])
            .commit(3, "r"),
    );
    s.records(
        &Tx::begin("delta", 1)
            .node("r", "Stack", json!({ "gap": 1 }), &[])
            .commit(2, "r"),
    );
    s.end();
    s.push(expect(
        "graph",
        graph(
            2,
            Some("r"),
            nodes(vec![("r", n("Stack", json!({ "gap": 1 }), &[]))]),
        ),
    ));
    s.push(expect("data", json!({})));
    s.push(expect("revision", json!(2)));
    s.extend(logs(
        vec![
            committed("alpha", 1),
            aborted("beta"),
            rejected("gamma", code::REVISION_MISMATCH),
            committed("delta", 2),
        ],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "transaction-ids-correlate",
        1,
        F,
        "every transaction result carries the id its begin gave",
        &["RUI-REC-04", "PRJ-RUI-TX-03"],
    )
    .steps(s.steps())
}
