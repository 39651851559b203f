//! Section `rui.limits`: every bound of the limits profile (RUI-INV-06, CL-D04-1, CL-D04-3), each
//! tested with `setup.limits` exactly at the bound (commits) and one past it (fails with its
//! LIMIT_* code), measured as PRJ-RUI-LIMIT-07..10 decide (the runner translates `maxDepth` and
//! `maxOperations` for an implementation that declares another count, PRJ-RUI-LIMIT-14/15, and
//! every string, member name and tuple outside the bounded value stays within every bound the case
//! sets, PRJ-RUI-LIMIT-13/16, so no case depends on a convention the texts leave open); and,
//! without `setup.limits`, the
//! minimum profile the project asks every implementation to accept (PRJ-RUI-LIMIT-11, RECOMMENDED:
//! CL-D04-1 lets an implementation declare its own bounds, so those cases are RECOMMENDED).

use serde_json::{json, Value};

use super::support::observe::{committed, logs, n, nodes, State};
use super::support::setup::{limits, setup_with_limits};
use super::support::stream::{text, Framing, Script};
use super::support::tuples::{self, Tx};
use super::support::{case, code, failing, Found, Prior};
use crate::case::{Case, Section, Strictness};

const SECTION: &str = "limits";
const F: Framing = Framing::Any;

pub fn section() -> Section {
    Section::new(
        "rui.limits",
        "Limits profile: each bound at and past its limit",
        "suites::cases::rui::limits",
    )
    .cases(vec![
        id_at_limit(),
        id_past_limit_root(),
        id_past_limit_child(),
        string_at_limit_props(),
        string_past_limit_props(),
        string_past_limit_nested(),
        string_at_limit_data(),
        string_past_limit_data(),
        array_at_limit_props(),
        array_past_limit_props(),
        array_at_limit_data(),
        array_past_limit_data(),
        children_at_limit(),
        children_past_limit(),
        depth_at_limit_props(),
        depth_past_limit_props(),
        depth_at_limit_data(),
        depth_past_limit_data(),
        depth_at_limit_tree(),
        depth_past_limit_tree(),
        depth_at_limit_shared(),
        depth_past_limit_shared(),
        depth_past_limit_shared_leaf(),
        operations_at_limit(),
        operations_past_limit(),
        operations_past_limit_deletes(),
        bytes_at_limit(),
        bytes_at_limit_crlf(),
        bytes_past_limit(),
        bytes_past_limit_spread(),
        minimum_id(),
        minimum_string(),
        minimum_array(),
        minimum_depth_props(),
        minimum_depth_tree(),
        minimum_operations_and_bytes(),
    ])
}

const ID_MAX: u64 = 8;
const STRING_MAX: u64 = 16;
const ARRAY_MAX: u64 = 6;
const DEPTH_MAX: u64 = 3;
const OPERATIONS_MAX: u64 = 4;
const BYTES_MAX: u64 = 240;

fn s(len: u64) -> String {
    "s".repeat(len as usize)
}

fn ints(len: u64) -> Value {
    json!((1..=len).collect::<Vec<u64>>())
}

/// An object (props) or array (data) nested to exactly `depth` containers.
fn nested_object(depth: u64) -> Value {
    (1..depth).fold(json!({}), |inner, _| json!({ "k": inner }))
}

/// A data document `{"v": [[...]]}` nested to exactly `depth` containers: an object holding
/// arrays, so both kinds of container count.
fn nested_data(depth: u64) -> Value {
    json!({ "v": (2..depth).fold(json!([]), |inner, _| json!([inner])) })
}

