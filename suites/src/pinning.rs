//! An expectation pins only what its sentences decide (issue 12 §2). Objects match exactly, so a
//! case about one thing easily pins a member that some other, weaker requirement decides: a case
//! about handler context also pins the initial context; a case about one outcome member pins the
//! `expiresAt` reading. This lint knows, for the members where that has happened, which
//! requirements decide them ([`DECIDERS`]); a REQUIRED check that pins such a member (matches it
//! with anything but `any`, `present`, `type` or an IMPL-DEFINED `one-of`) must cite one of its
//! deciders that is itself REQUIRED, or leave the member open, or be a separate check at the
//! deciders' own strictness.
//!
//! The table grows with every incidental pin found; members not listed are decided by the
//! requirement a case is about, which the general rule of `lint` (a REQUIRED check cites a
//! REQUIRED sentence) covers.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::case::Case;
use crate::register::Requirement;

/// When a row applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum When {
    Always,
    /// No `set-context` step comes before the check: the member shows the initial context.
    BeforeAnyContext,
    /// No `invoke` of the case passes a signal: the member shows a signal the caller never gave.
    WithoutCallerSignal,
    /// The member is matched as exactly `[]`.
    Empty,
}

/// A member of an observation and the requirements that decide its value.
struct Decider {
    observation: &'static str,
    /// JSON Pointer into the observation; `*` stands for every array item.
    pointer: &'static str,
    when: When,
    deciders: &'static [&'static str],
}

const DECIDERS: &[Decider] = &[
    Decider {
        observation: "outcome",
        pointer: "/confirmation/expiresAt",
        when: When::Always,
        deciders: &["PRJ-RCIP-CONF-02"],
    },
    Decider {
        observation: "handler-context",
        pointer: "/requestedAt",
        when: When::Always,
        deciders: &["PRJ-RCIP-EXEC-01"],
    },
    Decider {
        observation: "handler-context",
        pointer: "/semanticContext",
        when: When::BeforeAnyContext,
        deciders: &["PRJ-RCIP-CTX-01"],
    },
    Decider {
        observation: "handler-calls",
        pointer: "/*/semanticContext",
        when: When::BeforeAnyContext,
        deciders: &["PRJ-RCIP-CTX-01"],
    },
    Decider {
        observation: "policy-calls",
        pointer: "/*/semanticContext",
        when: When::BeforeAnyContext,
        deciders: &["PRJ-RCIP-CTX-01"],
    },
    Decider {
        observation: "snapshot",
        pointer: "/context",
        when: When::BeforeAnyContext,
        deciders: &["PRJ-RCIP-CTX-01"],
    },
    Decider {
        observation: "handler-context",
        pointer: "/signalAborted",
        when: When::WithoutCallerSignal,
        deciders: &["PRJ-RCIP-EXEC-02"],
    },
    Decider {
        observation: "handler-signal",
        pointer: "",
        when: When::WithoutCallerSignal,
        deciders: &["PRJ-RCIP-EXEC-02"],
    },
    Decider {
        observation: "notifications",
        pointer: "",
        when: When::Empty,
        deciders: &["PRJ-RCIP-SUB-01"],
    },
    Decider {
        observation: "outcome",
        pointer: "/validationIssues",
        when: When::Always,
        deciders: &["CL-B19-10"],
    },
];

/// Matchers that leave a member open, or list admissible alternatives (IMPL-DEFINED).
const OPEN: &[&str] = &["any", "present", "type", "one-of", "excludes"];

