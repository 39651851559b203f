//! Human-readable output: a case's differences as a `similar` unified diff of the expected view
//! against the observation (pretty JSON), with the step, its strictness and the requirement ids.

use std::fmt::Write as _;

use serde_json::Value;
use similar::TextDiff;

use crate::runner::{CaseResult, Difference};

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
    let _ = writeln!(out, "  strictness {}; requirements {}", difference.strictness, difference.requirements.join(", "));
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
    out
}
