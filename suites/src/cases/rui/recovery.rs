//! Section `rui.recovery`: the recovery rules of the spec (RUI-RECOV-01..09) and CL-D05, CL-D09:
//! an invalid frame is quarantined, parsing resumes at the next frame boundary and the open
//! transaction is discarded (in every framing); a gap discards staging; after a discard the
//! remaining records are rejected as outside a transaction until the next begin; a stale base is
//! rejected until the producer resynchronises; an invalid transaction keeps the last good graph;
//! an interrupted stream discards staging; a begin while a transaction is open discards it and
//! (RECOMMENDED, CL-D09-3) opens a new one.

use serde_json::{json, Value};

use super::support::observe::{
    at, committed, expect, logs, outside, rejected, rejections_early_or_late, strict, traced, State,
};
use super::support::stream::{Framing, Script};
use super::support::tuples::{abort, commit, data, delete_data, delete_node, node, Tx};
use super::support::{base_state, base_tx, case, code};
use crate::case::{Case, Section, Strictness};
use crate::pattern::one_of;

const SECTION: &str = "recovery";
const F: Framing = Framing::Any;

pub fn section() -> Section {
    let mut cases: Vec<Case> = Framing::ALL
        .iter()
        .enumerate()
        .map(|(i, f)| invalid_frame_discards_open(*f, i as u32 + 1))
        .collect();
    cases.push(invalid_frame_outside());
    cases.extend(
        [Framing::Jsonl, Framing::WebSocket]
            .iter()
            .enumerate()
            .map(|(i, f)| gap_rest_rejected(*f, i as u32 + 1)),
    );
    cases.extend(vec![
        discarded_then_begin(
            "invalid-record-rest-rejected",
            "after an invalid record the rest is rejected until begin",
            |s| json!(["node", s, "x", "Box"]),
            code::RECORD_INVALID,
            "PRJ-RUI-REC-02",
        ),
        discarded_then_begin(
            "unknown-operation-rest-rejected",
            "after an unknown operation the rest is rejected until begin",
            |s| json!(["upsert", s, "x", "Box", {}, []]),
            code::UNKNOWN_OPERATION,
            "PRJ-RUI-REC-03",
        ),
        stale_requires_resync(),
        invalid_transaction_keeps_graph(),
        interrupted_empty_transaction(),
        interrupted_keeps_last_commit(),
        end_after_discard_is_not_interrupt(),
        records_outside_rejected(),
        begin_while_open_discards(),
        begin_while_open_opens_new(),
        begin_after_begin_after_begin(),
    ]);
    Section::new("rui.recovery", "Recovery", "suites::cases::rui::recovery").cases(cases)
}

fn invalid_frame_discards_open(framing: Framing, serial: u32) -> Case {
    let mut s = Script::new(framing);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .node("a", "Text", json!({ "text": "bye" }), &[])
            .data("/title", json!("Away"))
            .open(),
    );
    let bad = s.payload(b"{\"not\": json");
    let rest = s.records(&[node(4, "b", "Box", json!({}), &[]), commit(5, 2, "r")]);
    s.records(
        &Tx::begin("t2", 1)
            .data("/title", json!("Again"))
            .commit(2, "r"),
    );
    s.end();
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.revision = 2;
    state.data = json!({ "title": "Again" });
    s.extend(state.expect());
    s.extend(logs(
        vec![
            committed("t0", 1),
            rejected("t1", code::FRAME_INVALID),
            committed("t2", 2),
        ],
        vec![at(bad, code::FRAME_NOT_JSON)],
        outside(&rest),
    ));
    let mut requirements = vec![
        "RUI-RECOV-01",
        "RUI-RECOV-02",
        "CL-D05-1",
        "CL-D05-2",
        "CL-D05-3",
        "CL-D09-4",
        "RUI-RECOV-06",
        "PRJ-RUI-TX-04",
    ];
    requirements.extend_from_slice(&framing.requirements());
    let description = format!(
        "{}: an invalid frame discards the open transaction",
        framing.name()
    );
    case(
        SECTION,
        "invalid-frame-discards-open",
        serial,
        framing,
        &description,
        &requirements,
    )
    .steps(s.steps())
}

