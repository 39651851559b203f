//! The RCIP runtime's state and its non-invocation surfaces (RCIP-PROTO-SURF-01..11, CL-A01,
//! CL-A03, CL-A04): creation from a [`Definition`] with options, the host surface (`bind`,
//! `unbind`, `set_context`, `refresh`), the client discovery surface (`get_snapshot`,
//! `list_capabilities`, `subscribe`), revisions and snapshot caching (CL-B15), binding identity and
//! duplicate bindings (CL-B20, RCIP-LIFE-BIND-02..04), context rules (CL-B06, CL-B21), listener
//! isolation, and the `events` observer (CL-B23). The invocation lifecycle is in `lifecycle.rs`.
//!
//! Everything a runtime holds is its own (CL-B25): two runtimes built from one definition share
//! only the immutable catalog and compiled schemas.

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write;
use std::rc::Rc;

use serde_json::Value;

use super::definition::{CapabilityHandle, ConfigError, Definition};
use super::lifecycle::{Operation, PendingConfirmation, Receipt, Waiting};
use super::outcome::Outcome;
use super::snapshot::{ListFilter, LiveStatus, PublishedAvailability, SemanticContext, Snapshot};
use super::value::{HostValue, ObjectData, PlainRules};
use crate::choices::{Choice, Choices, Fault};

/// CL-A01-5, CL-B08-1, RCIP-LIFE-CONF-05: two minutes.
pub const DEFAULT_CONFIRMATION_TTL_MS: u64 = 120_000;

/// CL-B10-1, RCIP-LIFE-CONF-07: the receipt ring's size.
pub const RECEIPT_CAPACITY: usize = 256;

/// An abort signal (the `AbortController`/`AbortSignal` pair): clones share the flag. Aborting
/// only sets the flag; the runtime reacts in [`Runtime::abort`] / [`Runtime::process_aborts`].
#[derive(Debug, Clone, Default)]
pub struct AbortSignal(Rc<Cell<bool>>);

impl AbortSignal {
    pub fn new() -> AbortSignal {
        AbortSignal::default()
    }

    pub fn abort(&self) {
        self.0.set(true);
    }

    pub fn is_aborted(&self) -> bool {
        self.0.get()
    }
}

/// One call of a host callback (policy or handler) that answered "pending": the gate the driver
/// settles with [`Runtime::settle_policy`] or [`Runtime::settle_handler`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CallId(pub u64);

/// Names the outcome of one `invoke` or `resolveConfirmation` call (the promise).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ticket(pub u64);

/// What `bind` returns: calling [`Runtime::unbind`] with it removes exactly that binding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BindingToken {
    capability: String,
    binding: u64,
}

/// What `subscribe` returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct SubscriptionId(u64);

/// The name of a thrown error: an ordinary `Error` or one named `AbortError`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostErrorName {
    Error,
    AbortError,
}

/// An exception a host callback threw (or a promise it rejected with).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostError {
    pub name: HostErrorName,
    pub message: String,
}

impl HostError {
    pub fn error(message: &str) -> HostError {
        HostError {
            name: HostErrorName::Error,
            message: message.to_string(),
        }
    }
}

/// How a host callback finished: returned a value, or threw.
pub type Settlement = Result<HostValue, HostError>;

/// A host callback's immediate answer: settled now (sync, or an already-settled promise), or
/// pending until the driver settles its [`CallId`].
#[derive(Debug, Clone)]
pub enum Answer {
    Ready(Settlement),
    Pending,
}

/// What the policy callback receives (CL-A05-1), plus the call's id.
#[derive(Debug, Clone)]
pub struct PolicyCall {
    pub call: CallId,
    /// The capability's snapshot entry.
    pub capability: Value,
    /// A detached copy of the captured input: the policy may mutate it harmlessly.
    pub input: HostValue,
    pub semantic_context: SemanticContext,
    pub confirmed: bool,
}

/// What a handler receives: its input and `ctx` (CL-A04-3..6), plus the call's id.
#[derive(Debug, Clone)]
pub struct HandlerCall {
    pub call: CallId,
    pub capability_id: String,
    /// A detached copy: mutating it changes nothing else (CL-B14-2, RCIP-LIFE-JSON-04/05).
    pub input: HostValue,
    pub invocation_id: String,
    pub requested_at: u64,
    pub semantic_context: SemanticContext,
    /// The caller's signal, or a fresh one when the caller gave none (PRJ-RCIP-EXEC-02); `None`
    /// only under the injected fault `Fault::HandlerSignalMissing`.
    pub signal: Option<AbortSignal>,
}

