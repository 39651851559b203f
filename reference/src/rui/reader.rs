//! One frame's bytes to one record in a single pass (issue 29 §3): what `parse_frame`,
//! `repeats_a_name` and `parse_record` decide one after the other (RUI-FRAME-01, PRJ-RUI-FRAME-01,
//! CL-D01-1..9, CL-D05-9, PRJ-RUI-REC-04, PRJ-RUI-REC-06), decided while the JSON text is read,
//! without building a JSON value for the record tuple, its tag, its numbers or its strings. Only
//! what a record keeps is built: its ids and strings, a node's props and children, a data value.
//!
//! The same parser (serde_json, from the frame's bytes) reads every byte, so a frame is
//! `FRAME_NOT_JSON` exactly when `parse_frame` refuses it (syntax, UTF-8, nesting deeper than 128,
//! numbers beyond an f64, lone surrogates, anything after the text): every element is read with
//! `deserialize_any`, as `Value`'s own `Deserialize` reads it, whether the record needs it or not.
//! The values a record keeps are built as `Value`'s own visitor builds them (a repeated member name
//! keeps its first place and its last value), noting a repeated name on the way. A test compares
//! the two ways on the vectors' records and on generated inputs (`tests/rui_reader.rs`).

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use super::codes::QuarantineCode;
use super::records::{Record, RecordError};

/// What one frame holds, read in one pass.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameRecord {
    /// The record, or why the JSON value is not one.
    pub record: Result<Record, RecordError>,
    /// Some object in the frame repeats a member name (after unescaping).
    pub repeats_a_name: bool,
}

/// Reads one frame: `FRAME_NOT_JSON` when it is not exactly one JSON text.
pub fn read_frame(bytes: &[u8]) -> Result<FrameRecord, QuarantineCode> {
    let mut repeats = false;
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    // Written without combinators, so that the record is not moved from one `Result` to the next.
    let Ok(record) = (Top {
        repeats: &mut repeats,
    })
    .deserialize(&mut deserializer) else {
        return Err(QuarantineCode::FrameNotJson);
    };
    if deserializer.end().is_err() {
        return Err(QuarantineCode::FrameNotJson);
    }
    Ok(FrameRecord {
        record,
        repeats_a_name: repeats,
    })
}

/// The operation a tag names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Begin,
    Node,
    Data,
    Delete,
    Commit,
    Abort,
}

impl Op {
    fn of(tag: &str) -> Option<Op> {
        Some(match tag {
            "begin" => Op::Begin,
            "node" => Op::Node,
            "data" => Op::Data,
            "delete" => Op::Delete,
            "commit" => Op::Commit,
            "abort" => Op::Abort,
            _ => return None,
        })
    }

    /// The fields after the tag (CL-D01-9: exactly these).
    fn fields(self) -> &'static [Want] {
        use Want::{Any, Object, Str, StrList, U64};
        match self {
            Op::Begin => &[U64, Str, U64],
            Op::Node => &[U64, Str, Str, Object, StrList],
            Op::Data => &[U64, Str, Any],
            Op::Delete => &[U64, Str, Str],
            Op::Commit => &[U64, U64, Str],
            Op::Abort => &[U64, Str, Str],
        }
    }
}

/// What a field must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    /// The tag: a string.
    Tag,
    /// A JSON integer token without fraction or exponent, at least 0 (what `Value::as_u64` takes).
    U64,
    Str,
    Object,
    /// An array of strings.
    StrList,
    /// Any value, kept.
    Any,
}

/// A field as read: what was wanted, or `Wrong` (read through, not kept).
#[derive(Debug, Default)]
enum Got {
    Tag(Option<Op>),
    U64(u64),
    Str(String),
    Object(Map<String, Value>),
    StrList(Vec<String>),
    Any(Value),
    #[default]
    Wrong,
}

/// The frame's value: a record tuple, or anything else (read through: `RECORD_INVALID`).
struct Top<'r> {
    repeats: &'r mut bool,
}

impl<'de> DeserializeSeed<'de> for Top<'_> {
    type Value = Result<Record, RecordError>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Top<'_> {
    type Value = Result<Record, RecordError>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Err(RecordError::Invalid))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Err(RecordError::Invalid))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Err(RecordError::Invalid))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Err(RecordError::Invalid))
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Err(RecordError::Invalid))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Err(RecordError::Invalid))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        object(map, self.repeats)?;
        Ok(Err(RecordError::Invalid))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let repeats = self.repeats;
        let op = match seq.next_element_seed(Field {
            want: Want::Tag,
            repeats: &mut *repeats,
        })? {
            None => return Ok(Err(RecordError::Invalid)),
            Some(Got::Tag(op)) => op,
            Some(_) => {
                rest(&mut seq, repeats)?;
                return Ok(Err(RecordError::Invalid));
            }
        };
        let Some(op) = op else {
            // A string naming no operation, whatever its arity (CL-D05-9).
            rest(&mut seq, repeats)?;
            return Ok(Err(RecordError::UnknownOperation));
        };
        let wants = op.fields();
        let mut got: [Got; 5] = Default::default();
        let mut count = 0;
        loop {
            let want = wants.get(count).copied().unwrap_or(Want::Any);
            let Some(field) = seq.next_element_seed(Field {
                want,
                repeats: &mut *repeats,
            })?
            else {
                break;
            };
            if let Some(slot) = got.get_mut(count) {
                *slot = field;
            }
            count += 1;
        }
        if count != wants.len() {
            return Ok(Err(RecordError::Invalid));
        }
        Ok(record(op, got))
    }
}

