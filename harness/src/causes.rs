//! Failures grouped by cause (issue 27 §1): one bug that fails a hundred cases is one finding, so
//! every view of a run (console, JSON report, Markdown, JUnit, HTML) lists the groups first, each
//! with one representative case, then the cases that differ in some other way.
//!
//! A case's cause is its first difference (`vectors/README.md`, "Verdicts"): for a `fail`, the
//! first difference that is not RECOMMENDED (the one that makes it fail); for a `non-strict`, its
//! first difference; for an `errored` case, the class of its reason. A difference is keyed by
//! - where: the step's kind (`expect outcome`, `host bind`, `gate policy`, ... or the setup), with
//!   the framing it was seen in for a framing-neutral case;
//! - each of its mismatches (at most `KEYED_MISMATCHES`): the JSON Pointer, with every array
//!   index written `*` (the same bug at the second item instead of the first is the same cause),
//!   and the shape of expected against actual: the mismatch's reason as `matching.rs` writes it
//!   (`expected "succeeded", found "failed"`, `missing`, `expected 2 items, found 1`, ...), with
//!   what was found when the reason does not say it: a string, boolean or null by its value, an
//!   object by its `status`, `code` and `result` members (the discriminants of the canonical
//!   outcomes, transactions and dispatch results), an array as such.
//!
//! Decided (the issue leaves it open): two different codes at the same pointer are two shapes,
//! so two causes (`expected "A", found "B"` against `found "C"`); two different numbers at the
//! same pointer are one shape (`different number`: revisions and instants differ from case to
//! case while the bug is the same); strings over 64 characters are shown by their length class
//! only (a message or a whole snapshot text is not a code). The verdict is part of the key, so a
//! `fail` and a `non-strict` never share a group. An errored reason's class is its first line
//! with every number written `N` (`adapter failed at step N: no response within N ms`).
//!
//! Everything is ordered without hashing: the groups of several cases first, by verdict (`fail`,
//! `errored`, `non-strict`), larger first, then by key; then the cases that differ in some other
//! way (groups of one), by verdict and id. The cases of a group by id, the first one its
//! representative.
//! `xfail`, `unsupported`, `skip` and `pass` cases are not grouped (nothing to act on in this run).

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::runner::{CaseResult, Difference};
use crate::verdict::Verdict;

/// The verdicts grouped, in the order their groups are listed.
pub const GROUPED: [Verdict; 3] = [Verdict::Fail, Verdict::Errored, Verdict::NonStrict];

/// The most mismatches of one difference its key holds (and its title shows).
pub const KEYED_MISMATCHES: usize = 8;

/// A string found at a pointer is shown by its value up to this many characters.
const SHORT_STRING: usize = 64;

/// The members of an object a shape names it by.
const DISCRIMINANTS: [&str; 3] = ["status", "code", "result"];

/// A case's first difference, as the key of its group.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum First {
    /// A difference at `at` (the step's kind), with each mismatch as (pointer, shape).
    Difference { at: String, mismatches: Vec<Mismatch> },
    /// No difference decides the verdict (an errored case): the class of its reason.
    Reason(String),
}

/// One mismatch of a key: where (array indices as `*`) and what.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Mismatch {
    pub pointer: String,
    pub shape: String,
}

/// What a group of cases shares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cause {
    pub verdict: Verdict,
    pub first: First,
}

impl Cause {
    /// The order of groups: verdict in `GROUPED` order, then the key.
    fn rank(&self) -> (usize, &First) {
        (GROUPED.iter().position(|v| *v == self.verdict).unwrap_or(GROUPED.len()), &self.first)
    }
}

/// The cases that share one cause, by id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub cause: Cause,
    /// Sorted; never empty.
    pub cases: Vec<String>,
}

impl Group {
    /// The case whose differences a view shows for the group: the first by id.
    pub fn representative(&self) -> &str {
        &self.cases[0]
    }

    /// One line: "104 cases (fail) first differ at `expect outcome`: (whole observation):
    /// expected "pending", found {"status": "failed", ...}".
    pub fn title(&self) -> String {
        let count = self.cases.len();
        let (cases, differ) = if count == 1 { ("1 case".to_string(), "differs") } else { (format!("{count} cases"), "differ") };
        match &self.cause.first {
            First::Reason(reason) => format!("{cases} ({}): {reason}", self.cause.verdict),
            First::Difference { at, mismatches } => {
                let shown: Vec<String> = mismatches.iter().map(|m| format!("{}: {}", display_pointer(&m.pointer), m.shape)).collect();
                format!("{cases} ({}) first {differ} at `{at}`: {}", self.cause.verdict, shown.join("; "))
            }
        }
    }

