//! Maps the RCIP vocabulary of vectors/README.md ("Values", "RCIP setup", "RCIP steps") onto the
//! reference runtime `reference::rcip` (spec 000/001, CLARIFICATIONS A and B, profile `events`):
//! setup builds the definition (escapes decoded into host values) and a runtime with its options;
//! every host, client, gate and clock step becomes one call on the runtime; every expectation is
//! answered with its canonical observation (outcomes without messages, call records deep-copied at
//! call time, snapshot JSON and relations, list ids, notifications, events, handler signals).
//!
//! The adapter holds what a JavaScript adapter would hold: the caller's input objects (for
//! `mutate-input`), snapshot objects (for identity), unbind functions, signals (one namespace per
//! case, shared by every runtime), and per runtime the records its callbacks keep. A step that
//! names an unknown handle or call, or that this mapping cannot interpret, is an adapter error (the
//! case is malformed). Where the implementation, not the vector, is at fault the adapter answers
//! as the Node adapter does (harness/node/README.md): a gate for a call never made answers
//! `threw`, `handler-signal` of a call never made observes `null`, resolving "the confirmation of"
//! an outcome that carries none resolves an id no confirmation has; `mutateInput` applies to
//! policy settlements too; members of a `literal` are values. Every step is first offered to the
//! Assist mapping (`assist.rs`, profile `assist`, issue 7); the Assist fallbacks left here answer
//! `unsupported`.
//! `mutate-definition` writes into the definition as the host passed it, which the reference
//! copied at creation. A policy settlement's `mutateCapability` is a no-op by construction: the
//! reference hands each policy call its own copy of the snapshot entry (`PolicyCall::capability`,
//! a value the call owns), so a write to it reaches nothing the runtime keeps. `mutate-snapshot` is a no-op by construction: the reference hands out snapshots that cannot be
//! written through (CL-B14-3). `handler-context` is the handler's `ctx` recorded at call time
//! (CL-A04-3..6); `caller-input` encodes the caller's own input object as it is now (escapes for
//! what JSON cannot hold, a cycle as a `ref` to its ancestor). Profile `preflight` (CL-B24): the
//! `preflight` step calls the reference's dry-run once and keeps its reports for the expectation.
//! `invoke-malformed` and a `malformed` confirmation id (CL-B02-1, issue 25 §3) build the
//! argument a JavaScript caller would pass and hand it to the reference's raw entries
//! (`Runtime::invoke_raw`, `Runtime::resolve_confirmation_raw`), which decide what they read;
//! `createId` is `sequential` or `host-prefixed` (CL-A01-6).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use reference::rcip::{
    AbortSignal, Answer, BindingSpec, BindingToken, CallId, Definition, HandlerCall, HostError,
    Getter, HostErrorName, HostObject, HostValue, InvokeRequest, ListFilter, ObjectData, OutcomeBody,
    PolicyCall, Proposal, ProposalReport, Prototype, RawInvokeRequest, RawSignal, RcipEvent,
    Runtime, RuntimeOptions,
    Settlement, Snapshot, SubscriptionId, Ticket,
};
use reference::choices::Choices;
use serde_json::{json, Map, Value};

use super::{CaseDriver, Started};
use crate::adapter::{AdapterError, Reply};

mod react;

/// The reference implements the `events` (CL-B23), `preflight` (CL-B24) and `react` (CL-A08,
/// `rcip/react.rs`) profiles.
pub(crate) const PROFILES: &[&str] = &["events", "preflight", "react"];

/// The error text of every host error the vectors plant (vectors/README.md, CL-B02-2).
const HOST_SECRET: &str = "host-secret-7f3a";

pub(crate) fn start(
    setup: &Value,
    choices: &Choices,
    definitions: &mut super::Recent<Definition>,
) -> Result<Started, AdapterError> {
    let definition_value = setup
        .get("definition")
        .ok_or_else(|| error("setup.definition is missing"))?;
    let options = Options::read(setup.get("options"), choices)?;
    let defined = definitions.get_or_build(definition_value, || {
        let reading = reference::schema::SchemaReading::of(choices);
        Ok::<_, AdapterError>(Definition::define_reading(&decode(definition_value)?, reading).ok())
    })?;
    let Some(definition) = defined else {
        return Ok((Reply::Threw, None));
    };
    let main = match RuntimeSlot::create(&definition, &options) {
        Ok(slot) => slot,
        Err(_) => return Ok((Reply::Threw, None)),
    };
    let driver = RcipCase {
        passed: decode(definition_value)?,
        definition,
        options,
        runtimes: vec![main],
        runtime_names: BTreeMap::new(),
        signals: BTreeMap::new(),
        bindings: BTreeMap::new(),
        tickets: BTreeMap::new(),
        snapshots: BTreeMap::new(),
        lists: BTreeMap::new(),
        subscriptions: BTreeMap::new(),
        preflights: BTreeMap::new(),
        assist: super::assist::AssistCase::from_setup(setup, choices)?,
        react: react::host(setup, choices)?,
    };
    Ok((Reply::Done, Some(Box::new(driver))))
}

fn error(message: &str) -> AdapterError {
    AdapterError(message.to_string())
}

// ---------------------------------------------------------------------------------------------
// Setup options
// ---------------------------------------------------------------------------------------------

#[derive(Clone)]
enum PolicyMode {
    Absent,
    Gated,
    Scripted(Value),
    /// `by-request`: rules matched against the policy context, first match wins.
    ByRequest(Vec<PolicyRule>),
}

/// One rule of a `by-request` policy.
#[derive(Clone)]
struct PolicyRule {
    capability: Option<String>,
    confirmed: Option<bool>,
    settle: Value,
}

impl PolicyRule {
    fn read(rule: &Value) -> Result<PolicyRule, AdapterError> {
        let settle = rule
            .get("settle")
            .ok_or_else(|| error("a by-request rule needs settle"))?;
        let _checked: Settlement = settlement_of(settle)?;
        let capability = match rule.get("capability") {
            None => None,
            Some(id) => Some(
                id.as_str()
                    .ok_or_else(|| error("a by-request rule's capability is not a string"))?
                    .to_string(),
            ),
        };
        let confirmed = match rule.get("confirmed") {
            None => None,
            Some(flag) => Some(
                flag.as_bool()
                    .ok_or_else(|| error("a by-request rule's confirmed is not a boolean"))?,
            ),
        };
        Ok(PolicyRule {
            capability,
            confirmed,
            settle: settle.clone(),
        })
    }

    fn matches(&self, capability: &str, confirmed: bool) -> bool {
        self.capability.as_deref().is_none_or(|id| id == capability)
            && self.confirmed.is_none_or(|flag| flag == confirmed)
    }
}

#[derive(Clone)]
enum EventsMode {
    Off,
    Records,
    Throws,
}

#[derive(Clone)]
struct Options {
    choices: Choices,
    policy: PolicyMode,
    ttl_ms: Option<u64>,
    /// `createId`: `None` (the runtime's own ids) or the text before `${prefix}-${n}`
    /// (`sequential`: none, `host-prefixed`: `host-`).
    id_form: Option<&'static str>,
    events: EventsMode,
}

impl Options {
    fn read(options: Option<&Value>, choices: &Choices) -> Result<Options, AdapterError> {
        let empty = Map::new();
        let options = match options {
            None => &empty,
            Some(value) => value
                .as_object()
                .ok_or_else(|| error("setup.options is not an object"))?,
        };
        let policy = match options.get("policy") {
            None => PolicyMode::Absent,
            Some(policy) => match policy.get("mode").and_then(Value::as_str) {
                Some("absent") => PolicyMode::Absent,
                Some("gated") => PolicyMode::Gated,
                Some("scripted") => {
                    let settle = policy
                        .get("settle")
                        .ok_or_else(|| error("a scripted policy needs settle"))?;
                    // Checked once here so a malformed settlement is an adapter error, not a host error.
                    let _checked: Settlement = settlement_of(settle)?;
                    PolicyMode::Scripted(settle.clone())
                }
                Some("by-request") => {
                    let rules = policy
                        .get("rules")
                        .and_then(Value::as_array)
                        .ok_or_else(|| error("a by-request policy needs a rules array"))?;
                    PolicyMode::ByRequest(
                        rules.iter().map(PolicyRule::read).collect::<Result<_, _>>()?,
                    )
                }
                _ => {
                    return Err(error(
                        "options.policy.mode is not absent, gated, scripted or by-request",
                    ))
                }
            },
        };
        let ttl_ms = match options.get("confirmationTtlMs") {
            None => None,
            Some(ttl) => Some(
                ttl.as_u64()
                    .ok_or_else(|| error("confirmationTtlMs is not a positive integer"))?,
            ),
        };
        let id_form = match options.get("createId").map(|mode| mode.as_str()) {
            None => None,
            Some(Some("sequential")) => Some(""),
            Some(Some("host-prefixed")) => Some("host-"),
            Some(_) => {
                return Err(error(
                    "options.createId is not \"sequential\" or \"host-prefixed\"",
                ))
            }
        };
        let events = match options.get("events").map(|v| v.as_str()) {
            None => EventsMode::Off,
            Some(Some("records")) => EventsMode::Records,
            Some(Some("throws")) => EventsMode::Throws,
            Some(_) => return Err(error("options.events is not records or throws")),
        };
        Ok(Options {
            choices: choices.clone(),
            policy,
            ttl_ms,
            id_form,
            events,
        })
    }
}

