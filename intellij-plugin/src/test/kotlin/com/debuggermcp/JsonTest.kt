package com.debuggermcp

import com.debuggermcp.json.Json
import com.debuggermcp.json.JsonArgs
import com.debuggermcp.json.JsonException
import com.debuggermcp.json.jsonObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

class JsonTest {
    @Test
    fun `parses every JSON kind`() {
        val v = Json.parse("""{"a":1,"b":-2.5e1,"c":"x\"y\\z\u00e9\n","d":[true,false,null],"e":{}}""") as Map<*, *>
        assertEquals(1L, v["a"])
        assertEquals(-25.0, v["b"])
        assertEquals("x\"y\\zé\n", v["c"])
        assertEquals(listOf(true, false, null), v["d"])
        assertEquals(emptyMap<String, Any?>(), v["e"])
    }

    @Test
    fun `round trips through the writer`() {
        val text = """{"s":"tab\there","n":42,"f":1.5,"l":[1,"two",null],"o":{"k":false}}"""
        assertEquals(text, Json.write(Json.parse(text)))
    }

    @Test
    fun `escapes control characters`() {
        assertEquals("\"\\u0001\\n\"", Json.write("\u0001\n"))
    }

    @Test
    fun `rejects malformed input with an offset`() {
        for (bad in listOf("{", "[1,]", "{\"a\" 1}", "tru", "\"open", "1 2", "{\"a\":1,}", "-")) {
            val e = assertThrows(JsonException::class.java) { Json.parse(bad) }
            assertTrue(e.message!!.contains("offset"), e.message)
        }
    }

    @Test
    fun `jsonObject leaves out nulls like serde skip_serializing_if`() {
        assertEquals("""{"a":1}""", Json.write(jsonObject("a" to 1, "b" to null)))
    }

    @Test
    fun `typed args name the field on errors`() {
        val a = JsonArgs.parse("""{"project":"/p","line":3,"flag":true,"spec":{"file":"x"}}""")
        assertEquals("/p", a.string("project"))
        assertEquals(3L, a.long("line"))
        assertEquals(true, a.boolOr("flag", false))
        assertEquals(7, a.intOr("missing", 7))
        assertNull(a.stringOrNull("missing"))
        assertEquals("x", a.obj("spec").string("file"))
        val e = assertThrows(IllegalArgumentException::class.java) { a.string("line") }
        assertTrue(e.message!!.contains("'line'"))
        assertEquals(emptyMap<String, Any?>(), JsonArgs.parse("").map)
    }
}
