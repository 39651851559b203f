//! Records, data pointers and the catalog of Rixx UI 0.1 as units: the tagged tuples of CL-D01
//! (RUI-REC-01, PRJ-RUI-REC-02..04), RFC 6901 pointers on the data document (CL-D03, PRJ-RUI-DATA-01..05)
//! and catalog ids and props schemas (CL-D06-1/2, RUI-VER-04, PRJ-RUI-CAT-04).

use reference::rui::catalog::{is_catalog_id, is_semver, Catalog, CatalogError};
use reference::rui::codes::TransactionCode;
use reference::rui::pointer::{self, SetEffect};
use reference::rui::records::{parse_record, Record, RecordError};
use serde_json::{json, Value};

fn parsed(value: Value) -> Result<Record, RecordError> {
    parse_record(value)
}

// --- CL-D01 ---

#[test]
fn every_tuple_of_cl_d01_parses() {
    assert_eq!(
        parsed(json!(["begin", 0, "t1", 3])),
        Ok(Record::Begin {
            seq: 0,
            transaction_id: "t1".into(),
            base_revision: 3
        })
    );
    let Ok(Record::Node {
        seq,
        node_id,
        component,
        props,
        children,
    }) = parsed(json!(["node", 1, "n", "Stack", { "gap": 1 }, ["a", "b"]]))
    else {
        panic!("node did not parse")
    };
    assert_eq!(
        (seq, node_id.as_str(), component.as_str()),
        (1, "n", "Stack")
    );
    assert_eq!(Value::Object(props), json!({ "gap": 1 }));
    assert_eq!(children, vec!["a".to_string(), "b".to_string()]);
    assert_eq!(
        parsed(json!(["data", 2, "/a", null])),
        Ok(Record::Data {
            seq: 2,
            pointer: "/a".into(),
            value: Value::Null
        })
    );
    assert_eq!(
        parsed(json!(["delete", 3, "node", "n"])),
        Ok(Record::DeleteNode {
            seq: 3,
            node_id: "n".into()
        })
    );
    assert_eq!(
        parsed(json!(["delete", 4, "data", "/a"])),
        Ok(Record::DeleteData {
            seq: 4,
            pointer: "/a".into()
        })
    );
    assert_eq!(
        parsed(json!(["commit", 5, 4, "n"])),
        Ok(Record::Commit {
            seq: 5,
            new_revision: 4,
            root_id: "n".into()
        })
    );
    assert_eq!(
        parsed(json!(["abort", 6, "E", "why"])),
        Ok(Record::Abort {
            seq: 6,
            code: "E".into(),
            message: "why".into()
        })
    );
}

#[test]
fn other_arity_or_field_type_is_an_invalid_record() {
    let invalid = [
        json!({ "begin": 0 }),
        json!("begin"),
        json!([]),
        json!([1, 0, "t", 0]),
        json!(["begin", 0, "t"]),
        json!(["begin", 0, "t", 0, 1]),
        json!(["begin", 0, 7, 0]),
        json!(["begin", 0, "t", "0"]),
        json!(["node", 1, "n", "Stack", [], []]),
        json!(["node", 1, "n", "Stack", null, []]),
        json!(["node", 1, "n", "Stack", {}, "a"]),
        json!(["node", 1, "n", "Stack", {}, [1]]),
        json!(["node", 1, "n", 5, {}, []]),
        json!(["data", 1, 5, 1]),
        json!(["data", 1, "/a"]),
        json!(["delete", 1, "nodes", "n"]),
        json!(["delete", 1, "node", 1]),
        json!(["commit", 1, 1, null]),
        json!(["commit", 1, "1", "r"]),
        json!(["abort", 1, "E"]),
        json!(["abort", 1, "E", null]),
    ];
    for value in invalid {
        assert_eq!(parsed(value.clone()), Err(RecordError::Invalid), "{value}");
    }
}

