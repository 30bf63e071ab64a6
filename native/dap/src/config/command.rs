//! Command lines ("trap and trigger"): split like a shell would, and matched to the adapter
//! that runs them (each adapter says which commands and files it claims).
//!
//! A command is read as a shell reads one command: `VAR=value` prefixes, words and quotes,
//! redirections of the program's streams (`< in`, `> out`, `>> log`, `2>&1`) and a pipeline
//! feeding it (`gen | ./prog`: the program is the last command). What a launch cannot honour
//! without running a shell around the debugged program (lists with `;`/`&&`, a pipe out of the
//! program, `$VAR` and `$(…)` expansions) is refused, naming it, rather than passed on to the
//! program as words. Hand-written: the crates that split words (shlex, shell-words) drop the
//! difference between a quoted `'<'` and a redirection, and brush-parser, the full parser,
//! brings insta, cached, bon and peg as normal dependencies for these few rules.

use super::{Generic, absolutize};
use crate::adapters::{ADAPTERS, AdapterRef, names};
use debugger_mcp_core::backend::BackendError;
use std::path::{Path, PathBuf};

/// Splits a command line like a POSIX shell would for words and quotes (no expansion); a
/// redirection, pipe or list in it is an error (only a whole command may have them).
pub fn split_command(s: &str) -> Result<Vec<String>, BackendError> {
    let c = parse_command(s)?;
    if let Some(op) = c.shell_part() {
        return Err(BackendError::Failed(format!(
            "'{op}' in an argument list: only a command line may redirect or pipe ({s})"
        )));
    }
    Ok(c.words)
}

/// One stream of the program pointed elsewhere, as the command line wrote it.
#[derive(Debug, Clone, PartialEq)]
pub struct Redirect {
    /// 0 stdin, 1 stdout, 2 stderr.
    pub fd: u32,
    pub to: RedirectTo,
}

#[derive(Debug, Clone, PartialEq)]
pub enum RedirectTo {
    Read(PathBuf),
    Write(PathBuf),
    Append(PathBuf),
    /// `2>&1`: a copy of another of the program's streams.
    Dup(u32),
}

impl Redirect {
    /// In shell syntax, paths quoted.
    pub fn shell(&self) -> String {
        let (op, target) = match &self.to {
            RedirectTo::Read(p) => ("<", shell_quote(&p.display().to_string())),
            RedirectTo::Write(p) => (">", shell_quote(&p.display().to_string())),
            RedirectTo::Append(p) => (">>", shell_quote(&p.display().to_string())),
            RedirectTo::Dup(n) => (">&", n.to_string()),
        };
        let fd = match (self.fd, &self.to) {
            (0, RedirectTo::Read(_)) | (1, RedirectTo::Write(_) | RedirectTo::Append(_)) => {
                String::new()
            }
            (fd, _) => fd.to_string(),
        };
        format!("{fd}{op}{target}")
    }
}

/// Quotes a word for a POSIX shell (kept bare when nothing in it is special).
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-=:,+@%".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// A command line as a shell would run it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ShellCommand {
    /// `VAR=value` words before the program.
    pub env: Vec<(String, String)>,
    /// The program and its arguments.
    pub words: Vec<String>,
    /// In the order written (`> out 2>&1` differs from `2>&1 > out`); paths as written.
    pub redirects: Vec<Redirect>,
    /// The commands before the last `|`, whose output is the program's stdin.
    pub input: Option<String>,
}

