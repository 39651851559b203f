//! Section `rcip.react` (profile `react`, issue 17): the React entry of CLARIFICATIONS A08 driven
//! through the abstract component tree of vectors/README.md ("React host"). Written from the
//! sentences it cites: RCIP-PROTO-SURF-12 (RcipProvider, useRcipContext, useRcipCapability),
//! RCIP-PROTO-SURF-13 (useRcipClient), RCIP-LIFE-BIND-05 (Strict Mode setup/cleanup),
//! RCIP-LIFE-BIND-06 (handlers update after committed renders; an abandoned render publishes
//! nothing), RCIP-LIFE-CTX-05/06 (one owner per runtime; nested owners overwrite, unmount clears),
//! RCIP-LIFE-AVAIL-02 (handlers and availability use committed state), RCIP-LIFE-SSR-04 (binding
//! only after hydration), and CL-A08-1..7.
//!
//! Two abandoned renders are used, both deterministic in React: a transition that suspends
//! (React keeps the committed tree; the render that ran is thrown away until the promise
//! resolves) and a render that throws into an error boundary (nothing below the boundary
//! commits). Left open, as the texts leave it (PRJ-REACT-02/03): which of two nested owners
//! mounting in the same commit publishes last, and how many refreshes an implementation makes.

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section};
use crate::pattern::{absent, contains, one_of, subset};

const S: &str = "react";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description).profiles(&["react"])
}

// ---------------------------------------------------------------------------------------------
// The catalog and setup
// ---------------------------------------------------------------------------------------------

/// Two write capabilities in `notes` whose output carries the state the handler saw, and a
/// `settings` scope for context changes.
fn definition() -> Def {
    let output = json!({
        "type": "object",
        "properties": { "state": { "type": "string" } },
        "required": ["state"],
        "additionalProperties": false
    });
    Def::new("notes-app")
        .scope("notes", None)
        .scope("notes.editor", Some("notes"))
        .scope("settings", None)
        .cap(
            Cap::new("notes.save", "write")
                .scopes(&["notes"])
                .output(output.clone()),
        )
        .cap(
            Cap::new("notes.archive", "write")
                .scopes(&["notes"])
                .output(output),
        )
}

fn setup() -> Value {
    Setup::new(&definition()).policy(allow()).to_json()
}

fn strict_setup() -> Value {
    let mut value = setup();
    value["react"] = json!({ "strictMode": true });
    value
}

// ---------------------------------------------------------------------------------------------
// Tree elements
// ---------------------------------------------------------------------------------------------

fn provider(key: &str, children: Vec<Value>) -> Value {
    json!({ "kind": "provider", "key": key, "children": children })
}

fn provider_of(key: &str, runtime: &str, children: Vec<Value>) -> Value {
    json!({ "kind": "provider", "key": key, "runtime": runtime, "children": children })
}

fn owner(key: &str, active: &[&str], primary: Option<&str>, children: Vec<Value>) -> Value {
    json!({ "kind": "context-owner", "key": key, "context": context(active, primary), "children": children })
}

/// A capability component whose `execute` returns `{ state }`.
fn cap(key: &str, capability: &str, state: &str) -> Value {
    json!({ "kind": "capability", "key": key, "capability": capability, "state": state,
            "handler": { "mode": "returns-state" } })
}

/// A capability component with a `getAvailability` and optionally a revision.
fn cap_avail(
    key: &str,
    capability: &str,
    state: &str,
    available: bool,
    revision: Option<u32>,
) -> Value {
    let mut element = cap(key, capability, state);
    element["availability"] = if available {
        self::available()
    } else {
        unavailable()
    };
    if let Some(revision) = revision {
        element["revision"] = json!(revision);
    }
    element
}

fn cap_handler(key: &str, capability: &str, state: &str, handler: Value) -> Value {
    let mut element = cap(key, capability, state);
    element["handler"] = handler;
    element
}

fn boundary(key: &str, children: Vec<Value>) -> Value {
    json!({ "kind": "boundary", "key": key, "children": children })
}

fn thrower(key: &str) -> Value {
    json!({ "kind": "throw", "key": key })
}

fn suspend(key: &str, on: &str) -> Value {
    json!({ "kind": "suspend", "key": key, "on": on })
}

fn client_user(key: &str) -> Value {
    json!({ "kind": "client-user", "key": key })
}

fn snapshot_user(key: &str) -> Value {
    json!({ "kind": "snapshot-user", "key": key })
}

// ---------------------------------------------------------------------------------------------
// Steps and expectations
// ---------------------------------------------------------------------------------------------

fn render(tree: Value) -> Value {
    json!({ "react": "render", "tree": tree })
}

fn render_transition(tree: Value) -> Value {
    json!({ "react": "render", "tree": tree, "transition": true })
}

fn resolve_promise(on: &str) -> Value {
    json!({ "react": "resolve", "on": on })
}

fn unmount_root() -> Value {
    json!({ "react": "unmount" })
}

fn server_render(tree: Value) -> Value {
    json!({ "react": "server-render", "tree": tree })
}

fn hydrate(tree: Value) -> Value {
    json!({ "react": "hydrate", "tree": tree })
}

