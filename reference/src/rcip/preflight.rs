//! The `preflight` profile (CL-B24-1/2): a batch dry-run of up to 16 proposals that reserves
//! nothing and runs nothing. CL-B24 is one sentence and section A names no API, so the shape is
//! this project's (PRJ-RCIP-PRE-01..03, suites/register/project-rcip.toml):
//! - each proposal gets the result of the checks `invoke` makes before policy, in `invoke`'s order
//!   (reserved id, catalog, binding, live availability, plain JSON and input schema), through the
//!   very code `invoke` uses (`Runtime::check_request`), so the two cannot disagree;
//! - a batch of more than [`PREFLIGHT_BOUND`] proposals is refused as a whole, nothing checked;
//! - nothing runs: no policy, handler, `createId`, `onEvent` or listener is called, no revision is
//!   published, no id is reserved (not even against the other proposals of the batch), no abort is
//!   processed. The only host callback reached is `getAvailability`, the live probe `invoke` uses.

use super::outcome::{ErrorCode, ValidationIssue};
use super::runtime::Runtime;
use super::value::HostValue;

/// CL-B24-1: the largest batch a preflight checks.
pub const PREFLIGHT_BOUND: usize = 16;

/// One proposal: what `invoke` would receive, without a signal.
#[derive(Debug, Clone)]
pub struct Proposal {
    pub capability_id: String,
    pub input: HostValue,
    pub invocation_id: Option<String>,
}

/// What the dry-run found for one proposal.
#[derive(Debug, Clone, PartialEq)]
pub enum ProposalReport {
    /// Every check before policy passes; policy is not consulted, so success is not promised.
    Ready { capability_id: String },
    /// The code `invoke` would settle with before reaching policy.
    Failed {
        capability_id: String,
        code: ErrorCode,
        validation_issues: Option<Vec<ValidationIssue>>,
    },
}

/// Why a batch was refused as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreflightError {
    /// More than [`PREFLIGHT_BOUND`] proposals (PRJ-RCIP-PRE-02).
    TooManyProposals { count: usize },
}

impl PreflightError {
    /// The stable code of the refusal (not an outcome code: no invocation exists).
    pub fn code(self) -> &'static str {
        match self {
            PreflightError::TooManyProposals { .. } => "PREFLIGHT_BATCH_TOO_LARGE",
        }
    }
}

impl Runtime {
    /// The dry-run: one report per proposal, in order, or the refusal of the whole batch.
    pub fn preflight(
        &mut self,
        proposals: &[Proposal],
    ) -> Result<Vec<ProposalReport>, PreflightError> {
        if proposals.len() > PREFLIGHT_BOUND {
            return Err(PreflightError::TooManyProposals {
                count: proposals.len(),
            });
        }
        Ok(proposals.iter().map(|p| self.dry_run(p)).collect())
    }

    fn dry_run(&mut self, proposal: &Proposal) -> ProposalReport {
        let capability_id = proposal.capability_id.clone();
        // CL-B04-3: a reserved id would fail first. An absent id would be a fresh one, and making
        // it would call createId, so it is not made.
        let reserved = proposal
            .invocation_id
            .as_ref()
            .is_some_and(|id| self.reserved.contains(id));
        let checked = if reserved {
            Err((ErrorCode::InvocationAlreadyActive, None))
        } else {
            self.check_request(&capability_id, &proposal.input)
                .map(|_| ())
        };
        match checked {
            Ok(()) => ProposalReport::Ready { capability_id },
            Err((code, validation_issues)) => ProposalReport::Failed {
                capability_id,
                code,
                validation_issues,
            },
        }
    }
}