/// A settlement `{ return: V } | { throw: ... }` as the callback's result (a fresh value per use).
fn settlement_of(settle: &Value) -> Result<Settlement, AdapterError> {
    if let Some(value) = settle.get("return") {
        return Ok(Ok(decode(value)?));
    }
    match settle.get("throw").and_then(Value::as_str) {
        Some("error") => Ok(Err(HostError {
            name: HostErrorName::Error,
            message: HOST_SECRET.into(),
        })),
        Some("abort-error") => Ok(Err(HostError {
            name: HostErrorName::AbortError,
            message: HOST_SECRET.into(),
        })),
        _ => Err(error(&format!("not a settlement: {settle}"))),
    }
}

/// The `mutateInput` list of a settlement: (pointer, value) pairs.
fn mutations_of(settle: &Value) -> Result<Vec<(String, HostValue)>, AdapterError> {
    let Some(list) = settle.get("mutateInput") else {
        return Ok(Vec::new());
    };
    let list = list
        .as_array()
        .ok_or_else(|| error("mutateInput is not an array"))?;
    list.iter()
        .map(|m| {
            let pointer = m
                .get("pointer")
                .and_then(Value::as_str)
                .ok_or_else(|| error("mutateInput.pointer"))?;
            let value = decode(m.get("value").ok_or_else(|| error("mutateInput.value"))?)?;
            Ok((pointer.to_string(), value))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Per-runtime records kept by the callbacks
// ---------------------------------------------------------------------------------------------

struct HandlerRecord {
    capability: String,
    record: Value,
    /// What `ctx` carried at call time (the `handler-context` observation).
    context: Value,
    /// The signal `ctx` carried; `None` when it had none (observed as `null`).
    signal: Option<AbortSignal>,
    /// The input object the handler received (settlements mutate it).
    input: HostValue,
    /// The value the handler returned, kept by the handler (`mutate-output` writes to it).
    output: Option<HostValue>,
}

#[derive(Default)]
struct Records {
    policy_calls: Vec<(String, Value)>,
    /// The `capability` each policy call received (the `policy-capability` observation).
    policy_capabilities: Vec<Value>,
    /// The k-th gated policy call (k = index + 1).
    /// The k-th gated policy call: its call id, the input object it received, settled yet.
    gated_policy: Vec<(CallId, HostValue, bool)>,
    handler_calls: Vec<HandlerRecord>,
    /// The k-th gated handler call: its call id, its index in `handler_calls`, settled yet.
    gated_handlers: Vec<(CallId, usize, bool)>,
    events: Vec<Value>,
    /// Profile `react`: `{capabilityId, state}` per call of an `execute` of a capability element.
    react_states: Vec<Value>,
}

type Shared = Rc<RefCell<Records>>;

struct RuntimeSlot {
    runtime: Runtime,
    records: Shared,
}

impl RuntimeSlot {
    fn create(
        definition: &Definition,
        options: &Options,
    ) -> Result<RuntimeSlot, reference::rcip::ConfigError> {
        let records: Shared = Rc::default();
        let policy: Option<reference::rcip::PolicyFn> = match &options.policy {
            PolicyMode::Absent => None,
            mode => {
                let records = Rc::clone(&records);
                let mode = mode.clone();
                Some(Box::new(move |call: PolicyCall| {
                    let capability = call
                        .capability
                        .get("id")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string();
                    let record = json!({
                        "capabilityId": capability,
                        "input": observe_value(&call.input),
                        "semanticContext": call.semantic_context.to_json(),
                        "confirmed": call.confirmed,
                    });
                    let mut records = records.borrow_mut();
                    records.policy_calls.push((capability.clone(), record));
                    records.policy_capabilities.push(call.capability.clone());
                    let settle = match &mode {
                        PolicyMode::Scripted(settle) => Some(Some(settle)),
                        PolicyMode::ByRequest(rules) => Some(
                            rules
                                .iter()
                                .find(|rule| rule.matches(&capability, call.confirmed))
                                .map(|rule| &rule.settle),
                        ),
                        _ => None,
                    };
                    match settle {
                        // No rule matched: the policy throws (vectors/README.md).
                        Some(None) => Answer::Ready(Err(HostError::error(HOST_SECRET))),
                        Some(Some(settle)) => {
                            for (pointer, value) in mutations_of(settle).unwrap_or_default() {
                                let _ = call.input.set_at_pointer(&pointer, value);
                            }
                            // Validated at setup; a decode failure here cannot happen, and would
                            // only make the policy throw.
                            Answer::Ready(
                                settlement_of(settle)
                                    .unwrap_or_else(|_| Err(HostError::error(HOST_SECRET))),
                            )
                        }
                        _ => {
                            records
                                .gated_policy
                                .push((call.call, call.input.clone(), false));
                            Answer::Pending
                        }
                    }
                }))
            }
        };
        let create_id: Option<reference::rcip::CreateIdFn> = options.id_form.map(|form| {
            let mut counters: BTreeMap<String, u64> = BTreeMap::new();
            let create: reference::rcip::CreateIdFn = Box::new(move |prefix: &str| {
                let n = counters.entry(prefix.to_string()).or_insert(0);
                *n += 1;
                format!("{form}{prefix}-{n}")
            });
            create
        });
        let on_event: Option<reference::rcip::EventFn> = match options.events {
            EventsMode::Off => None,
            ref mode => {
                let throws = matches!(mode, EventsMode::Throws);
                let records = Rc::clone(&records);
                Some(Box::new(move |event: &RcipEvent| {
                    records.borrow_mut().events.push(json!({
                        "phase": event.phase.as_str(),
                        "invocationId": event.invocation_id,
                        "capabilityId": event.capability_id,
                    }));
                    if throws {
                        Err(HostError::error(HOST_SECRET))
                    } else {
                        Ok(())
                    }
                }))
            }
        };
        let runtime = Runtime::new(
            definition,
            RuntimeOptions {
                policy,
                confirmation_ttl_ms: options.ttl_ms,
                create_id,
                on_event,
                choices: options.choices.clone(),
            },
        )?;
        Ok(RuntimeSlot { runtime, records })
    }
}

/// A plain-JSON observation of a host value a callback received (deep copy at call time).
fn observe_value(value: &HostValue) -> Value {
    value.to_plain_json().unwrap_or(Value::Null)
}

// ---------------------------------------------------------------------------------------------
// The case driver
// ---------------------------------------------------------------------------------------------

struct BindingHandle {
    runtime: usize,
    token: BindingToken,
    /// What `getAvailability` returns, as the vector wrote it: each call builds a fresh value
    /// from it (a getter in it answers its first answer to each call's first read, as in Node).
    availability: Option<Rc<RefCell<Value>>>,
    /// The handler `H` it was bound with, for a later `{"sameAs": b}`.
    handler: Value,
}

struct TicketHandle {
    runtime: usize,
    ticket: Ticket,
    /// For invocations: the caller's input object.
    input: Option<HostValue>,
}

/// What a subscribed listener recorded per call: its notification record and the snapshot it was
/// handed (the object `getSnapshot()` returns inside the call, for a `notification` side of
/// `snapshot-relation`).
type Notifications = Rc<RefCell<Vec<(Value, Rc<Snapshot>)>>>;

/// A subscription: its runtime, its id, and the notifications its listener recorded.
type Subscription = (usize, SubscriptionId, Notifications);

struct RcipCase {
    /// The definition as the host passed it (`mutate-definition` writes here). `Definition::define`
    /// copied it into the catalog (RCIP-LIFE-JSON-01), so a write changes nothing the runtime holds.
    passed: HostValue,
    definition: Definition,
    options: Options,
    runtimes: Vec<RuntimeSlot>,
    runtime_names: BTreeMap<String, usize>,
    signals: BTreeMap<String, AbortSignal>,
    bindings: BTreeMap<String, BindingHandle>,
    tickets: BTreeMap<String, TicketHandle>,
    snapshots: BTreeMap<String, Rc<Snapshot>>,
    lists: BTreeMap<String, Vec<Value>>,
    subscriptions: BTreeMap<String, Subscription>,
    /// Profile `preflight`: the observation of each `preflight` step, taken when it ran.
    preflights: BTreeMap<String, Value>,
    /// Profile `assist`: offered every step first (`assist.rs`).
    assist: super::assist::AssistCase,
    /// Profile `react`: the abstract React host (`rcip/react.rs`).
    react: reference::rcip::react::ReactHost,
}

fn field<'a>(step: &'a Value, key: &str) -> Result<&'a str, AdapterError> {
    step.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| error(&format!("step has no string '{key}': {step}")))
}