/// The states the `execute` calls of `capability` saw, in call order.
fn expect_states(capability: &str, states: &[&str]) -> Value {
    let items: Vec<Value> = states
        .iter()
        .map(|s| json!({ "capabilityId": capability, "state": s }))
        .collect();
    json!({ "expect": "handler-states", "capability": capability, "is": items })
}

fn expect_boundary(key: &str, is: &str) -> Value {
    json!({ "expect": "boundary", "key": key, "is": is })
}

fn expect_hook_client(key: &str, is: &str) -> Value {
    json!({ "expect": "hook-client", "key": key, "is": is })
}

fn expect_hook_snapshot(key: &str, is: Value) -> Value {
    json!({ "expect": "hook-snapshot", "key": key, "is": is })
}

/// The snapshot lists `capability` with these live fields.
fn entry(capability: &str, fields: Value) -> Value {
    let mut fields = fields;
    fields["id"] = json!(capability);
    subset(json!({ "capabilities": contains([subset(fields)], false) }))
}

fn expect_bound(capability: &str, bound: bool) -> Value {
    expect_snapshot(None, entry(capability, json!({ "bound": bound })))
}

fn expect_context(active: &[&str], primary: Option<&str>) -> Value {
    let mut context = context(active, primary);
    if primary.is_none() {
        context["primaryScopeId"] = absent();
    }
    expect_snapshot(None, subset(json!({ "context": context })))
}

/// The context right after an owner unmounted: `{ activeScopeIds: [] }` (CL-A08-4).
fn expect_cleared() -> Value {
    expect_snapshot(None, subset(json!({ "context": { "activeScopeIds": [] } })))
}

fn saw(invocation: &str, capability: &str, state: &str) -> Value {
    expect_outcome(
        invocation,
        succeeded(invocation, capability, json!({ "state": state })),
    )
}

fn unbound(invocation: &str) -> Value {
    expect_outcome(
        invocation,
        subset(json!({ "status": "failed", "code": "CAPABILITY_UNBOUND" })),
    )
}

fn save(invocation: &str) -> Value {
    invoke(invocation, "notes.save", json!({}))
}

// ---------------------------------------------------------------------------------------------
// Cases
// ---------------------------------------------------------------------------------------------

pub fn section() -> Section {
    let mut cases = Vec::new();
    cases.extend(surface());
    cases.extend(client());
    cases.extend(strict_mode());
    cases.extend(committed());
    cases.extend(abandoned());
    cases.extend(effect_error());
    cases.extend(availability());
    cases.extend(owners());
    cases.extend(server());
    cases.extend(snapshot_hook());
    make_section(S, "React bindings (profile react)", "react", cases)
}

/// RCIP-PROTO-SURF-12 and CL-A08-1/4/5/6: the provider, the context and capability hooks.
fn surface() -> Vec<Case> {
    vec![
        c(
            "surface",
            1,
            "A capability component under a provider binds its execute",
        )
        .requirements(&["RCIP-PROTO-SURF-12", "CL-A08-1", "CL-A08-5"])
        .setup(setup())
        .steps([
            render(provider("p", vec![cap("save", "notes.save", "a")])),
            expect_bound("notes.save", true),
            save("i1"),
            saw("i1", "notes.save", "a"),
            expect_states("notes.save", &["a"]),
        ]),
        c(
            "surface",
            2,
            "A context owner under a provider publishes its context",
        )
        .requirements(&["RCIP-PROTO-SURF-12", "CL-A08-4", "CL-A08-1"])
        .setup(setup())
        .steps([
            render(provider(
                "p",
                vec![owner("o", &["notes", "settings"], Some("settings"), vec![])],
            )),
            expect_context(&["notes", "settings"], Some("settings")),
        ]),
        c(
            "surface",
            3,
            "A provider of a second runtime: hooks bind to that runtime",
        )
        .requirements(&["RCIP-PROTO-SURF-12", "CL-A08-1", "CL-A08-5"])
        .setup(setup())
        .steps([
            create_runtime("rt2"),
            render(provider_of(
                "p",
                "rt2",
                vec![cap("save", "notes.save", "a")],
            )),
            expect_bound("notes.save", true).on("rt2"),
            expect_bound("notes.save", false),
            save("i1").on("rt2"),
            saw("i1", "notes.save", "a"),
        ]),
        c(
            "surface",
            4,
            "Nested providers: a capability binds to the nearest runtime",
        )
        .requirements(&["CL-A08-1", "RCIP-PROTO-SURF-12"])
        .setup(setup())
        .steps([
            create_runtime("rt2"),
            render(provider(
                "outer",
                vec![provider_of(
                    "inner",
                    "rt2",
                    vec![cap("save", "notes.save", "a")],
                )],
            )),
            expect_bound("notes.save", true).on("rt2"),
            expect_bound("notes.save", false),
        ]),
        c(
            "outside-provider",
            1,
            "useRcipCapability outside any provider throws",
        )
        .requirements(&["CL-A08-6", "RCIP-PROTO-SURF-12"])
        .setup(setup())
        .steps([
            render(boundary("b", vec![cap("save", "notes.save", "a")])),
            expect_boundary("b", "caught"),
            save("i1"),
            unbound("i1"),
        ]),
        c(
            "outside-provider",
            2,
            "useRcipContext outside any provider throws",
        )
        .requirements(&["CL-A08-6", "RCIP-PROTO-SURF-12"])
        .setup(setup())
        .steps([
            set_context(&["settings"], None),
            render(boundary("b", vec![owner("o", &["notes"], None, vec![])])),
            expect_boundary("b", "caught"),
            expect_context(&["settings"], None),
        ]),
        c(
            "outside-provider",
            3,
            "useRcipClient outside any provider throws",
        )
        .requirements(&["CL-A08-6", "RCIP-PROTO-SURF-13"])
        .setup(setup())
        .steps([
            render(boundary("b", vec![client_user("u")])),
            expect_boundary("b", "caught"),
            expect_hook_client("u", "none"),
        ]),
    ]
}

