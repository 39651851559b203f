//! The `conformance` CLI: runs the vectors against the bundled reference (the default) or any
//! implementation behind a driver-protocol adapter (`--adapter -- CMD ARGS...`), lists cases, and
//! explains one case with the requirement sentences it checks.
//!
//! `fuzz` draws random paths of the models, runs them as cases and shrinks the first disagreement
//! to a vector file (`harness::fuzz`); it exits 0 when nothing was found, 1 on a disagreement
//! (a `fail` or `errored` case), 2 on bad usage or an adapter that cannot start.
//!
//! Exit codes of `run`: 0 no unexpected failure; 1 a case failed or errored and is not listed as a
//! known failure; 2 bad usage, a vector file that does not load, or an adapter that cannot start;
//! 3 no unexpected failure, but the expectations file is stale (a listed case did not fail, or an
//! entry matches no case); 4 no case was judged (every selected case `unsupported` or `skip`, as
//! with an adapter declaring no protocol) and `--allow-nothing-judged` was not given. A selection
//! with no case, an output path that cannot be written (checked before the run), a handshake
//! naming an unknown profile, and a run stopped by the circuit breaker (`--max-timeouts`) or by
//! its overall budget (`--max-run-seconds`) exit 2. SIGINT, SIGTERM and SIGHUP exit 130, 143 and
//! 129, every command (`harness::interrupt`).

/// Every line the CLI shows goes through `escape::terminal` (issue 28): case ids, descriptions,
/// adapter messages and stream values reach the terminal as text, never as escape sequences.
/// The one coloured line adds its colour after escaping.
macro_rules! say {
    ($($arg:tt)*) => { println!("{}", harness::escape::terminal(&format!($($arg)*))) };
}
macro_rules! say_part {
    ($($arg:tt)*) => { print!("{}", harness::escape::terminal(&format!($($arg)*))) };
}
macro_rules! complain {
    ($($arg:tt)*) => { eprintln!("{}", harness::escape::terminal(&format!($($arg)*))) };
}

/// The allocator: a run, a fuzz campaign and `validate` spend about a third of their time in
/// allocating and freeing small JSON values, which mimalloc does faster than the system allocator
/// (issue 29). It decides nothing an outcome depends on.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use harness::adapter::Adapter;
use harness::adapters::process::{Pipelining, ProcessAdapter, Spawned};
use harness::adapters::reference::ReferenceAdapter;
use reference::choices::Choices;
use harness::console::render_groups;
use harness::expectations::{baseline, Expectations};
use harness::loader::{Case, Vectors};
use harness::report::{Run, Scope};
use harness::select::{Selection, Shard};
use harness::runner::CaseResult;
use harness::session::run_cases_recorded;
use harness::verdict::Verdict;

#[derive(Parser)]
#[command(name = "conformance", version, about = "RCIP 1.0 and Rixx UI 0.1 conformance runner")]
struct Cli {
    /// The vector directory (default: the vectors/ of this repository).
    #[arg(long, global = true, value_name = "DIR")]
    vectors: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Args, Default, Clone)]
struct Filters {
    /// Only cases whose id starts with PREFIX (repeatable; any matches).
    #[arg(long = "filter", value_name = "PREFIX")]
    prefixes: Vec<String>,
    /// Only cases of this section, e.g. rcip.policy-race (repeatable).
    #[arg(long = "section", value_name = "SECTION")]
    sections: Vec<String>,
    /// Only cases citing this requirement id, or ids under it: CL-B07 selects CL-B07-1, ... (repeatable).
    #[arg(long = "requirement", value_name = "ID")]
    requirements: Vec<String>,
    /// Only cases needing this profile (repeatable).
    #[arg(long = "profile", value_name = "PROFILE")]
    profiles: Vec<String>,
    /// Only cases of this strictness: REQUIRED, RECOMMENDED, IMPL-DEFINED, PROFILE (repeatable).
    #[arg(long = "strictness", value_name = "LEVEL")]
    strictness: Vec<String>,
    /// Only shard K of N of the selected cases (deterministic by case id; `report --merge` joins
    /// the N JSON reports).
    #[arg(long = "shard", value_name = "K/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
}

impl Filters {
    fn selection(&self) -> Selection {
        Selection {
            prefixes: self.prefixes.clone(),
            sections: self.sections.clone(),
            requirements: self.requirements.clone(),
            profiles: self.profiles.clone(),
            strictness: self.strictness.clone(),
            shard: self.shard,
        }
    }

    /// The options as given, for reports: empty when every case is selected.
    fn described(&self) -> Vec<String> {
        let mut given = Vec::new();
        for (flag, values) in [
            ("--filter", &self.prefixes),
            ("--section", &self.sections),
            ("--requirement", &self.requirements),
            ("--profile", &self.profiles),
            ("--strictness", &self.strictness),
        ] {
            given.extend(values.iter().map(|v| format!("{flag} {v}")));
        }
        given.extend(self.shard.map(|shard| format!("--shard {shard}")));
        given
    }
}

