//! The in-process adapter for the bundled reference runtimes: maps each vector step of
//! `vectors/README.md` onto the `reference` crate's RCIP (`rcip.rs`) or Rixx UI (`rui.rs`) API.

mod assist;
mod rcip;
mod rui;

use std::collections::BTreeSet;

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
    current: Option<Box<dyn CaseDriver>>,
}

impl ReferenceAdapter {
    pub fn new() -> ReferenceAdapter {
        let mut profiles = BTreeSet::new();
        for profile in rcip::PROFILES.iter().chain(rui::PROFILES).chain(assist::PROFILES) {
            profiles.insert((*profile).to_string());
        }
        ReferenceAdapter {
            implementation: Implementation {
                name: "reference".into(),
                version: env!("CARGO_PKG_VERSION").into(),
                protocols: [Protocol::Rcip, Protocol::Rui].into_iter().collect(),
                profiles,
                rui_limits: rui::declared_limits(),
                assist_batch_bound: Some(assist::DECLARED_BATCH_BOUND),
            },
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
            Protocol::Rcip => rcip::start(setup)?,
            Protocol::Rui => rui::start(setup)?,
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
