//! The negotiated catalog (CL-D06-1..4; spec "Graph invariants": "Components and props validate
//! against the negotiated catalog", RUI-INV-07; "Versioning": "Catalog IDs are immutable and include
//! a semantic version", RUI-VER-04).
//!
//! A catalog has a versioned id `name@semver` and, per component, a props schema compiled under the
//! strict 2020-12 profile of CL-B19 (`crate::schema::StrictSchema`), whether it takes children,
//! and which props hold action requests. An invalid catalog id, props schema or catalog shape is a
//! host configuration error: building the runtime fails.
//!
//! Catalog id syntax (decision where the texts are silent): the text after the last `@` is a
//! Semantic Versioning 2.0.0 version (`MAJOR.MINOR.PATCH`, no leading zeros, optional
//! `-prerelease` and `+build`); the name before it is non-empty ASCII letters, digits, `-`, `_`,
//! `.`, `/`, optionally starting with one `@` (an npm-style scope such as `@rixx/ui@1.0.0`).
//!
//! Validation of one node: the component must be declared (`UNKNOWN_COMPONENT`, RUI-RECOV-07), a
//! component that takes no children must have an empty child list (`CHILDREN_NOT_ALLOWED`), every
//! action prop present must hold an action request and the props must satisfy the props schema
//! (both `PROPS_INVALID`).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::actions::ActionRequest;
use super::codes::TransactionCode;
use crate::schema::{SchemaError, StrictSchema};

/// One declared component.
#[derive(Debug, Clone)]
pub struct Component {
    props: StrictSchema,
    children: bool,
    actions: BTreeSet<String>,
}

impl Component {
    /// Whether prop `name` is marked as an action (holds an action request).
    pub fn is_action(&self, name: &str) -> bool {
        self.actions.contains(name)
    }
}

/// The negotiated catalog of a runtime.
#[derive(Debug, Clone)]
pub struct Catalog {
    components: BTreeMap<String, Component>,
}

/// Why a catalog is refused (runtime creation fails).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogError {
    /// The catalog id is not `name@semver`.
    InvalidId,
    /// A component's props schema breaks the strict profile (CL-B19) or does not compile.
    PropsSchema {
        component: String,
        error: SchemaError,
    },
    /// The catalog object does not have the shape of the vector format's `catalog`.
    Malformed(String),
}

impl std::fmt::Display for CatalogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CatalogError::InvalidId => f.write_str("catalog id is not name@semver"),
            CatalogError::PropsSchema { component, error } => {
                write!(f, "props schema of component {component}: {error}")
            }
            CatalogError::Malformed(what) => write!(f, "malformed catalog: {what}"),
        }
    }
}

impl std::error::Error for CatalogError {}

impl Catalog {
    /// From the vector format's `catalog` object `{ id, components: { name: { props, children,
    /// actions? } } }`.
    pub fn from_json(catalog: &Value) -> Result<Catalog, CatalogError> {
        let malformed = |what: &str| CatalogError::Malformed(what.to_string());
        let object = catalog
            .as_object()
            .ok_or_else(|| malformed("not an object"))?;
        let id = object
            .get("id")
            .and_then(Value::as_str)
            .ok_or_else(|| malformed("id is not a string"))?;
        if !is_catalog_id(id) {
            return Err(CatalogError::InvalidId);
        }
        let declared = object
            .get("components")
            .and_then(Value::as_object)
            .ok_or_else(|| malformed("components is not an object"))?;
        let mut components = BTreeMap::new();
        for (name, component) in declared {
            components.insert(name.clone(), component_from_json(name, component)?);
        }
        Ok(Catalog { components })
    }

    pub fn component(&self, name: &str) -> Option<&Component> {
        self.components.get(name)
    }

    /// Catalog validation of one node definition (`props` is the node's props object).
    pub fn validate_node(
        &self,
        component: &str,
        props: &Value,
        children: &[String],
    ) -> Result<(), TransactionCode> {
        let declared = self
            .component(component)
            .ok_or(TransactionCode::UnknownComponent)?;
        if !declared.children && !children.is_empty() {
            return Err(TransactionCode::ChildrenNotAllowed);
        }
        for action in &declared.actions {
            if let Some(prop) = props.get(action) {
                if !ActionRequest::is_action_request(prop) {
                    return Err(TransactionCode::PropsInvalid);
                }
            }
        }
        if declared.props.is_valid(props) {
            Ok(())
        } else {
            Err(TransactionCode::PropsInvalid)
        }
    }
}

fn component_from_json(name: &str, component: &Value) -> Result<Component, CatalogError> {
    let malformed = |what: &str| CatalogError::Malformed(format!("component {name}: {what}"));
    let object = component
        .as_object()
        .ok_or_else(|| malformed("not an object"))?;
    if let Some(extra) = object
        .keys()
        .find(|k| !["props", "children", "actions"].contains(&k.as_str()))
    {
        return Err(malformed(&format!("unknown field {extra}")));
    }
    let schema = object
        .get("props")
        .ok_or_else(|| malformed("props schema missing"))?;
    let props = StrictSchema::compile(schema).map_err(|error| CatalogError::PropsSchema {
        component: name.to_string(),
        error,
    })?;
    let children = object
        .get("children")
        .and_then(Value::as_bool)
        .ok_or_else(|| malformed("children is not a boolean"))?;
    let mut actions = BTreeSet::new();
    if let Some(listed) = object.get("actions") {
        let listed = listed
            .as_array()
            .ok_or_else(|| malformed("actions is not an array"))?;
        for action in listed {
            let action = action
                .as_str()
                .ok_or_else(|| malformed("an action name is not a string"))?;
            if !actions.insert(action.to_string()) {
                return Err(malformed("an action name is listed twice"));
            }
        }
    }
    Ok(Component {
        props,
        children,
        actions,
    })
}

/// `name@semver` (see the module documentation).
pub fn is_catalog_id(id: &str) -> bool {
    let Some((name, version)) = id.rsplit_once('@') else {
        return false;
    };
    let bare = name.strip_prefix('@').unwrap_or(name);
    let name_ok = !bare.is_empty()
        && bare
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/'));
    name_ok && is_semver(version)
}

/// Semantic Versioning 2.0.0, section 2, 9 and 10.
pub fn is_semver(version: &str) -> bool {
    let (rest, build) = match version.split_once('+') {
        Some((rest, build)) => (rest, Some(build)),
        None => (version, None),
    };
    let (core, prerelease) = match rest.split_once('-') {
        Some((core, prerelease)) => (core, Some(prerelease)),
        None => (rest, None),
    };
    let core_ok = {
        let parts: Vec<&str> = core.split('.').collect();
        parts.len() == 3 && parts.iter().all(|p| is_numeric_identifier(p))
    };
    let prerelease_ok = prerelease.is_none_or(|p| {
        p.split('.').all(|id| {
            is_identifier(id)
                && (!id.bytes().all(|b| b.is_ascii_digit()) || is_numeric_identifier(id))
        })
    });
    let build_ok = build.is_none_or(|b| b.split('.').all(is_identifier));
    core_ok && prerelease_ok && build_ok
}

fn is_numeric_identifier(s: &str) -> bool {
    s == "0" || (!s.is_empty() && !s.starts_with('0') && s.bytes().all(|b| b.is_ascii_digit()))
}

fn is_identifier(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}
