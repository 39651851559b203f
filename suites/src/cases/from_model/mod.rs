//! Vectors written by the stateright models (issue 5, "model-generated vectors"): each submodule
//! translates one model's paths into cases of the common format, flagged with `provenance`
//! (`kind: model`, the model and its bound, the action path). `model::visit::cover` chooses the
//! paths so that together they take every transition class and reach every outcome code; the
//! coverage certificate of each model is printed by `regen` and `lint` and checked in the tests.
//!
//! Shrunk failures of the differential tests (`differential/`) are committed as choice sequences
//! in `suites/regressions/<model>.json`; `regressions` turns them into cases with
//! `provenance.kind: proptest`, so they join the shared corpus through the same translation.

pub mod assist;
pub mod host_features;
pub mod invocation;
pub mod transaction;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::case::{Case, Section};

pub use model::visit::Certificate;

/// One model's generated section and its coverage certificate.
pub struct Generated {
    pub sections: Vec<Section>,
    pub certificate: Certificate,
}

/// The models whose regressions live in `suites/regressions/<model>.json`.
pub const MODELS: [&str; 3] = ["invocation", "assist", "transaction"];

/// Reads every committed regression file, so a malformed one is reported as an error naming the
/// file and entry before the translators (which expect well-formed files) run.
pub fn check_regression_files() -> Result<(), String> {
    for model in MODELS {
        load_regressions(&regressions_dir(), model)?;
    }
    Ok(())
}

/// Every model's output, in a fixed order.
pub fn generated() -> Vec<Generated> {
    let mut all = invocation::generated();
    all.extend(assist::generated());
    all.extend(transaction::generated());
    all
}

/// The sections `regen` writes for the models.
pub fn sections() -> Vec<Section> {
    generated().into_iter().flat_map(|g| g.sections).collect()
}

/// What every model's generated output must satisfy whatever the model: a complete certificate
/// (every transition class and every code), sections that pass the vector schema, case ids
/// unique and in `section_id`, requirement ids that exist in the register, and a `model` or
/// `proptest` provenance. Returns every problem found (none: all good).
pub fn problems(
    generated: &[Generated],
    section_id: &str,
    schemas: &crate::vector_schema::VectorSchemas,
    register: &crate::register::Register,
) -> Vec<String> {
    let known = register.by_id();
    let mut problems = Vec::new();
    let mut ids = std::collections::BTreeSet::new();
    for generated in generated {
        if !generated.certificate.complete() {
            problems.push(format!("incomplete certificate: {}", generated.certificate));
        }
        for section in &generated.sections {
            if section.id != section_id {
                problems.push(format!("section {} is not {section_id}", section.id));
            }
            problems.extend(schemas.problems(section));
            for case in &section.cases {
                if !ids.insert(case.id.clone()) {
                    problems.push(format!("duplicate case id {}", case.id));
                }
                if !case.id.starts_with(&format!("{section_id}.")) {
                    problems.push(format!("{} is outside {section_id}", case.id));
                }
                for id in case
                    .requirements
                    .iter()
                    .filter(|id| !known.contains_key(id.as_str()))
                {
                    problems.push(format!("{} cites unknown requirement {id}", case.id));
                }
                match &case.provenance {
                    Some(p) if matches!(p.kind, "model" | "proptest") => {}
                    _ => problems.push(format!("{} has no model or proptest provenance", case.id)),
                }
            }
        }
    }
    problems
}

/// `problems` against this repository's vector schemas and register.
pub fn bundled_problems(generated: &[Generated], section_id: &str) -> Vec<String> {
    let suites = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let schemas = crate::vector_schema::VectorSchemas::load(
        &suites.join("..").join("vectors").join("schema"),
    );
    let register = crate::register::Register::load(&suites.join("register"));
    match (schemas, register) {
        (Ok(schemas), Ok(register)) => problems(generated, section_id, &schemas, &register),
        (Err(e), _) | (_, Err(e)) => vec![e],
    }
}

