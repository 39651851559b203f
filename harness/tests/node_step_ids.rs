//! A failing step names the sentences that decide it (issue 27 §3), beside the implementation's
//! own words (§4), through the Node adapter: a JavaScript implementation whose `bindCapability`
//! always throws a named error (`tests/node-fixtures/bind-refused.mjs`: `class BindRefused extends
//! Error { name = 'BindRefused' }`) runs `rcip.binding.duplicate.001`. Its outcome step, which
//! cites its own ids (CL-B20-1, RCIP-LIFE-BIND-03: the refused second binding installs nothing, so
//! the first one answers), fails; the console, the JSON report (valid against
//! `report.schema.json`), the Markdown certification, JUnit and the HTML page each show those ids
//! as the step's own with their sentences, and the console and the report show the adapter's
//! stderr line naming `BindRefused` and its message. The first bind, an action that cites no ids
//! of its own, is shown with the case's list and says so.
//!
//! Needs node (20 or later) and the Node adapter's and the subject's packages: they are installed
//! with `npm ci` when missing, as `harness/node/subject/certify.sh` does.

mod common;

use std::process::Command;

use serde_json::Value;

const CASE: &str = "rcip.binding.duplicate.001";
const THREW: &str = "[node-adapter] bindCapability threw: BindRefused: notes.create may not be bound by this host";

#[test]
fn a_failing_step_shows_its_own_ids_with_their_sentences_and_the_adapter_stderr() {
    common::node_packages();
    let dir = common::scratch("node-step-ids", "bind-refused");
    let (report, markdown, junit, html) =
        (dir.join("report.json"), dir.join("report.md"), dir.join("junit.xml"), dir.join("report.html"));
    let mut args: Vec<String> = ["run", "--filter", CASE].iter().map(|a| a.to_string()).collect();
    for (flag, path) in [("--report", &report), ("--markdown", &markdown), ("--junit", &junit), ("--html", &html)] {
        args.extend([flag.to_string(), path.display().to_string()]);
    }
    args.push("--adapter".into());
    args.push("--".into());
    for arg in ["node", "harness/node/adapter.mjs", "--name", "bind-refused", "--version", "1", "harness/tests/node-fixtures/bind-refused.mjs"] {
        args.push(arg.into());
    }
    let output = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .args(&args)
        .current_dir(common::repo())
        .env("NO_COLOR", "1")
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));

    let register = harness::loader::Vectors::load(&harness::bundled_vectors()).expect("the bundled vectors").requirements;
    let sentence = |id: &str| harness::quote::sentence(&register[id].quote);

    // The console: the outcome step's own ids, each with its sentence, then the adapter's words.
    let step = stdout.find("step 3 {\"expect\":\"outcome\",\"of\":\"i1\"}").unwrap_or_else(|| panic!("the outcome step:\n{stdout}"));
    let shown = &stdout[step..];
    assert!(
        shown.contains("requirements CL-B20-1, RCIP-LIFE-BIND-03 (the step's own: the sentences that decide this check)"),
        "{shown}"
    );
    for id in ["CL-B20-1", "RCIP-LIFE-BIND-03"] {
        assert!(shown.contains(&format!("\n    {id}: \u{201c}{}\u{201d}\n", sentence(id))), "{id}:\n{shown}");
    }
    let words = shown.find(&format!("  adapter stderr:\n    {THREW}")).unwrap_or_else(|| panic!("the stderr:\n{shown}"));
    assert!(shown.find("+  \"code\": \"CAPABILITY_UNBOUND\"").is_some_and(|diff| diff < words), "the stderr comes under the diff:\n{shown}");
    // The first bind cites nothing of its own: its ids are the case's, and the output says so.
    let bind = &stdout[stdout.find("step 0 {\"host\":\"bind\"").expect("the bind step")..step];
    assert!(bind.contains("(the case's list: the step cites none of its own)"), "{bind}");

    // The JSON report, valid against its schema, with the same ids, whose they are and sentences.
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&report).expect("the report")).expect("JSON");
    let schema: Value = serde_json::from_str(include_str!("../report.schema.json")).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&report).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let case = &report["cases"][0];
    assert_eq!(case["id"], CASE);
    let outcome = case["differences"].as_array().unwrap().iter().find(|d| d["step"] == 3).expect("the outcome step's difference");
    assert_eq!(outcome["requirementsOf"], "step", "{outcome}");
    assert_eq!(outcome["requirements"], serde_json::json!(["CL-B20-1", "RCIP-LIFE-BIND-03"]));
    assert_eq!(outcome["sentences"][0], serde_json::json!({ "id": "CL-B20-1", "quote": sentence("CL-B20-1") }));
    assert_eq!(case["differences"][0]["requirementsOf"], "case");
    assert!(case["stderr"].as_str().is_some_and(|s| s.contains(THREW)), "{case}");

    // The Markdown certification's cause row quotes what decides its first difference (the bind,
    // from the case's list); JUnit carries the console's text; the HTML page's data both.
    let markdown = std::fs::read_to_string(&markdown).unwrap();
    assert!(markdown.contains("(the case's list: the step cites none of its own): RCIP-LIFE-BIND-03: \u{201c}"), "{markdown}");
    let junit = std::fs::read_to_string(&junit).unwrap();
    assert!(junit.contains("the step&apos;s own: the sentences that decide this check"), "{junit}");
    assert!(junit.contains("BindRefused: notes.create may not be bound by this host"), "{junit}");
    let html = std::fs::read_to_string(&html).unwrap();
    assert!(html.contains("the step's own: the sentences that decide this check"), "the HTML page names whose ids they are");
    assert!(html.contains("BindRefused: notes.create may not be bound by this host"), "the HTML page keeps the stderr");
}
