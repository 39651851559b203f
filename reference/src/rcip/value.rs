//! Host values: what a JavaScript caller or host callback can hand the runtime, including what plain
//! JSON cannot carry (NaN, ±Infinity, undefined, -0, bigint, symbols, functions, class instances,
//! null-prototype objects, sparse arrays, cycles, shared references and accessor properties), and
//! the plain-JSON rule of
//! CL-B13 / RCIP-LIFE-JSON-02..03 that turns one into a detached `serde_json::Value` (CL-B14,
//! RCIP-LIFE-JSON-01, RCIP-PROTO-LIFE-12).
//!
//! Objects and arrays are shared, mutable cells (`Rc<RefCell<..>>`), so identity, aliasing and
//! caller mutation after a call are real; the runtime only ever keeps `serde_json::Value` copies
//! and hands callbacks fresh trees, which is what detachment means here. Decisions where CL-B13
//! leaves a choice (IMPL-DEFINED): `-0` is normalised to `0`; shared acyclic references are
//! accepted (each occurrence is copied); null-prototype objects are accepted as plain objects.
//! Implementation limits: nesting deeper than [`MAX_JSON_DEPTH`] or more than [`MAX_JSON_NODES`]
//! copied nodes (a small graph of shared references can stand for an enormous tree) is rejected as
//! not plain JSON, so copying is bounded. A cyclic value is an `Rc` cycle and is never freed:
//! fine for the test-sized values the suite builds, not for long-lived hosts.
//!
//! An accessor property (a JavaScript getter) cannot exist in Rust, so it is modelled as a member
//! whose value is a [`Getter`]: every read of the member (`get`, a pointer, the plain-JSON copy)
//! answers the next of its answers and is counted, so a runtime that read a member twice could
//! see two values, as it can in JavaScript. The reference reads each member of a caller-owned
//! value exactly once, while copying it: what it validates is the copy, and the copy is what it
//! publishes, hands to a handler or returns (PRJ-RCIP-JSON-02).

use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::fmt;
use std::rc::Rc;

use serde_json::{Map, Number, Value};

/// Deepest nesting of arrays and objects accepted as plain JSON.
pub const MAX_JSON_DEPTH: usize = 128;
/// Most nodes one plain-JSON copy may produce.
pub const MAX_JSON_NODES: usize = 1 << 18;

/// A value as a host language holds it.
#[derive(Clone)]
pub enum HostValue {
    Undefined,
    Null,
    Bool(bool),
    /// Any IEEE double, including NaN, ±Infinity and -0.
    Number(f64),
    String(String),
    /// A bigint, by its decimal digits.
    BigInt(String),
    Symbol,
    Function,
    Object(HostObject),
    /// An accessor property: only ever the value of an object member or array item (see the
    /// module documentation); reading the member reads the getter.
    Getter(Getter),
}

/// A getter's answers, one per read in order, the last one again once they run out; reads are
/// counted. Clones share the count (they are the same accessor).
#[derive(Clone)]
pub struct Getter(Rc<GetterData>);

struct GetterData {
    answers: Vec<HostValue>,
    reads: Cell<usize>,
}

impl Getter {
    /// A getter answering `answers` in order (`undefined` when there is none).
    pub fn new(answers: Vec<HostValue>) -> Getter {
        Getter(Rc::new(GetterData {
            answers,
            reads: Cell::new(0),
        }))
    }

    /// One read: the next answer (the last again once they run out), counted.
    pub fn read(&self) -> HostValue {
        let n = self.0.reads.get();
        self.0.reads.set(n.saturating_add(1));
        let last = self.0.answers.len().saturating_sub(1);
        self.0
            .answers
            .get(n.min(last))
            .cloned()
            .unwrap_or(HostValue::Undefined)
    }

    /// How many times the getter was read.
    pub fn reads(&self) -> usize {
        self.0.reads.get()
    }
}

/// A shared, mutable object or array: cloning the handle aliases the same object.
#[derive(Clone)]
pub struct HostObject(Rc<RefCell<ObjectData>>);

/// What kind of object: its prototype decides whether it is a plain object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prototype {
    /// `Object.prototype`: a plain object.
    Plain,
    /// `Object.create(null)`.
    Null,
    /// An instance of the named class.
    Class(String),
}

/// The contents of an object or array.
pub enum ObjectData {
    Object {
        prototype: Prototype,
        members: Vec<(String, HostValue)>,
    },
    /// `None` is a hole of a sparse array.
    Array { items: Vec<Option<HostValue>> },
}

