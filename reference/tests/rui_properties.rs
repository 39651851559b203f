//! Property tests of the Rixx UI runtime (issue 4 quality bar; CL-D02, CL-D05, CL-D07):
//! - any chunking of a byte stream, in every framing, gives the same frames, quarantines and
//!   results, and the four framings agree on a stream of the same payloads (CL-D07-5);
//! - arbitrary bytes never make a decoder or the runtime panic, in any framing;
//! - after any stream the committed snapshot satisfies every graph invariant (checked here by an
//!   independent oracle written from the spec, not by the runtime's own checks) and its revision
//!   equals the number of commits (CL-D02-1/6);
//! - the committed snapshot changes only at a commit: an aborted, invalid or interrupted
//!   transaction leaves it byte-for-byte unchanged (CL-D02-9, CL-D05-6, RUI-ABORT-02).
//!
//! Streams are generated as plans of records (mostly well-formed, with wrong seqs, stale bases,
//! bad revisions, invalid and unknown records and garbage frames mixed in) under a small limits
//! profile so every bound is reached. Case counts default low for `cargo test`; `PROPTEST_CASES`
//! raises them.

use std::collections::BTreeSet;

use proptest::prelude::*;
use reference::rui::{
    ActionPolicy, Catalog, Config, Framing, Limits, Runtime, Snapshot, TransactionOutcome,
};
use serde_json::{json, Value};

const RS: u8 = 0x1E;

fn config(default_cases: u32) -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = default_cases;
    }
    config
}

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
    .expect("valid catalog")
}

/// Small bounds, so generated streams cross every one of them.
fn small_limits() -> Limits {
    Limits {
        max_id_length: 3,
        max_string_length: 8,
        max_array_length: 3,
        max_depth: 3,
        max_operations: 6,
        max_transaction_bytes: 400,
        measure: Default::default(),
    }
}

fn runtime(framing: Framing) -> Runtime {
    Runtime::new(Config {
        framing,
        catalog: catalog(),
        limits: small_limits(),
        action_policy: ActionPolicy::Gated,
        choices: Default::default(),
    })
}

// --- Plans ---

#[derive(Debug, Clone)]
enum Step {
    /// `base`: 0 the committed revision, 1 one ahead, 2 one behind.
    Begin {
        id: usize,
        base: u8,
    },
    Node {
        id: usize,
        component: usize,
        props: usize,
        children: Vec<usize>,
        seq_ok: bool,
    },
    Data {
        pointer: usize,
        value: usize,
        seq_ok: bool,
    },
    DeleteNode {
        id: usize,
        seq_ok: bool,
    },
    DeleteData {
        pointer: usize,
        seq_ok: bool,
    },
    /// `revision`: 0 base + 1, 1 base + 2, 2 base.
    Commit {
        revision: u8,
        root: usize,
        seq_ok: bool,
    },
    Abort {
        seq_ok: bool,
    },
    /// A record that is not a valid record, or names no operation.
    BadRecord {
        which: usize,
    },
    /// Bytes that are not JSON (no LF, CR or RS, never blank, so every framing carries them as one
    /// frame).
    Garbage {
        which: usize,
    },
}

const TX_IDS: [&str; 3] = ["t1", "t2", "t3"];
/// Node ids: `long` passes the small `maxIdLength`; `zz` is never defined (random steps draw
/// from the first five only), so deleting it is always `DELETE_ABSENT`.
const NODE_IDS: [&str; 6] = ["r", "a", "b", "c", "long", "zz"];
const DEFINABLE: usize = 5;
const COMPONENTS: [&str; 5] = ["Stack", "Text", "Button", "Box", "Grid"];
const POINTERS: [&str; 9] = ["", "/a", "/a/b", "/l", "/l/0", "/l/3", "/l/-", "x", "/a~2"];
const GARBAGE: [&[u8]; 5] = [
    b"{not json",
    b"[\"begin\",0",
    b"\xff\xfe[]",
    b"[1] [2]",
    b"nul",
];

fn props(which: usize) -> Value {
    match which % 10 {
        0 => json!({}),
        1 => json!({ "gap": 1 }),
        2 => json!({ "gap": -1 }),
        3 => json!({ "text": "hi" }),
        4 => json!({ "text": 5 }),
        5 => {
            json!({ "label": "go", "onPress": { "capabilityId": "n.save", "input": { "id": 1 } } })
        }
        6 => json!({ "label": "go", "onPress": "notes.save" }),
        7 => json!({ "deep": { "a": { "b": [] } } }),
        8 => json!({ "s": "a string too long" }),
        _ => json!({ "list": [1, 2, 3, 4] }),
    }
}

