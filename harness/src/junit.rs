//! JUnit XML for CI systems (written with the quick-junit crate, which handles the XML escaping
//! and schema details): one test suite per section, one test case per case. `fail` is a failure,
//! `errored` an error, `skip` and `unsupported` are skipped; `xfail` and `non-strict` pass with
//! their reason in system-out, so CI fails only on what the run itself counts as failing.

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use crate::console::render_case;
use crate::report::Run;
use crate::verdict::Verdict;

pub fn render(run: &Run<'_>) -> Result<String, String> {
    let mut report = Report::new(format!("conformance of {} {}", run.implementation.name, run.implementation.version));
    let mut suites: Vec<TestSuite> = Vec::new();
    for (case, result) in &run.results {
        if suites.last().map(|s| s.name.as_str() != case.section).unwrap_or(true) {
            suites.push(TestSuite::new(case.section.clone()));
        }
        let status = match result.verdict {
            Verdict::Pass | Verdict::NonStrict | Verdict::Xfail => TestCaseStatus::success(),
            Verdict::Fail => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status.set_description(render_case(result));
                status.set_message("fail");
                status
            }
            Verdict::Errored => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
                status.set_description(render_case(result));
                status.set_message("errored");
                status
            }
            Verdict::Skip | Verdict::Unsupported => {
                let mut status = TestCaseStatus::skipped();
                status.set_message(format!("{}: {}", result.verdict, result.reason.clone().unwrap_or_default()));
                status
            }
        };
        let mut test_case = TestCase::new(case.id.clone(), status);
        test_case.set_classname(case.section.clone());
        if matches!(result.verdict, Verdict::NonStrict | Verdict::Xfail) {
            test_case.set_system_out(render_case(result));
        }
        if let Some(suite) = suites.last_mut() {
            suite.add_test_case(test_case);
        }
    }
    report.add_test_suites(suites);
    report.to_string().map_err(|e| format!("cannot render JUnit XML: {e}"))
}