/// A first transaction `t1` under `bound` = `value` (other bounds at the minimum profile) that
/// commits and gives `state`.
fn commits(
    slug: &str,
    description: &str,
    bound: (&str, u64),
    tx: Vec<Value>,
    state: State,
    extra: &[&str],
) -> Case {
    let mut script = Script::new(F);
    script.records(&tx);
    script.end();
    script.extend(state.expect());
    script.extend(logs(vec![committed("t1", 1)], vec![], vec![]));
    let mut requirements = vec!["RUI-INV-06", "CL-D04-1"];
    requirements.extend_from_slice(extra);
    case(SECTION, slug, 1, F, description, &requirements)
        .setup(setup_with_limits(F, limits(&[bound])))
        .steps(script.steps())
}

/// A first transaction `t1` under `bound` that fails with `code`, found at record `found` or
/// at commit.
fn fails(
    slug: &str,
    description: &str,
    bound: (&str, u64),
    tx: Vec<Value>,
    code: &str,
    found: usize,
    extra: &[&str],
) -> Case {
    let mut requirements = vec![
        "RUI-INV-06",
        "CL-D04-1",
        "CL-D04-3",
        "RUI-RECOV-06",
        registered(code),
    ];
    requirements.extend_from_slice(extra);
    case(SECTION, slug, 1, F, description, &requirements)
        .setup(setup_with_limits(F, limits(&[bound])))
        .steps(failing(
            F,
            Prior::Empty,
            &tx,
            "t1",
            json!(code),
            Found::AtOrAfter(found),
        ))
}

fn registered(code: &str) -> &'static str {
    match code {
        c if c == code::LIMIT_ID_LENGTH => "PRJ-RUI-LIMIT-01",
        c if c == code::LIMIT_STRING_LENGTH => "PRJ-RUI-LIMIT-02",
        c if c == code::LIMIT_ARRAY_LENGTH => "PRJ-RUI-LIMIT-03",
        c if c == code::LIMIT_DEPTH => "PRJ-RUI-LIMIT-04",
        c if c == code::LIMIT_OPERATIONS => "PRJ-RUI-LIMIT-05",
        _ => "PRJ-RUI-LIMIT-06",
    }
}

fn id_at_limit() -> Case {
    let id = "a".repeat(ID_MAX as usize);
    let tx = Tx::begin("t1", 0)
        .node(&id, "Stack", json!({}), &[])
        .commit(1, &id);
    commits(
        "id-at-limit",
        "a node id exactly maxIdLength long commits",
        ("maxIdLength", ID_MAX),
        tx,
        State::single(&id, "Stack", json!({})),
        &["PRJ-RUI-LIMIT-01", "PRJ-RUI-LIMIT-07"],
    )
}

fn id_past_limit_root() -> Case {
    let id = "a".repeat(ID_MAX as usize + 1);
    let tx = Tx::begin("t1", 0)
        .node(&id, "Stack", json!({}), &[])
        .commit(1, &id);
    fails(
        "id-past-limit-root",
        "a root id one past maxIdLength fails",
        ("maxIdLength", ID_MAX),
        tx,
        code::LIMIT_ID_LENGTH,
        1,
        &["PRJ-RUI-LIMIT-07"],
    )
}

fn id_past_limit_child() -> Case {
    let id = "c".repeat(ID_MAX as usize + 1);
    let tx = Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &[&id])
        .node(&id, "Text", json!({ "text": "x" }), &[])
        .commit(1, "r");
    fails(
        "id-past-limit-child",
        "a child id one past maxIdLength fails",
        ("maxIdLength", ID_MAX),
        tx,
        code::LIMIT_ID_LENGTH,
        1,
        &["PRJ-RUI-LIMIT-07"],
    )
}

fn string_at_limit_props() -> Case {
    let props = json!({ "text": s(STRING_MAX) });
    let tx = Tx::begin("t1", 0)
        .node("r", "Text", props.clone(), &[])
        .commit(1, "r");
    commits(
        "string-at-limit-props",
        "a prop string exactly maxStringLength long commits",
        ("maxStringLength", STRING_MAX),
        tx,
        State::single("r", "Text", props),
        &["PRJ-RUI-LIMIT-02", "PRJ-RUI-LIMIT-07"],
    )
}

