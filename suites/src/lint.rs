//! The suite's self-lint: the register is tied to the current spec text, every case is well
//! formed and traceable (known requirement ids, known profiles, unique never-reused ids, short
//! descriptions that state a behaviour), each REQUIRED check cites the sentences that decide it
//! (issue 27 §3, `step_ids`), and every testable requirement has a case. Prints
//! coverage: testable requirements covered / total.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use crate::case::{Section, Strictness};
use crate::register::{Register, Sources};

/// Profiles a case may require (`vectors/schema/case.schema.json`).
pub const PROFILES: [&str; 8] = [
    "events",
    "preflight",
    "assist",
    "react",
    "jsonl",
    "sse",
    "websocket",
    "json-seq",
];

/// A testable requirement whose cases an open issue will add; reported, counted as uncovered.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pending {
    pub id: String,
    pub issue: u32,
    pub reason: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct PendingFile {
    #[serde(default)]
    pending: Vec<Pending>,
}

/// Loads `suites/register/pending-coverage.toml` if present.
pub fn load_pending(path: &Path) -> Result<Vec<Pending>, String> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let parsed: PendingFile =
        toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(parsed.pending)
}

/// Loads `suites/retired-ids.txt`: ids of removed cases, which must never be used again.
pub fn load_retired(path: &Path) -> Result<BTreeSet<String>, String> {
    if !path.exists() {
        return Ok(BTreeSet::new());
    }
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect())
}

/// The lint's findings.
#[derive(Debug, Default)]
pub struct Report {
    pub errors: Vec<String>,
    pub notes: Vec<String>,
    pub coverage: String,
}