fn invalid_frame_outside() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    let bad = s.payload(b"]]");
    s.end();
    s.extend(base_state().expect());
    s.extend(logs(
        vec![committed("t0", 1)],
        vec![at(bad, code::FRAME_NOT_JSON)],
        vec![],
    ));
    case(
        SECTION,
        "invalid-frame-outside-transaction",
        1,
        F,
        "an invalid frame with no transaction open only lands in quarantine",
        &[
            "RUI-RECOV-01",
            "CL-D05-1",
            "PRJ-RUI-FRAME-01",
            "PRJ-RUI-REC-05",
        ],
    )
    .steps(s.steps())
}

fn gap_rest_rejected(framing: Framing, serial: u32) -> Case {
    let mut s = Script::new(framing);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .node("a", "Text", json!({ "text": "bye" }), &[])
            .open(),
    );
    s.record(&data(3, "/title", json!("Gap")));
    let rest = s.records(&[
        node(4, "b", "Box", json!({}), &[]),
        abort(5, "E_USER", "stop"),
    ]);
    s.records(
        &Tx::begin("t2", 1)
            .data("/title", json!("After"))
            .commit(2, "r"),
    );
    s.end();
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.revision = 2;
    state.data = json!({ "title": "After" });
    s.extend(state.expect());
    s.extend(logs(
        vec![
            committed("t0", 1),
            rejected("t1", code::SEQUENCE_GAP),
            committed("t2", 2),
        ],
        vec![],
        outside(&rest),
    ));
    let mut requirements = vec![
        "RUI-RECOV-03",
        "CL-D05-4",
        "CL-D09-4",
        "PRJ-RUI-TX-01",
        "PRJ-RUI-REC-05",
    ];
    requirements.extend_from_slice(&framing.requirements());
    let description = format!(
        "{}: after a gap the rest is rejected until the next begin",
        framing.name()
    );
    case(
        SECTION,
        "gap-rest-rejected-until-begin",
        serial,
        framing,
        &description,
        &requirements,
    )
    .steps(s.steps())
}

fn discarded_then_begin(
    slug: &str,
    description: &str,
    bad: impl FnOnce(u64) -> Value,
    code: &str,
    registered: &str,
) -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    let frames = s.records(
        &Tx::begin("t1", 1)
            .node("a", "Text", json!({ "text": "bye" }), &[])
            .with(bad)
            .open(),
    );
    let rest = s.records(&[
        data(3, "/title", json!("x")),
        delete_node(4, "a"),
        commit(5, 2, "r"),
    ]);
    s.records(
        &Tx::begin("t2", 1)
            .data("/title", json!("After"))
            .commit(2, "r"),
    );
    s.end();
    debug_assert_eq!(frames.len(), 3);
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.revision = 2;
    state.data = json!({ "title": "After" });
    s.extend(state.expect());
    s.extend(logs(
        vec![committed("t0", 1), rejected("t1", code), committed("t2", 2)],
        vec![],
        outside(&rest),
    ));
    case(
        SECTION,
        slug,
        1,
        F,
        description,
        &["CL-D09-4", "CL-D05-8", registered, "PRJ-RUI-REC-05"],
    )
    .steps(s.steps())
}

fn stale_requires_resync() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    let stale = s.records(
        &Tx::begin("t1", 0)
            .node("a", "Text", json!({ "text": "old" }), &[])
            .commit(1, "r"),
    );
    s.records(
        &Tx::begin("t2", 1)
            .node("a", "Text", json!({ "text": "new" }), &[])
            .commit(2, "r"),
    );
    s.end();
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.graph["nodes"]["a"]["props"] = json!({ "text": "new" });
    state.revision = 2;
    s.extend(state.expect());
    s.push(expect(
        "transactions",
        json!([
            committed("t0", 1),
            rejected("t1", code::STALE_BASE_REVISION),
            committed("t2", 2)
        ]),
    ));
    s.push(expect("quarantine", json!([])));
    s.push(rejections_early_or_late(Vec::new(), &stale[1..]));
    case(
        SECTION,
        "stale-base-then-resync",
        1,
        F,
        "a stale transaction is rejected; one on the current revision commits",
        &["RUI-RECOV-05", "CL-D05-5", "CL-D02-5", "PRJ-RUI-TX-02"],
    )
    .steps(s.steps())
}

