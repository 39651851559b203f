//! The committed snapshot and the graph invariants (CL-D02-1/2/8; spec "Graph invariants",
//! RUI-INV-01..07). A snapshot starts empty: revision 0, no root, no nodes, data `{}`.
//!
//! Structural invariants ([`check_structure`]): the root exists (`ROOT_MISSING`), every child
//! reference of every node resolves, reachable or not (`CHILD_UNRESOLVED`: "Every structural child
//! reference resolves" has no restriction, while the next invariant restricts acyclicity to the
//! reachable graph; issue 15), the reachable graph is acyclic (`GRAPH_CYCLE`) and no deeper than
//! `maxDepth` nodes (`LIMIT_DEPTH`). A node reachable along two paths is allowed (the texts require
//! acyclicity, not a tree). Unreachable nodes stay in the graph (node ids are stable); a cycle
//! among them is allowed (PRJ-RUI-GRAPH-07, RECOMMENDED; [`check_acyclic`] is the stricter
//! reading a runtime may take).
//!
//! Per-node invariants ([`check_node`]), for every node: id length, no duplicate in its child
//! list (`DUPLICATE_CHILD`), child list length and child id lengths, props within the limits, and
//! catalog validation. [`Snapshot::check_invariants`] runs everything on a whole snapshot; commit
//! runs the per-node checks only on the nodes the transaction (re)defined, since the others were
//! checked by the commit that defined them under the same catalog and limits.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::{json, Map, Value};

use super::catalog::Catalog;
use super::codes::TransactionCode;
use super::limits::Limits;

/// One node definition: a component, its props object, its ordered child ids.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub component: String,
    /// Always a JSON object (records carry props as an object, CL-D01-3).
    pub props: Value,
    pub children: Vec<String>,
}

impl Node {
    pub fn new(component: String, props: Map<String, Value>, children: Vec<String>) -> Node {
        Node {
            component,
            props: Value::Object(props),
            children,
        }
    }

    fn to_json(&self) -> Value {
        json!({ "component": self.component, "props": self.props, "children": self.children })
    }
}

/// A committed snapshot: graph and data document, swapped as a whole on commit (RUI-COMMIT-04).
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    pub revision: u64,
    pub root: Option<String>,
    pub nodes: BTreeMap<String, Node>,
    pub data: Value,
}

impl Default for Snapshot {
    fn default() -> Self {
        Snapshot::empty()
    }
}

impl Snapshot {
    /// CL-D02-1/2: revision 0, no root, data `{}`.
    pub fn empty() -> Snapshot {
        Snapshot {
            revision: 0,
            root: None,
            nodes: BTreeMap::new(),
            data: Value::Object(Map::new()),
        }
    }

    /// The vector format's `graph` observation: `{revision, root, nodes: {id: {component, props,
    /// children}}}`, `root` null before the first commit.
    pub fn graph_json(&self) -> Value {
        let nodes: Map<String, Value> = self
            .nodes
            .iter()
            .map(|(id, node)| (id.clone(), node.to_json()))
            .collect();
        json!({ "revision": self.revision, "root": self.root, "nodes": nodes })
    }

    /// Every invariant at once, over every node: what any committed snapshot must satisfy. The
    /// empty snapshot (no root, revision 0) is the one snapshot without a root.
    pub fn check_invariants(
        &self,
        catalog: &Catalog,
        limits: &Limits,
    ) -> Result<(), TransactionCode> {
        for (id, node) in &self.nodes {
            check_node(id, node, catalog, limits)?;
        }
        limits.check_strings_and_arrays(&self.data)?;
        match &self.root {
            Some(root) => check_structure(&self.nodes, root, limits),
            None if self.revision == 0 && self.nodes.is_empty() => Ok(()),
            None => Err(TransactionCode::RootMissing),
        }
    }
}

/// The per-node invariants of one node definition.
pub fn check_node(
    id: &str,
    node: &Node,
    catalog: &Catalog,
    limits: &Limits,
) -> Result<(), TransactionCode> {
    limits.check_id(id)?;
    limits.check_array_len(node.children.len())?;
    // A short child list is searched in place, a long one through a set: the same first
    // duplicate either way, without an allocation for most nodes (issue 29 §3).
    let mut seen = BTreeSet::new();
    for (at, child) in node.children.iter().enumerate() {
        limits.check_id(child)?;
        let repeated = if node.children.len() <= 16 {
            node.children[..at].contains(child)
        } else {
            !seen.insert(child.as_str())
        };
        if repeated {
            return Err(TransactionCode::DuplicateChild);
        }
    }
    limits.check_value(&node.props)?;
    catalog.validate_node(&node.component, &node.props, &node.children)
}

