//! Host features a model-generated RCIP case carries besides the lifecycle it was drawn for
//! (issue 27 §2): a member of the host's availability answer that is not JSON (a function,
//! CL-A04-7: the answer is read by its three members), a host-only availability member that a
//! snapshot never publishes (CL-B17-1, RCIP-PROTO-SNAP-08), and a listener that throws at every
//! revision (PRJ-RCIP-SUB-02). None of them changes what the model decides, so they are not part
//! of the path; putting all of them into every case made one bug in one feature fail every case
//! of `rcip.model-invocation` and hid what the cases test.
//!
//! Each case draws them from its seed (the case id for the committed cases, the choices for the
//! differential test and the fuzzer): each feature independently in one case of three, from the
//! SHA-256 of the seed, so the draw is deterministic, stable while the id is, and independent of
//! the position of the case. A bug in one feature then fails the cases that carry it (still
//! REQUIRED cases, about a third of the section, beside the hand-written ones of
//! `rcip.availability.host-members`, `rcip.snapshot.redaction` and `rcip.subscribe.isolation`),
//! and the rest of the section goes on judging the lifecycle.

use sha2::{Digest, Sha256};

/// Which of the unrelated host features one case carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostFeatures {
    /// The `available: true` answer carries `hostHook`, a function (`structuredClone` cannot copy
    /// it; CL-A04-7 reads the answer by its three members only).
    pub function_member: bool,
    /// Every availability answer carries `hostSession` with [`HOST_ONLY_MARKER`], and every
    /// snapshot's text is checked not to hold it (CL-B17-1).
    pub host_only_marker: bool,
    /// A listener that throws at every revision is subscribed before the recording one
    /// (PRJ-RCIP-SUB-02).
    pub throwing_listener: bool,
}

/// The value of the host-only availability member: CL-B17-1 says it is never published, so it
/// never appears in a snapshot's text.
pub const HOST_ONLY_MARKER: &str = "host-only-4b2d";

/// One in `DRAW_ONE_IN` cases carries each feature.
const DRAW_ONE_IN: u8 = 3;

impl HostFeatures {
    /// Every feature: for translations built by hand (tests) that want all of them.
    pub const ALL: HostFeatures = HostFeatures {
        function_member: true,
        host_only_marker: true,
        throwing_listener: true,
    };

    /// The features the case with this seed carries: feature `k` when byte `k` of the SHA-256
    /// of the seed is a multiple of [`DRAW_ONE_IN`].
    pub fn drawn(seed: &str) -> HostFeatures {
        let digest = Sha256::digest(seed.as_bytes());
        let on = |k: usize| digest[k] % DRAW_ONE_IN == 0;
        HostFeatures {
            function_member: on(0),
            host_only_marker: on(1),
            throwing_listener: on(2),
        }
    }

    /// The seed of a translation that has no stable id (differential test, fuzzer): its choices.
    pub fn seed_of_choices(choices: &[u32]) -> String {
        serde_json::to_string(choices).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_draw_is_deterministic_and_takes_each_feature_in_about_one_case_of_three() {
        let seeds: Vec<String> = (0..3000).map(|n| format!("rcip.model-invocation.x.{n:03}")).collect();
        let drawn: Vec<HostFeatures> = seeds.iter().map(|s| HostFeatures::drawn(s)).collect();
        assert_eq!(drawn, seeds.iter().map(|s| HostFeatures::drawn(s)).collect::<Vec<_>>());
        for (name, count) in [
            ("function", drawn.iter().filter(|f| f.function_member).count()),
            ("marker", drawn.iter().filter(|f| f.host_only_marker).count()),
            ("listener", drawn.iter().filter(|f| f.throwing_listener).count()),
        ] {
            assert!((850..=1150).contains(&count), "{name}: {count} of 3000");
        }
        assert!(drawn.contains(&HostFeatures::ALL));
        assert!(drawn.iter().any(|f| !f.function_member && !f.host_only_marker && !f.throwing_listener));
    }
}
