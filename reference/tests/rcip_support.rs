//! Shared rig for the RCIP runtime tests (`rcip_lifecycle.rs`, `rcip_props.rs`): the notes catalog
//! of the tests, a runtime whose policy and handlers record every call and answer as the test
//! says (at once, or pending until the test settles the gate), and short accessors for outcomes.
//! Included by the test files with `#[path]`; on its own it holds no tests.
#![allow(dead_code)]

use std::cell::RefCell;
use std::rc::Rc;

use reference::choices::Choices;
use reference::rcip::{
    AbortSignal, Answer, BindingSpec, BindingToken, CallId, Definition, ErrorCode, HandlerCall,
    HostError, HostErrorName, HostValue, InvokeRequest, Outcome, OutcomeBody, Phase, PolicyCall,
    RcipEvent, Runtime, RuntimeOptions, Settlement, Status, Ticket,
};
use serde_json::{json, Value};

/// The catalog: `notes.list` (read), `notes.create` (write, `{ text: string }` in, `{ id }` out),
/// `notes.delete` (destructive), `settings.read` (read, scope settings), `help.show` (read, no
/// scopes).
pub fn notes_definition() -> Value {
    let object = json!({ "type": "object" });
    json!({
        "protocolVersion": "1.0",
        "application": { "id": "notes", "name": "Notes", "description": "A notes application" },
        "scopes": [
            { "id": "notes", "title": "Notes", "description": "The notes area" },
            { "id": "settings", "title": "Settings", "description": "The settings area" }
        ],
        "capabilities": [
            { "id": "notes.list", "title": "List", "description": "Lists notes", "scopeIds": ["notes"],
              "effect": "read", "inputSchema": object, "outputSchema": object },
            { "id": "notes.create", "title": "Create", "description": "Creates a note", "scopeIds": ["notes"],
              "effect": "write",
              "inputSchema": { "type": "object", "properties": { "text": { "type": "string", "minLength": 1 } },
                               "required": ["text"], "additionalProperties": false },
              "outputSchema": { "type": "object", "properties": { "id": { "type": "string" } },
                                "required": ["id"], "additionalProperties": false } },
            { "id": "notes.delete", "title": "Delete", "description": "Deletes a note", "scopeIds": ["notes"],
              "effect": "destructive", "inputSchema": object, "outputSchema": object },
            { "id": "settings.read", "title": "Settings", "description": "Reads settings", "scopeIds": ["settings"],
              "effect": "read", "inputSchema": object, "outputSchema": object },
            { "id": "help.show", "title": "Help", "description": "Shows help", "scopeIds": [],
              "effect": "read", "inputSchema": object, "outputSchema": object }
        ]
    })
}

pub fn definition() -> Definition {
    match Definition::from_json(&notes_definition()) {
        Ok(definition) => definition,
        Err(error) => panic!("the test catalog is valid: {error}"),
    }
}

/// How the rig's policy answers.
#[derive(Clone)]
pub enum PolicyMode {
    /// No policy option: the default policy (CL-B22).
    Default,
    /// Every call is pending until the test settles it.
    Gated,
    /// Every call answers this settlement at once.
    Fixed(Result<Value, HostErrorName>),
}

/// How a bound handler answers.
#[derive(Clone)]
pub enum HandlerMode {
    Gated,
    Returns(Value),
    Throws(HostErrorName),
    /// Mutates the input it received (`/text` := "changed by handler"), then returns this.
    MutatesThenReturns(Value),
}

#[derive(Debug, Clone)]
pub struct PolicyRecord {
    pub call: CallId,
    pub capability: String,
    pub input: Value,
    pub context: Value,
    pub confirmed: bool,
}

#[derive(Debug, Clone)]
pub struct HandlerRecord {
    pub call: CallId,
    pub capability: String,
    pub input: Value,
    pub invocation_id: String,
    pub context: Value,
    pub signal: AbortSignal,
}

#[derive(Default)]
pub struct Records {
    pub policy: Vec<PolicyRecord>,
    pub handler: Vec<HandlerRecord>,
    pub events: Vec<RcipEvent>,
    pub notifications: Vec<u64>,
}

pub struct Rig {
    pub definition: Definition,
    pub runtime: Runtime,
    pub records: Rc<RefCell<Records>>,
}

pub fn allow() -> Value {
    json!({ "decision": "allow" })
}

pub fn deny() -> Value {
    json!({ "decision": "deny", "reason": "no" })
}

pub fn confirm() -> Value {
    json!({ "decision": "confirm" })
}

