//! The `conformance` CLI: runs the vectors against the bundled reference (the default `run`),
//! lists cases, and explains one case with the requirement sentences it checks.
//!
//! Exit codes: 0 every case passed (or was non-strict, unsupported or skipped); 1 a case failed or
//! errored; 2 bad usage, or a vector file that does not load.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use harness::adapter::Adapter;
use harness::adapters::reference::ReferenceAdapter;
use harness::console::render_case;
use harness::loader::{Case, Vectors};
use harness::report::Run;
use harness::runner::run_case;
use harness::verdict::Verdict;

#[derive(Parser)]
#[command(name = "conformance", version, about = "RCIP 1.0 and Rixx UI 0.1 conformance runner")]
struct Cli {
    /// The vector directory (default: the vectors/ of this repository).
    #[arg(long, global = true)]
    vectors: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run cases against the bundled reference and print a summary (the default command).
    Run {
        /// Run only cases whose id starts with this prefix (repeatable).
        #[arg(long = "filter", value_name = "PREFIX")]
        filters: Vec<String>,
        /// Write the JSON report to this file.
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
        /// Print only the summary, not each difference.
        #[arg(long)]
        quiet: bool,
    },
    /// List case ids with their description.
    List {
        #[arg(long = "filter", value_name = "PREFIX")]
        filters: Vec<String>,
    },
    /// Show one case: its steps, expectations, and the requirement sentences it checks.
    Explain {
        /// The case id.
        case: String,
    },
}

fn selected<'v>(vectors: &'v Vectors, filters: &[String]) -> Vec<&'v Case> {
    vectors
        .cases
        .iter()
        .filter(|c| filters.is_empty() || filters.iter().any(|f| c.id.starts_with(f.as_str())))
        .collect()
}

fn load(path: &Option<PathBuf>) -> Result<Vectors, ExitCode> {
    let root = path.clone().unwrap_or_else(harness::bundled_vectors);
    let vectors = Vectors::load(&root).map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })?;
    for error in &vectors.errors {
        eprintln!("error: {error}");
    }
    Ok(vectors)
}

fn run(vectors: &Vectors, filters: &[String], report: &Option<PathBuf>, quiet: bool) -> ExitCode {
    let mut adapter = ReferenceAdapter::new();
    let cases = selected(vectors, filters);
    let mut results = Vec::with_capacity(cases.len());
    for case in cases {
        let result = run_case(&mut adapter, case);
        if !quiet && !matches!(result.verdict, Verdict::Pass | Verdict::Skip) {
            print!("{}", render_case(&result));
        }
        results.push((case, result));
    }
    let run = Run { vectors, implementation: adapter.implementation().clone(), results };
    println!("{}", run.summary());
    if let Some(path) = report {
        let text = serde_json::to_string_pretty(&run.to_json()).unwrap_or_default();
        if let Err(e) = std::fs::write(path, text + "\n") {
            eprintln!("error: cannot write the report to {}: {e}", path.display());
            return ExitCode::from(2);
        }
        println!("report written to {}", path.display());
    }
    if !vectors.errors.is_empty() {
        eprintln!("{} vector file problem(s): see the errors above", vectors.errors.len());
        return ExitCode::from(2);
    }
    if run.failed() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn explain(vectors: &Vectors, id: &str) -> ExitCode {
    let Some(case) = vectors.cases.iter().find(|c| c.id == id) else {
        eprintln!("error: no case {id}; `conformance list` shows the ids");
        return ExitCode::from(2);
    };
    println!("{}  [{}]", case.id, case.strictness);
    println!("{}", case.description);
    println!("file: {}", case.file.display());
    if !case.profiles.is_empty() {
        println!("profiles: {}", case.profiles.join(", "));
    }
    if let Some(notes) = &case.notes {
        println!("notes: {notes}");
    }
    println!("\nrequirements:");
    let mut clarifications = Vec::new();
    for rid in &case.requirements {
        match vectors.requirements.get(rid) {
            Some(r) => {
                println!("  {} [{}] {} ({})\n    \"{}\"", r.id, r.strictness, r.source, r.locator, r.quote);
                clarifications.extend(r.clarified_by.iter().cloned());
            }
            None => println!("  {rid} (not in the register)"),
        }
    }
    clarifications.retain(|c| !case.requirements.contains(c));
    clarifications.sort();
    clarifications.dedup();
    if !clarifications.is_empty() {
        println!("\nclarifications behind them:");
        for cid in &clarifications {
            if let Some(r) = vectors.requirements.get(cid) {
                println!("  {} [{}] \"{}\"", r.id, r.strictness, r.quote);
            }
        }
    }
    println!("\nsetup:\n{}", serde_json::to_string_pretty(&case.setup).unwrap_or_default());
    println!("\nsteps:");
    for (i, step) in case.steps.iter().enumerate() {
        println!("  {i:>3} {}", serde_json::to_string(step).unwrap_or_default());
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let vectors = match load(&cli.vectors) {
        Ok(v) => v,
        Err(code) => return code,
    };
    match cli.command.unwrap_or(Command::Run { filters: Vec::new(), report: None, quiet: false }) {
        Command::Run { filters, report, quiet } => run(&vectors, &filters, &report, quiet),
        Command::List { filters } => {
            for case in selected(&vectors, &filters) {
                println!("{:<52} {}", case.id, case.description);
            }
            ExitCode::SUCCESS
        }
        Command::Explain { case } => explain(&vectors, &case),
    }
}
