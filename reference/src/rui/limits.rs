//! The limits profile (CL-D04-1..3; spec "Graph invariants": "IDs, props, arrays, strings, depth,
//! operation counts, and total bytes are bounded", RUI-INV-06). Every bound is an inclusive
//! maximum; exceeding one fails the transaction with its `LIMIT_*` code (CL-D04-3).
//!
//! Defaults are exactly the minimum profile of vectors/README.md (64, 1024, 64, 16, 64, 65536), so
//! the reference is the strictest conforming runtime and a vector that silently relies on more than
//! the minimum fails here first.
//!
//! How each bound is measured (PRJ-RUI-LIMIT-07..10, the project's decisions where the texts are
//! silent):
//! - `maxIdLength`: characters (Unicode scalar values) of every node id: in node records, child
//!   lists, commit roots and `delete node` records. The transaction id (part of the record tuple
//!   itself) is not bounded.
//! - `maxStringLength`: characters of every string value inside props and inside data values
//!   (object member names are not string values and are not bounded).
//! - `maxArrayLength`: elements of every array inside props and data values, of every child list,
//!   and of an array of the data document that a `data` record grows by appending.
//! - `maxDepth` bounds both the JSON nesting of every props object and every data value (an
//!   object or array is depth 1, each container inside it adds 1, a scalar adds nothing; where the
//!   value lands in the document does not count) and the depth of the committed graph from its root
//!   (nodes on the longest path: the root alone is depth 1).
//! - `maxOperations`: staged operations of one transaction, i.e. its `node`, `data` and `delete`
//!   records (`begin` and the closing `commit` or `abort` are not operations).
//! - `maxTransactionBytes`: the sum, over every record of the transaction from `begin` to `commit`
//!   inclusive, of the record's JSON text length in bytes without surrounding whitespace, so the
//!   same stream counts the same in every framing (no LF, RS or `data:` prefix counted).
//!
//! Characters, UTF-16 units and bytes agree on ASCII, which is what vectors at a bound use.

use serde_json::{json, Value};

use super::codes::TransactionCode;
use crate::choices::{Choice, Choices};

/// A limits profile: every field an inclusive maximum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max_id_length: usize,
    pub max_string_length: usize,
    pub max_array_length: usize,
    pub max_depth: usize,
    pub max_operations: usize,
    pub max_transaction_bytes: usize,
}

impl Default for Limits {
    /// The minimum profile of vectors/README.md.
    fn default() -> Self {
        Limits {
            max_id_length: 64,
            max_string_length: 1024,
            max_array_length: 64,
            max_depth: 16,
            max_operations: 64,
            max_transaction_bytes: 65536,
        }
    }
}

impl Limits {
    /// The profile a runtime declares under these choices: the minimum profile, or (the
    /// alternate reading of CL-D04-1, `Choice::RuiLimitsProfile`) every bound doubled, since an
    /// implementation declares its own bounds at or above the minimum.
    pub fn declared(choices: &Choices) -> Limits {
        let minimum = Limits::default();
        if !choices.takes(Choice::RuiLimitsProfile) {
            return minimum;
        }
        Limits {
            max_id_length: minimum.max_id_length * 2,
            max_string_length: minimum.max_string_length * 2,
            max_array_length: minimum.max_array_length * 2,
            max_depth: minimum.max_depth * 2,
            max_operations: minimum.max_operations * 2,
            max_transaction_bytes: minimum.max_transaction_bytes * 2,
        }
    }
}

/// A `limits` object that is not a limits profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitsError(pub String);

impl std::fmt::Display for LimitsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LimitsError {}

const FIELDS: [&str; 6] = [
    "maxIdLength",
    "maxStringLength",
    "maxArrayLength",
    "maxDepth",
    "maxOperations",
    "maxTransactionBytes",
];

