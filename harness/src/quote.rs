//! The one bound on what a message quotes (issue 28): an error or a mismatch that names an
//! offending value (a vector's string, an adapter's answer, a trace record, a handshake name, a
//! library error that embeds the instance) quotes at most `QUOTED_CHARS` characters of it. A
//! longer text keeps its beginning and its end (a JSON Schema error ends with what was wrong:
//! `"..." is longer than 64 characters`) and says how long it was, so a 500 MB description gives
//! a message of a few hundred bytes, not of 500 MB.
//!
//! `tail` is the same bound for a log (issue 27 §4): an adapter's stderr under a failing case
//! keeps its last lines, since the end of a log is where its failure is.

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

/// The most characters of a requirement's sentence a failure shows beside the step it decides
/// (issue 27 §3); `conformance explain` and the register show it whole.
pub const SENTENCE_CHARS: usize = 100;

/// A register sentence shortened for a failure's output: whole when it has at most
/// `SENTENCE_CHARS` characters, else cut at the last space before that bound (at the bound when
/// there is none) and ended with `…`. Whitespace runs are one space.
pub fn sentence(text: &str) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= SENTENCE_CHARS {
        return text;
    }
    let cut: String = text.chars().take(SENTENCE_CHARS - 1).collect();
    let kept = match cut.rfind(' ') {
        Some(space) if space > cut.len() / 2 => &cut[..space],
        _ => cut.as_str(),
    };
    format!("{}…", kept.trim_end_matches([',', ';', ':', ' ']))
}

/// The most bytes of a log `tail` keeps.
pub const TAIL_BYTES: usize = 4 * 1024;
/// The most lines of a log `tail` keeps.
pub const TAIL_LINES: usize = 40;

/// The end of a log (`bytes`, as an adapter wrote them: any bytes, UTF-8 or not) as a report
/// shows it: its last `TAIL_LINES` lines and at most its last `TAIL_BYTES` bytes (cut at a line
/// start when one is in reach, else at a character), with a first line saying what was left out
/// when anything was. `total` is the length of the whole log, of which `bytes` is the end (a
/// caller may have kept only the end). Invalid UTF-8 is shown as U+FFFD. `None` for an empty or
/// blank log.
pub fn tail(bytes: &[u8], total: u64) -> Option<String> {
    let text = String::from_utf8_lossy(bytes);
    let text = text.trim_end();
    if text.trim().is_empty() {
        return None;
    }
    let mut start = text.len().saturating_sub(TAIL_BYTES);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    // A cut inside a line moves to the next line start when that loses little; the end of a
    // long line (a log line of megabytes) is kept instead, after `…`.
    let mut cut_line = false;
    if start > 0 && !text[..start].ends_with('\n') {
        match text[start..].find('\n') {
            Some(newline) if newline < TAIL_BYTES / 4 => start += newline + 1,
            _ => cut_line = true,
        }
    }
    let mut kept = &text[start..];
    let lines = kept.lines().count();
    if lines > TAIL_LINES {
        let skip = lines - TAIL_LINES;
        let at = kept.match_indices('\n').nth(skip - 1).map_or(0, |(i, _)| i + 1);
        kept = &kept[at..];
    }
    let whole = total.max(bytes.len() as u64);
    if kept.len() == text.len() && whole == bytes.len() as u64 {
        return Some(kept.to_string());
    }
    let ellipsis = if cut_line && kept.len() + start == text.len() { "…" } else { "" };
    Some(format!("(the last {} lines of {whole} bytes)\n{ellipsis}{kept}", kept.lines().count()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_log_is_kept_whole_and_a_long_one_by_its_end() {
        assert_eq!(tail(b"", 0), None);
        assert_eq!(tail(b"  \n\n", 4), None);
        assert_eq!(tail(b"one\ntwo\n", 8).as_deref(), Some("one\ntwo"));
        let many: String = (0..100).map(|i| format!("line {i}\n")).collect();
        let shown = tail(many.as_bytes(), many.len() as u64).unwrap();
        assert!(shown.starts_with(&format!("(the last 40 lines of {} bytes)\nline 60\n", many.len())), "{shown}");
        assert!(shown.ends_with("line 99"), "{shown}");
        let long = format!("first\n{}\nlast", "x".repeat(10_000));
        let shown = tail(long.as_bytes(), long.len() as u64).unwrap();
        assert!(shown.len() <= TAIL_BYTES + 60, "{}", shown.len());
        assert!(shown.contains("\n…xxx") && shown.ends_with("x\nlast") && !shown.contains("first"), "{shown}");
        // A short piece of a line before the kept lines is left out whole.
        let lines = format!("{}\nend", "abcdefghi\n".repeat(1_000));
        let shown = tail(lines.as_bytes(), lines.len() as u64).unwrap();
        assert!(shown.contains(")\nabcdefghi\n") && shown.ends_with("\nend"), "{shown}");
        // Only the end was kept by the caller: the header says how long the whole was.
        let shown = tail(b"end\n", 1_000_000).unwrap();
        assert_eq!(shown, "(the last 1 lines of 1000000 bytes)\nend");
        // Bytes that are not UTF-8, and a cut inside a character, never panic.
        let broken = [vec![0xff, b'a', b'\n'], "é".repeat(5_000).into_bytes()].concat();
        assert!(tail(&broken[1..], broken.len() as u64).unwrap().contains('é'));
        assert!(tail(&[0xff, b'a'], 2).unwrap().contains('\u{fffd}'));
    }

    #[test]
    fn a_sentence_is_shortened_at_a_word() {
        assert_eq!(sentence("Declining gives  denied\n`CONFIRMATION_DECLINED`."), "Declining gives denied `CONFIRMATION_DECLINED`.");
        let long = "word ".repeat(60);
        let shown = sentence(&long);
        assert!(shown.ends_with("word…") && shown.chars().count() <= SENTENCE_CHARS, "{shown}");
        let unbroken = "x".repeat(300);
        assert_eq!(sentence(&unbroken).chars().count(), SENTENCE_CHARS);
    }

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
