//! Runs one case through an adapter and judges it: sends the setup and every step (stripped of
//! what is expected), compares each reply with the step's expectation, and derives the verdict
//! from the strictness of every check that differed (`vectors/README.md`, "Verdicts"). The codes
//! of a Rixx UI observation are first translated through the handshake's `codes` map
//! (`crate::codes`, issue 27 §5).

use std::borrow::Cow;

use serde_json::{json, Map, Value};

use crate::adapter::{Adapter, Ahead, Reply};
use crate::framing;
use crate::loader::Case;
use crate::matching::{expected_view, match_value, Mismatch};
use crate::trace::format::{Protocol, Recorder};
use crate::verdict::Verdict;

/// Members the runner keeps to itself: the implementation never sees what is expected.
const EXPECTATION_KEYS: [&str; 5] = ["is", "throws", "strictness", "requirements", "note"];

/// One check that did not match.
#[derive(Debug, Clone)]
pub struct Difference {
    /// Index of the step, or None for the setup (runtime creation).
    pub step: Option<usize>,
    pub strictness: String,
    pub requirements: Vec<String>,
    /// Whose ids `requirements` are (issue 27 §3): the step's own (the sentences that decide that
    /// check), or the case's list when the step cites none and for the setup; `None` when read
    /// from a report of an older version, which did not say.
    pub cited_by: Option<CitedBy>,
    /// Each of `requirements` with its sentence shortened (`quote::sentence`), where the register
    /// in use has it.
    pub sentences: Vec<(String, String)>,
    /// What the step asked (as sent to the adapter).
    pub request: Value,
    /// The expected view (observation with the differing parts replaced by the pattern).
    pub expected: Option<Value>,
    pub actual: Option<Value>,
    pub mismatches: Vec<Mismatch>,
}

/// Whose requirement ids a difference names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CitedBy {
    Step,
    Case,
}

impl CitedBy {
    /// As the JSON report writes it (`requirementsOf`).
    pub fn as_str(self) -> &'static str {
        match self {
            CitedBy::Step => "step",
            CitedBy::Case => "case",
        }
    }

    pub fn parse(text: &str) -> Option<CitedBy> {
        match text {
            "step" => Some(CitedBy::Step),
            "case" => Some(CitedBy::Case),
            _ => None,
        }
    }

    /// The words every view puts after the ids.
    pub fn describe(self) -> &'static str {
        match self {
            CitedBy::Step => "the step's own: the sentences that decide this check",
            CitedBy::Case => "the case's list: the step cites none of its own",
        }
    }
}

/// Each id with its sentence from `sentences`, where it has one.
pub fn sentences_of(ids: &[String], sentences: &crate::loader::Sentences) -> Vec<(String, String)> {
    ids.iter().filter_map(|id| sentences.get(id).map(|quote| (id.clone(), quote.clone()))).collect()
}

/// Everything known about one case after its run.
#[derive(Debug, Clone)]
pub struct CaseResult {
    pub id: String,
    pub verdict: Verdict,
    /// Why, for unsupported, skip, xfail and errored.
    pub reason: Option<String>,
    pub differences: Vec<Difference>,
    /// IMPL-DEFINED alternatives seen, per step: "step 4 /code: alternative 2 of 2".
    pub alternatives: Vec<String>,
    /// Number of expectations checked (creation included when the setup states one).
    pub checks: usize,
    /// The run as a trace (`trace::format`, `conformance run --trace-dir`): every call with
    /// whether it threw and every observation with its value. Empty unless recording was asked
    /// for (`run_case_recorded`), for a case not run and for a Rixx UI case.
    pub trace: String,
    /// The end of what the implementation wrote to its stderr during the case (`Adapter::
    /// take_stderr`, issue 27 §4). `run` keeps it for every case that did not pass, and for the
    /// passing ones with `--keep-stderr`.
    pub stderr: Option<String>,
}

