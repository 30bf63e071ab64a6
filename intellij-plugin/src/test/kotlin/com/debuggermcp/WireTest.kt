package com.debuggermcp

import com.debuggermcp.adapter.ErrorKind
import com.debuggermcp.adapter.HandleTable
import com.debuggermcp.adapter.IdRegistry
import com.debuggermcp.adapter.OpException
import com.debuggermcp.adapter.Wire
import com.debuggermcp.adapter.errorJson
import com.debuggermcp.json.Json
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

class WireTest {
    @Test
    fun `lines are 1-based on the wire and 0-based in the IDE`() {
        assertEquals(0, Wire.toIdeLine(1))
        assertEquals(41, Wire.toIdeLine(42))
        assertEquals(1L, Wire.toWireLine(0))
        assertEquals(42L, Wire.toWireLine(41))
        assertNull(Wire.toWireLine(-1))
        assertThrows(IllegalArgumentException::class.java) { Wire.toIdeLine(0) }
        assertThrows(IllegalArgumentException::class.java) { Wire.toIdeLine(-3) }
    }

    @Test
    fun `tracepoint templates become string concatenations`() {
        assertEquals("\"x = \" + (x)", Wire.logTemplateToExpression("x = {x}"))
        assertEquals("\"\" + (a) + \" and \" + (b.c())", Wire.logTemplateToExpression("{a} and { b.c() }"))
        assertEquals("\"plain \\\"quoted\\\"\"", Wire.logTemplateToExpression("plain \"quoted\""))
        assertEquals("\"{literal}\"", Wire.logTemplateToExpression("{{literal}}"))
        assertEquals("\"\"", Wire.logTemplateToExpression(""))
        assertEquals("\"open { brace\"", Wire.logTemplateToExpression("open { brace"))
    }

    @Test
    fun `collecting-data placeholders are recognised`() {
        assertTrue(Wire.isPlaceholderValue("Collecting data…"))
        assertTrue(Wire.isPlaceholderValue("Collecting data..."))
        assertFalse(Wire.isPlaceholderValue("42"))
        assertFalse(Wire.isPlaceholderValue(""))
        // A localised IDE: the bundle's own text is recognised, with or without quotes.
        assertTrue(Wire.isPlaceholderValue("正在收集数据…", "正在收集数据…"))
        assertTrue(Wire.isPlaceholderValue("\"Daten werden gesammelt...\"", "Daten werden gesammelt…"))
        assertFalse(Wire.isPlaceholderValue("42", "正在收集数据…"))
    }

    @Test
    fun `java frame text splits into method and class`() {
        assertEquals("main" to "com.example.Main", Wire.parseFrameText("main:12, Main (com.example)"))
        assertEquals("run" to "Worker", Wire.parseFrameText("run:7, Worker"))
        assertEquals("<lambda>" to null, Wire.parseFrameText("<lambda>"))
        assertEquals(null to null, Wire.parseFrameText("  "))
    }

    @Test
    fun `pause reasons prefer breakpoints, then the last command`() {
        assertEquals("breakpoint", Wire.pauseReason(Wire.Command.RESUME, listOf("b1"), false))
        assertEquals("step", Wire.pauseReason(Wire.Command.STEP, listOf("b1"), false))
        assertEquals("step", Wire.pauseReason(Wire.Command.RUN_TO, emptyList(), true))
        assertEquals("pause", Wire.pauseReason(Wire.Command.PAUSE, emptyList(), true))
        assertEquals("exception", Wire.pauseReason(Wire.Command.RESUME, emptyList(), true))
        assertEquals("other", Wire.pauseReason(Wire.Command.NONE, emptyList(), false))
    }

    @Test
    fun `thread ids are stable across pauses and unique for repeated names`() {
        val ids = Wire.ThreadIds()
        val first = ids.idsFor(listOf("main", "worker", "worker"))
        assertEquals(3, first.toSet().size)
        assertEquals(first, ids.idsFor(listOf("main", "worker", "worker")))
        assertEquals(listOf(first[1], first[0]), ids.idsFor(listOf("worker", "main")))
    }

