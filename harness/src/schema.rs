//! Validation of vector files against the JSON Schemas in `vectors/schema/` (the vector format of
//! `vectors/README.md`). The schemas reference each other by `$id`; a retriever serves them from
//! the schema directory so nothing is ever fetched from a network.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use jsonschema::{Draft, Retrieve, Uri, Validator};
use serde_json::Value;

/// The base of every schema `$id`; `<BASE><file name>` names a schema file.
pub const SCHEMA_BASE: &str = "https://conformance.rcip-rui.invalid/schema/";

/// One place where a document breaks its schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaViolation {
    /// JSON Pointer into the document.
    pub pointer: String,
    pub message: String,
}

/// The compiled vector-format schemas.
pub struct FormatSchemas {
    file: Validator,
    case: Validator,
    requirements: Validator,
    /// (protocol, step key) -> validator of that step kind.
    steps: BTreeMap<(&'static str, &'static str), Validator>,
    /// (protocol, step key, value of the key) -> validator of that one variant (e.g. host: bind).
    variants: BTreeMap<(&'static str, &'static str, String), Validator>,
}

struct SchemaDirectory {
    by_uri: BTreeMap<String, Value>,
}

impl Retrieve for SchemaDirectory {
    fn retrieve(&self, uri: &Uri<String>) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let key = uri.as_str().split('#').next().unwrap_or_default();
        self.by_uri
            .get(key)
            .cloned()
            .ok_or_else(|| format!("no schema {key} in the vector schema directory").into())
    }
}

