//! Section `rui.delete`: deletion is explicit (RUI-DEL-01, CL-D01-5, CL-D01-6): only `delete`
//! removes a node or a data member (CL-D03-4), deleting an absent one fails the transaction
//! (CL-D03-5), and a deletion that leaves a dangling child or root fails the commit.

use serde_json::{json, Value};

use super::support::observe::{committed, logs, n, nodes, open_point_at, State};
use super::support::stream::{Framing, Script};
use super::support::tuples::Tx;
use super::support::{base_state, base_tx, case, code, failing, failing_after, Found, Prior};
use crate::case::{Case, Section, Strictness};
use crate::pattern::one_of;

const SECTION: &str = "delete";
const F: Framing = Framing::Any;

pub fn section() -> Section {
    Section::new(
        "rui.delete",
        "Explicit deletion of nodes and data",
        "suites::cases::rui::delete",
    )
    .cases(vec![
        deletes_node(),
        deletes_data_member(),
        deletes_nested_member(),
        deletes_array_element(),
        delete_then_set(),
        node_absent(),
        node_deleted_twice(),
        data_absent(),
        data_deleted_twice(),
        array_element_past_end(),
        empty_pointer(),
        invalid_pointer(),
        referenced_node(),
        root_node(),
    ])
}

/// The baseline, then `tx` as `t1` commits revision 2 and gives `state`.
fn after_base(tx: Vec<Value>, state: State) -> Vec<Value> {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(&tx);
    s.end();
    s.extend(state.expect());
    s.extend(logs(
        vec![committed("t0", 1), committed("t1", 2)],
        vec![],
        vec![],
    ));
    s.steps()
}

fn deletes_node() -> Case {
    let tx = Tx::begin("t1", 1)
        .node("r", "Stack", json!({}), &[])
        .delete_node("a")
        .commit(2, "r");
    let state = State::new(
        2,
        "r",
        nodes(vec![("r", n("Stack", json!({}), &[]))]),
        json!({ "title": "Home" }),
    );
    case(
        SECTION,
        "deletes-node",
        1,
        F,
        "delete node removes the node from the committed graph",
        &["RUI-DEL-01", "CL-D01-5", "CL-D03-4"],
    )
    .steps(after_base(tx, state))
}

fn deletes_data_member() -> Case {
    let tx = Tx::begin("t1", 1).delete_data("/title").commit(2, "r");
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.revision = 2;
    state.data = json!({});
    case(
        SECTION,
        "deletes-data-member",
        1,
        F,
        "delete data removes the member from the data document",
        &["RUI-DEL-01", "CL-D01-6", "CL-D03-4"],
    )
    .steps(after_base(tx, state))
}

fn deletes_nested_member() -> Case {
    let tx = Tx::begin("t1", 1)
        .data("/cfg", json!({ "a": 1, "b": 2 }))
        .delete_data("/cfg/a")
        .commit(2, "r");
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.revision = 2;
    state.data = json!({ "title": "Home", "cfg": { "b": 2 } });
    case(
        SECTION,
        "deletes-nested-member",
        1,
        F,
        "delete data removes a nested member staged earlier",
        &["CL-D01-6", "CL-D03-4", "PRJ-RUI-TX-09"],
    )
    .steps(after_base(tx, state))
}

/// An array element is data too: `delete` removes it (CL-D03-4 "only `delete` removes"), and a
/// JSON array has no holes, so the elements after it move up (RFC 6901 addresses elements by
/// index; removing one is not setting it to `null`, which CL-D03-3 keeps apart).
fn deletes_array_element() -> Case {
    let tx = Tx::begin("t1", 1)
        .data("/list", json!(["a", "b", "c"]))
        .delete_data("/list/1")
        .commit(2, "r");
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.revision = 2;
    state.data = json!({ "title": "Home", "list": ["a", "c"] });
    case(
        SECTION,
        "deletes-array-element",
        1,
        F,
        "delete data removes an array element; later elements move up",
        &["RUI-DEL-01", "CL-D01-6", "CL-D03-3", "CL-D03-4"],
    )
    .steps(after_base(tx, state))
}

fn delete_then_set() -> Case {
    let tx = Tx::begin("t1", 1)
        .delete_data("/title")
        .data("/title", json!("New"))
        .commit(2, "r");
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.revision = 2;
    state.data = json!({ "title": "New" });
    case(
        SECTION,
        "delete-then-set",
        1,
        F,
        "a member deleted then set again in order holds the new value",
        &["CL-D03-4", "PRJ-RUI-TX-09"],
    )
    .steps(after_base(tx, state))
}

fn node_absent() -> Case {
    let tx = Tx::begin("t1", 1)
        .data("/title", json!("x"))
        .delete_node("ghost")
        .commit(2, "r");
    case(
        SECTION,
        "node-absent",
        1,
        F,
        "deleting a node that does not exist fails the transaction",
        &["CL-D03-5", "PRJ-RUI-DATA-03", "RUI-RECOV-06"],
    )
    .steps(failing(
        F,
        Prior::Base,
        &tx,
        "t1",
        json!(code::DELETE_ABSENT),
        Found::AtOrAfter(2),
    ))
}