impl CaseDriver for RcipCase {
    fn step(&mut self, step: &Value) -> Result<Reply, AdapterError> {
        let runtimes = self
            .runtimes
            .iter_mut()
            .map(|slot| &mut slot.runtime)
            .collect();
        if let Some(reply) = self.assist.step(step, runtimes, &mut self.signals)? {
            return Ok(reply);
        }
        if let Some(action) = step.get("host").and_then(Value::as_str) {
            self.host(action, step)
        } else if let Some(action) = step.get("client").and_then(Value::as_str) {
            self.client(action, step)
        } else if let Some(kind) = step.get("gate").and_then(Value::as_str) {
            self.gate(kind, step)
        } else if step.get("clock").and_then(Value::as_str) == Some("advance") {
            let ms = step
                .get("ms")
                .and_then(Value::as_u64)
                .ok_or_else(|| error("clock.ms is not an integer"))?;
            // One virtual clock per case: every runtime sees the same time.
            for slot in &mut self.runtimes {
                slot.runtime.advance(ms);
            }
            Ok(Reply::Done)
        } else if let Some(action) = step.get("react").and_then(Value::as_str) {
            self.react(action, step)
        } else if let Some(observation) = step.get("expect").and_then(Value::as_str) {
            self.observe(observation, step)
        } else {
            Err(error(&format!("not an RCIP step: {step}")))
        }
    }
}

impl RcipCase {
    fn runtime_index(&self, step: &Value) -> Result<usize, AdapterError> {
        match step.get("runtime").and_then(Value::as_str) {
            None => Ok(0),
            Some(name) => self
                .runtime_names
                .get(name)
                .copied()
                .ok_or_else(|| error(&format!("unknown runtime handle '{name}'"))),
        }
    }

    fn slot(&mut self, index: usize) -> Result<&mut RuntimeSlot, AdapterError> {
        self.runtimes
            .get_mut(index)
            .ok_or_else(|| error("runtime index out of range"))
    }

    /// Observes handler call `step.call` (1-based) of runtime `index` with `view`; a call the
    /// implementation never made is observed as null.
    fn handler_call(
        &mut self,
        index: usize,
        step: &Value,
        view: impl Fn(&HandlerRecord) -> Value,
    ) -> Result<Value, AdapterError> {
        let k = step.get("call").and_then(Value::as_u64).and_then(|k| usize::try_from(k).ok()).unwrap_or(0);
        let records = self.slot(index)?.records.borrow();
        Ok(k.checked_sub(1).and_then(|i| records.handler_calls.get(i)).map_or(Value::Null, view))
    }

    fn signal(&mut self, name: &str) -> AbortSignal {
        self.signals.entry(name.to_string()).or_default().clone()
    }

    fn ticket(&self, name: &str) -> Result<&TicketHandle, AdapterError> {
        self.tickets
            .get(name)
            .ok_or_else(|| error(&format!("unknown invocation or resolution handle '{name}'")))
    }

    fn new_handle<T>(map: &BTreeMap<String, T>, name: &str) -> Result<(), AdapterError> {
        if map.contains_key(name) {
            Err(error(&format!("handle '{name}' is used twice")))
        } else {
            Ok(())
        }
    }

    // -----------------------------------------------------------------------------------------
    // Host steps
    // -----------------------------------------------------------------------------------------

    fn host(&mut self, action: &str, step: &Value) -> Result<Reply, AdapterError> {
        match action {
            "bind" => self.bind(step),
            "mutate-output" => {
                // The handler writes to the object it returned, after the outcome settled.
                let index = self.runtime_index(step)?;
                let k = step
                    .get("call")
                    .and_then(Value::as_u64)
                    .and_then(|k| usize::try_from(k).ok())
                    .filter(|k| *k >= 1)
                    .ok_or_else(|| error("mutate-output.call is not a positive integer"))?;
                let pointer = field(step, "pointer")?;
                let value = decode(
                    step.get("value")
                        .ok_or_else(|| error("mutate-output.value"))?,
                )?;
                let output = self
                    .slot(index)?
                    .records
                    .borrow()
                    .handler_calls
                    .get(k - 1)
                    .and_then(|record| record.output.clone())
                    .ok_or_else(|| error(&format!("mutate-output: handler call {k} has returned no value")))?;
                output
                    .set_at_pointer(pointer, value)
                    .map_err(|e| error(&format!("mutate-output {pointer} of call {k}: {e:?}")))?;
                Ok(Reply::Done)
            }
            "mutate-definition" => {
                let pointer = field(step, "pointer")?;
                let value = decode(
                    step.get("value")
                        .ok_or_else(|| error("mutate-definition.value"))?,
                )?;
                self.passed
                    .set_at_pointer(pointer, value)
                    .map_err(|e| error(&format!("mutate-definition {pointer}: {e:?}")))?;
                Ok(Reply::Done)
            }
            "unbind" => {
                let name = field(step, "binding")?;
                let handle = self
                    .bindings
                    .get(name)
                    .ok_or_else(|| error(&format!("unknown binding handle '{name}'")))?;
                let (index, token) = (handle.runtime, handle.token.clone());
                self.slot(index)?.runtime.unbind(&token);
                Ok(Reply::Done)
            }
            "set-availability" => {
                let name = field(step, "binding")?;
                let value = step
                    .get("availability")
                    .ok_or_else(|| error("set-availability.availability"))?
                    .clone();
                decode(&value)?;
                let handle = self
                    .bindings
                    .get(name)
                    .ok_or_else(|| error(&format!("unknown binding handle '{name}'")))?;
                let cell = handle.availability.as_ref().ok_or_else(|| {
                    error(&format!(
                        "binding '{name}' was bound without getAvailability"
                    ))
                })?;
                *cell.borrow_mut() = value;
                Ok(Reply::Done)
            }
            "set-context" => {
                let index = self.runtime_index(step)?;
                let context = decode(
                    step.get("context")
                        .ok_or_else(|| error("set-context.context"))?,
                )?;
                Ok(match self.slot(index)?.runtime.set_context(&context) {
                    Ok(()) => Reply::Done,
                    Err(_) => Reply::Threw,
                })
            }
            "refresh" => {
                let index = self.runtime_index(step)?;
                self.slot(index)?.runtime.refresh();
                Ok(Reply::Done)
            }
            "resolve-confirmation" => self.resolve(step),
            "create-runtime" => {
                let name = field(step, "as")?;
                Self::new_handle(&self.runtime_names, name)?;
                // Same definition and options succeeded at setup, so this cannot throw.
                let slot = RuntimeSlot::create(&self.definition, &self.options)
                    .map_err(|e| error(&format!("create-runtime: {e}")))?;
                self.runtimes.push(slot);
                self.runtime_names
                    .insert(name.to_string(), self.runtimes.len() - 1);
                Ok(Reply::Done)
            }
            other => Err(error(&format!("unknown host step '{other}'"))),
        }
    }