/// The reports a run (or a merge of shard reports) writes.
#[derive(Args, Default, Clone)]
struct Outputs {
    /// Write the JSON report (schema: harness/report.schema.json).
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Write JUnit XML.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Write the Markdown certification report.
    #[arg(long, value_name = "FILE")]
    markdown: Option<PathBuf>,
    /// Write the HTML certification report: one self-contained page (harness/README.md).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

#[derive(Args)]
struct ReportArgs {
    /// The JSON reports of every shard of one run (`run --shard k/n --report FILE`).
    #[arg(long, num_args = 1.., value_name = "REPORT", conflicts_with = "from")]
    merge: Vec<PathBuf>,
    /// The JSON report of one run (`run --report FILE`), to write its other reports from.
    #[arg(value_name = "REPORT.json", required_unless_present = "merge")]
    from: Option<PathBuf>,
    #[command(flatten)]
    outputs: Outputs,
    /// Exit 0 even when the reports judged no case (every case `unsupported` or `skip`); without
    /// it such a run exits 4, as `run` does.
    #[arg(long)]
    allow_nothing_judged: bool,
}

#[derive(Args)]
struct CompareArgs {
    /// The JSON reports (`run --report FILE`) of the implementations to compare, all of one
    /// vector set (the one loaded here: the bundled set, or `--vectors DIR`).
    #[arg(value_name = "REPORT.json", required = true, num_args = 1..)]
    reports: Vec<PathBuf>,
    /// Implementations (by `implementation.name` in their reports, comma-separated) that share
    /// one code base: they count once toward "passed by two independent implementations".
    /// Repeatable, one group each.
    #[arg(long, value_name = "NAME,NAME...")]
    same_codebase: Vec<String>,
    /// Write the implementation report as Markdown.
    #[arg(long, value_name = "FILE")]
    markdown: Option<PathBuf>,
    /// Write the implementation report as one self-contained HTML page.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Write shields.io endpoint badge data, one JSON file per implementation and protocol, into
    /// this directory (created if missing).
    #[arg(long, value_name = "DIR")]
    badges: Option<PathBuf>,
}

/// The implementation a command judges: a process behind the driver protocol, or the bundled
/// reference with one of its readings. Shared by `run` and `fuzz`, so both take the same flags.
#[derive(Args, Default)]
struct Subject {
    /// Drive an implementation through a driver-protocol adapter: `--adapter -- CMD ARGS...`.
    #[arg(long)]
    adapter: bool,
    /// The adapter command and its arguments, after `--` (no shell).
    #[arg(last = true, value_name = "CMD")]
    command: Vec<String>,
    /// Per-request timeout for a process adapter, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    step_timeout: u64,
    /// Without --adapter: which behaviour the bundled reference takes where the texts leave a
    /// choice (`alternate`: the other admissible behaviour at every row of `reference-driver
    /// --choices list`; `random:SEED`: each row drawn from the seed; `rows:NAME,...`: exactly
    /// those rows).
    #[arg(long, value_name = "READING", default_value = "default", value_parser = parse_choices)]
    reference_choices: String,
    /// Send a process adapter one request at a time even when its handshake declares pipelining
    /// (harness/driver/README.md, "Pipelining"): a case judged differently with and without it
    /// shows a pipelining bug of the adapter.
    #[arg(long)]
    no_pipelining: bool,
}

impl Subject {
    /// `--adapter` and a command come together or not at all.
    fn check(&self) -> Result<(), String> {
        if self.adapter == self.command.is_empty() {
            return Err("give the adapter as `--adapter -- CMD ARGS...`, or neither for the bundled reference".into());
        }
        if self.adapter && self.reference_choices != "default" {
            return Err("--reference-choices applies to the bundled reference, not to an --adapter".into());
        }
        if !self.adapter && self.no_pipelining {
            return Err("--no-pipelining applies to an --adapter, not to the bundled reference".into());
        }
        Ok(())
    }

    /// Whether a process adapter may be sent requests ahead of its answers.
    fn pipelining(&self) -> Pipelining {
        if self.no_pipelining {
            Pipelining::Off
        } else {
            Pipelining::IfDeclared
        }
    }

    fn timeout(&self) -> Duration {
        Duration::from_millis(self.step_timeout.max(1))
    }

