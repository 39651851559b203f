//! The Rixx UI 0.1 case builders (issue 4): one module per section of `vectors/rui/`, written
//! from the spec text (suites/spec/004_b82a472ccae36e7c.txt) and CLARIFICATIONS section D, with the
//! stable codes and project decisions of suites/register/project-rui.toml. `support` holds the
//! shared kit: records, framings, observations and setups.

pub mod support;

pub mod abort;
pub mod actions;
pub mod catalog;
pub mod commit;
pub mod data;
pub mod delete;
pub mod framing_json_seq;
pub mod framing_jsonl;
pub mod framing_sse;
pub mod framing_websocket;
pub mod invariants;
pub mod limits;
pub mod multi_transaction;
pub mod node;
pub mod records;
pub mod recovery;
pub mod transaction;

use crate::case::Section;

/// Every rui section, in file order.
pub fn sections() -> Vec<Section> {
    vec![
        framing_jsonl::section(),
        framing_sse::section(),
        framing_websocket::section(),
        framing_json_seq::section(),
        records::section(),
        transaction::section(),
        node::section(),
        data::section(),
        delete::section(),
        commit::section(),
        abort::section(),
        invariants::section(),
        limits::section(),
        recovery::section(),
        catalog::section(),
        actions::section(),
        multi_transaction::section(),
    ]
}
