//! The driver protocol `rcip-rui-driver/1` (`harness/driver/README.md`): encoding requests and
//! decoding responses strictly, shared by the process adapter (the harness side) and the
//! reference driver executable (an adapter side).

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::adapter::{Implementation, Protocol, Reply};

pub const DRIVER_PROTOCOL: &str = "rcip-rui-driver/1";

/// How long one side of the driver protocol waits for the other's next line awake before
/// sleeping in poll(2): an in-memory implementation answers within tens of microseconds, and
/// waking a sleeping process costs more than that on small machines (the stdio benchmark halves
/// with it). Used by the process adapter and the reference driver.
pub const SPIN_BEFORE_SLEEP: std::time::Duration = std::time::Duration::from_micros(200);

/// Waits awake, at most `SPIN_BEFORE_SLEEP`, until `fd` has something to read (zero-timeout
/// polls, yielding the core between them). Returns whether it has; `false` means "go to sleep in
/// a blocking wait now", never an error.
pub fn spin_until_readable(fd: impl std::os::fd::AsFd) -> bool {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    let until = std::time::Instant::now() + SPIN_BEFORE_SLEEP;
    let zero = Timespec { tv_sec: 0, tv_nsec: 0 };
    while std::time::Instant::now() < until {
        let mut fds = [PollFd::new(&fd, PollFlags::IN)];
        match poll(&mut fds, Some(&zero)) {
            Ok(0) | Err(rustix::io::Errno::INTR) => std::thread::yield_now(),
            Ok(_) => return true,
            Err(_) => return false,
        }
    }
    false
}

/// The profiles of the driver protocol (`harness/driver/README.md`, "profiles"; the `profiles`
/// enum of `vectors/schema/case.schema.json`): the optional features and the Rixx UI framings. A
/// handshake declaring another name is refused: a misspelt `event` would otherwise turn every
/// case needing `events` into `unsupported` without a word.
pub const PROFILES: [&str; 8] = ["events", "preflight", "assist", "react", "jsonl", "sse", "websocket", "json-seq"];

/// A response line longer than this is a protocol violation.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// A request of the harness. Serialized straight from borrowed parts (a step or a setup is
/// never copied into a message tree first); the text is the same as that of the JSON object
/// `{"cmd": ..., ...members in this order}`.
#[derive(Debug, Serialize)]
#[serde(tag = "cmd", rename_all = "lowercase")]
pub enum Request<'a> {
    Hello { protocol: &'a str },
    Start { case: &'a str, protocol: &'a str, setup: &'a Value },
    Step {
        index: usize,
        step: &'a Value,
        /// "Conditional requests": performed only if the answer to the request before it was
        /// `done`, else answered `skipped`. Sent only to an adapter declaring
        /// `conditionalRequests`, and then only `true`.
        #[serde(rename = "ifDone", skip_serializing_if = "std::ops::Not::not")]
        if_done: bool,
    },
    Finish,
    Bye,
}

pub fn hello() -> Request<'static> {
    Request::Hello { protocol: DRIVER_PROTOCOL }
}

pub fn start<'a>(case: &'a str, protocol: Protocol, setup: &'a Value) -> Request<'a> {
    Request::Start { case, protocol: protocol.as_str(), setup }
}

pub fn step(index: usize, step: &Value) -> Request<'_> {
    Request::Step { index, step, if_done: false }
}

/// A step sent ahead of the answer it depends on, to an adapter declaring
/// `conditionalRequests` ("Conditional requests").
pub fn step_if_done(index: usize, step: &Value) -> Request<'_> {
    Request::Step { index, step, if_done: true }
}

pub fn finish() -> Request<'static> {
    Request::Finish
}

pub fn bye() -> Request<'static> {
    Request::Bye
}

fn exact_keys(object: &Map<String, Value>, allowed: &[&str]) -> Result<(), String> {
    match object.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(extra) => Err(format!("unexpected member {extra:?} in response")),
        None => Ok(()),
    }
}

fn string_field<'a>(object: &'a Map<String, Value>, key: &str) -> Result<&'a str, String> {
    object.get(key).and_then(Value::as_str).ok_or_else(|| format!("response member {key:?} must be a string"))
}

