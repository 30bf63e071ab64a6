//! Running the program: resume, steps, run to a line, pause; threads.

use crate::breakpoints::Override;
use crate::protocol::{self, Request, StepArguments, ThreadArguments};
use crate::session::{Inner, Session};
use debugger_mcp_core::backend::*;

impl Inner {
    pub async fn control(
        &self,
        s: &Session,
        thread_id: Option<&str>,
        op: ControlOp,
    ) -> BackendResult<()> {
        if op == ControlOp::Pause {
            if *s.state.lock().unwrap() == SessionState::Paused {
                return Err(BackendError::InvalidState(format!(
                    "session {} is already paused",
                    s.id
                )));
            }
            let t = self.resolve_thread(s, thread_id).await?;
            s.req::<protocol::Pause>(&ThreadArguments { thread_id: t })
                .await?;
            return Ok(());
        }
        s.require_paused()?;
        let t = self.resolve_thread(s, thread_id).await?;
        let (mut step, ov) = match &op {
            ControlOp::Resume => (Step::Continue, None),
            ControlOp::StepOver { ignore_breakpoints } => (
                Step::Next,
                ignore_breakpoints.then(|| Override {
                    temp: None,
                    suppress: true,
                }),
            ),
            // `force` (step into library code) cannot be changed per step in DAP; debugpy's
            // justMyCode is fixed at launch.
            ControlOp::StepInto { .. } => (Step::In, None),
            ControlOp::StepOut { .. } => (Step::Out, None),
            ControlOp::RunTo {
                file,
                line,
                ignore_breakpoints,
            } => {
                let f = self.absolute(file).display().to_string();
                (
                    Step::Continue,
                    Some(Override {
                        temp: Some((f, *line)),
                        suppress: *ignore_breakpoints,
                    }),
                )
            }
            ControlOp::Pause => unreachable!(),
        };
        if let Some(ov) = ov {
            *s.override_.lock().unwrap() = Some(ov.clone());
            let res = match &ov.temp {
                Some((f, _)) if !ov.suppress => self.sync_file(s, f).await,
                _ => self.sync_all_lines(s).await,
            };
            if let Err(e) = res {
                s.override_.lock().unwrap().take();
                let _ = self.sync_all_lines(s).await;
                return Err(e);
            }
        }
        // A step after a raise, on an adapter that breaks on raising (see `step_raises`), runs
        // to the handler instead.
        if matches!(step, Step::Next | Step::In | Step::Out) && self.arm_step_functions(s).await {
            step = Step::Continue;
        }
        if matches!(step, Step::Next | Step::In | Step::Out)
            && !s.adapter.step_exception_filters().is_empty()
            && s.step_exception.lock().unwrap().is_none()
        {
            s.step_exceptions
                .store(true, std::sync::atomic::Ordering::SeqCst);
            if self.sync_exceptions(s).await.is_err() {
                s.step_exceptions
                    .store(false, std::sync::atomic::Ordering::SeqCst);
            }
        }
        if matches!(step, Step::Out) {
            s.adapter.before_step_out(s, t).await;
        }
        s.stepped_out.store(
            matches!(step, Step::Out),
            std::sync::atomic::Ordering::SeqCst,
        );
        s.stepping.store(
            matches!(step, Step::Next | Step::In | Step::Out),
            std::sync::atomic::Ordering::SeqCst,
        );
        // A step from a C++ throw stop goes to the handler (see `after_throw`); if that could
        // not be arranged, the step runs as asked.
        if matches!(step, Step::Next | Step::In | Step::Out)
            && let Ok(true) = self.step_to_handler(s, t).await
        {
            s.stepped_out
                .store(false, std::sync::atomic::Ordering::SeqCst);
            return Ok(());
        }
        // The resulting "resumed" is emitted from the event stream, in order with the stop
        // that follows (see transport's synthetic `Resumed`).
        if let Err(e) = step.send(s, t).await {
            if s.override_.lock().unwrap().take().is_some() {
                let _ = self.sync_all_lines(s).await;
            }
            // The adapter refused to run: the program is still where it was. Undo the
            // "resumed" already reported, unless a stop came in the meantime.
            let repause = {
                let mut st = s.state.lock().unwrap();
                let r = *st == SessionState::Running && !s.is_ended();
                if r {
                    *st = SessionState::Paused;
                }
                r
            };
            if repause {
                self.emit(BackendEvent::Paused {
                    session_id: s.id.clone(),
                    thread_id: t.to_string(),
                    reason: PauseReason::Other,
                    breakpoint_ids: vec![],
                    description: Some(format!(
                        "still paused: the debugger refused '{}': {e}",
                        step.command()
                    )),
                });
            }
            return Err(e);
        }
        Ok(())
    }

    pub async fn threads(&self, s: &Session) -> BackendResult<Vec<ThreadInfo>> {
        let body = s.req::<protocol::Threads>(&()).await?;
        let state = match *s.state.lock().unwrap() {
            SessionState::Paused => "paused",
            _ => "running",
        };
        Ok(body
            .threads
            .into_iter()
            .map(|t| ThreadInfo {
                id: t.id.unwrap_or(0).to_string(),
                name: t.name,
                state: state.into(),
                group: None,
            })
            .collect())
    }

    /// The thread a control op acts on: the one named, else the last that stopped, else the
    /// first the adapter lists.
    async fn resolve_thread(&self, s: &Session, thread: Option<&str>) -> BackendResult<i64> {
        if let Some(t) = thread {
            return t
                .parse()
                .map_err(|_| BackendError::NotFound(format!("thread '{t}'")));
        }
        if let Some(t) = *s.last_thread.lock().unwrap() {
            return Ok(t);
        }
        let body = s.req::<protocol::Threads>(&()).await?;
        body.threads
            .first()
            .and_then(|t| t.id)
            .ok_or_else(|| BackendError::InvalidState(format!("session {} has no threads", s.id)))
    }
}

/// The requests that make the program run.
#[derive(Clone, Copy)]
enum Step {
    Continue,
    Next,
    In,
    Out,
}

impl Step {
    fn command(self) -> &'static str {
        match self {
            Step::Continue => protocol::Continue::COMMAND,
            Step::Next => protocol::Next::COMMAND,
            Step::In => protocol::StepIn::COMMAND,
            Step::Out => protocol::StepOut::COMMAND,
        }
    }

    async fn send(self, s: &Session, thread_id: i64) -> BackendResult<()> {
        let step = StepArguments {
            thread_id,
            granularity: "line",
        };
        match self {
            Step::Continue => s
                .req::<protocol::Continue>(&ThreadArguments { thread_id })
                .await
                .map(drop),
            Step::Next => s.req::<protocol::Next>(&step).await.map(drop),
            Step::In => s.req::<protocol::StepIn>(&step).await.map(drop),
            Step::Out => s.req::<protocol::StepOut>(&step).await.map(drop),
        }
    }
}
