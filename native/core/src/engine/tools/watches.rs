//! Watches: per-project expressions the core re-evaluates (side-effect free) at every pause.

use super::super::context::{Call, ToolResult};
use super::super::expression_guard;
use super::super::snapshot::{self, watch_json};
use super::super::state::Watch;
use crate::backend::SessionState;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Deserialize)]
pub struct ListArgs {
    project_path: Option<String>,
}

pub async fn list_watches(c: &mut Call<'_>, a: ListArgs) -> ToolResult {
    let root = c.project(a.project_path.as_deref()).await?;
    let max = c.cfg.max_value_length;
    let watches: Vec<Value> =
        c.engine.with_state(|s| s.watches.get(&root).map(|ws| ws.iter().map(|w| watch_json(w, max)).collect()).unwrap_or_default());
    Ok(json!({"watches": watches}))
}

#[derive(Deserialize)]
pub struct AddArgs {
    project_path: Option<String>,
    session_id: Option<String>,
    expression: String,
}

pub async fn add_watch(c: &mut Call<'_>, a: AddArgs) -> ToolResult {
    let root = c.project(a.project_path.as_deref()).await?;
    // Watches are evaluated at every pause without side effects; refuse state changes up front.
    expression_guard::check(&a.expression, &c.cfg.expression_safety)?;
    // An explicit session must exist; otherwise any paused session of the project will do.
    let session = match a.session_id.as_deref() {
        Some(id) => Some(c.session(&root, Some(id)).await?),
        None => c.session(&root, None).await.ok(),
    };
    let id = c.engine.with_state(|s| {
        s.next_watch += 1;
        let id = format!("w{}", s.next_watch);
        s.watches.entry(root.clone()).or_default().push(Watch {
            id: id.clone(),
            expression: a.expression.clone(),
            value: None,
            type_name: None,
            value_length: None,
            error: None,
            at: None,
        });
        id
    });
    let paused = session.filter(|sid| c.engine.with_state(|s| s.sessions.get(sid).is_some_and(|x| x.state() == SessionState::Paused)));
    if let Some(sid) = &paused {
        snapshot::refresh_watches(c, sid).await;
    }
    let max = c.cfg.max_value_length;
    let mut out = c
        .engine
        .with_state(|s| s.watches.get(&root).and_then(|ws| ws.iter().find(|w| w.id == id)).map(|w| watch_json(w, max)))
        .unwrap_or_else(|| json!({"id": id, "expression": a.expression}));
    if paused.is_none() {
        out["message"] = json!("added; it is evaluated at the next pause");
    }
    Ok(out)
}

#[derive(Deserialize)]
pub struct RemoveArgs {
    project_path: Option<String>,
    watch_id: String,
}

pub async fn remove_watch(c: &mut Call<'_>, a: RemoveArgs) -> ToolResult {
    let root = c.project(a.project_path.as_deref()).await?;
    let (removed, left) = c.engine.with_state(|s| {
        let ws = s.watches.entry(root.clone()).or_default();
        let before = ws.len();
        ws.retain(|w| w.id != a.watch_id);
        (before != ws.len(), ws.iter().map(|w| w.id.clone()).collect::<Vec<_>>())
    });
    let message = if removed {
        format!("watch {} removed", a.watch_id)
    } else {
        format!("no watch '{}'; nothing to remove (watches: {})", a.watch_id, if left.is_empty() { "none".into() } else { left.join(", ") })
    };
    Ok(json!({"removed": removed, "message": message}))
}
