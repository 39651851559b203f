//! `conformance compare REPORT.json...` (issue 31): the implementation report for spec authors.
//! Several JSON reports of one vector set (refused otherwise, as `report` refuses a report of
//! other vectors) are set side by side, requirement by requirement: for each requirement of the
//! register that a case cites, each implementation's status and how many independent
//! implementations pass it (the "two independent implementations" exit criterion of standards
//! bodies; implementations of one code base count once, `--same-codebase`); every case on which
//! the implementations disagree, REQUIRED cases first; for each open point (an IMPL-DEFINED or
//! RECOMMENDED requirement), which reading each implementation took; and one summary line per
//! implementation. The views (Markdown, HTML, shields.io badge data) are in the submodules; this
//! module only computes the comparison, deterministically (every map is ordered).
//!
//! A requirement's status is judged from the differences the run recorded, which name the
//! requirements of their step (a step without ids of its own names its case's list): a
//! requirement fails when a difference at a failing strictness names it, not merely because a
//! case citing it failed elsewhere.

pub mod badges;
pub mod html;
pub mod markdown;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::adapter::Protocol;
use crate::loader::{Case, Vectors};
use crate::report::Run;
use crate::runner::CaseResult;
use crate::verdict::Verdict;

/// One implementation's standing on one requirement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Every case citing it ran and no difference names it.
    Pass,
    /// Only RECOMMENDED differences name it: the implementation departs from a recommendation.
    NonStrict,
    /// A difference at a failing strictness (REQUIRED, IMPL-DEFINED outside every alternative,
    /// a declared PROFILE) names it.
    Fail,
    /// No difference names it, but a case citing it broke the adapter: not judged to the end.
    Errored,
    /// Every case citing it was unsupported or skipped.
    Unsupported,
    /// No case citing it was in this implementation's run (a selection left them out).
    Untested,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::NonStrict => "non-strict",
            Status::Fail => "fail",
            Status::Errored => "errored",
            Status::Unsupported => "unsupported",
            Status::Untested => "untested",
        }
    }
}

/// One report, as compared.
pub struct Entry<'v> {
    pub run: Run<'v>,
    /// `name version` of the implementation: the column heading.
    pub label: String,
    /// Index of its code base: entries with the same index are not independent.
    pub codebase: usize,
}

/// Why a set of reports cannot be compared.
pub fn check_entries(entries: &[Entry<'_>]) -> Result<(), String> {
    if entries.len() < 2 {
        return Err("compare needs the reports of at least two implementations".into());
    }
    let mut seen = BTreeSet::new();
    for entry in entries {
        if !seen.insert(entry.label.as_str()) {
            return Err(format!(
                "two reports of implementation {}: compare runs of different implementations (or versions)",
                entry.label
            ));
        }
    }
    Ok(())
}

/// The label of a report's implementation, as every view heads its column.
pub fn label_of(run: &Run<'_>) -> String {
    format!("{} {}", run.implementation.name, run.implementation.version)
}

/// Groups the entries into code bases: `same` lists groups of implementation names (as in the
/// reports' `implementation.name`) that share one code base. A name no report has is an error,
/// as is a name in two groups: a typo must not silently count an implementation twice.
pub fn codebases(names: &[String], same: &[Vec<String>]) -> Result<Vec<usize>, String> {
    let mut index: Vec<usize> = (0..names.len()).collect();
    let mut grouped: BTreeMap<&str, usize> = BTreeMap::new();
    for (g, group) in same.iter().enumerate() {
        if group.len() < 2 {
            return Err(format!("--same-codebase {}: name at least two implementations", group.join(",")));
        }
        for name in group {
            if !names.iter().any(|n| n == name) {
                return Err(format!(
                    "--same-codebase: no report is of an implementation named {name:?} (the reports name: {})",
                    names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", ")
                ));
            }
            if let Some(other) = grouped.insert(name.as_str(), g) {
                if other != g {
                    return Err(format!("--same-codebase: {name:?} is in two groups"));
                }
            }
        }
    }
    // Every member of a group takes the index of the group's first report.
    for group in same {
        let first = names.iter().position(|n| group.contains(n)).unwrap_or(0);
        for (i, name) in names.iter().enumerate() {
            if group.contains(name) {
                index[i] = first;
            }
        }
    }
    Ok(index)
}

