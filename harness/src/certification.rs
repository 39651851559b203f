//! The Markdown certification report: implementation and suite versions, vector digest,
//! declared profiles, results per requirement, section, strictness and profile, and a one-line
//! certification level per protocol. A skip, an unsupported or an errored case never counts as a
//! pass: a level is granted only when every case it rests on ran and passed, and only to a run
//! over the complete official vector set (matched by its digest) with no selection; any other run
//! says which subset it covered and certifies nothing (issue 14, section 1). Every text it did
//! not write itself (names, ids, quotes, reasons) is inlined through `escape::markdown_inline`:
//! no raw HTML or markup from a vector set or an adapter passes through (issue 28). The cases
//! that did not pass come first grouped by cause (`causes`, issue 27 §1): one line per cause with
//! its representative case's first difference, and each case names its cause.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::adapter::Protocol;
use crate::escape::markdown_inline as md;
use crate::loader::Case;
use crate::report::{Counts, Run};
use crate::select::cited_requirements;
use crate::verdict::Verdict;

fn protocol_title(protocol: Protocol) -> &'static str {
    match protocol {
        Protocol::Rcip => "RCIP 1.0",
        Protocol::Rui => "Rixx UI 0.1",
    }
}

/// The certification level of one protocol, as one line.
pub fn level(run: &Run<'_>, protocol: Protocol) -> String {
    let title = protocol_title(protocol);
    if !run.implementation.protocols.contains(&protocol) {
        return format!("{title}: not implemented");
    }
    if !run.scope.official {
        return format!(
            "{title}: not certified (the vector set is not the official one of this build; digest {})",
            &run.vectors.digest[..run.vectors.digest.len().min(16)]
        );
    }
    if let Some(why) = &run.scope.stopped {
        return format!("{title}: not certified ({why})");
    }
    if !run.scope.selection.is_empty() {
        let of_protocol = run.results.iter().filter(|(c, _)| c.protocol == protocol).count();
        let in_suite = run.vectors.cases.iter().filter(|c| c.protocol == protocol).count();
        // Even a selection that happens to hold every case of the protocol certifies nothing;
        // the count is of this protocol's cases, so it never reads like the run's total.
        return format!(
            "{title}: not certified (partial run selected by {}: {of_protocol} of the {in_suite} {title} cases ran; a certification needs a run without a selection)",
            run.scope.selection.join(" ")
        );
    }
    let declared = &run.implementation.profiles;
    let of_protocol: Vec<&(&Case, crate::runner::CaseResult)> =
        run.results.iter().filter(|(c, _)| c.protocol == protocol).collect();
    let runnable = |c: &Case| c.profiles.iter().all(|p| declared.contains(p));
    let core: Vec<_> = of_protocol
        .iter()
        .filter(|(c, _)| runnable(c) && matches!(c.strictness.as_str(), "REQUIRED" | "IMPL-DEFINED"))
        .collect();
    if core.is_empty() {
        return format!("{title}: not certified (no REQUIRED case ran)");
    }
    // A level rests on the whole suite: a filtered run says how its selection fared, never that
    // the implementation is certified.
    let in_suite = run.vectors.cases.iter().filter(|c| c.protocol == protocol).count();
    if of_protocol.len() < in_suite {
        return format!(
            "{title}: not certified (partial run: {} of {in_suite} cases selected)",
            of_protocol.len()
        );
    }
    let blocking: Vec<&str> = core
        .iter()
        .filter(|(_, r)| !matches!(r.verdict, Verdict::Pass | Verdict::NonStrict))
        .map(|(c, _)| c.id.as_str())
        .collect();
    if !blocking.is_empty() {
        return format!("{title}: not certified ({} REQUIRED case(s) did not pass)", blocking.len());
    }
    let all_strict = of_protocol
        .iter()
        .filter(|(c, _)| runnable(c) && c.strictness != "PROFILE")
        .all(|(_, r)| r.verdict == Verdict::Pass);
    let mut line = format!("{title}: REQUIRED{}", if all_strict { " + RECOMMENDED" } else { "" });
    let mut profiles_passed = Vec::new();
    let mut profiles_seen: BTreeSet<&str> = BTreeSet::new();
    for (case, _) in &of_protocol {
        profiles_seen.extend(case.profiles.iter().map(String::as_str));
    }
    for profile in profiles_seen.iter().filter(|p| declared.contains(**p)) {
        let passed = of_protocol
            .iter()
            .filter(|(c, _)| runnable(c) && c.profiles.iter().any(|p| p == profile))
            .all(|(_, r)| matches!(r.verdict, Verdict::Pass | Verdict::NonStrict));
        if passed {
            profiles_passed.push(*profile);
        }
    }
    if !profiles_passed.is_empty() {
        let _ = write!(line, "; profiles: {}", profiles_passed.join(", "));
    }
    line
}

