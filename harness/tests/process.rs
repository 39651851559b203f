//! The process adapter against misbehaving adapters (`harness/driver/README.md`, "Timeouts,
//! crashes and restarts"): a hang, a crash, a malformed or out-of-shape reply each give an
//! `AdapterError` for that case, and the next case gets a fresh process. Also the handshake
//! against the bundled reference driver. Never hang, never orphan, blame the right party (issue
//! 14, section 2): a request to an adapter that stopped reading has a deadline, the adapter's whole
//! process group ends with it, and a reply that is not UTF-8 is a protocol violation.

use std::time::{Duration, Instant};

use harness::adapter::{Adapter, Protocol, Reply};
use harness::adapters::process::ProcessAdapter;
use serde_json::json;

const HELLO: &str = r#"{"reply":"hello","protocol":"rcip-rui-driver/1","implementation":{"name":"sh","version":"1"},"protocols":["rcip"],"profiles":["events"],"limits":null,"assistBatchBound":null}"#;

/// A shell adapter that answers the handshake, `start` and `finish` correctly and does
/// `on_step` (shell code) for every step.
fn shell_adapter(on_step: &str) -> Vec<String> {
    let script = format!(
        "read l; echo '{HELLO}'; while read l; do case \"$l\" in \
         *'\"start\"'*) echo '{{\"reply\":\"done\"}}';; \
         *'\"step\"'*) {on_step};; \
         *'\"finish\"'*) echo '{{\"reply\":\"done\"}}';; \
         *) exit 0;; esac; done"
    );
    vec!["sh".into(), "-c".into(), script]
}

fn launch(argv: Vec<String>) -> ProcessAdapter {
    ProcessAdapter::launch(argv, Duration::from_millis(500)).expect("handshake")
}

fn start(adapter: &mut ProcessAdapter) -> Reply {
    adapter.start("rcip.demo.case.001", Protocol::Rcip, &json!({})).expect("start")
}

#[test]
fn the_handshake_declares_the_implementation() {
    let adapter = launch(shell_adapter("echo '{\"reply\":\"done\"}'"));
    let implementation = adapter.implementation();
    assert_eq!((implementation.name.as_str(), implementation.version.as_str()), ("sh", "1"));
    assert!(implementation.protocols.contains(&Protocol::Rcip));
    assert!(!implementation.protocols.contains(&Protocol::Rui));
    assert!(implementation.profiles.contains("events"));
}

#[test]
fn a_well_behaved_step_is_decoded() {
    let mut adapter = launch(shell_adapter("echo '{\"reply\":\"observed\",\"value\":{\"status\":\"succeeded\"}}'"));
    assert_eq!(start(&mut adapter), Reply::Done);
    let reply = adapter.step(&json!({"expect": "outcome", "of": "i1"})).unwrap();
    assert_eq!(reply, Reply::Observed(json!({"status": "succeeded"})));
}

#[test]
fn a_hang_times_out_and_the_next_case_gets_a_fresh_process() {
    let mut adapter = launch(shell_adapter("exec sleep 30"));
    assert_eq!(start(&mut adapter), Reply::Done);
    let began = Instant::now();
    let error = adapter.step(&json!({"host": "refresh"})).unwrap_err();
    assert!(error.0.contains("no response within 500 ms"), "{error}");
    assert!(began.elapsed() < Duration::from_secs(10));
    assert_eq!(start(&mut adapter), Reply::Done, "restarted for the next case");
}

#[test]
fn a_crash_is_an_error_and_its_stderr_the_case_s() {
    let mut adapter = launch(shell_adapter("echo 'boom: something broke' >&2; exit 3"));
    assert_eq!(start(&mut adapter), Reply::Done);
    let error = adapter.step(&json!({"host": "refresh"})).unwrap_err();
    assert!(error.0.contains("closed its stdout"), "{error}");
    // What it wrote before dying is the case's stderr, shown under the case (issue 27 §4).
    adapter.finish();
    assert_eq!(adapter.take_stderr().as_deref(), Some("boom: something broke"));
    assert_eq!(start(&mut adapter), Reply::Done);
}

/// A shell adapter that writes `log <n> start` to stderr before answering the n-th `start`, and
/// `log <n> step` before answering each step of that case (after `extra`).
fn logging_adapter(extra: &str) -> Vec<String> {
    let script = format!(
        "read l; echo '{HELLO}'; n=0; while read l; do case \"$l\" in \
         *'\"start\"'*) n=$((n+1)); echo \"log $n start\" >&2; echo '{{\"reply\":\"done\"}}';; \
         *'\"step\"'*) {extra} echo \"log $n step\" >&2; echo '{{\"reply\":\"done\"}}';; \
         *'\"finish\"'*) echo '{{\"reply\":\"done\"}}';; \
         *) exit 0;; esac; done"
    );
    vec!["sh".into(), "-c".into(), script]
}

