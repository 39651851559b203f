//! Placeholder mapping of the rui vocabulary onto the reference: replaced by the rui issue.

use serde_json::Value;

use super::Started;
use crate::adapter::{AdapterError, Reply};

pub(crate) const PROFILES: &[&str] = &[];

pub(crate) fn start(_setup: &Value) -> Result<Started, AdapterError> {
    Ok((Reply::Unsupported("the rui reference is not built yet".into()), None))
}

pub(crate) fn declared_limits() -> Option<Value> {
    None
}
