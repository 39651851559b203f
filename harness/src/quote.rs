//! The one bound on what a message quotes (issue 28): an error or a mismatch that names an
//! offending value (a vector's string, an adapter's answer, a trace record, a handshake name, a
//! library error that embeds the instance) quotes at most `QUOTED_CHARS` characters of it. A
//! longer text keeps its beginning and its end (a JSON Schema error ends with what was wrong:
//! `"..." is longer than 64 characters`) and says how long it was, so a 500 MB description gives
//! a message of a few hundred bytes, not of 500 MB.

use std::fmt::{self, Display, Write as _};

/// The most characters of a quoted text a message shows.
pub const QUOTED_CHARS: usize = 200;
/// Of a longer text: the characters kept from its end; the rest are from its beginning.
const TAIL_CHARS: usize = 50;
const HEAD_CHARS: usize = QUOTED_CHARS - TAIL_CHARS;

/// Collects the first `HEAD_CHARS` and the last `TAIL_CHARS` characters written, and counts them
/// all, keeping nothing else: a value is formatted into it without ever being held whole.
#[derive(Default)]
struct Bounded {
    head: String,
    head_chars: usize,
    tail: String,
    chars: usize,
    bytes: usize,
}

impl fmt::Write for Bounded {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.bytes += text.len();
        let mut rest = text;
        while self.head_chars < HEAD_CHARS {
            let Some(c) = rest.chars().next() else { break };
            self.head.push(c);
            self.head_chars += 1;
            self.chars += 1;
            rest = &rest[c.len_utf8()..];
        }
        if rest.is_empty() {
            return Ok(());
        }
        self.chars += rest.chars().count();
        // The last TAIL_CHARS characters of the old tail followed by `rest`.
        let from_rest: Vec<char> = rest.chars().rev().take(TAIL_CHARS).collect();
        let keep_old = TAIL_CHARS - from_rest.len();
        let old: Vec<char> = self.tail.chars().rev().take(keep_old).collect();
        self.tail = old.into_iter().rev().chain(from_rest.into_iter().rev()).collect();
        Ok(())
    }
}

/// `value` as a message shows it: whole when it is at most `QUOTED_CHARS` characters, else its
/// first and last characters around `…`, followed by `(N bytes)`, N the length of the whole.
pub fn bounded(value: &(impl Display + ?Sized)) -> String {
    let mut sink = Bounded::default();
    let _ = write!(sink, "{value}");
    if sink.chars <= QUOTED_CHARS {
        return sink.head + &sink.tail;
    }
    format!("{}…{} ({} bytes)", sink.head, sink.tail, sink.bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_text_is_quoted_whole() {
        assert_eq!(bounded("abc"), "abc");
        let exactly: String = "é".repeat(QUOTED_CHARS);
        assert_eq!(bounded(&exactly), exactly);
    }

    #[test]
    fn a_long_text_keeps_its_ends_and_says_its_length() {
        let long = format!("\"{}\" is longer than 64 characters", "x".repeat(10_000_000));
        let shown = bounded(&long);
        assert_eq!(shown, format!("\"{}…{}\" is longer than 64 characters ({} bytes)", "x".repeat(149), "x".repeat(20), long.len()));
        assert!(shown.chars().count() < QUOTED_CHARS + 30);
    }

    #[test]
    fn a_value_written_in_many_pieces_is_bounded_alike() {
        let value = serde_json::json!({ "list": (0..100_000).collect::<Vec<u32>>() });
        let shown = bounded(&value);
        assert!(shown.starts_with("{\"list\":[0,1,2,"), "{shown}");
        assert!(shown.ends_with(&format!("99998,99999]}} ({} bytes)", value.to_string().len())), "{shown}");
    }
}
