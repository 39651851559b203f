//! Run summaries and the JSON report: counts per verdict, per section and per strictness, the
//! cases that did not pass grouped by cause (`causes`, issue 27 §1), and every case's verdict with
//! its differences and what the adapter wrote to stderr (issue 27 §4), so a report alone explains
//! each failure. `groups` is derived from `cases`: `report` recomputes it, so a report written
//! before it existed gives the same views.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::adapter::Implementation;
use crate::loader::{Case, Vectors};
use crate::runner::CaseResult;
use crate::verdict::Verdict;

/// The results of a run, in case order.
pub struct Run<'v> {
    pub vectors: &'v Vectors,
    pub implementation: Implementation,
    pub results: Vec<(&'v Case, CaseResult)>,
    pub scope: Scope,
}

/// What part of which vector set a run covered: a certification rests on the complete official
/// set, run with no selection at all (issue 14, section 1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scope {
    /// The vector set is the official one of this build (by digest) and loaded without error.
    pub official: bool,
    /// The selection options of the run (`--filter rcip.x`, ...), empty for every case.
    pub selection: Vec<String>,
    /// Why the run ended early, if it did (the circuit breaker).
    pub stopped: Option<String>,
}

impl Scope {
    /// A run over the complete official vector set with no selection.
    pub fn complete_official() -> Scope {
        Scope { official: true, ..Scope::default() }
    }

    /// Whether a certification level may be stated at all.
    pub fn certifiable(&self) -> bool {
        self.official && self.selection.is_empty() && self.stopped.is_none()
    }

    /// One line saying what the run covered.
    pub fn describe(&self, vectors: &Vectors, cases_run: usize) -> String {
        let set = if self.official {
            "the official vector set".to_string()
        } else {
            format!("a vector set that is not the official one of this build (digest {})", short(&vectors.digest))
        };
        let mut line = if self.selection.is_empty() {
            format!("every case of {set} ({cases_run} cases)")
        } else {
            format!(
                "{cases_run} of {} cases of {set}, selected by {}",
                vectors.cases.len(),
                self.selection.join(" ")
            )
        };
        if let Some(why) = &self.stopped {
            line.push_str(&format!("; {why}"));
        }
        line
    }
}

fn short(digest: &str) -> &str {
    &digest[..digest.len().min(16)]
}

pub type Counts = BTreeMap<Verdict, usize>;

