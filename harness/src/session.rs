//! Runs a selection of cases on one or more adapters in parallel (one adapter per job, each
//! built by the caller's factory) and returns the results in case order, whatever order they
//! finished in, so output and reports are deterministic.
//!
//! A circuit breaker (issue 14, section 2): after `max_timeouts` consecutive cases (in finishing
//! order, across jobs) errored because the adapter did not answer in time, no further case is
//! started; the cases not run are `errored` with the reason, and the session says it stopped, so a
//! hanging adapter costs minutes, not hours.
//!
//! An overall deadline (`run --max-run-seconds`, issue 28): once it has passed no further case is
//! started (the case in progress is cut by the process adapter, which holds the same deadline, and
//! is `errored`); the cases not run are `errored` with the reason and the count, as for the
//! circuit breaker, so an adapter that answers just under the step timeout costs the budget, not
//! hours.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::adapter::Adapter;
use crate::loader::Case;
use crate::runner::{prepare, run_prepared, CaseResult, Prepared};
use crate::verdict::Verdict;

/// How many cases a job announces ahead of the one it runs, to an adapter that sends whole cases
/// ahead (`Adapter::sends_cases_ahead`): enough that the adapter, on a core of its own, never
/// waits for the harness judging the previous ones; few enough that a restart repeats little.
pub const CASES_AHEAD: usize = 16;

/// Whether cases announced ahead (`ahead` of at most `window`) are topped up now: once half of
/// them were run, not after every case, so that a batch of cases goes out in one write. Used by
/// the runs of a session and by `fuzz`.
pub fn time_to_top_up(ahead: usize, window: usize) -> bool {
    ahead <= window / 2
}

/// Builds one adapter for one job.
pub type AdapterFactory<'f> = dyn Fn() -> Result<Box<dyn Adapter>, String> + Sync + 'f;

/// The results of a session, in case order.
pub struct Session {
    pub results: Vec<CaseResult>,
    /// Why the session stopped before running every case, if it did.
    pub stopped: Option<String>,
}

/// Runs `cases` with `jobs` adapters. `skip` gives the reason a case is not run, if it is not.
/// `on_done` sees each result as it finishes (for progress output). `max_timeouts`: stop after
/// that many consecutive timed-out cases (0: never stop).
pub fn run_cases(
    cases: &[&Case],
    jobs: usize,
    max_timeouts: usize,
    factory: &AdapterFactory<'_>,
    skip: &(dyn Fn(&Case) -> Option<String> + Sync),
    on_done: &(dyn Fn(&Case, &CaseResult) + Sync),
) -> Result<Session, String> {
    run_cases_recorded(cases, jobs, max_timeouts, factory, skip, on_done, false, None)
}

