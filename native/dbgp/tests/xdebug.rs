//! The DBGp backend on real Xdebug 3 (php-cli + php-xdebug): breakpoints of every kind, steps,
//! stack, paged values, eval, set, output, errors and a script that ends before any stop.

use debugger_mcp_core::backend::*;
use debugger_mcp_dbgp::DbgpBackend;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU16, Ordering};
use std::time::Duration;

/// Each test listens on ports of its own (tests run in parallel in one process).
static NEXT_PORT: AtomicU16 = AtomicU16::new(19_300);

struct H {
    b: DbgpBackend,
    ev: EventStream,
    root: String,
    dir: PathBuf,
    seen: Vec<BackendEvent>,
}

fn project(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dbgp-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["app.php", "fail.php", "fatal.php", "quick.php", "fact.php"] {
        std::fs::copy(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures")
                .join(f),
            dir.join(f),
        )
        .unwrap();
    }
    dir
}

impl H {
    fn new(name: &str) -> H {
        let dir = project(name);
        let (sink, ev) = event_channel();
        let b = DbgpBackend::new(&dir, sink).unwrap();
        b.set_port(NEXT_PORT.fetch_add(8, Ordering::SeqCst));
        b.set_connect_timeout(Duration::from_secs(15));
        let root = std::fs::canonicalize(&dir).unwrap().display().to_string();
        H {
            b,
            ev,
            root,
            dir,
            seen: vec![],
        }
    }
    fn file(&self, f: &str) -> String {
        format!("{}/{f}", self.root)
    }
    fn spec(&self, f: &str, line: u32) -> LineBreakpointSpec {
        LineBreakpointSpec {
            file: self.file(f),
            line,
            enabled: true,
            ..Default::default()
        }
    }
    async fn bp(&self, f: &str, line: u32, condition: Option<&str>) -> BreakpointInfo {
        let spec = LineBreakpointSpec {
            condition: condition.map(str::to_string),
            ..self.spec(f, line)
        };
        self.b.add_line_breakpoint(&self.root, spec).await.unwrap()
    }
    /// A breakpoint that stops at the `hits`-th pass only (`3`, `>= 2`, …).
    async fn bp_hits(&self, f: &str, line: u32, hits: &str) -> BackendResult<BreakpointInfo> {
        let spec = LineBreakpointSpec {
            hit_condition: Some(hits.into()),
            ..self.spec(f, line)
        };
        self.b.add_line_breakpoint(&self.root, spec).await
    }
    /// `op` on the session, then its next stop.
    async fn go(&mut self, sid: &str, op: ControlOp) -> (PauseReason, Vec<String>, Option<String>) {
        self.b.control(sid, None, op).await.unwrap();
        self.paused().await
    }
    /// Resumes the session to its end; the exit code.
    async fn finish(&mut self, sid: &str) -> Option<i64> {
        self.b.control(sid, None, ControlOp::Resume).await.unwrap();
        self.stopped().await
    }
    async fn eval(&self, sid: &str, frame: &str, expression: &str) -> BackendResult<ValueNode> {
        let req = EvalRequest {
            frame: frame.into(),
            expression: expression.into(),
            ..Default::default()
        };
        self.b.evaluate(sid, req).await
    }
    async fn launch(&self, cmd: &str, entry: bool, exc: bool) -> SessionInfo {
        let req = LaunchRequest {
            command: Some(cmd.into()),
            stop_on_entry: entry,
            stop_on_exception: exc,
            ..Default::default()
        };
        self.b.launch(&self.root, req).await.unwrap()
    }
    /// A breakpoint at `f`:`line`, `php f` launched and paused there: the session and breakpoint.
    async fn start_at(&mut self, f: &str, line: u32) -> (SessionInfo, BreakpointInfo) {
        let bp = self.bp(f, line, None).await;
        let s = self.launch(&format!("php {f}"), false, false).await;
        assert_eq!(self.paused().await.1, vec![bp.id.clone()]);
        (s, bp)
    }
    /// A step over that stops at an exception: what the stop says.
    async fn over_to_exception(&mut self, sid: &str) -> String {
        let (reason, _, desc) = self.go(sid, ControlOp::STEP_OVER).await;
        assert_eq!(reason, PauseReason::Exception, "{desc:?}");
        desc.unwrap_or_default()
    }
    /// A launch that fails; its error.
    async fn launch_err(&self, cmd: &str) -> BackendError {
        let req = LaunchRequest {
            command: Some(cmd.into()),
            ..Default::default()
        };
        self.b.launch(&self.root, req).await.unwrap_err()
    }
    /// The next event matching `f` within 20 s (everything seen is kept in `seen`).
    async fn until(&mut self, what: &str, f: impl Fn(&BackendEvent) -> bool) -> BackendEvent {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let e = tokio::time::timeout_at(deadline, self.ev.recv())
                .await
                .unwrap_or_else(|_| panic!("no {what} within 20 s; seen {:?}", self.seen))
                .unwrap();
            self.seen.push(e.clone());
            if f(&e) {
                return e;
            }
        }
    }
    async fn paused(&mut self) -> (PauseReason, Vec<String>, Option<String>) {
        match self
            .until("pause", |e| {
                matches!(
                    e,
                    BackendEvent::Paused { .. } | BackendEvent::Stopped { .. }
                )
            })
            .await
        {
            BackendEvent::Paused {
                reason,
                breakpoint_ids,
                description,
                ..
            } => (reason, breakpoint_ids, description),
            other => panic!("ended instead of pausing: {other:?}; seen {:?}", self.seen),
        }
    }
    async fn stopped(&mut self) -> Option<i64> {
        match self
            .until("end", |e| matches!(e, BackendEvent::Stopped { .. }))
            .await
        {
            BackendEvent::Stopped { exit_code, .. } => exit_code,
            _ => unreachable!(),
        }
    }
    fn output(&self) -> String {
        self.seen
            .iter()
            .filter_map(|e| {
                if let BackendEvent::Output { text, .. } = e {
                    Some(text.as_str())
                } else {
                    None
                }
            })
            .collect()
    }
    async fn top(&self, sid: &str) -> FrameInfo {
        self.b
            .frames(sid, "1", 0, 20)
            .await
            .unwrap()
            .frames
            .remove(0)
    }
    async fn var(&self, sid: &str, frame: &str, name: &str) -> ValueNode {
        let vars = self.b.frame_variables(sid, frame).await.unwrap();
        vars.into_iter()
            .find(|v| v.name == name)
            .unwrap_or_else(|| panic!("no {name}"))
    }
}