pub type PolicyFn = Box<dyn FnMut(PolicyCall) -> Answer>;
pub type HandlerFn = Box<dyn FnMut(HandlerCall) -> Answer>;
pub type AvailabilityFn = Box<dyn FnMut() -> Settlement>;
pub type ListenerFn = Box<dyn FnMut(&Rc<Snapshot>) -> Result<(), HostError>>;
pub type EventFn = Box<dyn FnMut(&RcipEvent) -> Result<(), HostError>>;
pub type CreateIdFn = Box<dyn FnMut(&str) -> String>;

/// The seven phases of the `events` profile (CL-B23-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    Requested,
    ConfirmationRequested,
    ConfirmationDeclined,
    Started,
    Succeeded,
    Failed,
    Denied,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Requested => "requested",
            Phase::ConfirmationRequested => "confirmation_requested",
            Phase::ConfirmationDeclined => "confirmation_declined",
            Phase::Started => "started",
            Phase::Succeeded => "succeeded",
            Phase::Failed => "failed",
            Phase::Denied => "denied",
        }
    }
}

/// One event given to `onEvent`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RcipEvent {
    pub phase: Phase,
    pub invocation_id: String,
    pub capability_id: String,
}

/// `createRcipRuntime` options (CL-A01-4..7).
#[derive(Default)]
pub struct RuntimeOptions {
    /// `policy(context)`; `None` is the default policy of CL-B22.
    pub policy: Option<PolicyFn>,
    /// `confirmationTtlMs`; `None` is [`DEFAULT_CONFIRMATION_TTL_MS`].
    pub confirmation_ttl_ms: Option<u64>,
    /// `createId(prefix)`; `None` numbers ids `<prefix>-<n>` per prefix.
    pub create_id: Option<CreateIdFn>,
    /// `onEvent(event)` (profile `events`).
    pub on_event: Option<EventFn>,
    /// Which behaviour to take where the texts leave a choice (`crate::choices`).
    pub choices: Choices,
}

/// What `bindCapability` installs: `execute` and optionally `getAvailability` (CL-A04-1).
pub struct BindingSpec {
    pub handler: HandlerFn,
    pub availability: Option<AvailabilityFn>,
}

pub(super) struct Binding {
    pub(super) id: u64,
    pub(super) handler: HandlerFn,
    pub(super) availability: Option<AvailabilityFn>,
    /// As of the last refresh (CL-B15-6).
    pub(super) published: LiveStatus,
}

/// One RCIP runtime: `{ client, host }` of CL-A01-3 as one object with client and host methods.
pub struct Runtime {
    pub(super) definition: Definition,
    pub(super) policy: Option<PolicyFn>,
    pub(super) ttl_ms: u64,
    pub(super) create_id: Option<CreateIdFn>,
    pub(super) id_counters: BTreeMap<String, u64>,
    pub(super) on_event: Option<EventFn>,
    pub(super) choices: Choices,
    /// Whether the `onEvent` observer ever threw (only read by an injected fault).
    pub(super) observer_threw: bool,
    /// The virtual clock, in ms.
    pub(super) now: u64,
    pub(super) context: SemanticContext,
    pub(super) bindings: BTreeMap<String, Binding>,
    pub(super) next_binding: u64,
    pub(super) revision: u64,
    pub(super) snapshot: Option<Rc<Snapshot>>,
    pub(super) listeners: BTreeMap<SubscriptionId, ListenerFn>,
    pub(super) next_listener: u64,
    /// Reserved invocation ids (CL-B04).
    pub(super) reserved: BTreeSet<String>,
    /// Callback calls waiting for the driver, by call id.
    pub(super) waiting: BTreeMap<CallId, Waiting>,
    /// Calls whose invocation already settled (aborted): a late settlement is ignored.
    pub(super) orphaned: BTreeSet<CallId>,
    pub(super) next_call: u64,
    pub(super) confirmations: BTreeMap<String, PendingConfirmation>,
    /// Expiry timers: (due time, creation sequence, confirmation id).
    pub(super) timers: BTreeSet<(u64, u64, String)>,
    pub(super) next_confirmation_seq: u64,
    pub(super) receipts: VecDeque<Receipt>,
    pub(super) outcomes: BTreeMap<Ticket, Outcome>,
    pub(super) next_ticket: u64,
    /// Tickets settled during the current driving call.
    pub(super) settled_log: Vec<Ticket>,
    /// Attempts to settle an already-settled ticket (always 0 unless the lifecycle has a bug;
    /// property tests assert it).
    pub(super) duplicate_settlements: u64,
}

