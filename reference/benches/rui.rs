//! Throughput of the Rixx UI reference (issue 4 quality bar): MB/s per framing (decoding alone, and
//! the whole runtime: decode, parse, stage, commit), and commits per second for one transaction of
//! 10, 1,000 and 10,000 nodes, to show how commit cost grows with graph size.
//!
//! Run with `cargo bench -p reference --bench rui`. The streams are built once, outside the
//! measured loops; each commit iteration starts from a fresh empty runtime.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use reference::rui::framing::{DecodedFrame, Decoder};
use reference::rui::{ActionPolicy, Catalog, Config, Framing, Limits, Runtime, TransactionOutcome};
use serde_json::{json, Value};

fn catalog() -> Catalog {
    Catalog::from_json(&json!({ "id": "bench@1.0.0", "components": {
        "Stack": { "props": { "type": "object", "properties": { "gap": { "type": "integer", "minimum": 0 } },
                              "additionalProperties": false }, "children": true },
        "Text": { "props": { "type": "object", "properties": { "text": { "type": "string" } },
                             "required": ["text"], "additionalProperties": false }, "children": false } } }))
    .expect("valid catalog")
}

/// Room for a 10,000-node transaction; fan-out and depth stay at the minimum profile.
fn limits() -> Limits {
    Limits {
        max_operations: 20_000,
        max_transaction_bytes: 8 << 20,
        ..Limits::default()
    }
}

fn runtime(framing: Framing, catalog: &Catalog) -> Runtime {
    Runtime::new(Config {
        framing,
        catalog: catalog.clone(),
        limits: limits(),
        action_policy: ActionPolicy::Gated,
        choices: Default::default(),
    })
}

/// One transaction of `nodes` nodes at `base`: a tree of `Stack`s with fan-out 8 whose leaves are
/// `Text`s, plus one data record.
fn transaction(id: &str, base: u64, nodes: usize) -> Vec<Value> {
    let mut records = vec![json!(["begin", 0, id, base])];
    let mut seq = 1;
    for n in 0..nodes {
        let children: Vec<String> = (1..=8)
            .map(|k| n * 8 + k)
            .filter(|c| *c < nodes)
            .map(|c| format!("n{c}"))
            .collect();
        let record = if children.is_empty() {
            json!(["node", seq, format!("n{n}"), "Text", { "text": format!("item {n}") }, []])
        } else {
            json!(["node", seq, format!("n{n}"), "Stack", { "gap": 4 }, children])
        };
        records.push(record);
        seq += 1;
    }
    records.push(json!(["data", seq, "/title", "bench"]));
    records.push(json!(["commit", seq + 1, base + 1, "n0"]));
    records
}

fn payloads(records: &[Value]) -> Vec<Vec<u8>> {
    records
        .iter()
        .map(|r| serde_json::to_vec(r).expect("JSON values serialize"))
        .collect()
}

fn encode(framing: Framing, payloads: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for payload in payloads {
        match framing {
            Framing::Jsonl => {
                out.extend_from_slice(payload);
                out.push(b'\n');
            }
            Framing::Sse => {
                out.extend_from_slice(b"data: ");
                out.extend_from_slice(payload);
                out.extend_from_slice(b"\n\n");
            }
            Framing::JsonSeq => {
                out.push(0x1E);
                out.extend_from_slice(payload);
                out.push(b'\n');
            }
            Framing::WebSocket => unreachable!("messages"),
        }
    }
    out
}

/// 100 transactions of 50 nodes each, one after another (about 0.3 MB of records).
fn stream_payloads() -> Vec<Vec<u8>> {
    (0..100u64)
        .flat_map(|t| payloads(&transaction(&format!("t{t}"), t, 50)))
        .collect()
}

fn framing_throughput(c: &mut Criterion) {
    let catalog = catalog();
    let payloads = stream_payloads();
    let mut group = c.benchmark_group("rui-framing");
    group.sample_size(20);
    for framing in [Framing::Jsonl, Framing::Sse, Framing::JsonSeq] {
        let stream = encode(framing, &payloads);
        group.throughput(Throughput::Bytes(stream.len() as u64));
        group.bench_with_input(
            BenchmarkId::new("decode", framing.name()),
            &stream,
            |b, stream| {
                b.iter(|| {
                    let mut decoder = Decoder::new(framing);
                    let mut frames: Vec<DecodedFrame> = Vec::new();
                    for chunk in stream.chunks(4096) {
                        decoder.push(chunk, &mut frames).expect("stream framing");
                    }
                    decoder.finish(&mut frames);
                    black_box(frames.len())
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("runtime", framing.name()),
            &stream,
            |b, stream| {
                b.iter(|| {
                    let mut rt = runtime(framing, &catalog);
                    for chunk in stream.chunks(4096) {
                        rt.feed(chunk).expect("stream framing");
                    }
                    rt.end();
                    assert_eq!(rt.committed().revision, 100);
                    black_box(rt.commits())
                })
            },
        );
    }
    let bytes: usize = payloads.iter().map(Vec::len).sum();
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function(BenchmarkId::new("runtime", "websocket"), |b| {
        b.iter(|| {
            let mut rt = runtime(Framing::WebSocket, &catalog);
            for message in &payloads {
                rt.feed_message(message).expect("messages");
            }
            assert_eq!(rt.committed().revision, 100);
            black_box(rt.commits())
        })
    });
    group.finish();
}

fn commit_cost(c: &mut Criterion) {
    let catalog = catalog();
    let mut group = c.benchmark_group("rui-commit");
    group.sample_size(10);
    for nodes in [10usize, 1_000, 10_000] {
        let messages = payloads(&transaction("t", 0, nodes));
        group.throughput(Throughput::Elements(1));
        group.bench_with_input(
            BenchmarkId::new("transaction-nodes", nodes),
            &messages,
            |b, messages| {
                b.iter_batched(
                    || runtime(Framing::WebSocket, &catalog),
                    |mut rt| {
                        for message in messages {
                            rt.feed_message(message).expect("messages");
                        }
                        let committed = matches!(
                            rt.transactions().last().map(|t| t.outcome),
                            Some(TransactionOutcome::Committed { .. })
                        );
                        assert!(committed, "{nodes}-node transaction did not commit");
                        rt
                    },
                    BatchSize::LargeInput,
                )
            },
        );
    }
    group.finish();
}

criterion_group!(benches, framing_throughput, commit_cost);
criterion_main!(benches);
