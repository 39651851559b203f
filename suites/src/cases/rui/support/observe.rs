//! Expectation steps over the Rixx UI observations of vectors/README.md ("Rixx UI steps"):
//! the committed graph, data and revision, and the exact `transactions`, `quarantine` and
//! `rejections` logs, with the stable codes of CL-D08 (PRJ-RUI-* entries of project-rui.toml).

use serde_json::{json, Map, Value};

use crate::case::Strictness;
use crate::pattern::one_of;

/// `{"expect": what, "is": is}`. An empty `quarantine` or `rejections` log cites the sentences
/// that decide what enters it (issue 27 §3), whatever the case is about: only an invalid frame is
/// quarantined (CL-D05-1, with the frames PRJ-RUI-FRAME-01 calls invalid), and only a record
/// processed while no transaction is open is rejected (CL-D05-8, PRJ-RUI-REC-05).
pub fn expect(what: &str, is: Value) -> Value {
    let empty = is.as_array().is_some_and(Vec::is_empty);
    let step = json!({ "expect": what, "is": is });
    match what {
        "quarantine" if empty => traced(step, &["CL-D05-1", "PRJ-RUI-FRAME-01"]),
        "rejections" if empty => traced(step, &["CL-D05-8", "PRJ-RUI-REC-05"]),
        _ => step,
    }
}

/// The step with its own strictness.
pub fn strict(mut step: Value, strictness: Strictness) -> Value {
    if let Some(object) = step.as_object_mut() {
        object.insert("strictness".into(), json!(strictness.as_str()));
    }
    step
}

/// The step tracing to these requirement ids.
pub fn traced(mut step: Value, requirements: &[&str]) -> Value {
    if let Some(object) = step.as_object_mut() {
        object.insert("requirements".into(), json!(requirements));
    }
    step
}

/// `case` with the IMPL-DEFINED entry `open_point` cited only by the checks it decides: the
/// `expect: what` steps that accept several results (a `one-of`), which become IMPL-DEFINED
/// checks tracing to it. Every other check of the case (the graph left unchanged, a request never
/// dispatched) stays at the case's strictness and traces to the case's other ids, the sentences
/// that force it, never to the open point.
pub fn open_point_at(mut case: crate::case::Case, open_point: &str, what: &str) -> crate::case::Case {
    case.requirements.retain(|id| id != open_point);
    for step in &mut case.steps {
        let alternatives = step.get("is").is_some_and(|is| is.to_string().contains("\"$match\":\"one-of\""));
        if step.get("expect").and_then(Value::as_str) == Some(what) && alternatives {
            let mut ids: Vec<Value> = step.get("requirements").and_then(Value::as_array).cloned().unwrap_or_default();
            if !ids.iter().any(|id| id == open_point) {
                ids.push(json!(open_point));
            }
            if let Some(object) = step.as_object_mut() {
                object.insert("requirements".into(), Value::Array(ids));
                object.entry("strictness").or_insert(json!(Strictness::ImplDefined.as_str()));
            }
        }
    }
    case
}

/// The step with a note for readers of the vector.
pub fn noted(mut step: Value, note: &str) -> Value {
    if let Some(object) = step.as_object_mut() {
        object.insert("note".into(), json!(note));
    }
    step
}

/// A committed node: `{component, props, children}`.
pub fn n(component: &str, props: Value, children: &[&str]) -> Value {
    json!({ "component": component, "props": props, "children": children })
}

/// A `nodes` map from (id, node) pairs.
pub fn nodes(entries: Vec<(&str, Value)>) -> Value {
    let mut map = Map::new();
    for (id, node) in entries {
        map.insert(id.to_string(), node);
    }
    Value::Object(map)
}

/// The committed graph observation.
pub fn graph(revision: u64, root: Option<&str>, nodes: Value) -> Value {
    json!({ "revision": revision, "root": root, "nodes": nodes })
}

/// `{transactionId, result: "committed", revision}`.
pub fn committed(tx: &str, revision: u64) -> Value {
    json!({ "transactionId": tx, "result": "committed", "revision": revision })
}

