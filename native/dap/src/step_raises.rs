//! A step that ends in a raise on adapters without step exception filters (delve: a Go panic,
//! including runtime errors). While a step runs, the adapter's raise function
//! (`runtime.gopanic`) is broken on; that stop is the step's exception, with what was raised
//! and where (`events::on_stopped`). The step after it runs to the recover function
//! (`runtime.gorecover`) and out of it, so it ends in the handler; with no handler, the
//! adapter's own stop at the program's fatal end comes, and a step from there ends the program.
//!
//! Why not let delve step on: its `next` stops in a deferred function of the stepping frame
//! only, says nothing of the panic, and runs to the program's end when a caller's defer
//! recovers; a `next` from inside `gopanic` walks the runtime's lines.

use crate::protocol::{
    self, EvaluateArguments, StackTraceArguments, StepArguments, ThreadArguments,
};
use crate::session::{Inner, Session};
use std::sync::atomic::Ordering;

impl Inner {
    /// Before a step (next, in, out): arms the functions it breaks on. True when the step is
    /// to run as a continue instead (after a raise, or from the program's fatal end).
    pub async fn arm_step_functions(&self, s: &Session) -> bool {
        let Some((raise, _)) = s.adapter.raise_function() else {
            return false;
        };
        if s.fatal_stop.load(Ordering::SeqCst) {
            return true;
        }
        let after_raise = s.step_exception.lock().unwrap().is_some();
        *s.step_functions.lock().unwrap() = if after_raise {
            s.adapter.recover_function().into_iter().collect()
        } else {
            vec![raise]
        };
        if self.sync_functions(s, None).await.is_err() {
            s.step_functions.lock().unwrap().clear();
            s.step_function_ids.lock().unwrap().clear();
        }
        after_raise
    }

    /// At a stop: the step function it is at, if any. A stop ends the step, so they are
    /// disarmed (a later resume must not stop at every panic).
    pub async fn step_function_hit(&self, s: &Session, hit: &[i64]) -> Option<&'static str> {
        if s.step_functions.lock().unwrap().is_empty() {
            return None;
        }
        let f = {
            let ids = s.step_function_ids.lock().unwrap();
            hit.iter().find_map(|h| ids.get(h).copied())
        };
        s.step_functions.lock().unwrap().clear();
        let _ = self.sync_functions(s, None).await;
        f
    }
}

/// Steps out of the recover function into the handler that called it, without a stop of its
/// own: the step out's stop ends the step after the raise. A recover() of the runtime's own
/// (Go's `preprintpanics` calls one on the way to a fatal panic) is no handler: the program
/// runs on to its fatal end. False when the adapter refused.
pub async fn out_into_handler(s: &Session, thread_id: i64) -> bool {
    s.stepped_out.store(false, Ordering::SeqCst);
    let args = StackTraceArguments {
        thread_id,
        start_frame: 0,
        levels: 2,
    };
    let caller = s
        .req::<protocol::StackTrace>(&args)
        .await
        .ok()
        .and_then(|b| b.stack_frames.get(1).map(|f| f.name.clone()))
        .unwrap_or_default();
    if caller.starts_with("runtime.") {
        return s
            .req::<protocol::Continue>(&ThreadArguments { thread_id })
            .await
            .is_ok();
    }
    s.req::<protocol::StepOut>(&StepArguments {
        thread_id,
        granularity: "line",
    })
    .await
    .is_ok()
}

/// What was raised, read from the raise function's parameter `param` in the top frame:
/// `panic: "bad" (string)`.
pub async fn raised(s: &Session, thread_id: i64, param: &str) -> String {
    let args = StackTraceArguments {
        thread_id,
        start_frame: 0,
        levels: 1,
    };
    let frame = s
        .req::<protocol::StackTrace>(&args)
        .await
        .ok()
        .and_then(|b| b.stack_frames.first().map(|f| f.id));
    let value = match frame {
        Some(f) => s
            .req::<protocol::Evaluate>(&EvaluateArguments {
                expression: param.into(),
                frame_id: Some(f),
                context: "watch",
            })
            .await
            .ok()
            .map(|r| r.result),
        None => None,
    };
    match value {
        Some(v) => format!("panic: {}", panic_value(&v)),
        None => "panic (its value could not be read)".into(),
    }
}

/// delve's `interface {}(T) v` as `v (T)`, with a runtime bounds error's message, which only
/// its Error method would give.
fn panic_value(shown: &str) -> String {
    let inner = ["interface {}(", "any("]
        .iter()
        .find_map(|p| shown.strip_prefix(p))
        .and_then(|rest| rest.split_once(") "));
    let Some((type_name, value)) = inner else {
        return shown.to_string();
    };
    let value = match type_name {
        "runtime.boundsError" => bounds_message(value).unwrap_or_else(|| value.to_string()),
        _ => value.to_string(),
    };
    format!("{value} ({type_name})")
}

/// "index out of range [5] with length 2" out of `{x: 5, y: 2, signed: true, code: 0}`
/// (runtime/error.go's boundsErrorFmt), for the codes of indexing and slicing.
fn bounds_message(fields: &str) -> Option<String> {
    let field = |name: &str| {
        fields
            .trim_matches(|c| c == '{' || c == '}')
            .split(", ")
            .find_map(|kv| kv.strip_prefix(name)?.strip_prefix(": "))
    };
    // delve names the code's constant: `code: boundsIndex (0)`.
    let code = field("code")?;
    let code = code
        .rsplit_once('(')
        .map_or(code, |(_, n)| n.trim_end_matches(')'));
    let (x, y) = (field("x")?, field("y")?);
    let text = match code {
        "0" => format!("index out of range [{x}] with length {y}"),
        "1" => format!("slice bounds out of range [:{x}] with length {y}"),
        "2" => format!("slice bounds out of range [:{x}] with capacity {y}"),
        "3" => format!("slice bounds out of range [{x}:{y}]"),
        _ => return None,
    };
    Some(format!("runtime error: {text}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panic_values_read_as_value_and_type() {
        assert_eq!(
            panic_value(r#"interface {}(string) "bad number \"x\"""#),
            r#""bad number \"x\"" (string)"#
        );
        assert_eq!(
            panic_value(
                "interface {}(runtime.boundsError) {x: 5, y: 2, signed: true, code: boundsIndex (0)}"
            ),
            "runtime error: index out of range [5] with length 2 (runtime.boundsError)"
        );
        assert_eq!(
            panic_value(r#"interface {}(runtime.plainError) "assignment to entry in nil map""#),
            r#""assignment to entry in nil map" (runtime.plainError)"#
        );
        // Anything else as delve shows it.
        assert_eq!(panic_value("42"), "42");
    }
}
