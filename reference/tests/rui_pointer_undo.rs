//! Data operations with their undo (issue 29 §3), on generated documents and pointers:
//! - `set_undoable` / `remove_undoable` decide as a plain RFC 6901 evaluation does (the token-list
//!   evaluation the reference used before the undo log, kept here as the oracle), under every
//!   combination of the `pointer::Reading` choices (CL-D03-1..6, PRJ-RUI-DATA-05..07);
//! - an operation that fails leaves the document unchanged;
//! - undoing a run of applied operations in reverse order gives the document back byte for byte,
//!   member order included, which is what a rejected commit relies on (CL-D02-9, RUI-COMMIT-04:
//!   the committed snapshot changes whole or not at all).

use proptest::prelude::*;
use reference::rui::codes::TransactionCode;
use reference::rui::pointer::{self, Reading, SetEffect};
use serde_json::{json, Map, Value};

/// Tokens that reach members, elements, the append token, escapes and things that are no index.
const TOKENS: &[&str] = &["a", "b", "0", "1", "2", "-", "", "x~1y", "x~0", "01", "~"];

fn document() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (0..5u64).prop_map(|n| json!(n)),
        Just(json!("s")),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(TOKENS), inner), 0..4).prop_map(
                |members| {
                    let mut map = Map::new();
                    for (name, value) in members {
                        map.insert(unescaped(name), value);
                    }
                    Value::Object(map)
                }
            ),
        ]
    })
}

/// A member name as a pointer token names it (`x~1y` names `x/y`), or the token itself if it is
/// not a valid escape.
fn unescaped(token: &str) -> String {
    match oracle::unescape(token) {
        Ok(name) => name,
        Err(_) => token.to_string(),
    }
}

fn pointer_text() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => Just(String::new()),
        1 => Just("a".to_string()),
        8 => prop::collection::vec(prop::sample::select(TOKENS), 1..4)
            .prop_map(|tokens| tokens.iter().map(|t| format!("/{t}")).collect::<String>()),
    ]
}

#[derive(Debug, Clone)]
enum Op {
    Set(String, Value),
    Remove(String),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => (pointer_text(), document()).prop_map(|(p, v)| Op::Set(p, v)),
        1 => pointer_text().prop_map(Op::Remove),
    ]
}

fn reading() -> impl Strategy<Value = Reading> {
    (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(a, s, i, d)| Reading {
        append_dash: a,
        scalar_parent_invalid: s,
        index_at_length_refused: i,
        delete_document_resets: d,
    })
}

/// Serialized with member order, so that a moved member is a difference.
fn bytes(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).expect("a Value serializes")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn undoing_applied_operations_in_reverse_restores_the_document(
        start in document(),
        ops in prop::collection::vec(op(), 1..8),
        reading in reading(),
    ) {
        let mut doc = start.clone();
        let mut expected = start.clone();
        let mut undos = Vec::new();
        for op in ops {
            let before = bytes(&doc);
            let outcome = match &op {
                Op::Set(p, v) => pointer::set_undoable(&mut doc, p.clone(), v.clone(), reading)
                    .map(|(effect, undo)| (Some(effect), undo)),
                Op::Remove(p) => pointer::remove_undoable(&mut doc, p.clone(), reading)
                    .map(|undo| (None, undo)),
            };
            let oracle = match &op {
                Op::Set(p, v) => oracle::set(&mut expected, p, v.clone(), reading).map(Some),
                Op::Remove(p) => oracle::remove(&mut expected, p, reading).map(|()| None),
            };
            prop_assert_eq!(outcome.as_ref().map(|(effect, _)| *effect).map_err(|e| *e), oracle, "{:?}", op);
            prop_assert_eq!(bytes(&doc), bytes(&expected), "{:?}", op);
            match outcome {
                Ok((_, undo)) => undos.push(undo),
                Err(_) => prop_assert_eq!(bytes(&doc), before, "a failed {:?} changed the document", op),
            }
        }
        for undo in undos.into_iter().rev() {
            undo.restore(&mut doc);
        }
        prop_assert_eq!(bytes(&doc), bytes(&start));
    }
}

#[test]
fn a_removed_member_comes_back_in_its_place() {
    let start = json!({ "a": 1, "b": { "x": [1, 2, 3] }, "c": 3 });
    let mut doc = start.clone();
    let reading = Reading::default();
    let first =
        pointer::remove_undoable(&mut doc, "/b/x/1".into(), reading).expect("element 1 exists");
    let second = pointer::remove_undoable(&mut doc, "/b".into(), reading).expect("member b exists");
    let (effect, third) =
        pointer::set_undoable(&mut doc, "/b".into(), json!(0), reading).expect("parent exists");
    assert_eq!(effect, SetEffect::Stored);
    assert_eq!(bytes(&doc), bytes(&json!({ "a": 1, "c": 3, "b": 0 })));
    for undo in [third, second, first] {
        undo.restore(&mut doc);
    }
    assert_eq!(bytes(&doc), bytes(&start));
}

