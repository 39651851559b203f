//! Matching an observation against an expectation pattern (`vectors/README.md`, "Patterns"):
//! exact objects unless `subset`, ordered arrays unless `unordered`, numbers by value, and the
//! `$match` matchers, including `not`, `contains` (ordered or not), `lacks` and `prefix` (issue 14,
//! section 3: what hand-written cases needed). Also builds the "expected" side of a diff: the observation with only the
//! mismatching parts replaced by the pattern, so a diff shows real differences and no matcher noise.

use serde_json::{Map, Value};

/// One place where an observation differs from its pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// JSON Pointer into the observation.
    pub pointer: String,
    pub reason: String,
}

/// The result of matching: the mismatches (none when it matched) and, for each `one-of` that
/// matched, which alternative did (the IMPL-DEFINED result that was seen).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    pub mismatches: Vec<Mismatch>,
    pub alternatives: Vec<String>,
}

impl Outcome {
    pub fn matched(&self) -> bool {
        self.mismatches.is_empty()
    }
}

/// Matches `actual` (None: the member is absent) against `pattern`.
pub fn match_value(pattern: &Value, actual: Option<&Value>) -> Outcome {
    let mut outcome = Outcome::default();
    walk(pattern, actual, &At::Root, &mut outcome);
    outcome
}

fn matcher(pattern: &Value) -> Option<&str> {
    pattern.as_object().and_then(|o| o.get("$match")).and_then(Value::as_str)
}

/// Where the walk is in the observation. It becomes a JSON Pointer only when something is
/// reported there: most members match, and formatting a pointer for every member visited cost
/// more than comparing it.
enum At<'a> {
    Root,
    Member(&'a At<'a>, &'a str),
    Item(&'a At<'a>, usize),
}

impl At<'_> {
    fn pointer(&self) -> String {
        match self {
            At::Root => String::new(),
            At::Member(parent, key) => format!("{}/{}", parent.pointer(), crate::json::pointer_token(key)),
            At::Item(parent, index) => format!("{}/{index}", parent.pointer()),
        }
    }
}

