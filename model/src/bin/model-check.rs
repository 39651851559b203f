//! `model-check`: runs the RCIP invocation model (CL-B01..B12), the Assist turn model
//! (CL-C01..C06) and the Rixx UI transaction model (CL-D01..D09) breadth first at a chosen bound
//! and prints states, unique states, the depth reached, unique states per second and every
//! property's result (a counterexample with its shortest path). Arguments are parsed by hand;
//! an unknown or misplaced flag is a usage error (exit code 2). Exit code 1 means some property
//! did not come out as expected. The elapsed time is measured here only, for the rate; nothing in
//! the models reads a clock.
//!
//! `model-check explore MODEL [options] [--port N]` serves one model in stateright's Explorer on
//! 127.0.0.1 (issue 19) and prints its URL; it runs until stopped.

use std::process::ExitCode;
use std::time::Instant;

use model::assist::AssistModel;
use model::check::{self, Bounds, Summary, Verdict};
use model::explore;
use model::invocation::{
    ContextComparison, Decision, HandlerResult, IdAssignment, InvocationModel,
};
use model::transaction::TransactionModel;

const USAGE: &str = "\
usage: model-check <invocation|assist|transaction|all> [options]
       model-check explore <invocation|assist|transaction> [options] [--port N]

explore:
  --port N                serve stateright's Explorer on 127.0.0.1:N (default 3000; 0: any free port)

common:
  --depth N               check every state within N steps (default: every reachable state)
  --threads N|auto        checker threads (default auto: one per core for a full
                          exploration, 1 under --depth or --examples)
  --examples              also print the path of each `sometimes` example
invocation:
  --invocations N         concurrent requests (default 2)
  --capabilities N        declared capabilities, 1..3 (default 1)
  --ids shared|distinct   invocation ids of the requests (default shared)
  --receipt-bound N       retained expiry/cancellation receipts (default 2)
  --ttl-ticks N           confirmation TTL in clock ticks (default 1)
  --max-ticks N           clock advances allowed (default 1)
  --host-events N         bind/unbind/rebind/context/availability changes allowed (default 1)
  --resolutions N         resolveConfirmation calls per confirmation (default 2)
  --no-request-faults     never invoke an undeclared capability or an invalid input
  --context by-value|any-change
                          what counts as a changed context (default by-value)
  --decisions LIST        policy answers, from allow,deny,confirm,throw (default all)
  --handler-results LIST  handler results, from output,invalid-output,throw (default all)
assist:
  --batch-bound N         the declared batch bound N, 1..32 (default 2)
transaction:
  --node-ids N            node ids in the alphabet, 2..3 (default 2)
  --transactions N        begin records per stream (default 3)
  --max-operations N      operation limit per transaction (default 2)
";

struct Options {
    models: Vec<&'static str>,
    bounds: Bounds,
    /// `--threads`; `None` is `auto` ([`auto_threads`]).
    threads: Option<usize>,
    examples: bool,
    invocation: InvocationModel,
    assist: AssistModel,
    transaction: TransactionModel,
}

fn usage_error(message: String) -> ExitCode {
    eprintln!("model-check: {message}\nrun `model-check --help` for the options");
    ExitCode::from(2)
}

fn number(flag: &str, value: Option<String>, min: u64, max: u64) -> Result<u64, String> {
    let value = value.ok_or_else(|| format!("{flag} needs a value"))?;
    let n: u64 = value
        .parse()
        .map_err(|_| format!("{flag} needs a whole number, got {value:?}"))?;
    if n < min || n > max {
        return Err(format!("{flag} must be between {min} and {max}, got {n}"));
    }
    Ok(n)
}

