//! Maps the Rixx UI vocabulary of vectors/README.md ("Rixx UI setup", "Rixx UI steps") onto the
//! reference runtime `reference::rui` (CL-D01..D09): setup builds a runtime (framing, catalog,
//! limits, action policy), `feed` steps deliver bytes in the given chunks, whole messages or the end
//! of the stream, `dispatch` and `gate` drive the action policy, and every expectation is answered
//! with its canonical observation. A step this mapping cannot interpret (or input of the wrong kind
//! for the framing) is an adapter error: it means the case itself is malformed.

use std::collections::BTreeMap;

use reference::rui::{
    ActionPolicy, Catalog, Config, DispatchId, DispatchStatus, Framing, Limits, Measure, PolicySettlement,
    Runtime, TransactionOutcome,
};
use reference::choices::Choices;
use serde_json::{json, Value};

use super::{CaseDriver, Started};
use crate::adapter::{AdapterError, Reply};

/// The framings the reference decodes: all four of CL-D07.
pub(crate) const PROFILES: &[&str] = &["jsonl", "sse", "websocket", "json-seq"];

/// How the reference counts depth and operations under these choices (`Measure::of`), as the
/// handshake declares it (`limitsMeasure`).
pub(crate) fn declared_measure(choices: &Choices) -> crate::measure::LimitsMeasure {
    // The reference's own measure is always one the handshake can say.
    crate::measure::LimitsMeasure::decode(Measure::of(choices).to_json().as_ref()).unwrap_or_default()
}

/// The reference's own limits profile under these choices (`Limits::declared`).
pub(crate) fn declared_limits(choices: &Choices) -> Option<Value> {
    Some(Limits::declared(choices).to_json())
}

pub(crate) fn start(
    setup: &Value,
    choices: &Choices,
    catalogs: &mut super::Recent<Catalog>,
) -> Result<Started, AdapterError> {
    let framing = setup
        .get("framing")
        .and_then(Value::as_str)
        .and_then(Framing::from_name)
        .ok_or_else(|| error("setup.framing is not one of jsonl, sse, websocket, json-seq"))?;
    let limits = match setup.get("limits") {
        Some(limits) => {
            Limits::from_json(limits).map_err(|e| error(&format!("setup.limits: {e}")))?
        }
        None => Limits::declared(choices),
    };
    let action_policy = action_policy(setup.get("actionPolicy"))?;
    let catalog = setup
        .get("catalog")
        .ok_or_else(|| error("setup.catalog is missing"))?;
    // An invalid catalog id or props schema is a host configuration error: creation throws.
    let Some(catalog) = catalogs.get_or_build(catalog, || Ok::<_, AdapterError>(Catalog::from_json(catalog).ok()))? else {
        return Ok((Reply::Threw, None));
    };
    let runtime = Runtime::new(Config {
        framing,
        catalog,
        limits,
        action_policy,
        choices: choices.clone(),
    });
    Ok((
        Reply::Done,
        Some(Box::new(RuiCase {
            runtime,
            dispatches: BTreeMap::new(),
        })),
    ))
}

fn error(message: &str) -> AdapterError {
    AdapterError(message.to_string())
}

fn action_policy(policy: Option<&Value>) -> Result<ActionPolicy, AdapterError> {
    let Some(policy) = policy else {
        return Ok(ActionPolicy::Gated);
    };
    match policy.get("mode").and_then(Value::as_str) {
        Some("gated") => Ok(ActionPolicy::Gated),
        Some("scripted") => {
            let settle = policy
                .get("settle")
                .ok_or_else(|| error("a scripted actionPolicy needs settle"))?;
            Ok(ActionPolicy::Scripted(settlement(settle)?))
        }
        _ => Err(error("actionPolicy.mode is not gated or scripted")),
    }
}

/// A settlement `{ "return": V }` or `{ "throw": ... }`.
fn settlement(settle: &Value) -> Result<PolicySettlement, AdapterError> {
    if let Some(value) = settle.get("return") {
        Ok(PolicySettlement::Return(value.clone()))
    } else if settle.get("throw").is_some() {
        Ok(PolicySettlement::Throw)
    } else {
        Err(error("a settlement needs return or throw"))
    }
}

struct RuiCase {
    runtime: Runtime,
    dispatches: BTreeMap<String, DispatchId>,
}

