//! Breakpoints are project-level (like an IDE's): stored here before any session exists
//! ("pending"), sent to every live session, re-sent at each session's configuration phase,
//! and updated from what each adapter bound. DAP replaces breakpoints per file, so a change
//! re-sends its file's list.

use crate::adapters::{self, ExceptionClass};
use crate::protocol::{
    self, BreakpointsResponse, DataBreakpoint, DataBreakpointInfoArguments, ExceptionFilterOptions,
    SetBreakpointsArguments, SetDataBreakpointsArguments, SetExceptionBreakpointsArguments,
    SourceArgument, SourceBreakpoint,
};
use crate::session::{Inner, Session};
use debugger_mcp_core::backend::*;
use std::collections::BTreeSet;

pub const PENDING_MESSAGE: &str = "pending: binds when a session starts";

/// Temporary changes to what is sent for the stretch until the next stop (run-to-line,
/// step over ignoring breakpoints).
#[derive(Default, Clone)]
pub struct Override {
    /// A run-to location (file, line).
    pub temp: Option<(String, u32)>,
    /// No breakpoints of the user's.
    pub suppress: bool,
}

/// A name that can only mean an exception class (`KeyError`, `pkg.errors.MyError`), not a
/// filter id with spaces or punctuation.
fn is_class_name(name: &str) -> bool {
    name.split('.').all(|part| {
        let mut chars = part.chars();
        chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
            && chars.all(|c| c.is_alphanumeric() || c == '_')
    })
}

/// An exception breakpoint that means "any exception" (IDE style: a base class or "*").
fn is_catch_all(exception: &str) -> bool {
    matches!(exception, "*" | "any" | "Exception" | "BaseException" | "")
}

impl Inner {
    /// The stored breakpoint `id` as it is now (after syncs updated its binding).
    pub fn breakpoint(&self, id: &str) -> BackendResult<BreakpointInfo> {
        self.bps.lock().unwrap().get(id)
    }

    pub fn update_bp(&self, id: &str, f: impl FnOnce(&mut BreakpointInfo)) {
        let changed = self.bps.lock().unwrap().update(id, f);
        if let Some((bp, true)) = changed {
            self.emit(BackendEvent::BreakpointChanged { breakpoint: bp });
        }
    }

    /// Marks the enabled breakpoints whose condition is `condition` as never stopping: the
    /// adapter said the condition fails to evaluate (and takes it as false).
    pub fn condition_failed(&self, condition: &str) {
        let ids: Vec<String> = self
            .bps
            .lock()
            .unwrap()
            .list
            .iter()
            .filter(|b| b.enabled && b.condition.as_deref().map(str::trim) == Some(condition))
            .map(|b| b.id.clone())
            .collect();
        for id in ids {
            self.update_bp(&id, |b| {
                b.message = Some(format!(
                    "its condition `{condition}` {CONDITION_FAILS}, so it never stops: fix the condition"
                ))
            });
        }
    }

    pub async fn add_line_breakpoint(
        &self,
        spec: LineBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        if spec.line == 0 {
            return Err(BackendError::Failed("line numbers are 1-based".into()));
        }
        let file = self.absolute(&spec.file);
        if !file.is_file() {
            return Err(BackendError::NotFound(format!("file '{}'", file.display())));
        }
        let file = file.display().to_string();
        let id = self
            .bps
            .lock()
            .unwrap()
            .put_line(&file, spec, PENDING_MESSAGE);
        if let Err(e) = self
            .sync_everywhere(BreakpointKind::Line, Some(&file))
            .await
        {
            // The breakpoint is stored either way (a later session may bind it); say why the
            // running one did not take it.
            self.update_bp(&id, |b| {
                b.verified = false;
                b.message = Some(format!("the debugger refused it: {e}"));
            });
        }
        self.breakpoint(&id)
    }

