//! Per-step overhead of the driver protocol: the same cases run in-process and through the stdio
//! reference driver. Reports time per case for a small RCIP and a small Rixx UI selection, and
//! for the whole suite, so the ratio stdio / in-process can be read off directly.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use harness::adapter::Adapter;
use harness::adapters::process::ProcessAdapter;
use harness::adapters::reference::ReferenceAdapter;
use harness::loader::{Case, Vectors};
use harness::runner::run_case;

fn driver() -> ProcessAdapter {
    let exe = std::env::var("REFERENCE_DRIVER")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../target/release/reference-driver").to_string());
    ProcessAdapter::launch(vec![exe], Duration::from_secs(30)).expect("build it first: cargo build --release -p harness --bin reference-driver")
}

fn run_all(adapter: &mut dyn Adapter, cases: &[&Case]) -> usize {
    cases.iter().map(|c| run_case(adapter, c).checks).sum()
}

fn bench(c: &mut Criterion) {
    let vectors = Vectors::load(&harness::bundled_vectors()).expect("vectors load");
    let all: Vec<&Case> = vectors.cases.iter().collect();
    let steps: usize = all.iter().map(|c| c.steps.len()).sum();
    eprintln!("{} cases, {} steps", all.len(), steps);
    let mut group = c.benchmark_group("suite");
    group.sample_size(10);
    let mut reference = ReferenceAdapter::new();
    group.bench_function("in-process", |b| b.iter(|| run_all(&mut reference, &all)));
    let mut stdio = driver();
    group.bench_function("stdio", |b| b.iter(|| run_all(&mut stdio, &all)));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
