//! Reading and writing the trace formats of `conformance check-trace` (JSON Lines, schema
//! `harness/trace.schema.json`, documented in harness/README.md "Trace validation"): a header
//! line (format, clock kind, the setup), then one record per call the implementation received
//! or observation it produced, in order. An RCIP trace (`rcip-trace/1`) records a runtime's
//! calls and observations; a Rixx UI trace (`rui-trace/1`) records what a consumer received (the
//! records, or the bytes of a framing-specific stream) and its outcomes per transaction. Every
//! line is validated on load against the schema, which takes the call vocabulary and the setup
//! from the vector format's schemas (`vectors/schema/rcip.schema.json`, `rui.schema.json`), so a
//! trace speaks exactly the language of the vectors. A problem is reported with its line number
//! and JSON Pointer.

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::path::Path;

use jsonschema::{Draft, Retrieve, Uri, Validator};
use serde_json::{json, Value};

use crate::schema::SCHEMA_BASE;

/// The `format` member of an RCIP trace header.
pub const FORMAT: &str = "rcip-trace/1";
/// The `format` member of a Rixx UI trace header.
pub const RUI_FORMAT: &str = "rui-trace/1";

/// Which protocol a trace records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    Rcip,
    Rui,
}

impl Protocol {
    pub fn format(self) -> &'static str {
        match self {
            Protocol::Rcip => FORMAT,
            Protocol::Rui => RUI_FORMAT,
        }
    }
}
/// The `$id` of the trace schema.
const TRACE_SCHEMA_ID: &str = "https://conformance.rcip-rui.invalid/harness/trace.schema.json";
/// The trace schema, bundled so a trace loads without the repository at hand.
pub const TRACE_SCHEMA: &str = include_str!("../../trace.schema.json");

/// How time moves in a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clock {
    /// Only `clock: advance` calls move time (the vectors' clock).
    Virtual,
    /// Time moves with each record's `at`.
    Real,
}

#[derive(Debug, Clone)]
pub struct Header {
    pub protocol: Protocol,
    pub clock: Clock,
    pub setup: Value,
    pub case: Option<String>,
}

#[derive(Debug, Clone)]
pub enum Body {
    /// A call the implementation received (a vector step without expectation members) and
    /// whether it threw.
    Call { call: Value, threw: bool },
    /// An observation: what was asked (`{"expect": ..., ...}`) and the value seen.
    Observation { query: Value, value: Value },
}

#[derive(Debug, Clone)]
pub struct Record {
    /// 1-based line number in the trace text.
    pub line: usize,
    pub at: f64,
    pub body: Body,
    /// The line as written, for reports.
    pub raw: Value,
}

/// A loaded trace. The records are kept as the text they were written in, with where each line
/// is and its `at`: a record is parsed again when a checker reads it ([`Trace::records`],
/// [`Trace::record`]), so a trace costs its text and a few words per record, not a JSON tree per
/// record (issue 28: a 1 M-record trace held 1.6 KB a record).
#[derive(Debug, Clone)]
pub struct Trace {
    pub header: Header,
    text: String,
    spans: Vec<Span>,
}

/// Where a record's line is in the trace text.
#[derive(Debug, Clone, Copy)]
struct Span {
    line: usize,
    start: usize,
    end: usize,
    at: f64,
}

impl Trace {
    /// The number of records.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The record at `index`, parsed from its line (which loaded, so it parses again).
    pub fn record(&self, index: usize) -> Record {
        match self.spans.get(index) {
            Some(span) => record_of(*span, &self.text[span.start..span.end]),
            None => Record { line: 0, at: 0.0, body: Body::Observation { query: Value::Null, value: Value::Null }, raw: Value::Null },
        }
    }

    /// Every record in order, each parsed as it is reached.
    pub fn records(&self) -> impl Iterator<Item = Record> + '_ {
        self.spans.iter().map(move |span| record_of(*span, &self.text[span.start..span.end]))
    }
}

