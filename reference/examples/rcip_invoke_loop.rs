//! The workload of the `rcip/invoke-read-validated` bench (benches/rcip.rs) as a plain loop, for
//! instruction counts under `valgrind --tool=callgrind` (repeatable on a loaded machine, unlike
//! wall-clock time): `cargo run -p reference --release --example rcip_invoke_loop -- N` performs
//! N invocations of a bound `read` capability with an object input schema. Instructions per invoke
//! are the difference between two runs with different N divided by the difference of N.

use reference::rcip::{
    Answer, BindingSpec, Definition, HostValue, InvokeRequest, Runtime, RuntimeOptions, Status,
};
use serde_json::json;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .map(|arg| {
            arg.parse()
                .unwrap_or_else(|e| panic!("N must be a count: {e}"))
        })
        .unwrap_or(10_000);
    let definition = Definition::from_json(&json!({
        "protocolVersion": "1.0",
        "application": { "id": "bench", "name": "Bench", "description": "Benchmark catalog" },
        "scopes": [],
        "capabilities": [
            { "id": "notes.search", "title": "Search", "description": "Searches notes", "scopeIds": [],
              "effect": "read",
              "inputSchema": {
                  "type": "object",
                  "properties": { "query": { "type": "string", "maxLength": 64 }, "limit": { "type": "integer", "minimum": 1 } },
                  "required": ["query"],
                  "additionalProperties": false
              },
              "outputSchema": { "type": "object", "properties": { "items": { "type": "array", "items": { "type": "string" } } } } }
        ]
    }))
    .unwrap_or_else(|e| panic!("catalog: {e}"));
    let mut runtime = Runtime::new(&definition, RuntimeOptions::default())
        .unwrap_or_else(|e| panic!("runtime: {e}"));
    let handle = definition
        .capability("notes.search")
        .unwrap_or_else(|| panic!("notes.search"));
    let handler: reference::rcip::HandlerFn = Box::new(|_| {
        Answer::Ready(Ok(HostValue::object(vec![(
            "items".into(),
            HostValue::array(vec![HostValue::string("n1")]),
        )])))
    });
    runtime
        .bind(
            &handle,
            BindingSpec {
                handler,
                availability: None,
            },
        )
        .unwrap_or_else(|e| panic!("bind: {e}"));
    let mut succeeded = 0u64;
    for _ in 0..n {
        let input = search_input();
        let request = InvokeRequest {
            capability_id: "notes.search".into(),
            input,
            invocation_id: None,
            signal: None,
        };
        let ticket = runtime.invoke(request);
        if runtime.take_outcome(ticket).map(|o| o.status()) == Some(Status::Succeeded) {
            succeeded += 1;
        }
    }
    assert_eq!(succeeded, n, "every invocation succeeds");
    println!("{n} invocations succeeded");
}

/// A fresh `{ "query": "milk", "limit": 5 }` per call, built as a host builds an object literal
/// (through `serde_json::json!` and a conversion, the bench would mostly measure serde_json).
fn search_input() -> HostValue {
    HostValue::object(vec![
        ("query".into(), HostValue::string("milk")),
        ("limit".into(), HostValue::Number(5.0)),
    ])
}
