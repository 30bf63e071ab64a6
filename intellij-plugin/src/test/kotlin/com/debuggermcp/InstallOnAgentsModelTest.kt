package com.debuggermcp

import com.debuggermcp.json.Json
import com.debuggermcp.ui.InstallOnAgentsModel
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

class InstallOnAgentsModelTest {
    // The shape native/install/src/report.rs produces (see its ide_report_plan_then_apply test).
    private val report = """{"applied":true,
      "settings":{"path":"/home/u/.config/JetBrains/debugger-mcp/settings.toml","status":"create","diff":""},
      "agents":[
        {"agent":"claude-code","display":"Claude Code","detected":true,"path":"/home/u/.claude.json","status":"update",
         "diff":"--- a\n+++ b\n","copy":"{}","cli":"claude mcp add --scope user --transport http debugger-mcp http://x","backup":"/home/u/.claude.json.debugger-mcp.bak"},
        {"agent":"cursor","display":"Cursor","detected":true,"path":"/home/u/.cursor/mcp.json","status":"error",
         "error":"/home/u/.cursor/mcp.json:6:1: Expected colon","copy":"{\"mcpServers\":{}}"},
        {"agent":"zed","display":"Zed","detected":false,"path":"/home/u/.config/zed/settings.json","status":"create","diff":"+x","copy":"{}"},
        {"agent":"codex","display":"Codex","detected":true,"path":"/home/u/.codex/config.toml","status":"unchanged","diff":"","copy":"[mcp_servers.debugger-mcp]"}
      ]}"""

    @Test
    fun `request carries action, agents, url and paths`() {
        val req = Json.parseObject(InstallOnAgentsModel.request("/p", "/s.toml", "http://127.0.0.1:63342/debugger-mcp", listOf("codex"), uninstall = true))
        assertEquals("uninstall", req["action"])
        assertEquals(listOf("codex"), req["agents"])
        assertEquals("/p", req["project"])
        assertEquals("/s.toml", req["settings"])
        assertEquals(null, Json.parseObject(InstallOnAgentsModel.request("/p", "/s", null, null))["agents"])
    }

    @Test
    fun `report rows and default selection`() {
        val r = InstallOnAgentsModel.parseReport(report)
        assertTrue(r.applied)
        assertEquals(listOf("claude-code", "cursor", "zed", "codex"), r.rows.map { it.name })
        // Found and needing a change: checked. Broken file, absent agent, already installed: not.
        assertEquals(setOf("claude-code"), InstallOnAgentsModel.defaultSelection(r.rows))
        assertFalse(InstallOnAgentsModel.canWrite(r.rows[1]))
    }

    @Test
    fun `labels name the file and what will happen`() {
        val rows = InstallOnAgentsModel.parseReport(report).rows
        assertEquals("Claude Code — ~/.claude.json — will update", InstallOnAgentsModel.label(rows[0], "/home/u"))
        assertEquals("Zed (not found on this machine) — ~/.config/zed/settings.json — will create", InstallOnAgentsModel.label(rows[2], "/home/u"))
        assertTrue(InstallOnAgentsModel.label(rows[1], "/home/u").endsWith("cannot edit: /home/u/.cursor/mcp.json:6:1: Expected colon"))
    }

    @Test
    fun `summary reports per agent and tells what to do when not changed`() {
        val text = InstallOnAgentsModel.summary(InstallOnAgentsModel.parseReport(report), "/home/u")
        val lines = text.lines()
        assertTrue(lines[0].startsWith("Server settings: bearer token written to ~/.config/JetBrains/debugger-mcp/settings.toml"), text)
        assertEquals("Claude Code: updated ~/.claude.json (previous file kept as ~/.claude.json.debugger-mcp.bak)", lines[1])
        assertTrue(lines[2].startsWith("Cursor: not changed — /home/u/.cursor/mcp.json:6:1: Expected colon. Use \"Copy config\""), text)
        assertEquals("Codex: already up to date (~/.codex/config.toml)", lines[4])
    }

    @Test
    fun `discovery record lists each open project once`() {
        val rec = Json.parseObject(InstallOnAgentsModel.discoveryRecord("http://127.0.0.1:63342/debugger-mcp", 63342, "IntelliJ IDE", listOf("/b", "/a", "", "/b")))
        assertEquals(listOf("/a", "/b"), rec["roots"])
        assertEquals(63342L, (rec["port"] as Number).toLong())
        assertFalse(rec.containsKey("token"), "the token is filled in by Rust from the settings")
    }
}