/// Why a value is not plain JSON (CL-B13).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotPlain {
    NonFinite {
        path: String,
    },
    Undefined {
        path: String,
    },
    BigInt {
        path: String,
    },
    Symbol {
        path: String,
    },
    Function {
        path: String,
    },
    ClassInstance {
        path: String,
    },
    SparseArray {
        path: String,
    },
    Cycle {
        path: String,
    },
    /// A second reference to one acyclic object (only under `PlainRules::reject_shared`).
    SharedReference {
        path: String,
    },
    /// An accessor property (only under `PlainRules::reject_accessors`).
    Accessor {
        path: String,
    },
    TooDeep {
        path: String,
    },
    TooLarge,
}

impl NotPlain {
    /// JSON Pointer to the offending place in the value.
    pub fn path(&self) -> &str {
        match self {
            NotPlain::NonFinite { path }
            | NotPlain::Undefined { path }
            | NotPlain::BigInt { path }
            | NotPlain::Symbol { path }
            | NotPlain::Function { path }
            | NotPlain::ClassInstance { path }
            | NotPlain::SparseArray { path }
            | NotPlain::Cycle { path }
            | NotPlain::SharedReference { path }
            | NotPlain::Accessor { path }
            | NotPlain::TooDeep { path } => path,
            NotPlain::TooLarge => "",
        }
    }

    /// The same rejection seen from the enclosing object or array: `token` (a member name or an
    /// array index) is prepended to the path.
    fn under(mut self, token: &str) -> NotPlain {
        match &mut self {
            NotPlain::NonFinite { path }
            | NotPlain::Undefined { path }
            | NotPlain::BigInt { path }
            | NotPlain::Symbol { path }
            | NotPlain::Function { path }
            | NotPlain::ClassInstance { path }
            | NotPlain::SparseArray { path }
            | NotPlain::Cycle { path }
            | NotPlain::SharedReference { path }
            | NotPlain::Accessor { path }
            | NotPlain::TooDeep { path } => *path = format!("/{}{path}", escape_token(token)),
            NotPlain::TooLarge => {}
        }
        self
    }

    /// The JSON Schema-like keyword of this rejection; only the unit tests read it (no outcome or
    /// message carries it), so it is test-only and not mutated (reference/MUTATION.md, class D).
    #[cfg(test)]
    pub fn keyword(&self) -> &'static str {
        match self {
            NotPlain::NonFinite { .. } => "finite",
            NotPlain::Undefined { .. } => "undefined",
            NotPlain::BigInt { .. } => "bigint",
            NotPlain::Symbol { .. } => "symbol",
            NotPlain::Function { .. } => "function",
            NotPlain::ClassInstance { .. } => "plainObject",
            NotPlain::SparseArray { .. } => "sparseArray",
            NotPlain::Cycle { .. } => "cycle",
            NotPlain::SharedReference { .. } => "sharedReference",
            NotPlain::Accessor { .. } => "accessor",
            NotPlain::TooDeep { .. } => "maxDepth",
            NotPlain::TooLarge => "maxSize",
        }
    }
}

/// Why a JSON Pointer could not be followed or written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PointerError {
    /// Not `""` or `/...`.
    Malformed,
    /// A segment names nothing, or passes through a non-object.
    NotFound,
    /// The empty pointer names the root, which has no parent to write into.
    Root,
}

impl PointerError {
    pub fn code(&self) -> &'static str {
        match self {
            PointerError::Malformed => "POINTER_MALFORMED",
            PointerError::NotFound => "POINTER_NOT_FOUND",
            PointerError::Root => "POINTER_ROOT",
        }
    }
}

impl HostValue {
    /// A new plain object with these members.
    pub fn object(members: Vec<(String, HostValue)>) -> HostValue {
        HostValue::Object(HostObject::new(ObjectData::Object {
            prototype: Prototype::Plain,
            members,
        }))
    }

    /// A new object with the given prototype.
    pub fn object_with(prototype: Prototype, members: Vec<(String, HostValue)>) -> HostValue {
        HostValue::Object(HostObject::new(ObjectData::Object { prototype, members }))
    }

    /// A new dense array.
    pub fn array(items: Vec<HostValue>) -> HostValue {
        HostValue::Object(HostObject::new(ObjectData::Array {
            items: items.into_iter().map(Some).collect(),
        }))
    }

