//! Application definitions (RCIP-PROTO-DEF-02..09, CL-A02) and their creation-time validation
//! (CL-B18-5..8, CL-B19-8, RCIP-LIFE-SCHEMA-08/09): the catalog is read once from a host value,
//! copied to plain JSON (so later caller mutation changes nothing, RCIP-LIFE-JSON-01), its ids
//! checked against the grammar of CL-B18, its scopes resolved, its guidance checked, and every
//! schema compiled under the strict profile of CL-B19. Every rejection is a [`ConfigError`] with a
//! stable code and a JSON Pointer into the definition.
//!
//! The catalog's capability objects are handed out as [`CapabilityHandle`]s: binding requires the
//! catalog's own handle (identity, RCIP-LIFE-BIND-02, CL-A04-2); [`CapabilityHandle::structural_copy`]
//! makes the structurally equal impostor that binding must refuse.
//!
//! Decisions where the texts are silent: `protocolVersion` must be `"1.0"`; all schemas (input,
//! output) are compiled at creation, the "or earlier" of CL-B19-8, so an invalid schema makes
//! creation throw; a scope's `parentId` must name a declared scope; `scopeIds` must be an array of
//! declared scope ids; `tags` an array of strings; a usage example needs a string `description`
//! and an `input` valid against the input schema; members outside CL-A02 are ignored and never
//! published, but any non-JSON value anywhere (a handler function, a class instance) is refused
//! (RCIP-PROTO-DEF-12).

use std::collections::BTreeSet;
use std::fmt;
use std::rc::Rc;

use serde_json::{json, Map, Value};

use crate::schema::{SchemaError, SchemaReading, StrictSchema};

use super::ident::is_identifier;
use super::value::HostValue;

/// `RCIP_PROTOCOL_VERSION` (CL-A01-1, RCIP-PROTO-VER-03).
pub const RCIP_PROTOCOL_VERSION: &str = "1.0";

/// A host configuration error: thrown by creation, `bind` or `setContext`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigError {
    /// The definition holds a value that is not plain JSON.
    DefinitionNotPlain {
        path: String,
    },
    /// A member is missing or has the wrong type.
    DefinitionInvalid {
        path: String,
    },
    ProtocolVersionUnsupported {
        path: String,
    },
    IdentifierInvalid {
        path: String,
    },
    DuplicateId {
        path: String,
    },
    UndeclaredScope {
        path: String,
    },
    EffectInvalid {
        path: String,
    },
    GuidanceBlank {
        path: String,
    },
    ExampleInvalid {
        path: String,
    },
    /// A schema refused by the strict profile; `path` points at the schema in the definition.
    Schema {
        path: String,
        error: SchemaError,
    },
    /// `bind` got an object that is not the catalog's own capability definition.
    BindNotCatalogDefinition {
        capability: String,
    },
    /// `bind` while another binding for the id is live (CL-B20-1).
    BindDuplicate {
        capability: String,
    },
    /// `setContext` got something that is not `{ activeScopeIds: string[], primaryScopeId? }`.
    ContextInvalid,
    /// `setContext` named a scope the catalog does not declare (CL-B21-1).
    ContextUndeclaredScope {
        scope: String,
    },
    /// `setContext` named a primary scope that is not active (CL-B21-2).
    ContextPrimaryInactive {
        scope: String,
    },
    /// A runtime option out of range (a zero confirmation TTL).
    OptionInvalid {
        option: String,
    },
}

impl ConfigError {
    pub fn code(&self) -> &'static str {
        match self {
            ConfigError::DefinitionNotPlain { .. } => "DEFINITION_NOT_PLAIN_JSON",
            ConfigError::DefinitionInvalid { .. } => "DEFINITION_INVALID",
            ConfigError::ProtocolVersionUnsupported { .. } => "PROTOCOL_VERSION_UNSUPPORTED",
            ConfigError::IdentifierInvalid { .. } => "IDENTIFIER_INVALID",
            ConfigError::DuplicateId { .. } => "IDENTIFIER_DUPLICATE",
            ConfigError::UndeclaredScope { .. } => "SCOPE_UNDECLARED",
            ConfigError::EffectInvalid { .. } => "EFFECT_INVALID",
            ConfigError::GuidanceBlank { .. } => "USAGE_GUIDANCE_BLANK",
            ConfigError::ExampleInvalid { .. } => "USAGE_EXAMPLE_INVALID",
            ConfigError::Schema { error, .. } => error.code(),
            ConfigError::BindNotCatalogDefinition { .. } => "BIND_NOT_CATALOG_DEFINITION",
            ConfigError::BindDuplicate { .. } => "BIND_DUPLICATE",
            ConfigError::ContextInvalid => "CONTEXT_INVALID",
            ConfigError::ContextUndeclaredScope { .. } => "CONTEXT_UNDECLARED_SCOPE",
            ConfigError::ContextPrimaryInactive { .. } => "CONTEXT_PRIMARY_INACTIVE",
            ConfigError::OptionInvalid { .. } => "OPTION_INVALID",
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {self:?}", self.code())
    }
}