impl Run<'_> {
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::new();
        for (_, result) in &self.results {
            *counts.entry(result.verdict).or_default() += 1;
        }
        counts
    }

    /// Counts per key (section, strictness...), keys sorted.
    pub fn counts_by(&self, key: impl Fn(&Case) -> String) -> BTreeMap<String, Counts> {
        let mut table: BTreeMap<String, Counts> = BTreeMap::new();
        for (case, result) in &self.results {
            *table.entry(key(case)).or_default().entry(result.verdict).or_default() += 1;
        }
        table
    }

    pub fn failed(&self) -> bool {
        self.results.iter().any(|(_, r)| r.verdict.is_failure())
    }

    /// The plain-text summary: totals, then a table per section and per strictness.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        let header = |title: &str| {
            let mut line = format!("{title:<36}");
            for verdict in Verdict::ALL {
                line.push_str(&format!("{:>12}", verdict.as_str()));
            }
            line
        };
        let row = |name: &str, counts: &Counts| {
            let mut line = format!("{name:<36}");
            for verdict in Verdict::ALL {
                line.push_str(&format!("{:>12}", counts.get(&verdict).copied().unwrap_or(0)));
            }
            line
        };
        out.push_str(&format!(
            "implementation {} {}; {} cases from {} (digest {})\nscope: {}\n{}\n",
            self.implementation.name,
            self.implementation.version,
            self.results.len(),
            self.vectors.root.display(),
            short(&self.vectors.digest),
            self.scope.describe(self.vectors, self.results.len()),
            codes_line(&self.implementation),
        ));
        for (title, table) in [
            ("section", self.counts_by(|c| c.section.clone())),
            ("strictness", self.counts_by(|c| c.strictness.clone())),
        ] {
            out.push_str(&header(title));
            out.push('\n');
            for (name, counts) in &table {
                out.push_str(&row(name, counts));
                out.push('\n');
            }
            out.push('\n');
        }
        out.push_str(&row("total", &self.counts()));
        out.push('\n');
        out
    }

    pub fn to_json(&self) -> Value {
        let counts_json = |counts: &Counts| -> Value {
            Verdict::ALL
                .iter()
                .map(|v| (v.as_str().to_string(), json!(counts.get(v).copied().unwrap_or(0))))
                .collect::<serde_json::Map<_, _>>()
                .into()
        };
        let table_json = |table: BTreeMap<String, Counts>| -> Value {
            table.iter().map(|(k, c)| (k.clone(), counts_json(c))).collect::<serde_json::Map<_, _>>().into()
        };
        let cases: Vec<Value> = self
            .results
            .iter()
            .map(|(case, result)| {
                let mut entry = json!({
                    "id": case.id,
                    "section": case.section,
                    "strictness": case.strictness,
                    "requirements": case.requirements,
                    "verdict": result.verdict.as_str(),
                    "reason": result.reason,
                    "alternatives": result.alternatives,
                    "differences": result.differences.iter().map(|d| difference_json(d)).collect::<Vec<_>>(),
                });
                // Only when something was kept: the report of a run whose adapter said nothing
                // is the report older versions wrote.
                if let (Some(stderr), Some(object)) = (&result.stderr, entry.as_object_mut()) {
                    object.insert("stderr".into(), json!(stderr));
                }
                entry
            })
            .collect();
        let mut report = json!({
            "format": "rcip-rui-report/1",
            "implementation": {
                "name": self.implementation.name,
                "version": self.implementation.version,
                "profiles": self.implementation.profiles,
                "protocols": self.implementation.protocols.iter().map(|p| p.as_str()).collect::<Vec<_>>(),
            },
            "suite": {
                "version": env!("CARGO_PKG_VERSION"),
                "vectorsDigest": self.vectors.digest,
            },
            "loadErrors": self.vectors.errors.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
            "scope": {
                "official": self.scope.official,
                "selection": self.scope.selection,
                "stopped": self.scope.stopped,
            },
            "summary": {
                "total": counts_json(&self.counts()),
                "bySection": table_json(self.counts_by(|c| c.section.clone())),
                "byStrictness": table_json(self.counts_by(|c| c.strictness.clone())),
            },
            "groups": self.groups().iter().map(crate::causes::Group::to_json).collect::<Vec<_>>(),
            "cases": cases,
        });
        if let Some(codes) = &self.implementation.codes {
            report["implementation"]["codes"] = codes.to_json();
        }
        report
    }

    /// The cases that did not pass, grouped by their first difference (`causes`).
    pub fn groups(&self) -> Vec<crate::causes::Group> {
        crate::causes::group(self.results.iter().map(|(_, r)| r))
    }
}

/// One difference as the JSON report holds it (`report.schema.json`): its ids with whose they are
/// (`requirementsOf`: the step's own, or the case's list when the step cites none) and each with
/// its sentence, shortened (issue 27 §3), when known.
pub fn difference_json(d: &crate::runner::Difference) -> Value {
    let mut entry = json!({
        "step": d.step,
        "strictness": d.strictness,
        "requirements": d.requirements,
        "request": d.request,
        "expected": d.expected,
        "actual": d.actual,
        "mismatches": d.mismatches.iter().map(|m| json!({"pointer": m.pointer, "reason": m.reason})).collect::<Vec<_>>(),
    });
    if let (Some(by), Some(object)) = (d.cited_by, entry.as_object_mut()) {
        object.insert("requirementsOf".into(), json!(by.as_str()));
        object.insert(
            "sentences".into(),
            d.sentences.iter().map(|(id, quote)| json!({ "id": id, "quote": quote })).collect(),
        );
    }
    entry
}

/// The console header's line for the handshake's `codes` map (issue 27 §5): the Rixx UI codes
/// were judged after this translation. Empty without a map.
pub fn codes_line(implementation: &Implementation) -> String {
    match &implementation.codes {
        Some(codes) => format!("codes translated onto the register's: {}\n", codes.describe()),
        None => String::new(),
    }
}
