//! Badge data of `conformance compare --badges DIR` (issue 31): one shields.io endpoint JSON file
//! per implementation and protocol (`{"schemaVersion": 1, "label", "message", "color"}`, the
//! format <https://shields.io/badges/endpoint-badge> reads), made from the certification line
//! of that implementation's run, so a badge never claims more than the certification does.

use serde_json::{json, Value};

use super::Comparison;

/// The badge of one certification line (`RCIP 1.0: REQUIRED + RECOMMENDED; profiles: react`).
pub fn badge(level: &str) -> Value {
    let (label, status) = level.split_once(": ").unwrap_or(("conformance", level));
    let (message, color) = if status == "not implemented" {
        (status.to_string(), "lightgrey")
    } else if status.starts_with("not certified") {
        // The reason stays in the report; a badge says only that it is not certified.
        ("not certified".to_string(), "red")
    } else if status.starts_with("REQUIRED + RECOMMENDED") {
        (status.to_string(), "brightgreen")
    } else {
        (status.to_string(), "green")
    };
    json!({ "schemaVersion": 1, "label": label, "message": message, "color": color })
}

/// A readable file name stem for an implementation label: ASCII letters and digits (lowercased)
/// and `.` kept, every other run of characters one `-` (`reference (alternate choices) 0.1.0`
/// gives `reference-alternate-choices-0.1.0`).
fn slug(label: &str) -> String {
    let mut out = String::new();
    for c in label.chars() {
        if c.is_ascii_alphanumeric() || c == '.' {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches(|c| c == '-' || c == '.').to_string()
}

/// Every badge: (file name, JSON text), one per implementation and protocol, in report order.
/// Two labels with the same slug (or an empty one) fall back to the label percent-encoded
/// (`files::file_name`), which distinct labels never share.
pub fn files(comparison: &Comparison) -> Vec<(String, String)> {
    let slugs: Vec<String> = comparison.implementations.iter().map(|i| slug(&i.label)).collect();
    let mut out = Vec::new();
    for (implementation, stem) in comparison.implementations.iter().zip(&slugs) {
        let unique = !stem.is_empty() && slugs.iter().filter(|s| *s == stem).count() == 1;
        let stem = if unique { stem.clone() } else { implementation.label.clone() };
        for (level, protocol) in implementation.levels.iter().zip(["rcip", "rui"]) {
            let name = crate::files::file_name(&format!("{stem}.{protocol}"), ".json");
            let text = serde_json::to_string_pretty(&badge(level)).unwrap_or_default() + "\n";
            out.push((name, text));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slug_keeps_letters_digits_and_dots() {
        assert_eq!(slug("reference (alternate choices) 0.1.0"), "reference-alternate-choices-0.1.0");
        assert_eq!(slug("@scope/rcip-js 2.0.0-beta.1"), "scope-rcip-js-2.0.0-beta.1");
        assert_eq!(slug("(((("), "");
    }

    #[test]
    fn a_badge_follows_its_certification_line() {
        assert_eq!(badge("RCIP 1.0: REQUIRED + RECOMMENDED; profiles: react")["color"], "brightgreen");
        assert_eq!(badge("RCIP 1.0: REQUIRED")["message"], "REQUIRED");
        assert_eq!(badge("RCIP 1.0: REQUIRED")["label"], "RCIP 1.0");
        let not = badge("Rixx UI 0.1: not certified (3 REQUIRED case(s) did not pass)");
        assert_eq!((not["message"].as_str(), not["color"].as_str()), (Some("not certified"), Some("red")));
        assert_eq!(badge("Rixx UI 0.1: not implemented")["color"], "lightgrey");
        assert_eq!(badge("RCIP 1.0: REQUIRED")["schemaVersion"], 1);
    }
}
