//! Every case builder of the suite, by protocol. `all_sections` is what `regen` writes, each
//! step that can fail citing the sentences that decide it (`step_ids`).

pub mod assist;
pub mod from_model;
pub mod rcip;
pub mod rui;

use crate::case::Section;

/// Every section, in a fixed order (RCIP first, then Rixx UI, then the model-generated sections; each in its own
/// module's order).
pub fn all_sections() -> Vec<Section> {
    all_sections_with_certificates().0
}

/// `all_sections` and the models' coverage certificates, from one walk of each model.
pub fn all_sections_with_certificates() -> (Vec<Section>, Vec<from_model::Certificate>) {
    let mut sections = rcip::sections();
    sections.extend(assist::sections());
    sections.extend(rui::sections());
    let mut certificates = Vec::new();
    for generated in from_model::generated() {
        sections.extend(generated.sections);
        certificates.push(generated.certificate);
    }
    crate::step_ids::cite_all(&mut sections);
    (sections, certificates)
}
