//! Handles in a case's steps (`vectors/README.md`, "RCIP steps"): a step that names a handle
//! (`of`, `binding`, `a`, `b`, `runtime`, `confirmation.of`, `confirmation.turn`, `handler.sameAs`,
//! and `a.of` / `b.of` of a snapshot-relation side that names a subscription's notification)
//! must name one an
//! earlier step created with `as`. A dangling name is the vector's error, found at load time, not
//! the adapter's at run time (issue 14, section 2). Abort signals are created on first mention and
//! are not handles.

use std::collections::BTreeSet;

use serde_json::Value;

/// Members of a step whose string value names an existing handle.
const REFERENCES: [&str; 5] = ["of", "binding", "a", "b", "runtime"];

/// The JSON Pointer (relative to the case) and message of the first reference to a handle that
/// no earlier step created.
pub fn undefined_handle(steps: &[Value]) -> Option<(String, String)> {
    let mut created: BTreeSet<&str> = BTreeSet::new();
    for (index, step) in steps.iter().enumerate() {
        let mut named: Vec<(String, &str)> = REFERENCES
            .iter()
            .filter_map(|key| step.get(*key).and_then(Value::as_str).map(|name| (format!("/{key}"), name)))
            .collect();
        for (outer, inner) in [
            ("confirmation", "of"),
            ("confirmation", "turn"),
            ("handler", "sameAs"),
            ("a", "of"),
            ("b", "of"),
        ] {
            if let Some(name) = step.get(outer).and_then(|o| o.get(inner)).and_then(Value::as_str) {
                named.push((format!("/{outer}/{inner}"), name));
            }
        }
        if let Some((member, name)) = named.into_iter().find(|(_, name)| !created.contains(name)) {
            return Some((
                format!("/steps/{index}{member}"),
                format!("step {index} names handle {name:?}, which no earlier step created with \"as\""),
            ));
        }
        if let Some(name) = step.get("as").and_then(Value::as_str) {
            created.insert(name);
        }
    }
    None
}
