//! The fake's [`Backend`] operations.

use crate::eval::{eval_expr, parse_literal};
use crate::program::*;
use crate::*;
use async_trait::async_trait;
use debugger_mcp_core::backend::*;
use std::collections::HashMap;
use std::sync::atomic::Ordering;

#[async_trait]
impl Backend for FakeBackend {
    async fn handshake(&self) -> BackendResult<BackendInfo> {
        self.enter("handshake".into()).await;
        Ok(BackendInfo {
            name: "fake".into(),
            table_version: TABLE_VERSION,
            can_confirm: self.can_confirm.load(Ordering::SeqCst),
            supports_set_value: true,
            supports_code_fragments: true,
            supports_exception_breakpoints: true,
            exception_filters: vec![
                ExceptionFilter {
                    id: "raised".into(),
                    label: "Raised Exceptions".into(),
                },
                ExceptionFilter {
                    id: "uncaught".into(),
                    label: "Uncaught Exceptions".into(),
                },
            ],
        })
    }

    async fn projects(&self) -> BackendResult<Vec<ProjectInfo>> {
        self.enter("projects".into()).await;
        Ok(self.projects.clone())
    }

    async fn run_configurations(&self, project: &str) -> BackendResult<Vec<RunConfigInfo>> {
        self.enter(format!("run_configurations {project}")).await;
        Ok(["main", "tests"]
            .into_iter()
            .map(|name| RunConfigInfo {
                name: name.into(),
                type_name: "debugpy".into(),
                type_id: "python".into(),
                can_run: true,
                can_debug: true,
                source: Some(".vscode/launch.json".into()),
                ..Default::default()
            })
            .collect())
    }

    fn launch_build_allowance(
        &self,
        _project: &str,
        _request: &LaunchRequest,
    ) -> std::time::Duration {
        self.launch_build
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .1
    }

    async fn launch(&self, project: &str, request: LaunchRequest) -> BackendResult<SessionInfo> {
        self.enter(format!(
            "launch {}",
            request
                .configuration
                .clone()
                .or(request.command.clone())
                .unwrap_or_default()
        ))
        .await;
        let took = self
            .launch_build
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .0;
        if !took.is_zero() {
            tokio::time::sleep(took).await;
        }
        let name = match (&request.configuration, &request.command) {
            (Some(c), _) if c == "main" || c == "tests" => c.clone(),
            (Some(c), _) => return Err(BackendError::NotFound(format!("run configuration '{c}'"))),
            (None, Some(cmd)) => cmd.clone(),
            (None, None) if request.attach.is_some() => "attach".into(),
            (None, None) => return Err(BackendError::Failed("nothing to launch".into())),
        };
        let mut events = Vec::new();
        let mut inner = self.lock();
        inner.next_session += 1;
        let id = format!("s{}", inner.next_session);
        let info = SessionInfo {
            id: id.clone(),
            name,
            state: SessionState::Running,
            run_configuration: request.configuration.clone(),
            process_id: Some(4000 + inner.next_session),
            mode: request.mode,
            attached: request.attach.is_some(),
            note: None,
        };
        events.push(BackendEvent::SessionStarted {
            session: info.clone(),
        });
        for bp in inner
            .breakpoints
            .values_mut()
            .filter(|b| b.project == project && b.info.kind == BreakpointKind::Line)
        {
            let before = bp.info.clone();
            Self::bind(bp);
            if bp.info != before {
                events.push(BackendEvent::BreakpointChanged {
                    breakpoint: bp.info.clone(),
                });
            }
        }
        inner.sessions.insert(
            id.clone(),
            FakeSession {
                info: info.clone(),
                project: project.to_string(),
                pc: 0,
                paused: false,
                idle: false,
                overrides: HashMap::new(),
                hits: HashMap::new(),
                evals: Vec::new(),
                pending_pauses: 0,
            },
        );
        if request.stop_on_entry && request.mode == LaunchMode::Debug {
            let s = inner.sessions.get_mut(&id).expect("just inserted");
            s.paused = true;
            s.info.state = SessionState::Paused;
            events.push(BackendEvent::Paused {
                session_id: id.clone(),
                thread_id: "1".into(),
                reason: PauseReason::Entry,
                breakpoint_ids: Vec::new(),
                description: None,
            });
        } else {
            let run = self.run(&mut inner, &id, Target::Resume, false, true);
            events.extend(run.into_iter().skip(1)); // no Resumed before the first stop
        }
        let info = inner.sessions[&id].info.clone();
        drop(inner);
        self.emit_all(events);
        Ok(info)
    }

