//! Runs a selection of cases on one or more adapters in parallel (one adapter per job, each
//! built by the caller's factory) and returns the results in case order, whatever order they
//! finished in, so output and reports are deterministic.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::adapter::Adapter;
use crate::loader::Case;
use crate::runner::{run_case, CaseResult};
use crate::verdict::Verdict;

/// Builds one adapter for one job.
pub type AdapterFactory<'f> = dyn Fn() -> Result<Box<dyn Adapter>, String> + Sync + 'f;

/// Runs `cases` with `jobs` adapters. `skip` gives the reason a case is not run, if it is not.
/// `on_done` sees each result as it finishes (for progress output).
pub fn run_cases(
    cases: &[&Case],
    jobs: usize,
    factory: &AdapterFactory<'_>,
    skip: &(dyn Fn(&Case) -> Option<String> + Sync),
    on_done: &(dyn Fn(&Case, &CaseResult) + Sync),
) -> Result<Vec<CaseResult>, String> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<CaseResult>>> = Mutex::new(vec![None; cases.len()]);
    let failure: Mutex<Option<String>> = Mutex::new(None);
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
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let Some(case) = cases.get(index) else { return };
                    let result = match skip(case) {
                        Some(reason) => CaseResult::not_run(case, Verdict::Skip, reason),
                        None => guarded(adapter.as_mut(), case),
                    };
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
    all.into_iter()
        .zip(cases)
        .map(|(r, c)| r.ok_or_else(|| format!("case {} was not run (a job stopped)", c.id)))
        .collect()
}

/// A panic inside an adapter (the in-process reference included) is the adapter breaking: the
/// case is `errored` and the run goes on.
fn guarded(adapter: &mut dyn Adapter, case: &Case) -> CaseResult {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_case(adapter, case))) {
        Ok(result) => result,
        Err(panic) => {
            adapter.finish();
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            CaseResult::not_run(case, Verdict::Errored, format!("the adapter panicked: {message}"))
        }
    }
}
