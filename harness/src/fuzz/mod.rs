//! `conformance fuzz` (issue 18 §1): model-based fuzzing of any implementation. Random paths of
//! the stateright models (invocation and confirmation, Assist, Rixx UI transaction) become cases
//! of the vector format (`draw`), run through the `Adapter` trait (the driver protocol, or the
//! in-process reference) and are judged by the runner like any vector: every outcome the model
//! allows at each point is accepted, with the strictness of the requirement behind it, so only a
//! `fail` (a REQUIRED check, or an IMPL-DEFINED one outside every allowed alternative) or an
//! `errored` case is a disagreement; `non-strict` (RECOMMENDED) is counted, never a failure.
//!
//! The first disagreement stops the draw; `shrink` minimises its choices against the live
//! implementation and `finding` writes the minimal case as a vector file.
//!
//! Determinism: case `n` is a function of the seed and `n` only; models take turns in the order
//! given; nothing reads a clock to decide an outcome. `--budget-seconds` is a stop condition
//! only: with a budget the number of cases run depends on the machine (it is printed), but case
//! `n` is always the same case.

pub mod draw;
pub mod finding;
pub mod shrink;

use std::collections::VecDeque;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::adapter::{Adapter, Protocol};
use crate::loader::{Case, CaseParts};
use crate::runner::{prepare, CaseResult, Prepared};
use crate::session::guarded;
use crate::verdict::Verdict;

pub use draw::Target;
pub use finding::Finding;

/// The seed when `--seed` is not given.
pub const DEFAULT_SEED: u64 = 0x5eed_0018;
/// Cases drawn when `--cases` is not given (the default budget of the fault matrix).
pub const DEFAULT_CASES: u64 = 10_000;
/// Implementation runs the shrinker may spend on one disagreement.
pub const DEFAULT_SHRINK_RUNS: u32 = 2000;

/// What to draw and when to stop.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The models, taking turns in this order (case `n` is drawn from `targets[n % len]`).
    pub targets: Vec<Target>,
    pub seed: u64,
    /// Cases to run (a drawn path that translates to nothing is drawn again, not counted).
    pub cases: u64,
    /// Model actions per path; `None`: each model's `default_max_steps`.
    pub max_steps: Option<usize>,
    /// Stop drawing after this long (a stop condition, never part of a verdict).
    pub budget: Option<Duration>,
    pub shrink_runs: u32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            targets: Target::ALL.to_vec(),
            seed: DEFAULT_SEED,
            cases: DEFAULT_CASES,
            max_steps: None,
            budget: None,
            shrink_runs: DEFAULT_SHRINK_RUNS,
        }
    }
}

impl Settings {
    pub fn max_steps(&self, target: Target) -> usize {
        self.max_steps.unwrap_or_else(|| target.default_max_steps())
    }
}

/// Verdict counts of one model.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    pub pass: u64,
    pub non_strict: u64,
    pub unsupported: u64,
    /// The first reason a case of this model was unsupported.
    pub unsupported_reason: Option<String>,
}

impl Tally {
    pub fn judged(&self) -> u64 {
        self.pass + self.non_strict
    }
}

/// What a fuzz run found.
#[derive(Debug)]
pub struct Outcome {
    /// Cases run (the disagreeing one included).
    pub cases: u64,
    /// Counts per model, in `Settings::targets` order.
    pub tallies: Vec<(Target, Tally)>,
    /// Whether `--budget-seconds` stopped the draw before `--cases`.
    pub budget_stopped: bool,
    pub finding: Option<Finding>,
}

/// The harness's form of a translated case (what the loader would make of it).
pub fn loaded(case: &suites::case::Case) -> Result<Case, String> {
    loaded_from(case, "fuzz")
}

/// [`loaded`], naming `file` as where the case came from (the differential tests use it too).
pub fn loaded_from(case: &suites::case::Case, file: &str) -> Result<Case, String> {
    parts_of(case.clone(), file).map(Case::from)
}

fn parts_of(case: suites::case::Case, file: &str) -> Result<CaseParts, String> {
    let protocol = Protocol::from_case_id(&case.id).ok_or_else(|| format!("{}: no protocol prefix", case.id))?;
    Ok(CaseParts {
        section: section_of(&case.id),
        id: case.id,
        protocol,
        file: PathBuf::from(file),
        description: case.description,
        requirements: case.requirements,
        strictness: case.strictness.as_str().to_string(),
        profiles: case.profiles,
        setup: case.setup,
        steps: case.steps,
        notes: case.notes,
    })
}

/// The section id of a case id: everything before its last two segments (`<slug>.<serial>`).
pub fn section_of(id: &str) -> String {
    let parts: Vec<&str> = id.split('.').collect();
    parts[..parts.len().saturating_sub(2).max(1)].join(".")
}

