package com.debuggermcp.json

/**
 * A minimal JSON reader/writer for the callback table's wire format.
 *
 * Why hand-rolled: kotlinx.serialization needs its compiler plugin and a runtime the IDE does not
 * guarantee to plugins (bundling our own copy clashes with the platform's), and the IDE's Gson is
 * an implementation detail we would have to stub. The wire format is tiny (objects of strings,
 * numbers, booleans, arrays), so ~200 lines that we test directly are the smaller dependency.
 *
 * Parsed values: `Map<String, Any?>` (insertion-ordered), `List<Any?>`, `String`, `Long` (integral
 * numbers that fit), `Double` (other numbers), `Boolean`, `null`.
 */
object Json {
    fun parse(text: String): Any? {
        val p = Parser(text)
        p.skipWs()
        val v = p.value()
        p.skipWs()
        if (!p.atEnd()) throw JsonException("trailing characters at offset ${p.pos}")
        return v
    }

    /** Parses [text] and requires an object (an empty string counts as `{}`). */
    fun parseObject(text: String): Map<String, Any?> {
        if (text.isBlank()) return emptyMap()
        @Suppress("UNCHECKED_CAST")
        return parse(text) as? Map<String, Any?> ?: throw JsonException("expected a JSON object")
    }

    fun write(value: Any?): String = StringBuilder().also { writeTo(it, value) }.toString()

    fun writeTo(out: StringBuilder, value: Any?) {
        when (value) {
            null -> out.append("null")
            is String -> quote(out, value)
            is Boolean -> out.append(value)
            is Int, is Long, is Short, is Byte -> out.append(value.toString())
            is Double -> if (value.isFinite()) out.append(formatDouble(value)) else out.append("null")
            is Float -> if (value.isFinite()) out.append(formatDouble(value.toDouble())) else out.append("null")
            is Number -> out.append(value.toString())
            is Map<*, *> -> {
                out.append('{')
                var first = true
                for ((k, v) in value) {
                    // Absent optional fields are simply not written (serde `skip_serializing_if`).
                    if (v === Absent) continue
                    if (!first) out.append(',')
                    first = false
                    quote(out, k.toString())
                    out.append(':')
                    writeTo(out, v)
                }
                out.append('}')
            }
            is Iterable<*> -> {
                out.append('[')
                var first = true
                for (v in value) {
                    if (!first) out.append(',')
                    first = false
                    writeTo(out, v)
                }
                out.append(']')
            }
            is Array<*> -> writeTo(out, value.asList())
            is Enum<*> -> quote(out, value.name.lowercase())
            else -> quote(out, value.toString())
        }
    }

    private fun formatDouble(d: Double): String =
        if (d == Math.floor(d) && Math.abs(d) < 1e15) d.toLong().toString() else d.toString()

    fun quote(out: StringBuilder, s: String) {
        out.append('"')
        for (c in s) {
            when (c) {
                '"' -> out.append("\\\"")
                '\\' -> out.append("\\\\")
                '\n' -> out.append("\\n")
                '\r' -> out.append("\\r")
                '\t' -> out.append("\\t")
                '\b' -> out.append("\\b")
                '\u000C' -> out.append("\\f")
                else -> if (c < ' ' || c == '\u2028' || c == '\u2029') {
                    out.append("\\u").append(String.format("%04x", c.code))
                } else {
                    out.append(c)
                }
            }
        }
        out.append('"')
    }

    /** Marker for a map value that must not be written at all (an absent optional field). */
    object Absent

    private class Parser(val s: String) {
        var pos = 0

        fun atEnd() = pos >= s.length

        fun skipWs() {
            while (pos < s.length && (s[pos] == ' ' || s[pos] == '\n' || s[pos] == '\r' || s[pos] == '\t')) pos++
        }

        fun fail(msg: String): Nothing = throw JsonException("$msg at offset $pos")

        fun value(): Any? {
            if (atEnd()) fail("unexpected end of input")
            return when (val c = s[pos]) {
                '{' -> obj()
                '[' -> arr()
                '"' -> str()
                't' -> literal("true", true)
                'f' -> literal("false", false)
                'n' -> literal("null", null)
                else -> if (c == '-' || c in '0'..'9') num() else fail("unexpected character '$c'")
            }
        }

        fun literal(word: String, v: Any?): Any? {
            if (!s.startsWith(word, pos)) fail("invalid literal")
            pos += word.length
            return v
        }

        fun obj(): Map<String, Any?> {
            val m = LinkedHashMap<String, Any?>()
            pos++
            skipWs()
            if (pos < s.length && s[pos] == '}') {
                pos++
                return m
            }
            while (true) {
                skipWs()
                if (atEnd() || s[pos] != '"') fail("expected a string key")
                val k = str()
                skipWs()
                if (atEnd() || s[pos] != ':') fail("expected ':'")
                pos++
                skipWs()
                m[k] = value()
                skipWs()
                if (atEnd()) fail("unterminated object")
                when (s[pos]) {
                    ',' -> pos++
                    '}' -> { pos++; return m }
                    else -> fail("expected ',' or '}'")
                }
            }
        }

