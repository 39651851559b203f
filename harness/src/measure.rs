//! How an implementation measures its Rixx UI limits (handshake member `limitsMeasure`,
//! harness/driver/README.md) and the runner's translation of a case's `setup.limits` into that
//! measure (PRJ-RUI-LIMIT-14, PRJ-RUI-LIMIT-15: IMPL-DEFINED conventions the texts do not fix).
//!
//! RUI-INV-06 and CL-D04-1 bound "depth" and "operation counts" without saying how they are
//! counted. Vectors count as PRJ-RUI-LIMIT-08/09 do; an implementation that counts otherwise
//! declares it, and the runner hands it the bound that means the same in its measure:
//! - `depth`: `"value"` (default: a props object or data value is depth 1, the root node is depth
//!   1), `"record"` (every depth one level deeper: the record tuple is depth 1) or `"inner"` (every
//!   depth one level shallower: only the containers inside a props object or data value count).
//!   `maxDepth` is sent plus 1 or minus 1.
//! - `operations`: `"staged"` (default: node, data and delete records) or `"records"` (begin and
//!   the closing commit or abort count too). `maxOperations` is sent plus 2.
//!
//! The member is optional and each of its members is too: absent means the default reading, so a
//! driver written before it existed runs unchanged.

use std::borrow::Cow;

use serde_json::{json, Map, Value};

/// How depth is counted, as an offset from PRJ-RUI-LIMIT-08's count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Depth {
    #[default]
    Value,
    Record,
    Inner,
}

/// Which records count as operations.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Operations {
    #[default]
    Staged,
    Records,
}

/// An implementation's declared measure; the default is the vectors' own.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LimitsMeasure {
    pub depth: Depth,
    pub operations: Operations,
}

