//! Section `rui.data`: data records replace the value at an RFC 6901 JSON Pointer (RUI-DATA-01,
//! CL-D01-4): on an existing parent they create or replace the member or element (CL-D03-1), a
//! missing parent fails the transaction (CL-D03-2), `null` sets null (CL-D03-3), `-` is not
//! supported (CL-D03-6, RECOMMENDED), and invalid pointers fail with POINTER_INVALID.

use serde_json::{json, Value};

use super::support::observe::{committed, logs, open_point_at};
use super::support::stream::{Framing, Script};
use super::support::tuples::Tx;
use super::support::{base_state, base_tx, case, code, failing, failing_after, Found, Prior};
use crate::case::{Case, Section, Strictness};
use crate::pattern::{any, one_of};

const SECTION: &str = "data";
const F: Framing = Framing::Any;

pub fn section() -> Section {
    Section::new(
        "rui.data",
        "Data records and JSON Pointers",
        "suites::cases::rui::data",
    )
    .cases(vec![
        creates_member(),
        replaces_member(),
        values_kept_as_given(),
        replaces_without_merge(),
        parent_created_earlier(),
        array_element_replaced(),
        member_inside_array_element(),
        first_element_replaced(),
        element_at_length_created(),
        index_with_leading_zero(),
        escaped_pointer(),
        empty_key_pointer(),
        null_sets_null(),
        null_creates_member(),
        root_pointer_replaces_document(),
        parent_missing(),
        grandparent_missing(),
        pointer_invalid(
            "pointer-without-leading-slash",
            "a pointer without a leading slash is invalid",
            "title",
        ),
        pointer_invalid(
            "pointer-bad-escape",
            "a pointer with ~2 is not an RFC 6901 pointer",
            "/a~2",
        ),
        pointer_invalid(
            "pointer-trailing-tilde",
            "a pointer ending in a bare ~ is invalid",
            "/a~",
        ),
        array_append_dash(),
        dash_inside_pointer(),
        scalar_parent(),
    ])
}

/// The baseline, then `tx` (base revision 1) commits as revision 2 with `data` as the document.
fn data_after_base(tx: Vec<Value>, data: Value) -> Vec<Value> {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(&tx);
    s.end();
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.revision = 2;
    state.data = data;
    s.extend(state.expect());
    s.extend(logs(
        vec![committed("t0", 1), committed("t1", 2)],
        vec![],
        vec![],
    ));
    s.steps()
}

/// The baseline and `t1` putting `value` at `/list`, then `tx` as `t2` (base revision 2).
fn data_after_list(value: Value, tx: Vec<Value>, data: Value) -> Vec<Value> {
    let mut s = Script::new(F);
    s.records(&base_tx());
    s.records(&Tx::begin("t1", 1).data("/list", value).commit(2, "r"));
    s.records(&tx);
    s.end();
    let mut state = base_state();
    state.graph["revision"] = json!(3);
    state.revision = 3;
    state.data = data;
    s.extend(state.expect());
    s.extend(logs(
        vec![committed("t0", 1), committed("t1", 2), committed("t2", 3)],
        vec![],
        vec![],
    ));
    s.steps()
}

fn creates_member() -> Case {
    let tx = Tx::begin("t1", 1)
        .data("/subtitle", json!("Hi"))
        .commit(2, "r");
    case(
        SECTION,
        "creates-member",
        1,
        F,
        "data on an existing parent creates a new member",
        &["RUI-DATA-01", "CL-D01-4", "CL-D03-1"],
    )
    .steps(data_after_base(
        tx,
        json!({ "title": "Home", "subtitle": "Hi" }),
    ))
}

fn replaces_member() -> Case {
    let tx = Tx::begin("t1", 1)
        .data("/title", json!({ "text": "Away" }))
        .commit(2, "r");
    case(
        SECTION,
        "replaces-member",
        1,
        F,
        "data replaces an existing member, whatever its type",
        &["RUI-DATA-01", "CL-D03-1"],
    )
    .steps(data_after_base(tx, json!({ "title": { "text": "Away" } })))
}