    fn bind(&mut self, step: &Value) -> Result<Reply, AdapterError> {
        let index = self.runtime_index(step)?;
        let capability_id = field(step, "capability")?;
        let name = field(step, "as")?;
        Self::new_handle(&self.bindings, name)?;
        let catalog = self.definition.capability(capability_id).ok_or_else(|| {
            error(&format!(
                "bind: the catalog declares no capability '{capability_id}'"
            ))
        })?;
        let capability = match step.get("definition").and_then(Value::as_str) {
            None | Some("catalog") => catalog,
            Some("copy") => catalog.structural_copy(),
            Some(other) => return Err(error(&format!("bind.definition '{other}'"))),
        };
        let mut handler_spec = step
            .get("handler")
            .ok_or_else(|| error("bind.handler is missing"))?
            .clone();
        // `{"sameAs": b}`: the very handler object of binding b. A Rust handler is a closure the
        // runtime owns and never compares, so the same behaviour, built again, is that handler.
        if let Some(other) = handler_spec.get("sameAs").and_then(Value::as_str) {
            handler_spec = self
                .bindings
                .get(other)
                .map(|b| b.handler.clone())
                .ok_or_else(|| error(&format!("bind.handler.sameAs: unknown binding '{other}'")))?;
        }
        let handler = self.handler(index, &handler_spec)?;
        let availability_cell = match step.get("availability") {
            None => None,
            Some(value) => {
                decode(value)?;
                Some(Rc::new(RefCell::new(value.clone())))
            }
        };
        let availability: Option<reference::rcip::AvailabilityFn> =
            availability_cell.as_ref().map(|cell| {
                let cell = Rc::clone(cell);
                // Decoded when bound and at every set-availability, so this cannot fail.
                let read: reference::rcip::AvailabilityFn = Box::new(move || {
                    Ok(decode(&cell.borrow()).unwrap_or(HostValue::Undefined))
                });
                read
            });
        let slot = self.slot(index)?;
        match slot.runtime.bind(
            &capability,
            BindingSpec {
                handler,
                availability,
            },
        ) {
            Ok(token) => {
                self.bindings.insert(
                    name.to_string(),
                    BindingHandle {
                        runtime: index,
                        token,
                        availability: availability_cell,
                        handler: handler_spec,
                    },
                );
                Ok(Reply::Done)
            }
            Err(_) => Ok(Reply::Threw),
        }
    }

    /// A handler `H`: gated (pending until a gate step) or scripted (settles as `settle` says,
    /// after applying its input mutations).
    fn handler(
        &mut self,
        index: usize,
        spec: &Value,
    ) -> Result<reference::rcip::HandlerFn, AdapterError> {
        let records = Rc::clone(&self.slot(index)?.records);
        let scripted = match spec.get("mode").and_then(Value::as_str) {
            Some("gated") => None,
            Some("scripted") => {
                let settle = spec
                    .get("settle")
                    .ok_or_else(|| error("a scripted handler needs settle"))?;
                // Checked once here so a malformed settlement is an adapter error, not a host error.
                let _checked: Settlement = settlement_of(settle)?;
                let mutations = mutations_of(settle)?;
                Some((settle.clone(), mutations))
            }
            _ => return Err(error("handler.mode is not gated or scripted")),
        };
        Ok(Box::new(move |call: HandlerCall| {
            let record = json!({
                "capabilityId": call.capability_id,
                "input": observe_value(&call.input),
                "invocationId": call.invocation_id,
                "semanticContext": call.semantic_context.to_json(),
            });
            let context = json!({
                "invocationId": call.invocation_id,
                "requestedAt": call.requested_at,
                "semanticContext": call.semantic_context.to_json(),
                "signalAborted": call.signal.as_ref().map(AbortSignal::is_aborted),
            });
            let mut records = records.borrow_mut();
            records.handler_calls.push(HandlerRecord {
                capability: call.capability_id.clone(),
                record,
                context,
                signal: call.signal.clone(),
                input: call.input.clone(),
                output: None,
            });
            match &scripted {
                Some((settle, mutations)) => {
                    for (pointer, value) in mutations {
                        // A mutation the input cannot take is the handler's own business.
                        let _ = call.input.set_at_pointer(pointer, value.clone());
                    }
                    let result =
                        settlement_of(settle).unwrap_or_else(|_| Err(HostError::error(HOST_SECRET)));
                    if let (Ok(value), Some(kept)) = (&result, records.handler_calls.last_mut()) {
                        // The handler keeps the very object it returns (a clone shares it).
                        kept.output = Some(value.clone());
                    }
                    Answer::Ready(result)
                }
                None => {
                    let position = records.handler_calls.len() - 1;
                    records.gated_handlers.push((call.call, position, false));
                    Answer::Pending
                }
            }
        }))
    }

    fn resolve(&mut self, step: &Value) -> Result<Reply, AdapterError> {
        let index = self.runtime_index(step)?;
        let name = field(step, "as")?;
        Self::new_handle(&self.tickets, name)?;
        let approved = step
            .get("approved")
            .and_then(Value::as_bool)
            .ok_or_else(|| error("resolve.approved"))?;
        let confirmation = step
            .get("confirmation")
            .ok_or_else(|| error("resolve.confirmation"))?;
        let id = if let Some(kind) = confirmation.get("malformed") {
            // A confirmation id that is not a string (CL-B02-1): the reference's raw entry reads it.
            let id = match kind.as_str() {
                Some("undefined") => HostValue::Undefined,
                Some("null") => HostValue::Null,
                Some("number") => HostValue::Number(42.0),
                Some("object") => HostValue::object(Vec::new()),
                _ => return Err(error(&format!("resolve.confirmation.malformed {kind}"))),
            };
            let ticket = self.slot(index)?.runtime.resolve_confirmation_raw(&id, approved);
            return Ok(self.keep_resolution(name, index, ticket));
        } else if let Some(literal) = confirmation.get("id").and_then(Value::as_str) {
            literal.to_string()
        } else if let Some(of) = confirmation.get("of").and_then(Value::as_str) {
            let handle = self.ticket(of)?;
            let (runtime, ticket) = (handle.runtime, handle.ticket);
            let outcome = self
                .runtimes
                .get(runtime)
                .and_then(|slot| slot.runtime.outcome(ticket));
            match outcome.map(|o| &o.body) {
                Some(OutcomeBody::ConfirmationRequired(info)) => info.id.clone(),
                // The implementation gave no confirmation: resolve what a JavaScript host would
                // pass (`undefined`), an id no confirmation has.
                _ => String::new(),
            }
        } else if confirmation.get("turn").is_some() {
            return Ok(Reply::Unsupported(
                "Assist is not part of the reference's RCIP adapter".into(),
            ));
        } else {
            return Err(error("resolve.confirmation needs of or id"));
        };
        let ticket = self
            .slot(index)?
            .runtime
            .resolve_confirmation(&id, approved);
        Ok(self.keep_resolution(name, index, ticket))
    }

    /// Keeps the ticket of a resolution of runtime `index` under handle `name`.
    fn keep_resolution(&mut self, name: &str, index: usize, ticket: Ticket) -> Reply {
        self.tickets.insert(
            name.to_string(),
            TicketHandle {
                runtime: index,
                ticket,
                input: None,
            },
        );
        Reply::Done
    }

    // -----------------------------------------------------------------------------------------
    // Client steps
    // -----------------------------------------------------------------------------------------