    /// Like a headless backend: logged, then unsupported (the core falls back to a command).
    async fn debug_test(&self, project: &str, request: TestRequest) -> BackendResult<SessionInfo> {
        self.enter(format!("debug_test {project} {}", request.test_id))
            .await;
        Err(BackendError::Unsupported(
            "the fake backend has no test runner".into(),
        ))
    }

    async fn sessions(&self, project: &str) -> BackendResult<Vec<SessionInfo>> {
        self.enter(format!("sessions {project}")).await;
        Ok(self
            .lock()
            .sessions
            .values()
            .filter(|s| s.project == project && s.info.state != SessionState::Stopped)
            .map(|s| s.info.clone())
            .collect())
    }

    async fn stop(&self, session_id: &str) -> BackendResult<()> {
        self.enter(format!("stop {session_id}")).await;
        let mut inner = self.lock();
        let s = Self::session_mut(&mut inner, session_id)?;
        s.info.state = SessionState::Stopped;
        s.paused = false;
        let project = s.project.clone();
        let mut events = vec![BackendEvent::Stopped {
            session_id: session_id.into(),
            exit_code: Some(0),
        }];
        if !Self::project_has_session(&inner, &project) {
            for bp in inner
                .breakpoints
                .values_mut()
                .filter(|b| b.project == project && b.info.kind == BreakpointKind::Line)
            {
                bp.info.verified = false;
                bp.info.line = bp.info.requested_line;
                events.push(BackendEvent::BreakpointChanged {
                    breakpoint: bp.info.clone(),
                });
            }
        }
        drop(inner);
        self.emit_all(events);
        Ok(())
    }

    async fn breakpoints(&self, project: &str) -> BackendResult<Vec<BreakpointInfo>> {
        self.enter(format!("breakpoints {project}")).await;
        let inner = self.lock();
        Ok(inner
            .breakpoints
            .values()
            .filter(|b| b.project == project)
            .map(|b| {
                let mut info = b.info.clone();
                let hits: u64 = inner
                    .sessions
                    .values()
                    .filter_map(|s| s.hits.get(&info.id))
                    .sum();
                info.hit_count = Some(hits);
                info
            })
            .collect())
    }

    async fn add_line_breakpoint(
        &self,
        project: &str,
        spec: LineBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        self.enter(format!("add_line_breakpoint {}:{}", spec.file, spec.line))
            .await;
        let rel = self.rel_of(project, &spec.file);
        let mut inner = self.lock();
        inner.next_bp += 1;
        let id = inner.next_bp.to_string();
        let mut bp = FakeBp {
            project: project.into(),
            rel,
            info: BreakpointInfo {
                id: id.clone(),
                kind: BreakpointKind::Line,
                file: Some(spec.file.clone()),
                requested_line: Some(spec.line),
                line: Some(spec.line),
                verified: false,
                message: None,
                enabled: spec.enabled,
                condition: spec.condition,
                log_message: spec.log_message,
                hit_condition: spec.hit_condition,
                suspend_policy: spec.suspend_policy,
                temporary: spec.temporary,
                hit_count: Some(0),
                ..Default::default()
            },
        };
        if rel.is_none() {
            bp.info.message = Some(format!("{} is not part of the program", spec.file));
        } else if Self::project_has_session(&inner, project) {
            Self::bind(&mut bp);
        }
        let info = bp.info.clone();
        inner.breakpoints.insert(id, bp);
        // A breakpoint in the endless loop is hit at once by an idle session.
        let mut events = Vec::new();
        if info.verified && info.enabled {
            let idle: Vec<String> = inner
                .sessions
                .values()
                .filter(|s| {
                    s.project == project && s.idle && !s.paused && s.info.mode == LaunchMode::Debug
                })
                .map(|s| s.info.id.clone())
                .collect();
            for sid in idle {
                let target = self.program.states[self.program.loop_start..]
                    .iter()
                    .position(|st| Some(st.top().file) == rel && Some(st.top().line) == info.line);
                if let Some(offset) = target {
                    let s = inner.sessions.get_mut(&sid).expect("listed");
                    s.pc = self.program.loop_start + offset;
                    s.paused = true;
                    s.idle = false;
                    s.info.state = SessionState::Paused;
                    *s.hits.entry(info.id.clone()).or_insert(0) += 1;
                    events.push(BackendEvent::Paused {
                        session_id: sid,
                        thread_id: "1".into(),
                        reason: PauseReason::Breakpoint,
                        breakpoint_ids: vec![info.id.clone()],
                        description: None,
                    });
                }
            }
        }
        drop(inner);
        self.emit_all(events);
        Ok(info)
    }