impl Depth {
    const NAMES: [(&'static str, Depth); 3] = [("value", Depth::Value), ("record", Depth::Record), ("inner", Depth::Inner)];

    fn offset(self) -> i64 {
        match self {
            Depth::Value => 0,
            Depth::Record => 1,
            Depth::Inner => -1,
        }
    }
}

impl Operations {
    const NAMES: [(&'static str, Operations); 2] = [("staged", Operations::Staged), ("records", Operations::Records)];

    fn offset(self) -> i64 {
        match self {
            Operations::Staged => 0,
            Operations::Records => 2,
        }
    }
}

fn named<T: Copy + PartialEq>(names: &[(&'static str, T)], value: Option<&Value>, key: &str) -> Result<Option<T>, String> {
    let Some(value) = value else { return Ok(None) };
    let text = value.as_str().ok_or_else(|| format!("limitsMeasure.{key} must be a string"))?;
    match names.iter().find(|(name, _)| *name == text) {
        Some((_, reading)) => Ok(Some(*reading)),
        None => {
            let known: Vec<&str> = names.iter().map(|(name, _)| *name).collect();
            let shown = crate::quote::bounded(&format_args!("{text:?}"));
            Err(format!("unknown limitsMeasure.{key} {shown}; the known readings are {}", known.join(", ")))
        }
    }
}

fn name_of<T: Copy + PartialEq>(names: &[(&'static str, T)], reading: T) -> &'static str {
    names.iter().find(|(_, r)| *r == reading).map(|(name, _)| *name).unwrap_or_default()
}

impl LimitsMeasure {
    /// The handshake member (absent: the default measure). Unknown members or readings are
    /// refused, as unknown profiles are: a measure the runner cannot translate must not be run as
    /// if it were the default.
    pub fn decode(member: Option<&Value>) -> Result<LimitsMeasure, String> {
        let Some(member) = member else { return Ok(LimitsMeasure::default()) };
        let object = member.as_object().ok_or("limitsMeasure must be an object")?;
        if let Some(unknown) = object.keys().find(|k| !["depth", "operations"].contains(&k.as_str())) {
            return Err(format!("unknown limitsMeasure member {}", crate::quote::bounded(&format_args!("{unknown:?}"))));
        }
        Ok(LimitsMeasure {
            depth: named(&Depth::NAMES, object.get("depth"), "depth")?.unwrap_or_default(),
            operations: named(&Operations::NAMES, object.get("operations"), "operations")?.unwrap_or_default(),
        })
    }

    /// The handshake member, or `None` for the default measure (the member is then left out).
    pub fn encode(&self) -> Option<Value> {
        let mut object = Map::new();
        if self.depth != Depth::Value {
            object.insert("depth".into(), json!(name_of(&Depth::NAMES, self.depth)));
        }
        if self.operations != Operations::Staged {
            object.insert("operations".into(), json!(name_of(&Operations::NAMES, self.operations)));
        }
        (!object.is_empty()).then_some(Value::Object(object))
    }

    /// `setup` with its `limits` in this measure: the bounds that admit exactly what the vector's
    /// bounds admit when counted as PRJ-RUI-LIMIT-08/09 count. `Err`: the bound cannot be said in
    /// this measure (a translated bound below 1), so the case is `unsupported` with that reason.
    pub fn translate<'s>(&self, setup: &'s Value) -> Result<Cow<'s, Value>, String> {
        let Some(limits) = setup.get("limits").and_then(Value::as_object) else { return Ok(Cow::Borrowed(setup)) };
        if *self == LimitsMeasure::default() {
            return Ok(Cow::Borrowed(setup));
        }
        let mut limits = limits.clone();
        for (field, offset) in [("maxDepth", self.depth.offset()), ("maxOperations", self.operations.offset())] {
            if offset == 0 {
                continue;
            }
            let Some(bound) = limits.get(field).and_then(Value::as_i64) else { continue };
            let translated = bound.saturating_add(offset);
            if translated < 1 {
                return Err(format!("{field} {bound} cannot be said in the declared limitsMeasure (it would be {translated})"));
            }
            limits.insert(field.into(), json!(translated));
        }
        let mut setup = setup.clone();
        if let Some(object) = setup.as_object_mut() {
            object.insert("limits".into(), Value::Object(limits));
        }
        Ok(Cow::Owned(setup))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(depth: u64, operations: u64) -> Value {
        json!({ "framing": "jsonl", "limits": { "maxIdLength": 8, "maxStringLength": 16, "maxArrayLength": 6,
            "maxDepth": depth, "maxOperations": operations, "maxTransactionBytes": 240 } })
    }

    #[test]
    fn an_absent_member_is_the_default_and_leaves_the_setup_as_it_is() {
        let measure = LimitsMeasure::decode(None).unwrap();
        assert_eq!(measure, LimitsMeasure::default());
        assert_eq!(measure.encode(), None);
        assert!(matches!(measure.translate(&setup(3, 4)).unwrap(), Cow::Borrowed(_)));
    }

    #[test]
    fn each_declared_reading_moves_only_its_own_bound() {
        let record = LimitsMeasure::decode(Some(&json!({ "depth": "record" }))).unwrap();
        assert_eq!(record.translate(&setup(3, 4)).unwrap().into_owned(), setup(4, 4));
        let inner = LimitsMeasure::decode(Some(&json!({ "depth": "inner" }))).unwrap();
        assert_eq!(inner.translate(&setup(3, 4)).unwrap().into_owned(), setup(2, 4));
        let records = LimitsMeasure::decode(Some(&json!({ "operations": "records" }))).unwrap();
        assert_eq!(records.translate(&setup(3, 4)).unwrap().into_owned(), setup(3, 6));
        let both = LimitsMeasure::decode(Some(&json!({ "depth": "record", "operations": "records" }))).unwrap();
        assert_eq!(both.translate(&setup(3, 4)).unwrap().into_owned(), setup(4, 6));
        assert_eq!(both.encode(), Some(json!({ "depth": "record", "operations": "records" })));
        // A setup without limits runs under the implementation's own bounds: nothing to translate.
        let bare = json!({ "framing": "sse" });
        assert_eq!(both.translate(&bare).unwrap().into_owned(), bare);
    }

    #[test]
    fn a_bound_the_measure_cannot_say_is_a_reason_not_a_silent_change() {
        let inner = LimitsMeasure::decode(Some(&json!({ "depth": "inner" }))).unwrap();
        let error = inner.translate(&setup(1, 4)).unwrap_err();
        assert!(error.contains("maxDepth 1"), "{error}");
    }

    #[test]
    fn unknown_members_and_readings_are_refused_naming_the_known_ones() {
        for wrong in [json!({ "depht": "record" }), json!({ "depth": "tuple" }), json!({ "operations": 2 }), json!("record")] {
            assert!(LimitsMeasure::decode(Some(&wrong)).is_err(), "{wrong}");
        }
        let error = LimitsMeasure::decode(Some(&json!({ "operations": "all" }))).unwrap_err();
        assert!(error.contains("staged, records"), "{error}");
    }
}
