//! The schema profile "JSON Schema 2020-12, strict" of CL-B19 (spec 001 "JSON Schema support"),
//! shared by RCIP input/output schemas and Rixx UI catalog props (CL-D06). Compilation is a
//! strictness walk followed by a draft 2020-12 build on the `jsonschema` crate (default features
//! off, offline, a retriever that refuses everything): no network or file access ever.
//!
//! The walk knows which keywords hold one subschema, an array of subschemas or a map of subschemas,
//! visits every schema position (including `$defs` entries nothing references) and the targets of
//! JSON-pointer `$ref`s, and rejects: a keyword that is not a 2020-12 keyword
//! (`SCHEMA_UNKNOWN_KEYWORD`; so `definitions`, `dependencies`, `additionalItems`, `nullable`, `id`
//! are rejected), any `format` (`SCHEMA_FORMAT_FORBIDDEN`), any `$ref`/`$dynamicRef` that is not a
//! fragment of the same document (`SCHEMA_REMOTE_REF`), a `$schema` other than 2020-12
//! (`SCHEMA_UNSUPPORTED_DIALECT`), nesting deeper than [`MAX_SCHEMA_DEPTH`] (`SCHEMA_TOO_DEEP`),
//! and whatever the compiler refuses, e.g. a schema that breaks the meta-schema, a bad regex or a
//! dangling `$ref` (`SCHEMA_INVALID`).
//!
//! Validation never coerces, never applies `default`, never removes properties; it reports every
//! error as an (instancePath, keyword) pair, sorted and deduplicated so the result does not depend
//! on the key order of the schema, and named as Ajv (the validator the spec names) names them
//! where the crate differs (`false schema`, `items` after `prefixItems`, `additionalProperties`,
//! `dependentRequired`; see `StrictSchema::ajv_issue`). Decisions where CL-B19 leaves a choice (IMPL-DEFINED): `$anchor`
//! is accepted; `properties` without `type`, union types, tuples without bounds and `required`
//! naming undeclared properties are accepted; unreferenced `$defs` entries are checked; a `$ref`
//! must be fragment-only (`#...`, or empty) even where an embedded `$id` would make another form
//! resolvable inside the document.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, OnceLock};

use jsonschema::{Draft, Retrieve, Uri, Validator};
use serde_json::Value;

/// Deepest nesting of schema objects the walker accepts; deeper schemas are refused before the
/// compiler (which recurses) sees them.
pub const MAX_SCHEMA_DEPTH: usize = 64;

/// Compiled validators shared between identical schemas: at most this many are cached.
const CACHE_CAPACITY: usize = 1024;

const DIALECT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// Keywords whose value is one subschema.
const SINGLE_SUBSCHEMA: &[&str] = &[
    "additionalProperties",
    "propertyNames",
    "items",
    "contains",
    "if",
    "then",
    "else",
    "not",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
];

/// Keywords whose value is an array of subschemas.
const ARRAY_OF_SUBSCHEMAS: &[&str] = &["prefixItems", "allOf", "anyOf", "oneOf"];

/// Keywords whose value is an object mapping names to subschemas.
const MAP_OF_SUBSCHEMAS: &[&str] = &[
    "properties",
    "patternProperties",
    "dependentSchemas",
    "$defs",
];

/// The other keywords of the 2020-12 vocabularies (core, validation, meta-data, content); their
/// values hold no subschema. `format` is a 2020-12 keyword but is refused by the profile.
const PLAIN_KEYWORDS: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$vocabulary",
    "$comment",
    "type",
    "const",
    "enum",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "title",
    "description",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "examples",
    "contentEncoding",
    "contentMediaType",
];

/// One validation error: where in the instance, and which keyword failed.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct SchemaIssue {
    /// JSON Pointer into the instance (`""` for the root).
    pub instance_path: String,
    pub keyword: String,
}

