//! Each step that can fail cites what decides it (issue 27 §3): an expectation, or an action that
//! carries `throws`, whose strictness is REQUIRED or PROFILE carries its own `requirements`, the
//! sentences that decide what that step pins; the case's list stays for the case.
//!
//! A builder may give a step its ids itself. A step that has none gets them here, at generation:
//! the only id of a case that cites exactly one decides every step; otherwise the step cites
//! those of its case's ids that decide the step's observation, as `suites/register/decides.toml`
//! records per requirement (read from the entry's sentence). A step for which this yields nothing
//! keeps none, and `suites lint` refuses it, so its builder must say which sentences decide it.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::{json, Value};

use crate::case::Case;

/// `suites/register/decides.toml`, compiled in so that generation never depends on the cwd.
const DECIDES: &str = include_str!("../register/decides.toml");

/// The groups the table may use for several observation kinds at once (documented in the file).
const GROUPS: &[(&str, &[&str])] = &[
    ("outcome", &["outcome", "outcome-text"]),
    ("policy", &["policy-calls", "policy-capability"]),
    (
        "handler",
        &["handler-calls", "handler-signal", "handler-context", "handler-states", "caller-input"],
    ),
    ("snapshot", &["snapshot", "snapshot-relation", "snapshot-text", "hook-snapshot"]),
    ("react", &["boundary", "hook-client", "hook-snapshot", "handler-states"]),
    ("assist", &["assist-turn", "assist-invocations"]),
    ("committed", &["graph", "data", "revision", "transactions"]),
    ("dispatch", &["dispatch", "action-policy-calls"]),
];

/// Observation kinds the table may name directly.
pub const KINDS: &[&str] = &[
    "outcome",
    "outcome-text",
    "policy-calls",
    "policy-capability",
    "handler-calls",
    "handler-signal",
    "handler-context",
    "handler-states",
    "caller-input",
    "snapshot",
    "snapshot-relation",
    "snapshot-text",
    "hook-snapshot",
    "hook-client",
    "boundary",
    "notifications",
    "list",
    "assist-turn",
    "assist-invocations",
    "graph",
    "data",
    "revision",
    "transactions",
    "quarantine",
    "rejections",
    "frames",
    "dispatch",
    "action-policy-calls",
    "events",
    "preflight",
    "throws",
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DecidesFile {
    decides: BTreeMap<String, Vec<String>>,
}

/// Requirement id → the observation kinds its sentence decides (groups expanded).
pub type Table = BTreeMap<String, BTreeSet<&'static str>>;

/// Parses the table text; an unknown word is an error naming the id.
pub fn parse(text: &str) -> Result<Table, String> {
    let file: DecidesFile = toml::from_str(text).map_err(|e| format!("decides.toml: {e}"))?;
    let mut table = Table::new();
    for (id, words) in file.decides {
        let mut kinds = BTreeSet::new();
        for word in &words {
            if let Some((_, members)) = GROUPS.iter().find(|(group, _)| group == word) {
                kinds.extend(members.iter().copied());
            } else if let Some(kind) = KINDS.iter().find(|kind| *kind == word) {
                kinds.insert(*kind);
            } else {
                return Err(format!("decides.toml: {id}: unknown observation {word}"));
            }
        }
        table.insert(id, kinds);
    }
    Ok(table)
}

/// The compiled-in table (a malformed file fails the suites' own tests, see below).
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| parse(DECIDES).unwrap_or_default())
}

/// The register files, compiled in like the table: the model translators also run inside the
/// `conformance` binary (`fuzz`), which must not depend on where the repository is.
const REGISTER_FILES: &[(&str, &str)] = &[
    ("rcip-proto.toml", include_str!("../register/rcip-proto.toml")),
    ("rcip-life.toml", include_str!("../register/rcip-life.toml")),
    ("rui.toml", include_str!("../register/rui.toml")),
    ("clarifications.toml", include_str!("../register/clarifications.toml")),
    ("project.toml", include_str!("../register/project.toml")),
    ("project-assist.toml", include_str!("../register/project-assist.toml")),
    ("project-rcip.toml", include_str!("../register/project-rcip.toml")),
    ("project-react.toml", include_str!("../register/project-react.toml")),
    ("project-rui.toml", include_str!("../register/project-rui.toml")),
];

#[derive(Debug, Deserialize)]
struct Entries {
    #[serde(default)]
    requirement: Vec<Entry>,
}

#[derive(Debug, Deserialize)]
struct Entry {
    id: String,
    strictness: String,
}

