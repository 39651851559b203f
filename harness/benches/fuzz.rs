//! Fuzzing throughput (issue 18 §3): model paths per second that `conformance fuzz` draws,
//! translates, runs and judges, through stdio against the reference driver (goal: at least 2,000
//! paths of 10 steps per second on the 2-core project machine), and in-process for comparison.
//! Each iteration is one batch of paths of at most 10 model actions (`--max-steps 10`), all three
//! models taking turns, so criterion's throughput line reads in paths per second. The machine is
//! shared: figures vary with whatever else runs.
//!
//! Needs the release driver: `cargo build --release -p harness --bin reference-driver`, then
//! `cargo bench -p harness --bench fuzz` (or point `REFERENCE_DRIVER` at another build).

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use harness::adapter::Adapter;
use harness::adapters::process::ProcessAdapter;
use harness::adapters::reference::ReferenceAdapter;
use harness::fuzz::{fuzz, Settings};

/// Paths per iteration.
const BATCH: u64 = 200;

fn driver() -> ProcessAdapter {
    let exe = std::env::var("REFERENCE_DRIVER")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../target/release/reference-driver").to_string());
    ProcessAdapter::launch(vec![exe], Duration::from_secs(30)).expect("build it first: cargo build --release -p harness --bin reference-driver")
}

fn batch(adapter: &mut dyn Adapter, seed: u64) -> u64 {
    let settings = Settings { seed, cases: BATCH, max_steps: Some(10), ..Settings::default() };
    let outcome = fuzz(&settings, adapter, &mut |_, _, _| {}).expect("fuzz runs");
    assert!(outcome.finding.is_none(), "the reference disagreed with the model");
    outcome.cases
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("fuzz-paths");
    group.throughput(Throughput::Elements(BATCH));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    let mut seed = 0u64;
    let mut stdio = driver();
    group.bench_function("stdio", |b| {
        b.iter(|| {
            seed += 1;
            batch(&mut stdio, seed)
        })
    });
    let mut reference = ReferenceAdapter::new();
    group.bench_function("in-process", |b| {
        b.iter(|| {
            seed += 1;
            batch(&mut reference, seed)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
