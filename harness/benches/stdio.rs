//! Per-step overhead of the driver protocol (issue 6, "Quality bar"): the same work in-process and
//! through the stdio reference driver. `step` repeats one observation step inside a started case,
//! so the difference between the two is the cost of one request/response over the pipes; `suite`
//! runs every case, so the ratio stdio / in-process of the whole run can be read off directly
//! (vector loading, common to both, is outside the measurement).
//!
//! Needs the release driver: `cargo build --release -p harness --bin reference-driver`, then
//! `cargo bench -p harness --bench stdio` (or point `REFERENCE_DRIVER` at another build).

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use harness::adapter::{Adapter, Protocol};
use harness::adapters::process::ProcessAdapter;
use harness::adapters::reference::ReferenceAdapter;
use harness::loader::{Case, Vectors};
use harness::runner::{request_of, run_case};

fn driver() -> ProcessAdapter {
    let exe = std::env::var("REFERENCE_DRIVER")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../target/release/reference-driver").to_string());
    ProcessAdapter::launch(vec![exe], Duration::from_secs(30)).expect("build it first: cargo build --release -p harness --bin reference-driver")
}

fn run_all(adapter: &mut dyn Adapter, cases: &[&Case]) -> usize {
    cases.iter().map(|c| run_case(adapter, c).checks).sum()
}

/// Starts `case` and runs its steps up to (not including) its first `expect` step, which is
/// returned as the request to repeat: observing changes nothing, so every repetition is alike.
fn prepare(adapter: &mut dyn Adapter, case: &Case) -> serde_json::Value {
    let (setup, steps) = case.body();
    adapter.start(&case.id, Protocol::Rcip, &setup).expect("start");
    for step in &steps {
        let request = request_of(step);
        if step.get("expect").is_some() {
            return request;
        }
        adapter.step(&request).expect("step");
    }
    panic!("{} has no expect step", case.id)
}

fn bench(c: &mut Criterion) {
    let vectors = Vectors::load(&harness::bundled_vectors()).expect("vectors load");
    let all: Vec<&Case> = vectors.cases.iter().collect();
    let steps: usize = all.iter().map(|c| c.steps().len()).sum();
    eprintln!("{} cases, {} steps", all.len(), steps);
    let observed = vectors
        .cases
        .iter()
        .find(|c| c.id.starts_with("rcip.policy-race.") && c.steps().iter().any(|s| s.get("expect").is_some()))
        .expect("a policy-race case with an expectation");

    let mut group = c.benchmark_group("step");
    let mut reference = ReferenceAdapter::new();
    let request = prepare(&mut reference, observed);
    group.bench_function("in-process", |b| b.iter(|| reference.step(&request).expect("step")));
    reference.finish();
    let mut stdio = driver();
    let request = prepare(&mut stdio, observed);
    group.bench_function("stdio", |b| b.iter(|| stdio.step(&request).expect("step")));
    stdio.finish();
    group.finish();

    let mut group = c.benchmark_group("suite");
    group.sample_size(10);
    group.bench_function("in-process", |b| b.iter(|| run_all(&mut reference, &all)));
    group.bench_function("stdio", |b| b.iter(|| run_all(&mut stdio, &all)));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
