//! Section `rui.invariants`: the graph invariants of the spec (RUI-INV-01..05, CL-D02-8), each
//! violated alone, then two at once, where the order of commit checks is unspecified and either
//! code is accepted (PRJ-RUI-TX-07). Sharing a child between parents (a DAG) and a cycle among
//! unreachable nodes (PRJ-RUI-GRAPH-06) are not violations.

use serde_json::{json, Value};

use super::support::observe::{committed, logs, n, nodes, State};
use super::support::stream::{Framing, Script};
use super::support::tuples::Tx;
use super::support::{case, code, failing, failing_after, Found, Prior};
use crate::case::{Case, Section, Strictness};
use crate::pattern::one_of;

const SECTION: &str = "invariants";
const F: Framing = Framing::Any;

pub fn section() -> Section {
    let text = || json!({ "text": "t" });
    Section::new(
        "rui.invariants",
        "Graph invariants",
        "suites::cases::rui::invariants",
    )
    .cases(vec![
        alone(
            "root-missing",
            "a commit whose root names no node is rejected",
            Tx::begin("t1", 0)
                .node("r", "Stack", json!({}), &[])
                .commit(1, "ghost"),
            code::ROOT_MISSING,
            2,
            &["RUI-INV-02"],
        ),
        alone(
            "root-missing-nothing-staged",
            "a first commit with no node at all has no root",
            Tx::begin("t1", 0).commit(1, "r"),
            code::ROOT_MISSING,
            1,
            &["RUI-INV-02"],
        ),
        alone(
            "child-unresolved",
            "a child id that names no node is rejected",
            Tx::begin("t1", 0)
                .node("r", "Stack", json!({}), &["a", "ghost"])
                .node("a", "Text", text(), &[])
                .commit(1, "r"),
            code::CHILD_UNRESOLVED,
            3,
            &["RUI-INV-03"],
        ),
        alone(
            "child-unresolved-deep",
            "an unresolved grandchild of the root is rejected",
            Tx::begin("t1", 0)
                .node("r", "Stack", json!({}), &["b"])
                .node("b", "Stack", json!({}), &["ghost"])
                .commit(1, "r"),
            code::CHILD_UNRESOLVED,
            3,
            &["RUI-INV-03"],
        ),
        alone(
            "cycle-self",
            "a node listing itself as its child is a cycle",
            Tx::begin("t1", 0)
                .node("r", "Stack", json!({}), &["r"])
                .commit(1, "r"),
            code::GRAPH_CYCLE,
            2,
            &["RUI-INV-04"],
        ),
        alone(
            "cycle-through-root",
            "a child that lists the root again is a cycle",
            Tx::begin("t1", 0)
                .node("r", "Stack", json!({}), &["a"])
                .node("a", "Stack", json!({}), &["r"])
                .commit(1, "r"),
            code::GRAPH_CYCLE,
            3,
            &["RUI-INV-04"],
        ),
        alone(
            "cycle-below-root",
            "a cycle between two descendants of the root is rejected",
            Tx::begin("t1", 0)
                .node("r", "Stack", json!({}), &["a"])
                .node("a", "Stack", json!({}), &["b"])
                .node("b", "Stack", json!({}), &["a"])
                .commit(1, "r"),
            code::GRAPH_CYCLE,
            4,
            &["RUI-INV-04"],
        ),
        cycle_via_later_commit(),
        // "Every structural child reference resolves" holds for every node, reachable or not
        // (only acyclicity is restricted to the reachable graph): issue 15.
        alone(
            "child-unresolved-unreachable",
            "an unreachable node's child that names no node is rejected",
            Tx::begin("t1", 0)
                .node("r", "Stack", json!({}), &[])
                .node("u", "Box", json!({}), &["ghost"])
                .commit(1, "r"),
            code::CHILD_UNRESOLVED,
            3,
            &["RUI-INV-03", "PRJ-RUI-GRAPH-06"],
        ),
        delete_leaves_unreachable_dangling(),
        alone(
            "duplicate-child",
            "a child list naming one id twice is rejected",
            Tx::begin("t1", 0)
                .node("r", "Stack", json!({}), &["a", "a"])
                .node("a", "Text", text(), &[])
                .commit(1, "r"),
            code::DUPLICATE_CHILD,
            1,
            &["RUI-INV-05"],
        ),
        alone(
            "duplicate-child-not-adjacent",
            "a repeated child id separated by another is rejected",
            Tx::begin("t1", 0)
                .node("a", "Text", text(), &[])
                .node("b", "Text", text(), &[])
                .node("r", "Stack", json!({}), &["a", "b", "a"])
                .commit(1, "r"),
            code::DUPLICATE_CHILD,
            3,
            &["RUI-INV-05"],
        ),
        shared_child_allowed(),
        unreachable_cycle(),
        pair(
            "cycle-and-unresolved-child",
            "a cycle and an unresolved child at once: either code",
            Tx::begin("t1", 0)
                .node("r", "Stack", json!({}), &["a"])
                .node("a", "Stack", json!({}), &["r", "ghost"])
                .commit(1, "r"),
            &[code::GRAPH_CYCLE, code::CHILD_UNRESOLVED],
            3,
            &["RUI-INV-03", "RUI-INV-04"],
        ),
        pair(
            "cycle-and-duplicate-child",
            "a cycle and a duplicate child at once: either code",
            Tx::begin("t1", 0)
                .node("r", "Stack", json!({}), &["a", "a"])
                .node("a", "Stack", json!({}), &["r"])
                .commit(1, "r"),
            &[code::GRAPH_CYCLE, code::DUPLICATE_CHILD],
            1,
            &["RUI-INV-04", "RUI-INV-05"],
        ),
        pair(
            "duplicate-and-unresolved-child",
            "a duplicate and an unresolved child at once: either code",
            Tx::begin("t1", 0)
                .node("r", "Stack", json!({}), &["a", "a", "ghost"])
                .node("a", "Text", text(), &[])
                .commit(1, "r"),
            &[code::DUPLICATE_CHILD, code::CHILD_UNRESOLVED],
            1,
            &["RUI-INV-03", "RUI-INV-05"],
        ),
        pair(
            "unknown-component-and-unresolved",
            "an unknown component and an unresolved child: either code",
            Tx::begin("t1", 0)
                .node("r", "Stack", json!({}), &["a", "ghost"])
                .node("a", "Slider", json!({}), &[])
                .commit(1, "r"),
            &[code::UNKNOWN_COMPONENT, code::CHILD_UNRESOLVED],
            2,
            &["RUI-INV-03", "RUI-INV-07", "RUI-RECOV-07"],
        ),
        pair(
            "children-not-allowed-and-unresolved",
            "a child on a leaf component that does not resolve: either code",
            Tx::begin("t1", 0)
                .node("r", "Stack", json!({}), &["a"])
                .node("a", "Text", text(), &["ghost"])
                .commit(1, "r"),
            &[code::CHILDREN_NOT_ALLOWED, code::CHILD_UNRESOLVED],
            2,
            &["RUI-INV-03", "RUI-INV-07", "CL-D06-3"],
        ),
        pair(
            "props-invalid-and-cycle",
            "invalid props and a cycle at once: either code",
            Tx::begin("t1", 0)
                .node("r", "Stack", json!({ "gap": "wide" }), &["a"])
                .node("a", "Stack", json!({}), &["r"])
                .commit(1, "r"),
            &[code::PROPS_INVALID, code::GRAPH_CYCLE],
            1,
            &["RUI-INV-04", "RUI-INV-07"],
        ),
        pair(
            "root-missing-and-unknown-component",
            "a missing root and an unknown component: either code",
            Tx::begin("t1", 0)
                .node("r", "Slider", json!({}), &[])
                .commit(1, "ghost"),
            &[code::ROOT_MISSING, code::UNKNOWN_COMPONENT],
            1,
            &["RUI-INV-02", "RUI-INV-07"],
        ),
        pair(
            "duplicate-node-and-root-missing",
            "a duplicate node and a missing root: either code",
            Tx::begin("t1", 0)
                .node("r", "Stack", json!({}), &[])
                .node("r", "Stack", json!({}), &[])
                .commit(1, "ghost"),
            &[code::DUPLICATE_NODE, code::ROOT_MISSING],
            2,
            &["RUI-INV-01", "RUI-INV-02", "RUI-NODE-02"],
        ),
    ])
}

