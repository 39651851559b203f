//! Transactions, recovery, limits, catalog validation and action dispatch of the Rixx UI runtime,
//! driven through JSONL streams (spec "Transaction", "Commit", "Abort", "Graph invariants",
//! "Recovery"; CL-D02..D06, CL-D09; PRJ-RUI-TX-*, PRJ-RUI-GRAPH-*, PRJ-RUI-LIMIT-*, PRJ-RUI-CAT-*,
//! PRJ-RUI-ACT-*). Expectations come from those sentences, not from the runtime's output.

use reference::choices::{Choices, Fault};
use reference::rui::{
    ActionPolicy, Catalog, Config, DispatchCode, DispatchStatus, Framing, Limits, PolicySettlement,
    QuarantineCode, RejectionCode, Runtime, TransactionOutcome,
};
use serde_json::{json, Value};

fn catalog() -> Catalog {
    Catalog::from_json(&json!({ "id": "demo@1.0.0", "components": {
        "Stack": { "props": { "type": "object", "properties": { "gap": { "type": "integer", "minimum": 0 } },
                              "additionalProperties": false }, "children": true },
        "Text": { "props": { "type": "object", "properties": { "text": { "type": "string" } },
                             "required": ["text"], "additionalProperties": false }, "children": false },
        "Button": { "props": { "type": "object", "properties": { "label": { "type": "string" }, "onPress": { "type": "object" } },
                               "required": ["label"], "additionalProperties": false },
                    "children": false, "actions": ["onPress"] },
        "Box": { "props": { "type": "object" }, "children": true } } }))
    .expect("the demo catalog is valid")
}

fn runtime_with(limits: Limits, policy: ActionPolicy) -> Runtime {
    runtime_choosing(limits, policy, Choices::default())
}

fn runtime_choosing(limits: Limits, policy: ActionPolicy, choices: Choices) -> Runtime {
    Runtime::new(Config {
        framing: Framing::Jsonl,
        catalog: catalog(),
        limits,
        action_policy: policy,
        choices,
    })
}

/// The default runtime with one fault of `reference-driver --fault` injected.
fn faulty_runtime(fault: Fault) -> Runtime {
    runtime_choosing(
        Limits::default(),
        ActionPolicy::Gated,
        Choices::default().with_fault(fault),
    )
}

fn runtime() -> Runtime {
    runtime_with(Limits::default(), ActionPolicy::Gated)
}

/// Feeds each record as one JSONL line.
fn feed(runtime: &mut Runtime, records: &[Value]) {
    for record in records {
        runtime.feed(format!("{record}\n").as_bytes()).unwrap();
    }
}

fn run(records: &[Value]) -> Runtime {
    let mut rt = runtime();
    feed(&mut rt, records);
    rt
}

/// `(transactionId, result)` of every finished transaction, the result as `committed N`,
/// `aborted` or the rejection code.
fn results(rt: &Runtime) -> Vec<(String, String)> {
    rt.transactions()
        .iter()
        .map(|t| {
            let result = match t.outcome {
                TransactionOutcome::Committed { revision } => format!("committed {revision}"),
                TransactionOutcome::Aborted => "aborted".to_string(),
                TransactionOutcome::Rejected(code) => code.as_str().to_string(),
            };
            (t.transaction_id.clone(), result)
        })
        .collect()
}

fn result_of(rt: &Runtime, index: usize) -> String {
    results(rt)
        .get(index)
        .map(|r| r.1.clone())
        .unwrap_or_else(|| "none".into())
}

fn last_result(rt: &Runtime) -> String {
    results(rt)
        .last()
        .map(|r| r.1.clone())
        .unwrap_or_else(|| "none".into())
}

/// A transaction of these operations at base `base`, committing revision `base + 1` with `root`.
fn tx(id: &str, base: u64, operations: &[Value], root: &str) -> Vec<Value> {
    let mut records = vec![json!(["begin", 0, id, base])];
    for (i, op) in operations.iter().enumerate() {
        let mut op = op.clone();
        op[1] = json!(i + 1);
        records.push(op);
    }
    records.push(json!(["commit", operations.len() + 1, base + 1, root]));
    records
}

fn node(id: &str, component: &str, props: Value, children: &[&str]) -> Value {
    json!(["node", 0, id, component, props, children])
}

fn data(pointer: &str, value: Value) -> Value {
    json!(["data", 0, pointer, value])
}

fn stack(id: &str, children: &[&str]) -> Value {
    node(id, "Stack", json!({}), children)
}