/// Decodes a response to `start`, `step` or `finish`. `Err(text)`: a protocol violation or the
/// adapter's own `error` reply; either way the case is `errored`.
pub fn decode_reply(line: &str) -> Result<Reply, String> {
    decode_answer(line)?.map_err(|message| format!("adapter error: {message}"))
}

/// Decodes a response to `start`, `step` or `finish`, telling the adapter's own `error` reply
/// (`Ok(Err(message))`, a well-formed answer) from a protocol violation (`Err`).
pub fn decode_answer(line: &str) -> Result<Result<Reply, String>, String> {
    let mut value: Value = serde_json::from_str(line).map_err(|e| format!("response is not JSON: {e}"))?;
    let object = value.as_object_mut().ok_or("response is not a JSON object")?;
    match string_field(object, "reply")? {
        "done" => exact_keys(object, &["reply"]).map(|_| Ok(Reply::Done)),
        "threw" => exact_keys(object, &["reply"]).map(|_| Ok(Reply::Threw)),
        "observed" => {
            exact_keys(object, &["reply", "value"])?;
            // Taken out of the parsed response, not copied: an observation can be large.
            object.remove("value").map(|v| Ok(Reply::Observed(v))).ok_or_else(|| "observed reply without value".to_string())
        }
        "unsupported" => {
            exact_keys(object, &["reply", "reason"])?;
            Ok(Ok(Reply::Unsupported(string_field(object, "reason")?.to_string())))
        }
        "error" => {
            exact_keys(object, &["reply", "message"])?;
            Ok(Err(string_field(object, "message")?.to_string()))
        }
        other => Err(format!("unknown reply kind {other:?}")),
    }
}

/// Decodes the handshake response.
pub fn decode_hello(line: &str) -> Result<Implementation, String> {
    // A repeated key is refused: `codes` could otherwise map one own name onto two codes.
    let value: Value = crate::json::parse_unique(line.as_bytes()).map_err(|e| format!("handshake response: {}", crate::json::problem(&e)))?;
    let object = value.as_object().ok_or("handshake response is not a JSON object")?;
    if let Ok("error") = string_field(object, "reply") {
        return Err(format!("adapter refused the handshake: {}", object.get("message").and_then(Value::as_str).unwrap_or("")));
    }
    exact_keys(object, &["reply", "protocol", "implementation", "protocols", "profiles", "limits", "assistBatchBound", "limitsMeasure", "codes", "pipelining", "caseMarks", "conditionalRequests"])?;
    if string_field(object, "reply")? != "hello" {
        return Err("the first response must be the hello reply".into());
    }
    let protocol = string_field(object, "protocol")?;
    if protocol != DRIVER_PROTOCOL {
        return Err(format!("adapter speaks driver protocol {protocol:?}; this harness speaks {DRIVER_PROTOCOL:?}"));
    }
    let implementation = object.get("implementation").and_then(Value::as_object).ok_or("implementation must be an object")?;
    exact_keys(implementation, &["name", "version", "language"])?;
    let strings = |key: &str| -> Result<BTreeSet<String>, String> {
        object
            .get(key)
            .and_then(Value::as_array)
            .ok_or_else(|| format!("{key} must be an array"))?
            .iter()
            .map(|v| v.as_str().map(str::to_string).ok_or_else(|| format!("{key} must hold strings")))
            .collect()
    };
    let mut protocols = BTreeSet::new();
    for name in strings("protocols")? {
        match name.as_str() {
            "rcip" => protocols.insert(Protocol::Rcip),
            "rui" => protocols.insert(Protocol::Rui),
            other => return Err(format!("unknown protocol {} in handshake", crate::quote::bounded(&format_args!("{other:?}")))),
        };
    }
    let profiles = strings("profiles")?;
    if let Some(unknown) = profiles.iter().find(|p| !PROFILES.contains(&p.as_str())) {
        let shown = crate::quote::bounded(&format_args!("{unknown:?}"));
        return Err(format!("unknown profile {shown} in handshake; the known profiles are {}", PROFILES.join(", ")));
    }
    let limits = match object.get("limits") {
        Some(Value::Null) => None,
        Some(Value::Object(l)) => Some(Value::Object(l.clone())),
        _ => return Err("limits must be an object or null".into()),
    };
    let assist_batch_bound = match object.get("assistBatchBound") {
        Some(Value::Null) => None,
        Some(v) => Some(v.as_u64().filter(|n| (1..=32).contains(n)).ok_or("assistBatchBound must be 1..32 or null")?),
        None => return Err("assistBatchBound is required".into()),
    };
    Ok(Implementation {
        name: string_field(implementation, "name")?.to_string(),
        version: string_field(implementation, "version")?.to_string(),
        protocols,
        profiles,
        rui_limits: limits,
        rui_limits_measure: decode_limits_measure(object)?,
        assist_batch_bound,
        codes: crate::codes::decode(object.get("codes"))?,
    })
}

