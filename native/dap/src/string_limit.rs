//! The debugger's own string limit (gdb's `print elements`), raised for one evaluation so that
//! an agent's expression shows a string whole, then set back to the user's value.
//!
//! Only an expression's evaluation runs with it raised: a repl command of the user's runs at
//! their own limit (`show print elements` says theirs, `set print elements 50` sets it). Their
//! value is read before the first raise of a session (it may come from a `.gdbinit`), and
//! again after a repl command, which may have set it. The raised limit is set back
//! even when the evaluation is given up on (the caller's timeout drops its future): a guard
//! sends the restore from a task of its own. The session's lock is held from the raise to the
//! restore, so the next evaluation's raise cannot overtake a restore still to be sent; the
//! debugger runs requests in the order sent, so the restore comes after the given-up
//! evaluation and before anything asked later.

use crate::adapters::StringLimit;
use crate::session::Session;
use std::sync::Arc;
use tokio::sync::OwnedMutexGuard;

/// A raised limit, set back by [`Raised::set_back`] or, when dropped first, by a task.
pub(crate) struct Raised {
    s: Arc<Session>,
    held: Option<OwnedMutexGuard<Option<String>>>,
}

impl Raised {
    /// Raises `limit` for one evaluation of an expression.
    pub(crate) async fn raise(s: Arc<Session>, limit: StringLimit) -> Raised {
        let mut held = s.string_limit.clone().lock_owned().await;
        if held.is_none() {
            let shown = s.repl(limit.show, None).await;
            *held = shown.ok().and_then(|shown| (limit.restore)(&shown));
        }
        let mut raised = Raised { s, held: None };
        if held.is_some() {
            // Unreadable (an ended session): nothing is raised, nothing to set back.
            let _ = raised.s.repl(&limit.raise, None).await;
            raised.held = Some(held);
        }
        raised
    }

    /// Sets the user's limit back now (the evaluation is done).
    pub(crate) async fn set_back(mut self) {
        if let Some(held) = self.held.take() {
            set_back(&self.s, held).await;
        }
    }
}

impl Drop for Raised {
    fn drop(&mut self) {
        let Some(held) = self.held.take() else {
            return;
        };
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let s = self.s.clone();
        rt.spawn(async move { set_back(&s, held).await });
    }
}

async fn set_back(s: &Session, held: OwnedMutexGuard<Option<String>>) {
    if let Some(back) = held.as_deref() {
        let _ = s.repl(back, None).await;
    }
}

/// After a repl command (which may have set the limit): the user's value is read again
/// before the next raise.
pub(crate) async fn forget(s: &Session) {
    *s.string_limit.lock().await = None;
}