/// One requirement across the implementations.
#[derive(Debug, Clone, Serialize)]
pub struct RequirementRow {
    pub id: String,
    pub strictness: String,
    pub source: String,
    pub locator: String,
    pub quote: String,
    /// One status per implementation, in report order.
    pub statuses: Vec<Status>,
    /// Independent implementations (code bases) with `pass`.
    pub independent_passes: usize,
    /// A REQUIRED requirement fewer than two independent implementations pass.
    pub flagged: bool,
    /// Cases citing it.
    pub cases: usize,
}

/// One implementation's verdict on a case, with its first difference.
#[derive(Debug, Clone, Serialize)]
pub struct CaseVerdict {
    pub verdict: String,
    /// The first difference (step, pointer and reason) or the reason of an errored or
    /// unsupported case; empty when it passed.
    pub first: String,
}

/// A case the implementations judged differently.
#[derive(Debug, Clone, Serialize)]
pub struct Disagreement {
    pub id: String,
    pub description: String,
    pub strictness: String,
    pub requirements: Vec<String>,
    pub verdicts: Vec<CaseVerdict>,
    /// REQUIRED case where some implementation failed while another passed: either an
    /// implementation or the text is wrong.
    pub required: bool,
}

/// The reading one implementation took at one place of one open point.
#[derive(Debug, Clone, Serialize)]
pub struct Place {
    pub case: String,
    pub step: usize,
    pub pointer: String,
    /// Per implementation: the alternative matched (`alternative 2 of 3`, `threw`), `-` when the
    /// case did not run or did not reach the step there, `outside every alternative` when a
    /// difference names this step.
    pub readings: Vec<String>,
    /// The admissible alternatives as the vector lists them (compact JSON, bounded).
    pub options: Vec<String>,
}

/// An open point of the texts (an IMPL-DEFINED or RECOMMENDED requirement).
#[derive(Debug, Clone, Serialize)]
pub struct OpenPoint {
    pub id: String,
    pub strictness: String,
    pub quote: String,
    /// The choice rows of the reference that take its other readings (the register's `choices`).
    pub choices: Vec<String>,
    /// IMPL-DEFINED: each place where the vectors list alternatives.
    pub places: Vec<Place>,
    /// Per implementation, one line: the readings it took (IMPL-DEFINED: distinct alternatives
    /// per place; RECOMMENDED: follows or departs).
    pub taken: Vec<String>,
    /// Whether the implementations that were judged took different readings somewhere.
    pub split: bool,
    /// Whether two code bases took no reading in common somewhere (each code base's readings are
    /// its members': the reference and its alternate readings part by construction, independent
    /// implementations only in practice).
    pub split_independent: bool,
}

/// A summary line of one implementation.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub label: String,
    pub codebase: String,
    pub profiles: Vec<String>,
    pub levels: Vec<String>,
    pub counts: BTreeMap<String, usize>,
    pub scope: String,
}

/// The whole comparison.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    pub digest: String,
    pub suite_version: String,
    pub implementations: Vec<Summary>,
    pub requirements: Vec<RequirementRow>,
    pub disagreements: Vec<Disagreement>,
    pub open_points: Vec<OpenPoint>,
    pub headline: Headline,
}

/// The figures a reader wants first.
#[derive(Debug, Clone, Serialize)]
pub struct Headline {
    /// Independent implementations (code bases).
    pub codebases: usize,
    /// Requirements cited by a case some run reached, and those at least two independent
    /// implementations pass.
    pub requirements: usize,
    pub passed_by_two: usize,
    /// The same for REQUIRED requirements only.
    pub required: usize,
    pub required_passed_by_two: usize,
    /// Cases with differing verdicts, and those that are REQUIRED disagreements.
    pub disagreements: usize,
    pub required_disagreements: usize,
    /// Open points, those whose readings split between implementations, and those every
    /// judged implementation read alike.
    pub open_points: usize,
    pub open_points_split: usize,
    pub open_points_alike: usize,
    /// Open points independent implementations read differently.
    pub open_points_split_independent: usize,
}

fn failing_strictness(strictness: &str) -> bool {
    strictness != "RECOMMENDED"
}

