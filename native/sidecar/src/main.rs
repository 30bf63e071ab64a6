//! `debugger-mcp`: the headless Debugger MCP server (SPEC §1–§2).
//!
//! ```text
//! debugger-mcp serve --project DIR [--listen 127.0.0.1:PORT] [--config FILE] [--token TOKEN] [--brave]
//! debugger-mcp stdio [--project DIR] [--config FILE] [--brave] [--headless]
//! debugger-mcp install [--agent NAME…] [--url URL | --stdio] [--dry-run] [--uninstall] [--no-subagent]
//! debugger-mcp doctor [--project DIR] [--json]
//! ```
//! - `doctor` reports which debuggers work for the project and the command that fixes each one
//!   that does not (debugger_mcp_install::doctor; the IDE's tool window shows the same report).
//! - `serve` serves the core router (Streamable HTTP at /debugger-mcp, legacy SSE at
//!   /debugger-mcp/sse) over the DAP and DBGp (PHP/Xdebug) backends on a loopback port. PORT 0 picks a free port. The
//!   first line on stdout is the MCP URL, e.g. `http://127.0.0.1:41234/debugger-mcp`; logs go to
//!   stderr. Non-loopback listen addresses are refused.
//! - `stdio` relays MCP on stdin/stdout to the running IDE or `serve` that has the project open
//!   (discovery records, see `debugger_mcp_core::discovery`; bridge/); with none it serves
//!   headless with the DAP backend, saying so in its instructions. Logs on stderr only.
//! - `serve` writes a discovery record while it runs.
//! - Settings: `--config FILE`; otherwise `DIR/debugger-mcp.toml` when it exists; otherwise
//!   `$XDG_CONFIG_HOME/debugger-mcp/config.toml` (default `~/.config/debugger-mcp/config.toml`);
//!   a missing file means defaults. `--token` (or env `DEBUGGER_MCP_TOKEN`) overrides
//!   `http.token`.
//! - SIGINT/SIGTERM: stop accepting, end MCP sessions and SSE streams, stop debug sessions, exit.

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use debugger_mcp_core::backend::{Backend, event_channel};
use debugger_mcp_core::config::Config;
use debugger_mcp_core::engine::Engine;
use debugger_mcp_dap::DapBackend;
use debugger_mcp_dbgp::DbgpBackend;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

#[derive(Parser, Debug)]
#[command(
    name = "debugger-mcp",
    version,
    about = "Debugger MCP server: lets AI agents drive debuggers over MCP"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Serve MCP over HTTP on a loopback port (Streamable HTTP + legacy SSE).
    Serve {
        /// Project directory (launch configurations, breakpoints and paths are relative to it).
        #[arg(long, value_name = "DIR")]
        project: PathBuf,
        /// Loopback address to listen on; port 0 picks a free port.
        #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:0")]
        listen: String,
        /// Settings file (default: DIR/debugger-mcp.toml, else ~/.config/debugger-mcp/config.toml).
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
        /// Require this bearer token on every HTTP request (overrides http.token).
        #[arg(long)]
        token: Option<String>,
        /// Brave mode: agents may start sessions, set values and run side effects without
        /// confirmation (overrides `brave_mode` of the settings file). Headless there is no one
        /// to ask, so without it those tools are refused unless the MCP client can ask.
        #[arg(long)]
        brave: bool,
    },
    /// Add (or remove) this server in AI agents' config files; without --agent, every agent found.
    Install {
        /// Agent to configure (repeatable): claude-code, codex, cursor, vscode, vscode-workspace,
        /// windsurf, gemini, cline, continue, zed, claude-desktop.
        #[arg(long = "agent", value_name = "NAME")]
        agents: Vec<String>,
        /// MCP endpoint to write (default: the IDE's http://127.0.0.1:63342/debugger-mcp).
        #[arg(long, value_name = "URL", conflicts_with = "stdio")]
        url: Option<String>,
        /// Write `debugger-mcp stdio` (the bridge that finds the running server) instead of a URL.
        #[arg(long)]
        stdio: bool,
        /// Print the diff of every file that would change; write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Remove the server's entry instead.
        #[arg(long)]
        uninstall: bool,
        /// Project directory for workspace-level configs (default: the current directory).
        #[arg(long, value_name = "DIR")]
        project: Option<PathBuf>,
        /// Server settings file that receives the token (default: ~/.config/debugger-mcp/config.toml).
        #[arg(long, value_name = "FILE")]
        settings: Option<PathBuf>,
        /// Leave out the debugging subagent (Claude Code `.claude/agents/debugger.md`; a skill for
        /// Codex and Gemini CLI; a rule to paste for the others).
        #[arg(long)]
        no_subagent: bool,
        /// Write the subagent into the project (`--project`) instead of the user's home.
        #[arg(long)]
        subagent_in_project: bool,
    },
    /// Which debuggers work for the project and, for each that does not, the command that
    /// fixes it; also the discovery directory, the token and the ports in use.
    Doctor {
        /// Project directory (default: the current directory).
        #[arg(long, value_name = "DIR")]
        project: Option<PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// MCP on stdin/stdout (logs on stderr): relays to the running IDE / `serve` whose projects
    /// contain the project (found through discovery records); with none, serves headless.
    Stdio {
        /// Project directory (default: the current directory).
        #[arg(long, value_name = "DIR")]
        project: Option<PathBuf>,
        /// Serve headless over DAP even when a running server could be reached.
        #[arg(long)]
        headless: bool,
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
        /// Brave mode (see `serve --brave`).
        #[arg(long)]
        brave: bool,
    },
}

