//! Every case builder of the suite, by protocol. `all_sections` is what `regen` writes.

pub mod assist;
pub mod rcip;
pub mod rui;

use crate::case::Section;

/// Every section, in a fixed order (RCIP first, then Rixx UI; each in its own module's order).
pub fn all_sections() -> Vec<Section> {
    let mut sections = rcip::sections();
    sections.extend(assist::sections());
    sections.extend(rui::sections());
    sections
}
