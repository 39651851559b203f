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

use serde_json::Value;

use super::codes::TransactionCode;

/// The unescaped reference tokens of a pointer (`""` has none and names the whole document).
fn tokens(pointer: &str) -> Result<Vec<String>, TransactionCode> {
    if pointer.is_empty() {
        return Ok(Vec::new());
    }
    let Some(rest) = pointer.strip_prefix('/') else {
        return Err(TransactionCode::PointerInvalid);
    };
    rest.split('/').map(unescape).collect()
}

/// Whether `pointer` is RFC 6901 syntax (empty, or `/`-prefixed tokens with `~` only as `~0`/`~1`).
pub fn is_rfc6901(pointer: &str) -> bool {
    tokens(pointer).is_ok()
}

fn unescape(token: &str) -> Result<String, TransactionCode> {
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return Err(TransactionCode::PointerInvalid),
            }
        } else {
            out.push(c);
        }
    }
    Ok(out)
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

/// Walks from `doc` along `path`. `None`: some step does not exist (missing member, index not in
/// range, or a scalar on the way). `Err`: `-` used on an array.
fn walk<'a>(doc: &'a mut Value, path: &[String]) -> Result<Option<&'a mut Value>, TransactionCode> {
    let mut current = doc;
    for token in path {
        current = match current {
            Value::Object(members) => match members.get_mut(token) {
                Some(next) => next,
                None => return Ok(None),
            },
            Value::Array(_) if token == "-" => return Err(TransactionCode::PointerInvalid),
            Value::Array(items) => match array_index(token).and_then(|i| items.get_mut(i)) {
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
    let path = tokens(pointer)?;
    let Some((last, parent_path)) = path.split_last() else {
        *doc = value;
        return Ok(SetEffect::Stored);
    };
    let parent = walk(doc, parent_path)?.ok_or(TransactionCode::DataParentMissing)?;
    match parent {
        Value::Object(members) => {
            members.insert(last.clone(), value);
            Ok(SetEffect::Stored)
        }
        Value::Array(items) => {
            let index = match array_index(last) {
                Some(index) if reading.index_at_length_refused && index >= items.len() => {
                    return Err(TransactionCode::PointerInvalid)
                }
                Some(index) => index,
                None if reading.append_dash && last == "-" => items.len(),
                None => return Err(TransactionCode::PointerInvalid),
            };
            if let Some(slot) = items.get_mut(index) {
                *slot = value;
                Ok(SetEffect::Stored)
            } else if index == items.len() {
                items.push(value);
                Ok(SetEffect::Appended { len: items.len() })
            } else {
                Err(TransactionCode::PointerInvalid)
            }
        }
        _ if reading.scalar_parent_invalid => Err(TransactionCode::PointerInvalid),
        _ => Err(TransactionCode::DataParentMissing),
    }
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
    let path = tokens(pointer)?;
    let Some((last, parent_path)) = path.split_last() else {
        if reading.delete_document_resets {
            *doc = Value::Object(serde_json::Map::new());
            return Ok(());
        }
        return Err(TransactionCode::PointerInvalid);
    };
    let parent = walk(doc, parent_path)?.ok_or(TransactionCode::DeleteAbsent)?;
    match parent {
        Value::Object(members) => match members.shift_remove(last) {
            Some(_) => Ok(()),
            None => Err(TransactionCode::DeleteAbsent),
        },
        Value::Array(items) => {
            let index = array_index(last).ok_or(TransactionCode::PointerInvalid)?;
            if index < items.len() {
                items.remove(index);
                Ok(())
            } else {
                Err(TransactionCode::DeleteAbsent)
            }
        }
        _ => Err(TransactionCode::DeleteAbsent),
    }
}
