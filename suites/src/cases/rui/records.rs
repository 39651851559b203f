//! Section `rui.records`: the tagged tuples of CL-D01 (RUI-REC-01, RUI-REC-03). Any other tag,
//! arity or field type is an invalid record (CL-D01-9): with no transaction open it is rejected
//! (`rejections`: RECORD_INVALID, or UNKNOWN_OPERATION for an unknown string tag); inside a
//! transaction it discards the transaction with that code and the remaining records are rejected
//! as outside a transaction (CL-D09-4, RUI-VER-06).

use serde_json::{json, Value};

use super::support::observe::{aborted, at, committed, expect, logs, n, nodes, State};
use super::support::stream::{Framing, Script};
use super::support::tuples::Tx;
use super::support::{base_tx, case, code, failing, Found, Prior};
use crate::case::{Case, Section};

const SECTION: &str = "records";
const F: Framing = Framing::Any;

pub fn section() -> Section {
    let mut cases = vec![
        all_kinds_accepted(),
        abort_record_accepted(),
        outside(
            "object-record",
            "a JSON object is not a record",
            json!({ "tag": "begin", "seq": 0 }),
            code::RECORD_INVALID,
            &[],
        ),
        outside(
            "number-record",
            "a JSON number is not a record",
            json!(42),
            code::RECORD_INVALID,
            &[],
        ),
        outside(
            "string-record",
            "a JSON string is not a record",
            json!("begin"),
            code::RECORD_INVALID,
            &[],
        ),
        outside(
            "empty-array-record",
            "an empty array is not a record",
            json!([]),
            code::RECORD_INVALID,
            &[],
        ),
        outside(
            "tag-not-string",
            "a record whose tag is not a string is invalid",
            json!([0, 0, "t1", 0]),
            code::RECORD_INVALID,
            &[],
        ),
        outside(
            "unknown-tag-outside",
            "an unknown string tag outside a transaction",
            json!(["patch", 0, "t1", 0]),
            code::UNKNOWN_OPERATION,
            &["RUI-VER-06"],
        ),
        outside(
            "tag-case-sensitive",
            "tags are case-sensitive: Begin is an unknown operation",
            json!(["Begin", 0, "t1", 0]),
            code::UNKNOWN_OPERATION,
            &["RUI-VER-06"],
        ),
        outside(
            "begin-missing-base",
            "a begin with three fields is invalid and opens nothing",
            json!(["begin", 0, "t1"]),
            code::RECORD_INVALID,
            &["CL-D01-2"],
        ),
        outside(
            "begin-extra-field",
            "a begin with five fields is invalid and opens nothing",
            json!(["begin", 0, "t1", 0, "x"]),
            code::RECORD_INVALID,
            &["CL-D01-2"],
        ),
        outside(
            "begin-id-not-string",
            "a begin whose transactionId is a number is invalid",
            json!(["begin", 0, 1, 0]),
            code::RECORD_INVALID,
            &["CL-D01-2"],
        ),
        outside(
            "begin-base-string",
            "a begin whose baseRevision is a string is invalid",
            json!(["begin", 0, "t1", "0"]),
            code::RECORD_INVALID,
            &["CL-D01-2", "PRJ-RUI-REC-04"],
        ),
        outside(
            "begin-base-fraction",
            "a begin whose baseRevision has a fraction is invalid",
            json!(["begin", 0, "t1", 0.5]),
            code::RECORD_INVALID,
            &["CL-D01-2", "PRJ-RUI-REC-04"],
        ),
        outside(
            "begin-base-negative",
            "a begin whose baseRevision is negative is invalid",
            json!(["begin", 0, "t1", -1]),
            code::RECORD_INVALID,
            &["CL-D01-2", "PRJ-RUI-REC-04"],
        ),
        outside(
            "begin-seq-not-zero",
            "a begin whose seq is not 0 is invalid and opens nothing",
            json!(["begin", 1, "t1", 0]),
            code::RECORD_INVALID,
            &["CL-D01-2", "PRJ-RUI-REC-04"],
        ),
    ];
    cases.extend(vec![
        inside(
            "node-too-few-fields",
            "a node record with five fields fails the transaction",
            |s| json!(["node", s, "x", "Text", { "text": "x" }]),
            code::RECORD_INVALID,
            &["CL-D01-3"],
        ),
        inside(
            "node-too-many-fields",
            "a node record with seven fields fails the transaction",
            |s| json!(["node", s, "x", "Text", { "text": "x" }, [], {}]),
            code::RECORD_INVALID,
            &["CL-D01-3"],
        ),
        inside(
            "node-props-array",
            "node props must be an object: an array fails the transaction",
            |s| json!(["node", s, "x", "Box", [], []]),
            code::RECORD_INVALID,
            &["CL-D01-3", "RUI-REC-03"],
        ),
        inside(
            "node-props-null",
            "node props must be an object: null fails the transaction",
            |s| json!(["node", s, "x", "Box", null, []]),
            code::RECORD_INVALID,
            &["CL-D01-3", "RUI-REC-03"],
        ),
        inside(
            "node-children-not-array",
            "node children must be an array",
            |s| json!(["node", s, "x", "Box", {}, "a"]),
            code::RECORD_INVALID,
            &["CL-D01-3"],
        ),
        inside(
            "node-child-not-string",
            "node children must be node ids, not numbers",
            |s| json!(["node", s, "x", "Box", {}, [1]]),
            code::RECORD_INVALID,
            &["CL-D01-3"],
        ),
        inside(
            "node-id-not-string",
            "a node id must be a string",
            |s| json!(["node", s, 7, "Box", {}, []]),
            code::RECORD_INVALID,
            &["CL-D01-3"],
        ),
        inside(
            "node-component-not-string",
            "a node component must be a string",
            |s| json!(["node", s, "x", { "name": "Box" }, {}, []]),
            code::RECORD_INVALID,
            &["CL-D01-3"],
        ),
        inside(
            "data-missing-value",
            "a data record with three fields fails the transaction",
            |s| json!(["data", s, "/x"]),
            code::RECORD_INVALID,
            &["CL-D01-4"],
        ),
        inside(
            "data-pointer-not-string",
            "a data pointer must be a string",
            |s| json!(["data", s, ["x"], 1]),
            code::RECORD_INVALID,
            &["CL-D01-4"],
        ),
        inside(
            "delete-unknown-kind",
            "delete names node or data; any other kind is invalid",
            |s| json!(["delete", s, "edge", "a"]),
            code::RECORD_INVALID,
            &["CL-D01-5", "CL-D01-6"],
        ),
        inside(
            "delete-missing-target",
            "a delete record with three fields fails the transaction",
            |s| json!(["delete", s, "node"]),
            code::RECORD_INVALID,
            &["CL-D01-5"],
        ),
        inside(
            "delete-target-not-string",
            "a delete target must be a string",
            |s| json!(["delete", s, "node", 7]),
            code::RECORD_INVALID,
            &["CL-D01-5"],
        ),
        inside(
            "commit-revision-string",
            "a commit newRevision must be an integer, not a string",
            |s| json!(["commit", s, "2", "r"]),
            code::RECORD_INVALID,
            &["CL-D01-7"],
        ),
        inside(
            "commit-root-not-string",
            "a commit rootId must be a string",
            |s| json!(["commit", s, 2, ["r"]]),
            code::RECORD_INVALID,
            &["CL-D01-7"],
        ),
        inside(
            "abort-code-not-string",
            "an abort code must be a string",
            |s| json!(["abort", s, 7, "m"]),
            code::RECORD_INVALID,
            &["CL-D01-8"],
        ),
        inside(
            "abort-missing-message",
            "an abort record with three fields fails the transaction",
            |s| json!(["abort", s, "E_USER"]),
            code::RECORD_INVALID,
            &["CL-D01-8"],
        ),
        inside(
            "seq-string",
            "a seq given as a string fails the transaction",
            |s| json!(["node", s.to_string(), "x", "Box", {}, []]),
            code::RECORD_INVALID,
            &["CL-D01-1", "PRJ-RUI-REC-04"],
        ),
        inside(
            "seq-fraction",
            "a seq with a fraction fails the transaction",
            |s| json!(["node", s as f64 + 0.5, "x", "Box", {}, []]),
            code::RECORD_INVALID,
            &["CL-D01-1", "PRJ-RUI-REC-04"],
        ),
        inside(
            "unknown-tag-inside",
            "an unknown operation fails the open transaction",
            |s| json!(["patch", s, "/title", "x"]),
            code::UNKNOWN_OPERATION,
            &["RUI-VER-06", "CL-D05-9"],
        ),
        inside(
            "unknown-tag-move",
            "an unknown operation shaped like a node move fails it",
            |s| json!(["move", s, "a", "r"]),
            code::UNKNOWN_OPERATION,
            &["RUI-VER-06", "CL-D05-9"],
        ),
    ]);
    Section::new(
        "rui.records",
        "Record encoding: tagged tuples",
        "suites::cases::rui::records",
    )
    .cases(cases)
}

