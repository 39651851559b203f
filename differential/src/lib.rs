//! Differential testing of the models against the reference (issue 5, "Differential testing"):
//! proptest draws a choice sequence, `model::visit::walk` turns it into a model path, the
//! model's translator in `suites::cases::from_model` turns the path into a case whose expectations
//! after every step are what the model's state allows, and the harness runs that case against the
//! in-process reference. Any verdict but `pass` is a disagreement.
//!
//! Replay: the RNG seed is fixed (`DIFFERENTIAL_SEED`, printed on every run) and proptest persists
//! failing seeds to `proptest-regressions/<model>.txt`. The shrunk choice sequence of a failure is
//! also appended to `suites/regressions/<model>.json`, which `regen` turns into a vector, so the
//! failure joins the shared corpus for every implementation. `DIFFERENTIAL_CASES` sets the number
//! of random paths (default: a few dozen per model, to keep `cargo test` fast).


use harness::adapters::reference::ReferenceAdapter;
use harness::runner::{run_case, CaseResult};
use harness::verdict::Verdict;
use proptest::collection::vec;
use proptest::prelude::any;
use proptest::test_runner::{Config, FileFailurePersistence, RngSeed, TestCaseError, TestError, TestRunner};
use suites::case::{Case, Section};
use suites::cases::from_model::{load_regressions, record_regression, regressions_dir, Regression};
use suites::vector_schema::VectorSchemas;

/// The seed when `DIFFERENTIAL_SEED` is unset: fixed, so every run of `cargo test` draws the same
/// paths.
pub const DEFAULT_SEED: u64 = 0x5eed_0005;

/// How many random paths and how long, from the environment.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub cases: u32,
    pub seed: u64,
    /// The most choices drawn per path (the first picks the initial state).
    pub max_choices: usize,
}

impl Settings {
    /// `DIFFERENTIAL_CASES` (default `default_cases`) and `DIFFERENTIAL_SEED` (default
    /// `DEFAULT_SEED`, decimal or 0x-hex). A malformed value is a panic naming the variable, not a
    /// silent default.
    pub fn from_env(default_cases: u32, max_choices: usize) -> Settings {
        let cases = match std::env::var("DIFFERENTIAL_CASES") {
            Ok(text) => text.trim().parse().unwrap_or_else(|_| panic!("DIFFERENTIAL_CASES={text:?} is not a number")),
            Err(_) => default_cases,
        };
        let seed = match std::env::var("DIFFERENTIAL_SEED") {
            Ok(text) => parse_seed(&text).unwrap_or_else(|| panic!("DIFFERENTIAL_SEED={text:?} is not a number")),
            Err(_) => DEFAULT_SEED,
        };
        Settings { cases, seed, max_choices }
    }
}

fn parse_seed(text: &str) -> Option<u64> {
    let text = text.trim();
    match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

/// The vector schemas, so every translated case is also checked against the format.
pub fn schemas() -> VectorSchemas {
    let dir = harness::bundled_vectors().join("schema");
    VectorSchemas::load(&dir).unwrap_or_else(|e| panic!("loading {}: {e}", dir.display()))
}

/// Runs one translated case against the in-process reference (after a schema check).
pub fn run_against_reference(schemas: &VectorSchemas, case: &Case) -> Result<CaseResult, String> {
    let section = Section::new(harness::fuzz::section_of(&case.id), "differential", "differential").case(case.clone());
    let problems = schemas.problems(&section);
    if !problems.is_empty() {
        return Err(format!("the translated case breaks the vector schema: {}", problems.join("; ")));
    }
    let loaded = harness::fuzz::loaded_from(case, "differential")?;
    let mut adapter = ReferenceAdapter::new();
    Ok(run_case(&mut adapter, &loaded))
}

fn describe(result: &CaseResult, case: &Case) -> String {
    let mut text = format!("verdict {:?}", result.verdict);
    if let Some(reason) = &result.reason {
        text.push_str(&format!(" ({reason})"));
    }
    for difference in &result.differences {
        text.push_str(&format!("\n  step {:?} {}", difference.step, difference.request));
        for mismatch in &difference.mismatches {
            text.push_str(&format!("\n    {mismatch:?}"));
        }
        if let Some(actual) = &difference.actual {
            text.push_str(&format!("\n    reference: {actual}"));
        }
    }
    text.push_str(&format!("\n  model path: {:?}", case.provenance.as_ref().map(|p| &p.path)));
    text
}

/// The differential property for one model: for `settings.cases` random choice sequences,
/// `translate` gives the case (or `None` when the path has nothing to compare) and the reference
/// must pass it. On a disagreement the shrunk choices are recorded in `suites/regressions/` and
/// the test panics with the seed, the choices, the differences and the vector.
pub fn check(model: &str, settings: Settings, translate: impl Fn(&[u32]) -> Option<Case>) {
    println!(
        "differential {model}: {} random paths, seed {:#x} (replay with DIFFERENTIAL_SEED={:#x})",
        settings.cases, settings.seed, settings.seed
    );
    let schemas = schemas();
    let persistence = format!("proptest-regressions/{model}.txt");
    let config = Config {
        cases: settings.cases,
        rng_seed: RngSeed::Fixed(settings.seed),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(Box::leak(persistence.into_boxed_str())))),
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let strategy = vec(any::<u32>(), 1..=settings.max_choices.max(1));
    let outcome = runner.run(&strategy, |choices| {
        let Some(case) = translate(&choices) else { return Ok(()) };
        let result = run_against_reference(&schemas, &case).map_err(TestCaseError::fail)?;
        if result.verdict == Verdict::Pass {
            Ok(())
        } else {
            Err(TestCaseError::fail(describe(&result, &case)))
        }
    });
    match outcome {
        Ok(()) => {}
        Err(TestError::Fail(reason, choices)) => {
            let regression = Regression { seed: format!("{:#x}", settings.seed), choices: choices.clone(), note: reason.to_string() };
            let recorded = match record_regression(&regressions_dir(), model, &regression) {
                Ok(true) => format!("recorded in suites/regressions/{model}.json; run `cargo run -p suites -- regen` to add it to vectors/"),
                Ok(false) => format!("already in suites/regressions/{model}.json"),
                Err(e) => format!("could not record it: {e}"),
            };
            let vector = translate(&choices).map(|c| serde_json::to_string_pretty(&c.to_json()).unwrap_or_default());
            panic!(
                "model and reference disagree ({model}, seed {:#x}).\nshrunk choices: {choices:?}\n{reason}\n{recorded}\nvector:\n{}",
                settings.seed,
                vector.unwrap_or_else(|| "(none)".into())
            );
        }
        Err(TestError::Abort(reason)) => panic!("differential {model} aborted: {reason}"),
    }
}

/// Replays every regression committed for `model` in `suites/regressions/<model>.json` through
/// `translate` and requires `pass` from the reference for each; panics naming the first that does
/// not (or that no longer translates). Returns how many were replayed.
pub fn replay_regressions(model: &str, translate: impl Fn(&[u32]) -> Option<Case>) -> usize {
    let schemas = schemas();
    let regressions = load_regressions(&regressions_dir(), model).unwrap_or_else(|e| panic!("{e}"));
    for regression in &regressions {
        let case = translate(&regression.choices)
            .unwrap_or_else(|| panic!("{model} regression {:?} no longer translates", regression.choices));
        let result = run_against_reference(&schemas, &case).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            result.verdict,
            Verdict::Pass,
            "{model} regression {:?} (seed {}): {}",
            regression.choices,
            regression.seed,
            describe(&result, &case)
        );
    }
    regressions.len()
}