mod backends;
mod bridge;
mod install_cmd;

/// The doctor's report for `project` (default: the current directory), with what this host knows:
/// discovery records and the user's settings file.
pub fn doctor(project: Option<PathBuf>) -> debugger_mcp_install::doctor::Report {
    let project = project
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_default();
    let project = std::fs::canonicalize(&project).unwrap_or(project);
    let settings = debugger_mcp_install::Env::from_process(project.clone())
        .ok()
        .map(|env| debugger_mcp_install::token::settings_path(&env));
    let token_set = settings
        .as_deref()
        .and_then(|p| debugger_mcp_install::token::read(p).ok().flatten())
        .is_some()
        || project.join("debugger-mcp.toml").is_file()
            && Config::load(&project.join("debugger-mcp.toml"))
                .is_ok_and(|c| c.http.token.is_some());
    let inputs = debugger_mcp_install::doctor::Inputs {
        discovery_dir: debugger_mcp_core::discovery::dir(),
        servers: debugger_mcp_core::discovery::list()
            .into_iter()
            .map(|r| (r.product, r.url))
            .collect(),
        settings,
        token_set,
        project,
    };
    debugger_mcp_install::doctor::report(&inputs)
}

fn main() {
    let cli = Cli::parse();
    if let Command::Doctor { project, json } = &cli.command {
        let report = doctor(project.clone());
        if *json {
            println!("{}", report.json());
        } else {
            print!("{}", report.text());
        }
        // Exit 1 when something does not work: scripts can gate on it.
        std::process::exit(if report.checks.iter().all(|c| c.ok) {
            0
        } else {
            1
        });
    }
    if let Command::Install {
        agents,
        url,
        stdio,
        dry_run,
        uninstall,
        project,
        settings,
        no_subagent,
        subagent_in_project,
    } = cli.command
    {
        // No runtime needed: the installer only reads and writes files.
        let args = install_cmd::Args {
            agents,
            url,
            stdio,
            dry_run,
            uninstall,
            project,
            settings,
            no_subagent,
            subagent_in_project,
        };
        if let Err(e) = install_cmd::run(args) {
            eprintln!("debugger-mcp: error: {e:#}");
            std::process::exit(2);
        }
        return;
    }
    // Logs always on stderr: stdout carries the URL line (serve) or the protocol (stdio).
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("DEBUGGER_MCP_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,debugger_mcp=info")),
        )
        .init();
    // Two workers are plenty for a loopback server and keep the idle footprint small.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(std::thread::available_parallelism().map_or(2, |n| n.get().min(4)))
        .enable_all()
        .build()
        .expect("tokio runtime");
    let result = runtime.block_on(async move {
        match cli.command {
            Command::Serve {
                project,
                listen,
                config,
                token,
                brave,
            } => serve(project, listen, config, token, brave).await,
            Command::Stdio {
                project,
                config,
                headless,
                brave,
            } => stdio(project, config, headless, brave).await,
            Command::Install { .. } | Command::Doctor { .. } => {
                unreachable!("handled before the runtime starts")
            }
        }
    });
    // Background tasks (adapters' readers, watchers) must not hold the exit.
    runtime.shutdown_timeout(std::time::Duration::from_millis(500));
    tracing::debug!("runtime shut down");
    if let Err(e) = result {
        eprintln!("debugger-mcp: error: {e:#}");
        std::process::exit(2);
    }
}

