//! Section `rui.multi-transaction`: streams of several transactions (CL-D02, CL-D05, RUI-COMMIT-01):
//! a good transaction after a bad one commits, a stale one after a good one is rejected, and the
//! committed revision counts the commits over long sequences mixing commits, failures and aborts.

use serde_json::{json, Value};

use super::support::observe::{
    aborted, at, committed, expect, graph, logs, n, nodes, outside, rejected,
    rejections_early_or_late,
};
use super::support::stream::{Framing, Script};
use super::support::tuples::{node, Tx};
use super::support::{base_state, base_tx, case, code};
use crate::case::{Case, Section};

const SECTION: &str = "multi-transaction";

pub fn section() -> Section {
    Section::new(
        "rui.multi-transaction",
        "Streams of several transactions",
        "suites::cases::rui::multi_transaction",
    )
    .cases(vec![
        good_after_invalid_graph(),
        good_after_gap(),
        good_after_invalid_frame(),
        stale_after_good(Framing::Jsonl, 1),
        stale_after_good(Framing::Sse, 2),
        stale_after_good(Framing::JsonSeq, 3),
        revision_sequence(),
        revision_sequence_with_failures(),
        chunked_sequence(),
    ])
}

fn good_after_invalid_graph() -> Case {
    let f = Framing::Jsonl;
    let mut s = Script::new(f);
    s.records(
        &Tx::begin("t1", 0)
            .node("r", "Stack", json!({}), &["ghost"])
            .commit(1, "r"),
    );
    s.records(
        &Tx::begin("t2", 0)
            .node("r", "Stack", json!({}), &[])
            .commit(1, "r"),
    );
    s.end();
    s.push(expect(
        "graph",
        graph(1, Some("r"), nodes(vec![("r", n("Stack", json!({}), &[]))])),
    ));
    s.push(expect("data", json!({})));
    s.push(expect("revision", json!(1)));
    s.extend(logs(
        vec![rejected("t1", code::CHILD_UNRESOLVED), committed("t2", 1)],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "good-after-invalid-graph",
        1,
        f,
        "a valid transaction after a rejected one commits on the same base",
        &["RUI-RECOV-06", "CL-D05-6", "CL-D02-5", "PRJ-RUI-GRAPH-03"],
    )
    .steps(s.steps())
}

fn good_after_gap() -> Case {
    let f = Framing::WebSocket;
    let mut s = Script::new(f);
    s.records(&base_tx());
    s.records(&Tx::begin("t1", 1).open());
    s.record(&node(2, "a", "Text", json!({ "text": "gap" }), &[]));
    s.records(
        &Tx::begin("t2", 1)
            .node("a", "Text", json!({ "text": "good" }), &[])
            .commit(2, "r"),
    );
    s.end();
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.graph["nodes"]["a"]["props"] = json!({ "text": "good" });
    state.revision = 2;
    s.extend(state.expect());
    s.extend(logs(
        vec![
            committed("t0", 1),
            rejected("t1", code::SEQUENCE_GAP),
            committed("t2", 2),
        ],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "good-after-gap",
        1,
        f,
        "a transaction after one discarded by a gap commits",
        &["RUI-RECOV-03", "CL-D05-4", "CL-D09-4", "PRJ-RUI-TX-01"],
    )
    .steps(s.steps())
}

fn good_after_invalid_frame() -> Case {
    let f = Framing::Sse;
    let mut s = Script::new(f);
    s.records(&Tx::begin("t1", 0).node("r", "Stack", json!({}), &[]).open());
    let bad = s.payload(b"[\"commit\",2,1,");
    s.records(
        &Tx::begin("t2", 0)
            .node("r", "Stack", json!({ "gap": 1 }), &[])
            .commit(1, "r"),
    );
    s.end();
    s.push(expect(
        "graph",
        graph(
            1,
            Some("r"),
            nodes(vec![("r", n("Stack", json!({ "gap": 1 }), &[]))]),
        ),
    ));
    s.push(expect("data", json!({})));
    s.push(expect("revision", json!(1)));
    s.extend(logs(
        vec![rejected("t1", code::FRAME_INVALID), committed("t2", 1)],
        vec![at(bad, code::FRAME_NOT_JSON)],
        vec![],
    ));
    case(
        SECTION,
        "good-after-invalid-frame",
        1,
        f,
        "a transaction after one discarded by an invalid frame commits",
        &["CL-D05-3", "CL-D05-2", "RUI-RECOV-02", "PRJ-RUI-TX-04"],
    )
    .steps(s.steps())
}

fn stale_after_good(f: Framing, serial: u32) -> Case {
    let mut s = Script::new(f);
    s.records(&base_tx());
    let stale = s.records(
        &Tx::begin("t1", 0)
            .node("a", "Text", json!({ "text": "stale" }), &[])
            .commit(1, "r"),
    );
    s.end();
    s.extend(base_state().expect());
    s.push(expect(
        "transactions",
        json!([
            committed("t0", 1),
            rejected("t1", code::STALE_BASE_REVISION)
        ]),
    ));
    s.push(expect("quarantine", json!([])));
    s.push(rejections_early_or_late(Vec::new(), &stale[1..]));
    let mut requirements = vec!["RUI-RECOV-05", "CL-D05-5", "CL-D02-5", "PRJ-RUI-TX-02"];
    requirements.extend_from_slice(&f.requirements());
    let description = format!(
        "{}: a second transaction on the old base is stale",
        f.name()
    );
    case(
        SECTION,
        "stale-after-good",
        serial,
        f,
        &description,
        &requirements,
    )
    .steps(s.steps())
}

/// Five commits, each observed: revision n after the n-th commit, the graph growing by one child.
fn revision_sequence() -> Case {
    let f = Framing::Jsonl;
    let mut s = Script::new(f);
    let mut children: Vec<String> = Vec::new();
    let mut entries: Vec<(String, Value)> = Vec::new();
    for revision in 1..=5u64 {
        let child = format!("c{revision}");
        children.push(child.clone());
        let refs: Vec<&str> = children.iter().map(String::as_str).collect();
        s.records(
            &Tx::begin(&format!("t{revision}"), revision - 1)
                .node("r", "Stack", json!({}), &refs)
                .node(&child, "Text", json!({ "text": child }), &[])
                .data("/count", json!(revision))
                .commit(revision, "r"),
        );
        entries.push((child.clone(), n("Text", json!({ "text": child }), &[])));
        s.push(expect("revision", json!(revision)));
    }
    let refs: Vec<&str> = children.iter().map(String::as_str).collect();
    let mut all = vec![("r", n("Stack", json!({}), &refs))];
    all.extend(entries.iter().map(|(id, node)| (id.as_str(), node.clone())));
    s.push(expect("graph", graph(5, Some("r"), nodes(all))));
    s.push(expect("data", json!({ "count": 5 })));
    s.extend(logs(
        (1..=5).map(|r| committed(&format!("t{r}"), r)).collect(),
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "revision-sequence",
        1,
        f,
        "five commits give revisions 1 to 5, each on the previous base",
        &["RUI-COMMIT-01", "CL-D02-5", "CL-D02-6", "CL-D02-1"],
    )
    .steps(s.steps())
}

fn revision_sequence_with_failures() -> Case {
    let f = Framing::JsonSeq;
    let mut s = Script::new(f);
    s.records(
        &Tx::begin("t1", 0)
            .node("r", "Stack", json!({}), &[])
            .commit(1, "r"),
    );
    s.records(&Tx::begin("t2", 1).data("/v", json!(2)).commit(3, "r"));
    s.records(&Tx::begin("t3", 1).data("/v", json!(3)).commit(2, "r"));
    s.records(
        &Tx::begin("t4", 2)
            .data("/v", json!(4))
            .abort("E_USER", "stop"),
    );
    let stray = s.records(&[json!(["commit", 2, 3, "r"])]);
    s.records(
        &Tx::begin("t5", 2)
            .node("r", "Stack", json!({ "gap": 5 }), &[])
            .commit(3, "r"),
    );
    s.records(&Tx::begin("t6", 2).data("/v", json!(6)).commit(3, "r"));
    s.end();
    s.push(expect("revision", json!(3)));
    s.push(expect(
        "graph",
        graph(
            3,
            Some("r"),
            nodes(vec![("r", n("Stack", json!({ "gap": 5 }), &[]))]),
        ),
    ));
    s.push(expect("data", json!({ "v": 3 })));
    s.push(expect(
        "transactions",
        json!([
            committed("t1", 1),
            rejected("t2", code::REVISION_MISMATCH),
            committed("t3", 2),
            aborted("t4"),
            committed("t5", 3),
            rejected("t6", code::STALE_BASE_REVISION)
        ]),
    ));
    s.push(expect("quarantine", json!([])));
    let t6 = stray[0] + 4;
    s.push(rejections_early_or_late(outside(&stray), &[t6 + 1, t6 + 2]));
    case(
        SECTION,
        "revision-sequence-with-failures",
        1,
        f,
        "failed and aborted transactions never advance the revision",
        &[
            "RUI-COMMIT-01",
            "RUI-RECOV-05",
            "RUI-ABORT-02",
            "CL-D02-6",
            "CL-D05-5",
            "PRJ-RUI-TX-02",
            "PRJ-RUI-TX-03",
        ],
    )
    .steps(s.steps())
}

fn chunked_sequence() -> Case {
    let f = Framing::Jsonl;
    let mut s = Script::new(f);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .data("/title", json!("One"))
            .commit(2, "r"),
    );
    s.records(
        &Tx::begin("t2", 2)
            .node("a", "Text", json!({ "text": "two" }), &[])
            .commit(3, "r"),
    );
    let len = s.pending_len();
    let cuts: Vec<usize> = (1..6).map(|k| k * len / 6 + 1).collect();
    s.feed_cut(&cuts);
    s.end();
    let mut state = base_state();
    state.graph["revision"] = json!(3);
    state.graph["nodes"]["a"]["props"] = json!({ "text": "two" });
    state.revision = 3;
    state.data = json!({ "title": "One" });
    s.extend(state.expect());
    s.extend(logs(
        vec![committed("t0", 1), committed("t1", 2), committed("t2", 3)],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "chunked-sequence",
        1,
        f,
        "three transactions cut into six arbitrary chunks all commit",
        &["CL-D07-1", "RUI-FRAME-02", "RUI-COMMIT-01"],
    )
    .steps(s.steps())
}
