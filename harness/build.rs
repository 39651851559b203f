//! Computes the digest of the vector set bundled with this build (`../vectors`, the official
//! set) so a certification can require a run over exactly that set (`certification.rs`). The
//! digest is the one the loader computes (`src/digest.rs`, included here): schema files,
//! register and case files, by relative path.

#[path = "src/digest.rs"]
#[allow(dead_code)]
mod digest;

use std::fs;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("vectors");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut digest = digest::Digest::new();
    let mut found = false;
    for (dir, suffix) in [("schema", ".schema.json"), ("rcip", ".json"), ("rui", ".json")] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
        let Ok(entries) = fs::read_dir(root.join(dir)) else { continue };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !name.ends_with(suffix) || !entry.file_type().map(|t| t.is_file()).unwrap_or(false) {
                continue;
            }
            println!("cargo:rerun-if-changed={}", entry.path().display());
            if let Ok(bytes) = fs::read(entry.path()) {
                digest.add(&format!("{dir}/{name}"), &bytes);
                found = true;
            }
        }
    }
    let register = root.join("requirements.json");
    println!("cargo:rerun-if-changed={}", register.display());
    if let Ok(bytes) = fs::read(&register) {
        digest.add("requirements.json", &bytes);
    }
    // Without bundled vectors (a packaged build) no vector set is official.
    let value = if found { digest.finish() } else { "none".to_string() };
    println!("cargo:rustc-env=OFFICIAL_VECTORS_DIGEST={value}");
}
