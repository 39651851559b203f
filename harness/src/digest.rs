//! The vector digest printed in reports: SHA-256 over every file of a vector set (schemas,
//! register, case files), each as its relative path and the SHA-256 of its bytes, in path order,
//! so two runs can tell whether they judged the same vectors and a certification can tell the
//! official set from any other. Files are hashed one at a time: the digest costs 32 bytes per file,
//! never the files themselves. `build.rs` includes this file to compute the digest of the bundled
//! (official) vectors at build time.

use std::collections::BTreeMap;

use sha2::{Digest as _, Sha256};

#[derive(Default)]
pub struct Digest {
    files: BTreeMap<String, [u8; 32]>,
}

impl Digest {
    pub fn new() -> Digest {
        Digest::default()
    }

    /// Adds one file by its path relative to the vector directory (`/`-separated).
    pub fn add(&mut self, name: &str, bytes: &[u8]) {
        self.files.insert(name.to_string(), Sha256::digest(bytes).into());
    }

    pub fn finish(self) -> String {
        let mut all = Sha256::new();
        for (name, hash) in &self.files {
            all.update((name.len() as u64).to_le_bytes());
            all.update(name.as_bytes());
            all.update(hash);
        }
        all.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }
}