/// The status of `requirement` in one run.
fn status_of(requirement: &str, run: &Run<'_>) -> Status {
    let citing: Vec<&(&Case, CaseResult)> =
        run.results.iter().filter(|(case, _)| case.cited.iter().any(|c| c == requirement)).collect();
    if citing.is_empty() {
        return Status::Untested;
    }
    let judged: Vec<&&(&Case, CaseResult)> =
        citing.iter().filter(|(_, r)| !matches!(r.verdict, Verdict::Unsupported | Verdict::Skip)).collect();
    if judged.is_empty() {
        return Status::Unsupported;
    }
    let named = |recommended: bool| {
        judged.iter().any(|(_, r)| {
            r.differences.iter().any(|d| {
                failing_strictness(&d.strictness) != recommended && d.requirements.iter().any(|id| id == requirement)
            })
        })
    };
    if named(false) {
        return Status::Fail;
    }
    if judged.iter().any(|(_, r)| r.verdict == Verdict::Errored) {
        return Status::Errored;
    }
    if named(true) {
        return Status::NonStrict;
    }
    Status::Pass
}

/// One line for a case's first difference (or its reason), bounded.
fn first_difference(result: &CaseResult) -> String {
    if let Some(d) = result.differences.first() {
        let step = d.step.map(|s| format!("step {s}")).unwrap_or_else(|| "setup".into());
        let mismatch = d
            .mismatches
            .first()
            .map(|m| format!("{}: {}", if m.pointer.is_empty() { "(whole observation)" } else { &m.pointer }, m.reason))
            .unwrap_or_default();
        return crate::quote::bounded(&format!("{step} [{}] {mismatch}", d.strictness));
    }
    result.reason.as_deref().map(crate::quote::bounded).unwrap_or_default()
}

/// The verdict classes a disagreement compares: unsupported and skipped cases say nothing about
/// behaviour, so they are left out.
fn judged_verdict(verdict: Verdict) -> Option<Verdict> {
    (!matches!(verdict, Verdict::Unsupported | Verdict::Skip)).then_some(verdict)
}

/// A parsed entry of a case result's `alternatives`: `step 4 [jsonl] /code: alternative 2 of 2`.
struct Alternative<'a> {
    step: usize,
    pointer: &'a str,
    reading: &'a str,
}

fn parse_alternative(text: &str) -> Option<Alternative<'_>> {
    let rest = text.strip_prefix("step ")?;
    let (step, rest) = rest.split_once(' ')?;
    let step = step.parse().ok()?;
    // A framing-neutral case's runs name their framing: ` [jsonl] `.
    let rest = match rest.strip_prefix('[') {
        Some(framed) => framed.split_once("] ")?.1,
        None => rest,
    };
    let (pointer, reading) = rest.rsplit_once(": ")?;
    Some(Alternative { step, pointer, reading })
}

/// The requirements a step cites: its own, else its case's.
fn step_requirements(case: &Case, step: &Value) -> Vec<String> {
    match step.get("requirements").and_then(Value::as_array) {
        Some(ids) => ids.iter().filter_map(Value::as_str).map(str::to_string).collect(),
        None => case.requirements.clone(),
    }
}

/// The alternatives a `one-of` lists at `pointer` of a step's pattern, as bounded compact JSON.
fn options_at(step: &Value, pointer: &str) -> Vec<String> {
    let mut at = step.get("is");
    let pointer = if pointer == "(whole observation)" { "" } else { pointer };
    if !pointer.is_empty() {
        for token in pointer.trim_start_matches('/').split('/') {
            let token = token.replace("~1", "/").replace("~0", "~");
            at = at.and_then(|v| match v {
                Value::Object(map) => map.get(&token),
                Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
                _ => None,
            });
        }
    }
    match at.and_then(|v| v.get("options")).and_then(Value::as_array) {
        Some(options) => options.iter().map(|o| crate::quote::bounded(&o.to_string())).collect(),
        None => Vec::new(),
    }
}