fn invalid_transaction_keeps_graph() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .node("r", "Stack", json!({}), &["a", "ghost"])
            .data("/title", json!("Broken"))
            .commit(2, "r"),
    );
    s.extend(base_state().expect());
    s.records(
        &Tx::begin("t2", 1)
            .node("r", "Stack", json!({}), &["a", "b"])
            .node("b", "Text", json!({ "text": "b" }), &[])
            .commit(2, "r"),
    );
    s.end();
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.graph["nodes"]["r"]["children"] = json!(["a", "b"]);
    state.graph["nodes"]["b"] =
        json!({ "component": "Text", "props": { "text": "b" }, "children": [] });
    state.revision = 2;
    s.extend(state.expect());
    s.extend(logs(
        vec![
            committed("t0", 1),
            rejected("t1", code::CHILD_UNRESOLVED),
            committed("t2", 2),
        ],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "invalid-transaction-keeps-graph",
        1,
        F,
        "an invalid transaction keeps the last known-good graph and data",
        &["RUI-RECOV-06", "CL-D05-6", "CL-D02-9", "PRJ-RUI-GRAPH-03"],
    )
    .steps(s.steps())
}

fn interrupted_empty_transaction() -> Case {
    let mut s = Script::new(F);
    s.records(&Tx::begin("t1", 0).open());
    s.end();
    s.extend(State::empty().expect());
    s.extend(logs(
        vec![rejected("t1", code::INTERRUPTED)],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "interrupted-after-begin",
        1,
        F,
        "a stream ending right after begin discards the transaction",
        &["RUI-RECOV-09", "CL-D05-7", "PRJ-RUI-TX-05"],
    )
    .steps(s.steps())
}

fn interrupted_keeps_last_commit() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .node("r", "Stack", json!({}), &[])
            .delete_node("a")
            .data("/title", json!("Gone"))
            .delete_data("/title")
            .open(),
    );
    s.end();
    s.extend(base_state().expect());
    s.extend(logs(
        vec![committed("t0", 1), rejected("t1", code::INTERRUPTED)],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "interrupted-keeps-last-commit",
        1,
        F,
        "staged nodes, data and deletes are dropped when the stream ends",
        &["RUI-RECOV-09", "CL-D05-7", "RUI-RECOV-06", "PRJ-RUI-TX-05"],
    )
    .steps(s.steps())
}

fn end_after_discard_is_not_interrupt() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(&Tx::begin("t1", 1).open());
    s.record(&node(2, "a", "Text", json!({ "text": "bye" }), &[]));
    let rest = s.records(&[node(3, "b", "Box", json!({}), &[])]);
    s.end();
    s.extend(base_state().expect());
    s.extend(logs(
        vec![committed("t0", 1), rejected("t1", code::SEQUENCE_GAP)],
        vec![],
        outside(&rest),
    ));
    case(
        SECTION,
        "end-after-discard",
        1,
        F,
        "a stream ending after a discarded transaction adds no INTERRUPTED",
        &["CL-D09-4", "CL-D05-7", "RUI-RECOV-03", "PRJ-RUI-TX-01"],
    )
    .steps(s.steps())
}

fn records_outside_rejected() -> Case {
    let mut s = Script::new(F);
    let stray = s.records(&[
        node(1, "r", "Stack", json!({}), &[]),
        data(2, "/x", json!(1)),
        delete_node(3, "r"),
        delete_data(4, "/x"),
        commit(5, 1, "r"),
        abort(6, "E_USER", "stop"),
    ]);
    s.records(
        &Tx::begin("t1", 0)
            .node("r", "Stack", json!({}), &[])
            .commit(1, "r"),
    );
    s.end();
    s.push(expect("revision", json!(1)));
    s.extend(logs(vec![committed("t1", 1)], vec![], outside(&stray)));
    case(
        SECTION,
        "records-outside-rejected",
        1,
        F,
        "every record kind but begin is rejected outside a transaction",
        &["CL-D05-8", "RUI-TX-01", "PRJ-RUI-REC-01", "CL-D02-3"],
    )
    .steps(s.steps())
}

