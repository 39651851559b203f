// Stream decoders for the four transports of Rixx UI Protocol 0.1 "Framing" (CL-D07): each turns
// the bytes it is given into frames, `{ bytes }` (the frame's JSON text, without framing bytes) or
// `{ invalid: code }` (a frame already known to be broken). "A transport must not expose partially
// recovered JSON as an authoritative operation": a frame is emitted only once its end is known.
//
//   JSONL    one record per line (PRJ-RUI-FRAME-03..05, -14)
//   SSE      one record per data event, WHATWG event stream (PRJ-RUI-FRAME-06, -07)
//   json-seq RFC 7464, RS-prefixed texts (PRJ-RUI-FRAME-02, -08, -09, -13)
//   WebSocket is not decoded here: every whole message is one frame (PRJ-RUI-FRAME-10).

const LF = 0x0a;
const CR = 0x0d;
const RS = 0x1e;
const COLON = 0x3a;
const SPACE = 0x20;
const DATA = [0x64, 0x61, 0x74, 0x61];
const BOM = [0xef, 0xbb, 0xbf];

function concat(parts) {
  return parts.length === 1 ? parts[0] : Uint8Array.from(Buffer.concat(parts));
}

function isJsonWhitespace(byte) {
  return byte === SPACE || byte === 0x09 || byte === LF || byte === CR;
}

function blank(bytes) {
  return bytes.every(isJsonWhitespace);
}

export function createDecoder(framing) {
  if (framing === 'jsonl') return new JsonlDecoder();
  if (framing === 'sse') return new SseDecoder();
  if (framing === 'json-seq') return new JsonSeqDecoder();
  return undefined;
}

class JsonlDecoder {
  constructor() {
    this.pending = [];
  }

  write(chunk, out) {
    let start = 0;
    for (let i = 0; i < chunk.length; i += 1) {
      if (chunk[i] !== LF) continue;
      this.pending.push(chunk.subarray(start, i));
      this.line(concat(this.pending), out);
      this.pending = [];
      start = i + 1;
    }
    if (start < chunk.length) this.pending.push(chunk.slice(start));
  }

  line(bytes, out) {
    // A blank line is no frame (PRJ-RUI-FRAME-04); a CR before the LF is a line end, not JSON text.
    if (blank(bytes)) return;
    const text = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.subarray(0, bytes.length - 1) : bytes;
    out.push({ bytes: text });
  }

  end(out) {
    const rest = concat(this.pending.length === 0 ? [new Uint8Array(0)] : this.pending);
    this.pending = [];
    // Without its LF the runtime cannot tell a whole line from a cut one (PRJ-RUI-FRAME-05).
    if (!blank(rest)) out.push({ invalid: 'FRAME_TRUNCATED' });
  }
}

class SseDecoder {
  constructor() {
    this.pending = [];
    this.afterCR = false;
    this.data = null;
    this.head = new Uint8Array(0);
    this.started = false;
  }

  write(chunk, out) {
    if (!this.started) {
      // One UTF-8 BOM at the very start of the stream is dropped (WHATWG), and only there; a
      // chunk may end inside it.
      const joined = this.head.length === 0 ? chunk : concat([this.head, chunk]);
      const seen = Math.min(joined.length, BOM.length);
      const bom = BOM.slice(0, seen).every((b, i) => joined[i] === b);
      if (bom && joined.length < BOM.length) {
        this.head = joined;
        return;
      }
      this.started = true;
      this.head = new Uint8Array(0);
      chunk = bom ? joined.subarray(BOM.length) : joined;
    }
    let start = 0;
    for (let i = 0; i < chunk.length; i += 1) {
      const byte = chunk[i];
      if (byte === LF && this.afterCR && i === start && this.pending.length === 0) {
        // The LF of a CRLF whose CR ended the previous line.
        this.afterCR = false;
        start = i + 1;
        continue;
      }
      this.afterCR = false;
      if (byte !== LF && byte !== CR) continue;
      this.pending.push(chunk.subarray(start, i));
      this.line(concat(this.pending), out);
      this.pending = [];
      this.afterCR = byte === CR;
      start = i + 1;
    }
    if (start < chunk.length) this.pending.push(chunk.slice(start));
  }

  line(bytes, out) {
    if (bytes.length === 0) {
      // A blank line dispatches the event; one without a data field is no frame.
      if (this.data !== null) out.push({ bytes: joinData(this.data) });
      this.data = null;
      return;
    }
    if (bytes[0] === COLON) return;
    const colon = bytes.indexOf(COLON);
    const name = colon < 0 ? bytes : bytes.subarray(0, colon);
    let value = colon < 0 ? new Uint8Array(0) : bytes.subarray(colon + 1);
    if (value.length > 0 && value[0] === SPACE) value = value.subarray(1);
    if (name.length === DATA.length && DATA.every((b, i) => name[i] === b)) {
      if (this.data === null) this.data = [];
      this.data.push(value);
    }
  }

  end(out) {
    if (!this.started) this.pending.push(this.head);
    this.started = true;
    const rest = this.pending.length === 0 ? new Uint8Array(0) : concat(this.pending);
    this.pending = [];
    const openDataLine = rest.length >= DATA.length && DATA.every((b, i) => rest[i] === b)
      && (rest.length === DATA.length || rest[DATA.length] === COLON);
    // An event never dispatched is never applied; it is reported as cut (PRJ-RUI-FRAME-07).
    if (this.data !== null || openDataLine) out.push({ invalid: 'FRAME_TRUNCATED' });
    this.data = null;
  }
}

function joinData(parts) {
  const pieces = [];
  parts.forEach((part, i) => {
    if (i > 0) pieces.push(Uint8Array.of(LF));
    pieces.push(part);
  });
  return pieces.length === 0 ? new Uint8Array(0) : Uint8Array.from(Buffer.concat(pieces));
}

class JsonSeqDecoder {
  constructor() {
    this.pending = [];
    this.inText = false;
  }

  write(chunk, out) {
    let start = 0;
    for (let i = 0; i < chunk.length; i += 1) {
      if (chunk[i] !== RS) continue;
      this.pending.push(chunk.subarray(start, i));
      this.element(concat(this.pending), out, false);
      this.pending = [];
      this.inText = true;
      start = i + 1;
    }
    if (start < chunk.length) this.pending.push(chunk.slice(start));
  }

  /** The bytes up to an RS (or the end): one element, or the bytes before the first RS. */
  element(bytes, out) {
    if (!this.inText) {
      // Bytes before the first RS belong to no text: a frame that is not a JSON text.
      if (bytes.length > 0) out.push({ invalid: 'FRAME_NOT_JSON' });
      return;
    }
    // Consecutive RS make no element (PRJ-RUI-FRAME-09).
    if (bytes.length === 0) return;
    // A text ends with LF; one cut before it by the next RS or the end is truncated
    // (CL-D07-4, PRJ-RUI-FRAME-02, -13).
    if (bytes[bytes.length - 1] !== LF) {
      out.push({ invalid: 'FRAME_TRUNCATED' });
      return;
    }
    out.push({ bytes: bytes.subarray(0, bytes.length - 1) });
  }

  end(out) {
    const rest = this.pending.length === 0 ? new Uint8Array(0) : concat(this.pending);
    this.pending = [];
    this.element(rest, out);
  }
}
