//! Records (CL-D01-1..9; spec "Records", RUI-REC-01..03): the tagged tuples of Rixx UI 0.1,
//! parsed from one frame's JSON value.
//!
//! - `["begin", 0, transactionId, baseRevision]`
//! - `["node", seq, nodeId, component, props, children]` (props an object, children an array of
//!   node ids)
//! - `["data", seq, pointer, value]`
//! - `["delete", seq, "node", nodeId]`, `["delete", seq, "data", pointer]`
//! - `["commit", seq, newRevision, rootId]`
//! - `["abort", seq, code, message]`
//!
//! Any other tag, arity or field type is an invalid record (CL-D01-9, `RECORD_INVALID`), except an
//! array whose tag is a string naming no operation: that is an unknown operation
//! (`UNKNOWN_OPERATION`, CL-D05-9, RUI-VER-06), whatever its arity; tags compare case-sensitively.
//! `seq`, `baseRevision` and `newRevision` are non-negative integers written without fraction or
//! exponent, and the seq of `begin` is 0 (PRJ-RUI-REC-04): `1.0`, `1e0`, `-1` or a begin at seq 1
//! are invalid fields. Strings may be empty.

use serde_json::{Map, Value};

/// One record of a transaction.
#[derive(Debug, Clone, PartialEq)]
pub enum Record {
    Begin {
        seq: u64,
        transaction_id: String,
        base_revision: u64,
    },
    Node {
        seq: u64,
        node_id: String,
        component: String,
        props: Map<String, Value>,
        children: Vec<String>,
    },
    Data {
        seq: u64,
        pointer: String,
        value: Value,
    },
    DeleteNode {
        seq: u64,
        node_id: String,
    },
    DeleteData {
        seq: u64,
        pointer: String,
    },
    Commit {
        seq: u64,
        new_revision: u64,
        root_id: String,
    },
    Abort {
        seq: u64,
        code: String,
        message: String,
    },
}

impl Record {
    pub fn seq(&self) -> u64 {
        match self {
            Record::Begin { seq, .. }
            | Record::Node { seq, .. }
            | Record::Data { seq, .. }
            | Record::DeleteNode { seq, .. }
            | Record::DeleteData { seq, .. }
            | Record::Commit { seq, .. }
            | Record::Abort { seq, .. } => *seq,
        }
    }
}

/// Why a JSON value is not a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordError {
    /// Not a tagged tuple of a known shape (CL-D01-9).
    Invalid,
    /// A tuple whose tag is a string that names no operation (CL-D05-9).
    UnknownOperation,
}

/// The operation tags of version 0.1 (RUI-VER-05: never reused).
pub const TAGS: [&str; 6] = ["begin", "node", "data", "delete", "commit", "abort"];

/// Parses one frame's value. Takes it by value so props and data values move into the record.
pub fn parse_record(value: Value) -> Result<Record, RecordError> {
    let Value::Array(items) = value else {
        return Err(RecordError::Invalid);
    };
    let mut items = items.into_iter();
    let tag = match items.next() {
        Some(Value::String(tag)) => tag,
        _ => return Err(RecordError::Invalid),
    };
    let fields: Vec<Value> = items.collect();
    match tag.as_str() {
        "begin" => begin(fields),
        "node" => node(fields),
        "data" => data(fields),
        "delete" => delete(fields),
        "commit" => commit(fields),
        "abort" => abort(fields),
        _ => Err(RecordError::UnknownOperation),
    }
}

/// Exactly `N` fields after the tag (the arity check of CL-D01-9).
fn arity<const N: usize>(fields: Vec<Value>) -> Result<[Value; N], RecordError> {
    fields.try_into().map_err(|_| RecordError::Invalid)
}

/// A JSON integer token without fraction or exponent, at least 0 (serde_json keeps `1.0` and `1e0`
/// as floats, so they are refused here).
fn integer(value: &Value) -> Result<u64, RecordError> {
    value.as_u64().ok_or(RecordError::Invalid)
}

fn string(value: Value) -> Result<String, RecordError> {
    match value {
        Value::String(s) => Ok(s),
        _ => Err(RecordError::Invalid),
    }
}

fn begin(fields: Vec<Value>) -> Result<Record, RecordError> {
    let [seq, transaction_id, base_revision] = arity(fields)?;
    if integer(&seq)? != 0 {
        return Err(RecordError::Invalid);
    }
    Ok(Record::Begin {
        seq: integer(&seq)?,
        transaction_id: string(transaction_id)?,
        base_revision: integer(&base_revision)?,
    })
}

fn node(fields: Vec<Value>) -> Result<Record, RecordError> {
    let [seq, node_id, component, props, children] = arity(fields)?;
    let Value::Object(props) = props else {
        return Err(RecordError::Invalid);
    };
    let Value::Array(children) = children else {
        return Err(RecordError::Invalid);
    };
    let children = children
        .into_iter()
        .map(string)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Record::Node {
        seq: integer(&seq)?,
        node_id: string(node_id)?,
        component: string(component)?,
        props,
        children,
    })
}

fn data(fields: Vec<Value>) -> Result<Record, RecordError> {
    let [seq, pointer, value] = arity(fields)?;
    Ok(Record::Data {
        seq: integer(&seq)?,
        pointer: string(pointer)?,
        value,
    })
}

fn delete(fields: Vec<Value>) -> Result<Record, RecordError> {
    let [seq, kind, target] = arity(fields)?;
    let seq = integer(&seq)?;
    let target = string(target)?;
    match kind.as_str() {
        Some("node") => Ok(Record::DeleteNode {
            seq,
            node_id: target,
        }),
        Some("data") => Ok(Record::DeleteData {
            seq,
            pointer: target,
        }),
        _ => Err(RecordError::Invalid),
    }
}

fn commit(fields: Vec<Value>) -> Result<Record, RecordError> {
    let [seq, new_revision, root_id] = arity(fields)?;
    Ok(Record::Commit {
        seq: integer(&seq)?,
        new_revision: integer(&new_revision)?,
        root_id: string(root_id)?,
    })
}

fn abort(fields: Vec<Value>) -> Result<Record, RecordError> {
    let [seq, code, message] = arity(fields)?;
    Ok(Record::Abort {
        seq: integer(&seq)?,
        code: string(code)?,
        message: string(message)?,
    })
}
