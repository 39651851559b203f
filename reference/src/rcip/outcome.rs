//! Invocation outcomes of CL-A06 and the error codes of CL-B01 (RCIP-PROTO-OUT-01..03): four
//! statuses, thirteen stable codes, `denied` exactly for `POLICY_DENIED` and
//! `CONFIRMATION_DECLINED`. Messages are fixed texts chosen per code, so no handler or policy error
//! text, stack trace or data value ever crosses the client boundary (CL-B02-2).

use serde_json::{json, Map, Value};

use crate::schema::SchemaIssue;

use super::definition::Effect;

/// The stable error codes of CL-B01, exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ErrorCode {
    InvocationAlreadyActive,
    CapabilityNotFound,
    CapabilityUnbound,
    CapabilityUnavailable,
    InputInvalid,
    PolicyEvaluationFailed,
    PolicyDenied,
    ConfirmationDeclined,
    ConfirmationExpired,
    ConfirmationNotFound,
    ExecutionAborted,
    ExecutionFailed,
    OutputInvalid,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 13] = [
        ErrorCode::InvocationAlreadyActive,
        ErrorCode::CapabilityNotFound,
        ErrorCode::CapabilityUnbound,
        ErrorCode::CapabilityUnavailable,
        ErrorCode::InputInvalid,
        ErrorCode::PolicyEvaluationFailed,
        ErrorCode::PolicyDenied,
        ErrorCode::ConfirmationDeclined,
        ErrorCode::ConfirmationExpired,
        ErrorCode::ConfirmationNotFound,
        ErrorCode::ExecutionAborted,
        ErrorCode::ExecutionFailed,
        ErrorCode::OutputInvalid,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvocationAlreadyActive => "INVOCATION_ALREADY_ACTIVE",
            ErrorCode::CapabilityNotFound => "CAPABILITY_NOT_FOUND",
            ErrorCode::CapabilityUnbound => "CAPABILITY_UNBOUND",
            ErrorCode::CapabilityUnavailable => "CAPABILITY_UNAVAILABLE",
            ErrorCode::InputInvalid => "INPUT_INVALID",
            ErrorCode::PolicyEvaluationFailed => "POLICY_EVALUATION_FAILED",
            ErrorCode::PolicyDenied => "POLICY_DENIED",
            ErrorCode::ConfirmationDeclined => "CONFIRMATION_DECLINED",
            ErrorCode::ConfirmationExpired => "CONFIRMATION_EXPIRED",
            ErrorCode::ConfirmationNotFound => "CONFIRMATION_NOT_FOUND",
            ErrorCode::ExecutionAborted => "EXECUTION_ABORTED",
            ErrorCode::ExecutionFailed => "EXECUTION_FAILED",
            ErrorCode::OutputInvalid => "OUTPUT_INVALID",
        }
    }

    /// CL-B01-2/3: `denied` for the two policy-side codes, `failed` for every other.
    pub fn status(self) -> Status {
        match self {
            ErrorCode::PolicyDenied | ErrorCode::ConfirmationDeclined => Status::Denied,
            _ => Status::Failed,
        }
    }

    /// The fixed message of this code (never host text).
    pub fn message(self) -> &'static str {
        match self {
            ErrorCode::InvocationAlreadyActive => {
                "Another invocation with this id is still active."
            }
            ErrorCode::CapabilityNotFound => "The catalog declares no capability with this id.",
            ErrorCode::CapabilityUnbound => "The capability has no live binding.",
            ErrorCode::CapabilityUnavailable => "The capability is currently unavailable.",
            ErrorCode::InputInvalid => "The input is not valid for this capability.",
            ErrorCode::PolicyEvaluationFailed => "Host policy could not be evaluated.",
            ErrorCode::PolicyDenied => "Host policy denied the invocation.",
            ErrorCode::ConfirmationDeclined => "The confirmation was declined.",
            ErrorCode::ConfirmationExpired => "The confirmation expired.",
            ErrorCode::ConfirmationNotFound => "No pending confirmation has this id.",
            ErrorCode::ExecutionAborted => "The invocation was aborted.",
            ErrorCode::ExecutionFailed => "The capability failed to execute.",
            ErrorCode::OutputInvalid => "The capability returned an invalid output.",
        }
    }
}

