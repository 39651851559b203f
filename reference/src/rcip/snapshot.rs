//! The live snapshot of CL-A07 and its parts (RCIP-PROTO-SNAP-01..09): the semantic context
//! (CL-A04-8, CL-B06, CL-B21), published availability with redaction (CL-B17), relevance
//! (CL-B16), capability entries combining the contract with the independent facts `bound`,
//! `available` and `relevance`, and the `listCapabilities` filter (CL-A03-2..5,
//! RCIP-PROTO-SURF-03).
//!
//! A [`Snapshot`] is immutable once built and handed out as `Rc<Snapshot>`: identity is pointer
//! identity, and nothing a consumer holds can write into it (CL-B14-3, RCIP-LIFE-AVAIL-04).
//! Decisions: a malformed or throwing `getAvailability` counts as unavailable and publishes
//! `{ available: false }`; a bound capability without `getAvailability` is available and
//! publishes no `availability` member; `reason`/`reasonCode` are published only when strings;
//! the list filter ignores members of the wrong type or unknown values (`context` other than
//! `"current"` means all), so `listCapabilities` never throws; listing keeps catalog order.

use std::rc::Rc;

use serde_json::{json, Map, Value};

use super::definition::{CapabilityDef, Definition, Effect};
use super::value::HostValue;

/// The active semantic context: declared scope ids, first-seen order, and an optional primary.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SemanticContext {
    pub active_scope_ids: Vec<String>,
    pub primary_scope_id: Option<String>,
}

impl SemanticContext {
    /// `{ activeScopeIds, primaryScopeId? }`.
    pub fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("activeScopeIds".into(), json!(self.active_scope_ids));
        if let Some(primary) = &self.primary_scope_id {
            object.insert("primaryScopeId".into(), json!(primary));
        }
        Value::Object(object)
    }
}

/// Availability as published: only the redacted fields of CL-B17-1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishedAvailability {
    pub available: bool,
    pub reason: Option<String>,
    pub reason_code: Option<String>,
    /// Only under the injected fault `availability-extras-published`: the whole object the host
    /// returned, as JSON text, published instead of the redacted fields.
    pub unredacted: Option<String>,
}

impl PublishedAvailability {
    /// Reads what `getAvailability()` returned, keeping only `available`, `reason` and
    /// `reasonCode`. Anything without a boolean `available` counts as unavailable.
    pub fn from_host(value: &HostValue) -> PublishedAvailability {
        let text = |key: &str| value.get(key).and_then(|v| v.as_str().map(str::to_string));
        match value.get("available").and_then(|v| v.as_bool()) {
            Some(available) => PublishedAvailability {
                available,
                reason: text("reason"),
                reason_code: text("reasonCode"),
                unredacted: None,
            },
            None => PublishedAvailability::unavailable(),
        }
    }

    /// [`PublishedAvailability::from_host`] without the redaction (an injected fault).
    pub fn from_host_unredacted(value: &HostValue) -> PublishedAvailability {
        let mut published = PublishedAvailability::from_host(value);
        published.unredacted = value.to_plain_json().ok().map(|json| json.to_string());
        published
    }

    pub fn unavailable() -> PublishedAvailability {
        PublishedAvailability {
            available: false,
            reason: None,
            reason_code: None,
            unredacted: None,
        }
    }

    pub fn to_json(&self) -> Value {
        if let Some(whole) = self
            .unredacted
            .as_deref()
            .and_then(|text| serde_json::from_str(text).ok())
        {
            return whole;
        }
        let mut object = Map::new();
        object.insert("available".into(), json!(self.available));
        if let Some(reason) = &self.reason {
            object.insert("reason".into(), json!(reason));
        }
        if let Some(code) = &self.reason_code {
            object.insert("reasonCode".into(), json!(code));
        }
        Value::Object(object)
    }
}

/// The live facts of one capability at publication time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LiveStatus {
    Unbound,
    /// Bound without `getAvailability`: available, nothing published about it.
    BoundAlwaysAvailable,
    /// Bound, with the availability read at the last refresh.
    Bound(PublishedAvailability),
}

/// CL-B16-1: `current` when the capability has no scopes or one of them is active. The scope
/// hierarchy plays no part (CL-B16-3).
pub fn is_current(capability: &CapabilityDef, context: &SemanticContext) -> bool {
    capability.scope_ids.is_empty()
        || capability
            .scope_ids
            .iter()
            .any(|scope| context.active_scope_ids.contains(scope))
}

/// The context relevance is computed against: the context itself, or (the alternate reading of
/// CL-B16-3, `Choice::ScopeHierarchyRelevance`) with every descendant of an active scope added.
pub fn relevance_context(
    definition: &Definition,
    context: &SemanticContext,
    hierarchy: bool,
) -> SemanticContext {
    if !hierarchy {
        return context.clone();
    }
    let mut active = context.active_scope_ids.clone();
    // Descendants are added until nothing changes; a parent chain is finite, so this ends.
    loop {
        let before = active.len();
        for scope in definition.scopes() {
            let parent_active = scope
                .parent_id
                .as_ref()
                .is_some_and(|parent| active.contains(parent));
            if parent_active && !active.contains(&scope.id) {
                active.push(scope.id.clone());
            }
        }
        if active.len() == before {
            break;
        }
    }
    SemanticContext {
        active_scope_ids: active,
        primary_scope_id: context.primary_scope_id.clone(),
    }
}

