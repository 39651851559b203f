//! What the decision callback may answer (CL-C01-2/4, CL-C04-2): in `decide`, text
//! (`{ "text": string }`) or one batch of 1..N actions (`{ "actions": [{ capabilityId, input,
//! delay? }] }`); anything else is malformed, and a batch over the bound is refused whole. In
//! `summarize` only text counts: actions or anything else are ignored, never executed.
//!
//! Choices where the texts are silent: an empty batch is malformed (C01 says 1..N); an item that is
//! not an object, lacks a string capability id or an input, carries an unknown delay symbol or any
//! other member makes the whole answer malformed (PRJ-ASSIST-BATCH-01/02); an answer holding both
//! text and actions is malformed. Malformedness is checked before the bound.

use serde_json::{Map, Value};

use super::config::Delay;

/// One proposed action of a batch.
#[derive(Debug, Clone, PartialEq)]
pub struct ProposedAction {
    pub capability_id: String,
    pub input: Value,
    /// The pause after this action and before the next (PRJ-ASSIST-FMT-02).
    pub delay: Option<Delay>,
}

/// A well-formed decide answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Proposal {
    Text(String),
    Batch(Vec<ProposedAction>),
}

/// Why a decide answer runs nothing (CL-C01-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerError {
    Malformed,
    OverBound { actions: usize, bound: usize },
}

/// Reads a decide answer against the declared bound.
pub fn read_decide(answer: &Value, bound: usize) -> Result<Proposal, AnswerError> {
    read_decide_with(answer, bound, false)
}

/// [`read_decide`]; with `unknown_delay_ignored` (the alternate of PRJ-ASSIST-BATCH-02,
/// RECOMMENDED), a `delay` that is not one of the three symbols is read as no delay instead of
/// making the answer malformed.
pub fn read_decide_with(
    answer: &Value,
    bound: usize,
    unknown_delay_ignored: bool,
) -> Result<Proposal, AnswerError> {
    let object = answer.as_object().ok_or(AnswerError::Malformed)?;
    if object.len() != 1 {
        return Err(AnswerError::Malformed);
    }
    if let Some(text) = object.get("text") {
        return text
            .as_str()
            .map(|t| Proposal::Text(t.to_string()))
            .ok_or(AnswerError::Malformed);
    }
    let items = object
        .get("actions")
        .and_then(Value::as_array)
        .ok_or(AnswerError::Malformed)?;
    if items.is_empty() {
        return Err(AnswerError::Malformed);
    }
    let actions = items
        .iter()
        .map(|item| read_action(item, unknown_delay_ignored))
        .collect::<Option<Vec<_>>>()
        .ok_or(AnswerError::Malformed)?;
    if actions.len() > bound {
        return Err(AnswerError::OverBound {
            actions: actions.len(),
            bound,
        });
    }
    Ok(Proposal::Batch(actions))
}

fn read_action(item: &Value, unknown_delay_ignored: bool) -> Option<ProposedAction> {
    let object: &Map<String, Value> = item.as_object()?;
    if object
        .keys()
        .any(|k| !matches!(k.as_str(), "capabilityId" | "input" | "delay"))
    {
        return None;
    }
    let capability_id = object.get("capabilityId")?.as_str()?.to_string();
    let input = object.get("input")?.clone();
    let delay = match object.get("delay") {
        None => None,
        Some(symbol) if unknown_delay_ignored => symbol.as_str().and_then(Delay::parse),
        Some(symbol) => Some(Delay::parse(symbol.as_str()?)?),
    };
    Some(ProposedAction {
        capability_id,
        input,
        delay,
    })
}

/// Reads a summarize answer: its text, or `None` for anything else (actions are ignored, CL-C04-2).
pub fn read_summarize(answer: &Value) -> Option<String> {
    match read_decide(answer, usize::MAX) {
        Ok(Proposal::Text(text)) => Some(text),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn text_and_batches() {
        assert_eq!(
            read_decide(&json!({ "text": "hi" }), 8),
            Ok(Proposal::Text("hi".into()))
        );
        let batch = json!({ "actions": [
            { "capabilityId": "a.b", "input": { "x": 1 }, "delay": "short" },
            { "capabilityId": "c", "input": [] }
        ] });
        assert_eq!(
            read_decide(&batch, 2),
            Ok(Proposal::Batch(vec![
                ProposedAction {
                    capability_id: "a.b".into(),
                    input: json!({ "x": 1 }),
                    delay: Some(Delay::Short)
                },
                ProposedAction {
                    capability_id: "c".into(),
                    input: json!([]),
                    delay: None
                },
            ]))
        );
        assert_eq!(
            read_decide(&batch, 1),
            Err(AnswerError::OverBound {
                actions: 2,
                bound: 1
            })
        );
    }

    // CL-C01-4, PRJ-ASSIST-BATCH-01/02: every malformed shape is refused whole.
    #[test]
    fn malformed_answers() {
        for answer in [
            json!(42),
            json!("text"),
            json!(null),
            json!({}),
            json!({ "text": 5 }),
            json!({ "text": "a", "actions": [] }),
            json!({ "actions": [] }),
            json!({ "actions": {} }),
            json!({ "actions": [7] }),
            json!({ "actions": [{ "input": {} }] }),
            json!({ "actions": [{ "capabilityId": "a" }] }),
            json!({ "actions": [{ "capabilityId": 3, "input": {} }] }),
            json!({ "actions": [{ "capabilityId": "a", "input": {}, "delay": "forever" }] }),
            json!({ "actions": [{ "capabilityId": "a", "input": {}, "delay": 250 }] }),
            json!({ "actions": [{ "capabilityId": "a", "input": {}, "extra": 1 }] }),
            json!({ "actions": [{ "capabilityId": "a", "input": {} }, 7] }),
        ] {
            assert_eq!(
                read_decide(&answer, 8),
                Err(AnswerError::Malformed),
                "{answer}"
            );
        }
    }

    // CL-C04-2: summarize keeps text only.
    #[test]
    fn summarize_text_only() {
        assert_eq!(
            read_summarize(&json!({ "text": "done" })),
            Some("done".into())
        );
        assert_eq!(
            read_summarize(&json!({ "actions": [{ "capabilityId": "a", "input": {} }] })),
            None
        );
        assert_eq!(read_summarize(&json!(1)), None);
    }
}