fn data_value(which: usize) -> Value {
    match which % 8 {
        0 => Value::Null,
        1 => json!(1),
        2 => json!("s"),
        3 => json!({}),
        4 => json!({ "b": 1 }),
        5 => json!([1, 2]),
        6 => json!("a string too long"),
        _ => json!([[[[1]]]]),
    }
}

fn bad_record(which: usize, seq: usize) -> Value {
    match which % 5 {
        0 => json!(["node", seq, "r"]),
        1 => json!(["patch", seq]),
        2 => json!({ "op": "begin" }),
        3 => json!(["begin", 1, "t9", 0]),
        _ => json!(["commit", seq, "1", "r"]),
    }
}

fn step() -> impl Strategy<Value = Step> {
    let seq_ok = prop::bool::weighted(0.92);
    let children = prop::collection::vec(0..DEFINABLE, 0..4);
    prop_oneof![
        3 => (0..TX_IDS.len(), prop::sample::select(vec![0u8, 0, 0, 0, 1, 2])).prop_map(|(id, base)| Step::Begin { id, base }),
        6 => (0..DEFINABLE, 0..COMPONENTS.len(), 0..10usize, children, seq_ok)
            .prop_map(|(id, component, props, children, seq_ok)| Step::Node { id, component, props, children, seq_ok }),
        2 => (0..POINTERS.len(), 0..8usize, seq_ok).prop_map(|(pointer, value, seq_ok)| Step::Data { pointer, value, seq_ok }),
        1 => (0..DEFINABLE, seq_ok).prop_map(|(id, seq_ok)| Step::DeleteNode { id, seq_ok }),
        1 => (0..POINTERS.len(), seq_ok).prop_map(|(pointer, seq_ok)| Step::DeleteData { pointer, seq_ok }),
        3 => (prop::sample::select(vec![0u8, 0, 0, 0, 1, 2]), 0..DEFINABLE, seq_ok)
            .prop_map(|(revision, root, seq_ok)| Step::Commit { revision, root, seq_ok }),
        1 => seq_ok.prop_map(|seq_ok| Step::Abort { seq_ok }),
        1 => (0..5usize).prop_map(|which| Step::BadRecord { which }),
        1 => (0..GARBAGE.len()).prop_map(|which| Step::Garbage { which }),
    ]
}

/// What goes wrong with a transaction (if anything): each mutation is one of the spec's failure
/// classes, or a way to end a transaction without a commit.
#[derive(Debug, Clone)]
enum Mutation {
    WrongSeq,
    Insert(Step),
    StaleBase,
    WrongRevision,
    NoClose,
    Abort,
    DuplicateNode,
    DeleteAbsent,
    LongString,
    /// The root lists itself among its children.
    Cycle,
}

/// One transaction of a plan: a well-formed tree (a `Stack` root with valid leaves and a few data
/// records) or random operations, then maybe one mutation at some position.
#[derive(Debug, Clone)]
struct TxPlan {
    id: usize,
    kids: Vec<(usize, usize)>,
    data: Vec<(usize, usize)>,
    random: Option<Vec<Step>>,
    mutation: Option<(Mutation, usize)>,
}

/// Leaf definitions that the demo catalog accepts: `Text`, `Button` with an action, empty `Stack`.
fn leaf(id: usize, kind: usize) -> Step {
    let (component, props) = match kind % 3 {
        0 => (1, 3),
        1 => (2, 5),
        _ => (0, 0),
    };
    Step::Node {
        id,
        component,
        props,
        children: Vec::new(),
        seq_ok: true,
    }
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        Just(Mutation::WrongSeq),
        step().prop_map(Mutation::Insert),
        Just(Mutation::StaleBase),
        Just(Mutation::WrongRevision),
        Just(Mutation::NoClose),
        Just(Mutation::Abort),
        Just(Mutation::DuplicateNode),
        Just(Mutation::DeleteAbsent),
        Just(Mutation::LongString),
        Just(Mutation::Cycle),
    ]
}

