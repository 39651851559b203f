//! The case and section builders every generator uses to write vectors in the format of
//! `vectors/README.md` (`vectors/schema/case.schema.json`, `file.schema.json`).

use serde_json::{json, Map, Value};

/// How a difference in a check is judged (CLARIFICATIONS preamble).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strictness {
    Required,
    Recommended,
    ImplDefined,
    Profile,
}

impl Strictness {
    pub fn as_str(self) -> &'static str {
        match self {
            Strictness::Required => "REQUIRED",
            Strictness::Recommended => "RECOMMENDED",
            Strictness::ImplDefined => "IMPL-DEFINED",
            Strictness::Profile => "PROFILE",
        }
    }

    pub fn parse(text: &str) -> Option<Strictness> {
        match text {
            "REQUIRED" => Some(Strictness::Required),
            "RECOMMENDED" => Some(Strictness::Recommended),
            "IMPL-DEFINED" => Some(Strictness::ImplDefined),
            "PROFILE" => Some(Strictness::Profile),
            _ => None,
        }
    }
}

/// Where a generated case came from (`provenance` in the case schema).
#[derive(Debug, Clone)]
pub struct Provenance {
    /// `builder`, `model` or `proptest`.
    pub kind: &'static str,
    pub by: String,
    pub seed: Option<String>,
    pub path: Vec<String>,
}

/// One case: built with chained calls, written with `to_json`.
#[derive(Debug, Clone)]
pub struct Case {
    pub id: String,
    pub description: String,
    pub requirements: Vec<String>,
    pub strictness: Strictness,
    pub profiles: Vec<String>,
    pub setup: Value,
    pub steps: Vec<Value>,
    pub notes: Option<String>,
    pub provenance: Option<Provenance>,
}

impl Case {
    /// A REQUIRED case with no requirements, profiles or steps yet.
    pub fn new(id: impl Into<String>, description: impl Into<String>) -> Case {
        Case {
            id: id.into(),
            description: description.into(),
            requirements: Vec::new(),
            strictness: Strictness::Required,
            profiles: Vec::new(),
            setup: json!({}),
            steps: Vec::new(),
            notes: None,
            provenance: None,
        }
    }

    pub fn requirements(mut self, ids: &[&str]) -> Case {
        self.requirements
            .extend(ids.iter().map(|id| id.to_string()));
        self
    }

    pub fn strictness(mut self, strictness: Strictness) -> Case {
        self.strictness = strictness;
        self
    }

    pub fn profiles(mut self, profiles: &[&str]) -> Case {
        self.profiles.extend(profiles.iter().map(|p| p.to_string()));
        self
    }

    pub fn setup(mut self, setup: Value) -> Case {
        self.setup = setup;
        self
    }

    pub fn step(mut self, step: Value) -> Case {
        self.steps.push(step);
        self
    }

    pub fn steps(mut self, steps: impl IntoIterator<Item = Value>) -> Case {
        self.steps.extend(steps);
        self
    }

    pub fn notes(mut self, notes: impl Into<String>) -> Case {
        self.notes = Some(notes.into());
        self
    }

    pub fn provenance(mut self, provenance: Provenance) -> Case {
        self.provenance = Some(provenance);
        self
    }

    /// The case as vector JSON, keys in schema order.
    pub fn to_json(&self) -> Value {
        let mut case = Map::new();
        case.insert("id".into(), json!(self.id));
        case.insert("description".into(), json!(self.description));
        case.insert("requirements".into(), json!(self.requirements));
        case.insert("strictness".into(), json!(self.strictness.as_str()));
        case.insert("profiles".into(), json!(self.profiles));
        case.insert("setup".into(), self.setup.clone());
        case.insert("steps".into(), Value::Array(self.steps.clone()));
        if let Some(notes) = &self.notes {
            case.insert("notes".into(), json!(notes));
        }
        if let Some(p) = &self.provenance {
            let mut prov = Map::new();
            prov.insert("kind".into(), json!(p.kind));
            prov.insert("by".into(), json!(p.by));
            if let Some(seed) = &p.seed {
                prov.insert("seed".into(), json!(seed));
            }
            if !p.path.is_empty() {
                prov.insert("path".into(), json!(p.path));
            }
            case.insert("provenance".into(), Value::Object(prov));
        }
        Value::Object(case)
    }
}

/// One vector file: a section of one protocol.
#[derive(Debug, Clone)]
pub struct Section {
    /// Section id, e.g. `rcip.policy-race`; every case id starts with it and a dot.
    pub id: String,
    pub title: String,
    /// The generator, as a module path (`suites::cases::rcip::policy_race`).
    pub by: String,
    pub cases: Vec<Case>,
}

impl Section {
    pub fn new(id: impl Into<String>, title: impl Into<String>, by: impl Into<String>) -> Section {
        Section {
            id: id.into(),
            title: title.into(),
            by: by.into(),
            cases: Vec::new(),
        }
    }

    pub fn case(mut self, case: Case) -> Section {
        self.cases.push(case);
        self
    }

    pub fn cases(mut self, cases: impl IntoIterator<Item = Case>) -> Section {
        self.cases.extend(cases);
        self
    }

    /// `rcip` or `rui`: the first segment of the section id.
    pub fn protocol(&self) -> &str {
        self.id.split('.').next().unwrap_or("")
    }

    /// Path of the vector file relative to `vectors/`: `<protocol>/<rest of the id>.json`.
    pub fn file_name(&self) -> String {
        let rest = self
            .id
            .split_once('.')
            .map(|(_, rest)| rest)
            .unwrap_or(&self.id);
        format!("{}/{}.json", self.protocol(), rest)
    }

    pub fn to_json(&self) -> Value {
        json!({
            "$schema": "../schema/file.schema.json",
            "format": crate::FORMAT,
            "protocol": self.protocol(),
            "section": self.id,
            "title": self.title,
            "generated": {
                "by": self.by,
                "command": crate::REGEN_COMMAND,
                "notice": crate::GENERATED_NOTICE,
            },
            "cases": self.cases.iter().map(Case::to_json).collect::<Vec<_>>(),
        })
    }
}
