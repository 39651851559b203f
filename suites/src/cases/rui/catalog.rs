//! Section `rui.catalog`: components and props validate against the negotiated catalog
//! (RUI-INV-07, CL-D06-1..4): a versioned catalog id, a props schema per component in the strict
//! profile of CL-B19 (no coercion, no defaults), whether it takes children, and action props that
//! hold `{ capabilityId, input }`. An unknown component fails catalog validation (RUI-RECOV-07,
//! CL-D05-9). Catalog configuration errors throw at creation (PRJ-RUI-CAT-04).

use serde_json::{json, Value};

use super::support::observe::{committed, logs, n, nodes, State};
use super::support::setup::{action, components, setup};
use super::support::stream::{Framing, Script};
use super::support::tuples::Tx;
use super::support::{case, code, failing, Found, Prior};
use crate::case::{Case, Section};

const SECTION: &str = "catalog";
const F: Framing = Framing::Any;

pub fn section() -> Section {
    let button = |on_press: Value| json!({ "label": "Save", "onPress": on_press });
    Section::new("rui.catalog", "Catalog validation", "suites::cases::rui::catalog").cases(vec![
        valid_components(),
        rejects("unknown-component", "a component the catalog does not declare fails the transaction",
            leaf("Slider", json!({ "value": 1 })), code::UNKNOWN_COMPONENT, &["RUI-RECOV-07", "CL-D05-9"]),
        rejects("component-name-case-sensitive", "component names are case-sensitive: text is not Text",
            leaf("text", json!({ "text": "x" })), code::UNKNOWN_COMPONENT, &["RUI-RECOV-07", "CL-D05-9"]),
        unknown_component_unreachable(),
        rejects("props-missing-required", "props missing a required member fail the schema",
            leaf("Text", json!({})), code::PROPS_INVALID, &["CL-D06-2"]),
        rejects("props-wrong-type", "a prop of the wrong JSON type fails the schema",
            leaf("Text", json!({ "text": 5 })), code::PROPS_INVALID, &["CL-D06-2"]),
        rejects("props-no-coercion", "a numeric string is not coerced to an integer prop",
            leaf("Stack", json!({ "gap": "4" })), code::PROPS_INVALID, &["CL-D06-2"]),
        rejects("props-additional-property", "a prop the schema forbids fails validation",
            leaf("Text", json!({ "text": "x", "color": "red" })), code::PROPS_INVALID, &["CL-D06-2"]),
        rejects("props-below-minimum", "a prop below the schema minimum fails validation",
            leaf("Stack", json!({ "gap": -1 })), code::PROPS_INVALID, &["CL-D06-2"]),
        no_defaults_applied(),
        rejects("action-prop-missing-input", "an action prop without input is not an action request",
            leaf("Button", button(json!({ "capabilityId": "notes.save" }))), code::PROPS_INVALID, &["CL-D06-4"]),
        rejects("action-prop-capability-not-string", "an action request needs a string capabilityId",
            leaf("Button", button(json!({ "capabilityId": 7, "input": {} }))), code::PROPS_INVALID, &["CL-D06-4"]),
        rejects("action-prop-not-object", "an action prop holding a string is not an action request",
            leaf("Button", button(json!("notes.save"))), code::PROPS_INVALID, &["CL-D06-4"]),
        children_not_allowed("Text", json!({ "text": "x" }), "children-not-allowed-text", "a Text node with a child fails: Text takes no children"),
        children_not_allowed("Button", json!({ "label": "Go" }), "children-not-allowed-button", "a Button node with a child fails: Button takes no children"),
        other_catalog_negotiated(),
        prerelease_catalog_version(),
        creation_throws("catalog-id-unversioned", "a catalog id without @semver is a configuration error", json!({ "id": "demo", "components": components() })),
        creation_throws("catalog-id-partial-version", "a catalog id with a two-part version is a configuration error", json!({ "id": "demo@1.0", "components": components() })),
        // `name@semver` (CL-D06-1, RUI-VER-04): the version is a Semantic Versioning 2.0.0
        // version, whose sections 2, 9 and 10 forbid leading zeroes and empty identifiers.
        creation_throws("catalog-id-leading-zero", "a version with a leading zero is not semver", json!({ "id": "demo@01.0.0", "components": components() })),
        creation_throws("catalog-id-empty-prerelease", "an empty pre-release is not semver", json!({ "id": "demo@1.0.0-", "components": components() })),
        creation_throws("catalog-id-prerelease-leading-zero", "a numeric pre-release with a leading zero is not semver", json!({ "id": "demo@1.0.0-01", "components": components() })),
        creation_throws("catalog-id-empty-build", "empty build metadata is not semver", json!({ "id": "demo@1.0.0+", "components": components() })),
        creation_throws("catalog-id-prerelease-character", "a pre-release identifier with an underscore is not semver", json!({ "id": "demo@1.0.0-rc_1", "components": components() })),
        creation_throws("catalog-id-empty-name", "a catalog id needs a name before @", json!({ "id": "@1.0.0", "components": components() })),
        creation_throws("props-schema-format-keyword", "a props schema using format is a configuration error",
            json!({ "id": "demo@1.0.0", "components": { "Email": { "props": { "type": "object", "properties": { "to": { "type": "string", "format": "email" } } }, "children": false } } })),
        creation_throws("props-schema-unknown-keyword", "a props schema with an unknown keyword is a configuration error",
            json!({ "id": "demo@1.0.0", "components": { "Card": { "props": { "type": "object", "widget": "card" }, "children": true } } })),
    ])
}

