//! Rixx UI 0.1 reference runtime (placeholder until the Rixx UI issue lands).
