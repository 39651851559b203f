//! Section `rui.node`: node records replace the complete staged definition for their id
//! (RUI-NODE-01, CL-D01-3); a node id defined twice in one transaction is rejected rather than
//! last-write-wins (RUI-NODE-02, CL-D02-7, RUI-INV-01); props are kept as named objects
//! (RUI-REC-03); null and omission never delete (RUI-DEL-02).

use serde_json::{json, Value};

use super::support::observe::{committed, logs, n, nodes, State};
use super::support::stream::{Framing, Script};
use super::support::tuples::Tx;
use super::support::{base_state, base_tx, case, code, failing, Found, Prior};
use crate::case::{Case, Section};

const SECTION: &str = "node";
const F: Framing = Framing::Any;

pub fn section() -> Section {
    Section::new("rui.node", "Node records", "suites::cases::rui::node").cases(vec![
        replace_complete_props(),
        replace_component(),
        replace_children(),
        duplicate_definition(),
        duplicate_identical_definition(),
        duplicate_of_committed_node(),
        redefine_across_transactions(),
        children_order_kept(),
        many_children_order_kept(),
        props_kept_verbatim(),
        null_prop_kept(),
        unmentioned_node_unchanged(),
        omitted_child_stays(),
    ])
}

/// Commits `first` then `second` (each a whole transaction) and expects `state` after both.
fn two_commits(first: Vec<Value>, second: Vec<Value>, state: State) -> Vec<Value> {
    let mut s = Script::new(F);
    s.records(&first);
    s.records(&second);
    s.end();
    s.extend(state.expect());
    s.extend(logs(
        vec![committed("t1", 1), committed("t2", 2)],
        vec![],
        vec![],
    ));
    s.steps()
}

fn replace_complete_props() -> Case {
    let first = Tx::begin("t1", 0)
        .node("r", "Box", json!({ "x": 1, "y": 2 }), &[])
        .commit(1, "r");
    let second = Tx::begin("t2", 1)
        .node("r", "Box", json!({ "y": 3 }), &[])
        .commit(2, "r");
    let state = State::new(
        2,
        "r",
        nodes(vec![("r", n("Box", json!({ "y": 3 }), &[]))]),
        json!({}),
    );
    case(
        SECTION,
        "replace-complete-props",
        1,
        F,
        "a node record replaces all props: absent props are not merged",
        &["RUI-NODE-01", "CL-D01-3"],
    )
    .steps(two_commits(first, second, state))
}

fn replace_component() -> Case {
    let first = Tx::begin("t1", 0)
        .node("r", "Stack", json!({ "gap": 1 }), &[])
        .commit(1, "r");
    let second = Tx::begin("t2", 1)
        .node("r", "Box", json!({ "kind": "box" }), &[])
        .commit(2, "r");
    let state = State::new(
        2,
        "r",
        nodes(vec![("r", n("Box", json!({ "kind": "box" }), &[]))]),
        json!({}),
    );
    case(
        SECTION,
        "replace-component",
        1,
        F,
        "a node record may change the component of an existing id",
        &["RUI-NODE-01", "CL-D01-3"],
    )
    .steps(two_commits(first, second, state))
}

fn replace_children() -> Case {
    let first = Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &["a", "b"])
        .node("a", "Text", json!({ "text": "a" }), &[])
        .node("b", "Text", json!({ "text": "b" }), &[])
        .commit(1, "r");
    let second = Tx::begin("t2", 1)
        .node("r", "Stack", json!({}), &["b"])
        .commit(2, "r");
    let state = State::new(
        2,
        "r",
        nodes(vec![
            ("r", n("Stack", json!({}), &["b"])),
            ("a", n("Text", json!({ "text": "a" }), &[])),
            ("b", n("Text", json!({ "text": "b" }), &[])),
        ]),
        json!({}),
    );
    case(
        SECTION,
        "replace-children",
        1,
        F,
        "a node record replaces the whole child list",
        &["RUI-NODE-01", "RUI-DEL-02"],
    )
    .steps(two_commits(first, second, state))
}

