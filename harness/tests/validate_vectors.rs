//! `conformance validate` against the suite's own Rixx UI vectors (issue 15 §3, "Done when"): it
//! accepts every valid stream the vectors contain and rejects every invalid one with the codes the
//! vector expects, in every framing, from a file and from a live local endpoint.
//!
//! Which cases give a stream (`stream_case`): the framing-neutral ones (no `setup.framing`,
//! harness/src/framing.rs) whose setup is only a catalog and limits (an `actionPolicy` is
//! allowed, nothing dispatches), whose actions are only `feed: records` steps followed by one
//! `feed: end` as the last action (what a producer writes, to its end), and which expect at least
//! one thing the stream alone decides: `transactions`, `quarantine`, `rejections`, `frames` or
//! `revision` (`graph` and `data` are the consumer's snapshot, which `validate` does not print,
//! so they are not checked here). Left out: configuration errors (`setup.creation`), cases whose
//! consumer dispatches actions, streams that go on after an end (a reconnect), streams the vector
//! never ends, and the framing-specific sections (their bytes are one framing's only).
//!
//! The stream of a case is the frames of its `feed: records` steps, each step framed as the runner
//! frames it (`framing::requests_for`). Per case and framing:
//! 1. step by step through the `Validator` (what the command runs), every expectation of a kind
//!    above is matched at its place with the runner's own matcher against the observation built
//!    from what the validator reported (`Trail`): it must match, so each code the vector expects
//!    is the code `validate` reports, at the frame or transaction the vector says;
//! 2. the whole stream written to a file (websocket: the message file form) and read back as
//!    `conformance validate FILE` does: the same violations and summary as step 1, exit 0 for a
//!    stream whose expectations have no rejection, quarantine or refused record, 1 otherwise;
//! 3. (sse and websocket) served by a local endpoint and followed with `--url`: the same
//!    violations and summary again. Every case is served (about 2 × 270 connections, a few
//!    seconds in debug).
//!
//! The counts are pinned from below (`AT_LEAST_*`): fewer qualifying cases than today, or no
//! valid or no invalid stream, is an error, never a silent pass.

mod servers;

use std::collections::BTreeMap;
use std::sync::Arc;

use harness::framing::{requests_for, FRAMINGS};
use harness::loader::{Case, Vectors};
use harness::matching::match_value;
use harness::validate::{generate, live, read_messages, read_stream, runtime, Stop, Summary, Validator, Violation};
use serde_json::{json, Value};

/// Qualifying cases today: 274 framing-neutral cases end their stream with `feed: end` and use
/// only feeds; all of them expect something the stream decides.
const AT_LEAST_CASES: usize = 270;
const AT_LEAST_VALID: usize = 40;
const AT_LEAST_INVALID: usize = 200;

const CHECKED: [&str; 5] = ["transactions", "quarantine", "rejections", "frames", "revision"];

/// A case's stream: its setup (catalog, limits) and, per framing, what the producer sends.
struct StreamCase {
    id: String,
    catalog: Value,
    limits: Option<Value>,
    steps: Vec<Value>,
}

fn stream_case(case: &Case) -> Option<StreamCase> {
    if !harness::framing::is_neutral(case) {
        return None;
    }
    let (setup, steps) = case.body();
    let setup = setup.as_object()?;
    if setup.keys().any(|k| !matches!(k.as_str(), "catalog" | "limits" | "actionPolicy")) {
        return None;
    }
    let actions: Vec<&Value> = steps.iter().filter(|s| s.get("expect").is_none()).collect();
    let (last, before) = actions.split_last()?;
    if last.get("feed").and_then(Value::as_str) != Some("end")
        || before.iter().any(|s| s.get("feed").and_then(Value::as_str) != Some("records"))
    {
        return None;
    }
    let checked = steps.iter().any(|s| s.get("expect").and_then(Value::as_str).is_some_and(|k| CHECKED.contains(&k)));
    checked.then(|| StreamCase {
        id: case.id.clone(),
        catalog: setup["catalog"].clone(),
        limits: setup.get("limits").cloned(),
        steps,
    })
}

fn bytes_of(data: &Value) -> Vec<u8> {
    harness::framing::frame_payload(&json!({ "payload": data })).expect("a feed's data")
}

/// The producer's stream in `framing`: byte chunks (one per records step), or messages.
fn produce(case: &StreamCase, framing: &str) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for step in &case.steps {
        if step.get("feed").and_then(Value::as_str) == Some("records") {
            for request in requests_for(step, framing).expect("frames") {
                out.push(bytes_of(&request["data"]));
            }
        }
    }
    out
}

fn validator(case: &StreamCase, framing: &str) -> Validator {
    Validator::new(runtime(framing, &case.catalog, case.limits.as_ref()).unwrap_or_else(|e| panic!("{}: {e:?}", case.id)))
}