/// The register's ids below REQUIRED (RECOMMENDED, IMPL-DEFINED): such a sentence never decides
/// a REQUIRED check (the lint's rule that a check is never stricter than its sentence), so
/// derivation does not offer it to one.
pub fn below_required() -> &'static BTreeSet<String> {
    static BELOW: OnceLock<BTreeSet<String>> = OnceLock::new();
    BELOW.get_or_init(|| {
        REGISTER_FILES
            .iter()
            .filter_map(|(_, text)| toml::from_str::<Entries>(text).ok())
            .flat_map(|file| file.requirement)
            .filter(|r| matches!(r.strictness.as_str(), "RECOMMENDED" | "IMPL-DEFINED"))
            .map(|r| r.id)
            .collect()
    })
}

/// What a step checks, when it is a step that can fail: an expectation's observation, or
/// `throws` for an action that carries `throws: true` or `false` (`"may"` admits both results
/// and never fails).
pub fn checked_kind(step: &Value) -> Option<&str> {
    match step.get("expect").and_then(Value::as_str) {
        Some(kind) => Some(kind),
        None => match step.get("throws") {
            Some(Value::Bool(_)) => Some("throws"),
            _ => None,
        },
    }
}

/// The strictness a step is judged at: its own, else the case's.
pub fn strictness_of<'a>(step: &'a Value, case_strictness: &'a str) -> &'a str {
    step.get("strictness")
        .and_then(Value::as_str)
        .unwrap_or(case_strictness)
}

/// Whether the lint requires the step to cite its own ids: a REQUIRED (or PROFILE, REQUIRED where
/// the profile is declared) expectation or `throws` action.
pub fn must_cite(step: &Value, case_strictness: &str) -> bool {
    checked_kind(step).is_some()
        && matches!(strictness_of(step, case_strictness), "REQUIRED" | "PROFILE")
}

/// The step's own ids, empty when it has none.
pub fn own_ids(step: &Value) -> Vec<&str> {
    step.get("requirements")
        .and_then(Value::as_array)
        .map(|ids| ids.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Those of `ids` that decide `kind` by `table` and may decide a REQUIRED check, in order.
pub fn deciding<'c, S: AsRef<str>>(ids: &'c [S], kind: &str, table: &Table, below: &BTreeSet<String>) -> Vec<&'c str> {
    ids.iter()
        .map(AsRef::as_ref)
        .filter(|id| !below.contains(*id))
        .filter(|id| table.get(*id).is_some_and(|kinds| kinds.contains(kind)))
        .collect()
}

/// Gives every step that must cite and has no ids of its own the ids that decide it: the case's
/// only id, else those of the case's ids that decide the step's observation (see the module
/// text); returns how many steps it gave ids to.
pub fn cite(case: &mut Case, table: &Table, below: &BTreeSet<String>) -> usize {
    let strictness = case.strictness.as_str();
    let single = case.requirements.len() == 1;
    let mut given = 0;
    for step in &mut case.steps {
        if !must_cite(step, strictness) || !own_ids(step).is_empty() {
            continue;
        }
        let Some(kind) = checked_kind(step) else { continue };
        let ids: Vec<String> = if single {
            case.requirements.clone()
        } else {
            deciding(&case.requirements, kind, table, below).into_iter().map(str::to_string).collect()
        };
        if ids.is_empty() {
            continue;
        }
        if let Some(object) = step.as_object_mut() {
            object.insert("requirements".into(), json!(ids));
            given += 1;
        }
    }
    given
}

/// [`cite`] over every case of `sections` with the compiled-in table and the register.
pub fn cite_all(sections: &mut [crate::case::Section]) -> usize {
    let (table, below) = (table(), below_required());
    sections
        .iter_mut()
        .flat_map(|s| s.cases.iter_mut())
        .map(|case| cite(case, table, below))
        .sum()
}

/// For the model translators, which know which transition each step follows: the ids of the
/// transition just taken decide the observations that follow it, and where none of them decides
/// one (an observation the transition left as it was), the ids of the path so far do.
#[derive(Debug, Default)]
pub struct PathCiter {
    current: Vec<String>,
    path: Vec<String>,
    /// Every id a step was given, to add to the case's list.
    pub cited: Vec<String>,
}

impl PathCiter {
    /// The next transition exercises `ids`.
    pub fn transition<S: AsRef<str>>(&mut self, ids: &[S]) {
        self.current.clear();
        for id in ids.iter().map(AsRef::as_ref) {
            if !self.current.iter().any(|c| c == id) {
                self.current.push(id.to_string());
            }
        }
        for id in &self.current {
            if !self.path.contains(id) {
                self.path.push(id.clone());
            }
        }
    }

