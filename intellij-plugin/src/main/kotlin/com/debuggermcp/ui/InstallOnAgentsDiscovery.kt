package com.debuggermcp.ui

import com.debuggermcp.adapter.Ide
import com.debuggermcp.bridge.InstallBridge
import com.intellij.openapi.diagnostic.Logger

/**
 * Keeps this IDE's discovery record (read by `debugger-mcp stdio` to find it) in step with the
 * open projects: written when the engine starts, rewritten when the set of projects changes,
 * removed when the service is disposed.
 */
object InstallOnAgentsDiscovery {
    private val LOG = Logger.getInstance(InstallOnAgentsDiscovery::class.java)
    @Volatile private var last: String? = null

    fun publish(url: String, port: Int) {
        val roots = try { Ide.openProjects().map { Ide.projectRoot(it) } } catch (_: Throwable) { emptyList() }
        val record = InstallOnAgentsModel.discoveryRecord(url, port, "IntelliJ IDE", roots)
        if (record == last) return
        try {
            val error = InstallBridge.publishDiscovery(record)
            if (error.isEmpty()) last = record else LOG.warn(error)
        } catch (t: Throwable) {
            LOG.warn("cannot publish the Debugger MCP discovery record", t)
        }
    }

    fun withdraw() {
        last = null
        try { InstallBridge.withdrawDiscovery() } catch (_: Throwable) {}
    }
}