fn string_past_limit_props() -> Case {
    let tx = Tx::begin("t1", 0)
        .node("r", "Text", json!({ "text": s(STRING_MAX + 1) }), &[])
        .commit(1, "r");
    fails(
        "string-past-limit-props",
        "a prop string one past maxStringLength fails",
        ("maxStringLength", STRING_MAX),
        tx,
        code::LIMIT_STRING_LENGTH,
        1,
        &["PRJ-RUI-LIMIT-07"],
    )
}

fn string_past_limit_nested() -> Case {
    let tx = Tx::begin("t1", 0)
        .node(
            "r",
            "Box",
            json!({ "deep": { "list": ["ok", s(STRING_MAX + 1)] } }),
            &[],
        )
        .commit(1, "r");
    fails(
        "string-past-limit-nested",
        "a long string nested inside props fails",
        ("maxStringLength", STRING_MAX),
        tx,
        code::LIMIT_STRING_LENGTH,
        1,
        &["PRJ-RUI-LIMIT-07"],
    )
}

fn string_at_limit_data() -> Case {
    let tx = Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &[])
        .data("/s", json!(s(STRING_MAX)))
        .commit(1, "r");
    let state = State::new(
        1,
        "r",
        nodes(vec![("r", n("Stack", json!({}), &[]))]),
        json!({ "s": s(STRING_MAX) }),
    );
    commits(
        "string-at-limit-data",
        "a data string exactly maxStringLength long commits",
        ("maxStringLength", STRING_MAX),
        tx,
        state,
        &["PRJ-RUI-LIMIT-02", "PRJ-RUI-LIMIT-07"],
    )
}

fn string_past_limit_data() -> Case {
    let tx = Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &[])
        .data("/s", json!(s(STRING_MAX + 1)))
        .commit(1, "r");
    fails(
        "string-past-limit-data",
        "a data string one past maxStringLength fails",
        ("maxStringLength", STRING_MAX),
        tx,
        code::LIMIT_STRING_LENGTH,
        2,
        &["PRJ-RUI-LIMIT-07"],
    )
}

fn array_at_limit_props() -> Case {
    let props = json!({ "items": ints(ARRAY_MAX) });
    let tx = Tx::begin("t1", 0)
        .node("r", "Box", props.clone(), &[])
        .commit(1, "r");
    commits(
        "array-at-limit-props",
        "a prop array exactly maxArrayLength long commits",
        ("maxArrayLength", ARRAY_MAX),
        tx,
        State::single("r", "Box", props),
        &["PRJ-RUI-LIMIT-03", "PRJ-RUI-LIMIT-07"],
    )
}

fn array_past_limit_props() -> Case {
    let tx = Tx::begin("t1", 0)
        .node("r", "Box", json!({ "items": ints(ARRAY_MAX + 1) }), &[])
        .commit(1, "r");
    fails(
        "array-past-limit-props",
        "a prop array one past maxArrayLength fails",
        ("maxArrayLength", ARRAY_MAX),
        tx,
        code::LIMIT_ARRAY_LENGTH,
        1,
        &["PRJ-RUI-LIMIT-07"],
    )
}

fn array_at_limit_data() -> Case {
    let tx = Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &[])
        .data("/list", ints(ARRAY_MAX))
        .commit(1, "r");
    let state = State::new(
        1,
        "r",
        nodes(vec![("r", n("Stack", json!({}), &[]))]),
        json!({ "list": ints(ARRAY_MAX) }),
    );
    commits(
        "array-at-limit-data",
        "a data array exactly maxArrayLength long commits",
        ("maxArrayLength", ARRAY_MAX),
        tx,
        state,
        &["PRJ-RUI-LIMIT-03", "PRJ-RUI-LIMIT-07"],
    )
}

