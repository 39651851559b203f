//! The shared kit of the Rixx UI case builders: records (`tuples`), framings and frame counting
//! (`stream`), observations (`observe`), setups (`setup`), the stream shapes the framing sections
//! share (`framing`), the stable codes of CL-D08, and the committed baseline most failure cases
//! start from.

pub mod framing;
pub mod observe;
pub mod setup;
pub mod stream;
pub mod tuples;

use serde_json::{json, Value};

use crate::case::Case;
use observe::{committed, n, nodes, outside, State};
use stream::{Framing, Script};
use tuples::Tx;

/// The stable codes of CL-D08, as registered in suites/register/project-rui.toml.
pub mod code {
    pub const FRAME_NOT_JSON: &str = "FRAME_NOT_JSON";
    pub const FRAME_TRUNCATED: &str = "FRAME_TRUNCATED";
    pub const RECORD_OUTSIDE_TRANSACTION: &str = "RECORD_OUTSIDE_TRANSACTION";
    pub const RECORD_INVALID: &str = "RECORD_INVALID";
    pub const UNKNOWN_OPERATION: &str = "UNKNOWN_OPERATION";
    pub const SEQUENCE_GAP: &str = "SEQUENCE_GAP";
    pub const STALE_BASE_REVISION: &str = "STALE_BASE_REVISION";
    pub const REVISION_MISMATCH: &str = "REVISION_MISMATCH";
    pub const DUPLICATE_NODE: &str = "DUPLICATE_NODE";
    pub const ROOT_MISSING: &str = "ROOT_MISSING";
    pub const CHILD_UNRESOLVED: &str = "CHILD_UNRESOLVED";
    pub const GRAPH_CYCLE: &str = "GRAPH_CYCLE";
    pub const DUPLICATE_CHILD: &str = "DUPLICATE_CHILD";
    pub const LIMIT_ID_LENGTH: &str = "LIMIT_ID_LENGTH";
    pub const LIMIT_STRING_LENGTH: &str = "LIMIT_STRING_LENGTH";
    pub const LIMIT_ARRAY_LENGTH: &str = "LIMIT_ARRAY_LENGTH";
    pub const LIMIT_DEPTH: &str = "LIMIT_DEPTH";
    pub const LIMIT_OPERATIONS: &str = "LIMIT_OPERATIONS";
    pub const LIMIT_TRANSACTION_BYTES: &str = "LIMIT_TRANSACTION_BYTES";
    pub const UNKNOWN_COMPONENT: &str = "UNKNOWN_COMPONENT";
    pub const PROPS_INVALID: &str = "PROPS_INVALID";
    pub const CHILDREN_NOT_ALLOWED: &str = "CHILDREN_NOT_ALLOWED";
    pub const DATA_PARENT_MISSING: &str = "DATA_PARENT_MISSING";
    pub const POINTER_INVALID: &str = "POINTER_INVALID";
    pub const DELETE_ABSENT: &str = "DELETE_ABSENT";
    pub const FRAME_INVALID: &str = "FRAME_INVALID";
    pub const INTERRUPTED: &str = "INTERRUPTED";
    pub const SUPERSEDED_BY_BEGIN: &str = "SUPERSEDED_BY_BEGIN";
    pub const POLICY_DENIED: &str = "POLICY_DENIED";
    pub const ACTION_NOT_FOUND: &str = "ACTION_NOT_FOUND";
    pub const POLICY_EVALUATION_FAILED: &str = "POLICY_EVALUATION_FAILED";
}

/// A case `rui.<section>.<slug>.<serial>` of this framing: its profile and default setup.
pub fn case(
    section: &str,
    slug: &str,
    serial: u32,
    framing: Framing,
    description: &str,
    requirements: &[&str],
) -> Case {
    let profiles: Vec<&str> = framing.profile().into_iter().collect();
    Case::new(format!("rui.{section}.{slug}.{serial:03}"), description)
        .requirements(requirements)
        .profiles(&profiles)
        .setup(setup::setup(framing))
}

/// The baseline transaction `t0`: root `r` (Stack) with child `a` (Text "hello"), data
/// `{"title": "Home"}`, committed as revision 1. Five records, frames 0..=4 when fed first.
pub fn base_tx() -> Vec<Value> {
    Tx::begin("t0", 0)
        .node("r", "Stack", json!({}), &["a"])
        .node("a", "Text", json!({ "text": "hello" }), &[])
        .data("/title", json!("Home"))
        .commit(1, "r")
}

/// What `base_tx` commits.
pub fn base_state() -> State {
    State::new(
        1,
        "r",
        nodes(vec![
            ("r", n("Stack", json!({}), &["a"])),
            ("a", n("Text", json!({ "text": "hello" }), &[])),
        ]),
        json!({ "title": "Home" }),
    )
}

