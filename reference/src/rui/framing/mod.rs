//! Framing of Rixx UI records (spec "Framing"; CL-D07-1..5, RUI-FRAME-01..06): streaming decoders
//! that turn transport bytes into frames, one record per frame. JSONL (`jsonl.rs`), SSE data events
//! (`sse.rs`), whole WebSocket messages (`websocket.rs`) and RFC 7464 JSON text sequences
//! (`json_seq.rs`); `payload.rs` turns one frame's bytes into one JSON value or a quarantine code.
//!
//! Every stream decoder is chunk-independent: feeding the same bytes cut anywhere (inside a UTF-8
//! character, between RS and its text, between two `data:` lines) yields the same frames, because
//! decoders only ever split on ASCII delimiter bytes and keep everything else buffered until its
//! frame is complete. A partial frame is never surfaced (CL-D07-5, RUI-FRAME-02): bytes left over
//! when the stream ends become a `FRAME_TRUNCATED` quarantine, never a record, except where a row
//! of the choices table reads them as a whole frame (a JSONL last line or a json-seq element that
//! parses, PRJ-RUI-FRAME-05/13) or as no frame (an undispatched SSE event, PRJ-RUI-FRAME-07).

mod json_seq;
mod jsonl;
mod payload;
mod sse;
mod websocket;

pub use payload::{parse_frame, payload_len, record_text_len, repeats_a_name};

use super::codes::QuarantineCode;
use crate::choices::Choices;
use json_seq::JsonSeqDecoder;
use jsonl::JsonlDecoder;
use sse::SseDecoder;

/// The four framings of CL-D07, named as in the vector format's `framing` field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Framing {
    Jsonl,
    Sse,
    WebSocket,
    JsonSeq,
}

impl Framing {
    pub const ALL: [Framing; 4] = [
        Framing::Jsonl,
        Framing::Sse,
        Framing::WebSocket,
        Framing::JsonSeq,
    ];

    /// The profile / setup name (`jsonl`, `sse`, `websocket`, `json-seq`).
    pub fn name(self) -> &'static str {
        match self {
            Framing::Jsonl => "jsonl",
            Framing::Sse => "sse",
            Framing::WebSocket => "websocket",
            Framing::JsonSeq => "json-seq",
        }
    }

    pub fn from_name(name: &str) -> Option<Framing> {
        Framing::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether the transport delivers a byte stream (`false`: whole messages).
    pub fn is_stream(self) -> bool {
        self != Framing::WebSocket
    }
}

/// One frame as the decoder delimits it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodedFrame {
    /// The bytes of one complete frame (still to be parsed as JSON by [`parse_frame`]).
    Complete(Vec<u8>),
    /// A frame the decoder already knows to be invalid (e.g. cut short by the end of the stream).
    Quarantined(QuarantineCode),
}

/// One frame as the decoder delimits it, borrowed from the input or from the decoder's own buffer
/// for the time of the call that delivers it: the runtime reads frames without an allocation per
/// frame (issue 29 §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frame<'a> {
    /// The bytes of one complete frame (still to be parsed as JSON).
    Complete(&'a [u8]),
    /// A frame the decoder already knows to be invalid (e.g. cut short by the end of the stream).
    Quarantined(QuarantineCode),
}

impl Frame<'_> {
    /// The frame, owned.
    pub fn to_decoded(self) -> DecodedFrame {
        match self {
            Frame::Complete(bytes) => DecodedFrame::Complete(bytes.to_vec()),
            Frame::Quarantined(code) => DecodedFrame::Quarantined(code),
        }
    }
}

/// Input that does not fit the framing: bytes for a message framing or a message for a stream
/// framing. The caller's mistake, not the peer's: nothing is decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WrongInputKind {
    pub framing: Framing,
}

impl std::fmt::Display for WrongInputKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.framing.is_stream() {
            write!(
                f,
                "the {} framing takes a byte stream, not whole messages",
                self.framing.name()
            )
        } else {
            write!(
                f,
                "the {} framing takes whole messages, not a byte stream",
                self.framing.name()
            )
        }
    }
}

impl std::error::Error for WrongInputKind {}

/// A streaming decoder for one framing. After [`Decoder::finish`] it is ready for a new stream.
#[derive(Debug, Clone)]
pub struct Decoder {
    framing: Framing,
    kind: Kind,
}

#[derive(Debug, Clone)]
enum Kind {
    Jsonl(JsonlDecoder),
    Sse(SseDecoder),
    JsonSeq(JsonSeqDecoder),
    WebSocket,
}

