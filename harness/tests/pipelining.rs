//! Pipelining (`harness/driver/README.md`, "Pipelining", issue 29 §1) against misbehaving
//! adapters: a hang or a crash in the middle of a case, an `unsupported` answer with steps already
//! sent after it, a `start` answered `unsupported`, a broken or hanging `finish`, and requests
//! larger than the pipe. Each scenario runs two cases through the runner on one process adapter,
//! once sending one request at a time and once pipelined, and must give the same verdicts,
//! reasons (the step in flight, the adapter's stderr), differences and process restarts.

mod common;

use std::time::Duration;

use harness::adapter::Protocol;
use harness::adapters::process::{Pipelining, ProcessAdapter};
use harness::loader::Case;
use harness::runner::run_case;
use serde_json::{json, Value};

const HELLO: &str = r#"{"reply":"hello","protocol":"rcip-rui-driver/1","implementation":{"name":"sh","version":"1"},"protocols":["rcip"],"profiles":["events"],"limits":null,"assistBatchBound":null,"pipelining":true}"#;

const DONE: &str = r#"echo '{"reply":"done"}'"#;

/// A shell adapter declaring pipelining. It appends a line to `launches` when it starts; `$p` is
/// the number of processes started before it, `$c` the number of the case within the process
/// (from 1) and `$n` that of the step within the case (from 1), so `[ $p$c = 01 ]` holds in the
/// first case of the first process only. Each hook is shell code that answers (or not).
struct Script<'a> {
    on_start: &'a str,
    on_step: &'a str,
    on_finish: &'a str,
}

const NORMAL_STEP: &str = r#"case "$l" in *'"expect"'*) echo '{"reply":"observed","value":{"status":"succeeded"}}';; *) echo '{"reply":"done"}';; esac"#;

/// The same, declaring `caseMarks` too and writing the mark for each `start` to its stderr
/// before the hook runs ("Sending cases ahead").
const HELLO_MARKS: &str = r#"{"reply":"hello","protocol":"rcip-rui-driver/1","implementation":{"name":"sh","version":"1"},"protocols":["rcip"],"profiles":["events"],"limits":null,"assistBatchBound":null,"pipelining":true,"caseMarks":true}"#;

const MARK: &str = r#"printf '\036rcip-rui-driver start %s\n' "$(echo "$l" | sed 's/.*"case":"\([^"]*\)".*/\1/')" >&2"#;

impl Script<'_> {
    fn argv(&self, launches: &std::path::Path) -> Vec<String> {
        self.argv_for(launches, HELLO, "")
    }

    /// The adapter declaring `caseMarks` and writing them.
    fn argv_marked(&self, launches: &std::path::Path) -> Vec<String> {
        self.argv_for(launches, HELLO_MARKS, &format!("{MARK}; "))
    }

    fn argv_for(&self, launches: &std::path::Path, hello: &str, before_start: &str) -> Vec<String> {
        let script = format!(
            "p=$(cat '{0}' 2>/dev/null | wc -l); echo $$ >> '{0}'; read l; echo '{hello}'; c=0; n=0; while read l; do case \"$l\" in \
             *'\"start\"'*) c=$((c+1)); n=0; {before_start}{1};; \
             *'\"step\"'*) n=$((n+1)); {2};; \
             *'\"finish\"'*) {3};; \
             *) exit 0;; esac; done",
            launches.display(),
            self.on_start,
            self.on_step,
            self.on_finish
        );
        vec!["sh".into(), "-c".into(), script]
    }
}

fn case(id: &str, steps: Vec<Value>) -> Case {
    Case::from(common::test_case(id, Protocol::Rcip, json!({ "definition": {} }), steps))
}

/// Five actions and an expectation the shell adapter's observation does not match (so the
/// differences are compared too).
fn steps(context: &str) -> Vec<Value> {
    let mut steps: Vec<Value> = (0..5).map(|_| json!({ "host": "set-context", "context": context })).collect();
    steps.push(json!({ "expect": "outcome", "of": "i1", "is": { "status": "failed" } }));
    steps
}