    /// A new array with holes where `None`.
    pub fn sparse_array(items: Vec<Option<HostValue>>) -> HostValue {
        HostValue::Object(HostObject::new(ObjectData::Array { items }))
    }

    pub fn string(text: &str) -> HostValue {
        HostValue::String(text.to_string())
    }

    /// A fresh tree equal to a JSON value (numbers as doubles; nothing shared).
    pub fn from_json(value: &Value) -> HostValue {
        match value {
            Value::Null => HostValue::Null,
            Value::Bool(b) => HostValue::Bool(*b),
            Value::Number(n) => HostValue::Number(n.as_f64().unwrap_or(0.0)),
            Value::String(s) => HostValue::String(s.clone()),
            Value::Array(items) => {
                HostValue::array(items.iter().map(HostValue::from_json).collect())
            }
            Value::Object(map) => HostValue::object(
                map.iter()
                    .map(|(k, v)| (k.clone(), HostValue::from_json(v)))
                    .collect(),
            ),
        }
    }

    /// [`HostValue::from_json`] taking the value: strings and member names move into the new
    /// host value instead of being copied.
    pub fn from_owned_json(value: Value) -> HostValue {
        match value {
            Value::Null => HostValue::Null,
            Value::Bool(b) => HostValue::Bool(b),
            Value::Number(n) => HostValue::Number(n.as_f64().unwrap_or(0.0)),
            Value::String(s) => HostValue::String(s),
            Value::Array(items) => {
                HostValue::array(items.into_iter().map(HostValue::from_owned_json).collect())
            }
            Value::Object(map) => HostValue::object(
                map.into_iter()
                    .map(|(k, v)| (k, HostValue::from_owned_json(v)))
                    .collect(),
            ),
        }
    }

    pub fn as_object(&self) -> Option<&HostObject> {
        match self {
            HostValue::Object(object) => Some(object),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            HostValue::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            HostValue::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// A member of an object (any prototype), or `None` when absent or not an object.
    pub fn get(&self, key: &str) -> Option<HostValue> {
        self.as_object().and_then(|object| object.get(key))
    }

    /// The value at a JSON Pointer (through object members and array indices).
    pub fn at_pointer(&self, pointer: &str) -> Result<HostValue, PointerError> {
        let tokens = parse_pointer(pointer)?;
        let mut current = self.clone();
        for token in tokens {
            let object = current.as_object().ok_or(PointerError::NotFound)?;
            current = object.child(&token).ok_or(PointerError::NotFound)?;
        }
        Ok(current)
    }

    /// Sets the member at a JSON Pointer (an array index or `-` appends; an object member is set
    /// or added). The parent must exist.
    pub fn set_at_pointer(&self, pointer: &str, value: HostValue) -> Result<(), PointerError> {
        let mut tokens = parse_pointer(pointer)?;
        let last = tokens.pop().ok_or(PointerError::Root)?;
        let mut parent = self.clone();
        for token in tokens {
            let object = parent.as_object().ok_or(PointerError::NotFound)?;
            parent = object.child(&token).ok_or(PointerError::NotFound)?;
        }
        let object = parent.as_object().ok_or(PointerError::NotFound)?;
        object.set_child(&last, value)
    }

    /// The plain-JSON copy of CL-B13: a detached `serde_json::Value`, or why the value is not
    /// plain JSON. `-0` becomes `0`; integral doubles become JSON integers.
    pub fn to_plain_json(&self) -> Result<Value, NotPlain> {
        self.to_plain_json_with(PlainRules::default())
    }

    /// [`HostValue::to_plain_json`] under the given readings of the IMPL-DEFINED points of
    /// CL-B13 (`crate::choices`).
    pub fn to_plain_json_with(&self, rules: PlainRules) -> Result<Value, NotPlain> {
        let mut copier = Copier {
            ancestors: [0; MAX_JSON_DEPTH],
            depth: 0,
            seen: Vec::new(),
            nodes: 0,
            rules,
        };
        copier.copy(self)
    }

    /// What `JSON.parse(JSON.stringify(value))` gives, as a careless implementation's plain-JSON
    /// "check" would (the injected faults `input-coerced-to-json`, `output-coerced-to-json`):
    /// NaN and ±Infinity become `null`, members that are undefined, functions or symbols are
    /// dropped (array items become `null`), holes become `null`, class instances and
    /// null-prototype objects become plain objects. `None` where stringify throws (cycles, bigint)
    /// or the value itself has no JSON text.
    pub fn to_stringified_json(&self) -> Option<Value> {
        stringify(self, &mut Vec::new(), 0)
    }

    /// Whether [`HostValue::to_plain_json`] would succeed.
    pub fn is_plain_json(&self) -> bool {
        self.to_plain_json().is_ok()
    }

    /// What reading a member holding this value gives: a getter's next answer, else the value.
    pub fn read_member(self) -> HostValue {
        match self {
            HostValue::Getter(getter) => getter.read(),
            other => other,
        }
    }
}

impl HostObject {
    pub fn new(data: ObjectData) -> HostObject {
        HostObject(Rc::new(RefCell::new(data)))
    }

    /// Whether two handles are the same object.
    pub fn same(&self, other: &HostObject) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }

    fn address(&self) -> usize {
        Rc::as_ptr(&self.0) as *const u8 as usize
    }

    /// Reads the object's contents.
    pub fn with<R>(&self, read: impl FnOnce(&ObjectData) -> R) -> R {
        read(&self.0.borrow())
    }

    /// Changes the object's contents in place (visible through every alias).
    pub fn update<R>(&self, write: impl FnOnce(&mut ObjectData) -> R) -> R {
        write(&mut self.0.borrow_mut())
    }

    /// An object member (not array items); a getter member is read (once).
    pub fn get(&self, key: &str) -> Option<HostValue> {
        self.with(|data| match data {
            ObjectData::Object { members, .. } => members
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone()),
            ObjectData::Array { .. } => None,
        })
        .map(HostValue::read_member)
    }