fn text(id: &str) -> Value {
    node(id, "Text", json!({ "text": "hi" }), &[])
}

/// The code a single transaction of these operations gets on a fresh runtime.
fn outcome(operations: &[Value], root: &str) -> String {
    let rt = run(&tx("t", 0, operations, root));
    if rt.committed().revision == 0 {
        assert_eq!(
            rt.committed().graph_json(),
            json!({ "revision": 0, "root": null, "nodes": {} })
        );
    }
    last_result(&rt)
}

// --- CL-D02 ---

#[test]
fn committed_graph_starts_empty_at_revision_0_with_data_object() {
    let rt = runtime();
    assert_eq!(
        rt.committed().graph_json(),
        json!({ "revision": 0, "root": null, "nodes": {} })
    );
    assert_eq!(rt.committed().data, json!({}));
}

#[test]
fn commits_apply_everything_and_count_revisions() {
    let mut rt = run(&tx(
        "t1",
        0,
        &[stack("r", &["a"]), text("a"), data("/x", json!(1))],
        "r",
    ));
    feed(&mut rt, &tx("t2", 1, &[stack("r", &[])], "r"));
    feed(
        &mut rt,
        &tx(
            "t3",
            2,
            &[node("r", "Stack", json!({ "gap": 2 }), &["a"])],
            "r",
        ),
    );
    assert_eq!(
        results(&rt),
        vec![
            ("t1".into(), "committed 1".into()),
            ("t2".into(), "committed 2".into()),
            ("t3".into(), "committed 3".into())
        ]
    );
    assert_eq!(
        rt.committed().graph_json(),
        json!({ "revision": 3, "root": "r", "nodes": {
        "r": { "component": "Stack", "props": { "gap": 2 }, "children": ["a"] },
        "a": { "component": "Text", "props": { "text": "hi" }, "children": [] } } })
    );
    assert_eq!(rt.committed().data, json!({ "x": 1 }));
}

#[test]
fn stale_base_revision_is_rejected_and_changes_nothing() {
    let mut rt = run(&tx("t1", 0, &[stack("r", &[])], "r"));
    let before = rt.committed().clone();
    feed(&mut rt, &tx("t2", 0, &[text("r")], "r"));
    assert_eq!(last_result(&rt), "STALE_BASE_REVISION");
    assert_eq!(rt.committed(), &before);
    // A base ahead of the committed revision is stale too.
    feed(&mut rt, &tx("t3", 5, &[text("r")], "r"));
    assert_eq!(last_result(&rt), "STALE_BASE_REVISION");
}

#[test]
fn new_revision_must_be_base_plus_one() {
    let mut records = tx("t", 0, &[stack("r", &[])], "r");
    records[2] = json!(["commit", 2, 2, "r"]);
    assert_eq!(last_result(&run(&records)), "REVISION_MISMATCH");
    records[2] = json!(["commit", 2, 0, "r"]);
    assert_eq!(last_result(&run(&records)), "REVISION_MISMATCH");
}

#[test]
fn duplicate_node_definitions_are_rejected_even_when_identical() {
    assert_eq!(
        outcome(&[stack("r", &[]), stack("r", &[])], "r"),
        "DUPLICATE_NODE"
    );
    // Delete in between does not make two definitions one (PRJ-RUI-TX-09 applies in order).
    let mut rt = run(&tx("t1", 0, &[stack("r", &[])], "r"));
    feed(
        &mut rt,
        &tx(
            "t2",
            1,
            &[
                stack("r", &[]),
                json!(["delete", 0, "node", "r"]),
                stack("r", &[]),
            ],
            "r",
        ),
    );
    assert_eq!(last_result(&rt), "DUPLICATE_NODE");
}

#[test]
fn node_records_replace_the_whole_definition() {
    let mut rt = run(&tx(
        "t1",
        0,
        &[
            node("r", "Box", json!({ "a": 1, "b": 2 }), &["x"]),
            text("x"),
        ],
        "r",
    ));
    feed(
        &mut rt,
        &tx("t2", 1, &[node("r", "Box", json!({ "c": 3 }), &[])], "r"),
    );
    assert_eq!(
        rt.committed().graph_json()["nodes"]["r"],
        json!({ "component": "Box", "props": { "c": 3 }, "children": [] })
    );
    // Omission never deletes (RUI-DEL-02): the unreferenced node x stays.
    assert!(rt.committed().nodes.contains_key("x"));
}

