//! The HTML view of `conformance compare` (issue 31): one self-contained page (inline CSS and
//! script, no asset, no network) written by the `minijinja` template `compare.html` with the
//! same escaping as the certification page (`html::environment`): every value from a report or
//! the register is text, never markup.

use std::collections::BTreeSet;

use serde::Serialize;

use super::{Comparison, Disagreement, OpenPoint, RequirementRow, Summary};
use crate::verdict::Verdict;

const TEMPLATE: &str = include_str!("compare.html");

#[derive(Serialize)]
struct Page<'c> {
    suite_version: &'c str,
    digest: &'c str,
    headline: &'c super::Headline,
    implementations: &'c [Summary],
    verdicts: Vec<&'static str>,
    disagreements: &'c [Disagreement],
    open_points: &'c [OpenPoint],
    requirements: &'c [RequirementRow],
    strictnesses: BTreeSet<&'c str>,
    flagged: usize,
}

/// The implementation report as one HTML page.
pub fn render(comparison: &Comparison) -> Result<String, String> {
    let page = Page {
        suite_version: &comparison.suite_version,
        digest: &comparison.digest,
        headline: &comparison.headline,
        implementations: &comparison.implementations,
        verdicts: Verdict::ALL.iter().map(|v| v.as_str()).collect(),
        disagreements: &comparison.disagreements,
        open_points: &comparison.open_points,
        requirements: &comparison.requirements,
        strictnesses: comparison.requirements.iter().map(|r| r.strictness.as_str()).collect(),
        flagged: comparison.requirements.iter().filter(|r| r.flagged).count(),
    };
    let mut env = crate::html::environment();
    env.add_template("compare.html", TEMPLATE).map_err(|e| format!("the HTML template: {e}"))?;
    let template = env.get_template("compare.html").map_err(|e| format!("the HTML template: {e}"))?;
    template.render(minijinja::Value::from_serialize(&page)).map_err(|e| format!("the implementation report: {e:#}"))
}
