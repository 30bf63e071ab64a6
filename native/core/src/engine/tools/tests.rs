//! debug_test: debug one test by id, without a run configuration. The backend's `debug_test` op
//! is tried first (the IDE builds a temporary run configuration from the test's PSI element);
//! a backend without it (headless DAP) gets a command line instead:
//! - pytest node ids → `python3 -m pytest -q <node id>` under debugpy;
//! - gtest/ctest → `<binary> --gtest_filter=<id>` under gdb;
//! - Go `calc/calc_test.go::TestAdd` (file::test, `/sub` for a subtest, like pytest's ids) →
//!   `go test <the file's package> -run '^TestAdd$'` under delve (mode "test");
//! - anything else (JUnit) → refused: it needs the IDE.
//!
//! A test id that selects nothing ends the session at once; that is reported as an error naming
//! the id, with the runner's last output lines, instead of a silent "it ended".

use super::super::context::{Call, ToolError};
use super::super::snapshot;
use super::out::{State, StopResult};
use super::sessions::launch;
use super::{Kind, MAX_WAIT_MS, Outcome, ProjectArg};
use crate::backend::{
    BackendError, LaunchMode, LaunchRequest, OutputCategory, SessionState, TestRequest,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Framework {
    Pytest,
    Gtest,
    Go,
    /// Whatever the IDE recognises for the id (JUnit `pkg.Class#method`, Go `TestX`, ...).
    Ide,
}

/// # Debug a test
/// By test id, with start_debug_session's breakpoints and evaluate: pytest 'tests/t.py::test_x', Go 'x_test.go::TestX', gtest 'Suite.Case' + binary.
#[derive(Deserialize, Serialize, JsonSchema)]
// Listed once, on start_debug_session (the description and the instructions say so): 330 B.
#[schemars(transform = |s: &mut schemars::Schema| super::unlist(s, &["breakpoints", "evaluate"]))]
pub struct DebugTest {
    #[serde(flatten)]
    p: ProjectArg,
    #[schemars(length(min = 1))]
    test_id: String,
    #[schemars(length(min = 1))]
    binary: Option<String>,
    #[serde(flatten)]
    first: super::first::FirstAnswer,
}
tool!(
    DebugTest,
    "debug_test",
    Kind::Destructive { idempotent: false },
    TestRun,
    debug_test
);

/// A debugged test: its first pause, or how it ended.
#[derive(Serialize, JsonSchema)]
pub struct TestRun {
    session_id: String,
    framework: String,
    state: State,
    message: String,
    /// Another session of this agent that is still paused.
    #[serde(skip_serializing_if = "Option::is_none")]
    also: Option<String>,
    pause: StopResult,
    /// The runner's last output lines, when the test ended without pausing.
    #[serde(skip_serializing_if = "Option::is_none")]
    output: Option<Vec<String>>,
}

/// Quotes a word for the backend's POSIX-like command splitting.
fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

fn infer(a: &DebugTest) -> Framework {
    if a.binary.is_some() {
        Framework::Gtest
    } else if a
        .test_id
        .split("::")
        .next()
        .is_some_and(|f| f.ends_with(".py"))
    {
        Framework::Pytest
    } else if a
        .test_id
        .split("::")
        .next()
        .is_some_and(|f| f.ends_with("_test.go"))
    {
        Framework::Go
    } else {
        Framework::Ide
    }
}

fn name(f: Framework) -> &'static str {
    match f {
        Framework::Pytest => "pytest",
        Framework::Gtest => "gtest",
        Framework::Go => "go",
        Framework::Ide => "ide",
    }
}