/// RCIP-PROTO-SURF-13, CL-A08-2: useRcipClient returns the provider runtime's own client.
fn client() -> Vec<Case> {
    vec![
        c(
            "client",
            1,
            "useRcipClient returns the client of the provider's runtime",
        )
        .requirements(&["RCIP-PROTO-SURF-13", "CL-A08-2", "CL-A08-1"])
        .setup(setup())
        .steps([
            render(provider("p", vec![client_user("u")])),
            expect_hook_client("u", "setup"),
        ]),
        c(
            "client",
            2,
            "useRcipClient under a second runtime's provider: its client",
        )
        .requirements(&["RCIP-PROTO-SURF-13", "CL-A08-2", "CL-A08-1"])
        .setup(setup())
        .steps([
            create_runtime("rt2"),
            render(provider_of("p", "rt2", vec![client_user("u")])),
            expect_hook_client("u", "rt2"),
        ]),
        c(
            "client",
            3,
            "useRcipClient under nested providers: the nearest one's client",
        )
        .requirements(&["RCIP-PROTO-SURF-13", "CL-A08-2", "CL-A08-1"])
        .setup(setup())
        .steps([
            create_runtime("rt2"),
            render(provider(
                "outer",
                vec![
                    client_user("u1"),
                    provider_of("inner", "rt2", vec![client_user("u2")]),
                ],
            )),
            expect_hook_client("u1", "setup"),
            expect_hook_client("u2", "rt2"),
        ]),
        // Issue 25 zoo (react-provider-keeps-first-runtime): a provider that memoises the first
        // runtime it was given keeps handing it out after its `runtime` prop changed.
        c(
            "client",
            4,
            "A provider given another runtime: its hooks see the new one",
        )
        .requirements(&["RCIP-PROTO-SURF-13", "CL-A08-2", "CL-A08-1"])
        .setup(setup())
        .steps([
            create_runtime("rt2"),
            render(provider("p", vec![client_user("u")])),
            expect_hook_client("u", "setup"),
            render(provider_of("p", "rt2", vec![client_user("u")])),
            expect_hook_client("u", "rt2"),
        ]),
    ]
}

/// RCIP-LIFE-BIND-05: Strict Mode runs effect setup, cleanup, setup on mount; the result is one
/// live binding and the published context, and an unmount still unbinds and clears. How many
/// refreshes that causes is not checked (PRJ-REACT-03).
fn strict_mode() -> Vec<Case> {
    vec![
        c(
            "strict-mode",
            1,
            "Strict Mode: one live binding, no duplicate-binding error",
        )
        .requirements(&["RCIP-LIFE-BIND-05", "CL-A08-5"])
        .setup(strict_setup())
        .steps([
            render(provider(
                "p",
                vec![boundary("b", vec![cap("save", "notes.save", "a")])],
            )),
            expect_boundary("b", "clear"),
            expect_bound("notes.save", true),
            save("i1"),
            saw("i1", "notes.save", "a"),
            expect_states("notes.save", &["a"]),
        ]),
        c(
            "strict-mode",
            2,
            "Strict Mode: the context owner's context stays published",
        )
        .requirements(&["RCIP-LIFE-BIND-05", "CL-A08-4"])
        .setup(strict_setup())
        .steps([
            render(provider(
                "p",
                vec![boundary(
                    "b",
                    vec![owner("o", &["notes"], Some("notes"), vec![])],
                )],
            )),
            expect_boundary("b", "clear"),
            expect_context(&["notes"], Some("notes")),
        ]),
        c(
            "strict-mode",
            3,
            "Strict Mode: unmounting still unbinds and clears the context",
        )
        .requirements(&["RCIP-LIFE-BIND-05", "CL-A08-4", "CL-A08-5"])
        .setup(strict_setup())
        .steps([
            render(provider(
                "p",
                vec![owner(
                    "o",
                    &["notes"],
                    None,
                    vec![cap("save", "notes.save", "a")],
                )],
            )),
            render(provider("p", vec![])),
            expect_bound("notes.save", false),
            expect_cleared(),
            save("i1"),
            unbound("i1"),
        ]),
        c(
            "strict-mode",
            4,
            "Strict Mode: a committed re-render's execute is the one invoked",
        )
        .requirements(&["RCIP-LIFE-BIND-05", "RCIP-LIFE-BIND-06"])
        .setup(strict_setup())
        .steps([
            render(provider("p", vec![cap("save", "notes.save", "a")])),
            render(provider("p", vec![cap("save", "notes.save", "b")])),
            save("i1"),
            saw("i1", "notes.save", "b"),
            expect_states("notes.save", &["b"]),
        ]),
        c(
            "strict-mode",
            5,
            "Strict Mode: a component mounted later binds once too",
        )
        .requirements(&["RCIP-LIFE-BIND-05", "CL-A08-5"])
        .setup(strict_setup())
        .steps([
            render(provider("p", vec![boundary("b", vec![])])),
            render(provider(
                "p",
                vec![boundary(
                    "b",
                    vec![
                        cap("save", "notes.save", "a"),
                        cap("archive", "notes.archive", "x"),
                    ],
                )],
            )),
            expect_boundary("b", "clear"),
            expect_bound("notes.archive", true),
            invoke("i1", "notes.archive", json!({})),
            saw("i1", "notes.archive", "x"),
        ]),
    ]
}

