//! The optional `codes` member of the handshake (issue 27 §5, `harness/driver/README.md`
//! "codes"): a map from an implementation's own Rixx UI code names to the register's. CL-D08-1
//! asks for one stable code per failure class and leaves the names to the project's register
//! (`vectors/RUI-CODES.md`), so a consumer written from the texts may name its codes its own way;
//! the harness translates its observations onto the register's names before judging, and the
//! reports print the map. RCIP outcome codes are not mappable: CL-B01-1 fixes them ("Error codes
//! are exactly: ..."), so an implementation with other names does not conform.
//!
//! The map is refused at the handshake when it is not an object of non-empty strings to strings
//! (`decode`), and before any case when it maps onto a name no Rixx UI entry of the register lists
//! (`check_against`). Several own names may map onto one register code (an implementation that
//! tells apart more than the register's failure class translates each of them onto that class);
//! one own name cannot map onto two codes: the handshake is parsed refusing a repeated key. An
//! own code the map does not name is judged as it is, so an unmapped unknown code is a
//! difference, as without a map.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};

use crate::loader::Requirement;

/// The longest own code name a map may hold (the register's longest is 26 bytes).
const MAX_NAME_BYTES: usize = 200;

/// The `expect` kinds of a Rixx UI step whose observation carries codes (vectors/README.md,
/// "Rixx UI steps"): each entry's `code` in a list, or the `code` of a dispatch.
const LISTS_WITH_CODES: [&str; 4] = ["transactions", "quarantine", "rejections", "frames"];

/// own name -> register name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CodeMap(BTreeMap<String, String>);

/// Decodes the handshake's `codes` member: absent or null is no map.
pub fn decode(member: Option<&Value>) -> Result<Option<CodeMap>, String> {
    let object = match member {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Object(object)) => object,
        Some(_) => return Err("codes must be an object mapping the implementation's own code names to the register's (harness/driver/README.md, \"codes\"), or null".into()),
    };
    let mut map = BTreeMap::new();
    for (own, register) in object {
        let shown = crate::quote::bounded(&format_args!("{own:?}"));
        if own.is_empty() || own.len() > MAX_NAME_BYTES {
            return Err(format!("codes: an own code name must be 1 to {MAX_NAME_BYTES} bytes, not {shown}"));
        }
        let Some(register) = register.as_str() else {
            return Err(format!("codes: {shown} must map to a string, the register's name of the code"));
        };
        map.insert(own.clone(), register.to_string());
    }
    Ok(Some(CodeMap(map)))
}

/// The codes the map may translate onto: those the Rixx UI entries of the register list.
pub fn rui_register_codes(requirements: &BTreeMap<String, Requirement>) -> BTreeSet<String> {
    requirements.values().filter(|r| r.id.starts_with("PRJ-RUI-")).flat_map(|r| r.codes.iter().cloned()).collect()
}

/// Refuses a map onto a name the register does not have, naming the first such entry and where
/// the names are listed.
pub fn check_against(map: &CodeMap, register: &BTreeSet<String>) -> Result<(), String> {
    match map.0.iter().find(|(_, to)| !register.contains(to.as_str())) {
        Some((own, to)) => Err(format!(
            "codes: {} maps onto {}, which is not a Rixx UI code of the register (vectors/RUI-CODES.md lists them; RCIP outcome codes are fixed by CL-B01-1 and cannot be mapped)",
            crate::quote::bounded(&format_args!("{own:?}")),
            crate::quote::bounded(&format_args!("{to:?}")),
        )),
        None => Ok(()),
    }
}

impl CodeMap {
    pub fn new(map: BTreeMap<String, String>) -> CodeMap {
        CodeMap(map)
    }

    pub fn entries(&self) -> &BTreeMap<String, String> {
        &self.0
    }

    /// The map as the JSON report and the handshake write it.
    pub fn to_json(&self) -> Value {
        json!(self.0)
    }

