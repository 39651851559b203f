//! Section `rcip.schema-profile`: the schema profile "JSON Schema 2020-12, strict" of CL-B19 and
//! RCIP-LIFE-SCHEMA-01..10. Valid and invalid instances for the common 2020-12 keywords (type,
//! properties, required, additionalProperties, items/prefixItems, enum/const, numeric and string
//! bounds, $ref to $defs, boolean schemas); no coercion, no defaults, no removal; every independent
//! violation reported with instancePath and keyword; and every configuration-error class (format,
//! unknown keyword, remote or unresolvable $ref, malformed schema) at binding or earlier. Ajv's
//! extra strictness (CL-B19-11) is IMPL-DEFINED.

use serde_json::{json, Value};

use super::support::*;
use crate::case::{Case, Section, Strictness};
use crate::pattern::{escape, of_type, one_of, subset};

const S: &str = "schema-profile";
const CAP: &str = "check.run";

fn c(slug: &str, n: u32, description: &str) -> Case {
    case(S, slug, n, description)
}

pub fn section() -> Section {
    let mut cases = Vec::new();
    cases.extend(instances());
    cases.extend(not_modified());
    cases.extend(all_errors());
    cases.extend(configuration_errors());
    cases.extend(accepted_schemas());
    cases.extend(ref_resolution());
    cases.extend(ajv_strictness());
    make_section(
        S,
        "Schema profile: JSON Schema 2020-12, strict",
        "schema_profile",
        cases,
    )
}

fn def_with_input(schema: Value) -> Def {
    single(vec![Cap::new(CAP, "read").input(schema)])
}

/// One object schema with a single property `p` described by `property`.
fn with_property(property: Value) -> Value {
    json!({ "type": "object", "properties": { "p": property } })
}

/// A valid instance: the handler receives it unchanged and the invocation succeeds.
fn accepts(
    slug: &str,
    n: u32,
    description: &str,
    schema: Value,
    input: Value,
    reqs: &[&str],
) -> Case {
    c(slug, n, description)
        .requirements(reqs)
        .setup(
            Setup::new(&def_with_input(schema))
                .policy(allow())
                .to_json(),
        )
        .steps([
            bind(CAP, "b1", returns(json!({}))),
            invoke("i1", CAP, input.clone()),
            expect_outcome("i1", succeeded("i1", CAP, json!({}))),
            expect_handler_calls(None, json!([subset(json!({ "input": input }))])),
        ])
}

/// An invalid instance: INPUT_INVALID, no policy or handler call, and (RECOMMENDED, CL-B19-10)
/// exactly the (instancePath, keyword) pairs a 2020-12 validator reports.
fn rejects(
    slug: &str,
    n: u32,
    description: &str,
    schema: Value,
    input: Value,
    issues: &[(&str, &str)],
    reqs: &[&str],
) -> Case {
    c(slug, n, description)
        .requirements(reqs)
        .setup(
            Setup::new(&def_with_input(schema))
                .policy(allow())
                .to_json(),
        )
        .steps([
            bind(CAP, "b1", returns(json!({}))),
            invoke("i1", CAP, input),
            expect_outcome("i1", failed("i1", CAP, "INPUT_INVALID")),
            // The input schema is checked before policy runs (CL-B03-1).
            expect_policy_count(0).reqs(&["CL-B03-1", "RCIP-PROTO-LIFE-04"]),
            expect_handler_count(None, 0),
            expect_outcome("i1", input_invalid_with("i1", CAP, issues))
                .strict(Strictness::Recommended)
                .reqs(&["CL-B19-9", "CL-B19-10"]),
        ])
}

/// An embedded `$id` resource whose own `$ref` points into its own `$defs`. JSON Schema 2020-12
/// resolves that reference against the resource's base URI (CL-B19-7), but the RCIP text names Ajv
/// 8 as the validator, and Ajv 8 refuses this schema at compilation: Ajv's extra strictness on an
/// otherwise valid schema is IMPL-DEFINED (CL-B19-11). So either the schema is refused (at creation
/// or at binding, and the invocation then finds the capability unbound) or the reference resolves
/// in the resource; resolving it against the root document, or applying another target, fails.
fn embedded_resource(
    n: u32,
    description: &str,
    schema: Value,
    input: Value,
    resolved: Value,
) -> Case {
    c("ref-embedded-resource", n, description)
        .requirements(&["CL-B19-7", "CL-B19-11", "RCIP-LIFE-SCHEMA-01", "RCIP-LIFE-SCHEMA-04"])
        .strictness(Strictness::ImplDefined)
        .setup(Setup::new(&def_with_input(schema)).policy(allow()).creation("may-throw").to_json())
        .notes("IMPL-DEFINED (CL-B19-11): Ajv 8, which the RCIP text names, refuses this valid 2020-12 schema; a runtime that accepts it resolves the embedded $ref in its resource (CL-B19-7)")
        .steps([
            bind(CAP, "b1", returns(json!({}))).may_throw(),
            invoke("i1", CAP, input),
            expect_outcome("i1", one_of([resolved, failed("i1", CAP, "CAPABILITY_UNBOUND")])),
        ])
}