/// RCIP-LIFE-BIND-06 and RCIP-LIFE-AVAIL-02: after a committed render, invocations reach that
/// render's execute.
fn committed() -> Vec<Case> {
    vec![
        c(
            "committed",
            1,
            "After a committed re-render the new render's execute runs",
        )
        .requirements(&["RCIP-LIFE-BIND-06", "RCIP-LIFE-AVAIL-02", "CL-A08-7"])
        .setup(setup())
        .steps([
            render(provider("p", vec![cap("save", "notes.save", "a")])),
            save("i1"),
            render(provider("p", vec![cap("save", "notes.save", "b")])),
            save("i2"),
            saw("i1", "notes.save", "a"),
            saw("i2", "notes.save", "b"),
            expect_states("notes.save", &["a", "b"]),
        ]),
        c(
            "committed",
            2,
            "A re-render changes the behaviour: the committed one is used",
        )
        .requirements(&["RCIP-LIFE-BIND-06", "RCIP-LIFE-AVAIL-02", "CL-A08-7"])
        .setup(setup())
        .steps([
            render(provider(
                "p",
                vec![cap_handler("save", "notes.save", "a", throws())],
            )),
            render(provider("p", vec![cap("save", "notes.save", "b")])),
            save("i1"),
            saw("i1", "notes.save", "b"),
        ]),
        c(
            "committed",
            3,
            "Re-rendering keeps the binding: no unbind, no duplicate bind",
        )
        .requirements(&["RCIP-LIFE-BIND-06", "CL-A08-5"])
        .setup(setup())
        .steps([
            render(provider(
                "p",
                vec![boundary("b", vec![cap("save", "notes.save", "a")])],
            )),
            render(provider(
                "p",
                vec![boundary("b", vec![cap("save", "notes.save", "b")])],
            )),
            render(provider(
                "p",
                vec![boundary("b", vec![cap("save", "notes.save", "c")])],
            )),
            expect_boundary("b", "clear"),
            expect_bound("notes.save", true),
            save("i1"),
            saw("i1", "notes.save", "c"),
        ]),
        // An effect that unbinds and binds again on every committed render passes case 3 (its
        // final state is the same): an invocation in flight across the re-renders sees the
        // binding change at its policy recheck and fails CAPABILITY_UNBOUND.
        c(
            "committed",
            5,
            "Re-renders during a pending policy keep the binding: the call succeeds",
        )
        .requirements(&["CL-A08-5", "RCIP-LIFE-BIND-06", "CL-B05-1"])
        .setup(Setup::new(&definition()).policy_gated().to_json())
        .steps([
            render(provider("p", vec![cap("save", "notes.save", "a")])),
            save("i1"),
            expect_outcome("i1", json!("pending")),
            render(provider("p", vec![cap("save", "notes.save", "b")])),
            render(provider("p", vec![cap("save", "notes.save", "c")])),
            gate_policy(1, ret(allow())),
            saw("i1", "notes.save", "c"),
            expect_bound("notes.save", true),
        ]),
        c(
            "committed",
            4,
            "Same key, another kind: the capability unmounts and unbinds",
        )
        .requirements(&["CL-A08-5", "RCIP-PROTO-SURF-12"])
        .setup(setup())
        .steps([
            render(provider("p", vec![cap("x", "notes.save", "a")])),
            expect_bound("notes.save", true),
            render(provider("p", vec![owner("x", &["notes"], None, vec![])])),
            expect_bound("notes.save", false),
            save("i1"),
            unbound("i1"),
            expect_context(&["notes"], None),
        ]),
    ]
}