impl Runtime {
    /// `createRcipRuntime(definition, options)`.
    pub fn new(definition: &Definition, options: RuntimeOptions) -> Result<Runtime, ConfigError> {
        let ttl_ms = options
            .confirmation_ttl_ms
            .unwrap_or(DEFAULT_CONFIRMATION_TTL_MS);
        if ttl_ms == 0 {
            return Err(ConfigError::OptionInvalid {
                option: "confirmationTtlMs".into(),
            });
        }
        // CL-B18-9 is IMPL-DEFINED: the alternate refuses runs of capitals or digits in an id.
        if options.choices.takes(Choice::IdentifierRunsRefused) {
            let refused = definition
                .ids()
                .into_iter()
                .find(|(_, id)| super::ident::has_capital_or_digit_run(id));
            if let Some((path, _)) = refused {
                return Err(ConfigError::IdentifierInvalid { path });
            }
        }
        // PRJ-RCIP-ID-01 is IMPL-DEFINED: the alternate keeps one id namespace for every kind.
        if options.choices.takes(Choice::OneIdNamespace) {
            if let Some(path) = definition.id_shared_across_kinds() {
                return Err(ConfigError::DuplicateId { path });
            }
        }
        let context = initial_context(definition, &options.choices);
        Ok(Runtime {
            definition: definition.clone(),
            policy: options.policy,
            ttl_ms,
            create_id: options.create_id,
            id_counters: BTreeMap::new(),
            on_event: options.on_event,
            choices: options.choices,
            observer_threw: false,
            now: 0,
            context,
            bindings: BTreeMap::new(),
            next_binding: 1,
            revision: 0,
            snapshot: None,
            listeners: BTreeMap::new(),
            next_listener: 1,
            reserved: BTreeSet::new(),
            waiting: BTreeMap::new(),
            orphaned: BTreeSet::new(),
            next_call: 1,
            confirmations: BTreeMap::new(),
            timers: BTreeSet::new(),
            next_confirmation_seq: 1,
            receipts: VecDeque::new(),
            outcomes: BTreeMap::new(),
            next_ticket: 1,
            settled_log: Vec::new(),
            duplicate_settlements: 0,
        })
    }

    pub fn definition(&self) -> &Definition {
        &self.definition
    }

    /// The virtual clock (ms since the runtime was created).
    pub fn now(&self) -> u64 {
        self.now
    }

    pub fn context(&self) -> &SemanticContext {
        &self.context
    }

    /// The outcome a ticket settled with, or `None` while pending.
    pub fn outcome(&self, ticket: Ticket) -> Option<&Outcome> {
        self.outcomes.get(&ticket)
    }

    /// Removes and returns a settled outcome (so long-running drivers do not accumulate them).
    pub fn take_outcome(&mut self, ticket: Ticket) -> Option<Outcome> {
        self.outcomes.remove(&ticket)
    }

    /// Invocation ids currently reserved (CL-B04), in order.
    pub fn reserved_ids(&self) -> Vec<String> {
        self.reserved.iter().cloned().collect()
    }

    /// Number of retained expiry/cancellation receipts (CL-B10).
    pub fn receipt_count(&self) -> usize {
        self.receipts.len()
    }

    /// Number of confirmations pending resolution.
    pub fn pending_confirmation_count(&self) -> usize {
        self.confirmations.len()
    }

    /// How often the lifecycle tried to settle a ticket twice (an internal invariant: always 0).
    pub fn duplicate_settlements(&self) -> u64 {
        self.duplicate_settlements
    }

    /// Gate calls the driver has not settled yet, in call order.
    pub fn pending_calls(&self) -> Vec<CallId> {
        self.waiting.keys().copied().collect()
    }

    // -----------------------------------------------------------------------------------------
    // Host surface
    // -----------------------------------------------------------------------------------------

