//! Section `rcip.json-values`: the plain-JSON rule for inputs and outputs (RCIP-LIFE-JSON-02/03,
//! CL-B13): every value JSON cannot carry (NaN, ±Infinity, undefined anywhere, cycles, class
//! instances, functions, bigint, symbols, sparse arrays) is rejected, as input with INPUT_INVALID
//! before policy, as output with OUTPUT_INVALID (CL-B12-1); plain JSON of every kind passes
//! unchanged. The IMPL-DEFINED points of CL-B13 (-0, shared acyclic references, null-prototype
//! objects) accept every allowed result.

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};
use crate::pattern::{escape, one_of, subset};

const S: &str = "json-values";
/// Object schemas both ways: values are judged by the JSON rule, not by a schema.
const OBJ: &str = "values.object";
/// `true` schemas both ways: any top-level value reaches the JSON rule.
const ANY: &str = "values.any";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

fn def() -> Def {
    single(vec![
        Cap::new(OBJ, "read"),
        Cap::new(ANY, "read").input(json!(true)).output(json!(true)),
    ])
}

pub fn section() -> Section {
    let mut cases = Vec::new();
    cases.extend(rejected_inputs());
    cases.extend(rejected_outputs());
    cases.extend(plain_json());
    cases.extend(impl_defined());
    make_section(S, "Plain JSON inputs and outputs", "json_values", cases)
}

/// Non-JSON values, each with the requirement ids naming its class.
fn non_json() -> Vec<(&'static str, &'static str, Value, Vec<&'static str>)> {
    let nested = |v: Value| json!({ "a": { "b": [1, v] } });
    vec![
        (
            "nan",
            "NaN",
            json!({ "v": escape::nan() }),
            vec!["RCIP-LIFE-JSON-03", "CL-B13-2"],
        ),
        (
            "infinity",
            "Infinity",
            json!({ "v": escape::infinity() }),
            vec!["RCIP-LIFE-JSON-03", "CL-B13-2"],
        ),
        (
            "neg-infinity",
            "-Infinity",
            json!({ "v": escape::neg_infinity() }),
            vec!["RCIP-LIFE-JSON-03", "CL-B13-2"],
        ),
        (
            "undefined-member",
            "an undefined member",
            json!({ "a": 1, "v": escape::undefined() }),
            vec!["RCIP-LIFE-JSON-03", "CL-B13-2"],
        ),
        (
            "undefined-element",
            "an undefined array element",
            json!({ "v": [1, escape::undefined()] }),
            vec!["RCIP-LIFE-JSON-03", "CL-B13-2"],
        ),
        (
            "cycle",
            "a cycle to the root",
            json!({ "self": escape::reference("") }),
            vec!["RCIP-LIFE-JSON-03", "CL-B13-2"],
        ),
        (
            "nested-cycle",
            "a nested cycle",
            json!({ "a": { "b": { "up": escape::reference("/a") } } }),
            vec!["RCIP-LIFE-JSON-03", "CL-B13-2"],
        ),
        (
            "class-instance",
            "a class instance",
            json!({ "v": escape::class_instance("Point", json!({ "x": 1, "y": 2 })) }),
            vec!["RCIP-LIFE-JSON-03", "CL-B13-2"],
        ),
        (
            "function",
            "a function",
            json!({ "v": escape::function() }),
            vec!["RCIP-LIFE-JSON-02", "CL-B13-2"],
        ),
        (
            "bigint",
            "a bigint",
            json!({ "v": escape::bigint("9007199254740993") }),
            vec!["RCIP-LIFE-JSON-02", "CL-B13-2"],
        ),
        (
            "symbol",
            "a symbol",
            json!({ "v": escape::symbol() }),
            vec!["RCIP-LIFE-JSON-02", "CL-B13-2"],
        ),
        (
            "sparse-array",
            "a sparse array",
            json!({ "v": escape::sparse_array(3, json!({ "0": 1, "2": 3 })) }),
            vec!["RCIP-LIFE-JSON-02", "CL-B13-2"],
        ),
        (
            "nested-nan",
            "a deeply nested NaN",
            nested(escape::nan()),
            vec!["RCIP-LIFE-JSON-03", "CL-B13-2"],
        ),
        (
            "nested-class-instance",
            "a nested class instance",
            nested(escape::class_instance("Date", json!({}))),
            vec!["RCIP-LIFE-JSON-03", "CL-B13-2"],
        ),
    ]
}

