//! Verdicts (`vectors/README.md`, "Verdicts"): what a run says about one case.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    Pass,
    /// Only RECOMMENDED checks differed.
    NonStrict,
    Fail,
    Unsupported,
    Skip,
    /// Failed, and listed as a known failure.
    Xfail,
    /// The adapter broke: no judgement of the implementation.
    Errored,
}

impl Verdict {
    pub const ALL: [Verdict; 7] = [
        Verdict::Pass,
        Verdict::NonStrict,
        Verdict::Fail,
        Verdict::Unsupported,
        Verdict::Skip,
        Verdict::Xfail,
        Verdict::Errored,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::NonStrict => "non-strict",
            Verdict::Fail => "fail",
            Verdict::Unsupported => "unsupported",
            Verdict::Skip => "skip",
            Verdict::Xfail => "xfail",
            Verdict::Errored => "errored",
        }
    }

    /// Whether this verdict makes a conformance run fail.
    pub fn is_failure(self) -> bool {
        matches!(self, Verdict::Fail | Verdict::Errored)
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Verdict {
    type Err = String;

    fn from_str(text: &str) -> Result<Verdict, String> {
        Verdict::ALL.into_iter().find(|v| v.as_str() == text).ok_or_else(|| format!("unknown verdict {text:?}"))
    }
}