    /// The reading of the bundled reference (the value was checked when parsed).
    fn choices(&self) -> Choices {
        Choices::parse(&self.reference_choices).unwrap_or_default()
    }
}

/// `--reference-choices` is checked as it is parsed, so a misspelt reading is a usage error.
fn parse_choices(text: &str) -> Result<String, String> {
    Choices::parse(text).map(|_| text.to_string())
}

#[derive(Args)]
struct RunArgs {
    #[command(flatten)]
    filters: Filters,
    #[command(flatten)]
    subject: Subject,
    /// Without --adapter: inject one realistic bug of the fault catalog into the bundled
    /// reference (`reference-driver --fault list`), e.g. to see what one bug fails.
    #[arg(long, value_name = "NAME")]
    reference_fault: Option<String>,
    /// Stop the run after K consecutive cases errored because the adapter did not answer in time
    /// (0: never stop).
    #[arg(long, value_name = "K", default_value_t = 5)]
    max_timeouts: usize,
    /// Cases run in parallel (one adapter process each), 1 to 256.
    #[arg(long, short = 'j', value_name = "N", default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_JOBS))]
    jobs: usize,
    /// Known failures and skips, each with a reason (TOML; see harness/README.md).
    #[arg(long, value_name = "FILE")]
    expectations: Option<PathBuf>,
    /// Write the failures of this run as an expectations file (a baseline).
    #[arg(long, value_name = "FILE")]
    write_expectations: Option<PathBuf>,
    #[command(flatten)]
    outputs: Outputs,
    /// Print only the summary.
    #[arg(long)]
    quiet: bool,
    /// Print the diffs of every case that did not pass; without it, one case per cause (the
    /// first by id) is shown with its diffs and the others of the cause by id.
    #[arg(long)]
    all_diffs: bool,
    /// Keep what the adapter wrote to stderr for the cases that passed too (always kept, and
    /// shown, for the cases that did not pass).
    #[arg(long)]
    keep_stderr: bool,
    /// Write one trace per case run into DIR (`<case id>.jsonl`, the format `check-trace` reads:
    /// every call with whether it threw, every observation with its value; RCIP and Rixx UI). An
    /// id with a byte other than letters, digits, `-`, `_` and inner `.`s is percent-encoded in
    /// the file name, and one over 200 bytes is cut and ends in a hash of the id.
    #[arg(long, value_name = "DIR")]
    trace_dir: Option<PathBuf>,
    /// An overall budget for the run, in seconds: when it passes, the request in progress is cut
    /// (its case `errored`), the cases not run are `errored` ("not run: ..."), the reports are
    /// written and the run exits 2.
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
    max_run_seconds: Option<f64>,
    /// Exit 0 even when no case was judged (every selected case `unsupported` or `skip`, e.g. an
    /// adapter declaring no protocol); without it such a run exits 4.
    #[arg(long)]
    allow_nothing_judged: bool,
}

impl Default for RunArgs {
    /// `conformance` with no command: `run` with the defaults clap would give.
    fn default() -> RunArgs {
        RunArgs {
            filters: Filters::default(),
            subject: Subject { step_timeout: 10_000, reference_choices: "default".into(), ..Subject::default() },
            reference_fault: None,
            max_timeouts: 5,
            jobs: 1,
            expectations: None,
            write_expectations: None,
            outputs: Outputs::default(),
            quiet: false,
            all_diffs: false,
            keep_stderr: false,
            trace_dir: None,
            max_run_seconds: None,
            allow_nothing_judged: false,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Run cases and print a summary per section and strictness (the default command).
    Run(Box<RunArgs>),
    /// List case ids with their description.
    List(Filters),
    /// Write the reports of a run (HTML, Markdown, JUnit) from its JSON report, or join the JSON
    /// reports of the shards of one run (`--merge`) into one report and one certification.
    Report(ReportArgs),
    /// Set the JSON reports of several implementations side by side, requirement by requirement:
    /// which sentences independent implementations agree on, where they split, which readings of
    /// the open points they take (the implementation report for spec authors).
    Compare(CompareArgs),
    /// Show one case: its steps, expectations, and the requirement sentences it checks.
    Explain {
        /// The case id.
        case: String,
        /// Also show the model path a generated case came from, and how to open it in
        /// `model-check explore`.
        #[arg(long)]
        model: bool,
    },
    /// Check a Rixx UI stream a producer wrote (a file, stdin, or a live SSE or WebSocket
    /// endpoint), as a consumer would judge it.
    Validate(ValidateArgs),
    /// Write a valid generated stream of at least BYTES bytes to standard output (for measuring
    /// `validate`; its catalog: --catalog-out).
    #[command(hide = true)]
    GenerateStream {
        #[arg(long, value_parser = ["jsonl", "sse", "json-seq", "websocket"])]
        framing: String,
        #[arg(long)]
        bytes: u64,
        /// Also write the catalog the stream is valid under to this file.
        #[arg(long)]
        catalog_out: Option<PathBuf>,
    },
    /// Decide whether a path of the project's models (RCIP invocation, Assist turn, Rixx UI
    /// transaction) explains a recorded trace (JSON Lines, harness/trace.schema.json); report the
    /// first record none explains. Exit 0 explained,
    /// 1 not explained, 2 bad usage, an unreadable or malformed trace, or one outside the model.
    CheckTrace(CheckTraceArgs),
    /// Run random paths of the models against an implementation; shrink the first disagreement
    /// and write it as a vector file.
    Fuzz(Box<FuzzArgs>),
}

#[derive(Args)]
struct CheckTraceArgs {
    /// Trace files, or - for standard input.
    #[arg(value_name = "FILE|-", required = true, num_args = 1..)]
    traces: Vec<String>,
    /// A trace outside what the models judge (the React host, a second runtime, ...) is counted and
    /// listed, but does not make the exit code 2 (for a directory of traces of a whole run).
    #[arg(long)]
    allow_out_of_scope: bool,
    /// Print only the traces that are not explained, outside the model or malformed, and the
    /// summary.
    #[arg(long)]
    quiet: bool,
}

#[derive(Args)]
struct FuzzArgs {
    /// The models to draw paths from, taking turns: invocation, assist, transaction or all
    /// (repeatable; default all).
    #[arg(long = "model", value_name = "MODEL", value_parser = ["invocation", "assist", "transaction", "all"])]
    models: Vec<String>,
    /// The seed (decimal or 0x-hex); the same seed and implementation give the same cases and
    /// verdicts.
    #[arg(long, value_name = "SEED", value_parser = parse_seed)]
    seed: Option<u64>,
    /// Cases to run.
    #[arg(long, value_name = "N", default_value_t = harness::fuzz::DEFAULT_CASES)]
    cases: u64,
    /// Model actions per path at most (default: each model's deepest path; 27, 23, 39).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=1000))]
    max_steps: Option<u64>,
    /// Stop drawing after S seconds (a stop condition only: the number of cases run then varies
    /// with the machine and is printed; case n is always the same case).
    #[arg(long, value_name = "S", value_parser = positive_seconds)]
    budget_seconds: Option<f64>,
    /// Implementation runs the shrinker may spend.
    #[arg(long, value_name = "N", default_value_t = harness::fuzz::DEFAULT_SHRINK_RUNS)]
    shrink_runs: u32,
    /// Where the shrunk case of a disagreement is written (DIR/rcip/ or DIR/rui/), for
    /// `conformance run --vectors DIR`.
    #[arg(long, value_name = "DIR", default_value = "fuzz-findings")]
    out: PathBuf,
    /// Print every case's verdict.
    #[arg(long)]
    verbose: bool,
    #[command(flatten)]
    subject: Subject,
    /// Without --adapter: inject one fault of the catalog into the bundled reference
    /// (`reference-driver --fault list`).
    #[arg(long, value_name = "NAME")]
    reference_fault: Option<String>,
}

/// The most adapter processes a run starts at once: far above the cores of any machine, far
/// below what exhausts memory or process limits (`--jobs 2000` aborted on an allocation).
const MAX_JOBS: u64 = 256;

/// The longest time option: about 31 years. `Duration::from_secs_f64` panics on values it cannot
/// hold (`1e300`, `inf`), so every time option is bounded when it is parsed.
const MAX_SECONDS: f64 = 1e9;

/// A time option in seconds: a finite number from 0 to [`MAX_SECONDS`].
fn seconds(text: &str) -> Result<f64, String> {
    let value: f64 = text.trim().parse().map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !value.is_finite() || !(0.0..=MAX_SECONDS).contains(&value) {
        return Err(format!("{text} seconds: give a finite number from 0 to {MAX_SECONDS:e}"));
    }
    Ok(value)
}

/// A time option that must be above 0 (a stall timeout, a budget).
fn positive_seconds(text: &str) -> Result<f64, String> {
    let value = seconds(text)?;
    if value <= 0.0 {
        return Err(format!("{text} seconds: give a number above 0 and at most {MAX_SECONDS:e}"));
    }
    Ok(value)
}

fn parse_seed(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.map_err(|_| format!("{text:?} is not a seed (a decimal or 0x-hex integer below 2^64)"))
}

#[derive(Args)]
struct ValidateArgs {
    /// The negotiated catalog, as the vector format's setup.catalog (JSON file).
    #[arg(long, value_name = "CATALOG.json")]
    catalog: PathBuf,
    /// How the stream is framed (a file or standard input; websocket: one message per JSON line,
    /// {"text": ...} or {"hex": ...}).
    #[arg(long, value_parser = ["jsonl", "sse", "json-seq", "websocket"], required_unless_present = "url", conflicts_with = "url")]
    framing: Option<String>,
    /// Follow a live endpoint instead: http://HOST:PORT/PATH (SSE) or ws://HOST:PORT/PATH (WebSocket).
    #[arg(long, value_name = "URL", conflicts_with = "input")]
    url: Option<String>,
    /// Live mode: stop following the stream after this many seconds (not an error).
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    max_seconds: Option<f64>,
    /// Live mode: no byte for this many seconds is a stalled server (an error, exit 2); default 30.
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
    stall_seconds: Option<f64>,
    /// A limits profile (JSON file, as setup.limits); default: the minimum profile.
    #[arg(long, value_name = "L.json")]
    limits: Option<PathBuf>,
    /// Output: text (default) or json.
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    format: String,
    /// RECOMMENDED findings count too: exit 1 on any violation (by default only a REQUIRED one
    /// makes the exit status 1).
    #[arg(long)]
    strict: bool,
    /// The stream: a file, or - for standard input.
    #[arg(value_name = "FILE|-", required_unless_present = "url")]
    input: Option<String>,
}

struct Style {
    colour: bool,
}

impl Style {
    fn detect() -> Style {
        Style { colour: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none() }
    }

    fn verdict(&self, verdict: Verdict) -> String {
        let code = match verdict {
            Verdict::Pass => "32",
            Verdict::Fail | Verdict::Errored => "31",
            Verdict::NonStrict | Verdict::Xfail => "33",
            Verdict::Unsupported | Verdict::Skip => "2",
        };
        if self.colour {
            format!("\x1b[{code}m{verdict}\x1b[0m")
        } else {
            verdict.to_string()
        }
    }
}

fn load(path: &Option<PathBuf>) -> Result<Vectors, ExitCode> {
    let root = path.clone().unwrap_or_else(harness::bundled_vectors);
    let vectors = Vectors::load(&root).map_err(|e| {
        complain!("error: {e}");
        ExitCode::from(2)
    })?;
    for error in &vectors.errors {
        complain!("error: {error}");
    }
    Ok(vectors)
}

/// Writes one output through `harness::files::write`: the previous file stays whole until the
/// new one is complete on disk.
fn write_file(path: &std::path::Path, text: &str, what: &str) -> Result<(), ExitCode> {
    harness::files::write(path, text.as_bytes()).map_err(|e| {
        complain!("error: cannot write the {what}: {e}");
        ExitCode::from(2)
    })?;
    say!("{what} written to {}", path.display());
    Ok(())
}

/// Checks, before anything runs, that every output path can be written and that no two name
/// the same file under different spellings (`harness::files::check_outputs`): an hour-long run
/// must not end in "cannot write the report", nor one report overwrite another.
fn check_outputs(outputs: &Outputs, write_expectations: &Option<PathBuf>) -> Result<(), String> {
    let outputs = [
        (&outputs.report, "--report"),
        (&outputs.junit, "--junit"),
        (&outputs.markdown, "--markdown"),
        (&outputs.html, "--html"),
        (write_expectations, "--write-expectations"),
    ];
    let given: Vec<(&str, &std::path::Path)> =
        outputs.iter().filter_map(|(path, flag)| path.as_ref().map(|p| (*flag, p.as_path()))).collect();
    harness::files::check_outputs(&given)?;
    // From here on, SIGINT or SIGTERM removes each output not yet written by this command: an
    // earlier run's report must not be left looking like this run's (harness::interrupt).
    harness::interrupt::claim_outputs(&given.iter().map(|(_, path)| *path).collect::<Vec<_>>());
    Ok(())
}

/// The checks of `run` that need no vector set (each error is printed; exit 2).
fn prepare(args: &RunArgs) -> Result<Prepared, ExitCode> {
    args.subject.check().map_err(|e| {
        complain!("error: {e}");
        ExitCode::from(2)
    })?;
    check_outputs(&args.outputs, &args.write_expectations).map_err(|e| {
        complain!("error: {e}");
        ExitCode::from(2)
    })?;
    if let Some(dir) = &args.trace_dir {
        harness::files::check_output_dir("--trace-dir", dir).map_err(|e| {
            complain!("error: {e}");
            ExitCode::from(2)
        })?;
        std::fs::create_dir_all(dir).map_err(|e| {
            complain!("error: --trace-dir {}: {e}", dir.display());
            ExitCode::from(2)
        })?;
    }
    let expectations = match &args.expectations {
        Some(path) => Expectations::load(path).map_err(|e| {
            complain!("error: {e}");
            ExitCode::from(2)
        })?,
        None => Expectations::default(),
    };
    let choices = match &args.reference_fault {
        None => args.subject.choices(),
        Some(_) if args.subject.adapter => {
            complain!("error: --reference-fault applies to the bundled reference, not to an --adapter");
            return Err(ExitCode::from(2));
        }
        Some(name) => match reference::choices::Fault::named(name) {
            Some(fault) => args.subject.choices().with_fault(fault),
            None => {
                complain!("error: --reference-fault {}: no such fault (`reference-driver --fault list`)", harness::escape::terminal(name));
                return Err(ExitCode::from(2));
            }
        },
    };
    Ok(Prepared { expectations, choices })
}

/// What a run checks before anything runs (its arguments, outputs and expectations file), and
/// what it takes from them.
struct Prepared {
    expectations: Expectations,
    choices: reference::choices::Choices,
}

/// `early`: the adapter process, already started while the vectors loaded (`--adapter` only),
/// after `prepare` passed: an adapter is never started for a run that stops at a usage error.
fn run(vectors: &Vectors, args: &RunArgs, prepared: Prepared, early: Option<Result<Spawned, String>>) -> Result<ExitCode, ExitCode> {
    let Prepared { expectations, choices } = prepared;
    let timeout = args.subject.timeout();
    let argv = args.subject.command.clone();
    let pipelining = args.subject.pipelining();
    // Bounded by its parser (`positive_seconds`), so the conversion cannot panic; the budget
    // counts from here, the handshake included.
    let deadline = args.max_run_seconds.and_then(|s| std::time::Instant::now().checked_add(Duration::from_secs_f64(s)));
    // One adapter up front: its handshake says what the implementation declares, and a broken
    // adapter stops the run before any case. A process adapter then serves the first job (a
    // second launch would cost a process start and whatever the adapter loads).
    let first: std::sync::Mutex<Option<ProcessAdapter>> = std::sync::Mutex::new(None);
    let implementation = if argv.is_empty() {
        ReferenceAdapter::with_choices(choices.clone()).implementation().clone()
    } else {
        let adapter = match early {
            Some(spawned) => spawned.and_then(|spawned| ProcessAdapter::launch_spawned(spawned, timeout, deadline, pipelining)),
            None => ProcessAdapter::launch_with(argv.clone(), timeout, deadline, pipelining),
        };
        let adapter = adapter.map_err(|e| {
            complain!("error: {e}");
            ExitCode::from(2)
        })?;
        let implementation = adapter.implementation().clone();
        first.lock().map_err(|_| ExitCode::from(2))?.replace(adapter);
        implementation
    };
    let first = &first;
    let factory = move || -> Result<Box<dyn Adapter>, String> {
        if argv.is_empty() {
            return Ok(Box::new(ReferenceAdapter::with_choices(choices.clone())));
        }
        if let Some(adapter) = first.lock().ok().and_then(|mut first| first.take()) {
            return Ok(Box::new(adapter));
        }
        Ok(Box::new(ProcessAdapter::launch_with(argv.clone(), timeout, deadline, pipelining)?))
    };
    if let Some(codes) = &implementation.codes {
        harness::codes::check_against(codes, &harness::codes::rui_register_codes(&vectors.requirements)).map_err(|e| {
            complain!("error: the adapter's handshake: {e}");
            ExitCode::from(2)
        })?;
    }
    let cases: Vec<&Case> = args.filters.selection().apply(&vectors.cases);
    if cases.is_empty() {
        complain!("error: no case selected ({} in the vector set)", vectors.cases.len());
        return Err(ExitCode::from(2));
    }
    let style = Style::detect();
    let progress = (!args.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(cases.len() as u64);
        if let Ok(template) = ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}") {
            bar.set_style(template);
        }
        bar
    });
    let plain = !args.quiet && progress.is_none();
    let skip = |case: &Case| expectations.skip_reason(&case.id).map(|r| format!("listed as skipped: {r}"));
    let on_done = |case: &Case, result: &harness::runner::CaseResult| match &progress {
        Some(bar) => {
            bar.inc(1);
            bar.set_message(harness::escape::terminal(&case.id).into_owned());
        }
        None if plain => println!("{:<11} {}", style.verdict(result.verdict), harness::escape::terminal(&case.id)),
        None => {}
    };
    let record = args.trace_dir.is_some();
    let session = run_cases_recorded(&cases, args.jobs, args.max_timeouts, &factory, &skip, &on_done, record, deadline).map_err(|e| {
        complain!("error: {e}");
        ExitCode::from(2)
    })?;
    let mut results = session.results;
    if let Some(bar) = &progress {
        bar.finish_and_clear();
    }
    let stale = expectations.apply(&vectors.cases, &mut results);
    if !args.keep_stderr {
        for result in results.iter_mut().filter(|r| r.verdict == Verdict::Pass) {
            result.stderr = None;
        }
    }
    if let Some(dir) = &args.trace_dir {
        let written = write_traces(dir, &results).map_err(|e| {
            complain!("error: {e}");
            ExitCode::from(2)
        })?;
        say!("{written} trace(s) written to {}", dir.display());
    }
    if !args.quiet {
        let groups = harness::causes::group(&results);
        if !groups.is_empty() {
            let shown: Vec<&CaseResult> = results.iter().collect();
            say_part!("\n{}", render_groups(&groups, &shown, args.all_diffs));
        }
    }
    let scope = Scope {
        official: vectors.is_official(),
        selection: args.filters.described(),
        stopped: session.stopped.clone(),
    };
    let run = Run { vectors, implementation, results: cases.into_iter().zip(results).collect(), scope };
    summarise_and_write(&run, &args.outputs)?;
    if let Some(path) = &args.write_expectations {
        let results: Vec<&CaseResult> = run.results.iter().map(|(_, r)| r).collect();
        write_file(path, &baseline(&expectations, &vectors.cases, &results, &vectors.digest), "expectations baseline")?;
    }
    for problem in &stale {
        complain!("expectations: {problem}");
    }
    if let Some(why) = &session.stopped {
        complain!("error: {why}");
        return Ok(ExitCode::from(2));
    }
    if !vectors.errors.is_empty() {
        complain!("{} vector file problem(s): see the errors above", vectors.errors.len());
        return Ok(ExitCode::from(2));
    }
    if run.failed() {
        return Ok(ExitCode::from(1));
    }
    if let Some(code) = accept_nothing_judged(&run, args.allow_nothing_judged) {
        return Ok(code);
    }
    Ok(if !stale.is_empty() { ExitCode::from(3) } else { ExitCode::SUCCESS })
}

