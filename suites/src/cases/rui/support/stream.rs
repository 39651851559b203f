//! The four framings of CLARIFICATIONS D07 (JSONL lines, SSE `data` events, WebSocket messages,
//! RFC 7464 text sequences) as exact bytes, and `Script`, which turns records and deliberately
//! broken payloads into `feed` steps while counting frames from 0 over the whole stream (the
//! numbering the `quarantine` and `rejections` observations use, PRJ-RUI-FRAME-11).

use serde_json::{json, Value};

/// How a case's stream is framed (`setup.framing`, and the profile of that name), or `Any`: a
/// framing-neutral case (issue 15) whose frames are written as records and payloads, which the
/// harness frames in every framing the implementation declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    Jsonl,
    Sse,
    WebSocket,
    JsonSeq,
    Any,
}

pub const RS: u8 = 0x1e;

impl Framing {
    pub const ALL: [Framing; 4] = [
        Framing::Jsonl,
        Framing::Sse,
        Framing::WebSocket,
        Framing::JsonSeq,
    ];

    /// The `setup.framing` value, which is also the profile name (`None` for `Any`).
    pub fn profile(self) -> Option<&'static str> {
        match self {
            Framing::Jsonl => Some("jsonl"),
            Framing::Sse => Some("sse"),
            Framing::WebSocket => Some("websocket"),
            Framing::JsonSeq => Some("json-seq"),
            Framing::Any => None,
        }
    }

    /// The profile name of a concrete framing.
    pub fn name(self) -> &'static str {
        self.profile().unwrap_or("any")
    }

    /// The framing requirement ids: the spec bullet and its clarification (none for `Any`).
    pub fn requirements(self) -> Vec<&'static str> {
        match self {
            Framing::Jsonl => vec!["RUI-FRAME-06", "CL-D07-1"],
            Framing::Sse => vec!["RUI-FRAME-03", "CL-D07-2"],
            Framing::WebSocket => vec!["RUI-FRAME-04", "CL-D07-3"],
            Framing::JsonSeq => vec!["RUI-FRAME-05", "CL-D07-4"],
            Framing::Any => Vec::new(),
        }
    }

    /// One frame carrying `payload`, as the bytes this framing puts on the wire. For SSE every
    /// line of the payload becomes one `data:` line, so a payload holding LF is carried by a
    /// multi-line event whose joined data is the payload again (CL-D07-2).
    pub fn frame(self, payload: &[u8]) -> Vec<u8> {
        match self {
            Framing::Jsonl => [payload, b"\n"].concat(),
            Framing::Sse => {
                let mut out = Vec::new();
                for line in payload.split(|b| *b == b'\n') {
                    out.extend_from_slice(b"data: ");
                    out.extend_from_slice(line);
                    out.push(b'\n');
                }
                out.push(b'\n');
                out
            }
            Framing::JsonSeq => [&[RS][..], payload, b"\n"].concat(),
            Framing::WebSocket | Framing::Any => payload.to_vec(),
        }
    }
}

/// The compact JSON text of a record: the exact payload bytes the vectors carry.
pub fn text(record: &Value) -> String {
    serde_json::to_string(record).unwrap_or_default()
}

/// `feed` data: `text` when the bytes are UTF-8, else `hex`.
pub fn bytes_data(bytes: &[u8]) -> Value {
    match std::str::from_utf8(bytes) {
        Ok(text) => json!({ "text": text }),
        Err(_) => json!({ "hex": bytes.iter().map(|b| format!("{b:02x}")).collect::<String>() }),
    }
}

/// Absolute cut offsets to the chunk sizes of a `feed` step (the rest is one last chunk).
pub fn chunk_sizes(cuts: &[usize]) -> Vec<usize> {
    let mut sizes = Vec::new();
    let mut previous = 0;
    for &cut in cuts {
        assert!(
            cut > previous,
            "cuts must increase and be positive: {cuts:?}"
        );
        sizes.push(cut - previous);
        previous = cut;
    }
    sizes
}

/// The steps of one case's stream, built in order.
#[derive(Debug)]
pub struct Script {
    framing: Framing,
    /// `Framing::Any`: the frames written but not yet fed, as `{record}` / `{payload}` items.
    frames: Vec<Value>,
    pending: Vec<u8>,
    next_frame: usize,
    steps: Vec<Value>,
}

impl Script {
    pub fn new(framing: Framing) -> Script {
        Script {
            framing,
            frames: Vec::new(),
            pending: Vec::new(),
            next_frame: 0,
            steps: Vec::new(),
        }
    }

    pub fn framing(&self) -> Framing {
        self.framing
    }

    /// The index the next frame gets.
    pub fn next_frame(&self) -> usize {
        self.next_frame
    }

    /// One frame carrying the record; returns its frame index.
    pub fn record(&mut self, record: &Value) -> usize {
        // A neutral script writes the record's exact text as a payload too: byte counts (limits)
        // then do not depend on how a runner serialises JSON.
        self.payload(text(record).as_bytes())
    }

    /// Byte-level writing is framing-specific: a neutral script cannot do it (a builder bug).
    fn framed_only(&self, what: &str) {
        assert!(
            self.framing != Framing::Any,
            "builder bug: {what} needs a concrete framing; build this case with Script::new(Framing::Jsonl) (or another)"
        );
    }

