//! Untrusted text reaches every output as text (issue 28, `src/escape.rs`): a vector set of one's
//! own whose case description holds terminal escape sequences and raw HTML is listed and
//! explained on the terminal with the sequences written as `\uXXXX`, and the HTML report of a
//! failing run shows the HTML as text.

use std::path::PathBuf;
use std::process::{Command, Output};

const HOSTILE: &str = "\u{1b}]0;owned\u{7}\u{1b}[2J\u{9b}31m <script>alert(1)</script>";

fn conformance(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_conformance")).args(args).env("NO_COLOR", "1").output().expect("runs")
}

/// The third-party example set with a hostile description and (with `wrong`) a failing case.
fn hostile_set(name: &str, wrong: bool) -> PathBuf {
    let example = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples").join("third-party-vectors");
    let dir = std::env::temp_dir().join(format!("harness-escaping-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["rcip", "rui"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        std::fs::copy(example.join(sub).join("example.json"), dir.join(sub).join("example.json")).unwrap();
    }
    let file = dir.join("rcip").join("example.json");
    let mut set: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    set["cases"][0]["description"] = HOSTILE.into();
    if wrong {
        set["cases"][0]["steps"][2]["is"]["items"] = serde_json::json!(["notes.list"]);
    }
    std::fs::write(&file, serde_json::to_string(&set).unwrap()).unwrap();
    dir
}

fn assert_no_control(text: &str, what: &str) {
    let at = text.find(|c| matches!(c, '\u{1b}' | '\u{7}' | '\u{9b}'));
    assert!(at.is_none(), "{what} holds a raw control: {:?}", at.map(|i| &text[i.saturating_sub(200)..(i + 20).min(text.len())]));
}

#[test]
fn list_and_explain_show_escape_sequences_as_text() {
    let dir = hostile_set("terminal", false);
    let vectors = dir.display().to_string();
    let list = conformance(&["--vectors", &vectors, "list"]);
    let stdout = String::from_utf8_lossy(&list.stdout).to_string();
    assert_eq!(list.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&list.stderr));
    assert_no_control(&stdout, "list");
    assert!(stdout.contains("\\u001b]0;owned\\u0007\\u001b[2J\\u009b31m <script>"), "{stdout}");
    let explain = conformance(&["--vectors", &vectors, "explain", "rcip.example.list-by-scope.001"]);
    let stdout = String::from_utf8_lossy(&explain.stdout).to_string();
    assert_no_control(&stdout, "explain");
    assert!(stdout.contains("\\u001b]0;owned"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_reports_of_a_failing_run_show_hostile_text_as_text() {
    let dir = hostile_set("reports", true);
    let (html, junit, markdown) = (dir.join("r.html"), dir.join("r.xml"), dir.join("r.md"));
    let run = conformance(&[
        "--vectors", &dir.display().to_string(), "run",
        "--html", &html.display().to_string(), "--junit", &junit.display().to_string(),
        "--markdown", &markdown.display().to_string(),
    ]);
    let stdout = String::from_utf8_lossy(&run.stdout).to_string();
    assert_eq!(run.status.code(), Some(1), "{stdout}{}", String::from_utf8_lossy(&run.stderr));
    assert_no_control(&stdout, "the run's output");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(!page.contains("<script>alert(1)"), "raw HTML in the page");
    // In the markup autoescaped (minijinja writes `/` as `&#x2f;`), in the page's data as JSON
    // escapes (`escape::html_script_json`).
    assert!(page.contains("&lt;script&gt;alert(1)&lt;&#x2f;script&gt;"), "the description is not shown as text");
    assert!(page.contains("\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"), "the description is not in the data as text");
    assert_no_control(&page, "the HTML report");
    for path in [&junit, &markdown] {
        let text = std::fs::read_to_string(path).unwrap();
        assert_no_control(&text, &path.display().to_string());
        assert!(!text.contains("<script>"), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_reference_driver_echoes_a_bad_argument_as_text() {
    for args in [["--fault", HOSTILE], ["--choices", HOSTILE]] {
        let output = Command::new(env!("CARGO_BIN_EXE_reference-driver")).args(args).output().expect("runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_no_control(&String::from_utf8_lossy(&output.stderr), "reference-driver's error");
    }
}
