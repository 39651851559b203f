//! Local test endpoints for `conformance validate --url` (issue 15 §3): an SSE endpoint
//! (`tiny_http`) and a WebSocket endpoint (`tungstenite`), both on 127.0.0.1 with a port the
//! system picks, replaying a scripted stream chosen by the request path: bytes or messages, pauses
//! (a stalling server), a failure mid-stream, a dropped connection. Every pause is bounded, and
//! the client under test always runs with a stall timeout, so nothing here can hang a test.

#![allow(dead_code)]

use std::collections::VecDeque;
use std::io::{Cursor, Read};
use std::net::TcpListener;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

/// One step of a scripted reply.
#[derive(Debug, Clone)]
pub enum Act {
    /// SSE: these body bytes. WebSocket: one message (text if UTF-8, else binary).
    Send(Vec<u8>),
    /// Send nothing for this long.
    Pause(Duration),
    /// SSE: the body reader fails, so the server gives up the response mid-body. WebSocket: the
    /// TCP connection is dropped without a close frame.
    Fail,
}

pub type Route = Arc<dyn Fn(&str) -> Option<Vec<Act>> + Send + Sync>;

/// Serves `route(path)` as `text/event-stream` (chunked) to every GET; 404 where it gives `None`.
/// Returns the port.
pub fn sse(route: Route) -> u16 {
    let server = tiny_http::Server::http("127.0.0.1:0").expect("a local port");
    let port = server.server_addr().to_ip().expect("an IP address").port();
    thread::spawn(move || {
        for request in server.incoming_requests() {
            let script = route(request.url());
            let _ = match script {
                None => request.respond(tiny_http::Response::empty(404)),
                Some(script) => {
                    let header = tiny_http::Header::from_bytes("Content-Type", "text/event-stream").expect("a header");
                    let reader = Scripted { acts: script.into(), current: Cursor::new(Vec::new()) };
                    request.respond(tiny_http::Response::new(200.into(), vec![header], reader, None, None))
                }
            };
        }
    });
    port
}

struct Scripted {
    acts: VecDeque<Act>,
    current: Cursor<Vec<u8>>,
}

impl Read for Scripted {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let n = self.current.read(buffer)?;
            if n > 0 {
                return Ok(n);
            }
            match self.acts.pop_front() {
                None => return Ok(0),
                Some(Act::Send(bytes)) => self.current = Cursor::new(bytes),
                Some(Act::Pause(pause)) => thread::sleep(pause),
                Some(Act::Fail) => return Err(std::io::Error::other("scripted failure")),
            }
        }
    }
}

/// Serves `route(path)` as WebSocket messages to every connection, then a close frame; refuses
/// the handshake (404) where it gives `None`. Returns the port.
pub fn websocket(route: Route) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a local port");
    let port = listener.local_addr().expect("an address").port();
    thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let _ = stream.set_write_timeout(Some(Duration::from_secs(10)));
            let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
            let mut script = None;
            let callback = |request: &tungstenite::handshake::server::Request, response| {
                script = route(request.uri().path());
                match script {
                    Some(_) => Ok(response),
                    None => {
                        let mut refusal = tungstenite::handshake::server::ErrorResponse::new(None);
                        *refusal.status_mut() = tungstenite::http::StatusCode::NOT_FOUND;
                        Err(refusal)
                    }
                }
            };
            let Ok(mut socket) = tungstenite::accept_hdr(stream, callback) else { continue };
            let mut dropped = false;
            for act in script.unwrap_or_default() {
                match act {
                    Act::Send(bytes) => {
                        let message = match String::from_utf8(bytes) {
                            Ok(text) => tungstenite::Message::text(text),
                            Err(e) => tungstenite::Message::binary(e.into_bytes()),
                        };
                        if socket.send(message).is_err() {
                            break;
                        }
                    }
                    Act::Pause(pause) => thread::sleep(pause),
                    Act::Fail => {
                        dropped = true;
                        break;
                    }
                }
            }
            if !dropped {
                let _ = socket.close(None);
                // Wait (bounded by the read timeout) for the client's close reply.
                while socket.read().is_ok() {}
            }
        }
    });
    port
}