/// `{transactionId, result: "aborted"}`.
pub fn aborted(tx: &str) -> Value {
    json!({ "transactionId": tx, "result": "aborted" })
}

/// `{transactionId, result: "rejected", code}`.
pub fn rejected(tx: &str, code: &str) -> Value {
    json!({ "transactionId": tx, "result": "rejected", "code": code })
}

/// Rejected with any one of these codes (several checks failed at once, PRJ-RUI-TX-07).
pub fn rejected_any(tx: &str, codes: &[&str]) -> Value {
    json!({ "transactionId": tx, "result": "rejected", "code": one_of(codes.iter().map(|c| json!(c))) })
}

/// A `quarantine` or `rejections` entry.
pub fn at(frame: usize, code: &str) -> Value {
    json!({ "frame": frame, "code": code })
}

/// RECORD_OUTSIDE_TRANSACTION for each of these frames.
pub fn outside(frames: &[usize]) -> Vec<Value> {
    frames
        .iter()
        .map(|f| at(*f, super::code::RECORD_OUTSIDE_TRANSACTION))
        .collect()
}

/// The committed graph, data document and revision: what a failing transaction must leave as
/// it was (RUI-RECOV-06, CL-D02-9).
#[derive(Debug, Clone)]
pub struct State {
    pub graph: Value,
    pub data: Value,
    pub revision: u64,
}

impl State {
    /// Revision 0, no root, no nodes, data `{}` (CL-D02-1, CL-D02-2).
    pub fn empty() -> State {
        State {
            graph: graph(0, None, json!({})),
            data: json!({}),
            revision: 0,
        }
    }

    pub fn new(revision: u64, root: &str, nodes: Value, data: Value) -> State {
        State {
            graph: graph(revision, Some(root), nodes),
            data,
            revision,
        }
    }

    /// Revision 1 whose graph is the one node `root` (`component` with `props`, no children)
    /// and whose data is `{}`: what a one-node transaction commits.
    pub fn single(root: &str, component: &str, props: Value) -> State {
        State::new(1, root, nodes(vec![(root, n(component, props, &[]))]), json!({}))
    }

    /// `graph`, `data` and `revision` expectations.
    pub fn expect(&self) -> Vec<Value> {
        vec![
            expect("graph", self.graph.clone()),
            expect("data", self.data.clone()),
            expect("revision", json!(self.revision)),
        ]
    }
}

/// Exact `transactions`, `quarantine` and `rejections` expectations.
pub fn logs(
    transactions: Vec<Value>,
    quarantine: Vec<Value>,
    rejections: Vec<Value>,
) -> Vec<Value> {
    vec![
        expect("transactions", Value::Array(transactions)),
        expect("quarantine", Value::Array(quarantine)),
        expect("rejections", Value::Array(rejections)),
    ]
}

/// The `rejections` expectation when a failure may be found at the offending record or only at
/// commit (PRJ-RUI-TX-08): either nothing is rejected, or every record after the offending one
/// is rejected as outside a transaction. `frames` are those later records.
pub fn rejections_early_or_late(before: Vec<Value>, frames: &[usize]) -> Value {
    rejections_at_any_or_late(before, &[frames])
}

/// [`rejections_early_or_late`] for a failure whose offending record depends on a reading the
/// texts leave open: `tails` are the records after each record that may be the offending one.
pub fn rejections_at_any_or_late(before: Vec<Value>, tails: &[&[usize]]) -> Value {
    let mut options = vec![Value::Array(before.clone())];
    for tail in tails.iter().filter(|tail| !tail.is_empty()) {
        let mut early = before.clone();
        early.extend(outside(tail));
        options.push(Value::Array(early));
    }
    if options.len() == 1 {
        return expect("rejections", Value::Array(before));
    }
    let step = expect("rejections", one_of(options));
    traced(strict(step, Strictness::ImplDefined), &["PRJ-RUI-TX-08"])
}
