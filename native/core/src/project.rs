//! What a protocol backend keeps for its one project, kept the same way by every backend that
//! owns its sessions and breakpoints (DAP, DBGp; the IDE keeps its own): the project check, the
//! session table and the project-level breakpoint store. One implementation, so the backends
//! cannot drift apart in how an id is found, an ended session is forgotten or a line
//! breakpoint is re-set.

use crate::backend::{
    BackendError, BackendResult, BreakpointInfo, BreakpointKind, BreakpointUpdate,
    LineBreakpointSpec, SessionInfo,
};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

/// Ended sessions kept for status and clear errors; older ones are forgotten.
pub const KEEP_ENDED: usize = 16;

/// `project` names the backend's project `root`: the root as `projects` returns it (or any
/// path to it), the project's directory name (one project per backend, so it is unambiguous),
/// or nothing.
pub fn check_project(root: &Path, project: &str) -> BackendResult<()> {
    let p = std::fs::canonicalize(project).unwrap_or_else(|_| PathBuf::from(project));
    let name = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if p == root || project.is_empty() || project == name {
        Ok(())
    } else {
        Err(BackendError::NotFound(format!(
            "project '{project}' (open: {})",
            root.display()
        )))
    }
}

/// A session as the table needs to see it.
pub trait TableEntry {
    fn id(&self) -> &str;
    fn is_ended(&self) -> bool;
    fn info(&self) -> SessionInfo;
}

/// `impl TableEntry` for a backend's session type from its `id` field and its own `is_ended()`
/// and `info()`: every protocol backend's session enters the table the same way.
#[macro_export]
macro_rules! table_entry {
    ($session:ty) => {
        impl $crate::project::TableEntry for $session {
            fn id(&self) -> &str {
                &self.id
            }
            fn is_ended(&self) -> bool {
                <$session>::is_ended(self)
            }
            fn info(&self) -> $crate::backend::SessionInfo {
                <$session>::info(self)
            }
        }
    };
}

/// A backend's debug sessions: ids (`<prefix><n>`), lookup, and at most [`KEEP_ENDED`] ended
/// ones.
pub struct SessionTable<S> {
    prefix: char,
    next: AtomicU32,
    list: Mutex<Vec<Arc<S>>>,
}

impl<S: TableEntry> SessionTable<S> {
    /// Ids are `prefix` and a number (backends behind one router keep distinct prefixes).
    pub fn new(prefix: char) -> Self {
        SessionTable {
            prefix,
            next: AtomicU32::new(1),
            list: Mutex::new(Vec::new()),
        }
    }

    pub fn next_id(&self) -> String {
        format!(
            "{}{}",
            self.prefix,
            self.next.fetch_add(1, Ordering::SeqCst)
        )
    }

    /// Adds a session, forgetting the oldest ended ones beyond [`KEEP_ENDED`].
    pub fn add(&self, session: Arc<S>) {
        let mut list = self.list.lock().unwrap();
        list.push(session);
        let ended: Vec<String> = list
            .iter()
            .filter(|s| s.is_ended())
            .map(|s| s.id().to_string())
            .collect();
        if ended.len() > KEEP_ENDED {
            let forget = &ended[..ended.len() - KEEP_ENDED];
            list.retain(|s| !forget.iter().any(|f| f == s.id()));
        }
    }

    pub fn get(&self, id: &str) -> BackendResult<Arc<S>> {
        self.list
            .lock()
            .unwrap()
            .iter()
            .find(|s| s.id() == id)
            .cloned()
            .ok_or_else(|| BackendError::NotFound(format!("session '{id}'")))
    }

    /// Forgets session `id` (a backend that reuses the id for what comes next).
    pub fn remove(&self, id: &str) {
        self.list.lock().unwrap().retain(|s| s.id() != id);
    }

    /// Every session, ended ones included.
    pub fn all(&self) -> Vec<Arc<S>> {
        self.list.lock().unwrap().clone()
    }

    /// Sessions that have not ended.
    pub fn live(&self) -> Vec<Arc<S>> {
        self.list
            .lock()
            .unwrap()
            .iter()
            .filter(|s| !s.is_ended())
            .cloned()
            .collect()
    }

    /// What `Backend::sessions` answers.
    pub fn infos(&self) -> Vec<SessionInfo> {
        self.list.lock().unwrap().iter().map(|s| s.info()).collect()
    }
}

/// Project-level breakpoints (like an IDE's): kept before any session exists and applied to
/// every session by the backend. Ids are `<prefix><n>`.
pub struct BreakpointStore {
    prefix: &'static str,
    next: u64,
    pub list: Vec<BreakpointInfo>,
}

