//! RFC 7464 JSON text sequences (CL-D07-4 "RS-prefixed; a text truncated by the end of the stream
//! or by the next RS is invalid", RUI-FRAME-05), as PRJ-RUI-FRAME-08/09 read it. An element is the
//! bytes from an RS (0x1E) to the next RS or the end of the stream. It is complete only if it ends
//! with LF, the terminator RFC 7464 generators write after every text (an LF inside the text is
//! JSON whitespace); an element without its final LF was cut by the next RS or by the end of the
//! stream and is quarantined `FRAME_TRUNCATED`, even if it parses. A complete element is a frame
//! whose bytes must be one JSON text (so `RS LF` alone is `FRAME_NOT_JSON`). The alternate of
//! `rui-json-seq-unterminated-applied` (PRJ-RUI-FRAME-13) reads an element without its LF that
//! parses as an array or object as complete: it cannot have been cut inside that value (a scalar
//! could, RFC 7464 section 2.4, so it stays truncated), and RS alone delimits texts (section 2.1).
//!
//! Consecutive RS bytes delimit no element: nothing is surfaced or counted for them (RFC 7464
//! section 2.1, PRJ-RUI-FRAME-09, RECOMMENDED; the alternate `rui-json-seq-empty-element` makes
//! each an empty element, `FRAME_NOT_JSON`), nor for an RS that ends the stream. Decision where the texts are
//! silent: bytes before the first RS of a stream are one frame, quarantined `FRAME_NOT_JSON` (they
//! are not an RS-prefixed text).

use super::payload::parse_frame;
use super::Frame;
use crate::choices::{Choice, Choices};
use crate::rui::codes::QuarantineCode;

const RS: u8 = 0x1E;
const LF: u8 = 0x0A;

#[derive(Debug, Clone, Default)]
pub(super) struct JsonSeqDecoder {
    /// An RS has been seen in this stream: bytes now belong to elements.
    started: bool,
    /// The current element (after `started`) or the bytes before the first RS.
    element: Vec<u8>,
    /// `rui-json-seq-unterminated-applied`: an element without LF holding a whole container is a frame.
    unterminated_applied: bool,
    /// `rui-json-seq-empty-element`: an RS right after an RS delimits an empty element, which
    /// is not one JSON text (`FRAME_NOT_JSON`).
    empty_elements: bool,
}

impl JsonSeqDecoder {
    pub(super) fn choosing(choices: &Choices) -> JsonSeqDecoder {
        JsonSeqDecoder {
            unterminated_applied: choices.takes(Choice::RuiJsonSeqUnterminatedApplied),
            empty_elements: choices.takes(Choice::RuiJsonSeqEmptyElement),
            ..JsonSeqDecoder::default()
        }
    }

    pub(super) fn resume_from(&mut self, other: &JsonSeqDecoder) {
        self.started = other.started;
        self.element.clone_from(&other.element);
    }

    pub(super) fn same_state(&self, other: &JsonSeqDecoder) -> bool {
        self.started == other.started && self.element == other.element
    }

    pub(super) fn push(&mut self, mut chunk: &[u8], on: &mut dyn FnMut(Frame<'_>)) {
        while let Some(at) = memchr::memchr(RS, chunk) {
            let (head, rest) = chunk.split_at(at);
            // An element wholly inside this chunk is handed over from it, without a copy.
            if self.element.is_empty() {
                if self.empty_elements && self.started && head.is_empty() {
                    on(Frame::Quarantined(QuarantineCode::FrameNotJson));
                }
                self.end_element(head, on);
            } else {
                self.element.extend_from_slice(head);
                let element = std::mem::take(&mut self.element);
                self.end_element(&element, on);
                self.element = element;
                self.element.clear();
            }
            self.started = true;
            chunk = rest.get(1..).unwrap_or_default();
        }
        self.element.extend_from_slice(chunk);
    }

    pub(super) fn finish(&mut self, on: &mut dyn FnMut(Frame<'_>)) {
        let element = std::mem::take(&mut self.element);
        self.end_element(&element, on);
        self.started = false;
    }

    fn end_element(&self, element: &[u8], on: &mut dyn FnMut(Frame<'_>)) {
        if element.is_empty() {
            return;
        }
        if !self.started {
            on(Frame::Quarantined(QuarantineCode::FrameNotJson));
        } else if element.last() == Some(&LF) || self.holds_whole_container(element) {
            on(Frame::Complete(element));
        } else {
            on(Frame::Quarantined(QuarantineCode::FrameTruncated));
        }
    }

    fn holds_whole_container(&self, element: &[u8]) -> bool {
        self.unterminated_applied
            && parse_frame(element).is_ok_and(|value| value.is_array() || value.is_object())
    }
}
