//! Trace validation against the Assist turn model (`model::assist`, RCIP-PROTO "Assist
//! orchestration", CL-C01..C06, PRJ-ASSIST-*): a trace with `client: assist-turn` calls is
//! decided by the model of each turn it starts, the way `invocation` decides the others: the set
//! of model states consistent with the trace so far is advanced by each call and filtered by each
//! observation, and the first record that leaves it empty is reported.
//!
//! How the trace maps onto the model (harness/README.md "Trace validation" says the same):
//! - Each `assist-turn` call starts one `AssistModel` turn in its mode, whose decide call is the
//!   next decision-callback call; `gate: assist` call k settles the k-th callback call made (both
//!   phases, all turns, in call order), as `Decide` or `SummarizeAnswers` of that call's turn
//!   (an answer after a cancellation changes nothing: the model's turn is no longer waiting). A
//!   batch (1..N well-formed items, CL-C01-2) is `Decide(Batch(k))`, its entries' proposals read
//!   from the setup's definition (`read` effect, another effect, undeclared); an empty batch, a
//!   malformed item (or, PRJ-ASSIST-BATCH-02 RECOMMENDED, an unknown delay), a malformed answer or a throw is `Decide(Malformed)` (CL-C01-4,
//!   PRJ-ASSIST-BATCH-01/02); over the bound `Decide(OverBoundBatch)`. Without `assist.batchBound`
//!   the bound is the implementation's own (unknown): a batch of up to 32 items is either.
//! - The RCIP runtime behind `client.invoke` is what the model makes it: a gate that may settle
//!   with any outcome. So the turn's own steps and the runtime's settlements (`StartAction` of the
//!   entry the batch names, `InvokeSettles`, `ResolutionSettles`, `CallSummarize`,
//!   `SkipSummarize`) are taken by the checker between records wherever the model enables them,
//!   at the time of the record being processed or in the cascade of a timer; policy and handler
//!   gates, `policy-calls` and `handler-calls` are the invocation model's business and are counted
//!   as not judged here. The observed outcomes then decide which settlement happened.
//! - Time: a delay (`assist.delays`, clamped to 0..10000 ms, CL-C03-4, RECOMMENDED: past 10000 the amount is the implementation's own; an item without `delay`
//!   waits 0 ms, PRJ-ASSIST-DELAY-01; the last item's delay is never waited, CL-C03-2) elapses
//!   exactly when its amount has passed, and a turn never rests in a delay that is over; without
//!   `assist.delays` the amounts are the implementation's own, so a delay may end at any time. A
//!   confirmation may expire (`ConfirmationExpires`) once the runtime's TTL
//!   (`options.confirmationTtlMs`, default 120000 ms, CL-B08-1) has passed since its entry
//!   started, on its own or when the host UI resolves it; it is never forced (the turn may learn of
//!   it only from the host's resolution).
//! - `host: resolve-confirmation` of `{turn, action}` is `HostApproves`/`HostDeclines` of that
//!   entry while the model's turn waits on it (or `ConfirmationExpires`, as above); otherwise it is
//!   the runtime's business. `client: abort` of a turn's signal is `Cancel` (a signal aborted
//!   before the turn starts cancels it at once).
//! - A turn rests only where it waits on something outside it: never in `Ready` or `BatchEnded`
//!   (the `ObservableTurn` view of the model-generated vectors).
//! - Observations: `assist-turn` (result and callback calls), `assist-invocations`, and the
//!   `outcome` of a resolution that acted on a turn are judged, with the readings the
//!   model-generated vectors accept (`suites/src/cases/from_model/assist.rs`): after a
//!   cancellation the turn may settle either way or stay pending while it may still wait, and the
//!   entry in flight may or may not be recorded (PRJ-ASSIST-CANCEL-01..03); a turn that waited for
//!   the resolution of the confirmation pending at its cancellation may make its summarize call
//!   after it (both readings at once); a local rejection is
//!   any non-success, and a path where it is not denied `POLICY_DENIED` departs from RECOMMENDED
//!   CL-C05-3; an over-bound or malformed decision may end the turn either way.
//! - Outside this model: direct `invoke` calls next to turns (the two models are not composed),
//!   an `assist-turn` call that threw, a second runtime, the React host.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use model::assist::{Action, AssistModel, CancelPoint, DecideAnswer, EntryResult, Mode, Proposal, SummarizeAnswer, TurnPhase, TurnState};
use model::stateright::Model;
use serde_json::Value;

use super::format::{Body, Clock, Record, Trace};
use super::invocation::{Failure, OutOfScope, Verdict};

/// The most paths kept at once; beyond it the trace is too ambiguous to judge (exit 2).
const MAX_PATHS: usize = 4096;

/// CL-B08-1: the default confirmation TTL.
const DEFAULT_TTL_MS: f64 = 120_000.0;

/// CL-C01-3: the bound's clamp.
const BOUND_CLAMP: (i64, i64) = (1, 32);

/// CL-C03-4: the delays' clamp, ms.
const DELAY_MAX_MS: f64 = 10_000.0;

fn micros(ms: f64) -> i64 {
    (ms * 1000.0).round() as i64
}

/// One entry of a batch, as the decide answer wrote it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Item {
    capability: String,
    /// The input, serialized (compared as JSON values).
    input: String,
    /// The delay symbol after the entry (0 short, 1 medium, 2 long); `None`: no delay.
    delay: Option<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Phase {
    Decide,
    Summarize,
}