pub fn throw() -> HostError {
    HostError {
        name: HostErrorName::Error,
        message: "host-secret-7f3a".into(),
    }
}

fn settlement(result: &Result<Value, HostErrorName>) -> Settlement {
    match result {
        Ok(value) => Ok(HostValue::from_json(value)),
        Err(name) => Err(HostError {
            name: *name,
            message: "host-secret-7f3a".into(),
        }),
    }
}

impl Rig {
    pub fn new(policy: PolicyMode) -> Rig {
        Rig::with(policy, None, true)
    }

    /// A rig with an optional confirmation TTL and, when `events`, a recording `onEvent`.
    pub fn with(policy: PolicyMode, ttl_ms: Option<u64>, events: bool) -> Rig {
        Rig::from_definition(&definition(), policy, ttl_ms, events, false)
    }

    pub fn from_definition(
        definition: &Definition,
        policy: PolicyMode,
        ttl_ms: Option<u64>,
        events: bool,
        observer_throws: bool,
    ) -> Rig {
        Rig::with_choices(
            definition,
            policy,
            ttl_ms,
            events,
            observer_throws,
            Choices::default(),
        )
    }

    /// [`Rig::from_definition`] with an open-point reading or an injected fault of
    /// `reference-driver --fault` (`choices`).
    pub fn with_choices(
        definition: &Definition,
        policy: PolicyMode,
        ttl_ms: Option<u64>,
        events: bool,
        observer_throws: bool,
        choices: Choices,
    ) -> Rig {
        let records: Rc<RefCell<Records>> = Rc::default();
        let policy_fn: Option<reference::rcip::PolicyFn> = match policy {
            PolicyMode::Default => None,
            mode => {
                let records = Rc::clone(&records);
                Some(Box::new(move |call: PolicyCall| {
                    records.borrow_mut().policy.push(PolicyRecord {
                        call: call.call,
                        capability: call
                            .capability
                            .get("id")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string(),
                        input: call.input.to_plain_json().unwrap_or(Value::Null),
                        context: call.semantic_context.to_json(),
                        confirmed: call.confirmed,
                    });
                    match &mode {
                        PolicyMode::Fixed(result) => Answer::Ready(settlement(result)),
                        _ => Answer::Pending,
                    }
                }))
            }
        };
        let on_event: Option<reference::rcip::EventFn> = if events {
            let records = Rc::clone(&records);
            Some(Box::new(move |event: &RcipEvent| {
                records.borrow_mut().events.push(event.clone());
                if observer_throws {
                    Err(throw())
                } else {
                    Ok(())
                }
            }))
        } else {
            None
        };
        let options = RuntimeOptions {
            policy: policy_fn,
            confirmation_ttl_ms: ttl_ms,
            create_id: None,
            on_event,
            choices,
        };
        let runtime = match Runtime::new(definition, options) {
            Ok(runtime) => runtime,
            Err(error) => panic!("runtime creation: {error}"),
        };
        Rig {
            definition: definition.clone(),
            runtime,
            records,
        }
    }

    /// Binds `capability` with a handler answering as `mode` and, if given, an availability cell.
    pub fn bind_with(
        &mut self,
        capability: &str,
        mode: HandlerMode,
        availability: Option<Rc<RefCell<Value>>>,
    ) -> BindingToken {
        let records = Rc::clone(&self.records);
        let handler: reference::rcip::HandlerFn = Box::new(move |call: HandlerCall| {
            records.borrow_mut().handler.push(HandlerRecord {
                call: call.call,
                capability: call.capability_id.clone(),
                input: call.input.to_plain_json().unwrap_or(Value::Null),
                invocation_id: call.invocation_id.clone(),
                context: call.semantic_context.to_json(),
                signal: call.signal.clone().unwrap_or_default(),
            });
            match &mode {
                HandlerMode::Gated => Answer::Pending,
                HandlerMode::Returns(value) => Answer::Ready(Ok(HostValue::from_json(value))),
                HandlerMode::Throws(name) => Answer::Ready(Err(HostError {
                    name: *name,
                    message: "host-secret-7f3a".into(),
                })),
                HandlerMode::MutatesThenReturns(value) => {
                    let _ = call
                        .input
                        .set_at_pointer("/text", HostValue::string("changed by handler"));
                    Answer::Ready(Ok(HostValue::from_json(value)))
                }
            }
        });
        let availability: Option<reference::rcip::AvailabilityFn> = availability.map(|cell| {
            let read: reference::rcip::AvailabilityFn =
                Box::new(move || Ok(HostValue::from_json(&cell.borrow())));
            read
        });
        let Some(handle) = self.definition.capability(capability) else {
            panic!("{capability} is declared");
        };
        match self.runtime.bind(
            &handle,
            BindingSpec {
                handler,
                availability,
            },
        ) {
            Ok(token) => token,
            Err(error) => panic!("bind {capability}: {error}"),
        }
    }