impl CaseDriver for RuiCase {
    fn step(&mut self, step: &Value) -> Result<Reply, AdapterError> {
        if let Some(feed) = step.get("feed").and_then(Value::as_str) {
            self.feed(feed, step)?;
            Ok(Reply::Done)
        } else if step.get("dispatch").and_then(Value::as_str) == Some("action") {
            self.dispatch(step)?;
            Ok(Reply::Done)
        } else if step.get("gate").and_then(Value::as_str) == Some("action-policy") {
            self.gate(step)?;
            Ok(Reply::Done)
        } else if let Some(observation) = step.get("expect").and_then(Value::as_str) {
            self.observe(observation, step).map(Reply::Observed)
        } else {
            // Keys only: a step may carry stream data, which diagnostics never echo (CL-D08-3).
            let keys: Vec<&str> = step
                .as_object()
                .map(|o| o.keys().map(String::as_str).collect())
                .unwrap_or_default();
            Err(error(&format!(
                "not a Rixx UI step (keys: {})",
                keys.join(", ")
            )))
        }
    }
}

impl RuiCase {
    fn feed(&mut self, feed: &str, step: &Value) -> Result<(), AdapterError> {
        match feed {
            "bytes" => {
                let bytes = bytes_of(step.get("data"))?;
                for chunk in chunks(&bytes, step.get("chunks"))? {
                    self.runtime
                        .feed(chunk)
                        .map_err(|e| error(&e.to_string()))?;
                }
                Ok(())
            }
            "message" => {
                let bytes = bytes_of(step.get("data"))?;
                self.runtime
                    .feed_message(&bytes)
                    .map_err(|e| error(&e.to_string()))
            }
            "end" => {
                self.runtime.end();
                Ok(())
            }
            other => Err(error(&format!("unknown feed {other}"))),
        }
    }

    fn dispatch(&mut self, step: &Value) -> Result<(), AdapterError> {
        let handle = string_field(step, "as")?;
        let node = string_field(step, "node")?;
        let prop = string_field(step, "prop")?;
        if self.dispatches.contains_key(handle) {
            return Err(error(&format!("dispatch handle {handle} used twice")));
        }
        let id = self.runtime.dispatch(node, prop);
        self.dispatches.insert(handle.to_string(), id);
        Ok(())
    }

    fn gate(&mut self, step: &Value) -> Result<(), AdapterError> {
        let call = step
            .get("call")
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| error("gate.call is not a positive integer"))?;
        let settle = settlement(
            step.get("settle")
                .ok_or_else(|| error("gate.settle is missing"))?,
        )?;
        self.runtime
            .settle_action_policy(call, &settle)
            .map_err(|e| error(&format!("gate action-policy call {call}: {e}")))
    }

    /// One entry per frame received, in order: quarantined (an invalid frame), rejected (its
    /// record was rejected outside a transaction) or accepted (everything else).
    fn frames(&self) -> Result<Value, AdapterError> {
        let count = self.runtime.frames_received();
        // `{"frame":N,"result":"quarantined","code":"C"},`: at most about 70 bytes each.
        let bytes = usize::try_from(count).unwrap_or(usize::MAX).saturating_mul(70);
        if bytes > crate::driver::MAX_LINE_BYTES {
            return Err(error(&format!(
                "the frames observation of {count} frames could exceed the driver protocol's bound of {} bytes",
                crate::driver::MAX_LINE_BYTES
            )));
        }
        let quarantined: BTreeMap<u64, &str> = self.runtime.quarantine().iter().map(|q| (q.frame, q.code.as_str())).collect();
        let rejected: BTreeMap<u64, &str> = self.runtime.rejections().iter().map(|r| (r.frame, r.code.as_str())).collect();
        Ok(Value::Array(
            (0..count)
                .map(|frame| match (quarantined.get(&frame), rejected.get(&frame)) {
                    (Some(code), _) => json!({ "frame": frame, "result": "quarantined", "code": code }),
                    (None, Some(code)) => json!({ "frame": frame, "result": "rejected", "code": code }),
                    (None, None) => json!({ "frame": frame, "result": "accepted" }),
                })
                .collect(),
        ))
    }

    fn observe(&self, observation: &str, step: &Value) -> Result<Value, AdapterError> {
        let committed = self.runtime.committed();
        Ok(match observation {
            "graph" => committed.graph_json(),
            "data" => committed.data.clone(),
            "revision" => json!(committed.revision),
            "transactions" => Value::Array(
                self.runtime
                    .transactions()
                    .iter()
                    .map(|t| match t.outcome {
                        TransactionOutcome::Committed { revision } => {
                            json!({ "transactionId": t.transaction_id, "result": "committed", "revision": revision })
                        }
                        TransactionOutcome::Aborted => json!({ "transactionId": t.transaction_id, "result": "aborted" }),
                        TransactionOutcome::Rejected(code) => {
                            json!({ "transactionId": t.transaction_id, "result": "rejected", "code": code.as_str() })
                        }
                    })
                    .collect(),
            ),
            "frames" => self.frames()?,
            "quarantine" => frame_records(self.runtime.quarantine().iter().map(|q| (q.frame, q.code.as_str())))?,
            "rejections" => frame_records(self.runtime.rejections().iter().map(|r| (r.frame, r.code.as_str())))?,
            "dispatch" => {
                let handle = string_field(step, "of")?;
                let id = self.dispatches.get(handle).ok_or_else(|| error(&format!("no dispatch named {handle}")))?;
                match self.runtime.dispatch_status(*id) {
                    Some(DispatchStatus::Pending) => json!("pending"),
                    Some(DispatchStatus::Allowed) => json!({ "status": "allowed" }),
                    Some(DispatchStatus::Denied(code)) => json!({ "status": "denied", "code": code.as_str() }),
                    Some(DispatchStatus::Rejected(code)) => json!({ "status": "rejected", "code": code.as_str() }),
                    None => return Err(error(&format!("dispatch {handle} is unknown to the runtime"))),
                }
            }
            "action-policy-calls" => Value::Array(
                self.runtime
                    .action_policy_calls()
                    .iter()
                    .map(|c| json!({ "node": c.node, "prop": c.prop, "capabilityId": c.capability_id, "input": c.input }))
                    .collect(),
            ),
            other => return Err(error(&format!("unknown Rixx UI observation {other}"))),
        })
    }
}