    fn client(&mut self, action: &str, step: &Value) -> Result<Reply, AdapterError> {
        let index = self.runtime_index(step)?;
        match action {
            "invoke" => {
                let name = field(step, "as")?;
                Self::new_handle(&self.tickets, name)?;
                let capability_id = field(step, "capability")?.to_string();
                let input = decode(
                    step.get("input")
                        .ok_or_else(|| error("invoke.input is missing"))?,
                )?;
                let invocation_id = step
                    .get("invocationId")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                let signal = step
                    .get("signal")
                    .and_then(Value::as_str)
                    .map(|signal| self.signal(signal));
                let request = InvokeRequest {
                    capability_id,
                    input: input.clone(),
                    invocation_id,
                    signal,
                };
                let ticket = self.slot(index)?.runtime.invoke(request);
                self.tickets.insert(
                    name.to_string(),
                    TicketHandle {
                        runtime: index,
                        ticket,
                        input: Some(input),
                    },
                );
                Ok(Reply::Done)
            }
            "invoke-malformed" => self.invoke_malformed(index, step),
            "abort" => {
                let signal = self.signal(field(step, "signal")?);
                signal.abort();
                // The abort event reaches every runtime the signal was given to.
                for slot in &mut self.runtimes {
                    slot.runtime.process_aborts();
                }
                Ok(Reply::Done)
            }
            "mutate-input" => {
                let of = field(step, "of")?;
                let pointer = field(step, "pointer")?;
                let value = decode(
                    step.get("value")
                        .ok_or_else(|| error("mutate-input.value"))?,
                )?;
                let input = self
                    .ticket(of)?
                    .input
                    .clone()
                    .ok_or_else(|| error(&format!("'{of}' is not an invocation")))?;
                input
                    .set_at_pointer(pointer, value)
                    .map_err(|e| error(&format!("mutate-input {pointer} of '{of}': {e:?}")))?;
                Ok(Reply::Done)
            }
            "mutate-request" => {
                // The reference copies capabilityId and invocationId out of the request when
                // invoke is called, so a later change of the caller's request object changes
                // nothing; the step only has to name an invocation.
                let of = field(step, "of")?;
                match field(step, "member")? {
                    "capabilityId" | "invocationId" => {}
                    other => return Err(error(&format!("mutate-request.member '{other}'"))),
                }
                step.get("value").ok_or_else(|| error("mutate-request.value"))?;
                if self.ticket(of)?.input.is_none() {
                    return Err(error(&format!("'{of}' is not an invocation")));
                }
                Ok(Reply::Done)
            }
            "get-snapshot" => {
                let name = field(step, "as")?;
                Self::new_handle(&self.snapshots, name)?;
                let snapshot = self.slot(index)?.runtime.get_snapshot();
                self.snapshots.insert(name.to_string(), snapshot);
                Ok(Reply::Done)
            }
            "mutate-snapshot" => {
                let of = field(step, "of")?;
                if !self.snapshots.contains_key(of) {
                    return Err(error(&format!("unknown snapshot handle '{of}'")));
                }
                // The reference's snapshot offers no way to write through it (CL-B14-3).
                Ok(Reply::Done)
            }
            "list" => {
                let name = field(step, "as")?;
                Self::new_handle(&self.lists, name)?;
                let filter = match step.get("filter") {
                    None => ListFilter::default(),
                    Some(filter) => ListFilter::from_host(&decode(filter)?),
                };
                let entries = self.slot(index)?.runtime.list_capabilities(&filter);
                let ids = entries
                    .iter()
                    .map(|entry| entry.get("id").cloned().unwrap_or(Value::Null))
                    .collect();
                self.lists.insert(name.to_string(), ids);
                Ok(Reply::Done)
            }
            "subscribe" => {
                let name = field(step, "as")?;
                Self::new_handle(&self.subscriptions, name)?;
                let throws = match field(step, "listener")? {
                    "records" => false,
                    "throws" => true,
                    other => return Err(error(&format!("subscribe.listener '{other}'"))),
                };
                let calls: Notifications = Rc::default();
                let recorder = Rc::clone(&calls);
                let id = self.slot(index)?.runtime.subscribe(Box::new(
                    move |snapshot: &Rc<Snapshot>| {
                        recorder.borrow_mut().push((
                            json!({ "revision": snapshot.revision() }),
                            Rc::clone(snapshot),
                        ));
                        if throws {
                            Err(HostError::error(HOST_SECRET))
                        } else {
                            Ok(())
                        }
                    },
                ));
                self.subscriptions
                    .insert(name.to_string(), (index, id, calls));
                Ok(Reply::Done)
            }
            "unsubscribe" => {
                let of = field(step, "of")?;
                let (runtime, id) = match self.subscriptions.get(of) {
                    Some((runtime, id, _)) => (*runtime, *id),
                    None => return Err(error(&format!("unknown subscription handle '{of}'"))),
                };
                self.slot(runtime)?.runtime.unsubscribe(id);
                Ok(Reply::Done)
            }
            "preflight" => self.preflight(index, step),
            "assist-turn" => Ok(Reply::Unsupported(
                "Assist is not part of the reference's RCIP adapter".into(),
            )),
            other => Err(error(&format!("unknown client step '{other}'"))),
        }
    }

    /// Profile `preflight`: one dry-run; its canonical result is kept for the expectation.
    /// `invoke-malformed` (CL-B02-1): the argument a JavaScript caller would pass, built as
    /// host values (a plain object `{}` as the signal that is not an AbortSignal), handed to the
    /// reference's raw entry, which decides what it reads from it; the adapter answers nothing.
    fn invoke_malformed(&mut self, index: usize, step: &Value) -> Result<Reply, AdapterError> {
        let name = field(step, "as")?;
        Self::new_handle(&self.tickets, name)?;
        let kind = field(step, "request")?;
        let capability = step.get("capability").map(|id| {
            id.as_str()
                .map(str::to_string)
                .ok_or_else(|| error("invoke-malformed.capability is not a string"))
        });
        let capability = capability.transpose()?;
        let input = step.get("input").map(decode).transpose()?;
        let members = |capability_id: HostValue, input: Option<HostValue>, extra: Option<(&str, HostValue)>| {
            let mut members = vec![("capabilityId".to_string(), capability_id)];
            if let Some(input) = input {
                members.push(("input".to_string(), input));
            }
            if let Some((key, value)) = extra {
                members.push((key.to_string(), value));
            }
            HostValue::object(members)
        };
        let needs = |what: &str, present: bool, wanted: bool| {
            if present == wanted {
                Ok(())
            } else if wanted {
                Err(error(&format!("invoke-malformed {kind} needs {what}")))
            } else {
                Err(error(&format!("invoke-malformed {kind} takes no {what}")))
            }
        };
        let (with_capability, with_input) = match kind {
            "undefined" | "null" | "not-an-object" => (false, false),
            "capability-id-not-string" => (false, true),
            "input-absent" => (true, false),
            "invocation-id-not-string"
            | "signal-not-abort-signal"
            | "signal-null"
            | "signal-aborted-only" => (true, true),
            other => return Err(error(&format!("invoke-malformed.request '{other}'"))),
        };
        needs("capability", capability.is_some(), with_capability)?;
        needs("input", input.is_some(), with_input)?;
        let capability_id = HostValue::String(capability.unwrap_or_default());
        let mut signal = RawSignal::Absent;
        let argument = match kind {
            "undefined" => HostValue::Undefined,
            "null" => HostValue::Null,
            "not-an-object" => HostValue::Number(42.0),
            "capability-id-not-string" => members(HostValue::Number(42.0), input.clone(), None),
            "input-absent" => members(capability_id, None, None),
            "invocation-id-not-string" => members(
                capability_id,
                input.clone(),
                Some(("invocationId", HostValue::Number(42.0))),
            ),
            _ => {
                signal = RawSignal::NotASignal(match kind {
                    "signal-null" => HostValue::Null,
                    "signal-aborted-only" => {
                        HostValue::object(vec![("aborted".to_string(), HostValue::Bool(false))])
                    }
                    _ => HostValue::object(Vec::new()),
                });
                members(capability_id, input.clone(), None)
            }
        };
        let ticket = self
            .slot(index)?
            .runtime
            .invoke_raw(RawInvokeRequest { argument, signal });
        self.tickets.insert(
            name.to_string(),
            TicketHandle {
                runtime: index,
                ticket,
                input,
            },
        );
        Ok(Reply::Done)
    }

    fn preflight(&mut self, index: usize, step: &Value) -> Result<Reply, AdapterError> {
        let name = field(step, "as")?;
        Self::new_handle(&self.preflights, name)?;
        let proposals = step
            .get("proposals")
            .and_then(Value::as_array)
            .ok_or_else(|| error("preflight.proposals is not an array"))?
            .iter()
            .map(|p| {
                Ok(Proposal {
                    capability_id: field(p, "capability")?.to_string(),
                    input: decode(p.get("input").ok_or_else(|| error("proposal.input"))?)?,
                    invocation_id: p
                        .get("invocationId")
                        .and_then(Value::as_str)
                        .map(str::to_string),
                })
            })
            .collect::<Result<Vec<Proposal>, AdapterError>>()?;
        let observed = match self.slot(index)?.runtime.preflight(&proposals) {
            Err(_) => json!("rejected"),
            Ok(reports) => Value::Array(
                reports
                    .iter()
                    .map(|report| match report {
                        ProposalReport::Ready { capability_id } => {
                            json!({ "capabilityId": capability_id, "status": "ready" })
                        }
                        ProposalReport::Failed {
                            capability_id,
                            code,
                            ..
                        } => json!({
                            "capabilityId": capability_id, "status": "failed", "code": code.as_str()
                        }),
                    })
                    .collect(),
            ),
        };
        self.preflights.insert(name.to_string(), observed);
        Ok(Reply::Done)
    }