fn array_past_limit_data() -> Case {
    let tx = Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &[])
        .data("/list", ints(ARRAY_MAX + 1))
        .commit(1, "r");
    fails(
        "array-past-limit-data",
        "a data array one past maxArrayLength fails",
        ("maxArrayLength", ARRAY_MAX),
        tx,
        code::LIMIT_ARRAY_LENGTH,
        2,
        &["PRJ-RUI-LIMIT-07"],
    )
}

fn child_ids(count: u64) -> Vec<String> {
    (1..=count).map(|i| format!("c{i}")).collect()
}

fn with_children(count: u64) -> Vec<Value> {
    let ids = child_ids(count);
    let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    let mut tx = Tx::begin("t1", 0).node("r", "Stack", json!({}), &refs);
    for id in &ids {
        tx = tx.node(id, "Text", json!({ "text": id }), &[]);
    }
    tx.commit(1, "r")
}

fn children_at_limit() -> Case {
    let ids = child_ids(ARRAY_MAX);
    let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    let mut entries = vec![("r", n("Stack", json!({}), &refs))];
    for id in &refs {
        entries.push((id, n("Text", json!({ "text": id }), &[])));
    }
    let state = State::new(1, "r", nodes(entries), json!({}));
    commits(
        "children-at-limit",
        "a child list exactly maxArrayLength long commits",
        ("maxArrayLength", ARRAY_MAX),
        with_children(ARRAY_MAX),
        state,
        &["PRJ-RUI-LIMIT-03", "PRJ-RUI-LIMIT-07"],
    )
}

fn children_past_limit() -> Case {
    fails(
        "children-past-limit",
        "a child list one past maxArrayLength fails",
        ("maxArrayLength", ARRAY_MAX),
        with_children(ARRAY_MAX + 1),
        code::LIMIT_ARRAY_LENGTH,
        1,
        &["PRJ-RUI-LIMIT-07"],
    )
}

fn depth_at_limit_props() -> Case {
    let props = nested_object(DEPTH_MAX);
    let tx = Tx::begin("t1", 0)
        .node("r", "Box", props.clone(), &[])
        .commit(1, "r");
    commits(
        "depth-at-limit-props",
        "props nested exactly maxDepth containers deep commit",
        ("maxDepth", DEPTH_MAX),
        tx,
        State::single("r", "Box", props),
        &["PRJ-RUI-LIMIT-04", "PRJ-RUI-LIMIT-08"],
    )
}

fn depth_past_limit_props() -> Case {
    let tx = Tx::begin("t1", 0)
        .node("r", "Box", nested_object(DEPTH_MAX + 1), &[])
        .commit(1, "r");
    fails(
        "depth-past-limit-props",
        "props nested one container past maxDepth fail",
        ("maxDepth", DEPTH_MAX),
        tx,
        code::LIMIT_DEPTH,
        1,
        &["PRJ-RUI-LIMIT-08"],
    )
}

/// A data value at the document root (PRJ-RUI-DATA-04), so its depth is the document's too and
/// a runtime counting depth from the document root (PRJ-RUI-LIMIT-13) counts the same.
fn depth_at_limit_data() -> Case {
    let tx = Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &[])
        .data("", nested_data(DEPTH_MAX))
        .commit(1, "r");
    let state = State::new(
        1,
        "r",
        nodes(vec![("r", n("Stack", json!({}), &[]))]),
        nested_data(DEPTH_MAX),
    );
    commits(
        "depth-at-limit-data",
        "a data value nested exactly maxDepth deep commits",
        ("maxDepth", DEPTH_MAX),
        tx,
        state,
        &["PRJ-RUI-LIMIT-04", "PRJ-RUI-LIMIT-08", "PRJ-RUI-DATA-04"],
    )
}

fn depth_past_limit_data() -> Case {
    let tx = Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &[])
        .data("", nested_data(DEPTH_MAX + 1))
        .commit(1, "r");
    fails(
        "depth-past-limit-data",
        "a data value nested one past maxDepth fails",
        ("maxDepth", DEPTH_MAX),
        tx,
        code::LIMIT_DEPTH,
        2,
        &["PRJ-RUI-LIMIT-08", "PRJ-RUI-DATA-04"],
    )
}

