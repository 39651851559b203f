//! Rixx UI records as the tagged tuples of CLARIFICATIONS D01 (CL-D01-1..8), and a transaction
//! builder that numbers `seq` by zero-based position inside the transaction (RUI-TX-02).

use serde_json::{json, Value};

/// `["begin", 0, transactionId, baseRevision]` (CL-D01-2).
pub fn begin(tx: &str, base: u64) -> Value {
    json!(["begin", 0, tx, base])
}

/// `["node", seq, nodeId, component, props, children]` (CL-D01-3).
pub fn node(seq: u64, id: &str, component: &str, props: Value, children: &[&str]) -> Value {
    json!(["node", seq, id, component, props, children])
}

/// `["data", seq, pointer, value]` (CL-D01-4).
pub fn data(seq: u64, pointer: &str, value: Value) -> Value {
    json!(["data", seq, pointer, value])
}

/// `["delete", seq, "node", nodeId]` (CL-D01-5).
pub fn delete_node(seq: u64, id: &str) -> Value {
    json!(["delete", seq, "node", id])
}

/// `["delete", seq, "data", pointer]` (CL-D01-6).
pub fn delete_data(seq: u64, pointer: &str) -> Value {
    json!(["delete", seq, "data", pointer])
}

/// `["commit", seq, newRevision, rootId]` (CL-D01-7).
pub fn commit(seq: u64, new_revision: u64, root: &str) -> Value {
    json!(["commit", seq, new_revision, root])
}

/// `["abort", seq, code, message]` (CL-D01-8).
pub fn abort(seq: u64, code: &str, message: &str) -> Value {
    json!(["abort", seq, code, message])
}

/// One transaction's records, `seq` assigned from each record's position.
#[derive(Debug, Clone)]
pub struct Tx {
    records: Vec<Value>,
}

impl Tx {
    pub fn begin(id: &str, base: u64) -> Tx {
        Tx {
            records: vec![begin(id, base)],
        }
    }

    /// The `seq` the next record gets.
    pub fn seq(&self) -> u64 {
        self.records.len() as u64
    }

    pub fn node(self, id: &str, component: &str, props: Value, children: &[&str]) -> Tx {
        let seq = self.seq();
        self.push(node(seq, id, component, props, children))
    }

    pub fn data(self, pointer: &str, value: Value) -> Tx {
        let seq = self.seq();
        self.push(data(seq, pointer, value))
    }

    pub fn delete_node(self, id: &str) -> Tx {
        let seq = self.seq();
        self.push(delete_node(seq, id))
    }

    pub fn delete_data(self, pointer: &str) -> Tx {
        let seq = self.seq();
        self.push(delete_data(seq, pointer))
    }

    /// A record built by the caller from the next `seq` (malformed records, unknown tags).
    pub fn with(self, record: impl FnOnce(u64) -> Value) -> Tx {
        let seq = self.seq();
        self.push(record(seq))
    }

    /// A record pushed exactly as given (a deliberate sequence gap).
    pub fn push(mut self, record: Value) -> Tx {
        self.records.push(record);
        self
    }

    pub fn commit(self, new_revision: u64, root: &str) -> Vec<Value> {
        let seq = self.seq();
        self.push(commit(seq, new_revision, root)).records
    }

    pub fn abort(self, code: &str, message: &str) -> Vec<Value> {
        let seq = self.seq();
        self.push(abort(seq, code, message)).records
    }

    /// The records so far, with no closing record: the transaction stays open.
    pub fn open(self) -> Vec<Value> {
        self.records
    }
}