/// What two cases in a row gave, and how many processes ran them.
fn run(script: &Script<'_>, pipelining: Pipelining, context: &str) -> (Vec<String>, usize) {
    let launches = std::env::temp_dir().join(format!("harness-pipelining-{}-{:?}-{}", std::process::id(), pipelining, rand_suffix()));
    let _ = std::fs::remove_file(&launches);
    let mut adapter = ProcessAdapter::launch_with(script.argv(&launches), Duration::from_millis(500), None, pipelining).expect("handshake");
    assert_eq!(adapter.pipelining(), pipelining == Pipelining::IfDeclared);
    let results: Vec<String> = ["rcip.test.one.001", "rcip.test.two.001"]
        .iter()
        .map(|id| described(&run_case(&mut adapter, &case(id, steps(context)))))
        .collect();
    drop(adapter);
    let count = std::fs::read_to_string(&launches).unwrap_or_default().lines().count();
    let _ = std::fs::remove_file(&launches);
    (results, count)
}

/// What the scenarios compare of a case's result. The adapter's stderr is the case's (`stderr`),
/// not part of the reason (issue 27 §4).
fn described(result: &harness::runner::CaseResult) -> String {
    format!(
        "{} {:?} differences {} checks {} stderr {:?}",
        result.verdict,
        result.reason,
        result.differences.len(),
        result.checks,
        result.stderr.as_deref().unwrap_or("")
    )
}

/// Distinguishes the files of the tests of this binary, which run in parallel.
fn rand_suffix() -> String {
    format!("{:?}", std::thread::current().id()).replace(|c: char| !c.is_ascii_alphanumeric(), "")
}

/// Runs the scenario both ways, requires the same outcome, and returns it.
fn same_both_ways(script: Script<'_>) -> (Vec<String>, usize) {
    let one_at_a_time = run(&script, Pipelining::Off, "x");
    let pipelined = run(&script, Pipelining::IfDeclared, "x");
    assert_eq!(one_at_a_time, pipelined, "one request at a time (left) and pipelined (right) differ");
    pipelined
}

#[test]
fn a_well_behaved_adapter_gives_the_same_results() {
    let (results, launches) = same_both_ways(Script { on_start: DONE, on_step: NORMAL_STEP, on_finish: DONE });
    assert!(results.iter().all(|r| r.starts_with("fail None differences 1")), "{results:?}");
    assert_eq!(launches, 1);
}

#[test]
fn a_hang_in_the_middle_of_a_case_names_the_step_in_flight() {
    let on_step = format!("if [ $p$c = 01 ] && [ $n -eq 3 ]; then exec sleep 30; fi; {NORMAL_STEP}");
    let (results, launches) = same_both_ways(Script { on_start: DONE, on_step: &on_step, on_finish: DONE });
    assert!(results[0].starts_with("errored Some(\"adapter failed at step 2: no response within 500 ms"), "{results:?}");
    assert!(results[1].starts_with("fail None"), "the next case runs in a fresh process: {results:?}");
    assert_eq!(launches, 2);
}

#[test]
fn a_crash_in_the_middle_of_a_case_names_the_step_and_keeps_the_stderr() {
    let on_step = format!("if [ $p$c = 01 ] && [ $n -eq 2 ]; then echo 'boom at step 2' >&2; exit 3; fi; {NORMAL_STEP}");
    let (results, launches) = same_both_ways(Script { on_start: DONE, on_step: &on_step, on_finish: DONE });
    assert!(results[0].starts_with("errored Some(\"adapter failed at step 1: the adapter closed its stdout"), "{results:?}");
    assert!(results[0].contains("boom at step 2"), "{results:?}");
    assert!(results[1].starts_with("fail None"), "{results:?}");
    assert_eq!(launches, 2);
}

#[test]
fn an_unsupported_step_ends_the_case_and_the_answers_sent_after_it_are_dropped() {
    let on_step = format!(
        "if [ $p$c = 01 ] && [ $n -eq 2 ]; then echo '{{\"reply\":\"unsupported\",\"reason\":\"no such thing\"}}'; else {NORMAL_STEP}; fi"
    );
    let (results, launches) = same_both_ways(Script { on_start: DONE, on_step: &on_step, on_finish: DONE });
    assert!(results[0].starts_with("unsupported Some(\"step 1: no such thing\")"), "{results:?}");
    assert!(results[1].starts_with("fail None"), "the same process goes on: {results:?}");
    assert_eq!(launches, 1);
}

#[test]
fn a_start_answered_unsupported_or_threw_ends_the_case_before_its_steps() {
    for answer in [r#"{"reply":"unsupported","reason":"no setup like this"}"#, r#"{"reply":"threw"}"#] {
        // Steps of a case whose runtime was not built are answered `error`, as an adapter would.
        let on_start = format!("if [ $p$c = 01 ]; then echo '{answer}'; else {DONE}; fi");
        let on_step = format!(
            "if [ $p$c = 01 ]; then echo '{{\"reply\":\"error\",\"message\":\"no case is running\"}}'; else {NORMAL_STEP}; fi"
        );
        let (results, launches) = same_both_ways(Script { on_start: &on_start, on_step: &on_step, on_finish: DONE });
        assert!(!results[0].starts_with("errored"), "{results:?}");
        assert!(results[1].starts_with("fail None"), "{results:?}");
        assert_eq!(launches, 1);
    }
}

