//! A valid Rixx UI stream of any length, for measuring `conformance validate` (issue 15 §3: constant
//! memory on a 1 GiB stream, throughput per framing): the hidden `conformance generate-stream`
//! command and the `validate` benchmark write it.
//!
//! Transaction `i` (base revision `i`, new revision `i + 1`, CL-D02-5/6) redefines the same three
//! nodes (a `Stack` root with two `Text` children) and sets one data member, so the committed
//! graph stays the same size however long the stream is: memory that grows with the stream would
//! be the validator's, not the graph's. Each transaction is about 600 bytes in six frames.

use serde_json::{json, Value};

/// The catalog the generated stream is valid under.
pub fn catalog() -> Value {
    json!({ "id": "generated@1.0.0", "components": {
        "Stack": { "props": { "type": "object" }, "children": true },
        "Text": { "props": { "type": "object", "properties": { "text": { "type": "string" } }, "required": ["text"] }, "children": false }
    } })
}

/// The payloads (one record each) of transaction `i`.
pub fn transaction(i: u64) -> Vec<Vec<u8>> {
    let filler = "Rixx UI streams carry framed JSON records forming atomic UI graph transactions. ";
    let records = [
        json!(["begin", 0, format!("t{i}"), i]),
        json!(["node", 1, "root", "Stack", { "gap": 8 }, ["title", "body"]]),
        json!(["node", 2, "title", "Text", { "text": format!("Update {i}") }, []]),
        json!(["node", 3, "body", "Text", { "text": filler.repeat(4) }, []]),
        json!(["data", 4, "/status", { "count": i, "label": "generated", "ok": true }]),
        json!(["commit", 5, i + 1, "root"]),
    ];
    records.iter().map(|r| serde_json::to_vec(r).expect("a record serialises")).collect()
}

/// One payload framed for a byte-stream framing (CL-D07), or as one line of the WebSocket file
/// form (`{"text": ...}`, `input.rs`).
pub fn frame(framing: &str, payload: &[u8], out: &mut Vec<u8>) {
    match framing {
        "sse" => {
            out.extend_from_slice(b"data: ");
            out.extend_from_slice(payload);
            out.extend_from_slice(b"\n\n");
        }
        "json-seq" => {
            out.push(0x1e);
            out.extend_from_slice(payload);
            out.push(b'\n');
        }
        "websocket" => {
            let text = std::str::from_utf8(payload).expect("records are UTF-8");
            out.extend_from_slice(json!({ "text": text }).to_string().as_bytes());
            out.push(b'\n');
        }
        _ => {
            out.extend_from_slice(payload);
            out.push(b'\n');
        }
    }
}

/// Writes whole transactions in `framing` to `out` until at least `bytes` bytes are written;
/// returns the number of transactions.
pub fn write(framing: &str, bytes: u64, out: &mut dyn std::io::Write) -> std::io::Result<u64> {
    let mut written = 0u64;
    let mut i = 0u64;
    let mut buffer = Vec::with_capacity(1 << 20);
    while written < bytes {
        buffer.clear();
        while buffer.len() < (1 << 20) - 4096 && written + (buffer.len() as u64) < bytes {
            for payload in transaction(i) {
                frame(framing, &payload, &mut buffer);
            }
            i += 1;
        }
        out.write_all(&buffer)?;
        written += buffer.len() as u64;
    }
    out.flush()?;
    Ok(i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::{read_messages, read_stream, runtime, Validator};

    #[test]
    fn the_generated_stream_is_valid_in_every_framing() {
        for framing in crate::framing::FRAMINGS {
            let mut bytes = Vec::new();
            let transactions = write(framing, 200_000, &mut bytes).unwrap();
            let mut validator = Validator::new(runtime(framing, &catalog(), None).unwrap());
            let mut found = 0;
            let stop = if framing == "websocket" {
                read_messages(&mut validator, &mut &bytes[..], &mut |_| found += 1)
            } else {
                read_stream(&mut validator, &mut &bytes[..], &mut |_| found += 1)
            };
            let summary = validator.finish(stop);
            assert_eq!((found, summary.exit_code()), (0, 0), "{framing}: {summary:?}");
            assert_eq!((summary.committed, summary.final_revision), (transactions, transactions), "{framing}");
        }
    }
}
