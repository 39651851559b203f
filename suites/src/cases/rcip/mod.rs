//! The RCIP 1.0 case builders (`vectors/rcip/`), one module per section, written from the spec
//! texts 000 and 001 and CLARIFICATIONS A and B only (never from an implementation's output).
//! `support` holds the shared definition builder, step helpers and outcome patterns.

mod support;

mod binding;
mod context;
mod definitions;
mod identifiers;
mod json_values;
mod lifecycle_order;
mod list;
mod schema_profile;
mod snapshot;
mod subscribe;

use crate::case::Section;

/// Every rcip section, in file order.
pub fn sections() -> Vec<Section> {
    vec![
        definitions::section(),
        identifiers::section(),
        schema_profile::section(),
        json_values::section(),
        snapshot::section(),
        list::section(),
        subscribe::section(),
        binding::section(),
        context::section(),
        lifecycle_order::section(),
    ]
}
