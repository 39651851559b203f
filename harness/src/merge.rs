//! `conformance report --merge`: joins the JSON reports of the n shards of one run (`run --shard
//! k/n`, issue 14 section 4) into one run, from which every report and the certification are
//! written exactly as the unsharded run would write them. The merge refuses anything that would
//! make the joined run claim more than was run: reports of other vectors, suite versions or
//! implementations, different selections, a missing or repeated shard, a case reported twice, and
//! a set of cases that is not exactly the selection. `single` rebuilds the run of one JSON report
//! under the same checks (`report --html FILE REPORT.json`: the other reports are views of it).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use crate::adapter::{Implementation, Protocol};
use crate::loader::Vectors;
use crate::matching::Mismatch;
use crate::report::{Run, Scope};
use crate::runner::{CaseResult, Difference};
use crate::select::{Selection, Shard};

fn strings(value: &Value) -> Vec<String> {
    value.as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect()
}

fn implementation_of(report: &Value) -> Result<Implementation, String> {
    let member = &report["implementation"];
    let mut protocols = BTreeSet::new();
    for name in strings(&member["protocols"]) {
        protocols.insert(match name.as_str() {
            "rcip" => Protocol::Rcip,
            "rui" => Protocol::Rui,
            other => return Err(format!("unknown protocol {other:?}")),
        });
    }
    Ok(Implementation {
        name: member["name"].as_str().ok_or("implementation.name missing")?.to_string(),
        version: member["version"].as_str().ok_or("implementation.version missing")?.to_string(),
        protocols,
        profiles: strings(&member["profiles"]).into_iter().collect(),
        codes: crate::codes::decode(member.get("codes"))?,
        ..Implementation::default()
    })
}

fn result_of(case: &Value) -> Result<CaseResult, String> {
    let differences = case["differences"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| Difference {
            step: d["step"].as_u64().map(|s| s as usize),
            strictness: d["strictness"].as_str().unwrap_or_default().to_string(),
            requirements: strings(&d["requirements"]),
            // Absent from reports of older versions, which did not say whose ids they were.
            cited_by: d["requirementsOf"].as_str().and_then(crate::runner::CitedBy::parse),
            sentences: d["sentences"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|s| Some((s["id"].as_str()?.to_string(), s["quote"].as_str()?.to_string())))
                .collect(),
            request: d["request"].clone(),
            expected: Some(d["expected"].clone()).filter(|v| !v.is_null()),
            actual: Some(d["actual"].clone()).filter(|v| !v.is_null()),
            mismatches: d["mismatches"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|m| Mismatch {
                    pointer: m["pointer"].as_str().unwrap_or_default().to_string(),
                    reason: m["reason"].as_str().unwrap_or_default().to_string(),
                })
                .collect(),
        })
        .collect();
    Ok(CaseResult {
        id: case["id"].as_str().ok_or("a case without id")?.to_string(),
        verdict: case["verdict"].as_str().ok_or("a case without verdict")?.parse()?,
        reason: case["reason"].as_str().map(str::to_string),
        differences,
        alternatives: strings(&case["alternatives"]),
        checks: 0,
        trace: String::new(),
        // Absent from reports of older versions: nothing was kept then.
        stderr: case["stderr"].as_str().map(str::to_string),
    })
}

/// The selection options of a shard's run, without its `--shard`, and its shard.
fn split_selection(selection: &[String]) -> Result<(Vec<String>, Shard), String> {
    let mut shard = None;
    let mut rest = Vec::new();
    for option in selection {
        match option.strip_prefix("--shard ") {
            Some(text) if shard.is_none() => shard = Some(Shard::parse(text)?),
            Some(_) => return Err("two --shard options".into()),
            None => rest.push(option.clone()),
        }
    }
    Ok((rest, shard.ok_or("the report is not of a shard (run --shard k/n)")?))
}

/// Rebuilds the selection from its options as `Filters::described` writes them.
fn selection_of(options: &[String]) -> Result<Selection, String> {
    let mut selection = Selection::default();
    for option in options {
        let (flag, value) = option.split_once(' ').ok_or_else(|| format!("unreadable selection option {option:?}"))?;
        let list = match flag {
            "--filter" => &mut selection.prefixes,
            "--section" => &mut selection.sections,
            "--requirement" => &mut selection.requirements,
            "--profile" => &mut selection.profiles,
            "--strictness" => &mut selection.strictness,
            other => return Err(format!("unknown selection option {other}")),
        };
        list.push(value.to_string());
    }
    Ok(selection)
}