/// Exit 4 for a run that judged nothing, unless the user allowed it (then a warning only).
fn accept_nothing_judged(run: &Run<'_>, allowed: bool) -> Option<ExitCode> {
    let why = nothing_judged(run)?;
    if allowed {
        complain!("warning: {why} (accepted: --allow-nothing-judged)");
        return None;
    }
    complain!("error: {why}; a run that judged nothing does not pass (give --allow-nothing-judged to accept it)");
    Some(ExitCode::from(4))
}

/// Why no case of `run` was judged, if none was: every case is `unsupported` or `skip`. A CI
/// gate on the exit code must not pass such a run (issue 28).
fn nothing_judged(run: &Run<'_>) -> Option<String> {
    let count = |verdict: Verdict| run.results.iter().filter(|(_, r)| r.verdict == verdict).count();
    let (unsupported, skipped) = (count(Verdict::Unsupported), count(Verdict::Skip));
    if unsupported + skipped < run.results.len() {
        return None;
    }
    let why = if run.implementation.protocols.is_empty() {
        " (the handshake declares no protocol)".to_string()
    } else {
        run.results
            .iter()
            .find_map(|(_, r)| (r.verdict == Verdict::Unsupported).then_some(r.reason.as_deref()).flatten())
            .map(|reason| format!(" (the first: {reason})"))
            .unwrap_or_default()
    };
    Some(format!("no case was judged: of {} selected, {unsupported} unsupported{why} and {skipped} skipped", run.results.len()))
}

