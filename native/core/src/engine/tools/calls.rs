//! Function breakpoints (`set_breakpoint {function}`) and the calls they record
//! (`on_hit: "record"`, read with `get_call_records`), and watchpoints (`set_breakpoint
//! {watch, access}`). Names resolve in the project's sources (`engine::functions`); recording
//! is `engine::recorder`; watchpoints are the backend's data breakpoints.

use super::super::context::{Call, ToolError};
use super::super::functions;
use super::super::recorder::{Recording, Where};
use super::breakpoints::{Access, Breakpoint, OnHit, SetBreakpoint, bp_json, remember, set_at};
use super::{Kind, Outcome, ProjectArg, same_file};
use crate::backend::{
    BackendError, DataAccess, DataBreakpointSpec, FunctionBreakpointSpec, SessionState,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Definitions one function breakpoint binds at most (`print` in a big C project...).
const MAX_MATCHES: usize = 10;

pub(super) async fn set_function_breakpoint(
    c: &mut Call<'_>,
    root: &str,
    mut a: SetBreakpoint,
) -> Outcome<Breakpoint> {
    let name = a.function.clone().unwrap_or_default();
    let croot = c.engine.canonical_root(root);
    let mut found = {
        let (croot, name) = (croot.clone(), name.clone());
        tokio::task::spawn_blocking(move || functions::resolve(&croot, &name))
            .await
            .map_err(|e| ToolError(format!("function lookup failed: {e}")))?
    };
    // With file_path: that function in that file, and only there.
    let mut within = String::new();
    if let Some(shown) = a.file_path.clone() {
        let file = c.file_in_project(root, &shown)?;
        let (here, elsewhere): (Vec<_>, Vec<_>) = std::mem::take(&mut found.matches)
            .into_iter()
            .partition(|d| same_file(&d.file, &file));
        if here.is_empty() && !elsewhere.is_empty() {
            let at: Vec<String> = elsewhere
                .iter()
                .take(MAX_MATCHES)
                .map(|d| format!("{} {}:{}", d.qualified, rel(&croot, &d.file), d.line))
                .collect();
            return Err(ToolError(format!(
                "field 'function': '{name}' is not defined in {shown}; defined at: {}. Pass one of those files as file_path, or no file_path",
                at.join(", ")
            )));
        }
        found.matches = here;
        within = format!(" in {shown}");
    }
    if found.matches.is_empty() {
        let near = if found.near.is_empty() {
            "no similar names".to_string()
        } else {
            format!("near: {}", found.near.join(", "))
        };
        let missing = format!(
            "field 'function': no definition of '{name}'{} ({} source files searched)",
            if within.is_empty() {
                " in the project"
            } else {
                &within
            },
            found.files
        );
        // Before any session only the scan can judge a name: one close to a project function
        // (`fcat`) is a typo, refused at once; one whose bare name the project defines under
        // another owner (`ns::Cart::add`, defined inside its class) or unlike any project
        // name (`printf`) waits for the debugger.
        // `ns::twice<double>`, `ns::Cart::add(int)`: the name without template arguments or
        // a signature.
        let plain = name.split(['<', '(']).next().unwrap_or(&name);
        let bare = plain.rsplit([':', '.']).next().unwrap_or(plain);
        let same_bare = found.near.iter().any(|n| {
            let shown = n.split(" (").next().unwrap_or(n);
            shown.rsplit(['.', ':']).next() == Some(bare)
        });
        let live = c.engine.with_state(|s| {
            s.sessions.values().any(|x| {
                x.info.state != SessionState::Stopped
                    && x.project.as_deref().is_none_or(|p| p == root)
            })
        });
        if !live && !found.near.is_empty() && !same_bare {
            return Err(ToolError(format!("{missing}; {near}")));
        }
        // The debugger binds names only (gdb's DAP takes no file with a function name): say
        // that the file could not narrow it.
        let mut b = by_debugger(c, root, &croot, a, missing, near).await?;
        if !within.is_empty() && b.note.is_none() {
            b.note = Some(format!(
                "not found{within} by the source scan: the debugger binds '{name}' wherever it is defined"
            ));
        }
        return Ok(b);
    }
    if found.matches.len() > MAX_MATCHES {
        let some: Vec<String> = found
            .matches
            .iter()
            .take(5)
            .map(|d| format!("{} {}:{}", d.qualified, rel(&croot, &d.file), d.line))
            .collect();
        return Err(ToolError(format!(
            "field 'function': '{name}' has {} definitions (at most {MAX_MATCHES}); qualify it (Class.method, pkg.Func, module:func): {}",
            found.matches.len(),
            some.join(", ")
        )));
    }
    // Popping a frame with a value: the backend says whether the debugger that would run each
    // definition can (gdb's `return`, the JVM's ForceEarlyReturn in the IDE), so a refusal
    // comes now rather than at the first call.
    if a.force_return.is_some() {
        // The handshake first: a backend may answer from what it said there (the IDE).
        let _ = c.engine.info().await;
        let backend = c.engine.backend.clone();
        if let Some((d, why)) = found
            .matches
            .iter()
            .find_map(|d| backend.force_return_refusal(&d.file).map(|w| (d, w)))
        {
            return Err(ToolError(format!(
                "field 'force_return': {why}; {} is in {}. Instead: step_out of the call, then set_variable on its result",
                d.qualified,
                rel(&croot, &d.file)
            )));
        }
        a.on_hit = OnHit::Record;
    }
    if a.on_hit == OnHit::Log && a.log_message.as_deref().is_none_or(str::is_empty) {
        a.log_message = Some(format!("{name} called"));
    }
    let mut first: Option<Breakpoint> = None;
    let mut bound = Vec::new();
    for d in &found.matches {
        let mut b = set_at(c, root, &d.file, d.body_line, &a).await?;
        c.engine.with_state(|s| {
            if a.on_hit == OnHit::Record {
                s.calls.forget(&d.qualified);
            }
            let m = s.breakpoints.entry(b.id.clone()).or_default();
            m.function = Some(name.clone());
            m.record = (a.on_hit == OnHit::Record).then(|| Recording {
                function: d.qualified.clone(),
                max_calls: a.max_calls.unwrap_or(100),
                recorded: 0,
                force_return: a.force_return.clone(),
            });
        });
        b.function = Some(name.clone());
        b.on_hit = (a.on_hit == OnHit::Record).then(|| "record".into());
        bound.push(format!(
            "{}:{} {} (id {})",
            rel(&croot, &d.file),
            b.line.unwrap_or(d.body_line),
            d.qualified,
            b.id
        ));
        first.get_or_insert(b);
    }
    let mut b = first.expect("at least one match");
    // Where it bound is the function's first body line, not the line the agent asked for.
    b.requested_line = None;
    b.bound = bound;
    if let Some(v) = &a.force_return {
        b.note = Some(format!(
            "each call (up to {}) returns {v} at once, without running its body; calls recorded (get_call_records)",
            a.max_calls.unwrap_or(100)
        ));
    } else if a.on_hit == OnHit::Record {
        b.note = Some(format!(
            "recording up to {} calls without stopping (earlier records of it dropped); read them with get_call_records",
            a.max_calls.unwrap_or(100)
        ));
    }
    Ok(b)
}

/// A name the project scan cannot find (a library function, a C++ overload or template, a
/// qualified name the lexical scan does not see): the debugger binds it by name (DAP
/// `setFunctionBreakpoints`) where the backend can. Not found by either: `missing`, `near`.
async fn by_debugger(
    c: &mut Call<'_>,
    root: &str,
    croot: &Path,
    a: SetBreakpoint,
    missing: String,
    near: String,
) -> Outcome<Breakpoint> {
    let name = a.function.clone().unwrap_or_default();
    // Log messages and forced returns ride on line breakpoints at a known definition.
    if a.on_hit == OnHit::Log || a.force_return.is_some() {
        return Err(ToolError(format!(
            "{missing}; {} needs one; {near}",
            if a.on_hit == OnHit::Log {
                "on_hit 'log'"
            } else {
                "force_return"
            }
        )));
    }
    let spec = FunctionBreakpointSpec {
        name: name.clone(),
        condition: a.condition.clone().filter(|s| !s.is_empty()),
        hit_condition: a.hit_condition.clone().filter(|s| !s.is_empty()),
        enabled: a.enabled,
        temporary: a.temporary,
    };
    let backend = c.engine.backend.clone();
    let ms = c.cfg.backend_timeout_ms;
    let info = match tokio::time::timeout(
        std::time::Duration::from_millis(ms),
        backend.add_function_breakpoint(root, spec),
    )
    .await
    {
        Ok(Ok(info)) => info,
        Ok(Err(e)) => {
            // Unsupported says why the debugger cannot bind names (debugpy's matching).
            let why = match e {
                BackendError::NotFound(m) | BackendError::Failed(m) => m,
                BackendError::Unsupported(m) => format!("the debugger: {m}"),
                other => other.to_string(),
            };
            return Err(ToolError(format!("{missing}; {why}; {near}")));
        }
        Err(_) => {
            return Err(ToolError(format!(
                "{missing}; the debugger did not bind it within {ms} ms; {near}"
            )));
        }
    };
    let meta = remember(c, root, &info);
    c.engine.with_state(|s| {
        if a.on_hit == OnHit::Record {
            s.calls.forget(&name);
        }
        let m = s.breakpoints.entry(info.id.clone()).or_default();
        m.function = Some(name.clone());
        m.record = (a.on_hit == OnHit::Record).then(|| Recording {
            function: name.clone(),
            max_calls: a.max_calls.unwrap_or(100),
            recorded: 0,
            force_return: None,
        });
    });
    let mut b = bp_json(&info, Some(&meta));
    b.function = Some(name.clone());
    b.status = Some("set".into());
    b.on_hit = (a.on_hit == OnHit::Record).then(|| "record".into());
    b.bound = vec![match (&info.file, info.line) {
        (Some(f), Some(l)) if info.verified => {
            format!("{}:{l} {name} (id {})", rel(croot, f), info.id)
        }
        _ => format!(
            "{name} (id {}): {}",
            info.id,
            match &info.message {
                Some(m) => m.as_str(),
                None if info.verified => "bound, no source",
                None => "pending",
            }
        ),
    }];
    if a.on_hit == OnHit::Record {
        b.note = Some(format!(
            "recording up to {} calls without stopping; read them with get_call_records",
            a.max_calls.unwrap_or(100)
        ));
    }
    Ok(b)
}

/// A watchpoint on what `a.watch` names in the current frame of the paused session.
pub(super) async fn set_watchpoint(
    c: &mut Call<'_>,
    root: &str,
    a: SetBreakpoint,
) -> Outcome<Breakpoint> {
    let expression = a.watch.clone().unwrap_or_default();
    let sid = c.session(root, None).await.map_err(|e| {
        ToolError(format!(
            "{}; watch needs a paused session (the expression is resolved in its current frame)",
            e.0
        ))
    })?;
    let (thread, _) = c.paused(&sid).map_err(|e| {
        ToolError(format!(
            "{}; watch resolves the expression in the paused frame: stop where it is in scope first",
            e.0
        ))
    })?;
    let index = c
        .engine
        .with_state(|s| s.sessions.get(&sid).map(|x| x.selected_frame).unwrap_or(0));
    let frame = c.frame(&sid, &thread, index).await?;
    let spec = DataBreakpointSpec {
        session_id: sid,
        frame: frame.handle,
        expression: expression.clone(),
        access: match a.access.unwrap_or(Access::Write) {
            Access::Write => DataAccess::Write,
            Access::Read => DataAccess::Read,
            Access::ReadWrite => DataAccess::ReadWrite,
        },
        condition: a.condition.clone().filter(|s| !s.is_empty()),
        hit_condition: a.hit_condition.clone().filter(|s| !s.is_empty()),
    };
    let backend = c.engine.backend.clone();
    let info = c
        .bk(
            "add_data_breakpoint",
            backend.add_data_breakpoint(root, spec),
        )
        .await
        .map_err(|e| {
            if e.0.contains("not supported") {
                ToolError(format!(
                    "{}. Watchpoints need data breakpoints: gdb or lldb-dap for C/C++/Rust, the IDE for Java fields. Instead: a conditional breakpoint on the lines that assign it (condition e.g. '{expression} != <old value>')",
                    e.0
                ))
            } else {
                e
            }
        })?;
    let meta = remember(c, root, &info);
    let mut b = bp_json(&info, Some(&meta));
    b.status = Some("set".into());
    Ok(b)
}

fn rel(root: &Path, f: &str) -> String {
    Path::new(f)
        .strip_prefix(root)
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| f.to_string())
}