fn tx_plan() -> impl Strategy<Value = TxPlan> {
    (
        0..TX_IDS.len(),
        prop::collection::btree_map(1..4usize, 0..3usize, 0..4),
        prop::collection::vec((prop::sample::select(vec![1usize, 3]), 0..6usize), 0..3),
        prop::option::weighted(0.15, prop::collection::vec(step(), 0..6)),
        prop::option::weighted(0.5, (mutation(), any::<usize>())),
    )
        .prop_map(|(id, kids, data, random, mutation)| TxPlan {
            id,
            kids: kids.into_iter().collect(),
            data,
            random,
            mutation,
        })
}

fn flatten(tx: &TxPlan) -> Vec<Step> {
    let mutation = tx.mutation.as_ref();
    let base = if matches!(mutation, Some((Mutation::StaleBase, _))) {
        1
    } else {
        0
    };
    let mut ops = match &tx.random {
        Some(random) => random.clone(),
        None => {
            let children: Vec<usize> = tx.kids.iter().map(|(id, _)| *id).collect();
            let mut ops = vec![Step::Node {
                id: 0,
                component: 0,
                props: 0,
                children,
                seq_ok: true,
            }];
            ops.extend(tx.kids.iter().map(|(id, kind)| leaf(*id, *kind)));
            // `/a` then `/l`, valid values (null, 1, "s", {}, {"b":1}, [1,2]).
            ops.extend(tx.data.iter().map(|(pointer, value)| Step::Data {
                pointer: *pointer,
                value: *value,
                seq_ok: true,
            }));
            ops
        }
    };
    let at = |len: usize| mutation.map_or(0, |(_, position)| position % (len + 1));
    let position = at(ops.len());
    match mutation.map(|(m, _)| m) {
        Some(Mutation::WrongSeq) => {
            if let Some(Step::Node { seq_ok, .. } | Step::Data { seq_ok, .. }) =
                ops.get_mut(position)
            {
                *seq_ok = false;
            }
        }
        Some(Mutation::Insert(step)) => ops.insert(position, step.clone()),
        Some(Mutation::DuplicateNode) => ops.insert(
            position,
            Step::Node {
                id: 0,
                component: 0,
                props: 0,
                children: Vec::new(),
                seq_ok: true,
            },
        ),
        Some(Mutation::DeleteAbsent) => ops.insert(
            position,
            Step::DeleteNode {
                id: 4,
                seq_ok: true,
            },
        ),
        Some(Mutation::LongString) => ops.insert(
            position,
            Step::Data {
                pointer: 1,
                value: 6,
                seq_ok: true,
            },
        ),
        Some(Mutation::Cycle) => {
            if let Some(Step::Node { children, .. }) = ops.first_mut() {
                children.push(0);
            }
        }
        _ => {}
    }
    let mut steps = vec![Step::Begin { id: tx.id, base }];
    steps.extend(ops);
    match mutation.map(|(m, _)| m) {
        Some(Mutation::NoClose) => {}
        Some(Mutation::Abort) => steps.push(Step::Abort { seq_ok: true }),
        Some(Mutation::WrongRevision) => steps.push(Step::Commit {
            revision: 1,
            root: 0,
            seq_ok: true,
        }),
        _ => steps.push(Step::Commit {
            revision: 0,
            root: 0,
            seq_ok: true,
        }),
    }
    steps
}

/// A stream plan: transactions, with stray records and garbage between some of them.
fn plan() -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec((tx_plan(), prop::option::weighted(0.2, step())), 0..8).prop_map(|txs| {
        let mut steps = Vec::new();
        for (tx, stray) in txs {
            steps.extend(flatten(&tx));
            steps.extend(stray);
        }
        steps
    })
}

