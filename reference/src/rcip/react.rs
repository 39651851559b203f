//! The abstract React host of the reference (issue 17, profile `react`): the React entry of
//! CLARIFICATIONS A08 (`RcipProvider`, `useRcipContext`, `useRcipCapability`, `useRcipClient`,
//! `useRcipSnapshot`) as it behaves when React drives it, over the reference runtime. It covers
//! RCIP-PROTO-SURF-12/13, RCIP-LIFE-BIND-05/06, RCIP-LIFE-CTX-05/06, RCIP-LIFE-AVAIL-02,
//! RCIP-LIFE-SSR-04 and CL-A08-1..7.
//!
//! The model of React, kept small on purpose:
//! - **Render is pure**: it matches the new element tree against the committed one (same parent,
//!   key and kind: the same component instance) and computes the next tree; it touches no runtime.
//!   A render that throws is caught by the nearest boundary (which then renders nothing, for good);
//!   a render that suspends (only in a transition) is abandoned: nothing of it is committed and it
//!   is retried when its promise resolves.
//! - **Commit** runs, in React's order: the cleanups of every deleted component (parents first),
//!   then the layout step that points each binding at its component's newest committed render
//!   (the "latest ref" of RCIP-LIFE-BIND-06), then the effects, children before parents. Under
//!   Strict Mode every newly mounted subtree then runs cleanup and setup once more
//!   (RCIP-LIFE-BIND-05). An error thrown by an effect (a duplicate binding, an undeclared scope)
//!   is caught by the nearest boundary above it.
//! - **Effects** of the hooks: `useRcipContext` publishes its context on mount and when it
//!   changes, and clears it (`{ activeScopeIds: [] }`) on unmount (CL-A08-4, RCIP-LIFE-CTX-06);
//!   `useRcipCapability` binds on mount with `execute`/`getAvailability` that call the newest
//!   committed render's functions (RCIP-LIFE-AVAIL-02), unbinds on unmount, and refreshes when
//!   `revision` changes (CL-A08-5).
//! - **Server render** renders and runs no effect; **hydrate** is a first render that commits
//!   (RCIP-LIFE-SSR-04).
//!
//! Open points (`crate::choices`): which of two nested context owners publishes last on mount
//! (`Choice::ReactNestedOwnerInnerWins`, PRJ-REACT-02) and whether a capability refreshes once
//! more on mount (`Choice::ReactRefreshOnMount`, PRJ-REACT-03). Faults (`Fault::React*`): the
//! binding bugs of issue 17.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use serde_json::Value;

use super::runtime::{AvailabilityFn, BindingSpec, BindingToken, HandlerFn, HostError, Runtime};
use super::snapshot::Snapshot;
use super::value::HostValue;
use crate::choices::{Choice, Choices, Fault};

/// The `execute` function one render of a capability component made.
pub type Execute = Rc<RefCell<HandlerFn>>;

/// What one render of a capability component passes to `useRcipCapability`.
#[derive(Clone)]
pub struct CapabilityRender {
    pub capability: String,
    pub execute: Execute,
    /// `getAvailability` returning this value; `None`: no `getAvailability`.
    pub availability: Option<HostValue>,
    /// `revision` (a JSON primitive); `None`: absent.
    pub revision: Option<Value>,
}

/// An element of the abstract tree (vectors/README.md, "React host").
#[derive(Clone)]
pub struct Element {
    pub key: String,
    pub kind: ElementKind,
    pub children: Vec<Element>,
}

#[derive(Clone)]
pub enum ElementKind {
    /// `<RcipProvider runtime>`: an index into the runtimes the host is driven with.
    Provider {
        runtime: usize,
    },
    ContextOwner {
        context: HostValue,
    },
    Capability(CapabilityRender),
    Boundary,
    Throw,
    Suspend {
        on: String,
    },
    ClientUser,
    SnapshotUser,
}

impl ElementKind {
    fn tag(&self) -> &'static str {
        match self {
            ElementKind::Provider { .. } => "provider",
            ElementKind::ContextOwner { .. } => "context-owner",
            ElementKind::Capability(_) => "capability",
            ElementKind::Boundary => "boundary",
            ElementKind::Throw => "throw",
            ElementKind::Suspend { .. } => "suspend",
            ElementKind::ClientUser => "client-user",
            ElementKind::SnapshotUser => "snapshot-user",
        }
    }

    fn uses_hook(&self) -> bool {
        matches!(
            self,
            ElementKind::ContextOwner { .. }
                | ElementKind::Capability(_)
                | ElementKind::ClientUser
                | ElementKind::SnapshotUser
        )
    }
}

