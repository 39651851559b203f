//! The HTML certification report (`run --html FILE`, `report --html FILE REPORT.json`, issue 19):
//! one self-contained page (inline CSS and script, no asset, no network; it opens from `file://`)
//! made from the JSON report of a run and the vector set that report names by digest. The JSON
//! report carries the verdicts and differences; the vector set carries what a verdict is about:
//! the register (every requirement, its quoted sentence, its spec text and section, including the
//! requirements no case of the run cited: `untested`), and each case's steps and `explain` text
//! (with, for a generated case, its model path and Explorer link: `explain --model`).
//!
//! The page is written by the `minijinja` template `report.html` with HTML autoescaping on every
//! value: a vector, a requirement quote or an implementation's answer can hold any text, and none
//! of it can become markup. The view prepared here is plain data; the template only lays it out.
//!
//! Failures by cause (issue 27 §1): the groups of the JSON report (`causes`) come first, each with
//! its representative case's diffs and the list of its cases. A page of a run where 150 cases fail
//! must stay small: the details of the cases that did not pass (differences, diffs, stderr, the
//! `explain` text, the model path) are not written as markup but once as data, a JSON document in
//! a `<script type="application/json">` element (`escape::html_script_json`), from which the
//! page's script builds a case's details, with `textContent` only, when it is opened (or
//! printed). Their lines are written once in a table (`Lines`) and each text as the indices of
//! its lines: the explain texts and diffs of a hundred cases repeat the same requirement quotes,
//! setups and JSON lines, so this is about a tenth of their size. The lists of the cases that did
//! not pass under each requirement of the map are built from the same data when it is opened.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value;
use similar::TextDiff;

use crate::adapter::Protocol;
use crate::loader::{Case, Vectors};
use crate::report::Run;
use crate::verdict::Verdict;

const TEMPLATE: &str = include_str!("report.html");

/// A requirement's status: the worst verdict of the cases citing it, or untested.
const STATUSES: [&str; 8] = ["fail", "errored", "xfail", "non-strict", "unsupported", "skip", "pass", "untested"];

#[derive(Serialize)]
struct Page {
    groups: Vec<GroupView>,
    /// How many groups hold several cases (they come first).
    shared_causes: usize,
    /// The details of the cases that did not pass, as JSON for the page's script.
    data: String,
    implementation: Implementation,
    suite_version: String,
    digest: String,
    scope: String,
    levels: Vec<String>,
    load_errors: Vec<String>,
    totals: Vec<Count>,
    statuses: Vec<Count>,
    strictnesses: Vec<String>,
    specs: Vec<Spec>,
    cases: Vec<CaseView>,
    cases_run: usize,
}

#[derive(Serialize)]
struct Implementation {
    name: String,
    version: String,
    profiles: Vec<String>,
    protocols: Vec<String>,
}

#[derive(Serialize)]
struct Count {
    name: String,
    count: usize,
}

#[derive(Serialize)]
struct Spec {
    title: String,
    key: String,
    sections: Vec<Section>,
}

#[derive(Serialize)]
struct Section {
    name: String,
    key: String,
    statuses: Vec<Count>,
    requirements: Vec<RequirementView>,
}

#[derive(Serialize)]
struct RequirementView {
    id: String,
    strictness: String,
    locator: String,
    quote: String,
    status: String,
    /// How many cases of the run cite it.
    cited_by: usize,
    /// The cases citing it that did not pass (detailed on the page), then the ids of those that did.
    cases: Vec<CaseRef>,
    passed: Vec<String>,
}

#[derive(Serialize)]
struct CaseRef {
    id: String,
    verdict: String,
}

/// A case that did not pass, as the page lists it; its details are in `CaseData` at `index`.
#[derive(Serialize)]
struct CaseView {
    id: String,
    verdict: String,
    strictness: String,
    description: String,
    /// The number of its cause (`groups`), for a failing, errored or non-strict case.
    cause: Option<usize>,
    index: usize,
}

/// A cause (`causes::Group`, from the JSON report's `groups`).
#[derive(Serialize)]
struct GroupView {
    number: usize,
    verdict: String,
    title: String,
    representative: String,
    /// Where the representative's details are in `Data::cases`.
    index: usize,
    others: Vec<String>,
}