fn all_kinds_accepted() -> Case {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(
        &Tx::begin("t1", 1)
            .node("r", "Stack", json!({ "gap": 1 }), &["b"])
            .node("b", "Text", json!({ "text": "new" }), &[])
            .delete_node("a")
            .data("/count", json!(3))
            .delete_data("/title")
            .commit(2, "r"),
    );
    s.end();
    let state = State::new(
        2,
        "r",
        nodes(vec![
            ("r", n("Stack", json!({ "gap": 1 }), &["b"])),
            ("b", n("Text", json!({ "text": "new" }), &[])),
        ]),
        json!({ "count": 3 }),
    );
    s.extend(state.expect());
    s.extend(logs(
        vec![committed("t0", 1), committed("t1", 2)],
        vec![],
        vec![],
    ));
    case(
        SECTION,
        "all-kinds-accepted",
        1,
        F,
        "begin, node, data, delete node, delete data and commit apply together",
        &[
            "RUI-REC-01",
            "CL-D01-1",
            "CL-D01-2",
            "CL-D01-3",
            "CL-D01-4",
            "CL-D01-5",
            "CL-D01-6",
            "CL-D01-7",
            "RUI-COMMIT-02",
        ],
    )
    .steps(s.steps())
}

fn abort_record_accepted() -> Case {
    let mut s = Script::new(F);
    s.records(
        &Tx::begin("t1", 0)
            .node("r", "Stack", json!({}), &[])
            .abort("E_CANCELLED", "user cancelled"),
    );
    s.end();
    s.extend(State::empty().expect());
    s.extend(logs(vec![aborted("t1")], vec![], vec![]));
    case(
        SECTION,
        "abort-record-accepted",
        1,
        F,
        "an abort tuple with a code and a message ends the transaction",
        &["CL-D01-8", "RUI-REC-01"],
    )
    .steps(s.steps())
}