    /// `host.bindCapability(definition, { execute, getAvailability? })` (CL-A04-1/2, CL-B20-1).
    /// The definition must be the catalog's own capability object; a live binding for the same
    /// id makes this throw. Binding publishes a new revision with the new binding's availability.
    pub fn bind(
        &mut self,
        capability: &CapabilityHandle,
        spec: BindingSpec,
    ) -> Result<BindingToken, ConfigError> {
        self.process_aborts_inner();
        let id = capability.id().to_string();
        let own = self
            .definition
            .capability(&id)
            .is_some_and(|catalog| catalog.same(capability));
        if !own {
            return Err(ConfigError::BindNotCatalogDefinition { capability: id });
        }
        if self.bindings.contains_key(&id) && !self.choices.injects(Fault::DuplicateBindReplaces) {
            return Err(ConfigError::BindDuplicate { capability: id });
        }
        let binding_id = self.next_binding;
        self.next_binding += 1;
        let mut binding = Binding {
            id: binding_id,
            handler: spec.handler,
            availability: spec.availability,
            published: LiveStatus::BoundAlwaysAvailable,
        };
        binding.published = read_published(
            &mut binding,
            self.choices.injects(Fault::AvailabilityExtrasPublished),
        );
        self.bindings.insert(id.clone(), binding);
        self.publish(false);
        Ok(BindingToken {
            capability: id,
            binding: binding_id,
        })
    }

    /// Calls the unbind function `bind` returned: removes that binding if it is still the live
    /// one (CL-B20-2/3). Returns whether anything was removed (an effective unbind publishes a
    /// new revision, CL-B15-2).
    pub fn unbind(&mut self, token: &BindingToken) -> bool {
        self.process_aborts_inner();
        let stale_removes = self.choices.injects(Fault::StaleUnbindRemoves);
        let live = self
            .bindings
            .get(&token.capability)
            .is_some_and(|b| b.id == token.binding || stale_removes);
        if live {
            self.bindings.remove(&token.capability);
            if !self.choices.injects(Fault::UnbindKeepsRevision) {
                self.publish(false);
            }
        }
        live
    }

    /// `host.setContext({ activeScopeIds, primaryScopeId? })` (CL-A04-8, CL-B21): undeclared
    /// scopes or an inactive primary throw and change nothing; duplicates collapse keeping
    /// first-seen order. A changed context publishes a new revision; an identical one changes
    /// nothing (CL-B15-9, chosen). Order matters: a reordering is a change (CL-B06-3, chosen).
    pub fn set_context(&mut self, value: &HostValue) -> Result<(), ConfigError> {
        self.process_aborts_inner();
        let context = self.parse_context(value)?;
        let identical_bumps = self.choices.takes(Choice::IdenticalContextBumpsRevision);
        if self.context_changed(&self.context, &context) || identical_bumps {
            self.context = context;
            self.publish(false);
        }
        Ok(())
    }

    fn parse_context(&self, value: &HostValue) -> Result<SemanticContext, ConfigError> {
        let object = value.as_object().ok_or(ConfigError::ContextInvalid)?;
        let list = object
            .get("activeScopeIds")
            .ok_or(ConfigError::ContextInvalid)?;
        let items = list
            .as_object()
            .and_then(|items| {
                items.with(|data| match data {
                    ObjectData::Array { items } => Some(items.clone()),
                    ObjectData::Object { .. } => None,
                })
            })
            .ok_or(ConfigError::ContextInvalid)?;
        let mut active: Vec<String> = Vec::with_capacity(items.len());
        for item in items {
            let scope = item
                .as_ref()
                .and_then(|v| v.as_str())
                .ok_or(ConfigError::ContextInvalid)?;
            if !self.definition.declares_scope(scope) {
                if self.choices.takes(Choice::UndeclaredScopesDropped) {
                    continue;
                }
                return Err(ConfigError::ContextUndeclaredScope {
                    scope: scope.to_string(),
                });
            }
            // CL-B21-3 is RECOMMENDED: the alternate keeps a repeated id as given.
            if !active.iter().any(|seen| seen == scope)
                || self.choices.takes(Choice::DuplicateScopesKept)
            {
                active.push(scope.to_string());
            }
        }
        let primary = match object.get("primaryScopeId") {
            None | Some(HostValue::Undefined) => None,
            Some(HostValue::String(primary)) => Some(primary),
            Some(_) => return Err(ConfigError::ContextInvalid),
        };
        let primary = match primary {
            Some(primary)
                if !active.contains(&primary)
                    && self.choices.takes(Choice::UndeclaredScopesDropped) =>
            {
                None
            }
            other => other,
        };
        if let Some(primary) = &primary {
            if !active.contains(primary) {
                return Err(ConfigError::ContextPrimaryInactive {
                    scope: primary.clone(),
                });
            }
        }
        Ok(SemanticContext {
            active_scope_ids: active,
            primary_scope_id: primary,
        })
    }

