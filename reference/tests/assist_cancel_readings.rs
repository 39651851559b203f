//! The readings of an Assist cancellation the texts leave open, each taken by a row of the choices
//! table: whether the one summarize call still follows (PRJ-ASSIST-CANCEL-01,
//! `assist-summarize-after-cancel`) and whether a turn cancelled while it waits for the decide
//! answer still waits for it (PRJ-ASSIST-CANCEL-03, `assist-cancel-keeps-waiting`). Either way no
//! action starts after the cancellation (CL-C06-1), and at most one summarize call is made
//! (CL-C04-1).

use std::cell::RefCell;
use std::rc::Rc;

use reference::choices::{Choice, Choices};
use reference::rcip::assist::{
    AssistConfig, AssistError, Assistant, CallbackAnswer, CallbackId, CallbackView, DelayAmounts,
    Mode, Phase, TurnEnd, TurnRequest,
};
use reference::rcip::{
    AbortSignal, Answer, BindingSpec, Definition, HostValue, Runtime, RuntimeOptions,
};
use serde_json::{json, Value};

fn definition() -> Definition {
    let value = json!({
        "protocolVersion": "1.0",
        "application": { "id": "notes", "name": "Notes", "description": "Notes" },
        "scopes": [],
        "capabilities": [{ "id": "notes.list", "title": "List", "description": "Lists notes", "scopeIds": [],
            "effect": "read", "inputSchema": { "type": "object" }, "outputSchema": { "type": "object" } }]
    });
    Definition::define(&HostValue::from_json(&value)).expect("the test definition is valid")
}

struct World {
    runtime: Runtime,
    assistant: Assistant,
    phases: Rc<RefCell<Vec<Phase>>>,
}

/// A runtime whose only handler never settles (so an action stays in progress) and a callback
/// that answers decide with two actions (`decide_later`: leaves decide pending) and summarize
/// with text, under `choices`.
fn world(choices: &[Choice], decide_later: bool) -> World {
    let options = RuntimeOptions {
        policy: None,
        confirmation_ttl_ms: None,
        create_id: None,
        on_event: None,
        choices: Default::default(),
    };
    let definition = definition();
    let mut runtime = Runtime::new(&definition, options).expect("the test runtime builds");
    let capability = definition.capability("notes.list").expect("declared");
    let spec = BindingSpec {
        handler: Box::new(|_| Answer::Pending),
        availability: None,
    };
    assert!(runtime.bind(&capability, spec).is_ok(), "notes.list binds");
    let phases: Rc<RefCell<Vec<Phase>>> = Rc::default();
    let seen = Rc::clone(&phases);
    let batch = json!({ "actions": [{ "capabilityId": "notes.list", "input": {} }, { "capabilityId": "notes.list", "input": {} }] });
    let callback = Box::new(move |view: &CallbackView, _: CallbackId| {
        seen.borrow_mut().push(view.phase);
        match view.phase {
            Phase::Decide if decide_later => CallbackAnswer::Pending,
            Phase::Decide => CallbackAnswer::Ready(Ok(batch.clone())),
            Phase::Summarize => CallbackAnswer::Ready(Ok(json!({ "text": "done" }))),
        }
    });
    let config = AssistConfig::with_choices(None, DelayAmounts::default(), &Choices::only(choices));
    World {
        runtime,
        assistant: Assistant::new(config, callback),
        phases,
    }
}

fn start(w: &mut World, signal: &AbortSignal) -> reference::rcip::assist::TurnId {
    w.assistant.start_turn(
        &mut w.runtime,
        TurnRequest {
            mode: Mode::Default,
            messages: vec![json!("go")],
            signal: Some(signal.clone()),
        },
    )
}

fn cancelled(end: Option<&TurnEnd>) -> bool {
    matches!(end, Some(TurnEnd::Failed(AssistError::Cancelled)))
}

#[test]
fn a_cancelled_turn_summarizes_only_under_its_row() {
    for (choices, phases) in [
        (vec![], vec![Phase::Decide]),
        (
            vec![Choice::AssistSummarizeAfterCancel],
            vec![Phase::Decide, Phase::Summarize],
        ),
    ] {
        let mut w = world(&choices, false);
        let signal = AbortSignal::new();
        let turn = start(&mut w, &signal);
        assert_eq!(
            w.assistant.invocations(turn).map(<[(String, Value)]>::len),
            Some(1),
            "the first action is in progress"
        );
        w.runtime.abort(&signal);
        w.assistant.pump(&mut w.runtime);
        assert_eq!(*w.phases.borrow(), phases, "{choices:?}");
        assert!(
            cancelled(w.assistant.turn(turn).and_then(|t| t.end())),
            "{choices:?}"
        );
        assert_eq!(
            w.assistant.invocations(turn).map(<[(String, Value)]>::len),
            Some(1),
            "no action after the cancellation"
        );
    }
}

#[test]
fn a_turn_cancelled_while_deciding_waits_for_the_answer_only_under_its_row() {
    for keeps_waiting in [false, true] {
        let choices = if keeps_waiting {
            vec![Choice::AssistCancelKeepsWaiting]
        } else {
            vec![]
        };
        let mut w = world(&choices, true);
        let signal = AbortSignal::new();
        let turn = start(&mut w, &signal);
        w.runtime.abort(&signal);
        w.assistant.pump(&mut w.runtime);
        let ended = w.assistant.turn(turn).and_then(|t| t.end()).is_some();
        assert_eq!(
            ended, !keeps_waiting,
            "ends at once unless it keeps waiting"
        );
        let batch = json!({ "actions": [{ "capabilityId": "notes.list", "input": {} }] });
        assert!(w
            .assistant
            .settle_callback(&mut w.runtime, CallbackId(0), Ok(batch))
            .is_ok());
        assert!(
            cancelled(w.assistant.turn(turn).and_then(|t| t.end())),
            "cancelled once the answer came"
        );
        assert_eq!(
            w.assistant.invocations(turn).map(<[(String, Value)]>::len),
            Some(0),
            "the answered batch never runs"
        );
        assert_eq!(*w.phases.borrow(), vec![Phase::Decide]);
    }
}
