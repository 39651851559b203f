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
//!
//! How depth and operations are counted is a convention the texts do not fix (PRJ-RUI-LIMIT-14,
//! PRJ-RUI-LIMIT-15, IMPL-DEFINED): an implementation declares its own in the handshake
//! (`limitsMeasure`) and the runner translates `setup.limits` into it. [`Measure`] is the
//! reference's declaration: the default counts as above; `rui-depth-from-record` counts every
//! depth one level deeper (a props object or data value inside its record tuple, the root below a
//! level of its own) and `rui-operations-count-records` counts `begin` and the closing `commit` as
//! operations too. `rui-limits-bound-whole-record` (PRJ-RUI-LIMIT-13) also bounds what the vectors
//! keep clear of every bound: every other string of a record, object member names, the
//! transaction id (as an id), the record tuple (as an array) and a data value's depth from the
//! document root.

use serde_json::{json, Value};

use super::codes::TransactionCode;
use crate::choices::{Choice, Choices};

/// How a runtime counts depth and operations (PRJ-RUI-LIMIT-14/15), as it declares in the
/// handshake member `limitsMeasure`; the default is the reading of PRJ-RUI-LIMIT-08/09.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Measure {
    /// `limitsMeasure.depth = "record"`: every depth one level deeper than PRJ-RUI-LIMIT-08/12
    /// count it (the record tuple is depth 1, so a props object or data value is depth 2).
    pub depth_from_record: bool,
    /// `limitsMeasure.operations = "records"`: `begin` and the closing `commit` count as
    /// operations too (PRJ-RUI-LIMIT-09 counts only node, data and delete records).
    pub operations_count_records: bool,
}

impl Measure {
    /// The measure a runtime takes under these choices.
    pub fn of(choices: &Choices) -> Measure {
        Measure {
            depth_from_record: choices.takes(Choice::RuiDepthFromRecord),
            operations_count_records: choices.takes(Choice::RuiOperationsCountRecords),
        }
    }

    /// The handshake's `limitsMeasure` member: only the readings that differ from the default,
    /// `None` when none does (an absent member is the default reading).
    pub fn to_json(self) -> Option<Value> {
        let mut object = serde_json::Map::new();
        if self.depth_from_record {
            object.insert("depth".into(), json!("record"));
        }
        if self.operations_count_records {
            object.insert("operations".into(), json!("records"));
        }
        (!object.is_empty()).then_some(Value::Object(object))
    }

    fn depth_offset(self) -> usize {
        usize::from(self.depth_from_record)
    }
}

/// A limits profile: every field an inclusive maximum, counted as `measure` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max_id_length: usize,
    pub max_string_length: usize,
    pub max_array_length: usize,
    pub max_depth: usize,
    pub max_operations: usize,
    pub max_transaction_bytes: usize,
    pub measure: Measure,
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
            measure: Measure::default(),
        }
    }
}

impl Limits {
    /// The profile a runtime declares under these choices: the minimum profile in its own
    /// measure (one more depth when it counts the record tuple, two more operations when it counts
    /// begin and commit), or (the alternate reading of CL-D04-1, `Choice::RuiLimitsProfile`)
    /// every bound doubled, since an implementation declares its own bounds at or above the
    /// minimum.
    pub fn declared(choices: &Choices) -> Limits {
        let measure = Measure::of(choices);
        let minimum = Limits {
            max_depth: 16 + measure.depth_offset(),
            max_operations: 64 + 2 * usize::from(measure.operations_count_records),
            measure,
            ..Limits::default()
        };
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
            measure,
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
            measure: Measure::default(),
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
        if let Some(checked) = self.walk_flat(value, with_depth) {
            return checked;
        }
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

    /// [`Limits::walk`] of a scalar, or of a container holding only scalars (most props objects
    /// and data values): the same checks in the same order without a work list, so without an
    /// allocation (issue 29 §3). `None` for anything deeper.
    fn walk_flat(&self, value: &Value, with_depth: bool) -> Option<Result<(), TransactionCode>> {
        let scalar = |v: &Value| !matches!(v, Value::Object(_) | Value::Array(_));
        match value {
            Value::String(s) => Some(self.check_string(s)),
            Value::Null | Value::Bool(_) | Value::Number(_) => Some(Ok(())),
            Value::Object(members) if members.values().all(scalar) => {
                Some(self.flat(None, members.values(), with_depth))
            }
            Value::Array(items) if items.iter().all(scalar) => {
                Some(self.flat(Some(items.len()), items.iter(), with_depth))
            }
            _ => None,
        }
    }

    fn flat<'a>(
        &self,
        len: Option<usize>,
        members: impl Iterator<Item = &'a Value>,
        with_depth: bool,
    ) -> Result<(), TransactionCode> {
        if with_depth {
            self.check_depth(1)?;
        }
        if let Some(len) = len {
            self.check_array_len(len)?;
        }
        for member in members {
            if let Value::String(s) = member {
                self.check_string(s)?;
            }
        }
        Ok(())
    }

    /// `LIMIT_DEPTH` when a depth (JSON containers, or nodes on a graph path, as PRJ-RUI-LIMIT-08
    /// and 12 count them) is too deep in this runtime's measure.
    pub fn check_depth(&self, depth: usize) -> Result<(), TransactionCode> {
        if depth.saturating_add(self.measure.depth_offset()) > self.max_depth {
            Err(TransactionCode::LimitDepth)
        } else {
            Ok(())
        }
    }

    /// The wider reading `rui-limits-bound-whole-record` takes (PRJ-RUI-LIMIT-13): the record
    /// tuple is an array bounded by `maxArrayLength`; the transaction id of a `begin` is an id;
    /// every string of the tuple (tag, ids, component, pointer, abort code and message) and every
    /// object member name inside it is a string bounded by `maxStringLength`; and a data value's
    /// depth counts from the document root (one level per pointer token). `record` is the tuple
    /// as parsed, already known to be a record.
    pub fn check_whole_record(&self, record: &Value) -> Result<(), TransactionCode> {
        let Some(fields) = record.as_array() else {
            return Ok(());
        };
        self.check_array_len(fields.len())?;
        let tag = fields.first().and_then(Value::as_str);
        if tag == Some("begin") {
            if let Some(id) = fields.get(2).and_then(Value::as_str) {
                self.check_id(id)?;
            }
        }
        let mut pending: Vec<&Value> = fields.iter().collect();
        while let Some(value) = pending.pop() {
            match value {
                Value::String(s) => self.check_string(s)?,
                Value::Array(items) => pending.extend(items),
                Value::Object(members) => {
                    for (name, member) in members {
                        self.check_string(name)?;
                        pending.push(member);
                    }
                }
                Value::Null | Value::Bool(_) | Value::Number(_) => {}
            }
        }
        if let (Some("data"), Some(pointer), Some(value)) =
            (tag, fields.get(2).and_then(Value::as_str), fields.get(3))
        {
            let tokens = pointer.matches('/').count();
            let below = Limits {
                max_depth: self.max_depth.saturating_sub(tokens),
                ..*self
            };
            if tokens > self.max_depth {
                return Err(TransactionCode::LimitDepth);
            }
            below.check_value(value)?;
        }
        Ok(())
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
            measure: Measure::default(),
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
