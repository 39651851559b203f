//! The abstract React host of the reference (`reference::rcip::react`, issue 17) on its own: the
//! points of its model of React that the `rcip.react` vectors rely on, checked directly against
//! the runtime it drives: Strict Mode ends with one binding (RCIP-LIFE-BIND-05), a suspended
//! transition publishes nothing until it commits (RCIP-LIFE-BIND-06), effects run children first
//! (PRJ-REACT-02), a server render runs no effect (RCIP-LIFE-SSR-04), unmount clears and unbinds
//! (RCIP-LIFE-CTX-06, CL-A08-5).

use std::cell::RefCell;
use std::rc::Rc;

use reference::choices::{Choice, Choices, Fault};
use reference::rcip::react::{CapabilityRender, Element, ElementKind, ReactHost};
use reference::rcip::{
    Answer, Definition, HandlerFn, HostValue, InvokeRequest, OutcomeBody, Runtime, RuntimeOptions,
};
use serde_json::{json, Value};

fn runtime() -> Runtime {
    let object = json!({ "type": "object" });
    let definition = Definition::from_json(&json!({
        "protocolVersion": "1.0",
        "application": { "id": "notes", "name": "Notes", "description": "A notes application" },
        "scopes": [
            { "id": "notes", "title": "Notes", "description": "The notes area" },
            { "id": "settings", "title": "Settings", "description": "The settings area" }
        ],
        "capabilities": [
            { "id": "notes.save", "title": "Save", "description": "Saves", "scopeIds": ["notes"],
              "effect": "write", "inputSchema": object, "outputSchema": object }
        ]
    }))
    .expect("a valid definition");
    let allow: reference::rcip::PolicyFn =
        Box::new(|_| Answer::Ready(Ok(HostValue::from_json(&json!({ "decision": "allow" })))));
    Runtime::new(
        &definition,
        RuntimeOptions {
            policy: Some(allow),
            confirmation_ttl_ms: None,
            create_id: None,
            on_event: None,
            choices: Choices::default(),
        },
    )
    .expect("a runtime")
}

fn element(key: &str, kind: ElementKind, children: Vec<Element>) -> Element {
    Element {
        key: key.into(),
        kind,
        children,
    }
}

fn provider(children: Vec<Element>) -> Vec<Element> {
    vec![element("p", ElementKind::Provider { runtime: 0 }, children)]
}

/// A capability component whose execute returns `{ state }`.
fn save(state: &str) -> Element {
    let output = json!({ "state": state });
    let execute: HandlerFn = Box::new(move |_| Answer::Ready(Ok(HostValue::from_json(&output))));
    element(
        "save",
        ElementKind::Capability(CapabilityRender {
            capability: "notes.save".into(),
            execute: Rc::new(RefCell::new(execute)),
            availability: None,
            revision: None,
        }),
        Vec::new(),
    )
}

fn owner(key: &str, scope: &str, children: Vec<Element>) -> Element {
    let context = HostValue::from_json(&json!({ "activeScopeIds": [scope] }));
    element(key, ElementKind::ContextOwner { context }, children)
}

/// The output of invoking `notes.save` now, or the failure code.
fn invoke(runtime: &mut Runtime) -> Value {
    let ticket = runtime.invoke(InvokeRequest {
        capability_id: "notes.save".into(),
        input: HostValue::from_json(&json!({})),
        invocation_id: None,
        signal: None,
    });
    match runtime.outcome(ticket).map(|o| &o.body) {
        Some(OutcomeBody::Succeeded { output }) => output.clone(),
        Some(OutcomeBody::Error(error)) => json!(error.code.as_str()),
        _ => Value::Null,
    }
}

fn active(runtime: &mut Runtime) -> Value {
    runtime.get_snapshot().json()["context"]["activeScopeIds"].clone()
}

#[test]
fn strict_mode_mount_ends_with_one_binding_and_unmount_removes_it() {
    let mut rt = runtime();
    let mut host = ReactHost::new(true, Choices::default());
    host.render(&provider(vec![save("a")]), false, &mut [&mut rt])
        .unwrap();
    assert_eq!(invoke(&mut rt), json!({ "state": "a" }));
    host.unmount(&mut [&mut rt]);
    assert_eq!(invoke(&mut rt), json!("CAPABILITY_UNBOUND"));
}