fn counts_row(name: &str, counts: &Counts) -> String {
    let cells: Vec<String> = Verdict::ALL.iter().map(|v| counts.get(v).copied().unwrap_or(0).to_string()).collect();
    format!("| {} | {} |", md(name), cells.join(" | "))
}

fn counts_header(first: &str) -> String {
    let names: Vec<&str> = Verdict::ALL.iter().map(|v| v.as_str()).collect();
    format!("| {first} | {} |\n|---|{}", names.join(" | "), "---:|".repeat(names.len()))
}

fn table(out: &mut String, title: &str, first: &str, rows: &BTreeMap<String, Counts>) {
    let _ = writeln!(out, "\n## {title}\n\n{}", counts_header(first));
    for (name, counts) in rows {
        let _ = writeln!(out, "{}", counts_row(name, counts));
    }
}

/// The worst verdict first: what a requirement's status is.
fn severity(verdict: Verdict) -> u8 {
    match verdict {
        Verdict::Fail => 0,
        Verdict::Errored => 1,
        Verdict::Xfail => 2,
        Verdict::NonStrict => 3,
        Verdict::Unsupported => 4,
        Verdict::Skip => 5,
        Verdict::Pass => 6,
    }
}

pub fn render(run: &Run<'_>) -> String {
    let mut out = String::new();
    let implementation = &run.implementation;
    let _ = writeln!(out, "# Conformance report: {} {}\n", md(&implementation.name), md(&implementation.version));
    let levels: Vec<String> = [Protocol::Rcip, Protocol::Rui].iter().map(|p| level(run, *p)).collect();
    let _ = writeln!(out, "**Certification:** {}.\n", md(&levels.join(". ")));
    let _ = writeln!(out, "| | |\n|---|---|");
    let _ = writeln!(out, "| implementation | {} {} |", md(&implementation.name), md(&implementation.version));
    let _ = writeln!(out, "| suite | rcip-rui conformance {} |", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(out, "| vector digest | `{}` |", run.vectors.digest);
    let profiles: Vec<String> = implementation.profiles.iter().map(|p| md(p)).collect();
    let _ = writeln!(out, "| declared profiles | {} |", if profiles.is_empty() { "none".into() } else { profiles.join(", ") });
    let protocols: Vec<&str> = implementation.protocols.iter().map(|p| p.as_str()).collect();
    let _ = writeln!(out, "| declared protocols | {} |", protocols.join(", "));
    if let Some(codes) = &implementation.codes {
        let pairs: Vec<String> = codes.entries().iter().map(|(own, to)| format!("{} → {}", md(own), md(to))).collect();
        let _ = writeln!(out, "| Rixx UI codes translated | {} |", pairs.join(", "));
    }
    let _ = writeln!(out, "| cases run | {} |", run.results.len());
    let _ = writeln!(out, "| scope | {} |", md(&run.scope.describe(run.vectors, run.results.len())));
    if !run.vectors.errors.is_empty() {
        let _ = writeln!(out, "| load errors | {} (the run is not a certification) |", run.vectors.errors.len());
    }
    let _ = writeln!(out, "\nA level is granted only on passes: skipped, unsupported, errored and known-failure cases never count as passes. `non-strict` means only RECOMMENDED checks differed.");

    let groups = run.groups();
    causes_section(&mut out, run, &groups);

    let mut total = BTreeMap::new();
    total.insert("all cases".to_string(), run.counts());
    table(&mut out, "Results", "", &total);
    table(&mut out, "Per section", "section", &run.counts_by(|c| c.section.clone()));
    table(&mut out, "Per strictness", "strictness", &run.counts_by(|c| c.strictness.clone()));
    let mut per_profile: BTreeMap<String, Counts> = BTreeMap::new();
    for (case, result) in &run.results {
        let names = if case.profiles.is_empty() { vec!["(none)".to_string()] } else { case.profiles.clone() };
        for name in names {
            *per_profile.entry(name).or_default().entry(result.verdict).or_default() += 1;
        }
    }
    table(&mut out, "Per profile", "profile", &per_profile);

    let mut per_requirement: BTreeMap<String, Vec<Verdict>> = BTreeMap::new();
    for (case, result) in &run.results {
        for id in cited_requirements(case) {
            per_requirement.entry(id).or_default().push(result.verdict);
        }
    }
    let _ = writeln!(out, "\n## Per requirement\n\n| requirement | strictness | status | cases | sentence |\n|---|---|---|---:|---|");
    for (id, verdicts) in &per_requirement {
        let status = verdicts.iter().copied().min_by_key(|v| severity(*v)).unwrap_or(Verdict::Skip);
        let (strictness, quote) = run
            .vectors
            .requirements
            .get(id)
            .map(|r| (md(&r.strictness), md(&r.quote)))
            .unwrap_or(("?".to_string(), String::new()));
        let _ = writeln!(out, "| {} | {strictness} | {status} | {} | {quote} |", md(id), verdicts.len());
    }
    let not_passing: Vec<_> = run.results.iter().filter(|(_, r)| r.verdict != Verdict::Pass).collect();
    if !not_passing.is_empty() {
        let cause_of: BTreeMap<&str, usize> =
            groups.iter().enumerate().flat_map(|(i, g)| g.cases.iter().map(move |id| (id.as_str(), i + 1))).collect();
        let _ = writeln!(out, "\n## Cases that did not pass\n\n| case | verdict | cause | reason |\n|---|---|---:|---|");
        for (case, result) in not_passing {
            let reason = result
                .reason
                .clone()
                .unwrap_or_else(|| format!("{} check(s) differed", result.differences.len()));
            let cause = cause_of.get(case.id.as_str()).map(|n| n.to_string()).unwrap_or_default();
            let _ = writeln!(out, "| {} | {} | {cause} | {} |", md(&case.id), result.verdict, md(&reason));
        }
    }
    out
}

/// `## Failures by cause`: one row per group (`causes`), numbered as the cases table cites them.
fn causes_section(out: &mut String, run: &Run<'_>, groups: &[crate::causes::Group]) {
    if groups.is_empty() {
        return;
    }
    let cases: usize = groups.iter().map(|g| g.cases.len()).sum();
    let several = groups.iter().filter(|g| g.cases.len() > 1).count();
    let _ = writeln!(
        out,
        "\n## Failures by cause\n\n{cases} case(s) failed, errored or were non-strict: {several} cause(s) shared by several cases, then {} case(s) that differ in some other way. A cause is a case's first difference (the step's kind, the JSON Pointers and what was expected against what was found) or an errored case's reason; its example is its first case by id. `conformance run --filter ID` replays a case.\n",
        groups.len() - several
    );
    let _ = writeln!(out, "| cause | cases | first difference | example | its first difference |\n|---:|---:|---|---|---|");
    let by_id: BTreeMap<&str, &crate::runner::CaseResult> = run.results.iter().map(|(_, r)| (r.id.as_str(), r)).collect();
    for (number, group) in groups.iter().enumerate() {
        let example = by_id.get(group.representative()).map(|r| first_difference(r)).unwrap_or_default();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            number + 1,
            group.cases.len(),
            md(&group.title()),
            md(group.representative()),
            md(&example)
        );
    }
}

