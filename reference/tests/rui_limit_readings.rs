//! The readings of the limits conventions the texts leave open (PRJ-RUI-LIMIT-13..16), each taken
//! by a row of the choices table: every row is checked to be the reading its row describes, and to
//! differ from the default exactly where the convention is at play (RUI-INV-06, CL-D04-1).
//! Without these, a row that changed nothing would pass every vector and prove nothing open.

use reference::choices::{Choice, Choices};
use reference::rui::{ActionPolicy, Catalog, Config, Framing, Limits, Runtime, TransactionOutcome};
use serde_json::{json, Value};

fn catalog() -> Catalog {
    Catalog::from_json(&json!({ "id": "demo@1.0.0", "components": {
        "Box": { "props": { "type": "object" }, "children": true } } }))
    .expect("the demo catalog is valid")
}

fn runtime(limits: Limits, choices: &[Choice]) -> Runtime {
    Runtime::new(Config {
        framing: Framing::Jsonl,
        catalog: catalog(),
        limits,
        action_policy: ActionPolicy::Gated,
        choices: Choices::only(choices),
    })
}

/// `begin`, the operations (seq from 1), `commit` of revision 1 with root `r`.
fn tx(id: &str, operations: &[Value]) -> Vec<Value> {
    let mut records = vec![json!(["begin", 0, id, 0])];
    for (index, operation) in operations.iter().enumerate() {
        let mut record = operation.clone();
        if let Some(fields) = record.as_array_mut() {
            fields.insert(1, json!(index + 1));
        }
        records.push(record);
    }
    records.push(json!(["commit", operations.len() + 1, 1, "r"]));
    records
}

/// The result of the one transaction fed as JSONL lines ending in `line_end`.
fn result(limits: Limits, choices: &[Choice], records: &[Value], line_end: &str) -> String {
    let mut rt = runtime(limits, choices);
    for record in records {
        rt.feed(format!("{record}{line_end}").as_bytes()).unwrap();
    }
    match rt.transactions().last().map(|t| t.outcome.clone()) {
        Some(TransactionOutcome::Committed { revision }) => format!("committed {revision}"),
        Some(TransactionOutcome::Aborted) => "aborted".into(),
        Some(TransactionOutcome::Rejected(code)) => code.as_str().into(),
        None => "open".into(),
    }
}

fn bounded(f: impl FnOnce(&mut Limits)) -> Limits {
    let mut limits = Limits::default();
    f(&mut limits);
    limits
}

fn root_with(props: Value) -> Value {
    json!(["node", "r", "Box", props, []])
}

// PRJ-RUI-LIMIT-14: counted from the record tuple, props nested 3 deep are depth 4, so they need a
// maxDepth of 4 (the bound the runner sends for a vector's 3) and fail under 3; the node tree is
// one level deeper too.
#[test]
fn depth_from_record_counts_one_level_more_everywhere() {
    let props = json!({ "k": { "k": {} } });
    let at = |depth: usize, choices: &[Choice]| {
        result(
            bounded(|l| l.max_depth = depth),
            choices,
            &tx("t", &[root_with(props.clone())]),
            "\n",
        )
    };
    assert_eq!(at(3, &[]), "committed 1");
    assert_eq!(at(3, &[Choice::RuiDepthFromRecord]), "LIMIT_DEPTH");
    assert_eq!(at(4, &[Choice::RuiDepthFromRecord]), "committed 1");
    let chain = tx(
        "t",
        &[
            json!(["node", "r", "Box", {}, ["a"]]),
            json!(["node", "a", "Box", {}, []]),
        ],
    );
    assert_eq!(
        result(bounded(|l| l.max_depth = 2), &[], &chain, "\n"),
        "committed 1"
    );
    assert_eq!(
        result(
            bounded(|l| l.max_depth = 2),
            &[Choice::RuiDepthFromRecord],
            &chain,
            "\n"
        ),
        "LIMIT_DEPTH"
    );
}

