package com.debuggermcp.adapter

/**
 * Pure conversions between the wire format and IntelliJ's conventions, kept free of IntelliJ
 * types so they are unit-tested here without an IDE.
 */
object Wire {
    /** Wire lines are 1-based; XSourcePosition/XLineBreakpoint lines are 0-based. */
    fun toIdeLine(wireLine: Long): Int {
        require(wireLine >= 1) { "line must be >= 1 (lines are 1-based), got $wireLine" }
        require(wireLine <= Int.MAX_VALUE) { "line $wireLine is out of range" }
        return (wireLine - 1).toInt()
    }

    fun toWireLine(ideLine: Int): Long? = if (ideLine < 0) null else ideLine.toLong() + 1

    /**
     * Turns a tracepoint template ("x = {x}, y = {obj.y}") into an IntelliJ log expression: the
     * platform evaluates log expressions in the debuggee's language, so the template becomes a
     * string concatenation, which Java, Kotlin, Groovy and JavaScript all read the same way.
     * `{{` and `}}` stand for literal braces. A template without placeholders is a plain literal.
     */
    fun logTemplateToExpression(template: String): String {
        val parts = ArrayList<String>()
        val literal = StringBuilder()
        var i = 0
        while (i < template.length) {
            val c = template[i]
            if (c == '{' && i + 1 < template.length && template[i + 1] == '{') {
                literal.append('{'); i += 2; continue
            }
            if (c == '}' && i + 1 < template.length && template[i + 1] == '}') {
                literal.append('}'); i += 2; continue
            }
            if (c == '{') {
                val end = template.indexOf('}', i + 1)
                if (end > i + 1) {
                    if (literal.isNotEmpty()) { parts.add(javaString(literal.toString())); literal.setLength(0) }
                    parts.add("(" + template.substring(i + 1, end).trim() + ")")
                    i = end + 1
                    continue
                }
            }
            literal.append(c)
            i++
        }
        if (literal.isNotEmpty() || parts.isEmpty()) parts.add(javaString(literal.toString()))
        // A leading "" keeps `(a) + (b)` a string concatenation instead of an addition.
        if (!parts[0].startsWith("\"")) parts.add(0, "\"\"")
        return parts.joinToString(" + ")
    }

    fun javaString(s: String): String {
        val sb = StringBuilder("\"")
        for (c in s) {
            when (c) {
                '"' -> sb.append("\\\"")
                '\\' -> sb.append("\\\\")
                '\n' -> sb.append("\\n")
                '\r' -> sb.append("\\r")
                '\t' -> sb.append("\\t")
                else -> sb.append(c)
            }
        }
        return sb.append('"').toString()
    }

    /**
     * Placeholders the platform shows while a value is still being computed (Java's renderers
     * first set "Collecting data…" and call setPresentation again when done). We wait past them.
     * The text is localised (language packs translate XDebuggerBundle), so the IDE passes the
     * bundle's own message as [collectingData]; the English text stays as a fallback.
     */
    fun isPlaceholderValue(value: String, collectingData: String? = null): Boolean {
        val v = value.trim().removeSurrounding("\"")
        if (collectingData != null && collectingData.isNotBlank() && v.startsWith(collectingData.trim().trimEnd('…', '.'))) return true
        return v.startsWith("Collecting data") || v == "..." || v == "…"
    }

    /**
     * Splits a frame's presentation text into method and class names. The Java debugger renders
     * `method:12, ClassName (com.pkg)`; other debuggers render free text, which then stays the
     * method name.
     */
    fun parseFrameText(text: String): Pair<String?, String?> {
        val t = text.trim()
        if (t.isEmpty()) return null to null
        val comma = t.indexOf(", ")
        if (comma > 0) {
            val methodPart = t.substring(0, comma)
            val method = methodPart.substringBefore(':').trim()
            val rest = t.substring(comma + 2).trim()
            val open = rest.indexOf(" (")
            val cls = if (open > 0 && rest.endsWith(")")) {
                val simple = rest.substring(0, open).trim()
                val pkg = rest.substring(open + 2, rest.length - 1).trim()
                if (pkg.isEmpty() || pkg.contains(' ')) simple else "$pkg.$simple"
            } else rest.substringBefore(' ')
            return method.ifEmpty { null } to cls.ifEmpty { null }
        }
        return t.substringBefore(':').trim().ifEmpty { null } to null
    }

    /**
     * Makes running sessions pick up a property change of a breakpoint (hit count): they build
     * their requests when a breakpoint is registered and only re-register on breakpoint events,
     * which property changes do not fire. Toggling `enabled` does; a disabled breakpoint needs
     * nothing (its requests are built from the current properties when it is enabled).
     */
    fun refreshLiveBreakpoint(enabled: Boolean, setEnabled: (Boolean) -> Unit) {
        if (!enabled) return
        setEnabled(false)
        setEnabled(true)
    }

    /** Last command an agent (or the user, as far as we can tell) issued to a session. */
    enum class Command { NONE, RESUME, PAUSE, STEP, RUN_TO }

    /**
     * The platform's session listener says only "paused". We derive the reason from what we
     * know: a line breakpoint at the stop position wins; otherwise the last command; a plain
     * resume that stops elsewhere with exception breakpoints enabled is reported as an exception.
     * Wire values are PauseReason's snake_case names.
     */
    fun pauseReason(last: Command, breakpointIdsAtPosition: List<String>, exceptionBreakpointsEnabled: Boolean): String =
        when {
            breakpointIdsAtPosition.isNotEmpty() && last != Command.STEP -> "breakpoint"
            last == Command.STEP -> "step"
            last == Command.RUN_TO -> "step"
            last == Command.PAUSE -> "pause"
            breakpointIdsAtPosition.isNotEmpty() -> "breakpoint"
            exceptionBreakpointsEnabled -> "exception"
            else -> "other"
        }

    /** Java's thread label: `"main"@1 in group "main": RUNNING` (status and group localised). */
    private val JAVA_THREAD = Regex("^(\".*\"@\\d+)(?: |:).*")

    /**
     * A key for an execution stack that stays the same across pauses. Display names carry the
     * thread's status (Java: `"main"@1 in group "main": RUNNING`, then `...: WAIT`), so they
     * cannot be the key. [identity] is set when the stack class defines equality (Java's
     * JavaExecutionStack compares its thread proxy, which lives as long as the thread); else the
     * Java label is cut before the status; else the name is all there is.
     */
    fun threadKey(identity: String?, displayName: String): String {
        if (identity != null) return "#$identity"
        JAVA_THREAD.matchEntire(displayName)?.let { return it.groupValues[1] }
        return displayName
    }

    /**
     * Gives each distinct thread key (see [threadKey]) a stable id within a session ("t1", "t2", ...). Execution
     * stacks are recreated at every pause, so object identity cannot be the key; names repeat
     * rarely, and a repeated name gets an occurrence suffix.
     */
    class ThreadIds {
        private val ids = HashMap<String, String>()
        private var next = 0

        @Synchronized
        fun idsFor(names: List<String>): List<String> {
            val seen = HashMap<String, Int>()
            return names.map { name ->
                val n = seen.merge(name, 1, Int::plus)!!
                val key = if (n == 1) name else "$name#$n"
                ids.getOrPut(key) { "t${++next}" }
            }
        }
    }

    /** The confirmation dialog's title: the core already names the product ("Debugger MCP: start a debug session"). */
    fun confirmTitle(title: String): String =
        if (title.startsWith("Debugger MCP")) title else "Debugger MCP: $title"
}
