//! The rui case builders, one module per section.

use crate::case::Section;

/// Every rui section, in file order.
pub fn sections() -> Vec<Section> {
    Vec::new()
}