    @Test
    fun `thread ids survive a status change in the Java thread label`() {
        // JavaExecutionStack's display name carries the thread status, which changes between pauses.
        val ids = Wire.ThreadIds()
        val running = ids.idsFor(listOf(
            Wire.threadKey(null, "\"main\"@1 in group \"main\": RUNNING"),
            Wire.threadKey(null, "\"worker\"@17: WAIT"),
        ))
        val waiting = ids.idsFor(listOf(
            Wire.threadKey(null, "\"worker\"@17: RUNNING"),
            Wire.threadKey(null, "\"main\"@1 in group \"main\": WAIT"),
        ))
        assertEquals(listOf(running[1], running[0]), waiting)
        // Two threads with the same name differ by their unique id.
        assertNotEquals(Wire.threadKey(null, "\"pool\"@20: WAIT"), Wire.threadKey(null, "\"pool\"@21: WAIT"))
        // A stack that defines equality is keyed by it, whatever its label says.
        assertEquals(Wire.threadKey("S#7", "thread A: RUNNING"), Wire.threadKey("S#7", "thread A: WAIT"))
        assertEquals("plain name", Wire.threadKey(null, "plain name"))
    }

    /**
     * Like a live Java session: requests are built from the breakpoint's properties when it is
     * registered (added or enabled) and rebuilt only on breakpoint events; changing a property
     * object fires none.
     */
    private class LiveSession {
        var hitCount: Int? = null // what the breakpoint's properties say
        var enabled = true
        var requestHitCount: Int? = null // what the debuggee's request uses
        fun changeEnabled(value: Boolean) {
            if (value == enabled) return
            enabled = value
            // breakpointChanged → unregister / register with the current properties.
            requestHitCount = if (value) hitCount else null
        }
    }

    @Test
    fun `a hit count changed on a live breakpoint reaches the session`() {
        val session = LiveSession()
        session.hitCount = 3
        Wire.refreshLiveBreakpoint(session.enabled) { session.changeEnabled(it) }
        assertEquals(3, session.requestHitCount)
        assertTrue(session.enabled)
        // A disabled breakpoint stays disabled and untouched.
        val off = LiveSession().apply { enabled = false; hitCount = 5 }
        Wire.refreshLiveBreakpoint(off.enabled) { off.changeEnabled(it) }
        assertEquals(false, off.enabled)
        assertNull(off.requestHitCount)
    }

    @Test
    fun `handle table reuses handles and never reuses numbers after clear`() {
        val t = HandleTable()
        val a = Any()
        val h = t.register("v", a, "x")
        assertEquals(h, t.register("v", a, "x"))
        assertSame(a, t.get(h)!!.obj)
        t.clear()
        assertNull(t.get(h))
        assertNotEquals(h, t.register("v", a, "x"))
    }

    @Test
    fun `id registry finds live objects and forgets removed ones`() {
        val r = IdRegistry<Any>("b")
        val o = Any()
        val id = r.idOf(o)
        assertEquals(id, r.idOf(o))
        assertSame(o, r.find(id))
        r.forget(o)
        assertNull(r.find(id))
    }

    @Test
    fun `errors become kind and message`() {
        val e = Json.parse(errorJson(OpException(ErrorKind.NOT_FOUND, "no session 's9'"))) as Map<*, *>
        assertEquals("not_found", e["kind"])
        assertEquals("no session 's9'", e["message"])
        val bad = Json.parse(errorJson(IllegalArgumentException("argument 'line' must be a number"))) as Map<*, *>
        assertEquals("failed", bad["kind"])
        val npe = Json.parse(errorJson(NullPointerException("boom"))) as Map<*, *>
        assertEquals("failed", npe["kind"])
        assertTrue((npe["message"] as String).contains("NullPointerException"))
    }
}