/// The baseline; `t1` stages a node and data; then `t2` begins while `t1` is open and commits.
fn superseding_stream() -> (Script, Vec<usize>) {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .node("a", "Text", json!({ "text": "lost" }), &[])
            .data("/lost", json!(true))
            .open(),
    );
    let second = s.records(
        &Tx::begin("t2", 1)
            .node("a", "Text", json!({ "text": "kept" }), &[])
            .commit(2, "r"),
    );
    s.end();
    (s, second)
}

fn new_state() -> State {
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.graph["nodes"]["a"]["props"] = json!({ "text": "kept" });
    state.revision = 2;
    state
}

fn begin_while_open_discards() -> Case {
    let (mut s, second) = superseding_stream();
    let base = base_state();
    let new = new_state();
    let required = |step: Value| traced(step, &["CL-D09-2"]);
    s.push(required(expect(
        "graph",
        one_of([base.graph.clone(), new.graph.clone()]),
    )));
    s.push(required(expect("data", json!({ "title": "Home" }))));
    s.push(required(expect("revision", one_of([json!(1), json!(2)]))));
    s.push(required(expect(
        "transactions",
        one_of([
            json!([
                committed("t0", 1),
                rejected("t1", code::SUPERSEDED_BY_BEGIN)
            ]),
            json!([
                committed("t0", 1),
                rejected("t1", code::SUPERSEDED_BY_BEGIN),
                committed("t2", 2)
            ]),
        ]),
    )));
    s.push(expect("quarantine", json!([])));
    s.push(required(expect(
        "rejections",
        one_of([json!([]), json!(outside(&second[1..]))]),
    )));
    s.push(traced(
        strict(expect("graph", new.graph), Strictness::Recommended),
        &["CL-D09-3"],
    ));
    s.push(traced(
        strict(expect("rejections", json!([])), Strictness::Recommended),
        &["CL-D09-3"],
    ));
    case(
        SECTION,
        "begin-while-open-discards",
        1,
        F,
        "a begin while a transaction is open discards its staging",
        &["CL-D09-1", "CL-D09-2", "PRJ-RUI-TX-06"],
    )
    .steps(s.steps())
}

fn begin_while_open_opens_new() -> Case {
    let (mut s, _) = superseding_stream();
    s.extend(new_state().expect());
    s.extend(logs(
        vec![
            committed("t0", 1),
            rejected("t1", code::SUPERSEDED_BY_BEGIN),
            committed("t2", 2),
        ],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "begin-while-open-opens-new",
        1,
        F,
        "the superseding begin opens a new transaction that commits",
        &["CL-D09-3", "CL-D09-2", "PRJ-RUI-TX-06"],
    )
    .strictness(Strictness::Recommended)
    .steps(s.steps())
}

fn begin_after_begin_after_begin() -> Case {
    let mut s = Script::new(F);
    s.records(&Tx::begin("t1", 0).node("r", "Stack", json!({}), &[]).open());
    s.records(&Tx::begin("t2", 0).node("r", "Box", json!({}), &[]).open());
    s.records(
        &Tx::begin("t3", 0)
            .node("r", "Stack", json!({ "gap": 3 }), &[])
            .commit(1, "r"),
    );
    s.end();
    s.extend(
        State::new(
            1,
            "r",
            json!({ "r": { "component": "Stack", "props": { "gap": 3 }, "children": [] } }),
            json!({}),
        )
        .expect(),
    );
    s.extend(logs(
        vec![
            rejected("t1", code::SUPERSEDED_BY_BEGIN),
            rejected("t2", code::SUPERSEDED_BY_BEGIN),
            committed("t3", 1),
        ],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "begin-resynchronises-repeatedly",
        1,
        F,
        "each begin while open supersedes the last; the final one commits",
        &["CL-D09-3", "CL-D09-2", "CL-D09-1", "PRJ-RUI-TX-06"],
    )
    .strictness(Strictness::Recommended)
    .steps(s.steps())
}