impl std::error::Error for ConfigError {}

/// The four effects (RCIP-PROTO-DEF-06).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Effect {
    Read,
    Write,
    External,
    Destructive,
}

impl Effect {
    pub fn parse(text: &str) -> Option<Effect> {
        match text {
            "read" => Some(Effect::Read),
            "write" => Some(Effect::Write),
            "external" => Some(Effect::External),
            "destructive" => Some(Effect::Destructive),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Read => "read",
            Effect::Write => "write",
            Effect::External => "external",
            Effect::Destructive => "destructive",
        }
    }
}

/// One declared capability: its public contract and compiled schemas.
#[derive(Debug)]
pub struct CapabilityDef {
    pub id: String,
    pub title: String,
    pub description: String,
    pub scope_ids: Vec<String>,
    pub effect: Effect,
    pub input: StrictSchema,
    pub output: StrictSchema,
    /// The published contract members of CL-A07-3 (no live fields).
    pub contract: Map<String, Value>,
}

/// A capability object of a catalog. Clones are the same object; a structural copy is not.
#[derive(Debug, Clone)]
pub struct CapabilityHandle(Rc<CapabilityDef>);

impl CapabilityHandle {
    pub fn def(&self) -> &CapabilityDef {
        &self.0
    }

    pub fn id(&self) -> &str {
        &self.0.id
    }

    /// Whether both handles are the same object (not merely equal).
    pub fn same(&self, other: &CapabilityHandle) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }

    /// A structurally equal but distinct object, as a caller cloning the definition would make.
    pub fn structural_copy(&self) -> CapabilityHandle {
        let def = &self.0;
        CapabilityHandle(Rc::new(CapabilityDef {
            id: def.id.clone(),
            title: def.title.clone(),
            description: def.description.clone(),
            scope_ids: def.scope_ids.clone(),
            effect: def.effect,
            input: def.input.clone(),
            output: def.output.clone(),
            contract: def.contract.clone(),
        }))
    }
}

/// A declared scope.
#[derive(Debug, Clone)]
pub struct ScopeDef {
    pub id: String,
    pub parent_id: Option<String>,
    /// `{ id, title, description, parentId? }` as published.
    pub published: Value,
}

#[derive(Debug)]
struct Catalog {
    application: Value,
    scopes: Vec<ScopeDef>,
    capabilities: Vec<CapabilityHandle>,
}

/// A validated application definition (`defineRcipApplication`). Cloning shares the catalog:
/// runtimes created from clones share capability objects but nothing live (CL-B25).
#[derive(Debug, Clone)]
pub struct Definition(Rc<Catalog>);

impl Definition {
    /// Reads and validates a definition (CL-A02) as a host passes it.
    pub fn define(value: &HostValue) -> Result<Definition, ConfigError> {
        Definition::define_reading(value, SchemaReading::default())
    }

    /// [`Definition::define`] with the schema profile read as `reading` says (PRJ-RCIP-SCHEMA-01,
    /// the row `schema-ref-non-schema-unchecked`).
    pub fn define_reading(
        value: &HostValue,
        reading: SchemaReading,
    ) -> Result<Definition, ConfigError> {
        let plain = value
            .to_plain_json()
            .map_err(|e| ConfigError::DefinitionNotPlain {
                path: e.path().to_string(),
            })?;
        Definition::from_json_reading(&plain, reading)
    }

    /// Reads and validates a definition that is already plain JSON.
    pub fn from_json(plain: &Value) -> Result<Definition, ConfigError> {
        Definition::from_json_reading(plain, SchemaReading::default())
    }

