//! The vector digest printed in reports: SHA-256 over each file's relative path and bytes, in path
//! order, so two runs can tell whether they judged the same vectors.

use sha2::{Digest as _, Sha256};

pub struct Digest(Sha256);

impl Digest {
    pub fn new() -> Digest {
        Digest(Sha256::new())
    }

    pub fn add(&mut self, name: &str, bytes: &[u8]) {
        self.0.update((name.len() as u64).to_le_bytes());
        self.0.update(name.as_bytes());
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
    }

    pub fn finish(self) -> String {
        let hash = self.0.finalize();
        hash.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl Default for Digest {
    fn default() -> Self {
        Digest::new()
    }
}
