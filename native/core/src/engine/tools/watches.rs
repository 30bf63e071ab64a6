//! Watches: per-project expressions the core re-evaluates (side-effect free) at every pause.

use super::super::context::Call;
use super::super::expression_guard;
use super::super::snapshot::{self, watch_json};
use super::super::state::Watch;
use super::out::Watch as WatchOut;
use super::{Kind, Outcome, ProjectArg, SessionArg};
use crate::backend::SessionState;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// # List watches
/// Watches with their values at the last pause.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct ListWatches {
    #[serde(flatten)]
    p: ProjectArg,
}
tool!(
    ListWatches,
    "list_watches",
    Kind::Read,
    Watches,
    list_watches
);

#[derive(Serialize, JsonSchema)]
pub struct Watches {
    watches: Vec<WatchOut>,
}

async fn list_watches(c: &mut Call<'_>, a: ListWatches) -> Outcome<Watches> {
    let root = c.project(a.p.project_path.as_deref()).await?;
    let max = c.cfg.max_value_length;
    let watches: Vec<WatchOut> = c.engine.with_state(|s| {
        s.watches
            .get(&root)
            .map(|ws| ws.iter().map(|w| watch_json(w, max)).collect())
            .unwrap_or_default()
    });
    Ok(Watches { watches })
}

/// # Add a watch
/// Add an expression evaluated at every pause.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct AddWatch {
    #[serde(flatten)]
    s: SessionArg,
    #[schemars(length(min = 1))]
    expression: String,
}
tool!(
    AddWatch,
    "add_watch",
    Kind::Write { idempotent: false },
    WatchOut,
    add_watch
);

async fn add_watch(c: &mut Call<'_>, a: AddWatch) -> Outcome<WatchOut> {
    let root = c.project(a.s.project_path.as_deref()).await?;
    // An explicit session must exist; otherwise any paused session of the project will do.
    let session = match a.s.session_id.as_deref() {
        Some(id) => Some(c.session(&root, Some(id)).await?),
        None => c.session(&root, None).await.ok(),
    };
    // Watches are evaluated at every pause without side effects; refuse state changes up front
    // (the paused frame's language tells a named argument `f(key=1)` from an assignment).
    let mut file = None;
    if let Some(sid) = session.as_deref()
        && let Ok((thread, _)) = c.paused(sid)
    {
        file = c.frame(sid, &thread, 0).await.ok().and_then(|f| f.file);
    }
    expression_guard::check(&a.expression, &c.cfg.expression_safety, file.as_deref())?;
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
    let paused = session.filter(|sid| {
        c.engine.with_state(|s| {
            s.sessions
                .get(sid)
                .is_some_and(|x| x.state() == SessionState::Paused)
        })
    });
    if let Some(sid) = &paused {
        snapshot::refresh_watches(c, sid).await;
    }
    let max = c.cfg.max_value_length;
    let mut out = c
        .engine
        .with_state(|s| {
            s.watches
                .get(&root)
                .and_then(|ws| ws.iter().find(|w| w.id == id))
                .map(|w| watch_json(w, max))
        })
        .unwrap_or_else(|| WatchOut {
            id,
            expression: a.expression,
            ..Default::default()
        });
    if paused.is_none() {
        out.message = Some("added; it is evaluated at the next pause".into());
    }
    Ok(out)
}

/// # Remove a watch
/// Remove a watch by id.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct RemoveWatch {
    #[serde(flatten)]
    p: ProjectArg,
    #[schemars(length(min = 1))]
    watch_id: String,
}
tool!(
    RemoveWatch,
    "remove_watch",
    Kind::Write { idempotent: true },
    WatchRemoved,
    remove_watch
);

#[derive(Serialize, JsonSchema)]
pub struct WatchRemoved {
    removed: bool,
    message: String,
}

async fn remove_watch(c: &mut Call<'_>, a: RemoveWatch) -> Outcome<WatchRemoved> {
    let root = c.project(a.p.project_path.as_deref()).await?;
    let (removed, left) = c.engine.with_state(|s| {
        let ws = s.watches.entry(root.clone()).or_default();
        let before = ws.len();
        ws.retain(|w| w.id != a.watch_id);
        (
            before != ws.len(),
            ws.iter().map(|w| w.id.clone()).collect::<Vec<_>>(),
        )
    });
    let message = if removed {
        format!("watch {} removed", a.watch_id)
    } else {
        format!(
            "no watch '{}'; nothing to remove (watches: {})",
            a.watch_id,
            if left.is_empty() {
                "none".into()
            } else {
                left.join(", ")
            }
        )
    };
    Ok(WatchRemoved { removed, message })
}
