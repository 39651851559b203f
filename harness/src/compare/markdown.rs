//! The Markdown view of `conformance compare` (issue 31): the headline figures, one line per
//! implementation, the REQUIRED requirements fewer than two independent implementations pass,
//! the disagreements (REQUIRED first), the open points with the reading each implementation
//! took, and every requirement with each implementation's status. Every text the comparison did
//! not write itself (names, quotes, differences) goes through `escape::markdown_inline`.

use std::fmt::Write as _;

use super::{Comparison, Status};
use crate::escape::markdown_inline as md;
use crate::verdict::Verdict;

fn header(out: &mut String, first: &[&str], labels: &[String], last: &[&str]) {
    let cells: Vec<String> =
        first.iter().map(|s| s.to_string()).chain(labels.iter().map(|l| md(l))).chain(last.iter().map(|s| s.to_string())).collect();
    let _ = writeln!(out, "| {} |", cells.join(" | "));
    let _ = writeln!(out, "|{}", "---|".repeat(cells.len()));
}

fn status_cell(status: Status) -> &'static str {
    match status {
        Status::Pass => "pass",
        Status::NonStrict => "non-strict",
        Status::Fail => "**fail**",
        Status::Errored => "*errored*",
        Status::Unsupported => "unsupported",
        Status::Untested => "untested",
    }
}

/// The implementation report as Markdown.
pub fn render(comparison: &Comparison) -> String {
    let mut out = String::new();
    let h = &comparison.headline;
    let labels: Vec<String> = comparison.implementations.iter().map(|i| i.label.clone()).collect();
    let _ = writeln!(out, "# Implementation report: RCIP 1.0 and Rixx UI 0.1\n");
    let _ = writeln!(
        out,
        "Suite {}, vector set digest `{}`; {} implementations, {} independent code bases.\n",
        md(&comparison.suite_version),
        &comparison.digest,
        comparison.implementations.len(),
        h.codebases
    );
    let _ = writeln!(out, "## Headline\n");
    let _ = writeln!(
        out,
        "- Requirements passed by at least two independent implementations: **{} of {}** (REQUIRED: {} of {})",
        h.passed_by_two, h.requirements, h.required_passed_by_two, h.required
    );
    let _ = writeln!(
        out,
        "- Cases the implementations judge differently: {} ({} REQUIRED disagreements: one implementation passes, another fails)",
        h.disagreements, h.required_disagreements
    );
    let _ = writeln!(
        out,
        "- Open points (IMPL-DEFINED or RECOMMENDED requirements): {}; read alike by every judged implementation: {}; split: {} ({} between independent implementations)",
        h.open_points, h.open_points_alike, h.open_points_split, h.open_points_split_independent
    );

    let _ = writeln!(out, "\n## Implementations\n");
    let verdicts: Vec<&str> = Verdict::ALL.iter().map(|v| v.as_str()).collect();
    let mut first = vec!["implementation", "code base", "profiles", "certification"];
    first.extend(verdicts.iter().copied());
    let _ = writeln!(out, "| {} |", first.join(" | "));
    let _ = writeln!(out, "|{}", "---|".repeat(first.len()));
    for i in &comparison.implementations {
        let counts: Vec<String> = verdicts.iter().map(|v| i.counts.get(*v).copied().unwrap_or(0).to_string()).collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            md(&i.label),
            md(&i.codebase),
            md(&i.profiles.join(", ")),
            i.levels.iter().map(|l| md(l)).collect::<Vec<_>>().join("<br>"),
            counts.join(" | ")
        );
    }

    let flagged: Vec<_> = comparison.requirements.iter().filter(|r| r.flagged).collect();
    let _ = writeln!(out, "\n## REQUIRED requirements fewer than two independent implementations pass ({})\n", flagged.len());
    if flagged.is_empty() {
        let _ = writeln!(out, "None.");
    } else {
        header(&mut out, &["requirement", "sentence"], &labels, &["independent passes"]);
        for r in flagged {
            let statuses: Vec<&str> = r.statuses.iter().map(|s| status_cell(*s)).collect();
            let _ = writeln!(out, "| {} | {} | {} | {} |", md(&r.id), md(&r.quote), statuses.join(" | "), r.independent_passes);
        }
    }

    let _ = writeln!(out, "\n## Disagreements ({}, {} REQUIRED)\n", h.disagreements, h.required_disagreements);
    if comparison.disagreements.is_empty() {
        let _ = writeln!(out, "None: every case was judged alike by every implementation that ran it.");
    } else {
        header(&mut out, &["case", "strictness"], &labels, &[]);
        for d in &comparison.disagreements {
            let cells: Vec<String> = d
                .verdicts
                .iter()
                .map(|v| if v.first.is_empty() { md(&v.verdict) } else { format!("{}: {}", md(&v.verdict), md(&v.first)) })
                .collect();
            let strictness = if d.required { format!("**{}**", md(&d.strictness)) } else { md(&d.strictness) };
            let _ = writeln!(out, "| {} | {} | {} |", md(&d.id), strictness, cells.join(" | "));
        }
    }

    let _ = writeln!(out, "\n## Open points ({}, {} split)\n", h.open_points, h.open_points_split);
    header(&mut out, &["requirement", "strictness", "choice rows"], &labels, &["split"]);
    for p in &comparison.open_points {
        let taken: Vec<String> = p.taken.iter().map(|t| md(t)).collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            md(&p.id),
            md(&p.strictness),
            md(&p.choices.join(", ")),
            taken.join(" | "),
            if p.split_independent { "**independent**" } else if p.split { "yes" } else { "no" }
        );
    }
    let split: Vec<_> = comparison.open_points.iter().filter(|p| p.split && !p.places.is_empty()).collect();
    if !split.is_empty() {
        let _ = writeln!(out, "\n### Where the readings split\n");
        for p in split {
            let _ = writeln!(out, "**{}** {}\n", md(&p.id), md(&p.quote));
            header(&mut out, &["case", "step", "place", "alternatives"], &labels, &[]);
            for place in p.places.iter().filter(|pl| {
                pl.readings.iter().filter(|r| r.as_str() != "-").collect::<std::collections::BTreeSet<_>>().len() > 1
            }) {
                let options: Vec<String> =
                    place.options.iter().enumerate().map(|(i, o)| format!("{}. {}", i + 1, md(o))).collect();
                let readings: Vec<String> = place.readings.iter().map(|r| md(r)).collect();
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} |",
                    md(&place.case),
                    place.step,
                    md(&place.pointer),
                    options.join("<br>"),
                    readings.join(" | ")
                );
            }
            let _ = writeln!(out);
        }
    }

    let _ = writeln!(out, "\n## Requirements ({})\n", comparison.requirements.len());
    header(&mut out, &["requirement", "strictness", "sentence"], &labels, &["independent passes"]);
    for r in &comparison.requirements {
        let statuses: Vec<&str> = r.statuses.iter().map(|s| status_cell(*s)).collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            md(&r.id),
            md(&r.strictness),
            md(&r.quote),
            statuses.join(" | "),
            r.independent_passes
        );
    }
    out
}