/// The payloads of a plan: record texts and garbage, with seqs and revisions resolved against a
/// runtime fed the payloads one message at a time (so a plan's begins mostly name the current
/// revision). Returns the payloads and that runtime.
fn payloads(plan: &[Step]) -> (Vec<Vec<u8>>, Runtime) {
    let mut rt = runtime(Framing::WebSocket);
    let mut out = Vec::new();
    // Position the next record of the open transaction should carry, and that transaction's base.
    let mut position = 0usize;
    let mut base = 0u64;
    for step in plan {
        let seq = |ok: bool| if ok { position } else { position + 2 };
        let record = match step {
            Step::Begin { id, base: which } => {
                let current = rt.committed().revision;
                base = match which {
                    1 => current + 1,
                    2 => current.saturating_sub(1),
                    _ => current,
                };
                position = 0;
                Some(json!(["begin", 0, TX_IDS[*id], base]))
            }
            Step::Node {
                id,
                component,
                props: p,
                children,
                seq_ok,
            } => {
                let kids: Vec<&str> = children.iter().map(|c| NODE_IDS[*c]).collect();
                Some(json!([
                    "node",
                    seq(*seq_ok),
                    NODE_IDS[*id],
                    COMPONENTS[*component],
                    props(*p),
                    kids
                ]))
            }
            Step::Data {
                pointer,
                value,
                seq_ok,
            } => Some(json!([
                "data",
                seq(*seq_ok),
                POINTERS[*pointer],
                data_value(*value)
            ])),
            Step::DeleteNode { id, seq_ok } => {
                Some(json!(["delete", seq(*seq_ok), "node", NODE_IDS[*id]]))
            }
            Step::DeleteData { pointer, seq_ok } => {
                Some(json!(["delete", seq(*seq_ok), "data", POINTERS[*pointer]]))
            }
            Step::Commit {
                revision,
                root,
                seq_ok,
            } => {
                let new_revision = match revision {
                    1 => base + 2,
                    2 => base,
                    _ => base + 1,
                };
                Some(json!([
                    "commit",
                    seq(*seq_ok),
                    new_revision,
                    NODE_IDS[*root]
                ]))
            }
            Step::Abort { seq_ok } => Some(json!(["abort", seq(*seq_ok), "E_USER", "cancelled"])),
            Step::BadRecord { which } => Some(bad_record(*which, position)),
            Step::Garbage { .. } => None,
        };
        let payload = match (record, step) {
            (Some(record), _) => serde_json::to_vec(&record).expect("JSON values serialize"),
            (None, Step::Garbage { which }) => GARBAGE[*which].to_vec(),
            (None, _) => continue,
        };
        position += 1;
        rt.feed_message(&payload).expect("websocket takes messages");
        out.push(payload);
    }
    (out, rt)
}

/// The bytes of these payloads in a stream framing.
fn encode(framing: Framing, payloads: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for payload in payloads {
        match framing {
            Framing::Jsonl => {
                out.extend_from_slice(payload);
                out.push(b'\n');
            }
            Framing::Sse => {
                out.extend_from_slice(b"data: ");
                out.extend_from_slice(payload);
                out.extend_from_slice(b"\n\n");
            }
            Framing::JsonSeq => {
                out.push(RS);
                out.extend_from_slice(payload);
                out.push(b'\n');
            }
            Framing::WebSocket => unreachable!("websocket is fed messages"),
        }
    }
    out
}

/// Everything a host can observe, as JSON.
fn observe(rt: &Runtime) -> Value {
    let transactions: Vec<Value> = rt
        .transactions()
        .iter()
        .map(|t| match t.outcome {
            TransactionOutcome::Committed { revision } => {
                json!([t.transaction_id, "committed", revision])
            }
            TransactionOutcome::Aborted => json!([t.transaction_id, "aborted"]),
            TransactionOutcome::Rejected(code) => json!([t.transaction_id, code.as_str()]),
        })
        .collect();
    let quarantine: Vec<Value> = rt
        .quarantine()
        .iter()
        .map(|q| json!([q.frame, q.code.as_str()]))
        .collect();
    let rejections: Vec<Value> = rt
        .rejections()
        .iter()
        .map(|r| json!([r.frame, r.code.as_str()]))
        .collect();
    json!({
        "graph": rt.committed().graph_json(),
        "data": rt.committed().data,
        "transactions": transactions,
        "quarantine": quarantine,
        "rejections": rejections,
    })
}

/// The committed snapshot as bytes (for "byte-for-byte unchanged").
fn snapshot_bytes(snapshot: &Snapshot) -> Vec<u8> {
    serde_json::to_vec(&json!([snapshot.graph_json(), snapshot.data]))
        .expect("JSON values serialize")
}

fn cut<'a>(stream: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut offsets: Vec<usize> = cuts.iter().map(|c| c % (stream.len() + 1)).collect();
    offsets.sort_unstable();
    offsets.dedup();
    let mut chunks = Vec::new();
    let mut previous = 0;
    for offset in offsets.into_iter().chain([stream.len()]) {
        chunks.push(&stream[previous..offset]);
        previous = offset;
    }
    chunks
}