/// The token-list evaluation of RFC 6901 pointers the reference used before the undo log.
mod oracle {
    use super::*;

    fn tokens(pointer: &str) -> Result<Vec<String>, TransactionCode> {
        if pointer.is_empty() {
            return Ok(Vec::new());
        }
        let Some(rest) = pointer.strip_prefix('/') else {
            return Err(TransactionCode::PointerInvalid);
        };
        rest.split('/').map(unescape).collect()
    }

    pub fn unescape(token: &str) -> Result<String, TransactionCode> {
        let mut out = String::new();
        let mut chars = token.chars();
        while let Some(c) = chars.next() {
            if c == '~' {
                match chars.next() {
                    Some('0') => out.push('~'),
                    Some('1') => out.push('/'),
                    _ => return Err(TransactionCode::PointerInvalid),
                }
            } else {
                out.push(c);
            }
        }
        Ok(out)
    }

    fn array_index(token: &str) -> Option<usize> {
        let well_formed = token == "0"
            || (!token.is_empty()
                && !token.starts_with('0')
                && token.bytes().all(|b| b.is_ascii_digit()));
        well_formed.then(|| token.parse().ok()).flatten()
    }

    fn walk<'a>(
        doc: &'a mut Value,
        path: &[String],
    ) -> Result<Option<&'a mut Value>, TransactionCode> {
        let mut current = doc;
        for token in path {
            current = match current {
                Value::Object(members) => match members.get_mut(token) {
                    Some(next) => next,
                    None => return Ok(None),
                },
                Value::Array(_) if token == "-" => return Err(TransactionCode::PointerInvalid),
                Value::Array(items) => match array_index(token).and_then(|i| items.get_mut(i)) {
                    Some(next) => next,
                    None => return Ok(None),
                },
                _ => return Ok(None),
            };
        }
        Ok(Some(current))
    }

    pub fn set(
        doc: &mut Value,
        pointer: &str,
        value: Value,
        reading: Reading,
    ) -> Result<SetEffect, TransactionCode> {
        let path = tokens(pointer)?;
        let Some((last, parent_path)) = path.split_last() else {
            *doc = value;
            return Ok(SetEffect::Stored);
        };
        let parent = walk(doc, parent_path)?.ok_or(TransactionCode::DataParentMissing)?;
        match parent {
            Value::Object(members) => {
                members.insert(last.clone(), value);
                Ok(SetEffect::Stored)
            }
            Value::Array(items) => {
                let index = match array_index(last) {
                    Some(index) if reading.index_at_length_refused && index >= items.len() => {
                        return Err(TransactionCode::PointerInvalid)
                    }
                    Some(index) => index,
                    None if reading.append_dash && last == "-" => items.len(),
                    None => return Err(TransactionCode::PointerInvalid),
                };
                if let Some(slot) = items.get_mut(index) {
                    *slot = value;
                    Ok(SetEffect::Stored)
                } else if index == items.len() {
                    items.push(value);
                    Ok(SetEffect::Appended { len: items.len() })
                } else {
                    Err(TransactionCode::PointerInvalid)
                }
            }
            _ if reading.scalar_parent_invalid => Err(TransactionCode::PointerInvalid),
            _ => Err(TransactionCode::DataParentMissing),
        }
    }

    pub fn remove(doc: &mut Value, pointer: &str, reading: Reading) -> Result<(), TransactionCode> {
        let path = tokens(pointer)?;
        let Some((last, parent_path)) = path.split_last() else {
            if reading.delete_document_resets {
                *doc = Value::Object(Map::new());
                return Ok(());
            }
            return Err(TransactionCode::PointerInvalid);
        };
        let parent = walk(doc, parent_path)?.ok_or(TransactionCode::DeleteAbsent)?;
        match parent {
            Value::Object(members) => match members.shift_remove(last) {
                Some(_) => Ok(()),
                None => Err(TransactionCode::DeleteAbsent),
            },
            Value::Array(items) => {
                let index = array_index(last).ok_or(TransactionCode::PointerInvalid)?;
                if index < items.len() {
                    items.remove(index);
                    Ok(())
                } else {
                    Err(TransactionCode::DeleteAbsent)
                }
            }
            _ => Err(TransactionCode::DeleteAbsent),
        }
    }
}