/// One turn of one path: the model state plus what the trace's names and times need.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Turn {
    state: TurnState,
    plan: Vec<Item>,
    proposals: Vec<Proposal>,
    /// The decide answer was text or a batch within the bound (PRJ-ASSIST-TURN-01 owes a result).
    well_formed: bool,
    decide_text: Option<String>,
    summary_text: Option<String>,
    /// The time (micro-ms) of the turn's last step.
    t: i64,
    /// When each entry started.
    started_at: Vec<i64>,
    /// When the current delay started.
    delay_from: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Path {
    turns: Vec<Turn>,
    /// Every decision-callback call made, in call order: (turn, phase, answered).
    calls: Vec<(usize, Phase, bool)>,
    /// Resolution handle -> (turn, entry) of a host resolution that acted on a turn.
    resolutions: BTreeMap<String, (usize, usize)>,
    /// RECOMMENDED sentences this path departs from.
    departures: BTreeSet<&'static str>,
}

/// What stays the same on every path.
struct Names {
    turns: BTreeMap<String, usize>,
    modes: Vec<Mode>,
    messages: Vec<Value>,
    signals: Vec<Option<String>>,
    /// Each declared capability's effect.
    effects: BTreeMap<String, String>,
    /// `assist.batchBound` after the clamp; `None`: the implementation's own.
    bound: Option<u8>,
    /// `assist.delays` (micro-ms of short, medium, long; `None` past the RECOMMENDED clamp).
    delays: Option<[Option<i64>; 3]>,
    ttl: i64,
    /// Resolution handles named by `resolve-confirmation` calls of a turn's action.
    resolution_handles: BTreeSet<String>,
}

pub struct Checker {
    model: AssistModel,
    names: Names,
    clock: Clock,
}

/// Whether the trace starts Assist turns (and so is this model's to judge).
pub fn applies(trace: &Trace) -> bool {
    trace.records().any(|r| matches!(&r.body, Body::Call { call, .. } if call.get("client").and_then(Value::as_str) == Some("assist-turn")))
}

/// A decide answer as the model takes it: the decision, the batch's items and proposals, and
/// the text of a text answer.
type Decision = (DecideAnswer, Vec<Item>, Vec<Proposal>, Option<String>);

/// A decoded decide or summarize answer.
enum Answer {
    Text(String),
    Batch(Vec<Value>),
    Malformed,
}

fn answer_of(settle: &Value) -> Answer {
    if let Some(text) = settle.get("text").and_then(Value::as_str) {
        return Answer::Text(text.to_string());
    }
    match settle.get("actions").and_then(Value::as_array) {
        Some(items) => Answer::Batch(items.clone()),
        None => Answer::Malformed,
    }
}