    /// The group as the JSON report holds it (`report.schema.json`, `groups`).
    pub fn to_json(&self) -> Value {
        let (at, mismatches, reason) = match &self.cause.first {
            First::Difference { at, mismatches } => (
                Value::from(at.as_str()),
                mismatches.iter().map(|m| json!({"pointer": m.pointer, "shape": m.shape})).collect::<Vec<_>>(),
                Value::Null,
            ),
            First::Reason(reason) => (Value::Null, Vec::new(), Value::from(reason.as_str())),
        };
        json!({
            "verdict": self.cause.verdict.as_str(),
            "at": at,
            "mismatches": mismatches,
            "reason": reason,
            "title": self.title(),
            "representative": self.representative(),
            "cases": self.cases,
        })
    }
}

fn display_pointer(pointer: &str) -> &str {
    if pointer.is_empty() { "(whole observation)" } else { pointer }
}

/// The groups of a run's results, in the order every view lists them.
pub fn group<'r>(results: impl IntoIterator<Item = &'r CaseResult>) -> Vec<Group> {
    let mut by_cause: BTreeMap<(usize, First), Vec<String>> = BTreeMap::new();
    for result in results {
        if let Some(cause) = cause_of(result) {
            let (rank, _) = cause.rank();
            by_cause.entry((rank, cause.first)).or_default().push(result.id.clone());
        }
    }
    let mut groups: Vec<Group> = by_cause
        .into_iter()
        .map(|((rank, first), mut cases)| {
            cases.sort();
            Group { cause: Cause { verdict: GROUPED[rank], first }, cases }
        })
        .collect();
    // Groups of several cases first (by verdict, larger first; equal sizes keep the key order
    // of the map: the sort is stable), then the cases that differ in some other way (by verdict,
    // then id).
    groups.sort_by(|a, b| {
        let single = |g: &Group| g.cases.len() == 1;
        single(a)
            .cmp(&single(b))
            .then(a.cause.rank().0.cmp(&b.cause.rank().0))
            .then(b.cases.len().cmp(&a.cases.len()))
            .then(if single(a) { a.representative().cmp(b.representative()) } else { std::cmp::Ordering::Equal })
    });
    groups
}

/// The cause of one result; `None` for a verdict that is not grouped.
pub fn cause_of(result: &CaseResult) -> Option<Cause> {
    if !GROUPED.contains(&result.verdict) {
        return None;
    }
    let deciding = match result.verdict {
        Verdict::Fail => result.differences.iter().find(|d| d.strictness != "RECOMMENDED").or(result.differences.first()),
        Verdict::NonStrict => result.differences.first(),
        _ => None,
    };
    let first = match deciding {
        Some(difference) => First::Difference { at: step_kind(difference), mismatches: mismatches_of(difference) },
        None => First::Reason(reason_class(result.reason.as_deref().unwrap_or("(no reason given)"))),
    };
    Some(Cause { verdict: result.verdict, first })
}

/// The kinds of step (`vectors/README.md`, "RCIP steps", "Rixx UI steps"): the member naming it.
const STEP_KINDS: [&str; 8] = ["expect", "host", "client", "gate", "clock", "feed", "dispatch", "react"];

/// `expect outcome`, `host bind`, ..., `setup (creating the runtime)`; `(framed as sse)` added
/// for a framing-neutral case.
pub fn step_kind(difference: &Difference) -> String {
    if difference.step.is_none() {
        return "setup (creating the runtime)".to_string();
    }
    let request = difference.request.as_object();
    let named = request.and_then(|object| {
        STEP_KINDS
            .iter()
            .find_map(|k| object.get(*k).and_then(Value::as_str).map(|v| (k.to_string(), v)))
            .or_else(|| object.iter().find_map(|(k, v)| v.as_str().map(|v| (k.clone(), v))))
    });
    let mut kind = match named {
        Some((key, value)) => format!("{key} {}", crate::quote::bounded(value)),
        None => "a step".to_string(),
    };
    if let Some(framing) = request.and_then(|o| o.get("framedAs")).and_then(Value::as_str) {
        kind.push_str(&format!(" (framed as {})", crate::quote::bounded(framing)));
    }
    kind
}

