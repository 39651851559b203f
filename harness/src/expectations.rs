//! The expectations file: known failures (`xfail`) and skips, each with a reason, for CI teams
//! that certify with known gaps. A listed failure that passes is an error, an entry that matches
//! no case is an error, an unlisted failure fails the run. `--write-expectations` writes the
//! current failures as a baseline.
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

use std::fs;
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
        let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
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

/// An expectations file listing every failed or errored case of `results` as a known failure.
pub fn baseline(results: &[CaseResult], digest: &str) -> String {
    let mut out = String::from("# Baseline written by `conformance run --write-expectations`.\n");
    out.push_str(&format!("# Vector digest {digest}. Replace each reason with the real one.\n"));
    for result in results.iter().filter(|r| matches!(r.verdict, Verdict::Fail | Verdict::Errored)) {
        out.push_str(&format!(
            "\n[[xfail]]\nid = \"{}\"\nreason = \"baseline: {} when the baseline was taken\"\n",
            result.id, result.verdict
        ));
    }
    out
}
