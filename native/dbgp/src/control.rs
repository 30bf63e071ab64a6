//! Running and stepping (Xdebug's continuation commands), the one thread a PHP request has,
//! and its stack.

use crate::protocol;
use crate::session::{Inner, Session};
use debugger_mcp_core::backend::*;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;

impl Inner {
    pub async fn control(self: &Arc<Self>, s: &Arc<Session>, op: ControlOp) -> BackendResult<()> {
        if op == ControlOp::Pause {
            if s.state() == SessionState::Paused {
                return Ok(());
            }
            return Err(BackendError::Unsupported(
                "Xdebug cannot interrupt a running script; set a breakpoint (or call xdebug_break() in the code) and wait for it".into(),
            ));
        }
        s.require_paused()?;
        let step = matches!(
            op,
            ControlOp::StepOver { .. } | ControlOp::StepInto { .. } | ControlOp::StepOut { .. }
        );
        // Not in the step after one that met an exception: that step follows the exception on
        // its way (to a catch, a caller, or the end), which would stop it again at each rethrow.
        if step && s.step_exception.lock().unwrap().is_none() {
            self.catch_in_step(s).await;
        }
        let command = match op {
            ControlOp::Resume => "run",
            ControlOp::StepOver { .. } => "step_over",
            ControlOp::StepInto { .. } => "step_into",
            ControlOp::StepOut { .. } => match self.arm_return(s).await {
                Some(_) => "run",
                None => "step_out",
            },
            ControlOp::RunTo { file, line, .. } => {
                let remote = s.pathmap.to_remote(Path::new(&file));
                s.req(
                    "breakpoint_set",
                    &[
                        ('t', "line".into()),
                        ('f', protocol::path_to_uri(&remote)),
                        ('n', line.to_string()),
                        ('r', "1".into()),
                    ],
                    None,
                )
                .await?;
                "run"
            }
            ControlOp::Pause => unreachable!(),
        };
        self.cont(s, command, false, true);
        Ok(())
    }
}

/// `Cart->add` / `App\\Cart::make` / `total` → `breakpoint_set -t return` arguments (`-m`, `-a`);
/// None for `{main}`, closures and includes, which a return breakpoint cannot name.
pub fn return_target(where_: &str) -> Option<Vec<(char, String)>> {
    if where_.is_empty() || where_.contains('{') || where_.contains(' ') {
        return None;
    }
    let mut args = vec![('t', "return".to_string())];
    match where_.split_once("->").or_else(|| where_.split_once("::")) {
        Some((class, method)) => {
            args.push(('m', method.to_string()));
            args.push(('a', class.to_string()));
        }
        None => args.push(('m', where_.to_string())),
    }
    args.push(('r', "1".into()));
    Some(args)
}

/// Xdebug names a method in the stack by the class that declares it (`Base->total`) but
/// matches a return breakpoint on the class of the object it runs on (`Child`): the step out
/// of an inherited method would run past its return. For a method called on an object the
/// class (`-a`) becomes the object's, asked of PHP (`get_class($this)`, no side effect); left
/// as it is for static methods and when PHP cannot tell.
async fn object_class(s: &Session, args: &mut [(char, String)]) {
    let Some(class) = args.iter_mut().find(|(k, _)| *k == 'a') else {
        return;
    };
    let Ok(r) = s.req("eval", &[], Some("get_class($this)")).await else {
        return;
    };
    if let Some(p) = r.root.child("property").map(crate::values::parse_prop)
        && p.type_name == "string"
        && !p.value.is_empty()
    {
        class.1 = p.value;
    }
}

impl Inner {
    /// A step out as "run to this function's return": a temporary return breakpoint on the
    /// function in frame 0, so the stop carries what it returned (`$__RETURN_VALUE`, shown as
    /// `(return)`) where Xdebug's own step_out shows nothing. None (plain step_out) when the
    /// frame is `{main}`, a closure or an include, or Xdebug refuses the breakpoint.
    async fn arm_return(&self, s: &Session) -> Option<()> {
        let r = s.req("stack_get", &[], None).await.ok()?;
        let frames: Vec<&protocol::Element> = r.root.all("stack").collect();
        // At a return stop frame 0 has already returned: the step out is out of its caller.
        let skip = usize::from(s.at_return.load(Ordering::SeqCst));
        let depth = frames.len().checked_sub(skip)?;
        let where_ = frames.get(skip)?.attr("where")?;
        let mut args = return_target(where_)?;
        if where_.contains("->") && skip == 0 {
            object_class(s, &mut args).await;
        }
        let set = s.req("breakpoint_set", &args, None).await.ok()?;
        let xid = set.attr("id")?.to_string();
        *s.step_out.lock().unwrap() = Some((args, depth, xid));
        Some(())
    }
}

