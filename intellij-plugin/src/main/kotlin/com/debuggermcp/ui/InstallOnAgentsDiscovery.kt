package com.debuggermcp.ui

import com.debuggermcp.DebuggerMcpService
import com.debuggermcp.adapter.Ide
import com.debuggermcp.bridge.InstallBridge
import com.intellij.openapi.diagnostic.Logger
import com.intellij.openapi.project.Project

/**
 * Keeps this IDE's discovery record (read by `debugger-mcp stdio` to find it) in step with the
 * open projects: written when the engine starts, rewritten when a project opens
 * ([com.debuggermcp.startup.DebuggerMcpStartupActivity]) or closes ([DiscoveryProjectListener]), and when
 * the tool window refreshes; removed when the service is disposed.
 */
object InstallOnAgentsDiscovery {
    internal val LOG by lazy { Logger.getInstance(InstallOnAgentsDiscovery::class.java) }
    @Volatile private var last: String? = null

    /** Writes the record, returning "" or the error (the JUnit tests put a fake here). */
    @Volatile internal var writer: (String) -> String = { InstallBridge.publishDiscovery(it) }

    /** The projects whose roots the record lists. */
    @Volatile internal var openProjects: () -> List<Project> = { Ide.openProjects() }

    /** The engine's MCP URL once it runs and the built-in server has bound; null before. */
    @Volatile internal var endpoint: () -> String? = {
        DebuggerMcpService.getInstance().let { if (it.isReady) it.url else null }
    }

    /** Writes the record for the projects open now, except [closing] (no-op when unchanged). */
    fun publish(url: String, port: Int, closing: Project? = null) {
        val roots = try { openProjects().filter { it !== closing }.map { Ide.projectRoot(it) } } catch (_: Throwable) { emptyList() }
        val record = InstallOnAgentsModel.discoveryRecord(url, port, "IntelliJ IDE", roots)
        synchronized(this) {
            if (record == last) return
            try {
                val error = writer(record)
                if (error.isEmpty()) last = record else LOG.warn(error)
            } catch (t: Throwable) {
                LOG.warn("cannot publish the Debugger MCP discovery record", t)
            }
        }
    }

    /**
     * Rewrites the record for the projects open now (except [closing]); nothing while the engine
     * is not running or its URL is not known (the engine's start writes it then). Blocking file
     * IO through the native library: call it off the EDT.
     */
    fun refresh(closing: Project? = null) {
        val url = endpoint() ?: return
        publish(url, portOf(url), closing)
    }

    internal fun portOf(url: String): Int = url.substringAfterLast(':').substringBefore('/').toIntOrNull() ?: 0

    fun withdraw() {
        synchronized(this) { last = null }
        try { InstallBridge.withdrawDiscovery() } catch (_: Throwable) {}
    }
}