/// Prints the summary and certification lines and writes the requested reports.
fn summarise_and_write(run: &Run<'_>, outputs: &Outputs) -> Result<(), ExitCode> {
    say!("\n{}", run.summary());
    for level in [harness::adapter::Protocol::Rcip, harness::adapter::Protocol::Rui] {
        say!("certification: {}", harness::certification::level(run, level));
    }
    if let Some(path) = &outputs.report {
        write_file(path, &(serde_json::to_string_pretty(&run.to_json()).unwrap_or_default() + "\n"), "JSON report")?;
    }
    if let Some(path) = &outputs.junit {
        let xml = harness::junit::render(run).map_err(|e| {
            complain!("error: {e}");
            ExitCode::from(2)
        })?;
        write_file(path, &xml, "JUnit report")?;
    }
    if let Some(path) = &outputs.markdown {
        write_file(path, &harness::certification::render(run), "certification report")?;
    }
    if let Some(path) = &outputs.html {
        let page = harness::html::render(run).map_err(|e| {
            complain!("error: {e}");
            ExitCode::from(2)
        })?;
        write_file(path, &page, "HTML report")?;
    }
    Ok(())
}

/// `report --merge`: the shards' JSON reports joined into the reports of one run.
fn merge_reports(vectors: &Vectors, args: &ReportArgs) -> Result<ExitCode, ExitCode> {
    let fail = |e: String| {
        complain!("error: {e}");
        ExitCode::from(2)
    };
    check_outputs(&args.outputs, &None).map_err(fail)?;
    let outputs = [&args.outputs.report, &args.outputs.junit, &args.outputs.markdown, &args.outputs.html];
    for input in args.merge.iter().chain(&args.from) {
        if let Some(output) = outputs.iter().copied().flatten().find(|output| harness::files::same_file(input, output)) {
            return Err(fail(format!("{} is the input report {}: writing it would destroy the input", output.display(), input.display())));
        }
    }
    let mut reports = Vec::new();
    for path in args.merge.iter().chain(&args.from) {
        let text = harness::files::read_string(path, harness::files::JSON_LIMIT).map_err(|e| fail(e.to_string()))?;
        let report: serde_json::Value =
            harness::json::parse_unique(text.as_bytes()).map_err(|e| fail(format!("{}: {}", path.display(), harness::json::problem(&e))))?;
        reports.push((path.as_path(), report));
    }
    let run = if args.from.is_some() {
        let (path, report) = &reports[0];
        harness::merge::single(vectors, path, report).map_err(fail)?
    } else {
        harness::merge::merge(vectors, &reports).map_err(fail)?
    };
    summarise_and_write(&run, &args.outputs)?;
    if let Some(why) = &run.scope.stopped {
        complain!("error: a shard was stopped: {why}");
        return Ok(ExitCode::from(2));
    }
    if !vectors.errors.is_empty() {
        return Ok(ExitCode::from(2));
    }
    if run.failed() {
        return Ok(ExitCode::from(1));
    }
    Ok(accept_nothing_judged(&run, args.allow_nothing_judged).unwrap_or(ExitCode::SUCCESS))
}