/// Joins the shard reports at `paths` (already read as JSON) into one run over `vectors`.
pub fn merge<'v>(vectors: &'v Vectors, reports: &[(&Path, Value)]) -> Result<Run<'v>, String> {
    let (first_path, first) = reports.first().ok_or("no report to merge")?;
    let implementation = implementation_of(first).map_err(|e| format!("{}: {e}", first_path.display()))?;
    let mut common: Option<(Vec<String>, u64)> = None;
    let mut shards_seen = BTreeSet::new();
    let mut stopped = Vec::new();
    let mut official = vectors.is_official();
    let mut results: BTreeMap<String, CaseResult> = BTreeMap::new();
    for (path, report) in reports {
        let at = |e: String| format!("{}: {e}", path.display());
        if report["format"] != "rcip-rui-report/1" {
            return Err(at("not a conformance JSON report (format rcip-rui-report/1)".into()));
        }
        if report["suite"]["vectorsDigest"].as_str() != Some(vectors.digest.as_str()) {
            return Err(at(format!(
                "made from other vectors (digest {}), not the vector set loaded here ({})",
                report["suite"]["vectorsDigest"], vectors.digest
            )));
        }
        if report["suite"]["version"] != first["suite"]["version"] {
            return Err(at("made by another suite version than the first report".into()));
        }
        if report["implementation"] != first["implementation"] {
            return Err(at("reports another implementation than the first report".into()));
        }
        let scope = &report["scope"];
        official &= scope["official"] == Value::Bool(true);
        if let Some(why) = scope["stopped"].as_str() {
            stopped.push(format!("{}: {why}", path.display()));
        }
        let (rest, shard) = split_selection(&strings(&scope["selection"])).map_err(at)?;
        match &common {
            None => common = Some((rest.clone(), shard.count)),
            Some((options, count)) if *options == rest && *count == shard.count => {}
            Some(_) => return Err(at("its selection or shard count differs from the first report's".into())),
        }
        if !shards_seen.insert(shard.index) {
            return Err(at(format!("shard {shard} is given twice")));
        }
        for case in report["cases"].as_array().into_iter().flatten() {
            let result = result_of(case).map_err(at)?;
            if !shard.contains(&result.id) {
                return Err(at(format!("case {} does not belong to shard {shard}", result.id)));
            }
            if results.insert(result.id.clone(), result).is_some() {
                return Err(at(format!("a case is reported twice: {}", case["id"])));
            }
        }
    }
    let (options, count) = common.ok_or("no report to merge")?;
    let missing: Vec<String> = (1..=count).filter(|k| !shards_seen.contains(k)).map(|k| format!("{k}/{count}")).collect();
    if !missing.is_empty() {
        return Err(format!("shard(s) {} missing", missing.join(", ")));
    }
    let selection = selection_of(&options)?;
    let selected = selection.apply(&vectors.cases);
    let mut joined = Vec::with_capacity(selected.len());
    for case in selected {
        let result = results
            .remove(&case.id)
            .ok_or_else(|| format!("case {} was selected but no shard reports it", case.id))?;
        joined.push((case, result));
    }
    if let Some(extra) = results.keys().next() {
        return Err(format!("case {extra} is reported but is not in the selection"));
    }
    let scope = Scope {
        official,
        selection: options,
        stopped: (!stopped.is_empty()).then(|| stopped.join("; ")),
    };
    Ok(Run { vectors, implementation, results: joined, scope })
}

/// The run one JSON report (of a whole run or of one shard) records, over `vectors`: the report
/// must name this vector set by digest, and its cases must be exactly its selection.
pub fn single<'v>(vectors: &'v Vectors, path: &Path, report: &Value) -> Result<Run<'v>, String> {
    let at = |e: String| format!("{}: {e}", path.display());
    if report["format"] != "rcip-rui-report/1" {
        return Err(at("not a conformance JSON report (format rcip-rui-report/1)".into()));
    }
    if report["suite"]["vectorsDigest"].as_str() != Some(vectors.digest.as_str()) {
        return Err(at(format!(
            "made from other vectors (digest {}), not the vector set loaded here ({}); give that set with --vectors DIR",
            report["suite"]["vectorsDigest"], vectors.digest
        )));
    }
    let implementation = implementation_of(report).map_err(at)?;
    let scope = &report["scope"];
    let options = strings(&scope["selection"]);
    let (rest, shard) = if options.iter().any(|o| o.starts_with("--shard ")) {
        let (rest, shard) = split_selection(&options).map_err(at)?;
        (rest, Some(shard))
    } else {
        (options.clone(), None)
    };
    let mut selection = selection_of(&rest).map_err(at)?;
    selection.shard = shard;
    let mut results: BTreeMap<String, CaseResult> = BTreeMap::new();
    for case in report["cases"].as_array().into_iter().flatten() {
        let result = result_of(case).map_err(at)?;
        if results.insert(result.id.clone(), result).is_some() {
            return Err(at(format!("a case is reported twice: {}", case["id"])));
        }
    }
    let mut joined = Vec::new();
    for case in selection.apply(&vectors.cases) {
        let result = results
            .remove(&case.id)
            .ok_or_else(|| at(format!("case {} was selected but the report does not have it", case.id)))?;
        joined.push((case, result));
    }
    if let Some(extra) = results.keys().next() {
        return Err(at(format!("case {extra} is reported but is not in the selection")));
    }
    let scope = Scope {
        official: vectors.is_official() && scope["official"] == Value::Bool(true),
        selection: options,
        stopped: scope["stopped"].as_str().map(str::to_string),
    };
    Ok(Run { vectors, implementation, results: joined, scope })
}
