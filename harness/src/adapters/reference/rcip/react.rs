//! Maps the `react` profile of vectors/README.md ("React host": tree elements, the steps
//! `render`, `resolve`, `unmount`, `server-render`, `hydrate`, and the observations
//! `handler-states`, `boundary`, `hook-client`, `hook-snapshot`) onto the reference's abstract
//! React host `reference::rcip::react` (CLARIFICATIONS A08; RCIP-PROTO-SURF-12/13,
//! RCIP-LIFE-BIND-05/06, RCIP-LIFE-CTX-05/06, RCIP-LIFE-AVAIL-02, RCIP-LIFE-SSR-04).
//!
//! Each `render` step makes, per capability element, the `execute` of that render: it records the
//! element's `state` (observation `handler-states`), then behaves as the handler `H` does for
//! `bind` (so it is a handler call like any other, gated calls included), or, for
//! `returns-state`, returns `{ state }`. A tree the vocabulary does not define (unknown kind, a
//! runtime handle never created, a suspension outside a transition) is an adapter error.

use reference::rcip::react::{CapabilityRender, Element, ElementKind, ReactHost};
use reference::rcip::{HandlerFn, Runtime};
use serde_json::{json, Value};

use super::{decode, error, field, RcipCase};
use crate::adapter::{AdapterError, Reply};

/// The observations this module answers.
pub(super) const OBSERVATIONS: &[&str] = &["handler-states", "boundary", "hook-client", "hook-snapshot"];

/// The host of a case, with Strict Mode as `setup.react.strictMode` says.
pub(super) fn host(setup: &Value, choices: &reference::choices::Choices) -> Result<ReactHost, AdapterError> {
    let strict = match setup.get("react").and_then(|r| r.get("strictMode")) {
        None => false,
        Some(Value::Bool(flag)) => *flag,
        Some(_) => return Err(error("setup.react.strictMode is not a boolean")),
    };
    Ok(ReactHost::new(strict, choices.clone()))
}

impl RcipCase {
    pub(super) fn react(&mut self, action: &str, step: &Value) -> Result<Reply, AdapterError> {
        let misuse = |e: reference::rcip::react::HostMisuse| error(&format!("react {action}: {}", e.0));
        match action {
            "render" | "server-render" | "hydrate" => {
                let tree = self.tree(step.get("tree").ok_or_else(|| error("react step without tree"))?)?;
                let transition = step.get("transition").and_then(Value::as_bool).unwrap_or(false);
                let mut runtimes: Vec<&mut Runtime> = self.runtimes.iter_mut().map(|s| &mut s.runtime).collect();
                match action {
                    "render" => self.react.render(&tree, transition, &mut runtimes),
                    "server-render" => self.react.server_render(&tree, &mut runtimes),
                    _ => self.react.hydrate(&tree, &mut runtimes),
                }
                .map_err(misuse)?;
            }
            "resolve" => {
                let on = field(step, "on")?.to_string();
                let mut runtimes: Vec<&mut Runtime> = self.runtimes.iter_mut().map(|s| &mut s.runtime).collect();
                self.react.resolve(&on, &mut runtimes).map_err(misuse)?;
            }
            "unmount" => {
                let mut runtimes: Vec<&mut Runtime> = self.runtimes.iter_mut().map(|s| &mut s.runtime).collect();
                self.react.unmount(&mut runtimes);
            }
            other => return Err(error(&format!("unknown react step '{other}'"))),
        }
        Ok(Reply::Done)
    }

