//! The expectations file: known failures (`xfail`) and skips, each with a reason, for CI teams
//! that certify with known gaps. A listed failure that passes is an error, an entry that matches
//! no case is an error, an unlisted failure fails the run. `--write-expectations` writes the
//! current failures as a baseline, keeping the entries of `--expectations` that still apply.
//!
//! ```toml
//! [[xfail]]
//! id = "rcip.policy-race.unbind.001"
//! reason = "tracked in our issue 42"
//!
//! [[skip]]
//! prefix = "rui.framing-sse."
//! reason = "no SSE transport in this build"
//! ```

use std::path::Path;

use serde::Deserialize;

use crate::loader::Case;
use crate::runner::CaseResult;
use crate::verdict::Verdict;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// One case id...
    pub id: Option<String>,
    /// ...or every case whose id starts with this.
    pub prefix: Option<String>,
    pub reason: String,
}

impl Entry {
    fn matches(&self, id: &str) -> bool {
        match (&self.id, &self.prefix) {
            (Some(exact), _) => exact == id,
            (None, Some(prefix)) => id.starts_with(prefix.as_str()),
            (None, None) => false,
        }
    }

    fn label(&self) -> String {
        match (&self.id, &self.prefix) {
            (Some(id), _) => id.clone(),
            (None, Some(prefix)) => format!("{prefix}*"),
            (None, None) => "(entry without id or prefix)".into(),
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectations {
    #[serde(default)]
    pub xfail: Vec<Entry>,
    #[serde(default)]
    pub skip: Vec<Entry>,
}

impl Expectations {
    pub fn load(path: &Path) -> Result<Expectations, String> {
        let text = crate::files::read_string(path, crate::files::JSON_LIMIT).map_err(|e| e.to_string())?;
        let parsed: Expectations = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        for entry in parsed.xfail.iter().chain(&parsed.skip) {
            if entry.id.is_some() == entry.prefix.is_some() {
                return Err(format!("{}: each entry needs exactly one of id and prefix", path.display()));
            }
            if entry.reason.trim().is_empty() {
                return Err(format!("{}: entry {} has no reason", path.display(), entry.label()));
            }
        }
        Ok(parsed)
    }

    /// Why the case is to be skipped, if it is.
    pub fn skip_reason(&self, id: &str) -> Option<&str> {
        self.skip.iter().find(|e| e.matches(id)).map(|e| e.reason.as_str())
    }

    /// Turns the verdicts of listed known failures into `xfail`; returns the inconsistencies:
    /// listed cases that did not fail, and entries that match no case of the whole vector set.
    pub fn apply(&self, all_cases: &[Case], results: &mut [CaseResult]) -> Vec<String> {
        let mut problems = Vec::new();
        for entry in self.xfail.iter().chain(&self.skip) {
            if !all_cases.iter().any(|c| entry.matches(&c.id)) {
                problems.push(format!("expectations entry {} matches no case", entry.label()));
            }
        }
        for result in results.iter_mut() {
            let Some(entry) = self.xfail.iter().find(|e| e.matches(&result.id)) else {
                continue;
            };
            match result.verdict {
                Verdict::Fail | Verdict::Errored | Verdict::NonStrict => {
                    result.reason = Some(format!("known failure ({}): {}", result.verdict, entry.reason));
                    result.verdict = Verdict::Xfail;
                }
                Verdict::Skip => {}
                other => problems.push(format!(
                    "{} is listed as a known failure ({}) but its verdict is {other}",
                    result.id, entry.reason
                )),
            }
        }
        problems
    }
}

/// A TOML basic string.
fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn entry_text(table: &str, key: &str, value: &str, reason: &str) -> String {
    format!("\n[[{table}]]\n{key} = {}\nreason = {}\n", quoted(value), quoted(reason))
}

/// An expectations file for CI: every entry of `existing` that still applies, with its reason,
/// then every failed or errored case of `results` that no kept entry covers, as a new known
/// failure. An `xfail` entry still applies when every case it matched in this run still failed
/// (`xfail`); when only some did, it is narrowed to those ids, keeping its reason; when it matched
/// no case of this run it is kept if it matches a case of the vector set (the run may have been
/// filtered). A `skip` entry is kept when it matches a case of the vector set. Entries that match
/// nothing, and known failures that now pass, are dropped.
pub fn baseline(existing: &Expectations, all_cases: &[Case], results: &[&CaseResult], digest: &str) -> String {
    let mut out = String::from("# Baseline written by `conformance run --write-expectations`.\n");
    out.push_str(&format!("# Vector digest {digest}. Replace each baseline reason with the real one.\n"));
    let mut covered: Vec<&str> = Vec::new();
    for entry in &existing.xfail {
        let matched: Vec<&CaseResult> = results.iter().copied().filter(|r| entry.matches(&r.id)).collect();
        let (key, value) = match (&entry.id, &entry.prefix) {
            (Some(id), _) => ("id", id.as_str()),
            (None, Some(prefix)) => ("prefix", prefix.as_str()),
            (None, None) => continue,
        };
        if matched.is_empty() {
            if all_cases.iter().any(|c| entry.matches(&c.id)) {
                out.push_str(&entry_text("xfail", key, value, &entry.reason));
            }
            continue;
        }
        let still: Vec<&CaseResult> = matched.iter().copied().filter(|r| r.verdict == Verdict::Xfail).collect();
        covered.extend(matched.iter().filter(|r| r.verdict == Verdict::Xfail).map(|r| r.id.as_str()));
        if still.len() == matched.len() {
            out.push_str(&entry_text("xfail", key, value, &entry.reason));
        } else {
            for result in still {
                out.push_str(&entry_text("xfail", "id", &result.id, &entry.reason));
            }
        }
    }
    for result in results.iter().filter(|r| matches!(r.verdict, Verdict::Fail | Verdict::Errored)) {
        if !covered.contains(&result.id.as_str()) {
            let reason = format!("baseline: {} when the baseline was taken", result.verdict);
            out.push_str(&entry_text("xfail", "id", &result.id, &reason));
        }
    }
    for entry in existing.skip.iter().filter(|e| all_cases.iter().any(|c| e.matches(&c.id))) {
        match (&entry.id, &entry.prefix) {
            (Some(id), _) => out.push_str(&entry_text("skip", "id", id, &entry.reason)),
            (None, Some(prefix)) => out.push_str(&entry_text("skip", "prefix", prefix, &entry.reason)),
            (None, None) => {}
        }
    }
    out
}