impl CaseResult {
    pub fn not_run(case: &Case, verdict: Verdict, reason: impl Into<String>) -> CaseResult {
        CaseResult {
            id: case.id.clone(),
            verdict,
            reason: Some(reason.into()),
            differences: Vec::new(),
            alternatives: Vec::new(),
            checks: 0,
            trace: String::new(),
            stderr: None,
        }
    }
}

/// The step as sent to the adapter.
pub fn request_of(step: &Value) -> Value {
    match step.as_object() {
        Some(object) => {
            let kept: Map<String, Value> = object
                .iter()
                .filter(|(k, _)| !EXPECTATION_KEYS.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            Value::Object(kept)
        }
        None => step.clone(),
    }
}

/// Why a case cannot run on this implementation, if it cannot.
pub fn unsupported_reason(adapter: &dyn Adapter, case: &Case) -> Option<String> {
    let implementation = adapter.implementation();
    if !implementation.protocols.contains(&case.protocol) {
        return Some(format!("implementation does not declare protocol {}", case.protocol.as_str()));
    }
    if framing::is_neutral(case) && declared_framings(adapter).is_empty() {
        return Some(format!("a framing-neutral case needs one of the framings {} declared", framing::FRAMINGS.join(", ")));
    }
    let missing: Vec<&str> = case
        .profiles
        .iter()
        .filter(|p| !implementation.profiles.contains(*p))
        .map(String::as_str)
        .collect();
    if missing.is_empty() {
        None
    } else {
        Some(format!("profile not declared: {}", missing.join(", ")))
    }
}

/// The framings of CL-D07 the implementation declares, in `framing::FRAMINGS` order.
fn declared_framings(adapter: &dyn Adapter) -> Vec<&'static str> {
    let profiles = &adapter.implementation().profiles;
    framing::FRAMINGS.into_iter().filter(|f| profiles.contains(*f)).collect()
}

/// Runs `case` on `adapter` and judges it. A framing-neutral Rixx UI case (issue 15) runs once in
/// every framing the implementation declares; its verdict is the worst of those runs, and each
/// difference names the framing it was seen in (`framing::requests_for`).
pub fn run_case(adapter: &mut dyn Adapter, case: &Case) -> CaseResult {
    run_case_recorded(adapter, case, false)
}

/// `run_case`, also recording the case's run as a trace (`CaseResult::trace`) when `record`
/// is set (`conformance run --trace-dir`); off by default, so a run holds no observation longer
/// than its check needs (README "Memory").
pub fn run_case_recorded(adapter: &mut dyn Adapter, case: &Case, record: bool) -> CaseResult {
    let prepared = prepare(adapter, case);
    run_prepared(adapter, case, prepared, record)
}

/// A case made ready before its turn: whether it runs, and what each of its runs (one per
/// framing for a framing-neutral case) sends, so that an adapter that sends whole cases ahead
/// (`Adapter::announce_case`) can send it while earlier cases are still being judged.
pub struct Prepared {
    /// Why the case is not run on this implementation (`unsupported_reason`).
    unsupported: Option<String>,
    /// The case's setup and steps, as vectors state them.
    body: (Value, Vec<Value>),
    runs: Vec<PreparedRun>,
    /// Every run's requests up to its `finish` went to `Adapter::announce_case`.
    announced_whole: bool,
}

/// One run of a prepared case.
struct PreparedRun {
    /// The framing a framing-neutral case runs in this time; `None` for every other case.
    framing: Option<&'static str>,
    /// The setup made for the framing (`framing::setup_for`); `None`: the case's own.
    framed: Option<Value>,
    /// What `start` carries when it differs from the (framed) setup: the limits in the
    /// implementation's measure. `Err`: the limits cannot be put in it, the run is unsupported.
    translated: Result<Option<Value>, String>,
    plan: Plan,
    /// The run's `start` and first requests went to `Adapter::announce_case`.
    announced: bool,
}

