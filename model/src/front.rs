//! The Explorer's front door (issue 28): `explore::serve` listens on the user's address itself
//! and passes each request on to stateright's Explorer, which serves on a private loopback port.
//! Two reasons. The listener is held from the first bind to the end of the process, so of two
//! `model-check explore` started at once on one port the second is refused at its bind, with a
//! message (stateright binds with `unwrap`, and a probe dropped before its bind left a window in
//! which the loser printed the winner's URL and then panicked). And a request is answered only if
//! its `Host` header names this server (`localhost`, `127.0.0.1` or `[::1]` with its port): a
//! page of another site whose name was rebound to 127.0.0.1 (DNS rebinding) sends its own name
//! and gets `403 Forbidden`.
//!
//! Each connection carries one request: its head is read (at most `MAX_HEAD` bytes, within
//! `READ_TIMEOUT`), checked, passed on with `Connection: close` (so a second request cannot
//! follow on a checked connection) together with its `Content-Length` body, and the answer is
//! copied back until the Explorer closes the connection.

use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::time::Duration;

const MAX_HEAD: usize = 16 << 10;
const MAX_BODY: u64 = 1 << 20;
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// Accepts connections on `listener` for ever, each on a thread of its own, and passes the
/// requests addressed to `listener`'s port on to `upstream`.
pub fn run(listener: TcpListener, upstream: SocketAddr) -> io::Result<()> {
    let port = listener.local_addr()?.port();
    for connection in listener.incoming() {
        let Ok(client) = connection else { continue };
        std::thread::spawn(move || {
            let _ = handle(client, port, upstream);
        });
    }
    Ok(())
}

/// The `Host` values this server answers to.
pub fn allowed_host(value: &str, port: u16) -> bool {
    let value = value.trim().to_ascii_lowercase();
    ["localhost", "127.0.0.1", "[::1]"].iter().any(|name| value == format!("{name}:{port}"))
}

fn refuse(mut client: TcpStream, status: &str, why: &str) -> io::Result<()> {
    let answer = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{why}\n",
        why.len() + 1
    );
    client.write_all(answer.as_bytes())?;
    let _ = client.shutdown(Shutdown::Both);
    Ok(())
}

/// The request head (through the blank line) and the bytes read after it.
fn read_head(client: &mut TcpStream) -> io::Result<Option<(String, Vec<u8>)>> {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            let rest = buffer.split_off(end + 4);
            return Ok(String::from_utf8(buffer).ok().map(|head| (head, rest)));
        }
        if buffer.len() > MAX_HEAD {
            return Ok(None);
        }
        let n = client.read(&mut chunk)?;
        if n == 0 {
            return Ok(None);
        }
        buffer.extend_from_slice(&chunk[..n]);
    }
}

fn handle(mut client: TcpStream, port: u16, upstream: SocketAddr) -> io::Result<()> {
    client.set_read_timeout(Some(READ_TIMEOUT))?;
    let Some((head, rest)) = read_head(&mut client)? else {
        return refuse(client, "400 Bad Request", "not an HTTP request head of at most 16 KiB");
    };
    let mut lines = head.split("\r\n").filter(|l| !l.is_empty());
    let request_line = lines.next().unwrap_or_default().to_string();
    let mut hosts = Vec::new();
    let mut length: u64 = 0;
    let mut forwarded = vec![request_line];
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            return refuse(client, "400 Bad Request", "a header line without a colon");
        };
        match name.trim().to_ascii_lowercase().as_str() {
            "host" => hosts.push(value.to_string()),
            "content-length" => match value.trim().parse() {
                Ok(n) if n <= MAX_BODY => length = n,
                _ => return refuse(client, "400 Bad Request", "a Content-Length that is not a number up to 1 MiB"),
            },
            "transfer-encoding" => return refuse(client, "501 Not Implemented", "no Transfer-Encoding is accepted"),
            "connection" | "keep-alive" | "proxy-connection" => continue,
            _ => {}
        }
        forwarded.push(line.to_string());
    }
    if hosts.len() != 1 || !allowed_host(&hosts[0], port) {
        return refuse(
            client,
            "403 Forbidden",
            &format!("this Explorer answers only requests to localhost:{port}, 127.0.0.1:{port} or [::1]:{port}"),
        );
    }
    forwarded.push("Connection: close".to_string());
    let mut body = rest;
    body.truncate(length as usize);
    while (body.len() as u64) < length {
        let mut chunk = vec![0u8; (length as usize - body.len()).min(64 << 10)];
        let n = client.read(&mut chunk)?;
        if n == 0 {
            return Ok(());
        }
        body.extend_from_slice(&chunk[..n]);
    }
    let mut server = TcpStream::connect(upstream)?;
    server.write_all((forwarded.join("\r\n") + "\r\n\r\n").as_bytes())?;
    server.write_all(&body)?;
    client.set_read_timeout(None)?;
    io::copy(&mut server, &mut client)?;
    let _ = client.shutdown(Shutdown::Both);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_servers_own_names_and_port_are_hosts() {
        for host in ["localhost:3000", "127.0.0.1:3000", "[::1]:3000", " LocalHost:3000 "] {
            assert!(allowed_host(host, 3000), "{host}");
        }
        for host in ["evil.example:3000", "localhost", "127.0.0.1:3001", "localhost.evil.example:3000", "127.0.0.1:3000.evil", ""] {
            assert!(!allowed_host(host, 3000), "{host}");
        }
    }
}
