package com.debuggermcp.startup

import com.debuggermcp.DebuggerMcpService
import com.debuggermcp.ui.DebuggerMcpPanel
import com.debuggermcp.ui.InstallOnAgentsDiscovery
import com.intellij.notification.Notification
import com.intellij.notification.NotificationType
import com.intellij.openapi.project.Project
import com.intellij.openapi.startup.ProjectActivity
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext
import java.util.concurrent.atomic.AtomicBoolean

/**
 * Starts the engine when the first project opens (so agents can connect before anyone opens the
 * tool window), adds each opened project to the discovery record, and tells the user the URL once
 * per IDE run.
 */
class DebuggerMcpStartupActivity : ProjectActivity {
    override suspend fun execute(project: Project) {
        // Loading the library and waiting for the server's port block: IO pool, not the caller.
        val (ok, url) = withContext(Dispatchers.IO) { start() }
        // Post-start-up activities run once the project is among the open ones
        // (ProjectManagerImpl.doOpenAsync: addToOpened, then runPostStartupActivities; file id
        // 25931666102), and this is how the platform tells a plugin a project opened
        // (ProjectManagerListener.projectOpened is deprecated for removal in its favour,
        // ProjectManagerListener.java @15343567cf7809eb623839598d6437db1454e59b): the stdio bridge
        // must find this project in the record (issue 27 RISK 6). File IO: off the caller.
        if (ok) withContext(Dispatchers.IO) { InstallOnAgentsDiscovery.refresh() }
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

        /** Starts the engine and waits for its URL: (started, URL or null). The JUnit tests put a fake here. */
        @Volatile
        internal var start: () -> Pair<Boolean, String?> = {
            val service = DebuggerMcpService.getInstance()
            val ok = service.ensureStarted()
            ok to (if (ok) service.awaitUrl(30_000) else null)
        }
    }
}