/// The value a data record sets is kept as given, of every JSON kind: a negative or fractional
/// number is no more turned into null or an integer than a boolean or an empty string is.
fn values_kept_as_given() -> Case {
    let value = json!({
        "n": -5,
        "zero": 0,
        "f": -2.25,
        "half": 0.5,
        "list": [-1, true, false, "", null, { "deep": -100 }],
    });
    let tx = Tx::begin("t1", 1).data("/v", value.clone()).commit(2, "r");
    case(
        SECTION,
        "values-kept-as-given",
        1,
        F,
        "data keeps a value as given: negative, fractional, boolean and empty",
        &["RUI-DATA-01", "CL-D03-1"],
    )
    .steps(data_after_base(tx, json!({ "title": "Home", "v": value })))
}

fn replaces_without_merge() -> Case {
    let tx = Tx::begin("t2", 2)
        .data("/list", json!({ "b": 3 }))
        .commit(3, "r");
    case(
        SECTION,
        "replaces-without-merge",
        1,
        F,
        "replacing an object value drops its old members: no merge",
        &["RUI-DATA-01", "CL-D03-1"],
    )
    .steps(data_after_list(
        json!({ "a": 1, "b": 2 }),
        tx,
        json!({ "title": "Home", "list": { "b": 3 } }),
    ))
}

fn parent_created_earlier() -> Case {
    let tx = Tx::begin("t1", 1)
        .data("/cfg", json!({}))
        .data("/cfg/theme", json!("dark"))
        .commit(2, "r");
    case(
        SECTION,
        "parent-created-earlier",
        1,
        F,
        "a parent created by an earlier data record of the same transaction",
        &["CL-D03-1", "CL-D03-2", "PRJ-RUI-TX-09"],
    )
    .steps(data_after_base(
        tx,
        json!({ "title": "Home", "cfg": { "theme": "dark" } }),
    ))
}

fn array_element_replaced() -> Case {
    let tx = Tx::begin("t2", 2)
        .data("/list/1", json!("x"))
        .commit(3, "r");
    case(
        SECTION,
        "array-element-replaced",
        1,
        F,
        "a pointer to an existing array index replaces that element",
        &["RUI-DATA-01", "CL-D03-1"],
    )
    .steps(data_after_list(
        json!([1, 2, 3]),
        tx,
        json!({ "title": "Home", "list": [1, "x", 3] }),
    ))
}

/// An RFC 6901 pointer walks through an array by index to a member of the element (CL-D01-4,
/// CL-D03-1): only that member changes.
fn member_inside_array_element() -> Case {
    let tx = Tx::begin("t2", 2)
        .data("/list/1/name", json!("renamed"))
        .commit(3, "r");
    case(
        SECTION,
        "member-inside-array-element",
        1,
        F,
        "a pointer through an array index sets a member of that element",
        &["RUI-DATA-01", "CL-D03-1", "CL-D01-4"],
    )
    .steps(data_after_list(
        json!([{ "name": "a" }, { "name": "b", "n": 1 }]),
        tx,
        json!({ "title": "Home", "list": [{ "name": "a" }, { "name": "renamed", "n": 1 }] }),
    ))
}

/// Index `0` is an RFC 6901 array index like any other (`"0"` is the one index that may start
/// with a zero): the first element is replaced (CL-D03-1).
fn first_element_replaced() -> Case {
    let tx = Tx::begin("t2", 2)
        .data("/list/0", json!("x"))
        .commit(3, "r");
    case(
        SECTION,
        "array-element-replaced",
        2,
        F,
        "a pointer to index 0 replaces the first element",
        &["RUI-DATA-01", "CL-D01-4", "CL-D03-1"],
    )
    .steps(data_after_list(
        json!([1, 2, 3]),
        tx,
        json!({ "title": "Home", "list": ["x", 2, 3] }),
    ))
}

/// `data` at the index equal to the array's length creates that element (CL-D03-1 "creates ...
/// the element"; the only element an array can gain without becoming sparse). RECOMMENDED:
/// PRJ-RUI-DATA-07, since CL-D03-6 also RECOMMENDS no append through `-`, and a runtime may read
/// "creates the element" as creating members only.
fn element_at_length_created() -> Case {
    let tx = Tx::begin("t2", 2).data("/list/2", json!(3)).commit(3, "r");
    case(
        SECTION,
        "element-at-length-created",
        1,
        F,
        "data at the index equal to the array length creates that element",
        &["PRJ-RUI-DATA-07", "CL-D03-1"],
    )
    .strictness(Strictness::Recommended)
    .steps(data_after_list(
        json!([1, 2]),
        tx,
        json!({ "title": "Home", "list": [1, 2, 3] }),
    ))
}

