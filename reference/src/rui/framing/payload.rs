//! One frame's bytes to one JSON value (RUI-FRAME-01 "Every frame contains one complete JSON
//! record"; PRJ-RUI-FRAME-01): exactly one JSON text (RFC 8259, surrounding whitespace allowed),
//! strict UTF-8, nothing after it; otherwise the frame is quarantined `FRAME_NOT_JSON`
//! (CL-D05-1). The same rule holds in every framing: truncation is the decoders' business.
//!
//! Limits of the parser (serde_json), all `FRAME_NOT_JSON`: nesting deeper than 128, numbers
//! outside the range of an f64 (`1e400`), lone UTF-16 surrogate escapes (`"\ud800"`).

use serde_json::Value;

use crate::rui::codes::QuarantineCode;

fn is_json_whitespace(byte: &u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

/// Whether a frame's JSON text holds an object with two members of the same name (after
/// unescaping: `"a"` and `"\u0061"` are one name). RFC 8259 §4 says the names within an object
/// SHOULD be unique and leaves the reading of a repeated one to the receiver; `parse_frame` keeps
/// the last. PRJ-RUI-REC-06: a stream validator reports it to the producer (RECOMMENDED). Called
/// only on a frame `parse_frame` accepted, and only when a runtime was asked to note it.
pub fn repeats_a_name(bytes: &[u8]) -> bool {
    use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
    /// Walks one value; `Err` as soon as an object repeats a name (or the text is not JSON).
    struct Walk;
    impl<'de> DeserializeSeed<'de> for Walk {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
            deserializer.deserialize_any(self)
        }
    }
    impl<'de> Visitor<'de> for Walk {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_bool<E>(self, _: bool) -> Result<(), E> {
            Ok(())
        }
        fn visit_i64<E>(self, _: i64) -> Result<(), E> {
            Ok(())
        }
        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            Ok(())
        }
        fn visit_f64<E>(self, _: f64) -> Result<(), E> {
            Ok(())
        }
        fn visit_str<E>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn visit_unit<E>(self) -> Result<(), E> {
            Ok(())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while seq.next_element_seed(Walk)?.is_some() {}
            Ok(())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let mut names = std::collections::BTreeSet::new();
            while let Some(name) = map.next_key::<String>()? {
                if !names.insert(name) {
                    return Err(serde::de::Error::custom("repeated name"));
                }
                map.next_value_seed(Walk)?;
            }
            Ok(())
        }
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    Walk.deserialize(&mut deserializer).is_err()
}

/// The JSON value a frame holds, or why it is quarantined.
pub fn parse_frame(bytes: &[u8]) -> Result<Value, QuarantineCode> {
    serde_json::from_slice::<Value>(bytes).map_err(|_| QuarantineCode::FrameNotJson)
}

/// The bytes a record counts toward `maxTransactionBytes` (CL-D04, PRJ-RUI-LIMIT-10): its JSON
/// text without the surrounding whitespace, so the count is the same in every framing (no LF, RS,
/// CR or `data:` prefix is counted; the LF joins of a multi-line SSE event inside the text are).
pub fn record_text_len(bytes: &[u8]) -> usize {
    let start = bytes.iter().position(|b| !is_json_whitespace(b));
    let end = bytes.iter().rposition(|b| !is_json_whitespace(b));
    match (start, end) {
        (Some(start), Some(end)) => end + 1 - start,
        _ => 0,
    }
}

/// The bytes a record counts under `rui-bytes-count-whitespace` (PRJ-RUI-LIMIT-16): the frame's
/// payload as it came, JSON whitespace around the value included (a CR before a JSONL LF), but not
/// the LF that ends a json-seq element (the terminator RFC 7464 writes after every text).
pub fn payload_len(bytes: &[u8], framing: super::Framing) -> usize {
    let terminated = framing == super::Framing::JsonSeq && bytes.last() == Some(&b'\n');
    bytes.len() - usize::from(terminated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_name_is_found_at_any_depth_and_after_unescaping() {
        for text in [
            r#"{"a":1,"a":2}"#,
            r#"["node",1,"n","Text",{"text":"x","text":"y"},[]]"#,
            r#"[{"b":[{"c":0,"c":0}]}]"#,
            r#"{"a":1,"\u0061":2}"#,
        ] {
            assert!(repeats_a_name(text.as_bytes()), "{text}");
        }
        for text in [
            r#"{"a":1,"b":{"a":2}}"#,
            r#"[{"a":1},{"a":1}]"#,
            "[]",
            "3",
            r#"{"A":1,"a":2}"#,
        ] {
            assert!(!repeats_a_name(text.as_bytes()), "{text}");
        }
    }
}