impl BreakpointStore {
    pub fn new(prefix: &'static str) -> Self {
        BreakpointStore {
            prefix,
            next: 0,
            list: Vec::new(),
        }
    }

    pub fn new_id(&mut self) -> String {
        self.next += 1;
        format!("{}{}", self.prefix, self.next)
    }

    /// The breakpoint `id` as it is now.
    pub fn get(&self, id: &str) -> BackendResult<BreakpointInfo> {
        self.list
            .iter()
            .find(|b| b.id == id)
            .cloned()
            .ok_or_else(|| not_found(id))
    }

    /// The id of a breakpoint of `kind` matching `same` (re-setting a line or an exception
    /// updates the breakpoint there), else a new id.
    pub fn id_for(&mut self, same: impl Fn(&BreakpointInfo) -> bool) -> String {
        match self.list.iter().find(|b| same(b)) {
            Some(b) => b.id.clone(),
            None => self.new_id(),
        }
    }

    /// Stores the line breakpoint `spec` at `file` (canonical) as not yet bound (`pending` says
    /// why) and returns its id. Re-setting a line updates the breakpoint already there, so an
    /// agent that sets the same line twice keeps one breakpoint and its id.
    pub fn put_line(&mut self, file: &str, spec: LineBreakpointSpec, pending: &str) -> String {
        let id = self.id_for(|b| {
            b.kind == BreakpointKind::Line
                && b.file.as_deref() == Some(file)
                && b.requested_line == Some(spec.line)
        });
        self.put(BreakpointInfo {
            id: id.clone(),
            kind: BreakpointKind::Line,
            file: Some(file.to_string()),
            requested_line: Some(spec.line),
            line: Some(spec.line),
            verified: false,
            message: Some(pending.into()),
            enabled: spec.enabled,
            condition: spec.condition.filter(|c| !c.is_empty()),
            log_message: spec.log_message.filter(|c| !c.is_empty()),
            hit_condition: spec.hit_condition.filter(|c| !c.is_empty()),
            suspend_policy: spec.suspend_policy,
            temporary: spec.temporary,
            ..Default::default()
        });
        id
    }

    /// Stores `bp` as a new breakpoint under a new id (its own `id` is ignored) and returns the id.
    pub fn insert(&mut self, bp: BreakpointInfo) -> String {
        let id = self.new_id();
        self.list.push(BreakpointInfo {
            id: id.clone(),
            ..bp
        });
        id
    }

    /// The enabled breakpoints of `kind`, as they are now (what a sync sends to a debugger).
    pub fn enabled(&self, kind: BreakpointKind) -> Vec<BreakpointInfo> {
        self.list
            .iter()
            .filter(|b| b.kind == kind && b.enabled)
            .cloned()
            .collect()
    }

    /// Stores `bp`, replacing the breakpoint of the same id.
    pub fn put(&mut self, bp: BreakpointInfo) {
        match self.list.iter_mut().find(|b| b.id == bp.id) {
            Some(b) => *b = bp,
            None => self.list.push(bp),
        }
    }

    /// Applies `f` to breakpoint `id`; returns it afterwards and whether `f` changed it.
    pub fn update(
        &mut self,
        id: &str,
        f: impl FnOnce(&mut BreakpointInfo),
    ) -> Option<(BreakpointInfo, bool)> {
        let bp = self.list.iter_mut().find(|b| b.id == id)?;
        let before = bp.clone();
        f(bp);
        Some((bp.clone(), *bp != before))
    }

    /// Applies an update's fields (an empty string clears a text field); the backend adjusts
    /// what it reports (verified, message) afterwards.
    pub fn apply(
        &mut self,
        id: &str,
        update: BreakpointUpdate,
    ) -> BackendResult<&mut BreakpointInfo> {
        let bp = self
            .list
            .iter_mut()
            .find(|b| b.id == id)
            .ok_or_else(|| not_found(id))?;
        let set = |field: &mut Option<String>, v: Option<String>| {
            if let Some(v) = v {
                *field = Some(v).filter(|v| !v.is_empty());
            }
        };
        if let Some(e) = update.enabled {
            bp.enabled = e;
        }
        set(&mut bp.condition, update.condition);
        set(&mut bp.log_message, update.log_message);
        set(&mut bp.hit_condition, update.hit_condition);
        if let Some(p) = update.suspend_policy {
            bp.suspend_policy = p;
        }
        if let Some(t) = update.temporary {
            bp.temporary = t;
        }
        Ok(bp)
    }