/// The four outcome statuses of RCIP-PROTO-OUT-01.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Succeeded,
    ConfirmationRequired,
    Failed,
    Denied,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Succeeded => "succeeded",
            Status::ConfirmationRequired => "confirmation_required",
            Status::Failed => "failed",
            Status::Denied => "denied",
        }
    }
}

/// A validation issue of an outcome (CL-A06-3): where, which keyword, and a fixed message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationIssue {
    pub instance_path: String,
    pub keyword: String,
    pub message: String,
}

impl ValidationIssue {
    pub fn from_schema(issue: &SchemaIssue) -> ValidationIssue {
        ValidationIssue {
            instance_path: issue.instance_path.clone(),
            keyword: issue.keyword.clone(),
            message: format!("must satisfy '{}'", issue.keyword),
        }
    }
}

/// The error of a failed or denied outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutcomeError {
    pub code: ErrorCode,
    pub message: String,
    pub validation_issues: Option<Vec<ValidationIssue>>,
}

/// What a `confirmation_required` outcome carries (CL-A06-4). No token: the id alone names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfirmationInfo {
    pub id: String,
    pub title: String,
    pub description: String,
    pub effect: Effect,
    /// On the runtime's clock, in ms.
    pub expires_at: u64,
    /// How `expiresAt` writes that instant (PRJ-RCIP-CONF-02, RECOMMENDED: a millisecond number;
    /// `expires-at-iso-date` writes it as an RFC 3339 date-time string instead).
    pub expires_at_as_date: bool,
}

impl ConfirmationInfo {
    /// The `expiresAt` member as this runtime writes it.
    pub fn expires_at_json(&self) -> Value {
        if self.expires_at_as_date {
            json!(iso_date_time(self.expires_at))
        } else {
            json!(self.expires_at)
        }
    }
}

/// `ms` milliseconds after the Unix epoch as an RFC 3339 UTC date-time with milliseconds
/// (`1970-01-01T00:02:00.000Z`), the civil date from the day count (Gregorian calendar).
fn iso_date_time(ms: u64) -> String {
    let (days, in_day) = (ms / 86_400_000, ms % 86_400_000);
    // Days since 0000-03-01, so every 400-year era starts with March and ends with 29 February.
    let shifted = days + 719_468;
    let era = shifted / 146_097;
    let day_of_era = shifted % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    let (hours, minutes) = (in_day / 3_600_000, in_day / 60_000 % 60);
    let (seconds, millis) = (in_day / 1_000 % 60, in_day % 1_000);
    format!("{year:04}-{month:02}-{day:02}T{hours:02}:{minutes:02}:{seconds:02}.{millis:03}Z")
}

/// The body of an outcome, by status.
#[derive(Debug, Clone, PartialEq)]
pub enum OutcomeBody {
    Succeeded {
        output: Value,
    },
    ConfirmationRequired(ConfirmationInfo),
    /// `failed` or `denied`, as the code says (CL-B01-2/3).
    Error(OutcomeError),
}

/// One settled outcome (CL-A06).
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub invocation_id: String,
    pub capability_id: String,
    pub body: OutcomeBody,
}

impl Outcome {
    pub fn error(invocation_id: &str, capability_id: &str, code: ErrorCode) -> Outcome {
        Outcome::error_with(invocation_id, capability_id, code, None)
    }

    pub fn error_with(
        invocation_id: &str,
        capability_id: &str,
        code: ErrorCode,
        validation_issues: Option<Vec<ValidationIssue>>,
    ) -> Outcome {
        Outcome {
            invocation_id: invocation_id.to_string(),
            capability_id: capability_id.to_string(),
            body: OutcomeBody::Error(OutcomeError {
                code,
                message: code.message().to_string(),
                validation_issues,
            }),
        }
    }

    pub fn status(&self) -> Status {
        match &self.body {
            OutcomeBody::Succeeded { .. } => Status::Succeeded,
            OutcomeBody::ConfirmationRequired(_) => Status::ConfirmationRequired,
            OutcomeBody::Error(error) => error.code.status(),
        }
    }

    /// The error code, for failed and denied outcomes.
    pub fn code(&self) -> Option<ErrorCode> {
        match &self.body {
            OutcomeBody::Error(error) => Some(error.code),
            _ => None,
        }
    }

