//! Round trips through `DapBackend` alone (no MCP, no core): the middle layer of the latency
//! comparison in docs/DAP_LATENCY.md. Stops in tests/bench/agent_cost/heavy.py and times N
//! evaluate / frames / frame_variables / children calls.
//!
//! `cargo run --release -p debugger-mcp-dap --example dap_latency [N]`
//! (`DEBUGGER_MCP_DEBUGPY_QUICKACK=0` starts debugpy's adapter without the ACK bootstrap.)

use debugger_mcp_core::backend::*;
use debugger_mcp_dap::DapBackend;
use std::time::{Duration, Instant};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(30);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/bench/agent_cost");
    let dir = std::fs::canonicalize(dir).expect("tests/bench/agent_cost");
    let text = std::fs::read_to_string(dir.join("heavy.py")).unwrap();
    let line = text
        .lines()
        .position(|l| l.contains("heavy: stop here"))
        .unwrap() as u32
        + 1;
    let (sink, mut events) = event_channel();
    let b = DapBackend::new(&dir, sink).unwrap();
    let project = dir.display().to_string();
    b.add_line_breakpoint(
        &project,
        LineBreakpointSpec {
            file: dir.join("heavy.py").display().to_string(),
            line,
            enabled: true,
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let s = b
        .launch(
            &project,
            LaunchRequest {
                command: Some("python3 heavy.py".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap()
        .id;
    let thread = loop {
        match tokio::time::timeout(Duration::from_secs(60), events.recv())
            .await
            .expect("a pause within 60 s")
        {
            Some(BackendEvent::Paused { thread_id, .. }) => break thread_id,
            Some(BackendEvent::Stopped { .. }) | None => {
                panic!("the program ended before the breakpoint")
            }
            _ => {}
        }
    };
    let frame = b
        .frames(&s, &thread, 0, 20)
        .await
        .unwrap()
        .frames
        .remove(0)
        .handle;
    let (mut ev, mut fr, mut fv, mut ch) = (vec![], vec![], vec![], vec![]);
    for _ in 0..n {
        let t = Instant::now();
        let req = EvalRequest {
            thread_id: thread.clone(),
            frame: frame.clone(),
            expression: "len(records)".into(),
            ..Default::default()
        };
        b.evaluate(&s, req).await.unwrap();
        ev.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        b.frames(&s, &thread, 0, 20).await.unwrap();
        fr.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        let vars = b.frame_variables(&s, &frame).await.unwrap();
        fv.push(t.elapsed().as_secs_f64() * 1e3);
        let items = vars
            .iter()
            .find(|v| v.name == "items")
            .unwrap()
            .children_handle
            .clone()
            .unwrap();
        let t = Instant::now();
        b.children(&s, &items, 0, 20).await.unwrap();
        ch.push(t.elapsed().as_secs_f64() * 1e3);
    }
    println!(
        "DapBackend medians over {n}: evaluate {:.2} ms, frames {:.2} ms, frame_variables {:.2} ms (incl. size look-ups), children {:.2} ms",
        median(ev),
        median(fr),
        median(fv),
        median(ch)
    );
    b.stop(&s).await.unwrap();
}
