//! Maps the Assist vocabulary of vectors/README.md ("Assist (profile `assist`)") onto the reference
//! orchestrator `reference::rcip::assist` (RCIP-PROTO-ASSIST-01..12, CLARIFICATIONS C01..C06), for
//! the RCIP case driver (`rcip.rs`), which offers every step here first:
//!
//! - setup `assist`: the requested batch bound and delay amounts (clamped by the orchestrator);
//! - `client: assist-turn`: a turn over the case's first runtime, with the case's named signal;
//! - `gate: assist`: settles the k-th decision-callback call (every call answers pending) with the
//!   vector's answer written in the reference's shape (`{text}`, `{actions}`; a malformed item or
//!   answer becomes a value the orchestrator refuses);
//! - `host: resolve-confirmation` naming `{turn, action}`: the host UI's resolution;
//! - `clock: advance` once a turn exists: every runtime advances together, stopping at each pause's
//!   end so the next action starts at exactly that virtual time;
//! - `expect: assist-turn`: `{result, calls}` in canonical form (outcomes without messages);
//! - `expect: assist-invocations`: every `invoke` the orchestrator made for the turn, in order.
//!
//! Before any step the turns react to what the previous step changed (a settled gate, an abort):
//! the equivalent of JavaScript flushing promise reactions between steps. Every other step is left
//! to the RCIP driver, except `outcome` and `outcome-text` of a resolution handle made here.

use std::collections::BTreeMap;

use reference::rcip::assist::{
    AssistConfig, AssistGateError, Assistant, CallbackAnswer, CallbackId, CallbackView, DelayAmounts, Mode, TurnEnd, TurnId, TurnRequest,
};
use reference::rcip::{AbortSignal, HostError, Outcome, OutcomeBody, Runtime, Ticket};
use reference::choices::Choices;
use serde_json::{json, Map, Value};

use crate::adapter::{AdapterError, Reply};

/// The reference implements the Assist orchestrator.
pub(crate) const PROFILES: &[&str] = &["assist"];

/// The bound the reference declares in the handshake: its default (CL-C01-3).
pub(crate) fn declared_batch_bound(choices: &Choices) -> u64 {
    reference::rcip::assist::declared_batch_bound(choices) as u64
}

/// The error text of every host error the vectors plant (vectors/README.md, CL-B02-2).
const HOST_SECRET: &str = "host-secret-7f3a";

fn error(message: &str) -> AdapterError {
    AdapterError(message.to_string())
}

/// The Assist side of one RCIP case.
pub(crate) struct AssistCase {
    assistant: Assistant,
    turns: BTreeMap<String, TurnId>,
    /// Resolutions made by the host UI for a turn: handle -> ticket on the first runtime.
    resolutions: BTreeMap<String, Ticket>,
}

impl AssistCase {
    /// The orchestrator of a case, configured by `setup.assist` (absent: the defaults).
    pub(crate) fn from_setup(setup: &Value, choices: &Choices) -> Result<AssistCase, AdapterError> {
        let config = match setup.get("assist") {
            None => AssistConfig::with_choices(None, DelayAmounts::default(), choices),
            Some(options) => {
                let integer = |value: Option<&Value>, what: &str| -> Result<Option<i64>, AdapterError> {
                    value
                        .map(|v| v.as_i64().ok_or_else(|| error(&format!("setup.assist.{what} is not an integer"))))
                        .transpose()
                };
                let delays = options.get("delays");
                AssistConfig::with_choices(
                    integer(options.get("batchBound"), "batchBound")?,
                    DelayAmounts {
                        short: integer(delays.and_then(|d| d.get("short")), "delays.short")?,
                        medium: integer(delays.and_then(|d| d.get("medium")), "delays.medium")?,
                        long: integer(delays.and_then(|d| d.get("long")), "delays.long")?,
                    },
                    choices,
                )
            }
        };
        // Every call waits for its gate step: the vector settles it.
        let assistant = Assistant::new(config, Box::new(|_: &CallbackView, _: CallbackId| CallbackAnswer::Pending));
        Ok(AssistCase { assistant, turns: BTreeMap::new(), resolutions: BTreeMap::new() })
    }