fn mismatches_of(difference: &Difference) -> Vec<Mismatch> {
    difference
        .mismatches
        .iter()
        .take(KEYED_MISMATCHES)
        .map(|m| {
            let found = difference.actual.as_ref().and_then(|a| a.pointer(&m.pointer));
            Mismatch {
                pointer: generic_pointer(&m.pointer, difference.actual.as_ref(), difference.expected.as_ref()),
                shape: shape(&m.reason, found),
            }
        })
        .collect()
}

/// `pointer` with each token that indexes an array (in the observation, or in the expected view
/// where the observation has nothing there) written `*`.
fn generic_pointer(pointer: &str, actual: Option<&Value>, expected: Option<&Value>) -> String {
    if pointer.is_empty() {
        return String::new();
    }
    let (mut found, mut wanted) = (actual, expected);
    let mut out = String::new();
    for token in pointer[1..].split('/') {
        let is_array = matches!(found, Some(Value::Array(_))) || (found.is_none() && matches!(wanted, Some(Value::Array(_))));
        found = child(found, token);
        wanted = child(wanted, token);
        out.push('/');
        out.push_str(if is_array && token.bytes().all(|b| b.is_ascii_digit()) { "*" } else { token });
    }
    out
}

/// The member or item a pointer token names in `value`, if any.
fn child<'v>(value: Option<&'v Value>, token: &str) -> Option<&'v Value> {
    match value? {
        Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
        Value::Object(members) => members.get(&token.replace("~1", "/").replace("~0", "~")),
        _ => None,
    }
}

/// The mismatch's reason, with what was found when the reason does not say it.
fn shape(reason: &str, found: Option<&Value>) -> String {
    let reason = crate::quote::bounded(reason);
    let Some(found) = found.and_then(summary) else { return reason };
    for kind in [", found object", ", found array"] {
        if let Some(start) = reason.strip_suffix(kind) {
            return format!("{start}, found {found}");
        }
    }
    // An action's `/threw` mismatch says it already ("the call threw").
    if reason.contains("found") || reason.contains("threw") || reason.contains("throw") {
        reason
    } else {
        format!("{reason}; found {found}")
    }
}

/// A found value as a shape names it: `None` for a number (see the module's decisions).
fn summary(value: &Value) -> Option<String> {
    match value {
        Value::Number(_) => None,
        Value::String(text) if text.chars().count() > SHORT_STRING => Some("a string longer than 64 characters".into()),
        Value::Null | Value::Bool(_) | Value::String(_) => Some(value.to_string()),
        Value::Array(_) => Some("an array".into()),
        Value::Object(members) => {
            let named: Vec<String> = DISCRIMINANTS
                .iter()
                .filter_map(|k| members.get(*k).filter(|v| v.is_string() || v.is_boolean()).map(|v| format!("\"{k}\": {}", crate::quote::bounded(v))))
                .collect();
            Some(if named.is_empty() { "an object".into() } else { format!("{{{}}}", named.join(", ")) })
        }
    }
}