#[test]
fn each_case_gets_the_stderr_written_while_it_ran_on_a_reused_process() {
    let mut adapter = launch(logging_adapter(""));
    for case in 1..=3 {
        assert_eq!(start(&mut adapter), Reply::Done);
        for _ in 0..3 {
            assert_eq!(adapter.step(&json!({"host": "refresh"})).unwrap(), Reply::Done);
        }
        adapter.finish();
        let expected = format!("log {case} start\nlog {case} step\nlog {case} step\nlog {case} step");
        assert_eq!(adapter.take_stderr().as_deref(), Some(expected.as_str()), "{case}");
    }
    // Nothing written since: nothing to take.
    assert_eq!(adapter.take_stderr(), None);
}

#[test]
fn stderr_written_between_cases_goes_to_the_next_case_marked_as_such() {
    // Writes a line 100 ms after answering `finish` (a late, asynchronous log).
    let script = format!(
        "read l; echo 'early words' >&2; echo '{HELLO}'; while read l; do case \"$l\" in \
         *'\"start\"'*) echo '{{\"reply\":\"done\"}}';; \
         *'\"step\"'*) echo 'in the case' >&2; echo '{{\"reply\":\"done\"}}';; \
         *'\"finish\"'*) echo '{{\"reply\":\"done\"}}'; (sleep 0.1; echo 'after the reply' >&2) & ;; \
         *) exit 0;; esac; done"
    );
    let mut adapter = launch(vec!["sh".into(), "-c".into(), script]);
    assert_eq!(start(&mut adapter), Reply::Done);
    adapter.step(&json!({"host": "refresh"})).unwrap();
    adapter.finish();
    let first = adapter.take_stderr().unwrap();
    assert!(first.starts_with("early words\n[harness] the lines above were written before this case started\n"), "{first}");
    assert!(first.ends_with("in the case"), "{first}");
    // Long enough for the adapter's late line (written 100 ms after its reply) to arrive even on a
    // loaded machine, so that it is there when the next case starts.
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(start(&mut adapter), Reply::Done);
    adapter.step(&json!({"host": "refresh"})).unwrap();
    adapter.finish();
    let second = adapter.take_stderr().unwrap();
    assert!(second.starts_with("after the reply\n[harness] the lines above"), "{second}");
}

#[test]
fn an_adapter_that_writes_much_to_stderr_never_blocks_and_the_end_is_kept() {
    // 2 MiB of stderr per step, far more than a pipe holds: the harness reads it while waiting.
    let mut adapter = launch(logging_adapter("head -c 2097152 /dev/zero | tr '\\0' x >&2; echo ' the end' >&2;"));
    assert_eq!(start(&mut adapter), Reply::Done);
    assert_eq!(adapter.step(&json!({"host": "refresh"})).unwrap(), Reply::Done);
    adapter.finish();
    let kept = adapter.take_stderr().unwrap();
    assert!(kept.ends_with("xxx the end\nlog 1 step") && kept.contains(")\n…xxx"), "{}", &kept[kept.len().saturating_sub(80)..]);
    assert!(kept.starts_with("(the last 2 lines of "), "{}", &kept[..80]);
    assert!(kept.len() <= harness::quote::TAIL_BYTES + 64, "{}", kept.len());
}

#[test]
fn malformed_and_out_of_shape_replies_are_errors() {
    for (answer, expected) in [
        ("echo 'not json'", "not JSON"),
        ("echo '{\"reply\":\"done\",\"extra\":1}'", "unexpected member"),
        ("echo '{\"reply\":\"maybe\"}'", "unknown reply kind"),
        ("echo '{\"reply\":\"error\",\"message\":\"cannot do it\"}'", "adapter error: cannot do it"),
    ] {
        let mut adapter = launch(shell_adapter(answer));
        assert_eq!(start(&mut adapter), Reply::Done);
        let error = adapter.step(&json!({"host": "refresh"})).unwrap_err();
        assert!(error.0.contains(expected), "{answer}: {error}");
    }
}

#[test]
fn a_wrong_handshake_is_refused() {
    let wrong = HELLO.replace("rcip-rui-driver/1", "rcip-rui-driver/9");
    let argv = vec!["sh".into(), "-c".into(), format!("read l; echo '{wrong}'; sleep 5")];
    let error = ProcessAdapter::launch(argv, Duration::from_millis(500)).err().unwrap();
    assert!(error.contains("rcip-rui-driver/9"), "{error}");
    let error = ProcessAdapter::launch(vec!["/nonexistent/adapter".into()], Duration::from_millis(500)).err().unwrap();
    assert!(error.contains("cannot start adapter"), "{error}");
}

