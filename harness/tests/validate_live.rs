//! `conformance validate --url` against real local servers that replay recorded streams, valid and
//! broken (issue 15 §3): an SSE endpoint (`tiny_http`) and a WebSocket endpoint (`tungstenite`) on
//! 127.0.0.1, plus raw TCP listeners for what no well-behaved server library sends (a reset, bytes
//! that are not HTTP). Each run is the `conformance` executable as a user runs it: exit 0 for a
//! clean stream, 1 for violations, 2 when the stream could not be read to its end (stall, reset,
//! failure mid-body, not HTTP, refused handshake, nothing listening), with a clear error on stderr
//! and the partial summary on stdout. `--max-seconds` is a stop condition only (exit 0 on a clean
//! prefix). Every run has a stall timeout and a deadline, and every server pause is bounded, so
//! no test can hang.

mod servers;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::Arc;
use std::time::Duration;

use harness::validate::generate;
use servers::Act;
use serde_json::Value;

/// Transactions before a break: more than the test server's 8 KiB of chunk buffering, so the
/// client has really received them when the server stalls or fails.
const BEFORE_BREAK: u64 = 120;

/// The generated stream's catalog in a file of its own per call (tests run in parallel).
fn catalog() -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("harness-validate-live-catalog-{}-{n}.json", std::process::id()));
    std::fs::write(&path, generate::catalog().to_string()).unwrap();
    path
}

/// `conformance validate --catalog C --url URL --format json ARGS`, with a stall timeout of 2 s
/// and a deadline of 30 s unless ARGS give their own.
fn validate(url: &str, extra: &[&str]) -> (Output, Value) {
    let catalog = catalog();
    let mut args = vec!["validate", "--catalog", catalog.to_str().unwrap(), "--url", url, "--format", "json"];
    if !extra.contains(&"--stall-seconds") {
        args.extend(["--stall-seconds", "2"]);
    }
    if !extra.contains(&"--max-seconds") {
        args.extend(["--max-seconds", "30"]);
    }
    args.extend(extra);
    let output = Command::new(env!("CARGO_BIN_EXE_conformance")).args(&args).output().expect("runs");
    let _ = std::fs::remove_file(&catalog);
    let report = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (output, report)
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).to_string()
}

/// Transactions `from..to` of the generated stream as SSE events, one `Send` per transaction.
fn sse_events(from: u64, to: u64) -> Vec<Act> {
    (from..to)
        .map(|i| {
            let mut bytes = Vec::new();
            for payload in generate::transaction(i) {
                generate::frame("sse", &payload, &mut bytes);
            }
            Act::Send(bytes)
        })
        .collect()
}

fn ws_messages(from: u64, to: u64) -> Vec<Act> {
    (from..to).flat_map(generate::transaction).map(Act::Send).collect()
}

fn route(script: Vec<Act>) -> servers::Route {
    Arc::new(move |path: &str| (path == "/stream").then(|| script.clone()))
}

fn summary(report: &Value) -> &Value {
    &report["summary"]
}