/// A well-formed transaction `t1` exercising every record kind that stages something, with
/// 2-, 3- and 4-byte UTF-8 characters in props and data: what the framing cases carry.
pub fn sample_tx() -> Vec<Value> {
    Tx::begin("t1", 0)
        .node("r", "Stack", json!({ "gap": 4 }), &["a", "b"])
        .node(
            "a",
            "Text",
            json!({ "text": "h\u{e9}llo \u{65e5}\u{672c} \u{1f600}" }),
            &[],
        )
        .node("b", "Button", sample_button_props(), &[])
        .data("/title", json!("\u{dc}n\u{ef}code \u{2713}"))
        .commit(1, "r")
}

fn sample_button_props() -> Value {
    json!({ "label": "Go", "onPress": setup::action("notes.save", json!({ "id": 1 })) })
}

/// What `sample_tx` commits.
pub fn sample_state() -> State {
    State::new(
        1,
        "r",
        nodes(vec![
            ("r", n("Stack", json!({ "gap": 4 }), &["a", "b"])),
            (
                "a",
                n(
                    "Text",
                    json!({ "text": "h\u{e9}llo \u{65e5}\u{672c} \u{1f600}" }),
                    &[],
                ),
            ),
            ("b", n("Button", sample_button_props(), &[])),
        ]),
        json!({ "title": "\u{dc}n\u{ef}code \u{2713}" }),
    )
}

/// Where a failing transaction starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prior {
    /// A fresh runtime (revision 0).
    Empty,
    /// `base_tx` committed first (revision 1).
    Base,
}

/// When a failure is found, which decides what happens to the records after the offending one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// Found at the record with this index in the transaction, which is discarded at once:
    /// every later record is rejected as outside a transaction (CL-D09-4).
    Discards(usize),
    /// Found at the record with this index or only at commit (PRJ-RUI-TX-08): the later
    /// records are either all rejected as outside a transaction or not at all.
    AtOrAfter(usize),
    /// As `AtOrAfter`, where which record fails depends on a reading left open: found at one of
    /// the records with these indexes, or only at commit.
    AtAnyOrAfter(&'static [usize]),
}

/// The steps of a case in which `tx` (transaction `tx_id`) fails with `code` (a code, or a
/// `one-of` pattern over codes) after `prior`: the stream ends, the committed graph, data and
/// revision are those of `prior`, and the logs are exact.
pub fn failing(
    framing: Framing,
    prior: Prior,
    tx: &[Value],
    tx_id: &str,
    code: Value,
    found: Found,
) -> Vec<Value> {
    match prior {
        Prior::Empty => failing_after(
            framing,
            &[],
            Vec::new(),
            State::empty(),
            tx,
            tx_id,
            code,
            found,
        ),
        Prior::Base => failing_after(
            framing,
            &[base_tx()],
            vec![committed("t0", 1)],
            base_state(),
            tx,
            tx_id,
            code,
            found,
        ),
    }
}

/// As `failing`, after `prior` transactions that give `prior_results` and commit `state`.
#[allow(clippy::too_many_arguments)]
pub fn failing_after(
    framing: Framing,
    prior: &[Vec<Value>],
    prior_results: Vec<Value>,
    state: State,
    tx: &[Value],
    tx_id: &str,
    code: Value,
    found: Found,
) -> Vec<Value> {
    let mut script = Script::new(framing);
    for records in prior {
        script.records(records);
    }
    let frames = script.records(tx);
    script.end();
    let mut transactions = prior_results;
    transactions.push(json!({ "transactionId": tx_id, "result": "rejected", "code": code }));
    script.extend(state.expect());
    // Several accepted codes (a `one-of`) make this check IMPL-DEFINED; the case names why.
    let alternatives = code.get("$match").is_some();
    let results = observe::expect("transactions", Value::Array(transactions));
    script.push(if alternatives {
        observe::strict(results, crate::case::Strictness::ImplDefined)
    } else {
        results
    });
    script.push(observe::expect("quarantine", json!([])));
    match found {
        Found::Discards(index) => {
            script.push(observe::expect(
                "rejections",
                Value::Array(outside(&frames[index + 1..])),
            ));
        }
        Found::AtOrAfter(index) => {
            script.push(observe::rejections_early_or_late(
                Vec::new(),
                &frames[index + 1..],
            ));
        }
        Found::AtAnyOrAfter(indexes) => {
            let tails: Vec<&[usize]> = indexes.iter().map(|index| &frames[index + 1..]).collect();
            script.push(observe::rejections_at_any_or_late(Vec::new(), &tails));
        }
    }
    script.steps()
}