impl Decoder {
    /// A decoder taking the default reading at every framing row of the choices table.
    pub fn new(framing: Framing) -> Decoder {
        Decoder::choosing(framing, &Choices::default())
    }

    /// A decoder taking `choices` at the framing rows (blank JSONL lines, a last line or element
    /// without its terminator, an SSE event left undispatched).
    pub fn choosing(framing: Framing, choices: &Choices) -> Decoder {
        let kind = match framing {
            Framing::Jsonl => Kind::Jsonl(JsonlDecoder::choosing(choices)),
            Framing::Sse => Kind::Sse(SseDecoder::choosing(choices)),
            Framing::JsonSeq => Kind::JsonSeq(JsonSeqDecoder::choosing(choices)),
            Framing::WebSocket => Kind::WebSocket,
        };
        Decoder { framing, kind }
    }

    pub fn framing(&self) -> Framing {
        self.framing
    }

    /// Delivers the next chunk of a byte stream; every frame it completes is appended to `out`.
    pub fn push(
        &mut self,
        chunk: &[u8],
        out: &mut Vec<DecodedFrame>,
    ) -> Result<(), WrongInputKind> {
        self.push_frames(chunk, &mut |frame| out.push(frame.to_decoded()))
    }

    /// Delivers the next chunk of a byte stream; every frame it completes is handed to `on`.
    pub fn push_frames(
        &mut self,
        chunk: &[u8],
        on: &mut dyn FnMut(Frame<'_>),
    ) -> Result<(), WrongInputKind> {
        match &mut self.kind {
            Kind::Jsonl(d) => d.push(chunk, on),
            Kind::Sse(d) => d.push(chunk, on),
            Kind::JsonSeq(d) => d.push(chunk, on),
            Kind::WebSocket => {
                return Err(WrongInputKind {
                    framing: self.framing,
                })
            }
        }
        Ok(())
    }

    /// Delivers one whole message (WebSocket framing): exactly one frame.
    pub fn message(
        &mut self,
        message: &[u8],
        out: &mut Vec<DecodedFrame>,
    ) -> Result<(), WrongInputKind> {
        self.message_frames(message, &mut |frame| out.push(frame.to_decoded()))
    }

    /// Delivers one whole message (WebSocket framing): exactly one frame, handed to `on`.
    pub fn message_frames(
        &mut self,
        message: &[u8],
        on: &mut dyn FnMut(Frame<'_>),
    ) -> Result<(), WrongInputKind> {
        match self.kind {
            Kind::WebSocket => {
                websocket::message(message, on);
                Ok(())
            }
            _ => Err(WrongInputKind {
                framing: self.framing,
            }),
        }
    }

    /// Takes `other`'s stream state (the bytes it holds for a frame not yet ended, where a stream
    /// stands), keeping this decoder's own readings of the choices table: what a second runtime
    /// under other readings resumes from (`Runtime::resume_from`). Decoders of another framing
    /// are left as they are.
    pub fn resume_from(&mut self, other: &Decoder) {
        match (&mut self.kind, &other.kind) {
            (Kind::Jsonl(d), Kind::Jsonl(o)) => d.resume_from(o),
            (Kind::Sse(d), Kind::Sse(o)) => d.resume_from(o),
            (Kind::JsonSeq(d), Kind::JsonSeq(o)) => d.resume_from(o),
            _ => {}
        }
    }

    /// Whether this decoder stands where `other` does in the same framing (same bytes held),
    /// whatever their readings.
    pub fn same_state(&self, other: &Decoder) -> bool {
        match (&self.kind, &other.kind) {
            (Kind::Jsonl(d), Kind::Jsonl(o)) => d.same_state(o),
            (Kind::Sse(d), Kind::Sse(o)) => d.same_state(o),
            (Kind::JsonSeq(d), Kind::JsonSeq(o)) => d.same_state(o),
            (Kind::WebSocket, Kind::WebSocket) => true,
            _ => false,
        }
    }

    /// The stream ends: whatever is left is surfaced as a quarantine (an RFC 7464 text ending in LF
    /// is complete and surfaced as a frame), and the decoder resets for a new stream.
    pub fn finish(&mut self, out: &mut Vec<DecodedFrame>) {
        self.finish_frames(&mut |frame| out.push(frame.to_decoded()))
    }

    /// [`Decoder::finish`], handing what is left to `on`.
    pub fn finish_frames(&mut self, on: &mut dyn FnMut(Frame<'_>)) {
        match &mut self.kind {
            Kind::Jsonl(d) => d.finish(on),
            Kind::Sse(d) => d.finish(on),
            Kind::JsonSeq(d) => d.finish(on),
            Kind::WebSocket => {}
        }
    }
}