/// Where the depth-first walk stands with one node.
#[derive(Clone, Copy)]
enum Visit {
    /// On the current path (seeing it again closes a cycle).
    OnPath,
    /// Finished: the number of nodes on the longest path down from it.
    Done(usize),
}

/// The walk's mark of each node it reached, by id. Lookup only, never iterated, so no order
/// decides anything. A few nodes (a small UI, the common case) are searched in place; many
/// through a B-tree (rather than a hash map: no hashing of every id at every commit). Issue 29 §3.
enum Visits<'a> {
    Few(Vec<(&'a str, Visit)>),
    Many(BTreeMap<&'a str, Visit>),
}

impl<'a> Visits<'a> {
    /// Up to this many nodes, a linear search costs less than the B-tree's allocations.
    const FEW: usize = 16;

    fn for_graph(nodes: usize) -> Visits<'a> {
        if nodes <= Self::FEW {
            Visits::Few(Vec::with_capacity(nodes))
        } else {
            Visits::Many(BTreeMap::new())
        }
    }

    fn get(&self, id: &str) -> Option<Visit> {
        match self {
            Visits::Few(marks) => marks
                .iter()
                .find(|(marked, _)| *marked == id)
                .map(|(_, visit)| *visit),
            Visits::Many(marks) => marks.get(id).copied(),
        }
    }

    fn insert(&mut self, id: &'a str, visit: Visit) {
        match self {
            Visits::Few(marks) => match marks.iter_mut().find(|(marked, _)| *marked == id) {
                Some((_, mark)) => *mark = visit,
                None => marks.push((id, visit)),
            },
            Visits::Many(marks) => {
                marks.insert(id, visit);
            }
        }
    }
}

/// Root exists, every child reference of every node resolves (reachable or not: "Every
/// structural child reference resolves", RUI-INV-03), reachable graph acyclic and within
/// `maxDepth`. Iterative (no recursion on input), O(nodes + edges); the path never grows past
/// `maxDepth + 1` nodes.
pub fn check_structure(
    nodes: &BTreeMap<String, Node>,
    root: &str,
    limits: &Limits,
) -> Result<(), TransactionCode> {
    let root_node = nodes.get(root).ok_or(TransactionCode::RootMissing)?;
    let dangling = nodes
        .values()
        .any(|node| node.children.iter().any(|child| !nodes.contains_key(child)));
    if dangling {
        return Err(TransactionCode::ChildUnresolved);
    }
    walk_from_root(
        nodes,
        root,
        root_node,
        limits,
        Visits::for_graph(nodes.len()),
    )
}

/// The depth-first walk of [`check_structure`] from the root, marking nodes in `visits`.
fn walk_from_root<'a>(
    nodes: &'a BTreeMap<String, Node>,
    root: &'a str,
    root_node: &'a Node,
    limits: &Limits,
    mut visits: Visits<'a>,
) -> Result<(), TransactionCode> {
    // The current path: each node with the index of its next child to visit and its height so far.
    // It never holds more nodes than the graph has.
    let mut path: Vec<(&str, &Node, usize, usize)> = Vec::with_capacity(nodes.len());
    path.push((root, root_node, 0, 0));
    visits.insert(root, Visit::OnPath);
    limits.check_depth(1)?;
    while let Some(top) = path.last_mut() {
        let (id, node, next, height) = *top;
        match node.children.get(next) {
            Some(child) => {
                top.2 = next + 1;
                match visits.get(child) {
                    Some(Visit::OnPath) => return Err(TransactionCode::GraphCycle),
                    Some(Visit::Done(below)) => {
                        top.3 = height.max(below);
                        limits.check_depth(path.len() + below)?;
                    }
                    None => {
                        let (child_id, child_node) = nodes
                            .get_key_value(child.as_str())
                            .ok_or(TransactionCode::ChildUnresolved)?;
                        visits.insert(child_id, Visit::OnPath);
                        path.push((child_id, child_node, 0, 0));
                        limits.check_depth(path.len())?;
                    }
                }
            }
            None => {
                path.pop();
                let own = height + 1;
                visits.insert(id, Visit::Done(own));
                if let Some(parent) = path.last_mut() {
                    parent.3 = parent.3.max(own);
                }
            }
        }
    }
    Ok(())
}