    /// Removes breakpoint `id` and returns it.
    pub fn remove(&mut self, id: &str) -> BackendResult<BreakpointInfo> {
        let pos = self
            .list
            .iter()
            .position(|b| b.id == id)
            .ok_or_else(|| not_found(id))?;
        Ok(self.list.remove(pos))
    }
}

/// Directories skipped when looking for a path elsewhere in the project: version control,
/// dependencies and build output (a script there is not the one a command meant).
const NOT_SEARCHED: &[&str] = &[
    "node_modules",
    "vendor",
    "target",
    "__pycache__",
    "build",
    "dist",
];

/// The sentence that ends a "not found" error when a relative path of a command (a script, a
/// program, a `<` input) is not where the command runs but is elsewhere in the project: an agent
/// that made `work/repro.php` and ran `php repro.php` from its shell's `work/` got "Could not
/// open input file" (commands run in the project's root, which the server cannot know the
/// agent's shell left). Breadth first from `root`, four levels, at most 2,000 directories; None
/// when no word is missing here and present there.
pub fn missing_path_hint<'a>(
    root: &Path,
    cwd: &Path,
    words: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let mut word = None;
    for w in words {
        if w.is_empty() || w.starts_with('-') || w.contains('=') || Path::new(w).is_absolute() {
            continue;
        }
        if !(w.contains('/') || w.contains('.')) || cwd.join(w).exists() {
            continue;
        }
        let found = elsewhere(root, w);
        if !found.is_empty() {
            word = Some((w, found));
            break;
        }
    }
    let (w, found) = word?;
    let here = match cwd.strip_prefix(root) {
        Ok(r) if r.as_os_str().is_empty() => "the project's root".to_string(),
        Ok(r) => format!("{}/", r.display()),
        Err(_) => cwd.display().to_string(),
    };
    let dirs: Vec<String> = found.iter().map(|d| format!("{d}/")).collect();
    Some(format!(
        "`{w}` is not in {here}, where the command ran (commands run in the project's root unless cwd is given); it is in {}: pass cwd: '{}' and call again",
        dirs.join(", "),
        found[0]
    ))
}

