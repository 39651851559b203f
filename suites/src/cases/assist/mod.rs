//! The Assist orchestrator case builders (`vectors/rcip/assist.*.json`, profile `assist`), one
//! module per section, written from the "Assist orchestration" paragraph of the RCIP protocol text
//! (RCIP-PROTO-ASSIST-01..12) and CLARIFICATIONS C01..C06 only, never from an implementation's
//! output. Project decisions the cases rely on: `suites/register/project-assist.toml`
//! (PRJ-ASSIST-*). The step vocabulary is vectors/README.md, "Assist (profile `assist`)".

mod support;

mod batch;
mod cancel;
mod confirm;
mod decide;
mod delay;
mod read_only;
mod summarize;

use crate::case::Section;

/// Every Assist section, in file order.
pub fn sections() -> Vec<Section> {
    vec![
        decide::section(),
        batch::section(),
        confirm::section(),
        delay::section(),
        summarize::section(),
        read_only::section(),
        cancel::section(),
    ]
}
