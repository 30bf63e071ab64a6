//! Attaching to PHP that already runs (`php -S`, php-fpm, a long-running CLI worker). Xdebug
//! cannot be injected into a process: it connects to its client, at the address its settings
//! name, when a request starts (`xdebug.start_with_request`: `yes` every request, `trigger`
//! those carrying `XDEBUG_TRIGGER`/`XDEBUG_SESSION`). So attaching by pid is: check the process
//! is PHP with Xdebug loaded (`/proc/<pid>/exe`, `/proc/<pid>/maps`), read the settings it runs
//! with (its command line's `-d`/`-c`/`-n`, its `PHPRC`/`PHP_INI_SCAN_DIR`, `XDEBUG_MODE` and
//! `XDEBUG_CONFIG` from `/proc/<pid>/environ`, the ini files through the same executable run
//! with Xdebug off), refuse with the setting to change when it cannot reach us, and listen
//! where it connects. Attaching by address is listening at that `host:port`.
//!
//! Xdebug's settings and their defaults as read in its documentation
//! (https://xdebug.org/docs/all_settings: `xdebug.mode` default `develop`, `XDEBUG_MODE`
//! overriding it; `client_host` default `localhost`, `client_port` 9003; `start_with_request`
//! `default`, which for the debug mode means `trigger`; `XDEBUG_CONFIG` overriding settings).

use debugger_mcp_core::backend::{BackendError, BackendResult, is_loopback};
use std::path::PathBuf;
use std::time::Duration;

/// What a PHP process's Xdebug will do, as far as it could be read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct XdebugSettings {
    /// `xdebug.mode` in force (`XDEBUG_MODE` first); None when unread.
    pub mode: Option<String>,
    pub start_with_request: Option<String>,
    pub client_host: Option<String>,
    pub client_port: Option<u16>,
    pub discover_client_host: bool,
}

/// A PHP process checked for attaching.
#[derive(Debug, Clone)]
pub struct PhpProcess {
    pub pid: u32,
    /// `php8.2`, `php-fpm8.2`: the executable's file name.
    pub exe: String,
    pub settings: XdebugSettings,
}

impl PhpProcess {
    /// The port its Xdebug connects to.
    pub fn port(&self) -> u16 {
        self.settings.client_port.unwrap_or(crate::DEFAULT_PORT)
    }

    /// Which requests stop, in the agent's words.
    pub fn which_requests(&self) -> String {
        match self.settings.start_with_request.as_deref() {
            Some("yes") => {
                "every request it serves stops here (xdebug.start_with_request=yes)".into()
            }
            _ => "requests it serves with the trigger stop here".into(),
        }
    }
}

fn proc_file(pid: u32, name: &str) -> PathBuf {
    PathBuf::from(format!("/proc/{pid}/{name}"))
}

