//! Function breakpoints by name (DAP `setFunctionBreakpoints`): project-level like line
//! breakpoints (stored pending, sent to every session, re-sent at each configuration phase). The
//! adapter binds the name, so it reaches library functions and C++ overloads that the core's scan
//! of the project's sources cannot name. DAP replaces the whole list per request; the list also
//! carries the entry stop (`main`) of adapters that stop on entry that way.

use crate::protocol::{self, BreakpointsResponse, FunctionBreakpoint};
use crate::session::{Inner, Session};
use debugger_mcp_core::backend::*;

pub const PENDING_FUNCTION: &str = "pending: binds when a session loads it";

impl Inner {
    pub async fn add_function_breakpoint(
        &self,
        spec: FunctionBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        let name = spec.name.trim().to_string();
        if name.is_empty() {
            return Err(BackendError::Failed("field 'name': empty".into()));
        }
        let live: Vec<_> = self
            .live_sessions()
            .into_iter()
            .filter(|s| s.mode == LaunchMode::Debug)
            .collect();
        if let Some(s) = live.first()
            && let Some(why) = refusal(s)
        {
            return Err(BackendError::Unsupported(why));
        }
        let id = {
            let mut store = self.bps.lock().unwrap();
            // Re-setting a name updates its breakpoint.
            let id = store.id_for(|b| {
                b.kind == BreakpointKind::Function && b.function.as_deref() == Some(&name)
            });
            store.put(BreakpointInfo {
                id: id.clone(),
                kind: BreakpointKind::Function,
                verified: false,
                message: Some(PENDING_FUNCTION.into()),
                enabled: spec.enabled,
                condition: spec.condition.filter(|c| !c.is_empty()),
                hit_condition: spec.hit_condition.filter(|c| !c.is_empty()),
                temporary: spec.temporary,
                function: Some(name.clone()),
                ..Default::default()
            });
            id
        };
        let mut refused = None;
        for s in &live {
            if let Err(e) = self.sync_functions(s, None).await
                && !s.is_ended()
            {
                refused.get_or_insert(e);
            }
        }
        let bp = self.breakpoint(&id)?;
        if live.is_empty() || bp.verified || !spec.enabled {
            return Ok(bp);
        }
        // Every running debugger looked the name up and bound nothing: it names no function
        // of the program as loaded. Nothing is kept (a refused call changes nothing).
        let why = refused
            .map(|e| e.to_string())
            .or(bp.message.clone())
            .unwrap_or_default();
        self.bps.lock().unwrap().list.retain(|b| b.id != id);
        for s in &live {
            s.bp_ids.lock().unwrap().retain(|_, v| *v != id);
            let _ = self.sync_functions(s, None).await;
        }
        Err(BackendError::NotFound(format!(
            "no function '{name}' in the running program ({}: {why})",
            live[0].adapter.name()
        )))
    }

    /// Whether any function breakpoint is stored (sessions need no request otherwise).
    pub fn has_function_bps(&self) -> bool {
        self.bps
            .lock()
            .unwrap()
            .list
            .iter()
            .any(|b| b.kind == BreakpointKind::Function)
    }