/// `run_cases`, recording each case's trace (RCIP and Rixx UI) when `record` is set (`run
/// --trace-dir`), and starting no case after `deadline` (`run --max-run-seconds`).
#[allow(clippy::too_many_arguments)]
pub fn run_cases_recorded(
    cases: &[&Case],
    jobs: usize,
    max_timeouts: usize,
    factory: &AdapterFactory<'_>,
    skip: &(dyn Fn(&Case) -> Option<String> + Sync),
    on_done: &(dyn Fn(&Case, &CaseResult) + Sync),
    record: bool,
    deadline: Option<Instant>,
) -> Result<Session, String> {
    let passed = || deadline.is_some_and(|at| Instant::now() >= at);
    let deadline_hit = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<CaseResult>>> = Mutex::new(vec![None; cases.len()]);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let consecutive_timeouts = Mutex::new(0usize);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1).min(cases.len().max(1)) {
            scope.spawn(|| {
                let mut adapter = match factory() {
                    Ok(adapter) => adapter,
                    Err(e) => {
                        if let Ok(mut f) = failure.lock() {
                            f.get_or_insert(e);
                        }
                        return;
                    }
                };
                // An adapter that sends whole cases ahead gets the next cases announced while it
                // runs this one (`Adapter::announce_case`); the job claims them from the shared
                // counter as it announces them, so every claimed case is run or reported not run.
                let mut ahead: VecDeque<(usize, Result<Prepared, String>)> = VecDeque::new();
                loop {
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    if passed() {
                        deadline_hit.store(true, Ordering::SeqCst);
                        stop.store(true, Ordering::SeqCst);
                        return;
                    }
                    if adapter.sends_cases_ahead() && time_to_top_up(ahead.len(), CASES_AHEAD) {
                        while ahead.len() < CASES_AHEAD && ahead.back().is_none_or(|(_, p)| p.as_ref().map_or(true, Prepared::announced_whole)) {
                            let index = next.fetch_add(1, Ordering::SeqCst);
                            let Some(case) = cases.get(index) else { break };
                            let prepared = match skip(case) {
                                Some(reason) => Err(reason),
                                None => {
                                    let mut prepared = prepare(adapter.as_ref(), case);
                                    prepared.announce(adapter.as_mut(), case);
                                    Ok(prepared)
                                }
                            };
                            ahead.push_back((index, prepared));
                        }
                    }
                    let (index, prepared) = match ahead.pop_front() {
                        Some(next) => next,
                        None => {
                            let index = next.fetch_add(1, Ordering::SeqCst);
                            let Some(case) = cases.get(index) else { return };
                            (index, skip(case).map_or_else(|| Ok(prepare(adapter.as_ref(), case)), Err))
                        }
                    };
                    let Some(case) = cases.get(index) else { return };
                    let (result, timed_out) = match prepared {
                        Err(reason) => (CaseResult::not_run(case, Verdict::Skip, reason), false),
                        Ok(prepared) => {
                            let result = guarded(adapter.as_mut(), case, prepared, record);
                            let timed_out = result.verdict == Verdict::Errored && adapter.timed_out();
                            (result, timed_out)
                        }
                    };
                    if max_timeouts > 0 {
                        if let Ok(mut count) = consecutive_timeouts.lock() {
                            *count = if timed_out { *count + 1 } else { 0 };
                            if *count >= max_timeouts {
                                stop.store(true, Ordering::SeqCst);
                            }
                        }
                    }
                    // An errored case at the deadline was cut by it: the run is incomplete.
                    if result.verdict == Verdict::Errored && passed() {
                        deadline_hit.store(true, Ordering::SeqCst);
                        stop.store(true, Ordering::SeqCst);
                    }
                    on_done(case, &result);
                    if let Ok(mut all) = results.lock() {
                        all[index] = Some(result);
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let all = results.into_inner().map_err(|_| "a job panicked".to_string())?;
    let not_run = all.iter().filter(|r| r.is_none()).count();
    let stopped = match (stop.into_inner(), deadline_hit.into_inner()) {
        (true, true) => Some(format!("the run stopped when its overall deadline passed (--max-run-seconds); {not_run} case(s) were not run")),
        (true, false) => Some(format!(
            "the run stopped after {max_timeouts} consecutive cases timed out (--max-timeouts); {not_run} case(s) were not run"
        )),
        (false, _) => None,
    };
    let results = match &stopped {
        Some(why) => all
            .into_iter()
            .zip(cases)
            .map(|(r, c)| r.unwrap_or_else(|| CaseResult::not_run(c, Verdict::Errored, format!("not run: {why}"))))
            .collect(),
        None => all
            .into_iter()
            .zip(cases)
            .map(|(r, c)| r.ok_or_else(|| format!("case {} was not run (a job stopped)", c.id)))
            .collect::<Result<_, _>>()?,
    };
    Ok(Session { results, stopped })
}

/// A panic inside an adapter (the in-process reference included) is the adapter breaking: the
/// case is `errored` and the run goes on.
pub(crate) fn guarded(adapter: &mut dyn Adapter, case: &Case, prepared: Prepared, record: bool) -> CaseResult {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_prepared(adapter, case, prepared, record))) {
        Ok(result) => result,
        Err(panic) => {
            adapter.finish();
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let mut result = CaseResult::not_run(case, Verdict::Errored, format!("the adapter panicked: {message}"));
            result.stderr = adapter.take_stderr();
            result
        }
    }
}
