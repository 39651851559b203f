//! JSONL framing (CL-D07-1 "one record per line", RUI-FRAME-06): a frame is the bytes before each
//! LF (PRJ-RUI-FRAME-03). Only LF ends a line; a CR before it stays in the frame, where JSON treats
//! it as whitespace, so CRLF files decode like LF files. A line that is empty or holds only JSON
//! whitespace is no frame: ignored and not counted (PRJ-RUI-FRAME-04, as NDJSON allows). Bytes
//! after the last LF when the stream ends are an unterminated line, quarantined `FRAME_TRUNCATED`
//! even if they parse (PRJ-RUI-FRAME-05), unless they are only whitespace.

use super::DecodedFrame;
use crate::rui::codes::QuarantineCode;

#[derive(Debug, Clone, Default)]
pub(super) struct JsonlDecoder {
    /// The current line, not yet terminated.
    line: Vec<u8>,
}

impl JsonlDecoder {
    pub(super) fn push(&mut self, mut chunk: &[u8], out: &mut Vec<DecodedFrame>) {
        while let Some(end) = chunk.iter().position(|&b| b == b'\n') {
            let (head, rest) = chunk.split_at(end);
            self.line.extend_from_slice(head);
            if is_blank(&self.line) {
                self.line.clear();
            } else {
                out.push(DecodedFrame::Complete(std::mem::take(&mut self.line)));
            }
            // `rest` starts with the LF itself.
            chunk = rest.get(1..).unwrap_or_default();
        }
        self.line.extend_from_slice(chunk);
    }

    pub(super) fn finish(&mut self, out: &mut Vec<DecodedFrame>) {
        if !is_blank(&self.line) {
            out.push(DecodedFrame::Quarantined(QuarantineCode::FrameTruncated));
        }
        self.line.clear();
    }
}

/// Empty or only JSON whitespace (space, tab, CR; LF never reaches a line).
fn is_blank(line: &[u8]) -> bool {
    line.iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}
