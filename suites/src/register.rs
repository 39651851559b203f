//! The requirement register (`suites/register/*.toml`, format in its README): loading, the checks
//! that tie each entry to its spec sentence (quote found, hash current), and the export to
//! `vectors/requirements.json`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// Register files in export order, with the id prefix each must use and its source.
pub const FILES: [(&str, &str, &str); 4] = [
    ("rcip-proto.toml", "RCIP-PROTO-", "000_0e13f370fee243d1.txt"),
    ("rcip-life.toml", "RCIP-LIFE-", "001_2b4ed8e7da12f44d.txt"),
    ("rui.toml", "RUI-", "004_b82a472ccae36e7c.txt"),
    ("clarifications.toml", "CL-", "CLARIFICATIONS.md"),
];

/// Source files with their titles, as in `suites/spec/SOURCES.md`.
pub const SOURCES: [(&str, &str); 4] = [
    ("000_0e13f370fee243d1.txt", "RCIP protocol 1.0"),
    (
        "001_2b4ed8e7da12f44d.txt",
        "RCIP lifecycle and troubleshooting",
    ),
    ("004_b82a472ccae36e7c.txt", "Rixx UI Protocol 0.1"),
    ("CLARIFICATIONS.md", "Clarifications of the product owner"),
];

pub const STRICTNESS: [&str; 4] = ["REQUIRED", "RECOMMENDED", "IMPL-DEFINED", "PROFILE"];
pub const TESTABILITY: [&str; 3] = ["vector", "host-obligation", "untestable"];

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Requirement {
    pub id: String,
    pub source: String,
    pub locator: String,
    pub quote: String,
    pub hash: String,
    pub strictness: String,
    pub testability: String,
    pub reason: Option<String>,
    pub profile: Option<String>,
    #[serde(default)]
    pub clarified_by: Vec<String>,
    #[serde(default)]
    pub codes: Vec<String>,
    /// Project decisions only: the spec and CLARIFICATIONS ids whose combination forces the
    /// decision (the derivation is in `reason`). Required when a `PRJ-*` entry is REQUIRED.
    #[serde(default, rename = "derives-from")]
    pub derives_from: Vec<String>,
    /// The rows of the reference's choices table (`reference-driver --choices list`) that take
    /// this entry's other admissible readings (issue 26 §2): every IMPL-DEFINED or RECOMMENDED
    /// entry names them, or says in `no_choice_row` why the reference cannot take another reading.
    #[serde(default)]
    pub choices: Vec<String>,
    pub no_choice_row: Option<String>,
    /// No longer accepted (issue 26 §2: the register check fails on it); read only so that an
    /// entry still carrying it is named in the error rather than silently passing.
    pub choice_row_pending: Option<String>,
    /// The register file it came from (not in the TOML).
    #[serde(skip)]
    pub file: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RegisterFile {
    #[serde(default)]
    requirement: Vec<Requirement>,
}

/// Collapses every run of whitespace to one space and trims: how quotes are matched and hashed.
pub fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `sha256:` and the first 16 hex digits of SHA-256 over the normalised quote.
pub fn quote_hash(quote: &str) -> String {
    let digest = Sha256::digest(normalise(quote).as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{}", &hex[..16])
}

fn file_sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The spec sources, read from a directory (`suites/spec/`, or `RCIP_SPEC_DIR` to check the
/// register against a revised spec).
pub struct Sources {
    pub dir: PathBuf,
    /// file name -> (raw bytes, normalised text)
    pub texts: BTreeMap<String, (Vec<u8>, String)>,
}

impl Sources {
    pub fn load(dir: &Path) -> Result<Sources, String> {
        let mut texts = BTreeMap::new();
        for (file, _) in SOURCES {
            let path = dir.join(file);
            let bytes = fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let text = normalise(&String::from_utf8_lossy(&bytes));
            texts.insert(file.to_string(), (bytes, text));
        }
        Ok(Sources {
            dir: dir.to_path_buf(),
            texts,
        })
    }
}

/// Every open point is data (issue 26 §2): an IMPL-DEFINED or RECOMMENDED entry names exactly
/// one of its choice rows or the reason the reference cannot take another reading; an entry
/// still waiting for a row (`choice_row_pending`) fails the check. Rows are named as in the choices table (lowercase, hyphenated); that
/// each named row exists and cites the entry back is checked against the table itself
/// (`harness/tests/faults.rs`), which this crate does not depend on.
fn choice_link_problems(r: &Requirement, at: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let open = matches!(r.strictness.as_str(), "IMPL-DEFINED" | "RECOMMENDED");
    if r.choice_row_pending.is_some() {
        problems.push(format!(
            "{at}: choice_row_pending is not accepted: an open point names the choice row that takes its other reading (choices) or says why the reference cannot take one (no_choice_row)"
        ));
    }
    let given = usize::from(!r.choices.is_empty()) + usize::from(r.no_choice_row.is_some());
    if open && given != 1 && r.choice_row_pending.is_none() {
        problems.push(format!(
            "{at}: a {} entry names its choice rows (choices) or says why the reference cannot take another reading (no_choice_row): exactly one of them",
            r.strictness
        ));
    }
    if !open && r.no_choice_row.is_some() {
        problems.push(format!("{at}: only IMPL-DEFINED and RECOMMENDED entries take no_choice_row"));
    }
    if r.no_choice_row.as_ref().is_some_and(|text| text.trim().is_empty()) {
        problems.push(format!("{at}: no_choice_row must not be blank"));
    }
    let mut seen = BTreeSet::new();
    for name in &r.choices {
        let well_formed = !name.is_empty()
            && name.split('-').all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()));
        if !well_formed {
            problems.push(format!("{at}: choices names {name:?}, not a row name of the choices table"));
        }
        if !seen.insert(name.as_str()) {
            problems.push(format!("{at}: choices names {name} twice"));
        }
    }
    problems
}

/// The register discipline of a project decision (issue 12): a decision the texts do not force is
/// never REQUIRED. A REQUIRED `PRJ-*` entry names in `derives-from` the spec and CLARIFICATIONS ids
/// whose combination forces it; those ids exist and are not themselves project decisions (a
/// decision cannot be forced by another decision). Spec and CL entries take no `derives-from`
/// (they are the texts; `clarified_by` links them).
fn derivation_problems(r: &Requirement, at: &str, ids: &BTreeSet<&str>) -> Vec<String> {
    let mut problems = Vec::new();
    let project = r.id.starts_with("PRJ-");
    if !project && !r.derives_from.is_empty() {
        problems.push(format!(
            "{at}: only project decisions (PRJ-*) take derives-from"
        ));
    }
    if project && r.strictness == "REQUIRED" && r.derives_from.is_empty() {
        problems.push(format!(
            "{at}: a REQUIRED project decision names in derives-from the spec/CL ids that force it \
             (otherwise it is IMPL-DEFINED or RECOMMENDED)"
        ));
    }
    let mut seen = BTreeSet::new();
    for d in &r.derives_from {
        if !seen.insert(d.as_str()) {
            problems.push(format!("{at}: derives-from names {d} twice"));
        }
        if d.starts_with("PRJ-") {
            problems.push(format!(
                "{at}: derives-from names project decision {d}; name the spec/CL ids instead"
            ));
        } else if !ids.contains(d.as_str()) {
            problems.push(format!("{at}: derives-from names unknown id {d}"));
        }
    }
    problems
}

/// The register, in export order.
pub struct Register {
    pub requirements: Vec<Requirement>,
}

impl Register {
    /// Loads the four spec registers, then every `project*.toml`, sorted by name.
    pub fn load(dir: &Path) -> Result<Register, String> {
        let mut names: Vec<String> = FILES.iter().map(|(f, _, _)| f.to_string()).collect();
        let mut project: Vec<String> = fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("project") && n.ends_with(".toml"))
            .collect();
        project.sort();
        names.extend(project);
        let mut requirements = Vec::new();
        for name in names {
            let path = dir.join(&name);
            let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let parsed: RegisterFile =
                toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            for mut requirement in parsed.requirement {
                requirement.file = name.clone();
                requirements.push(requirement);
            }
        }
        Ok(Register { requirements })
    }

    pub fn by_id(&self) -> BTreeMap<&str, &Requirement> {
        self.requirements
            .iter()
            .map(|r| (r.id.as_str(), r))
            .collect()
    }

    /// Every problem of the register itself: ids, quotes against the sources, hashes, fields.
    pub fn problems(&self, sources: &Sources) -> Vec<String> {
        let mut problems = Vec::new();
        let mut seen = BTreeSet::new();
        let ids: BTreeSet<&str> = self.requirements.iter().map(|r| r.id.as_str()).collect();
        for r in &self.requirements {
            let at = format!("{}: {}", r.file, r.id);
            if !seen.insert(r.id.as_str()) {
                problems.push(format!("{at}: duplicate id"));
            }
            let expected = FILES.iter().find(|(f, _, _)| *f == r.file);
            match expected {
                Some((_, prefix, source)) => {
                    if !r.id.starts_with(prefix) {
                        problems.push(format!("{at}: id must start with {prefix}"));
                    }
                    if r.source != *source {
                        problems.push(format!("{at}: source must be {source}"));
                    }
                }
                None => {
                    if !r.id.starts_with("PRJ-") {
                        problems.push(format!("{at}: project decisions use ids PRJ-..."));
                    }
                    if r.source != "project" {
                        problems.push(format!("{at}: project decisions have source = \"project\""));
                    }
                    if r.reason.as_deref().unwrap_or("").trim().is_empty() {
                        problems.push(format!(
                            "{at}: a project decision needs its reasoning in `reason`"
                        ));
                    }
                }
            }
            if r.source != "project" {
                match sources.texts.get(&r.source) {
                    Some((_, text)) => {
                        if !text.contains(&normalise(&r.quote)) {
                            problems.push(format!(
                                "{at}: quote no longer found in {} ({}): the spec text changed or the quote is wrong",
                                r.source,
                                sources.dir.display()
                            ));
                        }
                    }
                    None => problems.push(format!("{at}: unknown source {}", r.source)),
                }
            }
            let hash = quote_hash(&r.quote);
            if r.hash != hash {
                problems.push(format!(
                    "{at}: hash {} does not match its quote (now {hash})",
                    r.hash
                ));
            }
            if !STRICTNESS.contains(&r.strictness.as_str()) {
                problems.push(format!("{at}: unknown strictness {}", r.strictness));
            }
            if !TESTABILITY.contains(&r.testability.as_str()) {
                problems.push(format!("{at}: unknown testability {}", r.testability));
            }
            if r.testability != "vector" && r.reason.as_deref().unwrap_or("").trim().is_empty() {
                problems.push(format!(
                    "{at}: testability {} needs a one-line reason",
                    r.testability
                ));
            }
            if (r.strictness == "PROFILE") != r.profile.is_some() {
                problems.push(format!(
                    "{at}: a profile is given exactly when strictness is PROFILE"
                ));
            }
            if r.quote.trim().is_empty() || r.locator.trim().is_empty() {
                problems.push(format!("{at}: quote and locator must not be blank"));
            }
            for c in &r.clarified_by {
                if !ids.contains(c.as_str()) {
                    problems.push(format!("{at}: clarified_by names unknown id {c}"));
                }
            }
            problems.extend(derivation_problems(r, &at, &ids));
            problems.extend(choice_link_problems(r, &at));
        }
        problems
    }


    /// `vectors/RUI-CODES.md`: every stable code of Rixx UI (CL-D08-1 leaves the names to this
    /// register) with the entries that define it, their strictness and sentence, so an
    /// implementer finds the names without reading the register (issue 27).
    pub fn rui_codes_markdown(&self) -> String {
        let mut by_code: BTreeMap<&str, Vec<&Requirement>> = BTreeMap::new();
        for r in self.requirements.iter().filter(|r| r.id.starts_with("PRJ-RUI-")) {
            for code in &r.codes {
                by_code.entry(code.as_str()).or_default().push(r);
            }
        }
        let cell = |text: &str| normalise(text).replace('|', "\\|");
        let mut out = format!(
            "# Rixx UI stable codes\n\nGenerated by `{}` from `suites/register/project-rui.toml`; do not edit. CL-D08-1 asks for one stable code per failure class and leaves the names to the project's register: an implementation reports these names (a driver written for one that has its own names translates them one to one). Where several entries list a code, each is one class it names; an IMPL-DEFINED entry lists the codes it admits.\n\n| code | entry | strictness | sentence |\n| --- | --- | --- | --- |\n",
            crate::REGEN_COMMAND
        );
        for (code, entries) in &by_code {
            for r in entries {
                out.push_str(&format!("| `{code}` | {} | {} | {} |\n", r.id, r.strictness, cell(&r.quote)));
            }
        }
        out
    }

    /// `vectors/RCIP-CODES.md`: the RCIP outcome codes, which CL-B01-1 fixes ("Error codes are
    /// exactly: ..."), each with its status (CL-B01-2/3) and every RCIP entry of the register whose
    /// sentence names it: the failure classes it stands for (issue 27 §5). Read from the register
    /// alone, so a new sentence naming a code joins its rows at the next `regen`.
    pub fn rcip_codes_markdown(&self) -> String {
        let by_id = self.by_id();
        let list = by_id.get("CL-B01-1").map(|r| r.quote.as_str()).unwrap_or("");
        let codes: Vec<&str> = list.split('`').skip(1).step_by(2).collect();
        let denied = by_id.get("CL-B01-2").map(|r| r.quote.as_str()).unwrap_or("");
        let rcip = |r: &&Requirement| {
            ["RCIP-", "PRJ-RCIP-", "PRJ-ASSIST-", "PRJ-REACT-", "CL-A", "CL-B", "CL-C"].iter().any(|p| r.id.starts_with(p))
        };
        let names = |quote: &str, code: &str| {
            quote.match_indices(code).any(|(at, _)| {
                let before = quote[..at].chars().next_back();
                let after = quote[at + code.len()..].chars().next();
                let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
                !word(before) && !word(after)
            })
        };
        let cell = |text: &str| normalise(text).replace('|', "\\|");
        let mut out = format!(
            "# RCIP outcome codes\n\nGenerated by `{}` from the register (`suites/register/`); do not edit. CL-B01-1 fixes the codes an RCIP outcome carries; status `denied` goes with `POLICY_DENIED` and `CONFIRMATION_DECLINED`, `failed` with every other code (CL-B01-2, CL-B01-3). Each row is a register entry whose sentence names the code: a failure class it stands for (a code no other sentence names shows CL-B01-1's own row). These names are the texts' own, so an implementation cannot map them (`harness/driver/README.md`, \"codes\").\n\n| code | status | entry | strictness | sentence |\n| --- | --- | --- | --- | --- |\n",
            crate::REGEN_COMMAND
        );
        for code in codes {
            let status = if names(denied, code) { "denied" } else { "failed" };
            let mut naming: Vec<&Requirement> =
                self.requirements.iter().filter(rcip).filter(|r| r.id != "CL-B01-1" && names(&r.quote, code)).collect();
            // A code no other sentence names keeps the list's own row.
            if naming.is_empty() {
                naming.extend(by_id.get("CL-B01-1").copied());
            }
            for r in naming {
                out.push_str(&format!("| `{code}` | {status} | {} | {} | {} |\n", r.id, r.strictness, cell(&r.quote)));
            }
        }
        out
    }

    /// Number of `PRJ-*` entries per strictness, in the order of [`STRICTNESS`].
    pub fn project_counts(&self) -> Vec<(&'static str, usize)> {
        STRICTNESS
            .iter()
            .map(|s| {
                (
                    *s,
                    self.requirements
                        .iter()
                        .filter(|r| r.id.starts_with("PRJ-") && r.strictness == *s)
                        .count(),
                )
            })
            .collect()
    }

    /// `vectors/requirements.json`.
    pub fn export(&self, sources: &Sources) -> Value {
        let sources_json: Vec<Value> = SOURCES
            .iter()
            .map(|(file, title)| {
                let sha = sources
                    .texts
                    .get(*file)
                    .map(|(bytes, _)| file_sha256(bytes))
                    .unwrap_or_default();
                json!({ "file": file, "title": title, "sha256": sha })
            })
            .collect();
        let requirements: Vec<Value> = self
            .requirements
            .iter()
            .map(|r| {
                let mut entry = json!({
                    "id": r.id, "source": r.source, "locator": r.locator, "quote": normalise(&r.quote),
                    "hash": r.hash, "strictness": r.strictness, "testability": r.testability,
                });
                if let Some(object) = entry.as_object_mut() {
                    if let Some(reason) = &r.reason {
                        object.insert("reason".into(), json!(reason));
                    }
                    if let Some(profile) = &r.profile {
                        object.insert("profile".into(), json!(profile));
                    }
                    if !r.clarified_by.is_empty() {
                        object.insert("clarified_by".into(), json!(r.clarified_by));
                    }
                    if !r.codes.is_empty() {
                        object.insert("codes".into(), json!(r.codes));
                    }
                    if !r.derives_from.is_empty() {
                        object.insert("derives-from".into(), json!(r.derives_from));
                    }
                    if !r.choices.is_empty() {
                        object.insert("choices".into(), json!(r.choices));
                    }
                    if let Some(why) = &r.no_choice_row {
                        object.insert("no_choice_row".into(), json!(why));
                    }
                }
                entry
            })
            .collect();
        json!({
            "$schema": "schema/requirements.schema.json",
            "format": "rcip-rui-requirements/1",
            "generated": {
                "by": "suites::register",
                "command": crate::REGEN_COMMAND,
                "notice": crate::GENERATED_NOTICE,
            },
            "sources": sources_json,
            "requirements": requirements,
        })
    }
}