/// Compares the runs of `entries` over `vectors`.
pub fn compare(vectors: &Vectors, entries: &[Entry<'_>]) -> Comparison {
    let codebase_count = entries.iter().map(|e| e.codebase).collect::<BTreeSet<_>>().len();
    // Each entry's results by case id.
    let by_case: Vec<BTreeMap<&str, &CaseResult>> =
        entries.iter().map(|e| e.run.results.iter().map(|(c, r)| (c.id.as_str(), r)).collect()).collect();

    // Requirements: register order, those some case cites.
    let cited: BTreeSet<&str> = vectors.cases.iter().flat_map(|c| c.cited.iter().map(String::as_str)).collect();
    let mut register: Vec<_> = vectors.requirements.values().filter(|r| cited.contains(r.id.as_str())).collect();
    register.sort_by_key(|r| (r.position, r.id.clone()));
    // A requirement no run reached (every implementation's selection left its cases out) says
    // nothing about the implementations: it is left out, not listed as failing everywhere.
    register.retain(|r| entries.iter().any(|e| status_of(&r.id, &e.run) != Status::Untested));
    let requirements: Vec<RequirementRow> = register
        .iter()
        .map(|r| {
            let statuses: Vec<Status> = entries.iter().map(|e| status_of(&r.id, &e.run)).collect();
            let independent_passes = entries
                .iter()
                .zip(&statuses)
                .filter(|(_, s)| **s == Status::Pass)
                .map(|(e, _)| e.codebase)
                .collect::<BTreeSet<_>>()
                .len();
            RequirementRow {
                id: r.id.clone(),
                strictness: r.strictness.clone(),
                source: vectors.sources.get(&r.source).cloned().unwrap_or_else(|| r.source.clone()),
                locator: r.locator.clone(),
                quote: r.quote.clone(),
                flagged: r.strictness == "REQUIRED" && independent_passes < 2,
                independent_passes,
                statuses,
                cases: vectors.cases.iter().filter(|c| c.cited.iter().any(|id| *id == r.id)).count(),
            }
        })
        .collect();

    // Disagreements: cases the judged implementations gave different verdicts.
    let mut disagreements: Vec<Disagreement> = Vec::new();
    for case in &vectors.cases {
        let results: Vec<Option<&CaseResult>> = by_case.iter().map(|m| m.get(case.id.as_str()).copied()).collect();
        let judged: BTreeSet<Verdict> = results.iter().flatten().filter_map(|r| judged_verdict(r.verdict)).collect();
        if judged.len() < 2 {
            continue;
        }
        let verdicts = results
            .iter()
            .map(|r| match r {
                Some(r) => CaseVerdict { verdict: r.verdict.as_str().into(), first: first_difference(r) },
                None => CaseVerdict { verdict: "not run".into(), first: String::new() },
            })
            .collect();
        let required = case.strictness == "REQUIRED"
            && judged.contains(&Verdict::Pass)
            && (judged.contains(&Verdict::Fail) || judged.contains(&Verdict::Xfail));
        disagreements.push(Disagreement {
            id: case.id.clone(),
            description: case.description.clone(),
            strictness: case.strictness.clone(),
            requirements: case.requirements.clone(),
            verdicts,
            required,
        });
    }
    // REQUIRED disagreements first; case order (the vector set's) within each part.
    disagreements.sort_by_key(|d| !d.required);

    let open_points = open_points(vectors, entries, &by_case, &register);

    let headline = Headline {
        codebases: codebase_count,
        requirements: requirements.len(),
        passed_by_two: requirements.iter().filter(|r| r.independent_passes >= 2).count(),
        required: requirements.iter().filter(|r| r.strictness == "REQUIRED").count(),
        required_passed_by_two: requirements
            .iter()
            .filter(|r| r.strictness == "REQUIRED" && r.independent_passes >= 2)
            .count(),
        disagreements: disagreements.len(),
        required_disagreements: disagreements.iter().filter(|d| d.required).count(),
        open_points: open_points.len(),
        open_points_split: open_points.iter().filter(|p| p.split).count(),
        open_points_alike: open_points.iter().filter(|p| !p.split).count(),
        open_points_split_independent: open_points.iter().filter(|p| p.split_independent).count(),
    };

    let implementations = entries
        .iter()
        .map(|e| {
            let run = &e.run;
            let shared: Vec<&str> = entries
                .iter()
                .filter(|o| o.codebase == e.codebase && o.label != e.label)
                .map(|o| o.label.as_str())
                .collect();
            Summary {
                label: e.label.clone(),
                codebase: if shared.is_empty() {
                    "independent".into()
                } else {
                    format!("same code base as {}", shared.join(", "))
                },
                profiles: run.implementation.profiles.iter().cloned().collect(),
                levels: [Protocol::Rcip, Protocol::Rui]
                    .into_iter()
                    .map(|p| crate::certification::level(run, p))
                    .collect(),
                counts: Verdict::ALL
                    .iter()
                    .map(|v| (v.as_str().to_string(), run.counts().get(v).copied().unwrap_or(0)))
                    .collect(),
                scope: run.scope.describe(run.vectors, run.results.len()),
            }
        })
        .collect();

    Comparison {
        digest: vectors.digest.clone(),
        suite_version: env!("CARGO_PKG_VERSION").into(),
        implementations,
        requirements,
        disagreements,
        open_points,
        headline,
    }
}

fn open_points(
    vectors: &Vectors,
    entries: &[Entry<'_>],
    by_case: &[BTreeMap<&str, &CaseResult>],
    register: &[&crate::loader::Requirement],
) -> Vec<OpenPoint> {
    let mut points = Vec::new();
    for requirement in register.iter().filter(|r| matches!(r.strictness.as_str(), "IMPL-DEFINED" | "RECOMMENDED")) {
        let id = requirement.id.as_str();
        let citing: Vec<&Case> = vectors.cases.iter().filter(|c| c.cited.iter().any(|r| r == id)).collect();
        let mut places: Vec<Place> = Vec::new();
        let mut taken = Vec::new();
        let mut split = false;
        let mut split_independent = false;
        // Whether two code bases took no reading in common: each code base's readings are those
        // of its members (the reference and its alternate take both by construction, so an
        // independent implementation taking either agrees with it).
        let parts = |cells: &[String]| {
            let mut by_codebase: BTreeMap<usize, BTreeSet<&str>> = BTreeMap::new();
            for (entry, cell) in entries.iter().zip(cells).filter(|(_, c)| c.as_str() != "-") {
                by_codebase.entry(entry.codebase).or_default().extend(cell.split(" / "));
            }
            let sets: Vec<&BTreeSet<&str>> = by_codebase.values().collect();
            sets.iter().enumerate().any(|(i, a)| sets[i + 1..].iter().any(|b| a.is_disjoint(b)))
        };
        if requirement.strictness == "IMPL-DEFINED" {
            // Places: every (case, step, pointer) where some implementation matched an
            // alternative and the step cites this requirement.
            let mut found: BTreeMap<(usize, usize, String), Vec<String>> = BTreeMap::new();
            for (case_index, case) in citing.iter().enumerate() {
                let steps = case.steps();
                for (e, results) in by_case.iter().enumerate() {
                    let Some(result) = results.get(case.id.as_str()) else { continue };
                    for alternative in result.alternatives.iter().filter_map(|a| parse_alternative(a)) {
                        let Some(step) = steps.get(alternative.step) else { continue };
                        if !step_requirements(case, step).iter().any(|r| r == id) {
                            continue;
                        }
                        let readings = found
                            .entry((case_index, alternative.step, alternative.pointer.to_string()))
                            .or_insert_with(|| vec!["-".to_string(); entries.len()]);
                        // A framing-neutral case matches once per framing: keep each reading once.
                        let cell = &mut readings[e];
                        if cell == "-" {
                            *cell = alternative.reading.to_string();
                        } else if !cell.split(" / ").any(|r| r == alternative.reading) {
                            cell.push_str(" / ");
                            cell.push_str(alternative.reading);
                        }
                    }
                }
            }
            for ((case_index, step, pointer), mut readings) in found {
                let case = citing[case_index];
                // A difference at this step: the implementation took no admissible reading.
                for (e, results) in by_case.iter().enumerate() {
                    if let Some(result) = results.get(case.id.as_str()) {
                        if readings[e] == "-" && result.differences.iter().any(|d| d.step == Some(step)) {
                            readings[e] = "outside every alternative".into();
                        }
                    }
                }
                let distinct: BTreeSet<&str> = readings.iter().map(String::as_str).filter(|r| *r != "-").collect();
                split |= distinct.len() > 1;
                split_independent |= parts(&readings);
                let steps = case.steps();
                places.push(Place {
                    case: case.id.clone(),
                    step,
                    options: steps.get(step).map(|s| options_at(s, &pointer)).unwrap_or_default(),
                    pointer,
                    readings,
                });
            }
            for e in 0..entries.len() {
                let mut tally: BTreeMap<&str, usize> = BTreeMap::new();
                for place in &places {
                    if place.readings[e] != "-" {
                        *tally.entry(place.readings[e].as_str()).or_default() += 1;
                    }
                }
                taken.push(if tally.is_empty() {
                    "not judged".to_string()
                } else {
                    tally.iter().map(|(r, n)| format!("{r} ({n})")).collect::<Vec<_>>().join(", ")
                });
            }
        } else {
            let statuses: Vec<Status> = entries.iter().map(|e| status_of(id, &e.run)).collect();
            let judged: BTreeSet<Status> =
                statuses.iter().copied().filter(|s| matches!(s, Status::Pass | Status::NonStrict)).collect();
            split = judged.len() > 1;
            let cells: Vec<String> = statuses
                .iter()
                .map(|s| if matches!(s, Status::Pass | Status::NonStrict) { s.as_str().to_string() } else { "-".to_string() })
                .collect();
            split_independent = parts(&cells);
            taken = statuses
                .iter()
                .map(|s| match s {
                    Status::Pass => "follows the recommendation".to_string(),
                    Status::NonStrict => "departs from the recommendation".to_string(),
                    other => other.as_str().to_string(),
                })
                .collect();
        }
        points.push(OpenPoint {
            id: id.to_string(),
            strictness: requirement.strictness.clone(),
            quote: requirement.quote.clone(),
            choices: requirement.choices.clone(),
            places,
            taken,
            split,
            split_independent,
        });
    }
    points
}

/// Loads each report as a run of `vectors` (`merge::single`: same digest, same suite version),
/// then compares them. `same` lists groups of implementation names that share a code base.
pub fn from_reports<'v>(
    vectors: &'v Vectors,
    reports: &[(&Path, Value)],
    same: &[Vec<String>],
) -> Result<(Vec<Entry<'v>>, Comparison), String> {
    let mut runs = Vec::new();
    for (path, report) in reports {
        let run = crate::merge::single(vectors, path, report)?;
        if !run.vectors.errors.is_empty() {
            return Err(format!("{}: the vector set has load errors", path.display()));
        }
        runs.push(run);
    }
    let names: Vec<String> = runs.iter().map(|r| r.implementation.name.clone()).collect();
    let index = codebases(&names, same)?;
    let entries: Vec<Entry<'v>> = runs
        .into_iter()
        .zip(index)
        .map(|(run, codebase)| Entry { label: label_of(&run), run, codebase })
        .collect();
    check_entries(&entries)?;
    let comparison = compare(vectors, &entries);
    Ok((entries, comparison))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_alternative_is_parsed_with_and_without_its_framing() {
        let a = parse_alternative("step 4 /code: alternative 2 of 2").unwrap();
        assert_eq!((a.step, a.pointer, a.reading), (4, "/code", "alternative 2 of 2"));
        let a = parse_alternative("step 12 [json-seq] /transactions/0/code: alternative 1 of 3").unwrap();
        assert_eq!((a.step, a.pointer, a.reading), (12, "/transactions/0/code", "alternative 1 of 3"));
        let a = parse_alternative("step 3 /threw: did not throw").unwrap();
        assert_eq!((a.step, a.pointer, a.reading), (3, "/threw", "did not throw"));
        assert!(parse_alternative("no step here").is_none());
    }

    #[test]
    fn code_bases_group_named_implementations_and_refuse_unknown_names() {
        let names = vec!["reference".to_string(), "subject".to_string(), "reference-alt".to_string()];
        assert_eq!(codebases(&names, &[]).unwrap(), vec![0, 1, 2]);
        let same = vec![vec!["reference".to_string(), "reference-alt".to_string()]];
        assert_eq!(codebases(&names, &same).unwrap(), vec![0, 1, 0]);
        let typo = vec![vec!["reference".to_string(), "referense".to_string()]];
        assert!(codebases(&names, &typo).unwrap_err().contains("referense"));
        let lone = vec![vec!["reference".to_string()]];
        assert!(codebases(&names, &lone).is_err());
    }

    #[test]
    fn options_are_found_at_the_pointer_of_a_one_of() {
        let step = serde_json::json!({"expect": "outcome", "is": {"status": "failed",
            "code": {"$match": "one-of", "options": ["EXECUTION_FAILED", "EXECUTION_ABORTED"]}}});
        assert_eq!(options_at(&step, "/code"), vec!["\"EXECUTION_FAILED\"", "\"EXECUTION_ABORTED\""]);
        let whole = serde_json::json!({"is": {"$match": "one-of", "options": [1, 2]}});
        assert_eq!(options_at(&whole, "(whole observation)"), vec!["1", "2"]);
        assert!(options_at(&step, "/missing").is_empty());
    }
}