/// `01` is not an RFC 6901 array index ("leading zeros are not allowed", RFC 6901 §4), so the
/// pointer names no element of the array and the record cannot apply: the transaction fails
/// (RUI-DATA-01, CL-D01-4, CL-D03-1). Which code is not fixed by any sentence (a malformed
/// pointer, PRJ-RUI-DATA-02, or a missing element), so any code is accepted.
fn index_with_leading_zero() -> Case {
    let prior = vec![
        base_tx(),
        Tx::begin("t1", 1)
            .data("/list", json!([1, 2]))
            .commit(2, "r"),
    ];
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.revision = 2;
    state.data = json!({ "title": "Home", "list": [1, 2] });
    let tx = Tx::begin("t2", 2)
        .data("/list/01", json!("x"))
        .commit(3, "r");
    case(
        SECTION,
        "index-leading-zero",
        1,
        F,
        "an array token with a leading zero (01) fails the transaction",
        &["RUI-DATA-01", "CL-D01-4", "CL-D03-1"],
    )
    .steps(failing_after(
        F,
        &prior,
        vec![committed("t0", 1), committed("t1", 2)],
        state,
        &tx,
        "t2",
        any(),
        Found::AtOrAfter(1),
    ))
}

fn escaped_pointer() -> Case {
    let tx = Tx::begin("t1", 1)
        .data("/a~1b", json!(1))
        .data("/m~0n", json!(2))
        .data("/~01", json!(3))
        .commit(2, "r");
    case(
        SECTION,
        "escaped-pointer",
        1,
        F,
        "~1 and ~0 decode to / and ~ in member names (RFC 6901)",
        &["RUI-DATA-01", "CL-D01-4"],
    )
    .steps(data_after_base(
        tx,
        json!({ "title": "Home", "a/b": 1, "m~n": 2, "~1": 3 }),
    ))
}

fn empty_key_pointer() -> Case {
    let tx = Tx::begin("t1", 1).data("/", json!(5)).commit(2, "r");
    case(
        SECTION,
        "empty-member-name",
        1,
        F,
        "the pointer / names the member with the empty name",
        &["RUI-DATA-01", "CL-D01-4"],
    )
    .steps(data_after_base(tx, json!({ "title": "Home", "": 5 })))
}

fn null_sets_null() -> Case {
    let tx = Tx::begin("t1", 1)
        .data("/title", Value::Null)
        .commit(2, "r");
    case(
        SECTION,
        "null-sets-null",
        1,
        F,
        "data with null keeps the member, holding null",
        &["CL-D03-3", "CL-D03-4", "RUI-DEL-02"],
    )
    .steps(data_after_base(tx, json!({ "title": null })))
}

fn null_creates_member() -> Case {
    let tx = Tx::begin("t1", 1)
        .data("/empty", Value::Null)
        .commit(2, "r");
    case(
        SECTION,
        "null-creates-member",
        1,
        F,
        "data with null on a new member creates it holding null",
        &["CL-D03-3", "CL-D03-1"],
    )
    .steps(data_after_base(
        tx,
        json!({ "title": "Home", "empty": null }),
    ))
}

fn root_pointer_replaces_document() -> Case {
    let tx = Tx::begin("t1", 1)
        .data("", json!({ "fresh": true }))
        .commit(2, "r");
    case(
        SECTION,
        "empty-pointer-replaces-document",
        1,
        F,
        "the empty pointer replaces the whole data document",
        &["PRJ-RUI-DATA-04", "RUI-DATA-01"],
    )
    .steps(data_after_base(tx, json!({ "fresh": true })))
}

fn fails_on(
    slug: &str,
    description: &str,
    pointer: &str,
    code: Value,
    requirements: &[&str],
) -> Case {
    let tx = Tx::begin("t1", 1)
        .node("a", "Text", json!({ "text": "bye" }), &[])
        .data(pointer, json!(1))
        .commit(2, "r");
    case(SECTION, slug, 1, F, description, requirements).steps(failing(
        F,
        Prior::Base,
        &tx,
        "t1",
        code,
        Found::AtOrAfter(2),
    ))
}