impl Drop for H {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn line_breakpoint_stack_values_paging_eval_set_output() {
    let mut h = H::new("line");
    let bp = h.bp("app.php", 20, None).await;
    assert!(!bp.verified && bp.message.as_deref().unwrap().contains("pending"));
    let s = h.launch("php app.php", false, false).await;
    assert_eq!(s.name, "app.php");
    let (reason, ids, _) = h.paused().await;
    assert_eq!(
        (reason, ids),
        (PauseReason::Breakpoint, vec![bp.id.clone()])
    );
    let top = h.top(&s.id).await;
    assert_eq!(
        (top.file.as_deref(), top.line),
        (Some(h.file("app.php").as_str()), Some(20))
    );
    // The script's stdout is session output (it travels through a pipe, not the DBGp socket,
    // so it may arrive just after the pause).
    if !h.output().contains("start") {
        h.until(
            "stdout 'start'",
            |e| matches!(e, BackendEvent::Output { text, .. } if text.contains("start")),
        )
        .await;
    }

    // A 5,000-element array pages through property_get pages.
    let big = h.var(&s.id, "0", "$big").await;
    assert_eq!(
        (big.value.as_str(), big.child_count),
        ("array(5000)", Some(5000))
    );
    let page =
        h.b.children(&s.id, big.children_handle.as_deref().unwrap(), 4990, 20)
            .await
            .unwrap();
    assert_eq!(page.total, Some(5000));
    let names: Vec<&str> = page.children.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        (4990..5000)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
    );
    assert_eq!(page.children[9].value, "4999");
    let mid =
        h.b.children(&s.id, big.children_handle.as_deref().unwrap(), 95, 10)
            .await
            .unwrap();
    assert_eq!(
        mid.children
            .iter()
            .map(|c| c.value.clone())
            .collect::<Vec<_>>(),
        (95..105).map(|i| i.to_string()).collect::<Vec<_>>()
    );