fn requirement_ids_of(case_steps: &[Value]) -> Vec<String> {
    case_steps
        .iter()
        .filter_map(|s| s.get("requirements").and_then(Value::as_array))
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

/// Strictness of a register entry as a check may use it: PROFILE entries are REQUIRED where the
/// profile is declared (CLARIFICATIONS preamble), so only RECOMMENDED and IMPL-DEFINED are below.
fn below_required(strictness: &str) -> bool {
    matches!(strictness, "RECOMMENDED" | "IMPL-DEFINED")
}

/// A check is never stricter than its sentence: every step (action or expectation) whose
/// strictness (its own, else the case's) is REQUIRED must cite at least one requirement that is
/// REQUIRED (or PROFILE). A step's own `requirements` are what that check traces to; a step without
/// them traces to the case's. Unknown ids are reported elsewhere and ignored here.
fn stricter_than_sentences(
    case: &crate::case::Case,
    by_id: &BTreeMap<&str, &crate::register::Requirement>,
) -> Vec<String> {
    let mut errors = Vec::new();
    for (index, step) in case.steps.iter().enumerate() {
        let strictness = step
            .get("strictness")
            .and_then(Value::as_str)
            .unwrap_or(case.strictness.as_str());
        if strictness != "REQUIRED" {
            continue;
        }
        let cited: Vec<&str> = match step.get("requirements").and_then(Value::as_array) {
            Some(own) if !own.is_empty() => own.iter().filter_map(Value::as_str).collect(),
            _ => case.requirements.iter().map(String::as_str).collect(),
        };
        let known: Vec<&str> = cited
            .iter()
            .copied()
            .filter(|id| by_id.contains_key(id))
            .collect();
        if !known.is_empty() && known.iter().all(|id| below_required(&by_id[id].strictness)) {
            errors.push(format!(
                "case {}: step {} is a REQUIRED check but every requirement it cites is below REQUIRED ({}): \
                 lower the step's strictness or cite the sentence that forces it",
                case.id,
                index + 1,
                known.join(", ")
            ));
        }
    }
    errors
}

/// Each step that can fail cites what decides it (issue 27 §3): a REQUIRED (or PROFILE)
/// expectation, or action carrying `throws: true|false`, without `requirements` of its own is
/// refused, naming the case, the step (1-based) and what it checks.
fn steps_without_own_ids(case: &crate::case::Case) -> Vec<String> {
    let strictness = case.strictness.as_str();
    case.steps
        .iter()
        .enumerate()
        .filter(|(_, step)| {
            crate::step_ids::must_cite(step, strictness) && crate::step_ids::own_ids(step).is_empty()
        })
        .map(|(index, step)| {
            let what = match step.get("expect").and_then(Value::as_str) {
                Some(kind) => format!("expect {kind}"),
                None => {
                    let (role, action) = ["host", "client", "gate", "clock"]
                        .iter()
                        .find_map(|role| step.get(*role).and_then(Value::as_str).map(|a| (*role, a)))
                        .unwrap_or(("action", ""));
                    format!("{role} {action} with throws {}", step.get("throws").unwrap_or(&Value::Null))
                }
            };
            format!(
                "case {}: step {} ({what}) is a {} check without requirement ids of its own: give it \
                 the sentences that decide it (suites/register/decides.toml or its builder)",
                case.id,
                index + 1,
                crate::step_ids::strictness_of(step, strictness),
            )
        })
        .collect()
}

/// Runs every check.
pub fn lint(
    register: &Register,
    sources: &Sources,
    sections: &[Section],
    pending: &[Pending],
    retired: &BTreeSet<String>,
) -> Report {
    let mut report = Report {
        errors: register.problems(sources),
        ..Report::default()
    };
    let by_id = register.by_id();
    let mut case_ids: BTreeMap<&str, &str> = BTreeMap::new();
    let mut cited: BTreeMap<&str, usize> = BTreeMap::new();
    let mut section_ids = BTreeSet::new();

    for section in sections {
        if !section_ids.insert(section.id.as_str()) {
            report
                .errors
                .push(format!("section {}: defined twice", section.id));
        }
        if section.cases.is_empty() {
            report
                .errors
                .push(format!("section {}: has no case", section.id));
        }
        for case in &section.cases {
            let at = format!("case {}", case.id);
            if let Some(previous) = case_ids.insert(case.id.as_str(), section.id.as_str()) {
                report
                    .errors
                    .push(format!("{at}: duplicate id (also in section {previous})"));
            }
            if retired.contains(&case.id) {
                report.errors.push(format!(
                    "{at}: reuses a retired id (suites/retired-ids.txt)"
                ));
            }
            if !case.id.starts_with(&format!("{}.", section.id)) {
                report.errors.push(format!(
                    "{at}: id must start with its section {}.",
                    section.id
                ));
            }
            let serial = case.id.rsplit('.').next().unwrap_or("");
            if serial.len() != 3 || !serial.bytes().all(|b| b.is_ascii_digit()) {
                report
                    .errors
                    .push(format!("{at}: id must end with a 3-digit serial"));
            }
            let description = case.description.trim();
            if description.chars().count() > 70 {
                report
                    .errors
                    .push(format!("{at}: description over 70 characters"));
            }
            let lower = description.to_lowercase();
            if lower.starts_with("should")
                || lower.starts_with("test that")
                || lower.starts_with("tests that")
            {
                report.errors.push(format!(
                    "{at}: description must state the behaviour, not start with should/test that"
                ));
            }
            if description.is_empty() {
                report.errors.push(format!("{at}: empty description"));
            }
            if case.requirements.is_empty() {
                report.errors.push(format!("{at}: cites no requirement"));
            }
            for profile in &case.profiles {
                if !PROFILES.contains(&profile.as_str()) {
                    report
                        .errors
                        .push(format!("{at}: unknown profile {profile}"));
                }
            }
            if case.strictness == Strictness::Profile && case.profiles.is_empty() {
                report.errors.push(format!(
                    "{at}: a PROFILE case must name the profile it needs"
                ));
            }
            report.errors.extend(stricter_than_sentences(case, &by_id));
            report.errors.extend(steps_without_own_ids(case));
            report
                .errors
                .extend(crate::pinning::pinned_beyond_sentences(case, &by_id));
            let mut ids: Vec<String> = case.requirements.clone();
            ids.extend(requirement_ids_of(&case.steps));
            for rid in &ids {
                match by_id.get(rid.as_str()) {
                    None => report
                        .errors
                        .push(format!("{at}: cites unknown requirement {rid}")),
                    Some(r) if r.testability != "vector" => report.errors.push(format!(
                        "{at}: cites {rid}, whose testability is {} ({})",
                        r.testability,
                        r.reason.as_deref().unwrap_or("")
                    )),
                    Some(r) => *cited.entry(r.id.as_str()).or_default() += 1,
                }
            }
        }
    }

    let pending_ids: BTreeMap<&str, &Pending> =
        pending.iter().map(|p| (p.id.as_str(), p)).collect();
    for p in pending {
        match by_id.get(p.id.as_str()) {
            None => report
                .errors
                .push(format!("pending-coverage: unknown requirement {}", p.id)),
            Some(_) if cited.contains_key(p.id.as_str()) => report.errors.push(format!(
                "pending-coverage: {} is covered now; remove it from the pending list",
                p.id
            )),
            Some(_) => {}
        }
    }

    let mut per_file: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut uncovered_pending = 0;
    for r in &register.requirements {
        if r.testability != "vector" {
            continue;
        }
        let entry = per_file.entry(r.file.as_str()).or_default();
        entry.1 += 1;
        if cited.contains_key(r.id.as_str()) {
            entry.0 += 1;
        } else if let Some(p) = pending_ids.get(r.id.as_str()) {
            uncovered_pending += 1;
            report.notes.push(format!(
                "{} uncovered, pending issue {}: {}",
                r.id, p.issue, p.reason
            ));
        } else {
            report.errors.push(format!(
                "{} ({}) is testable and no case cites it",
                r.id, r.file
            ));
        }
    }
    let (covered, total) = per_file
        .values()
        .fold((0, 0), |(c, t), (fc, ft)| (c + fc, t + ft));
    let mut coverage = String::new();
    for (file, (c, t)) in &per_file {
        let _ = writeln!(
            coverage,
            "  {file:<24} {c:>4} / {t:<4} testable requirements covered"
        );
    }
    let _ = writeln!(
        coverage,
        "  {:<24} {covered:>4} / {total:<4} testable requirements covered ({uncovered_pending} pending in open issues)",
        "total"
    );
    let open_points = register
        .requirements
        .iter()
        .filter(|r| below_required(&r.strictness))
        .count();
    let linked = register
        .requirements
        .iter()
        .filter(|r| below_required(&r.strictness) && (!r.choices.is_empty() || r.no_choice_row.is_some()))
        .count();
    let _ = writeln!(
        coverage,
        "  {:<24} {linked:>4} / {open_points:<4} open points (IMPL-DEFINED, RECOMMENDED) linked to a choice row or exempt",
        "choices",
    );
    let cases: usize = sections.iter().map(|s| s.cases.len()).sum();
    let _ = writeln!(
        coverage,
        "  {cases} cases in {} sections; {} register entries",
        sections.len(),
        register.requirements.len()
    );
    let counts: Vec<String> = register
        .project_counts()
        .iter()
        .map(|(s, n)| format!("{s} {n}"))
        .collect();
    let total_project: usize = register.project_counts().iter().map(|(_, n)| n).sum();
    let _ = writeln!(
        coverage,
        "  project decisions (PRJ-*): {total_project}: {}",
        counts.join(", ")
    );
    report.coverage = coverage;
    report
}
