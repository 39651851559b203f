//! JUnit XML for CI systems (written with the quick-junit crate, which handles the XML escaping
//! and schema details): one test suite per section, one test case per case. `fail` is a failure,
//! `errored` an error, `skip` and `unsupported` are skipped; `xfail` and `non-strict` pass with
//! their reason in system-out, so CI fails only on what the run itself counts as failing. Every
//! load error is an error of its own in a `load errors` suite, so CI never shows a green run over
//! vectors that did not load (issue 14, section 1). Every text goes through `escape::xml`
//! (characters XML 1.0 forbids, which an adapter can put in any message, and terminal controls,
//! as `\uXXXX` text): quick-junit escapes markup, not these.
//!
//! Causes (issue 27 §1): each failing, errored or non-strict test case carries the properties
//! `cause` (its number, as the console and the Markdown report number them) and `cause.title`,
//! and its description starts with that line; the report's first test suite, `causes`, has no
//! test case and one property per cause (`cause.N` = its title, `cause.N.cases` = its case ids),
//! so a CI page that shows only failures still reads as one finding per cause.

use std::collections::BTreeMap;

use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};

use crate::console::render_case;
use crate::escape::xml;
use crate::report::Run;
use crate::verdict::Verdict;

pub fn render(run: &Run<'_>) -> Result<String, String> {
    let mut report =
        Report::new(xml(&format!("conformance of {} {}", run.implementation.name, run.implementation.version)));
    let mut suites: Vec<TestSuite> = Vec::new();
    let groups = run.groups();
    if !groups.is_empty() {
        let mut suite = TestSuite::new("causes");
        for (number, group) in groups.iter().enumerate() {
            suite.add_property(Property::new(format!("cause.{}", number + 1), xml(&group.title())));
            suite.add_property(Property::new(format!("cause.{}.cases", number + 1), xml(&group.cases.join(" "))));
        }
        suites.push(suite);
    }
    let cause_of: BTreeMap<&str, (usize, String)> = groups
        .iter()
        .enumerate()
        .flat_map(|(i, g)| g.cases.iter().map(move |id| (id.as_str(), (i + 1, g.title()))))
        .collect();
    let described = |result: &crate::runner::CaseResult| -> String {
        match cause_of.get(result.id.as_str()) {
            Some((number, title)) => xml(&format!("cause {number}: {title}\n\n{}", render_case(result))),
            None => xml(&render_case(result)),
        }
    };
    if !run.vectors.errors.is_empty() {
        let mut suite = TestSuite::new("load errors");
        for error in &run.vectors.errors {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
            status.set_message("load error");
            status.set_description(xml(&error.to_string()));
            let name = if error.pointer.is_empty() {
                error.file.display().to_string()
            } else {
                format!("{} {}", error.file.display(), error.pointer)
            };
            let mut test_case = TestCase::new(xml(&name), status);
            test_case.set_classname("load errors");
            suite.add_test_case(test_case);
        }
        suites.push(suite);
    }
    for (case, result) in &run.results {
        if suites.last().map(|s| s.name.as_str() != xml(&case.section)).unwrap_or(true) {
            suites.push(TestSuite::new(xml(&case.section)));
        }
        let status = match result.verdict {
            Verdict::Pass | Verdict::NonStrict | Verdict::Xfail => TestCaseStatus::success(),
            Verdict::Fail => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status.set_description(described(result));
                status.set_message("fail");
                status
            }
            Verdict::Errored => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
                status.set_description(described(result));
                status.set_message("errored");
                status
            }
            Verdict::Skip | Verdict::Unsupported => {
                let mut status = TestCaseStatus::skipped();
                status.set_message(xml(&format!("{}: {}", result.verdict, result.reason.clone().unwrap_or_default())));
                status
            }
        };
        let mut test_case = TestCase::new(xml(&case.id), status);
        test_case.set_classname(xml(&case.section));
        if matches!(result.verdict, Verdict::NonStrict | Verdict::Xfail) {
            test_case.set_system_out(described(result));
        }
        if let Some((number, title)) = cause_of.get(result.id.as_str()) {
            test_case.add_property(Property::new("cause", number.to_string()));
            test_case.add_property(Property::new("cause.title", xml(title)));
        }
        if let Some(suite) = suites.last_mut() {
            suite.add_test_case(test_case);
        }
    }
    report.add_test_suites(suites);
    report.to_string().map_err(|e| format!("cannot render JUnit XML: {e}"))
}