fn duplicate_definition() -> Case {
    let tx = Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &["a"])
        .node("a", "Text", json!({ "text": "one" }), &[])
        .node("a", "Text", json!({ "text": "two" }), &[])
        .commit(1, "r");
    case(
        SECTION,
        "duplicate-definition",
        1,
        F,
        "a node id defined twice in one transaction is rejected",
        &[
            "RUI-NODE-02",
            "CL-D02-7",
            "RUI-INV-01",
            "PRJ-RUI-GRAPH-01",
            "RUI-RECOV-06",
        ],
    )
    .steps(failing(
        F,
        Prior::Empty,
        &tx,
        "t1",
        json!(code::DUPLICATE_NODE),
        Found::AtOrAfter(3),
    ))
}

fn duplicate_identical_definition() -> Case {
    let tx = Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &[])
        .node("r", "Stack", json!({}), &[])
        .commit(1, "r");
    case(
        SECTION,
        "duplicate-identical-definition",
        1,
        F,
        "two identical definitions of one id are still a duplicate",
        &["RUI-NODE-02", "CL-D02-7", "PRJ-RUI-GRAPH-01"],
    )
    .steps(failing(
        F,
        Prior::Empty,
        &tx,
        "t1",
        json!(code::DUPLICATE_NODE),
        Found::AtOrAfter(2),
    ))
}

fn duplicate_of_committed_node() -> Case {
    let tx = Tx::begin("t1", 1)
        .node("a", "Text", json!({ "text": "one" }), &[])
        .node("a", "Text", json!({ "text": "two" }), &[])
        .commit(2, "r");
    case(
        SECTION,
        "duplicate-of-committed-node",
        1,
        F,
        "redefining a committed id twice in one transaction is rejected",
        &[
            "RUI-NODE-02",
            "CL-D02-7",
            "PRJ-RUI-GRAPH-01",
            "RUI-RECOV-06",
        ],
    )
    .steps(failing(
        F,
        Prior::Base,
        &tx,
        "t1",
        json!(code::DUPLICATE_NODE),
        Found::AtOrAfter(2),
    ))
}

fn redefine_across_transactions() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .node("a", "Text", json!({ "text": "two" }), &[])
            .commit(2, "r"),
    );
    s.records(
        &Tx::begin("t2", 2)
            .node("a", "Text", json!({ "text": "three" }), &[])
            .commit(3, "r"),
    );
    s.end();
    let mut state = base_state();
    state.graph["revision"] = json!(3);
    state.graph["nodes"]["a"]["props"] = json!({ "text": "three" });
    state.revision = 3;
    s.extend(state.expect());
    s.extend(logs(
        vec![committed("t0", 1), committed("t1", 2), committed("t2", 3)],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "redefine-across-transactions",
        1,
        F,
        "one definition per transaction may redefine an id each time",
        &["RUI-NODE-01", "RUI-INV-01", "CL-D02-7"],
    )
    .steps(s.steps())
}

/// A list of twenty distinct children, more than a short list: every child is kept, in order,
/// and none is taken for a repeated one.
fn many_children_order_kept() -> Case {
    let ids: Vec<String> = (0..20).rev().map(|i| format!("c{i}")).collect();
    let children: Vec<&str> = ids.iter().map(String::as_str).collect();
    let mut tx = Tx::begin("t1", 0).node("r", "Stack", json!({}), &children);
    let mut expected = vec![("r", n("Stack", json!({}), &children))];
    for id in &children {
        tx = tx.node(id, "Text", json!({ "text": id }), &[]);
        expected.push((id, n("Text", json!({ "text": id }), &[])));
    }
    let mut s = Script::new(F);
    s.records(&tx.commit(1, "r"));
    s.end();
    s.extend(State::new(1, "r", nodes(expected), json!({})).expect());
    s.extend(logs(vec![committed("t1", 1)], vec![], vec![]));
    case(
        SECTION,
        "many-children-order-kept",
        1,
        F,
        "a list of twenty distinct children is kept whole and in order",
        &["CL-D01-3", "RUI-COMMIT-02"],
    )
    .steps(s.steps())
}

