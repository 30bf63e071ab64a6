//! Xdebug's answers to continuation commands → the core's pause reasons and descriptions.

use crate::protocol::Response;
use debugger_mcp_core::backend::PauseReason;

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
}
