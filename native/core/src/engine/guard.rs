//! Guardrails for destructive tools (start sessions, set values, side-effecting evaluation, code
//! fragments): brave mode skips them; otherwise the IDE asks (backend `confirm`), else the MCP
//! client asks (elicitation), else the call is refused with a message saying how to allow it.

use super::context::{Call, ToolError};
use crate::backend::ConfirmRequest;

/// How long a user gets to answer; stays under the 55 s every call is capped at.
const CONFIRM_MS: u64 = 50_000;

pub fn refusal(action: &str) -> ToolError {
    ToolError(format!(
        "{action} needs the user's confirmation, but neither the IDE nor this MCP client can ask (no elicitation support). \
         Ask the user to allow it by enabling brave mode (destructive actions without confirmation): \
         headless, add `brave_mode = true` to `debugger-mcp.toml` in the project directory or start the server with `debugger-mcp serve --brave` / `debugger-mcp stdio --brave`; \
         in the IDE, Settings > Tools > Debugger MCP > Brave mode"
    ))
}

impl Call<'_> {
    /// Ok when the action may proceed.
    pub async fn confirm(&self, root: &str, action: &str, details: &str) -> Result<(), ToolError> {
        if self.cfg.brave_mode {
            return Ok(());
        }
        let message = format!("An AI agent wants to {action}:\n{details}\nAllow it?");
        let info = self.engine.info().await;
        if info.can_confirm {
            let backend = self.engine.backend.clone();
            let request = ConfirmRequest {
                title: format!("Debugger MCP: {action}"),
                message: message.clone(),
            };
            match self
                .bk_within("confirm", CONFIRM_MS, backend.confirm(root, request))
                .await
            {
                Ok(true) => return Ok(()),
                Ok(false) => return Err(declined(action)),
                // No dialog after all (e.g. headless IDE); try the client.
                Err(_) => {}
            }
        }
        if let Some(confirmer) = &self.ctx.confirmer {
            let asked = tokio::time::timeout(
                std::time::Duration::from_millis(CONFIRM_MS),
                confirmer.confirm(&message),
            )
            .await;
            match asked {
                Ok(Ok(true)) => return Ok(()),
                Ok(Ok(false)) => return Err(declined(action)),
                Ok(Err(_)) => {}
                Err(_) => {
                    return Err(ToolError(format!(
                        "the user did not answer the confirmation to {action} in time; nothing was done"
                    )));
                }
            }
        }
        Err(refusal(action))
    }
}

fn declined(action: &str) -> ToolError {
    ToolError(format!(
        "the user declined to {action}; nothing was done. Do not retry unless the user asks"
    ))
}
