//! Core overhead per `tools/call` (target p50 <= 20 µs): validation, dispatch, project/session
//! resolution, value ids, JSON building and history, with the in-memory fake backend standing in
//! for the debugger (its ops are a mutex and a few clones, so nearly all time is the core's).
//!
//! Besides criterion's estimates, prints p50/p90/p99 from a plain loop of timed calls.
//! Run: `cargo bench -p debugger-mcp-core --bench dispatch`.

use criterion::{Criterion, criterion_group, criterion_main};
use debugger_mcp_core::config::Config;
use debugger_mcp_core::engine::{CallContext, Engine};
use debugger_mcp_core::fake::FakeBackend;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Instant;

fn setup(rt: &tokio::runtime::Runtime) -> (Arc<Engine>, Arc<FakeBackend>) {
    rt.block_on(async {
        let root = std::env::temp_dir().join(format!("dmcp-bench-{}", std::process::id()));
        let (fake, events) = FakeBackend::new(&root);
        let engine = Engine::new(
            fake.clone(),
            events,
            Config {
                brave_mode: true,
                ..Config::default()
            },
        );
        let ctx = CallContext::default();
        for line in [8, 9, 12] {
            let r = engine
                .call_tool(
                    "set_breakpoint",
                    json!({"file_path": "main.py", "line": line}),
                    &ctx,
                )
                .await;
            assert_eq!(r.is_error, Some(false));
        }
        let r = engine
            .call_tool(
                "start_debug_session",
                json!({"run_configuration": "main", "wait_for_pause": true}),
                &ctx,
            )
            .await;
        assert_eq!(r.structured_content.unwrap()["pause"]["state"], "paused");
        (engine, fake)
    })
}

fn cases() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        ("list_breakpoints", "list_breakpoints", json!({})),
        ("get_variables", "get_variables", json!({})),
        ("get_stack_trace", "get_stack_trace", json!({})),
        (
            "evaluate_expression",
            "evaluate_expression",
            json!({"expression": "limit + 1"}),
        ),
        (
            "invalid_input",
            "set_breakpoint",
            json!({"file_path": "main.py", "line": "x"}),
        ),
    ]
}

fn report(label: &str, mut samples: Vec<f64>) {
    samples.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = samples.len();
    let p = |q: f64| samples[((n as f64 - 1.0) * q) as usize];
    println!(
        "{label:<42} p50 {:>7.2} µs  p90 {:>7.2} µs  p99 {:>7.2} µs  ({n} calls)",
        p(0.5),
        p(0.9),
        p(0.99)
    );
}

/// What the fake backend alone costs for get_variables (frames + frame_variables), to tell the
/// core's share apart.
fn backend_only(rt: &tokio::runtime::Runtime, fake: &Arc<FakeBackend>) {
    use debugger_mcp_core::backend::Backend;
    let mut samples = Vec::with_capacity(20_000);
    rt.block_on(async {
        for i in 0..21_000 {
            let t = Instant::now();
            let root = fake.projects().await.unwrap().remove(0).root;
            let page = fake.frames("s1", "1", 0, 1).await.unwrap();
            let vars = fake
                .frame_variables("s1", &page.frames[0].handle)
                .await
                .unwrap();
            std::hint::black_box((root, vars));
            if i >= 1000 {
                samples.push(t.elapsed().as_nanos() as f64 / 1000.0);
            }
        }
    });
    report("fake backend only: get_variables' ops", samples);
}

fn percentiles(rt: &tokio::runtime::Runtime, engine: &Arc<Engine>) {
    let ctx = CallContext::default();
    for (label, tool, args) in cases() {
        let first = rt.block_on(engine.call_tool(tool, args.clone(), &ctx));
        assert_eq!(
            first.is_error,
            Some(label == "invalid_input"),
            "{label}: {first:?}"
        );
        let n = 20_000;
        let mut samples = Vec::with_capacity(n);
        rt.block_on(async {
            for _ in 0..1000 {
                engine.call_tool(tool, args.clone(), &ctx).await;
            }
            for _ in 0..n {
                let a = args.clone();
                let t = Instant::now();
                let r = engine.call_tool(tool, a, &ctx).await;
                samples.push(t.elapsed().as_nanos() as f64 / 1000.0);
                std::hint::black_box(r);
            }
        });
        report(&format!("tools/call {label}"), samples);
    }
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (engine, fake) = setup(&rt);
    percentiles(&rt, &engine);
    backend_only(&rt, &fake);
    let ctx = CallContext::default();
    let mut group = c.benchmark_group("tools_call");
    for (label, tool, args) in cases() {
        group.bench_function(label, |b| {
            b.to_async(&rt)
                .iter(|| engine.call_tool(tool, args.clone(), &ctx));
        });
    }
    group.bench_function("tools_list", |b| {
        b.iter(|| std::hint::black_box(engine.tools()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
