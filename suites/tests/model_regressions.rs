//! Committed differential regressions (`suites::cases::from_model`, issue 5): a shrunk failure is
//! recorded once, read back exactly, named by a slug of its content, described by its note's
//! first sentence when that states a behaviour within 70 characters, and a malformed file is an
//! error naming the file and entry, never skipped.

use std::path::PathBuf;

use suites::cases::from_model::{load_regressions, record_regression, Regression};

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("suites-regressions-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn regression(choices: Vec<u32>, note: &str) -> Regression {
    Regression {
        seed: "0x1".into(),
        choices,
        note: note.into(),
    }
}

#[test]
fn a_regression_is_recorded_once_and_read_back_exactly() {
    let dir = scratch("roundtrip");
    assert_eq!(
        load_regressions(&dir, "toy").unwrap(),
        vec![],
        "no file: no regressions"
    );
    let first = regression(vec![3, 1, 4], "A commit is rejected. Found by hand.");
    assert!(record_regression(&dir, "toy", &first).unwrap());
    assert!(
        !record_regression(&dir, "toy", &regression(vec![3, 1, 4], "other note")).unwrap(),
        "same choices"
    );
    let second = regression(vec![2, 7], "");
    assert!(record_regression(&dir, "toy", &second).unwrap());
    assert_eq!(load_regressions(&dir, "toy").unwrap(), vec![first, second]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_malformed_file_names_the_file_and_the_entry() {
    let dir = scratch("malformed");
    std::fs::create_dir_all(&dir).unwrap();
    for (text, expected) in [
        ("{}", "expected an array"),
        (
            "[{\"seed\": 1, \"choices\": []}]",
            "entry 0: `seed` must be a string",
        ),
        (
            "[{\"seed\": \"s\", \"choices\": [1]}, {\"seed\": \"s\", \"choices\": [-1]}]",
            "entry 1: `choices` must hold integers",
        ),
        ("[{\"seed\": \"s\"}]", "entry 0: `choices` must be an array"),
        ("not json", "toy.json"),
    ] {
        std::fs::write(dir.join("toy.json"), text).unwrap();
        let error = load_regressions(&dir, "toy").unwrap_err();
        assert!(
            error.contains(expected) && error.contains("toy.json"),
            "{text}: {error}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_slug_depends_on_the_choices_only_and_the_description_on_the_note() {
    let a = regression(
        vec![1, 2, 3],
        "Unbind during a pending policy gives CAPABILITY_UNBOUND. Found by a bug.",
    );
    let b = regression(vec![1, 2, 3], "verdict Fail\n  step 4 ...");
    assert_eq!(a.slug(), b.slug());
    assert_ne!(a.slug(), regression(vec![1, 2, 4], "").slug());
    assert!(a.slug().starts_with("regression-") && a.slug().len() == "regression-".len() + 8);
    assert_eq!(
        a.description(),
        "Unbind during a pending policy gives CAPABILITY_UNBOUND."
    );
    // A raw failure report, or a first sentence over 70 characters, gets the neutral description.
    assert_eq!(
        b.description(),
        format!("Shrunk differential failure {} stays fixed", b.slug())
    );
    let long = regression(vec![9], &format!("{}.", "x".repeat(80)));
    assert!(long
        .description()
        .starts_with("Shrunk differential failure"));
}