impl Checker {
    pub fn new(trace: &Trace) -> Result<Checker, OutOfScope> {
        let out = |line: usize, message: &str| OutOfScope { line, message: message.to_string() };
        let setup = &trace.header.setup;
        if setup.get("creation").and_then(Value::as_str) == Some("throws") {
            return Err(out(1, "a setup whose creation throws has no runtime to judge"));
        }
        let effects: BTreeMap<String, String> = setup
            .pointer("/definition/capabilities")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|c| Some((c.get("id")?.as_str()?.to_string(), c.get("effect").and_then(Value::as_str).unwrap_or_default().to_string())))
            .collect();
        let bound = setup.pointer("/assist/batchBound").and_then(Value::as_f64).map(|b| (b.floor() as i64).clamp(BOUND_CLAMP.0, BOUND_CLAMP.1) as u8);
        let delays = setup.pointer("/assist/delays").map(|d| {
            // CL-C03-4's clamp is RECOMMENDED: past it, a runtime may wait the clamp or more,
            // so that amount is the implementation's own.
            let amount = |symbol: &str| {
                let requested = d.get(symbol).and_then(Value::as_f64).unwrap_or(0.0);
                (requested <= DELAY_MAX_MS).then(|| micros(requested.max(0.0)))
            };
            [amount("short"), amount("medium"), amount("long")]
        });
        let ttl = micros(setup.pointer("/options/confirmationTtlMs").and_then(Value::as_f64).unwrap_or(DEFAULT_TTL_MS));
        let mut names = Names {
            turns: BTreeMap::new(),
            modes: Vec::new(),
            messages: Vec::new(),
            signals: Vec::new(),
            effects,
            bound,
            delays,
            ttl,
            resolution_handles: BTreeSet::new(),
        };
        for record in trace.records() {
            let record = &record;
            let query = match &record.body {
                Body::Call { call, .. } => call,
                Body::Observation { query, .. } => query,
            };
            if query.get("react").is_some() {
                return Err(out(record.line, "the React host binds through rendering: outside the Assist model"));
            }
            if query.get("runtime").is_some() || query.get("host").and_then(Value::as_str) == Some("create-runtime") {
                return Err(out(record.line, "a second runtime is outside the Assist model"));
            }
            let Body::Call { call, threw } = &record.body else { continue };
            match (call.get("client").and_then(Value::as_str), call.get("host").and_then(Value::as_str)) {
                (Some("invoke"), _) => {
                    return Err(out(record.line, "a direct invoke next to Assist turns: the Assist and invocation models are not composed"))
                }
                (Some("assist-turn"), _) => {
                    if *threw {
                        return Err(out(record.line, "an assist-turn call that threw starts no turn to judge"));
                    }
                    let handle = call.get("as").and_then(Value::as_str).unwrap_or_default().to_string();
                    names.turns.insert(handle, names.modes.len());
                    names.modes.push(if call.get("mode").and_then(Value::as_str) == Some("read-only") { Mode::ReadOnly } else { Mode::Normal });
                    names.messages.push(call.get("messages").cloned().unwrap_or(Value::Null));
                    names.signals.push(call.get("signal").and_then(Value::as_str).map(str::to_string));
                }
                (_, Some("resolve-confirmation")) if call.pointer("/confirmation/turn").is_some() => {
                    if let Some(handle) = call.get("as").and_then(Value::as_str) {
                        names.resolution_handles.insert(handle.to_string());
                    }
                }
                _ => {}
            }
        }
        // The largest bound the model needs: the declared one, or 32 when it is the
        // implementation's own.
        let model = AssistModel { batch_bound: bound.unwrap_or(BOUND_CLAMP.1 as u8), fault: None };
        Ok(Checker { model, names, clock: trace.header.clock })
    }

    /// Runs the whole trace.
    pub fn check(&self, trace: &Trace) -> Result<Verdict, OutOfScope> {
        let mut paths = vec![Path { turns: Vec::new(), calls: Vec::new(), resolutions: BTreeMap::new(), departures: BTreeSet::new() }];
        let mut now = 0i64;
        let mut judged = 0;
        let mut not_judged: BTreeMap<String, usize> = BTreeMap::new();
        let mut aborted: BTreeSet<String> = BTreeSet::new();
        let mut started = 0usize;
        for (index, record) in trace.records().enumerate() {
            let record = &record;
            let at = micros(record.at);
            if self.clock == Clock::Real && at > now {
                let next = self.settle(&paths, now, at);
                if next.is_empty() {
                    return Ok(Verdict::NotExplained(self.failure(index, record, &paths, vec!["time passing".into()], vec!["CL-C03-1".into()])));
                }
                paths = next;
                now = at;
            }
            match &record.body {
                Body::Call { call, threw } => {
                    let name = call_name(call);
                    let mut next = Vec::new();
                    let requirements: Vec<&str>;
                    match name.as_str() {
                        "clock advance" => {
                            judged += 1;
                            let to = now + micros(call.get("ms").and_then(Value::as_f64).unwrap_or(0.0));
                            next = self.settle(&paths, now, to);
                            now = to;
                            requirements = vec!["CL-C03-1", "CL-C06-2"];
                        }
                        "client assist-turn" => {
                            judged += 1;
                            let turn = started;
                            started += 1;
                            let cancelled = self.names.signals[turn].as_ref().is_some_and(|s| aborted.contains(s));
                            for path in &paths {
                                next.extend(self.start_turn(path, turn, cancelled, now));
                            }
                            requirements = vec!["CL-C01-1"];
                        }
                        "gate assist" => {
                            judged += 1;
                            let k = call.get("call").and_then(Value::as_u64).unwrap_or(0) as usize;
                            let settle = call.get("settle").cloned().unwrap_or(Value::Null);
                            for path in &paths {
                                next.extend(self.answer(path, k, &settle, *threw, now));
                            }
                            requirements = vec!["CL-C01-2", "CL-C01-4", "CL-C04-1", "CL-C04-2"];
                        }
                        "host resolve-confirmation" if call.pointer("/confirmation/turn").is_some() => {
                            judged += 1;
                            for path in &paths {
                                next.extend(self.resolve(path, call, now));
                            }
                            requirements = vec!["CL-C02-3", "CL-C02-4"];
                        }
                        "client abort" => {
                            judged += 1;
                            let signal = call.get("signal").and_then(Value::as_str).unwrap_or_default().to_string();
                            for path in &paths {
                                next.extend(self.abort(path, &signal, now));
                            }
                            aborted.insert(signal);
                            requirements = vec!["CL-C06-1", "CL-C06-2"];
                        }
                        _ => {
                            // The runtime's part (binds, policy and handler gates, ...): the
                            // invocation model's business. Runtime settlements may follow it.
                            *not_judged.entry(name).or_default() += 1;
                            let next = self.settle(&paths, now, now);
                            if !next.is_empty() {
                                paths = next;
                            }
                            continue;
                        }
                    }
                    let next = dedup(next);
                    if next.len() > MAX_PATHS {
                        return Err(OutOfScope {
                            line: record.line,
                            message: format!("more than {MAX_PATHS} model paths fit the trace so far: it leaves too much unobserved; record the turn (`assist-turn`) as it goes"),
                        });
                    }
                    if next.is_empty() {
                        let allowed = self.call_expectations(call, &paths);
                        return Ok(Verdict::NotExplained(self.failure(index, record, &paths, allowed, requirements.into_iter().map(str::to_string).collect())));
                    }
                    paths = next;
                }
                Body::Observation { query, value } => {
                    let Some(observation) = self.observation_kind(query) else {
                        *not_judged.entry(format!("observe {}", query.get("expect").and_then(Value::as_str).unwrap_or("?"))).or_default() += 1;
                        continue;
                    };
                    judged += 1;
                    let mut kept = Vec::new();
                    for path in &paths {
                        if let Some(departure) = self.observe(path, &observation, value) {
                            let mut path = path.clone();
                            path.departures.extend(departure);
                            kept.push(path);
                        }
                    }
                    let kept = dedup(kept);
                    if kept.is_empty() {
                        let allowed: Vec<String> = paths.iter().map(|p| self.expected(p, &observation)).collect::<BTreeSet<_>>().into_iter().collect();
                        let requirements = observation_requirements(&observation);
                        return Ok(Verdict::NotExplained(self.failure(index, record, &paths, allowed, requirements)));
                    }
                    paths = kept;
                }
            }
        }
        let fewest = paths.iter().map(|p| p.departures.len()).min().unwrap_or(0);
        let departures = paths.iter().find(|p| p.departures.len() == fewest).map(|p| p.departures.iter().map(|d| d.to_string()).collect()).unwrap_or_default();
        Ok(Verdict::Explained { paths: paths.len(), departures, judged, not_judged })
    }

    fn failure(&self, index: usize, record: &Record, paths: &[Path], allowed: Vec<String>, mut requirements: Vec<String>) -> Failure {
        requirements.sort();
        requirements.dedup();
        Failure { record: index, line: record.line, before: paths.iter().map(|p| self.describe(p)).collect(), allowed, requirements }
    }

    // -----------------------------------------------------------------------------------------
    // The turn's own steps and the runtime's settlements between records
    // -----------------------------------------------------------------------------------------

    /// Every path reachable from `paths` by the turns' own steps and the runtime's settlements
    /// while time moves from `from` to `to`, keeping only states the turns can rest in at `to`.
    fn settle(&self, paths: &[Path], from: i64, to: i64) -> Vec<Path> {
        let mut seen: HashSet<Path> = HashSet::new();
        let mut work: Vec<Path> = paths.to_vec();
        let mut all = Vec::new();
        while let Some(path) = work.pop() {
            if !seen.insert(path.clone()) {
                continue;
            }
            for (i, turn) in path.turns.iter().enumerate() {
                for (action, next) in self.internal(turn, from, to) {
                    let mut grown = path.clone();
                    if action == Action::CallSummarize {
                        grown.calls.push((i, Phase::Summarize, false));
                    }
                    grown.turns[i] = next;
                    work.push(grown);
                }
            }
            all.push(path);
        }
        dedup(all.into_iter().filter(|p| p.turns.iter().all(|t| self.rests(t, to))).collect())
    }

    /// The delay after the entry that just finished, in micro-ms (`None`: unknown).
    fn delay_amount(&self, turn: &Turn) -> Option<i64> {
        let item = turn.plan.get(turn.state.entries.len().checked_sub(1)?)?;
        match item.delay {
            Some(symbol) => self.names.delays.and_then(|d| d[symbol as usize]),
            None => Some(0),
        }
    }

    /// Whether a turn can wait in its state at time `now`.
    fn rests(&self, turn: &Turn, now: i64) -> bool {
        match turn.state.phase {
            TurnPhase::Ready | TurnPhase::BatchEnded => false,
            TurnPhase::Delaying => self.delay_amount(turn).is_none_or(|amount| turn.delay_from + amount > now),
            _ => true,
        }
    }

    /// The steps a turn may take by itself (or by a runtime settlement) between `from` and
    /// `to`, with the successor, timed.
    fn internal(&self, turn: &Turn, from: i64, to: i64) -> Vec<(Action, Turn)> {
        let mut actions = Vec::new();
        self.model.actions(&turn.state, &mut actions);
        let at = turn.t.max(from);
        let mut out = Vec::new();
        for action in actions {
            let when = match action {
                Action::StartAction(p) => (turn.proposals.get(turn.state.entries.len()) == Some(&p)).then_some(at),
                Action::InvokeSettles(_) | Action::ResolutionSettles(_) | Action::CallSummarize | Action::SkipSummarize => Some(at),
                Action::DelayElapses => match self.delay_amount(turn) {
                    Some(amount) => Some(at.max(turn.delay_from + amount)),
                    None => Some(at),
                },
                Action::ConfirmationExpires => {
                    let start = turn.started_at.last().copied().unwrap_or(0);
                    Some(at.max(start + self.names.ttl))
                }
                _ => None,
            };
            let Some(when) = when.filter(|w| *w <= to) else { continue };
            if let Some(next) = self.step(turn, action, when) {
                out.push((action, next));
            }
        }
        if summarize_after_waiting(&turn.state) {
            if let Some(next) = self.step(turn, Action::CallSummarize, at) {
                out.push((Action::CallSummarize, next));
            }
        }
        out
    }

    /// `action` taken at `when`, with the bookkeeping of times.
    fn step(&self, turn: &Turn, action: Action, when: i64) -> Option<Turn> {
        let state = self.model.next_state(&turn.state, action)?;
        let mut next = turn.clone();
        if matches!(action, Action::StartAction(_)) {
            next.started_at.push(when);
        }
        if state.phase == TurnPhase::Delaying && turn.state.phase != TurnPhase::Delaying {
            next.delay_from = when;
        }
        next.state = state;
        next.t = when;
        Some(next)
    }

    // -----------------------------------------------------------------------------------------
    // Calls
    // -----------------------------------------------------------------------------------------

    fn start_turn(&self, path: &Path, turn: usize, cancelled: bool, now: i64) -> Vec<Path> {
        let mode = self.names.modes[turn];
        let Some(state) = self.model.init_states().into_iter().find(|s| s.mode == mode) else { return Vec::new() };
        let mut t = Turn {
            state,
            plan: Vec::new(),
            proposals: Vec::new(),
            well_formed: false,
            decide_text: None,
            summary_text: None,
            t: now,
            started_at: Vec::new(),
            delay_from: now,
        };
        if cancelled {
            match self.step(&t, Action::Cancel, now) {
                Some(next) => t = next,
                None => return Vec::new(),
            }
        }
        let mut next = path.clone();
        next.turns.push(t);
        next.calls.push((turn, Phase::Decide, false));
        self.settle(&[next], now, now)
    }

    fn answer(&self, path: &Path, k: usize, settle: &Value, threw: bool, now: i64) -> Vec<Path> {
        let made = k >= 1 && k <= path.calls.len() && !path.calls[k - 1].2;
        if !made {
            // The k-th call was never made (or was already answered): settling it fails.
            return if threw { vec![path.clone()] } else { Vec::new() };
        }
        if threw {
            return Vec::new();
        }
        let (i, phase, _) = path.calls[k - 1];
        let mut base = path.clone();
        base.calls[k - 1].2 = true;
        let turn = &path.turns[i];
        let mut results = Vec::new();
        match phase {
            Phase::Decide if turn.state.phase == TurnPhase::Deciding => {
                for (decision, plan, proposals, text) in self.decisions(settle) {
                    let Some(mut next) = self.step(turn, Action::Decide(decision), now) else { continue };
                    next.well_formed = matches!(decision, DecideAnswer::Text | DecideAnswer::Batch(_));
                    next.plan = plan;
                    next.proposals = proposals;
                    next.decide_text = text;
                    let mut grown = base.clone();
                    grown.turns[i] = next;
                    results.push(grown);
                }
            }
            Phase::Summarize if turn.state.phase == TurnPhase::Summarizing => {
                let (kind, text) = match answer_of(settle) {
                    Answer::Text(text) => (SummarizeAnswer::Text, Some(text)),
                    Answer::Batch(_) => (SummarizeAnswer::Actions, None),
                    Answer::Malformed => (SummarizeAnswer::Malformed, None),
                };
                if let Some(mut next) = self.step(turn, Action::SummarizeAnswers(kind), now) {
                    next.summary_text = text;
                    let mut grown = base.clone();
                    grown.turns[i] = next;
                    results.push(grown);
                }
            }
            // The turn no longer waits on this call (it was cancelled): the answer changes
            // nothing.
            _ => results.push(base),
        }
        self.settle(&results, now, now)
    }

    /// The model decisions a decide answer can be (two when the bound is the implementation's
    /// own), with the plan and proposals of a batch and the text of a text answer.
    fn decisions(&self, settle: &Value) -> Vec<Decision> {
        let malformed = vec![(DecideAnswer::Malformed, Vec::new(), Vec::new(), None)];
        let items = match answer_of(settle) {
            Answer::Text(text) => return vec![(DecideAnswer::Text, Vec::new(), Vec::new(), Some(text))],
            Answer::Malformed => return malformed,
            Answer::Batch(items) => items,
        };
        let mut plan = Vec::new();
        // PRJ-ASSIST-BATCH-02 is RECOMMENDED: an unknown delay makes the answer malformed, or
        // (departing) is read as no delay.
        let mut unknown_delay = false;
        for item in &items {
            let Some(capability) = item.get("capabilityId").and_then(Value::as_str) else { return malformed };
            let delay = match item.get("delay") {
                None => None,
                Some(Value::String(s)) if s == "short" => Some(0),
                Some(Value::String(s)) if s == "medium" => Some(1),
                Some(Value::String(s)) if s == "long" => Some(2),
                Some(_) => {
                    unknown_delay = true;
                    None
                }
            };
            plan.push(Item {
                capability: capability.to_string(),
                input: serde_json::to_string(item.get("input").unwrap_or(&Value::Null)).unwrap_or_default(),
                delay,
            });
        }
        if plan.is_empty() {
            return malformed;
        }
        let proposals: Vec<Proposal> = plan
            .iter()
            .map(|item| match self.names.effects.get(&item.capability).map(String::as_str) {
                Some("read") => Proposal::Read,
                Some(_) => Proposal::NonRead,
                None => Proposal::Unknown,
            })
            .collect();
        let over = vec![(DecideAnswer::OverBoundBatch, Vec::new(), Vec::new(), None)];
        let within = |plan: Vec<Item>| (DecideAnswer::Batch(proposals.len() as u8), plan, proposals.clone(), None);
        let mut decisions = match self.names.bound {
            Some(bound) if plan.len() <= bound as usize => vec![within(plan)],
            Some(_) => over,
            None if plan.len() <= BOUND_CLAMP.1 as usize => vec![within(plan), over[0].clone()],
            None => over,
        };
        if unknown_delay {
            decisions.insert(0, malformed[0].clone());
        }
        decisions
    }

    fn resolve(&self, path: &Path, call: &Value, now: i64) -> Vec<Path> {
        let handle = call.get("as").and_then(Value::as_str).unwrap_or_default().to_string();
        let turn = call.pointer("/confirmation/turn").and_then(Value::as_str).and_then(|t| self.names.turns.get(t)).copied();
        let entry = call.pointer("/confirmation/action").and_then(Value::as_u64).unwrap_or(0) as usize;
        let approved = call.get("approved").and_then(Value::as_bool).unwrap_or(false);
        let waiting = turn.and_then(|i| path.turns.get(i).map(|t| (i, t))).filter(|(_, t)| t.state.phase == TurnPhase::AwaitingHost && t.state.entries.len() == entry && entry >= 1);
        let Some((i, turn)) = waiting else {
            // No turn waits on this confirmation: the runtime's business.
            return self.settle(std::slice::from_ref(path), now, now);
        };
        let mut actions = vec![if approved { Action::HostApproves } else { Action::HostDeclines }];
        if now >= turn.started_at.last().copied().unwrap_or(0) + self.names.ttl {
            actions.push(Action::ConfirmationExpires);
        }
        let mut results = Vec::new();
        for action in actions {
            if let Some(next) = self.step(turn, action, now) {
                let mut grown = path.clone();
                grown.turns[i] = next;
                grown.resolutions.insert(handle.clone(), (i, entry - 1));
                results.push(grown);
            }
        }
        self.settle(&results, now, now)
    }

    fn abort(&self, path: &Path, signal: &str, now: i64) -> Vec<Path> {
        let mut next = path.clone();
        for (i, turn) in path.turns.iter().enumerate() {
            if self.names.signals[i].as_deref() != Some(signal) {
                continue;
            }
            let mut actions = Vec::new();
            self.model.actions(&turn.state, &mut actions);
            if actions.contains(&Action::Cancel) {
                match self.step(turn, Action::Cancel, now) {
                    Some(cancelled) => next.turns[i] = cancelled,
                    None => return Vec::new(),
                }
            }
        }
        self.settle(&[next], now, now)
    }

    fn call_expectations(&self, call: &Value, paths: &[Path]) -> Vec<String> {
        match call_name(call).as_str() {
            "gate assist" => {
                let made: BTreeSet<String> = paths
                    .iter()
                    .map(|p| {
                        let open: Vec<String> = p.calls.iter().enumerate().filter(|(_, c)| !c.2).map(|(k, c)| format!("{} ({:?} of turn {})", k + 1, c.1, self.turn_name(c.0))).collect();
                        format!("{} callback call(s) made; unanswered: {}", p.calls.len(), if open.is_empty() { "none".into() } else { open.join(", ") })
                    })
                    .collect();
                made.into_iter().collect()
            }
            _ => vec!["no successor state".into()],
        }
    }

    // -----------------------------------------------------------------------------------------
    // Observations
    // -----------------------------------------------------------------------------------------

    fn observation_kind(&self, query: &Value) -> Option<Observation> {
        let of = query.get("of").and_then(Value::as_str).unwrap_or_default();
        match query.get("expect").and_then(Value::as_str)? {
            "assist-turn" => Some(Observation::Turn(*self.names.turns.get(of)?)),
            "assist-invocations" => Some(Observation::Invocations(*self.names.turns.get(of)?)),
            "outcome" if self.names.resolution_handles.contains(of) => Some(Observation::Resolution(of.to_string())),
            _ => None,
        }
    }

    /// `None`: the path does not explain the value; otherwise the RECOMMENDED sentences it
    /// departs from to explain it.
    fn observe(&self, path: &Path, observation: &Observation, value: &Value) -> Option<Vec<&'static str>> {
        match observation {
            Observation::Turn(i) => self.turn_matches(path, *i, value),
            Observation::Invocations(i) => {
                let turn = path.turns.get(*i)?;
                let records = value.as_array()?;
                let invoked: Vec<&Item> = turn.state.entries.iter().zip(&turn.plan).filter(|(e, _)| e.invoked).map(|(_, item)| item).collect();
                (records.len() == invoked.len()
                    && records.iter().zip(&invoked).all(|(r, item)| {
                        r.get("capabilityId").and_then(Value::as_str) == Some(item.capability.as_str())
                            && r.get("input") == serde_json::from_str::<Value>(&item.input).ok().as_ref()
                    }))
                .then(Vec::new)
            }
            Observation::Resolution(handle) => {
                let Some(&(i, entry)) = path.resolutions.get(handle) else {
                    // The resolution did not act on a turn: the runtime's business.
                    return Some(Vec::new());
                };
                let turn = &path.turns[i];
                if in_flight(&turn.state) == Some(entry) {
                    return Some(Vec::new());
                }
                match turn.state.entries[entry].result {
                    None => (value.as_str() == Some("pending")).then(Vec::new),
                    Some(result) => self.entry_matches(turn, entry, result, value),
                }
            }
        }
    }

    /// Whether `value` is the canonical outcome of entry `entry` with `result`.
    fn entry_matches(&self, turn: &Turn, entry: usize, result: EntryResult, value: &Value) -> Option<Vec<&'static str>> {
        let item = turn.plan.get(entry)?;
        if value.get("capabilityId").and_then(Value::as_str) != Some(item.capability.as_str()) {
            return None;
        }
        let status = value.get("status").and_then(Value::as_str);
        let code = value.get("code").and_then(Value::as_str);
        let proposal = turn.proposals.get(entry).copied();
        let ok = match result {
            EntryResult::Succeeded => status == Some("succeeded"),
            EntryResult::Failed if proposal == Some(Proposal::Unknown) => status == Some("failed") && code == Some("CAPABILITY_NOT_FOUND"),
            EntryResult::Failed => status == Some("failed"),
            EntryResult::Denied => status == Some("denied"),
            EntryResult::Declined => status == Some("denied") && code == Some("CONFIRMATION_DECLINED"),
            EntryResult::Expired => status == Some("failed") && code == Some("CONFIRMATION_EXPIRED"),
            EntryResult::Cancelled => true,
            EntryResult::RejectedLocally => {
                return match (status, code) {
                    (Some("denied"), Some("POLICY_DENIED")) => Some(Vec::new()),
                    (Some("failed" | "denied"), Some(_)) => Some(vec!["CL-C05-3"]),
                    _ => None,
                };
            }
        };
        ok.then(Vec::new)
    }

    /// The outcomes a turn completed: exactly the settled entries', or (after a cancellation
    /// with an entry in flight) those before it with or without any outcome of that entry
    /// (PRJ-ASSIST-CANCEL-02).
    fn outcomes_match(&self, turn: &Turn, value: &Value) -> Option<Vec<&'static str>> {
        let observed = value.as_array()?;
        let flying = in_flight(&turn.state);
        let definite: Vec<(usize, EntryResult)> = turn
            .state
            .entries
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != flying)
            .filter_map(|(i, e)| e.result.map(|r| (i, r)))
            .collect();
        let extra = match (observed.len().checked_sub(definite.len()), flying) {
            (Some(0), _) => None,
            (Some(1), Some(f)) => Some(f),
            _ => return None,
        };
        let mut departures = Vec::new();
        for ((i, result), outcome) in definite.iter().zip(observed) {
            departures.extend(self.entry_matches(turn, *i, *result, outcome)?);
        }
        if let Some(f) = extra {
            let capability = turn.plan.get(f).map(|item| item.capability.as_str());
            if observed.last().and_then(|o| o.get("capabilityId")).and_then(Value::as_str) != capability {
                return None;
            }
        }
        Some(departures)
    }

    fn turn_matches(&self, path: &Path, i: usize, value: &Value) -> Option<Vec<&'static str>> {
        let turn = path.turns.get(i)?;
        let s = &turn.state;
        let mut departures = Vec::new();
        // The callback calls made for the turn, in order (CL-C01-1, CL-C05-1).
        let calls = value.get("calls")?.as_array()?;
        let phases: Vec<Phase> = path.calls.iter().filter(|c| c.0 == i).map(|c| c.1).collect();
        if calls.len() != phases.len() {
            return None;
        }
        let mode = if s.mode == Mode::ReadOnly { "read-only" } else { "default" };
        for (call, phase) in calls.iter().zip(&phases) {
            let name = if *phase == Phase::Decide { "decide" } else { "summarize" };
            if call.get("phase").and_then(Value::as_str) != Some(name) || call.get("mode").and_then(Value::as_str) != Some(mode) {
                return None;
            }
            if s.mode == Mode::ReadOnly {
                let listed = call.get("capabilities").and_then(Value::as_array)?;
                if !listed.iter().all(|c| c.as_str().and_then(|c| self.names.effects.get(c)).map(String::as_str) == Some("read")) {
                    return None;
                }
            }
            match phase {
                Phase::Decide => {
                    if call.get("outcomes").and_then(Value::as_array).is_none_or(|o| !o.is_empty()) || call.get("messages") != Some(&self.names.messages[i]) {
                        return None;
                    }
                }
                Phase::Summarize => departures.extend(self.outcomes_match(turn, call.get("outcomes")?)?),
            }
        }
        // The result.
        let result = value.get("result")?;
        let ended = |text: Option<&Value>| -> Option<Vec<&'static str>> {
            let object = result.as_object()?;
            if let Some(text) = text {
                if object.get("text") != Some(text) {
                    return None;
                }
            } else if !object.contains_key("text") {
                return None;
            }
            self.outcomes_match(turn, object.get("outcomes")?)
        };
        let threw = result.as_str() == Some("threw");
        let pending = result.as_str() == Some("pending");
        let verdict = if s.cancelled.is_some() {
            if threw || (pending && may_wait(s)) {
                Some(Vec::new())
            } else {
                ended(None)
            }
        } else {
            match s.phase {
                TurnPhase::Done if s.decided == Some(DecideAnswer::Text) => {
                    let text = turn.decide_text.clone().map(Value::String).unwrap_or(Value::Null);
                    ended(Some(&text)).filter(|_| s.entries.is_empty())
                }
                TurnPhase::Done if !turn.well_formed => {
                    if threw {
                        Some(Vec::new())
                    } else {
                        ended(None)
                    }
                }
                TurnPhase::Done => {
                    let text = match (s.summarized, &turn.summary_text) {
                        (Some(SummarizeAnswer::Text), Some(text)) => Value::String(text.clone()),
                        _ => Value::Null,
                    };
                    ended(Some(&text))
                }
                _ => pending.then(Vec::new),
            }
        };
        departures.extend(verdict?);
        Some(departures)
    }

    /// What a path says an observation shows, readable.
    fn expected(&self, path: &Path, observation: &Observation) -> String {
        match observation {
            Observation::Turn(i) => match path.turns.get(*i) {
                Some(turn) => {
                    let phases: Vec<String> = path.calls.iter().filter(|c| c.0 == *i).map(|c| format!("{:?}", c.1).to_lowercase()).collect();
                    format!("turn {}: {}; callback calls: {}", self.turn_name(*i), self.result_text(turn), phases.join(", "))
                }
                None => format!("turn {} not started", self.turn_name(*i)),
            },
            Observation::Invocations(i) => match path.turns.get(*i) {
                Some(turn) => {
                    let invoked: Vec<&str> = turn.state.entries.iter().zip(&turn.plan).filter(|(e, _)| e.invoked).map(|(_, item)| item.capability.as_str()).collect();
                    format!("invocations of turn {}: [{}]", self.turn_name(*i), invoked.join(", "))
                }
                None => format!("turn {} not started", self.turn_name(*i)),
            },
            Observation::Resolution(handle) => match path.resolutions.get(handle) {
                Some(&(i, entry)) => match path.turns[i].state.entries[entry].result {
                    None => format!("outcome of {handle}: pending"),
                    Some(result) => format!("outcome of {handle}: {}", entry_text(result)),
                },
                None => format!("outcome of {handle}: not judged (no turn waited on it)"),
            },
        }
    }

    fn result_text(&self, turn: &Turn) -> String {
        let s = &turn.state;
        let outcomes: Vec<String> = s.entries.iter().filter_map(|e| e.result.map(entry_text)).collect();
        let done = format!("outcomes [{}]", outcomes.join(", "));
        if s.cancelled.is_some() {
            return format!("cancelled; threw, or ended with {done}{}", if may_wait(s) { ", or still pending" } else { "" });
        }
        match s.phase {
            TurnPhase::Done if s.decided == Some(DecideAnswer::Text) => format!("ended with the decide text {:?}", turn.decide_text.clone().unwrap_or_default()),
            TurnPhase::Done if !turn.well_formed => format!("threw, or ended with {done}"),
            TurnPhase::Done => format!(
                "ended with text {} and {done}",
                match (s.summarized, &turn.summary_text) {
                    (Some(SummarizeAnswer::Text), Some(text)) => format!("{text:?}"),
                    _ => "null".into(),
                }
            ),
            _ => "pending".into(),
        }
    }

    fn turn_name(&self, i: usize) -> String {
        self.names.turns.iter().find(|(_, &n)| n == i).map(|(h, _)| h.clone()).unwrap_or_else(|| format!("#{}", i + 1))
    }

    /// One path, readable: each turn's phase, its entries, and the callback calls.
    fn describe(&self, path: &Path) -> String {
        let mut parts = Vec::new();
        for (i, turn) in path.turns.iter().enumerate() {
            let s = &turn.state;
            let entries: Vec<String> = s
                .entries
                .iter()
                .zip(&turn.plan)
                .map(|(e, item)| format!("{} {}", item.capability, e.result.map(entry_text).unwrap_or_else(|| "in progress".into())))
                .collect();
            let mut text = format!(
                "turn {} ({}): {:?}{}",
                self.turn_name(i),
                if s.mode == Mode::ReadOnly { "read-only" } else { "default" },
                s.phase,
                s.cancelled.map(|c| format!(", cancelled ({c:?})")).unwrap_or_default()
            );
            if let Some(decided) = s.decided {
                text.push_str(&format!(", decided {decided:?}"));
            }
            if !entries.is_empty() {
                text.push_str(&format!(", entries [{}]", entries.join(", ")));
            }
            if s.summarize_calls > 0 {
                text.push_str(&format!(", summarize called{}", s.summarized.map(|a| format!(" and answered {a:?}")).unwrap_or_default()));
            }
            parts.push(text);
        }
        if !path.departures.is_empty() {
            parts.push(format!("departs from RECOMMENDED {}", path.departures.iter().copied().collect::<Vec<_>>().join(", ")));
        }
        if parts.is_empty() {
            "no turn started".into()
        } else {
            parts.join("; ")
        }
    }
}

