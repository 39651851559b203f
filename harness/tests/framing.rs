//! Framing-neutral Rixx UI cases (issue 15): an implementation that declares only one framing
//! still runs the transaction, invariant, revision, recovery, limit and action rules. The bundled
//! reference, restricted to one declared framing at a time, runs at least 300 Rixx UI cases in
//! each and passes them; a case's differences name the framing they were seen in.

use harness::adapter::{Adapter, AdapterError, Implementation, Protocol, Reply};
use harness::adapters::reference::ReferenceAdapter;
use harness::loader::Vectors;
use harness::runner::run_case;
use harness::verdict::Verdict;
use serde_json::Value;

/// The reference, declaring only `framing` among the four framings.
struct OneFraming {
    inner: ReferenceAdapter,
    implementation: Implementation,
}

impl OneFraming {
    fn new(framing: &str) -> OneFraming {
        let inner = ReferenceAdapter::new();
        let mut implementation = inner.implementation().clone();
        implementation
            .profiles
            .retain(|p| !harness::framing::FRAMINGS.contains(&p.as_str()) || p == framing);
        OneFraming { inner, implementation }
    }
}

impl Adapter for OneFraming {
    fn implementation(&self) -> &Implementation {
        &self.implementation
    }
    fn start(&mut self, case: &str, protocol: Protocol, setup: &Value) -> Result<Reply, AdapterError> {
        self.inner.start(case, protocol, setup)
    }
    fn step(&mut self, step: &Value) -> Result<Reply, AdapterError> {
        self.inner.step(step)
    }
    fn finish(&mut self) {
        self.inner.finish()
    }
}

#[test]
fn an_implementation_of_one_framing_runs_at_least_300_rixx_ui_cases() {
    let vectors = Vectors::load(&harness::bundled_vectors()).expect("the bundled vectors load");
    let rui: Vec<_> = vectors.cases.iter().filter(|c| c.protocol == Protocol::Rui).collect();
    let neutral = rui.iter().filter(|c| harness::framing::is_neutral(c)).count();
    println!("{neutral} of {} Rixx UI cases are framing-neutral", rui.len());
    for framing in harness::framing::FRAMINGS {
        let mut adapter = OneFraming::new(framing);
        let mut ran = 0;
        let mut not_passed = Vec::new();
        for case in &rui {
            let result = run_case(&mut adapter, case);
            match result.verdict {
                Verdict::Unsupported => {}
                Verdict::Pass => ran += 1,
                other => not_passed.push(format!("{} {other}", case.id)),
            }
        }
        println!("declaring only {framing}: {ran} Rixx UI cases run and pass");
        assert!(not_passed.is_empty(), "{framing}: {not_passed:?}");
        assert!(ran >= 300, "declaring only {framing}, only {ran} Rixx UI cases run");
    }
}