/// A chain r -> n1 -> n2 ... of `depth` Stack nodes in total.
fn chain(depth: u64) -> (Vec<Value>, State) {
    let ids: Vec<String> = (0..depth)
        .map(|i| {
            if i == 0 {
                "r".to_string()
            } else {
                format!("n{i}")
            }
        })
        .collect();
    let mut tx = Tx::begin("t1", 0);
    let mut entries = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let children: Vec<&str> = ids.get(i + 1).map(|c| vec![c.as_str()]).unwrap_or_default();
        tx = tx.node(id, "Stack", json!({}), &children);
        entries.push((id.as_str(), n("Stack", json!({}), &children)));
    }
    let state = State::new(1, "r", nodes(entries), json!({}));
    (tx.commit(1, "r"), state)
}

fn depth_at_limit_tree() -> Case {
    let (tx, state) = chain(DEPTH_MAX);
    commits(
        "depth-at-limit-tree",
        "a node chain exactly maxDepth deep from the root commits",
        ("maxDepth", DEPTH_MAX),
        tx,
        state,
        &["PRJ-RUI-LIMIT-04", "PRJ-RUI-LIMIT-08"],
    )
}

fn depth_past_limit_tree() -> Case {
    let (tx, _) = chain(DEPTH_MAX + 1);
    let commit_index = tx.len() - 1;
    fails(
        "depth-past-limit-tree",
        "a node chain one past maxDepth from the root fails",
        ("maxDepth", DEPTH_MAX),
        tx,
        code::LIMIT_DEPTH,
        commit_index,
        &["PRJ-RUI-LIMIT-12"],
    )
    .strictness(Strictness::Recommended)
}

/// Root `r` lists `s` and then `a`; `a` lists `s` too, so `s` (the top of a chain `height` nodes
/// long) is reached along two paths, the second one node deeper. The graph's depth is its longest
/// path from the root (PRJ-RUI-LIMIT-12, RECOMMENDED): `height + 2`, reached only through `a`.
fn shared(height: u64) -> (Vec<Value>, State) {
    let chain: Vec<String> = (0..height)
        .map(|i| {
            if i == 0 {
                "s".to_string()
            } else {
                format!("m{i}")
            }
        })
        .collect();
    let mut tx = Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &["s", "a"])
        .node("a", "Stack", json!({}), &["s"]);
    let mut entries = vec![
        ("r", n("Stack", json!({}), &["s", "a"])),
        ("a", n("Stack", json!({}), &["s"])),
    ];
    for (i, id) in chain.iter().enumerate() {
        let children: Vec<&str> = chain
            .get(i + 1)
            .map(|c| vec![c.as_str()])
            .unwrap_or_default();
        tx = tx.node(id, "Stack", json!({}), &children);
        entries.push((id.as_str(), n("Stack", json!({}), &children)));
    }
    let state = State::new(1, "r", nodes(entries), json!({}));
    (tx.commit(1, "r"), state)
}

fn depth_at_limit_shared() -> Case {
    let (tx, state) = shared(DEPTH_MAX - 2);
    commits(
        "depth-at-limit-shared",
        "a node reached along two paths is exactly maxDepth deep on the longer",
        ("maxDepth", DEPTH_MAX),
        tx,
        state,
        &["PRJ-RUI-LIMIT-04", "PRJ-RUI-LIMIT-08"],
    )
}

fn depth_past_limit_shared() -> Case {
    let (tx, _) = shared(DEPTH_MAX - 1);
    let commit_index = tx.len() - 1;
    fails(
        "depth-past-limit-shared",
        "the longer of two paths to a node decides the depth",
        ("maxDepth", DEPTH_MAX),
        tx,
        code::LIMIT_DEPTH,
        commit_index,
        &["PRJ-RUI-LIMIT-12"],
    )
    .strictness(Strictness::Recommended)
}

