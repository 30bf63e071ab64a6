//! Watches: per-project expressions the core re-evaluates (side-effect free) at every pause.

use super::super::context::Call;
use super::super::expression_guard;
use super::super::snapshot::{self, watch_json};
use super::super::state::Watch;
use super::out::Watch as WatchOut;
use super::{Kind, Outcome, SessionArg};
use crate::backend::SessionState;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// # Watches
/// add: an expression to evaluate at every pause; remove: an id. Answers all.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct Watches {
    #[serde(flatten)]
    s: SessionArg,
    #[schemars(length(min = 1))]
    add: Option<String>,
    #[schemars(length(min = 1))]
    remove: Option<String>,
}
tool!(
    Watches,
    "watches",
    Kind::Write { idempotent: false },
    WatchList,
    watches
);

/// Every watch of the project, with what the call did.
#[derive(Serialize, JsonSchema)]
pub struct WatchList {
    watches: Vec<WatchOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

/// One tool for what list_watches, add_watch and remove_watch did (issue 26: every tool costs
/// every agent's context); the answer is always the whole list, so no call is needed to see it.
async fn watches(c: &mut Call<'_>, a: Watches) -> Outcome<WatchList> {
    if a.add.is_some() && a.remove.is_some() {
        return Err("give add or remove, not both (one change per call)".into());
    }
    let root = c.project(a.s.project_path.as_deref()).await?;
    let message = match (a.add, a.remove) {
        (Some(expression), _) => add_watch(c, &root, a.s.session_id.as_deref(), expression).await?,
        (_, Some(id)) => Some(remove_watch(c, &root, &id)?),
        _ => None,
    };
    let max = c.cfg.max_value_length;
    let watches: Vec<WatchOut> = c.engine.with_state(|s| {
        s.watches
            .get(&root)
            .map(|ws| ws.iter().map(|w| watch_json(w, max)).collect())
            .unwrap_or_default()
    });
    Ok(WatchList { watches, message })
}

/// Adds a watch; evaluates it at once when the session is paused. Says so when it is not.
async fn add_watch(
    c: &mut Call<'_>,
    root: &str,
    session_id: Option<&str>,
    expression: String,
) -> Outcome<Option<String>> {
    let root = root.to_string();
    // An explicit session must exist; otherwise any paused session of the project will do.
    let session = match session_id {
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
    expression_guard::check(&expression, &c.cfg.expression_safety, file.as_deref())?;
    let id = c.engine.with_state(|s| {
        s.next_watch += 1;
        let id = format!("w{}", s.next_watch);
        s.watches.entry(root.clone()).or_default().push(Watch {
            id: id.clone(),
            expression: expression.clone(),
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
    Ok(Some(if paused.is_some() {
        format!("watch {id} added")
    } else {
        format!("watch {id} added; it is evaluated at the next pause")
    }))
}

fn remove_watch(c: &Call<'_>, root: &str, watch_id: &str) -> Outcome<String> {
    let (removed, left) = c.engine.with_state(|s| {
        let ws = s.watches.entry(root.to_string()).or_default();
        let before = ws.len();
        ws.retain(|w| w.id != watch_id);
        (
            before != ws.len(),
            ws.iter().map(|w| w.id.clone()).collect::<Vec<_>>(),
        )
    });
    Ok(if removed {
        format!("watch {watch_id} removed")
    } else {
        format!(
            "no watch '{watch_id}'; nothing to remove (watches: {})",
            if left.is_empty() {
                "none".into()
            } else {
                left.join(", ")
            }
        )
    })
}
