//! JSON as the CLI reads it (issue 28): the vector files, the register and the schema files of a
//! vector set, `validate`'s catalog and limits, the reports `report` reads and each line of a
//! trace are parsed in one pass that refuses an object with the same key twice.
//! `serde_json` keeps the last value of a repeated key without a word, so a case written
//! `{"strictness": "REQUIRED", ..., "strictness": "RECOMMENDED"}` would load as whichever came
//! last; RFC 8259 leaves such a document's meaning to the reader, and a vector set is not a place
//! for a guess. The error names the key, the JSON Pointer of its object and the line and column.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// `bytes` as JSON, or the first error: serde_json's own (with its line and column), or a
/// repeated key `duplicate key "K" in the object at /P` (with the line and column after it).
pub fn parse_unique(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = Unique { parent: None }.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// What is wrong with a document `parse_unique` refused, for a message after its path:
/// `not JSON: ...` for a syntax error, the repeated key otherwise.
pub fn problem(error: &serde_json::Error) -> String {
    match error.classify() {
        serde_json::error::Category::Data => error.to_string(),
        _ => format!("not JSON: {error}"),
    }
}

/// Builds one value, knowing where it sits (for the message of a repeated key): the chain of
/// member names and indices from the top, written as a pointer only when a key repeats.
struct Unique<'a> {
    parent: Option<(&'a Unique<'a>, Token<'a>)>,
}

#[derive(Clone, Copy)]
enum Token<'a> {
    Member(&'a str),
    Item(usize),
}

impl Unique<'_> {
    fn pointer(&self) -> String {
        match self.parent {
            None => String::new(),
            Some((parent, Token::Member(key))) => format!("{}/{}", parent.pointer(), pointer_token(key)),
            Some((parent, Token::Item(index))) => format!("{}/{index}", parent.pointer()),
        }
    }
}

/// A member name as a JSON Pointer reference token (RFC 6901): `~` and `/` escaped. The one
/// function for it: the loader's and the matcher's pointers are built with it.
pub fn pointer_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

impl<'de> DeserializeSeed<'de> for Unique<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Unique<'_> {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(value).map(Value::Number).unwrap_or(Value::Null))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_string()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Unique { parent: Some((&self, Token::Item(items.len()))) })? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut members = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if members.contains_key(&key) {
                let at = if self.parent.is_none() { "the top-level object".to_string() } else { format!("the object at {}", self.pointer()) };
                return Err(de::Error::custom(format!("duplicate key {} in {at}", crate::quote::bounded(&format_args!("{key:?}")))));
            }
            let value = map.next_value_seed(Unique { parent: Some((&self, Token::Member(&key))) })?;
            members.insert(key, value);
        }
        Ok(Value::Object(members))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_key_is_an_error_naming_it_and_its_object() {
        let error = parse_unique(br#"{"cases": [{"id": "a", "s/t": {"k": 1, "k": 2}}]}"#).unwrap_err();
        assert!(error.to_string().starts_with(r#"duplicate key "k" in the object at /cases/0/s~1t at line 1"#), "{error}");
        let error = parse_unique(b"{\"a\": 1,\n \"a\": 1}").unwrap_err();
        assert!(error.to_string().starts_with(r#"duplicate key "a" in the top-level object at line 2"#), "{error}");
    }

    #[test]
    fn a_document_parses_as_serde_json_parses_it() {
        let text = r#"{"z": [1, -2, 3.5, 1e300, 18446744073709551615, "é\u0041", null, true, {}], "a": {"b": {"a": 0}}}"#;
        let ours = parse_unique(text.as_bytes()).unwrap();
        let theirs: Value = serde_json::from_str(text).unwrap();
        assert_eq!(ours, theirs);
        assert_eq!(serde_json::to_string(&ours).unwrap(), serde_json::to_string(&theirs).unwrap(), "member order kept");
        assert!(parse_unique(b"{} x").is_err(), "trailing characters");
        assert!(parse_unique(b"{\"a\": }").is_err());
    }
}
