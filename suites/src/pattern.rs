//! Helpers that write the matchers (`$match`) and value escapes (`$value`) of
//! `vectors/schema/value.schema.json`, so builders never spell the tags by hand.

use serde_json::{json, Value};

/// Matches anything, including an absent member.
pub fn any() -> Value {
    json!({ "$match": "any" })
}

/// As an object member: the key must not exist.
pub fn absent() -> Value {
    json!({ "$match": "absent" })
}

/// As an object member: the key must exist, with any value.
pub fn present() -> Value {
    json!({ "$match": "present" })
}

/// IMPL-DEFINED alternatives: any option matches; the verdict names which one did.
pub fn one_of(options: impl IntoIterator<Item = Value>) -> Value {
    json!({ "$match": "one-of", "options": options.into_iter().collect::<Vec<_>>() })
}

/// An array holding these items in any order.
pub fn unordered(items: impl IntoIterator<Item = Value>) -> Value {
    json!({ "$match": "unordered", "items": items.into_iter().collect::<Vec<_>>() })
}

/// A partial object match: the listed members must match, others are ignored.
pub fn subset(fields: Value) -> Value {
    json!({ "$match": "subset", "fields": fields })
}

/// Any value of that JSON type (`null`, `boolean`, `number`, `integer`, `string`, `array`, `object`).
pub fn of_type(json_type: &str) -> Value {
    json!({ "$match": "type", "type": json_type })
}

/// Anything `pattern` does not match.
pub fn not(pattern: Value) -> Value {
    json!({ "$match": "not", "pattern": pattern })
}

/// An array holding a distinct item for each pattern, among others; `ordered`: in this order.
pub fn contains(items: impl IntoIterator<Item = Value>, ordered: bool) -> Value {
    let items: Vec<Value> = items.into_iter().collect();
    if ordered {
        json!({ "$match": "contains", "items": items, "ordered": true })
    } else {
        json!({ "$match": "contains", "items": items })
    }
}

/// An array none of whose items matches any of the patterns.
pub fn lacks(items: impl IntoIterator<Item = Value>) -> Value {
    json!({ "$match": "lacks", "items": items.into_iter().collect::<Vec<_>>() })
}

/// An array whose first items match these patterns, in order; any items may follow.
pub fn prefix(items: impl IntoIterator<Item = Value>) -> Value {
    json!({ "$match": "prefix", "items": items.into_iter().collect::<Vec<_>>() })
}

/// Escapes for host values plain JSON cannot carry (vectors/README.md, "Values").
pub mod escape {
    use serde_json::{json, Value};

    pub fn undefined() -> Value {
        json!({ "$value": "undefined" })
    }
    pub fn nan() -> Value {
        json!({ "$value": "NaN" })
    }
    pub fn infinity() -> Value {
        json!({ "$value": "Infinity" })
    }
    pub fn neg_infinity() -> Value {
        json!({ "$value": "-Infinity" })
    }
    pub fn neg_zero() -> Value {
        json!({ "$value": "-0" })
    }
    pub fn function() -> Value {
        json!({ "$value": "function" })
    }
    pub fn symbol() -> Value {
        json!({ "$value": "symbol" })
    }
    pub fn bigint(digits: &str) -> Value {
        json!({ "$value": "bigint", "digits": digits })
    }
    pub fn class_instance(class: &str, fields: Value) -> Value {
        json!({ "$value": "class-instance", "class": class, "fields": fields })
    }
    pub fn null_prototype(fields: Value) -> Value {
        json!({ "$value": "null-prototype", "fields": fields })
    }
    pub fn sparse_array(length: u32, items: Value) -> Value {
        json!({ "$value": "sparse-array", "length": length, "items": items })
    }
    /// The object at `pointer` from the root of the enclosing value (an ancestor: a cycle).
    pub fn reference(pointer: &str) -> Value {
        json!({ "$value": "ref", "to": pointer })
    }
    pub fn literal(object: Value) -> Value {
        json!({ "$value": "literal", "object": object })
    }
    /// An accessor property (only as a member or an item): read k answers `reads[k-1]`, later
    /// reads the last one.
    pub fn getter(reads: impl IntoIterator<Item = Value>) -> Value {
        json!({ "$value": "getter", "reads": reads.into_iter().collect::<Vec<_>>() })
    }
}