#[test]
fn a_broken_or_hanging_finish_costs_a_restart_and_nothing_else() {
    for on_finish in ["if [ $p$c = 01 ]; then echo 'not json'; else echo '{\"reply\":\"done\"}'; fi", "if [ $p$c = 01 ]; then exec sleep 30; fi; echo '{\"reply\":\"done\"}'"] {
        let (results, launches) = same_both_ways(Script { on_start: DONE, on_step: NORMAL_STEP, on_finish });
        assert!(results.iter().all(|r| r.starts_with("fail None differences 1")), "{on_finish}: {results:?}");
        assert_eq!(launches, 2, "{on_finish}");
    }
}

#[test]
fn requests_larger_than_the_pipe_are_written_while_answers_are_read() {
    // Six requests of 40 KiB each: more than a pipe holds, sent ahead at once.
    let script = Script { on_start: DONE, on_step: NORMAL_STEP, on_finish: DONE };
    let context = "x".repeat(40 << 10);
    let one_at_a_time = run(&script, Pipelining::Off, &context);
    let pipelined = run(&script, Pipelining::IfDeclared, &context);
    assert_eq!(one_at_a_time, pipelined);
    assert!(pipelined.0.iter().all(|r| r.starts_with("fail None differences 1")), "{pipelined:?}");
}

/// What three cases gave through a session (`session::run_cases`, which announces cases ahead to
/// an adapter that takes them), and how many processes ran them. `marked`: the adapter declares
/// and writes case marks.
fn run_session(script: &Script<'_>, pipelining: Pipelining, marked: bool) -> (Vec<String>, usize) {
    let launches = std::env::temp_dir().join(format!("harness-ahead-{}-{:?}-{}", std::process::id(), pipelining, rand_suffix()));
    let _ = std::fs::remove_file(&launches);
    let argv = if marked { script.argv_marked(&launches) } else { script.argv(&launches) };
    let cases: Vec<Case> = ["rcip.test.one.001", "rcip.test.two.001", "rcip.test.three.001"].iter().map(|id| case(id, steps("x"))).collect();
    let results = session_results(&cases, &argv, pipelining, Duration::from_millis(500), |adapter| {
        assert_eq!(adapter.cases_ahead(), marked && pipelining == Pipelining::IfDeclared);
    });
    let count = std::fs::read_to_string(&launches).unwrap_or_default().lines().count();
    let _ = std::fs::remove_file(&launches);
    (results, count)
}

/// What `cases` gave through a session on the adapter `argv` (`check` looks at each adapter
/// launched).
fn session_results(cases: &[Case], argv: &[String], pipelining: Pipelining, timeout: Duration, check: impl Fn(&ProcessAdapter) + Sync) -> Vec<String> {
    let selected: Vec<&Case> = cases.iter().collect();
    let factory = || -> Result<Box<dyn harness::adapter::Adapter>, String> {
        let adapter = ProcessAdapter::launch_with(argv.to_vec(), timeout, None, pipelining)?;
        check(&adapter);
        Ok(Box::new(adapter))
    };
    let session = harness::session::run_cases(&selected, 1, 0, &factory, &|_| None, &|_, _| {}).expect("session");
    session.results.iter().map(described).collect()
}

/// Runs the three cases one request at a time and with whole cases sent ahead (the adapter
/// declaring marks both times), requires the same outcome, and returns it.
fn same_sent_ahead(script: Script<'_>) -> (Vec<String>, usize) {
    let one_at_a_time = run_session(&script, Pipelining::Off, true);
    let ahead = run_session(&script, Pipelining::IfDeclared, true);
    assert_eq!(one_at_a_time, ahead, "one request at a time (left) and cases sent ahead (right) differ");
    ahead
}

/// Stderr at every point of a case: at its start, at each step, at its finish.
const LOUD_START: &str = r#"echo "start $p$c" >&2; echo '{"reply":"done"}'"#;
/// The finish writes late (after a pause), so that only an attribution by marks and by the
/// `finish` answer, not by arrival, gives it to its own case.
const LOUD_FINISH: &str = r#"sleep 0.2; echo "finish $p$c" >&2; echo '{"reply":"done"}'"#;