/// The register entry of an invariant code.
fn registered(code: &str) -> &'static str {
    match code {
        c if c == code::ROOT_MISSING => "PRJ-RUI-GRAPH-02",
        c if c == code::CHILD_UNRESOLVED => "PRJ-RUI-GRAPH-03",
        c if c == code::GRAPH_CYCLE => "PRJ-RUI-GRAPH-04",
        c if c == code::DUPLICATE_CHILD => "PRJ-RUI-GRAPH-05",
        _ => "PRJ-RUI-GRAPH-01",
    }
}

/// One invariant violated alone by a first transaction; `found` is the index of the earliest
/// record at which the violation can be seen (the commit for reachability checks).
fn alone(
    slug: &str,
    description: &str,
    tx: Vec<Value>,
    code: &str,
    found: usize,
    extra: &[&str],
) -> Case {
    let mut requirements = vec!["CL-D02-8", registered(code), "RUI-RECOV-06"];
    requirements.extend_from_slice(extra);
    case(SECTION, slug, 1, F, description, &requirements).steps(failing(
        F,
        Prior::Empty,
        &tx,
        "t1",
        json!(code),
        Found::AtOrAfter(found),
    ))
}

/// Two violations in one transaction; `found` is the earliest record at which either can be seen.
fn pair(
    slug: &str,
    description: &str,
    tx: Vec<Value>,
    codes: &[&str],
    found: usize,
    extra: &[&str],
) -> Case {
    let mut requirements = vec!["CL-D02-8", "PRJ-RUI-TX-07"];
    requirements.extend_from_slice(extra);
    let pattern = one_of(codes.iter().map(|c| json!(c)));
    case(SECTION, slug, 1, F, description, &requirements)
        .strictness(Strictness::ImplDefined)
        .steps(failing(
            F,
            Prior::Empty,
            &tx,
            "t1",
            pattern,
            Found::AtOrAfter(found),
        ))
}