/// One capability entry of CL-A07-3/4; `context` is the context relevance is computed against
/// (see [`relevance_context`]).
pub fn capability_entry(
    capability: &CapabilityDef,
    live: &LiveStatus,
    context: &SemanticContext,
) -> Value {
    let mut entry = capability.contract.clone();
    let (bound, available, availability) = match live {
        LiveStatus::Unbound => (false, false, None),
        LiveStatus::BoundAlwaysAvailable => (true, true, None),
        LiveStatus::Bound(published) => (true, published.available, Some(published.to_json())),
    };
    entry.insert("bound".into(), json!(bound));
    entry.insert("available".into(), json!(available));
    if let Some(availability) = availability {
        entry.insert("availability".into(), availability);
    }
    let relevance = if is_current(capability, context) {
        "current"
    } else {
        "other"
    };
    entry.insert("relevance".into(), json!(relevance));
    Value::Object(entry)
}

/// An immutable snapshot (CL-A07).
#[derive(Debug)]
pub struct Snapshot {
    revision: u64,
    json: Value,
}

impl Snapshot {
    /// Builds the snapshot of a catalog with the given revision, context and live status
    /// (`live` in catalog order); relevance is computed against `relevance`
    /// ([`relevance_context`]).
    pub fn build(
        definition: &Definition,
        revision: u64,
        context: &SemanticContext,
        relevance: &SemanticContext,
        live: &[LiveStatus],
    ) -> Snapshot {
        let capabilities: Vec<Value> = definition
            .capabilities()
            .iter()
            .zip(live)
            .map(|(capability, live)| capability_entry(capability.def(), live, relevance))
            .collect();
        let scopes: Vec<Value> = definition
            .scopes()
            .iter()
            .map(|s| s.published.clone())
            .collect();
        let json = json!({
            "protocolVersion": super::definition::RCIP_PROTOCOL_VERSION,
            "revision": revision,
            "application": definition.application().clone(),
            "scopes": scopes,
            "context": context.to_json(),
            "capabilities": capabilities,
        });
        Snapshot { revision, json }
    }

    /// Changes the published JSON (only the injected snapshot faults do).
    pub(super) fn edit(&mut self, change: impl FnOnce(&mut Value)) {
        change(&mut self.json);
    }

    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The snapshot as JSON (read-only).
    pub fn json(&self) -> &Value {
        &self.json
    }

    /// The capability entries, in catalog order.
    pub fn capabilities(&self) -> &[Value] {
        self.json
            .get("capabilities")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Whether two handles are the same snapshot object.
    pub fn same(a: &Rc<Snapshot>, b: &Rc<Snapshot>) -> bool {
        Rc::ptr_eq(a, b)
    }
}

/// `listCapabilities(filter)` (CL-A03-2..5).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListFilter {
    /// `context: "current"`: only relevant capabilities.
    pub current_only: bool,
    pub available_only: bool,
    pub scope_id: Option<String>,
    pub effect: Option<Effect>,
}

impl ListFilter {
    /// Reads a filter object as a consumer passes it; see the module notes for malformed members.
    pub fn from_host(value: &HostValue) -> ListFilter {
        ListFilter {
            current_only: value
                .get("context")
                .and_then(|v| v.as_str().map(|s| s == "current"))
                .unwrap_or(false),
            available_only: value
                .get("availableOnly")
                .and_then(|v| v.as_bool())
                .unwrap_or(false),
            scope_id: value
                .get("scopeId")
                .and_then(|v| v.as_str().map(str::to_string)),
            effect: value
                .get("effect")
                .and_then(|v| v.as_str().and_then(Effect::parse)),
        }
    }

    /// Whether a snapshot entry passes the filter. An effect filter naming no effect matches
    /// nothing only when given as a known effect; unknown effect strings are ignored.
    pub fn matches(&self, entry: &Value) -> bool {
        if self.current_only && entry.get("relevance").and_then(Value::as_str) != Some("current") {
            return false;
        }
        if self.available_only && entry.get("available").and_then(Value::as_bool) != Some(true) {
            return false;
        }
        if let Some(scope) = &self.scope_id {
            let scopes = entry.get("scopeIds").and_then(Value::as_array);
            if !scopes.is_some_and(|list| list.iter().any(|s| s.as_str() == Some(scope))) {
                return false;
            }
        }
        if let Some(effect) = self.effect {
            if entry.get("effect").and_then(Value::as_str) != Some(effect.as_str()) {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // CL-B17-1: only available, reason, reasonCode are published.
    #[test]
    fn availability_is_redacted() {
        let returned = HostValue::from_json(&json!({
            "available": false, "reason": "Offline", "reasonCode": "offline", "token": "secret", "userId": 7
        }));
        assert_eq!(
            PublishedAvailability::from_host(&returned).to_json(),
            json!({ "available": false, "reason": "Offline", "reasonCode": "offline" })
        );
        let malformed = HostValue::from_json(&json!({ "available": "yes" }));
        assert_eq!(
            PublishedAvailability::from_host(&malformed),
            PublishedAvailability::unavailable()
        );
    }

    // CL-A03-2..5: each filter member narrows independently.
    #[test]
    fn list_filter_members() {
        let entry = json!({ "relevance": "other", "available": true, "scopeIds": ["notes"], "effect": "read" });
        let filter = |v: Value| ListFilter::from_host(&HostValue::from_json(&v));
        assert!(filter(json!({})).matches(&entry));
        assert!(!filter(json!({ "context": "current" })).matches(&entry));
        assert!(filter(json!({ "context": "all", "availableOnly": true })).matches(&entry));
        assert!(filter(json!({ "scopeId": "notes", "effect": "read" })).matches(&entry));
        assert!(!filter(json!({ "scopeId": "settings" })).matches(&entry));
        assert!(!filter(json!({ "effect": "write" })).matches(&entry));
    }
}
