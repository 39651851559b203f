//! Live mode of `conformance validate` (issue 15 §3): follows a producer's stream from the
//! endpoint the user names, and nowhere else (no redirect, proxy or reconnection is followed), and
//! judges it as it arrives.
//!
//! - `http://HOST:PORT/PATH`: an SSE endpoint (CL-D07-2). One `GET` with `Accept:
//!   text/event-stream`; a `200` response's body is the byte stream (chunked, `Content-Length` or
//!   ended by the close of the connection). Any other status is an error that names it.
//! - `ws://HOST:PORT/PATH`: a WebSocket endpoint (CL-D07-3). Each text or binary message is one
//!   frame; a close frame ends the stream.
//!
//! Blocking I/O on one `TcpStream` with a read timeout, because one stream is followed at a time
//! and a deadline per read is all the scheduling needed: an async runtime would add a large
//! dependency for nothing. The WebSocket protocol is `tungstenite`'s (handshake, masking,
//! fragmentation, ping/pong, close); the HTTP/1.1 client is the few lines below (`httparse` reads
//! the response head; chunked transfer coding is decoded here), since it only ever sends one GET.
//!
//! How reading stops ([`Stop`]): the stream's end (the server closes the response, or sends a
//! WebSocket close frame) is judged like the end of a file (an open transaction is
//! `INTERRUPTED`). `--max-seconds` is a stop condition only: reading stops, whatever was decided
//! is reported, and a transaction still open is neither committed nor a violation. Anything that
//! prevents reading the stream to its end (no connection, no byte for `--stall-seconds`, a reset,
//! a response that is not HTTP or WebSocket, a malformed chunk, an HTTP message cut short, a
//! WebSocket connection dropped without a close frame) stops with an error: the partial summary is
//! kept and the run exits 2.

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use tungstenite::Message;

use super::{Stop, UsageError, Validator, Violation};

/// Timeouts of live mode.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Stop following the stream after this long (a stop condition, not an error).
    pub max_seconds: Option<f64>,
    /// No byte for this long (connecting included) is a stalled server: an error.
    pub stall_seconds: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options { max_seconds: None, stall_seconds: 30.0 }
    }
}

/// An endpoint named by `--url`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    /// `sse` for `http://`, `websocket` for `ws://`.
    pub framing: &'static str,
    pub host: String,
    pub port: u16,
    /// Path and query, starting with `/`.
    pub target: String,
    pub url: String,
}

impl Endpoint {
    /// Parses `http://` and `ws://` URLs; TLS (`https://`, `wss://`) and user info are refused.
    pub fn parse(url: &str) -> Result<Endpoint, UsageError> {
        let (framing, rest, default_port) = if let Some(rest) = url.strip_prefix("http://") {
            ("sse", rest, 80)
        } else if let Some(rest) = url.strip_prefix("ws://") {
            ("websocket", rest, 80)
        } else {
            return Err(UsageError(format!(
                "--url {url}: only http:// (SSE) and ws:// (WebSocket) endpoints are supported (no TLS)"
            )));
        };
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let (authority, target) = rest.split_at(end);
        let target = target.split('#').next().unwrap_or_default();
        if authority.is_empty() || authority.contains('@') {
            return Err(UsageError(format!("--url {url}: expected HOST[:PORT] after the scheme, without user info")));
        }
        let (host, port) = match authority.rsplit_once(':') {
            Some((host, port)) if !port.contains(']') => {
                let port = port.parse().map_err(|_| UsageError(format!("--url {url}: bad port '{port}'")))?;
                (host, port)
            }
            _ => (authority, default_port),
        };
        let target = if target.starts_with('/') { target.to_string() } else { format!("/{target}") };
        Ok(Endpoint { framing, host: host.trim_start_matches('[').trim_end_matches(']').to_string(), port, target, url: url.to_string() })
    }