    /// Sets or adds an object member; does nothing on arrays.
    pub fn insert(&self, key: &str, value: HostValue) {
        self.update(|data| {
            if let ObjectData::Object { members, .. } = data {
                match members.iter_mut().find(|(k, _)| k == key) {
                    Some(slot) => slot.1 = value,
                    None => members.push((key.to_string(), value)),
                }
            }
        });
    }

    /// A member by pointer token: object key, or decimal array index.
    fn child(&self, token: &str) -> Option<HostValue> {
        self.with(|data| match data {
            ObjectData::Object { members, .. } => members
                .iter()
                .find(|(k, _)| k == token)
                .map(|(_, v)| v.clone()),
            ObjectData::Array { items } => {
                let index = array_index(token)?;
                items.get(index).and_then(|slot| slot.clone())
            }
        })
        .map(HostValue::read_member)
    }

    fn set_child(&self, token: &str, value: HostValue) -> Result<(), PointerError> {
        self.update(|data| match data {
            ObjectData::Object { members, .. } => {
                match members.iter_mut().find(|(k, _)| k == token) {
                    Some(slot) => slot.1 = value,
                    None => members.push((token.to_string(), value)),
                }
                Ok(())
            }
            ObjectData::Array { items } => {
                if token == "-" {
                    items.push(Some(value));
                    return Ok(());
                }
                let index = array_index(token).ok_or(PointerError::NotFound)?;
                if index < items.len() {
                    if let Some(slot) = items.get_mut(index) {
                        *slot = Some(value);
                    }
                    Ok(())
                } else if index == items.len() {
                    items.push(Some(value));
                    Ok(())
                } else {
                    Err(PointerError::NotFound)
                }
            }
        })
    }
}

fn array_index(token: &str) -> Option<usize> {
    if token.is_empty() || (token.len() > 1 && token.starts_with('0')) {
        return None;
    }
    if !token.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    token.parse().ok()
}

/// The unescaped tokens of a JSON Pointer.
pub fn parse_pointer(pointer: &str) -> Result<Vec<String>, PointerError> {
    if pointer.is_empty() {
        return Ok(Vec::new());
    }
    let rest = pointer.strip_prefix('/').ok_or(PointerError::Malformed)?;
    Ok(rest
        .split('/')
        .map(|token| token.replace("~1", "/").replace("~0", "~"))
        .collect())
}

fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The readings of CL-B13-4..6 a plain-JSON copy applies; the default is the reference's
/// default reading (`-0` normalised, shared references and null prototypes accepted).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlainRules {
    pub keep_negative_zero: bool,
    pub reject_shared: bool,
    pub reject_null_prototype: bool,
    /// PRJ-RCIP-JSON-01's other reading: an accessor property makes a value not plain JSON.
    pub reject_accessors: bool,
}