fn feed_chunks(framing: Framing, chunks: &[&[u8]]) -> Runtime {
    let mut rt = runtime(framing);
    for chunk in chunks {
        rt.feed(chunk).expect("stream framing takes bytes");
    }
    rt.end();
    rt
}

// --- The invariant oracle (spec "Graph invariants", written independently of graph.rs) ---

fn json_depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(json_depth).max().unwrap_or(0),
        Value::Object(members) => 1 + members.values().map(json_depth).max().unwrap_or(0),
        _ => 0,
    }
}

fn within_bounds(value: &Value, limits: &Limits) -> bool {
    match value {
        Value::String(s) => s.chars().count() <= limits.max_string_length,
        Value::Array(items) => {
            items.len() <= limits.max_array_length && items.iter().all(|v| within_bounds(v, limits))
        }
        Value::Object(members) => members.values().all(|v| within_bounds(v, limits)),
        _ => true,
    }
}

fn is_action_request(value: &Value) -> bool {
    value.as_object().is_some_and(|m| {
        m.len() == 2
            && m.get("capabilityId").is_some_and(Value::is_string)
            && m.contains_key("input")
    })
}

/// The demo catalog's props schemas and children rules, restated by hand.
fn catalog_accepts(component: &str, props: &Value, children: &[String]) -> bool {
    let Some(p) = props.as_object() else {
        return false;
    };
    let only = |allowed: &[&str]| p.keys().all(|k| allowed.contains(&k.as_str()));
    match component {
        "Stack" => only(&["gap"]) && p.get("gap").is_none_or(|g| g.as_u64().is_some()),
        "Text" => {
            children.is_empty() && only(&["text"]) && p.get("text").is_some_and(Value::is_string)
        }
        "Button" => {
            children.is_empty()
                && only(&["label", "onPress"])
                && p.get("label").is_some_and(Value::is_string)
                && p.get("onPress").is_none_or(is_action_request)
        }
        "Box" => true,
        _ => false,
    }
}

/// Longest root path in nodes, or `None` on a cycle or an unresolved child (recursion is fine:
/// generated graphs have at most five nodes).
fn depth_from(snapshot: &Snapshot, id: &str, path: &mut Vec<String>) -> Option<usize> {
    if path.iter().any(|p| p == id) {
        return None;
    }
    let node = snapshot.nodes.get(id)?;
    path.push(id.to_string());
    let mut deepest = 0;
    for child in &node.children {
        deepest = deepest.max(depth_from(snapshot, child, path)?);
    }
    path.pop();
    Some(deepest + 1)
}

fn check_invariants(snapshot: &Snapshot, limits: &Limits) -> Result<(), String> {
    let Some(root) = &snapshot.root else {
        return if snapshot.revision == 0 && snapshot.nodes.is_empty() && snapshot.data == json!({})
        {
            Ok(())
        } else {
            Err("no root after a commit".into())
        };
    };
    let depth = depth_from(snapshot, root, &mut Vec::new())
        .ok_or("root missing, child unresolved or cycle")?;
    if depth > limits.max_depth {
        return Err(format!("graph depth {depth}"));
    }
    for (id, node) in &snapshot.nodes {
        if id.chars().count() > limits.max_id_length
            || node
                .children
                .iter()
                .any(|c| c.chars().count() > limits.max_id_length)
        {
            return Err(format!("id too long at {id}"));
        }
        let unique: BTreeSet<&String> = node.children.iter().collect();
        if unique.len() != node.children.len() {
            return Err(format!("duplicate child at {id}"));
        }
        if node.children.len() > limits.max_array_length {
            return Err(format!("child list too long at {id}"));
        }
        if json_depth(&node.props) > limits.max_depth || !within_bounds(&node.props, limits) {
            return Err(format!("props out of bounds at {id}"));
        }
        if !catalog_accepts(&node.component, &node.props, &node.children) {
            return Err(format!("catalog refuses {id}"));
        }
    }
    if !within_bounds(&snapshot.data, limits) {
        return Err("data out of bounds".into());
    }
    Ok(())
}

fn commits_in(rt: &Runtime) -> u64 {
    rt.transactions()
        .iter()
        .filter(|t| matches!(t.outcome, TransactionOutcome::Committed { .. }))
        .count() as u64
}

