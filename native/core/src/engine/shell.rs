//! What in a command a shell reads otherwise than the agent most likely meant. Commands are
//! read as a shell reads them (issue 26), so `curl http://h/p?a=1&b=2` is two commands: `curl
//! http://h/p?a=1` in the background and `b=2`, an assignment; the request silently lacks
//! `b`. An `&` glued between two words is never meant in a debug command, so it is refused
//! before anything starts, naming the fix.

use super::context::ToolError;

/// Refuses an unquoted `&` directly between two words (`a=1&b=2`), naming the word and its fix.
pub fn check_command(command: &str) -> Result<(), ToolError> {
    let chars: Vec<char> = command.chars().collect();
    let mut quote: Option<char> = None;
    let mut i = 0;
    // Where the unquoted word around the current position starts.
    let mut word_start = 0;
    while i < chars.len() {
        let c = chars[i];
        match quote {
            Some('\'') => {
                if c == '\'' {
                    quote = None;
                }
            }
            Some(_) => match c {
                '\\' => i += 1,
                '"' => quote = None,
                _ => {}
            },
            None => match c {
                '\\' => i += 1,
                '\'' | '"' => quote = Some(c),
                c if c.is_whitespace() || ";|()<>".contains(c) => word_start = i + 1,
                '&' => {
                    let prev = i.checked_sub(1).map(|p| chars[p]);
                    let next = chars.get(i + 1).copied();
                    let glued = |x: Option<char>| {
                        x.is_some_and(|x| !x.is_whitespace() && !";|()<>&".contains(x))
                    };
                    if glued(prev) && glued(next) {
                        let end = (i + 1..chars.len())
                            .find(|&j| chars[j].is_whitespace() || ";|()<>".contains(chars[j]))
                            .unwrap_or(chars.len());
                        let word: String = chars[word_start..end].iter().collect();
                        let before: String = chars[..i].iter().collect();
                        let after: String = chars[i + 1..end].iter().collect();
                        return Err(ToolError(format!(
                            "the shell splits `{word}` at `&`: it would run `{}` in the background and `{after}` as a command of its own; quote it ('{}') and call again (nothing was started)",
                            before.trim(),
                            word.replace('\'', r"'\''")
                        )));
                    }
                    word_start = i + 1;
                }
                _ => {}
            },
        }
        i += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_command;

    #[test]
    fn an_ampersand_inside_a_word_is_refused_with_the_quoted_word() {
        let e = check_command(
            "curl http://127.0.0.1:18121/next?job=sync-invoices&after=2026-12-08T10:50",
        )
        .unwrap_err()
        .0;
        assert!(
            e.starts_with(
                "the shell splits `http://127.0.0.1:18121/next?job=sync-invoices&after=2026-12-08T10:50` at `&`: it would run `curl http://127.0.0.1:18121/next?job=sync-invoices` in the background and `after=2026-12-08T10:50`"
            ),
            "{e}"
        );
        assert!(
            e.contains(
                "quote it ('http://127.0.0.1:18121/next?job=sync-invoices&after=2026-12-08T10:50')"
            ),
            "{e}"
        );
    }

    #[test]
    fn what_a_shell_and_the_agent_read_alike_passes() {
        for ok in [
            "curl 'http://h/p?a=1&b=2'",
            "curl \"http://h/p?a=1&b=2\"",
            "curl http://h/p?a=1\\&b=2",
            "./prog > out 2>&1",
            "./prog &> log",
            "make && ./prog",
            "curl -s http://a/1 & curl -s http://a/2 & wait",
            "./server &",
            "prog |& tee x",
            "php a.php",
        ] {
            assert!(check_command(ok).is_ok(), "{ok}");
        }
    }
}