// PRJ-RUI-LIMIT-15: counting begin and commit, 4 staged operations are 6.
#[test]
fn operations_counting_records_count_begin_and_commit() {
    let four: Vec<Value> = (0..4)
        .map(|i| json!(["data", format!("/d{i}"), i]))
        .collect();
    let mut operations = vec![root_with(json!({}))];
    operations.extend(four.into_iter().take(3));
    let records = tx("t", &operations);
    let at = |max: usize, choices: &[Choice]| {
        result(bounded(|l| l.max_operations = max), choices, &records, "\n")
    };
    assert_eq!(at(4, &[]), "committed 1");
    assert_eq!(
        at(4, &[Choice::RuiOperationsCountRecords]),
        "LIMIT_OPERATIONS"
    );
    assert_eq!(
        at(5, &[Choice::RuiOperationsCountRecords]),
        "LIMIT_OPERATIONS"
    );
    assert_eq!(at(6, &[Choice::RuiOperationsCountRecords]), "committed 1");
}

// PRJ-RUI-LIMIT-16: the CR before a JSONL LF counts under the row, never the LF.
#[test]
fn counting_whitespace_counts_the_cr_but_not_the_lf() {
    let records = tx("t", &[root_with(json!({}))]);
    let texts: usize = records.iter().map(|r| r.to_string().len()).sum();
    let at = |max: usize, choices: &[Choice], end: &str| {
        result(
            bounded(|l| l.max_transaction_bytes = max),
            choices,
            &records,
            end,
        )
    };
    assert_eq!(at(texts, &[], "\r\n"), "committed 1");
    assert_eq!(
        at(texts, &[Choice::RuiBytesCountWhitespace], "\r\n"),
        "LIMIT_TRANSACTION_BYTES"
    );
    assert_eq!(
        at(
            texts + records.len(),
            &[Choice::RuiBytesCountWhitespace],
            "\r\n"
        ),
        "committed 1"
    );
    assert_eq!(
        at(texts, &[Choice::RuiBytesCountWhitespace], "\n"),
        "committed 1"
    );
}

// PRJ-RUI-LIMIT-13: the widest reading bounds the transaction id as an id, every other string
// and member name of a record as a string, the tuple as an array and a data value from the
// document root; none of these is bounded by default.
#[test]
fn the_whole_record_reading_bounds_what_the_default_leaves_alone() {
    let whole = [Choice::RuiLimitsBoundWholeRecord];
    let long_id = tx("transaction", &[root_with(json!({}))]);
    let ids = bounded(|l| l.max_id_length = 8);
    assert_eq!(result(ids, &[], &long_id, "\n"), "committed 1");
    assert_eq!(result(ids, &whole, &long_id, "\n"), "LIMIT_ID_LENGTH");

    let member = tx("t", &[root_with(json!({ "a-long-member-name": 1 }))]);
    let strings = bounded(|l| l.max_string_length = 8);
    assert_eq!(result(strings, &[], &member, "\n"), "committed 1");
    assert_eq!(
        result(strings, &whole, &member, "\n"),
        "LIMIT_STRING_LENGTH"
    );

    let tuple = tx("t", &[root_with(json!({}))]);
    let arrays = bounded(|l| l.max_array_length = 5);
    assert_eq!(result(arrays, &[], &tuple, "\n"), "committed 1");
    assert_eq!(result(arrays, &whole, &tuple, "\n"), "LIMIT_ARRAY_LENGTH");

    let nested = tx("t", &[root_with(json!({})), json!(["data", "/v", [[]]])]);
    let depth = bounded(|l| l.max_depth = 2);
    assert_eq!(result(depth, &[], &nested, "\n"), "committed 1");
    assert_eq!(result(depth, &whole, &nested, "\n"), "LIMIT_DEPTH");
    let at_root = tx(
        "t",
        &[root_with(json!({})), json!(["data", "", { "v": [] }])],
    );
    assert_eq!(result(depth, &whole, &at_root, "\n"), "committed 1");
}