fn check_project(dir: &Path) -> Result<PathBuf> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => std::fs::canonicalize(dir)
            .with_context(|| format!("cannot resolve project directory {}", dir.display())),
        Ok(_) => bail!("--project {} is not a directory", dir.display()),
        Err(e) => bail!(
            "--project {}: {e} (pass an existing project directory)",
            dir.display()
        ),
    }
}

/// Which settings file applies (see module docs).
fn config_path(project: &Path, explicit: Option<PathBuf>) -> Option<PathBuf> {
    if let Some(p) = explicit {
        return Some(p);
    }
    let in_project = project.join("debugger-mcp.toml");
    if in_project.is_file() {
        return Some(in_project);
    }
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("debugger-mcp").join("config.toml"))
}

fn load_config(project: &Path, explicit: Option<PathBuf>) -> Result<Config> {
    let explicit_given = explicit.is_some();
    match config_path(project, explicit) {
        Some(path) => {
            if explicit_given && !path.is_file() {
                bail!("--config {}: file not found", path.display());
            }
            let config = Config::load(&path)?;
            tracing::info!(path = %path.display(), exists = path.is_file(), "settings");
            Ok(config)
        }
        None => Ok(Config::default()),
    }
}

/// Parses `--listen`, accepting `localhost:PORT` as 127.0.0.1, and refuses anything but 127.0.0.1
/// and [::1]: the server drives a debugger and must never be reachable from the network, and the
/// Host check (DNS rebinding) accepts only `localhost`, `127.0.0.1` and `[::1]` — a server on
/// 127.0.0.2 would answer every request to its own URL with 403.
fn parse_listen(listen: &str) -> Result<SocketAddr> {
    let addr = if let Some(port) = listen.strip_prefix("localhost:") {
        let port: u16 = port
            .parse()
            .with_context(|| format!("--listen {listen}: invalid port"))?;
        SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port)
    } else {
        listen.parse::<SocketAddr>().with_context(|| {
            format!("--listen {listen}: expected 127.0.0.1:PORT, [::1]:PORT or localhost:PORT")
        })?
    };
    if !addr.ip().is_loopback() {
        bail!(
            "--listen {listen}: refusing a non-loopback address; debugger-mcp only listens on 127.0.0.1 or [::1] (use 127.0.0.1:{})",
            addr.port()
        );
    }
    if addr.ip() != IpAddr::V4(Ipv4Addr::LOCALHOST) && addr.ip() != IpAddr::V6(Ipv6Addr::LOCALHOST)
    {
        bail!(
            "--listen {listen}: only 127.0.0.1 and [::1] are served (clients must send one of them, or localhost, as Host); use 127.0.0.1:{}",
            addr.port()
        );
    }
    Ok(addr)
}

struct Host {
    engine: Arc<Engine>,
    backend: Arc<backends::Headless>,
}

fn build(project: &Path, config: Config) -> Result<Host> {
    let (sink, events) = event_channel();
    let dap = Arc::new(
        DapBackend::new(project, sink.clone())
            .with_context(|| format!("cannot open project {}", project.display()))?,
    );
    dap.set_go_build_timeout(Duration::from_millis(config.go.build_timeout_ms));
    // PHP (Xdebug connects to us): its listener binds at the first PHP launch, not here.
    let php = Arc::new(
        DbgpBackend::new(project, sink)
            .with_context(|| format!("cannot open project {}", project.display()))?,
    );
    php.set_port(config.php.port);
    // Checked when the settings were read.
    if let Ok(host) = config.php.listen_host.parse() {
        php.set_listen_host(host);
    }
    php.set_connect_timeout(Duration::from_millis(config.php.connect_timeout_ms));
    let backend = Arc::new(backends::Headless { dap, php });
    let engine = Engine::new(backend.clone() as Arc<dyn Backend>, events, config);
    // Headless, nobody else sees a client's sessions: they end with the client's MCP session
    // unless the settings keep them (`end_sessions_with_client = false`).
    engine.set_end_sessions_with_client_default(true);
    Ok(Host { engine, backend })
}

