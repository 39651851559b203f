//! Loads a vector directory (`vectors/README.md`): the requirement register and every case file,
//! each validated against its schema. A malformed file is an error naming the file and the JSON
//! Pointer of the problem, never a panic; the other files still load.

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::adapter::Protocol;
use crate::schema::FormatSchemas;

/// A problem with one vector file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    pub file: PathBuf,
    /// JSON Pointer into the file, empty for the whole file.
    pub pointer: String,
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "{}: {}", self.file.display(), self.message)
        } else {
            write!(f, "{} at {}: {}", self.file.display(), self.pointer, self.message)
        }
    }
}

/// One requirement of the exported register.
#[derive(Debug, Clone)]
pub struct Requirement {
    pub id: String,
    pub source: String,
    pub locator: String,
    pub quote: String,
    pub strictness: String,
    pub testability: String,
    pub profile: Option<String>,
    pub clarified_by: Vec<String>,
}

/// One case, as loaded.
#[derive(Debug, Clone)]
pub struct Case {
    pub id: String,
    pub protocol: Protocol,
    pub section: String,
    pub file: PathBuf,
    pub description: String,
    pub requirements: Vec<String>,
    pub strictness: String,
    pub profiles: Vec<String>,
    pub setup: Value,
    pub steps: Vec<Value>,
    pub notes: Option<String>,
    /// The case exactly as written, for `explain`.
    pub raw: Value,
}

/// Everything a vector directory holds.
#[derive(Debug, Default)]
pub struct Vectors {
    pub root: PathBuf,
    pub requirements: BTreeMap<String, Requirement>,
    /// Cases in file order (files sorted by path).
    pub cases: Vec<Case>,
    /// Files that did not load; their cases are missing from `cases`.
    pub errors: Vec<LoadError>,
    /// SHA-256 over every loaded file's path and bytes, in path order: identifies the vector set.
    pub digest: String,
}

impl Vectors {
    /// Loads `root` (a `vectors/` directory). Only an unusable schema directory is an `Err`; a bad
    /// vector file is recorded in `errors`.
    pub fn load(root: &Path) -> Result<Vectors, LoadError> {
        let schemas = FormatSchemas::load(&root.join("schema")).map_err(|message| LoadError {
            file: root.join("schema"),
            pointer: String::new(),
            message,
        })?;
        let mut vectors = Vectors { root: root.to_path_buf(), ..Vectors::default() };
        let mut digest = crate::digest::Digest::new();

        let requirements_path = root.join("requirements.json");
        match read_json(&requirements_path) {
            Ok((bytes, document)) => {
                digest.add("requirements.json", &bytes);
                let violations = schemas.check_requirements(&document);
                if let Some(v) = violations.first() {
                    vectors.errors.push(LoadError {
                        file: requirements_path.clone(),
                        pointer: v.pointer.clone(),
                        message: v.message.clone(),
                    });
                } else {
                    vectors.requirements = requirements_of(&document);
                }
            }
            Err(error) => vectors.errors.push(error),
        }

        for path in case_files(root).map_err(|message| LoadError {
            file: root.to_path_buf(),
            pointer: String::new(),
            message,
        })? {
            let (bytes, document) = match read_json(&path) {
                Ok(loaded) => loaded,
                Err(error) => {
                    vectors.errors.push(error);
                    continue;
                }
            };
            let relative = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
            digest.add(&relative, &bytes);
            let violations = schemas.check_file(&document);
            if !violations.is_empty() {
                vectors.errors.extend(violations.into_iter().map(|v| LoadError {
                    file: path.clone(),
                    pointer: v.pointer,
                    message: v.message,
                }));
                continue;
            }
            match cases_of(&path, &document) {
                Ok(cases) => vectors.cases.extend(cases),
                Err(error) => vectors.errors.push(error),
            }
        }
        vectors.check_ids();
        vectors.digest = digest.finish();
        Ok(vectors)
    }

