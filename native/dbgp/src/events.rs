//! Xdebug's answers to continuation commands → the core's pause events (reasons and
//! descriptions), and its notifications (breakpoint resolved, PHP notices, `xdebug_notify()`)
//! → breakpoint changes and console output.

use crate::protocol::{self, Response};
use crate::session::{Inner, Session};
use debugger_mcp_core::backend::*;
use std::sync::Arc;
use std::time::Duration;

/// Why the script stopped after `command`, and the text agents see for an exception or error.
pub fn pause_reason(
    command: &str,
    r: &Response,
    at_breakpoint: bool,
    entry: bool,
) -> (PauseReason, Option<String>) {
    if let Some(m) = r.break_message()
        && let Some(exc) = m.exception.filter(|e| !e.is_empty())
    {
        let mut text = if m.text.is_empty() {
            exc.clone()
        } else {
            format!("{exc}: {}", m.text)
        };
        // PHP errors ("Fatal error", "Warning") carry their error level as code: noise.
        if let Some(code) = m
            .code
            .filter(|c| !c.is_empty() && c != "0" && !exc.contains(' '))
        {
            text.push_str(&format!(" (code {code})"));
        }
        return (PauseReason::Exception, Some(text));
    }
    if entry {
        return (PauseReason::Entry, None);
    }
    match command {
        "step_into" | "step_over" | "step_out" if !at_breakpoint => (PauseReason::Step, None),
        _ if at_breakpoint => (PauseReason::Breakpoint, None),
        // `xdebug_break()` in the code, or a breakpoint set outside this server.
        _ => (
            PauseReason::Pause,
            Some("the script called xdebug_break() or hit a breakpoint set elsewhere".into()),
        ),
    }
}

/// A stop's words about an exception a step met, as the DAP backend says them: at the stop of
/// the step that raised it (`watched`: the step ran catching exceptions) with where it was
/// raised, then at the next step's stop where it went. Returns the description and the
/// exception the next step is to follow.
pub fn step_note(
    reason: PauseReason,
    description: Option<String>,
    watched: bool,
    place: Option<String>,
    after: Option<String>,
) -> (Option<String>, Option<String>) {
    if reason == PauseReason::Exception
        && watched
        && let Some(d) = description.as_deref()
    {
        // The place after "raised here": the recorder keeps what comes before it as a call's
        // outcome, and the stop's location says it already.
        let e = match &place {
            Some(p) => format!("{d} (raised at {p})"),
            None => d.to_string(),
        };
        return (Some(step_raised(d, place.as_deref())), Some(e));
    }
    if reason == PauseReason::Step
        && let Some(e) = after
    {
        return (Some(exception_went(&e)), None);
    }
    (description, None)
}

impl Inner {
    /// The stop a step-out-to-return ran to: its function's return at the armed depth (then
    /// `at_return`), a deeper return of the same function (armed again and run on), or any
    /// other stop (a breakpoint, an exception). Whether the return breakpoint fired is asked of
    /// Xdebug (a temporary breakpoint that fired is left disabled with a hit): the return value
    /// alone cannot tell, as Xdebug has none when the caller discards the result.
    async fn finish_step_out(
        &self,
        s: &Session,
        mut resp: Response,
        (args, depth, mut xid): crate::session::StepOut,
    ) -> Result<Response, crate::transport::RequestError> {
        use std::sync::atomic::Ordering;
        // Bounded: a recursion deeper than this many returns ends as a plain stop.
        for _ in 0..10_000 {
            if resp.status() != Some("break") {
                break;
            }
            let fired = match s
                .conn
                .request("breakpoint_get", &[('d', xid.clone())], None)
                .await
            {
                Ok(b) => b.root.child("breakpoint").is_some_and(|b| {
                    b.attr("hit_count").is_some_and(|h| h != "0")
                        || b.attr("state") == Some("disabled")
                }),
                Err(_) => false,
            };
            let _ = crate::breakpoints::remove(&s.conn, &xid).await;
            if !fired {
                break;
            }
            let now = match s.conn.request("stack_get", &[], None).await {
                Ok(st) => st.root.all("stack").count(),
                Err(_) => depth,
            };
            if now <= depth {
                s.at_return.store(true, Ordering::SeqCst);
                break;
            }
            match s.conn.request("breakpoint_set", &args, None).await {
                Ok(set) => xid = set.attr("id").unwrap_or("").to_string(),
                Err(_) => break,
            }
            resp = s.conn.request("run", &[], None).await?;
        }
        *s.step_out.lock().unwrap() = None;
        Ok(resp)
    }

