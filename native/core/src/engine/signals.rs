//! Ends by a signal, named. Backends report a program killed by a signal as the negative
//! signal number (each adapter knows how its debugger says it: debugpy's low byte, gdb's
//! signal stop); a positive status is the program's own, never guessed to be a signal (gdb
//! reported `return -1`'s 255 as "killed by SIGHUP").

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

/// `SIGKILL (signal 9)` when `code` is a signal's negative number.
pub fn from_exit_code(code: i64) -> Option<String> {
    if code >= 0 {
        return None;
    }
    Some(match name(-code) {
        Some(name) => format!("{name} (signal {})", -code),
        None => format!("signal {}", -code),
    })
}

/// The name of signal `n` (11 → `SIGSEGV`), among those this table knows.
pub fn name(n: i64) -> Option<&'static str> {
    NAMES.iter().find(|(k, _)| *k == n).map(|(_, name)| *name)
}

/// The number of the signal called `name` (`SIGSEGV` → 11), among those this table knows.
pub fn number(name: &str) -> Option<i64> {
    NAMES.iter().find(|(_, n)| *n == name).map(|(n, _)| *n)
}

/// `exit code 0`, or `killed by SIGKILL (signal 9)`.
pub fn describe(code: i64) -> String {
    match from_exit_code(code) {
        Some(sig) => format!("killed by {sig}"),
        None => format!("exit code {code}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signal_ends_are_named_and_ordinary_codes_are_not() {
        assert_eq!(describe(-11), "killed by SIGSEGV (signal 11)");
        assert_eq!(describe(-9), "killed by SIGKILL (signal 9)");
        // A status is the program's: `return -1` is 255, not SIGHUP.
        for plain in [0, 1, 2, 127, 130, 192, 241, 247, 255] {
            assert_eq!(describe(plain), format!("exit code {plain}"));
        }
    }
}
