//! The fault matrix of `conformance fuzz` (issue 18 §1): for every fault of the reference's
//! catalog (`reference::choices::FAULTS`), fuzz the reference with that fault injected at the
//! default budget and print fault -> found (seed, cases to the first failure, shrunk path length,
//! shrink runs). The small-budget version that runs in `cargo test` is `tests/fuzz_faults.rs`.
//!
//! `cargo run -p harness --release --example fuzz_matrix` (in-process reference);
//! `-- --stdio DRIVER` runs each fault through `DRIVER --fault NAME` over the driver protocol;
//! `-- --cases N` and `-- --seed S` change the budget and the seed.

use std::time::{Duration, Instant};

use harness::adapter::Adapter;
use harness::adapters::process::ProcessAdapter;
use harness::adapters::reference::ReferenceAdapter;
use harness::fuzz::finding::path_length;
use harness::fuzz::{fuzz, Settings};
use reference::choices::{Choices, FAULTS};

fn main() {
    let mut settings = Settings::default();
    let mut driver: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--cases" => settings.cases = value.parse().expect("--cases N"),
            "--seed" => settings.seed = u64::from_str_radix(value.trim_start_matches("0x"), 16).expect("--seed HEX"),
            "--stdio" => driver = Some(value),
            other => panic!("unknown option {other}"),
        }
    }
    println!("fault matrix: seed {:#x}, budget {} cases, models all", settings.seed, settings.cases);
    println!("{:<36} {:<6} {:>9} {:>9} {:>7} {:>7}  breaks", "fault", "found", "case", "path", "shrunk", "runs");
    let mut found = 0;
    for row in FAULTS {
        let mut adapter: Box<dyn Adapter> = match &driver {
            Some(exe) => Box::new(
                ProcessAdapter::launch(vec![exe.clone(), "--fault".into(), row.name.into()], Duration::from_secs(10))
                    .expect("the driver starts"),
            ),
            None => Box::new(ReferenceAdapter::with_choices(Choices::default().with_fault(row.fault))),
        };
        let started = Instant::now();
        let outcome = fuzz(&settings, adapter.as_mut(), &mut |_, _, _| {}).expect("fuzz runs");
        let seconds = started.elapsed().as_secs_f64();
        match &outcome.finding {
            Some(finding) => {
                found += 1;
                println!(
                    "{:<36} {:<6} {:>9} {:>9} {:>7} {:>7}  {} ({:.1} s)",
                    row.name,
                    finding.target.name(),
                    finding.case_number,
                    path_length(&finding.original_case),
                    path_length(&finding.shrunk.case),
                    finding.shrunk.runs,
                    finding.broken_requirements().join(","),
                    seconds
                );
            }
            None => println!("{:<36} {:<6} {:>9} {:>9} {:>7} {:>7}  ({:.1} s)", row.name, "-", outcome.cases, "", "", "", seconds),
        }
    }
    println!("{found} of {} faults found", FAULTS.len());
}