/// Root `r` (Stack) with one child `a` of this component: a transaction whose only problem is `a`.
fn leaf(component: &str, props: Value) -> Vec<Value> {
    Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &["a"])
        .node("a", component, props, &[])
        .commit(1, "r")
}

fn registered(code: &str) -> &'static str {
    match code {
        c if c == code::UNKNOWN_COMPONENT => "PRJ-RUI-CAT-01",
        c if c == code::PROPS_INVALID => "PRJ-RUI-CAT-02",
        _ => "PRJ-RUI-CAT-03",
    }
}

fn rejects(slug: &str, description: &str, tx: Vec<Value>, code: &str, extra: &[&str]) -> Case {
    let mut requirements = vec!["RUI-INV-07", "CL-D02-8", registered(code), "RUI-RECOV-06"];
    requirements.extend_from_slice(extra);
    case(SECTION, slug, 1, F, description, &requirements).steps(failing(
        F,
        Prior::Empty,
        &tx,
        "t1",
        json!(code),
        Found::AtOrAfter(2),
    ))
}

fn valid_components() -> Case {
    let request = action("notes.save", json!({ "id": 7 }));
    let mut s = Script::new(F);
    s.records(
        &Tx::begin("t1", 0)
            .node("r", "Stack", json!({ "gap": 0 }), &["t", "b", "x"])
            .node("t", "Text", json!({ "text": "hi" }), &[])
            .node(
                "b",
                "Button",
                json!({ "label": "Save", "onPress": request }),
                &[],
            )
            .node("x", "Box", json!({ "free": ["form", 1] }), &[])
            .commit(1, "r"),
    );
    s.end();
    let state = State::new(
        1,
        "r",
        nodes(vec![
            ("r", n("Stack", json!({ "gap": 0 }), &["t", "b", "x"])),
            ("t", n("Text", json!({ "text": "hi" }), &[])),
            (
                "b",
                n(
                    "Button",
                    json!({ "label": "Save", "onPress": request }),
                    &[],
                ),
            ),
            ("x", n("Box", json!({ "free": ["form", 1] }), &[])),
        ]),
        json!({}),
    );
    s.extend(state.expect());
    s.extend(logs(vec![committed("t1", 1)], vec![], vec![]));
    case(
        SECTION,
        "valid-components",
        1,
        F,
        "nodes whose components and props the catalog accepts commit",
        &["RUI-INV-07", "CL-D06-1", "CL-D06-2", "CL-D06-3", "CL-D06-4"],
    )
    .steps(s.steps())
}

