//! MCP over stdin/stdout (newline-delimited JSON-RPC, rmcp's `transport-io`), for clients that
//! only launch stdio servers. Logs must go to stderr: stdout carries protocol only.
//!
//! rmcp drops a line it cannot parse without a word, so a client that sent malformed JSON, a
//! NUL, invalid UTF-8 or a 200-deep nesting would wait forever. Every line passes [`screen`]
//! first: what rmcp would drop is answered here, as JSON-RPC says (-32700 Parse error with
//! `id: null`; -32600 Invalid Request with the id when there is one), and what it accepts is
//! passed on unchanged. Answers and rmcp's output share stdout line by line.

use rmcp::ServiceExt;
use tokio_util::sync::CancellationToken;

/// Serves `handler` on this process's stdin/stdout until the client closes stdin or `cancel`
/// fires. Returns an error only when the client never completed `initialize`.
pub async fn serve_stdio<S>(
    handler: S,
    cancel: CancellationToken,
) -> Result<(), rmcp::service::ServerInitializeError>
where
    S: rmcp::ServerHandler + Send + 'static,
{
    // Non-blocking pipes when launched by a client (FIFOs); falls back to blocking handles.
    let transport = rmcp::transport::stdio_pipes();
    serve_io(handler, transport, cancel).await
}

/// Serves `handler` over any async byte pair (tests use an in-memory duplex).
pub async fn serve_io<S, R, W>(
    handler: S,
    io: (R, W),
    cancel: CancellationToken,
) -> Result<(), rmcp::service::ServerInitializeError>
where
    S: rmcp::ServerHandler + Send + 'static,
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let (input, output) = io;
    let (to_rmcp, rmcp_in) = tokio::io::duplex(64 * 1024);
    let (rmcp_out, from_rmcp) = tokio::io::duplex(64 * 1024);
    let (errors_tx, errors_rx) = tokio::sync::mpsc::channel::<String>(64);
    let reader = tokio::spawn(screen_input(input, to_rmcp, errors_tx));
    let writer = tokio::spawn(merge_output(from_rmcp, errors_rx, output));
    let result = async {
        let running = handler.serve_with_ct((rmcp_in, rmcp_out), cancel).await?;
        let _ = running.waiting().await;
        Ok(())
    }
    .await;
    reader.abort();
    // rmcp's output half is dropped: the writer drains what is left and ends.
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), writer).await;
    result
}

/// Longest line accepted (the HTTP body limit's default); longer ones are answered -32700.
const MAX_LINE: usize = 4 * 1024 * 1024;

/// What to do with one input line.
#[derive(Debug, PartialEq)]
pub enum Screened {
    /// rmcp parses it: pass it on.
    Pass,
    /// Empty line: ignore.
    Skip,
    /// Answer this JSON-RPC error line instead.
    Answer(String),
}

/// Classifies one line (without its newline).
pub fn screen(line: &[u8]) -> Screened {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Screened::Skip;
    }
    let answer = |id: &serde_json::Value, code: i64, message: String| {
        Screened::Answer(serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}).to_string())
    };
    if line.len() > MAX_LINE {
        return answer(
            &serde_json::Value::Null,
            -32700,
            format!(
                "Parse error: message of {} bytes exceeds the limit of {MAX_LINE}",
                line.len()
            ),
        );
    }
    let Ok(text) = std::str::from_utf8(line) else {
        return answer(
            &serde_json::Value::Null,
            -32700,
            "Parse error: the line is not valid UTF-8".into(),
        );
    };
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let (code, message) = crate::http::unparsable(line, &e, "not valid JSON");
            return answer(&serde_json::Value::Null, code, message);
        }
    };
    if serde_json::from_value::<rmcp::model::ClientJsonRpcMessage>(value.clone()).is_ok() {
        return Screened::Pass;
    }
    let id = value
        .get("id")
        .filter(|id| id.is_string() || id.is_i64() || id.is_u64())
        .cloned()
        .unwrap_or_default();
    answer(
        &id,
        -32600,
        format!(
            "Invalid Request: {}",
            crate::http::invalid_request_problem(&value)
        ),
    )
}