    /// [`Definition::from_json`] with the schema profile read as `reading` says.
    pub fn from_json_reading(
        plain: &Value,
        reading: SchemaReading,
    ) -> Result<Definition, ConfigError> {
        let root = object(plain, "")?;
        match root.get("protocolVersion") {
            Some(Value::String(version)) if version == RCIP_PROTOCOL_VERSION => {}
            _ => {
                return Err(ConfigError::ProtocolVersionUnsupported {
                    path: "/protocolVersion".into(),
                })
            }
        }
        let application = read_application(root.get("application"))?;
        let scopes = read_scopes(root.get("scopes"))?;
        let declared: BTreeSet<&str> = scopes.iter().map(|s| s.id.as_str()).collect();
        let capabilities = read_capabilities(root.get("capabilities"), &declared, reading)?;
        Ok(Definition(Rc::new(Catalog {
            application,
            scopes,
            capabilities,
        })))
    }

    /// Every id of the catalog with the path where it was given: the application's, then each
    /// scope's, then each capability's.
    pub fn ids(&self) -> Vec<(String, String)> {
        let mut ids = Vec::new();
        if let Some(id) = self.0.application.get("id").and_then(Value::as_str) {
            ids.push(("/application/id".to_string(), id.to_string()));
        }
        for (index, scope) in self.0.scopes.iter().enumerate() {
            ids.push((format!("/scopes/{index}/id"), scope.id.clone()));
        }
        for (index, capability) in self.0.capabilities.iter().enumerate() {
            ids.push((
                format!("/capabilities/{index}/id"),
                capability.id().to_string(),
            ));
        }
        ids
    }

    /// The path of the first capability id that is also a scope id or the application id
    /// (PRJ-RCIP-ID-01: whether that is a duplicate is the implementation's choice).
    pub fn id_shared_across_kinds(&self) -> Option<String> {
        let application = self.0.application.get("id").and_then(Value::as_str);
        self.0
            .capabilities
            .iter()
            .position(|c| {
                Some(c.id()) == application || self.0.scopes.iter().any(|scope| scope.id == c.id())
            })
            .map(|index| format!("/capabilities/{index}/id"))
    }

    /// The catalog's own capability object for `id`.
    pub fn capability(&self, id: &str) -> Option<CapabilityHandle> {
        self.0.capabilities.iter().find(|c| c.id() == id).cloned()
    }

    pub fn capabilities(&self) -> &[CapabilityHandle] {
        &self.0.capabilities
    }

    pub fn scopes(&self) -> &[ScopeDef] {
        &self.0.scopes
    }

    pub fn application(&self) -> &Value {
        &self.0.application
    }

    pub fn declares_scope(&self, id: &str) -> bool {
        self.0.scopes.iter().any(|s| s.id == id)
    }
}

fn invalid(path: &str) -> ConfigError {
    ConfigError::DefinitionInvalid {
        path: path.to_string(),
    }
}

fn object<'a>(value: &'a Value, path: &str) -> Result<&'a Map<String, Value>, ConfigError> {
    value.as_object().ok_or_else(|| invalid(path))
}

fn string<'a>(map: &'a Map<String, Value>, key: &str, path: &str) -> Result<&'a str, ConfigError> {
    map.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| invalid(&format!("{path}/{key}")))
}

fn optional_string<'a>(
    map: &'a Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<Option<&'a str>, ConfigError> {
    match map.get(key) {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(invalid(&format!("{path}/{key}"))),
    }
}

fn identifier<'a>(map: &'a Map<String, Value>, path: &str) -> Result<&'a str, ConfigError> {
    let id = string(map, "id", path)?;
    if is_identifier(id) {
        Ok(id)
    } else {
        Err(ConfigError::IdentifierInvalid {
            path: format!("{path}/id"),
        })
    }
}

fn read_application(value: Option<&Value>) -> Result<Value, ConfigError> {
    let path = "/application";
    let map = object(value.ok_or_else(|| invalid(path))?, path)?;
    let id = identifier(map, path)?;
    let name = string(map, "name", path)?;
    let description = string(map, "description", path)?;
    let mut published = Map::new();
    published.insert("id".into(), json!(id));
    published.insert("name".into(), json!(name));
    published.insert("description".into(), json!(description));
    if let Some(version) = optional_string(map, "version", path)? {
        published.insert("version".into(), json!(version));
    }
    Ok(Value::Object(published))
}

