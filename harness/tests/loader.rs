//! The loader on malformed input: a broken vector file is an error naming the file and the JSON
//! Pointer of the problem; the other files still load; nothing panics.

use std::fs;
use std::path::PathBuf;

use harness::loader::Vectors;
use serde_json::json;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("harness-loader-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("rcip")).unwrap();
    let schema = harness::bundled_vectors().join("schema");
    fs::create_dir_all(dir.join("schema")).unwrap();
    for entry in fs::read_dir(schema).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), dir.join("schema").join(entry.file_name())).unwrap();
    }
    dir
}

fn file_with(cases: serde_json::Value) -> String {
    serde_json::to_string_pretty(&json!({
        "format": "rcip-rui-vectors/1", "protocol": "rcip", "section": "rcip.demo", "title": "demo",
        "generated": { "by": "test", "command": "none", "notice": "test" },
        "cases": cases,
    }))
    .unwrap()
}

fn good_case(id: &str) -> serde_json::Value {
    json!({ "id": id, "description": "a refresh", "requirements": ["CL-B15-1"], "strictness": "REQUIRED",
            "profiles": [], "setup": { "definition": {} }, "steps": [ { "host": "refresh" } ] })
}

#[test]
fn a_bad_step_is_reported_with_file_and_pointer_and_other_files_load() {
    let dir = scratch("pointer");
    let mut bad = good_case("rcip.demo.bad.001");
    bad["steps"][0] = json!({ "client": "invoke", "as": "Bad Handle", "capability": "x", "input": {} });
    fs::write(dir.join("rcip/a.json"), file_with(json!([bad]))).unwrap();
    fs::write(dir.join("rcip/b.json"), file_with(json!([good_case("rcip.demo.good.001")]))).unwrap();
    let vectors = Vectors::load(&dir).unwrap();
    let errors: Vec<String> = vectors.errors.iter().map(|e| e.to_string()).collect();
    assert!(errors.iter().any(|e| e.contains("a.json at /cases/0/steps/0/as")), "{errors:?}");
    assert_eq!(vectors.cases.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), vec!["rcip.demo.good.001"]);
}

#[test]
fn invalid_json_names_line_and_column() {
    let dir = scratch("json");
    fs::write(dir.join("rcip/a.json"), "{\n  \"format\": ,\n}").unwrap();
    let vectors = Vectors::load(&dir).unwrap();
    let error = vectors.errors.iter().map(|e| e.to_string()).find(|e| e.contains("a.json")).unwrap();
    assert!(error.contains("line 2"), "{error}");
}

#[test]
fn a_duplicate_case_id_and_a_case_outside_its_section_are_errors() {
    let dir = scratch("ids");
    fs::write(dir.join("rcip/a.json"), file_with(json!([good_case("rcip.demo.x.001")]))).unwrap();
    fs::write(dir.join("rcip/b.json"), file_with(json!([good_case("rcip.demo.x.001")]))).unwrap();
    fs::write(dir.join("rcip/c.json"), file_with(json!([good_case("rcip.other.x.001")]))).unwrap();
    let vectors = Vectors::load(&dir).unwrap();
    let errors: Vec<String> = vectors.errors.iter().map(|e| e.to_string()).collect();
    assert!(errors.iter().any(|e| e.contains("already defined")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("not inside section")), "{errors:?}");
    assert_eq!(vectors.cases.len(), 1);
}

#[test]
fn an_unknown_member_is_rejected() {
    let dir = scratch("member");
    let mut case = good_case("rcip.demo.x.001");
    case["extra"] = json!(1);
    fs::write(dir.join("rcip/a.json"), file_with(json!([case]))).unwrap();
    let vectors = Vectors::load(&dir).unwrap();
    assert!(vectors.cases.is_empty());
    assert!(!vectors.errors.is_empty());
}