/// Copies screened lines from `input` to rmcp; answers the others through `errors`.
async fn screen_input<R, W>(input: R, mut to_rmcp: W, errors: tokio::sync::mpsc::Sender<String>)
where
    R: tokio::io::AsyncRead + Unpin,
    W: tokio::io::AsyncWrite + Unpin,
{
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let mut input = tokio::io::BufReader::new(input);
    let mut line = Vec::new();
    loop {
        line.clear();
        // Bounded read of one line: past MAX_LINE the rest is discarded up to the newline.
        let mut too_long = 0usize;
        let eof = loop {
            let buf = match input.fill_buf().await {
                Ok(b) => b,
                Err(_) => break true,
            };
            if buf.is_empty() {
                break true;
            }
            let (chunk, done) = match buf.iter().position(|b| *b == b'\n') {
                Some(i) => (&buf[..i], Some(i + 1)),
                None => (buf, None),
            };
            if line.len() + chunk.len() <= MAX_LINE {
                line.extend_from_slice(chunk);
            } else {
                too_long += chunk.len();
            }
            let n = done.unwrap_or(buf.len());
            input.consume(n);
            if done.is_some() {
                break false;
            }
        };
        if eof && line.is_empty() && too_long == 0 {
            break;
        }
        let verdict = if too_long > 0 {
            let message = format!(
                "Parse error: message of {} bytes exceeds the limit of {MAX_LINE}",
                line.len() + too_long
            );
            Screened::Answer(serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": message}}).to_string())
        } else {
            screen(&line)
        };
        match verdict {
            Screened::Pass => {
                line.push(b'\n');
                if to_rmcp.write_all(&line).await.is_err() {
                    break;
                }
            }
            Screened::Skip => {}
            Screened::Answer(a) => {
                if errors.send(a).await.is_err() {
                    break;
                }
            }
        }
        if eof {
            break;
        }
    }
    let _ = to_rmcp.shutdown().await;
}

/// Writes rmcp's output lines and the screen's answers to `output`, whole lines only.
async fn merge_output<R, W>(
    from_rmcp: R,
    mut errors: tokio::sync::mpsc::Receiver<String>,
    mut output: W,
) where
    R: tokio::io::AsyncRead + Unpin,
    W: tokio::io::AsyncWrite + Unpin,
{
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let mut lines = tokio::io::BufReader::new(from_rmcp);
    let mut errors_open = true;
    loop {
        let mut line = Vec::new();
        tokio::select! {
            n = lines.read_until(b'\n', &mut line) => {
                match n {
                    Ok(0) | Err(_) => {
                        // rmcp is done (input ended, perhaps before initialize), but answers
                        // to lines it never saw may still be queued: every line read gets its
                        // answer. The queue closes when the screen ends (or is aborted).
                        while let Some(text) = errors.recv().await {
                            if output.write_all(format!("{text}\n").as_bytes()).await.is_err() {
                                break;
                            }
                        }
                        break;
                    }
                    Ok(_) => {}
                }
            }
            e = errors.recv(), if errors_open => match e {
                Some(text) => {
                    line = text.into_bytes();
                    line.push(b'\n');
                }
                None => {
                    errors_open = false;
                    continue;
                }
            },
        }
        if output.write_all(&line).await.is_err() || output.flush().await.is_err() {
            break;
        }
    }
    let _ = output.flush().await;
}

#[cfg(test)]
mod tests {
    /// Issue 28 item 7: rmcp's output ending while an answer of the screen is queued (input
    /// that ended before initialize) lost the answer whenever the writer saw the end first, a
    /// coin toss of `select!` when both are ready, as here, in every run.
    #[tokio::test]
    async fn an_answer_queued_when_rmcp_ends_is_still_written() {
        for run in 0..64 {
            let (tx, rx) = tokio::sync::mpsc::channel(4);
            tx.send("{\"answer\":1}".to_string()).await.unwrap();
            drop(tx);
            let mut out = Vec::new();
            super::merge_output(tokio::io::empty(), rx, &mut out).await;
            assert_eq!(
                String::from_utf8(out).unwrap(),
                "{\"answer\":1}\n",
                "run {run}"
            );
        }
    }
}
