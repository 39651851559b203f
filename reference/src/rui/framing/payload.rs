//! One frame's bytes to one JSON value (RUI-FRAME-01 "Every frame contains one complete JSON
//! record"): exactly one JSON text (RFC 8259, surrounding whitespace allowed), UTF-8, nothing
//! after it; otherwise the frame is quarantined (CL-D05-1). RFC 7464 texts also distinguish a
//! truncated text (`FRAME_TRUNCATED`, see `json_seq.rs`) from any other invalid one.
//!
//! Limits of the parser (serde_json), all `FRAME_NOT_JSON`: nesting deeper than 128, numbers
//! outside the range of an f64 (`1e400`), lone UTF-16 surrogate escapes (`"\ud800"`).

use serde_json::Value;

use super::{json_seq, Framing};
use crate::rui::codes::QuarantineCode;

fn is_json_whitespace(byte: &u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

/// The JSON value a frame holds, or why it is quarantined.
pub fn parse_frame(framing: Framing, bytes: &[u8]) -> Result<Value, QuarantineCode> {
    if bytes.iter().all(is_json_whitespace) {
        return Err(QuarantineCode::FrameNotJson);
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(value) if framing == Framing::JsonSeq && json_seq::truncated_scalar(&value, bytes) => {
            Err(QuarantineCode::FrameTruncated)
        }
        Ok(value) => Ok(value),
        Err(error) if framing == Framing::JsonSeq && json_seq::truncated_on_error(&error) => {
            Err(QuarantineCode::FrameTruncated)
        }
        Err(_) => Err(QuarantineCode::FrameNotJson),
    }
}

/// The bytes a record counts toward `maxTransactionBytes` (CL-D04): its JSON text without the
/// surrounding whitespace, so the count is the same in every framing (no LF, RS, CR or `data:`
/// prefix is counted; SSE line joins inside the text are).
pub fn record_text_len(bytes: &[u8]) -> usize {
    let start = bytes.iter().position(|b| !is_json_whitespace(b));
    let end = bytes.iter().rposition(|b| !is_json_whitespace(b));
    match (start, end) {
        (Some(start), Some(end)) => end + 1 - start,
        _ => 0,
    }
}
