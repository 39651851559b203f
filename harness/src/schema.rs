//! Validation of vector files against the JSON Schemas in `vectors/schema/` (the vector format of
//! `vectors/README.md`). The schemas reference each other by `$id`; a retriever serves them from
//! the schema directory so nothing is ever fetched from a network.
//!
//! Only the file and register schemas are compiled when a vector set loads: a valid file needs
//! nothing else. The schemas of a case and of each step kind and variant, which only say where an
//! invalid file goes wrong, are compiled the first time a file is invalid (issue 29 §1: compiling
//! them took a tenth of a whole in-process run). Every reference they make is reached from the
//! file schema too, so a schema directory that would not compile them is refused at load all the
//! same.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::sync::{Arc, OnceLock};

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
    requirements: Validator,
    /// Every schema document by its `$id`, shared by every compilation.
    by_uri: Arc<BTreeMap<String, Value>>,
    /// The schemas that locate a problem, compiled when a file first needs them.
    detail: OnceLock<Result<Detail, String>>,
}

/// The schemas of a case and of its steps, which say where an invalid file goes wrong.
struct Detail {
    case: Validator,
    /// (protocol, step key) -> validator of that step kind.
    steps: BTreeMap<(&'static str, &'static str), Validator>,
    /// (protocol, step key, value of the key) -> validator of that one variant (e.g. host: bind).
    variants: BTreeMap<(&'static str, &'static str, String), Validator>,
}

struct SchemaDirectory {
    by_uri: Arc<BTreeMap<String, Value>>,
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
            let text = crate::files::read_string(&path, crate::files::JSON_LIMIT).map_err(|e| e.to_string())?;
            let schema: Value =
                crate::json::parse_unique(text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))?;
            by_uri.insert(format!("{SCHEMA_BASE}{name}"), schema);
        }
        let by_uri = Arc::new(by_uri);
        for protocol in ["rcip", "rui"] {
            by_uri
                .get(&format!("{SCHEMA_BASE}{protocol}.schema.json"))
                .and_then(|schema| schema.get("$defs"))
                .and_then(Value::as_object)
                .ok_or_else(|| format!("{protocol}.schema.json has no $defs"))?;
        }
        Ok(FormatSchemas {
            file: compile(&by_uri, "file.schema.json", "")?,
            requirements: compile(&by_uri, "requirements.schema.json", "")?,
            by_uri,
            detail: OnceLock::new(),
        })
    }

    /// The schemas of a case and its steps, compiled on first use.
    fn detail(&self) -> Result<&Detail, SchemaViolation> {
        let detail = self.detail.get_or_init(|| Detail::compile(&self.by_uri));
        detail.as_ref().map_err(|message| SchemaViolation { pointer: String::new(), message: message.clone() })
    }

    /// The problems of a vector file of `protocol` (the directory it sits in): every problem of
    /// its envelope, then the first real problem of each invalid case (see `case_problem`).
    pub fn check_file(&self, document: &Value, protocol: &str) -> Vec<SchemaViolation> {
        if self.file.is_valid(document) {
            return Vec::new();
        }
        let mut found: Vec<SchemaViolation> =
            violations(&self.file, document, "").into_iter().filter(|v| !v.pointer.starts_with("/cases/")).collect();
        for (c, case) in document.get("cases").and_then(Value::as_array).into_iter().flatten().enumerate() {
            match self.detail() {
                Ok(detail) => found.extend(detail.case_problem(case, protocol, &format!("/cases/{c}"))),
                Err(problem) => return vec![problem],
            }
        }
        if found.is_empty() {
            found = violations(&self.file, document, "");
        }
        found
    }

    /// Every violation of the exported requirement register.
    pub fn check_requirements(&self, document: &Value) -> Vec<SchemaViolation> {
        violations(&self.requirements, document, "")
    }

    /// The first real problem of one case, if it has one (see [`Detail::case_problem`]).
    pub fn case_problem(&self, case: &Value, protocol: &str, case_pointer: &str) -> Option<SchemaViolation> {
        match self.detail() {
            Ok(detail) => detail.case_problem(case, protocol, case_pointer),
            Err(problem) => Some(problem),
        }
    }
}

/// One schema of the directory (a `$ref` to `name#pointer`), compiled.
fn compile(by_uri: &Arc<BTreeMap<String, Value>>, name: &str, pointer: &str) -> Result<Validator, String> {
    let schema = serde_json::json!({ "$ref": format!("{SCHEMA_BASE}{name}#{pointer}") });
    jsonschema::options()
        .with_draft(Draft::Draft202012)
        .with_retriever(SchemaDirectory { by_uri: Arc::clone(by_uri) })
        .build(&schema)
        .map_err(|e| format!("vector schema {name}#{pointer} does not compile: {e}"))
}