struct Copier {
    /// Objects on the path from the root to the node being copied (cycle detection): the first
    /// `depth` entries. A fixed array, since the depth is bounded: copying the input and the
    /// output of every invocation then allocates nothing but the copy itself.
    ancestors: [usize; MAX_JSON_DEPTH],
    depth: usize,
    /// Every object copied so far (shared-reference detection when `rules.reject_shared`).
    seen: Vec<usize>,
    nodes: usize,
    rules: PlainRules,
}

impl Copier {
    /// Copies one node. A rejection carries the path relative to this node; each enclosing
    /// object prepends its token on the way out ([`NotPlain::under`]), so accepted values never
    /// pay for building paths.
    fn copy(&mut self, value: &HostValue) -> Result<Value, NotPlain> {
        self.nodes += 1;
        if self.nodes > MAX_JSON_NODES {
            return Err(NotPlain::TooLarge);
        }
        let here = String::new;
        match value {
            HostValue::Null => Ok(Value::Null),
            HostValue::Bool(b) => Ok(Value::Bool(*b)),
            HostValue::String(s) => Ok(Value::String(s.clone())),
            HostValue::Number(n)
                if self.rules.keep_negative_zero && *n == 0.0 && n.is_sign_negative() =>
            {
                serde_json::Number::from_f64(*n)
                    .map(Value::Number)
                    .ok_or_else(|| NotPlain::NonFinite { path: here() })
            }
            HostValue::Number(n) => {
                json_number(*n).ok_or_else(|| NotPlain::NonFinite { path: here() })
            }
            HostValue::Undefined => Err(NotPlain::Undefined { path: here() }),
            HostValue::BigInt(_) => Err(NotPlain::BigInt { path: here() }),
            HostValue::Symbol => Err(NotPlain::Symbol { path: here() }),
            HostValue::Function => Err(NotPlain::Function { path: here() }),
            // The one read of the member: its answer is what is checked and what is copied.
            HostValue::Getter(_) if self.rules.reject_accessors => {
                Err(NotPlain::Accessor { path: here() })
            }
            HostValue::Getter(getter) => self.copy(&getter.read()),
            HostValue::Object(object) => {
                let address = object.address();
                if self.ancestors[..self.depth].contains(&address) {
                    return Err(NotPlain::Cycle { path: here() });
                }
                if self.depth >= MAX_JSON_DEPTH {
                    return Err(NotPlain::TooDeep { path: here() });
                }
                if self.rules.reject_shared {
                    if self.seen.contains(&address) {
                        return Err(NotPlain::SharedReference { path: here() });
                    }
                    self.seen.push(address);
                }
                self.ancestors[self.depth] = address;
                self.depth += 1;
                // The cell stays borrowed (shared) while its children are copied: the copy only
                // reads, and a cycle back to it is rejected above before it is borrowed again.
                let copied = object.with(|data| self.copy_contents(data));
                self.depth -= 1;
                copied
            }
        }
    }

    fn copy_contents(&mut self, data: &ObjectData) -> Result<Value, NotPlain> {
        match data {
            ObjectData::Object {
                prototype: Prototype::Class(_),
                ..
            } => Err(NotPlain::ClassInstance {
                path: String::new(),
            }),
            ObjectData::Object {
                prototype: Prototype::Null,
                ..
            } if self.rules.reject_null_prototype => Err(NotPlain::ClassInstance {
                path: String::new(),
            }),
            ObjectData::Object { members, .. } => {
                let mut out = Map::with_capacity(members.len());
                for (key, member) in members {
                    let copied = self.copy(member).map_err(|error| error.under(key))?;
                    out.insert(key.clone(), copied);
                }
                Ok(Value::Object(out))
            }
            ObjectData::Array { items } => {
                let mut out = Vec::with_capacity(items.len());
                for (index, item) in items.iter().enumerate() {
                    let copied = match item {
                        Some(item) => self.copy(item),
                        None => Err(NotPlain::SparseArray {
                            path: String::new(),
                        }),
                    };
                    out.push(copied.map_err(|error| error.under(&index.to_string()))?);
                }
                Ok(Value::Array(out))
            }
        }
    }
}

