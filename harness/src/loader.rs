//! Loads a vector directory (`vectors/README.md`): the requirement register and every case file,
//! each validated against its schema. Nothing is silently left out (issue 14, section 1): a
//! protocol directory that is missing or unreadable, an entry that is not a regular file, a file
//! of the wrong protocol, a case citing a requirement id the register lacks, a Rixx UI case whose
//! framing is not among its profiles, a step naming a handle no earlier step created, and a
//! directory with no case at all are load errors naming the file and the JSON Pointer of the
//! first real problem of each case. Never a panic; the other files still load.

use std::borrow::Cow;
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
    /// The reference's choice rows that take the other readings of an open point (`choices`).
    pub choices: Vec<String>,
    /// The stable codes the entry names (`codes`; Rixx UI decisions, CL-D08-1).
    pub codes: Vec<String>,
    /// Its place in the register file (the order of the spec texts and of their sentences).
    pub position: usize,
}

/// One case, as loaded. The setup and steps are kept as compact JSON text and parsed when the
/// case runs or is explained: a parsed step costs several times its text, so a large vector set
/// (52 MB in issue 14) is held at about the size of its compact text, not of its parsed tree.
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
    pub notes: Option<String>,
    /// Every requirement id the case cites, at case level and on its steps, sorted.
    pub cited: Vec<String>,
    /// `setup.framing` (Rixx UI); `None` for RCIP and for a framing-neutral case (issue 15).
    pub framing: Option<String>,
    /// Where a generated case came from (`provenance`: the model and the path of actions).
    pub provenance: Option<Provenance>,
    /// The register's sentences, shortened (`quote::sentence`), by id: one map shared by every
    /// case of a loaded set, so a failing step's output quotes what decides it (issue 27 §3).
    /// Empty for a case built outside the loader.
    pub sentences: Sentences,
    body: Body,
}

/// Requirement id -> its sentence as a failure shows it (`quote::sentence`).
pub type Sentences = std::sync::Arc<BTreeMap<String, String>>;

/// A case's setup and steps.
#[derive(Debug, Clone)]
enum Body {
    /// `[setup, steps]` as compact JSON (a loaded vector file).
    Text(Box<str>),
    /// Already parsed: a case built to run at once (fuzzing), which a text round trip per run
    /// would only slow down.
    Parsed(Box<(Value, Vec<Value>)>),
}

/// A generated case's `provenance` (vectors/README.md): `model` or `proptest`, the generator
/// (`by`: the model and its configuration), the seed of a shrunk property test, and the path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provenance {
    pub kind: String,
    pub by: String,
    pub seed: Option<String>,
    pub path: Vec<String>,
}

/// Everything a case is made of, for building one outside the loader (tests, translators).
#[derive(Debug, Clone)]
pub struct CaseParts {
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
}

impl From<CaseParts> for Case {
    fn from(parts: CaseParts) -> Case {
        let body = serde_json::to_string(&(&parts.setup, &parts.steps)).unwrap_or_else(|_| "[null,[]]".into());
        Case::with_body(parts, |_, _| Body::Text(body.into_boxed_str()))
    }
}

impl Case {
    /// A case that keeps its setup and steps parsed, for a case built to run at once and then
    /// dropped (`conformance fuzz`); [`Case::from`] keeps the compact text, for a loaded set.
    pub fn parsed(parts: CaseParts) -> Case {
        Case::with_body(parts, |setup, steps| Body::Parsed(Box::new((setup, steps))))
    }

    fn with_body(parts: CaseParts, body: impl FnOnce(Value, Vec<Value>) -> Body) -> Case {
        let mut cited = parts.requirements.clone();
        for step in &parts.steps {
            cited.extend(texts(step, "requirements"));
        }
        cited.sort();
        cited.dedup();
        let framing = parts.setup.get("framing").and_then(Value::as_str).map(str::to_string);
        Case {
            id: parts.id,
            protocol: parts.protocol,
            section: parts.section,
            file: parts.file,
            description: parts.description,
            requirements: parts.requirements,
            strictness: parts.strictness,
            profiles: parts.profiles,
            notes: parts.notes,
            cited,
            framing,
            provenance: None,
            sentences: Sentences::default(),
            body: body(parts.setup, parts.steps),
        }
    }
}

