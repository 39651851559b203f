//! The bundled reference as a driver-protocol executable (`harness/driver/README.md`): reads
//! requests from stdin, answers on stdout. CI runs the whole suite through it with the process
//! adapter and requires the same verdict for every case as in-process.
//!
//! `--choices alternate` takes the other admissible behaviour at every open point of the texts
//! (`reference::choices`, issue 12): CI runs the whole suite through it too and requires no
//! `fail` and no `errored`; `--choices random:SEED` draws each row independently (issue 26 §3,
//! CI runs several seeds, `scripts/choice-seeds.sh`), `--choices rows:NAME,...` takes exactly
//! the named rows and `--show-choices` prints the rows a value takes. `--choices list` prints the
//! table of choices. `--fault NAME` injects
//! one bug of the fault catalog (issue 13), `--fault list` prints it. `--rename-codes` (for the
//! harness's own tests, issue 27 §5) makes it a Rixx UI consumer with code names of its own: each
//! register code in a Rixx UI observation is written in lowercase with hyphens
//! (`FRAME_NOT_JSON` -> `frame-not-json`), a one-to-one renaming, and `--declare-codes` adds the
//! handshake's `codes` map that translates them back. An unknown argument or
//! fault is a usage error (exit 2). A request that is not UTF-8 or not JSON gets an `error` reply;
//! the driver goes on with the next line.

/// The allocator: a run, a fuzz campaign and `validate` spend about a third of their time in
/// allocating and freeing small JSON values, which mimalloc does faster than the system allocator
/// (issue 29). It decides nothing an outcome depends on.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::process::ExitCode;
use std::sync::Mutex;

use clap::Parser;
use serde_json::Value;

use harness::adapter::{Adapter, Protocol};
use harness::adapters::reference::ReferenceAdapter;
use harness::driver;
use reference::choices::{Choices, Fault, FAULTS, TABLE};

#[derive(Parser)]
#[command(
    name = "reference-driver",
    version,
    about = "The bundled RCIP / Rixx UI reference as a driver-protocol adapter (stdin/stdout)"
)]
struct Cli {
    /// Which behaviour to take where the texts leave a choice: `default`, `alternate` (every
    /// row), `random:SEED` (each row drawn independently from the seed), `rows:NAME,...` (the
    /// alternate at exactly those rows); `list` prints the table.
    #[arg(long, value_name = "READING", default_value = "default")]
    choices: String,
    /// Print the rows the `--choices` value takes, as `rows:NAME,...` (the spelling that
    /// replays a random seed), and exit.
    #[arg(long)]
    show_choices: bool,
    /// Inject one realistic bug of the fault catalog (issue 13); `list` prints the catalog.
    #[arg(long, value_name = "NAME")]
    fault: Option<String>,
    /// Test only: report every Rixx UI code under a name of its own (lowercase, hyphens).
    #[arg(long)]
    rename_codes: bool,
    /// With --rename-codes: declare the `codes` map from those names to the register's.
    #[arg(long, requires = "rename_codes")]
    declare_codes: bool,
}

/// The reference's Rixx UI codes (`reference::rui::codes`): every name `--rename-codes` renames.
fn rui_codes() -> Vec<&'static str> {
    use reference::rui::codes::{DispatchCode, QuarantineCode, RejectionCode, TransactionCode};
    let mut codes = vec![QuarantineCode::FrameNotJson.as_str(), QuarantineCode::FrameTruncated.as_str()];
    codes.extend([RejectionCode::RecordOutsideTransaction, RejectionCode::RecordInvalid, RejectionCode::UnknownOperation].map(RejectionCode::as_str));
    codes.extend(TransactionCode::ALL.map(TransactionCode::as_str));
    codes.extend([DispatchCode::PolicyDenied, DispatchCode::ActionNotFound, DispatchCode::PolicyEvaluationFailed].map(DispatchCode::as_str));
    codes
}

/// The own name `--rename-codes` gives a register code.
fn own_name(code: &str) -> String {
    code.to_ascii_lowercase().replace('_', "-")
}

/// `--rename-codes`: the register -> own renaming of the codes of Rixx UI observations, and
/// whether the handshake declares the map back.
struct Renaming {
    to_own: harness::codes::CodeMap,
    declared: bool,
}

impl Renaming {
    fn new(declared: bool) -> Renaming {
        let to_own = rui_codes().into_iter().map(|code| (code.to_string(), own_name(code))).collect();
        Renaming { to_own: harness::codes::CodeMap::new(to_own), declared }
    }

