//! Case selection for `run` and `list`: by id prefix, section, requirement, profile and
//! strictness. Criteria of one kind are alternatives; different kinds must all hold. A shard
//! (`--shard k/n`, issue 14 section 4) then keeps a deterministic share of the selected cases: a
//! case belongs to shard `1 + (SHA-256(id) mod n)`, so adding or removing cases never moves any
//! other case to another shard, and the n shards partition every selection exactly.

use sha2::{Digest as _, Sha256};

use crate::loader::Case;

#[derive(Debug, Clone, Default)]
pub struct Selection {
    pub prefixes: Vec<String>,
    pub sections: Vec<String>,
    pub requirements: Vec<String>,
    pub profiles: Vec<String>,
    pub strictness: Vec<String>,
    pub shard: Option<Shard>,
}

/// Shard `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// Parses `k/n` with 1 <= k <= n.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (k, n) = text.split_once('/').ok_or_else(|| format!("shard {text:?}: write it as k/n, e.g. 2/4"))?;
        let number = |s: &str| s.trim().parse::<u64>().map_err(|_| format!("shard {text:?}: {s:?} is not a number"));
        let (index, count) = (number(k)?, number(n)?);
        if count == 0 || index == 0 || index > count {
            return Err(format!("shard {text:?}: k must be between 1 and n"));
        }
        Ok(Shard { index, count })
    }

    /// The shard (1-based) case `id` belongs to among `count`.
    pub fn of(id: &str, count: u64) -> u64 {
        let hash = Sha256::digest(id.as_bytes());
        let mut first = [0u8; 8];
        first.copy_from_slice(&hash[..8]);
        1 + u64::from_be_bytes(first) % count
    }

    pub fn contains(&self, id: &str) -> bool {
        Shard::of(id, self.count) == self.index
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

fn any_or_empty(criteria: &[String], test: impl Fn(&str) -> bool) -> bool {
    criteria.is_empty() || criteria.iter().any(|c| test(c))
}

/// Requirement ids a case cites, at case level and on its steps.
pub fn cited_requirements(case: &Case) -> Vec<String> {
    case.cited.clone()
}

impl Selection {
    pub fn matches(&self, case: &Case) -> bool {
        let cited = &case.cited;
        any_or_empty(&self.prefixes, |p| case.id.starts_with(p))
            && any_or_empty(&self.sections, |s| case.section == s)
            && any_or_empty(&self.requirements, |r| cited.iter().any(|c| c == r || c.starts_with(&format!("{r}-"))))
            && any_or_empty(&self.profiles, |p| case.profiles.iter().any(|cp| cp == p))
            && any_or_empty(&self.strictness, |s| case.strictness.eq_ignore_ascii_case(s))
            && self.shard.is_none_or(|shard| shard.contains(&case.id))
    }

    pub fn apply<'v>(&self, cases: &'v [Case]) -> Vec<&'v Case> {
        cases.iter().filter(|c| self.matches(c)).collect()
    }
}