/// Why a schema is refused (a host configuration error of CL-B19).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaError {
    /// A keyword outside draft 2020-12 at `path` (the pointer of the keyword itself).
    UnknownKeyword { path: String, keyword: String },
    /// A `format` keyword at `path`.
    FormatForbidden { path: String },
    /// A `$ref` or `$dynamicRef` that leaves the document.
    RemoteRef { path: String, reference: String },
    /// A `$schema` other than draft 2020-12.
    UnsupportedDialect { path: String },
    /// Schema objects nested deeper than [`MAX_SCHEMA_DEPTH`].
    TooDeep { path: String },
    /// The compiler refused the schema (meta-schema violation, bad regex, dangling `$ref`, ...).
    Invalid { path: String },
}

impl SchemaError {
    /// The stable code of this rejection.
    pub fn code(&self) -> &'static str {
        match self {
            SchemaError::UnknownKeyword { .. } => "SCHEMA_UNKNOWN_KEYWORD",
            SchemaError::FormatForbidden { .. } => "SCHEMA_FORMAT_FORBIDDEN",
            SchemaError::RemoteRef { .. } => "SCHEMA_REMOTE_REF",
            SchemaError::UnsupportedDialect { .. } => "SCHEMA_UNSUPPORTED_DIALECT",
            SchemaError::TooDeep { .. } => "SCHEMA_TOO_DEEP",
            SchemaError::Invalid { .. } => "SCHEMA_INVALID",
        }
    }

    /// JSON Pointer into the schema where the problem is (`""` when the compiler gave no place).
    pub fn path(&self) -> &str {
        match self {
            SchemaError::UnknownKeyword { path, .. }
            | SchemaError::FormatForbidden { path }
            | SchemaError::RemoteRef { path, .. }
            | SchemaError::UnsupportedDialect { path }
            | SchemaError::TooDeep { path }
            | SchemaError::Invalid { path } => path,
        }
    }
}

impl std::fmt::Display for SchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at '{}'", self.code(), self.path())
    }
}

impl std::error::Error for SchemaError {}

/// A schema that passed the strict profile, compiled for draft 2020-12. Cloning shares the
/// compiled validator.
#[derive(Clone)]
pub struct StrictSchema {
    compiled: Arc<Compiled>,
}

/// A compiled validator with the schema it came from (error locations point into it).
struct Compiled {
    validator: Validator,
    schema: Value,
}

impl std::fmt::Debug for StrictSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StrictSchema")
    }
}

impl StrictSchema {
    /// Checks the strict profile, then compiles. Identical schemas (same canonical JSON text)
    /// share one compiled validator.
    pub fn compile(schema: &Value) -> Result<StrictSchema, SchemaError> {
        StrictSchema::compile_reading(schema, SchemaReading::default())
    }

    /// [`StrictSchema::compile`] with the profile read as `reading` says. The compiled validator
    /// does not depend on the reading (only the profile walk does), so the cache is shared.
    pub fn compile_reading(
        schema: &Value,
        reading: SchemaReading,
    ) -> Result<StrictSchema, SchemaError> {
        check_profile(schema, reading)?;
        let key = canonical_text(schema);
        if let Some(compiled) = cache_get(&key) {
            return Ok(StrictSchema { compiled });
        }
        let validator = jsonschema::options()
            .with_draft(Draft::Draft202012)
            .should_validate_formats(false)
            .with_retriever(RefuseEverything)
            .build(schema)
            .map_err(|error| SchemaError::Invalid {
                path: error.instance_path().as_str().to_string(),
            })?;
        let compiled = Arc::new(Compiled {
            validator,
            schema: schema.clone(),
        });
        cache_put(key, Arc::clone(&compiled));
        Ok(StrictSchema { compiled })
    }

    /// Every validation error as (instancePath, keyword), sorted and without duplicates; empty
    /// when the instance is valid. The instance is only read.
    pub fn validate(&self, instance: &Value) -> Vec<SchemaIssue> {
        // Most instances are valid: the boolean check allocates nothing, error collection does.
        if self.is_valid(instance) {
            return Vec::new();
        }
        let issues: BTreeSet<SchemaIssue> = self
            .compiled
            .validator
            .iter_errors(instance)
            .map(|error| {
                self.ajv_issue(
                    error.instance_path().as_str(),
                    error.kind().keyword(),
                    error.schema_path().as_str(),
                )
            })
            .collect();
        issues.into_iter().collect()
    }