/// What the page's script renders a case's details from (`report.html`, `renderCase`). Every
/// number below is an index into `strings`.
#[derive(Serialize)]
struct Data {
    /// Every line of the texts below, and every string they repeat, once.
    strings: Vec<String>,
    cases: Vec<CaseData>,
}

#[derive(Serialize)]
struct CaseData {
    id: String,
    verdict: String,
    section: String,
    strictness: String,
    reason: Option<String>,
    alternatives: Vec<usize>,
    /// The ids, joined with ", ".
    requirements: usize,
    differences: Vec<DifferenceData>,
    /// Line indices: what the adapter wrote to stderr (issue 27 §4).
    stderr: Option<Vec<usize>>,
    /// Line indices: the `explain` text.
    explain: Vec<usize>,
    /// Line indices: for a generated case, its model path and how to open it in `model-check explore`.
    model: Option<Vec<usize>>,
}

#[derive(Serialize)]
struct DifferenceData {
    place: String,
    request: usize,
    strictness: usize,
    /// The ids, joined with ", ", and whose they are (`CitedBy::describe`; empty when the report
    /// did not say).
    requirements: usize,
    whose: usize,
    /// `[id, shortened sentence]` each (issue 27 §3).
    sentences: Vec<[usize; 2]>,
    /// `[pointer, reason]` each.
    mismatches: Vec<[usize; 2]>,
    /// Line indices: the expected/actual unified diff the terminal prints; a line's kind (head,
    /// del, ins, hunk, context) is read from its first characters, as `diff_lines` decides it.
    diff: Vec<usize>,
}

/// The string table of `Data`: each distinct string once, in the order first met (deterministic).
#[derive(Default)]
struct Lines {
    index: BTreeMap<String, usize>,
    strings: Vec<String>,
}

impl Lines {
    /// `text` (escaped for the page as every value is, `escape::terminal`) as line indices.
    fn of(&mut self, text: &str) -> Vec<usize> {
        crate::escape::terminal(text).split('\n').map(|line| self.intern(line)).collect()
    }

    /// One string (escaped the same way), whole.
    fn one(&mut self, text: &str) -> usize {
        self.intern(&crate::escape::terminal(text))
    }

    fn intern(&mut self, text: &str) -> usize {
        if let Some(&i) = self.index.get(text) {
            return i;
        }
        self.strings.push(text.to_string());
        self.index.insert(text.to_string(), self.strings.len() - 1);
        self.strings.len() - 1
    }
}

/// A value of the data, escaped as every value of the page is.
fn shown(text: &str) -> String {
    crate::escape::terminal(text).into_owned()
}

fn strings(value: &Value) -> Vec<String> {
    value.as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect()
}

fn text(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_string()
}

/// The worst verdict first (the order of `STATUSES`).
fn rank(status: &str) -> usize {
    STATUSES.iter().position(|s| *s == status).unwrap_or(STATUSES.len())
}

/// The section of the spec text a locator points into: "Invocation lifecycle ¶3 s2" and
/// "Invocation lifecycle, step 4" are both in "Invocation lifecycle"; "B07 s2" is in "B07";
/// a project decision "Assist: summarize after cancellation" is in "Assist".
pub fn section_of(locator: &str) -> String {
    let mut section = locator;
    for cut in [" ¶", ": ", ", "] {
        if let Some(at) = section.find(cut) {
            section = &section[..at];
        }
    }
    let words: Vec<&str> = section.split(' ').collect();
    let keep = words
        .iter()
        .rposition(|w| !(w.starts_with('s') && w.len() > 1 && w[1..].bytes().all(|b| b.is_ascii_digit())) && *w != "bullet")
        .map_or(words.len(), |last| last + 1);
    let section = words[..keep].join(" ");
    if section.is_empty() { locator.to_string() } else { section }
}

/// A stable, markup-free key for a filter value.
fn key(text: &str) -> String {
    text.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect()
}