impl ShellCommand {
    /// The first thing in it that only a shell does, if any.
    fn shell_part(&self) -> Option<String> {
        if self.input.is_some() {
            return Some("|".into());
        }
        self.redirects.first().map(Redirect::shell)
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(String),
    /// An operator, and where it starts in the line.
    Op(String, usize),
}

fn refused(what: &str, why: &str, s: &str) -> BackendError {
    BackendError::Failed(format!("'{what}' in the command: {why} (command: {s})"))
}

/// Words, quotes and operators, as a POSIX shell tokenizes them; expansions are refused.
fn tokenize(s: &str) -> Result<Vec<Token>, BackendError> {
    let no_expansion =
        "the command is not run by a shell here, so nothing expands it; write the value itself";
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    // Whether the word so far is only digits written bare (`2` of `2>`).
    let mut bare_digits = true;
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    let mut i = 0;
    let expansion = |i: usize| -> Option<String> {
        let next = chars.get(i + 1).map(|c| c.1)?;
        (next.is_ascii_alphanumeric() || "_{(@*#?$!-".contains(next)).then(|| {
            let end = chars[i + 1..]
                .iter()
                .position(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
                .map(|n| i + 1 + n.max(1))
                .unwrap_or(chars.len());
            chars[i..end].iter().map(|c| c.1).collect()
        })
    };
    while i < chars.len() {
        let (at, c) = chars[i];
        match c {
            '\'' => {
                in_word = true;
                bare_digits = false;
                i += 1;
                loop {
                    match chars.get(i) {
                        Some((_, '\'')) => break,
                        Some((_, x)) => cur.push(*x),
                        None => {
                            return Err(BackendError::Failed(format!(
                                "unterminated ' quote in command: {s}"
                            )));
                        }
                    }
                    i += 1;
                }
            }
            '"' => {
                in_word = true;
                bare_digits = false;
                i += 1;
                loop {
                    match chars.get(i).map(|c| c.1) {
                        Some('"') => break,
                        Some('\\') => match chars.get(i + 1).map(|c| c.1) {
                            Some(x @ ('"' | '\\' | '$' | '`')) => {
                                cur.push(x);
                                i += 1;
                            }
                            Some(_) => cur.push('\\'),
                            None => {
                                return Err(BackendError::Failed(format!(
                                    "unterminated \" quote in command: {s}"
                                )));
                            }
                        },
                        Some('$') if expansion(i).is_some() => {
                            return Err(refused(
                                &expansion(i).unwrap_or_default(),
                                no_expansion,
                                s,
                            ));
                        }
                        Some('`') => return Err(refused("`", no_expansion, s)),
                        Some(x) => cur.push(x),
                        None => {
                            return Err(BackendError::Failed(format!(
                                "unterminated \" quote in command: {s}"
                            )));
                        }
                    }
                    i += 1;
                }
            }
            '\\' => {
                in_word = true;
                bare_digits = false;
                if let Some((_, x)) = chars.get(i + 1) {
                    cur.push(*x);
                    i += 1;
                }
            }
            '$' if expansion(i).is_some() => {
                return Err(refused(&expansion(i).unwrap_or_default(), no_expansion, s));
            }
            '`' => return Err(refused("`", no_expansion, s)),
            '~' if !in_word
                && chars
                    .get(i + 1)
                    .is_none_or(|(_, n)| *n == '/' || n.is_whitespace()) =>
            {
                // Tilde expansion: the one a shell always does at a word's start.
                in_word = true;
                bare_digits = false;
                match std::env::var("HOME") {
                    Ok(h) => cur.push_str(&h),
                    Err(_) => cur.push('~'),
                }
            }
            '<' | '>' | '|' | '&' | ';' | '(' | ')' => {
                // `2>`: a bare number right before a redirection names the stream.
                let mut op = String::new();
                if in_word && bare_digits && !cur.is_empty() && matches!(c, '<' | '>') {
                    op = std::mem::take(&mut cur);
                    in_word = false;
                }
                if in_word {
                    out.push(Token::Word(std::mem::take(&mut cur)));
                    in_word = false;
                }
                op.push(c);
                let two: String = chars[i..].iter().take(3).map(|c| c.1).collect();
                for longer in [
                    "<<<", "&>>", "<<", ">>", ">&", "<&", "&>", "&&", "||", "|&", ">|", "<>",
                ] {
                    if two.starts_with(longer) {
                        op.push_str(&longer[1..]);
                        i += longer.chars().count() - 1;
                        break;
                    }
                }
                out.push(Token::Op(op, at));
                bare_digits = true;
            }
            c if c.is_whitespace() => {
                if in_word {
                    out.push(Token::Word(std::mem::take(&mut cur)));
                    in_word = false;
                }
                bare_digits = true;
            }
            c => {
                in_word = true;
                bare_digits &= c.is_ascii_digit();
                cur.push(c);
            }
        }
        i += 1;
    }
    if in_word {
        out.push(Token::Word(cur));
    }
    Ok(out)
}

/// Commands that read a program's output: after a `|`, they are not what the agent debugs.
const FILTERS: &[&str] = &[
    "head", "tail", "grep", "egrep", "fgrep", "sort", "uniq", "wc", "tee", "less", "more", "cut",
    "awk", "sed", "tr", "cat", "xargs", "jq", "column", "od", "xxd", "hexdump",
];

/// Reads a command line as a shell would run one command: `VAR=value` prefixes, the
/// program's words, its redirections and the pipeline feeding it.
pub fn parse_command(s: &str) -> Result<ShellCommand, BackendError> {
    let tokens = tokenize(s)?;
    let last_pipe = tokens
        .iter()
        .rposition(|t| matches!(t, Token::Op(o, _) if o == "|"));
    let mut c = ShellCommand::default();
    if let Some(p) = last_pipe {
        let Token::Op(_, at) = &tokens[p] else {
            unreachable!()
        };
        let input = s[..*at].trim();
        if input.is_empty() {
            return Err(refused("|", "nothing before it to feed the program", s));
        }
        c.input = Some(input.to_string());
    }
    let mine = &tokens[last_pipe.map_or(0, |p| p + 1)..];
    // Lists and groups, anywhere: one program is started, its input only from a pipeline.
    for t in &tokens {
        if let Token::Op(op, _) = t {
            let why = match op.as_str() {
                "|" => continue,
                ";" | "&&" | "||" => {
                    "a list of commands: give the one program to debug, and run the others yourself before"
                }
                "&" => {
                    "running in the background: the debugged program is started and watched by the debugger already"
                }
                "(" | ")" => "a subshell: give the one program to debug",
                "|&" => "a pipe of stderr: only a pipe into the program is run (its input)",
                "<<" | "<<<" => "a here-document: write the input to a file and use '< file'",
                _ => continue,
            };
            return Err(refused(op, why, s));
        }
    }
    let mut it = mine.iter().peekable();
    let mut started = false;
    while let Some(t) = it.next() {
        match t {
            Token::Word(w) => {
                if !started
                    && let Some((k, v)) = w.split_once('=')
                    && !k.is_empty()
                    && !k.starts_with(|c: char| c.is_ascii_digit())
                    && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                {
                    c.env.push((k.to_string(), v.to_string()));
                    continue;
                }
                started = true;
                c.words.push(w.clone());
            }
            Token::Op(op, _) => {
                let digits = op.trim_end_matches(|c: char| !c.is_ascii_digit()).len();
                let (fd, kind) = op.split_at(digits);
                let fd: Option<u32> = fd.parse().ok();
                let mut target = || -> Result<String, BackendError> {
                    match it.peek() {
                        Some(Token::Word(w)) => Ok(w.clone()),
                        _ => Err(refused(op, "a redirection needs a file name after it", s)),
                    }
                };
                let mut push = |fd: u32, to: RedirectTo| {
                    if fd > 2 {
                        return Err(refused(
                            op,
                            "only the program's stdin (0), stdout (1) and stderr (2) can be redirected",
                            s,
                        ));
                    }
                    c.redirects.push(Redirect { fd, to });
                    Ok(())
                };
                match kind {
                    "<" => push(fd.unwrap_or(0), RedirectTo::Read(target()?.into()))?,
                    ">" | ">|" => push(fd.unwrap_or(1), RedirectTo::Write(target()?.into()))?,
                    ">>" => push(fd.unwrap_or(1), RedirectTo::Append(target()?.into()))?,
                    "&>" | "&>>" => {
                        let p: PathBuf = target()?.into();
                        push(
                            1,
                            if kind == "&>" {
                                RedirectTo::Write(p)
                            } else {
                                RedirectTo::Append(p)
                            },
                        )?;
                        push(2, RedirectTo::Dup(1))?;
                    }
                    ">&" | "<&" => {
                        let t = target()?;
                        let Ok(n) = t.parse::<u32>() else {
                            return Err(refused(
                                &format!("{op}{t}"),
                                "only a copy of the program's own stream (2>&1, >&2) is understood; for a file write > file 2>&1",
                                s,
                            ));
                        };
                        push(
                            fd.unwrap_or(if kind == ">&" { 1 } else { 0 }),
                            RedirectTo::Dup(n),
                        )?;
                    }
                    _ => return Err(refused(op, "not understood here", s)),
                }
                it.next();
            }
        }
    }
    if c.words.is_empty() {
        return Err(BackendError::Failed(
            if c.env.is_empty() && c.redirects.is_empty() {
                "the command is empty".into()
            } else {
                format!("the command names no program to run, only settings or redirections: {s}")
            },
        ));
    }
    if let Some(input) = &c.input {
        let name = Path::new(&c.words[0])
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if FILTERS.contains(&name.as_str()) {
            return Err(refused(
                &format!("| {}", c.words[0]),
                "the debugged program's output cannot be piped into another command; redirect it ('> out.txt') or read it with get_console_output",
                s,
            ));
        }
        if c.redirects.iter().any(|r| r.fd == 0) {
            return Err(refused(
                "<",
                &format!("the program's stdin is already the output of '{input}'"),
                s,
            ));
        }
    }
    Ok(c)
}

fn which(word: &str, cwd: &Path) -> Option<PathBuf> {
    if word.contains('/') {
        let p = absolutize(cwd, word);
        return p.exists().then_some(p);
    }
    let local = cwd.join(word);
    if local.is_file() {
        return Some(local);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(word))
            .find(|p| p.is_file())
    })
}

