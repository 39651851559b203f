//! The RCIP 1.0 case builders (`vectors/rcip/`), one module per section, written from the spec
//! texts 000 and 001 and CLARIFICATIONS A and B only (never from an implementation's output).
//! `support` holds the shared definition builder, step helpers and outcome patterns. Project
//! decisions the cases rely on are in `suites/register/project-rcip.toml` (PRJ-RCIP-*).

pub(crate) mod support;

mod abort;
mod accessors;
mod availability;
mod binding;
mod cancellation;
mod confirmation;
mod context;
mod default_policy;
mod definitions;
mod detached_definition;
mod detached_output;
mod detachment;
mod events;
mod execution;
mod expiry;
mod handler_context;
mod host_text;
mod identifiers;
mod isolation;
mod json_values;
mod lifecycle_order;
mod list;
mod malformed_request;
mod outcomes;
mod output;
mod policy;
mod policy_capability;
mod policy_race;
mod preflight;
mod react;
mod receipts;
mod reservation;
mod schema_profile;
mod snapshot;
mod subscribe;

use crate::case::Section;

/// Every rcip section, in file order: definitions and schemas, discovery, host surface, the
/// invocation lifecycle in the order of its steps, then isolation and the events, preflight and
/// react profiles.
pub fn sections() -> Vec<Section> {
    vec![
        definitions::section(),
        identifiers::section(),
        schema_profile::section(),
        json_values::section(),
        accessors::section(),
        snapshot::section(),
        list::section(),
        subscribe::section(),
        binding::section(),
        context::section(),
        lifecycle_order::section(),
        availability::section(),
        policy::section(),
        policy_race::section(),
        default_policy::section(),
        reservation::section(),
        detachment::section(),
        confirmation::section(),
        expiry::section(),
        cancellation::section(),
        receipts::section(),
        abort::section(),
        execution::section(),
        handler_context::section(),
        output::section(),
        outcomes::section(),
        host_text::section(),
        isolation::section(),
        events::section(),
        preflight::section(),
        react::section(),
    ]
}