fn unknown_component_unreachable() -> Case {
    let tx = Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &[])
        .node("x", "Slider", json!({}), &[])
        .commit(1, "r");
    case(
        SECTION,
        "unknown-component-unreachable",
        1,
        F,
        "an unreachable node with an unknown component still fails",
        &["RUI-INV-07", "RUI-RECOV-07", "CL-D05-9", "PRJ-RUI-CAT-01"],
    )
    .steps(failing(
        F,
        Prior::Empty,
        &tx,
        "t1",
        json!(code::UNKNOWN_COMPONENT),
        Found::AtOrAfter(2),
    ))
}

fn no_defaults_applied() -> Case {
    let mut catalog = json!({ "id": "defaults@1.0.0", "components": components() });
    catalog["components"]["Stack"]["props"]["properties"]["gap"]["default"] = json!(8);
    let mut s = Script::new(F);
    s.records(
        &Tx::begin("t1", 0)
            .node("r", "Stack", json!({}), &[])
            .commit(1, "r"),
    );
    s.end();
    s.extend(State::single("r", "Stack", json!({})).expect());
    s.extend(logs(vec![committed("t1", 1)], vec![], vec![]));
    let mut setup = setup(F);
    setup["catalog"] = catalog;
    case(
        SECTION,
        "no-defaults-applied",
        1,
        F,
        "a schema default is never inserted into committed props",
        &["CL-D06-2", "RUI-INV-07"],
    )
    .setup(setup)
    .steps(s.steps())
}

fn children_not_allowed(component: &str, props: Value, slug: &str, description: &str) -> Case {
    let tx = Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &["p"])
        .node("c", "Text", json!({ "text": "child" }), &[])
        .node("p", component, props, &["c"])
        .commit(1, "r");
    case(
        SECTION,
        slug,
        1,
        F,
        description,
        &["RUI-INV-07", "CL-D06-3", "PRJ-RUI-CAT-03", "RUI-RECOV-06"],
    )
    .steps(failing(
        F,
        Prior::Empty,
        &tx,
        "t1",
        json!(code::CHILDREN_NOT_ALLOWED),
        Found::AtOrAfter(3),
    ))
}

fn other_catalog_negotiated() -> Case {
    let mut s = setup(F);
    s["catalog"] = json!({ "id": "cards@2.0.0", "components": { "Card": { "props": { "type": "object" }, "children": true } } });
    let tx = Tx::begin("t1", 0)
        .node("r", "Stack", json!({}), &[])
        .commit(1, "r");
    case(
        SECTION,
        "validates-against-negotiated-catalog",
        1,
        F,
        "a component of another catalog is unknown to this runtime",
        &["RUI-INV-07", "CL-D06-1", "RUI-RECOV-07", "PRJ-RUI-CAT-01"],
    )
    .setup(s)
    .steps(failing(
        F,
        Prior::Empty,
        &tx,
        "t1",
        json!(code::UNKNOWN_COMPONENT),
        Found::AtOrAfter(1),
    ))
}

fn prerelease_catalog_version() -> Case {
    let mut s = setup(F);
    s["catalog"]["id"] = json!("demo@2.1.0-rc.1+build.5");
    let mut script = Script::new(F);
    script.records(
        &Tx::begin("t1", 0)
            .node("r", "Stack", json!({}), &[])
            .commit(1, "r"),
    );
    script.end();
    script.extend(State::single("r", "Stack", json!({})).expect());
    script.extend(logs(vec![committed("t1", 1)], vec![], vec![]));
    case(
        SECTION,
        "catalog-id-prerelease-version",
        1,
        F,
        "a catalog id with pre-release and build semver parts works",
        &["CL-D06-1", "PRJ-RUI-CAT-04"],
    )
    .setup(s)
    .steps(script.steps())
}

fn creation_throws(slug: &str, description: &str, catalog: Value) -> Case {
    let versioning = slug.starts_with("catalog-id-");
    let mut s = setup(F);
    s["catalog"] = catalog;
    s["creation"] = json!("throws");
    case(
        SECTION,
        slug,
        1,
        F,
        description,
        if versioning {
            &["CL-D06-1", "CL-D06-2", "PRJ-RUI-CAT-04", "RUI-VER-04"][..]
        } else {
            &["CL-D06-1", "CL-D06-2", "PRJ-RUI-CAT-04"][..]
        },
    )
    .setup(s)
}
