//! Validation of generated sections against the vector format's JSON Schemas
//! (`vectors/schema/`), so `regen` never writes, and `regen --check` never accepts, a file the
//! harness loader would reject. The schemas reference each other by `$id`; a retriever serves
//! them from the schema directory, so nothing is fetched.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use jsonschema::{Draft, Retrieve, Uri, Validator};
use serde_json::{json, Value};

use crate::case::Section;

/// The base of every schema `$id` (`vectors/schema/*.schema.json`).
pub const SCHEMA_BASE: &str = "https://conformance.rcip-rui.invalid/schema/";

struct SchemaDirectory(BTreeMap<String, Value>);

impl Retrieve for SchemaDirectory {
    fn retrieve(
        &self,
        uri: &Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let key = uri.as_str().split('#').next().unwrap_or_default();
        self.0
            .get(key)
            .cloned()
            .ok_or_else(|| format!("no schema {key}").into())
    }
}

/// The compiled schemas of a vector file and of the steps of each protocol.
pub struct VectorSchemas {
    file: Validator,
    steps: BTreeMap<&'static str, Validator>,
}

impl VectorSchemas {
    /// Loads every `*.schema.json` of `dir`.
    pub fn load(dir: &Path) -> Result<VectorSchemas, String> {
        let mut by_uri = BTreeMap::new();
        let mut names: Vec<String> = fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".schema.json"))
            .collect();
        names.sort();
        for name in names {
            let path = dir.join(&name);
            let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let schema: Value =
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            by_uri.insert(format!("{SCHEMA_BASE}{name}"), schema);
        }
        let compile = |reference: &str| -> Result<Validator, String> {
            jsonschema::options()
                .with_draft(Draft::Draft202012)
                .with_retriever(SchemaDirectory(by_uri.clone()))
                .build(&json!({ "$ref": format!("{SCHEMA_BASE}{reference}") }))
                .map_err(|e| format!("vector schema {reference} does not compile: {e}"))
        };
        let mut steps = BTreeMap::new();
        for protocol in ["rcip", "rui"] {
            steps.insert(
                protocol,
                compile(&format!("{protocol}.schema.json#/$defs/step"))?,
            );
        }
        Ok(VectorSchemas {
            file: compile("file.schema.json")?,
            steps,
        })
    }

    /// Every schema violation of a section's file. A step-level error names the case and step;
    /// otherwise the file-level errors are given with their JSON Pointer.
    pub fn problems(&self, section: &Section) -> Vec<String> {
        let document = section.to_json();
        if self.file.is_valid(&document) {
            return Vec::new();
        }
        let mut problems = Vec::new();
        if let Some(step) = self.steps.get(section.protocol()) {
            for case in &section.cases {
                for (i, s) in case.steps.iter().enumerate() {
                    for e in step.iter_errors(s).take(3) {
                        problems.push(format!(
                            "{} step {i} at {}: {e}",
                            case.id,
                            e.instance_path().as_str()
                        ));
                    }
                }
            }
        }
        if problems.is_empty() {
            for e in self.file.iter_errors(&document).take(10) {
                problems.push(format!(
                    "{} at {}: {e}",
                    section.file_name(),
                    e.instance_path().as_str()
                ));
            }
        }
        problems
    }
}