/// The headless command for the test, after checking the files it names exist.
fn command(
    c: &Call<'_>,
    root: &str,
    f: Framework,
    a: &DebugTest,
) -> Result<(String, Option<String>, Option<String>), ToolError> {
    match f {
        Framework::Pytest => {
            let file = a.test_id.split("::").next().unwrap_or_default();
            let path = c
                .file_in_project(root, file)
                .map_err(|e| ToolError(format!("unknown test id '{}': {}", a.test_id, e.0)))?;
            Ok((
                format!(
                    "python3 -m pytest -q -p no:cacheprovider {}",
                    quote(&a.test_id)
                ),
                Some("debugpy".into()),
                Some(path),
            ))
        }
        Framework::Gtest => {
            let Some(bin) = a.binary.as_deref() else {
                return Err("gtest needs `binary`: the test executable (relative to the project), built with -g".into());
            };
            let path = c.file_in_project(root, bin)?;
            Ok((
                format!(
                    "{} {}",
                    quote(&path),
                    quote(&format!("--gtest_filter={}", a.test_id))
                ),
                Some("gdb".into()),
                Some(path),
            ))
        }
        Framework::Go => {
            let (file, test) = a.test_id.split_once("::").unwrap_or((&a.test_id, ""));
            let path = c
                .file_in_project(root, file)
                .map_err(|e| ToolError(format!("unknown test id '{}': {}", a.test_id, e.0)))?;
            if test.is_empty() || test.split('/').any(str::is_empty) {
                return Err(ToolError(format!(
                    "test id '{}' names no test: give 'path/x_test.go::TestName' (a subtest: 'path/x_test.go::TestName/case')",
                    a.test_id
                )));
            }
            let dir = std::path::Path::new(&path)
                .parent()
                .map(|d| d.display().to_string())
                .unwrap_or_else(|| root.to_string());
            Ok((
                format!(
                    "go test {} -run {}",
                    quote(&dir),
                    quote(&go_run_pattern(test))
                ),
                Some("delve".into()),
                Some(path),
            ))
        }
        Framework::Ide => Err(ToolError(format!(
            "cannot run test '{}' headless: give a pytest node id ('tests/test_x.py::test_y'), a Go test ('calc/calc_test.go::TestAdd') or a gtest name with `binary` (JUnit tests: in the IDE)",
            a.test_id
        ))),
    }
}