/// Infers the adapter from a command's words: each adapter claims its commands (`python3 …`,
/// `go test …`), program names (`.py`, `.go`) and program files (an ELF binary, a shebang);
/// `adapter` overrides.
pub(super) fn from_words(
    cwd: &Path,
    words: Vec<String>,
    adapter: Option<AdapterRef>,
) -> Result<(AdapterRef, Generic), BackendError> {
    let first = words[0].clone();
    for a in ADAPTERS
        .iter()
        .copied()
        .filter(|a| adapter.is_none_or(|c| c == *a))
    {
        if let Some(g) = a.parse_command(cwd, &words) {
            return Ok((a, g?));
        }
    }
    let path = which(&first, cwd);
    let program = path
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| absolutize(cwd, &first).display().to_string());
    let g = Generic {
        program: Some(program.clone()),
        args: words[1..].to_vec(),
        ..Default::default()
    };
    if let Some(a) = adapter {
        return Ok((a, g));
    }
    if let Some(a) = ADAPTERS.iter().find(|a| a.claims_file_name(&first)) {
        return Ok((*a, g));
    }
    let Some(path) = path else {
        return Err(BackendError::NotFound(format!(
            "program '{first}' (not a file relative to {} nor on PATH)",
            cwd.display()
        )));
    };
    let mut head = [0u8; 128];
    let n = std::fs::File::open(&path)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .unwrap_or(0);
    if let Some(a) = ADAPTERS.iter().find(|a| a.claims_file(&head[..n])) {
        return Ok((*a, g));
    }
    Err(BackendError::Failed(format!(
        "cannot tell which debugger runs '{first}' (no adapter recognises the command or the file); pass adapter: {}",
        names(", ")
    )))
}