fn node_deleted_twice() -> Case {
    let tx = Tx::begin("t1", 1)
        .node("r", "Stack", json!({}), &[])
        .delete_node("a")
        .delete_node("a")
        .commit(2, "r");
    case(
        SECTION,
        "node-deleted-twice",
        1,
        F,
        "the second delete of one node in a transaction finds it absent",
        &["CL-D03-5", "PRJ-RUI-DATA-03", "PRJ-RUI-TX-09"],
    )
    .steps(failing(
        F,
        Prior::Base,
        &tx,
        "t1",
        json!(code::DELETE_ABSENT),
        Found::AtOrAfter(3),
    ))
}

fn data_absent() -> Case {
    let tx = Tx::begin("t1", 1)
        .node("a", "Text", json!({ "text": "bye" }), &[])
        .delete_data("/missing")
        .commit(2, "r");
    case(
        SECTION,
        "data-absent",
        1,
        F,
        "deleting a data member that does not exist fails the transaction",
        &["CL-D03-5", "PRJ-RUI-DATA-03", "RUI-RECOV-06"],
    )
    .steps(failing(
        F,
        Prior::Base,
        &tx,
        "t1",
        json!(code::DELETE_ABSENT),
        Found::AtOrAfter(2),
    ))
}

fn data_deleted_twice() -> Case {
    let tx = Tx::begin("t1", 1)
        .delete_data("/title")
        .delete_data("/title")
        .commit(2, "r");
    case(
        SECTION,
        "data-deleted-twice",
        1,
        F,
        "the second delete of one member in a transaction finds it absent",
        &["CL-D03-5", "PRJ-RUI-DATA-03", "PRJ-RUI-TX-09"],
    )
    .steps(failing(
        F,
        Prior::Base,
        &tx,
        "t1",
        json!(code::DELETE_ABSENT),
        Found::AtOrAfter(2),
    ))
}

/// One past the last element names no element: deleting it is deleting an absent data node
/// (CL-D03-5), so the transaction fails. RFC 6901 §4 makes evaluating such a pointer an error,
/// so an implementation may report it as an invalid pointer instead of an absent one.
fn array_element_past_end() -> Case {
    let tx = Tx::begin("t1", 1)
        .data("/list", json!(["a", "b", "c"]))
        .delete_data("/list/3")
        .commit(2, "r");
    case(
        SECTION,
        "array-element-past-end",
        1,
        F,
        "deleting the element one past the end fails the transaction",
        &["CL-D03-5", "RUI-RECOV-06"],
    )
    .steps(failing(
        F,
        Prior::Base,
        &tx,
        "t1",
        one_of([json!(code::DELETE_ABSENT), json!(code::POINTER_INVALID)]),
        Found::AtOrAfter(2),
    ))
}

fn empty_pointer() -> Case {
    let tx = Tx::begin("t1", 1).delete_data("").commit(2, "r");
    case(
        SECTION,
        "empty-pointer",
        1,
        F,
        "deleting the whole data document (empty pointer) is invalid",
        &["PRJ-RUI-DATA-06", "CL-D01-6"],
    )
    .strictness(Strictness::Recommended)
    .steps(failing(
        F,
        Prior::Base,
        &tx,
        "t1",
        json!(code::POINTER_INVALID),
        Found::AtOrAfter(1),
    ))
}

fn invalid_pointer() -> Case {
    let tx = Tx::begin("t1", 1).delete_data("title").commit(2, "r");
    open_point_at(
        case(
            SECTION,
            "invalid-pointer",
            1,
            F,
            "a delete data pointer without a leading slash is invalid",
            &["PRJ-RUI-DATA-02", "CL-D01-6"],
        )
        .steps(failing(
            F,
            Prior::Base,
            &tx,
            "t1",
            super::data::pointer_failure(),
            Found::AtOrAfter(1),
        )),
        "PRJ-RUI-DATA-02",
        "transactions",
    )
}

fn referenced_node() -> Case {
    let tx = Tx::begin("t1", 1).delete_node("a").commit(2, "r");
    case(
        SECTION,
        "still-referenced-node",
        1,
        F,
        "deleting a node a reachable child list still names fails at commit",
        &[
            "RUI-DEL-01",
            "RUI-INV-03",
            "PRJ-RUI-GRAPH-03",
            "RUI-RECOV-06",
        ],
    )
    .steps(failing(
        F,
        Prior::Base,
        &tx,
        "t1",
        json!(code::CHILD_UNRESOLVED),
        Found::AtOrAfter(2),
    ))
}

fn root_node() -> Case {
    let prior = vec![Tx::begin("t0", 0)
        .node("r", "Stack", json!({}), &[])
        .commit(1, "r")];
    let state = State::single("r", "Stack", json!({}));
    let tx = Tx::begin("t1", 1).delete_node("r").commit(2, "r");
    case(
        SECTION,
        "root-node",
        1,
        F,
        "deleting the node the commit names as root fails the commit",
        &["RUI-DEL-01", "RUI-INV-02", "PRJ-RUI-GRAPH-02"],
    )
    .steps(failing_after(
        F,
        &prior,
        vec![committed("t0", 1)],
        state,
        &tx,
        "t1",
        json!(code::ROOT_MISSING),
        Found::AtOrAfter(2),
    ))
}
