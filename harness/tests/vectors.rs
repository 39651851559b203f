//! `cargo test` entry point: every vector case runs against the in-process reference as one
//! libtest-mimic trial named by its case id, so `cargo test -p harness --test vectors -- <prefix>`
//! selects cases. A vector file that does not load is a failing trial of its own.

use harness::adapters::reference::ReferenceAdapter;
use harness::console::render_case;
use harness::loader::Vectors;
use harness::runner::{run_case, unsupported_reason};
use harness::verdict::Verdict;
use libtest_mimic::{Arguments, Failed, Trial};

fn main() {
    let args = Arguments::from_args();
    let vectors = match Vectors::load(&harness::bundled_vectors()) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let mut trials = Vec::new();
    for (index, error) in vectors.errors.iter().enumerate() {
        let message = error.to_string();
        trials.push(Trial::test(format!("load-error-{index}"), move || Err(Failed::from(message))));
    }
    let probe = ReferenceAdapter::new();
    for case in vectors.cases {
        // A case needing a profile the reference does not declare is ignored, visibly, not failed.
        let unsupported = unsupported_reason(&probe, &case).is_some();
        let trial = Trial::test(case.id.clone(), move || {
            // A fresh adapter per trial: trials run on several threads and share nothing.
            let mut adapter = ReferenceAdapter::new();
            let result = run_case(&mut adapter, &case);
            match result.verdict {
                Verdict::Pass => Ok(()),
                _ => Err(Failed::from(render_case(&result))),
            }
        });
        trials.push(trial.with_ignored_flag(unsupported));
    }
    libtest_mimic::run(&args, trials).exit();
}