    /// Offered every step of the case first. `runtimes`: the case's runtimes, the setup's first;
    /// `signals`: the case's named signals. `Ok(None)`: not an Assist step, the RCIP driver runs it.
    pub(crate) fn step(
        &mut self,
        step: &Value,
        mut runtimes: Vec<&mut Runtime>,
        signals: &mut BTreeMap<String, AbortSignal>,
    ) -> Result<Option<Reply>, AdapterError> {
        let Some(main) = runtimes.first_mut() else {
            return Err(error("the case has no runtime"));
        };
        if !self.turns.is_empty() {
            self.assistant.pump(main);
        }
        if step.get("client").and_then(Value::as_str) == Some("assist-turn") {
            self.start_turn(step, main, signals)?;
            return Ok(Some(Reply::Done));
        }
        if step.get("gate").and_then(Value::as_str) == Some("assist") {
            return self.gate(step, main).map(Some);
        }
        if step.get("host").and_then(Value::as_str) == Some("resolve-confirmation")
            && step.pointer("/confirmation/turn").is_some()
        {
            return self.resolve(step, main).map(Some);
        }
        if step.get("expect").and_then(Value::as_str) == Some("assist-turn") {
            return Ok(Some(Reply::Observed(self.observe(step)?)));
        }
        if step.get("expect").and_then(Value::as_str) == Some("assist-invocations") {
            let id = self.turn_id(text(step, "of")?)?;
            let invocations = self.assistant.invocations(id).ok_or_else(|| error("turn index"))?;
            return Ok(Some(Reply::Observed(Value::Array(
                invocations.iter().map(|(capability, input)| json!({ "capabilityId": capability, "input": input })).collect(),
            ))));
        }
        let resolution = step.get("of").and_then(Value::as_str).and_then(|of| self.resolutions.get(of)).copied();
        if let (Some(ticket), Some(kind)) = (resolution, step.get("expect").and_then(Value::as_str)) {
            let outcome = main.outcome(ticket);
            return Ok(Some(Reply::Observed(match kind {
                "outcome" => outcome.map_or(json!("pending"), canonical_outcome),
                "outcome-text" => json!(outcome.map(Outcome::texts).unwrap_or_default()),
                other => return Err(error(&format!("'{other}' does not observe a resolution"))),
            })));
        }
        if step.get("clock").and_then(Value::as_str) == Some("advance") && !self.turns.is_empty() {
            let ms = step.get("ms").and_then(Value::as_u64).ok_or_else(|| error("clock.ms is not an integer"))?;
            self.advance(ms, &mut runtimes);
            return Ok(Some(Reply::Done));
        }
        Ok(None)
    }

    fn start_turn(
        &mut self,
        step: &Value,
        runtime: &mut Runtime,
        signals: &mut BTreeMap<String, AbortSignal>,
    ) -> Result<(), AdapterError> {
        let name = text(step, "as")?;
        if self.turns.contains_key(name) {
            return Err(error(&format!("turn handle '{name}' is used twice")));
        }
        let mode = Mode::parse(text(step, "mode")?).ok_or_else(|| error("assist-turn.mode"))?;
        let messages = step
            .get("messages")
            .and_then(Value::as_array)
            .cloned()
            .ok_or_else(|| error("assist-turn.messages is not an array"))?;
        let signal =
            step.get("signal").and_then(Value::as_str).map(|name| signals.entry(name.to_string()).or_default().clone());
        let id = self.assistant.start_turn(runtime, TurnRequest { mode, messages, signal });
        self.turns.insert(name.to_string(), id);
        Ok(())
    }

    /// Settles a decision-callback call. A call the implementation never made is `Threw` (as for
    /// the RCIP gates): the implementation behaved otherwise than the vector expects, which is a
    /// verdict about it, not a broken adapter.
    fn gate(&mut self, step: &Value, runtime: &mut Runtime) -> Result<Reply, AdapterError> {
        let k = step
            .get("call")
            .and_then(Value::as_u64)
            .filter(|k| *k >= 1)
            .ok_or_else(|| error("gate.call is not a positive integer"))?;
        let answer = answer_of(step.get("settle").ok_or_else(|| error("gate.settle is missing"))?)?;
        match self.assistant.settle_callback(runtime, CallbackId(k - 1), answer) {
            Ok(()) => Ok(Reply::Done),
            Err(AssistGateError::UnknownCall) => Ok(Reply::Threw),
            Err(e) => Err(error(&format!("gate assist call {k}: {e:?}"))),
        }
    }

    /// The host UI resolves a turn action's confirmation. An action that never asked for one is
    /// `Threw`, like an unmade gate call.
    fn resolve(&mut self, step: &Value, runtime: &mut Runtime) -> Result<Reply, AdapterError> {
        let turn = self.turn_id(step.pointer("/confirmation/turn").and_then(Value::as_str).unwrap_or_default())?;
        let action = step
            .pointer("/confirmation/action")
            .and_then(Value::as_u64)
            .and_then(|a| usize::try_from(a).ok())
            .ok_or_else(|| error("resolve.confirmation.action is not a positive integer"))?;
        let approved = step.get("approved").and_then(Value::as_bool).ok_or_else(|| error("resolve.approved"))?;
        let name = text(step, "as")?;
        if self.resolutions.contains_key(name) {
            return Err(error(&format!("resolution handle '{name}' is used twice")));
        }
        let ticket = match self.assistant.resolve_confirmation(runtime, turn, action, approved) {
            Ok(ticket) => ticket,
            Err(AssistGateError::NoConfirmation) => return Ok(Reply::Threw),
            Err(e) => return Err(error(&format!("resolve action {action}: {e:?}"))),
        };
        self.resolutions.insert(name.to_string(), ticket);
        Ok(Reply::Done)
    }

