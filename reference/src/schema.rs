//! The strict JSON Schema 2020-12 profile of CL-B19 (placeholder until the RCIP issue lands).
