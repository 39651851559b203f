//! Framing-neutral Rixx UI cases (issue 15): a case without `setup.framing` writes its stream as
//! `{"feed": "records", "frames": [...]}` steps (records and payloads, vectors/README.md), and the
//! runner runs it once in every framing the implementation declares, framing each frame as
//! CLARIFICATIONS D07 says: one JSONL line, one SSE `data` event (a payload holding LF becomes a
//! multi-line event whose joined data is the payload again), one RFC 7464 text (RS ... LF; the
//! feed ends with one more RS, so its last text is whole before the next step, whose first text
//! that RS then opens: no two RS in a row, PRJ-RUI-FRAME-09), or one WebSocket
//! message. The frames of one step are delivered as one chunk (one message each for
//! WebSocket); chunking itself is the framing-specific sections' business, which stay framed.
//!
//! The adapter never sees a neutral step: it gets the setup with `framing` set and ordinary `feed:
//! bytes` / `feed: message` requests, so every adapter runs these cases unchanged.

use serde_json::{json, Value};

use crate::loader::Case;

/// The framings of CL-D07, in the order the runner tries them (also their profile names).
pub const FRAMINGS: [&str; 4] = ["jsonl", "sse", "websocket", "json-seq"];

const RS: u8 = 0x1e;

/// Whether `case` is a framing-neutral Rixx UI case (no `setup.framing`).
pub fn is_neutral(case: &Case) -> bool {
    case.protocol == crate::adapter::Protocol::Rui && case.framing.is_none()
}