fn children_order_kept() -> Case {
    let mut s = Script::new(F);
    s.records(
        &Tx::begin("t1", 0)
            .node("r", "Stack", json!({}), &["c", "a", "b"])
            .node("a", "Text", json!({ "text": "a" }), &[])
            .node("b", "Text", json!({ "text": "b" }), &[])
            .node("c", "Text", json!({ "text": "c" }), &[])
            .commit(1, "r"),
    );
    s.end();
    s.extend(
        State::new(
            1,
            "r",
            nodes(vec![
                ("r", n("Stack", json!({}), &["c", "a", "b"])),
                ("a", n("Text", json!({ "text": "a" }), &[])),
                ("b", n("Text", json!({ "text": "b" }), &[])),
                ("c", n("Text", json!({ "text": "c" }), &[])),
            ]),
            json!({}),
        )
        .expect(),
    );
    s.extend(logs(vec![committed("t1", 1)], vec![], vec![]));
    case(
        SECTION,
        "children-order-kept",
        1,
        F,
        "a child list keeps its order, defined before or after the children",
        &["CL-D01-3", "RUI-COMMIT-02"],
    )
    .steps(s.steps())
}

fn props_kept_verbatim() -> Case {
    let props = json!({
        "title": "x", "count": 3, "ratio": 0.25, "on": true, "none": null,
        "list": [1, "two", [3], { "four": 4 }], "nested": { "deep": { "k\u{e9}y": "v" } }
    });
    let mut s = Script::new(F);
    s.records(
        &Tx::begin("t1", 0)
            .node("r", "Box", props.clone(), &[])
            .commit(1, "r"),
    );
    s.end();
    s.extend(State::new(1, "r", nodes(vec![("r", n("Box", props, &[]))]), json!({})).expect());
    s.extend(logs(vec![committed("t1", 1)], vec![], vec![]));
    case(
        SECTION,
        "props-kept-verbatim",
        1,
        F,
        "props are kept as the named object given, every JSON type intact",
        &["RUI-REC-03", "CL-D01-3"],
    )
    .steps(s.steps())
}

fn null_prop_kept() -> Case {
    let first = Tx::begin("t1", 0)
        .node("r", "Box", json!({ "v": 1, "w": 2 }), &[])
        .commit(1, "r");
    let second = Tx::begin("t2", 1)
        .node("r", "Box", json!({ "v": null, "w": 2 }), &[])
        .commit(2, "r");
    let state = State::new(
        2,
        "r",
        nodes(vec![("r", n("Box", json!({ "v": null, "w": 2 }), &[]))]),
        json!({}),
    );
    case(
        SECTION,
        "null-prop-kept",
        1,
        F,
        "a prop set to null is kept as null, not removed",
        &["RUI-DEL-02", "RUI-NODE-01"],
    )
    .steps(two_commits(first, second, state))
}

fn unmentioned_node_unchanged() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .data("/title", json!("Next"))
            .commit(2, "r"),
    );
    s.end();
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.revision = 2;
    state.data = json!({ "title": "Next" });
    s.extend(state.expect());
    s.extend(logs(
        vec![committed("t0", 1), committed("t1", 2)],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "unmentioned-nodes-unchanged",
        1,
        F,
        "a transaction without node records keeps every committed node",
        &["RUI-DEL-02", "RUI-DEL-01", "RUI-COMMIT-02"],
    )
    .steps(s.steps())
}

fn omitted_child_stays() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .node("r", "Stack", json!({}), &[])
            .commit(2, "r"),
    );
    s.end();
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.graph["nodes"]["r"]["children"] = json!([]);
    state.revision = 2;
    s.extend(state.expect());
    s.extend(logs(
        vec![committed("t0", 1), committed("t1", 2)],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "omitted-child-not-deleted",
        1,
        F,
        "a node dropped from every child list stays in the graph",
        &["RUI-DEL-02", "RUI-DEL-01", "PRJ-RUI-GRAPH-06"],
    )
    .steps(s.steps())
}
