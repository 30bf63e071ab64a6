//! Exit statuses that mean "killed by a signal", named. Adapters report such an end as a
//! number: debugpy sends the low 8 bits of Python's negative return code (SIGKILL → 247),
//! others send the negative signal number. "exit code 247" reads like the program's own
//! choice; "killed by SIGKILL" says what happened.

/// POSIX signal names by number (Linux numbering, which macOS shares for these).
const NAMES: [(i64, &str); 15] = [
    (1, "SIGHUP"),
    (2, "SIGINT"),
    (3, "SIGQUIT"),
    (4, "SIGILL"),
    (5, "SIGTRAP"),
    (6, "SIGABRT"),
    (7, "SIGBUS"),
    (8, "SIGFPE"),
    (9, "SIGKILL"),
    (11, "SIGSEGV"),
    (13, "SIGPIPE"),
    (14, "SIGALRM"),
    (15, "SIGTERM"),
    (24, "SIGXCPU"),
    (25, "SIGXFSZ"),
];

/// `SIGKILL (signal 9)` when `code` encodes a signal: negative (-9), or a negative code's low
/// byte (247). Exit codes above 192 are almost never a program's own choice, so 256 - n of a
/// known signal is read as that signal.
pub fn from_exit_code(code: i64) -> Option<String> {
    let sig = match code {
        c if c < 0 => -c,
        c if (193..=255).contains(&c) => 256 - c,
        _ => return None,
    };
    NAMES
        .iter()
        .find(|(n, _)| *n == sig)
        .map(|(n, name)| format!("{name} (signal {n})"))
}

/// The number of the signal called `name` (`SIGSEGV` → 11), among those this table knows.
pub fn number(name: &str) -> Option<i64> {
    NAMES.iter().find(|(_, n)| *n == name).map(|(n, _)| *n)
}

/// `exit code 0`, or `exit code 247: killed by SIGKILL (signal 9)`.
pub fn describe(code: i64) -> String {
    match from_exit_code(code) {
        Some(sig) => format!("exit code {code}: killed by {sig}"),
        None => format!("exit code {code}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signal_ends_are_named_and_ordinary_codes_are_not() {
        assert_eq!(describe(247), "exit code 247: killed by SIGKILL (signal 9)");
        assert_eq!(
            describe(-11),
            "exit code -11: killed by SIGSEGV (signal 11)"
        );
        assert_eq!(
            describe(241),
            "exit code 241: killed by SIGTERM (signal 15)"
        );
        for plain in [0, 1, 2, 127, 130, 192] {
            assert_eq!(describe(plain), format!("exit code {plain}"));
        }
    }
}