/// The class of an errored reason: its first line, every number written `N`.
pub fn reason_class(reason: &str) -> String {
    let line = reason.lines().next().unwrap_or("");
    let mut out = String::with_capacity(line.len());
    let mut in_number = false;
    for c in line.chars() {
        if c.is_ascii_digit() {
            if !in_number {
                out.push('N');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(c);
        }
    }
    crate::quote::bounded(&out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matching::Mismatch as Found;

    fn failing(id: &str, request: Value, expected: Value, actual: Value, mismatches: &[(&str, &str)]) -> CaseResult {
        CaseResult {
            id: id.into(),
            verdict: Verdict::Fail,
            reason: None,
            differences: vec![Difference {
                step: Some(3),
                strictness: "REQUIRED".into(),
                requirements: vec![],
                cited_by: None,
                sentences: vec![],
                request,
                expected: Some(expected),
                actual: Some(actual),
                mismatches: mismatches.iter().map(|(p, r)| Found { pointer: p.to_string(), reason: r.to_string() }).collect(),
            }],
            alternatives: vec![],
            checks: 1,
            trace: String::new(),
            stderr: None,
        }
    }

    fn unavailable(id: &str, expected: &str) -> CaseResult {
        failing(
            id,
            json!({"expect": "outcome", "of": format!("i-{id}")}),
            json!(expected),
            json!({"status": "failed", "code": "CAPABILITY_UNAVAILABLE", "invocationId": id}),
            &[("", &format!("expected {}, found object", json!(expected)))],
        )
    }

    #[test]
    fn one_bug_is_one_group_named_by_what_was_found() {
        let results = vec![unavailable("c", "pending"), unavailable("a", "pending"), unavailable("b", "pending")];
        let groups = group(&results);
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].cases, vec!["a", "b", "c"]);
        assert_eq!(groups[0].representative(), "a");
        assert_eq!(
            groups[0].title(),
            r#"3 cases (fail) first differ at `expect outcome`: (whole observation): expected "pending", found {"status": "failed", "code": "CAPABILITY_UNAVAILABLE"}"#
        );
    }

    #[test]
    fn different_codes_are_different_causes_and_different_numbers_are_not() {
        let code = |id: &str, found: &str| {
            failing(id, json!({"expect": "outcome", "of": "i1"}), json!({"code": "X"}), json!({"code": found}), &[("/code", &format!("expected \"X\", found {}", json!(found)))])
        };
        assert_eq!(group(&[code("a", "Y"), code("b", "Z")]).len(), 2);
        let number = |id: &str, found: u64| {
            failing(id, json!({"expect": "revision"}), json!(1), json!(found), &[("", "different number")])
        };
        assert_eq!(group(&[number("a", 2), number("b", 7)]).len(), 1);
        // An unexpected member is told apart by its value.
        let extra = |id: &str, found: &str| {
            failing(id, json!({"expect": "outcome", "of": "i1"}), json!({}), json!({"code": found}), &[("/code", "unexpected member")])
        };
        let groups = group(&[extra("a", "Y"), extra("b", "Z")]);
        assert_eq!(groups.len(), 2);
        assert!(groups[0].title().ends_with(r#"/code: unexpected member; found "Y""#), "{}", groups[0].title());
    }

    #[test]
    fn array_indices_are_one_pointer_and_the_step_kind_counts() {
        let at = |id: &str, index: usize, request: Value| {
            let mut items = vec![json!({"phase": "started"}); 3];
            items[index] = json!({"phase": "x"});
            let pointer = format!("/{index}/phase");
            failing(id, request, json!([]), Value::Array(items), &[(&pointer, "expected \"started\", found \"x\"")])
        };
        let events = json!({"expect": "events"});
        let groups = group(&[at("a", 0, events.clone()), at("b", 2, events), at("c", 1, json!({"expect": "notifications", "of": "s"}))]);
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].cases, vec!["a", "b"]);
        assert!(groups[0].title().contains("`expect events`: /*/phase"), "{}", groups[0].title());
        // A member named like a number is not an index.
        assert_eq!(generic_pointer("/0/1", Some(&json!({"0": [5, 6]})), None), "/0/*");
    }

    #[test]
    fn errored_reasons_group_by_class_and_ungrouped_verdicts_stay_out() {
        let errored = |id: &str, reason: &str| {
            let mut result = unavailable(id, "pending");
            result.verdict = Verdict::Errored;
            result.reason = Some(reason.into());
            result
        };
        let mut passed = unavailable("p", "pending");
        passed.verdict = Verdict::Xfail;
        let results = vec![
            errored("e1", "adapter failed at step 3: no response within 10000 ms\n  more"),
            errored("e2", "adapter failed at step 12: no response within 10000 ms"),
            unavailable("f", "pending"),
            passed,
        ];
        let groups = group(&results);
        assert_eq!(groups.len(), 2, "{groups:?}");
        assert_eq!(groups[0].cases, vec!["e1", "e2"], "a group of several cases comes before a case alone");
        assert_eq!(groups[0].title(), "2 cases (errored): adapter failed at step N: no response within N ms");
        assert_eq!((groups[1].cause.verdict, groups[1].cases.as_slice()), (Verdict::Fail, &["f".to_string()][..]));
    }

    #[test]
    fn a_fail_is_grouped_by_the_difference_that_makes_it_fail() {
        let mut result = unavailable("a", "pending");
        let mut recommended = result.differences[0].clone();
        recommended.strictness = "RECOMMENDED".into();
        recommended.request = json!({"expect": "events"});
        result.differences.insert(0, recommended);
        let cause = cause_of(&result).unwrap();
        assert!(matches!(&cause.first, First::Difference { at, .. } if at == "expect outcome"), "{cause:?}");
    }
}