#[test]
fn deletion_is_explicit_and_absent_targets_fail() {
    let mut rt = run(&tx(
        "t1",
        0,
        &[stack("r", &["x"]), text("x"), data("/a", json!({ "b": 1 }))],
        "r",
    ));
    feed(
        &mut rt,
        &tx(
            "t2",
            1,
            &[
                json!(["delete", 0, "node", "x"]),
                stack("r", &[]),
                json!(["delete", 0, "data", "/a/b"]),
            ],
            "r",
        ),
    );
    assert_eq!(last_result(&rt), "committed 2");
    assert!(!rt.committed().nodes.contains_key("x"));
    assert_eq!(rt.committed().data, json!({ "a": {} }));
    feed(
        &mut rt,
        &tx("t3", 2, &[json!(["delete", 0, "node", "x"])], "r"),
    );
    assert_eq!(last_result(&rt), "DELETE_ABSENT");
    feed(
        &mut rt,
        &tx("t4", 2, &[json!(["delete", 0, "data", "/a/b"])], "r"),
    );
    assert_eq!(last_result(&rt), "DELETE_ABSENT");
    // Deleting a node its parent still references leaves a dangling child of the root.
    feed(&mut rt, &tx("t5", 2, &[stack("r", &["y"]), text("y")], "r"));
    feed(
        &mut rt,
        &tx("t6", 3, &[json!(["delete", 0, "node", "y"])], "r"),
    );
    assert_eq!(last_result(&rt), "CHILD_UNRESOLVED");
}

#[test]
fn data_applies_in_order_and_null_sets_null() {
    let rt = run(&tx(
        "t",
        0,
        &[
            stack("r", &[]),
            data("/a", json!({})),
            data("/a/b", json!([1])),
            data("/a/b/1", json!(2)),
            data("/n", Value::Null),
        ],
        "r",
    ));
    assert_eq!(last_result(&rt), "committed 1");
    assert_eq!(
        rt.committed().data,
        json!({ "a": { "b": [1, 2] }, "n": null })
    );
    assert_eq!(
        outcome(&[stack("r", &[]), data("/a/b", json!(1))], "r"),
        "DATA_PARENT_MISSING"
    );
    assert_eq!(
        outcome(&[stack("r", &[]), data("a", json!(1))], "r"),
        "POINTER_INVALID"
    );
    assert_eq!(
        outcome(
            &[
                stack("r", &[]),
                data("/l", json!([])),
                data("/l/-", json!(1))
            ],
            "r"
        ),
        "POINTER_INVALID"
    );
    assert_eq!(
        outcome(&[stack("r", &[]), json!(["delete", 0, "data", ""])], "r"),
        "POINTER_INVALID"
    );
}

// --- Graph invariants (CL-D02-8) ---

#[test]
fn each_graph_invariant_violated_alone() {
    assert_eq!(outcome(&[stack("r", &[])], "s"), "ROOT_MISSING");
    assert_eq!(outcome(&[stack("r", &["a"])], "r"), "CHILD_UNRESOLVED");
    assert_eq!(outcome(&[stack("r", &["r"])], "r"), "GRAPH_CYCLE");
    assert_eq!(
        outcome(
            &[stack("r", &["a"]), stack("a", &["b"]), stack("b", &["a"])],
            "r"
        ),
        "GRAPH_CYCLE"
    );
    assert_eq!(
        outcome(&[stack("r", &["a", "b", "a"]), text("a"), text("b")], "r"),
        "DUPLICATE_CHILD"
    );
}

#[test]
fn two_invariants_violated_at_once_give_one_of_their_codes() {
    let code = outcome(&[stack("r", &["a", "a"])], "r");
    assert!(
        ["DUPLICATE_CHILD", "CHILD_UNRESOLVED"].contains(&code.as_str()),
        "{code}"
    );
}

#[test]
fn shared_children_and_unreachable_cycles_are_allowed_unreachable_dangling_children_not() {
    // Acyclic is not a tree: a node reached along two paths commits.
    assert_eq!(
        outcome(
            &[
                stack("r", &["a", "b"]),
                stack("a", &["c"]),
                stack("b", &["c"]),
                text("c")
            ],
            "r"
        ),
        "committed 1"
    );
    // PRJ-RUI-GRAPH-06: a cycle among unreachable nodes does not fail...
    assert_eq!(
        outcome(
            &[stack("r", &[]), stack("u", &["v"]), stack("v", &["u"])],
            "r"
        ),
        "committed 1"
    );
    // ...but a dangling child does, reachable or not: every structural child reference resolves
    // (RUI-INV-03, PRJ-RUI-GRAPH-03; issue 15).
    assert_eq!(
        outcome(
            &[
                stack("r", &[]),
                stack("u", &["v"]),
                stack("v", &["u", "gone"])
            ],
            "r"
        ),
        "CHILD_UNRESOLVED"
    );
}