/// The record of `op` from its fields, each already of the wanted kind or `Wrong`.
fn record(op: Op, got: [Got; 5]) -> Result<Record, RecordError> {
    use Got::{Any, Object, Str, StrList, U64};
    let invalid = Err(RecordError::Invalid);
    match (op, got) {
        (Op::Begin, [U64(0), Str(transaction_id), U64(base_revision), ..]) => Ok(Record::Begin {
            seq: 0,
            transaction_id,
            base_revision,
        }),
        (Op::Node, [U64(seq), Str(node_id), Str(component), Object(props), StrList(children)]) => {
            Ok(Record::Node {
                seq,
                node_id,
                component,
                props,
                children,
            })
        }
        (Op::Data, [U64(seq), Str(pointer), Any(value), ..]) => Ok(Record::Data {
            seq,
            pointer,
            value,
        }),
        (Op::Delete, [U64(seq), Str(kind), Str(target), ..]) => match kind.as_str() {
            "node" => Ok(Record::DeleteNode {
                seq,
                node_id: target,
            }),
            "data" => Ok(Record::DeleteData {
                seq,
                pointer: target,
            }),
            _ => invalid,
        },
        (Op::Commit, [U64(seq), U64(new_revision), Str(root_id), ..]) => Ok(Record::Commit {
            seq,
            new_revision,
            root_id,
        }),
        (Op::Abort, [U64(seq), Str(code), Str(message), ..]) => {
            Ok(Record::Abort { seq, code, message })
        }
        _ => invalid,
    }
}

/// Reads the remaining elements through (each validated, names checked, nothing kept).
fn rest<'de, A: SeqAccess<'de>>(seq: &mut A, repeats: &mut bool) -> Result<(), A::Error> {
    while seq
        .next_element_seed(Field {
            want: Want::Any,
            repeats: &mut *repeats,
        })?
        .is_some()
    {}
    Ok(())
}

/// An object's members, built as `Value`'s visitor builds them (`Map::insert`: a repeated name
/// keeps its first place and its last value), noting a repeated name.
fn object<'de, A: MapAccess<'de>>(
    mut map: A,
    repeats: &mut bool,
) -> Result<Map<String, Value>, A::Error> {
    let mut members = Map::new();
    while let Some(name) = map.next_key::<String>()? {
        let value = kept(map.next_value_seed(Field {
            want: Want::Any,
            repeats: &mut *repeats,
        })?);
        if members.insert(name, value).is_some() {
            *repeats = true;
        }
    }
    Ok(members)
}

/// The value of a field read as `Want::Any`, which is always `Got::Any`.
fn kept(got: Got) -> Value {
    match got {
        Got::Any(value) => value,
        _ => Value::Null,
    }
}

/// One field of the wanted kind.
struct Field<'r> {
    want: Want,
    repeats: &'r mut bool,
}

impl Field<'_> {
    /// A scalar: kept as a value when any value is wanted, otherwise the wrong kind.
    fn scalar(&self, value: impl FnOnce() -> Value) -> Got {
        match self.want {
            Want::Any => Got::Any(value()),
            _ => Got::Wrong,
        }
    }
}

impl<'de> DeserializeSeed<'de> for Field<'_> {
    type Value = Got;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Got, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Field<'_> {
    type Value = Got;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Got, E> {
        Ok(self.scalar(|| Value::Bool(value)))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Got, E> {
        Ok(self.scalar(|| Value::Number(value.into())))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Got, E> {
        Ok(match self.want {
            Want::U64 => Got::U64(value),
            _ => self.scalar(|| Value::Number(value.into())),
        })
    }

    fn visit_f64<E>(self, value: f64) -> Result<Got, E> {
        Ok(self.scalar(|| Number::from_f64(value).map_or(Value::Null, Value::Number)))
    }

    fn visit_str<E>(self, value: &str) -> Result<Got, E> {
        Ok(match self.want {
            Want::Tag => Got::Tag(Op::of(value)),
            Want::Str => Got::Str(value.to_owned()),
            _ => self.scalar(|| Value::String(value.to_owned())),
        })
    }

    fn visit_string<E>(self, value: String) -> Result<Got, E> {
        Ok(match self.want {
            Want::Tag => Got::Tag(Op::of(&value)),
            Want::Str => Got::Str(value),
            _ => self.scalar(|| Value::String(value)),
        })
    }

    fn visit_unit<E>(self) -> Result<Got, E> {
        Ok(self.scalar(|| Value::Null))
    }

    fn visit_none<E>(self) -> Result<Got, E> {
        Ok(self.scalar(|| Value::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Got, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Got, A::Error> {
        let Field { want, repeats } = self;
        match want {
            Want::StrList => {
                let mut items = Vec::new();
                let mut all_strings = true;
                while let Some(item) = seq.next_element_seed(Field {
                    want: Want::Str,
                    repeats: &mut *repeats,
                })? {
                    match item {
                        Got::Str(item) if all_strings => items.push(item),
                        _ => all_strings = false,
                    }
                }
                Ok(if all_strings {
                    Got::StrList(items)
                } else {
                    Got::Wrong
                })
            }
            Want::Any => {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element_seed(Field {
                    want: Want::Any,
                    repeats: &mut *repeats,
                })? {
                    items.push(kept(item));
                }
                Ok(Got::Any(Value::Array(items)))
            }
            _ => {
                rest(&mut seq, repeats)?;
                Ok(Got::Wrong)
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Got, A::Error> {
        let members = object(map, self.repeats)?;
        Ok(match self.want {
            Want::Object => Got::Object(members),
            Want::Any => Got::Any(Value::Object(members)),
            _ => Got::Wrong,
        })
    }
}
