//! The transaction model's generated vectors (`suites::cases::from_model::transaction`, issue 5):
//! the coverage certificate is complete, the cases pass the vector schema and cite register ids,
//! and the translator writes the records and expectations the texts call for on paths whose
//! expectations are derived here by hand: a commit (CL-D02-3..9, RUI-COMMIT-02/04), a duplicate
//! node found at the record or at commit (PRJ-RUI-GRAPH-01, PRJ-RUI-TX-08), a commit breaking
//! three checks (PRJ-RUI-TX-07), and an invalid frame inside a transaction (CL-D05-1..3,
//! CL-D09-4).

use std::collections::BTreeSet;

use model::transaction::Action::*;
use model::transaction::{Base, Children, NewRevision};
use serde_json::{json, Value};
use suites::case::Case;
use suites::cases::from_model::transaction::{case_for, generated, model, regression_cases};
use suites::cases::from_model::{bundled_problems, Regression};

#[test]
fn generated_cases_pass_the_schema_and_cite_register_ids() {
    let generated = generated();
    let problems = bundled_problems(&generated, "rui.model-transaction");
    assert!(problems.is_empty(), "{problems:#?}");
    // Beyond completeness (checked by `bundled_problems`), what the certificate measures.
    assert_eq!(generated.len(), 1);
    let certificate = &generated[0].certificate;
    // The 19 classes of the model (CL-D08 codes) and FRAME_NOT_JSON of its invalid frame.
    assert_eq!(certificate.codes_total, 20, "{certificate}");
    assert!(certificate.transitions_total >= 60, "{certificate}");
    let mut ids = BTreeSet::new();
    let mut expected_codes = BTreeSet::new();
    for case in generated
        .iter()
        .flat_map(|g| &g.sections)
        .flat_map(|s| &s.cases)
    {
        ids.insert(case.id.clone());
        // Framing-neutral (issue 15): no framing profile, no setup.framing.
        assert!(case.profiles.is_empty(), "{}: {:?}", case.id, case.profiles);
        assert!(case.setup.get("framing").is_none(), "{}", case.id);
        assert!(
            case.requirements.len() >= 3,
            "{} cites {:?}",
            case.id,
            case.requirements
        );
        assert!(case
            .provenance
            .as_ref()
            .is_some_and(|p| p.by.contains("2 node ids")));
        assert_eq!(
            case.steps.last().and_then(|s| s.get("expect")),
            Some(&json!("rejections"))
        );
        collect_codes(&Value::Array(case.steps.clone()), &mut expected_codes);
    }
    assert!(ids.len() >= 60, "{} cases", ids.len());
    // Every code of the model is the expected result (or an accepted one) of some case.
    for code in [
        "RECORD_OUTSIDE_TRANSACTION",
        "SEQUENCE_GAP",
        "STALE_BASE_REVISION",
        "REVISION_MISMATCH",
        "DUPLICATE_NODE",
        "ROOT_MISSING",
        "CHILD_UNRESOLVED",
        "DUPLICATE_CHILD",
        "GRAPH_CYCLE",
        "FRAME_INVALID",
        "RECORD_INVALID",
        "UNKNOWN_OPERATION",
        "UNKNOWN_COMPONENT",
        "PROPS_INVALID",
        "DATA_PARENT_MISSING",
        "DELETE_ABSENT",
        "LIMIT_OPERATIONS",
        "INTERRUPTED",
        "SUPERSEDED_BY_BEGIN",
        "FRAME_NOT_JSON",
    ] {
        assert!(expected_codes.contains(code), "no case expects {code}");
    }
}

/// Every string under a `code` key of the expectations (one-of options included).
fn collect_codes(value: &Value, codes: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                if key == "code" {
                    match inner {
                        Value::String(code) => {
                            codes.insert(code.clone());
                        }
                        other => collect_strings(other, codes),
                    }
                }
                collect_codes(inner, codes);
            }
        }
        Value::Array(items) => items.iter().for_each(|i| collect_codes(i, codes)),
        _ => {}
    }
}

