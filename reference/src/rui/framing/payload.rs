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