fn stringify(value: &HostValue, ancestors: &mut Vec<usize>, depth: usize) -> Option<Value> {
    if depth > MAX_JSON_DEPTH {
        return None;
    }
    match value {
        HostValue::Null => Some(Value::Null),
        HostValue::Bool(b) => Some(Value::Bool(*b)),
        HostValue::String(s) => Some(Value::String(s.clone())),
        HostValue::Number(n) => Some(json_number(*n).unwrap_or(Value::Null)),
        HostValue::Undefined | HostValue::Function | HostValue::Symbol => None,
        HostValue::BigInt(_) => None,
        HostValue::Getter(getter) => stringify(&getter.read(), ancestors, depth),
        HostValue::Object(object) => {
            let address = object.address();
            if ancestors.contains(&address) {
                return None;
            }
            ancestors.push(address);
            let out = object.with(|data| match data {
                ObjectData::Array { items } => items
                    .iter()
                    .map(|item| match item {
                        Some(HostValue::BigInt(_)) => Err(()),
                        Some(item) => {
                            Ok(stringify(item, ancestors, depth + 1).unwrap_or(Value::Null))
                        }
                        None => Ok(Value::Null),
                    })
                    .collect::<Result<Vec<_>, ()>>()
                    .ok()
                    .map(Value::Array),
                ObjectData::Object { members, .. } => {
                    let mut out = Map::new();
                    for (key, member) in members {
                        if matches!(member, HostValue::BigInt(_)) {
                            return None;
                        }
                        if let Some(json) = stringify(member, ancestors, depth + 1) {
                            out.insert(key.clone(), json);
                        }
                    }
                    Some(Value::Object(out))
                }
            });
            ancestors.pop();
            out
        }
    }
}

/// A finite double as a JSON number: integral values within ±2^53 as integers (so `1.0` and
/// `-0` read as `1` and `0`), others as floats; `None` for NaN and ±Infinity.
pub fn json_number(n: f64) -> Option<Value> {
    if !n.is_finite() {
        return None;
    }
    const SAFE: f64 = 9_007_199_254_740_992.0;
    if n.fract() == 0.0 && n.abs() <= SAFE {
        return Some(Value::Number(Number::from(n as i64)));
    }
    Number::from_f64(n).map(Value::Number)
}

impl fmt::Debug for HostValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut seen = BTreeSet::new();
        debug_value(self, f, &mut seen, 0)
    }
}

impl fmt::Debug for HostObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&HostValue::Object(self.clone()), f)
    }
}