/// RCIP-LIFE-BIND-06: an abandoned render (a suspended transition, a render thrown into a
/// boundary) publishes nothing.
fn abandoned() -> Vec<Case> {
    vec![
        c(
            "abandoned",
            1,
            "A suspended transition's execute is not invoked",
        )
        .requirements(&["RCIP-LIFE-BIND-06", "CL-A08-7"])
        .setup(setup())
        .steps([
            render(provider("p", vec![cap("save", "notes.save", "a")])),
            render_transition(provider(
                "p",
                vec![cap("save", "notes.save", "b"), suspend("s", "p1")],
            )),
            save("i1"),
            saw("i1", "notes.save", "a"),
            expect_states("notes.save", &["a"]),
        ]),
        c(
            "abandoned",
            2,
            "The transition commits once resolved: then its execute runs",
        )
        .requirements(&["RCIP-LIFE-BIND-06", "CL-A08-7"])
        .setup(setup())
        .steps([
            render(provider("p", vec![cap("save", "notes.save", "a")])),
            render_transition(provider(
                "p",
                vec![cap("save", "notes.save", "b"), suspend("s", "p1")],
            )),
            save("i1"),
            resolve_promise("p1"),
            save("i2"),
            saw("i1", "notes.save", "a"),
            saw("i2", "notes.save", "b"),
        ]),
        c(
            "abandoned",
            3,
            "A suspended transition's throwing execute is not published",
        )
        .requirements(&["RCIP-LIFE-BIND-06", "CL-A08-7"])
        .setup(setup())
        .steps([
            render(provider("p", vec![cap("save", "notes.save", "a")])),
            render_transition(provider(
                "p",
                vec![
                    cap_handler("save", "notes.save", "b", throws()),
                    suspend("s", "p1"),
                ],
            )),
            save("i1"),
            saw("i1", "notes.save", "a"),
        ]),
        c(
            "abandoned",
            4,
            "A first render thrown into a boundary never binds",
        )
        .requirements(&["RCIP-LIFE-BIND-06", "CL-A08-5"])
        .setup(setup())
        .steps([
            render(provider(
                "p",
                vec![boundary(
                    "b",
                    vec![cap("save", "notes.save", "a"), thrower("t")],
                )],
            )),
            expect_boundary("b", "caught"),
            expect_bound("notes.save", false),
            save("i1"),
            unbound("i1"),
            expect_states("notes.save", &[]),
        ]),
        c(
            "abandoned",
            5,
            "A re-render thrown into a boundary unbinds, publishing nothing",
        )
        .requirements(&["RCIP-LIFE-BIND-06", "CL-A08-5"])
        .setup(setup())
        .steps([
            render(provider(
                "p",
                vec![boundary("b", vec![cap("save", "notes.save", "a")])],
            )),
            render(provider(
                "p",
                vec![boundary(
                    "b",
                    vec![cap("save", "notes.save", "b"), thrower("t")],
                )],
            )),
            expect_boundary("b", "caught"),
            save("i1"),
            unbound("i1"),
            expect_states("notes.save", &[]),
        ]),
        c(
            "abandoned",
            6,
            "A suspended transition that adds a capability binds nothing yet",
        )
        .requirements(&["RCIP-LIFE-BIND-06", "CL-A08-5"])
        .setup(setup())
        .steps([
            render(provider("p", vec![cap("save", "notes.save", "a")])),
            render_transition(provider(
                "p",
                vec![
                    cap("save", "notes.save", "a"),
                    cap("archive", "notes.archive", "x"),
                    suspend("s", "p1"),
                ],
            )),
            expect_bound("notes.archive", false),
            invoke("i1", "notes.archive", json!({})),
            unbound("i1"),
            resolve_promise("p1"),
            expect_bound("notes.archive", true),
        ]),
    ]
}

/// CL-B20-1 and CL-A08-5: a second capability component for one id makes its effect's `bind`
/// throw (a second live binding throws); the error stays inside the boundary around it (vector
/// format: a boundary catches an error thrown by an effect in its subtree), so a capability
/// component outside that boundary is still mounted and still bound. Whether the boundary
/// reports `caught` (the hook lets the throw reach React) is not pinned, nor what happens to the
/// first binding of the id inside the boundary: only the component outside is observed.
fn effect_error() -> Vec<Case> {
    vec![
        c(
            "effect-error",
            1,
            "A duplicate binding in a boundary: a capability outside stays bound",
        )
        .requirements(&["CL-B20-1", "CL-A08-5"])
        .setup(setup())
        .steps([
            render(provider(
                "p",
                vec![
                    cap("archive", "notes.archive", "x"),
                    boundary(
                        "b",
                        vec![
                            cap("save1", "notes.save", "a"),
                            cap("save2", "notes.save", "b"),
                        ],
                    ),
                ],
            )),
            expect_bound("notes.archive", true),
            invoke("i1", "notes.archive", json!({})),
            saw("i1", "notes.archive", "x"),
        ]),
        c(
            "effect-error",
            2,
            "The nearest boundary catches: one between two boundaries stays bound",
        )
        .requirements(&["CL-B20-1", "CL-A08-5"])
        .setup(setup())
        .steps([
            render(provider(
                "p",
                vec![boundary(
                    "outer",
                    vec![
                        cap("archive", "notes.archive", "x"),
                        boundary(
                            "inner",
                            vec![
                                cap("save1", "notes.save", "a"),
                                cap("save2", "notes.save", "b"),
                            ],
                        ),
                    ],
                )],
            )),
            expect_bound("notes.archive", true),
            invoke("i1", "notes.archive", json!({})),
            saw("i1", "notes.archive", "x"),
        ]),
    ]
}