/// The handshake member `pipelining` (`harness/driver/README.md`, "Pipelining"): whether the
/// adapter lets the harness send requests before the answers to the earlier ones have arrived.
/// Optional: an adapter that does not declare it gets one request at a time, as before.
pub const PIPELINING: &str = "pipelining";

/// Decodes the optional `pipelining` member of a handshake response `decode_hello` accepted:
/// absent, `false` or `true`; anything else is refused (a misspelt mode must not pass unseen).
pub fn decode_pipelining(line: &str) -> Result<bool, String> {
    decode_flag(line, PIPELINING)
}

/// Declares pipelining in a handshake response (adapter side; `encode_hello`'s output).
pub fn declare_pipelining(hello: &mut Value) {
    declare_flag(hello, PIPELINING);
}

/// An optional boolean member of a handshake response: absent or `false` is `false`; anything
/// but a boolean is refused.
fn decode_flag(line: &str, member: &str) -> Result<bool, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("handshake response is not JSON: {e}"))?;
    match value.get(member) {
        None | Some(Value::Bool(false)) => Ok(false),
        Some(Value::Bool(true)) => Ok(true),
        Some(_) => Err(format!("{member} must be true or false")),
    }
}

fn declare_flag(hello: &mut Value, member: &str) {
    if let Some(object) = hello.as_object_mut() {
        object.insert(member.into(), Value::Bool(true));
    }
}

/// The handshake member `caseMarks` (`harness/driver/README.md`, "Case marks"): the adapter
/// writes [`case_mark`] to its stderr when it reads each `start` request, before anything else it
/// does for that case. With it (and `pipelining`) the harness sends whole cases ahead of the
/// answers to earlier cases and still gives each case exactly what was written during it.
pub const CASE_MARKS: &str = "caseMarks";

/// The first bytes of a case mark: a record separator (ASCII 0x1E), which text an
/// implementation writes to stderr hardly ever holds, then the protocol's name.
pub const CASE_MARK_PREFIX: &[u8] = b"\x1ercip-rui-driver start ";

/// The longest case mark the harness recognises (a longer line that begins like one is the
/// implementation's own text).
pub const CASE_MARK_MAX_BYTES: usize = 1024;

/// The mark an adapter declaring `caseMarks` writes to its stderr for the `start` of case `case`:
/// [`CASE_MARK_PREFIX`], the case id, a newline.
pub fn case_mark(case: &str) -> String {
    format!("{}{case}\n", String::from_utf8_lossy(CASE_MARK_PREFIX))
}

/// Decodes the optional `caseMarks` member of a handshake response `decode_hello` accepted:
/// absent, `false` or `true`; anything else is refused.
pub fn decode_case_marks(line: &str) -> Result<bool, String> {
    decode_flag(line, CASE_MARKS)
}

/// Declares case marks in a handshake response (adapter side; `encode_hello`'s output).
pub fn declare_case_marks(hello: &mut Value) {
    declare_flag(hello, CASE_MARKS);
}

/// The handshake member `conditionalRequests` (`harness/driver/README.md`, "Conditional
/// requests"): the adapter honours `"ifDone": true` on a `step` request (it performs the step only
/// if its answer to the request before it was `done`, and otherwise answers `skipped`), so that
/// the harness may send such a step ahead of that answer.
pub const CONDITIONAL_REQUESTS: &str = "conditionalRequests";

/// Decodes the optional `conditionalRequests` member of a handshake response `decode_hello`
/// accepted: absent, `false` or `true`; anything else is refused.
pub fn decode_conditional_requests(line: &str) -> Result<bool, String> {
    decode_flag(line, CONDITIONAL_REQUESTS)
}

/// Declares conditional requests in a handshake response (adapter side).
pub fn declare_conditional_requests(hello: &mut Value) {
    declare_flag(hello, CONDITIONAL_REQUESTS);
}