/// Debug output that terminates on cycles (an object already being printed shows as `<cycle>`).
fn debug_value(
    value: &HostValue,
    f: &mut fmt::Formatter<'_>,
    open: &mut BTreeSet<usize>,
    depth: usize,
) -> fmt::Result {
    match value {
        HostValue::Undefined => f.write_str("undefined"),
        HostValue::Null => f.write_str("null"),
        HostValue::Bool(b) => write!(f, "{b}"),
        HostValue::Number(n) => {
            if *n == 0.0 && n.is_sign_negative() {
                f.write_str("-0")
            } else {
                write!(f, "{n}")
            }
        }
        HostValue::String(s) => write!(f, "{s:?}"),
        HostValue::BigInt(digits) => write!(f, "{digits}n"),
        HostValue::Symbol => f.write_str("Symbol()"),
        HostValue::Function => f.write_str("function"),
        HostValue::Getter(getter) => write!(f, "<getter read {} times>", getter.reads()),
        HostValue::Object(object) => {
            let address = object.address();
            if open.contains(&address) {
                return f.write_str("<cycle>");
            }
            if depth > 32 {
                return f.write_str("<deep>");
            }
            open.insert(address);
            let result = object.with(|data| match data {
                ObjectData::Array { items } => {
                    f.write_str("[")?;
                    for (index, item) in items.iter().enumerate() {
                        if index > 0 {
                            f.write_str(", ")?;
                        }
                        match item {
                            Some(item) => debug_value(item, f, open, depth + 1)?,
                            None => f.write_str("<hole>")?,
                        }
                    }
                    f.write_str("]")
                }
                ObjectData::Object { prototype, members } => {
                    match prototype {
                        Prototype::Plain => {}
                        Prototype::Null => f.write_str("[null-prototype] ")?,
                        Prototype::Class(name) => write!(f, "{name} ")?,
                    }
                    f.write_str("{")?;
                    for (index, (key, member)) in members.iter().enumerate() {
                        if index > 0 {
                            f.write_str(", ")?;
                        }
                        write!(f, "{key:?}: ")?;
                        debug_value(member, f, open, depth + 1)?;
                    }
                    f.write_str("}")
                }
            });
            open.remove(&address);
            result
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(members: Vec<(&str, HostValue)>) -> HostValue {
        HostValue::object(
            members
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        )
    }

    // CL-B13-1: plain JSON is copied; CL-B13-4 (IMPL-DEFINED, chosen): -0 becomes 0.
    #[test]
    fn plain_values_copy_and_negative_zero_normalises() {
        let value = obj(vec![
            ("a", HostValue::Number(1.0)),
            ("b", HostValue::Number(-0.0)),
            (
                "c",
                HostValue::array(vec![
                    HostValue::Null,
                    HostValue::Bool(true),
                    HostValue::string("x"),
                ]),
            ),
            ("d", HostValue::Number(0.5)),
        ]);
        assert_eq!(
            value.to_plain_json(),
            Ok(json!({ "a": 1, "b": 0, "c": [null, true, "x"], "d": 0.5 }))
        );
    }

    // CL-B13-2: every listed non-JSON value is rejected, wherever it is nested.
    #[test]
    fn non_json_values_are_rejected_with_their_place() {
        let cases: Vec<(HostValue, &str)> = vec![
            (HostValue::Number(f64::NAN), "finite"),
            (HostValue::Number(f64::INFINITY), "finite"),
            (HostValue::Number(f64::NEG_INFINITY), "finite"),
            (HostValue::Undefined, "undefined"),
            (HostValue::BigInt("12".into()), "bigint"),
            (HostValue::Symbol, "symbol"),
            (HostValue::Function, "function"),
            (
                HostValue::object_with(Prototype::Class("Point".into()), vec![]),
                "plainObject",
            ),
            (
                HostValue::sparse_array(vec![Some(HostValue::Null), None]),
                "sparseArray",
            ),
        ];
        for (bad, keyword) in cases {
            let wrapped = obj(vec![("outer", HostValue::array(vec![bad.clone()]))]);
            match wrapped.to_plain_json() {
                Err(error) => {
                    assert_eq!(error.keyword(), keyword, "{bad:?}");
                    assert!(
                        error.path().starts_with("/outer/0"),
                        "{bad:?}: {}",
                        error.path()
                    );
                }
                Ok(copied) => panic!("{bad:?} accepted as {copied}"),
            }
        }
    }

    // CL-B13-2 cycles rejected; CL-B13-5 (IMPL-DEFINED, chosen): shared acyclic references accepted.
    #[test]
    fn cycles_are_rejected_and_shared_references_copied() {
        let shared = obj(vec![("n", HostValue::Number(1.0))]);
        let twice = obj(vec![("a", shared.clone()), ("b", shared)]);
        assert_eq!(
            twice.to_plain_json(),
            Ok(json!({ "a": { "n": 1 }, "b": { "n": 1 } }))
        );
        let cyclic = obj(vec![]);
        if let Some(object) = cyclic.as_object() {
            object.insert("self", cyclic.clone());
        }
        assert!(matches!(
            cyclic.to_plain_json(),
            Err(NotPlain::Cycle { .. })
        ));
        // Debug output terminates on the cycle.
        assert!(format!("{cyclic:?}").contains("<cycle>"));
    }

    // CL-B13-6 (IMPL-DEFINED, chosen): null-prototype objects are plain.
    #[test]
    fn null_prototype_objects_are_accepted() {
        let value = HostValue::object_with(Prototype::Null, vec![("a".into(), HostValue::Null)]);
        assert_eq!(value.to_plain_json(), Ok(json!({ "a": null })));
    }

    // PRJ-RCIP-JSON-01/02: a getter member is read exactly once by the plain-JSON copy, and the
    // copy holds that read's answer; under the refusal reading it makes the value not plain.
    #[test]
    fn a_getter_is_read_once_by_the_copy_or_refused() {
        let getter = Getter::new(vec![HostValue::string("a"), HostValue::Number(1.0)]);
        let value = obj(vec![("text", HostValue::Getter(getter.clone()))]);
        assert_eq!(value.to_plain_json(), Ok(json!({ "text": "a" })));
        assert_eq!(getter.reads(), 1);
        assert_eq!(value.to_plain_json(), Ok(json!({ "text": 1 })));
        assert_eq!(value.get("text").and_then(|v| v.as_str().map(str::to_string)), None);
        assert_eq!(getter.reads(), 3);
        let refusing = PlainRules {
            reject_accessors: true,
            ..PlainRules::default()
        };
        assert!(matches!(
            value.to_plain_json_with(refusing),
            Err(NotPlain::Accessor { .. })
        ));
        assert_eq!(getter.reads(), 3, "a refused getter is not read");
    }

    #[test]
    fn exponential_sharing_is_bounded() {
        let mut value = HostValue::Null;
        for _ in 0..40 {
            value = HostValue::array(vec![value.clone(), value]);
        }
        assert!(matches!(value.to_plain_json(), Err(NotPlain::TooLarge)));
    }

    // CL-B14: a copy is detached: mutating the original afterwards leaves the copy unchanged.
    #[test]
    fn copies_are_detached_and_pointers_write_through_aliases() {
        let inner = obj(vec![("text", HostValue::string("a"))]);
        let outer = obj(vec![("x", inner.clone())]);
        let copy = outer.to_plain_json();
        assert_eq!(
            inner.set_at_pointer("/text", HostValue::string("b")),
            Ok(())
        );
        assert_eq!(copy, Ok(json!({ "x": { "text": "a" } })));
        assert_eq!(outer.to_plain_json(), Ok(json!({ "x": { "text": "b" } })));
        assert_eq!(
            outer.set_at_pointer("", HostValue::Null),
            Err(PointerError::Root)
        );
        assert_eq!(
            outer.set_at_pointer("/nope/x", HostValue::Null),
            Err(PointerError::NotFound)
        );
        assert_eq!(
            outer.set_at_pointer("bad", HostValue::Null),
            Err(PointerError::Malformed)
        );
    }

    // RFC 6901 §4 as the adapter writes through a host value (mutate-input steps): a member is
    // replaced or added, an array index below the length replaces, the index equal to the length
    // and `-` append, a larger index or one with a leading zero names nothing; every refusal has
    // a stable code.
    #[test]
    fn pointer_writes_replace_append_and_refuse() {
        let value = HostValue::from_json(&json!({ "a": 1, "list": [1, 2] }));
        let number = |n: f64| HostValue::Number(n);
        assert_eq!(value.set_at_pointer("/a", number(5.0)), Ok(()));
        assert_eq!(value.set_at_pointer("/b", number(6.0)), Ok(()));
        assert_eq!(value.set_at_pointer("/list/0", number(9.0)), Ok(()));
        assert_eq!(value.set_at_pointer("/list/2", number(3.0)), Ok(()));
        assert_eq!(value.set_at_pointer("/list/-", number(4.0)), Ok(()));
        assert_eq!(
            value.set_at_pointer("/list/9", number(0.0)),
            Err(PointerError::NotFound)
        );
        assert_eq!(
            value.set_at_pointer("/list/01", number(0.0)),
            Err(PointerError::NotFound)
        );
        assert_eq!(
            value.at_pointer("/list/01").err(),
            Some(PointerError::NotFound)
        );
        assert_eq!(
            value.to_plain_json(),
            Ok(json!({ "a": 5, "b": 6, "list": [9, 2, 3, 4] }))
        );
        let codes = [
            PointerError::Malformed,
            PointerError::NotFound,
            PointerError::Root,
        ]
        .map(|e| e.code());
        assert_eq!(
            codes,
            ["POINTER_MALFORMED", "POINTER_NOT_FOUND", "POINTER_ROOT"]
        );
    }

    // The module's implementation limit holds for the stringify copy of the coercion faults too:
    // what lies deeper than MAX_JSON_DEPTH has no JSON text there (an array item becomes null, an
    // object member is dropped, as JSON.stringify does with a value it cannot write), so neither
    // copy recurses without bound; shallower nesting is kept whole.
    #[test]
    fn nesting_past_the_depth_limit_is_cut_by_both_copies() {
        fn depth(value: &Value) -> usize {
            match value {
                Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
                Value::Object(members) => 1 + members.values().map(depth).max().unwrap_or(0),
                _ => 0,
            }
        }
        let nest = |levels: usize, in_array: bool| {
            (0..levels).fold(HostValue::Null, |inner, _| {
                if in_array {
                    HostValue::array(vec![inner])
                } else {
                    obj(vec![("a", inner)])
                }
            })
        };
        for in_array in [true, false] {
            let deep = nest(MAX_JSON_DEPTH + 8, in_array);
            let cut = deep.to_stringified_json().map_or(0, |value| depth(&value));
            assert!(
                cut <= MAX_JSON_DEPTH + 1,
                "cut at the limit, not {cut} deep"
            );
            assert!(deep.to_plain_json().is_err());
            let shallow = nest(MAX_JSON_DEPTH - 1, in_array);
            assert_eq!(
                shallow.to_stringified_json().map(|value| depth(&value)),
                Some(MAX_JSON_DEPTH - 1)
            );
            assert!(shallow.to_plain_json().is_ok());
        }
    }
}