#[test]
fn seq_and_revisions_are_non_negative_integers_and_begin_is_at_0() {
    // PRJ-RUI-REC-04: no fraction, no exponent, no sign; the seq of begin is 0.
    for value in [
        json!(["begin", 1, "t", 0]),
        json!(["begin", 0, "t", -1]),
        json!(["begin", 0, "t", 1.5]),
        json!(["node", -1, "n", "Stack", {}, []]),
        json!(["commit", 1, 1.0, "r"]),
    ] {
        assert_eq!(parsed(value.clone()), Err(RecordError::Invalid), "{value}");
    }
    let exponent: Value = serde_json::from_str("[\"commit\", 1, 1e0, \"r\"]").unwrap();
    assert_eq!(parsed(exponent), Err(RecordError::Invalid));
    let fraction: Value = serde_json::from_str("[\"commit\", 1.0, 1, \"r\"]").unwrap();
    assert_eq!(parsed(fraction), Err(RecordError::Invalid));
}

#[test]
fn unknown_string_tag_is_an_unknown_operation_whatever_its_arity() {
    // RUI-VER-06, CL-D05-9; tags compare case-sensitively (PRJ-RUI-REC-03).
    for value in [
        json!(["patch", 1]),
        json!(["Begin", 0, "t", 0]),
        json!(["node2", 1, "n", "Stack", {}, []]),
        json!([""]),
    ] {
        assert_eq!(
            parsed(value.clone()),
            Err(RecordError::UnknownOperation),
            "{value}"
        );
    }
}

// --- CL-D03 ---

#[test]
fn data_creates_or_replaces_on_an_existing_parent() {
    let mut doc = json!({});
    assert_eq!(
        pointer::set(&mut doc, "/a", json!({ "b": [1] })),
        Ok(SetEffect::Stored)
    );
    assert_eq!(
        pointer::set(&mut doc, "/a/b/0", json!(2)),
        Ok(SetEffect::Stored)
    );
    assert_eq!(
        pointer::set(&mut doc, "/a/b/1", json!(3)),
        Ok(SetEffect::Appended { len: 2 })
    );
    assert_eq!(
        pointer::set(&mut doc, "/a/x~1y~0z", Value::Null),
        Ok(SetEffect::Stored)
    );
    assert_eq!(
        pointer::set(&mut doc, "/", json!("empty key")),
        Ok(SetEffect::Stored)
    );
    assert_eq!(
        doc,
        json!({ "a": { "b": [2, 3], "x/y~z": null }, "": "empty key" })
    );
    // PRJ-RUI-DATA-04: the empty pointer replaces the whole document.
    assert_eq!(
        pointer::set(&mut doc, "", json!([1])),
        Ok(SetEffect::Stored)
    );
    assert_eq!(doc, json!([1]));
}

#[test]
fn data_failures_have_their_codes() {
    let base = json!({ "a": { "n": 1 }, "arr": [0] });
    let cases = [
        ("/missing/x", TransactionCode::DataParentMissing),
        ("/arr/5/x", TransactionCode::DataParentMissing),
        ("/a/n/x", TransactionCode::DataParentMissing),
        ("a", TransactionCode::PointerInvalid),
        ("/a~2", TransactionCode::PointerInvalid),
        ("/a~", TransactionCode::PointerInvalid),
        ("/arr/-", TransactionCode::PointerInvalid),
        ("/arr/01", TransactionCode::PointerInvalid),
        ("/arr/x", TransactionCode::PointerInvalid),
        ("/arr/2", TransactionCode::PointerInvalid),
    ];
    for (pointer, code) in cases {
        let mut doc = base.clone();
        assert_eq!(
            pointer::set(&mut doc, pointer, json!(1)),
            Err(code),
            "{pointer}"
        );
        assert_eq!(doc, base, "a failed set changes nothing: {pointer}");
    }
}

#[test]
fn delete_removes_and_fails_on_absent_members() {
    let mut doc = json!({ "a": { "n": 1 }, "arr": [0, 1, 2] });
    assert_eq!(pointer::remove(&mut doc, "/arr/0"), Ok(()));
    assert_eq!(pointer::remove(&mut doc, "/a/n"), Ok(()));
    assert_eq!(doc, json!({ "a": {}, "arr": [1, 2] }));
    let cases = [
        ("/a/n", TransactionCode::DeleteAbsent),
        ("/arr/2", TransactionCode::DeleteAbsent),
        ("/missing/x", TransactionCode::DeleteAbsent),
        ("", TransactionCode::PointerInvalid),
        ("/arr/-", TransactionCode::PointerInvalid),
        ("x", TransactionCode::PointerInvalid),
    ];
    for (pointer, code) in cases {
        assert_eq!(pointer::remove(&mut doc, pointer), Err(code), "{pointer}");
    }
}