impl PreparedRun {
    fn setup<'a>(&'a self, case_setup: &'a Value) -> &'a Value {
        self.framed.as_ref().unwrap_or(case_setup)
    }

    fn start_setup<'a>(&'a self, case_setup: &'a Value) -> Option<&'a Value> {
        match &self.translated {
            Ok(Some(translated)) => Some(translated),
            Ok(None) => Some(self.setup(case_setup)),
            Err(_) => None,
        }
    }
}

/// Makes `case` ready to run on `adapter` (nothing is sent yet).
pub fn prepare(adapter: &dyn Adapter, case: &Case) -> Prepared {
    let body = case.parsed_body().into_owned();
    let unsupported = unsupported_reason(adapter, case);
    let mut runs = Vec::new();
    if unsupported.is_none() {
        let framings: Vec<Option<&'static str>> = if framing::is_neutral(case) {
            declared_framings(adapter).into_iter().map(Some).collect()
        } else {
            vec![None]
        };
        let measure = adapter.implementation().rui_limits_measure;
        for framing in framings {
            let framed = framing.map(|f| framing::setup_for(&body.0, f));
            // The trace keeps the vector's limits; the implementation gets them in its own measure.
            let translated = match measure.translate(framed.as_ref().unwrap_or(&body.0)) {
                Ok(Cow::Borrowed(_)) => Ok(None),
                Ok(Cow::Owned(translated)) => Ok(Some(translated)),
                Err(reason) => Err(reason),
            };
            let plan = Plan::of(&body.1, framing, adapter.sends_conditional_steps());
            runs.push(PreparedRun { framing, framed, translated, plan, announced: false });
        }
    }
    Prepared { unsupported, body, runs, announced_whole: false }
}

impl Prepared {
    /// Announces the case to an adapter that sends whole cases ahead, before the cases announced
    /// earlier have been judged: every run's `start` and the requests after it up to the first
    /// whose sending depends on an answer. `true` when everything up to the last run's `finish`
    /// was announced, so that a later case may be announced after it.
    pub fn announce(&mut self, adapter: &mut dyn Adapter, case: &Case) -> bool {
        if self.unsupported.is_some() {
            self.announced_whole = true;
            return true;
        }
        for run in &mut self.runs {
            let Some(setup) = run.start_setup(&self.body.0) else { continue };
            let (requests, whole) = run.plan.first_requests();
            if !adapter.announce_case(&case.id, case.protocol, setup, &requests, whole) {
                return false;
            }
            run.plan.announced = run.plan.first_end();
            run.announced = true;
            if !whole {
                return false;
            }
        }
        self.announced_whole = true;
        true
    }

    /// Whether everything this case sends was announced (`announce` returned `true`).
    pub fn announced_whole(&self) -> bool {
        self.announced_whole
    }
}

