//! The step after a C++ throw stop (gdb, lldb-dap). The throw stop is inside `__cxa_throw`,
//! which has no line table: gdb's `next` from there waits for it to return, which it never
//! does, and ran past the handler to the next stop; lldb-dap's stayed inside it. Instead the
//! program runs to where a handler takes the exception (its call of `__cxa_begin_catch`: gdb's
//! `tcatch catch`, an lldb one-shot breakpoint), steps out into the `catch` line and over it
//! to the handler's first line. Only that last stop is reported, as the step's (it says where
//! the exception went, see `events::on_stopped`); the ones on the way are not stops the user
//! asked for.

use crate::protocol::{self, StackTraceArguments, StepArguments, ThreadArguments};
use crate::session::{Inner, Session};
use debugger_mcp_core::backend::BackendResult;

/// Where a step after a throw stop is on its way to the handler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hunt {
    /// Running to the next `__cxa_begin_catch`, armed as the debugger's breakpoint number.
    Catch(Option<i64>),
    /// Stepping out of `__cxa_begin_catch` into the handler's `catch` line.
    Out,
}

impl Inner {
    /// Arms the stop at the next handler and runs there, when the last stop was a C++ throw a
    /// step ended in and the adapter can (true: the program runs, its stops come to
    /// [`on_stop`]). False: the step runs as asked.
    pub async fn step_to_handler(&self, s: &Session, thread_id: i64) -> BackendResult<bool> {
        if s.step_exception.lock().unwrap().is_none() {
            return Ok(false);
        }
        let Some(id) = arm(s).await else {
            return Ok(false);
        };
        *s.hunt.lock().unwrap() = Some(Hunt::Catch(id));
        if let Err(e) = s
            .req::<protocol::Continue>(&ThreadArguments { thread_id })
            .await
        {
            s.hunt.lock().unwrap().take();
            disarm(s, id).await;
            return Err(e);
        }
        Ok(true)
    }
}

/// Sets the one-shot stop in `__cxa_begin_catch`: Some(its number, if the debugger said it),
/// None when this adapter has no such command or it failed.
async fn arm(s: &Session) -> Option<Option<i64>> {
    let cmd = s.adapter.catch_stop_command()?;
    let said = s.repl(cmd, None).await.ok()?;
    Some(first_number(&said))
}

async fn disarm(s: &Session, id: Option<i64>) {
    if let Some(cmd) = id.and_then(|n| s.adapter.delete_command(n)) {
        let _ = s.repl(&cmd, None).await;
    }
}

/// "Temporary catchpoint 3 (catch)" (gdb), "Breakpoint 3: where = …" (lldb) → 3.
fn first_number(said: &str) -> Option<i64> {
    let digits: String = said
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// A stop while a step after a throw is on its way: true when it was a stop on the way (the
/// program runs on, nothing is reported), false when it is reported as it is (the step's own
/// last stop, or another stop that came first: a breakpoint, a signal, the end).
pub async fn on_stop(inner: &Inner, s: &Session, stop: &protocol::StoppedEvent) -> bool {
    let Some(hunt) = s.hunt.lock().unwrap().take() else {
        return false;
    };
    let Some(t) = stop.thread_id.or(*s.last_thread.lock().unwrap()) else {
        return false;
    };
    let frames = s
        .req::<protocol::StackTrace>(&StackTraceArguments {
            thread_id: t,
            start_frame: 0,
            levels: 2,
        })
        .await
        .map(|b| b.stack_frames)
        .unwrap_or_default();
    let in_project = |i: usize| {
        frames
            .get(i)
            .and_then(|f| f.path())
            .and_then(|p| inner.in_project(&s.local_path(p)))
            .is_some()
    };
    let step = StepArguments {
        thread_id: t,
        granularity: "line",
    };
    match hunt {
        Hunt::Catch(id) => {
            if !frames
                .first()
                .is_some_and(|f| f.name.contains("__cxa_begin_catch"))
            {
                disarm(s, id).await;
                return false;
            }
            if in_project(1) {
                *s.hunt.lock().unwrap() = Some(Hunt::Out);
                if s.req::<protocol::StepOut>(&step).await.is_ok() {
                    return true;
                }
                s.hunt.lock().unwrap().take();
                return false;
            }
            // A handler outside the project (the runtime's own, before std::terminate for an
            // exception nobody catches): on to the next one, or to the end.
            let Some(id) = arm(s).await else {
                return false;
            };
            *s.hunt.lock().unwrap() = Some(Hunt::Catch(id));
            if s.req::<protocol::Continue>(&ThreadArguments { thread_id: t })
                .await
                .is_ok()
            {
                return true;
            }
            s.hunt.lock().unwrap().take();
            disarm(s, id).await;
            false
        }
        // In the `catch` line, part way (the exception object is not bound yet): over it to
        // the handler's first line.
        // (gdb's stop after this `finish` comes with no reason of its own: "stopped".)
        Hunt::Out
            if in_project(0)
                && !matches!(
                    stop.reason.as_str(),
                    "breakpoint"
                        | "function breakpoint"
                        | "data breakpoint"
                        | "exception"
                        | "signal"
                        | "pause"
                ) =>
        {
            s.req::<protocol::Next>(&step).await.is_ok()
        }
        Hunt::Out => false,
    }
}

#[cfg(test)]
mod tests {
    use super::first_number;

    #[test]
    fn reads_the_number_debuggers_give_a_new_breakpoint() {
        assert_eq!(first_number("Temporary catchpoint 3 (catch)"), Some(3));
        assert_eq!(
            first_number("Breakpoint 12: where = libstdc++.so.6`__cxa_begin_catch, address = 0x1"),
            Some(12)
        );
        assert_eq!(first_number("No symbol table is loaded."), None);
    }
}
