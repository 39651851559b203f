//! File and standard-input forms of a stream for `conformance validate` (issue 15 §3).
//!
//! - A byte-stream framing (`jsonl`, `sse`, `json-seq`) is the stream's bytes as sent, read in
//!   64 KiB chunks ([`read_stream`]).
//! - A WebSocket stream is a sequence of messages, which a file of bytes cannot delimit by itself;
//!   its file form ([`read_messages`]) is JSON Lines, one message per line, each written as the
//!   vector format writes a `feed: message` step's `data` (vectors/README.md, harness/framing.rs):
//!   `{"text": "..."}` for a message whose payload is UTF-8, `{"hex": "..."}` for any payload.
//!   Blank lines are skipped; a line that is not such an object stops reading (exit 2) naming
//!   its line, since the file form itself, not the producer, is then at fault.

use std::io::{BufRead, ErrorKind, Read};

use serde_json::{json, Value};

use super::{Stop, Validator, Violation};

const CHUNK: usize = 64 * 1024;

/// Reads a byte stream to its end in 64 KiB chunks, then ends the stream. A read error stops with
/// what was judged so far.
pub fn read_stream(validator: &mut Validator, input: &mut dyn Read, sink: &mut dyn FnMut(&Violation)) -> Stop {
    let mut buffer = vec![0u8; CHUNK];
    loop {
        let read = match input.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Stop::Error(format!("cannot read the stream: {e}")),
        };
        if let Err(e) = validator.bytes(&buffer[..read], sink) {
            return Stop::Error(e.0);
        }
    }
    validator.end(sink);
    Stop::End
}

/// Reads the WebSocket file form (one message per JSON line) to its end, then ends the stream.
pub fn read_messages(validator: &mut Validator, input: &mut dyn BufRead, sink: &mut dyn FnMut(&Violation)) -> Stop {
    let mut line = Vec::new();
    let mut number = 0u64;
    loop {
        line.clear();
        match (&mut *input).take(super::MAX_FRAME_BYTES + 1).read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Stop::Error(format!("cannot read the message file: {e}")),
        }
        number += 1;
        if line.len() as u64 > super::MAX_FRAME_BYTES {
            return Stop::Error(format!("line {number} of the message file is longer than {} MiB", super::MAX_FRAME_BYTES >> 20));
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let message = match message_of(&line) {
            Some(message) => message,
            None => {
                return Stop::Error(format!(
                    "line {number} of the message file is not one message ({{\"text\": \"...\"}} or {{\"hex\": \"...\"}})"
                ))
            }
        };
        if let Err(e) = validator.message(&message, sink) {
            return Stop::Error(e.0);
        }
    }
    validator.end(sink);
    Stop::End
}

/// One line of the message file form: its payload bytes.
fn message_of(line: &[u8]) -> Option<Vec<u8>> {
    let value: Value = serde_json::from_slice(line).ok()?;
    let object = value.as_object()?;
    if object.len() != 1 || !(object.contains_key("text") || object.contains_key("hex")) {
        return None;
    }
    crate::framing::frame_payload(&json!({ "payload": value }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::runtime;

    fn validator() -> Validator {
        let catalog = json!({ "id": "demo@1.0.0", "components": { "Stack": { "props": { "type": "object" }, "children": true } } });
        Validator::new(runtime("websocket", &catalog, None).unwrap())
    }

    #[test]
    fn the_message_file_form_gives_one_message_per_line() {
        let file = "{\"text\":\"[\\\"begin\\\",0,\\\"t\\\",0]\"}\n\n{\"text\":\"[\\\"node\\\",1,\\\"r\\\",\\\"Stack\\\",{},[]]\"}\n{\"hex\":\"5b22636f6d6d6974222c322c312c2272225d\"}";
        let mut v = validator();
        let mut found = Vec::new();
        let stop = read_messages(&mut v, &mut file.as_bytes(), &mut |x| found.push(x.clone()));
        let summary = v.finish(stop);
        assert!(found.is_empty(), "{found:?}");
        assert_eq!((summary.messages, summary.committed, summary.final_revision, summary.exit_code()), (3, 1, 1, 0));
    }

    #[test]
    fn a_message_with_lf_or_invalid_utf8_is_one_frame() {
        let file = "{\"text\":\"[\\\"begin\\\",\\n0,\\\"t\\\",0]\"}\n{\"hex\":\"ff\"}\n";
        let mut v = validator();
        let mut found = Vec::new();
        let stop = read_messages(&mut v, &mut file.as_bytes(), &mut |x| found.push((x.frame, x.code)));
        assert_eq!(stop, Stop::End);
        assert_eq!(found, vec![(1, "FRAME_NOT_JSON"), (1, "FRAME_INVALID")]);
    }

    #[test]
    fn a_line_that_is_not_a_message_stops_with_its_number() {
        for bad in ["[\"begin\",0,\"t\",0]", "{\"text\":1}", "{\"hex\":\"f\"}", "{\"text\":\"a\",\"hex\":\"\"}"] {
            let file = format!("{{\"text\":\"x\"}}\n{bad}\n");
            let mut v = validator();
            let stop = read_messages(&mut v, &mut file.as_bytes(), &mut |_| {});
            assert!(matches!(&stop, Stop::Error(m) if m.contains("line 2")), "{bad}: {stop:?}");
            assert_eq!(v.finish(stop).exit_code(), 2);
        }
    }

    #[test]
    fn bytes_for_a_message_framing_are_refused() {
        let mut v = validator();
        assert!(matches!(read_stream(&mut v, &mut &b"[]\n"[..], &mut |_| {}), Stop::Error(_)));
    }
}