    fn authority(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

/// The clock of one run: the stall timeout per read and the optional deadline.
struct Clock {
    stall: Duration,
    deadline: Option<Instant>,
}

enum Wait {
    /// Read with this timeout.
    For(Duration),
    /// The deadline has passed.
    Over,
}

impl Clock {
    fn new(options: &Options) -> Clock {
        // Any f64 is held without a panic: NaN or below a millisecond is a millisecond, a time
        // too long for a Duration or an Instant is no limit (the CLI bounds both at parsing).
        let stall = Duration::try_from_secs_f64(options.stall_seconds.max(0.001)).unwrap_or(Duration::MAX);
        let deadline = options
            .max_seconds
            .and_then(|s| Duration::try_from_secs_f64(s.max(0.0)).ok())
            .and_then(|d| Instant::now().checked_add(d));
        Clock { stall, deadline }
    }

    fn next(&self) -> Wait {
        match self.deadline {
            Some(deadline) => match deadline.checked_duration_since(Instant::now()) {
                Some(left) if !left.is_zero() => Wait::For(left.min(self.stall)),
                _ => Wait::Over,
            },
            None => Wait::For(self.stall),
        }
    }

    /// What a read that timed out means: the deadline, or a stalled server.
    fn timed_out(&self) -> Stop {
        match self.next() {
            Wait::Over => Stop::Deadline,
            Wait::For(_) => Stop::Error(format!("the server sent nothing for {} s (stalled)", self.stall.as_secs_f64())),
        }
    }
}

fn is_timeout(e: &std::io::Error) -> bool {
    matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut)
}

/// Follows the stream at `endpoint` with `validator` (whose framing must be the endpoint's).
pub fn follow(endpoint: &Endpoint, options: &Options, validator: &mut Validator, sink: &mut dyn FnMut(&Violation)) -> Stop {
    let clock = Clock::new(options);
    let stream = match connect(endpoint, &clock) {
        Ok(stream) => stream,
        Err(stop) => return stop,
    };
    match endpoint.framing {
        "websocket" => follow_websocket(endpoint, stream, &clock, validator, sink),
        _ => follow_sse(endpoint, stream, &clock, validator, sink),
    }
}

fn connect(endpoint: &Endpoint, clock: &Clock) -> Result<TcpStream, Stop> {
    let addresses: Vec<SocketAddr> = (endpoint.host.as_str(), endpoint.port)
        .to_socket_addrs()
        .map_err(|e| Stop::Error(format!("cannot resolve {}: {e}", endpoint.host)))?
        .collect();
    let mut last = format!("{} has no address", endpoint.host);
    for address in addresses {
        let timeout = match clock.next() {
            Wait::For(timeout) => timeout,
            Wait::Over => return Err(Stop::Deadline),
        };
        match TcpStream::connect_timeout(&address, timeout) {
            Ok(stream) => {
                let _ = stream.set_nodelay(true);
                let _ = stream.set_write_timeout(Some(clock.stall));
                return Ok(stream);
            }
            Err(e) => last = format!("cannot connect to {address}: {e}"),
        }
    }
    Err(Stop::Error(last))
}

/// One read from `stream` under the clock: `Ok(0)` at the end of the connection.
fn read_some(stream: &mut TcpStream, clock: &Clock, buffer: &mut [u8]) -> Result<usize, Stop> {
    loop {
        let timeout = match clock.next() {
            Wait::For(timeout) => timeout,
            Wait::Over => return Err(Stop::Deadline),
        };
        let _ = stream.set_read_timeout(Some(timeout));
        match stream.read(buffer) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) if is_timeout(&e) => return Err(clock.timed_out()),
            Err(e) => return Err(Stop::Error(format!("the connection failed: {e}"))),
        }
    }
}

const HEAD_LIMIT: usize = 64 * 1024;