fn string_field<'a>(step: &'a Value, name: &str) -> Result<&'a str, AdapterError> {
    step.get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| error(&format!("step field {name} is not a string")))
}

/// The bytes of `{ "text": s }` (its UTF-8) or `{ "hex": h }`.
fn bytes_of(data: Option<&Value>) -> Result<Vec<u8>, AdapterError> {
    let data = data.ok_or_else(|| error("feed step without data"))?;
    if let Some(text) = data.get("text").and_then(Value::as_str) {
        return Ok(text.as_bytes().to_vec());
    }
    let hex = data
        .get("hex")
        .and_then(Value::as_str)
        .ok_or_else(|| error("data is neither text nor hex"))?;
    let digits = hex.as_bytes();
    if digits.len() % 2 != 0 {
        return Err(error("hex data has an odd number of digits"));
    }
    digits
        .chunks(2)
        .map(|pair| {
            std::str::from_utf8(pair)
                .ok()
                .and_then(|pair| u8::from_str_radix(pair, 16).ok())
                .ok_or_else(|| error("hex data holds a non-hex digit"))
        })
        .collect()
}

/// `bytes` cut into chunks of the given sizes; whatever is left is one last chunk.
fn chunks<'a>(bytes: &'a [u8], sizes: Option<&Value>) -> Result<Vec<&'a [u8]>, AdapterError> {
    let mut out = Vec::new();
    let mut rest = bytes;
    if let Some(sizes) = sizes {
        let sizes = sizes
            .as_array()
            .ok_or_else(|| error("chunks is not an array"))?;
        for size in sizes {
            let size = size
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .filter(|n| *n >= 1)
                .ok_or_else(|| error("a chunk size is not a positive integer"))?;
            let (head, tail) = rest.split_at(size.min(rest.len()));
            if !head.is_empty() {
                out.push(head);
            }
            rest = tail;
        }
    }
    if !rest.is_empty() {
        out.push(rest);
    }
    Ok(out)
}

/// The `quarantine` or `rejections` observation: one `{frame, code}` per record. A stream can
/// quarantine a record per two bytes, and a parsed record costs some 400 bytes, so an observation
/// whose JSON would exceed the driver protocol's response bound (`driver::MAX_LINE_BYTES`) is
/// refused before it is built (issue 14, memory): the in-process adapter then gives the same
/// `errored` verdict as the same case over stdio, where the harness refuses the line, and a million
/// quarantined frames cost megabytes, not a gigabyte.
fn frame_records(records: impl Iterator<Item = (u64, &'static str)> + Clone) -> Result<Value, AdapterError> {
    // `{"frame":N,"code":"C"},` is 21 bytes plus the digits and the code.
    let bytes: usize = records.clone().map(|(frame, code)| 21 + frame.to_string().len() + code.len()).sum();
    if bytes > crate::driver::MAX_LINE_BYTES {
        return Err(error(&format!(
            "the observation would take {bytes} bytes of JSON, more than the driver protocol's bound of {} bytes",
            crate::driver::MAX_LINE_BYTES
        )));
    }
    Ok(Value::Array(records.map(|(frame, code)| json!({ "frame": frame, "code": code })).collect()))
}
