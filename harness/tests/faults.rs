//! The fault catalog against the vectors (issue 13 §1): the reference with each injected fault of
//! `reference::choices::FAULTS` runs every case in-process, and the suite must fail at least one
//! case for each fault (a `fail` verdict: a REQUIRED, IMPL-DEFINED-outside-every-alternative or
//! PROFILE check differed; RECOMMENDED differences are only `non-strict`). A fault no case
//! catches means a vector is missing: it is written from the fault's sentence, never from the
//! fault. The test prints the matrix fault -> failing case ids. Also: the alternate reference
//! (`Choices::alternate`, issue 12 §3) fails nothing and errors nothing, every requirement id
//! a fault or a choice cites exists in the register, and the register's `choices` links and the
//! choices table name each other (issue 26 §2).

use std::collections::BTreeSet;

use harness::adapters::reference::ReferenceAdapter;
use harness::loader::{Case, Vectors};
use harness::runner::{run_case, unsupported_reason};
use harness::verdict::Verdict;
use reference::choices::{Choices, FAULTS, TABLE};
use serde_json::Value;

fn cases() -> Vec<Case> {
    let vectors = Vectors::load(&harness::bundled_vectors()).expect("the bundled vectors load");
    assert!(vectors.errors.is_empty(), "load errors: {:?}", vectors.errors.iter().map(|e| e.to_string()).collect::<Vec<_>>());
    vectors.cases
}

/// Runs every case the reference supports under `choices`; returns (failing ids, errored ids).
fn run_all(cases: &[Case], choices: &Choices) -> (Vec<String>, Vec<String>) {
    let probe = ReferenceAdapter::with_choices(choices.clone());
    let mut failing = Vec::new();
    let mut errored = Vec::new();
    for case in cases {
        if unsupported_reason(&probe, case).is_some() {
            continue;
        }
        let mut adapter = ReferenceAdapter::with_choices(choices.clone());
        let result = run_case(&mut adapter, case);
        match result.verdict {
            Verdict::Fail => failing.push(case.id.clone()),
            Verdict::Errored => errored.push(format!("{}: {}", case.id, result.reason.unwrap_or_default())),
            _ => {}
        }
    }
    (failing, errored)
}

#[test]
fn every_fault_of_the_catalog_fails_at_least_one_case() {
    let cases = cases();
    let mut uncaught = Vec::new();
    let mut matrix = String::from("fault -> failing cases\n");
    for row in FAULTS {
        let (failing, errored) = run_all(&cases, &Choices::default().with_fault(row.fault));
        assert!(errored.is_empty(), "fault {} made the reference error: {errored:?}", row.name);
        let shown: Vec<&str> = failing.iter().take(4).map(String::as_str).collect();
        let more = failing.len().saturating_sub(shown.len());
        matrix.push_str(&format!("{:<36} {:>4}  {}{}\n", row.name, failing.len(), shown.join(" "), if more > 0 { format!(" (+{more})") } else { String::new() }));
        if failing.is_empty() {
            uncaught.push(row.name);
        }
    }
    println!("{matrix}");
    assert!(uncaught.is_empty(), "faults no case catches: {uncaught:?}\n{matrix}");
}

#[test]
fn the_alternate_reference_fails_nothing() {
    let (failing, errored) = run_all(&cases(), &Choices::alternate());
    assert!(errored.is_empty(), "{errored:?}");
    assert!(failing.is_empty(), "cases pinning a choice the texts leave open: {failing:?}");
}

#[test]
fn every_choice_and_fault_cites_registered_requirements() {
    let text = std::fs::read_to_string(harness::bundled_vectors().join("requirements.json")).expect("the register");
    let register: Value = serde_json::from_str(&text).expect("JSON");
    let ids: BTreeSet<&str> = register["requirements"]
        .as_array()
        .expect("requirements")
        .iter()
        .filter_map(|r| r["id"].as_str())
        .collect();
    let cited = TABLE.iter().flat_map(|r| r.requirements.iter()).chain(FAULTS.iter().flat_map(|r| r.requirements.iter()));
    let unknown: Vec<&&str> = cited.filter(|id| !ids.contains(**id)).collect();
    assert!(unknown.is_empty(), "unregistered ids: {unknown:?}");
}

/// Every open point is data, both ways (issue 26 §2): each row of the choices table is named in
/// `choices` by every register entry it cites that is an open point (IMPL-DEFINED or
/// RECOMMENDED) and by at least one entry; each row an entry names exists and cites that entry.
#[test]
fn the_register_and_the_choices_table_name_each_other() {
    let text = std::fs::read_to_string(harness::bundled_vectors().join("requirements.json")).expect("the register");
    let register: Value = serde_json::from_str(&text).expect("JSON");
    let entries = register["requirements"].as_array().expect("requirements");
    let named = |entry: &Value, row: &str| entry["choices"].as_array().is_some_and(|names| names.iter().any(|n| n == row));
    let mut problems = Vec::new();
    for row in TABLE {
        let citing: Vec<&Value> = entries.iter().filter(|e| row.requirements.contains(&e["id"].as_str().unwrap_or(""))).collect();
        if !citing.iter().any(|e| named(e, row.name)) {
            problems.push(format!("row {} is named by none of the entries it cites {:?}", row.name, row.requirements));
        }
        for entry in &citing {
            let open = matches!(entry["strictness"].as_str(), Some("IMPL-DEFINED" | "RECOMMENDED"));
            if open && !named(entry, row.name) {
                problems.push(format!("row {} cites open point {} whose choices do not name it", row.name, entry["id"]));
            }
        }
    }
    for entry in entries {
        for name in entry["choices"].as_array().into_iter().flatten().filter_map(Value::as_str) {
            match TABLE.iter().find(|row| row.name == name) {
                None => problems.push(format!("{} names unknown choice row {name}", entry["id"])),
                Some(row) if !row.requirements.contains(&entry["id"].as_str().unwrap_or("")) => {
                    problems.push(format!("{} names row {name}, which does not cite it", entry["id"]))
                }
                Some(_) => {}
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