    pub fn bind(&mut self, capability: &str, mode: HandlerMode) -> BindingToken {
        self.bind_with(capability, mode, None)
    }

    pub fn invoke(&mut self, capability: &str, input: Value, id: &str) -> Ticket {
        self.runtime.invoke(InvokeRequest {
            capability_id: capability.into(),
            input: HostValue::from_json(&input),
            invocation_id: Some(id.into()),
            signal: None,
        })
    }

    pub fn invoke_signal(
        &mut self,
        capability: &str,
        input: HostValue,
        id: &str,
        signal: &AbortSignal,
    ) -> Ticket {
        self.runtime.invoke(InvokeRequest {
            capability_id: capability.into(),
            input,
            invocation_id: Some(id.into()),
            signal: Some(signal.clone()),
        })
    }

    pub fn outcome(&self, ticket: Ticket) -> Option<&Outcome> {
        self.runtime.outcome(ticket)
    }

    /// `(status, code)` of a settled outcome; `None` while pending.
    pub fn result(&self, ticket: Ticket) -> Option<(Status, Option<ErrorCode>)> {
        self.outcome(ticket).map(|o| (o.status(), o.code()))
    }

    pub fn confirmation_id(&self, ticket: Ticket) -> String {
        match self.outcome(ticket).map(|o| &o.body) {
            Some(OutcomeBody::ConfirmationRequired(info)) => info.id.clone(),
            other => panic!("not a confirmation: {other:?}"),
        }
    }

    /// The call id of the k-th (1-based) policy call.
    pub fn policy_call(&self, k: usize) -> CallId {
        match self.records.borrow().policy.get(k - 1) {
            Some(record) => record.call,
            None => panic!("no policy call {k}"),
        }
    }

    pub fn handler_call(&self, k: usize) -> CallId {
        match self.records.borrow().handler.get(k - 1) {
            Some(record) => record.call,
            None => panic!("no handler call {k}"),
        }
    }

    pub fn settle_policy(&mut self, k: usize, decision: Value) -> Vec<Ticket> {
        let call = self.policy_call(k);
        match self
            .runtime
            .settle_policy(call, Ok(HostValue::from_json(&decision)))
        {
            Ok(settled) => settled,
            Err(error) => panic!("settle policy {k}: {error:?}"),
        }
    }

    pub fn settle_handler(&mut self, k: usize, result: Settlement) -> Vec<Ticket> {
        let call = self.handler_call(k);
        match self.runtime.settle_handler(call, result) {
            Ok(settled) => settled,
            Err(error) => panic!("settle handler {k}: {error:?}"),
        }
    }

    pub fn set_context(&mut self, active: &[&str], primary: Option<&str>) {
        let mut context = json!({ "activeScopeIds": active });
        if let (Some(primary), Some(object)) = (primary, context.as_object_mut()) {
            object.insert("primaryScopeId".into(), json!(primary));
        }
        if let Err(error) = self.runtime.set_context(&HostValue::from_json(&context)) {
            panic!("setContext: {error}");
        }
    }

    pub fn policy_count(&self) -> usize {
        self.records.borrow().policy.len()
    }

    pub fn handler_count(&self) -> usize {
        self.records.borrow().handler.len()
    }

    pub fn phases(&self, invocation_id: &str) -> Vec<Phase> {
        self.records
            .borrow()
            .events
            .iter()
            .filter(|e| e.invocation_id == invocation_id)
            .map(|e| e.phase)
            .collect()
    }
}

pub fn failed(code: ErrorCode) -> Option<(Status, Option<ErrorCode>)> {
    Some((Status::Failed, Some(code)))
}

pub fn denied(code: ErrorCode) -> Option<(Status, Option<ErrorCode>)> {
    Some((Status::Denied, Some(code)))
}

pub fn succeeded() -> Option<(Status, Option<ErrorCode>)> {
    Some((Status::Succeeded, None))
}

pub fn confirmation_required() -> Option<(Status, Option<ErrorCode>)> {
    Some((Status::ConfirmationRequired, None))
}