    /// `host.refresh()`: re-reads every binding's availability and publishes a new revision
    /// (CL-B15-3, RCIP-PROTO-SURF-10).
    pub fn refresh(&mut self) {
        self.process_aborts_inner();
        if self.choices.injects(Fault::RefreshKeepsRevision) {
            self.reread_availability();
            return;
        }
        self.publish(true);
    }

    // -----------------------------------------------------------------------------------------
    // Client discovery surface
    // -----------------------------------------------------------------------------------------

    /// `client.getSnapshot()`: the same object until the revision changes (CL-B15-5).
    pub fn get_snapshot(&mut self) -> Rc<Snapshot> {
        if let Some(snapshot) = &self.snapshot {
            return Rc::clone(snapshot);
        }
        let live: Vec<LiveStatus> = self
            .definition
            .capabilities()
            .iter()
            .map(|c| {
                self.bindings
                    .get(c.id())
                    .map_or(LiveStatus::Unbound, |b| b.published.clone())
            })
            .collect();
        let mut snapshot = Snapshot::build(
            &self.definition,
            self.revision,
            &self.context,
            &self.relevance_context(),
            &live,
        );
        self.inject_snapshot_faults(&mut snapshot);
        let snapshot = Rc::new(snapshot);
        if !self.choices.injects(Fault::SnapshotNotCached) {
            self.snapshot = Some(Rc::clone(&snapshot));
        }
        snapshot
    }

    /// The snapshot faults of the catalog: leaked confirmation ids, unscoped entries as `other`.
    fn inject_snapshot_faults(&self, snapshot: &mut Snapshot) {
        match self.choices.fault() {
            Some(Fault::ConfirmationIdPublished) => {
                let ids: Vec<Value> = self
                    .confirmations
                    .keys()
                    .map(|id| Value::from(id.as_str()))
                    .collect();
                snapshot.edit(|json| {
                    if let Some(object) = json.as_object_mut() {
                        object.insert("pendingConfirmations".into(), Value::Array(ids));
                    }
                });
            }
            Some(Fault::UnscopedIsOther) => snapshot.edit(|json| {
                let entries = json.get_mut("capabilities").and_then(Value::as_array_mut);
                for entry in entries.into_iter().flatten() {
                    let unscoped = entry
                        .get("scopeIds")
                        .and_then(Value::as_array)
                        .is_some_and(|scopes| scopes.is_empty());
                    if unscoped {
                        entry["relevance"] = Value::from("other");
                    }
                }
            }),
            _ => {}
        }
    }

    /// `client.listCapabilities(filter)`: the current snapshot's entries that pass the filter,
    /// in catalog order (CL-A03-2..5).
    pub fn list_capabilities(&mut self, filter: &ListFilter) -> Vec<Value> {
        let snapshot = self.get_snapshot();
        let mut listed: Vec<Value> = snapshot
            .capabilities()
            .iter()
            .filter(|entry| filter.matches(entry))
            .cloned()
            .collect();
        // PRJ-RCIP-LIST-01: the order is the runtime's; the alternate lists in reverse.
        if self.choices.takes(Choice::ListReversed) {
            listed.reverse();
        }
        listed
    }

    /// `client.subscribe(listener)`: the listener is called with the new snapshot after every
    /// revision change, never at subscription. A listener that throws harms nothing: the error
    /// is swallowed and the other listeners still run.
    pub fn subscribe(&mut self, mut listener: ListenerFn) -> SubscriptionId {
        let id = SubscriptionId(self.next_listener);
        self.next_listener += 1;
        if self.choices.takes(Choice::ListenerCalledAtSubscribe) {
            let snapshot = self.get_snapshot();
            let _ = listener(&snapshot);
        }
        self.listeners.insert(id, listener);
        id
    }

