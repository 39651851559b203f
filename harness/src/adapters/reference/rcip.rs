//! Placeholder mapping of the rcip vocabulary onto the reference: replaced by the rcip issue.

use serde_json::Value;

use super::Started;
use crate::adapter::{AdapterError, Reply};

pub(crate) const PROFILES: &[&str] = &[];

pub(crate) fn start(_setup: &Value) -> Result<Started, AdapterError> {
    Ok((Reply::Unsupported("the rcip reference is not built yet".into()), None))
}