/// No cycle anywhere in `nodes`, reachable from the root or not: the stricter reading of
/// PRJ-RUI-GRAPH-07 (`rui-unreachable-cycle-fails`), `GRAPH_CYCLE` otherwise. Iterative colouring
/// from every node in id order, O(nodes + edges); children that name no node are skipped (they
/// are `CHILD_UNRESOLVED`, found by [`check_structure`] first).
pub fn check_acyclic(nodes: &BTreeMap<String, Node>) -> Result<(), TransactionCode> {
    // Lookup only; never iterated, so its order decides nothing.
    let mut visits: HashMap<&str, bool> = HashMap::new();
    for (start, start_node) in nodes {
        if visits.contains_key(start.as_str()) {
            continue;
        }
        // Each entry: a node on the current path and the index of its next child.
        let mut path: Vec<(&str, &Node, usize)> = vec![(start, start_node, 0)];
        visits.insert(start, true);
        while let Some(top) = path.last_mut() {
            let (id, node, next) = *top;
            match node.children.get(next) {
                Some(child) => {
                    top.2 = next + 1;
                    match visits.get(child.as_str()).copied() {
                        Some(true) => return Err(TransactionCode::GraphCycle),
                        Some(false) => {}
                        None => {
                            if let Some((child_id, child_node)) =
                                nodes.get_key_value(child.as_str())
                            {
                                visits.insert(child_id, true);
                                path.push((child_id, child_node, 0));
                            }
                        }
                    }
                }
                None => {
                    visits.insert(id, false);
                    path.pop();
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    // The two ways of marking visited nodes decide every graph alike (issue 29 §3): graphs of up
    // to 40 nodes with random child lists (cycles, diamonds, self-references, deep chains), walked
    // from each node under a small depth bound.
    proptest! {
        #[test]
        fn few_and_many_visits_decide_alike(
            children in prop::collection::vec(prop::collection::vec(0..40usize, 0..4), 1..40),
            max_depth in 1..12usize,
        ) {
            let count = children.len();
            let nodes: BTreeMap<String, Node> = children
                .iter()
                .enumerate()
                .map(|(id, kids)| {
                    let kids = kids.iter().map(|k| format!("n{}", k % count)).collect();
                    (format!("n{id}"), Node::new("Stack".into(), Map::new(), kids))
                })
                .collect();
            let limits = Limits { max_depth, ..Limits::default() };
            for (root, root_node) in &nodes {
                let few = walk_from_root(&nodes, root, root_node, &limits, Visits::Few(Vec::new()));
                let many =
                    walk_from_root(&nodes, root, root_node, &limits, Visits::Many(BTreeMap::new()));
                prop_assert_eq!(few, many);
            }
        }
    }

    // RUI-INV-02 ("The committed root exists") and CL-D02-1 (a committed graph starts empty at
    // revision 0 with no root): the empty snapshot is the one snapshot without a root; any later
    // revision without one breaks the invariant.
    #[test]
    fn only_the_empty_snapshot_has_no_root() {
        let catalog = Catalog::from_json(&json!({ "id": "demo@1.0.0", "components": {} }))
            .expect("a catalog without components is valid");
        let limits = Limits::default();
        assert_eq!(
            Snapshot::empty().check_invariants(&catalog, &limits),
            Ok(())
        );
        let later = Snapshot {
            revision: 1,
            ..Snapshot::empty()
        };
        assert_eq!(
            later.check_invariants(&catalog, &limits),
            Err(TransactionCode::RootMissing)
        );
        // The whole data document stays within the string and array bounds too.
        let long = Snapshot {
            data: json!({ "s": "x".repeat(limits.max_string_length + 1) }),
            ..Snapshot::empty()
        };
        assert_eq!(
            long.check_invariants(&catalog, &limits),
            Err(TransactionCode::LimitStringLength)
        );
    }
}
