//! Command lines ("trap and trigger"): split like a shell would, and matched to the adapter
//! that runs them (each adapter says which commands and files it claims).

use super::{Generic, absolutize};
use crate::adapters::{ADAPTERS, AdapterRef, names};
use debugger_mcp_core::backend::BackendError;
use std::path::{Path, PathBuf};

/// Splits a command line like a POSIX shell would for words and quotes (no expansion).
pub fn split_command(s: &str) -> Result<Vec<String>, BackendError> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => cur.push(x),
                        None => {
                            return Err(BackendError::Failed(format!(
                                "unterminated ' quote in command: {s}"
                            )));
                        }
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(x @ ('"' | '\\' | '$' | '`')) => cur.push(x),
                            Some(x) => {
                                cur.push('\\');
                                cur.push(x)
                            }
                            None => {
                                return Err(BackendError::Failed(format!(
                                    "unterminated \" quote in command: {s}"
                                )));
                            }
                        },
                        Some(x) => cur.push(x),
                        None => {
                            return Err(BackendError::Failed(format!(
                                "unterminated \" quote in command: {s}"
                            )));
                        }
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(x) = chars.next() {
                    cur.push(x);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    if out.is_empty() {
        return Err(BackendError::Failed("the command is empty".into()));
    }
    Ok(out)
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