    /// Whether the instance is valid (cheaper than [`StrictSchema::validate`]).
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.compiled.validator.is_valid(instance)
    }

    /// The (instancePath, keyword) pair Ajv, the validator the spec names (RCIP-LIFE-SCHEMA-01),
    /// reports for one error of the crate (CL-B19-10, RECOMMENDED). Where they differ:
    /// - a `false` schema is keyword `false schema`, except as the value of
    ///   `additionalProperties` (keyword `additionalProperties`, at the object) and of `items`
    ///   after `prefixItems` (keyword `items`, at the array: one issue, not one per extra item);
    /// - a missing dependency of `dependentRequired` is keyword `dependentRequired`, not
    ///   `required`.
    fn ajv_issue(&self, instance_path: &str, keyword: &str, schema_path: &str) -> SchemaIssue {
        let issue = |path: &str, keyword: &str| SchemaIssue {
            instance_path: path.to_string(),
            keyword: keyword.to_string(),
        };
        let (parent, last) = match schema_path.rsplit_once('/') {
            Some((parent, last)) => (parent, last),
            None => ("", schema_path),
        };
        match keyword {
            "falseSchema" if last == "additionalProperties" => {
                issue(instance_path, "additionalProperties")
            }
            "falseSchema" if last == "items" && self.has_prefix_items(parent) => {
                let array = instance_path
                    .rsplit_once('/')
                    .map_or("", |(array, _)| array);
                issue(array, "items")
            }
            "falseSchema" => issue(instance_path, "false schema"),
            "required" if last == "dependentRequired" => issue(instance_path, "dependentRequired"),
            _ => issue(instance_path, keyword),
        }
    }

    /// Whether the schema object at `pointer` (in the compiled schema) has `prefixItems`.
    fn has_prefix_items(&self, pointer: &str) -> bool {
        self.compiled
            .schema
            .pointer(pointer)
            .is_some_and(|schema| schema.get("prefixItems").is_some())
    }
}

/// The retriever of every build: nothing outside the document is ever loaded.
struct RefuseEverything;

impl Retrieve for RefuseEverything {
    fn retrieve(
        &self,
        uri: &Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        Err(format!("the strict schema profile loads nothing: {}", uri.as_str()).into())
    }
}

fn cache() -> &'static Mutex<BTreeMap<String, Arc<Compiled>>> {
    static CACHE: OnceLock<Mutex<BTreeMap<String, Arc<Compiled>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(BTreeMap::new()))
}

fn cache_get(key: &str) -> Option<Arc<Compiled>> {
    // A poisoned lock only means another thread panicked while holding it; the map is still sound.
    let map = cache()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    map.get(key).cloned()
}

fn cache_put(key: String, compiled: Arc<Compiled>) {
    let mut map = cache()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    // A full cache stops growing; results never depend on whether a validator was cached.
    if map.len() < CACHE_CAPACITY {
        map.insert(key, compiled);
    }
}

/// JSON text with object keys sorted at every level: equal for schemas that differ only in key
/// order.
pub fn canonical_text(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let sorted: BTreeMap<&String, &Value> = map.iter().collect();
            out.push('{');
            for (index, (key, member)) in sorted.into_iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(member, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// How the strict profile is read where the texts leave it open.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SchemaReading {
    /// PRJ-RCIP-SCHEMA-01 (RECOMMENDED) holds the target of a `$ref` into a value that is not a
    /// schema position (`const`, `enum`, `default`, `examples`) to the profile; under the row
    /// `schema-ref-non-schema-unchecked` the walk leaves such a target alone and the validator
    /// applies it as a schema, ignoring the keywords it does not assert (2020-12 Core §9.4.2
    /// leaves the behaviour undefined).
    pub non_schema_targets_unchecked: bool,
}

impl SchemaReading {
    /// The reading a runtime takes under these choices.
    pub fn of(choices: &crate::choices::Choices) -> SchemaReading {
        SchemaReading {
            non_schema_targets_unchecked: choices
                .takes(crate::choices::Choice::SchemaRefNonSchemaUnchecked),
        }
    }
}

/// Keywords whose value is data, not a schema: a pointer through one of them leaves the schema.
const NON_SCHEMA_VALUES: [&str; 4] = ["const", "enum", "default", "examples"];

/// The strictness walk over the whole document (CL-B19).
fn check_profile(root: &Value, reading: SchemaReading) -> Result<(), SchemaError> {
    let mut walker = Walker {
        root,
        visited: BTreeSet::new(),
        reading,
    };
    walker.walk(root, String::new(), String::new(), 0)
}

struct Walker<'a> {
    root: &'a Value,
    /// Document pointers already walked (a `$ref` target may be reached many times, or loop).
    visited: BTreeSet<String>,
    reading: SchemaReading,
}

