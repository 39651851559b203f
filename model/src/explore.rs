//! Browsing a model (issue 19): `serve` starts stateright's Explorer (`CheckerBuilder::serve`, a
//! web UI and the JSON endpoints `/.status` and `/.states/...`) on a local address, so a spec
//! author can walk the invocation (CL-B01..B12), Assist (CL-C01..C06) or transaction (CL-D01..D09)
//! state space, follow a path and see which properties hold; `locate` finds the Explorer path of a
//! model-generated vector: its provenance names the model and lists the actions of the path as
//! their `Debug` text, and replaying them gives the action indices the Explorer's URL is made of.

use std::fmt::Debug;
use std::hash::Hash;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::Duration;

use stateright::Model;

use crate::assist::{AssistModel, Mode};
use crate::invocation::InvocationModel;
use crate::transaction::TransactionModel;

/// Starts the Explorer for `model`, checking at most `depth` steps deep, on `address` (port 0
/// picks a free port), and calls `started` with the address once it answers. Serves until the
/// process ends. `address` is bound here and held for good (`front.rs`): an address that cannot be
/// bound, another `explore` on the same port included, is an error, and only requests whose
/// `Host` names this server are answered.
pub fn serve<M>(
    model: M,
    depth: Option<usize>,
    address: SocketAddr,
    started: impl FnOnce(SocketAddr) + Send + 'static,
) -> Result<(), String>
where
    M: 'static + Model + Send + Sync,
    M::Action: Debug + Send + Sync + Clone + PartialEq,
    M::State: Debug + Hash + Send + Sync + Clone + PartialEq,
{
    let listener = TcpListener::bind(address)
        .map_err(|e| format!("cannot listen on {address}: {e} (is another model-check explore serving there?)"))?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    // stateright's own server binds with `unwrap` on the address it is given: a private loopback
    // port that was free a moment ago, reached only through the front door.
    let private = TcpListener::bind(("127.0.0.1", 0))
        .and_then(|probe| probe.local_addr())
        .map_err(|e| format!("cannot find a private port for the Explorer: {e}"))?;
    let mut builder = model.checker();
    if let Some(depth) = depth {
        builder = builder.target_max_depth(depth);
    }
    // `serve` answers requests on its thread and returns only if the server stops.
    let explorer = std::thread::spawn(move || {
        let _checker = builder.serve(private);
    });
    // Tell the caller only once the Explorer answers, so a printed URL is a working one.
    let mut answering = false;
    for _ in 0..600 {
        if TcpStream::connect_timeout(&private, Duration::from_millis(200)).is_ok() {
            answering = true;
            break;
        }
        if explorer.is_finished() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    if !answering {
        return Err(format!("the Explorer did not start on its private port {private}"));
    }
    started(address);
    crate::front::run(listener, private).map_err(|e| format!("serving on {address}: {e}"))
}

/// A generated vector's path in a model, as the Explorer shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelPath {
    /// `invocation`, `assist` or `transaction`.
    pub model: &'static str,
    /// The `model-check explore` arguments serving the configuration the vectors were walked at.
    pub arguments: Vec<String>,
    /// The actions of the path, in order (the provenance's path without a configuration line).
    pub actions: Vec<String>,
    /// The initial state's index, then each action's index among the actions enabled where it
    /// was taken: the Explorer's URL fragment is `#/steps/` followed by these, joined by `/`.
    pub indices: Vec<usize>,
}

impl ModelPath {
    /// The Explorer's URL fragment of the path's last state.
    pub fn fragment(&self) -> String {
        let indices: Vec<String> = self.indices.iter().map(usize::to_string).collect();
        format!("#/steps/{}", indices.join("/"))
    }
}

/// The invocation configuration the generated vectors are walked at (suites'
/// `from_model::invocation::generation_model`): the default with the receipt bound of CL-B10.
pub fn invocation_for_vectors() -> InvocationModel {
    InvocationModel { receipt_bound: 256, ..InvocationModel::default() }
}

/// The path a provenance (`by`: the generator, `path`: the actions' `Debug` text, for Assist
/// after a configuration line naming the mode) describes, replayed in the model the Explorer
/// serves. Assist vectors are walked on `ObservableTurn`, whose paths are paths of the full
/// `AssistModel` (with its properties), which is what is served.
pub fn locate(by: &str, path: &[String]) -> Result<ModelPath, String> {
    let name = by.strip_prefix("model::").and_then(|rest| rest.split([' ', ':']).next()).unwrap_or_default();
    match name {
        "invocation" => {
            let arguments = vec!["invocation".to_string(), "--receipt-bound".into(), "256".into()];
            replay(&invocation_for_vectors(), "invocation", arguments, 0, path)
        }
        "assist" => {
            let (configuration, actions) = path.split_first().ok_or("the Assist path has no configuration line")?;
            let mode = if configuration.contains("read-only mode") {
                Mode::ReadOnly
            } else if configuration.contains("default mode") {
                Mode::Normal
            } else {
                return Err(format!("the Assist configuration line names no mode: {configuration:?}"));
            };
            let model = AssistModel::default();
            let init = model.init_states().iter().position(|s| s.mode == mode).ok_or("no initial state of that mode")?;
            replay(&model, "assist", vec!["assist".to_string()], init, actions)
        }
        "transaction" => replay(&TransactionModel::default(), "transaction", vec!["transaction".to_string()], 0, path),
        _ => Err(format!("the provenance names no model this build knows: {by:?}")),
    }
}

fn replay<M>(model: &M, name: &'static str, arguments: Vec<String>, init: usize, actions: &[String]) -> Result<ModelPath, String>
where
    M: Model,
    M::Action: Debug,
{
    let mut state = model.init_states().into_iter().nth(init).ok_or("no such initial state")?;
    let mut indices = vec![init];
    for (step, label) in actions.iter().enumerate() {
        let mut enabled = Vec::new();
        model.actions(&state, &mut enabled);
        let index = enabled
            .iter()
            .position(|a| format!("{a:?}") == *label)
            .ok_or_else(|| format!("step {}: {label} is not enabled in the {name} model here", step + 1))?;
        let action = enabled.swap_remove(index);
        state = model
            .next_state(&state, action)
            .ok_or_else(|| format!("step {}: {label} changes nothing in the {name} model", step + 1))?;
        indices.push(index);
    }
    Ok(ModelPath { model: name, arguments, actions: actions.to_vec(), indices })
}
