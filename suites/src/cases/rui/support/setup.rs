//! Setups of the Rixx UI cases: the negotiated catalog (CL-D06: versioned id, a props schema in
//! the strict profile of CL-B19 per component, whether it takes children, which props hold action
//! requests), limits profiles (CL-D04) and the host action policy.

use serde_json::{json, Value};

use super::stream::Framing;

pub const CATALOG_ID: &str = "demo@1.0.0";

/// `Stack` (children, optional integer `gap`), `Text` (no children, required string `text`),
/// `Button` (no children, required `label`, action prop `onPress`) and `Box` (children, any
/// props: the carrier for limit and depth cases).
pub fn components() -> Value {
    json!({
        "Stack": {
            "props": {
                "type": "object",
                "properties": { "gap": { "type": "integer", "minimum": 0 } },
                "additionalProperties": false
            },
            "children": true
        },
        "Text": {
            "props": {
                "type": "object",
                "properties": { "text": { "type": "string" } },
                "required": ["text"],
                "additionalProperties": false
            },
            "children": false
        },
        "Button": {
            "props": {
                "type": "object",
                "properties": { "label": { "type": "string" }, "onPress": { "type": "object" } },
                "required": ["label"],
                "additionalProperties": false
            },
            "children": false,
            "actions": ["onPress"]
        },
        "Box": { "props": { "type": "object" }, "children": true }
    })
}

pub fn catalog() -> Value {
    json!({ "id": CATALOG_ID, "components": components() })
}

/// The default setup: this framing, the demo catalog, the implementation's own limits, a gated
/// action policy (the default).
pub fn setup(framing: Framing) -> Value {
    match framing.profile() {
        Some(name) => json!({ "framing": name, "catalog": catalog() }),
        // Framing-neutral (issue 15): the harness sets the framing it runs the case in.
        None => json!({ "catalog": catalog() }),
    }
}

/// The minimum limits profile of vectors/README.md, with some bounds replaced.
pub fn limits(overrides: &[(&str, u64)]) -> Value {
    let mut limits = json!({
        "maxIdLength": 64, "maxStringLength": 1024, "maxArrayLength": 64, "maxDepth": 16,
        "maxOperations": 64, "maxTransactionBytes": 65536
    });
    for (name, value) in overrides {
        limits[*name] = json!(value);
    }
    limits
}

pub fn setup_with_limits(framing: Framing, limits: Value) -> Value {
    let mut setup = setup(framing);
    setup["limits"] = limits;
    setup
}

pub fn setup_with_policy(framing: Framing, policy: Value) -> Value {
    let mut setup = setup(framing);
    setup["actionPolicy"] = policy;
    setup
}

/// A scripted action policy that settles every call with this decision.
pub fn scripted_decision(decision: Value) -> Value {
    json!({ "mode": "scripted", "settle": { "return": decision } })
}

/// An action request `{ capabilityId, input }` (CL-D06-4).
pub fn action(capability: &str, input: Value) -> Value {
    json!({ "capabilityId": capability, "input": input })
}
