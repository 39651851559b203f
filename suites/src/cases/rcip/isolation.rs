//! Section `rcip.isolation`: two runtimes built from one definition share no context, bindings,
//! reservations, confirmations, revisions or subscriptions (CL-B25-1). The second runtime comes from
//! a `create-runtime` step with the same definition and options; steps name it with `runtime`.

use serde_json::json;

use super::support::*;
use crate::case::{Case, Section};
use crate::pattern::subset;

const S: &str = "isolation";
const RT: &str = "rt2";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description).requirements(&["CL-B25-1"])
}

pub fn section() -> Section {
    let setup = || Setup::new(&notes()).policy(allow()).to_json();
    let gated_setup = || Setup::new(&notes()).policy_gated().to_json();
    let ids = notes().cap_ids();
    let cases = vec![
        c("bindings", 1, "A binding in one runtime leaves the other unbound")
            .setup(setup())
            .steps([
                create_runtime(RT),
                bind("notes.create", "b1", returns(created())),
                expect_snapshot(None, snapshot_caps(&ids, &[("notes.create", json!({ "bound": true }))])),
                expect_snapshot(None, snapshot_caps(&ids, &[("notes.create", json!({ "bound": false }))])).on(RT),
                invoke("i1", "notes.create", json!({ "text": "a" })).on(RT),
                expect_outcome("i1", failed("i1", "notes.create", "CAPABILITY_UNBOUND")).on(RT),
            ]),
        c("bindings", 2, "Each runtime takes its own live binding for one id")
            .setup(setup())
            .steps([
                create_runtime(RT),
                bind("notes.create", "b1", returns(json!({ "id": "main" }))),
                bind("notes.create", "b2", returns(json!({ "id": "second" }))).on(RT),
                invoke("i1", "notes.create", json!({ "text": "a" })),
                invoke("i2", "notes.create", json!({ "text": "a" })).on(RT),
                expect_outcome("i1", succeeded("i1", "notes.create", json!({ "id": "main" }))),
                expect_outcome("i2", succeeded("i2", "notes.create", json!({ "id": "second" }))).on(RT),
            ]),
        c("context", 1, "A context set in one runtime does not reach the other")
            .setup(setup())
            .steps([
                create_runtime(RT),
                set_context(&["settings"], None).on(RT),
                set_context(&["notes"], Some("notes")),
                expect_snapshot(None, crate::pattern::subset(json!({ "context": { "activeScopeIds": ["settings"] } }))).on(RT),
            ]),
        c("reservations", 1, "One invocation id can be pending in two runtimes at once")
            .setup(gated_setup())
            .steps([
                create_runtime(RT),
                bind("notes.create", "b1", returns(created())),
                bind("notes.create", "b2", returns(created())).on(RT),
                invoke_id("a", "notes.create", json!({ "text": "a" }), "shared"),
                invoke_id("b", "notes.create", json!({ "text": "b" }), "shared").on(RT),
                expect_pending("b").on(RT),
                gate_policy(1, ret(allow())).on(RT),
                gate_policy(1, ret(allow())),
                expect_outcome("a", succeeded("shared", "notes.create", created())),
                expect_outcome("b", succeeded("shared", "notes.create", created())).on(RT),
            ]),
        c("confirmations", 1, "A confirmation cannot be resolved through another runtime")
            .requirements(&["CL-A01-6"])
            .setup(Setup::new(&notes()).policy_gated().sequential_ids().to_json())
            .steps([
                create_runtime(RT),
                bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
                invoke("i1", "notes.delete", json!({ "id": "n1" })),
                gate_policy(1, ret(confirm())),
                expect_outcome(
                    "i1",
                    json!({
                        "status": "confirmation_required", "invocationId": "i1", "capabilityId": "notes.delete",
                        "confirmation": { "id": "confirmation-1", "effect": "destructive", "expiresAt": crate::pattern::present() }
                    }),
                ),
                resolve_id("r1", "confirmation-1", true).on(RT),
                expect_outcome("r1", failed_code("CONFIRMATION_NOT_FOUND")).on(RT),
                resolve("r2", "i1", true),
                gate_policy(2, ret(allow())),
                expect_outcome("r2", succeeded("i1", "notes.delete", json!({ "deleted": true }))),
            ]),
        // Each runtime has its own createId (vectors/README.md): both issue `host-confirmation-1`,
        // and each id resolves only the confirmation of the runtime that issued it.
        c("confirmations", 2, "Equal createId confirmation ids stay apart in two runtimes")
            .requirements(&["CL-A01-6", "CL-A06-4", "CL-B07-2"])
            .setup(Setup::new(&notes()).policy_gated().host_prefixed_ids().to_json())
            .steps([
                create_runtime(RT),
                bind("notes.delete", "b1", returns(json!({ "deleted": true }))),
                bind("notes.delete", "b2", returns(json!({ "deleted": true }))).on(RT),
                invoke("i1", "notes.delete", json!({ "id": "n1" })),
                invoke("i2", "notes.delete", json!({ "id": "n2" })).on(RT),
                gate_policy(1, ret(confirm())),
                gate_policy(1, ret(confirm())).on(RT),
                expect_outcome("i1", subset(json!({ "confirmation": subset(json!({ "id": "host-confirmation-1" })) })))
                    .reqs(&["CL-A01-6", "CL-A06-4"]),
                expect_outcome("i2", subset(json!({ "confirmation": subset(json!({ "id": "host-confirmation-1" })) })))
                    .reqs(&["CL-A01-6", "CL-A06-4", "CL-B25-1"])
                    .on(RT),
                resolve_id("r2", "host-confirmation-1", false).on(RT),
                expect_outcome("r2", denied("i2", "notes.delete", "CONFIRMATION_DECLINED"))
                    .reqs(&["CL-B07-2", "CL-B25-1"])
                    .on(RT),
                resolve_id("r1", "host-confirmation-1", true),
                gate_policy(2, ret(allow())),
                expect_outcome("r1", succeeded("i1", "notes.delete", json!({ "deleted": true })))
                    .reqs(&["CL-A04-10", "CL-B07-3", "CL-B25-1"]),
            ]),
        c("revisions", 1, "Changes in one runtime keep the other's snapshot")
            .setup(setup())
            .steps([
                create_runtime(RT),
                get_snapshot("t1").on(RT),
                bind("notes.list", "b1", returns(json!({ "items": [] }))),
                refresh(),
                invoke("i1", "notes.list", json!({})),
                get_snapshot("t2").on(RT),
                expect_relation("t1", "t2", true, "equal").on(RT),
            ]),
        c("subscriptions", 1, "A listener of one runtime hears nothing from the other")
            .setup(setup())
            .steps([
                create_runtime(RT),
                subscribe("sub1", "records").on(RT),
                bind("notes.list", "b1", returns(json!({ "items": [] }))),
                refresh(),
                expect_notifications("sub1", notifications_after_subscribe(0)).on(RT),
            ]),
    ];
    make_section(S, "Isolated runtimes", "isolation", cases)
}
