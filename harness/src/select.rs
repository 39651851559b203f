//! Case selection for `run` and `list`: by id prefix, section, requirement, profile and
//! strictness. Criteria of one kind are alternatives; different kinds must all hold.

use crate::loader::Case;

#[derive(Debug, Clone, Default)]
pub struct Selection {
    pub prefixes: Vec<String>,
    pub sections: Vec<String>,
    pub requirements: Vec<String>,
    pub profiles: Vec<String>,
    pub strictness: Vec<String>,
}

fn any_or_empty(criteria: &[String], test: impl Fn(&str) -> bool) -> bool {
    criteria.is_empty() || criteria.iter().any(|c| test(c))
}

/// Requirement ids a case cites, at case level and on its steps.
pub fn cited_requirements(case: &Case) -> Vec<String> {
    let mut ids = case.requirements.clone();
    for step in &case.steps {
        if let Some(list) = step.get("requirements").and_then(serde_json::Value::as_array) {
            ids.extend(list.iter().filter_map(|v| v.as_str()).map(str::to_string));
        }
    }
    ids.sort();
    ids.dedup();
    ids
}

impl Selection {
    pub fn matches(&self, case: &Case) -> bool {
        let cited = cited_requirements(case);
        any_or_empty(&self.prefixes, |p| case.id.starts_with(p))
            && any_or_empty(&self.sections, |s| case.section == s)
            && any_or_empty(&self.requirements, |r| cited.iter().any(|c| c == r || c.starts_with(&format!("{r}-"))))
            && any_or_empty(&self.profiles, |p| case.profiles.iter().any(|cp| cp == p))
            && any_or_empty(&self.strictness, |s| case.strictness.eq_ignore_ascii_case(s))
    }

    pub fn apply<'v>(&self, cases: &'v [Case]) -> Vec<&'v Case> {
        cases.iter().filter(|c| self.matches(c)).collect()
    }
}
