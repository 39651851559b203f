//! The in-process adapter for the bundled reference runtimes: maps each vector step of
//! `vectors/README.md` onto the `reference` crate's RCIP (`rcip.rs`) or Rixx UI (`rui.rs`) API.

mod assist;
mod rcip;
mod rui;

use std::collections::{BTreeSet, VecDeque};

use reference::choices::Choices;
use reference::rcip::Definition;
use reference::rui::catalog::Catalog;
use serde_json::Value;

use crate::adapter::{Adapter, AdapterError, Implementation, Protocol, Reply};

/// One running case inside the reference adapter.
pub(crate) trait CaseDriver {
    fn step(&mut self, step: &Value) -> Result<Reply, AdapterError>;
}

/// What starting a case gives: the reply to `start`, and the driver when a runtime was built.
pub(crate) type Started = (Reply, Option<Box<dyn CaseDriver>>);

pub struct ReferenceAdapter {
    implementation: Implementation,
    choices: Choices,
    current: Option<Box<dyn CaseDriver>>,
    /// RCIP definitions and Rixx UI catalogs of recent cases (see [`Recent`]).
    definitions: Recent<Definition>,
    catalogs: Recent<Catalog>,
}

/// How many recent definitions (and catalogs) the adapter keeps compiled.
const RECENT_SETUPS: usize = 8;

/// The last few values built from a setup member, by that member's JSON. Compiling a catalog's
/// schemas costs more than running a typical case, and a suite or a fuzz run starts many cases
/// from a few catalogs (a framing-neutral case starts once per framing). Definitions and catalogs
/// are immutable once built (runtimes built from one share only the catalog and the compiled
/// schemas, CL-B25), so a case started from a kept one observes exactly what it would observe
/// from a fresh one. Keys compare member order too, so only an identical text reuses a value.
pub(crate) struct Recent<T> {
    entries: VecDeque<(Value, T)>,
}

impl<T: Clone> Recent<T> {
    fn new() -> Recent<T> {
        Recent { entries: VecDeque::with_capacity(RECENT_SETUPS) }
    }

    /// The value built from `key`, built by `build` unless kept; `Ok(None)` (building threw)
    /// is not kept.
    pub(crate) fn get_or_build<E>(
        &mut self,
        key: &Value,
        build: impl FnOnce() -> Result<Option<T>, E>,
    ) -> Result<Option<T>, E> {
        if let Some((_, kept)) = self.entries.iter().find(|(seen, _)| same_text(seen, key)) {
            return Ok(Some(kept.clone()));
        }
        let built = build()?;
        if let Some(value) = &built {
            if self.entries.len() == RECENT_SETUPS {
                self.entries.pop_back();
            }
            self.entries.push_front((key.clone(), value.clone()));
        }
        Ok(built)
    }
}

/// Whether `a` and `b` have the same JSON text: equal, with object members in the same order.
fn same_text(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Array(a), Value::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_text(a, b)),
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|((ka, va), (kb, vb))| ka == kb && same_text(va, vb))
        }
        (a, b) => a == b,
    }
}

impl ReferenceAdapter {
    /// The reference with the default behaviour at every open point of the texts.
    pub fn new() -> ReferenceAdapter {
        ReferenceAdapter::with_choices(Choices::default())
    }

    /// The reference taking `choices` at the open points of the texts
    /// (`reference::choices`; `Choices::alternate()` is the alternate reference of issue 12).
    pub fn with_choices(choices: Choices) -> ReferenceAdapter {
        let name = match choices.fault() {
            Some(fault) => format!("reference (fault {})", fault.name()),
            None if choices.is_default() => "reference".to_string(),
            None if choices == Choices::alternate() => "reference (alternate choices)".to_string(),
            // The spelling replays the run (`--choices rows:...`).
            None => format!("reference (choices {})", choices.spelling()),
        };
        let mut profiles = BTreeSet::new();
        for profile in rcip::PROFILES.iter().chain(rui::PROFILES).chain(assist::PROFILES) {
            profiles.insert((*profile).to_string());
        }
        ReferenceAdapter {
            implementation: Implementation {
                name,
                version: env!("CARGO_PKG_VERSION").into(),
                protocols: [Protocol::Rcip, Protocol::Rui].into_iter().collect(),
                profiles,
                rui_limits: rui::declared_limits(&choices),
                rui_limits_measure: rui::declared_measure(&choices),
                assist_batch_bound: Some(assist::declared_batch_bound(&choices)),
                codes: None,
            },
            choices,
            current: None,
            definitions: Recent::new(),
            catalogs: Recent::new(),
        }
    }
}

impl Default for ReferenceAdapter {
    fn default() -> Self {
        ReferenceAdapter::new()
    }
}

impl Adapter for ReferenceAdapter {
    fn implementation(&self) -> &Implementation {
        &self.implementation
    }

    fn start(&mut self, _case: &str, protocol: Protocol, setup: &Value) -> Result<Reply, AdapterError> {
        let (reply, driver) = match protocol {
            Protocol::Rcip => rcip::start(setup, &self.choices, &mut self.definitions)?,
            Protocol::Rui => rui::start(setup, &self.choices, &mut self.catalogs)?,
        };
        self.current = driver;
        Ok(reply)
    }

    fn step(&mut self, step: &Value) -> Result<Reply, AdapterError> {
        match self.current.as_mut() {
            Some(driver) => driver.step(step),
            None => Err(AdapterError("step sent before a runtime was started".into())),
        }
    }

    fn finish(&mut self) {
        self.current = None;
    }
}
