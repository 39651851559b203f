//! A disagreement `conformance fuzz` found (issue 18 §1): its report (seed, original and shrunk
//! path, the differences, the sentences broken) and the vector file of the shrunk case, written
//! so `conformance run --vectors DIR` loads it (schema-valid, both protocol directories present)
//! and a bug report can carry it.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::draw::Target;
use super::shrink::Shrunk;
use crate::console::render_case;
use crate::runner::CaseResult;

/// One disagreement, before and after shrinking.
#[derive(Debug)]
pub struct Finding {
    pub target: Target,
    pub seed: u64,
    /// Which case of the run (1-based) disagreed first.
    pub case_number: u64,
    pub original: Vec<u32>,
    pub original_case: suites::case::Case,
    pub original_result: CaseResult,
    pub shrunk: Shrunk,
}

/// A requirement as the register quotes it.
#[derive(Debug, Clone)]
pub struct Sentence {
    pub id: String,
    pub strictness: String,
    pub quote: String,
}

/// The requirement register of a vector directory (`requirements.json`), by id.
pub fn register(vectors: &Path) -> Result<BTreeMap<String, Sentence>, String> {
    let path = vectors.join("requirements.json");
    let text = crate::files::read_string(&path, crate::files::JSON_LIMIT).map_err(|e| e.to_string())?;
    let document: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let text_of = |entry: &Value, key: &str| entry.get(key).and_then(Value::as_str).unwrap_or_default().to_string();
    Ok(document
        .get("requirements")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|entry| {
            let id = text_of(entry, "id");
            (id.clone(), Sentence { id, strictness: text_of(entry, "strictness"), quote: text_of(entry, "quote") })
        })
        .collect())
}

impl Finding {
    /// The protocol of the shrunk case (`rcip` or `rui`).
    pub fn protocol(&self) -> &'static str {
        match self.target {
            Target::Transaction => "rui",
            Target::Invocation | Target::Assist => "rcip",
        }
    }

    /// The id the shrunk case is written under: stable for a seed and case number.
    pub fn case_id(&self) -> String {
        format!("{}.fuzz.{}-{:x}-{}.001", self.protocol(), self.target, self.seed, self.case_number)
    }

    /// The requirement ids behind the checks that decided the verdict: every difference but the
    /// RECOMMENDED ones (those only make a case `non-strict`); the case's own ids when a
    /// difference names none. Sorted, without repeats.
    pub fn broken_requirements(&self) -> Vec<String> {
        let result = &self.shrunk.result;
        let mut ids: Vec<String> = result
            .differences
            .iter()
            .filter(|d| d.strictness != "RECOMMENDED")
            .flat_map(|d| if d.requirements.is_empty() { self.shrunk.case.requirements.clone() } else { d.requirements.clone() })
            .collect();
        ids.sort();
        ids.dedup();
        ids
    }

    /// The shrunk case as the vector file `conformance run --vectors DIR` loads.
    pub fn vector_file(&self, implementation: &str, command: &str) -> Value {
        let mut case = self.shrunk.case.clone();
        case.id = self.case_id();
        case.description = format!("A shrunk {} model path found by conformance fuzz", self.target);
        let translator_notes = case.notes.take();
        let mut notes = format!(
            "Found by `{command}` (seed {:#x}, case {}, model {}) against {implementation}; shrunk from {} to {} model actions in {} runs (choices {:?}).",
            self.seed,
            self.case_number,
            self.target,
            path_length(&self.original_case),
            path_length(&self.shrunk.case),
            self.shrunk.runs,
            self.shrunk.choices
        );
        if let Some(more) = translator_notes {
            notes.push(' ');
            notes.push_str(&more);
        }
        case.notes = Some(notes);
        if let Some(provenance) = case.provenance.as_mut() {
            provenance.by = format!("conformance fuzz over {}", provenance.by);
            provenance.seed = Some(format!("{:#x} case {}", self.seed, self.case_number));
        }
        let section = suites::case::Section::new(
            format!("{}.fuzz", self.protocol()),
            "Disagreements found by conformance fuzz",
            "harness::fuzz",
        )
        .case(case);
        let mut file = section.to_json();
        if let Some(object) = file.as_object_mut() {
            object.remove("$schema");
            object.insert(
                "generated".into(),
                json!({
                    "by": "harness::fuzz",
                    "command": command,
                    "notice": "Written by conformance fuzz: the shrunk case of a disagreement with the model."
                }),
            );
        }
        file
    }

    /// Writes the vector file into `dir/<protocol>/` (creating `dir/rcip` and `dir/rui`, which
    /// the loader requires) and returns its path.
    pub fn write(&self, dir: &Path, implementation: &str, command: &str) -> Result<PathBuf, String> {
        for protocol in ["rcip", "rui"] {
            let sub = dir.join(protocol);
            std::fs::create_dir_all(&sub).map_err(|e| format!("cannot create {}: {e}", sub.display()))?;
        }
        let id = self.case_id();
        let name = id.split_once('.').map(|(_, rest)| rest).unwrap_or(&id).trim_end_matches(".001").to_string();
        let path = dir.join(self.protocol()).join(format!("{name}.json"));
        let text = serde_json::to_string_pretty(&self.vector_file(implementation, command)).unwrap_or_default() + "\n";
        crate::files::write(&path, text.as_bytes()).map_err(|e| format!("cannot write {e}"))?;
        Ok(path)
    }

    /// The human report: what disagreed, the paths before and after shrinking, the differences
    /// and the sentences behind them.
    pub fn render(&self, register: &BTreeMap<String, Sentence>) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "disagreement: case {} (model {}, seed {:#x}) gave `{}`",
            self.case_number, self.target, self.seed, self.original_result.verdict
        );
        let _ = writeln!(out, "  path ({} actions): {}", path_length(&self.original_case), path_text(&self.original_case));
        let _ = writeln!(
            out,
            "shrunk in {} runs to {} actions (choices {:?}):",
            self.shrunk.runs,
            path_length(&self.shrunk.case),
            self.shrunk.choices
        );
        if self.shrunk.unrepeatable {
            let _ = writeln!(out, "  (not shrunk: run again, the same case did not disagree alike; the implementation does not repeat its answers)");
        }
        for (i, action) in path_of(&self.shrunk.case).iter().enumerate() {
            let _ = writeln!(out, "  {:>2}. {action}", i + 1);
        }
        let _ = writeln!(out, "\nthe shrunk case, as run:");
        let mut result = self.shrunk.result.clone();
        result.id = self.case_id();
        out.push_str(&render_case(&result));
        let broken = self.broken_requirements();
        if !broken.is_empty() {
            let _ = writeln!(out, "\nsentences broken:");
            for id in broken {
                match register.get(&id) {
                    Some(s) => {
                        let _ = writeln!(out, "  {} [{}] \"{}\"", s.id, s.strictness, s.quote);
                    }
                    None => {
                        let _ = writeln!(out, "  {id} (not in the register)");
                    }
                }
            }
        }
        out
    }
}

/// The model actions of a case's path. The Assist translation opens its provenance path with the
/// configuration it ran (`model::assist::ObservableTurn ...; setup: ...`): not an action.
pub fn path_of(case: &suites::case::Case) -> Vec<String> {
    let path = case.provenance.as_ref().map(|p| p.path.clone()).unwrap_or_default();
    path.into_iter().filter(|step| !step.starts_with("model::")).collect()
}

pub fn path_length(case: &suites::case::Case) -> usize {
    path_of(case).len()
}

fn path_text(case: &suites::case::Case) -> String {
    path_of(case).join(", ")
}
