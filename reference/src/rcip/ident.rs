//! The identifier grammar of RCIP-PROTO-ID-01..04 and CL-B18-1..4 (application, scope and
//! capability ids): a lowercase ASCII letter first; segments separated by a single `.`, `_` or
//! `-`, each separator followed by a lowercase ASCII letter; segment characters ASCII letters and
//! digits; case-sensitive. CL-B18-9 (IMPL-DEFINED, chosen): runs of capitals or digits inside a
//! segment (`getURL`, `v2beta`, `notes2`) are accepted, since the grammar's character class
//! admits them; the alternate (`Choice::IdentifierRunsRefused`) refuses runs of two or more
//! capitals or digits at creation.

/// Whether `id` is a valid RCIP identifier.
pub fn is_identifier(id: &str) -> bool {
    let bytes = id.as_bytes();
    let Some(first) = bytes.first() else {
        return false;
    };
    if !first.is_ascii_lowercase() {
        return false;
    }
    let mut after_separator = false;
    for &byte in bytes.iter().skip(1) {
        if after_separator {
            if !byte.is_ascii_lowercase() {
                return false;
            }
            after_separator = false;
        } else if matches!(byte, b'.' | b'_' | b'-') {
            after_separator = true;
        } else if !byte.is_ascii_alphanumeric() {
            return false;
        }
    }
    !after_separator
}

/// Whether a segment of `id` holds a run of two or more capitals or of two or more digits
/// (`getURL`, `v22`): what the other reading of CL-B18-9 refuses.
pub fn has_capital_or_digit_run(id: &str) -> bool {
    id.as_bytes().windows(2).any(|pair| {
        (pair[0].is_ascii_uppercase() && pair[1].is_ascii_uppercase())
            || (pair[0].is_ascii_digit() && pair[1].is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::{has_capital_or_digit_run, is_identifier};

    // CL-B18-9: the runs the alternate reading refuses.
    #[test]
    fn runs_of_capitals_or_digits_are_found() {
        assert!(has_capital_or_digit_run("getURL") && has_capital_or_digit_run("v22.x"));
        assert!(!has_capital_or_digit_run("getUrl") && !has_capital_or_digit_run("v2beta.x2"));
    }

    // RCIP-PROTO-ID-01..03, CL-B18-1..3: the spec's own example and each separator.
    #[test]
    fn valid_identifiers() {
        for id in [
            "polls.prepareCreate",
            "notes",
            "a",
            "notes_editor-view.main",
            "x.y_z-w",
        ] {
            assert!(is_identifier(id), "{id}");
        }
    }

    // CL-B18-9 (IMPL-DEFINED, chosen: accepted).
    #[test]
    fn runs_of_capitals_and_digits_are_accepted() {
        for id in ["notes.getURL", "api.v2beta", "notes2", "notes.exportAsPDF"] {
            assert!(is_identifier(id), "{id}");
        }
    }

    // CL-B18-1..3: first character, separator followers, characters, doubled and trailing
    // separators.
    #[test]
    fn invalid_identifiers() {
        for id in [
            "",
            "Notes",
            "9notes",
            "_notes",
            "notes.",
            "notes..list",
            "notes.2",
            "notes-Editor",
            "notes_",
            "notes list",
            "notes/list",
            "nötes",
            "notes._x",
            ".notes",
        ] {
            assert!(!is_identifier(id), "{id}");
        }
    }
}