// --- Catalog (CL-D06, PRJ-RUI-CAT-01..03) ---

#[test]
fn catalog_validation_of_every_defined_node() {
    assert_eq!(
        outcome(&[node("r", "Grid", json!({}), &[])], "r"),
        "UNKNOWN_COMPONENT"
    );
    // Reachable or not.
    assert_eq!(
        outcome(&[stack("r", &[]), node("u", "Grid", json!({}), &[])], "r"),
        "UNKNOWN_COMPONENT"
    );
    assert_eq!(
        outcome(
            &[
                stack("r", &["t"]),
                node("t", "Text", json!({ "text": 5 }), &[])
            ],
            "r"
        ),
        "PROPS_INVALID"
    );
    assert_eq!(
        outcome(
            &[
                stack("r", &["t"]),
                node("t", "Text", json!({ "text": "a" }), &["r"])
            ],
            "r"
        ),
        "CHILDREN_NOT_ALLOWED"
    );
    assert_eq!(
        outcome(
            &[
                stack("r", &["t"]),
                node("t", "Text", json!({ "text": "a" }), &[])
            ],
            "r"
        ),
        "committed 1"
    );
    let not_a_request = node(
        "b",
        "Button",
        json!({ "label": "x", "onPress": { "capabilityId": "c" } }),
        &[],
    );
    assert_eq!(
        outcome(&[stack("r", &["b"]), not_a_request], "r"),
        "PROPS_INVALID"
    );
}

// --- Limits (CL-D04, PRJ-RUI-LIMIT-01..10): at the bound passes, one past fails ---

fn limits(f: impl FnOnce(&mut Limits)) -> Limits {
    let mut limits = Limits::default();
    f(&mut limits);
    limits
}

fn outcome_under(limits: Limits, operations: &[Value], root: &str) -> String {
    let mut rt = runtime_with(limits, ActionPolicy::Gated);
    feed(&mut rt, &tx("t", 0, operations, root));
    last_result(&rt)
}

#[test]
fn limit_id_length() {
    let l = limits(|l| l.max_id_length = 4);
    assert_eq!(
        outcome_under(l, &[stack("abcd", &[])], "abcd"),
        "committed 1"
    );
    assert_eq!(
        outcome_under(l, &[stack("abcde", &[])], "abcde"),
        "LIMIT_ID_LENGTH"
    );
    assert_eq!(
        outcome_under(l, &[stack("r", &["abcde"])], "r"),
        "LIMIT_ID_LENGTH"
    );
    assert_eq!(
        outcome_under(
            l,
            &[stack("r", &[]), json!(["delete", 0, "node", "abcde"])],
            "r"
        ),
        "LIMIT_ID_LENGTH"
    );
    // The transaction id is part of the record tuple, not a node id.
    let mut rt = runtime_with(l, ActionPolicy::Gated);
    feed(
        &mut rt,
        &tx("a-long-transaction-id", 0, &[stack("r", &[])], "r"),
    );
    assert_eq!(last_result(&rt), "committed 1");
}

#[test]
fn limit_string_length() {
    let l = limits(|l| l.max_string_length = 3);
    assert_eq!(
        outcome_under(
            l,
            &[node(
                "r",
                "Box",
                json!({ "s": "abc", "deep": ["xyz"] }),
                &[]
            )],
            "r"
        ),
        "committed 1"
    );
    assert_eq!(
        outcome_under(
            l,
            &[node("r", "Box", json!({ "deep": ["abcd"] }), &[])],
            "r"
        ),
        "LIMIT_STRING_LENGTH"
    );
    assert_eq!(
        outcome_under(
            l,
            &[stack("r", &[]), data("/d", json!({ "k": "abcd" }))],
            "r"
        ),
        "LIMIT_STRING_LENGTH"
    );
    // Member names are not string values.
    assert_eq!(
        outcome_under(
            l,
            &[node("r", "Box", json!({ "longer-name": 1 }), &[])],
            "r"
        ),
        "committed 1"
    );
}