/// Runs one translated case on the adapter (a panic inside the adapter is `errored`). The case
/// keeps its steps parsed ([`Case::parsed`]): it runs once, right away.
pub fn judge(adapter: &mut dyn Adapter, case: &suites::case::Case) -> Result<CaseResult, String> {
    judge_drawn(adapter, case.clone())
}

/// [`judge`], consuming the case: a drawn case's steps move into the run instead of being copied.
fn judge_drawn(adapter: &mut dyn Adapter, case: suites::case::Case) -> Result<CaseResult, String> {
    let case = Case::parsed(parts_of(case, "fuzz")?);
    let prepared = prepare(adapter, &case);
    Ok(guarded(adapter, &case, prepared, false))
}

/// A drawn case made ready to run, and announced when the adapter sends cases ahead.
struct Drawn {
    slot: usize,
    choices: Vec<u32>,
    case: Case,
    prepared: Prepared,
}

/// A verdict that makes the case a disagreement: what fails a conformance run.
pub fn disagrees(verdict: Verdict) -> bool {
    verdict.is_failure()
}

/// Draws and runs cases until `settings.cases` ran, the budget is spent, or one disagrees (then
/// shrunk). `on_case` sees every case run: its number (1-based), model and verdict.
pub fn fuzz(
    settings: &Settings,
    adapter: &mut dyn Adapter,
    on_case: &mut dyn FnMut(u64, Target, &CaseResult),
) -> Result<Outcome, String> {
    if settings.targets.is_empty() {
        return Err("no model selected".into());
    }
    let started = Instant::now();
    let mut tallies: Vec<(Target, Tally)> = settings.targets.iter().map(|t| (*t, Tally::default())).collect();
    let mut outcome = Outcome { cases: 0, tallies: Vec::new(), budget_stopped: false, finding: None };
    // Draw indices run on past empty paths; the guard stops a configuration that draws nothing.
    let mut draw: u64 = 0;
    let mut drawn: u64 = 0;
    let mut empty_in_a_row = 0u32;
    // An adapter that sends whole cases ahead gets the next drawn cases announced while it runs
    // this one; the draws are the same, in the same order, as one at a time.
    let mut ahead: VecDeque<Drawn> = VecDeque::new();
    let window = if adapter.sends_cases_ahead() { crate::session::CASES_AHEAD } else { 1 };
    while outcome.cases < settings.cases {
        if settings.budget.is_some_and(|budget| started.elapsed() >= budget) {
            outcome.budget_stopped = true;
            break;
        }
        let top_up = crate::session::time_to_top_up(ahead.len(), window);
        while top_up && drawn < settings.cases && ahead.len() < window && ahead.back().is_none_or(|d| d.prepared.announced_whole()) {
            let slot = (draw % settings.targets.len() as u64) as usize;
            let target = settings.targets[slot];
            let choices = draw::choices(target, settings.seed, draw, settings.max_steps(target));
            draw += 1;
            let Some(case) = target.translate(&choices) else {
                empty_in_a_row += 1;
                if empty_in_a_row > 10_000 {
                    return Err(format!("{target}: 10,000 draws in a row gave an empty path (--max-steps too small?)"));
                }
                continue;
            };
            empty_in_a_row = 0;
            drawn += 1;
            let case = Case::parsed(parts_of(case, "fuzz")?);
            let mut prepared = prepare(adapter, &case);
            if window > 1 {
                prepared.announce(adapter, &case);
            }
            ahead.push_back(Drawn { slot, choices, case, prepared });
        }
        let Some(Drawn { slot, choices, case, prepared }) = ahead.pop_front() else { break };
        let target = settings.targets[slot];
        outcome.cases += 1;
        let result = guarded(adapter, &case, prepared, false);
        on_case(outcome.cases, target, &result);
        let tally = &mut tallies[slot].1;
        match result.verdict {
            Verdict::Pass => tally.pass += 1,
            Verdict::NonStrict => tally.non_strict += 1,
            Verdict::Unsupported | Verdict::Skip => {
                tally.unsupported += 1;
                if tally.unsupported_reason.is_none() {
                    tally.unsupported_reason = result.reason.clone();
                }
            }
            Verdict::Fail | Verdict::Errored | Verdict::Xfail => {
                // The cases drawn after it are not run: the campaign stops here.
                adapter.withdraw_ahead();
                // The run consumed the drawn case; a path translates to the same case every
                // time, so translating it again gives it back for the finding.
                let case = target
                    .translate(&choices)
                    .ok_or_else(|| format!("{target}: a path that translated once translated to nothing"))?;
                let shrunk = shrink::shrink(adapter, target, &choices, &case, &result, settings.shrink_runs)?;
                outcome.finding = Some(Finding {
                    target,
                    seed: settings.seed,
                    case_number: outcome.cases,
                    original: choices,
                    original_case: case,
                    original_result: result,
                    shrunk,
                });
                break;
            }
        }
    }
    if !ahead.is_empty() {
        adapter.withdraw_ahead();
    }
    outcome.tallies = tallies;
    Ok(outcome)
}