/// What an observation asks.
#[derive(Debug, Clone)]
enum Observation {
    Turn(usize),
    Invocations(usize),
    Resolution(String),
}

fn observation_requirements(observation: &Observation) -> Vec<String> {
    let ids: &[&str] = match observation {
        Observation::Turn(_) => &["CL-C01-1", "CL-C01-4", "CL-C02-1", "CL-C02-2", "CL-C04-1", "CL-C05-2", "CL-C06-1", "PRJ-ASSIST-FMT-04", "PRJ-ASSIST-TURN-01"],
        Observation::Invocations(_) => &["CL-C02-1", "CL-C02-2", "CL-C05-2", "CL-C06-1"],
        Observation::Resolution(_) => &["CL-C02-3", "CL-C02-4"],
    };
    ids.iter().map(|s| s.to_string()).collect()
}

fn entry_text(result: EntryResult) -> String {
    match result {
        EntryResult::Succeeded => "succeeded",
        EntryResult::Failed => "failed",
        EntryResult::Denied => "denied",
        EntryResult::Declined => "denied CONFIRMATION_DECLINED",
        EntryResult::Expired => "failed CONFIRMATION_EXPIRED",
        EntryResult::Cancelled => "cancelled while its confirmation was pending (any outcome)",
        EntryResult::RejectedLocally => "rejected locally (denied POLICY_DENIED, RECOMMENDED)",
    }
    .into()
}

