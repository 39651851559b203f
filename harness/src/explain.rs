//! `conformance explain CASE`: one case as text, with its steps, its expectations and the quoted
//! sentences of the requirements it cites (and the clarifications behind them). The same text is
//! shown for a failing case in the HTML report (`html.rs`), so a reader of either sees one
//! explanation.

use std::fmt::Write as _;

use crate::loader::{Case, Vectors};

/// The explanation of one case.
pub fn render(vectors: &Vectors, case: &Case) -> String {
    render_steps(vectors, case, |_| true, true)
}

/// The explanation with only the steps `keep` selects; each run of left-out steps is one line
/// saying how many (the HTML report keeps a long case's steps around its differences). The setup
/// is pretty-printed, or on one line (the HTML report, where a catalog's indentation would be a
/// large part of the page).
pub fn render_steps(vectors: &Vectors, case: &Case, keep: impl Fn(usize) -> bool, pretty_setup: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}  [{}]", case.id, case.strictness);
    let _ = writeln!(out, "{}", case.description);
    // Relative to the vector directory (--vectors): a published report names no local path.
    let file = case.file.strip_prefix(&vectors.root).unwrap_or(&case.file);
    let _ = writeln!(out, "file: {}", file.display());
    if !case.profiles.is_empty() {
        let _ = writeln!(out, "profiles: {}", case.profiles.join(", "));
    }
    if let Some(notes) = &case.notes {
        let _ = writeln!(out, "notes: {notes}");
    }
    let _ = writeln!(out, "\nrequirements:");
    let mut clarifications = Vec::new();
    for rid in crate::select::cited_requirements(case) {
        match vectors.requirements.get(&rid) {
            Some(r) => {
                let _ = writeln!(out, "  {} [{}] {} ({})\n    \"{}\"", r.id, r.strictness, r.source, r.locator, r.quote);
                clarifications.extend(r.clarified_by.iter().cloned());
            }
            None => {
                let _ = writeln!(out, "  {rid} (not in the register)");
            }
        }
    }
    clarifications.retain(|c| !case.requirements.contains(c));
    clarifications.sort();
    clarifications.dedup();
    if !clarifications.is_empty() {
        let _ = writeln!(out, "\nclarifications behind them:");
        for cid in &clarifications {
            if let Some(r) = vectors.requirements.get(cid) {
                let _ = writeln!(out, "  {} [{}] \"{}\"", r.id, r.strictness, r.quote);
            }
        }
    }
    let (setup, steps) = case.body();
    let setup = if pretty_setup { serde_json::to_string_pretty(&setup) } else { serde_json::to_string(&setup) };
    let _ = writeln!(out, "\nsetup:\n{}", setup.unwrap_or_default());
    let _ = writeln!(out, "\nsteps (actions, then `expect` steps with the pattern the observation must match):");
    let mut left_out = 0;
    for (i, step) in steps.iter().enumerate() {
        if !keep(i) {
            left_out += 1;
            continue;
        }
        if left_out > 0 {
            let _ = writeln!(out, "      ... {left_out} steps left out (`conformance explain {}` shows every step)", case.id);
            left_out = 0;
        }
        let _ = writeln!(out, "  {i:>3} {}", serde_json::to_string(step).unwrap_or_default());
    }
    if left_out > 0 {
        let _ = writeln!(out, "      ... {left_out} steps left out (`conformance explain {}` shows every step)", case.id);
    }
    out
}

/// `explain CASE --model`: the model path a generated case (`vectors/*/model-*.json`) came from,
/// numbered as the Explorer shows it, and how to open its last state in `model-check explore`.
/// `Err` for a case written by hand or a path this build's models cannot replay.
pub fn model_path(case: &Case) -> Result<String, String> {
    let provenance = case.provenance.as_ref().ok_or_else(|| {
        format!("{} was written by hand: only generated cases (vectors/*/model-*.json) come from a model path", case.id)
    })?;
    let located = model::explore::locate(&provenance.by, &provenance.path)
        .map_err(|e| format!("{}: the path of its provenance does not replay in this build's model: {e}", case.id))?;
    let mut out = String::new();
    let origin = match (&provenance.kind[..], &provenance.seed) {
        ("proptest", Some(seed)) => format!("a shrunk differential-test failure, seed {seed}"),
        (kind, _) => format!("generated from the {kind}"),
    };
    let _ = writeln!(out, "model path ({origin}; {}):", provenance.by);
    if provenance.path.len() > located.actions.len() {
        let _ = writeln!(out, "  configuration: {}", provenance.path[0]);
    }
    let _ = writeln!(out, "  {:>3} initial state {}", 0, located.indices[0]);
    for (i, (action, index)) in located.actions.iter().zip(&located.indices[1..]).enumerate() {
        let _ = writeln!(out, "  {:>3} {action}  (action {index} of the state's enabled actions)", i + 1);
    }
    let _ = writeln!(out, "\nbrowse it in stateright's Explorer (the model with its properties):");
    let _ = writeln!(out, "  cargo run -p model --release --bin model-check -- explore {} --port 3000", located.arguments.join(" "));
    let _ = writeln!(out, "  then open http://127.0.0.1:3000/{}", located.fragment());
    Ok(out)
}
