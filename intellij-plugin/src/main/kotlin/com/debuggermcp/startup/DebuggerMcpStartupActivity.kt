package com.debuggermcp.startup

import com.debuggermcp.DebuggerMcpService
import com.debuggermcp.ui.DebuggerMcpPanel
import com.intellij.notification.NotificationGroupManager
import com.intellij.notification.NotificationType
import com.intellij.openapi.project.Project
import com.intellij.openapi.startup.ProjectActivity
import java.util.concurrent.atomic.AtomicBoolean

/**
 * Starts the engine when the first project opens (so agents can connect before anyone opens the
 * tool window) and tells the user the URL once per IDE run.
 */
class DebuggerMcpStartupActivity : ProjectActivity {
    override suspend fun execute(project: Project) {
        val service = DebuggerMcpService.getInstance()
        val ok = service.ensureStarted()
        if (!announced.compareAndSet(false, true)) return
        val group = NotificationGroupManager.getInstance().getNotificationGroup(DebuggerMcpPanel.NOTIFICATION_GROUP)
        val notification = if (ok) {
            group.createNotification("Debugger MCP is ready", "Agents can connect to ${service.url()}", NotificationType.INFORMATION)
        } else {
            val reason = (service.state as? DebuggerMcpService.State.Failed)?.message ?: "unknown error"
            group.createNotification("Debugger MCP could not start", reason, NotificationType.ERROR)
        }
        notification.notify(project)
    }

    companion object {
        private val announced = AtomicBoolean(false)
    }
}