    /// `own -> REGISTER, ...` for the console and the Markdown report.
    pub fn describe(&self) -> String {
        self.0.iter().map(|(own, to)| format!("{own} -> {to}")).collect::<Vec<_>>().join(", ")
    }

    fn translate(&self, code: &mut Value) {
        if let Some(to) = code.as_str().and_then(|own| self.0.get(own)) {
            *code = json!(to);
        }
    }

    /// Rewrites the codes of a Rixx UI observation answering `expect` onto the register's names;
    /// every other member (and every other observation) is left as it is.
    pub fn translate_observation(&self, expect: &str, observation: &mut Value) {
        if LISTS_WITH_CODES.contains(&expect) {
            for entry in observation.as_array_mut().into_iter().flatten() {
                if let Some(code) = entry.get_mut("code") {
                    self.translate(code);
                }
            }
        } else if expect == "dispatch" {
            if let Some(code) = observation.get_mut("code") {
                self.translate(code);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn register() -> BTreeSet<String> {
        ["FRAME_NOT_JSON", "SEQUENCE_GAP", "POLICY_DENIED"].iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_malformed_map_is_refused_with_what_is_wrong() {
        assert_eq!(decode(None), Ok(None));
        assert_eq!(decode(Some(&Value::Null)), Ok(None));
        for (member, says) in [
            (json!(["FRAME_NOT_JSON"]), "codes must be an object"),
            (json!({ "bad-json": 1 }), "must map to a string"),
            (json!({ "": "FRAME_NOT_JSON" }), "1 to 200 bytes"),
            (json!({ "x".repeat(201): "FRAME_NOT_JSON" }), "1 to 200 bytes"),
        ] {
            let error = decode(Some(&member)).unwrap_err();
            assert!(error.contains(says), "{member}: {error}");
        }
    }

    #[test]
    fn a_map_onto_a_name_the_register_lacks_is_refused_and_many_to_one_is_allowed() {
        let map = decode(Some(&json!({ "bad-json": "FRAME_NOT_JSON", "empty": "FRAME_NOT_JSON", "gap": "SEQUENCE_GAP" }))).unwrap().unwrap();
        assert_eq!(check_against(&map, &register()), Ok(()));
        let wrong = decode(Some(&json!({ "gap": "SEQ_GAP" }))).unwrap().unwrap();
        let error = check_against(&wrong, &register()).unwrap_err();
        assert!(error.contains("\"gap\" maps onto \"SEQ_GAP\"") && error.contains("RUI-CODES.md"), "{error}");
        let rcip = decode(Some(&json!({ "aborted": "EXECUTION_ABORTED" }))).unwrap().unwrap();
        assert!(check_against(&rcip, &register()).unwrap_err().contains("CL-B01-1"));
    }

    #[test]
    fn only_the_codes_of_rui_observations_are_translated() {
        let map = decode(Some(&json!({ "bad-json": "FRAME_NOT_JSON", "denied": "POLICY_DENIED" }))).unwrap().unwrap();
        let mut quarantine = json!([{ "frame": 0, "code": "bad-json" }, { "frame": 1, "code": "other" }]);
        map.translate_observation("quarantine", &mut quarantine);
        assert_eq!(quarantine, json!([{ "frame": 0, "code": "FRAME_NOT_JSON" }, { "frame": 1, "code": "other" }]));
        let mut dispatch = json!({ "status": "denied", "code": "denied" });
        map.translate_observation("dispatch", &mut dispatch);
        assert_eq!(dispatch["code"], "POLICY_DENIED");
        // A graph or data document may hold a member named `code`: never translated.
        let mut data = json!({ "code": "bad-json" });
        map.translate_observation("data", &mut data);
        assert_eq!(data, json!({ "code": "bad-json" }));
        assert_eq!(map.describe(), "bad-json -> FRAME_NOT_JSON, denied -> POLICY_DENIED");
    }
}