/// Runs a case [`prepare`]d for this adapter (and perhaps [`Prepared::announce`]d) and judges it.
pub fn run_prepared(adapter: &mut dyn Adapter, case: &Case, prepared: Prepared, record: bool) -> CaseResult {
    if let Some(reason) = prepared.unsupported {
        return CaseResult::not_run(case, Verdict::Unsupported, reason);
    }
    let (setup, steps) = (&prepared.body.0, &prepared.body.1);
    let protocol = if case.protocol.as_str() == "rui" { Protocol::Rui } else { Protocol::Rcip };
    let recorder = record.then(|| {
        let implementation = adapter.implementation();
        Recorder::start(protocol, &case.id, setup, (&implementation.name, &implementation.version))
    });
    // A Rixx UI implementation's own code names, translated onto the register's before judging.
    let codes = if matches!(protocol, Protocol::Rui) { adapter.implementation().codes.clone() } else { None };
    let mut judge = Judge { case, setup, framing: None, differences: Vec::new(), alternatives: Vec::new(), checks: 0, recorder, codes };
    let mut broken: Option<(Verdict, String)> = None;
    // A framing-neutral case is recorded in the first framing it runs in: its trace holds the
    // records the consumer received, once.
    let mut recorded = None;
    let mut stderr: Vec<String> = Vec::new();
    for mut run in prepared.runs {
        let framing = run.framing;
        judge.framing = framing;
        let result = judge.run(adapter, steps, &mut run);
        // A run that sent nothing (its limits cannot be put in the implementation's measure)
        // has no case to finish and no stderr of its own: taking it would take, with case
        // marks, the text of the case sent ahead after it.
        if run.translated.is_ok() {
            adapter.finish();
            if let Some(text) = adapter.take_stderr() {
                stderr.push(match framing {
                    Some(f) => format!("(framed as {f})\n{text}"),
                    None => text,
                });
            }
        }
        if recorded.is_none() {
            recorded = judge.recorder.take();
        }
        let label = framing.map(|f| format!(" (framed as {f})")).unwrap_or_default();
        match result {
            Ok(None) => {}
            Ok(Some(unsupported)) => {
                broken.get_or_insert((Verdict::Unsupported, format!("{unsupported}{label}")));
            }
            Err(error) => {
                broken = Some((Verdict::Errored, format!("{error}{label}")));
                break;
            }
        }
    }
    let (verdict, reason) = match broken {
        Some((verdict, reason)) => (verdict, Some(reason)),
        None => (judge.verdict(), None),
    };
    CaseResult {
        id: case.id.clone(),
        verdict,
        reason,
        differences: judge.differences,
        alternatives: judge.alternatives,
        checks: judge.checks,
        trace: recorded.or(judge.recorder).filter(|r| !r.is_empty()).map(|r| r.text()).unwrap_or_default(),
        stderr: (!stderr.is_empty()).then(|| stderr.join("\n")),
    }
}

/// A request as the trace records it: without the `framedAs` label the runner adds to a
/// framing-neutral case's steps for its differences.
fn unframed(request: &Value) -> Value {
    let mut request = request.clone();
    if let Some(object) = request.as_object_mut() {
        object.remove("framedAs");
    }
    request
}

/// The requests of a case's steps, made before its `start` so that the adapter can be told
/// which requests follow (`Adapter::send_ahead`): every one, up to the first whose sending
/// depends on an earlier answer (the second and later request of a framed `feed: records` step
/// goes only when the one before it was answered `done`), or every one, those marked
/// [`Ahead::if_done`], to an adapter that `sends_conditional_steps`.
struct Plan {
    steps: Vec<Planned>,
    /// Every request in sending order: (step, request of that step, whether it goes only when
    /// the request before it was answered `done`). Ends before a step that cannot be framed.
    order: Vec<(usize, usize, bool)>,
    /// Where each step's requests start in `order`.
    first: Vec<usize>,
    /// Requests of `order` before this one have been announced to the adapter.
    announced: usize,
    /// The adapter takes requests that depend on an answer ahead of it (`Ahead::if_done`).
    conditional_ahead: bool,
}

/// One step of the plan.
struct Planned {
    /// The step as judged and reported (taken when the step is judged).
    request: Value,
    sent: Sent,
}

/// What goes to the adapter for one step.
enum Sent {
    /// The step's request itself.
    Itself,
    /// A framing-neutral step in this run's framing (`framing::requests_after`).
    Framed(Vec<Value>),
    /// The step cannot be framed: the case is errored when it is reached.
    Unframable(String),
}

/// Why a step has no answer.
enum Unsent {
    Unframable(String),
    Adapter(crate::adapter::AdapterError),
}