impl<'a> Walker<'a> {
    /// Walks the schema at document pointer `path`; `resource` is the document pointer of the
    /// nearest enclosing schema resource (the root, or a subschema with its own `$id`), against
    /// which fragment `$ref`s resolve.
    fn walk(
        &mut self,
        schema: &'a Value,
        path: String,
        resource: String,
        depth: usize,
    ) -> Result<(), SchemaError> {
        if depth > MAX_SCHEMA_DEPTH {
            return Err(SchemaError::TooDeep { path });
        }
        if !self.visited.insert(path.clone()) {
            return Ok(());
        }
        // Boolean schemas are complete; any other non-object is for the meta-schema to refuse.
        let Value::Object(members) = schema else {
            return Ok(());
        };
        let resource = if !path.is_empty() && members.get("$id").is_some_and(Value::is_string) {
            path.clone()
        } else {
            resource
        };
        let sorted: BTreeMap<&String, &Value> = members.iter().collect();
        for (keyword, value) in sorted {
            let here = format!("{path}/{}", escape_pointer(keyword));
            let keyword = keyword.as_str();
            if keyword == "format" {
                return Err(SchemaError::FormatForbidden { path: here });
            }
            if keyword == "$schema" && value.as_str() != Some(DIALECT_2020_12) {
                return Err(SchemaError::UnsupportedDialect { path: here });
            }
            if keyword == "$ref" || keyword == "$dynamicRef" {
                let Some(reference) = value.as_str() else {
                    // Not a string: the meta-schema refuses it at compilation.
                    continue;
                };
                let Some(fragment) = local_fragment(reference) else {
                    return Err(SchemaError::RemoteRef {
                        path: here,
                        reference: reference.into(),
                    });
                };
                if keyword == "$ref" {
                    self.follow(fragment, &here, &resource, depth)?;
                }
            } else if SINGLE_SUBSCHEMA.contains(&keyword) {
                self.walk(value, here, resource.clone(), depth + 1)?;
            } else if ARRAY_OF_SUBSCHEMAS.contains(&keyword) {
                if let Value::Array(items) = value {
                    for (index, item) in items.iter().enumerate() {
                        self.walk(item, format!("{here}/{index}"), resource.clone(), depth + 1)?;
                    }
                }
            } else if MAP_OF_SUBSCHEMAS.contains(&keyword) {
                if let Value::Object(entries) = value {
                    let entries: BTreeMap<&String, &Value> = entries.iter().collect();
                    for (name, item) in entries {
                        let at = format!("{here}/{}", escape_pointer(name));
                        self.walk(item, at, resource.clone(), depth + 1)?;
                    }
                }
            } else if !PLAIN_KEYWORDS.contains(&keyword) {
                return Err(SchemaError::UnknownKeyword {
                    path: here,
                    keyword: keyword.into(),
                });
            }
        }
        Ok(())
    }