// --- CL-D06 ---

#[test]
fn catalog_ids_are_name_at_semver() {
    for good in [
        "demo@1.0.0",
        "demo@0.0.0",
        "@rixx/ui@2.10.3-beta.1+build.5",
        "a.b_c-d@1.2.3-0.x",
    ] {
        assert!(is_catalog_id(good), "{good}");
    }
    for bad in [
        "demo",
        "demo@",
        "@1.0.0",
        "demo@1.0",
        "demo@01.0.0",
        "demo@1.0.0-01",
        "demo@v1.0.0",
        "de mo@1.0.0",
        "demo@1.0.0+",
        "demo@1.0.0-",
    ] {
        assert!(!is_catalog_id(bad), "{bad}");
    }
    assert!(is_semver("1.0.0-alpha-1"));
    assert!(!is_semver("1.0.0.0"));
}

fn catalog(id: &str, props: Value) -> Result<Catalog, CatalogError> {
    Catalog::from_json(
        &json!({ "id": id, "components": { "Text": { "props": props, "children": false } } }),
    )
}

#[test]
fn invalid_catalog_id_or_props_schema_refuses_the_catalog() {
    assert!(catalog("demo@1.0.0", json!({ "type": "object" })).is_ok());
    assert_eq!(
        catalog("demo@1", json!({ "type": "object" })).err(),
        Some(CatalogError::InvalidId)
    );
    // CL-B19: a format keyword and an unknown keyword are configuration errors.
    for schema in [
        json!({ "type": "string", "format": "email" }),
        json!({ "type": "object", "nullable": true }),
    ] {
        assert!(matches!(
            catalog("demo@1.0.0", schema),
            Err(CatalogError::PropsSchema { .. })
        ));
    }
}

#[test]
fn node_validation_against_the_catalog() {
    let catalog = Catalog::from_json(&json!({ "id": "demo@1.0.0", "components": {
        "Text": { "props": { "type": "object", "properties": { "text": { "type": "string" } },
                             "required": ["text"], "additionalProperties": false }, "children": false },
        "Button": { "props": { "type": "object" }, "children": false, "actions": ["onPress"] },
        "Stack": { "props": { "type": "object" }, "children": true } } }))
    .unwrap();
    let kids = vec!["a".to_string()];
    assert_eq!(
        catalog.validate_node("Text", &json!({ "text": "hi" }), &[]),
        Ok(())
    );
    assert_eq!(
        catalog.validate_node("text", &json!({ "text": "hi" }), &[]),
        Err(TransactionCode::UnknownComponent)
    );
    assert_eq!(
        catalog.validate_node("Text", &json!({ "text": 1 }), &[]),
        Err(TransactionCode::PropsInvalid)
    );
    assert_eq!(
        catalog.validate_node("Text", &json!({}), &[]),
        Err(TransactionCode::PropsInvalid)
    );
    assert_eq!(
        catalog.validate_node("Text", &json!({ "text": "hi" }), &kids),
        Err(TransactionCode::ChildrenNotAllowed)
    );
    assert_eq!(catalog.validate_node("Stack", &json!({}), &kids), Ok(()));
    let request = json!({ "onPress": { "capabilityId": "notes.write", "input": { "x": 1 } } });
    assert_eq!(catalog.validate_node("Button", &request, &[]), Ok(()));
    for bad in [
        json!({ "onPress": { "capabilityId": "notes.write" } }),
        json!({ "onPress": { "capabilityId": 1, "input": null } }),
        json!({ "onPress": { "capabilityId": "c", "input": null, "extra": 1 } }),
        json!({ "onPress": "notes.write" }),
    ] {
        assert_eq!(
            catalog.validate_node("Button", &bad, &[]),
            Err(TransactionCode::PropsInvalid),
            "{bad}"
        );
    }
}