    pub(super) fn observe_react(&mut self, observation: &str, step: &Value) -> Result<Value, AdapterError> {
        Ok(match observation {
            "handler-states" => {
                let index = self.runtime_index(step)?;
                let filter = step.get("capability").and_then(Value::as_str);
                let records = self.slot(index)?.records.borrow();
                Value::Array(
                    records
                        .react_states
                        .iter()
                        .filter(|r| filter.is_none_or(|c| r["capabilityId"] == c))
                        .cloned()
                        .collect(),
                )
            }
            "boundary" => json!(self.react.boundary(field(step, "key")?)),
            "hook-client" => match self.react.hook_client(field(step, "key")?) {
                None => json!("none"),
                Some(None) => json!("other"),
                Some(Some(0)) => json!("setup"),
                Some(Some(index)) => self
                    .runtime_names
                    .iter()
                    .find(|(_, i)| **i == index)
                    .map_or(json!("other"), |(name, _)| json!(name)),
            },
            "hook-snapshot" => {
                let key = field(step, "key")?.to_string();
                let mut runtimes: Vec<&mut Runtime> = self.runtimes.iter_mut().map(|s| &mut s.runtime).collect();
                match self.react.hook_snapshot(&key, &mut runtimes) {
                    Some(snapshot) => snapshot.json().clone(),
                    None => json!("none"),
                }
            }
            other => return Err(error(&format!("unknown react observation '{other}'"))),
        })
    }

    /// A tree `T`: one element or an array of siblings.
    fn tree(&mut self, value: &Value) -> Result<Vec<Element>, AdapterError> {
        match value {
            Value::Array(items) => items.iter().map(|item| self.element(item, None)).collect(),
            single => Ok(vec![self.element(single, None)?]),
        }
    }

    /// One element; `runtime` is the runtime of the nearest provider above it (for the records
    /// its `execute` keeps).
    fn element(&mut self, value: &Value, runtime: Option<usize>) -> Result<Element, AdapterError> {
        let key = field(value, "key")?.to_string();
        let kind_name = field(value, "kind")?;
        let mut scope = runtime;
        let kind = match kind_name {
            "provider" => {
                let index = self.runtime_index(value)?;
                scope = Some(index);
                ElementKind::Provider { runtime: index }
            }
            "context-owner" => ElementKind::ContextOwner {
                context: decode(value.get("context").ok_or_else(|| error("context-owner.context"))?)?,
            },
            "capability" => ElementKind::Capability(self.capability_render(value, runtime.unwrap_or(0))?),
            "boundary" => ElementKind::Boundary,
            "throw" => ElementKind::Throw,
            "suspend" => ElementKind::Suspend { on: field(value, "on")?.to_string() },
            "client-user" => ElementKind::ClientUser,
            "snapshot-user" => ElementKind::SnapshotUser,
            other => return Err(error(&format!("unknown element kind '{other}'"))),
        };
        let children = match value.get("children") {
            None => Vec::new(),
            Some(Value::Array(items)) => items.iter().map(|c| self.element(c, scope)).collect::<Result<_, _>>()?,
            Some(single) => vec![self.element(single, scope)?],
        };
        Ok(Element { key, kind, children })
    }

    /// This render's `useRcipCapability` argument: an `execute` that records the state, then
    /// behaves as `H`.
    fn capability_render(&mut self, value: &Value, runtime: usize) -> Result<CapabilityRender, AdapterError> {
        let capability = field(value, "capability")?.to_string();
        let state = value.get("state").cloned().ok_or_else(|| error("capability.state is missing"))?;
        let spec = value.get("handler").ok_or_else(|| error("capability.handler is missing"))?;
        let behaviour = match spec.get("mode").and_then(Value::as_str) {
            Some("returns-state") => json!({
                "mode": "scripted",
                "settle": { "return": { "$value": "literal", "object": { "state": state } } },
            }),
            _ => spec.clone(),
        };
        let mut inner: HandlerFn = self.handler(runtime, &behaviour)?;
        let records = std::rc::Rc::clone(&self.slot(runtime)?.records);
        let record_state = state.clone();
        let execute: HandlerFn = Box::new(move |call| {
            records.borrow_mut().react_states.push(json!({
                "capabilityId": call.capability_id,
                "state": record_state,
            }));
            inner(call)
        });
        let availability = match value.get("availability") {
            None => None,
            Some(a) => Some(decode(a)?),
        };
        Ok(CapabilityRender {
            capability,
            execute: std::rc::Rc::new(std::cell::RefCell::new(execute)),
            availability,
            revision: value.get("revision").cloned(),
        })
    }
}