        fun arr(): List<Any?> {
            val l = ArrayList<Any?>()
            pos++
            skipWs()
            if (pos < s.length && s[pos] == ']') {
                pos++
                return l
            }
            while (true) {
                skipWs()
                l.add(value())
                skipWs()
                if (atEnd()) fail("unterminated array")
                when (s[pos]) {
                    ',' -> pos++
                    ']' -> { pos++; return l }
                    else -> fail("expected ',' or ']'")
                }
            }
        }

        fun str(): String {
            pos++
            val sb = StringBuilder()
            while (true) {
                if (atEnd()) fail("unterminated string")
                val c = s[pos++]
                when {
                    c == '"' -> return sb.toString()
                    c == '\\' -> {
                        if (atEnd()) fail("unterminated escape")
                        when (val e = s[pos++]) {
                            '"' -> sb.append('"')
                            '\\' -> sb.append('\\')
                            '/' -> sb.append('/')
                            'b' -> sb.append('\b')
                            'f' -> sb.append('\u000C')
                            'n' -> sb.append('\n')
                            'r' -> sb.append('\r')
                            't' -> sb.append('\t')
                            'u' -> {
                                if (pos + 4 > s.length) fail("bad unicode escape")
                                val hex = s.substring(pos, pos + 4)
                                sb.append(hex.toIntOrNull(16)?.toChar() ?: fail("bad unicode escape"))
                                pos += 4
                            }
                            else -> fail("bad escape '\\$e'")
                        }
                    }
                    c < ' ' -> fail("control character in string")
                    else -> sb.append(c)
                }
            }
        }

        fun num(): Any {
            val start = pos
            if (s[pos] == '-') pos++
            while (pos < s.length && s[pos] in '0'..'9') pos++
            var integral = true
            if (pos < s.length && s[pos] == '.') {
                integral = false
                pos++
                while (pos < s.length && s[pos] in '0'..'9') pos++
            }
            if (pos < s.length && (s[pos] == 'e' || s[pos] == 'E')) {
                integral = false
                pos++
                if (pos < s.length && (s[pos] == '+' || s[pos] == '-')) pos++
                while (pos < s.length && s[pos] in '0'..'9') pos++
            }
            val text = s.substring(start, pos)
            if (text == "-" || text.isEmpty()) fail("bad number")
            if (integral) text.toLongOrNull()?.let { return it }
            return text.toDoubleOrNull() ?: fail("bad number '$text'")
        }
    }
}

class JsonException(message: String) : RuntimeException(message)

/** Typed access to the argument objects of the callback table, with wire-level error messages. */
class JsonArgs(val map: Map<String, Any?>) {
    fun has(key: String) = map[key] != null

    fun string(key: String): String =
        map[key] as? String ?: throw IllegalArgumentException("argument '$key' must be a string")

    fun stringOrNull(key: String): String? = when (val v = map[key]) {
        null -> null
        is String -> v
        else -> throw IllegalArgumentException("argument '$key' must be a string")
    }

    fun long(key: String): Long = longOrNull(key) ?: throw IllegalArgumentException("argument '$key' must be a number")

    fun longOrNull(key: String): Long? = when (val v = map[key]) {
        null -> null
        is Long -> v
        is Double -> if (v == Math.floor(v)) v.toLong() else throw IllegalArgumentException("argument '$key' must be an integer")
        else -> throw IllegalArgumentException("argument '$key' must be a number")
    }

    fun int(key: String): Int = long(key).toInt()

    fun intOr(key: String, default: Int): Int = longOrNull(key)?.toInt() ?: default

    fun boolOr(key: String, default: Boolean): Boolean = when (val v = map[key]) {
        null -> default
        is Boolean -> v
        else -> throw IllegalArgumentException("argument '$key' must be a boolean")
    }

    fun boolOrNull(key: String): Boolean? = when (val v = map[key]) {
        null -> null
        is Boolean -> v
        else -> throw IllegalArgumentException("argument '$key' must be a boolean")
    }

    fun obj(key: String): JsonArgs {
        @Suppress("UNCHECKED_CAST")
        val m = map[key] as? Map<String, Any?> ?: throw IllegalArgumentException("argument '$key' must be an object")
        return JsonArgs(m)
    }

    fun objOrNull(key: String): JsonArgs? = if (map[key] == null) null else obj(key)

    companion object {
        fun parse(text: String) = JsonArgs(Json.parseObject(text))
    }
}

/** Builds a JSON object, leaving out null values (they are optional fields on the Rust side). */
fun jsonObject(vararg pairs: Pair<String, Any?>): Map<String, Any?> {
    val m = LinkedHashMap<String, Any?>()
    for ((k, v) in pairs) if (v != null) m[k] = v
    return m
}
