//! The `suites` CLI: `regen` writes `vectors/` from the builders and the register, `regen --check`
//! proves it current, `lint` runs the self-lint and prints coverage. Every command also checks the
//! generated sections against `vectors/schema/`. Exit code 1 on any problem.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use suites::cases::all_sections_with_certificates;
use suites::lint::{lint, load_pending, load_retired};
use suites::regen;
use suites::register::{Register, Sources};

#[derive(Parser)]
#[command(
    name = "suites",
    about = "Requirement register, vector generation and self-lint"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write vectors/ from the case builders and the register (after a clean lint).
    Regen {
        /// Write nothing; fail if vectors/ differs from what would be written.
        #[arg(long)]
        check: bool,
        /// Write even with lint errors (while a section is being written; `--check`, which CI
        /// runs, always requires a clean lint).
        #[arg(long, conflicts_with = "check")]
        ignore_lint: bool,
    },
    /// Check the register and the cases; print requirement coverage.
    Lint,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = root();
    let suites = root.join("suites");
    let spec_dir = std::env::var_os("RCIP_SPEC_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| suites.join("spec"));
    match execute(&cli.command, &root, &suites, &spec_dir) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn execute(command: &Command, root: &Path, suites: &Path, spec_dir: &Path) -> Result<bool, String> {
    let sources = Sources::load(spec_dir)?;
    let register = Register::load(&suites.join("register"))?;
    suites::cases::from_model::check_regression_files()?;
    let (sections, certificates) = all_sections_with_certificates();
    let pending = load_pending(&suites.join("register").join("pending-coverage.toml"))?;
    let retired = load_retired(&suites.join("retired-ids.txt"))?;
    let report = lint(&register, &sources, &sections, &pending, &retired);
    for note in &report.notes {
        println!("note: {note}");
    }
    for error in &report.errors {
        println!("lint: {error}");
    }
    println!("coverage:\n{}", report.coverage);
    for certificate in &certificates {
        println!("model coverage certificate: {certificate}");
    }
    let vectors = root.join("vectors");
    let schemas = suites::vector_schema::VectorSchemas::load(&vectors.join("schema"))?;
    let invalid: Vec<String> = sections.iter().flat_map(|s| schemas.problems(s)).collect();
    for problem in &invalid {
        println!("schema: {problem}");
    }
    let lint_clean = report.errors.is_empty() && invalid.is_empty();
    match command {
        Command::Lint => Ok(lint_clean),
        Command::Regen {
            check: false,
            ignore_lint,
        } => {
            if !lint_clean && !ignore_lint {
                println!(
                    "{} lint error(s), {} schema error(s): vectors not written",
                    report.errors.len(),
                    invalid.len()
                );
                return Ok(false);
            }
            let files = regen::generate(&register, &sources, &sections);
            let changed = regen::write(&vectors, &files)?;
            for line in &changed {
                println!("{line}");
            }
            println!("{} generated files, {} changed", files.len(), changed.len());
            Ok(true)
        }
        Command::Regen { check: true, .. } => {
            let files = regen::generate(&register, &sources, &sections);
            let problems = regen::check(&vectors, &files)?;
            for problem in &problems {
                println!("regen --check: {problem}");
            }
            if problems.is_empty() {
                println!("vectors/ is current ({} generated files)", files.len());
            }
            Ok(problems.is_empty() && lint_clean)
        }
    }
}