    /// The enabled line breakpoints bound (or asked) at `file:line`.
    fn line_breakpoints_at(&self, file: Option<&str>, line: Option<u32>) -> Vec<String> {
        let list = self.bps.lock().unwrap();
        list.list
            .iter()
            .filter(|b| {
                b.kind == BreakpointKind::Line
                    && b.enabled
                    && b.file.as_deref() == file
                    && (b.line == line || b.requested_line == line)
            })
            .map(|b| b.id.clone())
            .collect()
    }

    /// Reads the lines Xdebug bound the breakpoints to (`breakpoint_list`) into the store.
    async fn refresh_bound_lines(&self, s: &Session) {
        let Ok(Ok(list)) = tokio::time::timeout(
            crate::session::REQUEST_TIMEOUT,
            s.conn.request("breakpoint_list", &[], None),
        )
        .await
        else {
            return;
        };
        let bound: Vec<(String, u32)> = list
            .root
            .all("breakpoint")
            .filter(|b| b.attr("resolved") == Some("resolved"))
            .filter_map(|b| Some((b.attr("id")?.to_string(), b.attr("lineno")?.parse().ok()?)))
            .collect();
        let ours: Vec<(String, u32)> = {
            let applied = s.applied.lock().await;
            bound
                .iter()
                .filter_map(|(xid, line)| {
                    applied
                        .iter()
                        .find(|(_, (x, _))| x == xid)
                        .map(|(id, _)| (id.clone(), *line))
                })
                .collect()
        };
        for (id, line) in ours {
            self.update_bp(&id, |bp| {
                bp.verified = true;
                bp.message = None;
                bp.line = Some(line);
            });
        }
    }

    pub fn on_notify(&self, s: &Session, name: &str, root: &protocol::Element) {
        match name {
            "breakpoint_resolved" => {
                let Some(b) = root.child("breakpoint") else {
                    return;
                };
                let xid = b.attr("id").unwrap_or("");
                let line = b.attr("lineno").and_then(|l| l.parse().ok());
                let resolved = b.attr("resolved") == Some("resolved");
                let ours = s.applied.try_lock().ok().and_then(|a| {
                    a.iter()
                        .find(|(_, (x, _))| x == xid)
                        .map(|(id, _)| id.clone())
                });
                if let Some(id) = ours {
                    self.update_bp(&id, |bp| {
                        if resolved {
                            bp.verified = true;
                            bp.message = None;
                            if line.is_some() {
                                bp.line = line;
                            }
                        }
                    });
                }
            }
            // Notices and warnings the script raised (notify_ok): console output.
            // A CLI run prints them on its own stderr already.
            "error" if !s.owns_process => {
                let text = root
                    .child("message")
                    .map(|m| m.text.trim().to_string())
                    .unwrap_or_default();
                let kind = root
                    .child("message")
                    .and_then(|m| m.attr("type"))
                    .unwrap_or("PHP error")
                    .to_string();
                if !text.is_empty() {
                    self.emit(BackendEvent::Output {
                        session_id: s.id.clone(),
                        category: OutputCategory::Stderr,
                        text: format!("{kind}: {text}\n"),
                    });
                }
            }
            // xdebug_notify() in the script.
            "user" => {
                let text = root
                    .children
                    .iter()
                    .map(protocol::decoded_text)
                    .collect::<Vec<_>>()
                    .join(" ");
                self.emit(BackendEvent::Output {
                    session_id: s.id.clone(),
                    category: OutputCategory::Console,
                    text: format!("{text}\n"),
                });
            }
            _ => tracing::debug!(name, "DBGp notification"),
        }
    }