/// The record a validated line holds.
fn record_of(span: Span, line: &str) -> Record {
    let value: Value = serde_json::from_str(line).unwrap_or(Value::Null);
    let body = match value.get("call") {
        Some(call) => Body::Call { call: call.clone(), threw: value.get("threw").and_then(Value::as_bool).unwrap_or(false) },
        None => Body::Observation { query: value["observe"].clone(), value: value["value"].clone() },
    };
    Record { line: span.line, at: span.at, body, raw: value }
}

/// A line that does not load: its number, the JSON Pointer of the problem inside the line, and
/// what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceError {
    pub line: usize,
    pub pointer: String,
    pub message: String,
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() { "(the line)" } else { &self.pointer };
        write!(f, "line {}: {pointer}: {}", self.line, self.message)
    }
}

struct Schemas {
    by_uri: BTreeMap<String, Value>,
}

impl Retrieve for Schemas {
    fn retrieve(&self, uri: &Uri<String>) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let key = uri.as_str().split('#').next().unwrap_or_default();
        self.by_uri.get(key).cloned().ok_or_else(|| format!("no schema {key}").into())
    }
}

/// The compiled validators of a header line and of a record line of each protocol.
pub struct TraceSchema {
    header: Validator,
    record: Validator,
    rui_record: Validator,
}

impl TraceSchema {
    /// Compiles the trace schema against the vector schemas of `schema_dir` (`vectors/schema`).
    pub fn load(schema_dir: &Path) -> Result<TraceSchema, String> {
        let mut by_uri = BTreeMap::new();
        let mut names: Vec<String> = fs::read_dir(schema_dir)
            .map_err(|e| format!("{}: {e}", schema_dir.display()))?
            .filter_map(|entry| entry.ok())
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".schema.json"))
            .collect();
        names.sort();
        for name in names {
            let path = schema_dir.join(&name);
            let text = crate::files::read_string(&path, crate::files::JSON_LIMIT).map_err(|e| e.to_string())?;
            let schema: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            by_uri.insert(format!("{SCHEMA_BASE}{name}"), schema);
        }
        let trace: Value = serde_json::from_str(TRACE_SCHEMA).map_err(|e| format!("trace.schema.json: {e}"))?;
        by_uri.insert(TRACE_SCHEMA_ID.to_string(), trace);
        let compile = |def: &str| {
            jsonschema::options()
                .with_draft(Draft::Draft202012)
                .with_retriever(Schemas { by_uri: by_uri.clone() })
                .build(&json!({ "$ref": format!("{TRACE_SCHEMA_ID}#/$defs/{def}") }))
                .map_err(|e| format!("trace schema #/$defs/{def} does not compile: {e}"))
        };
        Ok(TraceSchema { header: compile("header")?, record: compile("record")?, rui_record: compile("ruiRecord")? })
    }

    /// Parses and validates a whole trace. Every problem found is returned (at most one per
    /// line: the deepest, which is the one a writer can act on).
    pub fn parse(&self, text: &str) -> Result<Trace, Vec<TraceError>> {
        self.parse_owned(text.to_string())
    }

    /// [`TraceSchema::parse`] of a text the trace keeps without copying it.
    pub fn parse_owned(&self, text: String) -> Result<Trace, Vec<TraceError>> {
        let mut errors = Vec::new();
        let mut header = None;
        let mut spans = Vec::new();
        let mut real_clock_calls = Vec::new();
        let mut last_at = 0.0;
        let mut first = true;
        let mut offset = 0;
        for (index, line) in text.split_inclusive('\n').enumerate() {
            let start = offset;
            offset += line.len();
            let line = line.strip_suffix('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).unwrap_or(line);
            let number = index + 1;
            if line.trim().is_empty() {
                continue;
            }
            let value: Value = match crate::json::parse_unique(line.as_bytes()) {
                Ok(value) => value,
                Err(e) => {
                    errors.push(TraceError { line: number, pointer: String::new(), message: crate::json::problem(&e) });
                    if std::mem::take(&mut first) {
                        return Err(errors);
                    }
                    continue;
                }
            };
            let validator = match (std::mem::take(&mut first), header.as_ref().map(|h: &Header| h.protocol)) {
                (true, _) => &self.header,
                (false, Some(Protocol::Rui)) => &self.rui_record,
                (false, _) => &self.record,
            };
            if let Some(problem) = deepest(validator, &value) {
                errors.push(TraceError { line: number, pointer: problem.0, message: problem.1 });
                if std::ptr::eq(validator, &self.header) {
                    // Without a header the records cannot be read in context.
                    return Err(errors);
                }
                continue;
            }
            if std::ptr::eq(validator, &self.header) {
                header = Some(Header {
                    protocol: if value["format"] == RUI_FORMAT { Protocol::Rui } else { Protocol::Rcip },
                    clock: if value["clock"] == "real" { Clock::Real } else { Clock::Virtual },
                    setup: value["setup"].clone(),
                    case: value.get("case").and_then(Value::as_str).map(str::to_string),
                });
                continue;
            }
            let at = value["at"].as_f64().unwrap_or(0.0);
            if at < last_at {
                errors.push(TraceError { line: number, pointer: "/at".into(), message: format!("time goes back: {at} after {last_at}") });
                continue;
            }
            last_at = at;
            if value.pointer("/call/clock").is_some() {
                real_clock_calls.push(number);
            }
            spans.push(Span { line: number, start, end: start + line.len(), at });
        }
        let Some(header) = header else {
            if errors.is_empty() {
                errors.push(TraceError { line: 1, pointer: String::new(), message: "the trace is empty: a header line is needed".into() });
            }
            return Err(errors);
        };
        if header.clock == Clock::Real {
            for line in real_clock_calls {
                errors.push(TraceError { line, pointer: "/call/clock".into(), message: "a trace on the real clock moves time with `at`, not with clock calls".into() });
            }
        }
        if errors.is_empty() {
            Ok(Trace { header, text, spans })
        } else {
            Err(errors)
        }
    }
}