fn follow_sse(endpoint: &Endpoint, mut stream: TcpStream, clock: &Clock, validator: &mut Validator, sink: &mut dyn FnMut(&Violation)) -> Stop {
    let request = format!(
        "GET {} HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
        endpoint.target,
        endpoint.authority()
    );
    if let Err(e) = stream.write_all(request.as_bytes()) {
        return Stop::Error(format!("cannot send the request: {e}"));
    }
    let mut buffer = vec![0u8; 64 * 1024];
    let mut head = Vec::new();
    let (body_start, length) = loop {
        let n = match read_some(&mut stream, clock, &mut buffer) {
            Ok(0) => return Stop::Error("the server closed the connection before an HTTP response head".into()),
            Ok(n) => n,
            Err(stop) => return stop,
        };
        head.extend_from_slice(&buffer[..n]);
        let mut headers = [httparse::EMPTY_HEADER; 64];
        let mut response = httparse::Response::new(&mut headers);
        match response.parse(&head) {
            Ok(httparse::Status::Complete(end)) => {
                let code = response.code.unwrap_or(0);
                if code != 200 {
                    let location = header(response.headers, "location").map(|l| format!(" (redirect to {l} not followed)")).unwrap_or_default();
                    return Stop::Error(format!("the server answered HTTP {code} {}{location}", response.reason.unwrap_or("")));
                }
                let chunked = header(response.headers, "transfer-encoding").is_some_and(|t| t.to_ascii_lowercase().contains("chunked"));
                let length = if chunked {
                    Body::Chunked(Chunked::default())
                } else if let Some(length) = header(response.headers, "content-length") {
                    match length.trim().parse() {
                        Ok(length) => Body::Length(length),
                        Err(_) => return Stop::Error(format!("bad Content-Length '{length}'")),
                    }
                } else {
                    Body::UntilClose
                };
                break (end, length);
            }
            Ok(httparse::Status::Partial) if head.len() <= HEAD_LIMIT => continue,
            Ok(httparse::Status::Partial) => return Stop::Error("the HTTP response head is larger than 64 KiB".into()),
            Err(e) => return Stop::Error(format!("the server's answer is not an HTTP response ({e})")),
        }
    };
    let mut body = length;
    let first = head.split_off(body_start);
    drop(head);
    let mut payload = Vec::with_capacity(buffer.len());
    match deliver(&first, &mut body, &mut payload, validator, sink) {
        Ok(true) => return end(validator, sink),
        Ok(false) => {}
        Err(stop) => return stop,
    }
    loop {
        let n = match read_some(&mut stream, clock, &mut buffer) {
            Ok(0) if matches!(body, Body::UntilClose) => return end(validator, sink),
            Ok(0) => return Stop::Error("the connection closed before the HTTP response ended".into()),
            Ok(n) => n,
            Err(stop) => return stop,
        };
        match deliver(&buffer[..n], &mut body, &mut payload, validator, sink) {
            Ok(true) => return end(validator, sink),
            Ok(false) => {}
            Err(stop) => return stop,
        }
    }
}

/// Decodes one read of the response body and feeds its payload; `true` once the body is complete.
fn deliver(bytes: &[u8], body: &mut Body, payload: &mut Vec<u8>, validator: &mut Validator, sink: &mut dyn FnMut(&Violation)) -> Result<bool, Stop> {
    payload.clear();
    let done = body.decode(bytes, payload)?;
    validator.bytes(payload, sink).map_err(|e| Stop::Error(e.0))?;
    Ok(done)
}

fn end(validator: &mut Validator, sink: &mut dyn FnMut(&Violation)) -> Stop {
    validator.end(sink);
    Stop::End
}