/// The answer to a conditional request the adapter did not perform.
pub const SKIPPED: &str = r#"{"reply":"skipped"}"#;

/// Whether `line` is exactly the answer `skipped`: an object whose only member is
/// `"reply": "skipped"` (any other answer to a skipped request is a protocol violation).
pub fn is_skipped(line: &str) -> bool {
    serde_json::from_str::<Value>(line).is_ok_and(|value| {
        value.as_object().is_some_and(|object| object.len() == 1 && object.get("reply").and_then(Value::as_str) == Some("skipped"))
    })
}

/// The optional handshake member `limitsMeasure` (PRJ-RUI-LIMIT-14/15): absent is the default
/// measure of the vectors.
fn decode_limits_measure(object: &serde_json::Map<String, Value>) -> Result<crate::measure::LimitsMeasure, String> {
    crate::measure::LimitsMeasure::decode(object.get("limitsMeasure"))
}

/// Adds `limitsMeasure` to an encoded handshake when the measure is not the default one.
fn encode_limits_measure(hello: &mut Value, implementation: &Implementation) {
    if let (Some(object), Some(measure)) = (hello.as_object_mut(), implementation.rui_limits_measure.encode()) {
        object.insert("limitsMeasure".into(), measure);
    }
}

/// Encodes the handshake response (adapter side).
pub fn encode_hello(implementation: &Implementation) -> Value {
    let mut hello = json!({
        "reply": "hello",
        "protocol": DRIVER_PROTOCOL,
        "implementation": { "name": implementation.name, "version": implementation.version, "language": "rust" },
        "protocols": implementation.protocols.iter().map(|p| p.as_str()).collect::<Vec<_>>(),
        "profiles": implementation.profiles,
        "limits": implementation.rui_limits,
        "assistBatchBound": implementation.assist_batch_bound,
    });
    encode_limits_measure(&mut hello, implementation);
    if let (Some(codes), Some(object)) = (&implementation.codes, hello.as_object_mut()) {
        object.insert("codes".into(), codes.to_json());
    }
    hello
}