/// The patterns at `tokens` inside `pattern`, looking through `subset`, `unordered` and `one-of`.
fn at<'p>(pattern: &'p Value, tokens: &[&str], out: &mut Vec<&'p Value>) {
    let matcher = pattern.get("$match").and_then(Value::as_str);
    match matcher {
        Some("subset") => {
            if let Some(fields) = pattern.get("fields") {
                at(fields, tokens, out);
            }
            return;
        }
        Some("unordered") => {
            if let (Some(items), Some(("*", rest))) = (
                pattern.get("items").and_then(Value::as_array),
                tokens.split_first().map(|(h, r)| (*h, r)),
            ) {
                for item in items {
                    at(item, rest, out);
                }
            }
            return;
        }
        Some("one-of") if !tokens.is_empty() => {
            for option in pattern
                .get("options")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                at(option, tokens, out);
            }
            return;
        }
        _ => {}
    }
    let Some((head, rest)) = tokens.split_first() else {
        out.push(pattern);
        return;
    };
    match (pattern, *head) {
        (Value::Array(items), "*") => items.iter().for_each(|item| at(item, rest, out)),
        (Value::Object(members), key) if matcher.is_none() => {
            if let Some(member) = members.get(key) {
                at(member, rest, out);
            }
        }
        _ => {}
    }
}

fn pins(pattern: &Value) -> bool {
    !pattern
        .get("$match")
        .and_then(Value::as_str)
        .is_some_and(|m| OPEN.contains(&m))
}

/// Every REQUIRED check of `case` that pins a member only weaker (or uncited) requirements decide.
pub fn pinned_beyond_sentences(case: &Case, by_id: &BTreeMap<&str, &Requirement>) -> Vec<String> {
    let mut errors = Vec::new();
    let caller_signal = case.steps.iter().any(|s| {
        s.get("client").and_then(Value::as_str) == Some("invoke") && s.get("signal").is_some()
    });
    let mut context_set = false;
    for (index, step) in case.steps.iter().enumerate() {
        if step.get("host").and_then(Value::as_str) == Some("set-context") {
            context_set = true;
        }
        // Profile react: a client render that mounts a context owner publishes its context
        // (CL-A08-4); a server render runs no effect and publishes nothing.
        let client_render = matches!(
            step.get("react").and_then(Value::as_str),
            Some("render" | "hydrate")
        );
        if client_render
            && step
                .get("tree")
                .is_some_and(|tree| tree.to_string().contains(r#""kind":"context-owner""#))
        {
            context_set = true;
        }
        let Some(observation) = step.get("expect").and_then(Value::as_str) else {
            continue;
        };
        let strictness = step
            .get("strictness")
            .and_then(Value::as_str)
            .unwrap_or(case.strictness.as_str());
        if !matches!(strictness, "REQUIRED" | "PROFILE") {
            continue;
        }
        let cited: Vec<&str> = match step.get("requirements").and_then(Value::as_array) {
            Some(own) if !own.is_empty() => own.iter().filter_map(Value::as_str).collect(),
            _ => case.requirements.iter().map(String::as_str).collect(),
        };
        let Some(pattern) = step.get("is") else {
            continue;
        };
        for row in DECIDERS.iter().filter(|row| row.observation == observation) {
            let applies = match row.when {
                When::Always | When::Empty => true,
                When::BeforeAnyContext => !context_set,
                When::WithoutCallerSignal => !caller_signal,
            };
            if !applies {
                continue;
            }
            let tokens: Vec<&str> = row.pointer.split('/').skip(1).collect();
            let mut found = Vec::new();
            at(pattern, &tokens, &mut found);
            let pinned = found.iter().any(|p| match row.when {
                When::Empty => p.as_array().is_some_and(Vec::is_empty),
                _ => pins(p),
            });
            let forced = cited.iter().any(|id| {
                row.deciders.contains(id)
                    && by_id
                        .get(id)
                        .is_some_and(|r| matches!(r.strictness.as_str(), "REQUIRED" | "PROFILE"))
            });
            if pinned && !forced {
                errors.push(format!(
                    "case {}: step {} pins {}{} at {strictness}, which only {} decide(s): match it with any/present, \
                     cite a REQUIRED decider, or check it in its own step at the decider's strictness",
                    case.id,
                    index + 1,
                    observation,
                    if row.pointer.is_empty() { String::new() } else { format!(" {}", row.pointer) },
                    row.deciders.join(", ")
                ));
            }
        }
    }
    errors
}