impl Case {
    /// The setup and the steps, parsed (the text was produced from values, so it parses).
    pub fn body(&self) -> (Value, Vec<Value>) {
        self.parsed_body().into_owned()
    }

    /// The setup and steps, borrowed where the case keeps them parsed.
    pub fn parsed_body(&self) -> Cow<'_, (Value, Vec<Value>)> {
        match &self.body {
            Body::Text(text) => Cow::Owned(serde_json::from_str(text).unwrap_or((Value::Null, Vec::new()))),
            Body::Parsed(parsed) => Cow::Borrowed(parsed),
        }
    }

    pub fn setup(&self) -> Value {
        self.body().0
    }

    pub fn steps(&self) -> Vec<Value> {
        self.body().1
    }
}

/// Everything a vector directory holds.
#[derive(Debug, Default)]
pub struct Vectors {
    pub root: PathBuf,
    pub requirements: BTreeMap<String, Requirement>,
    /// The spec texts the register quotes: source file name -> title (`sources` of the register).
    pub sources: BTreeMap<String, String>,
    /// Cases in file order (files sorted by path).
    pub cases: Vec<Case>,
    /// Files that did not load; their cases are missing from `cases`.
    pub errors: Vec<LoadError>,
    /// SHA-256 over every loaded file's path and bytes, in path order: identifies the vector set.
    pub digest: String,
}

/// The digest of the vector set bundled with this build: the official set a certification
/// requires (computed by `build.rs`; `none` in a build without bundled vectors).
pub const OFFICIAL_DIGEST: &str = env!("OFFICIAL_VECTORS_DIGEST");

impl Vectors {
    /// Loads `root` (a `vectors/` directory). Only an unusable schema directory is an `Err`; every
    /// other problem (a protocol directory that cannot be read, a file that is not a regular
    /// file, a bad vector file or case, no case at all) is recorded in `errors`, and any error
    /// makes a run exit 2.
    ///
    /// A hand-written vector set may leave out `schema/` and `requirements.json`: the format
    /// schemas and the requirement register bundled with this build are used instead (so its
    /// cases cite the register's ids); a set with a register of its own cites that one's.
    pub fn load(root: &Path) -> Result<Vectors, LoadError> {
        let own_or_bundled = |name: &str| {
            let own = root.join(name);
            if own.exists() || fs::symlink_metadata(&own).is_ok() {
                own
            } else {
                crate::bundled_vectors().join(name)
            }
        };
        let schema_dir = own_or_bundled("schema");
        let schemas = FormatSchemas::load(&schema_dir).map_err(|message| LoadError {
            file: schema_dir.clone(),
            pointer: String::new(),
            message,
        })?;
        let mut vectors = Vectors { root: root.to_path_buf(), ..Vectors::default() };
        let mut digest = crate::digest::Digest::new();
        digest_schemas(&schema_dir, &mut digest);

        let requirements_path = own_or_bundled("requirements.json");
        let mut register_loaded = false;
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
                    vectors.sources = sources_of(&document);
                    register_loaded = true;
                }
            }
            Err(error) => vectors.errors.push(error),
        }

        for protocol in [Protocol::Rcip, Protocol::Rui] {
            let files = case_files(root, protocol, &mut vectors.errors);
            for path in files {
                let (bytes, document) = match read_json(&path) {
                    Ok(loaded) => loaded,
                    Err(error) => {
                        vectors.errors.push(error);
                        continue;
                    }
                };
                let relative = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
                digest.add(&relative, &bytes);
                drop(bytes);
                let error = |pointer: String, message: String| LoadError { file: path.clone(), pointer, message };
                let declared = document.get("protocol").and_then(Value::as_str).unwrap_or_default();
                if !declared.is_empty() && declared != protocol.as_str() {
                    vectors.errors.push(error(
                        "/protocol".into(),
                        format!("a {declared} file in the {}/ directory (protocol mismatch)", protocol.as_str()),
                    ));
                    continue;
                }
                let violations = schemas.check_file(&document, protocol.as_str());
                if !violations.is_empty() {
                    vectors.errors.extend(violations.into_iter().map(|v| error(v.pointer, v.message)));
                    continue;
                }
                let register = register_loaded.then_some(&vectors.requirements);
                match cases_of(&path, protocol, document, register) {
                    Ok(cases) => vectors.cases.extend(cases),
                    Err(errors) => vectors.errors.extend(errors),
                }
            }
        }
        vectors.check_ids();
        let sentences: Sentences = std::sync::Arc::new(
            vectors.requirements.values().map(|r| (r.id.clone(), crate::quote::sentence(&r.quote))).collect(),
        );
        for case in &mut vectors.cases {
            case.sentences = sentences.clone();
        }
        if vectors.cases.is_empty() {
            vectors.errors.push(LoadError {
                file: root.to_path_buf(),
                pointer: String::new(),
                message: "no case loaded from this vector directory".into(),
            });
        }
        vectors.digest = digest.finish();
        Ok(vectors)
    }

    /// Whether this is the complete official vector set of this build, loaded without error.
    pub fn is_official(&self) -> bool {
        self.errors.is_empty() && self.digest == OFFICIAL_DIGEST
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
                    message: format!("case id {} already defined in {}", crate::quote::bounded(&case.id), first.display()),
                });
                continue;
            }
            seen.insert(case.id.clone(), case.file.clone());
            kept.push(case);
        }
        self.cases = kept;
    }
}

