package com.debuggermcp.ui

import com.debuggermcp.json.Json
import com.debuggermcp.json.jsonObject
import java.time.Instant
import java.time.ZoneId
import java.time.format.DateTimeFormatter

/** One row of the Rust-owned command history (native/core/src/history.rs HistoryEntry). */
data class HistoryEntry(
    val id: Long,
    val timeMs: Long,
    val project: String,
    val tool: String,
    val paramsJson: String,
    val status: String,
    val durationMs: Double,
    val resultJson: String?,
    val error: String?,
) {
    val isError get() = status != "ok"
}

/** Pure parsing/formatting of history JSON so the Swing panel only renders (unit-tested). */
object HistoryEntries {
    private val TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneId.systemDefault())

    /** HistoryFilter JSON; empty strings mean "no filter". */
    fun filterJson(project: String?, tool: String?, status: String?, text: String?, limit: Int? = null): String =
        Json.write(jsonObject(
            "project" to project?.ifBlank { null },
            "tool" to tool?.ifBlank { null },
            "status" to status?.ifBlank { null },
            "text" to text?.ifBlank { null },
            "limit" to limit,
        ))

    fun parse(json: String): List<HistoryEntry> {
        val list = Json.parse(json) as? List<*> ?: throw IllegalArgumentException("history is not a JSON array")
        return list.mapNotNull { item ->
            val m = item as? Map<*, *> ?: return@mapNotNull null
            HistoryEntry(
                id = (m["id"] as? Number)?.toLong() ?: 0,
                timeMs = (m["time_ms"] as? Number)?.toLong() ?: 0,
                project = m["project"] as? String ?: "",
                tool = m["tool"] as? String ?: "",
                paramsJson = Json.write(m["params"]),
                status = m["status"] as? String ?: "",
                durationMs = (m["duration_ms"] as? Number)?.toDouble() ?: 0.0,
                resultJson = m["result"]?.let { Json.write(it) },
                error = m["error"] as? String,
            )
        }
    }

    fun time(entry: HistoryEntry): String = TIME.format(Instant.ofEpochMilli(entry.timeMs))

    fun duration(entry: HistoryEntry): String =
        if (entry.durationMs < 10) String.format("%.2f ms", entry.durationMs) else String.format("%.0f ms", entry.durationMs)

    /** The list row: time, tool, status, duration. */
    fun row(entry: HistoryEntry): String = "${time(entry)}  ${entry.tool}  ${entry.status}  ${duration(entry)}"

    /** The details pane: parameters and result/error, pretty-printed. */
    fun details(entry: HistoryEntry): String = buildString {
        appendLine("Tool: ${entry.tool}")
        appendLine("Status: ${entry.status}")
        appendLine("Time: ${time(entry)}")
        appendLine("Duration: ${duration(entry)}")
        if (entry.project.isNotEmpty()) appendLine("Project: ${entry.project}")
        appendLine()
        appendLine("Parameters:")
        appendLine(pretty(entry.paramsJson))
        entry.error?.let {
            appendLine()
            appendLine("Error:")
            appendLine(it)
        }
        entry.resultJson?.let {
            appendLine()
            appendLine("Result:")
            appendLine(pretty(it))
        }
    }

    /** Indents JSON for reading; invalid JSON is shown as is. */
    fun pretty(json: String): String = try {
        StringBuilder().also { prettyTo(it, Json.parse(json), 0) }.toString()
    } catch (_: Exception) {
        json
    }

    private fun prettyTo(out: StringBuilder, v: Any?, indent: Int) {
        val pad = "  ".repeat(indent + 1)
        when (v) {
            is Map<*, *> -> if (v.isEmpty()) out.append("{}") else {
                out.append("{\n")
                v.entries.forEachIndexed { i, (k, value) ->
                    out.append(pad)
                    Json.quote(out, k.toString())
                    out.append(": ")
                    prettyTo(out, value, indent + 1)
                    if (i < v.size - 1) out.append(',')
                    out.append('\n')
                }
                out.append("  ".repeat(indent)).append('}')
            }
            is List<*> -> if (v.isEmpty()) out.append("[]") else {
                out.append("[\n")
                v.forEachIndexed { i, value ->
                    out.append(pad)
                    prettyTo(out, value, indent + 1)
                    if (i < v.size - 1) out.append(',')
                    out.append('\n')
                }
                out.append("  ".repeat(indent)).append(']')
            }
            else -> Json.writeTo(out, v)
        }
    }

    const val AGENT_RULE =
        "IMPORTANT: When debugging, prefer the debugger-mcp MCP tools (breakpoints, stepping, variables, " +
            "evaluation) to drive the IDE debugger instead of adding print statements."
}