fn collect_strings(value: &Value, codes: &mut BTreeSet<String>) {
    match value {
        Value::String(s) if s.chars().all(|c| c.is_ascii_uppercase() || c == '_') => {
            codes.insert(s.clone());
        }
        Value::Object(map) => map.values().for_each(|v| collect_strings(v, codes)),
        Value::Array(items) => items.iter().for_each(|v| collect_strings(v, codes)),
        _ => {}
    }
}

fn case(path: &[model::transaction::Action]) -> Case {
    case_for(&model(), path, "hand", "hand", ("model", None))
}

/// The frames the case feeds, in order: each payload parsed as JSON (a record), or the payload
/// text itself when it is not JSON.
fn lines(case: &Case) -> Vec<Value> {
    case.steps
        .iter()
        .filter(|s| s["feed"] == "records")
        .flat_map(|s| s["frames"].as_array().cloned().unwrap_or_default())
        .map(|frame| {
            let text = frame["payload"]["text"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            serde_json::from_str(&text).unwrap_or(Value::String(text))
        })
        .collect()
}

/// The last expectation of `what` (after the end of the stream).
fn last<'a>(case: &'a Case, what: &str) -> &'a Value {
    let step = case
        .steps
        .iter()
        .rev()
        .find(|s| s["expect"] == what)
        .expect("an expectation of that kind");
    &step["is"]
}

#[test]
fn a_commit_applies_every_staged_node_and_raises_the_revision_by_one() {
    // CL-D02-1/3..6/9, RUI-COMMIT-01/02/04: begin at the committed revision 0, contiguous seq,
    // newRevision 1; the graph and revision swap at once.
    let case = case(&[
        Begin(Base::Current),
        Node(0, Children::One(1)),
        Node(1, Children::Empty),
        Commit(NewRevision::BasePlusOne, 0),
        EndOfStream,
    ]);
    assert_eq!(
        lines(&case),
        vec![
            json!(["begin", 0, "t1", 0]),
            json!(["node", 1, "n0", "Box", {}, ["n1"]]),
            json!(["node", 2, "n1", "Box", {}, []]),
            json!(["commit", 3, 1, "n0"]),
        ]
    );
    assert_eq!(
        last(&case, "graph"),
        &json!({ "revision": 1, "root": "n0", "nodes": {
            "n0": { "component": "Box", "props": {}, "children": ["n1"] },
            "n1": { "component": "Box", "props": {}, "children": [] } } })
    );
    assert_eq!(last(&case, "revision"), &json!(1));
    assert_eq!(
        last(&case, "transactions"),
        &json!([{ "transactionId": "t1", "result": "committed", "revision": 1 }])
    );
    assert_eq!(last(&case, "rejections"), &json!([]));
    assert_eq!(last(&case, "quarantine"), &json!([]));
    // Staging is invisible before the commit (CL-D02-9): no graph expectation before frame 3.
    let first_graph = case
        .steps
        .iter()
        .position(|s| s["expect"] == "graph")
        .unwrap();
    let feeds_before = case.steps[..first_graph]
        .iter()
        .filter(|s| s["feed"] == "records")
        .count();
    assert_eq!(feeds_before, 4);
}

#[test]
fn a_duplicate_node_fails_at_the_record_or_at_commit() {
    // PRJ-RUI-GRAPH-01 and PRJ-RUI-TX-08: found at the record, the commit (frame 3) is outside a
    // transaction; found at commit, it closes the transaction. The result is DUPLICATE_NODE
    // either way and nothing is committed.
    let case = case(&[
        Begin(Base::Current),
        Node(0, Children::Empty),
        Node(0, Children::Empty),
        Commit(NewRevision::BasePlusOne, 0),
        EndOfStream,
    ]);
    assert_eq!(
        last(&case, "transactions"),
        &json!([{ "transactionId": "t1", "result": "rejected", "code": "DUPLICATE_NODE" }])
    );
    assert_eq!(
        last(&case, "rejections"),
        &json!({ "$match": "one-of", "options": [
            [{ "frame": 3, "code": "RECORD_OUTSIDE_TRANSACTION" }], [] ] })
    );
    let step = case.steps.last().unwrap();
    assert_eq!(step["strictness"], "IMPL-DEFINED");
    assert_eq!(step["requirements"], json!(["PRJ-RUI-TX-08"]));
    assert_eq!(last(&case, "revision"), &json!(0));
    // Right after the duplicate, the transaction may already be rejected or still open.
    let after_duplicate = &case.steps[5];
    assert_eq!(after_duplicate["expect"], "transactions");
    assert_eq!(
        after_duplicate["is"],
        json!({ "$match": "one-of", "options": [
            [{ "transactionId": "t1", "result": "rejected", "code": "DUPLICATE_NODE" }], [] ] })
    );
}

