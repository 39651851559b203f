//! RCIP 1.0 reference runtime (placeholder until the RCIP issue lands).