/// RCIP-LIFE-AVAIL-02: getAvailability reads the committed render; a revision change refreshes
/// the snapshot with it (CL-A08-5).
fn availability() -> Vec<Case> {
    vec![
        c("availability", 1, "Availability is the committed render's: invoke sees it")
            .requirements(&["RCIP-LIFE-AVAIL-02", "CL-A08-7"])
            .setup(setup())
            .steps([
                render(provider("p", vec![cap_avail("save", "notes.save", "a", false, None)])),
                save("i1"),
                render(provider("p", vec![cap_avail("save", "notes.save", "b", true, None)])),
                save("i2"),
                expect_outcome("i1", subset(json!({ "status": "failed", "code": "CAPABILITY_UNAVAILABLE" }))),
                saw("i2", "notes.save", "b"),
            ]),
        c("availability", 2, "An abandoned render's availability is not used")
            .requirements(&["RCIP-LIFE-AVAIL-02", "RCIP-LIFE-BIND-06", "CL-A08-7"])
            .setup(setup())
            .steps([
                render(provider("p", vec![cap_avail("save", "notes.save", "a", true, None)])),
                render_transition(provider("p", vec![cap_avail("save", "notes.save", "b", false, None), suspend("s", "p1")])),
                save("i1"),
                saw("i1", "notes.save", "a"),
            ]),
        c("availability", 3, "A revision change refreshes the committed availability")
            .requirements(&["RCIP-LIFE-AVAIL-02", "CL-A08-5"])
            .setup(setup())
            .steps([
                render(provider("p", vec![cap_avail("save", "notes.save", "a", true, Some(1))])),
                expect_snapshot(None, entry("notes.save", json!({ "available": true }))),
                render(provider("p", vec![cap_avail("save", "notes.save", "b", false, Some(2))])),
                expect_snapshot(None, entry("notes.save", json!({ "available": false }))),
            ]),
        c("availability", 4, "A revision change publishes: listeners are notified")
            .requirements(&["CL-A08-5", "PRJ-REACT-03"])
            .setup(setup())
            .steps([
                render(provider("p", vec![cap_avail("save", "notes.save", "a", true, Some(1))])),
                subscribe("sub", "records"),
                render(provider("p", vec![cap_avail("save", "notes.save", "b", false, Some(2))])),
                expect_notifications("sub", contains([subset(json!({ "revision": crate::pattern::of_type("integer") }))], false))
                    .note("at least one publication; how many refreshes the hook makes is open (PRJ-REACT-03)"),
            ]),
    ]
}