    /// Every runtime moves together (one virtual clock per case), stopping at each pause's end.
    fn advance(&mut self, ms: u64, runtimes: &mut [&mut Runtime]) {
        let Some(start) = runtimes.first().map(|r| r.now()) else { return };
        let target = start.saturating_add(ms);
        loop {
            let now = runtimes.first().map_or(target, |r| r.now());
            let stop = self.assistant.next_deadline().filter(|d| *d <= target).unwrap_or(target).max(now);
            for runtime in runtimes.iter_mut() {
                runtime.advance(stop - now);
            }
            if let Some(main) = runtimes.first_mut() {
                self.assistant.pump(main);
            }
            if stop >= target {
                return;
            }
        }
    }

    fn turn_id(&self, name: &str) -> Result<TurnId, AdapterError> {
        self.turns.get(name).copied().ok_or_else(|| error(&format!("unknown turn handle '{name}'")))
    }

    /// `{result, calls}` of a turn (vectors/README.md, PRJ-ASSIST-FMT-04).
    fn observe(&self, step: &Value) -> Result<Value, AdapterError> {
        let id = self.turn_id(text(step, "of")?)?;
        let turn = self.assistant.turn(id).ok_or_else(|| error("turn index"))?;
        let result = match turn.end() {
            None => json!("pending"),
            Some(TurnEnd::Failed(_)) => json!("threw"),
            Some(TurnEnd::Finished { text }) => json!({
                "text": text,
                "outcomes": turn.outcomes().iter().map(canonical_outcome).collect::<Vec<_>>(),
            }),
        };
        let calls: Vec<Value> = turn
            .calls()
            .iter()
            .map(|view| {
                json!({
                    "phase": view.phase.as_str(),
                    "mode": view.mode.as_str(),
                    "capabilities": view.capability_ids(),
                    "messages": view.messages,
                    "outcomes": view.outcomes.iter().map(canonical_outcome).collect::<Vec<_>>(),
                })
            })
            .collect();
        Ok(json!({ "result": result, "calls": calls }))
    }
}

fn text<'a>(step: &'a Value, key: &str) -> Result<&'a str, AdapterError> {
    step.get(key).and_then(Value::as_str).ok_or_else(|| error(&format!("step has no string '{key}': {step}")))
}

/// A vector answer (`assistAnswer`) as the reference's callback returns it.
fn answer_of(settle: &Value) -> Result<Result<Value, HostError>, AdapterError> {
    if settle.get("throw").and_then(Value::as_str) == Some("error") {
        return Ok(Err(HostError::error(HOST_SECRET)));
    }
    if let Some(text) = settle.get("text") {
        return Ok(Ok(json!({ "text": text })));
    }
    if settle.get("malformed").and_then(Value::as_str) == Some("not-an-answer") {
        return Ok(Ok(json!(42)));
    }
    let items =
        settle.get("actions").and_then(Value::as_array).ok_or_else(|| error(&format!("not an answer: {settle}")))?;
    let items = items
        .iter()
        .map(|item| match item.get("malformed").and_then(Value::as_str) {
            None => Ok(item.clone()),
            Some("not-an-object") => Ok(json!(7)),
            Some("no-capability") => Ok(json!({ "input": {} })),
            Some(other) => Err(error(&format!("unknown malformed item '{other}'"))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Ok(json!({ "actions": items })))
}

/// The canonical outcome of vectors/README.md (CL-A06 without messages).
fn canonical_outcome(outcome: &Outcome) -> Value {
    let mut object = Map::new();
    object.insert("status".into(), json!(outcome.status().as_str()));
    object.insert("invocationId".into(), json!(outcome.invocation_id));
    object.insert("capabilityId".into(), json!(outcome.capability_id));
    match &outcome.body {
        OutcomeBody::Succeeded { output } => {
            object.insert("output".into(), output.clone());
        }
        OutcomeBody::ConfirmationRequired(info) => {
            object.insert(
                "confirmation".into(),
                json!({ "id": info.id, "effect": info.effect.as_str(), "expiresAt": info.expires_at_json() }),
            );
        }
        OutcomeBody::Error(error) => {
            object.insert("code".into(), json!(error.code.as_str()));
            if let Some(issues) = &error.validation_issues {
                let issues: Vec<Value> = issues
                    .iter()
                    .map(|issue| json!({ "instancePath": issue.instance_path, "keyword": issue.keyword }))
                    .collect();
                object.insert("validationIssues".into(), Value::Array(issues));
            }
        }
    }
    Value::Object(object)
}