fn read_scopes(value: Option<&Value>) -> Result<Vec<ScopeDef>, ConfigError> {
    let items = value
        .and_then(Value::as_array)
        .ok_or_else(|| invalid("/scopes"))?;
    let mut scopes: Vec<ScopeDef> = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let path = format!("/scopes/{index}");
        let map = object(item, &path)?;
        let id = identifier(map, &path)?;
        if scopes.iter().any(|s| s.id == id) {
            return Err(ConfigError::DuplicateId {
                path: format!("{path}/id"),
            });
        }
        let title = string(map, "title", &path)?;
        let description = string(map, "description", &path)?;
        let parent_id = optional_string(map, "parentId", &path)?.map(str::to_string);
        let mut published = Map::new();
        published.insert("id".into(), json!(id));
        published.insert("title".into(), json!(title));
        published.insert("description".into(), json!(description));
        if let Some(parent) = &parent_id {
            published.insert("parentId".into(), json!(parent));
        }
        scopes.push(ScopeDef {
            id: id.to_string(),
            parent_id,
            published: Value::Object(published),
        });
    }
    for (index, scope) in scopes.iter().enumerate() {
        if let Some(parent) = &scope.parent_id {
            if !scopes.iter().any(|s| &s.id == parent) {
                return Err(ConfigError::UndeclaredScope {
                    path: format!("/scopes/{index}/parentId"),
                });
            }
        }
    }
    Ok(scopes)
}

fn read_capabilities(
    value: Option<&Value>,
    declared: &BTreeSet<&str>,
    reading: SchemaReading,
) -> Result<Vec<CapabilityHandle>, ConfigError> {
    let items = value
        .and_then(Value::as_array)
        .ok_or_else(|| invalid("/capabilities"))?;
    let mut capabilities: Vec<CapabilityHandle> = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let path = format!("/capabilities/{index}");
        let capability = read_capability(item, &path, declared, reading)?;
        if capabilities.iter().any(|c| c.id() == capability.id) {
            return Err(ConfigError::DuplicateId {
                path: format!("{path}/id"),
            });
        }
        capabilities.push(CapabilityHandle(Rc::new(capability)));
    }
    Ok(capabilities)
}

fn read_capability(
    item: &Value,
    path: &str,
    declared: &BTreeSet<&str>,
    reading: SchemaReading,
) -> Result<CapabilityDef, ConfigError> {
    let map = object(item, path)?;
    let id = identifier(map, path)?;
    let title = string(map, "title", path)?;
    let description = string(map, "description", path)?;
    let scope_values = map
        .get("scopeIds")
        .and_then(Value::as_array)
        .ok_or_else(|| invalid(&format!("{path}/scopeIds")))?;
    let mut scope_ids = Vec::with_capacity(scope_values.len());
    for (index, scope) in scope_values.iter().enumerate() {
        let scope_path = format!("{path}/scopeIds/{index}");
        let scope = scope.as_str().ok_or_else(|| invalid(&scope_path))?;
        if !declared.contains(scope) {
            return Err(ConfigError::UndeclaredScope { path: scope_path });
        }
        scope_ids.push(scope.to_string());
    }
    let effect_text = string(map, "effect", path)?;
    let effect = Effect::parse(effect_text).ok_or_else(|| ConfigError::EffectInvalid {
        path: format!("{path}/effect"),
    })?;
    let input_schema = map
        .get("inputSchema")
        .ok_or_else(|| invalid(&format!("{path}/inputSchema")))?;
    let output_schema = map
        .get("outputSchema")
        .ok_or_else(|| invalid(&format!("{path}/outputSchema")))?;
    let input = compile(input_schema, &format!("{path}/inputSchema"), reading)?;
    let output = compile(output_schema, &format!("{path}/outputSchema"), reading)?;
    let tags = match map.get("tags") {
        None => Vec::new(),
        Some(Value::Array(tags)) => {
            let mut out = Vec::with_capacity(tags.len());
            for (index, tag) in tags.iter().enumerate() {
                out.push(
                    tag.as_str()
                        .ok_or_else(|| invalid(&format!("{path}/tags/{index}")))?
                        .to_string(),
                );
            }
            out
        }
        Some(_) => return Err(invalid(&format!("{path}/tags"))),
    };
    let usage = match map.get("usage") {
        None => None,
        Some(usage) => Some(read_usage(usage, &format!("{path}/usage"), &input)?),
    };
    let mut contract = Map::new();
    contract.insert("id".into(), json!(id));
    contract.insert("title".into(), json!(title));
    contract.insert("description".into(), json!(description));
    contract.insert("scopeIds".into(), json!(scope_ids));
    contract.insert("effect".into(), json!(effect.as_str()));
    contract.insert("inputSchema".into(), input_schema.clone());
    contract.insert("outputSchema".into(), output_schema.clone());
    contract.insert("tags".into(), json!(tags));
    if let Some(usage) = usage {
        contract.insert("usage".into(), usage);
    }
    Ok(CapabilityDef {
        id: id.to_string(),
        title: title.to_string(),
        description: description.to_string(),
        scope_ids,
        effect,
        input,
        output,
        contract,
    })
}

