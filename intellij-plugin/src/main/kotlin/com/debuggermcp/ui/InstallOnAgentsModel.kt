package com.debuggermcp.ui

import com.debuggermcp.json.Json

/** One agent in the "Install on Agents" checklist (a row of the Rust installer's report). */
data class AgentRow(
    val name: String,
    val display: String,
    val detected: Boolean,
    val path: String,
    /** create, update, unchanged, absent or error. */
    val status: String,
    val diff: String,
    val error: String?,
    val copy: String,
    val cli: String?,
    val backup: String?,
)

data class InstallReport(val applied: Boolean, val rows: List<AgentRow>, val settingsPath: String?, val settingsStatus: String?, val settingsError: String?)

/**
 * Pure logic of the "Install on Agents" dialog: the request JSON, the report's rows, what is
 * checked by default, and the texts shown. No IntelliJ classes (unit-tested in kotlin.sh).
 */
object InstallOnAgentsModel {
    fun request(
        project: String,
        settings: String,
        url: String?,
        agents: List<String>?,
        uninstall: Boolean = false,
        stdio: Boolean = false,
        command: String? = null,
    ): String = Json.write(
        linkedMapOf(
            "action" to if (uninstall) "uninstall" else "install",
            "agents" to agents,
            "url" to url,
            "stdio" to stdio,
            "project" to project,
            "settings" to settings,
            "command" to command,
        ),
    )

    fun parseReport(json: String): InstallReport {
        val root = Json.parseObject(json)
        val rows = (root["agents"] as? List<*>).orEmpty().mapNotNull { it as? Map<*, *> }.map { r ->
            AgentRow(
                name = r["agent"] as? String ?: "",
                display = r["display"] as? String ?: (r["agent"] as? String ?: ""),
                detected = r["detected"] == true,
                path = r["path"] as? String ?: "",
                status = r["status"] as? String ?: "error",
                diff = r["diff"] as? String ?: "",
                error = r["error"] as? String,
                copy = r["copy"] as? String ?: "",
                cli = r["cli"] as? String,
                backup = r["backup"] as? String,
            )
        }
        val settings = root["settings"] as? Map<*, *>
        return InstallReport(
            applied = root["applied"] == true,
            rows = rows,
            settingsPath = settings?.get("path") as? String,
            settingsStatus = settings?.get("status") as? String,
            settingsError = settings?.get("error") as? String,
        )
    }

    /** Checked at first: agents found on this machine whose file can be written and needs a change. */
    fun defaultSelection(rows: List<AgentRow>): Set<String> =
        rows.filter { it.detected && it.status in setOf("create", "update") }.map { it.name }.toSet()

    fun canWrite(row: AgentRow) = row.status != "error"

    /** Checklist label: name, file, and what will happen. */
    fun label(row: AgentRow, home: String): String {
        val what = when (row.status) {
            "create" -> "will create"
            "update" -> "will update"
            "unchanged" -> "already installed"
            "absent" -> "not installed"
            else -> "cannot edit: ${row.error ?: "unknown error"}"
        }
        val found = if (row.detected) "" else " (not found on this machine)"
        return "${row.display}$found — ${shortPath(row.path, home)} — $what"
    }

    fun shortPath(path: String, home: String): String =
        if (home.isNotEmpty() && path.startsWith(home)) "~" + path.substring(home.length) else path

    /** After apply: one line per agent saying what changed, and what to do when it did not. */
    fun summary(report: InstallReport, home: String): String = buildString {
        if (report.settingsStatus == "error") {
            append("Server settings: not changed — ${report.settingsError}\n")
        } else if (report.settingsStatus == "create" || report.settingsStatus == "update") {
            append("Server settings: bearer token written to ${shortPath(report.settingsPath ?: "", home)} (enforced from now on)\n")
        }
        for (row in report.rows) {
            val file = shortPath(row.path, home)
            val line = when (row.status) {
                "create" -> "created $file"
                "update" -> "updated $file" + (row.backup?.let { " (previous file kept as ${shortPath(it, home)})" } ?: "")
                "unchanged" -> "already up to date ($file)"
                "absent" -> "nothing to remove ($file)"
                else -> "not changed — ${row.error}. Use \"Copy config\" to add it by hand" + (row.cli?.let { ", or run: $it" } ?: "")
            }
            append("${row.display}: $line\n")
        }
    }.trimEnd()

    /** The discovery record the IDE publishes (Rust fills in the pid and the token). */
    fun discoveryRecord(url: String, port: Int, product: String, roots: List<String>): String =
        Json.write(linkedMapOf("url" to url, "port" to port, "product" to product, "roots" to roots.filter { it.isNotEmpty() }.distinct().sorted()))
}