/// `bad` with no transaction open, then a well-formed transaction that commits: the record is
/// rejected with `code` and opened nothing (otherwise the next begin would supersede it).
fn outside(slug: &str, description: &str, bad: Value, code: &str, extra: &[&str]) -> Case {
    let mut s = Script::new(F);
    let frame = s.record(&bad);
    s.records(
        &Tx::begin("t1", 0)
            .node("r", "Stack", json!({}), &[])
            .commit(1, "r"),
    );
    s.end();
    s.extend(logs(
        vec![committed("t1", 1)],
        vec![],
        vec![at(frame, code)],
    ));
    s.push(expect("revision", json!(1)));
    let mut requirements = vec!["CL-D01-9", "RUI-REC-01", registered(code), "CL-D05-8"];
    requirements.extend_from_slice(extra);
    case(SECTION, slug, 1, F, description, &requirements).steps(s.steps())
}

/// After the baseline, transaction `t1` stages a node, then the invalid record, then a node and a
/// commit: `t1` fails with `code` at once and the two later records are rejected as outside.
fn inside(
    slug: &str,
    description: &str,
    bad: impl FnOnce(u64) -> Value,
    code: &str,
    extra: &[&str],
) -> Case {
    let tx = Tx::begin("t1", 1)
        .node("a", "Text", json!({ "text": "bye" }), &[])
        .with(bad)
        .node("y", "Box", json!({}), &[])
        .commit(2, "r");
    let mut requirements = vec!["CL-D01-9", registered(code), "CL-D09-4", "RUI-RECOV-06"];
    requirements.extend_from_slice(extra);
    case(SECTION, slug, 1, F, description, &requirements).steps(failing(
        F,
        Prior::Base,
        &tx,
        "t1",
        json!(code),
        Found::Discards(2),
    ))
}

/// The register entry of a record-level code.
fn registered(code: &str) -> &'static str {
    if code == code::UNKNOWN_OPERATION {
        "PRJ-RUI-REC-03"
    } else {
        "PRJ-RUI-REC-02"
    }
}
