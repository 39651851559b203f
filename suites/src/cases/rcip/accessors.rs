//! Section `rcip.accessors`: accessor properties (getters) in caller-owned values (issue 25). A
//! getter escape answers differently when read again (vectors/README.md, "Values"), the way caller
//! data can change under a runtime that reads it twice. Whether a runtime reads a getter or
//! refuses the value is open (PRJ-RCIP-JSON-01, IMPL-DEFINED), and how many times it reads is said
//! nowhere, so no case counts reads; what is REQUIRED is that what passed a check is what is kept
//! (PRJ-RCIP-JSON-02): the input the handler and the policy receive (RCIP-LIFE-SCHEMA-04,
//! RCIP-LIFE-JSON-04), the output an outcome returns (CL-B12-1, RCIP-LIFE-JSON-01), the contract
//! metadata a snapshot publishes (RCIP-PROTO-LIFE-12; CL-B18-1 ids, CL-B18-8 usage examples) and the redacted
//! availability it publishes (CL-A04-7, CL-B17-1). Each getter alternates a valid and an invalid
//! answer, once starting with each: a runtime that checks one read and keeps the next one fails
//! one of the two cases, however many reads it made before (a plain-JSON check that reads, say).

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};
use crate::pattern::{any, escape, one_of, subset};

const S: &str = "accessors";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

/// The two admissible readings of a value holding a getter (PRJ-RCIP-JSON-01): `kept` (read, and
/// what was checked is what is kept) or `refused`. IMPL-DEFINED: the step fails when neither
/// matches, which is how a runtime keeping an unchecked read fails (PRJ-RCIP-JSON-02).
fn either(handle: &str, kept: Value, refused: Value, reqs: &[&str]) -> Value {
    expect_outcome(handle, one_of([kept, refused]))
        .strict(Strictness::ImplDefined)
        .reqs(reqs)
}

/// How many answers a getter of these cases gives before it repeats its last one.
const READS: usize = 8;

/// A getter alternating `first` and `second` (`first` on odd reads), and the same getter
/// starting with `second`: a runtime that checks one read and keeps the next one (or the one
/// before) sees a valid and an invalid answer in one of the two, however many reads come before.
fn orders(valid: Value, invalid: Value) -> [(u32, Value, &'static str); 2] {
    let alternating = |first: &Value, second: &Value| {
        escape::getter((0..READS).map(|k| {
            if k % 2 == 0 {
                first.clone()
            } else {
                second.clone()
            }
        }))
    };
    [
        (1, alternating(&valid, &invalid), "valid first"),
        (2, alternating(&invalid, &valid), "invalid first"),
    ]
}

fn input_cases() -> Vec<Case> {
    orders(json!("hello"), json!(42))
        .into_iter()
        .map(|(n, text, order)| {
            c(
                "input",
                n,
                &format!("An input getter runs only the checked value ({order})"),
            )
            .requirements(&[
                "PRJ-RCIP-JSON-02",
                "RCIP-LIFE-SCHEMA-04",
                "RCIP-LIFE-JSON-04",
                "CL-A05-1",
            ])
            .setup(Setup::new(&notes()).policy(allow()).to_json())
            .steps([
                bind("notes.create", "b1", returns(created())),
                invoke("i1", "notes.create", json!({ "text": text })),
                either(
                    "i1",
                    succeeded("i1", "notes.create", created()),
                    failed("i1", "notes.create", "INPUT_INVALID"),
                    &[
                        "PRJ-RCIP-JSON-01",
                        "PRJ-RCIP-JSON-02",
                        "RCIP-LIFE-SCHEMA-04",
                        "CL-B13-3",
                    ],
                ),
                expect_handler_calls(
                    None,
                    one_of([
                        json!([]),
                        json!([handler_call(
                            "notes.create",
                            json!({ "text": "hello" }),
                            "i1",
                            any()
                        )]),
                    ]),
                )
                .strict(Strictness::ImplDefined)
                .reqs(&[
                    "PRJ-RCIP-JSON-01",
                    "PRJ-RCIP-JSON-02",
                    "RCIP-LIFE-JSON-04",
                ]),
                expect_policy_calls(
                    None,
                    one_of([
                        json!([]),
                        json!([policy_call(
                            "notes.create",
                            json!({ "text": "hello" }),
                            any(),
                            false
                        )]),
                    ]),
                )
                .strict(Strictness::ImplDefined)
                .reqs(&["PRJ-RCIP-JSON-01", "PRJ-RCIP-JSON-02", "CL-A05-1"]),
            ])
        })
        .collect()
}

fn output_cases() -> Vec<Case> {
    orders(json!("n1"), json!(42))
        .into_iter()
        .map(|(n, id, order)| {
            c(
                "output",
                n,
                &format!("An output getter returns only the checked value ({order})"),
            )
            .requirements(&["PRJ-RCIP-JSON-02", "CL-B12-1", "RCIP-LIFE-JSON-01"])
            .setup(Setup::new(&notes()).policy(allow()).to_json())
            .steps([
                bind("notes.create", "b1", returns(json!({ "id": id }))),
                invoke("i1", "notes.create", json!({ "text": "hello" })),
                either(
                    "i1",
                    succeeded("i1", "notes.create", json!({ "id": "n1" })),
                    failed("i1", "notes.create", "OUTPUT_INVALID"),
                    &[
                        "PRJ-RCIP-JSON-01",
                        "PRJ-RCIP-JSON-02",
                        "CL-B12-1",
                        "RCIP-LIFE-JSON-01",
                    ],
                ),
            ])
        })
        .collect()
}

/// The `notes` definition, its application id replaced by `id`.
fn notes_with_application_id(id: Value) -> Value {
    let mut definition = notes().to_json();
    if let Some(application) = definition
        .get_mut("application")
        .and_then(Value::as_object_mut)
    {
        application.insert("id".into(), id);
    }
    definition
}

/// The `notes` definition, `notes.create` given a usage example whose `text` is `text`.
fn notes_with_example(text: Value) -> Value {
    let usage = |text: Value| {
        json!({
            "whenToUse": "To add a note",
            "examples": [{ "description": "A short note", "input": { "text": text } }]
        })
    };
    let mut definition = notes().to_json();
    if let Some(caps) = definition
        .get_mut("capabilities")
        .and_then(Value::as_array_mut)
    {
        for cap in caps {
            if cap.get("id").and_then(Value::as_str) == Some("notes.create") {
                if let Some(object) = cap.as_object_mut() {
                    object.insert("usage".into(), usage(text.clone()));
                }
            }
        }
    }
    definition
}

/// Creation may throw (a refused getter, PRJ-RCIP-JSON-01, or a refused invalid read, CL-B18);
/// when it does not, the snapshot publishes the valid answer, the one that passed the check.
fn definition_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (n, id, order) in orders(json!("notes-app"), json!("Notes App")) {
        cases.push(
            c(
                "definition-id",
                n,
                &format!("An application id getter publishes the checked id ({order})"),
            )
            .requirements(&[
                "PRJ-RCIP-JSON-01",
                "PRJ-RCIP-JSON-02",
                "CL-B18-1",
                "RCIP-PROTO-LIFE-12",
            ])
            .setup(
                Setup::raw(notes_with_application_id(id))
                    .policy(allow())
                    .creation("may-throw")
                    .to_json(),
            )
            .steps([expect_snapshot(
                None,
                subset(json!({ "application": subset(json!({ "id": "notes-app" })) })),
            )
            .reqs(&["PRJ-RCIP-JSON-02", "CL-B18-1", "CL-A07-1"])]),
        );
    }
    for (n, text, order) in orders(json!("hello"), json!(42)) {
        let published = json!({
            "whenToUse": "To add a note",
            "examples": [{ "description": "A short note", "input": { "text": "hello" } }]
        });
        cases.push(
            c(
                "definition-example",
                n,
                &format!("A usage example getter publishes the checked input ({order})"),
            )
            .requirements(&[
                "PRJ-RCIP-JSON-01",
                "PRJ-RCIP-JSON-02",
                "CL-B18-8",
                "RCIP-PROTO-LIFE-12",
            ])
            .setup(
                Setup::raw(notes_with_example(text))
                    .policy(allow())
                    .creation("may-throw")
                    .to_json(),
            )
            .steps([expect_snapshot(
                None,
                subset(json!({ "capabilities": crate::pattern::contains(
                        [subset(json!({ "id": "notes.create", "usage": published }))],
                        false,
                    ) })),
            )
            .reqs(&["PRJ-RCIP-JSON-02", "CL-B18-8", "CL-A07-3"])]),
        );
    }
    cases
}

