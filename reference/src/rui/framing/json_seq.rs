//! RFC 7464 JSON text sequences (CL-D07-4 "RS-prefixed; a text truncated by the end of the stream
//! or by the next RS is invalid", RUI-FRAME-05). The decoder splits on RS (0x1E): each run of bytes
//! after an RS, up to the next RS or the end of the stream, is one text. As RFC 7464 section 2.1
//! says, consecutive RS bytes delimit no text (nothing is surfaced for them, nor for an RS that
//! ends the stream).
//!
//! Truncation is judged when the text is parsed ([`truncation`]): a text whose JSON ends early
//! (the parser hits the end of the text) was cut by the next RS or by the end of the stream, and
//! so is a top-level number, `true`, `false` or `null` not followed by whitespace (RFC 7464
//! section 2.4); both are `FRAME_TRUNCATED`. A complete text needs no trailing LF to be accepted
//! (the RFC requires the LF of generators, and parsers are told to parse what lies between RSs).
//! Decisions where the texts are silent: bytes before the first RS of a stream are one frame,
//! quarantined `FRAME_NOT_JSON` (they are not an RS-prefixed text); a text of whitespace only is
//! `FRAME_NOT_JSON`.

use serde_json::Value;

use super::DecodedFrame;
use crate::rui::codes::QuarantineCode;

const RS: u8 = 0x1E;

#[derive(Debug, Clone, Default)]
pub(super) struct JsonSeqDecoder {
    /// An RS has been seen in this stream: bytes now belong to texts.
    started: bool,
    /// The current text (after `started`) or the bytes before the first RS.
    text: Vec<u8>,
}

impl JsonSeqDecoder {
    pub(super) fn push(&mut self, mut chunk: &[u8], out: &mut Vec<DecodedFrame>) {
        while let Some(at) = chunk.iter().position(|&b| b == RS) {
            let (head, rest) = chunk.split_at(at);
            self.text.extend_from_slice(head);
            self.end_text(out);
            self.started = true;
            chunk = rest.get(1..).unwrap_or_default();
        }
        self.text.extend_from_slice(chunk);
    }

    pub(super) fn finish(&mut self, out: &mut Vec<DecodedFrame>) {
        self.end_text(out);
        self.started = false;
    }

    fn end_text(&mut self, out: &mut Vec<DecodedFrame>) {
        if self.text.is_empty() {
            return;
        }
        let text = std::mem::take(&mut self.text);
        if self.started {
            out.push(DecodedFrame::Complete(text));
        } else {
            out.push(DecodedFrame::Quarantined(QuarantineCode::FrameNotJson));
        }
    }
}

/// Whether a text that failed to parse was cut short (`FRAME_TRUNCATED`), judged from the parse
/// error: the parser ran out of input before the value was complete.
pub(super) fn truncated_on_error(error: &serde_json::Error) -> bool {
    error.classify() == serde_json::error::Category::Eof
}

/// RFC 7464 section 2.4: a top-level number, `true`, `false` or `null` must be followed by
/// whitespace, or it may have been truncated (`12` of `123`).
pub(super) fn truncated_scalar(value: &Value, text: &[u8]) -> bool {
    let self_delimiting = matches!(value, Value::String(_) | Value::Array(_) | Value::Object(_));
    let ends_in_whitespace = matches!(text.last(), Some(b' ' | b'\t' | b'\n' | b'\r'));
    !self_delimiting && !ends_in_whitespace
}
