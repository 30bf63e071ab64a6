package com.debuggermcp.startup

import com.debuggermcp.DebuggerMcpService
import com.debuggermcp.ui.DebuggerMcpPanel
import com.intellij.notification.Notification
import com.intellij.notification.NotificationType
import com.intellij.openapi.project.Project
import com.intellij.openapi.startup.ProjectActivity
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext
import java.util.concurrent.atomic.AtomicBoolean

/**
 * Starts the engine when the first project opens (so agents can connect before anyone opens the
 * tool window) and tells the user the URL once per IDE run.
 */
class DebuggerMcpStartupActivity : ProjectActivity {
    override suspend fun execute(project: Project) {
        // Loading the library and waiting for the server's port block: IO pool, not the caller.
        val (ok, url) = withContext(Dispatchers.IO) {
            val service = DebuggerMcpService.getInstance()
            val ok = service.ensureStarted()
            ok to (if (ok) service.awaitUrl(30_000) else null)
        }
        if (!announced.compareAndSet(false, true)) return
        val group = DebuggerMcpPanel.NOTIFICATION_GROUP
        val notification = if (ok) {
            Notification(group, "Debugger MCP is ready", "Agents can connect to ${url ?: "the IDE's built-in server (port not known yet)"}", NotificationType.INFORMATION)
        } else {
            val reason = (DebuggerMcpService.getInstance().state as? DebuggerMcpService.State.Failed)?.message ?: "unknown error"
            Notification(group, "Debugger MCP could not start", reason, NotificationType.ERROR)
        }
        notification.notify(project)
    }

    companion object {
        private val announced = AtomicBoolean(false)
    }
}