/// # Recorded calls
/// Calls recorded by on_hit 'record'.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct GetCallRecords {
    #[serde(flatten)]
    p: ProjectArg,
    function: Option<String>,
    // Rows at most (50 when absent).
    #[schemars(range(min = 1, max = 500))]
    limit: Option<u32>,
    /// e.g. 'result < 0', 'n == 3', '-> None'
    #[serde(rename = "where")]
    filter: Option<String>,
}
tool!(
    GetCallRecords,
    "get_call_records",
    Kind::Read,
    CallRows,
    get_call_records
);

#[derive(Serialize, JsonSchema)]
pub struct CallRows {
    rows: Vec<String>,
    /// Rows matching (before limit and the byte cut).
    matched: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

/// Bytes of rows returned at most.
const MAX_BYTES: usize = 8_000;

async fn get_call_records(c: &mut Call<'_>, a: GetCallRecords) -> Outcome<CallRows> {
    let root = c.project(a.p.project_path.as_deref()).await?;
    let (rows, total) = select(c, &root, None, &a);
    cut(rows, total, &a)
}

/// The rows of the calls recorded in session `sid` (the one-call start's answer), cut as
/// get_call_records cuts them.
pub(super) fn rows_of(c: &Call<'_>, root: &str, sid: &str) -> Vec<String> {
    rows_after(c, root, sid, 0)
}

/// How many calls session `sid` has recorded (and still keeps).
pub(super) fn count_of(c: &Call<'_>, sid: &str) -> usize {
    c.engine
        .with_state(|s| s.calls.rows.iter().filter(|r| r.session == sid).count())
}

/// The session's calls after its first `from` (those one request recorded), cut as
/// get_call_records cuts them.
pub(super) fn rows_after(c: &Call<'_>, root: &str, sid: &str, from: usize) -> Vec<String> {
    let a = GetCallRecords {
        p: ProjectArg::default(),
        function: None,
        limit: None,
        filter: None,
    };
    let (rows, _) = select(c, root, Some(sid), &a);
    let rows: Vec<String> = rows.into_iter().skip(from).collect();
    let total = rows.len();
    if total == 0 {
        return Vec::new();
    }
    match cut(rows, total, &a) {
        Ok(mut r) => {
            // "20 of 80 rows shown": get_call_records reads the rest.
            r.rows
                .extend(r.message.map(|m| format!("({m}: get_call_records)")));
            r.rows
        }
        Err(_) => Vec::new(),
    }
}

/// Rows of the project's recorded calls (of one session when given) matching `a`, and how many
/// calls are recorded in all.
fn select(
    c: &Call<'_>,
    root: &str,
    session: Option<&str>,
    a: &GetCallRecords,
) -> (Vec<String>, usize) {
    let filter = a.filter.as_deref().map(Where::parse);
    c.engine.with_state(|s| {
        let rows: Vec<String> = s
            .calls
            .rows
            .iter()
            .filter(|r| session.is_none_or(|sid| r.session == sid))
            .filter(|r| {
                // Calls of this project's sessions (a session the engine forgot counts too).
                s.sessions
                    .get(&r.session)
                    .and_then(|x| x.project.as_deref())
                    .is_none_or(|p| p == root)
            })
            .filter(|r| {
                a.function
                    .as_deref()
                    .is_none_or(|f| same_function(&r.function, f))
            })
            .filter(|r| filter.as_ref().is_none_or(|w| w.matches(r)))
            .map(|r| r.row())
            .collect();
        (rows, s.calls.rows.len())
    })
}

/// Does `asked` name the recorded `function`: the same name in any spelling (`Cart.add`,
/// `Cart::add`, PHP's `\\Ns\\Cart::add` / `Cart->add`), or a shorter or longer qualification.
fn same_function(function: &str, asked: &str) -> bool {
    let plain = |n: &str| {
        n.trim()
            .trim_start_matches('\\')
            .replace("::", ".")
            .replace("->", ".")
            .replace(['\\', ':'], ".")
    };
    let (r, f) = (plain(function), plain(asked));
    r == f || r.ends_with(&format!(".{f}")) || f.ends_with(&format!(".{r}"))
}

fn cut(rows: Vec<String>, total: usize, a: &GetCallRecords) -> Outcome<CallRows> {
    let matched = rows.len() as u64;
    let mut out = Vec::new();
    let mut bytes = 0;
    let mut cut = false;
    for r in rows.into_iter().take(a.limit.unwrap_or(50) as usize) {
        if bytes + r.len() > MAX_BYTES {
            cut = true;
            break;
        }
        bytes += r.len() + 3;
        out.push(r);
    }
    let message = if total == 0 {
        Some("no calls recorded: set_breakpoint {function, on_hit: 'record'} first, then run the program".into())
    } else if matched == 0 {
        Some(format!("none of the {total} recorded calls match"))
    } else if cut || (out.len() as u64) < matched {
        Some(format!(
            "{} of {matched} rows shown; narrow with where or raise limit",
            out.len()
        ))
    } else {
        None
    };
    Ok(CallRows {
        rows: out,
        matched,
        message,
    })
}

#[cfg(test)]
mod tests {
    use super::same_function;

    #[test]
    fn recorded_calls_are_found_by_any_spelling_of_their_name() {
        for asked in [
            "Cart::add",
            "Cart.add",
            "Cart->add",
            "add",
            "\\Shop\\Cart::add",
        ] {
            assert!(same_function("Shop\\Cart::add", asked), "{asked}");
        }
        assert!(same_function("Cart.add_item", "add_item"));
        assert!(!same_function("Cart::add", "Cart::adder"));
        assert!(!same_function("Cart::add", "dd"));
    }
}