/// Top-level non-JSON values, sent to the capability with `true` schemas.
fn top_level() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        ("top-undefined", "undefined", escape::undefined()),
        ("top-nan", "NaN", escape::nan()),
        ("top-bigint", "a bigint", escape::bigint("1")),
        ("top-function", "a function", escape::function()),
        (
            "top-class-instance",
            "a class instance",
            escape::class_instance("Note", json!({ "text": "a" })),
        ),
    ]
}

fn input_case(slug: &str, description: &str, cap: &str, input: Value, reqs: &[&str]) -> Case {
    let mut all = vec!["CL-B13-3", "RCIP-PROTO-LIFE-04"];
    all.extend_from_slice(reqs);
    c(&format!("input-{slug}"), 1, description)
        .requirements(&all)
        .setup(Setup::new(&def()).policy(allow()).to_json())
        .steps([
            bind(cap, "b1", returns(json!({}))),
            invoke("i1", cap, input),
            expect_outcome("i1", failed("i1", cap, "INPUT_INVALID")),
            expect_policy_count(0),
            expect_handler_count(None, 0),
        ])
}

fn rejected_inputs() -> Vec<Case> {
    let mut cases: Vec<Case> = non_json()
        .into_iter()
        .map(|(slug, what, input, reqs)| {
            input_case(
                slug,
                &format!("Input holding {what} fails with INPUT_INVALID"),
                OBJ,
                input,
                &reqs,
            )
        })
        .collect();
    cases.extend(top_level().into_iter().map(|(slug, what, input)| {
        let description = format!("A top-level input that is {what} fails with INPUT_INVALID");
        input_case(
            slug,
            &description,
            ANY,
            input,
            &["RCIP-LIFE-JSON-02", "CL-B13-2", "CL-B02-1"],
        )
    }));
    cases
}

fn output_case(slug: &str, description: &str, cap: &str, output: Value, reqs: &[&str]) -> Case {
    let mut all = vec!["CL-B12-1", "RCIP-PROTO-LIFE-08", "RCIP-LIFE-SCHEMA-04"];
    all.extend_from_slice(reqs);
    c(&format!("output-{slug}"), 1, description)
        .requirements(&all)
        .setup(Setup::new(&def()).policy(allow()).to_json())
        .steps([
            bind(cap, "b1", returns(output)),
            invoke("i1", cap, json!({})),
            expect_outcome("i1", failed("i1", cap, "OUTPUT_INVALID")),
            expect_handler_count(None, 1),
        ])
}

fn rejected_outputs() -> Vec<Case> {
    let mut cases: Vec<Case> = non_json()
        .into_iter()
        .map(|(slug, what, output, reqs)| {
            output_case(
                slug,
                &format!("Output holding {what} fails with OUTPUT_INVALID"),
                OBJ,
                output,
                &reqs,
            )
        })
        .collect();
    cases.extend(top_level().into_iter().map(|(slug, what, output)| {
        let description = format!("A top-level output that is {what} fails with OUTPUT_INVALID");
        output_case(
            slug,
            &description,
            ANY,
            output,
            &["RCIP-LIFE-JSON-02", "CL-B13-2"],
        )
    }));
    cases
}