    /// The unsubscribe function `subscribe` returned (idempotent). Returns whether it removed.
    pub fn unsubscribe(&mut self, id: SubscriptionId) -> bool {
        self.listeners.remove(&id).is_some()
    }

    // -----------------------------------------------------------------------------------------
    // Internals shared with the lifecycle
    // -----------------------------------------------------------------------------------------

    /// A new revision: optionally re-reads every binding's availability, drops the cached
    /// snapshot, and notifies listeners (each isolated from the others' failures).
    pub(super) fn publish(&mut self, reread_availability: bool) {
        if reread_availability {
            self.reread_availability();
        }
        self.revision += 1;
        self.snapshot = None;
        if self.listeners.is_empty() {
            return;
        }
        let snapshot = self.get_snapshot();
        let reverse = self.choices.takes(Choice::ListenersReverseOrder);
        let listeners: Vec<&mut ListenerFn> = if reverse {
            self.listeners.values_mut().rev().collect()
        } else {
            self.listeners.values_mut().collect()
        };
        let stop_at_throw = self.choices.injects(Fault::ListenerThrowStopsOthers);
        for listener in listeners {
            // CL-A03-6 listener isolation: a throwing listener changes nothing.
            if listener(&snapshot).is_err() && stop_at_throw {
                break;
            }
        }
    }

    /// Reads every binding's availability into what the next snapshot publishes.
    fn reread_availability(&mut self) {
        let extras = self.choices.injects(Fault::AvailabilityExtrasPublished);
        for binding in self.bindings.values_mut() {
            binding.published = read_published(binding, extras);
        }
    }

    /// Whether `new` is a different context from `old` (CL-B06-1/2, and CL-B06-3 either way).
    pub(super) fn context_changed(&self, old: &SemanticContext, new: &SemanticContext) -> bool {
        if !self.choices.takes(Choice::ReorderIsNoChange) {
            return old != new;
        }
        let same_members = old.active_scope_ids.len() == new.active_scope_ids.len()
            && old
                .active_scope_ids
                .iter()
                .all(|scope| new.active_scope_ids.contains(scope));
        !(same_members && old.primary_scope_id == new.primary_scope_id)
    }

    /// The context relevance is computed against (CL-B16-1, CL-B16-3 either way).
    pub(super) fn relevance_context(&self) -> SemanticContext {
        super::snapshot::relevance_context(
            &self.definition,
            &self.context,
            self.choices.takes(Choice::ScopeHierarchyRelevance),
        )
    }

    /// The plain-JSON rules of CL-B13-4..6 this runtime applies.
    pub(super) fn plain_rules(&self) -> PlainRules {
        PlainRules {
            keep_negative_zero: self.choices.takes(Choice::NegativeZeroKept),
            reject_shared: self.choices.takes(Choice::SharedReferencesRejected),
            reject_null_prototype: self.choices.takes(Choice::NullPrototypeRejected),
            reject_accessors: self.choices.takes(Choice::AccessorsRejected),
        }
    }

    /// The capability's snapshot entry as the current snapshot has it (for policy contexts).
    pub(super) fn entry_of(&self, capability: &CapabilityHandle) -> Value {
        let live = self
            .bindings
            .get(capability.id())
            .map_or(LiveStatus::Unbound, |b| b.published.clone());
        super::snapshot::capability_entry(capability.def(), &live, &self.relevance_context())
    }

    /// Live availability (CL-B15-7): `None` when unbound.
    pub(super) fn live_available(&mut self, capability: &str) -> Option<bool> {
        let from_snapshot = self.choices.injects(Fault::AvailabilityFromSnapshot);
        let binding = self.bindings.get_mut(capability)?;
        if from_snapshot {
            return Some(match &binding.published {
                LiveStatus::Bound(published) => published.available,
                _ => true,
            });
        }
        let clone_rejects = self.choices.injects(Fault::AvailabilityCloneRejects);
        Some(match binding.availability.as_mut() {
            None => true,
            Some(read) => match read() {
                Ok(value) if clone_rejects && !value.is_plain_json() => false,
                Ok(value) => PublishedAvailability::from_host(&value).available,
                Err(_) => false,
            },
        })
    }

    pub(super) fn binding_id(&self, capability: &str) -> Option<u64> {
        self.bindings.get(capability).map(|b| b.id)
    }