/// Encodes a reply (adapter side); `Err` becomes the `error` reply.
pub fn encode_reply(reply: Result<Reply, String>) -> Value {
    match reply {
        Ok(Reply::Done) => json!({ "reply": "done" }),
        Ok(Reply::Threw) => json!({ "reply": "threw" }),
        Ok(Reply::Observed(value)) => json!({ "reply": "observed", "value": value }),
        Ok(Reply::Unsupported(reason)) => json!({ "reply": "unsupported", "reason": reason }),
        Err(message) => json!({ "reply": "error", "message": message }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapter::Adapter;

    fn hello_with(profiles: Value) -> String {
        json!({
            "reply": "hello", "protocol": DRIVER_PROTOCOL, "implementation": {"name": "x", "version": "1"},
            "protocols": ["rcip"], "profiles": profiles, "limits": null, "assistBatchBound": null,
        })
        .to_string()
    }

    // The optional `limitsMeasure` (PRJ-RUI-LIMIT-14/15): absent is the default measure and an
    // encoded handshake leaves it out; a declared one survives the round trip; an unknown reading
    // is refused rather than run as the default.
    #[test]
    fn limits_measure_is_optional_round_trips_and_refuses_unknown_readings() {
        let plain = decode_hello(&hello_with(json!([]))).unwrap();
        assert_eq!(plain.rui_limits_measure, crate::measure::LimitsMeasure::default());
        assert!(encode_hello(&plain).get("limitsMeasure").is_none());
        let mut hello: Value = serde_json::from_str(&hello_with(json!([]))).unwrap();
        hello["limitsMeasure"] = json!({ "depth": "record", "operations": "records" });
        let declared = decode_hello(&hello.to_string()).unwrap();
        assert_eq!(encode_hello(&declared)["limitsMeasure"], json!({ "depth": "record", "operations": "records" }));
        hello["limitsMeasure"] = json!({ "depth": "tuple" });
        let error = decode_hello(&hello.to_string()).unwrap_err();
        assert!(error.contains("limitsMeasure.depth"), "{error}");
    }

    #[test]
    fn an_unknown_or_misspelt_profile_is_refused_naming_the_known_ones() {
        for wrong in ["event", "json1", "EVENTS", ""] {
            let error = decode_hello(&hello_with(json!(["sse", wrong]))).unwrap_err();
            assert!(error.contains(&format!("unknown profile {wrong:?}")), "{error}");
            assert!(error.contains("events, preflight, assist, react, jsonl, sse, websocket, json-seq"), "{error}");
        }
        let declared = decode_hello(&hello_with(json!(PROFILES))).unwrap();
        assert_eq!(declared.profiles.len(), PROFILES.len());
    }

    /// An optional handshake flag: absent or `false` is `false`, `declare` makes it `true` and
    /// the handshake still decodes, and anything but a boolean is refused.
    fn assert_optional_flag(member: &str, decode: fn(&str) -> Result<bool, String>, declare: fn(&mut Value)) {
        let mut hello: Value = serde_json::from_str(&hello_with(json!([]))).unwrap();
        assert_eq!(decode(&hello.to_string()), Ok(false), "{member} absent");
        declare(&mut hello);
        assert!(decode_hello(&hello.to_string()).is_ok(), "{member} is a known member of the handshake");
        assert_eq!(decode(&hello.to_string()), Ok(true));
        for wrong in [json!("yes"), json!(1), json!(null)] {
            hello[member] = wrong;
            assert!(decode(&hello.to_string()).is_err(), "{member}");
        }
        hello[member] = json!(false);
        assert_eq!(decode(&hello.to_string()), Ok(false));
    }

    #[test]
    fn pipelining_is_optional_and_only_a_boolean() {
        assert_optional_flag(PIPELINING, decode_pipelining, declare_pipelining);
    }

    #[test]
    fn case_marks_are_optional_and_only_a_boolean() {
        assert_optional_flag(CASE_MARKS, decode_case_marks, declare_case_marks);
        assert_eq!(case_mark("rcip.a.001"), "\u{1e}rcip-rui-driver start rcip.a.001\n");
    }

    #[test]
    fn conditional_requests_are_optional_only_a_boolean_and_mark_steps_with_if_done() {
        assert_optional_flag(CONDITIONAL_REQUESTS, decode_conditional_requests, declare_conditional_requests);
        let step = json!({"feed": "message", "data": {"text": "[]"}});
        assert_eq!(serde_json::to_string(&self::step(2, &step)).unwrap(), r#"{"cmd":"step","index":2,"step":{"feed":"message","data":{"text":"[]"}}}"#);
        assert_eq!(
            serde_json::to_string(&step_if_done(3, &step)).unwrap(),
            r#"{"cmd":"step","index":3,"step":{"feed":"message","data":{"text":"[]"}},"ifDone":true}"#
        );
        // `skipped` is exactly that object, and no answer `decode_answer` takes.
        assert!(is_skipped(SKIPPED) && is_skipped(r#" { "reply" : "skipped" } "#));
        for not in [r#"{"reply":"skipped","why":"x"}"#, r#"{"reply":"done"}"#, r#"["skipped"]"#, "skipped", ""] {
            assert!(!is_skipped(not), "{not}");
        }
        assert!(decode_answer(SKIPPED).is_err());
    }

    #[test]
    fn an_error_reply_is_a_well_formed_answer_a_malformed_one_is_not() {
        assert_eq!(decode_answer(r#"{"reply":"error","message":"m"}"#), Ok(Err("m".to_string())));
        assert_eq!(decode_reply(r#"{"reply":"error","message":"m"}"#), Err("adapter error: m".to_string()));
        assert!(decode_answer(r#"{"reply":"error"}"#).is_err());
        assert!(decode_answer("not json").is_err());
    }

    #[test]
    fn the_known_profiles_are_those_of_the_case_format_and_of_the_reference() {
        let schema: Value =
            serde_json::from_str(&std::fs::read_to_string(crate::bundled_vectors().join("schema/case.schema.json")).unwrap()).unwrap();
        let mut in_schema: Vec<&str> =
            schema["properties"]["profiles"]["items"]["enum"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
        let mut known = PROFILES.to_vec();
        in_schema.sort_unstable();
        known.sort_unstable();
        assert_eq!(in_schema, known);
        let reference = crate::adapters::reference::ReferenceAdapter::new();
        let declared: Vec<&str> = reference.implementation().profiles.iter().map(String::as_str).collect();
        assert_eq!(declared, known, "the reference declares every profile");
    }
}