    async fn add_exception_breakpoint(
        &self,
        project: &str,
        spec: ExceptionBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        self.enter(format!("add_exception_breakpoint {}", spec.exception))
            .await;
        let mut inner = self.lock();
        inner.next_bp += 1;
        let id = inner.next_bp.to_string();
        let info = BreakpointInfo {
            id: id.clone(),
            kind: BreakpointKind::Exception,
            verified: true,
            enabled: spec.enabled,
            condition: spec.condition,
            suspend_policy: spec.suspend_policy,
            exception: Some(spec.exception),
            caught: Some(spec.caught),
            uncaught: Some(spec.uncaught),
            hit_count: Some(0),
            ..Default::default()
        };
        inner.breakpoints.insert(
            id,
            FakeBp {
                project: project.into(),
                info: info.clone(),
                rel: None,
            },
        );
        Ok(info)
    }

    async fn update_breakpoint(
        &self,
        project: &str,
        id: &str,
        update: BreakpointUpdate,
    ) -> BackendResult<BreakpointInfo> {
        self.enter(format!("update_breakpoint {id}")).await;
        let mut inner = self.lock();
        let bp = inner
            .breakpoints
            .get_mut(id)
            .filter(|b| b.project == project)
            .ok_or_else(|| BackendError::NotFound(format!("breakpoint {id}")))?;
        let clear = |s: String| (!s.is_empty()).then_some(s);
        if let Some(e) = update.enabled {
            bp.info.enabled = e;
        }
        if let Some(c) = update.condition {
            bp.info.condition = clear(c);
        }
        if let Some(l) = update.log_message {
            bp.info.log_message = clear(l);
        }
        if let Some(h) = update.hit_condition {
            bp.info.hit_condition = clear(h);
        }
        if let Some(p) = update.suspend_policy {
            bp.info.suspend_policy = p;
        }
        if let Some(t) = update.temporary {
            bp.info.temporary = t;
        }
        Ok(bp.info.clone())
    }

    async fn remove_breakpoint(&self, project: &str, id: &str) -> BackendResult<()> {
        self.enter(format!("remove_breakpoint {id}")).await;
        let mut inner = self.lock();
        match inner.breakpoints.get(id) {
            Some(b) if b.project == project => {
                inner.breakpoints.remove(id);
                Ok(())
            }
            _ => Err(BackendError::NotFound(format!("breakpoint {id}"))),
        }
    }