    /// The handshake's map: own name -> register name.
    fn declared_map(&self) -> Option<harness::codes::CodeMap> {
        self.declared.then(|| harness::codes::CodeMap::new(self.to_own.entries().iter().map(|(code, own)| (own.clone(), code.clone())).collect()))
    }
}

/// The fault catalog as text: name, requirement ids, description, tab-separated.
fn fault_catalog() -> String {
    let mut out = String::from("fault\trequirements\tdescription\n");
    for row in FAULTS {
        out.push_str(&format!("{}\t{}\t{}\n", row.name, row.requirements.join(","), row.description));
    }
    out
}

/// The table of choices as text: one row per open point, tab-separated.
fn choices_table() -> String {
    let mut out = String::from("choice\trequirements\tdefault\talternate\n");
    for row in TABLE {
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\n",
            row.name,
            row.requirements.join(","),
            row.default,
            row.alternate
        ));
    }
    out
}

/// Answers one request; `running` is the protocol of the case in progress, `previous_done`
/// whether the answer to the request before this one was `done`.
fn handle(
    adapter: &mut ReferenceAdapter,
    renaming: Option<&Renaming>,
    running: &mut Option<Protocol>,
    request: &Value,
    previous_done: bool,
) -> Option<Value> {
    let field = |key: &str| request.get(key);
    match field("cmd").and_then(Value::as_str) {
        Some("hello") => Some(match field("protocol").and_then(Value::as_str) {
            Some(driver::DRIVER_PROTOCOL) => {
                // It answers requests strictly in order, reading ahead freely (`serve`).
                let mut implementation = adapter.implementation().clone();
                implementation.codes = renaming.and_then(Renaming::declared_map);
                let mut hello = driver::encode_hello(&implementation);
                driver::declare_pipelining(&mut hello);
                // It writes a mark to its stderr for every `start` (below).
                driver::declare_case_marks(&mut hello);
                // It skips a step sent with `ifDone` after an answer other than `done` (below).
                driver::declare_conditional_requests(&mut hello);
                hello
            }
            other => driver::encode_reply(Err(format!("unsupported driver protocol {other:?}"))),
        }),
        Some("start") => {
            // The case mark, before anything else the case does (`harness/driver/README.md`,
            // "Case marks"): whatever the reference writes to stderr for the case follows it.
            mark(field("case").and_then(Value::as_str).unwrap_or(""));
            let protocol = match field("protocol").and_then(Value::as_str) {
                Some("rcip") => Protocol::Rcip,
                Some("rui") => Protocol::Rui,
                other => return Some(driver::encode_reply(Err(format!("unknown protocol {other:?}")))),
            };
            *running = Some(protocol);
            let case = field("case").and_then(Value::as_str).unwrap_or("");
            let setup = field("setup").unwrap_or(&Value::Null);
            Some(driver::encode_reply(adapter.start(case, protocol, setup).map_err(|e| e.0)))
        }
        Some("step") if field("ifDone") == Some(&Value::Bool(true)) && !previous_done => {
            // "Conditional requests": the step depends on an answer that was not `done`.
            serde_json::from_str(driver::SKIPPED).ok()
        }
        Some("step") => {
            let step = field("step").unwrap_or(&Value::Null);
            let mut reply = adapter.step(step).map_err(|e| e.0);
            if let (Some(renaming), Ok(harness::adapter::Reply::Observed(value)), Some(expect)) =
                (renaming, &mut reply, step.get("expect").and_then(Value::as_str))
            {
                if *running == Some(Protocol::Rui) {
                    renaming.to_own.translate_observation(expect, value);
                }
            }
            Some(driver::encode_reply(reply))
        }
        Some("finish") => {
            adapter.finish();
            Some(driver::encode_reply(Ok(harness::adapter::Reply::Done)))
        }
        Some("bye") => None,
        other => Some(driver::encode_reply(Err(format!("unknown request {other:?}")))),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let report_panic = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        write_marks();
        report_panic(info);
    }));
    if cli.choices == "list" {
        print!("{}", choices_table());
        return ExitCode::SUCCESS;
    }
    let choices = match Choices::parse(&cli.choices) {
        Ok(choices) => choices,
        Err(e) => {
            eprintln!("error: --choices: {}", harness::escape::terminal(&e.to_string()));
            return ExitCode::from(2);
        }
    };
    if cli.show_choices {
        println!("{}", choices.spelling());
        return ExitCode::SUCCESS;
    }
    let choices = match cli.fault.as_deref() {
        None => choices,
        Some("list") => {
            print!("{}", fault_catalog());
            return ExitCode::SUCCESS;
        }
        Some(name) => match Fault::named(name) {
            Some(fault) => choices.with_fault(fault),
            None => {
                let name = harness::escape::terminal(name);
                eprintln!("error: unknown fault '{name}' (reference-driver --fault list prints the catalog)");
                return ExitCode::from(2);
            }
        },
    };
    let renaming = cli.rename_codes.then(|| Renaming::new(cli.declare_codes));
    serve(ReferenceAdapter::with_choices(choices), renaming.as_ref());
    ExitCode::SUCCESS
}