    /// Gives the REQUIRED steps of `steps` (emitted after the last transition) without ids of their
    /// own the ids that decide them (`case_strictness` is the case's).
    pub fn cite(&mut self, steps: &mut [Value], case_strictness: &str) {
        let (table, below) = (table(), below_required());
        for step in steps {
            if !must_cite(step, case_strictness) {
                continue;
            }
            if own_ids(step).is_empty() {
                let Some(kind) = checked_kind(step) else { continue };
                let mut ids = deciding(&self.current, kind, table, below);
                if ids.is_empty() {
                    ids = deciding(&self.path, kind, table, below);
                }
                if ids.is_empty() {
                    continue;
                }
                let ids: Vec<String> = ids.into_iter().map(str::to_string).collect();
                if let Some(object) = step.as_object_mut() {
                    object.insert("requirements".into(), json!(ids));
                }
            }
            for id in own_ids(step) {
                if !self.cited.iter().any(|c| c == id) {
                    self.cited.push(id.to_string());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Strictness;

    #[test]
    fn the_table_parses_and_names_register_ids() {
        let table = parse(DECIDES).expect("decides.toml parses");
        let register = crate::register::Register::load(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("register"),
        )
        .expect("register loads");
        let known = register.by_id();
        let unknown: Vec<&String> = table.keys().filter(|id| !known.contains_key(id.as_str())).collect();
        assert!(unknown.is_empty(), "decides.toml names ids the register lacks: {unknown:?}");
        assert!(table.values().all(|kinds| !kinds.is_empty()));
    }

    #[test]
    fn the_compiled_in_register_is_the_register() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("register");
        let register = crate::register::Register::load(&dir).expect("register loads");
        let mut files: Vec<&str> = register.requirements.iter().map(|r| r.file.as_str()).collect();
        files.sort();
        files.dedup();
        let mut compiled: Vec<&str> = REGISTER_FILES.iter().map(|(name, _)| *name).collect();
        compiled.sort();
        assert_eq!(compiled, files, "REGISTER_FILES lists every register file");
        let below: BTreeSet<String> = register
            .requirements
            .iter()
            .filter(|r| matches!(r.strictness.as_str(), "RECOMMENDED" | "IMPL-DEFINED"))
            .map(|r| r.id.clone())
            .collect();
        assert!(!below.is_empty());
        assert_eq!(&below, below_required());
    }

    #[test]
    fn an_unknown_observation_is_refused() {
        let error = parse("[decides]\n\"CL-B02-1\" = [\"outcomes\"]\n").unwrap_err();
        assert!(error.contains("CL-B02-1") && error.contains("outcomes"), "{error}");
    }

    #[test]
    fn steps_cite_the_case_ids_that_decide_their_observation() {
        let table = parse(
            "[decides]\n\"A-1\" = [\"outcome\"]\n\"B-1\" = [\"policy\", \"throws\"]\n\"C-1\" = [\"snapshot\"]\n",
        )
        .unwrap();
        let mut case = Case::new("rcip.x.y.001", "x")
            .requirements(&["A-1", "B-1"])
            .step(json!({ "host": "bind", "throws": true }))
            .step(json!({ "expect": "outcome", "of": "i", "is": 1 }))
            .step(json!({ "expect": "policy-calls", "is": [] }))
            .step(json!({ "expect": "snapshot", "is": {} }))
            .step(json!({ "expect": "outcome", "of": "j", "is": 1, "requirements": ["C-1"] }))
            .step(json!({ "expect": "outcome", "of": "k", "is": 1, "strictness": "RECOMMENDED" }))
            .step(json!({ "client": "invoke", "as": "i" }));
        assert_eq!(cite(&mut case, &table, &BTreeSet::new()), 3);
        let ids: Vec<Vec<&str>> = case.steps.iter().map(own_ids).collect();
        assert_eq!(
            ids,
            vec![vec!["B-1"], vec!["A-1"], vec!["B-1"], vec![], vec!["C-1"], vec![], vec![]]
        );
    }

    #[test]
    fn a_case_citing_one_id_gives_it_to_every_step() {
        let table = Table::new();
        let mut case = Case::new("rui.x.y.001", "x")
            .requirements(&["A-1"])
            .strictness(Strictness::Profile)
            .step(json!({ "expect": "graph", "is": {} }));
        assert_eq!(cite(&mut case, &table, &BTreeSet::new()), 1);
        assert_eq!(own_ids(&case.steps[0]), vec!["A-1"]);
    }
}