/// A difference's requirement ids in one line, whose they are and each with its shortened
/// sentence (issue 27 §3).
fn cited(d: &crate::runner::Difference) -> String {
    let whose = d.cited_by.map(|by| format!(" ({})", by.describe())).unwrap_or_default();
    let quotes: Vec<String> = d.sentences.iter().map(|(id, quote)| format!("{id}: \u{201c}{quote}\u{201d}")).collect();
    if quotes.is_empty() {
        format!("requirements {}{whose}", d.requirements.join(", "))
    } else {
        format!("requirements{whose}: {}", quotes.join("; "))
    }
}

/// A case's deciding difference in one line: the step, its request, expected against actual
/// (each quoted within `quote`'s bound) and the sentences that decide it, or its reason.
fn first_difference(result: &crate::runner::CaseResult) -> String {
    let deciding = result.differences.iter().find(|d| d.strictness != "RECOMMENDED").or(result.differences.first());
    match deciding {
        Some(d) => {
            let place = d.step.map_or("setup".to_string(), |s| format!("step {s}"));
            let shown = |v: &Option<serde_json::Value>| v.as_ref().map_or("(absent)".to_string(), crate::quote::bounded);
            format!(
                "{place} {}: expected {}, actual {}; {}",
                crate::quote::bounded(&d.request),
                shown(&d.expected),
                shown(&d.actual),
                cited(d)
            )
        }
        None => crate::quote::bounded(result.reason.as_deref().unwrap_or("")),
    }
}