    /// The CL-A06 object, messages included.
    pub fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("status".into(), json!(self.status().as_str()));
        object.insert("invocationId".into(), json!(self.invocation_id));
        object.insert("capabilityId".into(), json!(self.capability_id));
        match &self.body {
            OutcomeBody::Succeeded { output } => {
                object.insert("output".into(), output.clone());
            }
            OutcomeBody::ConfirmationRequired(info) => {
                object.insert(
                    "confirmation".into(),
                    json!({ "id": info.id, "title": info.title, "description": info.description,
                            "effect": info.effect.as_str(), "expiresAt": info.expires_at_json() }),
                );
            }
            OutcomeBody::Error(error) => {
                let mut inner = Map::new();
                inner.insert("code".into(), json!(error.code.as_str()));
                inner.insert("message".into(), json!(error.message));
                if let Some(issues) = &error.validation_issues {
                    let issues: Vec<Value> = issues
                        .iter()
                        .map(|i| json!({ "instancePath": i.instance_path, "keyword": i.keyword, "message": i.message }))
                        .collect();
                    inner.insert("validationIssues".into(), Value::Array(issues));
                }
                object.insert("error".into(), Value::Object(inner));
            }
        }
        Value::Object(object)
    }

    /// Every human-readable text of the outcome (error message, issue messages), one per line.
    pub fn texts(&self) -> String {
        match &self.body {
            OutcomeBody::Error(error) => {
                let mut lines = vec![error.message.clone()];
                for issue in error.validation_issues.iter().flatten() {
                    lines.push(issue.message.clone());
                }
                lines.join("\n")
            }
            OutcomeBody::ConfirmationRequired(info) => {
                format!("{}\n{}", info.title, info.description)
            }
            OutcomeBody::Succeeded { .. } => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // CL-B01-1..3: exactly thirteen codes; denied exactly for the two policy-side codes.
    #[test]
    fn codes_and_statuses() {
        let denied: Vec<&str> = ErrorCode::ALL
            .iter()
            .filter(|c| c.status() == Status::Denied)
            .map(|c| c.as_str())
            .collect();
        assert_eq!(denied, vec!["POLICY_DENIED", "CONFIRMATION_DECLINED"]);
        let mut names: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 13);
    }

    // CL-A06-2: failed/denied outcomes carry error { code, message, validationIssues? }.
    #[test]
    fn error_outcome_shape() {
        let outcome = Outcome::error("i1", "notes.create", ErrorCode::ConfirmationDeclined);
        assert_eq!(
            outcome.to_json(),
            json!({ "status": "denied", "invocationId": "i1", "capabilityId": "notes.create",
                    "error": { "code": "CONFIRMATION_DECLINED", "message": ErrorCode::ConfirmationDeclined.message() } })
        );
    }

    // The texts the adapter reports as the `outcome-text` observation (vectors/README.md), which
    // the CL-B02 cases search for host text: every message a client can read, one per line.
    #[test]
    fn texts_are_every_message_a_client_reads() {
        let issue = ValidationIssue {
            instance_path: "/text".into(),
            keyword: "type".into(),
            message: "must satisfy 'type'".into(),
        };
        let invalid = Outcome::error_with(
            "i1",
            "notes.create",
            ErrorCode::InputInvalid,
            Some(vec![issue]),
        );
        let message = ErrorCode::InputInvalid.message();
        assert_eq!(invalid.texts(), format!("{message}\nmust satisfy 'type'"));
        let info = ConfirmationInfo {
            id: "c1".into(),
            title: "Delete".into(),
            description: "Deletes a note".into(),
            effect: Effect::Destructive,
            expires_at: 1,
            expires_at_as_date: false,
        };
        let pending = Outcome {
            invocation_id: "i2".into(),
            capability_id: "notes.delete".into(),
            body: OutcomeBody::ConfirmationRequired(info),
        };
        assert_eq!(pending.texts(), "Delete\nDeletes a note");
    }

    // The alternate of PRJ-RCIP-CONF-02 writes the same instant as a date: the epoch, a TTL of
    // two minutes, a leap day and the first millisecond of a new century.
    #[test]
    fn expires_at_as_a_date_is_the_same_instant_in_rfc_3339() {
        assert_eq!(iso_date_time(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso_date_time(120_000), "1970-01-01T00:02:00.000Z");
        assert_eq!(iso_date_time(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso_date_time(4_102_444_800_001), "2100-01-01T00:00:00.001Z");
        assert_eq!(iso_date_time(1_764_892_800_123), "2025-12-05T00:00:00.123Z");
    }
}
