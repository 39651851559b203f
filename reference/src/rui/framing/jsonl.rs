//! JSONL framing (CL-D07-1 "one record per line", RUI-FRAME-06): a frame is the bytes before each
//! LF (PRJ-RUI-FRAME-03). Only LF ends a line; a CR before it stays in the frame, where JSON treats
//! it as whitespace, so CRLF files decode like LF files. A line that is empty or holds only JSON
//! whitespace is no frame: ignored and not counted (PRJ-RUI-FRAME-04, as NDJSON allows; the
//! alternate of `rui-jsonl-blank-line-frame` makes it a frame, which is not JSON). Bytes after the
//! last LF when the stream ends are an unterminated line, unless they are only whitespace: one that
//! parses is quarantined `FRAME_TRUNCATED` (PRJ-RUI-FRAME-05; `rui-jsonl-last-line-applied` reads it
//! as a whole line, since JSON Lines needs no final separator), one that does not parse is
//! `FRAME_TRUNCATED` too (PRJ-RUI-FRAME-14; `rui-jsonl-cut-line-not-json` gives `FRAME_NOT_JSON`).

use super::payload::parse_frame;
use super::Frame;
use crate::choices::{Choice, Choices};
use crate::rui::codes::QuarantineCode;

#[derive(Debug, Clone, Default)]
pub(super) struct JsonlDecoder {
    /// The current line, not yet terminated.
    line: Vec<u8>,
    /// `rui-jsonl-blank-line-frame`: a blank line is a frame.
    blank_is_frame: bool,
    /// `rui-jsonl-last-line-applied`: an unterminated last line that parses is a frame.
    last_line_applied: bool,
    /// `rui-jsonl-cut-line-not-json`: an unterminated last line that does not parse is not JSON.
    cut_line_not_json: bool,
}

impl JsonlDecoder {
    pub(super) fn choosing(choices: &Choices) -> JsonlDecoder {
        JsonlDecoder {
            line: Vec::new(),
            blank_is_frame: choices.takes(Choice::RuiJsonlBlankLineFrame),
            last_line_applied: choices.takes(Choice::RuiJsonlLastLineApplied),
            cut_line_not_json: choices.takes(Choice::RuiJsonlCutLineNotJson),
        }
    }

    pub(super) fn resume_from(&mut self, other: &JsonlDecoder) {
        self.line.clone_from(&other.line);
    }

    pub(super) fn same_state(&self, other: &JsonlDecoder) -> bool {
        self.line == other.line
    }

    pub(super) fn push(&mut self, mut chunk: &[u8], on: &mut dyn FnMut(Frame<'_>)) {
        while let Some(end) = memchr::memchr(b'\n', chunk) {
            let (head, rest) = chunk.split_at(end);
            // A line wholly inside this chunk is handed over from it, without a copy.
            let line = if self.line.is_empty() {
                head
            } else {
                self.line.extend_from_slice(head);
                &self.line
            };
            if !is_blank(line) || self.blank_is_frame {
                on(Frame::Complete(line));
            }
            self.line.clear();
            // `rest` starts with the LF itself.
            chunk = rest.get(1..).unwrap_or_default();
        }
        self.line.extend_from_slice(chunk);
    }

    pub(super) fn finish(&mut self, on: &mut dyn FnMut(Frame<'_>)) {
        let line = std::mem::take(&mut self.line);
        if is_blank(&line) {
            return;
        }
        match parse_frame(&line) {
            Ok(_) if self.last_line_applied => on(Frame::Complete(&line)),
            Err(_) if self.cut_line_not_json => {
                on(Frame::Quarantined(QuarantineCode::FrameNotJson))
            }
            _ => on(Frame::Quarantined(QuarantineCode::FrameTruncated)),
        }
    }
}

/// Empty or only JSON whitespace (space, tab, CR; LF never reaches a line).
fn is_blank(line: &[u8]) -> bool {
    line.iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}