/// Plain JSON of every kind passes both ways unchanged.
fn plain_json() -> Vec<Case> {
    let value = json!({
        "s": "text \u{e9}\u{1F600}", "empty": "", "n": 1.5, "i": -3, "big": 1e300, "small": 5e-324,
        "b": true, "f": false, "z": null, "a": [1, "two", null, [], {}], "o": { "k": { "deep": [ { } ] } }
    });
    vec![
        passes_unchanged(
            1,
            "Every plain JSON kind passes as input and as output unchanged",
            &["RCIP-LIFE-JSON-02", "CL-B13-1", "RCIP-LIFE-JSON-01"],
            value,
        ),
        c(
            "plain",
            2,
            "Top-level JSON scalars and arrays pass under true schemas",
        )
        .requirements(&["RCIP-LIFE-JSON-02", "CL-B13-1"])
        .setup(Setup::new(&def()).policy(allow()).to_json())
        .steps([
            bind(ANY, "b1", returns(json!([1, "a", null]))),
            invoke("i1", ANY, json!("just a string")),
            expect_outcome("i1", succeeded("i1", ANY, json!([1, "a", null]))),
            invoke("i2", ANY, json!(null)),
            expect_outcome("i2", succeeded("i2", ANY, json!([1, "a", null]))),
            expect_handler_calls(
                None,
                json!([
                    subset(json!({ "input": "just a string" })),
                    subset(json!({ "input": null }))
                ]),
            ),
        ]),
        c(
            "plain",
            3,
            "An object with a $value key is plain JSON and is accepted",
        )
        .requirements(&["RCIP-LIFE-JSON-02", "CL-B13-1"])
        .setup(Setup::new(&def()).policy(allow()).to_json())
        .steps([
            bind(OBJ, "b1", returns(json!({}))),
            invoke(
                "i1",
                OBJ,
                json!({ "v": escape::literal(json!({ "$value": "NaN" })) }),
            ),
            expect_outcome("i1", succeeded("i1", OBJ, json!({}))),
        ]),
        wide_value(),
        proto_member(),
    ]
}

/// A member named `__proto__` (an own member of a JSON object, as JSON.parse makes it) is plain
/// JSON like any other (CL-B13-1): the handler's detached input copy (RCIP-LIFE-JSON-04) and the
/// copied output (RCIP-LIFE-JSON-01) still hold it as a member. Written for a copy made by
/// assignment (`out[key] = ...`), which turns that member into the copy's prototype and loses it.
fn proto_member() -> Case {
    passes_unchanged(
        5,
        "A member named __proto__ passes as input and output unchanged",
        &["CL-B13-1", "RCIP-LIFE-JSON-04", "RCIP-LIFE-JSON-01"],
        json!({ "__proto__": { "x": 1 }, "a": 1 }),
    )
}

/// CL-B13-1 names no bound on width: 300 sibling objects (no two the same object, so no
/// shared-reference reading of CL-B13-5 applies) are plain JSON both ways, and RCIP-LIFE-JSON-01's
/// copies of input and output are equal to them. Written for the
/// copy's nesting count: a walk that counts every object it enters and forgets to count back on
/// leaving sees a wide value as a deep one, or mistakes a sibling for an ancestor (a cycle).
fn wide_value() -> Case {
    let items: Vec<Value> = (0..300).map(|k| json!({ "k": k, "o": {} })).collect();
    passes_unchanged(
        4,
        "300 sibling objects, none shared, pass as input and output unchanged",
        &["RCIP-LIFE-JSON-02", "CL-B13-1", "RCIP-LIFE-JSON-01"],
        json!({ "items": items }),
    )
}

/// `plain.N`: `value` is the input of an object-schema capability and its handler's output; both
/// arrive unchanged (the handler's input, the outcome's output).
fn passes_unchanged(n: u32, description: &str, requirements: &[&str], value: Value) -> Case {
    c("plain", n, description)
        .requirements(requirements)
        .setup(Setup::new(&def()).policy(allow()).to_json())
        .steps([
            bind(OBJ, "b1", returns(value.clone())),
            invoke("i1", OBJ, value.clone()),
            expect_outcome("i1", succeeded("i1", OBJ, value.clone())),
            expect_handler_calls(None, json!([subset(json!({ "input": value }))])),
        ])
}

