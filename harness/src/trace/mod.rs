//! `conformance check-trace`: decides whether some path of the project's models explains a
//! recorded trace of an implementation (harness/README.md "Trace validation"; format in `format`,
//! the model mappings in `invocation` for the RCIP invocation model, `assist` for the Assist turn
//! model, chosen by whether the trace starts Assist turns, and `transaction` for the Rixx UI
//! transaction model, which decides `rui-trace/1` traces). The trace is
//! checked under both readings of CL-B06 for a context changed and changed back (by value at the
//! check, or any effective change); it is explained if either reading explains it. When none
//! does, the report names the first record no path explains, the states possible just before it,
//! what the model allowed there, and the requirement sentences involved, quoted from the register.

pub mod assist;
pub mod format;
pub mod invocation;
pub mod transaction;

use std::collections::BTreeMap;

use model::invocation::ContextComparison;
use serde_json::Value;

use crate::loader::Requirement;
use format::{Protocol, Trace, TraceError, TraceSchema};
use invocation::{Checker, Failure, OutOfScope, Verdict};

/// The result of checking one trace.
#[derive(Debug, Clone)]
pub enum Judgement {
    Explained {
        /// The model that decided the trace.
        model: &'static str,
        reading: &'static str,
        paths: usize,
        departures: Vec<String>,
        judged: usize,
        not_judged: BTreeMap<String, usize>,
    },
    NotExplained { failure: Failure, raw: Value },
    /// The trace is well formed but outside what the model can judge (exit 2).
    OutOfScope(OutOfScope),
}

/// The CL-B06 readings, the literal one first.
const READINGS: [(ContextComparison, &str); 2] = [
    (ContextComparison::ByValue, "context compared by value at each check (CL-B06)"),
    (ContextComparison::AnyEffectiveChange, "any effective context change counts (the other reading of CL-B06)"),
];

/// Checks a parsed trace against the model that covers it: the Assist turn model for a trace that
/// starts Assist turns, the invocation model otherwise.
pub fn judge(trace: &Trace) -> Judgement {
    if trace.header.protocol == Protocol::Rui {
        return judge_transaction(trace);
    }
    if assist::applies(trace) {
        return judge_assist(trace);
    }
    let mut failures: Vec<Failure> = Vec::new();
    for (comparison, reading) in READINGS {
        let checker = match Checker::new(trace, comparison) {
            Ok(checker) => checker,
            Err(scope) => return Judgement::OutOfScope(scope),
        };
        match checker.check(trace) {
            Err(scope) => return Judgement::OutOfScope(scope),
            Ok(Verdict::Explained { paths, departures, judged, not_judged }) => {
                return Judgement::Explained { model: "invocation", reading, paths, departures, judged, not_judged }
            }
            Ok(Verdict::NotExplained(failure)) => failures.push(failure),
        }
    }
    // The reading that explains the longest prefix fails at the record that matters; on a tie,
    // the literal reading.
    let failure = failures
        .into_iter()
        .enumerate()
        .max_by(|(i, a), (j, b)| a.record.cmp(&b.record).then(j.cmp(i)))
        .map(|(_, f)| f)
        .expect("two readings were checked");
    let raw = trace.record(failure.record).raw;
    Judgement::NotExplained { failure, raw }
}

/// Checks a trace of Assist turns against the Assist turn model (`assist`).
fn judge_assist(trace: &Trace) -> Judgement {
    let checked = assist::Checker::new(trace).and_then(|checker| checker.check(trace));
    judgement(
        trace,
        checked,
        "Assist",
        "the Assist turn model (CL-C01..C06), the runtime behind invoke settling as the outcomes show",
    )
}

/// Checks a Rixx UI trace against the transaction model (`transaction`).
fn judge_transaction(trace: &Trace) -> Judgement {
    let checked = transaction::Checker::new(trace).and_then(|checker| checker.check(trace));
    judgement(
        trace,
        checked,
        "transaction",
        "the Rixx UI transaction model (CL-D01..D05, CL-D08, CL-D09), in some reading of PRJ-RUI-TX-08",
    )
}

/// The judgement of one model's check of `trace`, named by `model` and `reading`.
fn judgement(trace: &Trace, checked: Result<Verdict, OutOfScope>, model: &'static str, reading: &'static str) -> Judgement {
    match checked {
        Err(scope) => Judgement::OutOfScope(scope),
        Ok(Verdict::Explained { paths, departures, judged, not_judged }) => {
            Judgement::Explained { model, reading, paths, departures, judged, not_judged }
        }
        Ok(Verdict::NotExplained(failure)) => {
            let raw = trace.record(failure.record).raw;
            Judgement::NotExplained { failure, raw }
        }
    }
}

/// Parses `text` and judges it.
pub fn check_text(schema: &TraceSchema, text: &str) -> Result<Judgement, Vec<TraceError>> {
    check_owned(schema, text.to_string())
}

/// [`check_text`] of a text it may keep (no copy of a large trace).
pub fn check_owned(schema: &TraceSchema, text: String) -> Result<Judgement, Vec<TraceError>> {
    let trace = schema.parse_owned(text)?;
    Ok(judge(&trace))
}

/// The report of one judgement, for people.
pub fn render(name: &str, judgement: &Judgement, requirements: &BTreeMap<String, Requirement>) -> String {
    let mut out = String::new();
    match judgement {
        Judgement::Explained { model, reading, paths, departures, judged, not_judged } => {
            out.push_str(&format!("{name}: explained ({judged} records judged; {paths} model path(s) fit; {reading})\n"));
            if !not_judged.is_empty() {
                let list: Vec<String> = not_judged.iter().map(|(k, n)| format!("{k} x{n}")).collect();
                out.push_str(&format!("  not judged by the {model} model: {}\n", list.join(", ")));
            }
            if !departures.is_empty() {
                out.push_str(&format!(
                    "  only paths departing from RECOMMENDED {} explain it (a non-strict difference)\n",
                    departures.join(", ")
                ));
                for id in departures {
                    out.push_str(&quote(id, requirements));
                }
            }
        }
        Judgement::NotExplained { failure, raw } => {
            out.push_str(&format!("{name}: NOT EXPLAINED at line {}\n", failure.line));
            out.push_str(&format!("  record: {}\n", crate::quote::bounded(raw)));
            out.push_str("  the model allows here:\n");
            for allowed in &failure.allowed {
                out.push_str(&format!("    {allowed}\n"));
            }
            const SHOWN: usize = 8;
            out.push_str(&format!("  states possible just before ({}):\n", failure.before.len()));
            for (i, state) in failure.before.iter().take(SHOWN).enumerate() {
                out.push_str(&format!("    [{}] {state}\n", i + 1));
            }
            if failure.before.len() > SHOWN {
                out.push_str(&format!("    ... and {} more\n", failure.before.len() - SHOWN));
            }
            if !failure.requirements.is_empty() {
                out.push_str("  sentences:\n");
                for id in &failure.requirements {
                    out.push_str(&quote(id, requirements));
                }
            }
        }
        Judgement::OutOfScope(scope) => {
            out.push_str(&format!("{name}: line {}: outside what check-trace judges: {}\n", scope.line, scope.message));
        }
    }
    out
}

fn quote(id: &str, requirements: &BTreeMap<String, Requirement>) -> String {
    match requirements.get(id) {
        Some(r) => format!("    {id} {}: \"{}\"\n", r.strictness, r.quote),
        None => format!("    {id}\n"),
    }
}