#[test]
fn a_valid_stream_is_clean_over_sse_and_websocket() {
    let sse = servers::sse(route(sse_events(0, 200)));
    let (output, report) = validate(&format!("http://127.0.0.1:{sse}/stream"), &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!((summary(&report)["committed"].as_u64(), summary(&report)["stoppedBy"].as_str()), (Some(200), Some("end")));
    let ws = servers::websocket(route(ws_messages(0, 200)));
    let (output, report) = validate(&format!("ws://127.0.0.1:{ws}/stream"), &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!((summary(&report)["committed"].as_u64(), summary(&report)["messages"].as_u64()), (Some(200), Some(1200)));
}

#[test]
fn garbage_in_the_stream_is_a_violation_with_its_frame_and_code() {
    let mut script = sse_events(0, 3);
    script.push(Act::Send(b"data: {not json\n\n".to_vec()));
    script.extend(sse_events(3, 5));
    let sse = servers::sse(route(script));
    let (output, report) = validate(&format!("http://127.0.0.1:{sse}/stream"), &[]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(report["violations"][0]["frame"], 18);
    assert_eq!(report["violations"][0]["code"], "FRAME_NOT_JSON");
    assert_eq!(report["violations"][0]["requirements"][0], "PRJ-RUI-FRAME-01");
    // The transaction after the garbage starts at base revision 3: the stream goes on.
    assert_eq!(summary(&report)["committed"], 5);

    let mut script = ws_messages(0, 2);
    script.push(Act::Send(vec![0xff, 0xfe]));
    script.extend(ws_messages(2, 3));
    let ws = servers::websocket(route(script));
    let (output, report) = validate(&format!("ws://127.0.0.1:{ws}/stream"), &[]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!((report["violations"][0]["frame"].as_u64(), report["violations"][0]["code"].as_str()), (Some(12), Some("FRAME_NOT_JSON")));
    assert_eq!(summary(&report)["committed"], 3);
}

#[test]
fn a_stalling_server_is_an_error_and_the_partial_summary_is_kept() {
    let mut script = sse_events(0, BEFORE_BREAK);
    script.push(Act::Pause(Duration::from_secs(6)));
    let sse = servers::sse(route(script));
    let (output, report) = validate(&format!("http://127.0.0.1:{sse}/stream"), &["--stall-seconds", "0.5"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("stalled"), "{}", stderr(&output));
    assert_eq!(summary(&report)["stoppedBy"], "error");
    assert!(summary(&report)["committed"].as_u64().unwrap() > 0, "{report}");

    let mut script = ws_messages(0, 3);
    script.push(Act::Pause(Duration::from_secs(6)));
    let ws = servers::websocket(route(script));
    let (output, report) = validate(&format!("ws://127.0.0.1:{ws}/stream"), &["--stall-seconds", "0.5"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("stalled"), "{}", stderr(&output));
    assert_eq!(summary(&report)["committed"], 3);
}

#[test]
fn max_seconds_stops_following_without_an_error() {
    let mut script = sse_events(0, BEFORE_BREAK);
    script.push(Act::Send(b"data: [\"begin\",0,\"open\",120]\n\n".to_vec()));
    script.push(Act::Pause(Duration::from_secs(6)));
    let sse = servers::sse(route(script));
    let (output, report) = validate(&format!("http://127.0.0.1:{sse}/stream"), &["--max-seconds", "1", "--stall-seconds", "10"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(summary(&report)["stoppedBy"], "max-seconds");
    assert!(summary(&report)["committed"].as_u64().unwrap() > 0, "{report}");

    let mut script = ws_messages(0, 2);
    script.push(Act::Send(b"[\"begin\",0,\"open\",2]".to_vec()));
    script.push(Act::Pause(Duration::from_secs(6)));
    let ws = servers::websocket(route(script));
    let (output, report) = validate(&format!("ws://127.0.0.1:{ws}/stream"), &["--max-seconds", "1", "--stall-seconds", "10"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // The open transaction is neither committed nor interrupted: the deadline is no stream end.
    assert_eq!((summary(&report)["committed"].as_u64(), summary(&report)["openTransaction"].as_bool()), (Some(2), Some(true)));
    assert_eq!(summary(&report)["violations"], 0);
}

#[test]
fn a_server_that_gives_up_mid_transaction_or_drops_the_connection_is_reported() {
    // The SSE server's body fails inside a transaction: it ends the HTTP response properly, so
    // the stream has ended and the open transaction is interrupted (a violation, exit 1).
    let mut script = sse_events(0, BEFORE_BREAK);
    script.push(Act::Send(b"data: [\"begin\",0,\"cut\",120]\n\n".to_vec()));
    script.push(Act::Fail);
    let sse = servers::sse(route(script));
    let (output, report) = validate(&format!("http://127.0.0.1:{sse}/stream"), &[]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let last = report["violations"].as_array().and_then(|v| v.last()).cloned().unwrap_or_default();
    assert_eq!((last["transactionId"].as_str(), last["code"].as_str()), (Some("cut"), Some("INTERRUPTED")), "{report}");
    assert_eq!(summary(&report)["committed"].as_u64(), Some(BEFORE_BREAK));

    // A chunked response whose connection closes before its last chunk: not read to its end.
    let cut = raw(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n19\r\ndata: [\"begin\",0,\"t\",0]\n\n\r\n10\r\ndata: [", false);
    let (output, report) = validate(&format!("http://127.0.0.1:{cut}/stream"), &[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("before the HTTP response ended"), "{}", stderr(&output));
    assert_eq!((summary(&report)["frames"].as_u64(), summary(&report)["openTransaction"].as_bool()), (Some(1), Some(true)), "{report}");

    let mut script = ws_messages(0, 2);
    script.push(Act::Fail);
    let ws = servers::websocket(route(script));
    let (output, report) = validate(&format!("ws://127.0.0.1:{ws}/stream"), &[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("without a WebSocket close frame"), "{}", stderr(&output));
    assert_eq!(summary(&report)["committed"], 2);
}

/// A raw listener that answers its first connection with `reply`, then closes. With `reset`, it
/// never reads the request, so the close is a TCP reset (RST) on Linux; otherwise it reads the
/// request head first and closes normally.
fn raw(reply: &'static [u8], reset: bool) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        if let Ok((mut stream, _)) = listener.accept() {
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            if reset {
                std::thread::sleep(Duration::from_millis(100));
            } else {
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") && matches!(stream.read(&mut byte), Ok(1)) {
                    head.push(byte[0]);
                }
            }
            let _ = stream.write_all(reply);
        }
    });
    port
}

#[test]
fn a_reset_or_an_answer_that_is_not_http_is_an_error() {
    let reset = raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: [\"begin\",0,\"t\",0]\n\ndata: [\"no", true);
    let (output, report) = validate(&format!("http://127.0.0.1:{reset}/stream"), &[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert_eq!(summary(&report)["stoppedBy"], "error");

    let garbage = raw(b"SSH-2.0-OpenSSH_9.6\r\n\r\n", false);
    let (output, _) = validate(&format!("http://127.0.0.1:{garbage}/stream"), &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("not an HTTP response"), "{}", stderr(&output));

    let garbage = raw(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: nonsense\r\n\r\n", false);
    let (output, _) = validate(&format!("ws://127.0.0.1:{garbage}/stream"), &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("handshake"), "{}", stderr(&output));
}

#[test]
fn a_refusal_or_nothing_listening_is_an_error_naming_it() {
    let sse = servers::sse(route(Vec::new()));
    let (output, _) = validate(&format!("http://127.0.0.1:{sse}/elsewhere"), &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("HTTP 404"), "{}", stderr(&output));
    let ws = servers::websocket(route(Vec::new()));
    let (output, _) = validate(&format!("ws://127.0.0.1:{ws}/elsewhere"), &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("handshake"), "{}", stderr(&output));

    let closed = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let (output, _) = validate(&format!("http://127.0.0.1:{closed}/stream"), &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("cannot connect"), "{}", stderr(&output));
}

#[test]
fn live_mode_is_refused_where_it_cannot_apply() {
    let path = catalog();
    let catalog = path.to_str().unwrap();
    for args in [
        vec!["validate", "--catalog", catalog, "--url", "https://127.0.0.1:1/"],
        vec!["validate", "--catalog", catalog, "--url", "ws://127.0.0.1:1/", "stream.jsonl"],
        vec!["validate", "--catalog", catalog, "--url", "ws://127.0.0.1:1/", "--framing", "jsonl"],
        vec!["validate", "--catalog", catalog, "--framing", "jsonl", "--max-seconds", "1", "-"],
        vec!["validate", "--catalog", catalog, "--url", "ws://127.0.0.1:1/", "--stall-seconds", "0"],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_conformance")).args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_websocket_message_up_to_the_documented_64_mib_is_read() {
    // One frame of 20 MiB, over tungstenite's default 16 MiB frame bound: judged (not JSON), not
    // refused as too long.
    let mut script = ws_messages(0, 2);
    script.push(Act::Send(vec![b'x'; 20 << 20]));
    script.extend(ws_messages(2, 3));
    let ws = servers::websocket(route(script));
    let (output, report) = validate(&format!("ws://127.0.0.1:{ws}/stream"), &[]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(report["violations"].as_array().map(Vec::len), Some(1), "{report}");
    assert_eq!(summary(&report)["stoppedBy"].as_str(), Some("end"), "{report}");
}