/// Stops every debug session the backend knows, each call bounded so shutdown cannot hang.
async fn stop_debug_sessions(backend: &dyn Backend) {
    let work = async {
        let Ok(projects) = backend.projects().await else {
            return;
        };
        for project in projects {
            let Ok(sessions) = backend.sessions(&project.root).await else {
                continue;
            };
            for s in sessions {
                if let Err(e) = backend.stop(&s.id).await {
                    tracing::warn!(session = %s.id, "stopping debug session at shutdown: {e}");
                }
            }
        }
    };
    if tokio::time::timeout(Duration::from_secs(5), work)
        .await
        .is_err()
    {
        tracing::warn!("stopping debug sessions at shutdown timed out after 5 s");
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
}

async fn serve(
    project: PathBuf,
    listen: String,
    config: Option<PathBuf>,
    token: Option<String>,
    brave: bool,
) -> Result<()> {
    let addr = parse_listen(&listen)?;
    let project = check_project(&project)?;
    let mut config = load_config(&project, config)?;
    config.brave_mode |= brave;
    let token = token.or_else(|| std::env::var("DEBUGGER_MCP_TOKEN").ok());
    if let Some(t) = token.filter(|t| !t.is_empty()) {
        config.http.token = Some(t);
    }
    let host = build(&project, config.clone())?;

    let cancel = CancellationToken::new();
    let mut options = debugger_mcp_core::http::RouterOptions::from_config(&config.http);
    options.cancel = cancel.clone();
    let app = debugger_mcp_core::http::router_with(host.engine.handler(), options);

    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    let local = listener.local_addr()?;
    let url = match local.ip() {
        IpAddr::V6(ip) if ip == Ipv6Addr::LOCALHOST => {
            format!("http://[::1]:{}/debugger-mcp", local.port())
        }
        ip => format!("http://{ip}:{}/debugger-mcp", local.port()),
    };
    // The discovery record lets `debugger-mcp stdio` find this server; removed on exit (drop).
    // Written before the URL line so a launcher that read the URL can count on it.
    let _published = match debugger_mcp_core::discovery::publish(
        &debugger_mcp_core::discovery::Record {
            pid: std::process::id(),
            url: url.clone(),
            port: local.port(),
            token: config.http.token.clone(),
            product: "debugger-mcp serve".into(),
            roots: vec![project.clone()],
        },
    ) {
        Ok(p) => Some(p),
        Err(e) => {
            tracing::warn!(
                "cannot write the discovery record (stdio bridges will not find this server): {e}"
            );
            None
        }
    };

    {
        // The first stdout line is the contract with launchers (tests, IDE discovery).
        let mut out = std::io::stdout().lock();
        writeln!(out, "{url}")?;
        out.flush()?;
    }
    tracing::info!(%url, project = %project.display(), token = config.http.token.is_some(), "serving");
    let shutdown = {
        let cancel = cancel.clone();
        async move {
            shutdown_signal().await;
            tracing::info!("shutting down");
            // Ends MCP sessions and every open SSE stream so graceful shutdown can complete.
            cancel.cancel();
        }
    };
    let read_timeout = Duration::from_millis(config.http.read_timeout_ms);
    let server = tokio::spawn(serve_http(listener, app, read_timeout, cancel.clone()));
    tokio::spawn(shutdown);
    cancel.cancelled().await;
    // In-flight requests get a moment to finish; streams have been cancelled.
    match tokio::time::timeout(Duration::from_secs(5), server).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => tracing::warn!("server task: {e}"),
        Err(_) => tracing::warn!("connections still open after 5 s; exiting anyway"),
    }
    tracing::debug!("HTTP server stopped");
    stop_debug_sessions(host.backend.as_ref()).await;
    tracing::debug!("debug sessions stopped");
    Ok(())
}