/// The expected/actual unified diff the terminal prints (`console.rs`).
fn diff_text(difference: &Value) -> String {
    let pretty = |v: &Value| {
        if v.is_null() {
            "(absent)\n".to_string()
        } else {
            serde_json::to_string_pretty(v).unwrap_or_default() + "\n"
        }
    };
    let (expected, actual) = (pretty(&difference["expected"]), pretty(&difference["actual"]));
    let diff = TextDiff::from_lines(&expected, &actual);
    let unified = diff.unified_diff().context_radius(3).header("expected", "actual").to_string();
    unified.trim_end_matches('\n').to_string()
}

fn difference_data(difference: &Value, lines: &mut Lines) -> DifferenceData {
    DifferenceData {
        place: difference["step"].as_u64().map_or("setup".to_string(), |s| format!("step {s}")),
        request: lines.one(&serde_json::to_string(&difference["request"]).unwrap_or_default()),
        strictness: lines.one(&text(&difference["strictness"])),
        requirements: lines.one(&strings(&difference["requirements"]).join(", ")),
        whose: lines.one(
            difference["requirementsOf"].as_str().and_then(crate::runner::CitedBy::parse).map_or("", |by| by.describe()),
        ),
        sentences: difference["sentences"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| [lines.one(&text(&s["id"])), lines.one(&text(&s["quote"]))])
            .collect(),
        mismatches: difference["mismatches"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|m| {
                let pointer = match m["pointer"].as_str() {
                    Some("") | None => "(whole observation)",
                    Some(p) => p,
                };
                [lines.one(pointer), lines.one(&text(&m["reason"]))]
            })
            .collect(),
        diff: lines.of(&diff_text(difference)),
    }
}

/// Which steps of a failing case the page shows: every step of a short case; of a long one (the
/// receipt cases have hundreds) the first 10, the last 4, and from 8 before to 2 after each
/// difference, so the page stays small and the steps that matter stay in view.
fn near_differences(entry: &Value, total: usize) -> impl Fn(usize) -> bool {
    const SHORT: usize = 40;
    let differing: Vec<usize> =
        entry["differences"].as_array().into_iter().flatten().filter_map(|d| d["step"].as_u64()).map(|s| s as usize).collect();
    move |i| {
        total <= SHORT || i < 10 || i + 4 >= total || differing.iter().any(|&d| i + 8 >= d && i <= d + 2)
    }
}

/// The citing cases of a requirement view: those that did not pass, and the ids of those that did.
fn cases_of(refs: Vec<CaseRef>) -> RequirementView {
    let cited_by = refs.len();
    let (passed, cases): (Vec<CaseRef>, Vec<CaseRef>) = refs.into_iter().partition(|r| r.verdict == Verdict::Pass.as_str());
    RequirementView {
        id: String::new(),
        strictness: String::new(),
        locator: String::new(),
        quote: String::new(),
        status: String::new(),
        cited_by,
        cases,
        passed: passed.into_iter().map(|r| r.id).collect(),
    }
}

