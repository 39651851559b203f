//! Throughput of `conformance validate` per framing (issue 15 §3, issue 29 §3; goal: at least
//! 150 MiB/s for jsonl in release). Each framing validates the same generated stream
//! (`validate::generate`, about 8 MiB: valid transactions of six records redefining a three-node
//! graph) through the validator the command builds (`validate::validator`: the default consumer
//! beside the lenient one) and the same input code: `read_stream` over the bytes for jsonl, sse
//! and json-seq, and `Validator::message` per message for websocket (as live mode feeds it; its
//! bytes are the messages' payloads). `cargo bench -p harness --bench validate`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use harness::validate::{generate, read_stream, validator};

const SIZE: u64 = 8 << 20;

fn throughput(c: &mut Criterion) {
    let mut group = c.benchmark_group("validate");
    group.sample_size(10);
    for framing in ["jsonl", "sse", "json-seq"] {
        let mut bytes = Vec::new();
        generate::write(framing, SIZE, &mut bytes).expect("in memory");
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(framing, |b| {
            b.iter(|| {
                let mut validator = validator(framing, &generate::catalog(), None, false).unwrap();
                let mut violations = 0u64;
                let stop = read_stream(&mut validator, &mut &bytes[..], &mut |_| violations += 1);
                let summary = validator.finish(stop);
                assert_eq!((violations, summary.exit_code()), (0, 0));
                summary.committed
            })
        });
    }
    let mut messages = Vec::new();
    let mut i = 0;
    while messages.iter().map(Vec::len).sum::<usize>() < SIZE as usize {
        messages.extend(generate::transaction(i));
        i += 1;
    }
    group.throughput(Throughput::Bytes(messages.iter().map(Vec::len).sum::<usize>() as u64));
    group.bench_function("websocket", |b| {
        b.iter(|| {
            let mut validator = validator("websocket", &generate::catalog(), None, false).unwrap();
            let mut violations = 0u64;
            for message in &messages {
                validator.message(message, &mut |_| violations += 1).unwrap();
            }
            validator.end(&mut |_| violations += 1);
            assert_eq!(violations, 0);
            validator.finish(harness::validate::Stop::End).committed
        })
    });
    group.finish();
}

criterion_group!(benches, throughput);
criterion_main!(benches);