impl Plan {
    fn of(steps: &[Value], framing: Option<&'static str>, conditional_ahead: bool) -> Plan {
        let mut plan =
            Plan { steps: Vec::with_capacity(steps.len()), order: Vec::new(), first: Vec::new(), announced: 0, conditional_ahead };
        // The json-seq stream written so far ends with the RS that closed its last text.
        let mut rs_open = false;
        for step in steps {
            let request = request_of(step);
            let sent = match framing {
                None => Sent::Itself,
                Some(framing) => match framing::requests_after(&request, framing, rs_open) {
                    Ok(requests) => {
                        if framing == "json-seq" && request.get("feed").and_then(Value::as_str) == Some("records") {
                            rs_open = true;
                        }
                        Sent::Framed(requests)
                    }
                    Err(e) => Sent::Unframable(e),
                },
            };
            plan.steps.push(Planned { request, sent });
        }
        for (index, planned) in plan.steps.iter().enumerate() {
            plan.first.push(plan.order.len());
            match &planned.sent {
                Sent::Itself => plan.order.push((index, 0, false)),
                Sent::Framed(requests) => plan.order.extend((0..requests.len()).map(|j| (index, j, j > 0))),
                Sent::Unframable(_) => break,
            }
        }
        plan
    }

    fn request(&self, (step, sub, _): (usize, usize, bool)) -> &Value {
        let planned = &self.steps[step];
        match &planned.sent {
            Sent::Framed(requests) => &requests[sub],
            Sent::Itself | Sent::Unframable(_) => &planned.request,
        }
    }

    /// Where the requests sendable from `order[from]` end: at the next that depends on an answer
    /// (at the end, when the adapter takes those ahead).
    fn end_from(&self, from: usize) -> usize {
        if from >= self.order.len() {
            return from;
        }
        if self.conditional_ahead {
            return self.order.len();
        }
        self.order[from + 1..].iter().position(|(_, _, conditional)| *conditional).map_or(self.order.len(), |p| from + 1 + p)
    }

    /// Where the requests that go with `start` end.
    fn first_end(&self) -> usize {
        self.end_from(0)
    }

    /// The requests that go with `start`, and whether they are all of the run's (so that its
    /// `finish` may follow them at once).
    fn first_requests(&self) -> (Vec<Ahead<'_>>, bool) {
        let end = self.first_end();
        let requests = self.order[..end].iter().map(|at| Ahead { step: self.request(*at), if_done: self.conditional_ahead && at.2 });
        (requests.collect(), end == self.order.len())
    }

    /// Announces the requests from `order[from]` up to the next that depends on an answer.
    fn announce(&mut self, adapter: &mut dyn Adapter, from: usize) {
        if from >= self.order.len() {
            return;
        }
        let end = self.end_from(from);
        // Never conditional: the first goes because the answer before it was `done`, and the
        // others do not depend on an answer (or all went with `start`: `conditional_ahead`).
        let requests: Vec<Ahead<'_>> = self.order[from..end].iter().map(|at| Ahead { step: self.request(*at), if_done: false }).collect();
        adapter.send_ahead(&requests);
        self.announced = end;
    }

    /// Sends step `index` (each of its framed requests, up to the first not answered `done`) and
    /// returns the last answer.
    fn send(&mut self, adapter: &mut dyn Adapter, index: usize) -> Result<Reply, Unsent> {
        let count = match &self.steps[index].sent {
            Sent::Unframable(e) => return Err(Unsent::Unframable(e.clone())),
            Sent::Itself => 1,
            Sent::Framed(requests) => requests.len(),
        };
        let mut last = Reply::Done;
        for sub in 0..count {
            let at = self.first[index] + sub;
            if at >= self.announced {
                self.announce(adapter, at);
            }
            last = adapter.step(self.request(self.order[at])).map_err(Unsent::Adapter)?;
            if last != Reply::Done {
                break;
            }
        }
        Ok(last)
    }
}