    async fn control(
        &self,
        session_id: &str,
        thread_id: Option<&str>,
        op: ControlOp,
    ) -> BackendResult<()> {
        self.enter(format!("control {session_id} {op:?}")).await;
        let _ = thread_id;
        let mut inner = self.lock();
        let s = Self::session_mut(&mut inner, session_id)?;
        let depth = self.program.states[s.pc].frames.len();
        let paused = s.paused;
        let events = match op {
            ControlOp::Pause => {
                if paused {
                    return Err(BackendError::InvalidState(format!(
                        "session {session_id} is already paused"
                    )));
                }
                if !s.idle {
                    return Err(BackendError::InvalidState("program is starting".into()));
                }
                if self.late_pauses.load(Ordering::SeqCst) {
                    s.pending_pauses += 1;
                    return Ok(());
                }
                s.paused = true;
                s.idle = false;
                s.pc = self.program.loop_start + 2;
                s.info.state = SessionState::Paused;
                vec![BackendEvent::Paused {
                    session_id: session_id.into(),
                    thread_id: "1".into(),
                    reason: PauseReason::Pause,
                    breakpoint_ids: Vec::new(),
                    description: None,
                }]
            }
            _ if !paused => {
                return Err(BackendError::InvalidState(format!(
                    "session {session_id} is running"
                )));
            }
            ControlOp::Resume => self.run(&mut inner, session_id, Target::Resume, false, false),
            ControlOp::StepOver { ignore_breakpoints } => self.run(
                &mut inner,
                session_id,
                Target::Over(depth),
                ignore_breakpoints,
                false,
            ),
            ControlOp::StepInto { .. } => {
                self.run(&mut inner, session_id, Target::Into, false, false)
            }
            ControlOp::StepOut { .. } => {
                self.run(&mut inner, session_id, Target::Out(depth), false, false)
            }
            ControlOp::RunTo {
                file,
                line,
                ignore_breakpoints,
            } => {
                let project = s.project.clone();
                let rel = self.rel_of(&project, &file).ok_or_else(|| {
                    BackendError::NotFound(format!("{file} is not part of the program"))
                })?;
                self.run(
                    &mut inner,
                    session_id,
                    Target::RunTo(rel, line),
                    ignore_breakpoints,
                    false,
                )
            }
        };
        drop(inner);
        self.emit_all(events);
        Ok(())
    }

    async fn threads(&self, session_id: &str) -> BackendResult<Vec<ThreadInfo>> {
        self.enter(format!("threads {session_id}")).await;
        let mut inner = self.lock();
        let s = Self::session_mut(&mut inner, session_id)?;
        let state = if s.paused { "paused" } else { "running" };
        Ok(vec![
            ThreadInfo {
                id: "1".into(),
                name: "MainThread".into(),
                state: state.into(),
                group: Some("main".into()),
            },
            ThreadInfo {
                id: "2".into(),
                name: "worker".into(),
                state: "waiting".into(),
                group: Some("main".into()),
            },
        ])
    }