fn parent_missing() -> Case {
    fails_on(
        "parent-missing",
        "a pointer whose parent member does not exist fails",
        "/cfg/theme",
        json!(code::DATA_PARENT_MISSING),
        &["CL-D03-2", "PRJ-RUI-DATA-01", "RUI-RECOV-06", "CL-D02-9"],
    )
}

fn grandparent_missing() -> Case {
    fails_on(
        "grandparent-missing",
        "a pointer two levels below a missing member fails",
        "/cfg/ui/theme",
        json!(code::DATA_PARENT_MISSING),
        &["CL-D03-2", "PRJ-RUI-DATA-01"],
    )
}

fn pointer_invalid(slug: &str, description: &str, pointer: &str) -> Case {
    open_point_at(
        fails_on(
            slug,
            description,
            pointer,
            pointer_failure(),
            &["CL-D01-4", "RUI-DATA-01", "PRJ-RUI-DATA-02"],
        ),
        "PRJ-RUI-DATA-02",
        "transactions",
    )
}

/// A pointer outside the RFC 6901 grammar is a failure class of its own (POINTER_INVALID) or a
/// field of the wrong type, so an invalid record (CL-D01-9): PRJ-RUI-DATA-02 admits both.
pub(super) fn pointer_failure() -> Value {
    one_of([json!(code::POINTER_INVALID), json!(code::RECORD_INVALID)])
}

fn array_append_dash() -> Case {
    let prior = vec![
        base_tx(),
        Tx::begin("t1", 1)
            .data("/list", json!([1, 2]))
            .commit(2, "r"),
    ];
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.revision = 2;
    state.data = json!({ "title": "Home", "list": [1, 2] });
    let tx = Tx::begin("t2", 2).data("/list/-", json!(3)).commit(3, "r");
    let steps = failing_after(
        F,
        &prior,
        vec![committed("t0", 1), committed("t1", 2)],
        state,
        &tx,
        "t2",
        json!(code::POINTER_INVALID),
        Found::AtOrAfter(1),
    );
    case(
        SECTION,
        "array-append-dash",
        1,
        F,
        "the - array index (append) is not supported in 0.1",
        &["CL-D03-6", "PRJ-RUI-DATA-06"],
    )
    .strictness(Strictness::Recommended)
    .steps(steps)
}

/// `-` is refused wherever it stands on an array, not only as the last token: `/list/-/x`
/// names a member of the element `-` (PRJ-RUI-DATA-06, CL-D03-6, both RECOMMENDED).
fn dash_inside_pointer() -> Case {
    let prior = vec![
        base_tx(),
        Tx::begin("t1", 1)
            .data("/list", json!([{ "x": 1 }]))
            .commit(2, "r"),
    ];
    let mut state = base_state();
    state.graph["revision"] = json!(2);
    state.revision = 2;
    state.data = json!({ "title": "Home", "list": [{ "x": 1 }] });
    let tx = Tx::begin("t2", 2)
        .data("/list/-/x", json!(2))
        .commit(3, "r");
    case(
        SECTION,
        "array-dash-inside-pointer",
        1,
        F,
        "a - token before the last one on an array is POINTER_INVALID",
        &["CL-D03-6", "PRJ-RUI-DATA-06"],
    )
    .strictness(Strictness::Recommended)
    .steps(failing_after(
        F,
        &prior,
        vec![committed("t0", 1), committed("t1", 2)],
        state,
        &tx,
        "t2",
        json!(code::POINTER_INVALID),
        Found::AtOrAfter(1),
    ))
}

fn scalar_parent() -> Case {
    let tx = Tx::begin("t1", 1)
        .data("/title/text", json!("x"))
        .commit(2, "r");
    let codes = one_of([
        json!(code::DATA_PARENT_MISSING),
        json!(code::POINTER_INVALID),
    ]);
    case(
        SECTION,
        "parent-is-scalar",
        1,
        F,
        "a pointer through a string member fails the transaction",
        &["CL-D03-2", "PRJ-RUI-DATA-05"],
    )
    .strictness(Strictness::ImplDefined)
    .steps(failing(
        F,
        Prior::Base,
        &tx,
        "t1",
        codes,
        Found::AtOrAfter(1),
    ))
}