/// Case marks not yet written to stderr. They go out just before the answers they precede are
/// flushed (`serve`), in one write with them rather than one system call per case (the harness
/// wakes up for each); a panic writes them before its message (`main`), which therefore still
/// follows its case's mark.
static PENDING_MARKS: Mutex<Vec<u8>> = Mutex::new(Vec::new());

/// The case mark of `case` (`harness/driver/README.md`, "Case marks"), held until `write_marks`.
fn mark(case: &str) {
    if let Ok(mut pending) = PENDING_MARKS.lock() {
        pending.extend_from_slice(driver::case_mark(case).as_bytes());
    }
}

/// Writes the pending case marks to stderr. `try_lock`: called by the panic hook too, which
/// must not wait on a lock its own thread may hold.
fn write_marks() {
    if let Ok(mut pending) = PENDING_MARKS.try_lock() {
        if !pending.is_empty() {
            let _ = io::stderr().write_all(&pending);
            pending.clear();
        }
    }
}

/// Writes the answers held in `stdout`, after the case marks that precede them. `false`: stdout
/// is closed.
fn send_answers(stdout: &mut impl Write) -> bool {
    write_marks();
    stdout.flush().is_ok()
}

/// Answers requests until `bye` or the end of stdin, then writes what is still held.
fn serve(adapter: ReferenceAdapter, renaming: Option<&Renaming>) {
    let mut stdout = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    answer_requests(adapter, renaming, &mut stdout);
    send_answers(&mut stdout);
}

fn answer_requests(mut adapter: ReferenceAdapter, renaming: Option<&Renaming>, stdout: &mut impl Write) {
    // A buffered reader of our own over stdin, so it can tell whether a request is already
    // buffered before waiting awake for the next one (driver::spin_until_readable).
    let Ok(stdin) = rustix::io::dup(io::stdin()) else { return };
    // As large as the harness's reads: a pipelined case (often more than the default 8 KiB) is
    // read whole, so its answers go out in one write, not one per partial read.
    let mut requests = BufReader::with_capacity(64 * 1024, File::from(stdin));
    // Answers are flushed when no further request is already buffered: a pipelining harness
    // (`harness/driver/README.md`, "Pipelining") gets the answers to what it sent ahead in one
    // write, and one sending a request at a time gets each answer at once. They are also flushed
    // at each `finish` (below).
    let mut running = None;
    let mut previous_done = false;
    loop {
        if !requests.buffer().contains(&b'\n') && !send_answers(stdout) {
            return;
        }
        if requests.buffer().is_empty() {
            driver::spin_until_readable(requests.get_ref());
        }
        let mut bytes = Vec::new();
        match requests.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let line = match String::from_utf8(bytes) {
            Ok(line) => line,
            Err(e) => {
                let reply = driver::encode_reply(Err(format!(
                    "request is not valid UTF-8 (byte {})",
                    e.utf8_error().valid_up_to()
                )));
                previous_done = false;
                if writeln!(stdout, "{reply}").is_err() {
                    return;
                }
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let mut case_ended = false;
        let response = match serde_json::from_str::<Value>(&line) {
            Ok(request) => {
                case_ended = request.get("cmd").and_then(Value::as_str) == Some("finish");
                match handle(&mut adapter, renaming, &mut running, &request, previous_done) {
                    Some(response) => response,
                    None => return,
                }
            }
            Err(e) => driver::encode_reply(Err(format!("request is not JSON: {e}"))),
        };
        previous_done = response.get("reply").and_then(Value::as_str) == Some("done");
        let text = serde_json::to_string(&response).unwrap_or_else(|_| r#"{"reply":"error","message":"unencodable"}"#.into());
        if writeln!(stdout, "{text}").is_err() {
            return;
        }
        // A case's answers go out as soon as it is finished, not with the rest of what was sent
        // ahead: the harness judges them while this runs the next cases.
        if case_ended && !send_answers(stdout) {
            return;
        }
    }
}