#[test]
fn a_commit_breaking_three_checks_accepts_any_of_their_codes() {
    // PRJ-RUI-TX-07: newRevision 2 on base 0 (REVISION_MISMATCH, RUI-COMMIT-01), root n0 lists
    // n1 twice (DUPLICATE_CHILD) and n1 is not defined (CHILD_UNRESOLVED).
    let case = case(&[
        Begin(Base::Current),
        Node(0, Children::Twice(1)),
        Commit(NewRevision::Wrong, 0),
        EndOfStream,
    ]);
    assert_eq!(lines(&case)[2], json!(["commit", 2, 2, "n0"]));
    assert_eq!(
        last(&case, "transactions"),
        &json!([{ "transactionId": "t1", "result": "rejected", "code": { "$match": "one-of",
            "options": ["CHILD_UNRESOLVED", "DUPLICATE_CHILD", "REVISION_MISMATCH"] } }])
    );
    assert_eq!(
        last(&case, "graph"),
        &json!({ "revision": 0, "root": null, "nodes": {} })
    );
}

#[test]
fn an_invalid_frame_discards_the_open_transaction() {
    // CL-D05-1..3, CL-D09-4, PRJ-RUI-TX-04: frame 1 is quarantined, t1 fails FRAME_INVALID and
    // the node (frame 2) and the closing commit (frame 3) are outside a transaction.
    let case = case(&[Begin(Base::Current), InvalidFrame, Node(0, Children::Empty)]);
    assert_eq!(
        lines(&case)[1],
        Value::String("[\"node\", {\"broken\": ".into())
    );
    assert_eq!(case.steps.last().unwrap()["expect"], "rejections");
    assert_eq!(
        last(&case, "quarantine"),
        &json!([{ "frame": 1, "code": "FRAME_NOT_JSON" }])
    );
    assert_eq!(
        last(&case, "transactions"),
        &json!([{ "transactionId": "t1", "result": "rejected", "code": "FRAME_INVALID" }])
    );
    assert_eq!(
        last(&case, "rejections"),
        &json!([
            { "frame": 2, "code": "RECORD_OUTSIDE_TRANSACTION" },
            { "frame": 3, "code": "RECORD_OUTSIDE_TRANSACTION" }
        ])
    );
}

#[test]
fn a_committed_regression_becomes_a_proptest_case() {
    // The shrunk choices of the injected-bug demonstration (a commit without the revision
    // check): begin, node n0, a commit with newRevision 2, then the closing commit.
    let regression = Regression {
        seed: "0x5eed0005".into(),
        choices: vec![0, 451_674_444, 2_120_928_869, 3_410_307_731],
        note: "hand".into(),
    };
    let cases = regression_cases(&[regression]);
    assert_eq!(cases.len(), 1);
    let case = &cases[0];
    assert!(
        case.id.starts_with("rui.model-transaction.regression-"),
        "{}",
        case.id
    );
    let provenance = case.provenance.as_ref().unwrap();
    assert_eq!(provenance.kind, "proptest");
    assert_eq!(provenance.seed.as_deref(), Some("0x5eed0005"));
    assert_eq!(lines(case)[2], json!(["commit", 2, 2, "n0"]));
    assert_eq!(
        last(case, "transactions"),
        &json!([{ "transactionId": "t1", "result": "rejected", "code": "REVISION_MISMATCH" }])
    );
    assert_eq!(last(case, "revision"), &json!(0));
}