#[test]
fn a_suspended_transition_publishes_nothing_until_it_commits() {
    let mut rt = runtime();
    let mut host = ReactHost::new(false, Choices::default());
    host.render(&provider(vec![save("a")]), false, &mut [&mut rt])
        .unwrap();
    let suspended = provider(vec![
        save("b"),
        element("s", ElementKind::Suspend { on: "p1".into() }, vec![]),
    ]);
    host.render(&suspended, true, &mut [&mut rt]).unwrap();
    assert_eq!(invoke(&mut rt), json!({ "state": "a" }));
    host.resolve("p1", &mut [&mut rt]).unwrap();
    assert_eq!(invoke(&mut rt), json!({ "state": "b" }));
    // A suspension outside a transition is not part of the vocabulary.
    let sync = provider(vec![element(
        "s2",
        ElementKind::Suspend { on: "p2".into() },
        vec![],
    )]);
    assert!(host.render(&sync, false, &mut [&mut rt]).is_err());
}

#[test]
fn effects_run_children_first_so_the_outer_owner_publishes_last_on_mount() {
    let tree = provider(vec![owner(
        "outer",
        "notes",
        vec![owner("inner", "settings", vec![])],
    )]);
    let mut rt = runtime();
    ReactHost::new(false, Choices::default())
        .render(&tree, false, &mut [&mut rt])
        .unwrap();
    assert_eq!(active(&mut rt), json!(["notes"]));
    let mut rt = runtime();
    let alternate = Choices::only(&[Choice::ReactNestedOwnerInnerWins]);
    ReactHost::new(false, alternate)
        .render(&tree, false, &mut [&mut rt])
        .unwrap();
    assert_eq!(active(&mut rt), json!(["settings"]));
}

#[test]
fn a_server_render_runs_no_effect_and_hydration_commits() {
    let tree = provider(vec![owner("o", "notes", vec![save("a")])]);
    let mut rt = runtime();
    let mut host = ReactHost::new(false, Choices::default());
    assert!(
        host.hydrate(&tree, &mut [&mut rt]).is_err(),
        "hydrate needs server markup"
    );
    host.server_render(&tree, &mut [&mut rt]).unwrap();
    assert_eq!(invoke(&mut rt), json!("CAPABILITY_UNBOUND"));
    assert_eq!(active(&mut rt), json!([]));
    host.hydrate(&tree, &mut [&mut rt]).unwrap();
    assert_eq!(invoke(&mut rt), json!({ "state": "a" }));
    assert_eq!(active(&mut rt), json!(["notes"]));
}

#[test]
fn a_render_thrown_into_a_boundary_commits_nothing_below_it() {
    let mut rt = runtime();
    let mut host = ReactHost::new(false, Choices::default());
    let tree = provider(vec![element(
        "b",
        ElementKind::Boundary,
        vec![
            owner("o", "notes", vec![save("a")]),
            element("t", ElementKind::Throw, vec![]),
        ],
    )]);
    host.render(&tree, false, &mut [&mut rt]).unwrap();
    assert_eq!(host.boundary("b"), "caught");
    assert_eq!(invoke(&mut rt), json!("CAPABILITY_UNBOUND"));
    assert_eq!(active(&mut rt), json!([]));
}

/// The observations read only the element kind they name (vectors/README.md: `boundary` of a
/// boundary key, `hook-client` of a `useRcipClient` user): another element's key reads as absent.
#[test]
fn observations_name_only_their_own_kind_of_element() {
    let mut rt = runtime();
    let mut host = ReactHost::new(false, Choices::default());
    let tree = provider(vec![
        element("b", ElementKind::Boundary, vec![save("a")]),
        element("c", ElementKind::ClientUser, vec![]),
    ]);
    host.render(&tree, false, &mut [&mut rt]).unwrap();
    assert_eq!(host.boundary("b"), "clear");
    assert_eq!(host.boundary("save"), "none");
    assert_eq!(host.boundary("c"), "none");
    assert_eq!(host.hook_client("c"), Some(Some(0)));
    assert_eq!(host.hook_client("b"), None);
    assert_eq!(host.hook_client("save"), None);
}

/// The injected fault `react-context-merged` is the bug its catalog row names ("useRcipContext
/// adds its scopes to the published context instead of replacing it", against RCIP-LIFE-CTX-06):
/// two sibling owners leave both their scopes published, where the default host leaves the
/// last one's.
#[test]
fn the_context_merged_fault_adds_scopes_instead_of_replacing() {
    let tree = provider(vec![
        owner("a", "notes", vec![]),
        owner("b", "settings", vec![]),
    ]);
    let mut rt = runtime();
    let mut host = ReactHost::new(
        false,
        Choices::default().with_fault(Fault::ReactContextMerged),
    );
    host.render(&tree, false, &mut [&mut rt]).unwrap();
    let mut merged: Vec<String> = serde_json::from_value(active(&mut rt)).unwrap_or_default();
    merged.sort();
    assert_eq!(merged, ["notes", "settings"]);
    let mut rt = runtime();
    let mut host = ReactHost::new(false, Choices::default());
    host.render(&tree, false, &mut [&mut rt]).unwrap();
    assert_eq!(active(&mut rt).as_array().map(Vec::len), Some(1));
}