/// The observation of `kind` (vectors/README.md, Rixx UI expectations) from what the validator
/// reported so far.
fn observe(kind: &str, v: &Validator) -> Value {
    let trail = v.trail().expect("kept");
    match kind {
        "transactions" => json!(trail.transactions),
        "quarantine" => json!(trail.quarantine),
        "rejections" => json!(trail.rejections),
        "revision" => json!(v.revision()),
        "frames" => {
            let mut frames: BTreeMap<u64, Value> =
                (0..v.frames()).map(|f| (f, json!({ "frame": f, "result": "accepted" }))).collect();
            for (list, result) in [(&trail.quarantine, "quarantined"), (&trail.rejections, "rejected")] {
                for entry in list {
                    let frame = entry["frame"].as_u64().expect("a frame");
                    frames.insert(frame, json!({ "frame": frame, "result": result, "code": entry["code"] }));
                }
            }
            json!(frames.into_values().collect::<Vec<_>>())
        }
        _ => unreachable!("only checked kinds"),
    }
}

type Run = (Vec<Violation>, Summary);

/// Step 1: step by step, every checked expectation matched where it stands.
fn judge_stepwise(case: &StreamCase, framing: &str, problems: &mut Vec<String>) -> Run {
    let mut v = validator(case, framing);
    v.keep_trail();
    let mut found = Vec::new();
    for (index, step) in case.steps.iter().enumerate() {
        match (step.get("feed").and_then(Value::as_str), step.get("expect").and_then(Value::as_str)) {
            (Some("records"), _) => {
                for request in requests_for(step, framing).expect("frames") {
                    let bytes = bytes_of(&request["data"]);
                    let fed = if framing == "websocket" {
                        v.message(&bytes, &mut |x| found.push(x.clone()))
                    } else {
                        v.bytes(&bytes, &mut |x| found.push(x.clone()))
                    };
                    fed.expect("the right kind of input");
                }
            }
            (Some("end"), _) => v.end(&mut |x| found.push(x.clone())),
            (None, Some(kind)) if CHECKED.contains(&kind) => {
                let outcome = match_value(&step["is"], Some(&observe(kind, &v)));
                if !outcome.matched() {
                    problems.push(format!(
                        "{} [{framing}] step {index} ({kind}): {:?}; observed {}",
                        case.id,
                        outcome.mismatches,
                        observe(kind, &v)
                    ));
                }
            }
            _ => {}
        }
    }
    // What was reported as violations is exactly what the trail (matched above) holds as refused.
    let trail = v.trail().expect("kept");
    let mut expected: Vec<(String, Value)> = trail
        .quarantine
        .iter()
        .chain(&trail.rejections)
        .map(|e| (format!("frame {}", e["frame"]), e["code"].clone()))
        .chain(trail.transactions.iter().filter(|t| t["result"] == "rejected").map(|t| (format!("transaction {}", t["transactionId"]), t["code"].clone())))
        .collect();
    let mut reported: Vec<(String, Value)> = found
        .iter()
        .map(|x| match &x.transaction {
            Some(id) => (format!("transaction {}", json!(id)), json!(x.code)),
            None => (format!("frame {}", x.frame), json!(x.code)),
        })
        .collect();
    expected.sort_by(|a, b| (a.0.as_str(), a.1.to_string()).cmp(&(b.0.as_str(), b.1.to_string())));
    reported.sort_by(|a, b| (a.0.as_str(), a.1.to_string()).cmp(&(b.0.as_str(), b.1.to_string())));
    if expected != reported {
        problems.push(format!("{} [{framing}] reported {reported:?}, but the results were {expected:?}", case.id));
    }
    (found, v.finish(Stop::End))
}

/// Step 2: the whole stream as a file, read as `conformance validate FILE` reads it.
fn judge_file(case: &StreamCase, framing: &str, dir: &std::path::Path) -> Run {
    let path = dir.join(format!("{}.{framing}", case.id));
    let mut contents = Vec::new();
    for piece in produce(case, framing) {
        if framing == "websocket" {
            let data = match String::from_utf8(piece) {
                Ok(text) => json!({ "text": text }),
                Err(e) => json!({ "hex": e.into_bytes().iter().map(|b| format!("{b:02x}")).collect::<String>() }),
            };
            contents.extend_from_slice(data.to_string().as_bytes());
            contents.push(b'\n');
        } else {
            contents.extend_from_slice(&piece);
        }
    }
    std::fs::write(&path, contents).expect("a scratch file");
    let file = std::fs::File::open(&path).expect("written");
    let mut v = validator(case, framing);
    let mut found = Vec::new();
    let stop = if framing == "websocket" {
        read_messages(&mut v, &mut std::io::BufReader::new(file), &mut |x| found.push(x.clone()))
    } else {
        read_stream(&mut v, &mut &file, &mut |x| found.push(x.clone()))
    };
    (found, v.finish(stop))
}