/// `go test -run` pattern selecting exactly one test (or subtest): each `/`-separated level
/// anchored, with regexp metacharacters escaped (subtest names may contain them).
fn go_run_pattern(test: &str) -> String {
    test.split('/')
        .map(|level| {
            let escaped: String = level
                .chars()
                .flat_map(|ch| {
                    let meta = r"\.+*?()|[]{}^$".contains(ch);
                    meta.then_some('\\').into_iter().chain(std::iter::once(ch))
                })
                .collect();
            format!("^{escaped}$")
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The runner's last lines of output, to show why a test selected nothing or failed.
fn output_tail(c: &Call<'_>, sid: &str, n: usize) -> Vec<String> {
    c.engine.with_state(|s| {
        let Some(x) = s.sessions.get(sid) else {
            return Vec::new();
        };
        let text: String = x
            .output
            .iter()
            .filter(|(cat, _)| matches!(cat, OutputCategory::Stdout | OutputCategory::Stderr))
            .map(|(_, t)| t.as_str())
            .collect();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        lines[lines.len().saturating_sub(n)..]
            .iter()
            .map(|l| l.chars().take(200).collect())
            .collect()
    })
}

/// The runner itself is missing (its module cannot be imported): what to install, and where.
/// Without it the agent reads only "failed (exit code 1)" and guesses at its own test.
fn missing_runner(f: Framework, tail: &[String]) -> Option<String> {
    match f {
        Framework::Pytest => tail
            .iter()
            .any(|l| l.contains("No module named pytest") || l.contains("No module named 'pytest'"))
            .then(|| {
                "pytest is not installed for the python3 that runs the tests (\"No module named \
                 pytest\"). Install it there, e.g. `python3 -m pip install pytest` (in the \
                 project's virtualenv if it has one), then call debug_test again."
                    .to_string()
            }),
        _ => None,
    }
}

/// Whether the runner said no test matched (pytest exit codes 4 and 5, gtest's "0 tests").
fn selected_nothing(f: Framework, exit: Option<i64>, tail: &[String]) -> bool {
    match f {
        Framework::Pytest => {
            matches!(exit, Some(4 | 5))
                || tail
                    .iter()
                    .any(|l| l.contains("no tests ran") || l.contains("ERROR: not found"))
        }
        Framework::Gtest => tail.iter().any(|l| l.contains("Running 0 tests")),
        Framework::Go => tail.iter().any(|l| l.contains("no tests to run")),
        Framework::Ide => false,
    }
}

async fn debug_test(c: &mut Call<'_>, a: DebugTest) -> Outcome<TestRun> {
    let root = c.project(a.p.project_path.as_deref()).await?;
    let f = infer(&a);
    let backend = c.engine.backend.clone();
    // Ids naming a file are checked before anything starts or the user is asked.
    let headless = command(c, &root, f, &a);
    if let (Framework::Pytest | Framework::Gtest | Framework::Go, Err(e)) = (f, &headless) {
        return Err(e.clone());
    }
    let file = headless.as_ref().ok().and_then(|(_, _, file)| file.clone());
    a.first.check()?;
    c.confirm(&root, "debug a test", &format!("{} in {root}", a.test_id))
        .await?;
    let set = a.first.set(c, &root).await?;
    // The IDE's op first: it knows every framework the IDE does, through its producers.
    let request = TestRequest {
        framework: name(f).into(),
        test_id: a.test_id.clone(),
        file,
        stop_on_exception: false,
    };
    let started = match tokio::time::timeout(
        std::time::Duration::from_millis(c.cfg.launch_timeout_ms),
        backend.debug_test(&root, request),
    )
    .await
    {
        Ok(Ok(info)) => {
            c.engine.register_session(info.clone(), Some(&root));
            c.engine.with_state(|s| {
                s.current.insert(root.clone(), info.id.clone());
            });
            Ok(info)
        }
        Ok(Err(BackendError::Unsupported(_))) => match headless {
            Ok((cmd, adapter, _)) => {
                let request = LaunchRequest {
                    command: Some(cmd),
                    adapter,
                    mode: LaunchMode::Debug,
                    cwd: Some(root.clone()),
                    ..Default::default()
                };
                launch(c, &root, request).await
            }
            Err(e) => Err(e),
        },
        Ok(Err(e)) => Err(super::super::context::backend_error(
            "debug_test",
            &c.engine.backend_name(),
            e,
        )),
        Err(_) => Err(ToolError(format!(
            "the debugger did not start test '{}' within {} ms",
            a.test_id, c.cfg.launch_timeout_ms
        ))),
    };
    let info = match started {
        Ok(info) => info,
        Err(e) => {
            // A test that did not start leaves no breakpoint of its own behind.
            let _ = super::breakpoints::remove_ids(c, &root, &set).await;
            return Err(e);
        }
    };
    let sid = info.id.clone();

    // Tests may build and collect for a while; the cap every wait has.
    let timeout = MAX_WAIT_MS;
    let mut sub = c.subscribe(&sid)?;
    let stopped = c
        .wait_until(&sid, &mut sub, timeout, |x| {
            x.pause_seq > 0 || x.state() == SessionState::Stopped
        })
        .await;
    let mut pause = snapshot::stop_result(c, &sid, (!stopped).then_some(timeout)).await;
    a.first.answer(c, &root, &mut pause).await;
    let state = pause.state;
    let mut output = None;
    let message;
    if state == State::Stopped {
        // Output can trail the end event a little.
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        let tail = output_tail(c, &sid, 12);
        let exit = c
            .engine
            .with_state(|s| s.sessions.get(&sid).and_then(|x| x.exit_code));
        if selected_nothing(f, exit, &tail) {
            let _ = super::breakpoints::remove_ids(c, &root, &set).await;
            return Err(ToolError(format!(
                "unknown test id '{}': the {} run selected no test (exit code {}). Last output:\n{}",
                a.test_id,
                // "the go run" would read as the `go run` command.
                if f == Framework::Go {
                    "go test"
                } else {
                    name(f)
                },
                exit.map(|e| e.to_string())
                    .unwrap_or_else(|| "unknown".into()),
                tail.join("\n")
            )));
        }
        if let Some(hint) = missing_runner(f, &tail) {
            return Ok(TestRun {
                also: super::sessions::still_paused(c, &root, &sid),
                session_id: sid,
                framework: name(f).to_string(),
                state,
                message: format!("test '{}' could not run: {hint}", a.test_id),
                pause,
                output: Some(tail),
            });
        }
        let verdict = match exit {
            Some(0) => "passed".to_string(),
            Some(code) => format!("failed ({})", super::super::signals::describe(code)),
            None => "ended".to_string(),
        };
        message = if pause.calls.is_empty() {
            format!(
                "test '{}' {verdict} without pausing (no breakpoint was hit)",
                a.test_id
            )
        } else {
            format!(
                "test '{}' {verdict}; the calls it made are in calls",
                a.test_id
            )
        };
        output = Some(tail);
    } else if state == State::Paused {
        message = format!(
            "test '{}' paused ({})",
            a.test_id,
            pause.reason.as_deref().unwrap_or("")
        );
    } else {
        message = format!(
            "test '{}' still running after {timeout} ms: call wait_for_pause",
            a.test_id
        );
    }
    let ended = state == State::Stopped;
    let message = match super::breakpoints::unbound_note(c, &root, &set, ended).await {
        Some(note) => format!("{message}. {note}"),
        None => message,
    };
    Ok(TestRun {
        also: super::sessions::still_paused(c, &root, &sid),
        session_id: sid,
        framework: name(f).to_string(),
        state,
        message,
        pause,
        output,
    })
}

#[cfg(test)]
mod framework_tests {
    use super::*;

    #[test]
    fn quoting_survives_brackets_spaces_and_quotes() {
        assert_eq!(quote("t.py::test_a[x y]"), "'t.py::test_a[x y]'");
        assert_eq!(quote("it's"), r"'it'\''s'");
    }

    #[test]
    fn runners_that_selected_nothing_are_recognised() {
        assert!(selected_nothing(Framework::Pytest, Some(4), &[]));
        assert!(selected_nothing(
            Framework::Pytest,
            Some(1),
            &["ERROR: not found: /p/t.py::nope".into()]
        ));
        assert!(!selected_nothing(
            Framework::Pytest,
            Some(1),
            &["1 failed".into()]
        ));
        assert!(selected_nothing(
            Framework::Gtest,
            Some(0),
            &["[==========] Running 0 tests from 0 test suites.".into()]
        ));
        assert!(selected_nothing(
            Framework::Go,
            Some(0),
            &["testing: warning: no tests to run".into(), "PASS".into()]
        ));
        assert!(!selected_nothing(Framework::Go, Some(0), &["PASS".into()]));
    }

    #[test]
    fn a_missing_pytest_is_named_with_how_to_install_it() {
        let tail = ["/usr/bin/python3: No module named pytest".to_string()];
        let hint = missing_runner(Framework::Pytest, &tail).unwrap();
        assert!(hint.contains("pip install pytest"), "{hint}");
        assert!(missing_runner(Framework::Pytest, &["1 failed".into()]).is_none());
    }

    #[test]
    fn go_test_ids_select_exactly_one_test() {
        assert_eq!(go_run_pattern("TestAdd"), "^TestAdd$");
        assert_eq!(go_run_pattern("TestAdd/neg_(2)"), r"^TestAdd$/^neg_\(2\)$");
    }
}