    /// Walks the target of a fragment `$ref` when it is a JSON pointer, so a reference into data
    /// (e.g. into `default`) cannot smuggle in an unchecked schema. Anchors name schema positions
    /// the walk reaches anyway; a dangling pointer is left to the compiler.
    fn follow(
        &mut self,
        fragment: String,
        at: &str,
        resource: &str,
        depth: usize,
    ) -> Result<(), SchemaError> {
        if !(fragment.is_empty() || fragment.starts_with('/')) {
            return Ok(());
        }
        let target_path = format!("{resource}{fragment}");
        let Some(target) = self.root.pointer(&target_path) else {
            return Err(SchemaError::Invalid {
                path: at.to_string(),
            });
        };
        if self.reading.non_schema_targets_unchecked
            && target_path
                .split('/')
                .any(|token| NON_SCHEMA_VALUES.contains(&token))
        {
            return Ok(());
        }
        self.walk(target, target_path, resource.to_string(), depth + 1)
    }
}

/// The decoded fragment of a same-document reference (`#...` or the empty reference), or `None`
/// for anything that names another document.
fn local_fragment(reference: &str) -> Option<String> {
    if reference.is_empty() {
        return Some(String::new());
    }
    let fragment = reference.strip_prefix('#')?;
    percent_decode(fragment)
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        if byte == b'%' {
            let high = bytes
                .get(index + 1)
                .and_then(|b| (*b as char).to_digit(16))?;
            let low = bytes
                .get(index + 2)
                .and_then(|b| (*b as char).to_digit(16))?;
            out.push((high * 16 + low) as u8);
            index += 3;
        } else {
            out.push(byte);
            index += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn escape_pointer(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    // A refused schema names the place of the offending keyword (a JSON Pointer into the schema),
    // which the configuration error's message carries.
    #[test]
    fn a_refusal_names_the_place_of_the_keyword() {
        let schema = json!({ "type": "object", "properties": { "a~b": { "format": "email" } } });
        let refused = StrictSchema::compile(&schema).err();
        assert_eq!(
            refused.as_ref().map(SchemaError::code),
            Some("SCHEMA_FORMAT_FORBIDDEN")
        );
        assert_eq!(
            refused.as_ref().map(SchemaError::path),
            Some("/properties/a~0b/format")
        );
    }

    // The compiled-schema cache is keyed by this text: members sorted, every separator kept, so
    // two different schemas never share a key and a reordered one does.
    #[test]
    fn canonical_text_sorts_members_and_keeps_separators() {
        let schema = json!({ "b": [1, 2], "a": { "d": null, "c": true } });
        assert_eq!(
            canonical_text(&schema),
            r#"{"a":{"c":true,"d":null},"b":[1,2]}"#
        );
        assert_ne!(
            canonical_text(&json!({ "enum": [1, 2] })),
            canonical_text(&json!({ "enum": [12] }))
        );
    }

    fn code(schema: Value) -> &'static str {
        match StrictSchema::compile(&schema) {
            Ok(_) => "OK",
            Err(error) => error.code(),
        }
    }

    fn issues(schema: Value, instance: Value) -> Vec<(String, String)> {
        let compiled = match StrictSchema::compile(&schema) {
            Ok(compiled) => compiled,
            Err(error) => panic!("schema refused: {error}"),
        };
        compiled
            .validate(&instance)
            .into_iter()
            .map(|i| (i.instance_path, i.keyword))
            .collect()
    }

    fn pair(path: &str, keyword: &str) -> (String, String) {
        (path.to_string(), keyword.to_string())
    }

    // CL-B19: "no unknown keywords", at the root, nested under every kind of subschema position,
    // and in `$defs` entries nothing references.
    #[test]
    fn unknown_keywords_are_configuration_errors() {
        assert_eq!(
            code(json!({ "type": "object", "nullable": true })),
            "SCHEMA_UNKNOWN_KEYWORD"
        );
        assert_eq!(
            code(json!({ "properties": { "a": { "foo": 1 } } })),
            "SCHEMA_UNKNOWN_KEYWORD"
        );
        assert_eq!(
            code(json!({ "anyOf": [true, { "bar": 1 }] })),
            "SCHEMA_UNKNOWN_KEYWORD"
        );
        assert_eq!(
            code(json!({ "items": { "x-custom": 1 } })),
            "SCHEMA_UNKNOWN_KEYWORD"
        );
        assert_eq!(
            code(json!({ "$defs": { "unused": { "baz": 1 } } })),
            "SCHEMA_UNKNOWN_KEYWORD"
        );
        assert_eq!(code(json!({ "definitions": {} })), "SCHEMA_UNKNOWN_KEYWORD");
        let error = StrictSchema::compile(&json!({ "properties": { "a/b": { "foo": 1 } } }));
        let error = error.err();
        assert_eq!(
            error.as_ref().map(SchemaError::path),
            Some("/properties/a~1b/foo")
        );
    }

    // CL-B19: "no formats (a `format` keyword is a configuration error)", wherever it appears.
    #[test]
    fn any_format_is_a_configuration_error() {
        assert_eq!(
            code(json!({ "type": "string", "format": "email" })),
            "SCHEMA_FORMAT_FORBIDDEN"
        );
        assert_eq!(
            code(json!({ "properties": { "d": { "format": "date" } } })),
            "SCHEMA_FORMAT_FORBIDDEN"
        );
        assert_eq!(
            code(json!({ "format": "no-such-format" })),
            "SCHEMA_FORMAT_FORBIDDEN"
        );
    }

    // CL-B19: "no remote references (self-contained `$ref` only)".
    #[test]
    fn non_local_references_are_configuration_errors() {
        assert_eq!(
            code(json!({ "$ref": "https://example.com/s.json" })),
            "SCHEMA_REMOTE_REF"
        );
        assert_eq!(
            code(json!({ "$ref": "other.json#/a" })),
            "SCHEMA_REMOTE_REF"
        );
        assert_eq!(
            code(json!({ "$ref": "file:///etc/passwd" })),
            "SCHEMA_REMOTE_REF"
        );
        assert_eq!(
            code(json!({ "items": { "$dynamicRef": "http://x/y#z" } })),
            "SCHEMA_REMOTE_REF"
        );
        // A local reference is fine and is validated through.
        let schema = json!({ "$defs": { "n": { "type": "integer" } }, "$ref": "#/$defs/n" });
        assert_eq!(issues(schema, json!("x")), vec![pair("", "type")]);
    }

    // CL-B19: a `$ref` into data must not smuggle an unchecked schema past the walk.
    #[test]
    fn reference_targets_are_walked() {
        let schema = json!({ "default": { "format": "email" }, "$ref": "#/default" });
        assert_eq!(code(schema), "SCHEMA_FORMAT_FORBIDDEN");
        let dangling = json!({ "$ref": "#/$defs/missing" });
        assert_eq!(code(dangling), "SCHEMA_INVALID");
        let recursive = json!({ "properties": { "next": { "$ref": "#" } } });
        assert_eq!(code(recursive), "OK");
    }

    // CL-B19: "An invalid schema is a host configuration error".
    #[test]
    fn schemas_the_meta_schema_refuses_are_invalid() {
        assert_eq!(code(json!({ "type": "texte" })), "SCHEMA_INVALID");
        assert_eq!(code(json!({ "minLength": -1 })), "SCHEMA_INVALID");
        assert_eq!(code(json!({ "required": "a" })), "SCHEMA_INVALID");
        assert_eq!(code(json!(3)), "SCHEMA_INVALID");
        assert_eq!(
            code(json!({ "$schema": "http://json-schema.org/draft-07/schema#" })),
            "SCHEMA_UNSUPPORTED_DIALECT"
        );
        assert_eq!(
            code(json!({ "$schema": DIALECT_2020_12, "type": "null" })),
            "OK"
        );
    }

    #[test]
    fn nesting_beyond_the_bound_is_refused_without_recursing_forever() {
        let mut schema = json!({ "type": "string" });
        for _ in 0..(MAX_SCHEMA_DEPTH + 2) {
            schema = json!({ "items": schema });
        }
        assert_eq!(code(schema), "SCHEMA_TOO_DEEP");
    }

    // CL-B19: "no coercion": a string of digits is not an integer, "true" is not a boolean.
    #[test]
    fn values_are_never_coerced() {
        let schema = json!({ "type": "object",
            "properties": { "n": { "type": "integer" }, "b": { "type": "boolean" } } });
        assert_eq!(
            issues(schema, json!({ "n": "12", "b": "true" })),
            vec![pair("/b", "type"), pair("/n", "type")]
        );
    }

    // CL-B19: "no defaults": a `default` never fills a missing required property, and validation
    // never writes to the instance.
    #[test]
    fn defaults_are_never_applied() {
        let schema = json!({ "type": "object", "required": ["a"],
            "properties": { "a": { "type": "integer", "default": 1 } } });
        let instance = json!({});
        assert_eq!(issues(schema, instance.clone()), vec![pair("", "required")]);
        assert_eq!(instance, json!({}));
    }

    // CL-B19: "no removal of extra properties": extra members are valid unless the schema says
    // additionalProperties: false, and then they are reported, not dropped.
    #[test]
    fn additional_properties_are_kept_or_reported() {
        let open = json!({ "type": "object", "properties": { "a": { "type": "string" } } });
        assert_eq!(issues(open, json!({ "a": "x", "extra": 1 })), vec![]);
        let closed = json!({ "type": "object", "additionalProperties": false,
            "properties": { "a": { "type": "string" } } });
        assert_eq!(
            issues(closed, json!({ "a": "x", "extra": 1 })),
            vec![pair("", "additionalProperties")]
        );
    }

    // CL-B19: "Validation issues carry instancePath and keyword" for every error (all errors).
    #[test]
    fn all_errors_are_reported_with_path_and_keyword() {
        let schema = json!({ "type": "object", "required": ["title"],
            "properties": { "tags": { "type": "array", "items": { "type": "string" }, "maxItems": 1 },
                            "count": { "type": "integer", "minimum": 0 } } });
        let found = issues(schema, json!({ "tags": ["a", 2], "count": -1 }));
        assert_eq!(
            found,
            vec![
                pair("", "required"),
                pair("/count", "minimum"),
                pair("/tags", "maxItems"),
                pair("/tags/1", "type")
            ]
        );
    }

    #[test]
    fn identical_schemas_share_one_validator() {
        let a = StrictSchema::compile(&json!({ "type": "string", "minLength": 2 }));
        let b = StrictSchema::compile(&json!({ "minLength": 2, "type": "string" }));
        match (a, b) {
            (Ok(a), Ok(b)) => assert!(Arc::ptr_eq(&a.compiled, &b.compiled)),
            other => panic!("both compile: {other:?}"),
        }
    }

    // CL-B19-10 (RECOMMENDED): the pairs Ajv reports where the crate's own names differ.
    #[test]
    fn issues_are_named_as_ajv_names_them() {
        let tuple = json!({ "type": "object", "properties": { "p": { "prefixItems": [true, true], "items": false } } });
        assert_eq!(
            issues(tuple, json!({ "p": [1, 2, 3, 4] })),
            vec![pair("/p", "items")]
        );
        let closed = json!({ "type": "object", "additionalProperties": false });
        assert_eq!(
            issues(closed, json!({ "x": 1 })),
            vec![pair("", "additionalProperties")]
        );
        let dependent = json!({ "dependentRequired": { "a": ["b"] } });
        assert_eq!(
            issues(dependent, json!({ "a": 1 })),
            vec![pair("", "dependentRequired")]
        );
        let no_tuple = json!({ "items": false });
        assert_eq!(
            issues(no_tuple, json!([1])),
            vec![pair("/0", "false schema")]
        );
    }

    #[test]
    fn boolean_schemas_and_anchors_are_accepted() {
        assert_eq!(issues(json!(true), json!({ "any": 1 })), vec![]);
        assert_eq!(
            issues(json!(false), json!(1)),
            vec![pair("", "false schema")]
        );
        let anchored = json!({ "$defs": { "s": { "$anchor": "str", "type": "string" } },
            "items": { "$ref": "#str" } });
        assert_eq!(issues(anchored, json!(["a", 1])), vec![pair("/1", "type")]);
    }
}