    /// A case id appearing twice makes every selection by id ambiguous: the later copy is dropped
    /// and reported.
    fn check_ids(&mut self) {
        let mut seen: BTreeMap<String, PathBuf> = BTreeMap::new();
        let mut kept = Vec::with_capacity(self.cases.len());
        for case in std::mem::take(&mut self.cases) {
            if let Some(first) = seen.get(&case.id) {
                self.errors.push(LoadError {
                    file: case.file.clone(),
                    pointer: String::new(),
                    message: format!("case id {} already defined in {}", case.id, first.display()),
                });
                continue;
            }
            seen.insert(case.id.clone(), case.file.clone());
            kept.push(case);
        }
        self.cases = kept;
    }
}

fn case_files(root: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for protocol in ["rcip", "rui"] {
        let dir = root.join(protocol);
        if !dir.is_dir() {
            continue;
        }
        let entries = fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries.filter_map(|e| e.ok()) {
            let path = entry.path();
            if path.extension().and_then(|e| e.to_str()) == Some("json") {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

fn read_json(path: &Path) -> Result<(Vec<u8>, Value), LoadError> {
    let bytes = fs::read(path).map_err(|e| LoadError {
        file: path.to_path_buf(),
        pointer: String::new(),
        message: format!("cannot read: {e}"),
    })?;
    let document = serde_json::from_slice(&bytes).map_err(|e| LoadError {
        file: path.to_path_buf(),
        pointer: String::new(),
        message: format!("not JSON: {e} (line {}, column {})", e.line(), e.column()),
    })?;
    Ok((bytes, document))
}

fn text(value: &Value, key: &str) -> String {
    value.get(key).and_then(Value::as_str).unwrap_or_default().to_string()
}

fn texts(value: &Value, key: &str) -> Vec<String> {
    value
        .get(key)
        .and_then(Value::as_array)
        .map(|items| items.iter().filter_map(Value::as_str).map(str::to_string).collect())
        .unwrap_or_default()
}

fn requirements_of(document: &Value) -> BTreeMap<String, Requirement> {
    let mut requirements = BTreeMap::new();
    for entry in document.get("requirements").and_then(Value::as_array).into_iter().flatten() {
        let requirement = Requirement {
            id: text(entry, "id"),
            source: text(entry, "source"),
            locator: text(entry, "locator"),
            quote: text(entry, "quote"),
            strictness: text(entry, "strictness"),
            testability: text(entry, "testability"),
            profile: entry.get("profile").and_then(Value::as_str).map(str::to_string),
            clarified_by: texts(entry, "clarified_by"),
        };
        requirements.insert(requirement.id.clone(), requirement);
    }
    requirements
}

/// The cases of a schema-valid file, with the checks a schema cannot express.
fn cases_of(path: &Path, document: &Value) -> Result<Vec<Case>, LoadError> {
    let section = text(document, "section");
    let file_protocol = text(document, "protocol");
    let mut cases = Vec::new();
    for (index, raw) in document.get("cases").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let id = text(raw, "id");
        let error = |message: String| LoadError {
            file: path.to_path_buf(),
            pointer: format!("/cases/{index}/id"),
            message,
        };
        if !id.starts_with(&format!("{section}.")) {
            return Err(error(format!("case id {id} is not inside section {section}")));
        }
        let protocol = Protocol::from_case_id(&id)
            .filter(|p| p.as_str() == file_protocol)
            .ok_or_else(|| error(format!("case id {id} does not belong to protocol {file_protocol}")))?;
        cases.push(Case {
            protocol,
            section: section.clone(),
            file: path.to_path_buf(),
            description: text(raw, "description"),
            requirements: texts(raw, "requirements"),
            strictness: text(raw, "strictness"),
            profiles: texts(raw, "profiles"),
            setup: raw.get("setup").cloned().unwrap_or(Value::Null),
            steps: raw.get("steps").and_then(Value::as_array).cloned().unwrap_or_default(),
            notes: raw.get("notes").and_then(Value::as_str).map(str::to_string),
            raw: raw.clone(),
            id,
        });
    }
    Ok(cases)
}