    // -----------------------------------------------------------------------------------------
    // Gates
    // -----------------------------------------------------------------------------------------

    fn gate(&mut self, kind: &str, step: &Value) -> Result<Reply, AdapterError> {
        let index = self.runtime_index(step)?;
        let k = step
            .get("call")
            .and_then(Value::as_u64)
            .and_then(|k| usize::try_from(k).ok())
            .filter(|k| *k >= 1)
            .ok_or_else(|| error("gate.call is not a positive integer"))?;
        let settle = step
            .get("settle")
            .ok_or_else(|| error("gate.settle is missing"))?;
        let slot = self.slot(index)?;
        match kind {
            "policy" => {
                let (call, input) = {
                    let mut records = slot.records.borrow_mut();
                    let Some(entry) = records.gated_policy.get_mut(k - 1) else {
                        // The implementation never made the call the vector settles.
                        return Ok(Reply::Threw);
                    };
                    if entry.2 {
                        // Settling a settled promise again does nothing.
                        return Ok(Reply::Done);
                    }
                    entry.2 = true;
                    (entry.0, entry.1.clone())
                };
                for (pointer, value) in mutations_of(settle)? {
                    let _ = input.set_at_pointer(&pointer, value);
                }
                let result = settlement_of(settle)?;
                slot.runtime
                    .settle_policy(call, result)
                    .map_err(|e| error(&format!("gate policy call {k}: {e:?}")))?;
                Ok(Reply::Done)
            }
            "handler" => {
                let (call, input, position) = {
                    let mut records = slot.records.borrow_mut();
                    let Some(entry) = records.gated_handlers.get_mut(k - 1) else {
                        // The implementation never made the call the vector settles.
                        return Ok(Reply::Threw);
                    };
                    if entry.2 {
                        return Ok(Reply::Done);
                    }
                    entry.2 = true;
                    let (call, position) = (entry.0, entry.1);
                    let input = records.handler_calls.get(position).map(|r| r.input.clone());
                    (call, input, position)
                };
                if let Some(input) = input {
                    for (pointer, value) in mutations_of(settle)? {
                        let _ = input.set_at_pointer(&pointer, value);
                    }
                }
                let result = settlement_of(settle)?;
                if let Ok(value) = &result {
                    if let Some(kept) = slot.records.borrow_mut().handler_calls.get_mut(position) {
                        kept.output = Some(value.clone());
                    }
                }
                slot.runtime
                    .settle_handler(call, result)
                    .map_err(|e| error(&format!("gate handler call {k}: {e:?}")))?;
                Ok(Reply::Done)
            }
            "assist" => Ok(Reply::Unsupported(
                "Assist is not part of the reference's RCIP adapter".into(),
            )),
            other => Err(error(&format!("unknown gate '{other}'"))),
        }
    }

    // -----------------------------------------------------------------------------------------
    // Observations
    // -----------------------------------------------------------------------------------------

    fn observe(&mut self, observation: &str, step: &Value) -> Result<Reply, AdapterError> {
        let index = self.runtime_index(step)?;
        let capability_filter = step
            .get("capability")
            .and_then(Value::as_str)
            .map(str::to_string);
        let observed = match observation {
            react_observation if react::OBSERVATIONS.contains(&react_observation) => {
                self.observe_react(react_observation, step)?
            }
            "outcome" => {
                let handle = self.ticket(field(step, "of")?)?;
                let slot = self
                    .runtimes
                    .get(handle.runtime)
                    .ok_or_else(|| error("runtime index"))?;
                match slot.runtime.outcome(handle.ticket) {
                    None => json!("pending"),
                    Some(outcome) => canonical_outcome(outcome),
                }
            }
            "outcome-text" => {
                let handle = self.ticket(field(step, "of")?)?;
                let slot = self
                    .runtimes
                    .get(handle.runtime)
                    .ok_or_else(|| error("runtime index"))?;
                // Every string reachable in the outcome but its `output` (vectors/README.md,
                // RCIP-PROTO-OUT-03).
                let mut strings = Vec::new();
                if let Some(outcome) = slot.runtime.outcome(handle.ticket) {
                    if let Value::Object(members) = outcome.to_json() {
                        for (key, member) in &members {
                            if key != "output" {
                                strings_in(member, &mut strings);
                            }
                        }
                    }
                }
                json!(strings.join("\n"))
            }
            "policy-calls" => {
                let records = self.slot(index)?.records.borrow();
                Value::Array(
                    records
                        .policy_calls
                        .iter()
                        .filter(|(capability, _)| {
                            capability_filter.as_ref().is_none_or(|c| c == capability)
                        })
                        .map(|(_, record)| record.clone())
                        .collect(),
                )
            }
            "handler-calls" => {
                let records = self.slot(index)?.records.borrow();
                Value::Array(
                    records
                        .handler_calls
                        .iter()
                        .filter(|r| {
                            capability_filter
                                .as_ref()
                                .is_none_or(|c| *c == r.capability)
                        })
                        .map(|r| r.record.clone())
                        .collect(),
                )
            }
            "handler-signal" => self.handler_call(index, step, |record| {
                json!(record.signal.as_ref().map(AbortSignal::is_aborted))
            })?,
            "handler-context" => self.handler_call(index, step, |record| record.context.clone())?,
            "policy-capability" => {
                let k = step
                    .get("call")
                    .and_then(Value::as_u64)
                    .and_then(|k| usize::try_from(k).ok())
                    .filter(|k| *k >= 1)
                    .ok_or_else(|| error("policy-capability.call is not a positive integer"))?;
                let records = self.slot(index)?.records.borrow();
                records.policy_capabilities.get(k - 1).cloned().unwrap_or(Value::Null)
            }
            "caller-input" => {
                let of = field(step, "of")?;
                let input = self
                    .ticket(of)?
                    .input
                    .as_ref()
                    .ok_or_else(|| error(&format!("'{of}' is not an invocation")))?;
                encode(input)
            }
            "preflight" => {
                let of = field(step, "of")?;
                self.preflights
                    .get(of)
                    .cloned()
                    .ok_or_else(|| error(&format!("unknown preflight handle '{of}'")))?
            }
            "snapshot" | "snapshot-text" => {
                let json = match step.get("of").and_then(Value::as_str) {
                    Some(name) => self
                        .snapshots
                        .get(name)
                        .ok_or_else(|| error(&format!("unknown snapshot handle '{name}'")))?
                        .json()
                        .clone(),
                    None => self.slot(index)?.runtime.get_snapshot().json().clone(),
                };
                if observation == "snapshot-text" {
                    Value::String(json.to_string())
                } else {
                    json
                }
            }
            "snapshot-relation" => {
                let (Some(a), Some(b)) = (self.snapshot_side(step, "a")?, self.snapshot_side(step, "b")?)
                else {
                    return Ok(Reply::Observed(json!("none")));
                };
                let revision = match b.revision().cmp(&a.revision()) {
                    std::cmp::Ordering::Equal => "equal",
                    std::cmp::Ordering::Greater => "greater",
                    std::cmp::Ordering::Less => "less",
                };
                json!({ "identical": Snapshot::same(&a, &b), "revision": revision })
            }
            "list" => {
                let name = field(step, "of")?;
                Value::Array(
                    self.lists
                        .get(name)
                        .ok_or_else(|| error(&format!("unknown list handle '{name}'")))?
                        .clone(),
                )
            }
            "notifications" => {
                let name = field(step, "of")?;
                let (_, _, calls) = self
                    .subscriptions
                    .get(name)
                    .ok_or_else(|| error(&format!("unknown subscription handle '{name}'")))?;
                Value::Array(calls.borrow().iter().map(|(call, _)| call.clone()).collect())
            }
            "events" => Value::Array(self.slot(index)?.records.borrow().events.clone()),
            "assist-turn" | "assist-invocations" => {
                return Ok(Reply::Unsupported(
                    "Assist is not part of the reference's RCIP adapter".into(),
                ))
            }
            other => return Err(error(&format!("unknown RCIP observation '{other}'"))),
        };
        Ok(Reply::Observed(observed))
    }