/// The schema files count in the digest: a changed schema loads the same files differently.
fn digest_schemas(dir: &Path, digest: &mut crate::digest::Digest) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".schema.json") {
            // FormatSchemas::load has read each already: a file that fails now changed meanwhile
            // and fails the next load.
            if let Ok(bytes) = crate::files::read(&entry.path(), crate::files::JSON_LIMIT) {
                digest.add(&format!("schema/{name}"), &bytes);
            }
        }
    }
}

/// The vector files of one protocol directory, sorted. Every problem is recorded, never skipped:
/// a missing or unreadable directory (a symlink loop included), a subdirectory, and any `.json`
/// entry that is not a regular file (a FIFO, device or socket would hang or mislead the reader)
/// or a symlink to a regular file inside the vector directory, and any symlink not named `.json`
/// (one to a directory included). Other entries not ending in `.json` are not vector files and
/// are left alone.
fn case_files(root: &Path, protocol: Protocol, errors: &mut Vec<LoadError>) -> Vec<PathBuf> {
    let dir = root.join(protocol.as_str());
    let problem = |file: &Path, message: String| LoadError { file: file.to_path_buf(), pointer: String::new(), message };
    let entries = match fs::metadata(&dir) {
        Ok(meta) if meta.is_dir() => fs::read_dir(&dir),
        Ok(_) => {
            errors.push(problem(&dir, "the protocol directory is not a directory".into()));
            return Vec::new();
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            errors.push(problem(
                &dir,
                "the protocol directory is missing (a vector directory has both rcip/ and rui/; either may be empty)".into(),
            ));
            return Vec::new();
        }
        Err(e) => Err(e),
    };
    let entries = match entries {
        Ok(entries) => entries,
        Err(e) => {
            errors.push(problem(&dir, format!("cannot read the protocol directory: {e}")));
            return Vec::new();
        }
    };
    let inside = fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let mut files = Vec::new();
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                errors.push(problem(&dir, format!("cannot read the protocol directory: {e}")));
                continue;
            }
        };
        let path = entry.path();
        let kind = match entry.file_type() {
            Ok(kind) => kind,
            Err(e) => {
                errors.push(problem(&path, format!("cannot read: {e}")));
                continue;
            }
        };
        if kind.is_dir() {
            errors.push(problem(&path, "a subdirectory: vector files sit directly in rcip/ and rui/".into()));
            continue;
        }
        let is_json = path.extension().and_then(|e| e.to_str()) == Some("json");
        if kind.is_symlink() && !is_json {
            // A symlink is put there on purpose: one to a directory (a set of vector files
            // nested in rcip/ or rui/) or to a file not named .json would otherwise be passed
            // over without a word.
            let what = match fs::metadata(&path) {
                Ok(meta) if meta.is_dir() => "a symlink to a directory: vector files sit directly in rcip/ and rui/",
                _ => "a symlink whose name does not end in .json: a vector file is a .json file (a symlink to one included)",
            };
            errors.push(problem(&path, what.into()));
            continue;
        }
        if !is_json {
            continue;
        }
        if kind.is_file() {
            files.push(path);
        } else if kind.is_symlink() {
            match fs::canonicalize(&path) {
                Err(e) => errors.push(problem(&path, format!("a symlink that cannot be followed: {e}"))),
                Ok(target) if !target.starts_with(&inside) => errors.push(problem(
                    &path,
                    format!("a symlink to {} outside the vector directory", target.display()),
                )),
                Ok(target) => match fs::metadata(&target) {
                    Ok(meta) if meta.is_file() => files.push(path),
                    _ => errors.push(problem(&path, format!("a symlink to {}, which is not a regular file", target.display()))),
                },
            }
        } else {
            errors.push(problem(&path, "not a regular file (a FIFO, device or socket): refused".into()));
        }
    }
    files.sort();
    files
}

