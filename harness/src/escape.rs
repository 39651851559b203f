//! Escaping of untrusted text for every output format (issue 28): case ids, descriptions,
//! requirement quotes, adapter names and messages, stream values. One function per format, and
//! every writer goes through it: the terminal (`main.rs`, `validate`), the Markdown
//! certification (`certification.rs`), JUnit XML (`junit.rs`) and the HTML report (`html.rs`).
//! Vectors and adapters are not ours: a vector set of one's own, or an adapter's error message,
//! may hold ESC sequences, raw HTML or characters XML forbids.

use std::borrow::Cow;

/// Whether a terminal could act on `c` instead of showing it: C0 controls other than a newline
/// and a tab (ESC starts every terminal escape sequence; a carriage return rewrites the line), DEL,
/// the C1 controls (U+009B is a one-character CSI), and the bidirectional formatting characters
/// that reorder what is shown.
fn acts_on_terminal(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `c` as `\uXXXX`: visible on a terminal, and the same character again inside a JSON string
/// (`validate --format json` goes through `terminal` too).
fn visible(c: char, out: &mut String) {
    out.push_str(&format!("\\u{:04x}", c as u32));
}

/// `text` for a terminal: every character a terminal would act on is written as `\uXXXX`;
/// newlines and tabs stay. The CLI's own text never holds such a character, so whole messages
/// may go through it; the CLI's colours are added after it.
pub fn terminal(text: &str) -> Cow<'_, str> {
    if !text.chars().any(acts_on_terminal) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if acts_on_terminal(c) {
            visible(c, &mut out);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` inlined in Markdown (a table cell, a heading, a line of prose): shown as the text it
/// is, never as markup. `&`, `<` and `>` become character references, so no raw HTML passes
/// through (a renderer that allows HTML would run an injected `<script>`); the characters that
/// start inline constructs (`\`, `` ` ``, `*`, `_`, `[`, `]`, `~`, `|`, `!`, `#`) are
/// backslash-escaped (CommonMark escapes any ASCII punctuation that way); a line break becomes a
/// space (a table row is one line); and the terminal's controls are written as `\uXXXX`, since a
/// Markdown file is also read with `cat`.
pub fn markdown_inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '~' | '|' | '!' | '#' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' | '\t' => out.push(' '),
            c if acts_on_terminal(c) => visible(c, &mut out),
            c => out.push(c),
        }
    }
    out
}

/// Whether XML 1.0 allows `c` in a document (production `Char`).
fn allowed_in_xml(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

/// `text` for JUnit XML, to be handed to quick-junit (which escapes markup, `&`, `<`, `>` and
/// quotes, but not these): every character XML 1.0 forbids (controls, U+FFFE, U+FFFF) and every
/// character a terminal acts on (CI systems print the messages in a log) as `\uXXXX`.
pub fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if !allowed_in_xml(c) || (acts_on_terminal(c) && c != '\r') {
            visible(c, &mut out);
        } else {
            out.push(c);
        }
    }
    out
}

/// JSON text (as serde_json writes it) for the content of a `<script type="application/json">`
/// element of the HTML report (issue 27 §1): `<`, `>` and `&` are written as JSON escapes, which
/// JSON allows only inside strings, where they mean the same character again, so no `</script>`
/// or `<!--` can end or change the element, whatever an implementation answered. The strings in
/// it went through `terminal` first, as every other value of the page does.
pub fn html_script_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_in_a_script_element_cannot_end_it() {
        let value = serde_json::json!({"a": "</script><!--<script>x & y"});
        let text = html_script_json(&value.to_string());
        assert!(!text.contains('<') && !text.contains('>') && !text.contains('&'), "{text}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), value);
    }

    #[test]
    fn a_terminal_sees_escape_sequences_as_text_and_keeps_newlines() {
        let text = "id\x1b[2J\x1b]0;owned\x07\r\u{9b}31m\u{202e}txt\nnext\tcol";
        let shown = terminal(text);
        assert_eq!(shown, "id\\u001b[2J\\u001b]0;owned\\u0007\\u000d\\u009b31m\\u202etxt\nnext\tcol");
        assert!(!shown.chars().any(acts_on_terminal));
        assert!(matches!(terminal("plain text\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn markdown_never_passes_html_or_markup_through() {
        let cell = markdown_inline("<script>alert(1)</script> | [x](javascript:y) *b* `c`\n\x1b[31m");
        assert_eq!(
            cell,
            "&lt;script&gt;alert(1)&lt;/script&gt; \\| \\[x\\](javascript:y) \\*b\\* \\`c\\` \\u001b\\[31m"
        );
        assert!(!cell.contains('<') && !cell.contains('\n'));
        assert_eq!(markdown_inline("rcip.policy-race.unbind.001"), "rcip.policy-race.unbind.001");
    }

    #[test]
    fn xml_writes_forbidden_and_terminal_characters_visibly() {
        assert_eq!(xml("a\u{0}b\u{fffe}\x1b[0m\tc\n"), "a\\u0000b\\ufffe\\u001b[0m\tc\n");
    }
}