/// Root `r` lists the leaf `s` and then `a`; `a` lists `b` and `b` lists `s`: `s` is one level
/// below the root on the first path and three levels below it on the second, so the graph is
/// `DEPTH_MAX + 1` deep (PRJ-RUI-LIMIT-12: the longest path from the root), reached only
/// through the longer approach to a leaf already visited.
fn depth_past_limit_shared_leaf() -> Case {
    let tx = Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &["s", "a"])
        .node("a", "Stack", json!({}), &["b"])
        .node("b", "Stack", json!({}), &["s"])
        .node("s", "Stack", json!({}), &[])
        .commit(1, "r");
    let commit_index = tx.len() - 1;
    fails(
        "depth-past-limit-shared-leaf",
        "a leaf first met near the root counts on its longer path",
        ("maxDepth", DEPTH_MAX),
        tx,
        code::LIMIT_DEPTH,
        commit_index,
        &["PRJ-RUI-LIMIT-12"],
    )
    .strictness(Strictness::Recommended)
}

/// Node `r` then `count - 1` data records: `count` operations.
fn operations(count: u64) -> (Vec<Value>, Value) {
    let mut tx = Tx::begin("t1", 0).node("r", "Stack", json!({}), &[]);
    let mut data = serde_json::Map::new();
    for i in 1..count {
        tx = tx.data(&format!("/d{i}"), json!(i));
        data.insert(format!("d{i}"), json!(i));
    }
    (tx.commit(1, "r"), Value::Object(data))
}

fn operations_at_limit() -> Case {
    let (tx, data) = operations(OPERATIONS_MAX);
    let state = State::new(1, "r", nodes(vec![("r", n("Stack", json!({}), &[]))]), data);
    commits(
        "operations-at-limit",
        "exactly maxOperations node and data records commit",
        ("maxOperations", OPERATIONS_MAX),
        tx,
        state,
        &["PRJ-RUI-LIMIT-05", "PRJ-RUI-LIMIT-09"],
    )
}

fn operations_past_limit() -> Case {
    let (tx, _) = operations(OPERATIONS_MAX + 1);
    fails(
        "operations-past-limit",
        "one operation past maxOperations fails",
        ("maxOperations", OPERATIONS_MAX),
        tx,
        code::LIMIT_OPERATIONS,
        OPERATIONS_MAX as usize + 1,
        &["PRJ-RUI-LIMIT-09"],
    )
}

fn operations_past_limit_deletes() -> Case {
    let tx = Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &[])
        .data("/a", json!(1))
        .data("/b", json!(2))
        .delete_data("/a")
        .delete_data("/b")
        .commit(1, "r");
    fails(
        "operations-past-limit-deletes",
        "deletes count as operations toward maxOperations",
        ("maxOperations", OPERATIONS_MAX),
        tx,
        code::LIMIT_OPERATIONS,
        5,
        &["PRJ-RUI-LIMIT-09"],
    )
}