#[test]
fn the_reference_driver_answers_the_handshake() {
    let adapter = launch(vec![env!("CARGO_BIN_EXE_reference-driver").into()]);
    assert_eq!(adapter.implementation().name, "reference");
    assert!(adapter.implementation().protocols.contains(&Protocol::Rcip));
}

#[test]
fn an_answer_out_of_turn_is_an_error() {
    // Answers every step twice: the second answer arrives with no request pending.
    let mut adapter = launch(shell_adapter("echo '{\"reply\":\"done\"}'; echo '{\"reply\":\"done\"}'"));
    assert_eq!(start(&mut adapter), Reply::Done);
    assert_eq!(adapter.step(&json!({"host": "refresh"})).unwrap(), Reply::Done);
    std::thread::sleep(Duration::from_millis(100));
    let error = adapter.step(&json!({"host": "refresh"})).unwrap_err();
    assert!(error.0.contains("out of turn"), "{error}");
}

#[test]
fn a_huge_response_line_is_refused_without_reading_it_all() {
    // 20 MiB without a newline: more than the 16 MiB bound. A step deadline of 30 s, not the
    // 500 ms of the other tests: on a loaded machine writing 20 MiB can take longer than that,
    // and the refusal, not the deadline, is what this test is about.
    let mut adapter = ProcessAdapter::launch(
        shell_adapter("head -c 20971520 /dev/zero | tr '\\0' 'x'; echo"),
        Duration::from_secs(30),
    )
    .expect("handshake");
    assert_eq!(start(&mut adapter), Reply::Done);
    let error = adapter.step(&json!({"host": "refresh"})).unwrap_err();
    assert!(error.0.contains("longer than"), "{error}");
}

/// Whether process `pid` still exists (a zombie counts as gone: it runs nothing).
fn alive(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|stat| !stat.split(") ").nth(1).unwrap_or("").starts_with('Z'))
        .unwrap_or(false)
}