/// RCIP-LIFE-CTX-05/06, CL-A08-4: one owner per runtime publishes; nested owners overwrite
/// (never merge); unmount clears.
fn owners() -> Vec<Case> {
    vec![
        c("owner", 1, "One owner per runtime: each runtime gets its own owner's context")
            .requirements(&["RCIP-LIFE-CTX-05", "CL-A08-4", "CL-A08-1"])
            .setup(setup())
            .steps([
                create_runtime("rt2"),
                render(provider("p1", vec![
                    owner("o1", &["notes"], Some("notes"), vec![]),
                    provider_of("p2", "rt2", vec![owner("o2", &["settings"], None, vec![])]),
                ])),
                expect_context(&["notes"], Some("notes")),
                expect_context(&["settings"], None).on("rt2"),
            ]),
        c("owner", 2, "The owner re-rendered with a new context publishes it")
            .requirements(&["RCIP-LIFE-CTX-05", "CL-A08-4"])
            .setup(setup())
            .steps([
                render(provider("p", vec![owner("o", &["notes"], Some("notes"), vec![])])),
                render(provider("p", vec![owner("o", &["settings"], None, vec![])])),
                expect_context(&["settings"], None),
            ]),
        c("owner", 3, "The owner's context reaches the policy and the handler")
            .requirements(&["RCIP-LIFE-CTX-05", "CL-A08-4", "CL-A04-6"])
            .setup(setup())
            .steps([
                render(provider("p", vec![owner("o", &["notes"], Some("notes"), vec![cap("save", "notes.save", "a")])])),
                save("i1"),
                saw("i1", "notes.save", "a").reqs(RUNS_AND_SUCCEEDS),
                expect_handler_calls(Some("notes.save"), json!([handler_call("notes.save", json!({}), "i1", context(&["notes"], Some("notes")))])),
            ]),
        c("owner", 4, "Unmounting the only owner clears the context")
            .requirements(&["RCIP-LIFE-CTX-06", "RCIP-LIFE-CTX-05", "CL-A08-4"])
            .setup(setup())
            .steps([
                render(provider("p", vec![owner("o", &["notes", "settings"], Some("notes"), vec![])])),
                render(provider("p", vec![])),
                expect_snapshot(None, subset(json!({ "context": { "activeScopeIds": [], "primaryScopeId": absent() } }))),
            ]),
        c("owner", 5, "Unmounting the root clears the owner's context")
            .requirements(&["RCIP-LIFE-CTX-06", "CL-A08-4"])
            .setup(setup())
            .steps([
                render(provider("p", vec![owner("o", &["settings"], None, vec![])])),
                unmount_root(),
                expect_cleared(),
            ]),
        c("owner", 6, "Same scopes with another primary scope: the owner publishes it")
            .requirements(&["CL-A08-4", "CL-B06-1", "CL-A07-2"])
            .setup(setup())
            .steps([
                render(provider("p", vec![owner("o", &["notes", "settings"], Some("notes"), vec![])])),
                // CL-B06-1 compares the primary scope too: a new context, which CL-A08-4 publishes.
                render(provider("p", vec![owner("o", &["notes", "settings"], Some("settings"), vec![])])),
                expect_context(&["notes", "settings"], Some("settings")),
            ]),
        // The counterpart of owner 6: other active scopes under the same (here absent) primary
        // scope are a new context (CL-B06-1 compares the ordered scope list), which CL-A08-4
        // publishes. An effect keyed on the primary scope alone never republishes it (found by
        // the StrykerJS run of the JavaScript subject, issue 25 section 3).
        c("owner", 7, "Other scopes with the same primary scope: the owner publishes them")
            .requirements(&["CL-A08-4", "CL-B06-1", "CL-A07-2"])
            .setup(setup())
            .steps([
                render(provider("p", vec![owner("o", &["notes"], None, vec![])])),
                render(provider("p", vec![owner("o", &["settings"], None, vec![])])),
                expect_context(&["settings"], None).reqs(&["CL-A08-4", "CL-B06-1"]),
            ]),
        c("nested", 1, "Nested owners mounting together: one owner's context, no merge")
            .requirements(&["RCIP-LIFE-CTX-06", "PRJ-REACT-02"])
            .setup(setup())
            .steps([
                render(provider("p", vec![owner("outer", &["notes"], None, vec![owner("inner", &["settings"], None, vec![])])])),
                expect_snapshot(None, subset(json!({ "context": one_of([
                    json!({ "activeScopeIds": ["notes"] }),
                    json!({ "activeScopeIds": ["settings"] }),
                ]) })))
                .note("which owner publishes last on mount is open (PRJ-REACT-02); a merge of both is never right"),
            ]),
        c("nested", 2, "An inner owner mounted later overwrites the outer's context")
            .requirements(&["RCIP-LIFE-CTX-06", "CL-A08-4"])
            .setup(setup())
            .steps([
                render(provider("p", vec![owner("outer", &["notes"], Some("notes"), vec![])])),
                render(provider("p", vec![owner("outer", &["notes"], Some("notes"), vec![owner("inner", &["settings"], None, vec![])])])),
                expect_context(&["settings"], None),
            ]),
        c("nested", 3, "A re-rendered inner owner's new context overwrites, unmerged")
            .requirements(&["RCIP-LIFE-CTX-06", "CL-A08-4"])
            .setup(setup())
            .steps([
                render(provider("p", vec![owner("outer", &["notes"], None, vec![])])),
                render(provider("p", vec![owner("outer", &["notes"], None, vec![owner("inner", &["settings"], None, vec![])])])),
                render(provider("p", vec![owner("outer", &["notes"], None, vec![owner("inner", &["notes.editor"], Some("notes.editor"), vec![])])])),
                expect_context(&["notes.editor"], Some("notes.editor")),
            ]),
        c("nested", 4, "Unmounting the inner owner clears the context (outer stays)")
            .requirements(&["RCIP-LIFE-CTX-06", "CL-A08-4"])
            .setup(setup())
            .steps([
                render(provider("p", vec![owner("outer", &["notes"], None, vec![])])),
                render(provider("p", vec![owner("outer", &["notes"], None, vec![owner("inner", &["settings"], None, vec![])])])),
                render(provider("p", vec![owner("outer", &["notes"], None, vec![])])),
                expect_cleared(),
            ]),
    ]
}

/// RCIP-LIFE-SSR-04: a server render runs no effect; hydration binds.
fn server() -> Vec<Case> {
    let tree = || {
        provider(
            "p",
            vec![owner(
                "o",
                &["notes"],
                None,
                vec![cap("save", "notes.save", "a")],
            )],
        )
    };
    vec![
        c("ssr", 1, "A server render binds nothing")
            .requirements(&["RCIP-LIFE-SSR-04"])
            .setup(setup())
            .steps([
                server_render(provider("p", vec![cap("save", "notes.save", "a")])),
                expect_bound("notes.save", false),
                save("i1"),
                unbound("i1"),
                expect_states("notes.save", &[]),
            ]),
        c(
            "ssr",
            2,
            "Hydration binds: the capability is invocable only after it",
        )
        .requirements(&["RCIP-LIFE-SSR-04", "CL-A08-5"])
        .setup(setup())
        .steps([
            server_render(tree()),
            save("i1"),
            hydrate(tree()),
            expect_bound("notes.save", true),
            save("i2"),
            unbound("i1"),
            saw("i2", "notes.save", "a"),
        ]),
        c(
            "ssr",
            3,
            "A server runtime stays unbound and keeps its context",
        )
        .requirements(&["RCIP-LIFE-SSR-04", "CL-A08-4"])
        .setup(setup())
        .steps([
            create_runtime("server"),
            set_context(&["settings"], None).on("server"),
            server_render(provider_of(
                "p",
                "server",
                vec![owner(
                    "o",
                    &["notes"],
                    None,
                    vec![cap("save", "notes.save", "a")],
                )],
            )),
            expect_bound("notes.save", false).on("server"),
            expect_context(&["settings"], None).on("server"),
            hydrate(tree()),
            expect_bound("notes.save", true),
            expect_context(&["notes"], None),
            expect_bound("notes.save", false).on("server"),
        ]),
        c("ssr", 4, "Strict Mode hydration binds exactly once")
            .requirements(&["RCIP-LIFE-SSR-04", "RCIP-LIFE-BIND-05"])
            .setup(strict_setup())
            .steps([
                server_render(provider(
                    "p",
                    vec![boundary("b", vec![cap("save", "notes.save", "a")])],
                )),
                expect_bound("notes.save", false),
                hydrate(provider(
                    "p",
                    vec![boundary("b", vec![cap("save", "notes.save", "a")])],
                )),
                expect_boundary("b", "clear"),
                save("i1"),
                saw("i1", "notes.save", "a"),
            ]),
    ]
}