    /// `stop_on_exception` stops where the program raises. Xdebug's exception breakpoints
    /// stop at every throw, caught or not, so a framework's own exceptions, thrown and caught
    /// in library code (vendor/, outside the project: PHPUnit's ReflectionException looking
    /// for `suite()`), would stop first: those run on. PHP's errors ("Fatal error") and the
    /// classes the user's own exception breakpoints name still stop.
    async fn past_library_exceptions(
        &self,
        s: &Session,
        mut r: Result<Response, crate::transport::RequestError>,
    ) -> Result<Response, crate::transport::RequestError> {
        use std::sync::atomic::Ordering;
        if !s.user_exceptions_only.load(Ordering::SeqCst) {
            return r;
        }
        // Bounded: a framework that throws without end ends as a plain stop.
        for _ in 0..1_000 {
            let Ok(resp) = &r else { break };
            if resp.status() != Some("break") {
                break;
            }
            let Some(m) = resp.break_message() else { break };
            let Some(exception) = m.exception.as_deref() else {
                break;
            };
            let named = self.bps.lock().unwrap().list.iter().any(|b| {
                b.kind == BreakpointKind::Exception && b.exception.as_deref() == Some(exception)
            });
            let root = self.root.to_string_lossy();
            let library = s
                .local_file(&m.fileuri)
                .is_none_or(|p| p.contains("/vendor/") || !p.starts_with(&*root));
            if exception.contains(' ') || named || !library {
                break;
            }
            r = s.conn.request("run", &[], None).await;
        }
        r
    }

