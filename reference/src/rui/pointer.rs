//! Data replacement and deletion at RFC 6901 JSON Pointers (CL-D03-1..6; spec "Data",
//! RUI-DATA-01, "Deletions", RUI-DEL-01/02) on the data document.
//!
//! - `data` at a pointer whose parent exists creates or replaces the member (object) or element
//!   (array); `null` is a value like any other (CL-D03-3). `""` replaces the whole document.
//! - A parent that does not exist (a missing member on the way, or a number/string/bool/null
//!   where a container is needed) is `DATA_PARENT_MISSING` (CL-D03-2).
//! - `delete` removes the member or element (array elements after it shift down); an absent one,
//!   or one whose parent is missing, is `DELETE_ABSENT` (CL-D03-5); `""` is `POINTER_INVALID`.
//! - Where the texts leave a choice, [`Reading`] takes the other admissible reading.
//! - `POINTER_INVALID`: not RFC 6901 syntax (no leading `/`, `~` not followed by `0` or `1`);
//!   `-` used on an array (CL-D03-6, RECOMMENDED: no append in 0.1); a last token on an array that is
//!   not an index (`01`, `x`); and `data` at an index past the end of an array (it could only make
//!   a sparse array). `data` at index == length appends: that creates the element.
//!
//! The pointer text never appears in an error: diagnostics do not echo data (CL-D08-3).
//!
//! Each operation can also give an [`Undo`]: what puts the document back as it was, so that a
//! commit can apply in place and still change whole or not at all (CL-D02-9, RUI-COMMIT-04).

use std::borrow::Cow;

use serde_json::Value;

use super::codes::TransactionCode;

/// A pointer other than `""`, checked for RFC 6901 syntax: its parent as written (escaped; `""`
/// for the document) and its last reference token unescaped. Nothing is allocated unless the last
/// token holds an escape (issue 29 §3: a pointer is read at every data operation).
struct Parsed<'p> {
    parent: &'p str,
    last: Cow<'p, str>,
}

/// `None` for `""`, which names the whole document.
fn parse(pointer: &str) -> Result<Option<Parsed<'_>>, TransactionCode> {
    if pointer.is_empty() {
        return Ok(None);
    }
    if !pointer.starts_with('/') || !escapes_valid(pointer) {
        return Err(TransactionCode::PointerInvalid);
    }
    // A leading `/` was just checked, so the last one exists.
    let at = pointer.rfind('/').unwrap_or(0);
    Ok(Some(Parsed {
        parent: &pointer[..at],
        last: unescape(&pointer[at + 1..]),
    }))
}

/// Whether `pointer` is RFC 6901 syntax (empty, or `/`-prefixed tokens with `~` only as `~0`/`~1`).
pub fn is_rfc6901(pointer: &str) -> bool {
    parse(pointer).is_ok()
}

/// Every `~` is followed by `0` or `1` (a byte scan: `~`, `0` and `1` are ASCII, never part of a
/// longer UTF-8 sequence).
fn escapes_valid(pointer: &str) -> bool {
    let bytes = pointer.as_bytes();
    bytes
        .iter()
        .enumerate()
        .all(|(at, &b)| b != b'~' || matches!(bytes.get(at + 1), Some(b'0' | b'1')))
}

/// One reference token of a pointer whose escapes are valid, unescaped (`~1` is `/`, `~0` is `~`).
fn unescape(token: &str) -> Cow<'_, str> {
    if !token.contains('~') {
        return Cow::Borrowed(token);
    }
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        match (c, chars.clone().next()) {
            ('~', Some('1')) => {
                out.push('/');
                chars.next();
            }
            ('~', Some('0')) => {
                out.push('~');
                chars.next();
            }
            _ => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// RFC 6901 array index: `0` or digits without a leading zero.
fn array_index(token: &str) -> Option<usize> {
    let well_formed = token == "0"
        || (!token.is_empty()
            && !token.starts_with('0')
            && token.bytes().all(|b| b.is_ascii_digit()));
    if well_formed {
        token.parse().ok()
    } else {
        None
    }
}

/// Walks from `doc` along `parent`, a checked pointer's escaped parent text (`""`: `doc` itself).
/// `None`: some step does not exist (missing member, index not in range, or a scalar on the way).
/// `Err`: `-` used on an array.
fn walk<'a>(doc: &'a mut Value, parent: &str) -> Result<Option<&'a mut Value>, TransactionCode> {
    let mut current = doc;
    let Some(rest) = parent.strip_prefix('/') else {
        return Ok(Some(current));
    };
    for token in rest.split('/').map(unescape) {
        current = match current {
            Value::Object(members) => match members.get_mut(token.as_ref()) {
                Some(next) => next,
                None => return Ok(None),
            },
            Value::Array(_) if token == "-" => return Err(TransactionCode::PointerInvalid),
            Value::Array(items) => match array_index(&token).and_then(|i| items.get_mut(i)) {
                Some(next) => next,
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
    }
    Ok(Some(current))
}

/// What a `data` record did to the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetEffect {
    /// A member or element was created or replaced in place (or the whole document replaced).
    Stored,
    /// An element was appended to an array, which now has this many elements.
    Appended { len: usize },
}

