//! Throughput of the RCIP reference runtime (issue 3, "Quality bar"): invocations per second of a
//! bound `read` capability with a small object input schema (validation on, default policy
//! CL-B22, refresh after success), and full confirm-and-approve cycles per second of a
//! `destructive` capability (invoke → `confirmation_required` → approve → confirmed policy pass →
//! handler → `succeeded`, CL-B07).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use reference::rcip::{
    Answer, BindingSpec, Definition, HostValue, InvokeRequest, OutcomeBody, Runtime,
    RuntimeOptions, Status,
};
use serde_json::json;

fn definition() -> Definition {
    let input = json!({
        "type": "object",
        "properties": { "query": { "type": "string", "maxLength": 64 }, "limit": { "type": "integer", "minimum": 1 } },
        "required": ["query"],
        "additionalProperties": false
    });
    let output = json!({ "type": "object", "properties": { "items": { "type": "array", "items": { "type": "string" } } } });
    let value = json!({
        "protocolVersion": "1.0",
        "application": { "id": "bench", "name": "Bench", "description": "Benchmark catalog" },
        "scopes": [],
        "capabilities": [
            { "id": "notes.search", "title": "Search", "description": "Searches notes", "scopeIds": [],
              "effect": "read", "inputSchema": input, "outputSchema": output },
            { "id": "notes.purge", "title": "Purge", "description": "Purges notes", "scopeIds": [],
              "effect": "destructive", "inputSchema": { "type": "object" }, "outputSchema": { "type": "object" } }
        ]
    });
    Definition::from_json(&value).unwrap_or_else(|e| panic!("benchmark catalog: {e}"))
}

fn runtime(definition: &Definition) -> Runtime {
    let mut runtime = Runtime::new(definition, RuntimeOptions::default())
        .unwrap_or_else(|e| panic!("runtime: {e}"));
    for id in ["notes.search", "notes.purge"] {
        let handle = definition.capability(id).unwrap_or_else(|| panic!("{id}"));
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
    }
    runtime
}

fn request(capability: &str, input: HostValue) -> InvokeRequest {
    InvokeRequest {
        capability_id: capability.into(),
        input,
        invocation_id: None,
        signal: None,
    }
}

fn bench(c: &mut Criterion) {
    let definition = definition();
    let mut group = c.benchmark_group("rcip");
    group.throughput(Throughput::Elements(1));

    let mut rt = runtime(&definition);
    group.bench_function("invoke-read-validated", |b| {
        b.iter(|| {
            let input = search_input();
            let ticket = rt.invoke(request("notes.search", input));
            let outcome = rt.take_outcome(ticket);
            assert_eq!(outcome.map(|o| o.status()), Some(Status::Succeeded));
        })
    });

    let mut rt = runtime(&definition);
    group.bench_function("confirm-and-approve", |b| {
        b.iter(|| {
            let ticket = rt.invoke(request("notes.purge", HostValue::object(vec![])));
            let confirmation = match rt.take_outcome(ticket).map(|o| o.body) {
                Some(OutcomeBody::ConfirmationRequired(info)) => info.id,
                other => panic!("{other:?}"),
            };
            let approval = rt.resolve_confirmation(&confirmation, true);
            assert_eq!(
                rt.take_outcome(approval).map(|o| o.status()),
                Some(Status::Succeeded)
            );
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

/// A fresh `{ "query": "milk", "limit": 5 }` per call, built as a host builds an object literal
/// (through `serde_json::json!` and a conversion, the bench would mostly measure serde_json).
fn search_input() -> HostValue {
    HostValue::object(vec![
        ("query".into(), HostValue::string("milk")),
        ("limit".into(), HostValue::Number(5.0)),
    ])
}
