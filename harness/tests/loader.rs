//! The loader on malformed input: a broken vector file is an error naming the file and the JSON
//! Pointer of the problem; the other files still load; nothing panics. Nothing is silently left
//! out (issue 14, section 1): missing, unreadable and looping protocol directories, FIFOs and
//! sockets, symlinks out of the directory, cases without id, unknown requirement ids, files of the
//! other protocol, unframed Rixx UI cases and dangling handles are load errors.

use std::fs;
use std::path::PathBuf;

use harness::loader::Vectors;
use serde_json::json;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("harness-loader-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("rcip")).unwrap();
    fs::create_dir_all(dir.join("rui")).unwrap();
    fs::copy(harness::bundled_vectors().join("requirements.json"), dir.join("requirements.json")).unwrap();
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

fn errors_of(vectors: &Vectors) -> Vec<String> {
    vectors.errors.iter().map(|e| e.to_string()).collect()
}

#[test]
fn a_missing_unreadable_or_looping_protocol_directory_is_an_error() {
    let dir = scratch("protocol-dirs");
    fs::write(dir.join("rcip/a.json"), file_with(json!([good_case("rcip.demo.x.001")]))).unwrap();
    fs::remove_dir(dir.join("rui")).unwrap();
    let errors = errors_of(&Vectors::load(&dir).unwrap());
    assert!(errors.iter().any(|e| e.contains("rui") && e.contains("missing")), "{errors:?}");

    fs::write(dir.join("rui"), "a file").unwrap();
    let errors = errors_of(&Vectors::load(&dir).unwrap());
    assert!(errors.iter().any(|e| e.contains("rui") && e.contains("not a directory")), "{errors:?}");

    fs::remove_file(dir.join("rui")).unwrap();
    std::os::unix::fs::symlink("rui", dir.join("rui")).unwrap();
    let errors = errors_of(&Vectors::load(&dir).unwrap());
    assert!(errors.iter().any(|e| e.contains("rui") && e.contains("cannot read")), "{errors:?}");
}

#[test]
fn a_directory_without_any_case_is_an_error() {
    let dir = scratch("empty");
    let vectors = Vectors::load(&dir).unwrap();
    assert!(errors_of(&vectors).iter().any(|e| e.contains("no case loaded")), "{:?}", vectors.errors);
}

#[test]
fn fifos_sockets_and_symlinks_out_of_the_directory_are_refused_without_hanging() {
    let dir = scratch("special");
    fs::write(dir.join("rcip/a.json"), file_with(json!([good_case("rcip.demo.x.001")]))).unwrap();
    let fifo = dir.join("rcip/fifo.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let _socket = std::os::unix::net::UnixListener::bind(dir.join("rcip/socket.json")).unwrap();
    let outside = std::env::temp_dir().join(format!("harness-loader-outside-{}.json", std::process::id()));
    fs::write(&outside, file_with(json!([good_case("rcip.demo.y.001")]))).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("rcip/outside.json")).unwrap();
    std::os::unix::fs::symlink(dir.join("rcip/a.json"), dir.join("rui/inside.json")).unwrap();
    std::os::unix::fs::symlink("loop.json", dir.join("rcip/loop.json")).unwrap();
    fs::create_dir(dir.join("rcip/nested")).unwrap();
    fs::write(dir.join("rcip/notes.txt"), "not a vector file").unwrap();
    let vectors = Vectors::load(&dir).unwrap();
    let _ = fs::remove_file(&outside);
    let errors = errors_of(&vectors);
    assert!(errors.iter().any(|e| e.contains("fifo.json") && e.contains("not a regular file")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("socket.json") && e.contains("not a regular file")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("outside.json") && e.contains("outside the vector directory")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("loop.json") && e.contains("cannot be followed")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("nested") && e.contains("subdirectory")), "{errors:?}");
    assert!(!errors.iter().any(|e| e.contains("notes.txt")), "only .json entries are vector files: {errors:?}");
    // A symlink inside the directory is read (here: an rcip file under rui/, a protocol mismatch).
    assert!(errors.iter().any(|e| e.contains("inside.json at /protocol") && e.contains("mismatch")), "{errors:?}");
    assert_eq!(vectors.cases.len(), 1);
}

#[test]
fn a_case_without_id_or_with_a_wrong_member_reports_that_first_and_once() {
    let dir = scratch("first-problem");
    let mut no_id = good_case("rcip.demo.x.001");
    no_id.as_object_mut().unwrap().remove("id");
    no_id["steps"] = json!([{ "host": "refresh" }, { "host": "refresh" }, { "expect": "snapshot", "is": {} }]);
    let mut wrong_member = good_case("rcip.demo.x.002");
    wrong_member["strictnes"] = json!("REQUIRED");
    wrong_member["steps"][0] = json!({ "host": "no-such-step" });
    fs::write(dir.join("rcip/a.json"), file_with(json!([no_id, wrong_member]))).unwrap();
    let errors = errors_of(&Vectors::load(&dir).unwrap());
    let of_file: Vec<&String> = errors.iter().filter(|e| e.contains("a.json")).collect();
    assert_eq!(of_file.len(), 2, "one problem per case: {errors:?}");
    assert!(of_file[0].contains("at /cases/0:") && of_file[0].contains("\"id\""), "{errors:?}");
    assert!(of_file[1].contains("at /cases/1:") && of_file[1].contains("strictnes"), "{errors:?}");
}

#[test]
fn a_step_kind_listed_in_a_schema_enum_is_known() {
    let dir = scratch("enum-kind");
    let mut case = good_case("rcip.demo.x.001");
    // handler-calls shares its branch with policy-calls (`enum`); the wrong member is named.
    case["steps"] = json!([{ "expect": "handler-calls", "is": [], "capabilty": "x" }]);
    fs::write(dir.join("rcip/a.json"), file_with(json!([case]))).unwrap();
    let errors = errors_of(&Vectors::load(&dir).unwrap());
    let error = errors.iter().find(|e| e.contains("a.json")).expect("an error");
    assert!(!error.contains("unknown expect step"), "{error}");
    assert!(error.contains("/cases/0/steps/0") && error.contains("capabilty"), "{error}");
}

#[test]
fn unknown_requirement_ids_unframed_rui_cases_and_dangling_handles_are_errors() {
    let dir = scratch("semantic");
    let mut unknown = good_case("rcip.demo.x.001");
    unknown["requirements"] = json!(["CL-NOPE-1"]);
    let mut unknown_on_step = good_case("rcip.demo.x.002");
    unknown_on_step["steps"][0]["requirements"] = json!(["CL-NOPE-2"]);
    let mut dangling = good_case("rcip.demo.x.003");
    dangling["steps"] = json!([{ "host": "refresh" }, { "expect": "outcome", "of": "i1", "is": "pending" }]);
    fs::write(dir.join("rcip/a.json"), file_with(json!([unknown, unknown_on_step, dangling]))).unwrap();
    let rui = json!({
        "format": "rcip-rui-vectors/1", "protocol": "rui", "section": "rui.demo", "title": "demo",
        "generated": { "by": "test", "command": "none", "notice": "test" },
        "cases": [{ "id": "rui.demo.x.001", "description": "framed", "requirements": ["CL-B15-1"],
                    "strictness": "REQUIRED", "profiles": [],
                    "setup": { "framing": "jsonl", "catalog": { "id": "demo@1.0.0", "components": {} } },
                    "steps": [{ "expect": "revision", "is": 0 }] }],
    });
    fs::write(dir.join("rui/b.json"), serde_json::to_string(&rui).unwrap()).unwrap();
    let errors = errors_of(&Vectors::load(&dir).unwrap());
    assert!(errors.iter().any(|e| e.contains("/cases/0/requirements") && e.contains("CL-NOPE-1")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("/cases/1/steps/0/requirements") && e.contains("CL-NOPE-2")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("/cases/2/steps/1/of") && e.contains("\"i1\"")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("b.json at /cases/0/profiles") && e.contains("jsonl")), "{errors:?}");
}

#[test]
fn the_bundled_vectors_load_without_error() {
    let vectors = Vectors::load(&harness::bundled_vectors()).unwrap();
    assert!(vectors.errors.is_empty(), "{:?}", errors_of(&vectors));
    assert!(vectors.cases.len() > 1000);
}

#[test]
fn the_new_matchers_are_part_of_the_format() {
    let dir = scratch("matchers");
    let mut case = good_case("rcip.demo.x.001");
    case["steps"] = json!([
        { "client": "list", "as": "l" },
        { "expect": "list", "of": "l", "is": { "$match": "contains", "items": ["a"], "ordered": true } },
        { "expect": "list", "of": "l", "is": { "$match": "lacks", "items": ["b"] } },
        { "expect": "list", "of": "l", "is": { "$match": "prefix", "items": [{ "$match": "not", "pattern": "c" }] } }
    ]);
    let mut wrong = good_case("rcip.demo.x.002");
    wrong["steps"] = json!([
        { "client": "list", "as": "l" },
        { "expect": "list", "of": "l", "is": { "$match": "prefix", "items": [] } }
    ]);
    fs::write(dir.join("rcip/a.json"), file_with(json!([case]))).unwrap();
    fs::write(dir.join("rcip/b.json"), file_with(json!([wrong]))).unwrap();
    let vectors = Vectors::load(&dir).unwrap();
    let errors = errors_of(&vectors);
    assert!(!errors.iter().any(|e| e.contains("a.json")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("b.json at /cases/0/steps/1")), "an empty prefix is refused: {errors:?}");
}

#[test]
fn the_new_actions_are_part_of_the_format_and_their_handles_are_checked() {
    let dir = scratch("actions");
    let mut case = good_case("rcip.demo.x.001");
    case["steps"] = json!([
        { "host": "bind", "capability": "c", "as": "b1", "handler": { "mode": "gated" } },
        { "host": "bind", "capability": "c", "as": "b2", "handler": { "sameAs": "b1" } },
        { "client": "invoke", "as": "i1", "capability": "c", "input": {} },
        { "client": "mutate-request", "of": "i1", "member": "invocationId", "value": "x" }
    ]);
    let mut dangling = good_case("rcip.demo.x.002");
    dangling["steps"] = json!([{ "host": "bind", "capability": "c", "as": "b2", "handler": { "sameAs": "b9" } }]);
    fs::write(dir.join("rcip/a.json"), file_with(json!([case]))).unwrap();
    fs::write(dir.join("rcip/b.json"), file_with(json!([dangling]))).unwrap();
    let errors = errors_of(&Vectors::load(&dir).unwrap());
    assert!(!errors.iter().any(|e| e.contains("a.json")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("b.json at /cases/0/steps/0/handler/sameAs")), "{errors:?}");
}

#[test]
fn an_error_quotes_at_most_two_hundred_characters_of_the_offending_value() {
    let dir = scratch("bounded");
    let huge = "x".repeat(8 << 20);
    let mut wrong_strictness = good_case("rcip.demo.x.001");
    wrong_strictness["strictness"] = json!(huge);
    let mut unknown_step = good_case("rcip.demo.x.002");
    unknown_step["steps"][0] = json!({ "host": huge });
    fs::write(dir.join("rcip/a.json"), file_with(json!([wrong_strictness]))).unwrap();
    fs::write(dir.join("rcip/b.json"), file_with(json!([unknown_step]))).unwrap();
    let vectors = Vectors::load(&dir).unwrap();
    let errors: Vec<String> = errors_of(&vectors).into_iter().filter(|e| e.contains(".json at ")).collect();
    assert_eq!(errors.len(), 2, "{:?}", errors.iter().map(|e| &e[..e.len().min(300)]).collect::<Vec<_>>());
    for error in &errors {
        assert!(error.len() < 1000, "an error of {} bytes: {}", error.len(), &error[..300]);
        assert!(error.contains("xxx…") && error.contains(" bytes)"), "{error}");
    }
}

#[test]
fn a_key_given_twice_in_a_vector_file_or_the_register_is_an_error_naming_file_and_key() {
    let dir = scratch("duplicate-keys");
    let text = file_with(json!([good_case("rcip.demo.x.001")]));
    let twice = text.replacen("\"strictness\": \"REQUIRED\"", "\"strictness\": \"REQUIRED\",\n      \"strictness\": \"RECOMMENDED\"", 1);
    assert_ne!(text, twice);
    fs::write(dir.join("rcip/a.json"), twice).unwrap();
    fs::write(dir.join("rcip/b.json"), file_with(json!([good_case("rcip.demo.y.001")]))).unwrap();
    let vectors = Vectors::load(&dir).unwrap();
    let errors = errors_of(&vectors);
    assert!(
        errors.iter().any(|e| e.contains("a.json") && e.contains("duplicate key \"strictness\" in the object at /cases/0")),
        "{errors:?}"
    );
    assert_eq!(vectors.cases.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), vec!["rcip.demo.y.001"]);

    let register = fs::read_to_string(dir.join("requirements.json")).unwrap();
    let at = register.find('{').unwrap() + 1;
    fs::write(dir.join("requirements.json"), format!("{}\"x\": 1, \"x\": 2,{}", &register[..at], &register[at..])).unwrap();
    let errors = errors_of(&Vectors::load(&dir).unwrap());
    assert!(errors.iter().any(|e| e.contains("requirements.json") && e.contains("duplicate key \"x\" in the top-level object")), "{errors:?}");
}

#[test]
fn a_symlink_to_a_directory_or_not_named_json_is_an_error() {
    let dir = scratch("symlinked-dirs");
    fs::write(dir.join("rcip/a.json"), file_with(json!([good_case("rcip.demo.x.001")]))).unwrap();
    fs::create_dir(dir.join("more")).unwrap();
    fs::write(dir.join("more/b.json"), file_with(json!([good_case("rcip.demo.y.001")]))).unwrap();
    std::os::unix::fs::symlink(dir.join("more"), dir.join("rcip/more")).unwrap();
    std::os::unix::fs::symlink(dir.join("more"), dir.join("rcip/dir.json")).unwrap();
    std::os::unix::fs::symlink(dir.join("more/b.json"), dir.join("rui/b.txt")).unwrap();
    let vectors = Vectors::load(&dir).unwrap();
    let errors = errors_of(&vectors);
    assert!(errors.iter().any(|e| e.contains("rcip/more:") && e.contains("a symlink to a directory")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("rcip/dir.json") && e.contains("not a regular file")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("rui/b.txt") && e.contains("does not end in .json")), "{errors:?}");
    assert_eq!(vectors.cases.len(), 1);
}