/// The deepest violation of `value` (pointer, message), if any.
fn deepest(validator: &Validator, value: &Value) -> Option<(String, String)> {
    if validator.is_valid(value) {
        return None;
    }
    validator
        .iter_errors(value)
        .map(|error| (error.instance_path().as_str().to_string(), crate::quote::bounded(&error)))
        .max_by(|a, b| a.0.len().cmp(&b.0.len()).then(b.0.cmp(&a.0)))
}

/// Builds a trace's lines as the runner sees a case run: the header, then each call with whether
/// it threw and each observation with its value, timed on the virtual clock.
#[derive(Debug, Default, Clone)]
pub struct Recorder {
    lines: Vec<Value>,
    now: f64,
}

impl Recorder {
    pub fn start(protocol: Protocol, case: &str, setup: &Value, implementation: (&str, &str)) -> Recorder {
        let header = json!({
            "format": protocol.format(), "clock": "virtual", "case": case, "setup": setup,
            "implementation": { "name": implementation.0, "version": implementation.1 },
        });
        Recorder { lines: vec![header], now: 0.0 }
    }

    pub fn call(&mut self, call: &Value, threw: bool) {
        let mut line = json!({ "at": millis(self.now), "call": call });
        if threw {
            line["threw"] = json!(true);
        }
        self.lines.push(line);
        if call.get("clock").and_then(Value::as_str) == Some("advance") {
            self.now += call.get("ms").and_then(Value::as_f64).unwrap_or(0.0);
        }
    }

    pub fn observation(&mut self, query: &Value, value: &Value) {
        self.lines.push(json!({ "at": millis(self.now), "observe": query, "value": value }));
    }

    /// Replaces the header's setup (a framing-neutral Rixx UI case names the framing it ran in).
    pub fn set_setup(&mut self, setup: &Value) {
        if let Some(header) = self.lines.first_mut() {
            header["setup"] = setup.clone();
        }
    }

    /// The trace as JSON Lines text.
    pub fn text(&self) -> String {
        let mut text = String::new();
        for line in &self.lines {
            text.push_str(&serde_json::to_string(line).unwrap_or_default());
            text.push('\n');
        }
        text
    }

    pub fn is_empty(&self) -> bool {
        self.lines.len() <= 1
    }
}

/// Whole milliseconds are written as integers.
fn millis(ms: f64) -> Value {
    if ms.fract() == 0.0 && ms.abs() < 9.0e15 {
        json!(ms as i64)
    } else {
        json!(ms)
    }
}
