//! SSE framing (CL-D07-2 "one record per `data` event; multi-line data joined with `\n`",
//! RUI-FRAME-03), following the event-stream interpretation of the WHATWG HTML standard on bytes:
//!
//! - A line ends at CRLF, at a lone LF or at a lone CR (a CR at the end of one chunk and an LF at
//!   the start of the next are one line end). One UTF-8 BOM at the very start of the stream is
//!   dropped.
//! - A line starting with `:` is a comment; a line `name:value` (one space after the colon
//!   dropped) or `name` (empty value) is a field. Only `data` matters: its value is appended to the
//!   event's data followed by LF. Every other field (`event`, `id`, `retry`, unknown) is ignored,
//!   so the Studio envelope's event names (RUI-FRAME-07/08) do not change how records decode.
//! - An empty line ends the event. An event with at least one `data` line is one frame: its data
//!   without the last LF (so `data:` alone gives an empty frame, quarantined `FRAME_NOT_JSON`). An
//!   event without `data` lines is not a frame.
//! - When the stream ends, an event with data not yet ended by an empty line (including a last,
//!   unterminated `data` line) is quarantined `FRAME_TRUNCATED`; it is never dispatched
//!   (PRJ-RUI-FRAME-07; the alternate of `rui-sse-undispatched-dropped` drops it silently, as the
//!   WHATWG interpretation does, so it is no frame at all).
//!
//! Field values are kept as bytes: invalid UTF-8 inside data is caught when the frame is parsed.

use super::Frame;
use crate::choices::{Choice, Choices};
use crate::rui::codes::QuarantineCode;

const BOM: &[u8] = b"\xEF\xBB\xBF";

#[derive(Debug, Clone)]
pub(super) struct SseDecoder {
    /// `Some` while the stream's first bytes may still be a BOM: the bytes held so far.
    start: Option<Vec<u8>>,
    /// The current line, not yet ended.
    line: Vec<u8>,
    /// The previous byte was a CR, so an LF now completes that same line end.
    after_cr: bool,
    /// The current event's data buffer, each `data` value followed by LF.
    data: Vec<u8>,
    /// The current event has had at least one `data` line.
    has_data: bool,
    /// `rui-sse-undispatched-dropped`: an event left undispatched at the end is no frame.
    undispatched_dropped: bool,
}

impl Default for SseDecoder {
    fn default() -> Self {
        SseDecoder {
            start: Some(Vec::new()),
            line: Vec::new(),
            after_cr: false,
            data: Vec::new(),
            has_data: false,
            undispatched_dropped: false,
        }
    }
}

impl SseDecoder {
    pub(super) fn choosing(choices: &Choices) -> SseDecoder {
        SseDecoder {
            undispatched_dropped: choices.takes(Choice::RuiSseUndispatchedDropped),
            ..SseDecoder::default()
        }
    }

    pub(super) fn resume_from(&mut self, other: &SseDecoder) {
        self.start.clone_from(&other.start);
        self.line.clone_from(&other.line);
        self.after_cr = other.after_cr;
        self.data.clone_from(&other.data);
        self.has_data = other.has_data;
    }

    pub(super) fn same_state(&self, other: &SseDecoder) -> bool {
        (
            &self.start,
            &self.line,
            self.after_cr,
            &self.data,
            self.has_data,
        ) == (
            &other.start,
            &other.line,
            other.after_cr,
            &other.data,
            other.has_data,
        )
    }

    pub(super) fn push(&mut self, chunk: &[u8], on: &mut dyn FnMut(Frame<'_>)) {
        match self.start.take() {
            None => self.push_lines(chunk, on),
            Some(mut held) => {
                held.extend_from_slice(chunk);
                if held.len() < BOM.len() && BOM.starts_with(&held) {
                    // Still undecided: keep holding.
                    self.start = Some(held);
                } else {
                    let body = held.strip_prefix(BOM).unwrap_or(&held);
                    self.push_lines(body, on);
                }
            }
        }
    }

    pub(super) fn finish(&mut self, on: &mut dyn FnMut(Frame<'_>)) {
        if let Some(held) = self.start.take() {
            // A stream shorter than a BOM that began like one: those bytes are ordinary input.
            self.push_lines(&held, on);
        }
        if !self.line.is_empty() {
            // The last line had no line end: interpret it, but it cannot end the event.
            let line = std::mem::take(&mut self.line);
            self.field_line(&line);
        }
        if self.has_data && !self.undispatched_dropped {
            on(Frame::Quarantined(QuarantineCode::FrameTruncated));
        }
        *self = SseDecoder {
            undispatched_dropped: self.undispatched_dropped,
            ..SseDecoder::default()
        };
    }

    /// Lines are found a delimiter at a time, and one wholly inside `chunk` is read from it
    /// without a copy (issue 29 §3).
    fn push_lines(&mut self, mut chunk: &[u8], on: &mut dyn FnMut(Frame<'_>)) {
        if self.after_cr && !chunk.is_empty() {
            self.after_cr = false;
            if chunk[0] == b'\n' {
                chunk = &chunk[1..];
            }
        }
        while let Some(at) = memchr::memchr2(b'\n', b'\r', chunk) {
            let (head, rest) = chunk.split_at(at);
            if self.line.is_empty() {
                self.end_line(head, on);
            } else {
                self.line.extend_from_slice(head);
                let line = std::mem::take(&mut self.line);
                self.end_line(&line, on);
                // Reuse the allocation for the next line.
                self.line = line;
                self.line.clear();
            }
            let cr = rest.first() == Some(&b'\r');
            chunk = rest.get(1..).unwrap_or_default();
            if cr {
                // A CR and the LF after it are one line end, even across chunks.
                match chunk.first() {
                    Some(b'\n') => chunk = &chunk[1..],
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
        }
        self.line.extend_from_slice(chunk);
    }

    fn end_line(&mut self, line: &[u8], on: &mut dyn FnMut(Frame<'_>)) {
        if line.is_empty() {
            self.dispatch(on);
        } else {
            self.field_line(line);
        }
    }

    fn field_line(&mut self, line: &[u8]) {
        if line.first() == Some(&b':') {
            return;
        }
        let (name, value) = match line.iter().position(|&b| b == b':') {
            Some(colon) => {
                let (name, rest) = line.split_at(colon);
                let value = rest.get(1..).unwrap_or_default();
                (name, value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        if name == b"data" {
            self.data.extend_from_slice(value);
            self.data.push(b'\n');
            self.has_data = true;
        }
    }

    fn dispatch(&mut self, on: &mut dyn FnMut(Frame<'_>)) {
        if !self.has_data {
            return;
        }
        // The data without its last LF; the buffer is kept for the next event.
        let end = self.data.len().saturating_sub(1);
        on(Frame::Complete(&self.data[..end]));
        self.data.clear();
        self.has_data = false;
    }
}