/// A vector file or the register, through the one opener (`crate::files`): a regular file of at
/// most `JSON_LIMIT` bytes, so a FIFO or device given as `requirements.json` is refused, never
/// read.
fn read_json(path: &Path) -> Result<(Vec<u8>, Value), LoadError> {
    let bytes = crate::files::read(path, crate::files::JSON_LIMIT).map_err(|e| LoadError {
        file: path.to_path_buf(),
        pointer: String::new(),
        message: e.reason,
    })?;
    // A key given twice in one object is refused (`crate::json`), not read as its last value.
    let document = crate::json::parse_unique(&bytes).map_err(|e| LoadError {
        file: path.to_path_buf(),
        pointer: String::new(),
        message: match e.classify() {
            serde_json::error::Category::Data => format!("{e}"),
            _ => format!("not JSON: {e} (line {}, column {})", e.line(), e.column()),
        },
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

fn sources_of(document: &Value) -> BTreeMap<String, String> {
    let entries = document.get("sources").and_then(Value::as_array).into_iter().flatten();
    entries.map(|entry| (text(entry, "file"), text(entry, "title"))).collect()
}

fn requirements_of(document: &Value) -> BTreeMap<String, Requirement> {
    let mut requirements = BTreeMap::new();
    for (position, entry) in document.get("requirements").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let requirement = Requirement {
            position,
            id: text(entry, "id"),
            source: text(entry, "source"),
            locator: text(entry, "locator"),
            quote: text(entry, "quote"),
            strictness: text(entry, "strictness"),
            testability: text(entry, "testability"),
            profile: entry.get("profile").and_then(Value::as_str).map(str::to_string),
            clarified_by: texts(entry, "clarified_by"),
            choices: texts(entry, "choices"),
            codes: texts(entry, "codes"),
        };
        requirements.insert(requirement.id.clone(), requirement);
    }
    requirements
}

/// The cases of a schema-valid file, with the checks a schema cannot express. Each case is
/// checked on its own and reports its first problem; a file with any bad case loads no case.
fn cases_of(
    path: &Path,
    protocol: Protocol,
    document: Value,
    register: Option<&BTreeMap<String, Requirement>>,
) -> Result<Vec<Case>, Vec<LoadError>> {
    let section = text(&document, "section");
    let mut cases = Vec::new();
    let mut errors = Vec::new();
    let Value::Object(mut envelope) = document else { return Ok(cases) };
    let Some(Value::Array(raw_cases)) = envelope.remove("cases") else { return Ok(cases) };
    for (index, raw) in raw_cases.into_iter().enumerate() {
        match case_of(path, protocol, &section, index, raw, register) {
            Ok(case) => cases.push(case),
            Err(error) => errors.push(error),
        }
    }
    if errors.is_empty() {
        Ok(cases)
    } else {
        Err(errors)
    }
}

fn case_of(
    path: &Path,
    protocol: Protocol,
    section: &str,
    index: usize,
    raw: Value,
    register: Option<&BTreeMap<String, Requirement>>,
) -> Result<Case, LoadError> {
    let id = text(&raw, "id");
    let error = |member: &str, message: String| LoadError {
        file: path.to_path_buf(),
        pointer: format!("/cases/{index}{member}"),
        message,
    };
    if !id.starts_with(&format!("{section}.")) {
        return Err(error("/id", format!("case id {} is not inside section {}", crate::quote::bounded(&id), crate::quote::bounded(section))));
    }
    if Protocol::from_case_id(&id) != Some(protocol) {
        return Err(error("/id", format!("case id {} does not belong to protocol {}", crate::quote::bounded(&id), protocol.as_str())));
    }
    let requirements = texts(&raw, "requirements");
    let profiles = texts(&raw, "profiles");
    let Value::Object(mut members) = raw else {
        return Err(error("", "a case is an object".into()));
    };
    let setup = members.remove("setup").unwrap_or(Value::Null);
    let steps = match members.remove("steps") {
        Some(Value::Array(steps)) => steps,
        _ => Vec::new(),
    };
    if let Some(register) = register {
        let unknown = |ids: &[String]| ids.iter().find(|id| !register.contains_key(*id)).cloned();
        if let Some(id) = unknown(&requirements) {
            return Err(error("/requirements", format!("requirement id {} is not in the register (requirements.json)", crate::quote::bounded(&id))));
        }
        for (s, step) in steps.iter().enumerate() {
            if let Some(id) = unknown(&texts(step, "requirements")) {
                return Err(error(
                    &format!("/steps/{s}/requirements"),
                    format!("requirement id {} is not in the register (requirements.json)", crate::quote::bounded(&id)),
                ));
            }
        }
    }
    if protocol == Protocol::Rui {
        let framing = setup.get("framing").and_then(Value::as_str);
        if let Some(framing) = framing {
            if !profiles.iter().any(|p| p == framing) {
                return Err(error(
                    "/profiles",
                    format!("the case is framed as {framing}, so its profiles must list {framing:?} (an implementation without that framing cannot run it)"),
                ));
            }
        }
        // A framing-neutral case (no setup.framing, issue 15) feeds only records, which the
        // runner frames; a framed case feeds only bytes or messages of its framing.
        for (s, step) in steps.iter().enumerate() {
            let feed = step.get("feed").and_then(Value::as_str);
            let misplaced = match (framing, feed) {
                (None, Some("bytes" | "message")) => Some("a framing-neutral case (no setup.framing) feeds records only; framed bytes or messages need setup.framing"),
                (Some(_), Some("records")) => Some("a records feed belongs to a framing-neutral case: remove setup.framing (and its profile), or feed bytes"),
                _ => None,
            };
            if let Some(message) = misplaced {
                return Err(error(&format!("/steps/{s}"), message.to_string()));
            }
        }
    }
    if let Some((pointer, message)) = crate::handles::undefined_handle(&steps) {
        return Err(error(&pointer, message));
    }
    let provenance = members.get("provenance").map(|p| Provenance {
        kind: text(p, "kind"),
        by: text(p, "by"),
        seed: p.get("seed").and_then(Value::as_str).map(str::to_string),
        path: texts(p, "path"),
    });
    let mut case = Case::from(CaseParts {
        protocol,
        section: section.to_string(),
        file: path.to_path_buf(),
        description: members.get("description").and_then(Value::as_str).unwrap_or_default().to_string(),
        requirements,
        strictness: members.get("strictness").and_then(Value::as_str).unwrap_or_default().to_string(),
        profiles,
        setup,
        steps,
        notes: members.get("notes").and_then(Value::as_str).map(str::to_string),
        id,
    });
    case.provenance = provenance;
    Ok(case)
}