/// Records whose JSON texts sum to exactly `total` bytes: begin, node `r`, data records with
/// ASCII strings of at most `chunk` characters filling the rest, commit.
fn transaction_of_bytes(total: usize, chunk: usize) -> (Vec<Value>, Value) {
    let fixed = [
        tuples::begin("t1", 0),
        tuples::node(1, "r", "Box", json!({}), &[]),
        tuples::commit(2, 1, "r"),
    ];
    let remaining = total - fixed.iter().map(|r| text(r).len()).sum::<usize>();
    // Every data record `["data",s,"/dI",""]` has the same empty length while s and I stay one
    // digit; split the rest evenly over as few records as `chunk` allows.
    let empty = text(&tuples::data(2, "/d0", json!(""))).len();
    let count = remaining.div_ceil(empty + chunk).max(1);
    assert!(
        count < 8 && remaining >= count * empty,
        "builder bug: byte budget cannot be met exactly"
    );
    let payload = remaining - count * empty;
    let strings: Vec<String> = (0..count)
        .map(|i| "s".repeat(payload / count + usize::from(i < payload % count)))
        .collect();
    let mut tx = Tx::begin("t1", 0).node("r", "Box", json!({}), &[]);
    let mut data = serde_json::Map::new();
    for (i, string) in strings.iter().enumerate() {
        tx = tx.data(&format!("/d{i}"), json!(string));
        data.insert(format!("d{i}"), json!(string));
    }
    let records = tx.commit(1, "r");
    assert_eq!(
        records.iter().map(|r| text(r).len()).sum::<usize>(),
        total,
        "builder bug: byte total"
    );
    (records, Value::Object(data))
}

fn bytes_at_limit() -> Case {
    let (tx, data) = transaction_of_bytes(BYTES_MAX as usize, 1000);
    let state = State::new(1, "r", nodes(vec![("r", n("Box", json!({}), &[]))]), data);
    commits(
        "bytes-at-limit",
        "records totalling exactly maxTransactionBytes commit",
        ("maxTransactionBytes", BYTES_MAX),
        tx,
        state,
        &["PRJ-RUI-LIMIT-06", "PRJ-RUI-LIMIT-10"],
    )
}

/// Records framed as JSONL lines ending in CRLF whose texts with the CR total exactly
/// `maxTransactionBytes`: whether the CR, JSON whitespace inside the frame (PRJ-RUI-FRAME-03),
/// counts is IMPL-DEFINED (PRJ-RUI-LIMIT-16), so the case is at the bound when it does and below it
/// when it does not, and commits either way (PRJ-RUI-LIMIT-06); the LF is framing and never counts
/// (PRJ-RUI-LIMIT-10), so a runtime counting it fails the case.
fn bytes_at_limit_crlf() -> Case {
    let framing = Framing::Jsonl;
    let records = transaction_of_bytes(BYTES_MAX as usize, 1000).0.len();
    let (tx, data) = transaction_of_bytes(BYTES_MAX as usize - records, 1000);
    assert_eq!(
        tx.len(),
        records,
        "builder bug: the record count changed with the byte total"
    );
    let state = State::new(1, "r", nodes(vec![("r", n("Box", json!({}), &[]))]), data);
    let mut script = Script::new(framing);
    for record in &tx {
        script.raw_frame(format!("{}\r\n", text(record)).as_bytes());
    }
    script.end();
    script.extend(state.expect());
    script.extend(logs(vec![committed("t1", 1)], vec![], vec![]));
    let mut requirements = vec![
        "RUI-INV-06",
        "CL-D04-1",
        "PRJ-RUI-LIMIT-06",
        "PRJ-RUI-LIMIT-10",
        "PRJ-RUI-FRAME-03",
    ];
    requirements.extend(framing.requirements());
    case(
        SECTION,
        "bytes-at-limit-crlf",
        1,
        framing,
        "CRLF JSONL records at maxTransactionBytes, each CR counted, commit",
        &requirements,
    )
    .setup(setup_with_limits(
        framing,
        limits(&[("maxTransactionBytes", BYTES_MAX)]),
    ))
    .steps(script.steps())
}

fn bytes_past_limit() -> Case {
    let (tx, _) = transaction_of_bytes(BYTES_MAX as usize + 1, 1000);
    let commit_index = tx.len() - 1;
    fails(
        "bytes-past-limit",
        "records totalling one byte past maxTransactionBytes fail",
        ("maxTransactionBytes", BYTES_MAX),
        tx,
        code::LIMIT_TRANSACTION_BYTES,
        commit_index,
        &["PRJ-RUI-LIMIT-10"],
    )
}