/// The page for the JSON `report` of a run over `vectors`, with the certification `levels`.
/// The report's cases must be cases of `vectors` (the caller checks the digest).
pub fn render_report(report: &Value, vectors: &Vectors, levels: Vec<String>) -> Result<String, String> {
    let by_id: BTreeMap<&str, &Case> = vectors.cases.iter().map(|c| (c.id.as_str(), c)).collect();
    let reported = report["cases"].as_array().cloned().unwrap_or_default();

    // Every requirement a case cites (at case level or on a step), with the case's verdict.
    let mut cited: BTreeMap<String, Vec<CaseRef>> = BTreeMap::new();
    let mut cases = Vec::new();
    let mut details = Vec::new();
    let mut lines = Lines::default();
    let groups = report["groups"].as_array().cloned().unwrap_or_default();
    let cause_of: BTreeMap<String, usize> = groups
        .iter()
        .enumerate()
        .flat_map(|(i, g)| strings(&g["cases"]).into_iter().map(move |id| (id, i + 1)))
        .collect();
    for entry in &reported {
        let id = text(&entry["id"]);
        let verdict = text(&entry["verdict"]);
        let case = by_id.get(id.as_str()).ok_or_else(|| format!("the report names case {id}, which is not in the vector set"))?;
        let detailed = verdict != Verdict::Pass.as_str();
        for rid in crate::select::cited_requirements(case) {
            cited.entry(rid).or_default().push(CaseRef { id: id.clone(), verdict: verdict.clone() });
        }
        if detailed {
            cases.push(CaseView {
                id: id.clone(),
                verdict: verdict.clone(),
                strictness: case.strictness.clone(),
                description: case.description.clone(),
                cause: cause_of.get(&id).copied(),
                index: details.len(),
            });
            let explain = crate::explain::render_steps(vectors, case, near_differences(entry, case.body().1.len()), false);
            details.push(CaseData {
                id: shown(&id),
                verdict: shown(&verdict),
                section: shown(&case.section),
                strictness: shown(&case.strictness),
                reason: entry["reason"].as_str().map(shown),
                alternatives: strings(&entry["alternatives"]).iter().map(|a| lines.one(a)).collect(),
                requirements: lines.one(&crate::select::cited_requirements(case).join(", ")),
                differences: entry["differences"].as_array().into_iter().flatten().map(|d| difference_data(d, &mut lines)).collect(),
                stderr: entry["stderr"].as_str().map(|t| lines.of(t)),
                explain: lines.of(&explain),
                model: crate::explain::model_path(case).ok().map(|m| lines.of(&m)),
            });
        }
    }

    // The map of the spec: spec text -> section -> requirement, in register order of sources.
    let title_of = |source: &str| -> String {
        match vectors.sources.get(source) {
            Some(title) => title.clone(),
            None if source == "project" => "Project decisions (where the texts are silent)".to_string(),
            None => source.to_string(),
        }
    };
    let mut order: Vec<String> = vectors.sources.keys().cloned().collect();
    let mut grouped: BTreeMap<String, BTreeMap<String, Vec<RequirementView>>> = BTreeMap::new();
    let mut section_order: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut place = |source: String, section: String, view: RequirementView, order: &mut Vec<String>| {
        if !order.contains(&source) {
            order.push(source.clone());
        }
        let sections = section_order.entry(source.clone()).or_default();
        if !sections.contains(&section) {
            sections.push(section.clone());
        }
        grouped.entry(source).or_default().entry(section).or_default().push(view);
    };
    let status_of = |refs: Option<&Vec<CaseRef>>| -> String {
        refs.and_then(|refs| refs.iter().map(|r| r.verdict.as_str()).min_by_key(|v| rank(v)))
            .unwrap_or("untested")
            .to_string()
    };
    let mut register_order: Vec<&crate::loader::Requirement> = vectors.requirements.values().collect();
    register_order.sort_by_key(|r| r.position);
    for requirement in register_order {
        let refs = cited.remove(&requirement.id);
        let view = RequirementView {
            id: requirement.id.clone(),
            strictness: requirement.strictness.clone(),
            locator: requirement.locator.clone(),
            quote: requirement.quote.clone(),
            status: status_of(refs.as_ref()),
            ..cases_of(refs.unwrap_or_default())
        };
        place(requirement.source.clone(), section_of(&requirement.locator), view, &mut order);
    }
    for (id, refs) in cited {
        let view = RequirementView {
            id: id.clone(),
            strictness: "?".into(),
            locator: String::new(),
            quote: "(not in the register)".into(),
            status: status_of(Some(&refs)),
            ..cases_of(refs)
        };
        place("(not in the register)".into(), "unknown".into(), view, &mut order);
    }
    let mut specs = Vec::new();
    for source in order {
        let Some(mut sections) = grouped.remove(&source) else { continue };
        let names = section_order.remove(&source).unwrap_or_default();
        let sections = names
            .into_iter()
            .filter_map(|name| {
                let requirements = sections.remove(&name)?;
                let mut statuses: BTreeMap<usize, usize> = BTreeMap::new();
                for r in &requirements {
                    *statuses.entry(rank(&r.status)).or_default() += 1;
                }
                Some(Section {
                    key: key(&format!("{source} {name}")),
                    statuses: statuses
                        .into_iter()
                        .map(|(rank, count)| Count { name: STATUSES.get(rank).unwrap_or(&"?").to_string(), count })
                        .collect(),
                    name,
                    requirements,
                })
            })
            .collect();
        specs.push(Spec { title: title_of(&source), key: key(&source), sections });
    }

    let mut status_counts: BTreeMap<usize, usize> = BTreeMap::new();
    let mut strictnesses = BTreeSet::new();
    for spec in &specs {
        for section in &spec.sections {
            for r in &section.requirements {
                *status_counts.entry(rank(&r.status)).or_default() += 1;
                strictnesses.insert(r.strictness.clone());
            }
        }
    }
    let implementation = &report["implementation"];
    let totals = Verdict::ALL
        .iter()
        .map(|v| Count { name: v.as_str().into(), count: report["summary"]["total"][v.as_str()].as_u64().unwrap_or(0) as usize })
        .collect();
    let index_of: BTreeMap<&str, usize> = cases.iter().map(|c| (c.id.as_str(), c.index)).collect();
    let mut group_views = Vec::new();
    for (i, group) in groups.iter().enumerate() {
        let ids = strings(&group["cases"]);
        let representative = text(&group["representative"]);
        let index = *index_of
            .get(representative.as_str())
            .ok_or_else(|| format!("the report's cause {} names case {representative}, which did not fail", i + 1))?;
        group_views.push(GroupView {
            number: i + 1,
            verdict: text(&group["verdict"]),
            title: text(&group["title"]),
            others: ids.into_iter().filter(|id| *id != representative).collect(),
            representative,
            index,
        });
    }
    let data = Data { strings: lines.strings, cases: details };
    let data = crate::escape::html_script_json(&serde_json::to_string(&data).map_err(|e| format!("the HTML report's data: {e}"))?);
    let page = Page {
        shared_causes: group_views.iter().filter(|g| !g.others.is_empty()).count(),
        groups: group_views,
        data,
        implementation: Implementation {
            name: text(&implementation["name"]),
            version: text(&implementation["version"]),
            profiles: strings(&implementation["profiles"]),
            protocols: strings(&implementation["protocols"]),
        },
        suite_version: text(&report["suite"]["version"]),
        digest: text(&report["suite"]["vectorsDigest"]),
        scope: scope_line(report),
        levels,
        load_errors: strings(&report["loadErrors"]),
        totals,
        statuses: STATUSES
            .iter()
            .enumerate()
            .map(|(rank, name)| Count { name: name.to_string(), count: status_counts.get(&rank).copied().unwrap_or(0) })
            .collect(),
        strictnesses: strictnesses.into_iter().collect(),
        specs,
        cases,
        cases_run: reported.len(),
    };
    let mut env = environment();
    env.add_template("report.html", TEMPLATE).map_err(|e| format!("the HTML template: {e}"))?;
    let template = env.get_template("report.html").map_err(|e| format!("the HTML template: {e}"))?;
    template.render(minijinja::Value::from_serialize(&page)).map_err(|e| format!("the HTML report: {e:#}"))
}

