//! The handshake's `limitsMeasure` and the runner's translation of `setup.limits` (PRJ-RUI-LIMIT-14,
//! PRJ-RUI-LIMIT-15): a runtime that counts depth from the record tuple, or begin and commit as
//! operations, passes every `rui.limits` case when it declares so, and fails the bounds it counts
//! differently when it does not; a declared measure that is not the runtime's is caught too. So
//! the translation is what the verdicts rest on, not a no-op.

use harness::adapter::{Adapter, AdapterError, Implementation, Protocol, Reply};
use harness::adapters::reference::ReferenceAdapter;
use harness::loader::Vectors;
use harness::measure::LimitsMeasure;
use harness::runner::run_case;
use harness::verdict::Verdict;
use reference::choices::Choices;
use serde_json::{json, Value};

/// The reference under `rows`, declaring `measure` whatever it counts, and keeping the setups
/// it was started with.
struct Declaring {
    inner: ReferenceAdapter,
    implementation: Implementation,
    setups: Vec<Value>,
}

impl Declaring {
    fn new(rows: &str, measure: Option<Value>) -> Declaring {
        let choices = if rows.is_empty() { Choices::default() } else { Choices::parse(rows).expect("known rows") };
        let inner = ReferenceAdapter::with_choices(choices);
        let mut implementation = inner.implementation().clone();
        implementation.rui_limits_measure = LimitsMeasure::decode(measure.as_ref()).expect("a known measure");
        Declaring { inner, implementation, setups: Vec::new() }
    }
}

impl Adapter for Declaring {
    fn implementation(&self) -> &Implementation {
        &self.implementation
    }
    fn start(&mut self, case: &str, protocol: Protocol, setup: &Value) -> Result<Reply, AdapterError> {
        self.setups.push(setup.clone());
        self.inner.start(case, protocol, setup)
    }
    fn step(&mut self, step: &Value) -> Result<Reply, AdapterError> {
        self.inner.step(step)
    }
    fn finish(&mut self) {
        self.inner.finish()
    }
}

/// The ids of the `rui.limits` cases that do not pass.
fn not_passing(adapter: &mut Declaring) -> Vec<String> {
    let vectors = Vectors::load(&harness::bundled_vectors()).expect("the bundled vectors load");
    vectors
        .cases
        .iter()
        .filter(|c| c.id.starts_with("rui.limits."))
        .filter_map(|case| {
            let verdict = run_case(adapter, case).verdict;
            (verdict != Verdict::Pass).then(|| format!("{} {verdict}", case.id))
        })
        .collect()
}

#[test]
fn a_declared_measure_passes_and_an_undeclared_one_fails_the_bounds_it_moves() {
    let rows = "rows:rui-depth-from-record,rui-operations-count-records";
    let declared = json!({ "depth": "record", "operations": "records" });
    let mut honest = Declaring::new(rows, Some(declared));
    assert_eq!(not_passing(&mut honest), Vec::<String>::new());
    let sent: Vec<&Value> = honest.setups.iter().filter_map(|s| s.get("limits")).collect();
    assert!(sent.iter().any(|l| l["maxDepth"] == json!(4)), "a vector's maxDepth 3 is sent as 4");
    assert!(sent.iter().any(|l| l["maxOperations"] == json!(6)), "a vector's maxOperations 4 is sent as 6");

    let silent = not_passing(&mut Declaring::new(rows, None));
    for bound in ["depth-at-limit-props", "depth-at-limit-data", "operations-at-limit"] {
        assert!(silent.iter().any(|id| id.contains(bound)), "{bound} fails without the declaration: {silent:?}");
    }
}

#[test]
fn a_measure_the_runtime_does_not_have_is_caught() {
    let wrong = not_passing(&mut Declaring::new("", Some(json!({ "depth": "inner" }))));
    assert!(wrong.iter().any(|id| id.contains("depth-at-limit-props")), "{wrong:?}");
}