fn wait_gone(pid: &str) -> bool {
    for _ in 0..100 {
        if !alive(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn a_request_to_an_adapter_that_stopped_reading_has_a_deadline() {
    // Answers `start`, then never reads again: a 1 MiB step cannot fit in the pipe.
    let argv = vec![
        "sh".into(),
        "-c".into(),
        format!("read l; echo '{HELLO}'; read l; echo '{{\"reply\":\"done\"}}'; exec sleep 30"),
    ];
    let mut adapter = launch(argv);
    assert_eq!(start(&mut adapter), Reply::Done);
    let began = Instant::now();
    let big = "x".repeat(1 << 20);
    let error = adapter.step(&json!({"host": "set-context", "context": big})).unwrap_err();
    assert!(error.0.contains("did not read its request within 500 ms"), "{error}");
    assert!(adapter.timed_out(), "a write deadline is a timeout");
    assert!(began.elapsed() < Duration::from_secs(5));
}

#[test]
fn the_adapter_process_group_ends_on_timeout_and_at_the_end() {
    let pids = std::env::temp_dir().join(format!("harness-group-{}", std::process::id()));
    let _ = std::fs::remove_file(&pids);
    // Every step starts a background grandchild (recording its pid), then hangs.
    let on_step = format!("sleep 300 & echo $! >> '{}'; exec sleep 30", pids.display());
    let mut adapter = launch(shell_adapter(&on_step));
    assert_eq!(start(&mut adapter), Reply::Done);
    let error = adapter.step(&json!({"host": "refresh"})).unwrap_err();
    assert!(error.0.contains("no response"), "{error}");
    assert!(adapter.timed_out());
    let first = std::fs::read_to_string(&pids).unwrap();
    let first = first.trim().to_string();
    assert!(wait_gone(&first), "grandchild {first} outlived the timeout");

    // The next case runs in a fresh process; dropping the adapter (the end of a run) ends its group.
    let quiet = shell_adapter(&format!("sleep 300 & echo $! >> '{}'; echo '{{\"reply\":\"done\"}}'", pids.display()));
    let mut adapter = launch(quiet);
    assert_eq!(start(&mut adapter), Reply::Done);
    assert_eq!(adapter.step(&json!({"host": "refresh"})).unwrap(), Reply::Done);
    assert!(!adapter.timed_out());
    drop(adapter);
    let all = std::fs::read_to_string(&pids).unwrap();
    let second = all.lines().last().unwrap().trim().to_string();
    assert_ne!(second, first);
    assert!(wait_gone(&second), "grandchild {second} outlived the run");
    let _ = std::fs::remove_file(&pids);
}

#[test]
fn a_reply_that_is_not_utf8_is_a_protocol_violation() {
    let mut adapter = launch(shell_adapter(r#"printf '{"reply":"observed","value":"\377"}\n'"#));
    assert_eq!(start(&mut adapter), Reply::Done);
    let error = adapter.step(&json!({"expect": "snapshot"})).unwrap_err();
    assert!(error.0.contains("not valid UTF-8"), "{error}");
    assert!(!adapter.timed_out());
}

#[test]
fn the_reference_driver_answers_a_request_that_is_not_utf8_with_an_error() {
    use std::io::{BufRead, BufReader, Write};
    let mut driver = std::process::Command::new(env!("CARGO_BIN_EXE_reference-driver"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = driver.stdin.take().unwrap();
    stdin.write_all(b"{\"cmd\":\"hello\",\"protocol\":\"\xff\"}\n").unwrap();
    stdin.write_all(b"{\"cmd\":\"hello\",\"protocol\":\"rcip-rui-driver/1\"}\n").unwrap();
    drop(stdin);
    let mut lines = BufReader::new(driver.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    assert!(first.contains("\"reply\":\"error\"") && first.contains("not valid UTF-8"), "{first}");
    let second = lines.next().unwrap().unwrap();
    assert!(second.contains("\"reply\":\"hello\""), "the driver goes on: {second}");
    let _ = driver.wait();
}

#[test]
fn the_reference_driver_skips_a_step_marked_if_done_after_an_answer_other_than_done() {
    // harness/driver/README.md, "Conditional requests".
    use std::io::{BufRead, BufReader, Write};
    let mut driver = std::process::Command::new(env!("CARGO_BIN_EXE_reference-driver"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let message = |index: usize, text: &str, if_done: bool| {
        let mut request = json!({"cmd": "step", "index": index, "step": {"feed": "message", "data": {"text": text}}});
        if if_done {
            request["ifDone"] = json!(true);
        }
        request
    };
    let requests = [
        json!({"cmd": "hello", "protocol": "rcip-rui-driver/1"}),
        json!({"cmd": "start", "case": "rui.t.001", "protocol": "rui", "setup": {"framing": "websocket", "catalog": {"id": "c@1.0.0", "components": {}}}}),
        // A byte stream in a WebSocket case: the driver's `error`, so the two after it are skipped.
        json!({"cmd": "step", "index": 0, "step": {"feed": "bytes", "data": {"text": "x"}}}),
        message(1, r#"["begin",0,"t1",0]"#, true),
        message(2, "[]", true),
        message(3, r#"["begin",0,"t1",0]"#, false),
        message(4, r#"["commit",1,0,null]"#, true),
        json!({"cmd": "step", "index": 5, "step": {"expect": "frames"}}),
    ];
    let mut stdin = driver.stdin.take().unwrap();
    for request in &requests {
        writeln!(stdin, "{request}").unwrap();
    }
    drop(stdin);
    let answers: Vec<String> = BufReader::new(driver.stdout.take().unwrap()).lines().map(Result::unwrap).collect();
    let _ = driver.wait();
    assert!(answers[0].contains("\"conditionalRequests\":true"), "declared in the handshake: {}", answers[0]);
    assert!(answers[2].contains("\"reply\":\"error\""), "{answers:?}");
    assert_eq!(&answers[3..7], [r#"{"reply":"skipped"}"#, r#"{"reply":"skipped"}"#, r#"{"reply":"done"}"#, r#"{"reply":"done"}"#]);
    // Only the two messages performed reached the consumer.
    assert_eq!(answers[7], r#"{"reply":"observed","value":[{"frame":0,"result":"accepted"},{"frame":1,"result":"accepted"}]}"#);
}

#[test]
fn an_adapter_that_writes_to_stderr_without_end_still_times_out() {
    // Never answers the step, and keeps stderr always readable.
    let mut adapter = launch(shell_adapter("yes 'noise' >&2"));
    assert_eq!(start(&mut adapter), Reply::Done);
    let began = Instant::now();
    let error = adapter.step(&json!({"host": "refresh"})).unwrap_err();
    assert!(error.0.contains("no response within 500 ms"), "{error}");
    assert!(began.elapsed() < Duration::from_secs(10), "{:?}", began.elapsed());
    adapter.finish();
    // The kept tail holds the adapter's words; where `yes` was cut off when the harness stopped
    // reading (mid-line or not) depends on scheduling, so only their presence is asserted.
    assert!(adapter.take_stderr().is_some_and(|kept| kept.contains("noise")));
    assert_eq!(start(&mut adapter), Reply::Done, "restarted for the next case");
}
