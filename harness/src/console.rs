//! Human-readable output: a case's differences as a `similar` unified diff of the expected view
//! against the observation (pretty JSON), with the step, its strictness and the requirement ids
//! that decide it with their sentences (issue 27 §3),
//! and under them what the adapter wrote to stderr (issue 27 §4); and the cases that did not pass
//! grouped by cause (`causes`, issue 27 §1): each group with one case's diffs and the other cases
//! by id, so one bug that fails a hundred cases reads as one finding.

use std::fmt::Write as _;

use serde_json::Value;
use similar::TextDiff;

use crate::causes::Group;
use crate::runner::{CaseResult, Difference};

/// How many cases of a group the console shows with their diffs (the first by id); the others
/// are listed by id (`run --all-diffs` shows every one).
pub const DIFFS_PER_GROUP: usize = 1;

fn pretty(value: Option<&Value>) -> String {
    match value {
        Some(v) => serde_json::to_string_pretty(v).unwrap_or_default() + "\n",
        None => "(absent)\n".to_string(),
    }
}

/// One difference, as text: header line, mismatch list, unified diff.
pub fn render_difference(difference: &Difference) -> String {
    let mut out = String::new();
    let place = match difference.step {
        Some(step) => format!("step {step}"),
        None => "setup".to_string(),
    };
    let request = serde_json::to_string(&difference.request).unwrap_or_default();
    let _ = writeln!(out, "{place} {request}");
    out.push_str(&render_requirements(difference));
    for mismatch in &difference.mismatches {
        let at = if mismatch.pointer.is_empty() { "(whole observation)" } else { &mismatch.pointer };
        let _ = writeln!(out, "  {at}: {}", mismatch.reason);
    }
    let expected = pretty(difference.expected.as_ref());
    let actual = pretty(difference.actual.as_ref());
    let diff = TextDiff::from_lines(&expected, &actual);
    let _ = write!(out, "{}", diff.unified_diff().context_radius(3).header("expected", "actual"));
    out
}

/// A difference's strictness and requirement ids, saying whose the ids are (the step's own, or
/// the case's list when the step cites none), then each id with its shortened sentence (issue 27
/// §3): what a reader needs to know which sentence the implementation broke.
pub fn render_requirements(difference: &Difference) -> String {
    let mut out = String::new();
    let whose = difference.cited_by.map(|by| format!(" ({})", by.describe())).unwrap_or_default();
    let _ = writeln!(out, "  strictness {}; requirements {}{whose}", difference.strictness, difference.requirements.join(", "));
    for (id, quote) in &difference.sentences {
        let _ = writeln!(out, "    {id}: \u{201c}{quote}\u{201d}");
    }
    out
}

/// Every difference of a case, or its reason when it was not judged.
pub fn render_case(result: &CaseResult) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} {}", result.id, result.verdict);
    if let Some(reason) = &result.reason {
        let _ = writeln!(out, "  {reason}");
    }
    for difference in &result.differences {
        out.push_str(&render_difference(difference));
    }
    if let Some(stderr) = &result.stderr {
        out.push_str(&render_stderr(stderr));
    }
    out
}

/// What the adapter wrote to stderr during a case, indented under its diffs.
pub fn render_stderr(stderr: &str) -> String {
    let mut out = String::from("  adapter stderr:\n");
    for line in stderr.lines() {
        let _ = writeln!(out, "    {line}");
    }
    out
}

/// The cases that did not pass, by cause: the groups of several cases first, each with its title,
/// the diffs of its first `DIFFS_PER_GROUP` cases (every case's with `all_diffs`) and the ids of
/// the others; then the cases that differ in some other way, each with its diffs. `results` holds
/// every case of `groups`.
pub fn render_groups(groups: &[Group], results: &[&CaseResult], all_diffs: bool) -> String {
    let by_id: std::collections::BTreeMap<&str, &CaseResult> = results.iter().map(|r| (r.id.as_str(), *r)).collect();
    let mut out = String::new();
    let cases: usize = groups.iter().map(|g| g.cases.len()).sum();
    if cases == 0 {
        return out;
    }
    let (several, alone): (Vec<&Group>, Vec<&Group>) = groups.iter().partition(|g| g.cases.len() > 1);
    let _ = writeln!(
        out,
        "{cases} case(s) did not pass: {} cause(s) shared by several cases, {} case(s) differing in some other way (cases grouped by their first difference; {})",
        several.len(),
        alone.len(),
        if all_diffs { "every case's diffs shown" } else { "one case's diffs shown per group, the others listed by id; --all-diffs shows every case's" }
    );
    let shown = if all_diffs { usize::MAX } else { DIFFS_PER_GROUP };
    for (number, group) in several.iter().enumerate() {
        let _ = writeln!(out, "\n== cause {} of {}: {}", number + 1, several.len(), group.title());
        for id in group.cases.iter().take(shown) {
            if let Some(result) = by_id.get(id.as_str()) {
                let _ = write!(out, "\n{}", render_case(result));
            }
        }
        let rest = group.cases.len().saturating_sub(shown);
        if rest > 0 {
            let _ = writeln!(out, "\nthe other {rest} case(s) of cause {}:", number + 1);
            for id in group.cases.iter().skip(shown) {
                let _ = writeln!(out, "  {id}");
            }
        }
    }
    if !alone.is_empty() {
        let _ = writeln!(out, "\n== {} case(s) that differ in some other way", alone.len());
        for group in &alone {
            if let Some(result) = by_id.get(group.representative()) {
                let _ = write!(out, "\n{}", render_case(result));
            }
        }
    }
    out
}