proptest! {
    #![proptest_config(config(64))]

    /// CL-D07-5: every chunking of one stream gives the same observations, and every framing
    /// agrees with whole WebSocket messages of the same payloads.
    #[test]
    fn chunking_and_framing_do_not_change_what_happens(
        plan in plan(),
        cuts in prop::collection::vec(any::<usize>(), 0..16),
    ) {
        let (payloads, mut messages) = payloads(&plan);
        messages.end();
        let expected = observe(&messages);
        for framing in [Framing::Jsonl, Framing::Sse, Framing::JsonSeq] {
            let stream = encode(framing, &payloads);
            let whole = feed_chunks(framing, &[&stream]);
            prop_assert_eq!(&observe(&whole), &expected, "{} in one chunk", framing.name());
            let chunked = feed_chunks(framing, &cut(&stream, &cuts));
            prop_assert_eq!(&observe(&chunked), &expected, "{} chunked", framing.name());
        }
    }

    /// After any stream, cut anywhere (so it may end inside a frame): every invariant holds,
    /// revision = number of commits, and the snapshot changed only at commits.
    #[test]
    fn committed_snapshot_is_always_valid_and_changes_only_at_commits(
        plan in plan(),
        keep in any::<prop::sample::Index>(),
        framing in prop::sample::select(vec![Framing::Jsonl, Framing::Sse, Framing::JsonSeq]),
    ) {
        let (payloads, _) = payloads(&plan);
        let stream = encode(framing, &payloads);
        let stream = &stream[..keep.index(stream.len() + 1)];
        let mut rt = runtime(framing);
        let limits = small_limits();
        for byte in stream.chunks(1).chain([&[][..]]) {
            let before = snapshot_bytes(rt.committed());
            let results_before = rt.transactions().len();
            if byte.is_empty() {
                rt.end();
            } else {
                rt.feed(byte).expect("stream framing takes bytes");
            }
            let new_results = &rt.transactions()[results_before..];
            let committed_now = new_results.iter().filter(|t| matches!(t.outcome, TransactionOutcome::Committed { .. })).count();
            if committed_now == 0 {
                prop_assert_eq!(snapshot_bytes(rt.committed()), before, "changed without a commit");
            } else {
                prop_assert_eq!(committed_now, 1);
            }
            prop_assert_eq!(rt.committed().revision, commits_in(&rt));
            prop_assert_eq!(rt.commits(), commits_in(&rt));
        }
        prop_assert!(!rt.has_open_transaction(), "the end of the stream closes every transaction");
        if let Err(broken) = check_invariants(rt.committed(), &limits) {
            prop_assert!(false, "invariant broken: {}", broken);
        }
        prop_assert_eq!(rt.committed().check_invariants(rt.catalog(), &limits), Ok(()));
    }

    /// No panic on arbitrary bytes in any framing, however chunked; the result is still a valid
    /// snapshot.
    #[test]
    fn arbitrary_bytes_never_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..512),
        cuts in prop::collection::vec(any::<usize>(), 0..8),
    ) {
        for framing in [Framing::Jsonl, Framing::Sse, Framing::JsonSeq] {
            let rt = feed_chunks(framing, &cut(&bytes, &cuts));
            prop_assert_eq!(rt.committed().revision, commits_in(&rt));
        }
        let mut rt = runtime(Framing::WebSocket);
        for message in cut(&bytes, &cuts) {
            rt.feed_message(message).expect("websocket takes messages");
        }
        rt.end();
        prop_assert_eq!(rt.committed().revision, commits_in(&rt));
    }

    /// Arbitrary JSON values as records: never a panic, always a result or a rejection per frame.
    #[test]
    fn arbitrary_json_frames_never_panic(values in prop::collection::vec(json_value(), 0..24)) {
        let mut rt = runtime(Framing::WebSocket);
        for value in &values {
            rt.feed_message(value.to_string().as_bytes()).expect("websocket takes messages");
        }
        rt.end();
        prop_assert!(check_invariants(rt.committed(), &small_limits()).is_ok());
    }
}

/// JSON values biased toward record shapes.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (0u64..4).prop_map(|n| json!(n)),
        any::<i64>().prop_map(|n| json!(n)),
        prop::sample::select(vec![
            "begin", "node", "data", "delete", "commit", "abort", "r", "a", "/a", "Stack", "Text",
            "t1", ""
        ])
        .prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..7).prop_map(Value::Array),
            prop::collection::btree_map(
                prop::sample::select(vec!["a", "text", "gap", "label"]),
                inner,
                0..3
            )
            .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
        ]
    })
}
