//! Issue 16 item 5 on the real `debugger-mcp serve` socket: connections that never finish their
//! headers or body are closed after `http.read_timeout_ms`, and a refusal sent before the body
//! is read closes the connection (`Connection: close`) instead of leaving a keep-alive client to
//! send its next request into the unread body. Item 6: `--listen` on a loopback address the
//! Host check would refuse is refused at start.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Server {
    child: Child,
    port: u16,
    _dir: std::path::PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(extra: &[&str]) -> Server {
    let dir = std::env::temp_dir().join(format!(
        "dmcp-strict-{}-{}",
        std::process::id(),
        extra.len()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("settings.toml");
    std::fs::write(
        &config,
        "[http]\nread_timeout_ms = 700\n[memory]\nwrite_summaries = false\n",
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_debugger-mcp"))
        .args(["serve", "--project"])
        .arg(&dir)
        .arg("--config")
        .arg(&config)
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .trim()
        .rsplit(':')
        .next()
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("URL line: {line}"));
    Server {
        child,
        port,
        _dir: dir,
    }
}

fn connect(port: u16) -> TcpStream {
    let s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s
}

/// Reads until EOF; returns what arrived and how long it took.
fn read_to_close(s: &mut TcpStream) -> (String, Duration) {
    let started = Instant::now();
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e)
                if e.kind() == std::io::ErrorKind::WouldBlock
                    || e.kind() == std::io::ErrorKind::TimedOut =>
            {
                panic!(
                    "connection still open after 10 s; got {:?}",
                    String::from_utf8_lossy(&out)
                )
            }
            Err(_) => break, // reset
        }
    }
    (
        String::from_utf8_lossy(&out).into_owned(),
        started.elapsed(),
    )
}

#[test]
fn unfinished_headers_and_bodies_are_cut_off() {
    let server = serve(&[]);
    // Headers that never end.
    let mut s = connect(server.port);
    s.write_all(b"POST /debugger-mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .unwrap();
    let (_, took) = read_to_close(&mut s);
    assert!(took < Duration::from_secs(5), "closed after {took:?}");
    // A body that never completes: 408, connection closed.
    let mut s = connect(server.port);
    let head = format!(
        "POST /debugger-mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{{\"jsonrpc\"",
        server.port
    );
    s.write_all(head.as_bytes()).unwrap();
    let (reply, took) = read_to_close(&mut s);
    assert!(reply.starts_with("HTTP/1.1 408"), "{reply}");
    assert!(
        reply.to_ascii_lowercase().contains("connection: close"),
        "{reply}"
    );
    assert!(took < Duration::from_secs(5), "{took:?}");
    // An idle kept-alive connection is closed too (its next headers never come).
    let mut s = connect(server.port);
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let req = format!(
        "POST /nope HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {}\r\n\r\n{ping}",
        ping.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let (reply, took) = read_to_close(&mut s);
    assert!(reply.starts_with("HTTP/1.1 404"), "{reply}");
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn a_refusal_before_the_body_closes_a_keep_alive_connection() {
    let server = serve(&["--token", "t0ken"]);
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let mut s = connect(server.port);
    let req = format!(
        "POST /debugger-mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        server.port,
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let (reply, took) = read_to_close(&mut s);
    assert!(reply.starts_with("HTTP/1.1 401"), "{reply}");
    assert!(
        reply.to_ascii_lowercase().contains("connection: close"),
        "{reply}"
    );
    assert!(
        took < Duration::from_secs(2),
        "the server closed the connection only after {took:?}"
    );
    // Duplicate Host over the wire.
    let mut s = connect(server.port);
    let req = format!(
        "GET /debugger-mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nHost: evil.example\r\nAuthorization: Bearer t0ken\r\n\r\n",
        server.port
    );
    s.write_all(req.as_bytes()).unwrap();
    let (reply, _) = read_to_close(&mut s);
    assert!(reply.starts_with("HTTP/1.1 400"), "{reply}");
}

#[test]
fn listen_on_a_loopback_address_the_host_check_refuses_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_debugger-mcp"))
        .args(["serve", "--project", ".", "--listen", "127.0.0.2:0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("only 127.0.0.1 and [::1]"), "{err}");
}