fn parse(args: Vec<String>) -> Result<Options, String> {
    let mut args = args.into_iter();
    let models = match args.next().as_deref() {
        Some("invocation") => vec!["invocation"],
        Some("assist") => vec!["assist"],
        Some("transaction") => vec!["transaction"],
        Some("all") => vec!["invocation", "assist", "transaction"],
        Some(other) => return Err(format!("unknown model {other:?}")),
        None => return Err("missing the model to check".to_string()),
    };
    let mut options = Options {
        models,
        bounds: Bounds::default(),
        threads: None,
        examples: false,
        invocation: InvocationModel::default(),
        assist: AssistModel::default(),
        transaction: TransactionModel::default(),
    };
    while let Some(flag) = args.next() {
        let owner = match flag.as_str() {
            "--depth" | "--threads" | "--examples" => None,
            "--batch-bound" => Some("assist"),
            "--node-ids" | "--transactions" | "--max-operations" => Some("transaction"),
            _ => Some("invocation"),
        };
        if let Some(owner) = owner {
            if !options.models.contains(&owner) && is_known(&flag) {
                return Err(format!("{flag} applies to the {owner} model only"));
            }
        }
        let inv = &mut options.invocation;
        match flag.as_str() {
            "--depth" => {
                options.bounds.depth = Some(number(&flag, args.next(), 0, 10_000)? as usize)
            }
            "--threads" => {
                options.threads = match args.next() {
                    Some(auto) if auto == "auto" => None,
                    value => Some(number(&flag, value, 1, 64)? as usize),
                }
            }
            "--examples" => options.examples = true,
            "--invocations" => inv.invocations = number(&flag, args.next(), 1, 4)? as usize,
            "--capabilities" => inv.capabilities = number(&flag, args.next(), 1, 3)? as usize,
            "--ids" => {
                inv.ids = match args.next().as_deref() {
                    Some("shared") => IdAssignment::Shared,
                    Some("distinct") => IdAssignment::Distinct,
                    other => return Err(format!("--ids needs shared or distinct, got {other:?}")),
                }
            }
            "--receipt-bound" => inv.receipt_bound = number(&flag, args.next(), 1, 256)? as usize,
            "--ttl-ticks" => inv.ttl_ticks = number(&flag, args.next(), 1, 8)? as u8,
            "--max-ticks" => inv.max_ticks = number(&flag, args.next(), 0, 8)? as u8,
            "--host-events" => inv.host_events = number(&flag, args.next(), 0, 8)? as u8,
            "--resolutions" => inv.resolutions = number(&flag, args.next(), 1, 4)? as u8,
            "--no-request-faults" => inv.request_faults = false,
            "--context" => {
                inv.context_comparison = match args.next().as_deref() {
                    Some("by-value") => ContextComparison::ByValue,
                    Some("any-change") => ContextComparison::AnyEffectiveChange,
                    other => {
                        return Err(format!(
                            "--context needs by-value or any-change, got {other:?}"
                        ))
                    }
                }
            }
            "--decisions" => {
                let list = args.next().ok_or("--decisions needs a list")?;
                inv.decisions = list
                    .split(',')
                    .map(|d| match d {
                        "allow" => Ok(Decision::Allow),
                        "deny" => Ok(Decision::Deny),
                        "confirm" => Ok(Decision::Confirm),
                        "throw" => Ok(Decision::Throw),
                        other => Err(format!("unknown decision {other:?}")),
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--handler-results" => {
                let list = args.next().ok_or("--handler-results needs a list")?;
                inv.handler_results = list
                    .split(',')
                    .map(|r| match r {
                        "output" => Ok(HandlerResult::Output),
                        "invalid-output" => Ok(HandlerResult::InvalidOutput),
                        "throw" => Ok(HandlerResult::Throw),
                        other => Err(format!("unknown handler result {other:?}")),
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--batch-bound" => {
                options.assist.batch_bound = number(&flag, args.next(), 1, 32)? as u8
            }
            "--node-ids" => options.transaction.node_ids = number(&flag, args.next(), 2, 3)? as u8,
            "--transactions" => {
                options.transaction.max_transactions = number(&flag, args.next(), 1, 200)? as u8
            }
            "--max-operations" => {
                options.transaction.max_operations = number(&flag, args.next(), 0, 200)? as u8
            }
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    options.bounds.threads = options
        .threads
        .unwrap_or_else(|| auto_threads(options.bounds.depth, options.examples));
    Ok(options)
}

/// `--threads auto`. A full exploration visits every reachable state once whatever the order,
/// so stateright's multi-threaded BFS finds the same states and verdicts; on 2 cores it costs
/// about the CPU time of one thread, so it finishes up to twice as fast when a second core is
/// free (model/README.md, "Figures"). Under `--depth` one thread: the threads' queues are not
/// level-synchronous, so a state first reached along a path longer than the bound would not be
/// expanded from a shorter path found later, and "holds to depth N" could cover less. With
/// `--examples` one thread too, so the printed witness paths do not depend on scheduling.
fn auto_threads(depth: Option<usize>, examples: bool) -> usize {
    if depth.is_some() || examples {
        return 1;
    }
    std::thread::available_parallelism().map_or(1, |cores| cores.get().min(64))
}

fn is_known(flag: &str) -> bool {
    USAGE.split_whitespace().any(|word| word == flag)
}

fn print_summary(title: &str, summary: &Summary, seconds: f64, bounds: Bounds, examples: bool) {
    println!("== {title}");
    let depth = bounds
        .depth
        .map_or("unbounded".to_string(), |d| d.to_string());
    println!("bounds: depth {depth}, threads {}", bounds.threads);
    println!(
        "states: {}  unique states: {}  max depth: {} steps ({})",
        summary.states,
        summary.unique_states,
        summary.max_depth,
        if summary.complete {
            "complete"
        } else {
            "cut at the depth bound"
        }
    );
    let rate = if seconds > 0.0 {
        summary.unique_states as f64 / seconds
    } else {
        0.0
    };
    println!("time: {seconds:.2} s  unique states per second: {rate:.0}");
    println!("properties:");
    for result in &summary.properties {
        let (label, path) = match &result.verdict {
            Verdict::Holds if summary.complete => ("holds", None),
            Verdict::Holds => ("holds to depth", None),
            Verdict::Counterexample(path) => ("COUNTEREXAMPLE", Some(path)),
            Verdict::ExampleFound(path) => ("example found", examples.then_some(path)),
            Verdict::NoExample => ("NO EXAMPLE", None),
        };
        println!("  {label:<15} {}", result.name);
        for (i, action) in path.into_iter().flatten().enumerate() {
            println!("                    {:>2}. {action}", i + 1);
        }
    }
    println!();
}

/// `explore`: the Explorer for one model at the options' configuration and depth bound.
fn explore(mut args: Vec<String>) -> ExitCode {
    let mut port = 3000;
    if let Some(at) = args.iter().position(|a| a == "--port") {
        let value = args.get(at + 1).cloned();
        port = match number("--port", value, 0, 65_535) {
            Ok(port) => port as u16,
            Err(message) => return usage_error(message),
        };
        args.drain(at..(at + 2).min(args.len()));
    }
    let options = match parse(args) {
        Ok(options) => options,
        Err(message) => return usage_error(message),
    };
    if options.models.len() != 1 {
        return usage_error("explore serves one model: invocation, assist or transaction".to_string());
    }
    if options.threads.is_some() || options.examples {
        return usage_error("explore takes no --threads or --examples".to_string());
    }
    let address = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let depth = options.bounds.depth;
    let name = options.models[0];
    let started = move |address: std::net::SocketAddr| {
        println!("Explorer for the {name} model: http://{address}/ (Ctrl-C stops it)");
        let _ = std::io::Write::flush(&mut std::io::stdout());
    };
    let served = match name {
        "invocation" => explore::serve(options.invocation, depth, address, started),
        "assist" => explore::serve(options.assist, depth, address, started),
        _ => explore::serve(options.transaction, depth, address, started),
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("model-check: {message}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    if args.first().map(String::as_str) == Some("explore") {
        return explore(args[1..].to_vec());
    }
    let options = match parse(args) {
        Ok(options) => options,
        Err(message) => return usage_error(message),
    };
    let mut all_as_expected = true;
    for name in &options.models {
        let started = Instant::now();
        let (title, summary) = match *name {
            "invocation" => {
                let m = &options.invocation;
                let title = format!(
                    "invocation: invocations {} capabilities {} ids {:?} receipt-bound {} ttl-ticks {} max-ticks {} host-events {} resolutions {} request-faults {} context {:?} decisions {:?} handler-results {:?}",
                    m.invocations, m.capabilities, m.ids, m.receipt_bound, m.ttl_ticks, m.max_ticks,
                    m.host_events, m.resolutions, m.request_faults, m.context_comparison,
                    m.decisions, m.handler_results
                );
                (title, check::run(m.clone(), options.bounds))
            }
            "assist" => {
                let m = &options.assist;
                (
                    format!("assist: batch-bound {}", m.batch_bound),
                    check::run(m.clone(), options.bounds),
                )
            }
            _ => {
                let m = &options.transaction;
                let title = format!(
                    "transaction: node-ids {} transactions {} max-operations {}",
                    m.node_ids, m.max_transactions, m.max_operations
                );
                (title, check::run(m.clone(), options.bounds))
            }
        };
        let seconds = started.elapsed().as_secs_f64();
        print_summary(&title, &summary, seconds, options.bounds, options.examples);
        all_as_expected &= summary.all_as_expected();
    }
    if all_as_expected {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