    /// One frame per record; returns their frame indexes.
    pub fn records(&mut self, records: &[Value]) -> Vec<usize> {
        records.iter().map(|r| self.record(r)).collect()
    }

    /// One frame carrying arbitrary payload bytes (invalid JSON, invalid UTF-8, ...).
    pub fn payload(&mut self, payload: &[u8]) -> usize {
        let index = self.next_frame;
        self.next_frame += 1;
        if self.framing == Framing::Any {
            self.frames.push(json!({ "payload": bytes_data(payload) }));
            return index;
        }
        if self.framing == Framing::WebSocket {
            self.flush();
            self.steps
                .push(json!({ "feed": "message", "data": bytes_data(payload) }));
        } else {
            self.pending.extend_from_slice(&self.framing.frame(payload));
        }
        index
    }

    /// Bytes written as they are that yield exactly one frame; returns its index.
    pub fn raw_frame(&mut self, bytes: &[u8]) -> usize {
        self.framed_only("raw_frame");
        let index = self.next_frame;
        self.next_frame += 1;
        self.raw(bytes);
        index
    }

    /// Bytes written as they are that yield no frame (blank lines, comments, an SSE event
    /// without data, consecutive RS).
    pub fn raw(&mut self, bytes: &[u8]) {
        self.framed_only("raw");
        if self.framing == Framing::WebSocket {
            self.steps
                .push(json!({ "feed": "message", "data": bytes_data(bytes) }));
        } else {
            self.pending.extend_from_slice(bytes);
        }
    }

    /// Offset of the first occurrence of `needle` at or after `from` in the bytes not fed yet.
    pub fn position_from(&self, needle: &[u8], from: usize) -> Option<usize> {
        self.framed_only("position_from");
        self.pending
            .get(from..)?
            .windows(needle.len())
            .position(|w| w == needle)
            .map(|p| p + from)
    }

    /// As `position_from`, for needles the builder put there itself.
    pub fn find_from(&self, needle: &[u8], from: usize) -> usize {
        self.position_from(needle, from).unwrap_or_else(|| {
            panic!(
                "builder bug: {:?} not in the pending bytes",
                String::from_utf8_lossy(needle)
            )
        })
    }

    pub fn find(&self, needle: &[u8]) -> usize {
        self.find_from(needle, 0)
    }

    /// Every offset at which `byte` occurs in the bytes not fed yet.
    pub fn offsets_of(&self, byte: u8) -> Vec<usize> {
        self.framed_only("offsets_of");
        self.pending
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == byte)
            .map(|(i, _)| i)
            .collect()
    }

    pub fn pending_len(&self) -> usize {
        self.framed_only("pending_len");
        self.pending.len()
    }

    /// Feeds the bytes written so far as one chunk (a neutral script: the frames written so far as
    /// one `feed: records` step, which the harness frames).
    pub fn flush(&mut self) {
        if !self.frames.is_empty() {
            let frames = std::mem::take(&mut self.frames);
            self.steps
                .push(json!({ "feed": "records", "frames": frames }));
        }
        if !self.pending.is_empty() {
            let data = bytes_data(&self.pending);
            self.steps.push(json!({ "feed": "bytes", "data": data }));
            self.pending.clear();
        }
    }

    /// Feeds the bytes written so far cut at these absolute offsets (each inside the bytes).
    pub fn feed_cut(&mut self, cuts: &[usize]) {
        self.framed_only("feed_cut");
        assert!(
            cuts.iter().all(|c| *c > 0 && *c < self.pending.len()),
            "cuts must fall inside the bytes"
        );
        let data = bytes_data(&self.pending);
        self.steps
            .push(json!({ "feed": "bytes", "data": data, "chunks": chunk_sizes(cuts) }));
        self.pending.clear();
    }

    /// Feeds the first `len` bytes written so far as one step, keeping the rest for later steps.
    pub fn feed_prefix(&mut self, len: usize) {
        self.framed_only("feed_prefix");
        assert!(
            len > 0 && len < self.pending.len(),
            "a prefix must leave bytes for a later step"
        );
        let rest = self.pending.split_off(len);
        self.flush();
        self.pending = rest;
    }

    /// Feeds the bytes written so far one byte per chunk.
    pub fn feed_bytewise(&mut self) {
        let cuts: Vec<usize> = (1..self.pending.len()).collect();
        self.feed_cut(&cuts);
    }

    /// The stream ends.
    pub fn end(&mut self) {
        self.flush();
        self.steps.push(json!({ "feed": "end" }));
    }

    /// Any other step (expectation, dispatch, gate), after feeding what was written.
    pub fn push(&mut self, step: Value) {
        self.flush();
        self.steps.push(step);
    }

    /// A step placed before the bytes written but not yet fed (they stay pending): an
    /// observation between two feeds of one frame.
    pub fn interject(&mut self, step: Value) {
        self.framed_only("interject");
        self.steps.push(step);
    }

    pub fn extend(&mut self, steps: impl IntoIterator<Item = Value>) {
        self.flush();
        self.steps.extend(steps);
    }

    pub fn steps(mut self) -> Vec<Value> {
        self.flush();
        self.steps
    }
}