/// Step 3: followed from a local endpoint.
fn judge_live(case: &StreamCase, framing: &str, url: &str) -> Run {
    let endpoint = live::Endpoint::parse(url).expect("a URL");
    assert_eq!(endpoint.framing, framing);
    let options = live::Options { max_seconds: Some(30.0), stall_seconds: 10.0 };
    let mut v = validator(case, framing);
    let mut found = Vec::new();
    let stop = live::follow(&endpoint, &options, &mut v, &mut |x| found.push(x.clone()));
    (found, v.finish(stop))
}

/// Whether the stream is valid: nothing quarantined, no record refused, no transaction rejected.
/// Read from the step-by-step run, whose results matched every expectation of the vector and
/// whose reported violations are exactly the refused results (so where the vector allows several
/// results, IMPL-DEFINED, the one the reference's default reading takes decides).
fn is_valid(run: &Run) -> bool {
    run.0.is_empty()
}

#[test]
fn validate_accepts_the_valid_streams_of_the_vectors_and_rejects_the_invalid_ones_with_their_codes() {
    let vectors = Vectors::load(&harness::bundled_vectors()).expect("the bundled vectors load");
    let cases: Vec<StreamCase> = vectors.cases.iter().filter_map(stream_case).collect();
    let dir = std::env::temp_dir().join(format!("harness-validate-vectors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();

    let streams: Arc<BTreeMap<String, BTreeMap<&'static str, Vec<Vec<u8>>>>> = Arc::new(
        cases
            .iter()
            .map(|c| (c.id.clone(), [("sse", produce(c, "sse")), ("websocket", produce(c, "websocket"))].into_iter().collect()))
            .collect(),
    );
    let served = |framing: &'static str| -> servers::Route {
        let streams = Arc::clone(&streams);
        Arc::new(move |path: &str| {
            let id = path.strip_prefix("/case/")?;
            Some(streams.get(id)?.get(framing)?.iter().cloned().map(servers::Act::Send).collect())
        })
    };
    let sse_port = servers::sse(served("sse"));
    let ws_port = servers::websocket(served("websocket"));

    let mut problems = Vec::new();
    let (mut valid, mut invalid) = (0, 0);
    for case in &cases {
        let mut verdicts = Vec::new();
        for framing in FRAMINGS {
            let stepwise = judge_stepwise(case, framing, &mut problems);
            let file = judge_file(case, framing, &dir);
            if file != stepwise {
                problems.push(format!("{} [{framing}] from a file: {file:?}, step by step: {stepwise:?}", case.id));
            }
            let expected_exit = if is_valid(&stepwise) { 0 } else { 1 };
            if file.1.exit_code() != expected_exit {
                problems.push(format!("{} [{framing}] exit {} from a file, expected {expected_exit}", case.id, file.1.exit_code()));
            }
            let url = match framing {
                "sse" => Some(format!("http://127.0.0.1:{sse_port}/case/{}", case.id)),
                "websocket" => Some(format!("ws://127.0.0.1:{ws_port}/case/{}", case.id)),
                _ => None,
            };
            if let Some(url) = url {
                let followed = judge_live(case, framing, &url);
                // Bytes differ between a file and the wire only for websocket (file form lines).
                let comparable = |run: &Run| (run.0.clone(), Summary { bytes: 0, ..run.1.clone() });
                if comparable(&followed) != comparable(&stepwise) {
                    problems.push(format!("{} [{framing}] live: {followed:?}, step by step: {stepwise:?}", case.id));
                }
            }
            verdicts.push(is_valid(&stepwise));
        }
        if verdicts.iter().all(|v| *v) {
            valid += 1;
        } else if verdicts.iter().all(|v| !*v) {
            invalid += 1;
        } else {
            problems.push(format!("{}: valid in some framings only: {verdicts:?}", case.id));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!("{} streams from the vectors ({valid} valid, {invalid} invalid), each in {} framings", cases.len(), FRAMINGS.len());
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
    assert!(cases.len() >= AT_LEAST_CASES, "only {} qualifying cases, expected at least {AT_LEAST_CASES}", cases.len());
    assert!(valid >= AT_LEAST_VALID, "only {valid} valid streams, expected at least {AT_LEAST_VALID}");
    assert!(invalid >= AT_LEAST_INVALID, "only {invalid} invalid streams, expected at least {AT_LEAST_INVALID}");
}

/// What `conformance validate` reports for `pieces` (byte chunks, or messages for websocket) fed
/// one at a time through `validator` (both consumers, as the command builds them), then ended.
fn judged(mut v: Validator, framing: &str, pieces: &[Vec<u8>]) -> Run {
    let mut found = Vec::new();
    for piece in pieces {
        let fed = if framing == "websocket" {
            v.message(piece, &mut |x| found.push(x.clone()))
        } else {
            v.bytes(piece, &mut |x| found.push(x.clone()))
        };
        fed.expect("the right kind of input");
    }
    v.end(&mut |x| found.push(x.clone()));
    v.release(&mut |x| found.push(x.clone()));
    (found, v.finish(Stop::End))
}

/// The lenient consumer reads only from where the default consumer finds something, waiting at
/// checkpoints in between (issue 29 §3): the output (violations with their kinds, strictness,
/// entries and positions; the summary and so the exit code) is exactly that of following every
/// step from the start, for the stream of every qualifying case in every framing, with a checkpoint
/// after every clean step and with none (everything replayed from the start).
#[test]
fn the_lenient_consumer_reading_only_from_a_violation_reports_what_reading_throughout_does() {
    let vectors = Vectors::load(&harness::bundled_vectors()).expect("the bundled vectors load");
    let cases: Vec<StreamCase> = vectors.cases.iter().filter_map(stream_case).collect();
    let mut problems = Vec::new();
    let mut recommended = 0;
    for case in &cases {
        for framing in FRAMINGS {
            let pieces = produce(case, framing);
            let build = || harness::validate::validator(framing, &case.catalog, case.limits.as_ref(), false).expect("a validator");
            let mut throughout = build();
            throughout.follow_lenient_throughout();
            let expected = judged(throughout, framing, &pieces);
            recommended += expected.0.iter().filter(|v| v.strictness == "RECOMMENDED").count();
            for checkpoint in [0, usize::MAX] {
                let mut lazy = build();
                lazy.checkpoint_after(checkpoint);
                let got = judged(lazy, framing, &pieces);
                if got != expected {
                    problems.push(format!("{} [{framing}, checkpoint after {checkpoint}]: {got:?}, reading throughout: {expected:?}", case.id));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
    assert!(cases.len() >= AT_LEAST_CASES, "only {} qualifying cases", cases.len());
    // The comparison covers the readings that tell the two consumers apart.
    assert!(recommended > 0, "no RECOMMENDED finding in any stream");
}

/// The same comparison on a long generated stream with faults planted at seeded places (a byte
/// changed, a line cut, a record repeated or dropped, a delete of the whole document that only
/// the lenient consumer commits), fed in chunks of several sizes: the checkpoints and replays
/// between violations leave the output unchanged.
#[test]
fn the_lenient_consumer_waiting_between_planted_faults_reports_what_reading_throughout_does() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |bound: usize| {
        // SplitMix64, seeded: the same faults every run.
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % bound as u64) as usize
    };
    let catalog = generate::catalog();
    let mut checked = 0;
    for framing in ["jsonl", "sse", "json-seq", "websocket"] {
        for round in 0..6 {
            let mut messages: Vec<Vec<u8>> = (0..400).flat_map(generate::transaction).collect();
            for _ in 0..(1 + round * 3) {
                let at = next(messages.len());
                match next(5) {
                    0 => {
                        let len = messages[at].len();
                        messages[at][next(len)] = b"x]\"{0-"[next(6)];
                    }
                    1 => {
                        let len = messages[at].len();
                        messages[at].truncate(next(len));
                    }
                    2 => {
                        let copy = messages[at].clone();
                        messages.insert(at, copy);
                    }
                    3 => {
                        messages.remove(at);
                    }
                    // Deleting the whole document: only the default reading refuses it
                    // (PRJ-RUI-DATA-06), so the consumers' revisions part from here on.
                    _ => {
                        if let Some(data) = (at..messages.len()).find(|&i| messages[i].starts_with(br#"["data",4,"#)) {
                            messages[data] = br#"["delete",4,"data",""]"#.to_vec();
                        }
                    }
                }
            }
            let pieces: Vec<Vec<u8>> = if framing == "websocket" {
                messages
            } else {
                let mut stream = Vec::new();
                for message in &messages {
                    generate::frame(framing, message, &mut stream);
                }
                if round % 2 == 1 {
                    // End inside the last frame.
                    stream.truncate(stream.len() - 1 - next(20));
                }
                let size = [1, 7, 100, 4096, 65536][round % 5];
                stream.chunks(size).map(<[u8]>::to_vec).collect()
            };
            let build = || harness::validate::validator(framing, &catalog, None, false).expect("a validator");
            let mut throughout = build();
            throughout.follow_lenient_throughout();
            let expected = judged(throughout, framing, &pieces);
            assert!(!expected.0.is_empty(), "{framing} round {round}: no violation planted");
            for checkpoint in [0, 5000, usize::MAX] {
                let mut lazy = build();
                lazy.checkpoint_after(checkpoint);
                let got = judged(lazy, framing, &pieces);
                assert_eq!(got, expected, "{framing} round {round}, checkpoint after {checkpoint}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 4 * 6 * 3);
}