/// The classes every PHP exception and error descends from. Xdebug matches an exception
/// breakpoint on the thrown class and its parents (not on interfaces such as `Throwable`), and
/// `*` would also stop at every warning and notice.
const STEP_CATCH: [&str; 2] = ["Exception", "Error"];

impl Inner {
    /// Exception breakpoints for the step about to run, so a step that throws stops where the
    /// exception is raised (Xdebug's step would land in a catch, a caller or the end, saying
    /// nothing). Xdebug keeps one exception breakpoint per class name: a name the user (or the
    /// `panic` preset) already has is left alone, since setting it again would replace theirs
    /// and removing ours would remove it; with `*` set, every throw stops already.
    async fn catch_in_step(&self, s: &Session) {
        let Ok(list) = s.req("breakpoint_list", &[], None).await else {
            return;
        };
        let taken: Vec<&str> = list
            .root
            .all("breakpoint")
            .filter(|b| b.attr("type") == Some("exception"))
            .filter_map(|b| b.attr("exception"))
            .collect();
        let mut ids = Vec::new();
        if !taken.contains(&"*") {
            for name in STEP_CATCH.iter().filter(|n| !taken.contains(n)) {
                let args = [('t', "exception".to_string()), ('x', name.to_string())];
                if let Ok(set) = s.req("breakpoint_set", &args, None).await
                    && let Some(id) = set.attr("id")
                {
                    ids.push(id.to_string());
                }
            }
        }
        *s.step_catch.lock().unwrap() = Some(ids);
    }
}

impl Session {
    pub async fn threads(&self) -> BackendResult<Vec<ThreadInfo>> {
        let state = match self.state() {
            SessionState::Paused => "paused",
            SessionState::Stopped => "ended",
            _ => "running",
        };
        Ok(vec![ThreadInfo {
            id: "1".into(),
            name: self.name.lock().unwrap().clone(),
            state: state.into(),
            group: None,
        }])
    }

    /// The stack as PHP names it: each frame's function as Xdebug's `where` gives it, PHP's own
    /// spelling (`Ns\\Class->method` for a call on an object, `Ns\\Class::method` static,
    /// `Ns\\func`, `{main}`), with its class apart for who wants it. At a return stop (a step
    /// out) Xdebug still lists the returned function first, at the caller's line: that frame
    /// has ended, so the listing starts at the caller, whose handle is its Xdebug depth and
    /// whose variables carry the returned value (see `frame_variables`).
    pub async fn frames(&self, offset: u32, limit: u32) -> BackendResult<FramePage> {
        let r = self.req("stack_get", &[], None).await?;
        let skip = u32::from(self.at_return.load(Ordering::SeqCst));
        let all: Vec<FrameInfo> = r
            .root
            .all("stack")
            .filter_map(|f| {
                let level: u32 = f.attr("level").and_then(|l| l.parse().ok()).unwrap_or(0);
                let index = level.checked_sub(skip)?;
                let where_ = f.attr("where").unwrap_or("").to_string();
                let class_name = where_
                    .split_once("->")
                    .or_else(|| where_.split_once("::"))
                    .map(|(c, _)| c.to_string());
                let file = f.attr("filename").and_then(|u| self.local_file(u));
                let is_library = file.as_deref().is_some_and(|p| {
                    p.contains("/vendor/") || !p.starts_with(&*self.root.to_string_lossy())
                });
                Some(FrameInfo {
                    index,
                    handle: level.to_string(),
                    file,
                    line: f.attr("lineno").and_then(|l| l.parse().ok()),
                    class_name,
                    method_name: Some(where_),
                    is_library,
                })
            })
            .collect();
        let total = all.len() as u32;
        Ok(FramePage {
            frames: all
                .into_iter()
                .skip(offset as usize)
                .take(limit as usize)
                .collect(),
            total: Some(total),
            hidden: None,
        })
    }
}
