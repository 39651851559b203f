//! `model-check explore` (issue 19): the Explorer starts on a free local port, prints its URL,
//! answers `/.status` and `/.states` over HTTP with the served model and its properties, and is
//! stopped; it answers only requests whose `Host` names it (DNS rebinding), and of two started at
//! once on one port the second ends with an error, not a panic (issue 28). Nothing here can hang: the URL is awaited with a deadline, every socket has timeouts,
//! and the child is killed when the test ends, passing or not. `explore::locate` replays a path
//! into Explorer indices.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use model::explore::locate;

/// Kills the Explorer however the test ends.
struct Explorer(Child);

impl Drop for Explorer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn get(address: SocketAddr, path: &str) -> String {
    let mut stream = TcpStream::connect_timeout(&address, Duration::from_secs(5)).expect("connects");
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    stream.set_write_timeout(Some(Duration::from_secs(5))).unwrap();
    // HTTP/1.0: the body comes whole, never chunked.
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {address}\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("an HTTP response");
    assert!(response.starts_with("HTTP/1.") && response[..12].ends_with("200"), "{path}: {response}");
    response.split_once("\r\n\r\n").map(|(_, body)| body.to_string()).unwrap_or_default()
}

#[test]
fn explore_serves_the_status_on_a_free_port_and_stops() {
    let child = Command::new(env!("CARGO_BIN_EXE_model-check"))
        .args(["explore", "transaction", "--depth", "6", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("model-check starts");
    let mut explorer = Explorer(child);
    let stdout = explorer.0.stdout.take().unwrap();
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = send.send(line);
    });
    let line = receive.recv_timeout(Duration::from_secs(60)).expect("the URL is printed within 60 s");
    let url = line.split_whitespace().find(|w| w.starts_with("http://")).expect("a URL").to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{line}");
    let address: SocketAddr = url.trim_start_matches("http://").trim_end_matches('/').parse().expect("host:port");
    assert_ne!(address.port(), 0);

    let status: serde_json::Value = serde_json::from_str(&get(address, "/.status")).expect("JSON status");
    assert_eq!(status["model"], "model::transaction::TransactionModel");
    let properties = status["properties"].as_array().expect("properties");
    assert!(properties.iter().any(|p| p[0] == "Always"), "{status}");
    let initial: serde_json::Value = serde_json::from_str(&get(address, "/.states")).expect("JSON states");
    assert_eq!(initial.as_array().map(Vec::len), Some(1), "one initial state");
    let next: serde_json::Value = serde_json::from_str(&get(address, "/.states/0")).expect("JSON states");
    assert!(next.as_array().is_some_and(|a| a.iter().any(|s| s["action"] == "EndOfStream")), "{next}");
    assert!(get(address, "/").contains("<html"), "the UI");

    explorer.0.kill().expect("stops");
    let status = explorer.0.wait().expect("ends");
    assert!(!status.success(), "ended by the kill, not on its own");
}

#[test]
fn a_taken_port_is_an_error_not_a_panic() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let output = Command::new(env!("CARGO_BIN_EXE_model-check"))
        .args(["explore", "assist", "--port", &port])
        .output()
        .expect("model-check runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot listen on 127.0.0.1:"));
}

/// Starts `model-check explore transaction` on `port` with stdout and stderr piped.
fn start(port: &str) -> Explorer {
    let child = Command::new(env!("CARGO_BIN_EXE_model-check"))
        .args(["explore", "transaction", "--depth", "4", "--port", port])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("model-check starts");
    Explorer(child)
}

/// The first line `explorer` prints, within 60 s.
fn url_line(explorer: &mut Explorer) -> String {
    let stdout = explorer.0.stdout.take().unwrap();
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = send.send(line);
    });
    receive.recv_timeout(Duration::from_secs(60)).expect("a line within 60 s")
}

fn raw_request(address: SocketAddr, request: &str) -> String {
    let mut stream = TcpStream::connect_timeout(&address, Duration::from_secs(5)).expect("connects");
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response
}

#[test]
fn a_request_with_a_foreign_host_is_refused() {
    let mut explorer = start("0");
    let line = url_line(&mut explorer);
    let address: SocketAddr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).expect("a URL").parse().unwrap();
    let port = address.port();
    for host in [format!("Host: evil.example:{port}\r\n"), format!("Host: 127.0.0.1:{}\r\n", port.wrapping_add(1)), String::new()] {
        let response = raw_request(address, &format!("GET /.status HTTP/1.1\r\n{host}\r\n"));
        assert!(response.starts_with("HTTP/1.1 403"), "{host:?}: {response}");
        assert!(!response.contains("properties"), "{host:?}: {response}");
    }
    // A second request on a checked connection is not passed on: the connection closes.
    let response = raw_request(
        address,
        &format!("GET /.status HTTP/1.1\r\nHost: localhost:{port}\r\n\r\nGET /.status HTTP/1.1\r\nHost: evil.example\r\n\r\n"),
    );
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert_eq!(response.matches("HTTP/1.1 ").count(), 1, "{response}");
}

#[test]
fn of_two_explorers_started_at_once_on_one_port_the_second_ends_with_an_error() {
    for _ in 0..3 {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port().to_string();
        let mut pair = [start(&port), start(&port)];
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        let ended = loop {
            if let Some(i) = (0..2).find(|&i| pair[i].0.try_wait().ok().flatten().is_some()) {
                break i;
            }
            assert!(std::time::Instant::now() < deadline, "neither ended");
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut stderr = String::new();
        pair[ended].0.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
        let mut stdout = String::new();
        pair[ended].0.stdout.take().unwrap().read_to_string(&mut stdout).unwrap();
        assert_eq!(pair[ended].0.try_wait().unwrap().and_then(|s| s.code()), Some(2), "{stderr}");
        assert!(stderr.contains("cannot listen on 127.0.0.1:") && !stderr.contains("panicked"), "{stderr}");
        assert!(!stdout.contains("http://"), "the loser printed a URL: {stdout}");
        let winner = url_line(&mut pair[1 - ended]);
        assert!(winner.contains(&format!("http://127.0.0.1:{port}/")), "{winner}");
    }
}

#[test]
fn explore_takes_one_model_and_a_port_in_range() {
    for args in [&["explore", "all"][..], &["explore", "assist", "--port", "70000"], &["explore", "assist", "--port"]] {
        let output = Command::new(env!("CARGO_BIN_EXE_model-check")).args(args).output().expect("runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn locate_replays_a_path_into_explorer_indices() {
    let path: Vec<String> = ["Begin(Current)", "Commit(BasePlusOne, 0)", "EndOfStream"].map(String::from).to_vec();
    let located = locate("model::transaction (2 node ids, 3 begins, operation limit 2)", &path).expect("replays");
    assert_eq!(located.model, "transaction");
    assert_eq!(located.indices.len(), 4, "the initial state and one index per action");
    assert!(located.fragment().starts_with("#/steps/0/"));
    let broken: Vec<String> = ["Begin(Current)", "Begin(Current)", "NoSuchAction"].map(String::from).to_vec();
    let error = locate("model::transaction (...)", &broken).unwrap_err();
    assert!(error.contains("is not enabled"), "{error}");
    assert!(locate("model::unknown", &path).is_err());
    let assist = ["model::assist::ObservableTurn (batch bound 2, read-only mode); setup: ...", "Decide(Text)"].map(String::from);
    let located = locate("model::assist (batch bound 2, both modes)", &assist).expect("replays");
    assert_eq!(located.indices[0], 1, "the read-only initial state");
    assert_eq!(located.actions, vec!["Decide(Text)".to_string()]);
}
