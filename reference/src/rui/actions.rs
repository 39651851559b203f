//! Action requests and their dispatch (CL-D06-4..6; spec "Graph invariants": "Action requests
//! remain inert until commit and pass to host policy independently from component validity",
//! RUI-INV-08/09).
//!
//! An action request is the value of a prop the catalog marks as an action: exactly
//! `{ "capabilityId": string, "input": JSON }` (decision: no other members, `input` required).
//! Staging never looks at it beyond that shape check; only the host UI dispatches it, and only from
//! the committed graph, so a request in a staged or rejected transaction can never reach the
//! policy (`ACTION_NOT_FOUND`). A dispatched request goes to the host action policy, which decides
//! whatever the component's validity: `{"decision": "allow"}` gives `allowed`, `{"decision":
//! "deny"}` gives `denied` `POLICY_DENIED`; a policy that throws or answers anything else gives
//! `rejected` `POLICY_EVALUATION_FAILED`. Decision where the texts are silent: `{"decision":
//! "confirm"}` (meaningful for RCIP invocations) gives `denied` `POLICY_DENIED`, since Rixx UI 0.1
//! has no confirmation step and an action that is not allowed does not run.
//!
//! Sans-IO: a gated policy leaves the dispatch `pending` until the host settles that policy call;
//! a scripted policy settles every call at once the same way.

use serde_json::Value;

use super::codes::DispatchCode;

/// The value of an action prop.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionRequest {
    pub capability_id: String,
    pub input: Value,
}

impl ActionRequest {
    /// `Some` when `prop` is exactly `{ capabilityId: string, input }`.
    pub fn from_prop(prop: &Value) -> Option<ActionRequest> {
        let members = prop.as_object()?;
        if members.len() != 2 {
            return None;
        }
        let capability_id = members.get("capabilityId")?.as_str()?;
        let input = members.get("input")?;
        Some(ActionRequest {
            capability_id: capability_id.to_string(),
            input: input.clone(),
        })
    }

    /// The shape check alone, without copying anything.
    pub fn is_action_request(prop: &Value) -> bool {
        prop.as_object().is_some_and(|members| {
            members.len() == 2
                && members.get("capabilityId").is_some_and(Value::is_string)
                && members.contains_key("input")
        })
    }
}

/// How a policy call settles: it returns a decision value, or throws.
#[derive(Debug, Clone, PartialEq)]
pub enum PolicySettlement {
    Return(Value),
    Throw,
}

/// The host action policy.
#[derive(Debug, Clone, PartialEq)]
pub enum ActionPolicy {
    /// Each call stays pending until [`super::runtime::Runtime::settle_action_policy`].
    Gated,
    /// Each call settles at once with this settlement.
    Scripted(PolicySettlement),
}

/// One call of the action policy: what the policy was asked (the input deep-copied at call time).
#[derive(Debug, Clone, PartialEq)]
pub struct PolicyCall {
    pub node: String,
    pub prop: String,
    pub capability_id: String,
    pub input: Value,
}

/// Where a dispatch stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DispatchStatus {
    Pending,
    Allowed,
    Denied(DispatchCode),
    Rejected(DispatchCode),
}

/// Identifies one dispatch of a runtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DispatchId(pub usize);

/// Why a settlement was refused: the host named a call that does not exist or already settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettleError {
    NoSuchCall,
    AlreadySettled,
}

impl std::fmt::Display for SettleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SettleError::NoSuchCall => f.write_str("no such action-policy call"),
            SettleError::AlreadySettled => f.write_str("that action-policy call already settled"),
        }
    }
}

impl std::error::Error for SettleError {}

/// Dispatches and policy calls of one runtime.
#[derive(Debug, Clone)]
pub struct Dispatcher {
    policy: ActionPolicy,
    dispatches: Vec<DispatchStatus>,
    calls: Vec<PolicyCall>,
    /// For each policy call: its dispatch.
    call_dispatch: Vec<DispatchId>,
    /// The alternate reading of PRJ-RUI-ACT-03 (`Choice::RuiPolicyFailureDenies`): a throwing or
    /// malformed policy is a denial, not an evaluation failure.
    failure_denies: bool,
}

impl Dispatcher {
    pub fn new(policy: ActionPolicy, failure_denies: bool) -> Dispatcher {
        Dispatcher {
            policy,
            dispatches: Vec::new(),
            calls: Vec::new(),
            call_dispatch: Vec::new(),
            failure_denies,
        }
    }

    /// A dispatch that found no action request: rejected at once, the policy never called.
    pub fn not_found(&mut self) -> DispatchId {
        self.dispatches
            .push(DispatchStatus::Rejected(DispatchCode::ActionNotFound));
        DispatchId(self.dispatches.len() - 1)
    }

    /// A dispatch of a committed action request: one policy call.
    pub fn call_policy(&mut self, node: &str, prop: &str, request: ActionRequest) -> DispatchId {
        let id = DispatchId(self.dispatches.len());
        self.dispatches.push(DispatchStatus::Pending);
        self.calls.push(PolicyCall {
            node: node.to_string(),
            prop: prop.to_string(),
            capability_id: request.capability_id,
            input: request.input,
        });
        self.call_dispatch.push(id);
        if let ActionPolicy::Scripted(settlement) = &self.policy {
            let status = decide(settlement, self.failure_denies);
            if let Some(slot) = self.dispatches.get_mut(id.0) {
                *slot = status;
            }
        }
        id
    }

    /// Settles policy call `call` (1-based, in call order) of a gated policy.
    pub fn settle(
        &mut self,
        call: usize,
        settlement: &PolicySettlement,
    ) -> Result<(), SettleError> {
        let dispatch = call
            .checked_sub(1)
            .and_then(|index| self.call_dispatch.get(index))
            .copied()
            .ok_or(SettleError::NoSuchCall)?;
        let slot = self
            .dispatches
            .get_mut(dispatch.0)
            .ok_or(SettleError::NoSuchCall)?;
        if *slot != DispatchStatus::Pending {
            return Err(SettleError::AlreadySettled);
        }
        *slot = decide(settlement, self.failure_denies);
        Ok(())
    }

    pub fn status(&self, id: DispatchId) -> Option<DispatchStatus> {
        self.dispatches.get(id.0).copied()
    }

    pub fn calls(&self) -> &[PolicyCall] {
        &self.calls
    }
}

/// The dispatch result a policy settlement gives.
fn decide(settlement: &PolicySettlement, failure_denies: bool) -> DispatchStatus {
    let decision = match settlement {
        PolicySettlement::Return(value) => value
            .as_object()
            .and_then(|d| d.get("decision"))
            .and_then(Value::as_str),
        PolicySettlement::Throw => None,
    };
    match decision {
        Some("allow") => DispatchStatus::Allowed,
        Some("deny" | "confirm") => DispatchStatus::Denied(DispatchCode::PolicyDenied),
        _ if failure_denies => DispatchStatus::Denied(DispatchCode::PolicyDenied),
        _ => DispatchStatus::Rejected(DispatchCode::PolicyEvaluationFailed),
    }
}
