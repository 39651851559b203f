//! JSONL framing (CL-D07-1 "one record per line", RUI-FRAME-06): a frame is the bytes before each
//! LF. Decisions where the texts are silent: only LF ends a line; a CR before it stays in the frame,
//! where JSON treats it as whitespace, so CRLF files decode like LF files; an empty line is a frame
//! (quarantined `FRAME_NOT_JSON`, being no JSON value); bytes after the last LF when the stream ends
//! are an unterminated line, quarantined `FRAME_TRUNCATED` even if they parse.

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
            out.push(DecodedFrame::Complete(std::mem::take(&mut self.line)));
            // `rest` starts with the LF itself.
            chunk = rest.get(1..).unwrap_or_default();
        }
        self.line.extend_from_slice(chunk);
    }

    pub(super) fn finish(&mut self, out: &mut Vec<DecodedFrame>) {
        if !self.line.is_empty() {
            self.line.clear();
            out.push(DecodedFrame::Quarantined(QuarantineCode::FrameTruncated));
        }
    }
}