/// NUL-separated /proc file (cmdline, environ) as strings.
pub(crate) fn nul_list(pid: u32, name: &str) -> Vec<String> {
    std::fs::read(proc_file(pid, name))
        .map(|b| {
            b.split(|c| *c == 0)
                .filter(|w| !w.is_empty())
                .map(|w| String::from_utf8_lossy(w).into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// The executable's file name and whether it is PHP (the CLI, php-fpm, php-cgi, or a server
/// with PHP in it: mod_php's libphp in the maps).
fn exe_of(pid: u32, maps: &str) -> (String, bool) {
    let exe = std::fs::read_link(proc_file(pid, "exe"))
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .or_else(|| {
            std::fs::read_to_string(proc_file(pid, "comm"))
                .ok()
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_default();
    let exe = exe.trim_end_matches(" (deleted)").to_string();
    let php = exe.starts_with("php") || maps.contains("/libphp");
    (exe, php)
}

/// Does this pid belong to a PHP process? (Routing: an attach by pid to PHP goes to DBGp.)
pub fn is_php_pid(pid: u32) -> bool {
    let maps = std::fs::read_to_string(proc_file(pid, "maps")).unwrap_or_default();
    exe_of(pid, &maps).1
}

/// The ini options of a PHP command line (`-n`, `-c path`, `-d k=v`, also glued `-dk=v`), in
/// order, stopping at the script or `--`.
fn ini_args(cmdline: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = cmdline.iter().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "-n" => out.push(a.clone()),
            "-c" | "-d" => {
                if let Some(v) = it.next() {
                    out.push(a.clone());
                    out.push(v.clone());
                }
            }
            "--" => break,
            s if s.starts_with("-d") || s.starts_with("-c") => out.push(a.clone()),
            // Options with a value of their own (`-S addr`, `-t dir`, `-f file`, `-r code`…).
            "-S" | "-t" | "-f" | "-r" | "-B" | "-R" | "-F" | "-E" | "-z" | "-y" | "-p" | "-g" => {
                it.next();
            }
            s if s.starts_with('-') => {}
            // The script: what follows are its own arguments.
            _ => break,
        }
    }
    out
}

/// `-d xdebug.k=v` values of a command line (the last wins), for when the executable cannot be
/// asked.
fn cmdline_setting(args: &[String], key: &str) -> Option<String> {
    let mut found = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let kv = match a.as_str() {
            "-d" => it.next().map(String::as_str),
            s => s.strip_prefix("-d"),
        };
        if let Some((k, v)) = kv.and_then(|kv| kv.split_once('='))
            && k.trim() == key
        {
            found = Some(v.trim().trim_matches('"').to_string());
        }
    }
    found
}

/// Reads the process's settings: the executable asked with its ini options (CLI builds only,
/// Xdebug off so it connects nowhere), else its command line; then its environment on top.
async fn read_settings(pid: u32, exe: &str, cmdline: &[String], env: &[String]) -> XdebugSettings {
    let ini = ini_args(cmdline);
    let keys = [
        "mode",
        "start_with_request",
        "client_host",
        "client_port",
        "discover_client_host",
    ];
    let mut vals: Vec<Option<String>> = vec![None; keys.len()];
    let cli = exe.starts_with("php") && !exe.contains("fpm") && !exe.contains("cgi");
    if cli {
        let code = format!(
            "echo implode(\"\\n\", array_map(fn($k) => var_export(ini_get('xdebug.'.$k), true), {}));",
            serde_json::to_string(&keys).unwrap_or_default()
        );
        let mut c = tokio::process::Command::new(proc_file(pid, "exe"));
        c.args(&ini)
            .args(["-r", &code])
            .env_clear()
            .env("XDEBUG_MODE", "off")
            .stdin(std::process::Stdio::null())
            .kill_on_drop(true);
        if let Ok(cwd) = std::fs::read_link(proc_file(pid, "cwd")) {
            c.current_dir(cwd);
        }
        for e in env {
            if let Some((k, v)) = e.split_once('=')
                && matches!(k, "PHPRC" | "PHP_INI_SCAN_DIR" | "PATH")
            {
                c.env(k, v);
            }
        }
        if let Ok(Ok(o)) = tokio::time::timeout(Duration::from_secs(5), c.output()).await
            && o.status.success()
        {
            let text = String::from_utf8_lossy(&o.stdout);
            for (i, line) in text.lines().enumerate().take(keys.len()) {
                // var_export: 'value' or false (a setting Xdebug does not have).
                vals[i] = line
                    .strip_prefix('\'')
                    .and_then(|l| l.strip_suffix('\''))
                    .map(str::to_string);
            }
        }
    }
    for (i, k) in keys.iter().enumerate() {
        if vals[i].is_none() {
            vals[i] = cmdline_setting(cmdline, &format!("xdebug.{k}"));
        }
    }
    // The environment wins: XDEBUG_MODE over xdebug.mode, XDEBUG_CONFIG over the rest.
    for e in env {
        if let Some(m) = e.strip_prefix("XDEBUG_MODE=") {
            vals[0] = Some(m.to_string());
        }
        if let Some(cfg) = e.strip_prefix("XDEBUG_CONFIG=") {
            for kv in cfg.split_whitespace() {
                if let Some((k, v)) = kv.split_once('=')
                    && let Some(i) = keys.iter().position(|x| *x == k)
                {
                    vals[i] = Some(v.to_string());
                }
            }
        }
    }
    XdebugSettings {
        mode: vals[0].clone(),
        start_with_request: vals[1].clone(),
        client_host: vals[2].clone(),
        client_port: vals[3].as_deref().and_then(|p| p.trim().parse().ok()),
        discover_client_host: matches!(vals[4].as_deref(), Some("1" | "On" | "on" | "true")),
    }
}

/// Checks `pid` is a PHP process whose Xdebug can reach us, and reads where it connects; each
/// refusal names what to change.
pub async fn check_pid(pid: u32) -> BackendResult<PhpProcess> {
    if !proc_file(pid, "").exists() {
        return Err(BackendError::NotFound(format!(
            "no process {pid} (it may have ended); `pgrep -a php` lists the PHP processes{}",
            if pid <= u16::MAX as u32 {
                format!(" (to listen for Xdebug on port {pid} instead, attach \"127.0.0.1:{pid}\")")
            } else {
                String::new()
            }
        )));
    }
    let maps = std::fs::read_to_string(proc_file(pid, "maps"));
    let maps_text = maps.as_deref().unwrap_or_default();
    let (exe, php) = exe_of(pid, maps_text);
    if !php {
        return Err(BackendError::Failed(format!(
            "process {pid} is `{exe}`, not PHP: attach with adapter php takes the pid of a PHP process (php -S, a php-fpm worker or master, a PHP CLI worker); for another language leave adapter out (debugpy, gdb, lldb and delve attach by pid)"
        )));
    }
    let restart = "restart it with -d zend_extension=xdebug -d xdebug.mode=debug -d xdebug.start_with_request=trigger (php-fpm: the same in its pool or php.ini), then attach again";
    match &maps {
        Ok(m) if !m.lines().any(|l| l.contains("xdebug") && l.contains(".so")) => {
            return Err(BackendError::Failed(format!(
                "PHP process {pid} (`{exe}`) does not load Xdebug (no xdebug.so in /proc/{pid}/maps), and a running PHP cannot load it: install Xdebug 3 (Debian/Ubuntu: apt-get install php-xdebug) and {restart}"
            )));
        }
        Ok(_) => {}
        Err(e) => {
            return Err(BackendError::Failed(format!(
                "cannot read /proc/{pid}/maps to check that process {pid} loads Xdebug ({e}): run debugger-mcp as the process's user (or root)"
            )));
        }
    }
    let cmdline = nul_list(pid, "cmdline");
    let env = nul_list(pid, "environ");
    let settings = read_settings(pid, &exe, &cmdline, &env).await;
    if let Some(mode) = &settings.mode
        && !mode.split(',').any(|m| m.trim() == "debug")
    {
        return Err(BackendError::Failed(format!(
            "Xdebug in process {pid} runs with xdebug.mode={mode}, without `debug`, so it never connects to a debugger; the mode is read at start: {restart} (or XDEBUG_MODE=debug in its environment)"
        )));
    }
    if settings.start_with_request.as_deref() == Some("no") {
        return Err(BackendError::Failed(format!(
            "Xdebug in process {pid} runs with xdebug.start_with_request=no: requests never connect (only xdebug_break() in the code does); {restart}"
        )));
    }
    if let Some(host) = &settings.client_host
        && !is_loopback(host)
        && !settings.discover_client_host
    {
        return Err(BackendError::Failed(format!(
            "Xdebug in process {pid} connects to {host}:{}, not to this machine's loopback where debugger-mcp listens: restart it with -d xdebug.client_host=127.0.0.1 (or, when {host} is an address of this machine, attach \"{host}:{}\" with adapter php and [php] listen_host)",
            settings.client_port.unwrap_or(crate::DEFAULT_PORT),
            settings.client_port.unwrap_or(crate::DEFAULT_PORT),
        )));
    }
    Ok(PhpProcess { pid, exe, settings })
}

/// `host:port` given to listen on: the address, or why it cannot be.
pub fn listen_address(text: &str) -> BackendResult<(std::net::IpAddr, u16)> {
    let (host, port) = text.rsplit_once(':').ok_or_else(|| {
        BackendError::Failed(format!("attach '{text}' is not host:port (127.0.0.1:9003)"))
    })?;
    let port: u16 = port
        .parse()
        .map_err(|_| BackendError::Failed(format!("attach '{text}': '{port}' is not a port")))?;
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let ip = if host == "localhost" {
        std::net::Ipv4Addr::LOCALHOST.into()
    } else {
        host.parse().map_err(|_| {
            BackendError::Failed(format!(
                "attach '{text}': with adapter php the address is where Xdebug connects (xdebug.client_host:client_port), an IP address of this machine such as 127.0.0.1:9003"
            ))
        })?
    };
    Ok((ip, port))
}

impl crate::session::Inner {
    /// Makes `l` an attach to `target`: checks it, binds where its Xdebug connects and names it.
    /// Returns (what it attached to, which requests stop) for the answer.
    pub async fn attach(
        self: &std::sync::Arc<Self>,
        l: &mut crate::launch::PhpLaunch,
        target: &debugger_mcp_core::backend::AttachTarget,
    ) -> BackendResult<(String, String)> {
        use debugger_mcp_core::backend::AttachTarget;
        l.attached = true;
        let (host, port, what, which) = match target {
            AttachTarget::Pid(pid) => {
                let p = check_pid(*pid).await?;
                l.attach_pid = Some(*pid);
                let host = *self.listen_host.lock().unwrap();
                (
                    host,
                    p.port(),
                    format!("pid {pid} (`{}`)", p.exe),
                    p.which_requests(),
                )
            }
            AttachTarget::Address(a) => {
                let (ip, port) = listen_address(a)?;
                (
                    ip,
                    port,
                    format!("Xdebug connecting to {a}"),
                    "requests of PHP processes whose Xdebug connects there (with the trigger, or every one with start_with_request=yes) stop here".into(),
                )
            }
        };
        if !self.listeners.lock().unwrap().contains_key(&port) {
            self.bind_on(host, port).await.map_err(|e| {
                let why = match target {
                    AttachTarget::Pid(pid) => format!(
                        "where the Xdebug of process {pid} connects (xdebug.client_port={port})"
                    ),
                    AttachTarget::Address(_) => "as asked".into(),
                };
                BackendError::Failed(format!(
                    "cannot listen on {host}:{port}, {why}: {e}; stop what listens there (another IDE or debugger), or restart the PHP process with -d xdebug.client_port=<a free port>"
                ))
            })?;
        }
        l.port = Some(port);
        if l.name.is_empty() {
            l.name = match target {
                AttachTarget::Pid(pid) => format!("PHP pid {pid}"),
                AttachTarget::Address(a) => format!("Xdebug at {a}"),
            };
        }
        Ok((what, which))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn ini_options_of_a_command_line() {
        let c = s(&[
            "php",
            "-n",
            "-dzend_extension=xdebug",
            "-d",
            "xdebug.mode=debug",
            "-S",
            "127.0.0.1:8000",
            "-t",
            "public",
            "-c",
            "my.ini",
            "worker.php",
            "-d",
            "not=mine",
        ]);
        assert_eq!(
            ini_args(&c),
            s(&[
                "-n",
                "-dzend_extension=xdebug",
                "-d",
                "xdebug.mode=debug",
                "-c",
                "my.ini"
            ])
        );
        assert_eq!(cmdline_setting(&c, "xdebug.mode").as_deref(), Some("debug"));
        assert_eq!(cmdline_setting(&c, "xdebug.client_port"), None);
    }

    #[test]
    fn listen_addresses() {
        assert_eq!(
            listen_address("127.0.0.1:9003").unwrap(),
            ("127.0.0.1".parse().unwrap(), 9003)
        );
        assert_eq!(listen_address("localhost:9100").unwrap().1, 9100);
        assert!(listen_address("db.example:9003").is_err());
        assert!(is_loopback("localhost") && is_loopback("127.0.0.2") && !is_loopback("10.0.0.5"));
    }
}