fn bytes_past_limit_spread() -> Case {
    let (tx, _) = transaction_of_bytes(BYTES_MAX as usize + 1, 40);
    let commit_index = tx.len() - 1;
    fails(
        "bytes-past-limit-spread",
        "bytes spread over several records count together",
        ("maxTransactionBytes", BYTES_MAX),
        tx,
        code::LIMIT_TRANSACTION_BYTES,
        commit_index,
        &["PRJ-RUI-LIMIT-10"],
    )
}

/// A case without `setup.limits`: the implementation's own bounds, at least the minimum profile.
fn minimum(slug: &str, description: &str, tx: Vec<Value>, state: State, extra: &[&str]) -> Case {
    let mut script = Script::new(F);
    script.records(&tx);
    script.end();
    script.extend(state.expect());
    script.extend(logs(vec![committed("t1", 1)], vec![], vec![]));
    let mut requirements = vec!["RUI-INV-06", "CL-D04-1", "PRJ-RUI-LIMIT-11"];
    requirements.extend_from_slice(extra);
    case(SECTION, slug, 1, F, description, &requirements)
        .strictness(Strictness::Recommended)
        .steps(script.steps())
}

fn minimum_id() -> Case {
    let id = "i".repeat(64);
    let tx = Tx::begin("t1", 0)
        .node(&id, "Stack", json!({}), &[])
        .commit(1, &id);
    minimum(
        "minimum-profile-id",
        "every implementation accepts a 64-character node id",
        tx,
        State::single(&id, "Stack", json!({})),
        &["PRJ-RUI-LIMIT-07"],
    )
}

fn minimum_string() -> Case {
    let props = json!({ "text": "s".repeat(1024) });
    let tx = Tx::begin("t1", 0)
        .node("r", "Text", props.clone(), &[])
        .commit(1, "r");
    minimum(
        "minimum-profile-string",
        "every implementation accepts a 1024-character string",
        tx,
        State::single("r", "Text", props),
        &["PRJ-RUI-LIMIT-07"],
    )
}

fn minimum_array() -> Case {
    let props = json!({ "items": ints(64) });
    let tx = Tx::begin("t1", 0)
        .node("r", "Box", props.clone(), &[])
        .commit(1, "r");
    minimum(
        "minimum-profile-array",
        "every implementation accepts a 64-element array",
        tx,
        State::single("r", "Box", props),
        &["PRJ-RUI-LIMIT-07"],
    )
}

fn minimum_depth_props() -> Case {
    let props = nested_object(16);
    let tx = Tx::begin("t1", 0)
        .node("r", "Box", props.clone(), &[])
        .commit(1, "r");
    minimum(
        "minimum-profile-depth-props",
        "every implementation accepts props nested 16 deep",
        tx,
        State::single("r", "Box", props),
        &["PRJ-RUI-LIMIT-08"],
    )
}

fn minimum_depth_tree() -> Case {
    let (tx, state) = chain(16);
    minimum(
        "minimum-profile-depth-tree",
        "every implementation accepts a node chain 16 deep",
        tx,
        state,
        &["PRJ-RUI-LIMIT-08"],
    )
}

fn minimum_operations_and_bytes() -> Case {
    let mut tx = Tx::begin("t1", 0).node("r", "Box", json!({}), &[]);
    let mut data = serde_json::Map::new();
    for i in 1..64u64 {
        tx = tx.data(&format!("/d{i}"), json!("s".repeat(1000)));
        data.insert(format!("d{i}"), json!("s".repeat(1000)));
    }
    let records = tx.commit(1, "r");
    let state = State::new(
        1,
        "r",
        nodes(vec![("r", n("Box", json!({}), &[]))]),
        Value::Object(data),
    );
    minimum(
        "minimum-profile-operations-and-bytes",
        "64 operations in about 64 KB commit everywhere",
        records,
        state,
        &["PRJ-RUI-LIMIT-09", "PRJ-RUI-LIMIT-10"],
    )
}