#[test]
fn limit_array_length() {
    let l = limits(|l| l.max_array_length = 2);
    assert_eq!(
        outcome_under(
            l,
            &[
                node("r", "Box", json!({ "a": [1, 2] }), &["x", "y"]),
                text("x"),
                text("y")
            ],
            "r"
        ),
        "committed 1"
    );
    assert_eq!(
        outcome_under(l, &[node("r", "Box", json!({ "a": [1, 2, 3] }), &[])], "r"),
        "LIMIT_ARRAY_LENGTH"
    );
    assert_eq!(
        outcome_under(
            l,
            &[
                stack("r", &["x", "y", "z"]),
                text("x"),
                text("y"),
                text("z")
            ],
            "r"
        ),
        "LIMIT_ARRAY_LENGTH"
    );
    assert_eq!(
        outcome_under(l, &[stack("r", &[]), data("/a", json!([[1, 2, 3]]))], "r"),
        "LIMIT_ARRAY_LENGTH"
    );
    assert_eq!(
        outcome_under(
            l,
            &[
                stack("r", &[]),
                data("/a", json!([1, 2])),
                data("/a/2", json!(3))
            ],
            "r"
        ),
        "LIMIT_ARRAY_LENGTH"
    );
}

#[test]
fn limit_depth_of_props_data_values_and_graph() {
    let l = limits(|l| l.max_depth = 3);
    // Props: the props object is depth 1.
    assert_eq!(
        outcome_under(
            l,
            &[node("r", "Box", json!({ "a": { "b": [] } }), &[])],
            "r"
        ),
        "committed 1"
    );
    assert_eq!(
        outcome_under(
            l,
            &[node("r", "Box", json!({ "a": { "b": [[]] } }), &[])],
            "r"
        ),
        "LIMIT_DEPTH"
    );
    // Data values, wherever they land.
    assert_eq!(
        outcome_under(
            l,
            &[
                stack("r", &[]),
                data("/a", json!({})),
                data("/a/b", json!({})),
                data("/a/b/c", json!([[{}]]))
            ],
            "r"
        ),
        "committed 1"
    );
    assert_eq!(
        outcome_under(
            l,
            &[stack("r", &[]), data("/a", json!([[{ "x": [] }]]))],
            "r"
        ),
        "LIMIT_DEPTH"
    );
    // Graph: the root alone is depth 1.
    assert_eq!(
        outcome_under(
            l,
            &[stack("r", &["a"]), stack("a", &["b"]), stack("b", &[])],
            "r"
        ),
        "committed 1"
    );
    assert_eq!(
        outcome_under(
            l,
            &[
                stack("r", &["a"]),
                stack("a", &["b"]),
                stack("b", &["c"]),
                stack("c", &[])
            ],
            "r"
        ),
        "LIMIT_DEPTH"
    );
    // Depth through a shared node counts the longest path.
    assert_eq!(
        outcome_under(
            l,
            &[
                stack("r", &["c", "a"]),
                stack("a", &["b"]),
                stack("b", &["c"]),
                stack("c", &[])
            ],
            "r"
        ),
        "LIMIT_DEPTH"
    );
}

#[test]
fn limit_operations() {
    let l = limits(|l| l.max_operations = 3);
    let ops = [stack("r", &[]), data("/a", json!(1)), data("/b", json!(2))];
    assert_eq!(outcome_under(l, &ops, "r"), "committed 1");
    let mut more = ops.to_vec();
    more.push(json!(["delete", 0, "data", "/a"]));
    assert_eq!(outcome_under(l, &more, "r"), "LIMIT_OPERATIONS");
}

#[test]
fn limit_transaction_bytes() {
    let records = tx("t", 0, &[stack("r", &[])], "r");
    let total: usize = records.iter().map(|r| r.to_string().len()).sum();
    let at = limits(|l| l.max_transaction_bytes = total);
    let mut rt = runtime_with(at, ActionPolicy::Gated);
    feed(&mut rt, &records);
    assert_eq!(last_result(&rt), "committed 1");
    let past = limits(|l| l.max_transaction_bytes = total - 1);
    let mut rt = runtime_with(past, ActionPolicy::Gated);
    feed(&mut rt, &records);
    assert_eq!(last_result(&rt), "LIMIT_TRANSACTION_BYTES");
}

// --- Recovery (CL-D05, CL-D09, PRJ-RUI-TX-01..06, PRJ-RUI-REC-01..05) ---