#[test]
fn cases_sent_ahead_keep_each_case_s_stderr_its_own() {
    let on_step = format!(r#"echo "step $p$c.$n" >&2; {NORMAL_STEP}"#);
    let (results, launches) = same_sent_ahead(Script { on_start: LOUD_START, on_step: &on_step, on_finish: LOUD_FINISH });
    assert_eq!(launches, 1);
    for (i, result) in results.iter().enumerate() {
        let c = i + 1;
        assert!(result.starts_with("fail None differences 1"), "{results:?}");
        // What the case wrote at its finish is its own, not the next case's.
        let own = format!("start 0{c}\\nstep 0{c}.1\\nstep 0{c}.2\\nstep 0{c}.3\\nstep 0{c}.4\\nstep 0{c}.5\\nstep 0{c}.6\\nfinish 0{c}\"");
        assert!(result.ends_with(&format!("stderr \"{own}")), "case {c}: {result}");
        assert!(!result.contains("rcip-rui-driver start"), "marks are not shown: {result}");
    }
}

#[test]
fn a_crash_with_cases_sent_ahead_sends_them_again_to_a_fresh_process() {
    let on_step = format!("if [ $p$c = 01 ] && [ $n -eq 2 ]; then echo 'boom at step 2' >&2; exit 3; fi; {NORMAL_STEP}");
    let (results, launches) = same_sent_ahead(Script { on_start: DONE, on_step: &on_step, on_finish: DONE });
    assert!(results[0].starts_with("errored Some(\"adapter failed at step 1: the adapter closed its stdout"), "{results:?}");
    assert!(results[0].contains("boom at step 2"), "{results:?}");
    assert!(results[1..].iter().all(|r| r.starts_with("fail None differences 1")), "{results:?}");
    assert_eq!(launches, 2);
}

#[test]
fn a_hang_with_cases_sent_ahead_names_the_step_in_flight() {
    let on_step = format!("if [ $p$c = 01 ] && [ $n -eq 3 ]; then exec sleep 30; fi; {NORMAL_STEP}");
    let (results, launches) = same_sent_ahead(Script { on_start: DONE, on_step: &on_step, on_finish: DONE });
    assert!(results[0].starts_with("errored Some(\"adapter failed at step 2: no response within 500 ms"), "{results:?}");
    assert!(results[1..].iter().all(|r| r.starts_with("fail None differences 1")), "{results:?}");
    assert_eq!(launches, 2);
}

#[test]
fn a_broken_finish_with_cases_sent_ahead_costs_a_restart_and_nothing_else() {
    for on_finish in ["if [ $p$c = 02 ]; then echo 'not json'; else echo '{\"reply\":\"done\"}'; fi", "if [ $p$c = 02 ]; then exec sleep 30; fi; echo '{\"reply\":\"done\"}'"] {
        let (results, launches) = same_sent_ahead(Script { on_start: DONE, on_step: NORMAL_STEP, on_finish });
        assert!(results.iter().all(|r| r.starts_with("fail None differences 1")), "{on_finish}: {results:?}");
        assert_eq!(launches, 2, "{on_finish}");
    }
}

#[test]
fn an_unsupported_step_with_cases_sent_ahead_drops_the_answers_after_it() {
    let on_step = format!(
        "if [ $p$c = 01 ] && [ $n -eq 2 ]; then echo '{{\"reply\":\"unsupported\",\"reason\":\"no such thing\"}}'; else {NORMAL_STEP}; fi"
    );
    let (results, launches) = same_sent_ahead(Script { on_start: DONE, on_step: &on_step, on_finish: DONE });
    assert!(results[0].starts_with("unsupported Some(\"step 1: no such thing\")"), "{results:?}");
    assert!(results[1..].iter().all(|r| r.starts_with("fail None differences 1")), "{results:?}");
    assert_eq!(launches, 1);
}

#[test]
fn without_marks_cases_are_not_sent_ahead() {
    let script = Script { on_start: LOUD_START, on_step: NORMAL_STEP, on_finish: LOUD_FINISH };
    let (results, launches) = run_session(&script, Pipelining::IfDeclared, false);
    assert_eq!(launches, 1);
    assert!(results.iter().all(|r| r.starts_with("fail None differences 1")), "{results:?}");
}

/// A framing-neutral Rixx UI case whose `feed: records` step goes as three WebSocket messages,
/// the second and third of which depend on the answer before them ("Conditional requests").
fn websocket_case(id: &str) -> Case {
    let record = |text: &str| json!({ "payload": { "text": text } });
    let steps = vec![
        json!({ "feed": "records", "frames": [record("[\"begin\",0,\"t1\",0]"), record("[\"node\",1,\"r\",\"Stack\",{},[]]"), record("[\"commit\",2,1,\"r\"]")] }),
        json!({ "feed": "end" }),
    ];
    Case::from(common::test_case(id, Protocol::Rui, json!({ "catalog": { "id": "cards@1.0.0", "components": {} } }), steps))
}

/// Three such cases through a session, with a shell adapter declaring `conditionalRequests`
/// (when `conditional`) that answers `threw` to the first message of each case. `honest`: it
/// skips a step sent with `ifDone` after an answer other than `done`, as the mode requires;
/// otherwise it performs it anyway. Returns the results, and each message the adapter performed
/// (`case.message` lines).
fn run_conditional(pipelining: Pipelining, conditional: bool, honest: bool) -> (Vec<String>, Vec<String>) {
    let performed = std::env::temp_dir().join(format!("harness-conditional-{}-{pipelining:?}-{conditional}-{honest}-{}", std::process::id(), rand_suffix()));
    let _ = std::fs::remove_file(&performed);
    let declared = if conditional { r#","conditionalRequests":true"# } else { "" };
    let hello = format!(
        r#"{{"reply":"hello","protocol":"rcip-rui-driver/1","implementation":{{"name":"sh","version":"1"}},"protocols":["rui"],"profiles":["websocket"],"limits":null,"assistBatchBound":null,"pipelining":true,"caseMarks":true{declared}}}"#
    );
    let skip = if honest { r#"case "$l" in *'"ifDone":true'*) [ "$last" = done ] || { echo '{"reply":"skipped"}'; last=skipped; continue; };; esac;"# } else { "" };
    let script = format!(
        "read l; echo '{hello}'; c=0; last=; while read l; do case \"$l\" in \
         *'\"start\"'*) c=$((c+1)); m=0; {MARK}; echo '{{\"reply\":\"done\"}}'; last=done;; \
         *'\"step\"'*) {skip} case \"$l\" in *'\"message\"'*) m=$((m+1)); echo \"$c.$m\" >> '{0}'; if [ $m -eq 1 ]; then echo '{{\"reply\":\"threw\"}}'; last=threw; else echo '{{\"reply\":\"done\"}}'; last=done; fi;; \
           *) echo '{{\"reply\":\"done\"}}'; last=done;; esac;; \
         *'\"finish\"'*) echo '{{\"reply\":\"done\"}}'; last=done;; \
         *) exit 0;; esac; done",
        performed.display()
    );
    let argv = vec!["sh".to_string(), "-c".to_string(), script];
    let cases: Vec<Case> = ["rui.test.one.001", "rui.test.two.001", "rui.test.three.001"].iter().map(|id| websocket_case(id)).collect();
    let results = session_results(&cases, &argv, pipelining, Duration::from_millis(2000), |_| {});
    let messages = std::fs::read_to_string(&performed).unwrap_or_default().lines().map(str::to_string).collect();
    let _ = std::fs::remove_file(&performed);
    (results, messages)
}

#[test]
fn conditional_steps_sent_ahead_are_skipped_after_an_answer_other_than_done() {
    let one_at_a_time = run_conditional(Pipelining::Off, true, true);
    // One at a time, the second and third messages never go: the first was answered `threw`.
    assert_eq!(one_at_a_time.1, ["1.1", "2.1", "3.1"], "{one_at_a_time:?}");
    assert!(one_at_a_time.0.iter().all(|r| r.starts_with("fail")), "{one_at_a_time:?}");
    // Sent ahead with `ifDone`, they go and are skipped: the same results, the same messages
    // performed; and without `conditionalRequests` they wait for the answer as before.
    assert_eq!(run_conditional(Pipelining::IfDeclared, true, true), one_at_a_time, "sent ahead with ifDone");
    assert_eq!(run_conditional(Pipelining::IfDeclared, false, true), one_at_a_time, "without conditionalRequests");
}

#[test]
fn a_conditional_step_performed_instead_of_skipped_breaks_the_case() {
    let (results, messages) = run_conditional(Pipelining::IfDeclared, true, false);
    // The adapter performed messages it had to skip: the harness cannot judge what followed.
    assert!(messages.contains(&"1.2".to_string()), "{messages:?}");
    for result in &results {
        assert!(result.starts_with("errored") && result.contains("instead of skipped"), "{results:?}");
    }
}