impl FormatSchemas {
    /// Loads and compiles every `*.schema.json` of `dir`.
    pub fn load(dir: &Path) -> Result<FormatSchemas, String> {
        let mut by_uri = BTreeMap::new();
        let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut names: Vec<String> = entries
            .filter_map(|entry| entry.ok())
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".schema.json"))
            .collect();
        names.sort();
        for name in &names {
            let path = dir.join(name);
            let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let schema: Value =
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            by_uri.insert(format!("{SCHEMA_BASE}{name}"), schema);
        }
        let compile = |name: &str, pointer: &str| -> Result<Validator, String> {
            let schema = serde_json::json!({ "$ref": format!("{SCHEMA_BASE}{name}#{pointer}") });
            jsonschema::options()
                .with_draft(Draft::Draft202012)
                .with_retriever(SchemaDirectory { by_uri: by_uri.clone() })
                .build(&schema)
                .map_err(|e| format!("vector schema {name}#{pointer} does not compile: {e}"))
        };
        let mut steps = BTreeMap::new();
        let mut variants = BTreeMap::new();
        for protocol in ["rcip", "rui"] {
            let defs = by_uri
                .get(&format!("{SCHEMA_BASE}{protocol}.schema.json"))
                .and_then(|schema| schema.get("$defs"))
                .and_then(Value::as_object)
                .ok_or_else(|| format!("{protocol}.schema.json has no $defs"))?;
            let file = format!("{protocol}.schema.json");
            for &(key, def) in step_kinds(protocol) {
                let Some(kind) = defs.get(def) else { continue };
                steps.insert((protocol, key), compile(&file, &format!("/$defs/{def}"))?);
                let branches = kind.get("oneOf").and_then(Value::as_array).cloned().unwrap_or_default();
                for (i, branch) in branches.iter().enumerate() {
                    let Some(tag) = branch.pointer(&format!("/properties/{key}/const")).and_then(Value::as_str) else {
                        continue;
                    };
                    variants.insert(
                        (protocol, key, tag.to_string()),
                        compile(&file, &format!("/$defs/{def}/oneOf/{i}"))?,
                    );
                }
            }
        }
        Ok(FormatSchemas {
            file: compile("file.schema.json", "")?,
            case: compile("case.schema.json", "")?,
            requirements: compile("requirements.schema.json", "")?,
            steps,
            variants,
        })
    }

    /// Every violation of a vector file, the most precise first.
    pub fn check_file(&self, document: &Value) -> Vec<SchemaViolation> {
        if self.file.is_valid(document) {
            return Vec::new();
        }
        let precise = self.precise_violations(document);
        if !precise.is_empty() {
            return precise;
        }
        violations(&self.file, document, "")
    }

    /// Every violation of the exported requirement register.
    pub fn check_requirements(&self, document: &Value) -> Vec<SchemaViolation> {
        violations(&self.requirements, document, "")
    }

    /// A step schema is a `oneOf` over step kinds, whose errors say only "not valid under any";
    /// validating each case, then each step against the schema of its own kind, names the field.
    fn precise_violations(&self, document: &Value) -> Vec<SchemaViolation> {
        let mut found = Vec::new();
        let Some(cases) = document.get("cases").and_then(Value::as_array) else {
            return found;
        };
        for (c, case) in cases.iter().enumerate() {
            let case_pointer = format!("/cases/{c}");
            if self.case.is_valid(case) {
                continue;
            }
            let protocol = case
                .get("id")
                .and_then(Value::as_str)
                .and_then(|id| id.split('.').next())
                .unwrap_or("");
            let mut step_found = false;
            if let Some(steps) = case.get("steps").and_then(Value::as_array) {
                for (s, step) in steps.iter().enumerate() {
                    let kind = step_kinds(protocol)
                        .iter()
                        .find(|(key, _)| step.get(*key).is_some())
                        .map(|(key, _)| *key);
                    let pointer = format!("{case_pointer}/steps/{s}");
                    let protocol = protocol_static(protocol);
                    let variant = kind.and_then(|k| {
                        let tag = step.get(k).and_then(Value::as_str)?;
                        self.variants.get(&(protocol, k, tag.to_string()))
                    });
                    if let (Some(k), None) = (kind, variant) {
                        let known: Vec<&str> = self
                            .variants
                            .keys()
                            .filter(|(p, key, _)| *p == protocol && *key == k)
                            .map(|(_, _, tag)| tag.as_str())
                            .collect();
                        if !known.is_empty() {
                            step_found = true;
                            found.push(SchemaViolation {
                                pointer: format!("{pointer}/{k}"),
                                message: format!("unknown {k} step {}; known: {}", step.get(k).unwrap_or(&Value::Null), known.join(", ")),
                            });
                            continue;
                        }
                    }
                    match variant.or_else(|| kind.and_then(|k| self.steps.get(&(protocol, k)))) {
                        Some(validator) => {
                            let v = violations(validator, step, &pointer);
                            step_found |= !v.is_empty();
                            found.extend(v);
                        }
                        None => {
                            step_found = true;
                            found.push(SchemaViolation {
                                pointer,
                                message: format!(
                                    "a step needs exactly one of the keys {}",
                                    step_kinds(protocol).iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", ")
                                ),
                            });
                        }
                    }
                }
            }
            if !step_found {
                found.extend(violations(&self.case, case, &case_pointer));
            }
        }
        found
    }
}

fn protocol_static(protocol: &str) -> &'static str {
    match protocol {
        "rcip" => "rcip",
        _ => "rui",
    }
}

/// The key that marks each step kind, and the `$defs` entry that defines it.
fn step_kinds(protocol: &str) -> &'static [(&'static str, &'static str)] {
    match protocol {
        "rcip" => &[
            ("host", "hostStep"),
            ("client", "clientStep"),
            ("gate", "gateStep"),
            ("clock", "clockStep"),
            ("expect", "expectStep"),
        ],
        "rui" => &[
            ("feed", "feedStep"),
            ("dispatch", "dispatchStep"),
            ("gate", "gateStep"),
            ("expect", "expectStep"),
        ],
        _ => &[],
    }
}

fn violations(validator: &Validator, document: &Value, prefix: &str) -> Vec<SchemaViolation> {
    let mut found: Vec<SchemaViolation> = validator
        .iter_errors(document)
        .map(|error| SchemaViolation {
            pointer: format!("{prefix}{}", error.instance_path().as_str()),
            message: error.to_string(),
        })
        .collect();
    // Deepest pointer first: the innermost error is the one a writer can act on.
    found.sort_by(|a, b| b.pointer.len().cmp(&a.pointer.len()).then(a.pointer.cmp(&b.pointer)));
    found.dedup();
    found
}
