package com.debuggermcp

import com.debuggermcp.json.Json
import com.debuggermcp.ui.HistoryEntries
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

class HistoryEntriesTest {
    private val json = """[
      {"id":2,"time_ms":1700000000000,"project":"/p","tool":"step_over","params":{"session_id":"s1"},
       "status":"error","duration_ms":3.25,"error":"invalid state: running"},
      {"id":1,"time_ms":1700000000000,"project":"/p","tool":"list_breakpoints","params":{},
       "status":"ok","duration_ms":0.5,"result":{"breakpoints":[]}}
    ]"""

    @Test
    fun `parses Rust history entries`() {
        val entries = HistoryEntries.parse(json)
        assertEquals(listOf(2L, 1L), entries.map { it.id })
        assertTrue(entries[0].isError)
        assertEquals("invalid state: running", entries[0].error)
        assertFalse(entries[1].isError)
        assertEquals("""{"breakpoints":[]}""", entries[1].resultJson)
    }

    @Test
    fun `details show parameters and result or error`() {
        val (err, ok) = HistoryEntries.parse(json)
        val d = HistoryEntries.details(err)
        assertTrue(d.contains("Tool: step_over"))
        assertTrue(d.contains("\"session_id\": \"s1\""))
        assertTrue(d.contains("Error:\ninvalid state: running"))
        assertTrue(HistoryEntries.details(ok).contains("Result:"))
        assertTrue(HistoryEntries.row(ok).contains("list_breakpoints"))
    }

    @Test
    fun `filter JSON matches HistoryFilter and drops empty fields`() {
        val f = Json.parse(HistoryEntries.filterJson("/p", "", "error", "  ", 50)) as Map<*, *>
        assertEquals(mapOf("project" to "/p", "status" to "error", "limit" to 50L), f)
    }
}