    pub async fn add_exception_breakpoint(
        &self,
        spec: ExceptionBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        // Validate against what the adapters offer, once known.
        let live = self.live_sessions().first().cloned();
        let (known, classes) = match &live {
            Some(s) => (s.filters(), s.takes_exception_classes()),
            None => (
                self.known_filters.lock().unwrap().clone(),
                self.known_takes_classes
                    .load(std::sync::atomic::Ordering::Relaxed),
            ),
        };
        // With no session live, the next one may run another adapter than those seen so far
        // (a project with C++ under lldb-dap and C under gdb): a filter an adapter is known to
        // offer waits for a session of it, and its message says which.
        let awaits = live
            .is_none()
            .then(|| adapters::offering_filter(&spec.exception))
            .flatten()
            .filter(|_| !known.iter().any(|f| f.id == spec.exception));
        let accepted = known.is_empty()
            || is_catch_all(&spec.exception)
            || known.iter().any(|f| f.id == spec.exception)
            || (classes && is_class_name(&spec.exception))
            || awaits.is_some();
        if !accepted {
            return Err(BackendError::Unsupported(format!(
                "exception breakpoint '{}' is not offered by the debug adapter; it takes {}{}",
                spec.exception,
                if classes {
                    "a class name (KeyError, pkg.MyError) or one of these filters: "
                } else {
                    "no class names (debugpy and the IDE do), only these filters: "
                },
                known
                    .iter()
                    .map(|f| format!("{} ({})", f.id, f.label))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        let id = self.bps.lock().unwrap().insert(BreakpointInfo {
            kind: BreakpointKind::Exception,
            verified: false,
            message: Some(match awaits {
                Some(a) => format!("binds when a {} session starts (its filter)", a.name()),
                None => PENDING_MESSAGE.into(),
            }),
            enabled: spec.enabled,
            condition: spec.condition.filter(|c| !c.is_empty()),
            suspend_policy: spec.suspend_policy,
            exception: Some(spec.exception.clone()),
            caught: Some(spec.caught),
            uncaught: Some(spec.uncaught),
            ..Default::default()
        });
        self.sync_everywhere(BreakpointKind::Exception, None)
            .await?;
        self.breakpoint(&id)
    }

    /// A watchpoint in session `spec.session_id`: `dataBreakpointInfo` resolves the expression in
    /// the paused frame, then the session's whole data breakpoint list is sent (DAP replaces it).
    pub async fn add_data_breakpoint(
        &self,
        spec: DataBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        let s = self.live(&spec.session_id)?;
        if !s.cap(|c| c.supports_data_breakpoints)
            && let Some(cmd) = s.adapter.watch_command(
                &spec.expression,
                spec.access,
                spec.condition.as_deref().filter(|c| !c.is_empty()),
            )
        {
            return self.add_cli_watch(&s, spec, cmd).await;
        }
        if !s.cap(|c| c.supports_data_breakpoints) {
            return Err(BackendError::Unsupported(format!(
                "the {} adapter offers no data breakpoints (watchpoints)",
                s.adapter.name()
            )));
        }
        s.require_paused()?;
        let frame_id = crate::values::parse_handle(&spec.frame, "frame")?;
        let info = s
            .req::<protocol::DataBreakpointInfo>(&DataBreakpointInfoArguments {
                name: s.adapter.data_breakpoint_name(&spec.expression),
                frame_id,
            })
            .await?;
        let Some(data_id) = info.data_id else {
            return Err(BackendError::Failed(format!(
                "'{}' cannot be watched: {}",
                spec.expression,
                if info.description.is_empty() {
                    "the debugger names no memory for it"
                } else {
                    &info.description
                }
            )));
        };
        let nonempty = |c: &Option<String>| c.clone().filter(|c| !c.is_empty());
        let dap = DataBreakpoint {
            data_id,
            access_type: match spec.access {
                DataAccess::Write => "write",
                DataAccess::Read => "read",
                DataAccess::ReadWrite => "readWrite",
            }
            .into(),
            condition: nonempty(&spec.condition),
            hit_condition: nonempty(&spec.hit_condition),
        };
        let id = self.bps.lock().unwrap().insert(BreakpointInfo {
            kind: BreakpointKind::Data,
            verified: false,
            message: Some(format!("watching {}", info.description)),
            enabled: true,
            condition: dap.condition.clone(),
            hit_condition: dap.hit_condition.clone(),
            watch: Some(spec.expression.clone()),
            access: Some(spec.access),
            ..Default::default()
        });
        s.data_bps.lock().unwrap().push((id.clone(), dap));
        if let Err(e) = self.sync_data(&s).await {
            s.data_bps.lock().unwrap().retain(|(i, _)| *i != id);
            self.bps.lock().unwrap().list.retain(|b| b.id != id);
            return Err(e);
        }
        self.breakpoint(&id)
    }

    /// A watchpoint set with the debugger's own command (gdb's `watch` through its repl); its
    /// `data_id` is `cli:N`, N its number (= DAP id). Enabled, disabled, deleted by command too.
    async fn add_cli_watch(
        &self,
        s: &Session,
        spec: DataBreakpointSpec,
        cmd: String,
    ) -> BackendResult<BreakpointInfo> {
        s.require_paused()?;
        let frame_id = crate::values::parse_handle(&spec.frame, "frame")?;
        let said = s.repl(&cmd, Some(frame_id)).await?;
        let Some(n) = s.adapter.watch_number(&said) else {
            return Err(BackendError::Failed(format!(
                "'{}' cannot be watched: {}",
                spec.expression,
                said.trim()
            )));
        };
        let id = self.bps.lock().unwrap().insert(BreakpointInfo {
            kind: BreakpointKind::Data,
            verified: true,
            message: None,
            enabled: true,
            condition: spec.condition.clone().filter(|c| !c.is_empty()),
            watch: Some(spec.expression.clone()),
            access: Some(spec.access),
            ..Default::default()
        });
        s.bp_ids.lock().unwrap().insert(n, id.clone());
        s.data_bps.lock().unwrap().push((
            id.clone(),
            DataBreakpoint {
                data_id: format!("cli:{n}"),
                ..Default::default()
            },
        ));
        self.breakpoint(&id)
    }

    /// Sends a session's enabled watchpoints (the whole list: DAP replaces it).
    pub async fn sync_data(&self, s: &Session) -> BackendResult<()> {
        let enabled: Vec<String> = self
            .bps
            .lock()
            .unwrap()
            .enabled(BreakpointKind::Data)
            .into_iter()
            .map(|b| b.id)
            .collect();
        let mine: Vec<(String, DataBreakpoint)> = s
            .data_bps
            .lock()
            .unwrap()
            .iter()
            .filter(|(id, _)| enabled.contains(id))
            .cloned()
            .collect();
        if mine.is_empty() && s.data_bps.lock().unwrap().is_empty() {
            return Ok(());
        }
        if !s.cap(|c| c.supports_data_breakpoints) {
            // Command-set watchpoints: enable what is enabled, disable the rest.
            let all = s.data_bps.lock().unwrap().clone();
            for (id, d) in all {
                let Some(n) = d.data_id.strip_prefix("cli:") else {
                    continue;
                };
                let on = enabled.contains(&id);
                s.repl(
                    &format!("{} {n}", if on { "enable" } else { "disable" }),
                    None,
                )
                .await?;
            }
            return Ok(());
        }
        let args = SetDataBreakpointsArguments {
            breakpoints: mine.iter().map(|(_, d)| d.clone()).collect(),
        };
        let BreakpointsResponse { breakpoints } =
            s.req::<protocol::SetDataBreakpoints>(&args).await?;
        for (r, (id, _)) in breakpoints.iter().zip(&mine) {
            if let Some(d) = r.id {
                s.bp_ids.lock().unwrap().insert(d, id.clone());
            }
            let message = r.message.clone();
            self.update_bp(id, |bp| {
                bp.verified = r.verified;
                bp.message = if r.verified {
                    None
                } else {
                    message.or(Some("not bound".into()))
                };
            });
        }
        Ok(())
    }

    pub async fn update_breakpoint(
        &self,
        id: &str,
        update: BreakpointUpdate,
    ) -> BackendResult<BreakpointInfo> {
        let (kind, file) = {
            let mut store = self.bps.lock().unwrap();
            let bp = store.apply(id, update)?;
            if !bp.enabled {
                bp.verified = false;
                bp.message = Some("disabled".into());
            } else if bp.message.as_deref() == Some("disabled") {
                bp.message = Some(PENDING_MESSAGE.into());
            }
            (bp.kind, bp.file.clone())
        };
        self.sync_everywhere(kind, file.as_deref()).await?;
        self.breakpoint(id)
    }

    pub async fn remove_breakpoint(&self, id: &str) -> BackendResult<()> {
        let removed = {
            let mut store = self.bps.lock().unwrap();
            store.remove(id)?
        };
        for s in self.live_sessions() {
            s.bp_ids.lock().unwrap().retain(|_, v| v != id);
            let cli: Vec<String> = s
                .data_bps
                .lock()
                .unwrap()
                .iter()
                .filter(|(i, _)| i == id)
                .filter_map(|(_, d)| d.data_id.strip_prefix("cli:").map(str::to_string))
                .collect();
            for n in cli {
                let _ = s.repl(&format!("delete {n}"), None).await;
            }
            s.data_bps.lock().unwrap().retain(|(i, _)| i != id);
        }
        self.emit(BackendEvent::BreakpointRemoved { id: id.to_string() });
        self.sync_everywhere(removed.kind, removed.file.as_deref())
            .await
    }

    /// Sends the full breakpoint list of one file to one session (DAP replaces per file).
    pub async fn sync_file(&self, s: &Session, file: &str) -> BackendResult<()> {
        if s.mode == LaunchMode::Run {
            return Ok(());
        }
        let ov = s.override_.lock().unwrap().clone().unwrap_or_default();
        let bps: Vec<BreakpointInfo> = if ov.suppress {
            vec![]
        } else {
            self.bps
                .lock()
                .unwrap()
                .list
                .iter()
                .filter(|b| {
                    b.kind == BreakpointKind::Line && b.enabled && b.file.as_deref() == Some(file)
                })
                .cloned()
                .collect()
        };
        let nonempty = |c: &Option<String>| c.clone().filter(|c| !c.is_empty());
        let mut dap: Vec<SourceBreakpoint> = bps
            .iter()
            .map(|b| SourceBreakpoint {
                line: b.requested_line.unwrap_or(1),
                condition: nonempty(&b.condition).map(|c| s.adapter.condition(file, c)),
                hit_condition: nonempty(&b.hit_condition).map(|c| s.adapter.hit_condition(&c)),
                log_message: nonempty(&b.log_message),
            })
            .collect();
        let temp_index = match &ov.temp {
            Some((f, line))
                if f == file && !bps.iter().any(|b| b.requested_line == Some(*line)) =>
            {
                dap.push(SourceBreakpoint {
                    line: *line,
                    ..Default::default()
                });
                Some(dap.len() - 1)
            }
            _ => None,
        };
        let args = SetBreakpointsArguments {
            source: SourceArgument {
                path: s.remote_path(file),
            },
            breakpoints: dap,
            source_modified: false,
        };
        let BreakpointsResponse { breakpoints } = s.req::<protocol::SetBreakpoints>(&args).await?;
        for (i, r) in breakpoints.iter().enumerate() {
            if Some(i) == temp_index {
                if let Some(d) = r.id {
                    s.temp_ids.lock().unwrap().insert(d);
                }
                continue;
            }
            let Some(bp) = bps.get(i) else { continue };
            if let Some(d) = r.id {
                s.bp_ids.lock().unwrap().insert(d, bp.id.clone());
            }
            self.apply_dap_bp(&bp.id, r);
        }
        Ok(())
    }

    /// Applies a DAP Breakpoint (response or event) to our breakpoint.
    pub fn apply_dap_bp(&self, id: &str, r: &protocol::Breakpoint) {
        let line = r.line.map(|l| l as u32);
        let message = r.message.clone().or_else(|| r.reason.clone());
        self.update_bp(id, |bp| {
            bp.verified = r.verified;
            if line.is_some() {
                bp.line = line;
            }
            bp.message = if r.verified {
                None
            } else {
                message.or(Some("not bound yet".into()))
            };
        });
    }

    pub fn bp_files(&self) -> Vec<String> {
        let set: BTreeSet<String> = self
            .bps
            .lock()
            .unwrap()
            .list
            .iter()
            .filter(|b| b.kind == BreakpointKind::Line)
            .filter_map(|b| b.file.clone())
            .collect();
        set.into_iter().collect()
    }

    /// Sends one breakpoint's file list (or the exception filters) to every live session.
    /// Every session is tried; a session that ended meanwhile is no error.
    async fn sync_everywhere(&self, kind: BreakpointKind, file: Option<&str>) -> BackendResult<()> {
        let mut first_err = None;
        for s in self.live_sessions() {
            let r = match (kind, file) {
                (BreakpointKind::Line, Some(f)) => self.sync_file(&s, f).await,
                (BreakpointKind::Data, _) => self.sync_data(&s).await,
                (BreakpointKind::Function, _) => self.sync_functions(&s, None).await,
                _ => self.sync_exceptions(&s).await,
            };
            if let Err(e) = r
                && !s.is_ended()
                && first_err.is_none()
            {
                first_err = Some(e);
            }
        }
        first_err.map_or(Ok(()), Err)
    }

    /// Every file's breakpoints (and a run-to location's file) to one session.
    pub async fn sync_all_lines(&self, s: &Session) -> BackendResult<()> {
        let mut files = self.bp_files();
        if let Some((f, _)) = s
            .override_
            .lock()
            .unwrap()
            .as_ref()
            .and_then(|o| o.temp.clone())
            && !files.contains(&f)
        {
            files.push(f);
        }
        for f in files {
            self.sync_file(s, &f).await?;
        }
        // Function breakpoints go with the lines (ignore_breakpoints suppresses them too).
        if self.has_function_bps() {
            self.sync_functions(s, None).await?;
        }
        Ok(())
    }

    pub async fn sync_exceptions(&self, s: &Session) -> BackendResult<()> {
        if s.mode == LaunchMode::Run {
            return Ok(());
        }
        let bps = self.bps.lock().unwrap().enabled(BreakpointKind::Exception);
        let offered: Vec<String> = s.filters().into_iter().map(|f| f.id).collect();
        // `stop_on_exception`: the adapter's filters for uncaught exceptions, among those offered.
        let mut filters: Vec<String> = if s.stop_on_exception {
            s.adapter
                .stop_on_exception_filters()
                .iter()
                .filter(|w| offered.iter().any(|o| o == *w))
                .map(|w| w.to_string())
                .collect()
        } else {
            vec![]
        };
        let mut options: Vec<ExceptionFilterOptions> = Vec::new();
        let with_options = s.cap(|c| c.supports_exception_filter_options);
        let mut classes: Vec<ExceptionClass> = Vec::new();
        for bp in &bps {
            let ids = filter_ids_for(s, &offered, bp);
            let name = bp.exception.clone().unwrap_or_default();
            if ids.is_empty() && s.takes_exception_classes() && is_class_name(&name) {
                classes.push(ExceptionClass {
                    name,
                    caught: bp.caught != Some(false),
                    uncaught: bp.uncaught != Some(false),
                });
                let ignored = bp.condition.as_ref().is_some_and(|c| !c.is_empty());
                self.update_bp(&bp.id, |b| {
                    b.verified = true;
                    b.message = ignored.then(|| {
                        format!(
                            "the condition is not applied: {} takes none on exception classes",
                            s.adapter.name()
                        )
                    });
                });
                continue;
            }
            if ids.is_empty() {
                self.update_bp(&bp.id, |b| {
                    b.verified = false;
                    b.message = Some(format!(
                        "the {} adapter offers no exception filter '{}' (offered: {})",
                        s.adapter.name(),
                        b.exception.clone().unwrap_or_default(),
                        offered.join(", ")
                    ));
                });
                continue;
            }
            for id in ids {
                match bp.condition.as_ref().filter(|c| !c.is_empty()) {
                    Some(c) if with_options => options.push(ExceptionFilterOptions {
                        filter_id: id,
                        condition: c.clone(),
                    }),
                    _ => {
                        if !filters.contains(&id) {
                            filters.push(id)
                        }
                    }
                }
            }
            self.update_bp(&bp.id, |b| {
                b.verified = true;
                b.message = None;
            });
        }
        if s.step_exceptions.load(std::sync::atomic::Ordering::SeqCst) {
            for f in s.adapter.step_exception_filters() {
                if offered.iter().any(|o| o == f) && !filters.iter().any(|x| x == f) {
                    filters.push(f.to_string());
                }
            }
        }
        let filter_options = (with_options && !options.is_empty()).then_some(options);
        let exception_options = if classes.is_empty() {
            None
        } else {
            s.adapter.exception_class_options(&filters, &classes)
        };
        let bound = s
            .req::<protocol::SetExceptionBreakpoints>(&SetExceptionBreakpointsArguments {
                filters,
                filter_options,
                exception_options,
            })
            .await?;
        // Adapters that bind exception filters as breakpoints (gdb's catchpoints) report a
        // throw as a stop at one of them: see `events::on_stopped`.
        *s.exception_bp_ids.lock().unwrap() =
            bound.breakpoints.iter().filter_map(|b| b.id).collect();
        Ok(())
    }

    /// After a session ended: breakpoints go back to pending when no session is left.
    pub fn after_session_end(&self) {
        if !self.live_sessions().is_empty() {
            return;
        }
        let ids: Vec<(String, BreakpointKind)> = self
            .bps
            .lock()
            .unwrap()
            .list
            .iter()
            .filter(|b| matches!(b.kind, BreakpointKind::Line | BreakpointKind::Function))
            .map(|b| (b.id.clone(), b.kind))
            .collect();
        for (id, kind) in ids {
            self.update_bp(&id, |b| {
                b.verified = false;
                if b.message
                    .as_deref()
                    .is_some_and(|m| m.contains(CONDITION_FAILS))
                {
                    return;
                }
                b.message = Some(if kind == BreakpointKind::Function {
                    crate::function_bps::PENDING_FUNCTION.into()
                } else {
                    PENDING_MESSAGE.into()
                });
            });
        }
    }

    /// At a stop: restores what run-to / ignore-breakpoints changed (before anyone can
    /// resume), drops the temporary breakpoints that were hit and counts the hits.
    pub async fn after_stop(&self, s: &Session, hit: &[String]) {
        if s.step_exceptions
            .swap(false, std::sync::atomic::Ordering::SeqCst)
        {
            let _ = self.sync_exceptions(s).await;
        }
        let ov = s.override_.lock().unwrap().take();
        if let Some(ov) = ov {
            s.temp_ids.lock().unwrap().clear();
            let mut files = if ov.suppress { self.bp_files() } else { vec![] };
            if let Some((f, _)) = ov.temp
                && !files.contains(&f)
            {
                files.push(f);
            }
            for f in files {
                let _ = self.sync_file(s, &f).await;
            }
        }
        let temporary: Vec<(String, Option<String>, BreakpointKind)> = {
            let store = self.bps.lock().unwrap();
            store
                .list
                .iter()
                .filter(|b| b.temporary && hit.contains(&b.id))
                .map(|b| (b.id.clone(), b.file.clone(), b.kind))
                .collect()
        };
        for (id, file, kind) in temporary {
            self.bps.lock().unwrap().list.retain(|b| b.id != id);
            self.emit(BackendEvent::BreakpointRemoved { id });
            if kind == BreakpointKind::Function {
                let _ = self.sync_functions(s, None).await;
            } else if let Some(f) = file {
                let _ = self.sync_file(s, &f).await;
            }
        }
        for id in hit {
            self.update_bp(id, |b| b.hit_count = Some(b.hit_count.unwrap_or(0) + 1));
        }
    }

    /// Whether output at `file:line` comes from a log point.
    pub fn is_log_point_at(&self, file: &str, line: u64) -> bool {
        let f = std::fs::canonicalize(file)
            .map(|p| p.display().to_string())
            .unwrap_or(file.to_string());
        let line = Some(line as u32);
        self.bps.lock().unwrap().list.iter().any(|bp| {
            bp.log_message.is_some()
                && bp.file.as_deref() == Some(f.as_str())
                && (bp.line == line || bp.requested_line == line)
        })
    }

    pub fn has_log_points(&self) -> bool {
        self.bps
            .lock()
            .unwrap()
            .list
            .iter()
            .any(|bp| bp.log_message.is_some())
    }
}

/// Maps one exception breakpoint to the filter ids (among `offered`) of this session's adapter.
fn filter_ids_for(s: &Session, offered: &[String], bp: &BreakpointInfo) -> Vec<String> {
    let ex = bp.exception.clone().unwrap_or_default();
    if offered.contains(&ex) {
        return vec![ex];
    }
    if is_catch_all(&ex) {
        let (caught, uncaught) = s.adapter.catch_all_filters();
        let mut out = BTreeSet::new();
        if bp.caught != Some(false) {
            out.extend(caught.iter().map(|x| x.to_string()));
        }
        if bp.uncaught != Some(false) {
            out.extend(uncaught.iter().map(|x| x.to_string()));
        }
        return out.into_iter().filter(|f| offered.contains(f)).collect();
    }
    vec![]
}