/// `conformance compare`: the implementation report of several runs of one vector set.
fn compare(vectors: &Vectors, args: &CompareArgs) -> Result<ExitCode, ExitCode> {
    let fail = |e: String| {
        complain!("error: {e}");
        ExitCode::from(2)
    };
    if !vectors.errors.is_empty() {
        return Err(fail("the vector set did not load cleanly; compare needs the set the reports were made from".into()));
    }
    let mut given: Vec<(&str, &std::path::Path)> = Vec::new();
    given.extend(args.markdown.as_deref().map(|p| ("--markdown", p)));
    given.extend(args.html.as_deref().map(|p| ("--html", p)));
    harness::files::check_outputs(&given).map_err(fail)?;
    if let Some(dir) = &args.badges {
        harness::files::check_output_dir("--badges", dir).map_err(fail)?;
    }
    for input in &args.reports {
        if let Some((_, output)) = given.iter().find(|(_, output)| harness::files::same_file(input, output)) {
            return Err(fail(format!("{} is the input report {}: writing it would destroy the input", output.display(), input.display())));
        }
    }
    harness::interrupt::claim_outputs(&given.iter().map(|(_, path)| *path).collect::<Vec<_>>());
    let mut reports = Vec::new();
    for path in &args.reports {
        let text = harness::files::read_string(path, harness::files::JSON_LIMIT).map_err(|e| fail(e.to_string()))?;
        let report: serde_json::Value =
            harness::json::parse_unique(text.as_bytes()).map_err(|e| fail(format!("{}: {}", path.display(), harness::json::problem(&e))))?;
        reports.push((path.as_path(), report));
    }
    let groups: Vec<Vec<String>> =
        args.same_codebase.iter().map(|group| group.split(',').map(|name| name.trim().to_string()).collect()).collect();
    let (_, comparison) = harness::compare::from_reports(vectors, &reports, &groups).map_err(fail)?;
    let h = &comparison.headline;
    say!(
        "{} implementations ({} independent code bases) of vector set {}",
        comparison.implementations.len(),
        h.codebases,
        &comparison.digest[..16]
    );
    for implementation in &comparison.implementations {
        say!("  {} ({})", implementation.label, implementation.codebase);
        for level in &implementation.levels {
            say!("    {level}");
        }
    }
    say!(
        "requirements passed by at least two independent implementations: {} of {} (REQUIRED: {} of {})",
        h.passed_by_two,
        h.requirements,
        h.required_passed_by_two,
        h.required
    );
    say!("disagreements: {} case(s), {} REQUIRED", h.disagreements, h.required_disagreements);
    say!(
        "open points: {} ({} read alike, {} split, {} of them between independent implementations)",
        h.open_points,
        h.open_points_alike,
        h.open_points_split,
        h.open_points_split_independent
    );
    if let Some(path) = &args.markdown {
        write_file(path, &harness::compare::markdown::render(&comparison), "implementation report (Markdown)")?;
    }
    if let Some(path) = &args.html {
        let page = harness::compare::html::render(&comparison).map_err(fail)?;
        write_file(path, &page, "implementation report (HTML)")?;
    }
    if let Some(dir) = &args.badges {
        let badges = harness::compare::badges::files(&comparison);
        let paths: Vec<PathBuf> = badges.iter().map(|(name, _)| dir.join(name)).collect();
        let files: Vec<(&std::path::Path, &[u8])> =
            paths.iter().zip(&badges).map(|(path, (_, text))| (path.as_path(), text.as_bytes())).collect();
        std::fs::create_dir_all(dir).map_err(|e| fail(format!("--badges {}: {e}", dir.display())))?;
        harness::files::write_many(&files).map_err(|e| fail(format!("cannot write the badges: {e}")))?;
        say!("{} badge file(s) written to {}", files.len(), dir.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn explain(vectors: &Vectors, id: &str, with_model: bool) -> ExitCode {
    let Some(case) = vectors.cases.iter().find(|c| c.id == id) else {
        complain!("error: no case {id}; `conformance list` shows the ids");
        return ExitCode::from(2);
    };
    say_part!("{}", harness::explain::render(vectors, case));
    if with_model {
        match harness::explain::model_path(case) {
            Ok(text) => say_part!("\n{text}"),
            Err(message) => {
                complain!("error: {message}");
                return ExitCode::from(2);
            }
        }
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // SIGINT, SIGTERM and SIGHUP kill every adapter's process group, remove partial and stale
    // outputs and exit 128 + the signal (harness::interrupt).
    harness::interrupt::install();
    // Checking a stream needs no vector set: it starts without loading (and schema-checking) one.
    match cli.command {
        Some(Command::Validate(args)) => return validate_stream(&args),
        Some(Command::GenerateStream { framing, bytes, catalog_out }) => return generate_stream(&framing, bytes, catalog_out),
        _ => {}
    }
    // fuzz reads no vector set (only the register, for the sentences it quotes).
    if let Some(Command::Fuzz(args)) = &cli.command {
        // As the loader does: a vector set without a register of its own cites the bundled one.
        let register = cli
            .vectors
            .clone()
            .filter(|dir| dir.join("requirements.json").exists())
            .unwrap_or_else(harness::bundled_vectors);
        return fuzz(args, &register).unwrap_or_else(|code| code);
    }
    // A run's adapter starts before the vectors load, so that the two load side by side; its
    // handshake, and any error starting it, come where they always did (`run`).
    // A run through an adapter is checked first (`prepare`), so that the adapter is never
    // started for a usage error.
    let mut early = None;
    let mut prepared = None;
    if let Some(Command::Run(args)) = &cli.command {
        if args.subject.adapter && !args.subject.command.is_empty() {
            match prepare(args) {
                Ok(ready) => prepared = Some(ready),
                Err(code) => return code,
            }
            early = Some(ProcessAdapter::spawn(args.subject.command.clone()));
        }
    }
    let vectors = match load(&cli.vectors) {
        Ok(v) => v,
        Err(code) => return code,
    };
    match cli.command.unwrap_or_else(|| Command::Run(Box::default())) {
        Command::Run(args) => {
            let prepared = match prepared.map_or_else(|| prepare(&args), Ok) {
                Ok(prepared) => prepared,
                Err(code) => return code,
            };
            run(&vectors, &args, prepared, early).unwrap_or_else(|code| code)
        }
        Command::List(filters) => {
            for case in filters.selection().apply(&vectors.cases) {
                say!("{:<56} {}", case.id, case.description);
            }
            if vectors.errors.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            }
        }
        Command::Explain { case, model } => explain(&vectors, &case, model),
        Command::Report(args) => merge_reports(&vectors, &args).unwrap_or_else(|code| code),
        Command::Compare(args) => compare(&vectors, &args).unwrap_or_else(|code| code),
        Command::Validate(_) | Command::GenerateStream { .. } => unreachable!("dispatched before loading"),
        Command::Fuzz(_) => unreachable!("fuzz is handled before the vectors load"),
        Command::CheckTrace(args) => check_traces(&vectors, &args),
    }
}

/// `conformance check-trace`: the worst exit code over the traces (2 over 1 over 0); with
/// `--allow-out-of-scope`, a trace outside the model counts as 0 (and is listed).
fn check_traces(vectors: &Vectors, args: &CheckTraceArgs) -> ExitCode {
    use harness::trace::{check_owned, render, Judgement};
    let schema = match harness::trace::format::TraceSchema::load(&vectors.root.join("schema")) {
        Ok(schema) => schema,
        Err(e) => match harness::trace::format::TraceSchema::load(&harness::bundled_vectors().join("schema")) {
            Ok(schema) => schema,
            Err(_) => {
                complain!("error: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let mut worst = 0u8;
    let (mut explained, mut rejected, mut outside, mut malformed) = (0, 0, 0, 0);
    for name in &args.traces {
        let text = match harness::files::read_input(name, harness::files::JSON_LIMIT) {
            Ok(text) => text,
            Err(e) => {
                complain!("error: cannot read the trace: {e}{}", pipe_hint(&e));
                malformed += 1;
                worst = 2;
                continue;
            }
        };
        match check_owned(&schema, text) {
            Err(errors) => {
                for error in errors {
                    complain!("error: {name}: {error}");
                }
                malformed += 1;
                worst = 2;
            }
            Ok(judgement) => {
                let code = match judgement {
                    Judgement::Explained { .. } => {
                        explained += 1;
                        0
                    }
                    Judgement::NotExplained { .. } => {
                        rejected += 1;
                        1
                    }
                    Judgement::OutOfScope(_) => {
                        outside += 1;
                        if args.allow_out_of_scope { 0 } else { 2 }
                    }
                };
                if !args.quiet || !matches!(judgement, Judgement::Explained { .. }) {
                    say_part!("{}", render(name, &judgement, &vectors.requirements));
                }
                worst = worst.max(code);
            }
        }
    }
    if args.traces.len() > 1 || args.quiet {
        say!(
            "{} trace(s): {explained} explained, {rejected} not explained, {outside} outside the model{}, {malformed} malformed or unreadable",
            args.traces.len(),
            if args.allow_out_of_scope && outside > 0 { " (allowed)" } else { "" }
        );
    }
    ExitCode::from(worst)
}

/// Writes each case's trace (RCIP and Rixx UI) as `DIR/<case id>.jsonl`, the id made a safe file
/// name (`harness::files::file_name`: a vector set's own schema may allow `/`, `..` or a
/// 300-byte id, and each trace must still be written, inside DIR).
fn write_traces(dir: &std::path::Path, results: &[CaseResult]) -> Result<usize, String> {
    let traced: Vec<&CaseResult> = results.iter().filter(|r| !r.trace.is_empty()).collect();
    let paths: Vec<PathBuf> = traced.iter().map(|r| dir.join(harness::files::file_name(&r.id, ".jsonl"))).collect();
    let files: Vec<(&std::path::Path, &[u8])> = paths.iter().zip(&traced).map(|(p, r)| (p.as_path(), r.trace.as_bytes())).collect();
    harness::files::write_many(&files).map_err(|e| format!("cannot write the traces: {e}"))?;
    Ok(files.len())
}

/// For an input that may be standard input: a pipe or FIFO is read from `-`, never by its path.
fn pipe_hint(error: &harness::files::FileError) -> &'static str {
    if error.special { " (to read a pipe, give - and redirect it to standard input)" } else { "" }
}

/// The hidden `generate-stream` command (see `harness::validate::generate`).
fn generate_stream(framing: &str, bytes: u64, catalog_out: Option<PathBuf>) -> ExitCode {
    use harness::validate::generate;
    if let Some(path) = catalog_out {
        let written = harness::files::check_outputs(&[("--catalog-out", &path)])
            .and_then(|()| harness::files::write(&path, generate::catalog().to_string().as_bytes()).map_err(|e| format!("cannot write {e}")));
        if let Err(e) = written {
            complain!("error: {e}");
            return ExitCode::from(2);
        }
    }
    let stdout = std::io::stdout();
    match generate::write(framing, bytes, &mut stdout.lock()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            complain!("error: {e}");
            ExitCode::from(2)
        }
    }
}


/// `conformance fuzz` (harness::fuzz): exit 0 nothing found, 1 a disagreement, 2 bad usage.
fn fuzz(args: &FuzzArgs, vectors: &std::path::Path) -> Result<ExitCode, ExitCode> {
    use harness::fuzz::{Settings, Target};
    let usage = |message: String| {
        complain!("error: {message}");
        ExitCode::from(2)
    };
    args.subject.check().map_err(usage)?;
    if args.subject.adapter && args.reference_fault.is_some() {
        return Err(usage("--reference-fault applies to the bundled reference, not to an --adapter".into()));
    }
    let mut targets: Vec<Target> = Vec::new();
    for name in &args.models {
        let chosen = match Target::parse(name) {
            Some(target) => vec![target],
            None => Target::ALL.to_vec(),
        };
        for target in chosen {
            if !targets.contains(&target) {
                targets.push(target);
            }
        }
    }
    if targets.is_empty() {
        targets = Target::ALL.to_vec();
    }
    // Bounded by its parser (`positive_seconds`), so the conversion cannot panic.
    let budget = args.budget_seconds.map(Duration::from_secs_f64);
    // The finding is written at the end of a long search: where it goes is checked first.
    for protocol in ["rcip", "rui"] {
        harness::files::check_output_dir("--out", &args.out.join(protocol)).map_err(usage)?;
    }
    if args.cases == 0 {
        return Err(usage("--cases 0 runs nothing".into()));
    }
    let settings = Settings {
        targets,
        seed: args.seed.unwrap_or(harness::fuzz::DEFAULT_SEED),
        cases: args.cases,
        max_steps: args.max_steps.map(|k| k as usize),
        budget,
        shrink_runs: args.shrink_runs,
    };
    let register = harness::fuzz::finding::register(vectors).map_err(usage)?;
    let mut adapter: Box<dyn Adapter> = if args.subject.adapter {
        Box::new(
            ProcessAdapter::launch_with(args.subject.command.clone(), args.subject.timeout(), None, args.subject.pipelining())
                .map_err(usage)?,
        )
    } else {
        let mut choices = args.subject.choices();
        if let Some(name) = &args.reference_fault {
            let fault = reference::choices::Fault::named(name)
                .ok_or_else(|| usage(format!("--reference-fault {name}: no such fault (`reference-driver --fault list`)")))?;
            choices = choices.with_fault(fault);
        }
        Box::new(ReferenceAdapter::with_choices(choices))
    };
    let implementation = format!("{} {}", adapter.implementation().name, adapter.implementation().version);
    let mut replay = format!("conformance fuzz --seed {:#x}", settings.seed);
    for target in &settings.targets {
        replay.push_str(&format!(" --model {target}"));
    }
    if let Some(k) = settings.max_steps {
        replay.push_str(&format!(" --max-steps {k}"));
    }
    let steps: Vec<String> = settings.targets.iter().map(|t| format!("{t} {}", settings.max_steps(*t))).collect();
    say!("conformance fuzz: seed {:#x}; implementation {implementation}", settings.seed);
    say!(
        "  models {}; up to {} cases{}; at most {} model actions per path",
        settings.targets.iter().map(|t| t.name()).collect::<Vec<_>>().join(", "),
        settings.cases,
        budget.map(|b| format!(" or {} s", b.as_secs_f64())).unwrap_or_default(),
        steps.join(", ")
    );
    let started = std::time::Instant::now();
    let verbose = args.verbose;
    let mut on_case = |n: u64, target: Target, result: &CaseResult| {
        if verbose {
            say!("{n:>7} {target:<11} {}", result.verdict);
        }
    };
    let outcome = harness::fuzz::fuzz(&settings, adapter.as_mut(), &mut on_case).map_err(usage)?;
    let elapsed = started.elapsed().as_secs_f64();
    let counts: Vec<String> = outcome
        .tallies
        .iter()
        .map(|(t, tally)| format!("{t}: {} pass, {} non-strict, {} unsupported", tally.pass, tally.non_strict, tally.unsupported))
        .collect();
    say!(
        "ran {} case(s) in {elapsed:.1} s{} ({})",
        outcome.cases,
        if outcome.budget_stopped { ", stopped by --budget-seconds" } else { "" },
        counts.join("; ")
    );
    let Some(finding) = &outcome.finding else {
        if outcome.cases == 0 {
            return Err(usage("no case ran (the budget ran out before the first case)".into()));
        }
        for (target, tally) in &outcome.tallies {
            if tally.judged() == 0 {
                return Err(usage(format!(
                    "no {target} case could run on this implementation ({}); leave the model out with --model",
                    tally.unsupported_reason.as_deref().unwrap_or("no case drawn")
                )));
            }
        }
        say!("nothing found: every case stayed within what the models allow (seed {:#x})", settings.seed);
        return Ok(ExitCode::SUCCESS);
    };
    say!("
{}", finding.render(&register));
    let command = format!("{replay} --cases {}", finding.case_number);
    let path = finding.write(&args.out, &implementation, &command).map_err(usage)?;
    // The file must load as any vector file does: the user reruns it with `run --vectors`.
    let check = Vectors::load(&args.out).map_err(|e| usage(e.to_string()))?;
    if let Some(problem) = check.errors.first() {
        return Err(usage(format!("the written finding does not load: {problem}")));
    }
    // `run` has no fault injection: a fault of the bundled reference reruns through the driver.
    let rerun = match (&args.reference_fault, args.subject.adapter) {
        (_, true) => format!(" --adapter -- {}", args.subject.command.join(" ")),
        (Some(fault), false) => format!(" --adapter -- target/debug/reference-driver --fault {fault}"),
        (None, false) if args.subject.reference_choices != "default" => format!(" --reference-choices {}", args.subject.reference_choices),
        (None, false) => String::new(),
    };
    say!("written to {}", path.display());
    say!(
        "rerun: conformance run --vectors {} --filter {}{rerun}",
        args.out.display(),
        finding.case_id()
    );
    Ok(ExitCode::from(1))
}

/// `conformance validate`: exit 0 clean, 1 violations, 2 bad usage or an input that could not be
/// read to its end (the partial summary is printed first).
fn validate_stream(args: &ValidateArgs) -> ExitCode {
    use harness::validate::{live, Reporter};
    let read_json = |path: &PathBuf, what: &str| -> Result<serde_json::Value, String> {
        let text = harness::files::read_string(path, harness::files::JSON_LIMIT).map_err(|e| format!("cannot read the {what}: {e}"))?;
        harness::json::parse_unique(text.as_bytes()).map_err(|e| format!("the {what} {}: {}", path.display(), harness::json::problem(&e)))
    };
    enum Source {
        Live(live::Endpoint),
        Bytes(Box<dyn std::io::Read>),
        Messages(Box<dyn std::io::BufRead>),
    }
    let prepared = (|| -> Result<_, String> {
        let catalog = read_json(&args.catalog, "catalog")?;
        let limits = args.limits.as_ref().map(|p| read_json(p, "limits")).transpose()?;
        let (framing, source) = match (&args.url, &args.input, &args.framing) {
            (None, _, _) if args.max_seconds.is_some() || args.stall_seconds.is_some() => {
                return Err("--max-seconds and --stall-seconds apply to --url only".into());
            }
            (Some(url), _, _) => {
                // --stall-seconds and --max-seconds are bounded by their parsers.
                let endpoint = live::Endpoint::parse(url).map_err(|e| e.0)?;
                (endpoint.framing.to_string(), Source::Live(endpoint))
            }
            (None, Some(input), Some(framing)) => {
                // A stream is read as it comes, with the framing's own bounds: opened only.
                let reader: Box<dyn std::io::Read> =
                    Box::new(harness::files::open_input(input).map_err(|e| format!("cannot open the stream: {e}{}", pipe_hint(&e)))?);
                let source = if framing == "websocket" { Source::Messages(Box::new(std::io::BufReader::new(reader))) } else { Source::Bytes(reader) };
                (framing.clone(), source)
            }
            _ => return Err("give --framing and a FILE (or -), or --url".into()),
        };
        let validator = harness::validate::validator(&framing, &catalog, limits.as_ref(), args.strict).map_err(|e| e.0)?;
        Ok((validator, source))
    })();
    let (mut validator, source) = match prepared {
        Ok(prepared) => prepared,
        Err(message) => {
            complain!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut reporter = Reporter::new(std::io::BufWriter::new(stdout.lock()), args.format == "json");
    let mut sink = |v: &harness::validate::Violation| reporter.violation(v);
    let stop = match source {
        Source::Live(endpoint) => {
            let options = live::Options { max_seconds: args.max_seconds, stall_seconds: args.stall_seconds.unwrap_or(30.0) };
            live::follow(&endpoint, &options, &mut validator, &mut sink)
        }
        Source::Bytes(mut input) => harness::validate::read_stream(&mut validator, &mut input, &mut sink),
        Source::Messages(mut input) => harness::validate::read_messages(&mut validator, &mut input, &mut sink),
    };
    validator.release(&mut sink);
    let summary = validator.finish(stop);
    if let harness::validate::Stop::Error(message) = &summary.stop {
        complain!("error: {message}");
    }
    reporter.summary(&summary);
    ExitCode::from(summary.exit_code())
}
