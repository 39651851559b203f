//! Every vector gets the same verdict through the stdio reference driver (process adapter,
//! driver protocol) as in-process: the driver protocol loses nothing the vectors observe. And
//! pipelining (`harness/driver/README.md`, "Pipelining", issue 29 §1) changes nothing a run
//! writes: the whole suite (the default reference, the alternate one, and one with a fault of the
//! catalog, so that failures with their differences are compared too) gives byte-identical JSON,
//! JUnit and Markdown reports, console output and traces with and without it, and so does a fuzz
//! campaign that finds a disagreement and shrinks it.

use std::time::Duration;

use harness::adapter::Adapter;
use harness::adapters::process::{Pipelining, ProcessAdapter};
use harness::adapters::reference::ReferenceAdapter;
use harness::fuzz::{fuzz, Settings, Target};
use harness::loader::Vectors;
use harness::report::{Run, Scope};
use harness::runner::{run_case, run_case_recorded};

fn driver(args: &[&str], pipelining: Pipelining) -> ProcessAdapter {
    let mut argv = vec![env!("CARGO_BIN_EXE_reference-driver").to_string()];
    argv.extend(args.iter().map(|a| a.to_string()));
    let adapter = ProcessAdapter::launch_with(argv, Duration::from_secs(30), None, pipelining).expect("reference driver starts");
    // Otherwise both runs below would be step by step and the comparison empty.
    assert_eq!(adapter.pipelining(), pipelining == Pipelining::IfDeclared, "the reference driver declares pipelining");
    adapter
}

#[test]
fn every_case_has_the_same_verdict_in_process_and_over_stdio() {
    let vectors = Vectors::load(&harness::bundled_vectors()).expect("vectors load");
    let mut in_process = ReferenceAdapter::new();
    let mut over_stdio = driver(&[], Pipelining::IfDeclared);
    let mut differing = Vec::new();
    for case in &vectors.cases {
        let direct = run_case(&mut in_process, case);
        let piped = run_case(&mut over_stdio, case);
        if direct.verdict != piped.verdict || direct.differences.len() != piped.differences.len() {
            differing.push(format!("{}: in-process {} / stdio {} {:?}", case.id, direct.verdict, piped.verdict, piped.reason));
        }
    }
    assert!(differing.is_empty(), "{} case(s) differ:\n{}", differing.len(), differing.join("\n"));
}

/// Everything a run writes: the JSON, JUnit and Markdown reports, each case's console text and
/// its trace.
fn everything_written(vectors: &Vectors, adapter: &mut ProcessAdapter) -> Vec<(String, String)> {
    let results: Vec<_> = vectors.cases.iter().map(|case| (case, run_case_recorded(adapter, case, true))).collect();
    let mut written: Vec<(String, String)> = results
        .iter()
        .map(|(case, result)| (case.id.clone(), format!("{}\n{}", harness::console::render_case(result), result.trace)))
        .collect();
    let run = Run { vectors, implementation: adapter.implementation().clone(), results, scope: Scope::complete_official() };
    written.push(("report.json".into(), run.to_json().to_string()));
    written.push(("junit.xml".into(), harness::junit::render(&run).expect("junit renders")));
    written.push(("certification.md".into(), harness::certification::render(&run)));
    written
}

#[test]
fn pipelined_runs_write_byte_identical_reports_and_traces() {
    let vectors = Vectors::load(&harness::bundled_vectors()).expect("vectors load");
    let mut differing = Vec::new();
    let mut failures_compared = 0;
    for args in [&[][..], &["--choices", "alternate"], &["--fault", "binding-recheck-skipped"]] {
        let step_by_step = everything_written(&vectors, &mut driver(args, Pipelining::Off));
        let pipelined = everything_written(&vectors, &mut driver(args, Pipelining::IfDeclared));
        assert_eq!(step_by_step.len(), pipelined.len());
        failures_compared += step_by_step.iter().filter(|(_, text)| text.contains(" fail\n")).count();
        for ((name, one), (_, other)) in step_by_step.iter().zip(&pipelined) {
            if one != other {
                differing.push(format!("reference-driver {args:?}: {name}:\n--- one request at a time\n{one}\n--- pipelined\n{other}"));
            }
        }
    }
    assert!(failures_compared > 0, "the faulty reference failed no case: the comparison saw no difference output");
    assert!(differing.is_empty(), "{} output(s) differ:\n{}", differing.len(), differing.join("\n"));
}

/// The verdict, reason and check count of every case a campaign ran, then its finding.
fn campaign(adapter: &mut ProcessAdapter, settings: &Settings) -> String {
    let mut seen = String::new();
    let outcome = fuzz(settings, adapter, &mut |n, target, result| {
        seen.push_str(&format!("{n} {target} {} {:?} {}\n", result.verdict, result.reason, result.checks));
    })
    .expect("fuzz runs");
    let finding = outcome.finding.as_ref().map(|f| f.vector_file("reference-driver", "fuzz").to_string()).unwrap_or_default();
    format!("{seen}{:?}\n{finding}", outcome.tallies)
}

#[test]
fn a_pipelined_fuzz_campaign_finds_and_shrinks_exactly_what_a_step_by_step_one_does() {
    let settings = Settings { seed: 29, cases: 400, max_steps: Some(10), ..Settings::default() };
    let clean = [campaign(&mut driver(&[], Pipelining::Off), &settings), campaign(&mut driver(&[], Pipelining::IfDeclared), &settings)];
    assert!(clean[0].lines().count() > 400, "every case listed");
    assert_eq!(clean[0], clean[1]);
    // A fault the invocation model finds within 250 cases (tests/fuzz_faults.rs): the first
    // disagreement is shrunk against the driver, through the same pipelined requests.
    let settings = Settings { targets: vec![Target::Invocation], cases: 250, shrink_runs: 300, ..Settings::default() };
    let fault = ["--fault", "approval-ignores-availability"];
    let faulty = [campaign(&mut driver(&fault, Pipelining::Off), &settings), campaign(&mut driver(&fault, Pipelining::IfDeclared), &settings)];
    assert!(faulty[0].contains("\"cases\""), "the faulty driver was found and shrunk to a vector file:\n{}", faulty[0]);
    assert_eq!(faulty[0], faulty[1]);
}