    pub(super) fn new_call(&mut self) -> CallId {
        let id = CallId(self.next_call);
        self.next_call += 1;
        id
    }

    pub(super) fn new_ticket(&mut self) -> Ticket {
        let ticket = Ticket(self.next_ticket);
        self.next_ticket += 1;
        ticket
    }

    /// `createId(prefix)` or the runtime's own `<prefix>-<n>`.
    pub(super) fn make_id(&mut self, prefix: &str) -> String {
        if let Some(create) = self.create_id.as_mut() {
            return create(prefix);
        }
        let counter = match self.id_counters.get_mut(prefix) {
            Some(counter) => counter,
            None => self.id_counters.entry(prefix.to_string()).or_insert(0),
        };
        *counter += 1;
        let counter = *counter;
        // Sized once: `format!` would start empty and grow the string twice.
        let mut id = String::with_capacity(prefix.len() + 24);
        // Writing into a `String` cannot fail.
        let _ = if self.choices.takes(Choice::OwnIdFormat) {
            write!(id, "rt_{prefix}_{counter}")
        } else {
            write!(id, "{prefix}-{counter}")
        };
        id
    }

    /// Gives an event to `onEvent`; an observer that throws changes nothing (CL-B23-2).
    pub(super) fn emit(&mut self, phase: Phase, invocation_id: &str, capability_id: &str) {
        if let Some(observer) = self.on_event.as_mut() {
            let event = RcipEvent {
                phase,
                invocation_id: invocation_id.to_string(),
                capability_id: capability_id.to_string(),
            };
            if observer(&event).is_err() {
                self.observer_threw = true;
            }
        }
    }

    /// Records a settled outcome for a ticket (once: a second settlement of one ticket is a bug
    /// in the lifecycle, and is ignored rather than overwriting the first).
    pub(super) fn settle(&mut self, ticket: Ticket, outcome: Outcome) {
        if self.outcomes.contains_key(&ticket) {
            self.duplicate_settlements += 1;
            return;
        }
        self.outcomes.insert(ticket, outcome);
        self.settled_log.push(ticket);
    }

    pub(super) fn release(&mut self, invocation_id: &str) {
        if self.choices.injects(Fault::IdNeverReleased) {
            return;
        }
        self.reserved.remove(invocation_id);
    }

    pub(super) fn remember(&mut self, receipt: Receipt) {
        self.receipts.push_back(receipt);
        let capacity = if self.choices.injects(Fault::ReceiptCapacitySmall) {
            RECEIPT_CAPACITY / 2
        } else {
            RECEIPT_CAPACITY
        };
        while self.receipts.len() > capacity {
            self.receipts.pop_front();
        }
    }

    pub(super) fn park(&mut self, call: CallId, waiting: Waiting) {
        self.waiting.insert(call, waiting);
    }

    pub(super) fn take_settled(&mut self) -> Vec<Ticket> {
        std::mem::take(&mut self.settled_log)
    }

    pub(super) fn operation_aborted(op: &Operation) -> bool {
        op.signal.as_ref().is_some_and(AbortSignal::is_aborted)
    }
}

/// What a binding publishes; `extras` (an injected fault) keeps every member the host returned.
fn read_published(binding: &mut Binding, extras: bool) -> LiveStatus {
    match binding.availability.as_mut() {
        None => LiveStatus::BoundAlwaysAvailable,
        Some(read) => LiveStatus::Bound(match read() {
            Ok(value) if extras => PublishedAvailability::from_host_unredacted(&value),
            Ok(value) => PublishedAvailability::from_host(&value),
            Err(_) => PublishedAvailability::unavailable(),
        }),
    }
}

/// The semantic context a new runtime starts with: no active scope and no primary one
/// (PRJ-RCIP-CTX-01, RECOMMENDED), or in the alternate reading (`Choice::FirstScopeActiveAtStart`)
/// the first declared scope active and primary.
fn initial_context(definition: &Definition, choices: &Choices) -> SemanticContext {
    match definition.scopes().first() {
        Some(first) if choices.takes(Choice::FirstScopeActiveAtStart) => SemanticContext {
            active_scope_ids: vec![first.id.clone()],
            primary_scope_id: Some(first.id.clone()),
        },
        _ => SemanticContext::default(),
    }
}