/// The payload bytes of one frame item: `{"payload": {"text"|"hex"}}` or `{"record": V}` (its
/// compact JSON text, members in file order). `None` for an item of neither shape.
pub fn frame_payload(item: &Value) -> Option<Vec<u8>> {
    if let Some(record) = item.get("record") {
        return serde_json::to_string(record).ok().map(String::into_bytes);
    }
    let payload = item.get("payload")?;
    if let Some(text) = payload.get("text").and_then(Value::as_str) {
        return Some(text.as_bytes().to_vec());
    }
    let hex = payload.get("hex").and_then(Value::as_str)?;
    if hex.len() % 2 != 0 {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

/// One frame carrying `payload`, as the bytes a byte-stream framing puts on the wire.
fn frame_bytes(framing: &str, payload: &[u8]) -> Vec<u8> {
    match framing {
        "sse" => {
            let mut out = Vec::new();
            for line in payload.split(|b| *b == b'\n') {
                out.extend_from_slice(b"data: ");
                out.extend_from_slice(line);
                out.push(b'\n');
            }
            out.push(b'\n');
            out
        }
        "json-seq" => [&[RS][..], payload, b"\n"].concat(),
        _ => [payload, b"\n"].concat(),
    }
}

/// Stream bytes as a `feed` data object: `text` when UTF-8, else `hex`.
fn data(bytes: &[u8]) -> Value {
    match std::str::from_utf8(bytes) {
        Ok(text) => json!({ "text": text }),
        Err(_) => json!({ "hex": bytes.iter().map(|b| format!("{b:02x}")).collect::<String>() }),
    }
}

/// The adapter requests for one step of a neutral case run in `framing`: a `feed: records` step
/// becomes one `feed: bytes` (or one `feed: message` per frame for WebSocket); any other step is
/// sent as it is. `Err` for a frame item that is neither a record nor a payload (the loader's
/// schema refuses it first).
pub fn requests_for(step: &Value, framing: &str) -> Result<Vec<Value>, String> {
    requests_after(step, framing, false)
}

/// [`requests_for`] within a case: `after_rs` says the stream so far ends with the RS that closed
/// the previous step's last json-seq text, which then also opens this step's first text, so the
/// runner never writes two RS in a row (whether consecutive RS delimit an empty element is
/// RECOMMENDED, PRJ-RUI-FRAME-09, and a neutral case must not depend on it).
pub fn requests_after(step: &Value, framing: &str, after_rs: bool) -> Result<Vec<Value>, String> {
    if step.get("feed").and_then(Value::as_str) != Some("records") {
        return Ok(vec![step.clone()]);
    }
    let frames = step
        .get("frames")
        .and_then(Value::as_array)
        .ok_or("a records feed without frames")?;
    let mut payloads = Vec::with_capacity(frames.len());
    for (index, item) in frames.iter().enumerate() {
        payloads.push(frame_payload(item).ok_or_else(|| format!("frame {index} is neither a record nor a payload"))?);
    }
    if framing == "websocket" {
        return Ok(payloads.iter().map(|p| json!({ "feed": "message", "data": data(p) })).collect());
    }
    let mut bytes: Vec<u8> = payloads.iter().flat_map(|p| frame_bytes(framing, p)).collect();
    if framing == "json-seq" && after_rs && bytes.first() == Some(&RS) {
        bytes.remove(0);
    }
    if framing == "json-seq" && !(after_rs && bytes.is_empty()) {
        // A JSON text is known to be whole only when the next RS (or the end) arrives (CL-D07-4,
        // RFC 7464 §2.1); one more RS ends the last text now, and opens the next step's first
        // text (`after_rs`), so the stream never holds two RS in a row.
        bytes.push(RS);
    }
    Ok(vec![json!({ "feed": "bytes", "data": data(&bytes) })])
}

/// The setup of a neutral case run in `framing`.
pub fn setup_for(setup: &Value, framing: &str) -> Value {
    let mut setup = setup.clone();
    if let Some(object) = setup.as_object_mut() {
        object.insert("framing".into(), json!(framing));
    }
    setup
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_framing_frames_a_payload_as_d07_says() {
        let step = json!({ "feed": "records", "frames": [
            { "payload": { "text": "[\"begin\",0,\"t\",0]" } },
            { "payload": { "text": "a\nb" } },
            { "record": ["abort", 1, "X", "m"] },
        ] });
        let bytes = |framing: &str| requests_for(&step, framing).unwrap()[0]["data"]["text"].clone();
        assert_eq!(bytes("jsonl"), json!("[\"begin\",0,\"t\",0]\na\nb\n[\"abort\",1,\"X\",\"m\"]\n"));
        assert_eq!(
            bytes("sse"),
            json!("data: [\"begin\",0,\"t\",0]\n\ndata: a\ndata: b\n\ndata: [\"abort\",1,\"X\",\"m\"]\n\n")
        );
        assert_eq!(bytes("json-seq"), json!("\u{1e}[\"begin\",0,\"t\",0]\n\u{1e}a\nb\n\u{1e}[\"abort\",1,\"X\",\"m\"]\n\u{1e}"));
        let messages = requests_for(&step, "websocket").unwrap();
        assert_eq!(messages.len(), 3);
        assert_eq!(messages[1], json!({ "feed": "message", "data": { "text": "a\nb" } }));
    }

    #[test]
    fn invalid_utf8_payloads_stay_bytes_and_other_steps_pass_unchanged() {
        let step = json!({ "feed": "records", "frames": [{ "payload": { "hex": "ff00" } }] });
        assert_eq!(requests_for(&step, "jsonl").unwrap()[0]["data"], json!({ "hex": "ff000a" }));
        let end = json!({ "feed": "end" });
        assert_eq!(requests_for(&end, "sse").unwrap(), vec![end]);
        let bad = json!({ "feed": "records", "frames": [{ "payload": { "hex": "f" } }] });
        assert!(requests_for(&bad, "jsonl").is_err());
        assert_eq!(setup_for(&json!({ "catalog": {} }), "sse"), json!({ "catalog": {}, "framing": "sse" }));
    }

    // PRJ-RUI-FRAME-09 is RECOMMENDED: two records steps in a row never put two RS in a row.
    #[test]
    fn consecutive_json_seq_steps_never_write_two_rs_in_a_row() {
        let step = |frames: Value| json!({ "feed": "records", "frames": frames });
        let text = |requests: Vec<Value>| requests[0]["data"]["text"].as_str().unwrap_or_default().to_string();
        let first = text(requests_after(&step(json!([{ "payload": { "text": "[1]" } }])), "json-seq", false).unwrap());
        let second = text(requests_after(&step(json!([{ "payload": { "text": "[2]" } }])), "json-seq", true).unwrap());
        let empty = requests_after(&step(json!([])), "json-seq", true).unwrap();
        assert_eq!(first, "\u{1e}[1]\n\u{1e}");
        assert_eq!(second, "[2]\n\u{1e}");
        assert_eq!(text(empty), "");
        assert!(!format!("{first}{second}").contains("\u{1e}\u{1e}"));
    }
}