#[test]
fn invalid_frame_quarantined_discards_the_open_transaction() {
    let mut rt = run(&tx("t0", 0, &[stack("r", &[])], "r"));
    let before = rt.committed().clone();
    rt.feed(b"[\"begin\",0,\"t1\",1]\n").unwrap();
    rt.feed(b"{not json\n").unwrap();
    feed(
        &mut rt,
        &[
            json!(["node", 1, "a", "Stack", {}, []]),
            json!(["commit", 2, 2, "a"]),
        ],
    );
    assert_eq!(result_of(&rt, 1), "FRAME_INVALID");
    assert_eq!(rt.quarantine().len(), 1);
    assert_eq!(
        (rt.quarantine()[0].frame, rt.quarantine()[0].code),
        (4, QuarantineCode::FrameNotJson)
    );
    let rejected: Vec<(u64, RejectionCode)> =
        rt.rejections().iter().map(|r| (r.frame, r.code)).collect();
    assert_eq!(
        rejected,
        vec![
            (5, RejectionCode::RecordOutsideTransaction),
            (6, RejectionCode::RecordOutsideTransaction)
        ]
    );
    assert_eq!(rt.committed(), &before);
    // Parsing resumed at the next frame boundary: a new transaction commits.
    feed(&mut rt, &tx("t2", 1, &[stack("s", &[])], "s"));
    assert_eq!(last_result(&rt), "committed 2");
}

#[test]
fn sequence_gap_discards_staging() {
    for bad_seq in [0, 2, 5] {
        let rt = run(&[
            json!(["begin", 0, "t", 0]),
            json!(["node", bad_seq, "r", "Stack", {}, []]),
            json!(["commit", 2, 1, "r"]),
        ]);
        assert_eq!(result_of(&rt, 0), "SEQUENCE_GAP", "seq {bad_seq}");
        assert_eq!(
            rt.rejections().iter().map(|r| r.code).collect::<Vec<_>>(),
            vec![RejectionCode::RecordOutsideTransaction]
        );
        assert_eq!(rt.committed().revision, 0);
    }
}

#[test]
fn invalid_or_unknown_record_fails_the_open_transaction_or_is_rejected_outside() {
    let rt = run(&[
        json!(["begin", 0, "t", 0]),
        json!(["node", 1, "r"]),
        json!(["commit", 2, 1, "r"]),
    ]);
    assert_eq!(result_of(&rt, 0), "RECORD_INVALID");
    let rt = run(&[
        json!(["begin", 0, "t", 0]),
        json!(["patch", 1, "r"]),
        json!(["commit", 2, 1, "r"]),
    ]);
    assert_eq!(result_of(&rt, 0), "UNKNOWN_OPERATION");
    let rt = run(&[
        json!(["patch", 0]),
        json!({ "a": 1 }),
        json!(["commit", 1, 1, "r"]),
        json!(["begin", 1, "t", 0]),
    ]);
    assert!(rt.transactions().is_empty());
    let rejected: Vec<(u64, RejectionCode)> =
        rt.rejections().iter().map(|r| (r.frame, r.code)).collect();
    assert_eq!(
        rejected,
        vec![
            (0, RejectionCode::UnknownOperation),
            (1, RejectionCode::RecordInvalid),
            (2, RejectionCode::RecordOutsideTransaction),
            (3, RejectionCode::RecordInvalid)
        ]
    );
}

#[test]
fn begin_while_open_supersedes_and_opens_a_new_transaction() {
    let rt = run(&[
        json!(["begin", 0, "t1", 0]),
        json!(["node", 1, "x", "Stack", {}, []]),
        json!(["begin", 0, "t2", 0]),
        json!(["node", 1, "r", "Stack", {}, []]),
        json!(["commit", 2, 1, "r"]),
    ]);
    assert_eq!(
        results(&rt),
        vec![
            ("t1".into(), "SUPERSEDED_BY_BEGIN".into()),
            ("t2".into(), "committed 1".into())
        ]
    );
    // Nothing of t1 was applied.
    assert!(!rt.committed().nodes.contains_key("x"));
}

#[test]
fn stream_ending_inside_a_transaction_discards_it() {
    let mut rt = run(&[
        json!(["begin", 0, "t", 0]),
        json!(["node", 1, "r", "Stack", {}, []]),
    ]);
    rt.end();
    assert_eq!(results(&rt), vec![("t".into(), "INTERRUPTED".into())]);
    assert_eq!(rt.committed().revision, 0);
    // Ending inside a frame: the cut frame is quarantined; the transaction ends FRAME_INVALID (one
    // of the two codes PRJ-RUI-FRAME-12 accepts).
    let mut rt = run(&[json!(["begin", 0, "t", 0])]);
    rt.feed(b"[\"commit\",1,1,").unwrap();
    rt.end();
    assert_eq!(last_result(&rt), "FRAME_INVALID");
    assert_eq!(rt.quarantine()[0].code, QuarantineCode::FrameTruncated);
}