fn push(outcome: &mut Outcome, at: &At<'_>, reason: impl Into<String>) {
    outcome.mismatches.push(Mismatch { pointer: at.pointer(), reason: reason.into() });
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn has_type(value: &Value, wanted: &str) -> bool {
    match wanted {
        "integer" => value.as_f64().is_some_and(|n| n.fract() == 0.0),
        other => type_name(value) == other,
    }
}

fn numbers_equal(a: &serde_json::Number, b: &serde_json::Number) -> bool {
    match (a.as_i64(), b.as_i64(), a.as_u64(), b.as_u64()) {
        (Some(x), Some(y), _, _) => x == y,
        (_, _, Some(x), Some(y)) => x == y,
        _ => a.as_f64() == b.as_f64(),
    }
}

fn walk(pattern: &Value, actual: Option<&Value>, at: &At<'_>, outcome: &mut Outcome) {
    if let Some(kind) = matcher(pattern) {
        return walk_matcher(kind, pattern, actual, at, outcome);
    }
    let Some(actual) = actual else {
        return push(outcome, at, "missing");
    };
    match (pattern, actual) {
        (Value::Object(expected), Value::Object(found)) => {
            for (key, sub) in expected {
                walk(sub, found.get(key), &At::Member(at, key), outcome);
            }
            for key in found.keys().filter(|k| !expected.contains_key(*k)) {
                push(outcome, &At::Member(at, key), "unexpected member");
            }
        }
        (Value::Array(expected), Value::Array(found)) => {
            if expected.len() != found.len() {
                push(outcome, at, format!("expected {} items, found {}", expected.len(), found.len()));
            }
            for (i, (sub, item)) in expected.iter().zip(found).enumerate() {
                walk(sub, Some(item), &At::Item(at, i), outcome);
            }
        }
        (Value::Number(a), Value::Number(b)) => {
            if !numbers_equal(a, b) {
                push(outcome, at, "different number");
            }
        }
        (expected, found) => {
            if expected != found {
                push(outcome, at, format!("expected {}, found {}", type_or_value(expected), type_or_value(found)));
            }
        }
    }
}

fn type_or_value(value: &Value) -> String {
    match value {
        Value::Object(_) | Value::Array(_) => type_name(value).to_string(),
        other => crate::quote::bounded(other),
    }
}

fn walk_matcher(kind: &str, pattern: &Value, actual: Option<&Value>, at: &At<'_>, outcome: &mut Outcome) {
    match kind {
        "any" => {}
        "present" => {
            if actual.is_none() {
                push(outcome, at, "missing");
            }
        }
        "absent" => {
            if actual.is_some() {
                push(outcome, at, "expected absent");
            }
        }
        "type" => {
            let wanted = pattern.get("type").and_then(Value::as_str).unwrap_or("");
            match actual {
                Some(value) if has_type(value, wanted) => {}
                Some(value) => push(outcome, at, format!("expected a {wanted}, found {}", type_name(value))),
                None => push(outcome, at, "missing"),
            }
        }
        "one-of" => {
            let options = pattern.get("options").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            for (i, option) in options.iter().enumerate() {
                let mut attempt = Outcome::default();
                walk(option, actual, at, &mut attempt);
                if attempt.matched() {
                    outcome.alternatives.push(format!("{}: alternative {} of {}", display_pointer(&at.pointer()), i + 1, options.len()));
                    outcome.alternatives.extend(attempt.alternatives);
                    return;
                }
            }
            push(outcome, at, format!("matches none of the {} alternatives", options.len()));
        }
        "subset" => {
            let no_fields = Map::new();
            let fields = pattern.get("fields").and_then(Value::as_object).unwrap_or(&no_fields);
            match actual {
                Some(Value::Object(found)) => {
                    for (key, sub) in fields {
                        walk(sub, found.get(key), &At::Member(at, key), outcome);
                    }
                }
                Some(other) => push(outcome, at, format!("expected an object, found {}", type_name(other))),
                None => push(outcome, at, "missing"),
            }
        }
        "unordered" => {
            let items = pattern.get("items").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            match actual {
                Some(Value::Array(found)) => {
                    if items.len() != found.len() {
                        push(outcome, at, format!("expected {} items, found {}", items.len(), found.len()));
                    } else if !assign(items, found, &mut vec![false; found.len()], 0) {
                        push(outcome, at, "items differ (in any order)");
                    }
                }
                Some(other) => push(outcome, at, format!("expected an array, found {}", type_name(other))),
                None => push(outcome, at, "missing"),
            }
        }
        "excludes" => {
            let text = pattern.get("text").and_then(Value::as_str).unwrap_or("");
            match actual {
                Some(Value::String(found)) if !found.contains(text) => {}
                Some(Value::String(_)) => push(outcome, at, format!("contains {}", crate::quote::bounded(&format_args!("{text:?}")))),
                Some(other) => push(outcome, at, format!("expected a string, found {}", type_name(other))),
                None => push(outcome, at, "missing"),
            }
        }
        "not" => {
            let inner = pattern.get("pattern").unwrap_or(&Value::Null);
            if match_value(inner, actual).matched() {
                push(outcome, at, format!("matches {}, which it must not", compact(inner)));
            }
        }
        "contains" | "lacks" | "prefix" => {
            let items = pattern.get("items").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            match actual {
                Some(Value::Array(found)) => match kind {
                    "contains" if pattern.get("ordered").and_then(Value::as_bool).unwrap_or(false) => {
                        if !contains_in_order(items, found) {
                            push(outcome, at, format!("does not contain the {} items in this order", items.len()));
                        }
                    }
                    "contains" => {
                        if !assign(items, found, &mut vec![false; found.len()], 0) {
                            push(outcome, at, format!("does not contain the {} items (in any order)", items.len()));
                        }
                    }
                    "lacks" => {
                        for (i, item) in found.iter().enumerate() {
                            if let Some(p) = items.iter().find(|p| match_value(p, Some(item)).matched()) {
                                push(outcome, &At::Item(at, i), format!("matches {}, which the array must lack", compact(p)));
                            }
                        }
                    }
                    _ => {
                        if found.len() < items.len() {
                            push(outcome, at, format!("expected at least {} items, found {}", items.len(), found.len()));
                        }
                        for (i, (sub, item)) in items.iter().zip(found).enumerate() {
                            walk(sub, Some(item), &At::Item(at, i), outcome);
                        }
                    }
                },
                Some(other) => push(outcome, at, format!("expected an array, found {}", type_name(other))),
                None => push(outcome, at, "missing"),
            }
        }
        other => push(outcome, at, format!("unknown matcher {}", crate::quote::bounded(other))),
    }
}

fn compact(pattern: &Value) -> String {
    crate::quote::bounded(pattern)
}

/// Whether `patterns` match distinct items of `items` in their order (a subsequence). Taking the
/// earliest item that matches each pattern is never worse than a later one.
fn contains_in_order(patterns: &[Value], items: &[Value]) -> bool {
    let mut rest = items.iter();
    patterns.iter().all(|pattern| rest.any(|item| match_value(pattern, Some(item)).matched()))
}

fn display_pointer(pointer: &str) -> &str {
    if pointer.is_empty() {
        "(whole observation)"
    } else {
        pointer
    }
}

/// Backtracking assignment of patterns to distinct items (every pattern one item; items may be
/// left over): arrays in vectors are small.
fn assign(patterns: &[Value], items: &[Value], used: &mut Vec<bool>, next: usize) -> bool {
    let Some(pattern) = patterns.get(next) else {
        return true;
    };
    for i in 0..items.len() {
        if used[i] || !match_value(pattern, items.get(i)).matched() {
            continue;
        }
        used[i] = true;
        if assign(patterns, items, used, next + 1) {
            return true;
        }
        used[i] = false;
    }
    false
}

/// The "expected" side of a diff: `actual` where it matched, the pattern where it did not.
pub fn expected_view(pattern: &Value, actual: Option<&Value>) -> Option<Value> {
    if match_value(pattern, actual).matched() {
        return actual.cloned();
    }
    match (matcher(pattern), pattern, actual) {
        (Some("absent"), _, _) => None,
        (Some("subset"), _, Some(Value::Object(found))) => {
            let fields = pattern.get("fields").and_then(Value::as_object).cloned().unwrap_or_default();
            let mut view = found.clone();
            for (key, sub) in &fields {
                match expected_view(sub, found.get(key)) {
                    Some(v) => view.insert(key.clone(), v),
                    None => view.remove(key),
                };
            }
            Some(Value::Object(view))
        }
        (None, Value::Object(expected), Some(Value::Object(found))) => {
            let mut view = Map::new();
            for (key, value) in found {
                if let Some(sub) = expected.get(key) {
                    if let Some(v) = expected_view(sub, Some(value)) {
                        view.insert(key.clone(), v);
                    }
                }
            }
            for (key, sub) in expected.iter().filter(|(k, _)| !found.contains_key(*k)) {
                if let Some(v) = expected_view(sub, None) {
                    view.insert(key.clone(), v);
                }
            }
            Some(Value::Object(view))
        }
        (None, Value::Array(expected), Some(Value::Array(found))) => Some(Value::Array(
            expected
                .iter()
                .enumerate()
                .filter_map(|(i, sub)| expected_view(sub, found.get(i)))
                .collect(),
        )),
        _ => Some(pattern.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ok(pattern: Value, actual: Value) -> bool {
        match_value(&pattern, Some(&actual)).matched()
    }

    #[test]
    fn objects_match_exactly_unless_subset() {
        assert!(ok(json!({"a": 1}), json!({"a": 1})));
        assert!(!ok(json!({"a": 1}), json!({"a": 1, "b": 2})));
        assert!(ok(json!({"$match": "subset", "fields": {"a": 1}}), json!({"a": 1, "b": 2})));
        assert!(!ok(json!({"$match": "subset", "fields": {"a": 2}}), json!({"a": 1, "b": 2})));
    }

    #[test]
    fn numbers_compare_by_value() {
        assert!(ok(json!(1), json!(1.0)));
        assert!(!ok(json!(1), json!(2)));
    }

    #[test]
    fn absent_present_and_any() {
        assert!(ok(json!({"a": {"$match": "absent"}}), json!({})));
        assert!(!ok(json!({"a": {"$match": "absent"}}), json!({"a": null})));
        assert!(!ok(json!({"a": {"$match": "present"}}), json!({})));
        assert!(ok(json!({"a": {"$match": "any"}}), json!({})));
    }

    #[test]
    fn one_of_records_the_alternative_seen() {
        let outcome = match_value(&json!({"$match": "one-of", "options": [0, 1]}), Some(&json!(1)));
        assert!(outcome.matched());
        assert_eq!(outcome.alternatives, vec!["(whole observation): alternative 2 of 2".to_string()]);
        assert!(!ok(json!({"$match": "one-of", "options": [0, 1]}), json!(2)));
    }

    #[test]
    fn unordered_needs_a_one_to_one_assignment() {
        let p = json!({"$match": "unordered", "items": [1, {"$match": "type", "type": "integer"}]});
        assert!(ok(p.clone(), json!([5, 1])));
        assert!(!ok(p.clone(), json!([5, 6])));
        assert!(!ok(p, json!([1])));
    }

    #[test]
    fn excludes_matches_strings_without_the_text() {
        let p = json!({"$match": "excludes", "text": "secret"});
        assert!(ok(p.clone(), json!("Handler failed")));
        assert!(!ok(p.clone(), json!("boom: secret at line 3")));
        assert!(!ok(p, json!(3)));
    }

    #[test]
    fn not_matches_what_its_pattern_does_not() {
        let p = json!({"$match": "not", "pattern": "POLICY_DENIED"});
        assert!(ok(p.clone(), json!("CAPABILITY_UNBOUND")));
        assert!(!ok(p.clone(), json!("POLICY_DENIED")));
        // As an object member: an absent member does not match the inner pattern.
        assert!(ok(json!({"a": p.clone()}), json!({})));
        let present = json!({"a": {"$match": "not", "pattern": {"$match": "absent"}}});
        assert!(!ok(present.clone(), json!({})));
        assert!(ok(present, json!({"a": 1})));
    }

    #[test]
    fn contains_finds_items_anywhere_or_in_order() {
        let any_order = json!({"$match": "contains", "items": [3, 1]});
        assert!(ok(any_order.clone(), json!([1, 2, 3])));
        assert!(!ok(any_order.clone(), json!([1, 2])));
        assert!(!ok(json!({"$match": "contains", "items": [1, 1]}), json!([1, 2])), "distinct items");
        assert!(!ok(any_order, json!({"a": 1})));
        let ordered = json!({"$match": "contains", "items": [1, 3], "ordered": true});
        assert!(ok(ordered.clone(), json!([1, 2, 3])));
        assert!(!ok(ordered, json!([3, 2, 1])));
    }

    #[test]
    fn lacks_refuses_any_matching_item() {
        let p = json!({"$match": "lacks", "items": [{"$match": "subset", "fields": {"code": "X"}}]});
        assert!(ok(p.clone(), json!([{"code": "Y"}, {"code": "Z"}])));
        assert!(ok(p.clone(), json!([])));
        let outcome = match_value(&p, Some(&json!([{"code": "Y"}, {"code": "X"}])));
        assert_eq!(outcome.mismatches.len(), 1);
        assert_eq!(outcome.mismatches[0].pointer, "/1");
    }

    #[test]
    fn prefix_matches_the_first_items_only() {
        let p = json!({"$match": "prefix", "items": [1, {"$match": "type", "type": "string"}]});
        assert!(ok(p.clone(), json!([1, "a"])));
        assert!(ok(p.clone(), json!([1, "a", null, 4])));
        assert!(!ok(p.clone(), json!([1])));
        assert!(!ok(p, json!([2, "a", 3])));
    }

    #[test]
    fn validation_issues_compare_by_the_members_the_texts_fix() {
        // Each issue by instancePath and keyword, whatever else it carries, in any order.
        let p = json!({"$match": "unordered", "items": [
            {"$match": "subset", "fields": {"instancePath": "/text", "keyword": "type"}},
            {"$match": "subset", "fields": {"instancePath": "", "keyword": "required"}}
        ]});
        assert!(ok(p.clone(), json!([
            {"instancePath": "", "keyword": "required", "params": {"missingProperty": "n"}},
            {"instancePath": "/text", "keyword": "type", "schemaPath": "#/properties/text/type"}
        ])));
        assert!(!ok(p, json!([{"instancePath": "/text", "keyword": "type"}])));
    }

    #[test]
    fn arrays_are_ordered_and_sized() {
        assert!(!ok(json!([1, 2]), json!([2, 1])));
        assert!(!ok(json!([1]), json!([1, 1])));
    }

    #[test]
    fn expected_view_keeps_matching_parts() {
        let pattern = json!({"status": "failed", "code": "X", "invocationId": {"$match": "any"}});
        let actual = json!({"status": "failed", "code": "Y", "invocationId": "i-1"});
        assert_eq!(
            expected_view(&pattern, Some(&actual)),
            Some(json!({"status": "failed", "code": "X", "invocationId": "i-1"}))
        );
    }
}
