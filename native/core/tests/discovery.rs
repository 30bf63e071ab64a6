//! Discovery records as the stdio bridge sees them: a published record is listed (private file),
//! removed when its guard drops, and a record left by a dead process is skipped and deleted.

use debugger_mcp_core::discovery::{self, Record};
use std::path::PathBuf;

fn record(pid: u32) -> Record {
    Record {
        pid,
        url: "http://127.0.0.1:41234/debugger-mcp".into(),
        port: 41234,
        token: Some("t0k".into()),
        product: "test".into(),
        roots: vec![PathBuf::from("/work/app")],
    }
}

#[test]
fn publish_list_withdraw_and_stale_cleanup() {
    let dir = std::env::temp_dir().join(format!("dmcp-discovery-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // SAFETY: this test binary has a single test; nothing else reads the environment concurrently.
    unsafe { std::env::set_var("DEBUGGER_MCP_DISCOVERY_DIR", &dir) };

    assert!(discovery::list().is_empty(), "no directory yet: no servers");
    let me = record(std::process::id());
    let published = discovery::publish(&me).unwrap();
    assert_eq!(discovery::list(), vec![me.clone()]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(published.path())
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o600, "the record holds the token: owner only");
    }
    let mut moved = me.clone();
    moved.roots.push(PathBuf::from("/work/other"));
    published.update(&moved).unwrap();
    assert_eq!(discovery::list()[0].roots.len(), 2);

    // A process that has exited left its record behind (killed without cleanup).
    let mut child = std::process::Command::new(if cfg!(windows) { "cmd" } else { "true" })
        .spawn()
        .unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let stale = dir.join(format!("{dead}.json"));
    std::fs::write(&stale, serde_json::to_vec(&record(dead)).unwrap()).unwrap();
    std::fs::write(dir.join("garbage.json"), b"{not json").unwrap();
    #[cfg(unix)]
    {
        assert_eq!(
            discovery::list(),
            vec![moved.clone()],
            "the dead process's record is skipped"
        );
        assert!(!stale.exists(), "and deleted");
    }
    assert!(
        dir.join("garbage.json").exists(),
        "unreadable files are skipped, not deleted"
    );

    let path = published.path().to_owned();
    drop(published);
    assert!(!path.exists(), "the record goes when the server stops");
    assert!(discovery::list().is_empty());
    assert_eq!(
        me.best_root_for(std::path::Path::new("/work/app/src/main.rs")),
        Some(std::path::Path::new("/work/app"))
    );
    assert_eq!(
        me.best_root_for(std::path::Path::new("/work/application")),
        None
    );
    let _ = std::fs::remove_dir_all(&dir);
}