/// Which admissible reading the data operations take at the open points of the texts (rows of
/// `crate::choices::TABLE`); the default is the reading this module's header describes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reading {
    /// `rui-array-append` (CL-D03-6): a final `-` on an array is its length, so data appends.
    pub append_dash: bool,
    /// `rui-scalar-parent-pointer-invalid` (PRJ-RUI-DATA-05): data under an existing scalar
    /// parent is `POINTER_INVALID` (a pointer that cannot be evaluated) rather than
    /// `DATA_PARENT_MISSING` (no container to hold the member).
    pub scalar_parent_invalid: bool,
    /// `rui-index-at-length-refused` (PRJ-RUI-DATA-07): "creates the member or element" creates
    /// members only, so an index naming no element, the array's length included, is
    /// `POINTER_INVALID`.
    pub index_at_length_refused: bool,
    /// `rui-delete-document-resets` (PRJ-RUI-DATA-06): a delete with the empty pointer resets the
    /// document to `{}`, its initial value (CL-D02-2), instead of `POINTER_INVALID`.
    pub delete_document_resets: bool,
}

/// `["data", seq, pointer, value]` applied to `doc`.
pub fn set(doc: &mut Value, pointer: &str, value: Value) -> Result<SetEffect, TransactionCode> {
    set_with(doc, pointer, value, Reading::default())
}

/// [`set`] under `reading`.
pub fn set_with(
    doc: &mut Value,
    pointer: &str,
    value: Value,
    reading: Reading,
) -> Result<SetEffect, TransactionCode> {
    set_undoable(doc, pointer.to_owned(), value, reading).map(|(effect, _)| effect)
}

/// [`set_with`], also giving what undoes it (which keeps `pointer`). On an error `doc` is
/// unchanged.
pub fn set_undoable(
    doc: &mut Value,
    pointer: String,
    value: Value,
    reading: Reading,
) -> Result<(SetEffect, Undo), TransactionCode> {
    let Some(Parsed { parent, last }) = parse(&pointer)? else {
        let before = std::mem::replace(doc, value);
        return Ok((SetEffect::Stored, Undo::document(before)));
    };
    let container = walk(doc, parent)?.ok_or(TransactionCode::DataParentMissing)?;
    let (effect, change) = match container {
        Value::Object(members) => {
            let before = members.insert(last.into_owned(), value);
            (SetEffect::Stored, Change::Member { before })
        }
        Value::Array(items) => {
            let index = match array_index(&last) {
                Some(index) if reading.index_at_length_refused && index >= items.len() => {
                    return Err(TransactionCode::PointerInvalid)
                }
                Some(index) => index,
                None if reading.append_dash && last == "-" => items.len(),
                None => return Err(TransactionCode::PointerInvalid),
            };
            if let Some(slot) = items.get_mut(index) {
                let before = std::mem::replace(slot, value);
                (SetEffect::Stored, Change::Element { at: index, before })
            } else if index == items.len() {
                items.push(value);
                (SetEffect::Appended { len: items.len() }, Change::Appended)
            } else {
                return Err(TransactionCode::PointerInvalid);
            }
        }
        _ if reading.scalar_parent_invalid => return Err(TransactionCode::PointerInvalid),
        _ => return Err(TransactionCode::DataParentMissing),
    };
    Ok((effect, Undo { pointer, change }))
}

/// `["delete", seq, "data", pointer]` applied to `doc`.
pub fn remove(doc: &mut Value, pointer: &str) -> Result<(), TransactionCode> {
    remove_with(doc, pointer, Reading::default())
}