#[test]
fn abort_is_terminal_and_leaves_the_snapshot_unchanged() {
    let mut rt = run(&tx("t0", 0, &[stack("r", &[])], "r"));
    let before = rt.committed().clone();
    feed(
        &mut rt,
        &[
            json!(["begin", 0, "t1", 1]),
            json!(["node", 1, "r", "Box", {}, []]),
            json!(["abort", 2, "E_USER", "cancelled"]),
            json!(["commit", 3, 2, "r"]),
        ],
    );
    assert_eq!(last_result(&rt), "aborted");
    assert_eq!(rt.committed(), &before);
    assert_eq!(
        rt.rejections().iter().map(|r| r.code).collect::<Vec<_>>(),
        vec![RejectionCode::RecordOutsideTransaction]
    );
}

// --- Actions (CL-D06-4..6, PRJ-RUI-ACT-01..04) ---

fn button_tx(id: &str, base: u64) -> Vec<Value> {
    tx(
        id,
        base,
        &[
            stack("r", &["b"]),
            node(
                "b",
                "Button",
                json!({ "label": "Save", "onPress": { "capabilityId": "notes.write", "input": { "text": "a" } } }),
                &[],
            ),
        ],
        "r",
    )
}

#[test]
fn action_requests_are_inert_until_commit() {
    let mut rt = runtime();
    let records = button_tx("t1", 0);
    feed(&mut rt, &records[..3]);
    let staged = rt.dispatch("b", "onPress");
    assert_eq!(
        rt.dispatch_status(staged),
        Some(DispatchStatus::Rejected(DispatchCode::ActionNotFound))
    );
    feed(&mut rt, &records[3..]);
    assert!(
        rt.action_policy_calls().is_empty(),
        "commit calls no policy"
    );
    let committed = rt.dispatch("b", "onPress");
    assert_eq!(rt.dispatch_status(committed), Some(DispatchStatus::Pending));
    let call = &rt.action_policy_calls()[0];
    assert_eq!(
        (
            call.node.as_str(),
            call.prop.as_str(),
            call.capability_id.as_str()
        ),
        ("b", "onPress", "notes.write")
    );
    assert_eq!(call.input, json!({ "text": "a" }));
    rt.settle_action_policy(1, &PolicySettlement::Return(json!({ "decision": "allow" })))
        .unwrap();
    assert_eq!(rt.dispatch_status(committed), Some(DispatchStatus::Allowed));
    assert!(
        rt.settle_action_policy(1, &PolicySettlement::Throw)
            .is_err(),
        "a call settles once"
    );
}

#[test]
fn policy_decides_whatever_the_component_validity() {
    let cases = [
        (
            PolicySettlement::Return(json!({ "decision": "deny" })),
            DispatchStatus::Denied(DispatchCode::PolicyDenied),
        ),
        (
            PolicySettlement::Throw,
            DispatchStatus::Rejected(DispatchCode::PolicyEvaluationFailed),
        ),
        (
            PolicySettlement::Return(json!({ "decision": "maybe" })),
            DispatchStatus::Rejected(DispatchCode::PolicyEvaluationFailed),
        ),
        (
            PolicySettlement::Return(json!("allow")),
            DispatchStatus::Rejected(DispatchCode::PolicyEvaluationFailed),
        ),
    ];
    for (settlement, status) in cases {
        let mut rt = runtime_with(Limits::default(), ActionPolicy::Scripted(settlement));
        feed(&mut rt, &button_tx("t1", 0));
        let d = rt.dispatch("b", "onPress");
        assert_eq!(rt.dispatch_status(d), Some(status));
        assert_eq!(rt.action_policy_calls().len(), 1);
    }
}