    // An object's members, a private long string with its real size.
    let order = h.var(&s.id, "0", "$order").await;
    assert_eq!(
        (order.value.as_str(), order.type_name.as_deref()),
        ("Order", Some("Order"))
    );
    let members =
        h.b.children(&s.id, order.children_handle.as_deref().unwrap(), 0, 10)
            .await
            .unwrap();
    let note = members.children.iter().find(|c| c.name == "note").unwrap();
    assert_eq!(note.value_length, Some(3000));
    // property_value: a long string evaluated by name comes whole.
    let long = h.eval(&s.id, "0", "$long").await.unwrap();
    assert_eq!(long.value.len(), 5002, "quoted 5000 chars");
    // eval of an expression.
    let e = h.eval(&s.id, "0", "count($items) * 10").await.unwrap();
    assert_eq!(e.value, "30");
    let bad = h.eval(&s.id, "0", "1 +* 2").await.unwrap_err();
    assert!(bad.to_string().contains("could not evaluate"), "{bad}");

    // Set a value; the program sees it.
    let items = h.var(&s.id, "0", "$items").await;
    let first =
        h.b.children(&s.id, items.children_handle.as_deref().unwrap(), 0, 1)
            .await
            .unwrap()
            .children
            .remove(0);
    let qty =
        h.b.children(&s.id, first.children_handle.as_deref().unwrap(), 0, 5)
            .await
            .unwrap()
            .children
            .into_iter()
            .find(|c| c.name == "qty")
            .unwrap();
    let set =
        h.b.set_value(&s.id, qty.set_handle.as_deref().unwrap(), "100")
            .await
            .unwrap();
    assert_eq!(set.value, "100");