fn cycle_via_later_commit() -> Case {
    let prior = vec![Tx::begin("t0", 0)
        .node("r", "Stack", json!({}), &["s"])
        .node("s", "Stack", json!({}), &[])
        .commit(1, "r")];
    let state = State::new(
        1,
        "r",
        nodes(vec![
            ("r", n("Stack", json!({}), &["s"])),
            ("s", n("Stack", json!({}), &[])),
        ]),
        json!({}),
    );
    let tx = Tx::begin("t1", 1)
        .node("s", "Stack", json!({}), &["r"])
        .commit(2, "r");
    case(
        SECTION,
        "cycle-via-later-commit",
        1,
        F,
        "redefining a committed child to list the root is a cycle",
        &["RUI-INV-04", "CL-D02-8", "PRJ-RUI-GRAPH-04", "RUI-RECOV-06"],
    )
    .steps(failing_after(
        F,
        &prior,
        vec![committed("t0", 1)],
        state,
        &tx,
        "t1",
        json!(code::GRAPH_CYCLE),
        Found::AtOrAfter(2),
    ))
}

/// Deleting a node an unreachable node still lists leaves a child reference that resolves to
/// nothing: the transaction fails and the committed graph stays (RUI-INV-03, issue 15).
fn delete_leaves_unreachable_dangling() -> Case {
    let prior = vec![Tx::begin("t0", 0)
        .node("r", "Stack", json!({}), &[])
        .node("u", "Box", json!({}), &["x"])
        .node("x", "Box", json!({}), &[])
        .commit(1, "r")];
    let state = State::new(
        1,
        "r",
        nodes(vec![
            ("r", n("Stack", json!({}), &[])),
            ("u", n("Box", json!({}), &["x"])),
            ("x", n("Box", json!({}), &[])),
        ]),
        json!({}),
    );
    let tx = Tx::begin("t1", 1).delete_node("x").commit(2, "r");
    case(
        SECTION,
        "delete-leaves-unreachable-dangling",
        1,
        F,
        "deleting a node an unreachable node lists is rejected",
        &["RUI-INV-03", "CL-D02-8", "PRJ-RUI-GRAPH-03", "RUI-RECOV-06"],
    )
    .steps(failing_after(
        F,
        &prior,
        vec![committed("t0", 1)],
        state,
        &tx,
        "t1",
        json!(code::CHILD_UNRESOLVED),
        Found::AtOrAfter(2),
    ))
}

fn shared_child_allowed() -> Case {
    let mut s = Script::new(F);
    s.records(
        &Tx::begin("t1", 0)
            .node("r", "Stack", json!({}), &["a", "b"])
            .node("a", "Stack", json!({}), &["c"])
            .node("b", "Stack", json!({}), &["c"])
            .node("c", "Text", json!({ "text": "shared" }), &[])
            .commit(1, "r"),
    );
    s.end();
    let state = State::new(
        1,
        "r",
        nodes(vec![
            ("r", n("Stack", json!({}), &["a", "b"])),
            ("a", n("Stack", json!({}), &["c"])),
            ("b", n("Stack", json!({}), &["c"])),
            ("c", n("Text", json!({ "text": "shared" }), &[])),
        ]),
        json!({}),
    );
    s.extend(state.expect());
    s.extend(logs(vec![committed("t1", 1)], vec![], vec![]));
    case(
        SECTION,
        "shared-child-allowed",
        1,
        F,
        "one node listed by two parents is acyclic and commits",
        &["RUI-INV-04", "RUI-INV-05", "CL-D02-8"],
    )
    .steps(s.steps())
}

fn unreachable_cycle() -> Case {
    let mut s = Script::new(F);
    s.records(
        &Tx::begin("t1", 0)
            .node("r", "Stack", json!({}), &[])
            .node("x", "Box", json!({}), &["y"])
            .node("y", "Box", json!({}), &["x"])
            .commit(1, "r"),
    );
    s.end();
    let state = State::new(
        1,
        "r",
        nodes(vec![
            ("r", n("Stack", json!({}), &[])),
            ("x", n("Box", json!({}), &["y"])),
            ("y", n("Box", json!({}), &["x"])),
        ]),
        json!({}),
    );
    s.extend(state.expect());
    s.extend(logs(vec![committed("t1", 1)], vec![], vec![]));
    case(
        SECTION,
        "unreachable-cycle-commits",
        1,
        F,
        "a cycle among nodes the root does not reach does not fail",
        &["RUI-INV-04", "PRJ-RUI-GRAPH-07", "PRJ-RUI-GRAPH-06"],
    )
    .strictness(Strictness::Recommended)
    .steps(s.steps())
}
