//! MCP over stdin/stdout (newline-delimited JSON-RPC, rmcp's `transport-io`), for clients that
//! only launch stdio servers. Logs must go to stderr: stdout carries protocol only.

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
    let running = handler.serve_with_ct(io, cancel).await?;
    let _ = running.waiting().await;
    Ok(())
}