/// CL-A08-3: useRcipSnapshot gives the current snapshot and re-renders when it changes.
fn snapshot_hook() -> Vec<Case> {
    vec![
        c("snapshot-hook", 1, "useRcipSnapshot shows a capability bound by a sibling")
            .requirements(&["CL-A08-3", "CL-A08-1"])
            .setup(setup())
            .steps([
                render(provider("p", vec![cap("save", "notes.save", "a"), snapshot_user("s")])),
                expect_hook_snapshot("s", entry("notes.save", json!({ "bound": true }))),
            ]),
        c("snapshot-hook", 2, "useRcipSnapshot re-renders when the host changes the context")
            .requirements(&["CL-A08-3"])
            .setup(setup())
            .steps([
                render(provider("p", vec![snapshot_user("s")])),
                set_context(&["settings"], Some("settings")),
                expect_hook_snapshot("s", subset(json!({ "context": { "activeScopeIds": ["settings"], "primaryScopeId": "settings" } }))),
            ]),
        // The provider re-rendered with another runtime makes that runtime the one below it
        // (CL-A08-1), so the hook follows the new runtime's snapshot and its changes (CL-A08-3).
        // A subscription memoised without the client keeps listening to the first runtime: found
        // by the StrykerJS run of the JavaScript subject (issue 25 section 3).
        c("snapshot-hook", 4, "useRcipSnapshot follows a provider re-rendered with another runtime")
            .requirements(&["CL-A08-3", "CL-A08-1"])
            .setup(setup())
            .steps([
                create_runtime("rt2"),
                render(provider("p", vec![snapshot_user("s")])),
                render(provider_of("p", "rt2", vec![snapshot_user("s")])),
                set_context(&["settings"], Some("settings")).on("rt2"),
                expect_hook_snapshot("s", subset(json!({ "context": { "activeScopeIds": ["settings"], "primaryScopeId": "settings" } }))),
            ]),
        // The same swap for a capability component: the runtime below the provider is now the
        // other one (CL-A08-1), and the component is still mounted, so its capability is bound
        // there and runs the component's handler (CL-A08-5). Whether the first runtime keeps the
        // binding until the component unmounts is not decided, so it is not observed. A binding
        // effect whose dependency list leaves out the host stays bound to the first runtime only
        // (found by the StrykerJS run of the JavaScript subject, issue 25 section 3).
        c("provider-swap", 1, "useRcipCapability binds in a provider's new runtime")
            .requirements(&["CL-A08-5", "CL-A08-1"])
            .setup(setup())
            .steps([
                create_runtime("rt2"),
                render(provider("p", vec![cap("save", "notes.save", "a")])),
                render(provider_of("p", "rt2", vec![cap("save", "notes.save", "a")])),
                expect_bound("notes.save", true).on("rt2").reqs(&["CL-A08-5", "CL-A08-1"]),
                save("i1").on("rt2"),
                saw("i1", "notes.save", "a").on("rt2").reqs(&["CL-A08-5", "CL-A08-1"]),
            ]),
        // The same swap for a context owner: the context is published through the host of the
        // runtime now below the provider (CL-A08-4 with CL-A08-1). What the first runtime's context
        // becomes is not decided (the owner did not unmount), so it is not observed; when the owner
        // unmounts, the context it clears is the new runtime's. An effect whose dependency list
        // leaves out the host publishes to (or clears) the first runtime only.
        c("provider-swap", 2, "useRcipContext publishes and clears in a provider's new runtime")
            .requirements(&["CL-A08-4", "CL-A08-1"])
            .setup(setup())
            .steps([
                create_runtime("rt2"),
                render(provider("p", vec![owner("o", &["settings"], Some("settings"), vec![])])),
                render(provider_of("p", "rt2", vec![owner("o", &["settings"], Some("settings"), vec![])])),
                expect_context(&["settings"], Some("settings")).on("rt2").reqs(&["CL-A08-4", "CL-A08-1"]),
                unmount_root(),
                expect_cleared().on("rt2").reqs(&["CL-A08-4", "CL-A08-1"]),
            ]),
        c("snapshot-hook", 3, "useRcipSnapshot outside any provider throws")
            .requirements(&["CL-A08-6", "CL-A08-3"])
            .setup(setup())
            .steps([
                render(boundary("b", vec![snapshot_user("s")])),
                expect_boundary("b", "caught"),
                expect_hook_snapshot("s", json!("none")),
            ]),
    ]
}