impl Detail {
    fn compile(by_uri: &Arc<BTreeMap<String, Value>>) -> Result<Detail, String> {
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
                steps.insert((protocol, key), compile(by_uri, &file, &format!("/$defs/{def}"))?);
                let branches = kind.get("oneOf").and_then(Value::as_array).cloned().unwrap_or_default();
                for (i, branch) in branches.iter().enumerate() {
                    // A branch names its kind with `const` or, when several kinds share one
                    // shape, with `enum`: every listed kind is a known kind.
                    let key_schema = branch.pointer(&format!("/properties/{key}"));
                    let tags: Vec<&str> = match key_schema {
                        Some(s) if s.get("const").is_some() => s.get("const").and_then(Value::as_str).into_iter().collect(),
                        Some(s) => s.get("enum").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect(),
                        None => Vec::new(),
                    };
                    if tags.is_empty() {
                        continue;
                    }
                    let validator = compile(by_uri, &file, &format!("/$defs/{def}/oneOf/{i}"))?;
                    for tag in tags {
                        variants.insert((protocol, key, tag.to_string()), validator.clone());
                    }
                }
            }
        }
        Ok(Detail { case: compile(by_uri, "case.schema.json", "")?, steps, variants })
    }

    /// The first real problem of one case, if it has one. The case's own members come first (a
    /// case without `id` is reported as such, not as one error per step), then its setup, then
    /// its steps in order, each step checked against the schema of its own kind (a step schema is
    /// a `oneOf` whose errors say only "not valid under any"). The step kinds are those of the
    /// file's protocol, never guessed from the case id.
    fn case_problem(&self, case: &Value, protocol: &str, case_pointer: &str) -> Option<SchemaViolation> {
        if self.case.is_valid(case) {
            return None;
        }
        let all = violations(&self.case, case, case_pointer);
        let under = |v: &SchemaViolation, member: &str| v.pointer.starts_with(&format!("{case_pointer}/{member}"));
        if let Some(own) = all.iter().find(|v| !under(v, "setup") && !under(v, "steps")) {
            return Some(own.clone());
        }
        if let Some(setup) = all.iter().find(|v| under(v, "setup")) {
            return Some(setup.clone());
        }
        for (s, step) in case.get("steps").and_then(Value::as_array).into_iter().flatten().enumerate() {
            if let Some(problem) = self.step_problem(step, protocol, &format!("{case_pointer}/steps/{s}")) {
                return Some(problem);
            }
        }
        all.into_iter().next()
    }

    fn step_problem(&self, step: &Value, protocol: &str, pointer: &str) -> Option<SchemaViolation> {
        let protocol = protocol_static(protocol);
        let kinds = step_kinds(protocol);
        let Some(kind) = kinds.iter().find(|(key, _)| step.get(*key).is_some()).map(|(key, _)| *key) else {
            return Some(SchemaViolation {
                pointer: pointer.to_string(),
                message: format!(
                    "a {protocol} step needs exactly one of the keys {}",
                    kinds.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", ")
                ),
            });
        };
        let variant = step.get(kind).and_then(Value::as_str).and_then(|tag| self.variants.get(&(protocol, kind, tag.to_string())));
        if variant.is_none() {
            let known: Vec<&str> = self
                .variants
                .keys()
                .filter(|(p, key, _)| *p == protocol && *key == kind)
                .map(|(_, _, tag)| tag.as_str())
                .collect();
            if !known.is_empty() {
                return Some(SchemaViolation {
                    pointer: format!("{pointer}/{kind}"),
                    message: format!(
                        "unknown {kind} step {}; known: {}",
                        crate::quote::bounded(step.get(kind).unwrap_or(&Value::Null)),
                        known.join(", ")
                    ),
                });
            }
        }
        let validator = variant.or_else(|| self.steps.get(&(protocol, kind)))?;
        violations(validator, step, pointer).into_iter().next()
    }
}

fn protocol_static(protocol: &str) -> &'static str {
    match protocol {
        "rcip" => "rcip",
        "rui" => "rui",
        _ => "",
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
            message: crate::quote::bounded(&error),
        })
        .collect();
    // Deepest pointer first: the innermost error is the one a writer can act on.
    found.sort_by(|a, b| b.pointer.len().cmp(&a.pointer.len()).then(a.pointer.cmp(&b.pointer)));
    found.dedup();
    found
}