impl Limits {
    /// From the vector format's `limits` object: all six fields, each an integer of at least 1.
    pub fn from_json(value: &Value) -> Result<Limits, LimitsError> {
        let object = value
            .as_object()
            .ok_or_else(|| LimitsError("limits must be an object".into()))?;
        if let Some(extra) = object.keys().find(|k| !FIELDS.contains(&k.as_str())) {
            return Err(LimitsError(format!("unknown limits field {extra}")));
        }
        let field = |name: &str| -> Result<usize, LimitsError> {
            object
                .get(name)
                .and_then(Value::as_u64)
                .filter(|n| *n >= 1)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| LimitsError(format!("{name} must be an integer of at least 1")))
        };
        Ok(Limits {
            max_id_length: field("maxIdLength")?,
            max_string_length: field("maxStringLength")?,
            max_array_length: field("maxArrayLength")?,
            max_depth: field("maxDepth")?,
            max_operations: field("maxOperations")?,
            max_transaction_bytes: field("maxTransactionBytes")?,
        })
    }

    /// As the vector format's `limits` object.
    pub fn to_json(&self) -> Value {
        json!({
            "maxIdLength": self.max_id_length,
            "maxStringLength": self.max_string_length,
            "maxArrayLength": self.max_array_length,
            "maxDepth": self.max_depth,
            "maxOperations": self.max_operations,
            "maxTransactionBytes": self.max_transaction_bytes,
        })
    }

    /// `LIMIT_ID_LENGTH` when `id` is too long.
    pub fn check_id(&self, id: &str) -> Result<(), TransactionCode> {
        if id.len() > self.max_id_length && id.chars().count() > self.max_id_length {
            Err(TransactionCode::LimitIdLength)
        } else {
            Ok(())
        }
    }

    /// `LIMIT_ARRAY_LENGTH` when a list of `len` items is too long.
    pub fn check_array_len(&self, len: usize) -> Result<(), TransactionCode> {
        if len > self.max_array_length {
            Err(TransactionCode::LimitArrayLength)
        } else {
            Ok(())
        }
    }

    /// Every string value, array and the nesting depth of a props object or a data value. The walk
    /// is iterative, so no input nests deep enough to exhaust the stack.
    pub fn check_value(&self, value: &Value) -> Result<(), TransactionCode> {
        self.walk(value, true)
    }

    /// Strings and arrays only: what the whole data document satisfies, whose depth is not bounded
    /// (only each data value's is).
    pub fn check_strings_and_arrays(&self, value: &Value) -> Result<(), TransactionCode> {
        self.walk(value, false)
    }

    fn walk(&self, value: &Value, with_depth: bool) -> Result<(), TransactionCode> {
        let mut pending: Vec<(&Value, usize)> = vec![(value, 0)];
        while let Some((value, above)) = pending.pop() {
            match value {
                Value::String(s) => self.check_string(s)?,
                Value::Array(items) => {
                    if with_depth {
                        self.check_depth(above + 1)?;
                    }
                    self.check_array_len(items.len())?;
                    pending.extend(items.iter().map(|item| (item, above + 1)));
                }
                Value::Object(members) => {
                    if with_depth {
                        self.check_depth(above + 1)?;
                    }
                    pending.extend(members.values().map(|member| (member, above + 1)));
                }
                Value::Null | Value::Bool(_) | Value::Number(_) => {}
            }
        }
        Ok(())
    }

    /// `LIMIT_DEPTH` when a depth (JSON containers, or nodes on a graph path) is too deep.
    pub fn check_depth(&self, depth: usize) -> Result<(), TransactionCode> {
        if depth > self.max_depth {
            Err(TransactionCode::LimitDepth)
        } else {
            Ok(())
        }
    }

    fn check_string(&self, s: &str) -> Result<(), TransactionCode> {
        // Bytes bound characters from above: most strings need no count.
        if s.len() > self.max_string_length && s.chars().count() > self.max_string_length {
            Err(TransactionCode::LimitStringLength)
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The declared profile as the vector format's `limits` object (vectors/README.md), which the
    // in-process adapter reports in its handshake: every bound under its own name, and read back
    // unchanged.
    #[test]
    fn to_json_is_the_vector_format_limits_object() {
        let limits = Limits {
            max_id_length: 1,
            max_string_length: 2,
            max_array_length: 3,
            max_depth: 4,
            max_operations: 5,
            max_transaction_bytes: 6,
        };
        let expected = json!({
            "maxIdLength": 1, "maxStringLength": 2, "maxArrayLength": 3,
            "maxDepth": 4, "maxOperations": 5, "maxTransactionBytes": 6
        });
        assert_eq!(limits.to_json(), expected);
        let read_back = Limits::from_json(&expected).map(|read| read.to_json()).ok();
        assert_eq!(read_back, Some(expected));
    }
}