fn availability_cases() -> Vec<Case> {
    // Counted unavailable (PRJ-RCIP-JSON-01's refusal) publishes the redacted `{available: false}`.
    let refused = subset(
        json!({ "id": "notes.list", "available": false, "availability": { "available": false } }),
    );
    let entry = |pattern: Value| {
        expect_snapshot(
            None,
            subset(json!({ "capabilities": crate::pattern::contains([pattern], false) })),
        )
        .strict(Strictness::ImplDefined)
        .reqs(&[
            "PRJ-RCIP-JSON-01",
            "PRJ-RCIP-JSON-02",
            "CL-A04-7",
            "CL-B17-1",
            "RCIP-PROTO-SNAP-04",
        ])
    };
    let mut cases = Vec::new();
    for (n, available, order) in orders(json!(true), json!("yes")) {
        cases.push(
            c("availability", n, &format!("An availability getter publishes a checked boolean ({order})"))
                .requirements(&["PRJ-RCIP-JSON-02", "CL-A04-7", "CL-B17-1"])
                .setup(Setup::new(&notes()).policy(allow()).to_json())
                .steps([
                    bind_avail("notes.list", "b1", returns(json!({ "items": [] })), json!({ "available": available })),
                    entry(one_of([
                        subset(json!({ "id": "notes.list", "available": true, "availability": { "available": true } })),
                        refused.clone(),
                    ])),
                ]),
        );
    }
    for (n, reason, order) in orders(json!("Offline"), json!(42)) {
        cases.push(
            c(
                "availability-reason",
                n,
                &format!("An availability reason getter publishes checked text ({order})"),
            )
            .requirements(&["PRJ-RCIP-JSON-02", "CL-A04-7", "CL-B17-1"])
            .setup(Setup::new(&notes()).policy(allow()).to_json())
            .steps([
                bind_avail(
                    "notes.list",
                    "b1",
                    returns(json!({ "items": [] })),
                    json!({ "available": false, "reason": reason }),
                ),
                entry(one_of([
                    subset(json!({
                        "id": "notes.list", "available": false,
                        "availability": { "available": false, "reason": "Offline" }
                    })),
                    refused.clone(),
                ])),
            ]),
        );
    }
    cases
}

pub fn section() -> Section {
    let cases = input_cases()
        .into_iter()
        .chain(output_cases())
        .chain(definition_cases())
        .chain(availability_cases())
        .collect();
    make_section(
        S,
        "Accessor properties in caller-owned values",
        "accessors",
        cases,
    )
}