    /// Sends the enabled function breakpoints (plus `entry`, a temporary stop at the start of
    /// the program) to one session: DAP replaces the whole list.
    pub async fn sync_functions(&self, s: &Session, entry: Option<&str>) -> BackendResult<()> {
        if s.mode == LaunchMode::Run {
            return Ok(());
        }
        let suppress = s
            .override_
            .lock()
            .unwrap()
            .as_ref()
            .is_some_and(|o| o.suppress);
        let bps = match suppress {
            true => vec![],
            false => self.bps.lock().unwrap().enabled(BreakpointKind::Function),
        };
        let refused = refusal(s);
        if let Some(why) = &refused {
            for b in &bps {
                self.update_bp(&b.id, |b| {
                    b.verified = false;
                    b.message = Some(why.clone());
                });
            }
            if entry.is_none() {
                return Ok(());
            }
        }
        let bps = if refused.is_some() { Vec::new() } else { bps };
        let nonempty = |c: &Option<String>| c.clone().filter(|c| !c.is_empty());
        let mut dap: Vec<FunctionBreakpoint> = bps
            .iter()
            .map(|b| FunctionBreakpoint {
                name: b.function.clone().unwrap_or_default(),
                condition: nonempty(&b.condition),
                hit_condition: nonempty(&b.hit_condition).map(|c| s.adapter.hit_condition(&c)),
            })
            .collect();
        if let Some(main) = entry {
            dap.push(FunctionBreakpoint {
                name: main.into(),
                ..Default::default()
            });
        }
        // The functions a running step breaks on (see `step_raises`), after the entry stop.
        let step_functions = s.step_functions.lock().unwrap().clone();
        dap.extend(step_functions.iter().map(|f| FunctionBreakpoint {
            name: f.to_string(),
            ..Default::default()
        }));
        s.step_function_ids.lock().unwrap().clear();
        // Which answer is whose: by position, or (an adapter that answers in another order) by
        // sending the list one name longer each time and taking the id that is new.
        let mut answers: Vec<Option<protocol::Breakpoint>> = Vec::new();
        if s.adapter.function_answers_in_order() || dap.len() < 2 {
            answers.extend(send(s, dap).await?.into_iter().map(Some));
        } else {
            let mut known: Vec<i64> = Vec::new();
            for k in 1..=dap.len() {
                let got = send(s, dap[..k].to_vec()).await?;
                let new = got
                    .into_iter()
                    .find(|r| r.id.is_some_and(|d| !known.contains(&d)));
                known = new.iter().filter_map(|r| r.id).chain(known).collect();
                answers.push(new);
            }
        }
        for (i, r) in answers.iter().enumerate() {
            let Some(r) = r else { continue };
            let Some(bp) = bps.get(i) else {
                let Some(d) = r.id else { continue };
                // After the user's breakpoints: the entry stop, then the step's functions.
                match (i - bps.len()).checked_sub(usize::from(entry.is_some())) {
                    None => {
                        s.temp_ids.lock().unwrap().insert(d);
                    }
                    Some(k) => {
                        if let Some(f) = step_functions.get(k) {
                            s.step_function_ids.lock().unwrap().insert(d, f);
                        }
                    }
                }
                continue;
            };
            if let Some(d) = r.id {
                s.bp_ids.lock().unwrap().insert(d, bp.id.clone());
            }
            self.apply_function_bp(s, &bp.id, r);
        }
        Ok(())
    }

    /// Where the adapter bound a function breakpoint (response or `breakpoint` event).
    pub fn apply_function_bp(&self, s: &Session, id: &str, r: &protocol::Breakpoint) {
        let file = r
            .source
            .as_ref()
            .and_then(|src| src.path.as_deref())
            .map(|p| s.local_path(p));
        let bound = r.verified;
        let message = r.message.clone().or_else(|| r.reason.clone());
        self.update_bp(id, |bp| {
            bp.verified = bound;
            // A line without a source (lldb-dap's event for a library function) says nothing.
            if file.is_some() {
                bp.file = file;
                bp.line = r.line.map(|l| l as u32);
            }
            bp.message = if bound {
                None
            } else {
                message.or(Some("not bound".into()))
            };
        });
    }
}

/// Why this session's adapter cannot take function breakpoints by name, if it cannot.
fn refusal(s: &Session) -> Option<String> {
    if !s.cap(|c| c.supports_function_breakpoints) {
        return Some(format!(
            "the {} adapter has no function breakpoints",
            s.adapter.name()
        ));
    }
    s.adapter.function_breakpoints_refused().map(str::to_string)
}

async fn send(
    s: &Session,
    breakpoints: Vec<FunctionBreakpoint>,
) -> BackendResult<Vec<protocol::Breakpoint>> {
    let BreakpointsResponse { breakpoints } = s
        .req::<protocol::SetFunctionBreakpoints>(&protocol::SetFunctionBreakpointsArguments {
            breakpoints,
        })
        .await?;
    Ok(breakpoints)
}