/// The entry in flight when the turn was cancelled (its invoke, confirmation or resolution was
/// pending): the last one started, since none starts after a cancellation.
fn in_flight(state: &TurnState) -> Option<usize> {
    match state.cancelled {
        Some(CancelPoint::ActionInFlight | CancelPoint::ConfirmationPending) => state.entries.len().checked_sub(1),
        _ => None,
    }
}

/// A turn cancelled while its confirmation was pending may keep waiting for the host UI's
/// resolution (PRJ-ASSIST-CANCEL-03 only RECOMMENDS it stop at once) and then, when an action
/// went through `invoke`, make its one summarize call (PRJ-ASSIST-CANCEL-01): the model ends such
/// a turn at the cancellation, so the checker lets its summarize call come later, once.
fn summarize_after_waiting(state: &TurnState) -> bool {
    state.phase == TurnPhase::Done
        && state.cancelled == Some(CancelPoint::ConfirmationPending)
        && state.summarize_calls == 0
        && state.entries.iter().any(|e| e.invoked)
}

/// Whether a cancelled turn may still be pending: while it may wait for what was in flight at
/// the cancellation (never after a cancelled delay, CL-C06-2, nor once the action in flight has
/// settled), as the model-generated vectors accept.
fn may_wait(state: &TurnState) -> bool {
    match state.cancelled {
        Some(CancelPoint::Delay) => false,
        Some(CancelPoint::ActionInFlight) => matches!(state.phase, TurnPhase::Invoking | TurnPhase::Resolving),
        _ => true,
    }
}

fn call_name(call: &Value) -> String {
    for key in ["host", "client", "gate", "clock"] {
        if let Some(kind) = call.get(key).and_then(Value::as_str) {
            return format!("{key} {kind}");
        }
    }
    "call".into()
}

fn dedup(paths: Vec<Path>) -> Vec<Path> {
    if paths.len() < 2 {
        return paths;
    }
    let mut seen: HashSet<Path> = HashSet::new();
    paths.into_iter().filter(|p| seen.insert(p.clone())).collect()
}