#[test]
fn dispatch_without_a_committed_action_request_is_not_found() {
    let mut rt = runtime_with(
        Limits::default(),
        ActionPolicy::Scripted(PolicySettlement::Return(json!({ "decision": "allow" }))),
    );
    feed(&mut rt, &button_tx("t1", 0));
    for (node, prop) in [("b", "label"), ("nobody", "onPress"), ("r", "onPress")] {
        let d = rt.dispatch(node, prop);
        assert_eq!(
            rt.dispatch_status(d),
            Some(DispatchStatus::Rejected(DispatchCode::ActionNotFound)),
            "{node}.{prop}"
        );
    }
    // Deleted after commit: gone from the committed graph.
    feed(
        &mut rt,
        &tx(
            "t2",
            1,
            &[stack("r", &[]), json!(["delete", 0, "node", "b"])],
            "r",
        ),
    );
    let d = rt.dispatch("b", "onPress");
    assert_eq!(
        rt.dispatch_status(d),
        Some(DispatchStatus::Rejected(DispatchCode::ActionNotFound))
    );
    assert!(rt.action_policy_calls().is_empty());
}

/// What a host following a long stream relies on (`conformance validate`): every record is a
/// frame counted in order, an open transaction is visible, and `forget_results` drops the results
/// read so far while the frame count, the committed graph and the open transaction stay.
#[test]
fn forgetting_results_keeps_frames_graph_and_open_transaction() {
    let mut rt = runtime();
    let first = tx("t1", 0, &[stack("root", &[])], "root");
    feed(&mut rt, &first);
    feed(&mut rt, &[json!(["bogus"])]);
    feed(&mut rt, &[json!(["begin", 0, "t2", 1])]);
    assert_eq!(rt.frames_received(), first.len() as u64 + 2);
    assert!(rt.has_open_transaction());
    assert_eq!(
        results(&rt),
        vec![("t1".to_string(), "committed 1".to_string())]
    );
    assert!(
        !rt.quarantine().is_empty() || !rt.rejections().is_empty(),
        "the bogus record is reported"
    );
    rt.forget_results();
    assert!(
        rt.transactions().is_empty() && rt.quarantine().is_empty() && rt.rejections().is_empty()
    );
    assert_eq!(rt.frames_received(), first.len() as u64 + 2);
    assert!(rt.has_open_transaction());
    assert_eq!((rt.committed().revision, rt.commits()), (1, 1));
    feed(&mut rt, &[json!(["commit", 1, 2, "root"])]);
    assert_eq!(
        results(&rt),
        vec![("t2".to_string(), "committed 2".to_string())]
    );
    assert!(!rt.has_open_transaction());
}

/// The injected fault `rui-partial-apply` is the bug its catalog row names ("a transaction
/// failing at commit applies the operations before the failure", against CL-D02-8): the
/// operations before the failing one reach the committed graph, the ones after it do not, and
/// the revision and root stay those of the last commit.
#[test]
fn the_partial_apply_fault_applies_the_operations_before_the_failure() {
    let mut rt = faulty_runtime(Fault::RuiPartialApply);
    feed(&mut rt, &tx("t1", 0, &[stack("root", &[])], "root"));
    let failing = [
        data("/x", json!(1)),
        json!(["delete", 0, "node", "ghost"]),
        text("late"),
    ];
    feed(&mut rt, &tx("t2", 1, &failing, "root"));
    assert_ne!(
        last_result(&rt),
        "committed 2",
        "deleting an absent node fails the commit"
    );
    let committed = rt.committed();
    assert_eq!(
        (committed.revision, committed.root.as_deref()),
        (1, Some("root"))
    );
    assert_eq!(committed.data, json!({ "x": 1 }));
    assert!(committed.nodes.contains_key("root") && !committed.nodes.contains_key("late"));
}

/// The injected fault `rui-revision-gap-accepted` is the bug its catalog row names: a commit
/// whose new revision is past base + 1 commits at that revision (against CL-D02-5),
/// while a commit that does not move forward is still refused.
#[test]
fn the_revision_gap_fault_accepts_a_skip_ahead_only() {
    let mut rt = faulty_runtime(Fault::RuiRevisionGapAccepted);
    // `tx` commits base + 1; these commit revision 3 instead.
    let at_revision_3 = |mut records: Vec<Value>| {
        if let Some(commit) = records.last_mut() {
            commit[2] = json!(3);
        }
        records
    };
    feed(
        &mut rt,
        &at_revision_3(tx("t1", 0, &[stack("root", &[])], "root")),
    );
    assert_eq!(last_result(&rt), "committed 3");
    feed(&mut rt, &at_revision_3(tx("t2", 3, &[text("t")], "root")));
    assert_ne!(
        last_result(&rt),
        "committed 3",
        "a commit that does not move forward is no gap"
    );
    assert_eq!(rt.committed().revision, 3);
}