const KW: [&str; 3] = ["CL-B19-1", "RCIP-LIFE-SCHEMA-01", "RCIP-LIFE-SCHEMA-04"];

/// Two `$defs` members reached through percent-encoded fragments: "a b" (`%20`) and "c/d"
/// (`~1`, itself written `%7E1`).
fn encoded_refs() -> Value {
    json!({
        "type": "object",
        "properties": {
            "spaced": { "$ref": "#/$defs/a%20b" },
            "slashed": { "$ref": "#/$defs/c%7E1d" }
        },
        "$defs": { "a b": { "type": "string" }, "c/d": { "type": "string" } }
    })
}

fn kw(extra: &[&'static str]) -> Vec<&'static str> {
    KW.iter().copied().chain(extra.iter().copied()).collect()
}

fn instances() -> Vec<Case> {
    let typed = json!({
        "type": "object",
        "properties": {
            "i": { "type": "integer" }, "n": { "type": "number" }, "s": { "type": "string" },
            "b": { "type": "boolean" }, "z": { "type": "null" }, "a": { "type": "array" }, "o": { "type": "object" }
        }
    });
    let required = json!({
        "type": "object",
        "properties": { "title": { "type": "string" }, "body": { "type": "string" } },
        "required": ["title", "body"]
    });
    let closed = json!({ "type": "object", "properties": { "title": { "type": "string" } }, "additionalProperties": false });
    let map = json!({ "type": "object", "additionalProperties": { "type": "integer" } });
    let items = with_property(json!({ "type": "array", "items": { "type": "string" } }));
    let tuple = with_property(json!({
        "type": "array", "prefixItems": [ { "type": "string" }, { "type": "integer" } ], "minItems": 2, "items": false
    }));
    let enumerated = with_property(json!({ "type": "string", "enum": ["low", "high"] }));
    let constant = with_property(json!({ "const": "v1" }));
    let bounds = with_property(json!({ "type": "integer", "minimum": 1, "maximum": 10 }));
    let exclusive =
        with_property(json!({ "type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1 }));
    let multiple = with_property(json!({ "type": "integer", "multipleOf": 5 }));
    let strings = with_property(json!({ "type": "string", "minLength": 2, "maxLength": 4 }));
    let pattern = with_property(json!({ "type": "string", "pattern": "^[a-z]+$" }));
    let code_points = with_property(json!({ "type": "string", "maxLength": 1 }));
    let arrays = with_property(
        json!({ "type": "array", "minItems": 1, "maxItems": 2, "uniqueItems": true }),
    );
    let referenced = json!({
        "type": "object",
        "properties": { "p": { "$ref": "#/$defs/point" } },
        "required": ["p"],
        "$defs": { "point": {
            "type": "object", "properties": { "x": { "type": "number" }, "y": { "type": "number" } }, "required": ["x", "y"]
        } }
    });
    let boolean_member =
        json!({ "type": "object", "properties": { "legacy": false, "any": true } });
    vec![
        accepts(
            "type",
            1,
            "Instances of each JSON type match their type keyword",
            typed.clone(),
            json!({ "i": 3, "n": 1.5, "s": "x", "b": true, "z": null, "a": [1], "o": {} }),
            &kw(&[]),
        ),
        rejects(
            "type",
            2,
            "A fractional number fails type integer",
            typed.clone(),
            json!({ "i": 1.5 }),
            &[("/i", "type")],
            &kw(&[]),
        ),
        rejects(
            "type",
            3,
            "A string fails type boolean",
            typed.clone(),
            json!({ "b": "true" }),
            &[("/b", "type")],
            &kw(&["CL-B19-2"]),
        ),
        rejects(
            "type",
            4,
            "A number fails type null",
            typed.clone(),
            json!({ "z": 0 }),
            &[("/z", "type")],
            &kw(&[]),
        ),
        rejects(
            "type",
            5,
            "An object fails type array",
            typed,
            json!({ "a": {} }),
            &[("/a", "type")],
            &kw(&[]),
        ),
        rejects(
            "type",
            6,
            "An array input fails a top-level type object",
            json!({ "type": "object" }),
            json!([]),
            &[("", "type")],
            &kw(&[]),
        ),
        accepts(
            "required",
            1,
            "An instance with every required member is valid",
            required.clone(),
            json!({ "title": "t", "body": "b" }),
            &kw(&[]),
        ),
        rejects(
            "required",
            2,
            "A missing required member is reported at the object",
            required,
            json!({ "title": "t" }),
            &[("", "required")],
            &kw(&[]),
        ),
        accepts(
            "additional-properties",
            1,
            "Declared members only pass additionalProperties false",
            closed.clone(),
            json!({ "title": "t" }),
            &kw(&[]),
        ),
        rejects(
            "additional-properties",
            2,
            "An extra member fails additionalProperties false",
            closed,
            json!({ "title": "t", "extra": 1 }),
            &[("", "additionalProperties")],
            &kw(&[]),
        ),
        accepts(
            "additional-properties",
            3,
            "Members matching an additionalProperties schema pass",
            map.clone(),
            json!({ "a": 1, "b": 2 }),
            &kw(&[]),
        ),
        rejects(
            "additional-properties",
            4,
            "A member failing the additionalProperties schema is reported",
            map,
            json!({ "a": 1, "b": "two" }),
            &[("/b", "type")],
            &kw(&[]),
        ),
        accepts(
            "items",
            1,
            "Every array element matching items is valid",
            items.clone(),
            json!({ "p": ["a", "b"] }),
            &kw(&[]),
        ),
        rejects(
            "items",
            2,
            "An element failing items is reported at its index",
            items,
            json!({ "p": ["a", 1] }),
            &[("/p/1", "type")],
            &kw(&[]),
        ),
        accepts(
            "prefix-items",
            1,
            "A tuple matching prefixItems is valid",
            tuple.clone(),
            json!({ "p": ["a", 1] }),
            &kw(&[]),
        ),
        rejects(
            "prefix-items",
            2,
            "A tuple element of the wrong type is reported at its index",
            tuple.clone(),
            json!({ "p": ["a", "b"] }),
            &[("/p/1", "type")],
            &kw(&[]),
        ),
        extra_tuple_element(tuple),
        accepts(
            "enum",
            1,
            "A listed value passes enum",
            enumerated.clone(),
            json!({ "p": "high" }),
            &kw(&[]),
        ),
        rejects(
            "enum",
            2,
            "An unlisted value fails enum",
            enumerated,
            json!({ "p": "mid" }),
            &[("/p", "enum")],
            &kw(&[]),
        ),
        accepts(
            "const",
            1,
            "The constant value passes const",
            constant.clone(),
            json!({ "p": "v1" }),
            &kw(&[]),
        ),
        rejects(
            "const",
            2,
            "Another value fails const",
            constant,
            json!({ "p": "v2" }),
            &[("/p", "const")],
            &kw(&[]),
        ),
        accepts(
            "numeric-bounds",
            1,
            "Numbers at the inclusive bounds are valid",
            bounds.clone(),
            json!({ "p": 10 }),
            &kw(&[]),
        ),
        rejects(
            "numeric-bounds",
            2,
            "A number below minimum fails",
            bounds.clone(),
            json!({ "p": 0 }),
            &[("/p", "minimum")],
            &kw(&[]),
        ),
        rejects(
            "numeric-bounds",
            3,
            "A number above maximum fails",
            bounds,
            json!({ "p": 11 }),
            &[("/p", "maximum")],
            &kw(&[]),
        ),
        accepts(
            "numeric-bounds",
            4,
            "A number strictly inside exclusive bounds is valid",
            exclusive.clone(),
            json!({ "p": 0.5 }),
            &kw(&[]),
        ),
        rejects(
            "numeric-bounds",
            5,
            "A number equal to exclusiveMinimum fails",
            exclusive.clone(),
            json!({ "p": 0 }),
            &[("/p", "exclusiveMinimum")],
            &kw(&[]),
        ),
        rejects(
            "numeric-bounds",
            6,
            "A number equal to exclusiveMaximum fails",
            exclusive,
            json!({ "p": 1 }),
            &[("/p", "exclusiveMaximum")],
            &kw(&[]),
        ),
        accepts(
            "numeric-bounds",
            7,
            "A multiple of multipleOf is valid",
            multiple.clone(),
            json!({ "p": 15 }),
            &kw(&[]),
        ),
        rejects(
            "numeric-bounds",
            8,
            "A number that is not a multiple fails multipleOf",
            multiple,
            json!({ "p": 7 }),
            &[("/p", "multipleOf")],
            &kw(&[]),
        ),
        accepts(
            "string-bounds",
            1,
            "A string within minLength and maxLength is valid",
            strings.clone(),
            json!({ "p": "abc" }),
            &kw(&[]),
        ),
        rejects(
            "string-bounds",
            2,
            "A string shorter than minLength fails",
            strings.clone(),
            json!({ "p": "a" }),
            &[("/p", "minLength")],
            &kw(&[]),
        ),
        rejects(
            "string-bounds",
            3,
            "A string longer than maxLength fails",
            strings,
            json!({ "p": "abcde" }),
            &[("/p", "maxLength")],
            &kw(&[]),
        ),
        accepts(
            "string-bounds",
            4,
            "String length counts code points, not UTF-16 units",
            code_points,
            json!({ "p": "\u{1F600}" }),
            &kw(&[]),
        ),
        accepts(
            "pattern",
            1,
            "A string matching pattern is valid",
            pattern.clone(),
            json!({ "p": "abc" }),
            &kw(&[]),
        ),
        rejects(
            "pattern",
            2,
            "A string not matching pattern fails",
            pattern,
            json!({ "p": "ab1" }),
            &[("/p", "pattern")],
            &kw(&[]),
        ),
        accepts(
            "array-bounds",
            1,
            "An array within minItems and maxItems with unique items is valid",
            arrays.clone(),
            json!({ "p": [1, 2] }),
            &kw(&[]),
        ),
        rejects(
            "array-bounds",
            2,
            "An empty array fails minItems",
            arrays.clone(),
            json!({ "p": [] }),
            &[("/p", "minItems")],
            &kw(&[]),
        ),
        rejects(
            "array-bounds",
            3,
            "Too many elements fail maxItems",
            arrays.clone(),
            json!({ "p": [1, 2, 3] }),
            &[("/p", "maxItems")],
            &kw(&[]),
        ),
        rejects(
            "array-bounds",
            4,
            "Repeated elements fail uniqueItems",
            arrays,
            json!({ "p": [1, 1] }),
            &[("/p", "uniqueItems")],
            &kw(&[]),
        ),
        accepts(
            "ref",
            1,
            "An instance valid against a local $defs target is valid",
            referenced.clone(),
            json!({ "p": { "x": 1, "y": 2 } }),
            &kw(&["CL-B19-7"]),
        ),
        rejects(
            "ref",
            2,
            "A violation inside a $ref target is reported at its path",
            referenced,
            json!({ "p": { "x": 1, "y": "2" } }),
            &[("/p/y", "type")],
            &kw(&["CL-B19-7"]),
        ),
        // A `$ref` is a URI reference: its fragment is percent-decoded before it is read as a
        // JSON Pointer (JSON Schema 2020-12 §8.2.3.1 with RFC 3986 §2.1 and RFC 6901 §6), so
        // `#/$defs/a%20b` names the member "a b", and `~1` inside it a `/`.
        rejects(
            "ref-encoded-fragment",
            1,
            "A percent-encoded $ref fragment names its decoded member",
            encoded_refs(),
            json!({ "spaced": 1, "slashed": "x" }),
            &[("/spaced", "type")],
            &kw(&["CL-B19-7"]),
        ),
        accepts(
            "ref-encoded-fragment",
            2,
            "Both decoded targets accept their own instances",
            encoded_refs(),
            json!({ "spaced": "x", "slashed": "y" }),
            &kw(&["CL-B19-7"]),
        ),
        accepts(
            "boolean-schema",
            1,
            "A true subschema accepts any value",
            boolean_member.clone(),
            json!({ "any": [1, { "x": null }] }),
            &kw(&[]),
        ),
        false_subschema(boolean_member),
        accepts(
            "boolean-schema",
            3,
            "A top-level true schema accepts any JSON input",
            json!(true),
            json!([1, "two"]),
            &kw(&[]),
        ),
        c(
            "boolean-schema",
            4,
            "A top-level false schema rejects every input",
        )
        .requirements(&kw(&[]))
        .setup(
            Setup::new(&def_with_input(json!(false)))
                .policy(allow())
                .to_json(),
        )
        .steps([
            bind(CAP, "b1", returns(json!({}))),
            invoke("i1", CAP, json!({})),
            expect_outcome("i1", failed("i1", CAP, "INPUT_INVALID")),
            expect_handler_count(None, 0),
        ]),
    ]
}

/// The keyword a validator names for a `false` subschema differs between validators; only the
/// path is pinned.
fn false_subschema(schema: Value) -> Case {
    c("boolean-schema", 2, "A member under a false subschema is rejected at its path")
        .requirements(&kw(&[]))
        .setup(Setup::new(&def_with_input(schema)).policy(allow()).to_json())
        .steps([
            bind(CAP, "b1", returns(json!({}))),
            invoke("i1", CAP, json!({ "legacy": 1 })),
            expect_outcome("i1", failed("i1", CAP, "INPUT_INVALID")),
            expect_handler_count(None, 0),
            expect_outcome(
                "i1",
                json!({
                    "status": "failed", "invocationId": "i1", "capabilityId": CAP, "code": "INPUT_INVALID",
                    "validationIssues": [ { "instancePath": "/legacy", "keyword": of_type("string") } ]
                }),
            )
            .strict(Strictness::Recommended)
            .reqs(&["CL-B19-9", "CL-B19-10"]),
        ])
}

/// `items: false` after `prefixItems`: Ajv (named by RCIP-LIFE-SCHEMA-01) reports one `items` issue
/// at the array; other 2020-12 validators report the false subschema at the extra element. Both
/// are "a 2020-12 validator reporting all errors" (CL-B19-10), so both are accepted.
fn extra_tuple_element(schema: Value) -> Case {
    c("prefix-items", 3, "A tuple with an extra element fails items false")
        .requirements(&kw(&[]))
        .setup(Setup::new(&def_with_input(schema)).policy(allow()).to_json())
        .steps([
            bind(CAP, "b1", returns(json!({}))),
            invoke("i1", CAP, json!({ "p": ["a", 1, 2] })),
            expect_outcome("i1", failed("i1", CAP, "INPUT_INVALID")),
            expect_handler_count(None, 0),
            expect_outcome(
                "i1",
                json!({
                    "status": "failed", "invocationId": "i1", "capabilityId": CAP, "code": "INPUT_INVALID",
                    "validationIssues": crate::pattern::one_of([
                        json!([ { "instancePath": "/p", "keyword": "items" } ]),
                        json!([ { "instancePath": "/p/2", "keyword": of_type("string") } ]),
                    ])
                }),
            )
            .strict(Strictness::Recommended)
            .reqs(&["CL-B19-9", "CL-B19-10"]),
        ])
}

/// No coercion, no defaults, no removal of extra properties (CL-B19-2..4).
fn not_modified() -> Vec<Case> {
    let integer = with_property(json!({ "type": "integer" }));
    let string = with_property(json!({ "type": "string" }));
    let defaults = json!({
        "type": "object",
        "properties": { "title": { "type": "string" }, "pinned": { "type": "boolean", "default": false } },
        "required": ["title"]
    });
    let open = json!({ "type": "object", "properties": { "title": { "type": "string" } } });
    vec![
        rejects(
            "no-coercion",
            1,
            "A numeric string is not coerced to an integer",
            integer,
            json!({ "p": "5" }),
            &[("/p", "type")],
            &["CL-B19-2", "RCIP-LIFE-SCHEMA-05"],
        ),
        rejects(
            "no-coercion",
            2,
            "A number is not coerced to a string",
            string.clone(),
            json!({ "p": 5 }),
            &[("/p", "type")],
            &["CL-B19-2", "RCIP-LIFE-SCHEMA-05"],
        ),
        rejects(
            "no-coercion",
            3,
            "null is not coerced to an empty string",
            string,
            json!({ "p": null }),
            &[("/p", "type")],
            &["CL-B19-2", "RCIP-LIFE-SCHEMA-05"],
        ),
        accepts(
            "no-defaults",
            1,
            "A schema default is not inserted into the handler's input",
            defaults,
            json!({ "title": "t" }),
            &["CL-B19-3", "RCIP-LIFE-SCHEMA-05"],
        ),
        accepts(
            "no-removal",
            1,
            "Undeclared members reach the handler when not forbidden",
            open,
            json!({ "title": "t", "color": "red", "nested": { "k": [1] } }),
            &["CL-B19-4", "RCIP-LIFE-SCHEMA-06"],
        ),
    ]
}

/// Every independent violation is reported (RCIP-LIFE-SCHEMA-03 "allErrors: true"). What the texts
/// force is REQUIRED: more than one issue is reported, each carrying `instancePath` and `keyword`
/// (CL-B19-9). Which pairs exactly is RECOMMENDED (CL-B19-10: equal to a 2020-12 validator reporting
/// all errors), so the exact set is a separate RECOMMENDED check.
fn all_errors() -> Vec<Case> {
    let two = json!({
        "type": "object",
        "properties": { "title": { "type": "string" }, "count": { "type": "integer", "minimum": 0 } },
        "required": ["title", "count"],
        "additionalProperties": false
    });
    let schema_three = json!({
        "type": "object",
        "properties": { "tags": { "type": "array", "items": { "type": "string" } } }
    });
    let required_steps = |input: Value, issues: &[(&str, &str)]| {
        vec![
            bind(CAP, "b1", returns(json!({}))),
            invoke("i1", CAP, input),
            expect_outcome(
                "i1",
                json!({
                    "status": "failed", "invocationId": "i1", "capabilityId": CAP, "code": "INPUT_INVALID",
                    "validationIssues": several_issues()
                }),
            )
            .reqs(&["RCIP-LIFE-SCHEMA-03", "CL-B19-9", "CL-A06-3"])
            .note("allErrors: more than the first violation is reported, each with instancePath and keyword"),
            expect_outcome("i1", subset(json!({ "validationIssues": issue_set(issues) })))
                .strict(Strictness::Recommended)
                .reqs(&["CL-B19-10"])
                .note("the exact (instancePath, keyword) set of a 2020-12 validator reporting all errors"),
        ]
    };
    vec![
        c(
            "all-errors",
            1,
            "Two independent member violations are both reported",
        )
        .requirements(&["RCIP-LIFE-SCHEMA-03", "CL-B19-9", "CL-A06-2", "CL-A06-3"])
        .setup(
            Setup::new(&def_with_input(two.clone()))
                .policy(allow())
                .to_json(),
        )
        .steps(required_steps(
            json!({ "title": 1, "count": -1 }),
            &[("/title", "type"), ("/count", "minimum")],
        )),
        c(
            "all-errors",
            2,
            "A missing member and an extra member are both reported",
        )
        .requirements(&["RCIP-LIFE-SCHEMA-03", "CL-B19-9", "CL-A06-3"])
        .setup(Setup::new(&def_with_input(two)).policy(allow()).to_json())
        .steps(required_steps(
            json!({ "title": "t", "extra": true }),
            &[("", "required"), ("", "additionalProperties")],
        )),
        c(
            "all-errors",
            3,
            "Violations in several array elements are all reported",
        )
        .requirements(&["RCIP-LIFE-SCHEMA-03", "CL-B19-9"])
        .setup(
            Setup::new(&def_with_input(schema_three))
                .policy(allow())
                .to_json(),
        )
        .steps(required_steps(
            json!({ "tags": [1, "ok", false] }),
            &[("/tags/0", "type"), ("/tags/2", "type")],
        )),
    ]
}

/// Two to sixteen validation issues, each an `instancePath` and a `keyword` (strings): the
/// REQUIRED reading of "allErrors: true" for an input with two independent violations (no
/// validator reports more than sixteen issues for two violations; the upper bound only keeps the
/// pattern finite).
fn several_issues() -> Value {
    let issue = json!({ "instancePath": of_type("string"), "keyword": of_type("string") });
    one_of((2..=16).map(|n| Value::Array(vec![issue.clone(); n])))
}

/// A schema that the strict profile rejects: a host configuration error at binding or earlier.
fn config_error(slug: &str, n: u32, description: &str, cap: Cap, reqs: &[&str]) -> Case {
    let def = single(vec![cap]);
    c(slug, n, description)
        .requirements(reqs)
        .setup(
            Setup::new(&def)
                .policy(allow())
                .creation("may-throw")
                .to_json(),
        )
        .notes("creation may throw; if it does not, binding must throw (CL-B19-8)")
        .steps([
            bind(CAP, "b1", returns(json!({}))).throws(true),
            invoke("i1", CAP, json!({})),
            expect_handler_count(None, 0).note("the rejected binding never runs"),
        ])
}

fn configuration_errors() -> Vec<Case> {
    let input = |schema: Value| Cap::new(CAP, "read").input(schema);
    let output = |schema: Value| Cap::new(CAP, "read").output(schema);
    let format = [
        "CL-B19-5",
        "RCIP-LIFE-SCHEMA-02",
        "RCIP-LIFE-SCHEMA-09",
        "RCIP-LIFE-SCHEMA-10",
        "CL-B19-8",
    ];
    let unknown = [
        "CL-B19-6",
        "RCIP-LIFE-SCHEMA-02",
        "RCIP-LIFE-SCHEMA-09",
        "RCIP-LIFE-SCHEMA-10",
        "CL-B19-8",
    ];
    let remote = [
        "CL-B19-7",
        "RCIP-LIFE-SCHEMA-09",
        "RCIP-LIFE-SCHEMA-10",
        "CL-B19-8",
    ];
    let invalid = ["CL-B19-8", "RCIP-LIFE-SCHEMA-08", "RCIP-LIFE-SCHEMA-09"];
    let not_json = ["RCIP-PROTO-DEF-07", "CL-B19-8"];
    vec![
        config_error("format", 1, "A format keyword in an input schema is a configuration error",
            input(with_property(json!({ "type": "string", "format": "email" }))), &format),
        config_error("format", 2, "A format keyword in an output schema is a configuration error",
            output(with_property(json!({ "type": "string", "format": "date-time" }))), &format),
        config_error("format", 3, "A format keyword inside a referenced $defs entry is rejected",
            input(json!({
                "type": "object", "properties": { "p": { "$ref": "#/$defs/uri" } },
                "$defs": { "uri": { "type": "string", "format": "uri" } }
            })), &format),
        config_error("format", 4, "An unknown format name is a configuration error too",
            input(with_property(json!({ "type": "string", "format": "note-id" }))), &format),
        // Every member of `properties` is a schema of its own: the forbidden keyword sits in the
        // second member, after one that is fine.
        config_error("format", 5, "A format keyword in a later member of properties is rejected",
            input(json!({
                "type": "object",
                "properties": { "a": { "type": "string" }, "b": { "type": "string", "format": "email" } }
            })), &format),
        config_error("unknown-keyword", 1, "An unknown top-level keyword is a configuration error",
            input(json!({ "type": "object", "x-internal": true })), &unknown),
        config_error("unknown-keyword", 2, "A misspelled keyword (minimun) is a configuration error",
            input(with_property(json!({ "type": "integer", "minimun": 1 }))), &unknown),
        config_error("unknown-keyword", 3, "An unknown keyword in an output schema is rejected",
            output(json!({ "type": "object", "nullable": true, "sensitive": true })), &unknown),
        config_error("remote-ref", 1, "An absolute https $ref is a configuration error",
            input(json!({ "$ref": "https://schemas.example.com/note.json" })), &remote),
        config_error("remote-ref", 2, "A relative file $ref is a configuration error",
            input(with_property(json!({ "$ref": "common.json#/$defs/id" }))), &remote),
        config_error("remote-ref", 3, "A remote $ref in an output schema is a configuration error",
            output(json!({ "$ref": "http://127.0.0.1:9/schema.json" })), &remote),
        config_error("unresolvable-ref", 1, "A $ref to a missing local $defs entry is rejected",
            input(with_property(json!({ "$ref": "#/$defs/missing" }))), &invalid),
        config_error("malformed", 1, "An unknown type name is a configuration error",
            input(json!({ "type": "text" })), &invalid),
        config_error("malformed", 2, "A negative minLength is a configuration error",
            input(with_property(json!({ "type": "string", "minLength": -1 }))), &invalid),
        config_error("malformed", 3, "A required keyword that is not an array is rejected",
            input(json!({ "type": "object", "required": "title" })), &invalid),
        config_error("malformed", 4, "A schema that is neither object nor boolean is rejected",
            input(json!("object")), &invalid),
        // A schema is a JSON value ("strict JSON-compatible input and output schemas"): one holding
        // NaN is no JSON Schema at all, so it is an invalid schema (creation or binding throws),
        // even though a JavaScript validator compiles it (Ajv takes `const: NaN`). Found by the
        // StrykerJS run of the JavaScript subject (issue 25 section 3): a subject that skipped its
        // plain-JSON check of the definition passed every case.
        config_error("not-json", 1, "An input schema holding NaN (not JSON) is a configuration error",
            input(json!({ "type": "number", "const": escape::nan() })), &not_json),
        c("with-examples", 1, "An invalid input schema with usage examples fails at creation")
            .requirements(&["RCIP-LIFE-SCHEMA-08", "RCIP-LIFE-SCHEMA-09", "CL-B19-5", "CL-B19-8", "CL-B18-8"])
            .notes("usage examples are validated at creation, so their schema is compiled (and rejected) then")
            .setup(
                Setup::new(&single(vec![Cap::new(CAP, "read")
                    .input(with_property(json!({ "type": "string", "format": "email" })))
                    .usage(json!({ "whenToUse": "To check", "examples": [ { "description": "One", "input": { "p": "a@b.c" } } ] }))]))
                .creation("throws")
                .to_json(),
            ),
    ]
}

/// Schemas the profile accepts: annotations are not unknown keywords; local references work.
fn accepted_schemas() -> Vec<Case> {
    let annotated = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Note", "description": "A note", "$comment": "internal",
        "type": "object",
        "properties": { "text": { "type": "string", "examples": ["a"], "deprecated": false, "readOnly": false } }
    });
    let nested_ref = json!({
        "type": "object",
        "properties": { "list": { "$ref": "#/$defs/list" } },
        "$defs": {
            "list": { "type": "array", "items": { "$ref": "#/$defs/item" } },
            "item": { "type": "object", "properties": { "id": { "type": "string" } }, "required": ["id"] }
        }
    });
    let combinators = json!({
        "type": "object",
        "properties": {
            "p": { "anyOf": [ { "type": "string" }, { "type": "integer" } ] },
            "q": { "type": "string", "not": { "const": "forbidden" } }
        }
    });
    vec![
        accepts("annotations", 1, "Annotation keywords and $schema 2020-12 are not configuration errors", annotated,
            json!({ "text": "a" }), &["CL-B19-1", "CL-B19-6", "RCIP-LIFE-SCHEMA-01"]),
        accepts("ref", 3, "A chain of local $ref targets validates", nested_ref.clone(),
            json!({ "list": [ { "id": "a" }, { "id": "b" } ] }), &["CL-B19-7", "RCIP-LIFE-SCHEMA-10"]),
        rejects("ref", 4, "A violation two $ref levels deep is reported at its path", nested_ref,
            json!({ "list": [ { "id": "a" }, {} ] }), &[("/list/1", "required")], &["CL-B19-7", "CL-B19-9"]),
        accepts("combinators", 1, "anyOf and not accept a matching instance", combinators.clone(),
            json!({ "p": 3, "q": "fine" }), &["CL-B19-1", "RCIP-LIFE-SCHEMA-01"]),
        c("combinators", 2, "An instance failing not is rejected")
            .requirements(&["CL-B19-1", "RCIP-LIFE-SCHEMA-01", "RCIP-LIFE-SCHEMA-04"])
            .setup(Setup::new(&def_with_input(combinators)).policy(allow()).to_json())
            .steps([
                bind(CAP, "b1", returns(json!({}))),
                invoke("i1", CAP, json!({ "q": "forbidden" })),
                expect_outcome("i1", failed("i1", CAP, "INPUT_INVALID")),
                expect_handler_count(None, 0),
            ]),
        c("output-ref", 1, "Output schemas follow the same profile: a valid output passes")
            .requirements(&["CL-B19-1", "RCIP-LIFE-SCHEMA-04"])
            .setup(
                Setup::new(&single(vec![Cap::new(CAP, "read").output(json!({
                    "type": "object", "properties": { "n": { "$ref": "#/$defs/count" } }, "required": ["n"],
                    "$defs": { "count": { "type": "integer", "minimum": 0 } }
                }))]))
                .policy(allow())
                .to_json(),
            )
            .steps([
                bind(CAP, "b1", returns(json!({ "n": 2 }))),
                invoke("i1", CAP, json!({})),
                expect_outcome("i1", succeeded("i1", CAP, json!({ "n": 2 }))),
            ]),
    ]
}

/// Where a self-contained `$ref` (CL-B19-7) points, read as JSON Schema 2020-12 (CL-B19-1,
/// RCIP-LIFE-SCHEMA-01): a `$ref` at the top level of the schema; a fragment resolved against the
/// base URI of the nearest enclosing `$id` (2020-12 Core §8.2.1, §8.2.3.1: an embedded schema
/// resource is still the same document, so the reference stays self-contained); and a pointer
/// into a value that is not a schema position (2020-12 Core §9.4.2 leaves its behaviour undefined,
/// so the project decision PRJ-RCIP-SCHEMA-01 is RECOMMENDED).
fn ref_resolution() -> Vec<Case> {
    let top_level = json!({
        "$ref": "#/$defs/note",
        "$defs": { "note": {
            "type": "object", "properties": { "title": { "type": "string" } }, "required": ["title"]
        } }
    });
    // `#/$defs/code` inside the resource `inner` names inner's own `$defs/code`; the root has no
    // `$defs/code`, so resolving it against the root would leave the reference dangling.
    let embedded = json!({
        "type": "object",
        "properties": { "p": { "$ref": "#/$defs/inner" } },
        "$defs": { "inner": {
            "$id": "https://schemas.example.com/inner",
            "$ref": "#/$defs/code",
            "$defs": { "code": { "type": "string" } }
        } }
    });
    let non_schema_target = json!({
        "type": "object",
        "properties": { "p": { "$ref": "#/$defs/holder/const" } },
        "$defs": { "holder": { "const": { "type": "string", "format": "email" } } }
    });
    let top = [
        "CL-B19-7",
        "CL-B19-1",
        "RCIP-LIFE-SCHEMA-01",
        "RCIP-LIFE-SCHEMA-04",
    ];
    vec![
        accepts("ref-top-level", 1, "A top-level $ref to a $defs entry validates through its target",
            top_level.clone(), json!({ "title": "t" }), &top),
        rejects("ref-top-level", 2, "A top-level $ref target's violation is reported",
            top_level, json!({ "body": "b" }), &[("", "required")], &top),
        embedded_resource(1, "An embedded $id resource resolves its own $ref, or is refused",
            embedded.clone(), json!({ "p": "x" }), succeeded("i1", CAP, json!({}))),
        embedded_resource(2, "An embedded resource's own $defs target applies, or it is refused",
            embedded, json!({ "p": 1 }), failed("i1", CAP, "INPUT_INVALID")),
        config_error("ref-non-schema-target", 1,
            "A $ref into a const value holding format is a configuration error",
            Cap::new(CAP, "read").input(non_schema_target),
            &["PRJ-RCIP-SCHEMA-01", "CL-B19-5", "CL-B19-8"])
            .strictness(Strictness::Recommended)
            .notes("creation may throw; if it does not, binding should throw. RECOMMENDED (PRJ-RCIP-SCHEMA-01): JSON Schema 2020-12 leaves a reference to a non-schema value undefined; applied as a schema it holds a format keyword (CL-B19-5), refused it is a configuration error too"),
    ]
}

/// CL-B19-11: Ajv's extra strictness on otherwise valid schemas may reject them. The vocabulary
/// cannot say "binding may or may not throw", so these cases do not bind: they show that a runtime
/// either rejects the schema at creation or publishes it unchanged.
fn ajv_strictness() -> Vec<Case> {
    let schemas = [
        (
            "properties-without-type",
            "properties without type may be rejected at creation",
            json!({ "properties": { "a": { "type": "string" } } }),
        ),
        (
            "union-type",
            "A union type list may be rejected at creation",
            json!({ "type": "object", "properties": { "a": { "type": ["string", "null"] } } }),
        ),
        (
            "open-tuple",
            "A tuple without bounds may be rejected at creation",
            json!({ "type": "object", "properties": { "a": { "type": "array", "prefixItems": [ { "type": "string" } ] } } }),
        ),
        (
            "required-undeclared",
            "required naming an undeclared member may be rejected at creation",
            json!({ "type": "object", "properties": { "a": { "type": "string" } }, "required": ["b"] }),
        ),
        (
            "anchor",
            "A $anchor keyword may be rejected at creation",
            json!({ "type": "object", "$anchor": "note" }),
        ),
        (
            "unreferenced-defs",
            "An invalid unreferenced $defs entry may be accepted at creation",
            json!({ "type": "object", "$defs": { "unused": { "type": "string", "format": "email" } } }),
        ),
    ];
    schemas
        .into_iter()
        .map(|(slug, description, schema)| {
            let def = single(vec![Cap::new(CAP, "read").input(schema.clone())]);
            c(&format!("ajv-strict-{slug}"), 1, description)
                .requirements(&["CL-B19-11", "RCIP-LIFE-SCHEMA-01", "RCIP-LIFE-SCHEMA-02"])
                .strictness(Strictness::ImplDefined)
                .setup(Setup::new(&def).creation("may-throw").to_json())
                .notes("IMPL-DEFINED (CL-B19-11): creation may reject the schema, or binding may, or neither")
                .steps([
                    bind(CAP, "b1", returns(json!({}))).may_throw(),
                    expect_snapshot(
                        None,
                        subset(json!({ "capabilities": [subset(json!({ "id": CAP, "inputSchema": schema }))] })),
                    ),
                ])
        })
        .collect()
}