/// Why a step of the host could not be carried out: the vector asked for something the
/// vocabulary does not define (a suspension outside a transition, hydrate without markup).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostMisuse(pub String);

/// A committed component: its instance id, what it rendered, and the runtime of its provider.
#[derive(Clone)]
struct Node {
    id: u64,
    key: String,
    kind: ElementKind,
    /// The runtime of the nearest provider above it (`None`: outside every provider).
    runtime: Option<usize>,
    children: Vec<Node>,
}

/// What a component instance keeps between renders (its hooks' state).
#[derive(Default)]
struct Instance {
    /// The newest committed render of a capability component (what its binding calls).
    latest: Option<Rc<RefCell<CapabilityRender>>>,
    /// The live binding made by its effect: runtime index and unbind token.
    binding: Option<(usize, BindingToken)>,
    /// The context its effect last published, as JSON text (the effect's dependency).
    published: Option<Option<Value>>,
    /// The revision its component last committed with.
    revision: Option<Value>,
    /// A boundary that caught an error (it never resets).
    caught: bool,
    /// The runtime its effects were last set up against. The host is a dependency of both hooks'
    /// effects, so a provider re-rendered with another runtime runs their cleanups against this
    /// one and their setups against the new one (CL-A08-1).
    effects_runtime: Option<usize>,
}

enum Interrupt {
    Threw,
    Suspended,
}

/// The React host of one case: one client root (made by the first render or by hydrate), the
/// markup of the latest server render, the promises `suspend` elements wait on.
pub struct ReactHost {
    strict: bool,
    choices: Choices,
    committed: Option<Vec<Node>>,
    instances: BTreeMap<u64, Instance>,
    next_id: u64,
    /// Promise name -> resolved yet.
    promises: BTreeMap<String, bool>,
    /// The tree of a suspended transition, retried when a promise resolves.
    suspended: Option<Vec<Element>>,
    server_markup: bool,
    /// Boundaries the render in progress made catch (applied only if it commits).
    caught_in_render: Vec<u64>,
}

impl ReactHost {
    pub fn new(strict: bool, choices: Choices) -> ReactHost {
        ReactHost {
            strict,
            choices,
            committed: None,
            instances: BTreeMap::new(),
            next_id: 1,
            promises: BTreeMap::new(),
            suspended: None,
            server_markup: false,
            caught_in_render: Vec::new(),
        }
    }

    /// `root.render(tree)` (inside `startTransition` when `transition`), committed unless it
    /// suspends. The first render creates the root.
    pub fn render(
        &mut self,
        tree: &[Element],
        transition: bool,
        runtimes: &mut [&mut Runtime],
    ) -> Result<(), HostMisuse> {
        // A newer update supersedes a suspended transition: React renders the latest tree.
        self.suspended = None;
        self.render_and_commit(tree, transition, runtimes)
    }

    /// Resolves promise `on`; a suspended transition is retried with its tree.
    pub fn resolve(&mut self, on: &str, runtimes: &mut [&mut Runtime]) -> Result<(), HostMisuse> {
        self.promises.insert(on.to_string(), true);
        match self.suspended.take() {
            Some(tree) => self.render_and_commit(&tree, true, runtimes),
            None => Ok(()),
        }
    }

    /// `root.unmount()`: every component unmounts (cleanups parents first).
    pub fn unmount(&mut self, runtimes: &mut [&mut Runtime]) {
        self.suspended = None;
        if let Some(old) = self.committed.take() {
            for node in &old {
                self.delete(node, runtimes);
            }
        }
    }

    /// `renderToString(tree)`: renders, runs no effect, keeps the markup for `hydrate`.
    pub fn server_render(
        &mut self,
        tree: &[Element],
        runtimes: &mut [&mut Runtime],
    ) -> Result<(), HostMisuse> {
        self.caught_in_render.clear();
        let rendered = self.render_list(tree, &[], None, runtimes);
        self.caught_in_render.clear();
        let rendered = match rendered {
            Ok(nodes) => nodes,
            Err(Interrupt::Suspended) => {
                return Err(HostMisuse("a server render suspended".into()))
            }
            // renderToString throws: there is no markup.
            Err(Interrupt::Threw) => {
                self.server_markup = false;
                return Ok(());
            }
        };
        if self.choices.injects(Fault::ReactEffectsOnServer) {
            // The bug: effects (or an isomorphic layout effect) run during the server render.
            for node in &rendered {
                self.setup_subtree(node, runtimes, &mut Vec::new());
            }
        }
        self.server_markup = true;
        Ok(())
    }