    fn snapshot_handle(&self, name: &str) -> Result<Rc<Snapshot>, AdapterError> {
        self.snapshots
            .get(name)
            .cloned()
            .ok_or_else(|| error(&format!("unknown snapshot handle '{name}'")))
    }

    /// One side of `snapshot-relation`: a snapshot handle, or `{"notification": k | "last", "of":
    /// sub}`, the snapshot that listener call was handed (`None`: that call was not made).
    fn snapshot_side(&self, step: &Value, key: &str) -> Result<Option<Rc<Snapshot>>, AdapterError> {
        let side = step
            .get(key)
            .ok_or_else(|| error(&format!("snapshot-relation.{key} is missing")))?;
        if let Some(name) = side.as_str() {
            return self.snapshot_handle(name).map(Some);
        }
        let of = field(side, "of")?;
        let (_, _, calls) = self
            .subscriptions
            .get(of)
            .ok_or_else(|| error(&format!("unknown subscription handle '{of}'")))?;
        let calls = calls.borrow();
        let call = match side.get("notification") {
            Some(Value::String(last)) if last == "last" => calls.last(),
            Some(k) => {
                let k = k
                    .as_u64()
                    .and_then(|k| usize::try_from(k).ok())
                    .filter(|k| *k >= 1)
                    .ok_or_else(|| error(&format!("snapshot-relation.{key}.notification")))?;
                calls.get(k - 1)
            }
            None => return Err(error(&format!("snapshot-relation.{key}.notification is missing"))),
        };
        Ok(call.map(|(_, snapshot)| Rc::clone(snapshot)))
    }
}