    async fn frames(
        &self,
        session_id: &str,
        thread_id: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<FramePage> {
        self.enter(format!("frames {session_id} {thread_id}")).await;
        let mut inner = self.lock();
        let s = Self::session_mut(&mut inner, session_id)?;
        if !s.paused {
            return Err(BackendError::InvalidState(format!(
                "session {session_id} is running"
            )));
        }
        let mut frames: Vec<FrameInfo> = match thread_id {
            "1" => self.program.states[s.pc]
                .frames
                .iter()
                .enumerate()
                .map(|(i, f)| FrameInfo {
                    index: i as u32,
                    handle: format!("{}:{i}", s.pc),
                    file: Some(Self::abs(&s.project, f.file)),
                    line: Some(f.line),
                    class_name: None,
                    method_name: Some(f.func.into()),
                    is_library: false,
                })
                .collect(),
            "2" => vec![],
            other => return Err(BackendError::NotFound(format!("thread {other}"))),
        };
        let n = frames.len() as u32;
        frames.push(FrameInfo {
            index: n,
            handle: "lib".into(),
            file: Some("/usr/lib/python3/runpy.py".into()),
            line: Some(86),
            class_name: None,
            method_name: Some("_run_code".into()),
            is_library: true,
        });
        let total = frames.len() as u32;
        let end = offset.saturating_add(limit);
        let folded = *self.folded.lock().unwrap_or_else(|e| e.into_inner());
        let hides = |d: u32| folded.is_some_and(|(from, n)| d >= from && d < from + n);
        let page = frames
            .into_iter()
            .filter(|f| f.index >= offset && f.index < end && !hides(f.index))
            .collect();
        let hidden = folded
            .filter(|&(from, n)| from < end && from + n > offset && from < total)
            .map(|(from, count)| HiddenFrames {
                ranges: vec![HiddenRange {
                    from_index: from,
                    count,
                }],
                reason: "library frames folded".into(),
            });
        Ok(FramePage {
            frames: page,
            total: Some(total),
            hidden,
        })
    }

    async fn select_frame(
        &self,
        session_id: &str,
        _thread_id: &str,
        frame: &str,
    ) -> BackendResult<()> {
        self.enter(format!("select_frame {session_id} {frame}"))
            .await;
        Ok(())
    }

    async fn frame_variables(
        &self,
        session_id: &str,
        frame: &str,
    ) -> BackendResult<Vec<ValueNode>> {
        self.enter(format!("frame_variables {session_id} {frame}"))
            .await;
        let mut inner = self.lock();
        let s = Self::session_mut(&mut inner, session_id)?;
        if frame == "lib" {
            return Ok(Vec::new());
        }
        let (pc, index) = frame
            .split_once(':')
            .and_then(|(p, i)| Some((p.parse::<usize>().ok()?, i.parse::<usize>().ok()?)))
            .ok_or_else(|| BackendError::NotFound(format!("frame {frame}")))?;
        if pc != s.pc || !s.paused {
            return Err(BackendError::NotFound(format!(
                "frame {frame} is no longer valid"
            )));
        }
        let vars = self
            .frame_vars(s, index)
            .ok_or_else(|| BackendError::NotFound(format!("frame {frame}")))?;
        Ok(vars
            .iter()
            .map(|(name, v, scope)| {
                self.node(
                    name.clone(),
                    v,
                    *scope,
                    &format!("{pc}:{index}:{name}"),
                    true,
                )
            })
            .collect())
    }

    async fn children(
        &self,
        session_id: &str,
        handle: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<ChildPage> {
        self.enter(format!("children {session_id} {handle}")).await;
        let mut inner = self.lock();
        let s = Self::session_mut(&mut inner, session_id)?;
        let body = handle
            .strip_prefix("c:")
            .ok_or_else(|| BackendError::NotFound(format!("handle {handle}")))?;
        let value = self.resolve(s, body)?;
        let kids = value.children();
        let total = kids.len() as u64;
        let settable = !body.starts_with('e');
        let children = kids
            .iter()
            .enumerate()
            .skip(offset as usize)
            .take(limit as usize)
            .map(|(i, (name, v))| {
                self.node(
                    name.clone(),
                    v,
                    ValueScope::Local,
                    &format!("{body}/{i}"),
                    settable,
                )
            })
            .collect();
        Ok(ChildPage {
            children,
            total: Some(total),
        })
    }

    async fn set_value(
        &self,
        session_id: &str,
        handle: &str,
        new_value: &str,
    ) -> BackendResult<ValueNode> {
        self.enter(format!("set_value {session_id} {handle}")).await;
        let mut inner = self.lock();
        let s = Self::session_mut(&mut inner, session_id)?;
        let body = handle
            .strip_prefix("s:")
            .ok_or_else(|| BackendError::NotFound(format!("handle {handle}")))?;
        let new = parse_literal(new_value)?;
        let mut parts = body.split('/');
        let head = parts.next().unwrap_or_default();
        let mut it = head.splitn(3, ':');
        let (pc, frame, var) = (it.next(), it.next(), it.next());
        let (Some(pc), Some(frame), Some(var)) = (pc, frame, var) else {
            return Err(BackendError::NotFound(format!("handle {handle}")));
        };
        let (pc, frame): (usize, usize) = (
            pc.parse().unwrap_or(usize::MAX),
            frame.parse().unwrap_or(usize::MAX),
        );
        if pc != s.pc || !s.paused {
            return Err(BackendError::NotFound(format!(
                "value handle {handle} is no longer valid"
            )));
        }
        let func = self.program.states[pc]
            .frames
            .get(frame)
            .map(|f| f.func.to_string())
            .unwrap_or_default();
        let vars = self
            .frame_vars(s, frame)
            .ok_or_else(|| BackendError::NotFound(format!("handle {handle}")))?;
        let mut root = vars
            .iter()
            .find(|(n, _, _)| n == var)
            .map(|(_, v, _)| v.clone())
            .ok_or_else(|| BackendError::NotFound(format!("variable {var}")))?;
        let mut slot = &mut root;
        for p in parts {
            let i: usize = p
                .parse()
                .map_err(|_| BackendError::NotFound(format!("handle {handle}")))?;
            slot = slot
                .child_mut(i)
                .ok_or_else(|| BackendError::NotFound(format!("handle {handle}")))?;
        }
        *slot = new.clone();
        s.overrides.insert((func, var.to_string()), root);
        Ok(self.node(var.to_string(), &new, ValueScope::Local, body, true))
    }

    async fn evaluate(&self, session_id: &str, request: EvalRequest) -> BackendResult<ValueNode> {
        self.enter(format!(
            "evaluate {session_id} {:?} {}",
            request.context, request.expression
        ))
        .await;
        let took = *self.evaluate_took.lock().unwrap_or_else(|e| e.into_inner());
        if !took.is_zero() {
            tokio::time::sleep(took).await;
        }
        let mut inner = self.lock();
        let s = Self::session_mut(&mut inner, session_id)?;
        if !s.paused {
            return Err(BackendError::InvalidState(format!(
                "session {session_id} is running"
            )));
        }
        let (pc, index) = request
            .frame
            .split_once(':')
            .and_then(|(p, i)| Some((p.parse::<usize>().ok()?, i.parse::<usize>().ok()?)))
            .ok_or_else(|| BackendError::NotFound(format!("frame {}", request.frame)))?;
        if pc != s.pc {
            return Err(BackendError::NotFound(format!(
                "frame {} is no longer valid",
                request.frame
            )));
        }
        let func = self.program.states[pc]
            .frames
            .get(index)
            .map(|f| f.func.to_string())
            .unwrap_or_default();
        let may_assign = request.allow_side_effects
            && matches!(
                request.context,
                EvalContext::Repl | EvalContext::CodeFragment
            );
        let mut result = FValue::None;
        for stmt in request
            .expression
            .split(['\n', ';'])
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let vars = self.frame_vars(s, index).unwrap_or_default();
            let assignment = stmt.split_once('=').filter(|(l, r)| {
                !r.starts_with('=')
                    && !l.ends_with(['!', '<', '>', '='])
                    && l.trim().chars().all(|c| c.is_alphanumeric() || c == '_')
            });
            if let Some((name, rhs)) = assignment {
                if !may_assign {
                    return Err(BackendError::Failed(
                        "SyntaxError: assignment is a side effect; not allowed here".into(),
                    ));
                }
                let v = eval_expr(rhs, &vars).map_err(BackendError::Failed)?;
                s.overrides
                    .insert((func.clone(), name.trim().to_string()), v);
                result = FValue::None;
            } else {
                let stmt = stmt.strip_prefix("return ").unwrap_or(stmt);
                result = eval_expr(stmt, &vars).map_err(BackendError::Failed)?;
            }
        }
        let n = s.evals.len();
        s.evals.push(result.clone());
        Ok(self.node(
            request.expression.clone(),
            &result,
            ValueScope::Local,
            &format!("e{n}"),
            false,
        ))
    }

    async fn read_source(&self, project: &str, path: &str) -> BackendResult<String> {
        self.enter(format!("read_source {path}")).await;
        match self.rel_of(project, path) {
            Some(rel) => Ok(Self::text_of(rel).to_string()),
            None => std::fs::read_to_string(path)
                .map_err(|e| BackendError::NotFound(format!("{path}: {e}"))),
        }
    }

    async fn confirm(&self, project: &str, request: ConfirmRequest) -> BackendResult<bool> {
        self.enter(format!("confirm {project} {}", request.title))
            .await;
        if self.can_confirm.load(Ordering::SeqCst) {
            Ok(self.confirm_answer.load(Ordering::SeqCst))
        } else {
            Err(BackendError::Unsupported("no user interface".into()))
        }
    }
}