    // Step into total(), see its frame, step out.
    assert_eq!(
        h.go(&s.id, ControlOp::StepInto { force: false }).await.0,
        PauseReason::Step
    );
    assert_eq!(h.top(&s.id).await.line, Some(3));
    let f = h.b.frames(&s.id, "1", 0, 10).await.unwrap();
    assert_eq!(f.frames[0].method_name.as_deref(), Some("total"));
    assert_eq!(f.frames[1].method_name.as_deref(), Some("{main}"));
    assert_eq!(f.total, Some(2));
    // Reading a variable of the caller's frame by name.
    let caller = h.eval(&s.id, "1", "$t").await;
    assert!(caller.is_err(), "$t is not set yet in {{main}}");
    assert_eq!(h.go(&s.id, ControlOp::STEP_OVER).await.0, PauseReason::Step);
    assert_eq!(h.top(&s.id).await.line, Some(4));
    h.go(&s.id, ControlOp::STEP_OUT).await;
    assert_eq!(h.finish(&s.id).await, Some(0));
    // 2*100 + 5*3 + 1*10 = 225: the set value reached the program.
    assert!(h.output().contains("total=225"), "{}", h.output());
    let err = h.b.frames(&s.id, "1", 0, 1).await.unwrap_err();
    assert!(err.to_string().contains("ended"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conditional_hit_count_and_temporary_breakpoints() {
    let mut h = H::new("cond");
    let bp = h.bp("app.php", 5, Some("$item['price'] == 5")).await;
    let s = h.launch("php app.php", false, false).await;
    let (reason, ids, _) = h.paused().await;
    assert_eq!(
        (reason, ids),
        (PauseReason::Breakpoint, vec![bp.id.clone()])
    );
    let i = h.var(&s.id, "0", "$i").await;
    assert_eq!(i.value, "1", "stopped only where the condition holds");
    assert!(h.b.breakpoints(&h.root).await.unwrap()[0].verified);
    h.b.remove_breakpoint(&h.root, &bp.id).await.unwrap();
    h.finish(&s.id).await;
    // The 3rd hit of line 5: $i == 2.
    let hit = h.bp_hits("app.php", 5, "3").await.unwrap();
    let s = h.launch("php app.php", false, false).await;
    assert_eq!(h.paused().await.1, vec![hit.id.clone()]);
    assert_eq!(h.var(&s.id, "0", "$i").await.value, "2");
    h.b.remove_breakpoint(&h.root, &hit.id).await.unwrap();
    // Run to line 7 (a temporary breakpoint), then to the end.
    let to = ControlOp::RunTo {
        file: h.file("app.php"),
        line: 7,
        ignore_breakpoints: false,
    };
    h.go(&s.id, to).await;
    assert_eq!(h.top(&s.id).await.line, Some(7));
    h.finish(&s.id).await;
    let bad = h.bp_hits("app.php", 3, "often").await.unwrap_err();
    assert!(bad.to_string().contains("hit condition"), "{bad}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exceptions_and_fatal_errors_are_explained_at_the_stop() {
    let mut h = H::new("exc");
    let s = h.launch("php fail.php", false, true).await;
    let (reason, _, desc) = h.paused().await;
    assert_eq!(reason, PauseReason::Exception);
    assert_eq!(desc.as_deref(), Some("DomainException: n too large: 5"));
    assert_eq!(h.top(&s.id).await.line, Some(4));
    h.b.stop(&s.id).await.unwrap();
    h.stopped().await;
    assert!(!h.output().contains("never"));

    // An undefined function: PHP's Error, stopped where it is thrown.
    let s = h.launch("php fatal.php", false, true).await;
    let (reason, _, desc) = h.paused().await;
    assert_eq!(reason, PauseReason::Exception);
    assert!(
        desc.as_deref()
            .unwrap()
            .contains("Call to undefined function undefined_function_xyz()"),
        "{desc:?}"
    );
    assert_eq!(h.top(&s.id).await.line, Some(3));
    // Uncaught, it becomes PHP's fatal error: a second stop that says so.
    let (reason, _, desc) = h.go(&s.id, ControlOp::Resume).await;
    assert_eq!(reason, PauseReason::Exception);
    assert!(
        desc.as_deref()
            .unwrap()
            .starts_with("Fatal error: Uncaught Error: Call to undefined function"),
        "{desc:?}"
    );
    let code = h.finish(&s.id).await;
    assert_eq!(code, Some(255), "a fatal error ends PHP with 255");
    assert!(h.output().contains("Uncaught Error"), "{}", h.output());

    // An exception breakpoint on one class only.
    let e =
        h.b.add_exception_breakpoint(
            &h.root,
            ExceptionBreakpointSpec {
                exception: "DomainException".into(),
                caught: true,
                uncaught: true,
                enabled: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(e.exception.as_deref(), Some("DomainException"));
    h.launch("php fail.php", false, false).await;
    assert_eq!(h.paused().await.0, PauseReason::Exception);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn entry_stop_and_a_script_that_ends_before_any_breakpoint() {
    let mut h = H::new("entry");
    let s = h.launch("php quick.php", true, false).await;
    assert_eq!(h.paused().await.0, PauseReason::Entry);
    assert_eq!(h.top(&s.id).await.line, Some(2));
    assert_eq!(h.finish(&s.id).await, Some(0));
    // No breakpoint: it runs to its end; the output is still there.
    h.seen.clear();
    let s = h.launch("php quick.php", false, false).await;
    assert_eq!(h.stopped().await, Some(0));
    assert!(h.output().contains("quick done"));
    assert_eq!(
        h.b.sessions(&h.root)
            .await
            .unwrap()
            .iter()
            .find(|x| x.id == s.id)
            .unwrap()
            .state,
        SessionState::Stopped
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn busy_port_falls_back_and_bad_triggers_are_explained() {
    let h = H::new("port");
    // Occupy the first port of this test's range: the next one is used and handed over.
    let first = NEXT_PORT.fetch_add(8, Ordering::SeqCst);
    h.b.set_port(first);
    let _busy = std::net::TcpListener::bind(("127.0.0.1", first)).unwrap();
    let s = h
        .launch(
            "php -r 'echo getenv(\"XDEBUG_CONFIG\"), \"\\n\";'",
            false,
            false,
        )
        .await;
    assert_eq!(h.b.port().await, Some(first + 1));
    let mut h = h;
    h.stopped().await;
    assert!(
        h.output().contains(&format!("client_port={}", first + 1)),
        "{}",
        h.output()
    );
    let _ = s;

    // A trigger that never connects: the timeout names the port and the settings.
    h.b.set_connect_timeout(Duration::from_millis(1500));
    let err = h.launch_err("sleep 30").await;
    let text = err.to_string();
    assert!(
        text.contains(&format!("127.0.0.1:{}", first + 1))
            && text.contains("xdebug.mode=debug")
            && text.contains("client_port"),
        "{text}"
    );
    // A trigger that exits without connecting says so, with its output.
    let err = h.launch_err("XDEBUG_MODE=off php quick.php").await;
    // XDEBUG_MODE is set by us after the command's own assignment? No: the command's own wins.
    let text = err.to_string();
    assert!(
        text.contains("exited with code 0 before Xdebug connected") && text.contains("quick done"),
        "{text}"
    );
    // php without Xdebug: how to get it.
    let dir = h.dir.join("bin");
    std::fs::create_dir_all(&dir).unwrap();
    let fake = dir.join("php");
    std::fs::write(&fake, "#!/bin/sh\nexec php -n \"$@\"\n").unwrap();
    std::os::unix::fs::PermissionsExt::set_mode(
        &mut std::fs::metadata(&fake).unwrap().permissions(),
        0o755,
    );
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let err = h.launch_err(&format!("{} quick.php", fake.display())).await;
    let text = err.to_string();
    assert!(
        text.contains("Xdebug is not loaded") && text.contains("apt-get install php-xdebug"),
        "{text}"
    );
    let err = h.launch_err("/nonexistent/php quick.php").await;
    assert!(
        err.to_string().contains("not found") && err.to_string().contains("php-cli"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn step_out_shows_the_result_and_superglobals_are_readable() {
    let mut h = H::new("ret");
    let (s, bp) = h.start_at("app.php", 3).await;
    h.b.remove_breakpoint(&h.root, &bp.id).await.unwrap();
    // Superglobals (Xdebug's context 1) read by path, and listed as globals.
    let argv =
        h.b.evaluate(
            &s.id,
            EvalRequest {
                thread_id: "1".into(),
                frame: "0".into(),
                expression: "$_SERVER['argv'][0]".into(),
                context: EvalContext::Watch,
                allow_side_effects: false,
                format: None,
            },
        )
        .await
        .unwrap();
    assert_eq!(argv.value, "\"app.php\"");
    let vars = h.b.frame_variables(&s.id, "0").await.unwrap();
    let server = vars
        .iter()
        .find(|v| v.name == "$_SERVER")
        .expect("$_SERVER listed");
    assert_eq!(server.scope, ValueScope::Global);
    assert!(
        vars.iter()
            .any(|v| v.name == "$items" && v.scope == ValueScope::Local)
    );
    // The step out stops where total() returned, with what it returned.
    let (reason, ids, _) = h.go(&s.id, ControlOp::STEP_OUT).await;
    assert_eq!((reason, ids), (PauseReason::Step, vec![]));
    assert_eq!(h.var(&s.id, "0", "(return)").await.value, "27");
    assert_eq!(h.top(&s.id).await.line, Some(20));
    // The next step lands in the caller, past the assignment.
    h.go(&s.id, ControlOp::STEP_OVER).await;
    assert_eq!(h.var(&s.id, "0", "$t").await.value, "27");
    h.finish(&s.id).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn updating_a_breakpoint_keeps_xdebugs_hit_count() {
    let mut h = H::new("upd");
    let (s, bp) = h.start_at("app.php", 5).await;
    assert_eq!(h.var(&s.id, "0", "$i").await.value, "0", "1st hit");
    // Stop at the 3rd hit counted from the start: Xdebug's count (1 so far) must survive.
    let update = BreakpointUpdate {
        hit_condition: Some("3".into()),
        ..Default::default()
    };
    h.b.update_breakpoint(&h.root, &bp.id, update)
        .await
        .unwrap();
    assert_eq!(h.go(&s.id, ControlOp::Resume).await.1, vec![bp.id.clone()]);
    assert_eq!(h.var(&s.id, "0", "$i").await.value, "2", "3rd hit");
    // Disabled and enabled again: still the same Xdebug breakpoint, still counted.
    for enabled in [false, true] {
        let update = BreakpointUpdate {
            enabled: Some(enabled),
            hit_condition: Some(">= 1".into()),
            ..Default::default()
        };
        h.b.update_breakpoint(&h.root, &bp.id, update)
            .await
            .unwrap();
    }
    h.finish(&s.id).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn step_out_of_a_recursive_call_stops_at_its_own_return() {
    let mut h = H::new("rec");
    let (s, bp) = h.start_at("fact.php", 4).await;
    h.go(&s.id, ControlOp::Resume).await;
    assert_eq!(h.var(&s.id, "0", "$n").await.value, "2");
    h.b.remove_breakpoint(&h.root, &bp.id).await.unwrap();
    // fact(1) returns first, deeper: not this call's return. fact(2) returns 2.
    assert_eq!(h.go(&s.id, ControlOp::STEP_OUT).await.0, PauseReason::Step);
    assert_eq!(h.var(&s.id, "0", "(return)").await.value, "2");
    // The stop is the caller's: fact(3) at its call, over {main} (the returned fact(2) is gone
    // from the listing), and the caller's frame shows what the call returned.
    let page = h.b.frames(&s.id, "1", 0, 20).await.unwrap();
    assert_eq!(page.total, Some(2));
    assert_eq!(page.frames[0].method_name.as_deref(), Some("fact"));
    assert_eq!(page.frames[0].handle, "1");
    assert_eq!(h.var(&s.id, "1", "(return)").await.value, "2");
    assert_eq!(h.var(&s.id, "1", "$n").await.value, "3");
    // From a return stop, out of the caller: fact(3) returns 6.
    assert_eq!(h.go(&s.id, ControlOp::STEP_OUT).await.0, PauseReason::Step);
    assert_eq!(h.var(&s.id, "0", "(return)").await.value, "6");
    h.finish(&s.id).await;
    assert!(h.output().contains('6'), "{}", h.output());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_step_over_a_throw_stops_where_it_is_raised_once() {
    let mut h = H::new("stepexc");
    let (s, _) = h.start_at("fail.php", 10).await;
    assert_eq!(
        h.over_to_exception(&s.id).await,
        "the step ended in an exception: DomainException: n too large: 5; raised here (fail.php:4). Step again to see whether a handler catches it, a caller gets it or the program ends"
    );
    assert_eq!(h.top(&s.id).await.line, Some(4));
    // Nothing catches it: the next step ends the script as PHP's fatal error.
    h.b.control(&s.id, None, ControlOp::STEP_OVER)
        .await
        .unwrap();
    assert_eq!(h.stopped().await, Some(255));
    let out = h.output();
    assert!(out.contains("Uncaught DomainException"), "{out}");

    // The `panic` preset's own breakpoint (`*`) already stops every throw: the step stops there
    // once, and the next step shows that breakpoint's fatal-error stop, as a run would.
    let s = h.launch("php fail.php", false, true).await;
    h.paused().await;
    let d = h.over_to_exception(&s.id).await;
    assert!(
        d.starts_with("the step ended in an exception: DomainException: n too large: 5;"),
        "{d}"
    );
    let d = h.over_to_exception(&s.id).await;
    assert!(
        d.starts_with("Fatal error: Uncaught DomainException"),
        "{d}"
    );
    assert_eq!(h.finish(&s.id).await, Some(255));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exception_breakpoint_turned_off_stops_nothing() {
    let mut h = H::new("excoff");
    let spec = ExceptionBreakpointSpec {
        exception: "DomainException".into(),
        enabled: true,
        ..Default::default()
    };
    let e = h.b.add_exception_breakpoint(&h.root, spec).await.unwrap();
    let (s, _) = h.start_at("fail.php", 9).await;
    let off = BreakpointUpdate {
        enabled: Some(false),
        ..Default::default()
    };
    h.b.update_breakpoint(&h.root, &e.id, off).await.unwrap();
    // check(5) throws: no stop, PHP's fatal error ends the script.
    assert_eq!(h.finish(&s.id).await, Some(255));
    // Turned on again, it stops the next run.
    let on = BreakpointUpdate {
        enabled: Some(true),
        ..Default::default()
    };
    h.b.update_breakpoint(&h.root, &e.id, on).await.unwrap();
    let s = h.launch("php fail.php", false, false).await;
    assert_eq!(h.paused().await.0, PauseReason::Breakpoint);
    let (reason, _, desc) = h.go(&s.id, ControlOp::Resume).await;
    assert_eq!(reason, PauseReason::Exception, "{desc:?}");
}