struct Judge<'c> {
    case: &'c Case,
    setup: &'c Value,
    /// The framing a framing-neutral case runs in this time; `None` for every other case.
    framing: Option<&'static str>,
    differences: Vec<Difference>,
    alternatives: Vec<String>,
    checks: usize,
    /// Records the run as a trace (RCIP and Rixx UI cases).
    recorder: Option<Recorder>,
    /// The handshake's `codes` map, for Rixx UI cases (`crate::codes`).
    codes: Option<crate::codes::CodeMap>,
}

impl Judge<'_> {
    /// Ok(None): ran to the end; Ok(Some(reason)): unsupported; Err: the adapter broke.
    fn run(&mut self, adapter: &mut dyn Adapter, steps: &[Value], run: &mut PreparedRun) -> Result<Option<String>, String> {
        let creation = self.setup.get("creation").and_then(Value::as_str).unwrap_or("succeeds").to_string();
        let PreparedRun { framed, translated, plan, announced, .. } = run;
        let setup = framed.as_ref().unwrap_or(self.setup);
        if let Some(recorder) = &mut self.recorder {
            recorder.set_setup(setup);
        }
        let translated = match translated {
            Ok(translated) => translated.as_ref().unwrap_or(setup),
            Err(reason) => return Ok(Some(reason.clone())),
        };
        if !*announced {
            let (requests, whole) = plan.first_requests();
            if adapter.announce_case(&self.case.id, self.case.protocol, translated, &requests, whole) {
                plan.announced = plan.first_end();
            }
        }
        let reply = adapter
            .start(&self.case.id, self.case.protocol, translated)
            .map_err(|e| format!("adapter failed to start the case: {e}"))?;
        self.checks += 1;
        match (reply, creation.as_str()) {
            (Reply::Unsupported(reason), _) => return Ok(Some(reason)),
            (Reply::Done, "succeeds" | "may-throw") => {}
            (Reply::Threw, "throws" | "may-throw") => return Ok(None),
            (Reply::Done, _) => self.creation_differs(&creation, "succeeded"),
            (Reply::Threw, _) => {
                self.creation_differs(&creation, "threw");
                return Ok(None);
            }
            (Reply::Observed(_), _) => return Err("adapter answered the setup with an observation".into()),
        }
        for (index, step) in steps.iter().enumerate() {
            let reply = plan.send(adapter, index).map_err(|e| match e {
                Unsent::Unframable(e) => format!("step {index}: {e}"),
                Unsent::Adapter(e) => format!("adapter failed at step {index}: {e}"),
            })?;
            let mut request = std::mem::take(&mut plan.steps[index].request);
            if let Some(framing) = self.framing {
                // Differences name the framing they were seen in.
                if let Some(object) = request.as_object_mut() {
                    object.insert("framedAs".into(), json!(framing));
                }
            }
            if let Reply::Unsupported(reason) = reply {
                return Ok(Some(format!("step {index}: {reason}")));
            }
            if step.get("expect").is_some() {
                let Reply::Observed(mut actual) = reply else {
                    return Err(format!("step {index} asked for an observation, the adapter answered {reply:?}"));
                };
                if let (Some(codes), Some(expect)) = (&self.codes, step.get("expect").and_then(Value::as_str)) {
                    codes.translate_observation(expect, &mut actual);
                }
                if let Some(recorder) = &mut self.recorder {
                    recorder.observation(&unframed(&request), &actual);
                }
                self.check_observation(index, step, request, actual);
            } else {
                let threw = match reply {
                    Reply::Done => false,
                    Reply::Threw => true,
                    other => return Err(format!("step {index} is an action, the adapter answered {other:?}")),
                };
                if let Some(recorder) = &mut self.recorder {
                    recorder.call(&unframed(&request), threw);
                }
                self.check_action(index, step, request, threw);
            }
        }
        Ok(None)
    }

    fn strictness_of(&self, step: &Value) -> String {
        step.get("strictness")
            .and_then(Value::as_str)
            .unwrap_or(&self.case.strictness)
            .to_string()
    }

    /// The ids a check of `step` traces to: its own, else the case's (issue 27 §3).
    fn requirements_of(&self, step: &Value) -> (Vec<String>, CitedBy) {
        match step.get("requirements").and_then(Value::as_array) {
            Some(ids) if !ids.is_empty() => {
                (ids.iter().filter_map(Value::as_str).map(str::to_string).collect(), CitedBy::Step)
            }
            _ => (self.case.requirements.clone(), CitedBy::Case),
        }
    }

    /// A difference of `step` (None: the setup) with its ids, whose they are, and their sentences.
    fn cited(&self, step: Option<&Value>) -> (Vec<String>, Option<CitedBy>, Vec<(String, String)>) {
        let (ids, by) = match step {
            Some(step) => self.requirements_of(step),
            None => (self.case.requirements.clone(), CitedBy::Case),
        };
        let sentences = sentences_of(&ids, &self.case.sentences);
        (ids, Some(by), sentences)
    }

    fn creation_differs(&mut self, expected: &str, actual: &str) {
        let (requirements, cited_by, sentences) = self.cited(None);
        self.differences.push(Difference {
            step: None,
            strictness: self.case.strictness.clone(),
            requirements,
            cited_by,
            sentences,
            request: json!({ "setup": "create runtime" }),
            expected: Some(json!({ "creation": expected })),
            actual: Some(json!({ "creation": actual })),
            mismatches: vec![Mismatch { pointer: "/creation".into(), reason: format!("expected creation to be {expected}") }],
        });
    }

    fn check_observation(&mut self, index: usize, step: &Value, request: Value, actual: Value) {
        self.checks += 1;
        let pattern = step.get("is").cloned().unwrap_or(Value::Null);
        let outcome = match_value(&pattern, Some(&actual));
        let framed = self.framing.map(|f| format!(" [{f}]")).unwrap_or_default();
        self.alternatives.extend(outcome.alternatives.iter().map(|a| format!("step {index}{framed} {a}")));
        if !outcome.matched() {
            let (requirements, cited_by, sentences) = self.cited(Some(step));
            self.differences.push(Difference {
                step: Some(index),
                strictness: self.strictness_of(step),
                requirements,
                cited_by,
                sentences,
                request,
                expected: expected_view(&pattern, Some(&actual)),
                actual: Some(actual),
                mismatches: outcome.mismatches,
            });
        }
    }

    fn check_action(&mut self, index: usize, step: &Value, request: Value, threw: bool) {
        // `"throws": "may"`: throwing and not throwing are both admissible (IMPL-DEFINED, e.g. a
        // schema the strict profile may reject at binding, CL-B19-11); the report names which.
        if step.get("throws").and_then(Value::as_str) == Some("may") {
            self.checks += 1;
            let seen = if threw { "threw" } else { "did not throw" };
            self.alternatives.push(format!("step {index} /threw: {seen}"));
            return;
        }
        let expected = step.get("throws").and_then(Value::as_bool).unwrap_or(false);
        if step.get("throws").is_some() {
            self.checks += 1;
        }
        if threw != expected {
            self.checks += usize::from(step.get("throws").is_none());
            let (requirements, cited_by, sentences) = self.cited(Some(step));
            self.differences.push(Difference {
                step: Some(index),
                strictness: self.strictness_of(step),
                requirements,
                cited_by,
                sentences,
                request,
                expected: Some(json!({ "threw": expected })),
                actual: Some(json!({ "threw": threw })),
                mismatches: vec![Mismatch {
                    pointer: "/threw".into(),
                    reason: if expected { "expected the call to throw".into() } else { "the call threw".into() },
                }],
            });
        }
    }

    fn verdict(&self) -> Verdict {
        if self.differences.is_empty() {
            Verdict::Pass
        } else if self.differences.iter().all(|d| d.strictness == "RECOMMENDED") {
            Verdict::NonStrict
        } else {
            Verdict::Fail
        }
    }
}
