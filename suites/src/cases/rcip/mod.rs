//! The rcip case builders, one module per section.

use crate::case::Section;

/// Every rcip section, in file order.
pub fn sections() -> Vec<Section> {
    Vec::new()
}