fn compile(
    schema: &Value,
    path: &str,
    reading: SchemaReading,
) -> Result<StrictSchema, ConfigError> {
    StrictSchema::compile_reading(schema, reading).map_err(|error| ConfigError::Schema {
        path: path.to_string(),
        error,
    })
}

/// Usage guidance (RCIP-PROTO-DEF-09, CL-B18-7/8): a non-blank `whenToUse`, and examples whose
/// input is valid against the capability's input schema. Returns the published form.
fn read_usage(usage: &Value, path: &str, input: &StrictSchema) -> Result<Value, ConfigError> {
    let map = object(usage, path)?;
    let when = string(map, "whenToUse", path)?;
    if when.trim().is_empty() {
        return Err(ConfigError::GuidanceBlank {
            path: format!("{path}/whenToUse"),
        });
    }
    let mut published = Map::new();
    published.insert("whenToUse".into(), json!(when));
    match map.get("examples") {
        None => {}
        Some(Value::Array(examples)) => {
            let mut out = Vec::with_capacity(examples.len());
            for (index, example) in examples.iter().enumerate() {
                let example_path = format!("{path}/examples/{index}");
                let example_map = object(example, &example_path)?;
                let description = string(example_map, "description", &example_path)?;
                let example_input = example_map
                    .get("input")
                    .ok_or_else(|| invalid(&format!("{example_path}/input")))?;
                if !input.is_valid(example_input) {
                    return Err(ConfigError::ExampleInvalid {
                        path: format!("{example_path}/input"),
                    });
                }
                out.push(json!({ "description": description, "input": example_input }));
            }
            published.insert("examples".into(), Value::Array(out));
        }
        Some(_) => return Err(invalid(&format!("{path}/examples"))),
    }
    Ok(Value::Object(published))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Value {
        json!({
            "protocolVersion": "1.0",
            "application": { "id": "notes", "name": "Notes", "description": "A notes app" },
            "scopes": [ { "id": "notes", "title": "Notes", "description": "Notes area" } ],
            "capabilities": [ {
                "id": "notes.create", "title": "Create", "description": "Creates a note",
                "scopeIds": ["notes"], "effect": "write",
                "inputSchema": { "type": "object", "properties": { "text": { "type": "string" } },
                                 "required": ["text"], "additionalProperties": false },
                "outputSchema": { "type": "object" }
            } ]
        })
    }

    fn code_of(change: impl FnOnce(&mut Value)) -> &'static str {
        let mut value = base();
        change(&mut value);
        match Definition::from_json(&value) {
            Ok(_) => "OK",
            Err(error) => error.code(),
        }
    }

    fn set(value: &mut Value, pointer: &str, new: Value) {
        if let Some(slot) = value.pointer_mut(pointer) {
            *slot = new;
        }
    }

    #[test]
    fn the_base_definition_is_valid_and_published_with_empty_tags() {
        let def = Definition::from_json(&base());
        let Ok(def) = def else { panic!("{def:?}") };
        let cap = def.capability("notes.create");
        assert_eq!(
            cap.map(|c| c.def().contract.get("tags").cloned()),
            Some(Some(json!([])))
        );
    }

    // CL-B18-5: invalid and duplicate ids (application, scope, capability).
    #[test]
    fn invalid_and_duplicate_ids() {
        assert_eq!(
            code_of(|v| set(v, "/application/id", json!("Notes"))),
            "IDENTIFIER_INVALID"
        );
        assert_eq!(
            code_of(|v| set(v, "/scopes/0/id", json!("9notes"))),
            "IDENTIFIER_INVALID"
        );
        assert_eq!(
            code_of(|v| set(v, "/capabilities/0/id", json!("notes.2"))),
            "IDENTIFIER_INVALID"
        );
        assert_eq!(
            code_of(|v| {
                let scope = v.pointer("/scopes/0").cloned().unwrap_or(Value::Null);
                if let Some(scopes) = v.pointer_mut("/scopes").and_then(Value::as_array_mut) {
                    scopes.push(scope);
                }
            }),
            "IDENTIFIER_DUPLICATE"
        );
        assert_eq!(
            code_of(|v| {
                let cap = v.pointer("/capabilities/0").cloned().unwrap_or(Value::Null);
                if let Some(caps) = v.pointer_mut("/capabilities").and_then(Value::as_array_mut) {
                    caps.push(cap);
                }
            }),
            "IDENTIFIER_DUPLICATE"
        );
    }

    // CL-B18-6: a capability citing an undeclared scope.
    #[test]
    fn undeclared_scopes() {
        assert_eq!(
            code_of(|v| set(v, "/capabilities/0/scopeIds", json!(["notes", "archive"]))),
            "SCOPE_UNDECLARED"
        );
    }

    // CL-B18-7/8: blank guidance and examples failing the input schema.
    #[test]
    fn guidance_rules() {
        let usage = |u: Value| {
            move |v: &mut Value| {
                if let Some(cap) = v
                    .pointer_mut("/capabilities/0")
                    .and_then(Value::as_object_mut)
                {
                    cap.insert("usage".into(), u);
                }
            }
        };
        assert_eq!(
            code_of(usage(json!({ "whenToUse": "  \t" }))),
            "USAGE_GUIDANCE_BLANK"
        );
        assert_eq!(
            code_of(usage(json!({ "whenToUse": "" }))),
            "USAGE_GUIDANCE_BLANK"
        );
        assert_eq!(
            code_of(usage(
                json!({ "whenToUse": "x", "examples": [{ "description": "d", "input": { "text": 1 } }] })
            )),
            "USAGE_EXAMPLE_INVALID"
        );
        assert_eq!(
            code_of(usage(
                json!({ "whenToUse": "x", "examples": [{ "description": "d", "input": { "text": "a" } }] })
            )),
            "OK"
        );
    }

    // CL-B19-8: an invalid schema is a configuration error no later than binding (here: creation).
    #[test]
    fn invalid_schemas_fail_creation() {
        assert_eq!(
            code_of(|v| set(
                v,
                "/capabilities/0/outputSchema",
                json!({ "format": "email" })
            )),
            "SCHEMA_FORMAT_FORBIDDEN"
        );
        assert_eq!(
            code_of(|v| set(v, "/capabilities/0/inputSchema", json!({ "type": 7 }))),
            "SCHEMA_INVALID"
        );
    }

    #[test]
    fn other_shape_errors() {
        assert_eq!(
            code_of(|v| set(v, "/protocolVersion", json!("2.0"))),
            "PROTOCOL_VERSION_UNSUPPORTED"
        );
        assert_eq!(
            code_of(|v| set(v, "/capabilities/0/effect", json!("delete"))),
            "EFFECT_INVALID"
        );
        assert_eq!(
            code_of(|v| set(v, "/capabilities/0/title", json!(3))),
            "DEFINITION_INVALID"
        );
        assert_eq!(
            code_of(|v| set(v, "/scopes", json!({}))),
            "DEFINITION_INVALID"
        );
    }

    // RCIP-PROTO-DEF-12: a definition holding a handler function is refused.
    #[test]
    fn non_json_definitions_are_refused() {
        let value = HostValue::from_json(&base());
        if let Ok(cap) = value.at_pointer("/capabilities/0") {
            if let Some(object) = cap.as_object() {
                object.insert("execute", HostValue::Function);
            }
        }
        assert_eq!(
            Definition::define(&value).map(|_| ()).map_err(|e| e.code()),
            Err("DEFINITION_NOT_PLAIN_JSON")
        );
    }

    // PRJ-RCIP-ID-01: a capability id equal to a scope id or the application id is found.
    #[test]
    fn ids_shared_across_kinds_are_found() {
        let Ok(distinct) = Definition::from_json(&base()) else {
            panic!("valid")
        };
        assert_eq!(distinct.id_shared_across_kinds(), None);
        let mut shared = base();
        shared["capabilities"][0]["id"] = json!("notes");
        let Ok(shared) = Definition::from_json(&shared) else {
            panic!("valid under separate namespaces")
        };
        assert_eq!(
            shared.id_shared_across_kinds().as_deref(),
            Some("/capabilities/0/id")
        );
    }

    // CL-A04-2: identity, not structure.
    #[test]
    fn structural_copies_are_not_the_same_object() {
        let Ok(def) = Definition::from_json(&base()) else {
            panic!("valid")
        };
        let (Some(a), Some(b)) = (
            def.capability("notes.create"),
            def.capability("notes.create"),
        ) else {
            panic!("declared")
        };
        assert!(a.same(&b));
        assert!(!a.same(&a.structural_copy()));
    }
}