fn header<'h>(headers: &'h [httparse::Header<'_>], name: &str) -> Option<&'h str> {
    headers.iter().find(|h| h.name.eq_ignore_ascii_case(name)).and_then(|h| std::str::from_utf8(h.value).ok())
}

/// How the response body is delimited (RFC 9112 §6).
enum Body {
    Length(u64),
    Chunked(Chunked),
    UntilClose,
}

impl Body {
    /// Appends the payload bytes of `input` to `out`; `true` once the body is complete (bytes
    /// after it are ignored).
    fn decode(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<bool, Stop> {
        match self {
            Body::UntilClose => {
                out.extend_from_slice(input);
                Ok(false)
            }
            Body::Length(left) => {
                let take = (*left).min(input.len() as u64) as usize;
                out.extend_from_slice(&input[..take]);
                *left -= take as u64;
                Ok(*left == 0)
            }
            Body::Chunked(chunked) => chunked.decode(input, out).map_err(|e| Stop::Error(format!("malformed chunked transfer coding: {e}"))),
        }
    }
}

/// A streaming decoder of the chunked transfer coding (RFC 9112 §7.1): size lines (extensions
/// ignored), data, CRLF, and the trailer section after the last chunk.
#[derive(Default)]
struct Chunked {
    state: ChunkState,
    line: Vec<u8>,
}

#[derive(Default, PartialEq)]
enum ChunkState {
    #[default]
    Size,
    Data(u64),
    DataEnd,
    Trailer,
    Done,
}

impl Chunked {
    fn decode(&mut self, mut input: &[u8], out: &mut Vec<u8>) -> Result<bool, &'static str> {
        while !input.is_empty() && self.state != ChunkState::Done {
            match &mut self.state {
                ChunkState::Data(left) => {
                    let take = (*left).min(input.len() as u64) as usize;
                    out.extend_from_slice(&input[..take]);
                    input = &input[take..];
                    *left -= take as u64;
                    if *left == 0 {
                        self.state = ChunkState::DataEnd;
                    }
                }
                _ => {
                    let (byte, rest) = (input[0], &input[1..]);
                    input = rest;
                    if byte != b'\n' {
                        if self.line.len() >= 4096 {
                            return Err("a size or trailer line longer than 4 KiB");
                        }
                        self.line.push(byte);
                        continue;
                    }
                    let line = std::mem::take(&mut self.line);
                    let line = line.strip_suffix(b"\r").unwrap_or(&line);
                    self.state = match self.state {
                        ChunkState::Size => {
                            let size = line.split(|b| *b == b';').next().unwrap_or_default();
                            let size = std::str::from_utf8(size).ok().map(str::trim).filter(|s| !s.is_empty());
                            match size.and_then(|s| u64::from_str_radix(s, 16).ok()) {
                                Some(0) => ChunkState::Trailer,
                                Some(size) => ChunkState::Data(size),
                                None => return Err("a chunk size that is not hexadecimal"),
                            }
                        }
                        ChunkState::DataEnd if line.is_empty() => ChunkState::Size,
                        ChunkState::DataEnd => return Err("chunk data longer than its size"),
                        ChunkState::Trailer if line.is_empty() => ChunkState::Done,
                        ChunkState::Trailer => ChunkState::Trailer,
                        ChunkState::Data(_) | ChunkState::Done => unreachable!("handled above"),
                    };
                }
            }
        }
        Ok(self.state == ChunkState::Done)
    }
}

fn follow_websocket(endpoint: &Endpoint, stream: TcpStream, clock: &Clock, validator: &mut Validator, sink: &mut dyn FnMut(&Violation)) -> Stop {
    // The handshake's reads are bounded like every other read: one stall period, or the deadline.
    let timeout = match clock.next() {
        Wait::For(timeout) => timeout,
        Wait::Over => return Stop::Deadline,
    };
    let _ = stream.set_read_timeout(Some(timeout));
    // tungstenite's own default bounds one WebSocket frame to 16 MiB, below the documented 64 MiB
    // of a message: both are set to the validator's bound.
    let bound = Some(super::MAX_FRAME_BYTES as usize);
    let config = tungstenite::protocol::WebSocketConfig::default().max_message_size(bound).max_frame_size(bound);
    let mut socket = match tungstenite::client::client_with_config(endpoint.url.as_str(), stream, Some(config)) {
        Ok((socket, _response)) => socket,
        Err(tungstenite::HandshakeError::Interrupted(_)) => return clock.timed_out(),
        Err(tungstenite::HandshakeError::Failure(e)) => return Stop::Error(format!("the WebSocket handshake failed: {e}")),
    };
    loop {
        let timeout = match clock.next() {
            Wait::For(timeout) => timeout,
            Wait::Over => return Stop::Deadline,
        };
        let _ = socket.get_mut().set_read_timeout(Some(timeout));
        let payload = match socket.read() {
            Ok(Message::Text(text)) => text.as_bytes().to_vec(),
            Ok(Message::Binary(bytes)) => bytes.to_vec(),
            Ok(Message::Close(_)) => {
                // The close reply is courtesy; the stream has ended either way.
                let _ = socket.flush();
                return end(validator, sink);
            }
            Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_)) => {
                let _ = socket.flush();
                continue;
            }
            Err(tungstenite::Error::Io(e)) if is_timeout(&e) => return clock.timed_out(),
            Err(tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed) => return end(validator, sink),
            Err(tungstenite::Error::Protocol(tungstenite::error::ProtocolError::ResetWithoutClosingHandshake)) => {
                return Stop::Error("the server dropped the connection without a WebSocket close frame".into())
            }
            Err(e) => return Stop::Error(format!("the WebSocket connection failed: {e}")),
        };
        if let Err(e) = validator.message(&payload, sink) {
            return Stop::Error(e.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_time_option_makes_a_clock_without_a_panic() {
        for (max, stall) in [(Some(f64::INFINITY), 1e300), (Some(1e300), f64::NAN), (None, f64::INFINITY), (None, -1.0)] {
            let clock = Clock::new(&Options { max_seconds: max, stall_seconds: stall });
            assert!(clock.stall >= Duration::from_millis(1));
            assert!(matches!(clock.next(), Wait::For(_)), "a deadline too far is none: {max:?} {stall}");
        }
        // A deadline of NaN or below zero is at once.
        let clock = Clock::new(&Options { max_seconds: Some(f64::NAN), stall_seconds: 1.0 });
        assert!(matches!(clock.next(), Wait::Over));
    }

    #[test]
    fn urls_name_their_framing_and_nothing_else_is_accepted() {
        let sse = Endpoint::parse("http://127.0.0.1:8080/stream?x=1#frag").unwrap();
        assert_eq!((sse.framing, sse.host.as_str(), sse.port, sse.target.as_str()), ("sse", "127.0.0.1", 8080, "/stream?x=1"));
        let ws = Endpoint::parse("ws://[::1]:9/").unwrap();
        assert_eq!((ws.framing, ws.host.as_str(), ws.port, ws.authority()), ("websocket", "::1", 9, "[::1]:9".to_string()));
        assert_eq!(Endpoint::parse("http://localhost").unwrap().target, "/");
        for bad in ["https://127.0.0.1/", "wss://127.0.0.1/", "ftp://x/", "http://u@127.0.0.1/", "http://127.0.0.1:port/", "http:///x"] {
            assert!(Endpoint::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_chunked_coding_decodes_across_any_cut() {
        let wire = b"5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\nignored";
        for cut in 0..wire.len() {
            let mut chunked = Chunked::default();
            let mut out = Vec::new();
            let first = chunked.decode(&wire[..cut], &mut out).unwrap();
            let second = chunked.decode(&wire[cut..], &mut out).unwrap();
            assert!(first || second, "cut {cut}");
            assert_eq!(out, b"hello world", "cut {cut}");
        }
        assert!(Chunked::default().decode(b"zz\r\n", &mut Vec::new()).is_err());
        assert!(Chunked::default().decode(b"1\r\nab\r\n", &mut Vec::new()).is_err());
    }
}