fn scope_line(report: &Value) -> String {
    let scope = &report["scope"];
    let selection = strings(&scope["selection"]);
    let mut line = if scope["official"] == Value::Bool(true) {
        "the official vector set".to_string()
    } else {
        "a vector set that is not the official one of this build".to_string()
    };
    if !selection.is_empty() {
        line.push_str(&format!(", selected by {}", selection.join(" ")));
    }
    if let Some(why) = scope["stopped"].as_str() {
        line.push_str(&format!("; {why}"));
    }
    line
}

/// The template environment of every HTML page the harness writes (the certification report,
/// `compare`'s implementation report): autoescaping follows the template name (`.html` escapes
/// every `{{ }}` for HTML markup), after the terminal's controls are written as `\uXXXX`
/// (`escape::terminal`).
pub(crate) fn environment() -> minijinja::Environment<'static> {
    let mut env = minijinja::Environment::new();
    env.set_formatter(|out, state, value| match value.as_str() {
        Some(text) if !value.is_safe() => {
            minijinja::escape_formatter(out, state, &minijinja::Value::from(crate::escape::terminal(text).as_ref()))
        }
        _ => minijinja::escape_formatter(out, state, value),
    });
    env
}

/// The page for a run: its JSON report (`Run::to_json`) rendered with its certification levels.
pub fn render(run: &Run<'_>) -> Result<String, String> {
    let levels = [Protocol::Rcip, Protocol::Rui].iter().map(|p| crate::certification::level(run, *p)).collect();
    render_report(&run.to_json(), run.vectors, levels)
}