/// CL-B13-4..6: every allowed result is listed.
fn impl_defined() -> Vec<Case> {
    let shared = json!({ "a": { "x": 1 }, "b": escape::reference("/a") });
    let null_proto = json!({ "v": escape::null_prototype(json!({ "x": 1 })) });
    let accepted_or = |inv: &str, cap: &str, output: Value, code: &str| {
        one_of([succeeded(inv, cap, output), failed(inv, cap, code)])
    };
    vec![
        c("negative-zero", 1, "-0 in an input is kept or normalised to 0")
            .requirements(&["CL-B13-1", "RCIP-LIFE-JSON-02", "CL-B13-4"])
            .setup(Setup::new(&def()).policy(allow()).to_json())
            .steps([
                bind(OBJ, "b1", returns(json!({}))),
                invoke("i1", OBJ, json!({ "v": escape::neg_zero() })),
                expect_outcome("i1", succeeded("i1", OBJ, json!({}))).note("-0 is a finite number: accepted either way"),
                expect_handler_calls(
                    None,
                    json!([subset(json!({ "input": one_of([json!({ "v": 0 }), json!({ "v": escape::neg_zero() })]) }))]),
                )
                .strict(Strictness::ImplDefined)
                .reqs(&["CL-B13-4"]),
            ]),
        c("negative-zero", 2, "-0 in an output is kept or normalised to 0")
            .requirements(&["CL-B13-1", "RCIP-LIFE-JSON-02", "CL-B12-1", "CL-B13-4"])
            .setup(Setup::new(&def()).policy(allow()).to_json())
            .steps([
                bind(OBJ, "b1", returns(json!({ "v": escape::neg_zero() }))),
                invoke("i1", OBJ, json!({})),
                expect_outcome("i1", subset(json!({ "status": "succeeded", "invocationId": "i1", "capabilityId": OBJ })))
                    .note("-0 is a finite number, so the output is plain JSON: not OUTPUT_INVALID"),
                expect_outcome(
                    "i1",
                    one_of([succeeded("i1", OBJ, json!({ "v": 0 })), succeeded("i1", OBJ, json!({ "v": escape::neg_zero() }))]),
                )
                .strict(Strictness::ImplDefined)
                .reqs(&["CL-B13-4"]),
            ]),
        c("shared-reference", 1, "An input with a shared acyclic reference is accepted or rejected")
            .requirements(&["CL-B13-5"])
            .strictness(Strictness::ImplDefined)
            .setup(Setup::new(&def()).policy(allow()).to_json())
            .steps([
                bind(OBJ, "b1", returns(json!({}))),
                invoke("i1", OBJ, shared.clone()),
                expect_outcome("i1", accepted_or("i1", OBJ, json!({}), "INPUT_INVALID")),
            ]),
        c("shared-reference", 2, "An output with a shared acyclic reference is accepted or rejected")
            .requirements(&["CL-B13-5"])
            .strictness(Strictness::ImplDefined)
            .setup(Setup::new(&def()).policy(allow()).to_json())
            .steps([
                bind(OBJ, "b1", returns(shared)),
                invoke("i1", OBJ, json!({})),
                expect_outcome(
                    "i1",
                    one_of([
                        succeeded("i1", OBJ, json!({ "a": { "x": 1 }, "b": { "x": 1 } })),
                        failed("i1", OBJ, "OUTPUT_INVALID"),
                    ]),
                ),
            ]),
        c("null-prototype", 1, "An input holding a null-prototype object is accepted or rejected")
            .requirements(&["CL-B13-6"])
            .strictness(Strictness::ImplDefined)
            .setup(Setup::new(&def()).policy(allow()).to_json())
            .steps([
                bind(OBJ, "b1", returns(json!({}))),
                invoke("i1", OBJ, null_proto.clone()),
                expect_outcome("i1", accepted_or("i1", OBJ, json!({}), "INPUT_INVALID")),
            ]),
        c("null-prototype", 2, "An output holding a null-prototype object is accepted or rejected")
            .requirements(&["CL-B13-6"])
            .strictness(Strictness::ImplDefined)
            .setup(Setup::new(&def()).policy(allow()).to_json())
            .steps([
                bind(OBJ, "b1", returns(null_proto)),
                invoke("i1", OBJ, json!({})),
                expect_outcome("i1", accepted_or("i1", OBJ, json!({ "v": { "x": 1 } }), "OUTPUT_INVALID")),
            ]),
    ]
}