/// The canonical outcome of vectors/README.md: CL-A06 without messages.
fn canonical_outcome(outcome: &reference::rcip::Outcome) -> Value {
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

// ---------------------------------------------------------------------------------------------
// Values: host values into escapes (observations of caller-owned objects)
// ---------------------------------------------------------------------------------------------

/// The wire form of a host value (vectors/README.md "Values"): plain JSON as is, everything else
/// as its escape; an object met again inside itself is a `ref` to that ancestor (a cycle), and an
/// object with a `$value` or `$match` key is a `literal`, a null-prototype object a plain one.
pub(crate) fn encode(value: &HostValue) -> Value {
    encode_at(value, &mut Vec::new(), "")
}

fn encode_at(value: &HostValue, ancestors: &mut Vec<(HostObject, String)>, at: &str) -> Value {
    match value {
        HostValue::Undefined => json!({ "$value": "undefined" }),
        HostValue::Null => Value::Null,
        HostValue::Bool(b) => json!(b),
        HostValue::Number(n) if n.is_nan() => json!({ "$value": "NaN" }),
        HostValue::Number(n) if *n == f64::INFINITY => json!({ "$value": "Infinity" }),
        HostValue::Number(n) if *n == f64::NEG_INFINITY => json!({ "$value": "-Infinity" }),
        HostValue::Number(n) if *n == 0.0 && n.is_sign_negative() => json!({ "$value": "-0" }),
        HostValue::Number(n) => reference::rcip::json_number(*n).unwrap_or(Value::Null),
        HostValue::String(text) => json!(text),
        HostValue::BigInt(digits) => json!({ "$value": "bigint", "digits": digits }),
        HostValue::Symbol => json!({ "$value": "symbol" }),
        HostValue::Function => json!({ "$value": "function" }),
        // An observation reads a getter as any JavaScript consumer would (the Node adapter too).
        HostValue::Getter(getter) => encode_at(&getter.read(), ancestors, at),
        HostValue::Object(object) => {
            if let Some((_, pointer)) = ancestors.iter().find(|(a, _)| a.same(object)) {
                return json!({ "$value": "ref", "to": pointer });
            }
            ancestors.push((object.clone(), at.to_string()));
            let encoded = object.with(|data| match data {
                ObjectData::Array { items } => {
                    let sparse = items.iter().any(Option::is_none);
                    let mut list = Vec::new();
                    let mut present = Map::new();
                    for (index, item) in items.iter().enumerate() {
                        let child = format!("{at}/{index}");
                        let encoded = item.as_ref().map(|item| encode_at(item, ancestors, &child));
                        match encoded {
                            Some(v) if sparse => {
                                present.insert(index.to_string(), v);
                            }
                            Some(v) => list.push(v),
                            None => {}
                        }
                    }
                    if sparse {
                        json!({ "$value": "sparse-array", "length": items.len(), "items": present })
                    } else {
                        Value::Array(list)
                    }
                }
                ObjectData::Object { prototype, members } => {
                    let mut fields = Map::new();
                    for (key, member) in members {
                        let child = format!("{at}/{}", crate::json::pointer_token(key));
                        fields.insert(key.clone(), encode_at(member, ancestors, &child));
                    }
                    match prototype {
                        // A null-prototype object is observed as a plain one, as the Node
                        // adapter does (harness/node/README.md, "Values").
                        Prototype::Plain | Prototype::Null
                            if fields.contains_key("$value") || fields.contains_key("$match") =>
                        {
                            json!({ "$value": "literal", "object": fields })
                        }
                        Prototype::Plain | Prototype::Null => Value::Object(fields),
                        Prototype::Class(class) => {
                            json!({ "$value": "class-instance", "class": class, "fields": fields })
                        }
                    }
                }
            });
            ancestors.pop();
            encoded
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Values: escapes into host values (vectors/README.md "Values")
// ---------------------------------------------------------------------------------------------

/// Where a `ref` escape sits, to be filled once the whole value is built.
enum Slot {
    Member(HostObject, String),
    Item(HostObject, usize),
}

struct PendingRef {
    slot: Slot,
    to: String,
}

/// Turns a vector value into a host value: plain JSON as is, `$value` escapes into what they
/// stand for, `ref` escapes into the same object as the one they point at (cycles and sharing).
pub(crate) fn decode(value: &Value) -> Result<HostValue, AdapterError> {
    if value.get("$value").and_then(Value::as_str) == Some("ref") {
        return Err(error("a ref escape cannot be the whole value"));
    }
    if value.get("$value").and_then(Value::as_str) == Some("getter") {
        return Err(error("a getter escape is only valid as a member or an item"));
    }
    let mut refs = Vec::new();
    let root = build(value, &mut refs)?;
    // A ref may point through another ref: resolve in rounds until nothing moves.
    let mut remaining = refs;
    while !remaining.is_empty() {
        let before = remaining.len();
        let mut next = Vec::new();
        for pending in remaining {
            match root.at_pointer(&pending.to) {
                Ok(target) if !is_placeholder(&target) => fill(&pending.slot, target),
                _ => next.push(pending),
            }
        }
        if next.len() == before {
            return Err(error(&format!(
                "ref escape to '{}' names nothing",
                next.first().map(|p| p.to.as_str()).unwrap_or("")
            )));
        }
        remaining = next;
    }
    Ok(root)
}

/// Placeholders are `undefined` until filled; a ref whose target is still a placeholder waits
/// (so a ref to a genuine `undefined` never resolves and is reported as naming nothing).
fn is_placeholder(target: &HostValue) -> bool {
    matches!(target, HostValue::Undefined)
}

fn fill(slot: &Slot, value: HostValue) {
    match slot {
        Slot::Member(object, key) => object.insert(key, value),
        Slot::Item(object, index) => object.update(|data| {
            if let ObjectData::Array { items } = data {
                if let Some(item) = items.get_mut(*index) {
                    *item = Some(value);
                }
            }
        }),
    }
}

fn build(value: &Value, refs: &mut Vec<PendingRef>) -> Result<HostValue, AdapterError> {
    match value {
        Value::Null => Ok(HostValue::Null),
        Value::Bool(b) => Ok(HostValue::Bool(*b)),
        Value::Number(n) => Ok(HostValue::Number(n.as_f64().unwrap_or(0.0))),
        Value::String(s) => Ok(HostValue::String(s.clone())),
        Value::Array(items) => {
            let array = HostValue::array(Vec::new());
            let object = array.as_object().cloned().ok_or_else(|| error("array"))?;
            for (index, item) in items.iter().enumerate() {
                let built = build_child(item, Slot::Item(object.clone(), index), refs)?;
                object.update(|data| {
                    if let ObjectData::Array { items } = data {
                        items.push(Some(built));
                    }
                });
            }
            Ok(array)
        }
        Value::Object(map) => match map.get("$value") {
            None => build_members(map, Prototype::Plain, refs),
            Some(tag) => build_escape(tag.as_str().unwrap_or_default(), map, refs),
        },
    }
}

/// Builds a child; a `ref` child becomes a placeholder recorded for later.
fn build_child(
    value: &Value,
    slot: Slot,
    refs: &mut Vec<PendingRef>,
) -> Result<HostValue, AdapterError> {
    if value.get("$value").and_then(Value::as_str) == Some("ref") {
        let to = value
            .get("to")
            .and_then(Value::as_str)
            .ok_or_else(|| error("ref escape needs 'to'"))?;
        refs.push(PendingRef {
            slot,
            to: to.to_string(),
        });
        return Ok(HostValue::Undefined);
    }
    build(value, refs)
}

fn build_members(
    map: &Map<String, Value>,
    prototype: Prototype,
    refs: &mut Vec<PendingRef>,
) -> Result<HostValue, AdapterError> {
    let value = HostValue::object_with(prototype, Vec::new());
    let object = value.as_object().cloned().ok_or_else(|| error("object"))?;
    for (key, member) in map {
        let built = build_child(member, Slot::Member(object.clone(), key.clone()), refs)?;
        object.insert(key, built);
    }
    Ok(value)
}

fn build_escape(
    tag: &str,
    map: &Map<String, Value>,
    refs: &mut Vec<PendingRef>,
) -> Result<HostValue, AdapterError> {
    let fields = || -> Result<&Map<String, Value>, AdapterError> {
        map.get("fields")
            .and_then(Value::as_object)
            .ok_or_else(|| error(&format!("{tag} escape needs 'fields'")))
    };
    match tag {
        "undefined" => Ok(HostValue::Undefined),
        "NaN" => Ok(HostValue::Number(f64::NAN)),
        "Infinity" => Ok(HostValue::Number(f64::INFINITY)),
        "-Infinity" => Ok(HostValue::Number(f64::NEG_INFINITY)),
        "-0" => Ok(HostValue::Number(-0.0)),
        "function" => Ok(HostValue::Function),
        "symbol" => Ok(HostValue::Symbol),
        "bigint" => {
            let digits = map
                .get("digits")
                .and_then(Value::as_str)
                .ok_or_else(|| error("bigint escape needs 'digits'"))?;
            Ok(HostValue::BigInt(digits.to_string()))
        }
        "class-instance" => {
            let class = map
                .get("class")
                .and_then(Value::as_str)
                .ok_or_else(|| error("class-instance needs 'class'"))?;
            build_members(fields()?, Prototype::Class(class.to_string()), refs)
        }
        "null-prototype" => build_members(fields()?, Prototype::Null, refs),
        "sparse-array" => {
            let length = map
                .get("length")
                .and_then(Value::as_u64)
                .and_then(|n| usize::try_from(n).ok())
                .filter(|n| *n <= 4096)
                .ok_or_else(|| error("sparse-array needs a 'length' of at most 4096"))?;
            let items = map
                .get("items")
                .and_then(Value::as_object)
                .ok_or_else(|| error("sparse-array needs 'items'"))?;
            let array = HostValue::sparse_array(vec![None; length]);
            let object = array.as_object().cloned().ok_or_else(|| error("array"))?;
            for (key, item) in items {
                let index: usize = key
                    .parse()
                    .map_err(|_| error(&format!("sparse-array index '{key}'")))?;
                if index >= length {
                    return Err(error(&format!(
                        "sparse-array index {index} beyond length {length}"
                    )));
                }
                let built = build_child(item, Slot::Item(object.clone(), index), refs)?;
                object.update(|data| {
                    if let ObjectData::Array { items } = data {
                        if let Some(slot) = items.get_mut(index) {
                            *slot = Some(built);
                        }
                    }
                });
            }
            Ok(array)
        }
        "literal" => {
            let object = map
                .get("object")
                .and_then(Value::as_object)
                .ok_or_else(|| error("literal needs 'object'"))?;
            // The object itself is never an escape; its members are values (escapes inside are
            // converted), as in the Node adapter.
            build_members(object, Prototype::Plain, refs)
        }
        "getter" => {
            let reads = map
                .get("reads")
                .and_then(Value::as_array)
                .filter(|reads| !reads.is_empty())
                .ok_or_else(|| error("getter escape needs a non-empty 'reads'"))?;
            // Each answer is a value of its own (its refs point into it), built once: a read
            // answers the same object each time it gives it, as in the Node adapter.
            let answers = reads.iter().map(decode).collect::<Result<Vec<_>, _>>()?;
            Ok(HostValue::Getter(Getter::new(answers)))
        }
        "ref" => Err(error("a ref escape is only valid inside a value")),
        other => Err(error(&format!("unknown escape '$value': '{other}'"))),
    }
}

/// Every string in `value`, depth-first in member order.
fn strings_in(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(text) => out.push(text.clone()),
        Value::Array(items) => items.iter().for_each(|item| strings_in(item, out)),
        Value::Object(members) => members.values().for_each(|member| strings_in(member, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_decode_into_host_values() {
        let value = decode(&json!({
            "n": { "$value": "NaN" }, "z": { "$value": "-0" }, "u": { "$value": "undefined" },
            "big": { "$value": "bigint", "digits": "12" },
            "p": { "$value": "class-instance", "class": "Point", "fields": { "x": 1 } },
            "sparse": { "$value": "sparse-array", "length": 3, "items": { "0": 1, "2": 3 } },
            "lit": { "$value": "literal", "object": { "$value": "NaN" } }
        }));
        let Ok(value) = value else {
            panic!("{value:?}")
        };
        assert!(matches!(value.get("n"), Some(HostValue::Number(n)) if n.is_nan()));
        assert!(matches!(value.get("u"), Some(HostValue::Undefined)));
        assert!(matches!(value.get("big"), Some(HostValue::BigInt(_))));
        assert_eq!(
            value.get("lit").map(|v| v.to_plain_json()),
            Some(Ok(json!({ "$value": "NaN" })))
        );
        assert!(value.get("sparse").is_some_and(|v| !v.is_plain_json()));
    }

    #[test]
    fn encode_is_the_inverse_of_decode_for_escapes_and_cycles() {
        let wire = json!({
            "n": { "$value": "NaN" }, "z": { "$value": "-0" }, "u": { "$value": "undefined" },
            "big": { "$value": "bigint", "digits": "12" },
            "p": { "$value": "class-instance", "class": "Point", "fields": { "x": 1 } },
            "sparse": { "$value": "sparse-array", "length": 3, "items": { "0": 1, "2": 3 } },
            "lit": { "$value": "literal", "object": { "$value": "x" } },
            "a": { "self": { "$value": "ref", "to": "/a" } },
            "plain": [1, "two", null, true]
        });
        let Ok(value) = decode(&wire) else {
            panic!("decodes")
        };
        assert_eq!(encode(&value), wire);
    }

    // A getter escape is an accessor member: each read answers the next answer, then the last.
    #[test]
    fn getter_escapes_answer_per_read() {
        let Ok(value) = decode(&json!({ "a": { "$value": "getter", "reads": [1, "two"] } })) else {
            panic!("decodes")
        };
        let read = || value.get("a").and_then(|v| v.to_plain_json().ok());
        assert_eq!(read(), Some(json!(1)));
        assert_eq!(read(), Some(json!("two")));
        assert_eq!(read(), Some(json!("two")));
        assert!(decode(&json!({ "$value": "getter", "reads": [1] })).is_err());
        assert!(decode(&json!({ "a": { "$value": "getter", "reads": [] } })).is_err());
    }

    #[test]
    fn refs_make_cycles_and_shared_objects() {
        let Ok(cyclic) = decode(&json!({ "a": { "self": { "$value": "ref", "to": "" } } })) else {
            panic!()
        };
        let inner = cyclic.get("a").and_then(|a| a.get("self"));
        assert!(
            matches!((inner, cyclic.as_object()), (Some(HostValue::Object(o)), Some(root)) if o.same(root))
        );
        let Ok(shared) = decode(&json!({ "a": { "k": 1 }, "b": { "$value": "ref", "to": "/a" } }))
        else {
            panic!()
        };
        match (shared.get("a"), shared.get("b")) {
            (Some(HostValue::Object(a)), Some(HostValue::Object(b))) => assert!(a.same(&b)),
            other => panic!("{other:?}"),
        }
        assert!(decode(&json!({ "b": { "$value": "ref", "to": "/nope" } })).is_err());
    }
}

