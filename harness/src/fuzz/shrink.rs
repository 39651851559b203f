//! Shrinking a disagreement of `conformance fuzz` (issue 18 §1) against the live implementation,
//! in the manner of proptest: every proposal is translated, run again on the implementation and
//! kept only when it still gives the same kind of disagreement (`fail` stays `fail`, `errored`
//! stays `errored`, so a shrink never trades a judgement for a crash or the reverse).
//!
//! Proposals, on the canonical choices (`Target::canonical`: each choice is the index of the
//! option it picks): first shorter prefixes (the path cut after fewer actions), then each choice
//! deleted (from the last), then each choice lowered to every smaller index (an earlier action in
//! the model's order: an earlier request, the first decision, `Valid` input). The passes repeat
//! until none helps or `runs` implementation runs are spent. A proposal whose path is empty
//! counts as passing. Deterministic: no randomness and no clock.

use super::draw::Target;
use super::judge;
use crate::adapter::Adapter;
use crate::runner::CaseResult;
use crate::verdict::Verdict;

/// The smallest disagreement found.
#[derive(Debug)]
pub struct Shrunk {
    pub choices: Vec<u32>,
    pub case: suites::case::Case,
    pub result: CaseResult,
    /// Implementation runs spent shrinking (the first is the rerun of the original).
    pub runs: u32,
    /// The rerun of the original choices did not disagree alike: the implementation does not
    /// repeat its answers, and the original case is reported unshrunk.
    pub unrepeatable: bool,
}

struct Shrinker<'a> {
    adapter: &'a mut dyn Adapter,
    target: Target,
    verdict: Verdict,
    runs: u32,
    limit: u32,
    best: Shrunk,
}

impl Shrinker<'_> {
    /// Runs `choices`; when it still disagrees alike it becomes the best. Whether it did.
    fn try_choices(&mut self, choices: Vec<u32>) -> Result<bool, String> {
        let choices = self.target.canonical(&choices);
        if choices == self.best.choices || self.runs >= self.limit {
            return Ok(false);
        }
        let Some(case) = self.target.translate(&choices) else { return Ok(false) };
        self.runs += 1;
        self.best.runs = self.runs;
        let result = judge(self.adapter, &case)?;
        if result.verdict != self.verdict {
            return Ok(false);
        }
        self.best = Shrunk { choices, case, result, runs: self.runs, unrepeatable: false };
        Ok(true)
    }

    fn prefixes(&mut self) -> Result<bool, String> {
        for length in 2..self.best.choices.len() {
            let prefix = self.best.choices[..length].to_vec();
            if self.try_choices(prefix)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn deletions(&mut self) -> Result<bool, String> {
        let mut improved = false;
        let mut index = self.best.choices.len();
        while index > 0 {
            index -= 1;
            if index >= self.best.choices.len() || self.best.choices.len() <= 2 {
                continue;
            }
            let mut fewer = self.best.choices.clone();
            fewer.remove(index);
            improved |= self.try_choices(fewer)?;
        }
        Ok(improved)
    }

    fn lowerings(&mut self) -> Result<bool, String> {
        let mut improved = false;
        for index in 0..self.best.choices.len() {
            for value in 0..self.best.choices.get(index).copied().unwrap_or(0) {
                let mut lower = self.best.choices.clone();
                lower[index] = value;
                if self.try_choices(lower)? {
                    improved = true;
                    break;
                }
            }
        }
        Ok(improved)
    }
}

/// Shrinks `choices`, whose `case` gave `result` (a disagreement) on `adapter`, within `runs`
/// implementation runs.
pub fn shrink(
    adapter: &mut dyn Adapter,
    target: Target,
    choices: &[u32],
    case: &suites::case::Case,
    result: &CaseResult,
    runs: u32,
) -> Result<Shrunk, String> {
    let verdict = result.verdict;
    let choices = target.canonical(choices);
    let rerun = judge(adapter, case)?;
    let repeated = rerun.verdict == verdict;
    let mut shrinker = Shrinker {
        adapter,
        target,
        verdict,
        runs: 1,
        limit: runs.max(1),
        best: Shrunk { choices, case: case.clone(), result: result.clone(), runs: 1, unrepeatable: !repeated },
    };
    if repeated {
        loop {
            let shorter = shrinker.prefixes()?;
            let fewer = shrinker.deletions()?;
            let lower = shrinker.lowerings()?;
            if !(shorter || fewer || lower) || shrinker.runs >= shrinker.limit {
                break;
            }
        }
    }
    Ok(shrinker.best)
}
