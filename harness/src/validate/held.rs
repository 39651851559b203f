//! How many bytes the reference's decoder holds for a frame not yet ended (issue 28): the measure
//! `Validator::bytes` bounds by `MAX_FRAME_BYTES`. It follows the decoders of
//! `reference::rui::framing` (RUI-FRAME-02..05, CL-D07) without holding anything itself:
//!
//! - JSON Lines: the bytes since the last LF (a blank line ends with its LF and holds nothing);
//! - JSON text sequences: the bytes since the last RS (consecutive RS bytes hold nothing);
//! - SSE: the current line, plus the `data` values of the event not yet dispatched (each with its
//!   LF). A comment line (`:` heartbeat), a field other than `data` and an empty line are not
//!   kept once ended, so a stream of heartbeats or blank lines holds nothing however long it is.
//!
//! Counting every byte since the last frame instead (as before) took 64 MiB of blank separators,
//! or a few seconds of a live stream's heartbeats, for one over-long frame.

use reference::rui::Framing;

#[derive(Debug, Clone)]
pub struct Held {
    framing: Framing,
    /// Bytes of the current line (JSONL, SSE) or element (JSON text sequences).
    line: u64,
    /// SSE: the first bytes of the current line, enough to tell `data` and comments apart.
    start: [u8; 6],
    /// SSE: the data of the current event, as the decoder keeps it.
    data: u64,
    /// SSE: the last byte was a CR, so an LF now ends no new line.
    after_cr: bool,
}

impl Held {
    pub fn new(framing: Framing) -> Held {
        Held { framing, line: 0, start: [0; 6], data: 0, after_cr: false }
    }

    /// Follows `chunk`; the most bytes held at any point of it.
    pub fn push(&mut self, chunk: &[u8]) -> u64 {
        match self.framing {
            Framing::Jsonl => self.delimited(chunk, b'\n'),
            Framing::JsonSeq => self.delimited(chunk, 0x1E),
            Framing::Sse => self.sse(chunk),
            // Messages are bounded whole (`live.rs`, `input.rs`): nothing is held between them.
            Framing::WebSocket => 0,
        }
    }

    fn delimited(&mut self, chunk: &[u8], delimiter: u8) -> u64 {
        let mut peak = 0;
        let mut rest = chunk;
        while let Some(at) = memchr::memchr(delimiter, rest) {
            peak = peak.max(self.line + at as u64);
            self.line = 0;
            rest = &rest[at + 1..];
        }
        self.line += rest.len() as u64;
        peak.max(self.line)
    }

    fn sse(&mut self, chunk: &[u8]) -> u64 {
        let mut peak = 0;
        let mut rest = chunk;
        while !rest.is_empty() {
            let after_cr = std::mem::replace(&mut self.after_cr, false);
            if after_cr && rest[0] == b'\n' {
                rest = &rest[1..];
                continue;
            }
            let Some(at) = memchr::memchr2(b'\n', b'\r', rest) else {
                self.extend_line(rest);
                break;
            };
            self.extend_line(&rest[..at]);
            peak = peak.max(self.line + self.data);
            self.end_line();
            self.after_cr = rest[at] == b'\r';
            rest = &rest[at + 1..];
        }
        peak.max(self.line + self.data)
    }

    fn extend_line(&mut self, bytes: &[u8]) {
        let filled = (self.line as usize).min(self.start.len());
        let take = (self.start.len() - filled).min(bytes.len());
        self.start[filled..filled + take].copy_from_slice(&bytes[..take]);
        self.line += bytes.len() as u64;
    }

    /// As `SseDecoder::end_line`: an empty line dispatches the event; a `data` field keeps its
    /// value (after `data:` and one optional space) and an LF; anything else is dropped.
    fn end_line(&mut self) {
        let line = self.line;
        let start = &self.start[..(line as usize).min(self.start.len())];
        if line == 0 {
            self.data = 0;
        } else if start == b"data" {
            self.data += 1;
        } else if start.starts_with(b"data:") {
            let space = u64::from(start.get(5) == Some(&b' '));
            self.data += line - 5 - space + 1;
        }
        self.line = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_and_heartbeats_hold_nothing() {
        let mut jsonl = Held::new(Framing::Jsonl);
        assert_eq!(jsonl.push(&b"\n".repeat(1 << 20)), 0);
        let mut sse = Held::new(Framing::Sse);
        for _ in 0..1000 {
            assert!(sse.push(b":\n\r\n: keep-alive\r\n\n") <= 12);
        }
        assert!(sse.push(b"event: ping\nid: 7\n\n") <= 11);
        let mut seq = Held::new(Framing::JsonSeq);
        assert_eq!(seq.push(&[0x1E; 4096]), 0);
    }

    #[test]
    fn an_open_frame_is_counted_across_chunks() {
        let mut jsonl = Held::new(Framing::Jsonl);
        assert_eq!(jsonl.push(b"{\"a\":"), 5);
        assert_eq!(jsonl.push(b"1}\n{"), 7);
        assert_eq!(jsonl.push(b""), 1);
        let mut sse = Held::new(Framing::Sse);
        // `data: ab` keeps `ab` and an LF; `data` alone keeps an LF; the second event's line counts.
        assert_eq!(sse.push(b"data: ab\r"), 8);
        // The comment line is held until its line end, with the data before it.
        assert_eq!(sse.push(b"\ndata\n: comment\ndata:x"), 3 + 1 + 9);
        assert_eq!(sse.push(b"\n\ndata: next"), 10);
        assert_eq!(sse.push(b""), 10);
        let mut seq = Held::new(Framing::JsonSeq);
        assert_eq!(seq.push(b"\x1E{}\n\n\n"), 5);
    }
}