/// Project directories (relative to `root`, nearest first, at most three) holding `rel`.
fn elsewhere(root: &Path, rel: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut queue = std::collections::VecDeque::from([(root.to_path_buf(), 0usize)]);
    let mut seen = 0;
    while let Some((dir, depth)) = queue.pop_front() {
        seen += 1;
        if seen > 2000 || out.len() == 3 {
            break;
        }
        if depth > 0
            && dir.join(rel).exists()
            && let Ok(r) = dir.strip_prefix(root)
        {
            out.push(r.display().to_string());
        }
        if depth == 4 {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut subdirs: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter(|e| {
                let n = e.file_name();
                let n = n.to_string_lossy();
                !n.starts_with('.') && !NOT_SEARCHED.contains(&n.as_ref())
            })
            .map(|e| e.path())
            .collect();
        subdirs.sort();
        queue.extend(subdirs.into_iter().map(|d| (d, depth + 1)));
    }
    out
}

fn not_found(id: &str) -> BackendError {
    BackendError::NotFound(format!("breakpoint '{id}'"))
}

/// Whether the project has a source file ending in `.{extension}` (the source scans' walk:
/// hidden folders and build output left out; `vendor/` too, being dependencies).
pub fn has_source(root: &Path, extension: &str) -> bool {
    let walk = crate::engine::sources::Walk {
        extensions: &[extension],
        vendor: false,
        max_files: 1,
        max_file_bytes: u64::MAX,
    };
    !crate::engine::sources::files(root, &walk).files.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{BreakpointKind, LaunchMode, SessionState};

    struct S(String, bool);
    impl TableEntry for S {
        fn id(&self) -> &str {
            &self.0
        }
        fn is_ended(&self) -> bool {
            self.1
        }
        fn info(&self) -> SessionInfo {
            SessionInfo {
                id: self.0.clone(),
                name: self.0.clone(),
                state: SessionState::Running,
                run_configuration: None,
                process_id: None,
                mode: LaunchMode::Debug,
                attached: false,
                note: None,
            }
        }
    }

    /// An agent asking for an old session gets "not found" only once more than KEEP_ENDED
    /// sessions ended after it; live sessions are never forgotten.
    #[test]
    fn the_table_forgets_only_the_oldest_ended_sessions() {
        let t = SessionTable::new('x');
        t.add(Arc::new(S(t.next_id(), false)));
        for _ in 0..KEEP_ENDED + 2 {
            t.add(Arc::new(S(t.next_id(), true)));
        }
        assert!(t.get("x1").is_ok(), "a live session was forgotten");
        assert!(t.get("x2").is_err() && t.get("x3").is_err());
        assert!(t.get("x4").is_ok());
        assert_eq!(t.infos().len(), 1 + KEEP_ENDED);
        assert_eq!(t.live().len(), 1);
        let Err(BackendError::NotFound(m)) = t.get("s9") else {
            panic!("unknown session found")
        };
        assert_eq!(m, "session 's9'");
    }

    /// Two watchpoints set on the same expression are two breakpoints (each its own id), and a
    /// sync sends only the enabled ones of the kind asked for.
    #[test]
    fn inserted_breakpoints_get_new_ids_and_syncs_see_only_enabled_ones() {
        let mut s = BreakpointStore::new("p");
        let data = |enabled| BreakpointInfo {
            id: "ignored".into(),
            kind: BreakpointKind::Data,
            watch: Some("total".into()),
            enabled,
            ..Default::default()
        };
        assert_eq!(s.insert(data(true)), "p1");
        assert_eq!(s.insert(data(false)), "p2");
        s.put_line(
            "a.py",
            LineBreakpointSpec {
                line: 3,
                enabled: true,
                ..Default::default()
            },
            "",
        );
        let ids = |v: Vec<BreakpointInfo>| v.into_iter().map(|b| b.id).collect::<Vec<_>>();
        assert_eq!(ids(s.enabled(BreakpointKind::Data)), ["p1"]);
        assert_eq!(ids(s.enabled(BreakpointKind::Line)), ["p3"]);
        assert!(s.enabled(BreakpointKind::Exception).is_empty());
    }

    /// Re-setting a line updates the breakpoint there (same id); an update clears a text field
    /// with an empty string and leaves unnamed fields alone; removing an unknown id says so.
    #[test]
    fn the_store_keeps_one_breakpoint_per_line_and_applies_updates() {
        let mut s = BreakpointStore::new("p");
        let at = |b: &BreakpointInfo| b.kind == BreakpointKind::Line && b.line == Some(3);
        let id = s.id_for(at);
        s.put(BreakpointInfo {
            id: id.clone(),
            kind: BreakpointKind::Line,
            line: Some(3),
            condition: Some("x > 1".into()),
            enabled: true,
            ..Default::default()
        });
        assert_eq!(id, "p1");
        assert_eq!(s.id_for(at), "p1");
        let b = s
            .apply(
                "p1",
                BreakpointUpdate {
                    condition: Some(String::new()),
                    hit_condition: Some("3".into()),
                    ..Default::default()
                },
            )
            .unwrap();
        assert_eq!(
            (b.condition.clone(), b.hit_condition.as_deref()),
            (None, Some("3"))
        );
        assert!(b.enabled);
        assert_eq!(
            s.update("p1", |_| {}).map(|(_, changed)| changed),
            Some(false)
        );
        assert!(s.remove("p1").is_ok());
        assert!(matches!(s.get("p1"), Err(BackendError::NotFound(m)) if m == "breakpoint 'p1'"));
    }
    #[test]
    fn a_relative_path_missing_where_the_command_runs_is_found_elsewhere() {
        let root = std::env::temp_dir().join(format!("dmcp-hint-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("work/tests")).unwrap();
        std::fs::create_dir_all(root.join("node_modules/x")).unwrap();
        std::fs::write(root.join("work/repro.php"), "<?php").unwrap();
        std::fs::write(root.join("node_modules/x/only.js"), "").unwrap();
        std::fs::write(root.join("work/tests/in.txt"), "").unwrap();
        let hint = missing_path_hint(&root, &root, ["php", "-d", "x=1", "repro.php"]).unwrap();
        assert!(
            hint.starts_with("`repro.php` is not in the project's root"),
            "{hint}"
        );
        assert!(
            hint.ends_with("it is in work/: pass cwd: 'work' and call again"),
            "{hint}"
        );
        // From a cwd that holds it: nothing to say; a dependency's file is not offered.
        assert_eq!(
            missing_path_hint(&root, &root.join("work"), ["php", "repro.php"]),
            None
        );
        assert_eq!(missing_path_hint(&root, &root, ["node", "only.js"]), None);
        let hint = missing_path_hint(&root, &root.join("work"), ["./p", "in.txt"]).unwrap();
        assert!(hint.starts_with("`in.txt` is not in work/"), "{hint}");
        assert!(hint.contains("pass cwd: 'work/tests'"), "{hint}");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
