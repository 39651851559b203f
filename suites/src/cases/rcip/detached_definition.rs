//! Cases of section `rcip.detachment`, slug `definition`: discovery metadata is detached from
//! caller-owned mutable data (RCIP-PROTO-LIFE-12) because the runtime copies contract metadata
//! (RCIP-LIFE-JSON-01). After `createRcipRuntime` the host rewrites members of the definition it
//! passed (step `mutate-definition`: the objects it handed to the `define*` helpers and the objects
//! they returned): a capability's title, tags, scope ids, input and output schemas, the application
//! and a scope. The snapshot, `listCapabilities`, input validation (CL-B03-1) and the output check
//! stay as created (a schema is rewritten before the bind that compiles it), also after a refresh,
//! so a cache taken before the write cannot hide a runtime that reads the caller's objects again.
//! A runtime that keeps the caller's schemas, tags or scope ids by reference fails.

use serde_json::{json, Value};

use super::support::*;
use crate::case::Case;
use crate::pattern::{contains, subset};

const DEFINITION: [&str; 2] = ["RCIP-PROTO-LIFE-12", "RCIP-LIFE-JSON-01"];

fn c(n: u32, description: &str) -> Case {
    case("detachment", "definition", n, description)
}

fn setup() -> Value {
    Setup::new(&notes()).policy(allow()).to_json()
}

/// The host sets the member at `pointer` of the definition it passed to the runtime.
fn mutate_definition(pointer: &str, value: Value) -> Value {
    json!({ "host": "mutate-definition", "pointer": pointer, "value": value })
}

/// Member `key` of capability `index` of the definition as the case passes it.
fn declared(index: usize, key: &str) -> Value {
    notes().to_json()["capabilities"][index][key].clone()
}

/// A snapshot (or fresh getSnapshot) whose entry for `id` holds `fields` among others.
fn snapshot_entry(of: Option<&str>, id: &str, fields: Value) -> Value {
    let mut entry = fields;
    entry["id"] = json!(id);
    expect_snapshot(
        of,
        subset(json!({ "capabilities": contains([subset(entry)], false) })),
    )
}

pub fn cases() -> Vec<Case> {
    // notes.list is capability 0 and notes.create capability 1 of `notes()`; scope 0 is "notes".
    let list_fields = || {
        json!({
            "title": declared(0, "title"),
            "tags": declared(0, "tags"),
            "scopeIds": declared(0, "scopeIds")
        })
    };
    vec![
        c(
            1,
            "Title and tags rewritten by the host after creation change no snapshot",
        )
        .requirements(&DEFINITION)
        .setup(setup())
        .steps([
            get_snapshot("s0"),
            mutate_definition("/capabilities/0/title", json!("Rewritten by the host")),
            mutate_definition("/capabilities/0/tags/0", json!("rewritten")),
            mutate_definition("/capabilities/0/tags/-", json!("added")),
            snapshot_entry(Some("s0"), "notes.list", list_fields()),
            refresh(),
            snapshot_entry(None, "notes.list", list_fields()),
        ]),
        c(
            2,
            "An input schema rewritten after creation changes no validation",
        )
        .requirements(&["RCIP-PROTO-LIFE-12", "RCIP-LIFE-JSON-01", "CL-B03-1"])
        .setup(setup())
        .steps([
            mutate_definition(
                "/capabilities/1/inputSchema/properties/text/type",
                json!("number"),
            ),
            mutate_definition("/capabilities/1/inputSchema/required/-", json!("extra")),
            bind("notes.create", "b1", returns(created())),
            invoke("i1", "notes.create", json!({ "text": "hello" })),
            expect_outcome("i1", succeeded("i1", "notes.create", created())),
            invoke("i2", "notes.create", json!({ "text": 5 })),
            expect_outcome("i2", failed("i2", "notes.create", "INPUT_INVALID")),
            refresh(),
            snapshot_entry(
                None,
                "notes.create",
                json!({ "inputSchema": declared(1, "inputSchema") }),
            ),
        ]),
        c(
            3,
            "Scope ids rewritten after creation change no listCapabilities filter",
        )
        .requirements(&["RCIP-PROTO-LIFE-12", "RCIP-LIFE-JSON-01", "CL-A03-4"])
        .setup(setup())
        .steps([
            mutate_definition("/capabilities/0/scopeIds/0", json!("settings")),
            refresh(),
            list("l1", Some(json!({ "scopeId": "settings" }))),
            expect_list("l1", &["settings.read"]),
            snapshot_entry(None, "notes.list", list_fields()),
        ]),
        c(
            4,
            "Application and scope rewritten after creation change no snapshot",
        )
        .requirements(&DEFINITION)
        .setup(setup())
        .steps([
            mutate_definition("/application/name", json!("Rewritten")),
            mutate_definition("/scopes/0/title", json!("Rewritten")),
            refresh(),
            expect_snapshot(
                None,
                subset(json!({
                    "application": notes().to_json()["application"].clone(),
                    "scopes": contains([notes().to_json()["scopes"][0].clone()], false)
                })),
            ),
        ]),
        c(
            5,
            "An output schema rewritten after creation changes no output check",
        )
        .requirements(&["RCIP-PROTO-LIFE-12", "RCIP-LIFE-JSON-01", "CL-A06-1"])
        .setup(setup())
        .steps([
            mutate_definition(
                "/capabilities/1/outputSchema/properties/id/type",
                json!("number"),
            ),
            mutate_definition("/capabilities/1/outputSchema/required/-", json!("extra")),
            bind("notes.create", "b1", returns(created())),
            invoke("i1", "notes.create", json!({ "text": "hello" })),
            expect_outcome("i1", succeeded("i1", "notes.create", created())),
            refresh(),
            snapshot_entry(
                None,
                "notes.create",
                json!({ "outputSchema": declared(1, "outputSchema") }),
            ),
        ]),
    ]
}