/// One committed regression: a differential test's shrunk input. The note's first sentence is
/// the case description (see `description`); the rest says how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regression {
    /// The proptest seed or other replay handle, as printed by the failing test.
    pub seed: String,
    /// The choice sequence `model::visit::walk` replays into a path.
    pub choices: Vec<u32>,
    /// What went wrong when it was found (for the reader; not used to judge).
    pub note: String,
}

impl Regression {
    /// A stable slug from the choices (the first 8 hex digits of the SHA-256 of their JSON), so a
    /// regression's case id never depends on its position in the file.
    pub fn slug(&self) -> String {
        use sha2::{Digest, Sha256};
        let digest = Sha256::digest(
            serde_json::to_string(&self.choices)
                .unwrap_or_default()
                .as_bytes(),
        );
        let hex: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
        format!("regression-{hex}")
    }

    /// The case description: the note's first sentence when it states the behaviour within the
    /// 70 characters a description may have (whoever commits a regression writes it so), else a
    /// neutral one naming the slug.
    pub fn description(&self) -> String {
        let first = self.note.split_inclusive(". ").next().unwrap_or("").trim();
        let fits =
            first.ends_with('.') && first.chars().count() <= 70 && !first.starts_with("verdict");
        if fits {
            first.to_string()
        } else {
            format!("Shrunk differential failure {} stays fixed", self.slug())
        }
    }

    /// Gives a regression's case its description, and its note ahead of the translator's notes.
    pub fn annotate(&self, case: &mut Case) {
        case.description = self.description();
        case.notes = Some(match case.notes.take() {
            Some(notes) => format!("{} {notes}", self.note),
            None => self.note.clone(),
        });
    }
}

/// `suites/regressions/`, found from the crate's own location.
pub fn regressions_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("regressions")
}

/// The regressions committed for `model` (`<dir>/<model>.json`, an array of
/// `{"seed", "choices", "note"}`); none when the file does not exist. A malformed file is an
/// error naming the file and the entry, never silently skipped.
pub fn load_regressions(dir: &Path, model: &str) -> Result<Vec<Regression>, String> {
    let path = dir.join(format!("{model}.json"));
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let value: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let entries = value
        .as_array()
        .ok_or_else(|| format!("{}: expected an array of regressions", path.display()))?;
    entries
        .iter()
        .enumerate()
        .map(|(i, entry)| {
            let bad = |what: &str| format!("{}: entry {i}: {what}", path.display());
            let seed = entry
                .get("seed")
                .and_then(Value::as_str)
                .ok_or_else(|| bad("`seed` must be a string"))?;
            let note = entry
                .get("note")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let choices = entry
                .get("choices")
                .and_then(Value::as_array)
                .ok_or_else(|| bad("`choices` must be an array"))?
                .iter()
                .map(|c| {
                    c.as_u64()
                        .and_then(|c| u32::try_from(c).ok())
                        .ok_or_else(|| bad("`choices` must hold integers 0..2^32"))
                })
                .collect::<Result<Vec<u32>, String>>()?;
            Ok(Regression {
                seed: seed.to_string(),
                choices,
                note: note.to_string(),
            })
        })
        .collect()
}

/// Appends `regression` to `<dir>/<model>.json` unless the same choices are already there;
/// returns whether it was added. Written with sorted, pretty JSON so diffs stay small.
pub fn record_regression(dir: &Path, model: &str, regression: &Regression) -> Result<bool, String> {
    let mut all = load_regressions(dir, model)?;
    if all.iter().any(|r| r.choices == regression.choices) {
        return Ok(false);
    }
    all.push(regression.clone());
    let json: Vec<Value> = all
        .iter()
        .map(|r| serde_json::json!({ "seed": r.seed, "choices": r.choices, "note": r.note }))
        .collect();
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("{model}.json"));
    let text = serde_json::to_string_pretty(&Value::Array(json)).unwrap_or_default() + "\n";
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(true)
}