    /// `hydrateRoot(container, tree)` over the latest server markup: a first render that commits.
    pub fn hydrate(
        &mut self,
        tree: &[Element],
        runtimes: &mut [&mut Runtime],
    ) -> Result<(), HostMisuse> {
        if !self.server_markup {
            return Err(HostMisuse(
                "hydrate without the markup of a server render".into(),
            ));
        }
        if self.committed.is_some() {
            return Err(HostMisuse(
                "hydrate after the client root was created".into(),
            ));
        }
        self.render_and_commit(tree, false, runtimes)
    }

    // -----------------------------------------------------------------------------------------
    // Observations
    // -----------------------------------------------------------------------------------------

    /// `"caught"`, `"clear"` or `"none"` for the boundary `key`.
    pub fn boundary(&self, key: &str) -> &'static str {
        match self.find(key) {
            Some(node) if matches!(node.kind, ElementKind::Boundary) => {
                if self.instances.get(&node.id).is_some_and(|i| i.caught) {
                    "caught"
                } else {
                    "clear"
                }
            }
            _ => "none",
        }
    }

    /// What `useRcipClient()` returned in the last committed render of `key`: `Some(Some(i))`
    /// the client of runtime `i`, `Some(None)` something else, `None` not committed.
    pub fn hook_client(&self, key: &str) -> Option<Option<usize>> {
        match self.find(key) {
            Some(node) if matches!(node.kind, ElementKind::ClientUser) => Some(node.runtime),
            _ => None,
        }
    }

    /// The snapshot `useRcipSnapshot()` gave `key`'s last committed render. The hook re-renders
    /// whenever the snapshot changes and every step runs inside `act`, so that is the current
    /// snapshot of its provider's runtime.
    pub fn hook_snapshot(&self, key: &str, runtimes: &mut [&mut Runtime]) -> Option<Rc<Snapshot>> {
        let node = self.find(key)?;
        if !matches!(node.kind, ElementKind::SnapshotUser) {
            return None;
        }
        let runtime = runtimes.get_mut(node.runtime?)?;
        Some(runtime.get_snapshot())
    }

    fn find(&self, key: &str) -> Option<&Node> {
        fn walk<'a>(nodes: &'a [Node], key: &str) -> Option<&'a Node> {
            nodes.iter().find_map(|n| {
                if n.key == key {
                    Some(n)
                } else {
                    walk(&n.children, key)
                }
            })
        }
        walk(self.committed.as_deref()?, key)
    }

    // -----------------------------------------------------------------------------------------
    // Render
    // -----------------------------------------------------------------------------------------

    fn render_and_commit(
        &mut self,
        tree: &[Element],
        transition: bool,
        runtimes: &mut [&mut Runtime],
    ) -> Result<(), HostMisuse> {
        self.caught_in_render.clear();
        let old = self.committed.clone().unwrap_or_default();
        match self.render_list(tree, &old, None, runtimes) {
            Ok(nodes) => {
                let caught = std::mem::take(&mut self.caught_in_render);
                self.commit(old, nodes, caught, runtimes);
                Ok(())
            }
            Err(Interrupt::Suspended) => {
                self.caught_in_render.clear();
                if !transition {
                    return Err(HostMisuse("a render outside a transition suspended".into()));
                }
                // Abandoned: the committed tree stays; retried when a promise resolves.
                self.suspended = Some(tree.to_vec());
                Ok(())
            }
            Err(Interrupt::Threw) => {
                // No boundary caught it: React unmounts the whole root.
                self.caught_in_render.clear();
                self.unmount(runtimes);
                self.committed = Some(Vec::new());
                Ok(())
            }
        }
    }

    fn render_list(
        &mut self,
        elements: &[Element],
        old: &[Node],
        runtime: Option<usize>,
        runtimes: &mut [&mut Runtime],
    ) -> Result<Vec<Node>, Interrupt> {
        let mut nodes = Vec::with_capacity(elements.len());
        for element in elements {
            let matched = old
                .iter()
                .find(|n| n.key == element.key && n.kind.tag() == element.kind.tag());
            nodes.push(self.render_one(element, matched, runtime, runtimes)?);
        }
        Ok(nodes)
    }

    fn render_one(
        &mut self,
        element: &Element,
        matched: Option<&Node>,
        runtime: Option<usize>,
        runtimes: &mut [&mut Runtime],
    ) -> Result<Node, Interrupt> {
        let id = match matched {
            Some(node) => node.id,
            None => {
                self.next_id += 1;
                self.next_id
            }
        };
        let old_children: &[Node] = matched.map_or(&[], |n| &n.children);
        let silent_outside = self.choices.injects(Fault::ReactHookOutsideProviderSilent);
        if element.kind.uses_hook() && runtime.is_none() && !silent_outside {
            // CL-A08-6: a hook used outside any RcipProvider throws.
            return Err(Interrupt::Threw);
        }
        let mut scope = runtime;
        match &element.kind {
            ElementKind::Provider { runtime: r } => {
                let nested =
                    runtime.is_some() && self.choices.injects(Fault::ReactOutermostProvider);
                if !nested {
                    scope = Some(*r);
                }
            }
            ElementKind::Throw => return Err(Interrupt::Threw),
            ElementKind::Suspend { on } => {
                let resolved = *self.promises.entry(on.clone()).or_insert(false);
                if !resolved {
                    return Err(Interrupt::Suspended);
                }
            }
            ElementKind::Boundary => {
                let caught = self.instances.get(&id).is_some_and(|i| i.caught);
                if caught {
                    return Ok(self.node(id, element, runtime, Vec::new()));
                }
                return match self.render_list(&element.children, old_children, scope, runtimes) {
                    Ok(children) => Ok(self.node(id, element, runtime, children)),
                    Err(Interrupt::Threw) => {
                        self.caught_in_render.push(id);
                        Ok(self.node(id, element, runtime, Vec::new()))
                    }
                    Err(Interrupt::Suspended) => Err(Interrupt::Suspended),
                };
            }
            ElementKind::Capability(render) => {
                if let Some(index) = runtime {
                    self.render_capability(id, matched.is_some(), render, index, runtimes);
                }
            }
            ElementKind::ContextOwner { .. }
            | ElementKind::ClientUser
            | ElementKind::SnapshotUser => {}
        }
        let children = self.render_list(&element.children, old_children, scope, runtimes)?;
        Ok(self.node(id, element, runtime, children))
    }

    /// What the render of a capability component does beyond computing its output: nothing, in
    /// a correct binding. The faults are the render-time bugs of issue 17.
    fn render_capability(
        &mut self,
        id: u64,
        mounted: bool,
        render: &CapabilityRender,
        runtime: usize,
        runtimes: &mut [&mut Runtime],
    ) {
        if mounted && self.choices.injects(Fault::ReactRefUpdatedInRender) {
            // The bug: `latestRef.current = binding` during render publishes this render even if
            // React throws it away (RCIP-LIFE-BIND-06).
            if let Some(latest) = self.instances.get(&id).and_then(|i| i.latest.as_ref()) {
                *latest.borrow_mut() = render.clone();
            }
        }
        if self.choices.injects(Fault::ReactBindInRender) {
            // The bug: binding during render (guarded by a ref), not in an effect.
            let instance = self.instances.entry(id).or_default();
            if instance.binding.is_none() {
                let latest = Rc::new(RefCell::new(render.clone()));
                instance.latest = Some(Rc::clone(&latest));
                if let Some(rt) = runtimes.get_mut(runtime) {
                    if let Ok(token) = bind_latest(rt, &latest) {
                        instance.binding = Some((runtime, token));
                    }
                }
            }
        }
    }

    fn node(
        &self,
        id: u64,
        element: &Element,
        runtime: Option<usize>,
        children: Vec<Node>,
    ) -> Node {
        Node {
            id,
            key: element.key.clone(),
            kind: element.kind.clone(),
            runtime,
            children,
        }
    }

    // -----------------------------------------------------------------------------------------
    // Commit
    // -----------------------------------------------------------------------------------------

    fn commit(
        &mut self,
        old: Vec<Node>,
        new: Vec<Node>,
        caught: Vec<u64>,
        runtimes: &mut [&mut Runtime],
    ) {
        let mut old_ids = BTreeSet::new();
        collect_ids(&old, &mut old_ids);
        let mut new_ids = BTreeSet::new();
        collect_ids(&new, &mut new_ids);
        // 1. Deletions: every component of the old tree that is not in the new one, parents first.
        let mut deleted = Vec::new();
        collect_deleted(&old, &new_ids, &mut deleted);
        for node in &deleted {
            self.delete(node, runtimes);
        }
        for id in caught {
            self.instances.entry(id).or_default().caught = true;
        }
        // 2. Layout: each binding now calls its component's newest committed render.
        let stale = self.choices.injects(Fault::ReactStaleHandler);
        visit(&new, &mut |node| {
            if let ElementKind::Capability(render) = &node.kind {
                let instance = self.instances.entry(node.id).or_default();
                match &instance.latest {
                    Some(latest) if !(stale && instance.binding.is_some()) => {
                        *latest.borrow_mut() = render.clone();
                    }
                    Some(_) => {}
                    None => instance.latest = Some(Rc::new(RefCell::new(render.clone()))),
                }
            }
        });
        // 3. Effects, children before parents: mount setups of new components, updates of others.
        let mut errors = Vec::new();
        let inner_first = !self.choices.takes(Choice::ReactNestedOwnerInnerWins);
        let mut order = Vec::new();
        if inner_first {
            post_order(&new, &mut order);
        } else {
            pre_order(&new, &mut order);
        }
        for node in &order {
            let result = if old_ids.contains(&node.id) {
                self.update_effects(node, runtimes)
            } else {
                self.setup(node, runtimes)
            };
            if result.is_err() {
                errors.push(node.id);
            }
        }
        // 4. Strict Mode: every newly mounted subtree runs cleanup, then setup again.
        if self.strict {
            let mut roots = Vec::new();
            new_subtree_roots(&new, &old_ids, &mut roots);
            for root in &roots {
                let mut nodes = Vec::new();
                pre_order(std::slice::from_ref(root), &mut nodes);
                for node in &nodes {
                    self.cleanup(node, runtimes);
                }
                self.setup_subtree(root, runtimes, &mut errors);
            }
        }
        self.committed = Some(new);
        // 5. An error thrown by an effect goes to the nearest boundary above the component.
        for id in errors {
            self.catch_effect_error(id, runtimes);
        }
    }

    /// Setups of a subtree, children before parents (or parents first, the alternate choice).
    fn setup_subtree(&mut self, root: &Node, runtimes: &mut [&mut Runtime], errors: &mut Vec<u64>) {
        let mut order = Vec::new();
        if self.choices.takes(Choice::ReactNestedOwnerInnerWins) {
            pre_order(std::slice::from_ref(root), &mut order);
        } else {
            post_order(std::slice::from_ref(root), &mut order);
        }
        for node in &order {
            if self.setup(node, runtimes).is_err() {
                errors.push(node.id);
            }
        }
    }

    /// The mount effects of one component.
    fn setup(&mut self, node: &Node, runtimes: &mut [&mut Runtime]) -> Result<(), ()> {
        let Some(index) = node.runtime else {
            return Ok(());
        };
        if node.kind.uses_hook() {
            self.instances.entry(node.id).or_default().effects_runtime = Some(index);
        }
        match &node.kind {
            ElementKind::ContextOwner { context } => {
                let instance = self.instances.entry(node.id).or_default();
                instance.published = Some(context.to_stringified_json());
                let merge = self.choices.injects(Fault::ReactContextMerged);
                let rt = runtimes.get_mut(index).ok_or(())?;
                publish(rt, context, merge)
            }
            ElementKind::Capability(render) => {
                let refresh_on_mount = self.choices.takes(Choice::ReactRefreshOnMount);
                let bind_in_render = self.choices.injects(Fault::ReactBindInRender);
                let instance = self.instances.entry(node.id).or_default();
                instance.revision = render.revision.clone();
                let latest = instance
                    .latest
                    .get_or_insert_with(|| Rc::new(RefCell::new(render.clone())))
                    .clone();
                let rt = runtimes.get_mut(index).ok_or(())?;
                if !bind_in_render {
                    let token = bind_latest(rt, &latest).map_err(|_| ())?;
                    self.instances.entry(node.id).or_default().binding = Some((index, token));
                }
                if refresh_on_mount {
                    rt.refresh();
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// The effects of a component that re-rendered: those whose dependency changed.
    fn update_effects(&mut self, node: &Node, runtimes: &mut [&mut Runtime]) -> Result<(), ()> {
        let Some(index) = node.runtime else {
            return Ok(());
        };
        let ran_on = self.instances.get(&node.id).and_then(|i| i.effects_runtime);
        if ran_on.is_some_and(|runtime| runtime != index) {
            self.cleanup(node, runtimes);
            return self.setup(node, runtimes);
        }
        match &node.kind {
            ElementKind::ContextOwner { context } => {
                let now = Some(context.to_stringified_json());
                let instance = self.instances.entry(node.id).or_default();
                if instance.published == now {
                    return Ok(());
                }
                instance.published = now;
                let merge = self.choices.injects(Fault::ReactContextMerged);
                let rt = runtimes.get_mut(index).ok_or(())?;
                publish(rt, context, merge)
            }
            ElementKind::Capability(render) => {
                let instance = self.instances.entry(node.id).or_default();
                if instance.revision != render.revision {
                    instance.revision = render.revision.clone();
                    if self.choices.injects(Fault::ReactRevisionIgnored) {
                        return Ok(());
                    }
                    if let Some(rt) = runtimes.get_mut(index) {
                        rt.refresh();
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// The cleanups of one component (unmount, or Strict Mode's simulated unmount).
    fn cleanup(&mut self, node: &Node, runtimes: &mut [&mut Runtime]) {
        let Some(rendered_in) = node.runtime else { return };
        // The effects clean up against the runtime they were set up against, which is not the
        // rendered one after a provider changed its runtime.
        let index = self
            .instances
            .get_mut(&node.id)
            .and_then(|i| i.effects_runtime.take())
            .unwrap_or(rendered_in);
        match &node.kind {
            ElementKind::ContextOwner { .. } => {
                if let Some(instance) = self.instances.get_mut(&node.id) {
                    instance.published = None;
                }
                if !self.choices.injects(Fault::ReactContextNotCleared) {
                    if let Some(rt) = runtimes.get_mut(index) {
                        let empty = HostValue::object(vec![(
                            "activeScopeIds".to_string(),
                            HostValue::array(Vec::new()),
                        )]);
                        // Clearing to the empty context never throws (no scope to check).
                        let _ = rt.set_context(&empty);
                    }
                }
            }
            ElementKind::Capability(_) => {
                let binding = self
                    .instances
                    .get_mut(&node.id)
                    .and_then(|i| i.binding.take());
                if let Some((rt_index, token)) = binding {
                    if !self.choices.injects(Fault::ReactCleanupKeepsBinding) {
                        if let Some(rt) = runtimes.get_mut(rt_index) {
                            rt.unbind(&token);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Unmounts a committed subtree: cleanups parents first, then the instances are gone.
    fn delete(&mut self, root: &Node, runtimes: &mut [&mut Runtime]) {
        let mut nodes = Vec::new();
        pre_order(std::slice::from_ref(root), &mut nodes);
        for node in &nodes {
            self.cleanup(node, runtimes);
        }
        for node in &nodes {
            self.instances.remove(&node.id);
        }
    }

    /// The nearest boundary above component `id` catches the error of its effect: it renders
    /// nothing from now on, so its subtree unmounts. Without a boundary the root unmounts.
    fn catch_effect_error(&mut self, id: u64, runtimes: &mut [&mut Runtime]) {
        let Some(mut tree) = self.committed.take() else {
            return;
        };
        let boundary = nearest_boundary(&tree, id, None);
        match boundary {
            Some(boundary_id) => {
                if let Some(node) = find_mut(&mut tree, boundary_id) {
                    let children = std::mem::take(&mut node.children);
                    for child in &children {
                        self.delete(child, runtimes);
                    }
                }
                self.instances.entry(boundary_id).or_default().caught = true;
                self.committed = Some(tree);
            }
            None if contains(&tree, id) => {
                self.committed = Some(tree);
                self.unmount(runtimes);
                self.committed = Some(Vec::new());
            }
            // Already unmounted by an earlier error of the same commit.
            None => self.committed = Some(tree),
        }
    }
}

/// `host.setContext(context)` from an owner's effect. With `merge` (the fault
/// `react-context-merged`) the owner adds its scopes to the published ones instead of replacing
/// them (what RCIP-LIFE-CTX-06 forbids).
fn publish(runtime: &mut Runtime, context: &HostValue, merge: bool) -> Result<(), ()> {
    if !merge {
        return runtime.set_context(context).map_err(|_| ());
    }
    let mut active: Vec<Value> = runtime.context().to_json()["activeScopeIds"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let own = context.to_stringified_json().unwrap_or(Value::Null);
    for id in own["activeScopeIds"].as_array().into_iter().flatten() {
        if !active.contains(id) {
            active.push(id.clone());
        }
    }
    let mut merged = serde_json::json!({ "activeScopeIds": active });
    if let Some(primary) = own.get("primaryScopeId") {
        merged["primaryScopeId"] = primary.clone();
    }
    runtime
        .set_context(&HostValue::from_json(&merged))
        .map_err(|_| ())
}

/// Binds the capability of `latest` with functions that call the newest committed render's
/// `execute` and `getAvailability` (the stable wrapper of CL-A08-5 / RCIP-LIFE-AVAIL-02).
fn bind_latest(
    runtime: &mut Runtime,
    latest: &Rc<RefCell<CapabilityRender>>,
) -> Result<BindingToken, super::definition::ConfigError> {
    let (capability_id, has_availability) = {
        let render = latest.borrow();
        (render.capability.clone(), render.availability.is_some())
    };
    let capability = runtime
        .definition()
        .capability(&capability_id)
        .ok_or_else(
            || super::definition::ConfigError::BindNotCatalogDefinition {
                capability: capability_id.clone(),
            },
        )?;
    let for_handler = Rc::clone(latest);
    let handler: HandlerFn = Box::new(move |call| {
        let execute = Rc::clone(&for_handler.borrow().execute);
        let mut execute = execute.borrow_mut();
        (*execute)(call)
    });
    let availability: Option<AvailabilityFn> = if has_availability {
        let for_availability = Rc::clone(latest);
        Some(Box::new(move || {
            for_availability
                .borrow()
                .availability
                .clone()
                .ok_or_else(|| HostError::error("no getAvailability in this render"))
        }))
    } else {
        None
    };
    runtime.bind(
        &capability,
        BindingSpec {
            handler,
            availability,
        },
    )
}

fn collect_ids(nodes: &[Node], ids: &mut BTreeSet<u64>) {
    for node in nodes {
        ids.insert(node.id);
        collect_ids(&node.children, ids);
    }
}

/// The roots of the deleted subtrees of `old` (a deleted node's descendants are deleted too).
fn collect_deleted(old: &[Node], new_ids: &BTreeSet<u64>, deleted: &mut Vec<Node>) {
    for node in old {
        if new_ids.contains(&node.id) {
            collect_deleted(&node.children, new_ids, deleted);
        } else {
            deleted.push(node.clone());
        }
    }
}

fn new_subtree_roots(nodes: &[Node], old_ids: &BTreeSet<u64>, roots: &mut Vec<Node>) {
    for node in nodes {
        if old_ids.contains(&node.id) {
            new_subtree_roots(&node.children, old_ids, roots);
        } else {
            roots.push(node.clone());
        }
    }
}

fn visit(nodes: &[Node], f: &mut impl FnMut(&Node)) {
    for node in nodes {
        f(node);
        visit(&node.children, f);
    }
}

fn pre_order(nodes: &[Node], out: &mut Vec<Node>) {
    for node in nodes {
        out.push(node.clone());
        pre_order(&node.children, out);
    }
}

fn post_order(nodes: &[Node], out: &mut Vec<Node>) {
    for node in nodes {
        post_order(&node.children, out);
        out.push(node.clone());
    }
}

fn contains(nodes: &[Node], id: u64) -> bool {
    nodes
        .iter()
        .any(|n| n.id == id || contains(&n.children, id))
}

/// The id of the nearest boundary strictly above `id` (`above`: the nearest so far).
fn nearest_boundary(nodes: &[Node], id: u64, above: Option<u64>) -> Option<u64> {
    for node in nodes {
        if node.id == id {
            return above;
        }
        let here = if matches!(node.kind, ElementKind::Boundary) {
            Some(node.id)
        } else {
            above
        };
        if contains(&node.children, id) {
            return nearest_boundary(&node.children, id, here);
        }
    }
    None
}

fn find_mut(nodes: &mut [Node], id: u64) -> Option<&mut Node> {
    for node in nodes {
        if node.id == id {
            return Some(node);
        }
        if let Some(found) = find_mut(&mut node.children, id) {
            return Some(found);
        }
    }
    None
}
