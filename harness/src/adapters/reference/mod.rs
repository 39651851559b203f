//! The in-process adapter for the bundled reference runtimes: maps each vector step of
//! `vectors/README.md` onto the `reference` crate's RCIP (`rcip.rs`) or Rixx UI (`rui.rs`) API.

mod assist;
mod rcip;
mod rui;

use std::collections::BTreeSet;

use reference::choices::Choices;
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
            None => "reference (alternate choices)".to_string(),
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
                assist_batch_bound: Some(assist::declared_batch_bound(&choices)),
            },
            choices,
            current: None,
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
            Protocol::Rcip => rcip::start(setup, &self.choices)?,
            Protocol::Rui => rui::start(setup, &self.choices)?,
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