/// [`remove`] under `reading`.
pub fn remove_with(
    doc: &mut Value,
    pointer: &str,
    reading: Reading,
) -> Result<(), TransactionCode> {
    remove_undoable(doc, pointer.to_owned(), reading).map(|_| ())
}

/// [`remove_with`], also giving what undoes it (which keeps `pointer`). On an error `doc` is
/// unchanged.
pub fn remove_undoable(
    doc: &mut Value,
    pointer: String,
    reading: Reading,
) -> Result<Undo, TransactionCode> {
    let Some(Parsed { parent, last }) = parse(&pointer)? else {
        if reading.delete_document_resets {
            let before = std::mem::replace(doc, Value::Object(serde_json::Map::new()));
            return Ok(Undo::document(before));
        }
        return Err(TransactionCode::PointerInvalid);
    };
    let container = walk(doc, parent)?.ok_or(TransactionCode::DeleteAbsent)?;
    let change = match container {
        Value::Object(members) => {
            // Its place, so that undoing puts it back there (the members keep their order).
            let at = members
                .keys()
                .position(|name| name.as_str() == last.as_ref())
                .ok_or(TransactionCode::DeleteAbsent)?;
            let value = members
                .shift_remove(last.as_ref())
                .ok_or(TransactionCode::DeleteAbsent)?;
            Change::MemberRemoved { at, value }
        }
        Value::Array(items) => {
            let index = array_index(&last).ok_or(TransactionCode::PointerInvalid)?;
            if index >= items.len() {
                return Err(TransactionCode::DeleteAbsent);
            }
            Change::ElementRemoved {
                at: index,
                value: items.remove(index),
            }
        }
        _ => return Err(TransactionCode::DeleteAbsent),
    };
    Ok(Undo { pointer, change })
}

/// What undoes one data operation applied to the document (issue 29 §3): its pointer and what
/// was there. A rejected commit restores the document by undoing its operations in reverse order
/// (CL-D02-9: the document changes whole or not at all), at the cost of what they touched rather
/// than of a copy of the whole document taken at every commit; applying allocates nothing for it
/// (the pointer is the record's, parsed again only to undo).
#[derive(Debug)]
pub struct Undo {
    /// The operation's pointer, already checked (unused for `Document`).
    pointer: String,
    change: Change,
}

/// What one operation did to its container, holding what it replaced or removed.
#[derive(Debug)]
enum Change {
    /// The whole document was replaced (`""`): this was it.
    Document(Value),
    /// A member was stored: it held `before`, or was absent and so was appended last.
    Member { before: Option<Value> },
    /// A member was removed from place `at`.
    MemberRemoved { at: usize, value: Value },
    /// The element at `at` was replaced.
    Element { at: usize, before: Value },
    /// An element was appended.
    Appended,
    /// The element at `at` was removed (those after it shifted down).
    ElementRemoved { at: usize, value: Value },
}

impl Undo {
    fn document(before: Value) -> Undo {
        Undo {
            pointer: String::new(),
            change: Change::Document(before),
        }
    }

    /// Puts `doc` back as it was before the operation, provided every later operation was undone
    /// first: then the container is where the operation found it and holds what it left. (Were it
    /// not, nothing is changed rather than panicking.)
    pub fn restore(self, doc: &mut Value) {
        if let Change::Document(before) = self.change {
            *doc = before;
            return;
        }
        let Ok(Some(Parsed { parent, last })) = parse(&self.pointer) else {
            return;
        };
        let Ok(Some(container)) = walk(doc, parent) else {
            return;
        };
        match (self.change, container) {
            (Change::Member { before }, Value::Object(members)) => match before {
                // Replacing a value keeps the member's place.
                Some(before) => {
                    members.insert(last.into_owned(), before);
                }
                None => {
                    members.shift_remove(last.as_ref());
                }
            },
            (Change::MemberRemoved { at, value }, Value::Object(members))
                if at <= members.len() =>
            {
                members.shift_insert(at, last.into_owned(), value);
            }
            (Change::Element { at, before }, Value::Array(items)) => {
                if let Some(slot) = items.get_mut(at) {
                    *slot = before;
                }
            }
            (Change::Appended, Value::Array(items)) => {
                items.pop();
            }
            (Change::ElementRemoved { at, value }, Value::Array(items)) if at <= items.len() => {
                items.insert(at, value);
            }
            _ => {}
        }
    }
}
