//! Every vector gets the same verdict through the stdio reference driver (process adapter,
//! driver protocol) as in-process: the driver protocol loses nothing the vectors observe.

use std::time::Duration;

use harness::adapters::process::ProcessAdapter;
use harness::adapters::reference::ReferenceAdapter;
use harness::loader::Vectors;
use harness::runner::run_case;

#[test]
fn every_case_has_the_same_verdict_in_process_and_over_stdio() {
    let vectors = Vectors::load(&harness::bundled_vectors()).expect("vectors load");
    let mut in_process = ReferenceAdapter::new();
    let mut over_stdio = ProcessAdapter::launch(
        vec![env!("CARGO_BIN_EXE_reference-driver").to_string()],
        Duration::from_secs(30),
    )
    .expect("reference driver starts");
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