/// Serves `app` on `listener` until `cancel`, then shuts connections down gracefully (5 s).
///
/// hyper's HTTP/1 server directly rather than `axum::serve`, which sets no timer and so no
/// header read timeout: a client that never finishes its headers (or idles on a keep-alive
/// connection) would hold its connection forever. Here `read_timeout` bounds the headers of
/// every request, the first and each next one on a kept-alive connection (the core bounds
/// bodies with the same setting, `http.read_timeout_ms`). Requests are HTTP/1.1 only, as
/// before (no h2c on a loopback port).
async fn serve_http(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    read_timeout: Duration,
    cancel: CancellationToken,
) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(read_timeout)
        .keep_alive(true);
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    loop {
        let (tcp, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors and the like: back off instead of spinning.
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = cancel.cancelled() => break,
        };
        // TCP_NODELAY: responses are written in several small frames (headers, SSE events); with
        // Nagle's algorithm and the client's delayed ACK each request would stall ~40 ms.
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY: {e}");
        }
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        let conn = graceful.watch(builder.serve_connection(TokioIo::new(tcp), service));
        tokio::spawn(async move {
            if let Err(e) = conn.await {
                tracing::debug!("connection: {e}");
            }
        });
    }
    drop(listener);
    if tokio::time::timeout(Duration::from_secs(5), graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("connections still open after 5 s; exiting anyway");
    }
}

async fn stdio(
    project: Option<PathBuf>,
    config: Option<PathBuf>,
    headless: bool,
    brave: bool,
) -> Result<()> {
    let explicit = project.is_some();
    let project = check_project(&match project {
        Some(p) => p,
        None => std::env::current_dir()?,
    })?;
    if !headless {
        let servers = bridge::find_servers().await;
        // An explicit --project needs a server that has it open; from a bare working directory
        // (Claude Desktop starts us in /) a single running server is the one meant.
        let usable = if explicit {
            servers.iter().any(|r| r.best_root_for(&project).is_some())
        } else {
            !servers.is_empty()
        };
        if usable {
            tracing::info!(servers = servers.len(), project = %project.display(), "relaying stdio to the running server(s)");
            return bridge::run(project, servers).await;
        }
    }
    let mut config = load_config(&project, config)?;
    config.brave_mode |= brave;
    let host = build(&project, config)?;
    let cancel = CancellationToken::new();
    let signal_cancel = cancel.clone();
    tokio::spawn(async move {
        shutdown_signal().await;
        signal_cancel.cancel();
    });
    let note = format!(
        "This is `debugger-mcp stdio` running headless over DAP for {} (no running IDE or `debugger-mcp serve` has this project open{}). Debug sessions here use debugpy, gdb or lldb-dap directly; to debug in the IDE instead, open the project there and restart this server.",
        project.display(),
        if headless {
            "; --headless was given"
        } else {
            ""
        }
    );
    let handler = host.engine.handler().with_instructions_note(note);
    let result = debugger_mcp_core::stdio::serve_stdio(handler, cancel).await;
    stop_debug_sessions(host.backend.as_ref()).await;
    match result {
        Ok(()) => Ok(()),
        // A client that connects and leaves without initialize is not an error worth exit 2.
        Err(e) => {
            tracing::info!("stdio session ended before initialize: {e}");
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_addresses() {
        assert_eq!(parse_listen("127.0.0.1:0").unwrap().port(), 0);
        assert!(parse_listen("[::1]:8080").unwrap().ip().is_loopback());
        assert!(parse_listen("localhost:9").unwrap().ip().is_loopback());
        let err = parse_listen("0.0.0.0:80").unwrap_err().to_string();
        assert!(err.contains("non-loopback"), "{err}");
        assert!(parse_listen("192.168.1.5:80").is_err());
        assert!(parse_listen("nonsense").is_err());
        // Loopback, but not a name the Host check accepts (issue 16 item 6).
        let err = parse_listen("127.0.0.2:0").unwrap_err().to_string();
        assert!(err.contains("only 127.0.0.1 and [::1]"), "{err}");
    }

    /// The subagent `install` writes may use exactly the server's tools: a tool added to the
    /// core must be added to its `tools:` list too.
    #[tokio::test]
    async fn the_subagent_lists_every_tool_of_the_server() {
        let dir = std::env::temp_dir().join(format!("dmcp-sidecar-tools-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let host = build(&dir, Config::default()).unwrap();
        let mut served: Vec<String> = host
            .engine
            .tools()
            .iter()
            .map(|t| t.name.to_string())
            .collect();
        let mut listed: Vec<String> = debugger_mcp_install::subagent::TOOLS
            .iter()
            .map(|t| t.to_string())
            .collect();
        served.sort();
        listed.sort();
        assert_eq!(listed, served);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