    /// Runs a continuation command; its answer (the next stop or the end) arrives later.
    pub fn cont(
        self: &Arc<Self>,
        s: &Arc<Session>,
        command: &'static str,
        entry: bool,
        announce: bool,
    ) {
        if !s.set_state(SessionState::Running) {
            return;
        }
        s.at_return
            .store(false, std::sync::atomic::Ordering::SeqCst);
        s.values.lock().unwrap().clear();
        *s.location.lock().unwrap() = None;
        if announce {
            self.emit(BackendEvent::Resumed {
                session_id: s.id.clone(),
            });
        }
        let inner = self.clone();
        let s = s.clone();
        tokio::spawn(async move {
            let mut r = s.conn.request(command, &[], None).await;
            if command == "run" {
                r = inner.past_library_exceptions(&s, r).await;
            }
            // A step out running to its function's return (see `control::arm_return`).
            let mut command = command;
            let step = s.step_out.lock().unwrap().clone();
            if let Ok(resp) = &r
                && resp.status() == Some("break")
                && let Some(step) = step
            {
                r = inner.finish_step_out(&s, resp.clone(), step).await;
                if s.at_return.load(std::sync::atomic::Ordering::SeqCst) {
                    command = "step_out";
                }
            }
            // The step's own exception breakpoints go before anything else is asked or shown.
            let watched = s.step_catch.lock().unwrap().take();
            if let (Some(ids), Ok(r)) = (&watched, &r)
                && r.status() == Some("break")
            {
                let _ = tokio::time::timeout(crate::session::REQUEST_TIMEOUT, async {
                    for id in ids {
                        let _ = crate::breakpoints::remove(&s.conn, id).await;
                    }
                })
                .await;
            }
            match r {
                // A break read after the session ended (stopped meanwhile) is no pause.
                Ok(r) if r.status() == Some("break") && s.set_state(SessionState::Paused) => {
                    let m = r.break_message();
                    let file = m.as_ref().and_then(|m| s.local_file(&m.fileuri));
                    let line = m.as_ref().and_then(|m| m.line);
                    if let (Some(f), Some(l)) = (&file, line) {
                        *s.location.lock().unwrap() = Some((f.clone(), l));
                    }
                    let mut hit = inner.line_breakpoints_at(file.as_deref(), line);
                    // A run that broke where no breakpoint is known: one on a blank line in a
                    // function that Xdebug bound to the next line with code without a
                    // `breakpoint_resolved` notification (3.2, set before the function was
                    // compiled): its line is in `breakpoint_list`; else the stop read as a
                    // pause and the breakpoint stayed listed at the blank line (issue 26).
                    if hit.is_empty() && command == "run" && file.is_some() {
                        inner.refresh_bound_lines(&s).await;
                        hit = inner.line_breakpoints_at(file.as_deref(), line);
                    }
                    let at_bp = !hit.is_empty() && command == "run";
                    let hit = if at_bp { hit } else { Vec::new() };
                    let (reason, description) = pause_reason(command, &r, at_bp, entry);
                    let place = m.as_ref().and_then(|m| s.place(&m.fileuri, m.line));
                    let after = s.step_exception.lock().unwrap().take();
                    let (description, met) =
                        step_note(reason, description, watched.is_some(), place, after);
                    *s.step_exception.lock().unwrap() = met;
                    inner.sync_breakpoints(&s).await;
                    if s.is_ended() {
                        return;
                    }
                    inner.emit(BackendEvent::Paused {
                        session_id: s.id.clone(),
                        thread_id: "1".into(),
                        reason,
                        breakpoint_ids: if reason == PauseReason::Breakpoint {
                            hit
                        } else {
                            vec![]
                        },
                        description,
                    });
                }
                Ok(r) => {
                    // `stopping`: the script ended; let Xdebug finish and close.
                    tracing::debug!(status = ?r.status(), "script ended");
                    let _ = tokio::time::timeout(
                        Duration::from_secs(2),
                        s.conn.request("stop", &[], None),
                    )
                    .await;
                    s.conn.close().await;
                }
                Err(e) => tracing::debug!(session = %s.id, "continuation ended: {e}"),
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Packet, parse_packet};

    fn resp(xml: &str) -> Response {
        match parse_packet(xml).unwrap() {
            Packet::Response(r) => r,
            _ => panic!(),
        }
    }

    #[test]
    fn reasons() {
        let exc = resp(
            r#"<response xmlns:xdebug="https://xdebug.org/dbgp/xdebug" command="run" transaction_id="1" status="break" reason="ok"><xdebug:message filename="file:///a.php" lineno="3" exception="DomainException" code="7"><![CDATA[bad total]]></xdebug:message></response>"#,
        );
        assert_eq!(
            pause_reason("run", &exc, false, false),
            (
                PauseReason::Exception,
                Some("DomainException: bad total (code 7)".into())
            )
        );
        let plain = resp(
            r#"<response xmlns:xdebug="https://xdebug.org/dbgp/xdebug" command="run" transaction_id="1" status="break" reason="ok"><xdebug:message filename="file:///a.php" lineno="3"></xdebug:message></response>"#,
        );
        assert_eq!(
            pause_reason("run", &plain, true, false).0,
            PauseReason::Breakpoint
        );
        assert_eq!(
            pause_reason("step_over", &plain, false, false).0,
            PauseReason::Step
        );
        assert_eq!(
            pause_reason("step_into", &plain, false, true).0,
            PauseReason::Entry
        );
        assert_eq!(
            pause_reason("run", &plain, false, false).0,
            PauseReason::Pause
        );
    }

    #[test]
    fn a_step_that_meets_an_exception_says_where_it_was_raised_then_where_it_went() {
        let exc = Some("DomainException: bad total".to_string());
        let (text, met) = step_note(
            PauseReason::Exception,
            exc.clone(),
            true,
            Some("src/lib.php:4".into()),
            None,
        );
        assert_eq!(
            text.as_deref(),
            Some(
                "the step ended in an exception: DomainException: bad total; raised here (src/lib.php:4). Step again to see whether a handler catches it, a caller gets it or the program ends"
            )
        );
        assert_eq!(
            met.as_deref(),
            Some("DomainException: bad total (raised at src/lib.php:4)")
        );
        let (text, met) = step_note(PauseReason::Step, None, false, None, met);
        assert_eq!(
            text.as_deref(),
            Some(
                "the exception DomainException: bad total (raised at src/lib.php:4) went here: a handler, or a caller it passed up to"
            )
        );
        assert_eq!(met, None);
        // A run that stops at an exception (the user's breakpoint) says it as before.
        assert_eq!(
            step_note(PauseReason::Exception, exc.clone(), false, None, None),
            (exc, None)
        );
        // The exception is forgotten at any other stop after it.
        assert_eq!(
            step_note(PauseReason::Breakpoint, None, false, None, Some("E".into())),
            (None, None)
        );
    }
}
