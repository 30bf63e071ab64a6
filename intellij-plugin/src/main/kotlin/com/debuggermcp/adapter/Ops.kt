package com.debuggermcp.adapter

/**
 * The operation table of the JNI callback table: one entry per method of the Rust `Backend`
 * trait (native/core/src/backend.rs), spelled exactly like the method. The adapter dispatches
 * with an exhaustive `when` over this enum, so adding an op here without a handler does not
 * compile, and a unit test checks this list against backend.rs.
 */
enum class Op(val wire: String, val timeoutMs: Long) {
    HANDSHAKE("handshake", 5_000),
    PROJECTS("projects", 5_000),
    RUN_CONFIGURATIONS("run_configurations", 10_000),
    // Launch waits for the before-run build and the debugger to attach. Rust sends its own wait,
    // launch_timeout_ms plus [ide] build_timeout_ms (30 s + 5 min by default, JniBackend), as
    // `budget_ms`, and the op ends with it (OpRunner); this is only the bound when none is sent:
    // above any sane setting, so a long cold build is never cut here first.
    LAUNCH("launch", 30 * 60_000),
    DEBUG_TEST("debug_test", 30 * 60_000),
    SESSIONS("sessions", 5_000),
    STOP("stop", 10_000),
    TERMINATE("terminate", 10_000),
    BREAKPOINTS("breakpoints", 10_000),
    ADD_LINE_BREAKPOINT("add_line_breakpoint", 10_000),
    ADD_EXCEPTION_BREAKPOINT("add_exception_breakpoint", 10_000),
    // Java field watchpoints (Watchpoints.kt): evaluation and an index lookup on the way.
    ADD_DATA_BREAKPOINT("add_data_breakpoint", 20_000),
    FORCE_RETURN("force_return", 10_000),
    UPDATE_BREAKPOINT("update_breakpoint", 10_000),
    REMOVE_BREAKPOINT("remove_breakpoint", 10_000),
    // `after`: XDependentBreakpointManager (Breakpoints.setMaster).
    SET_MASTER_BREAKPOINT("set_master_breakpoint", 10_000),
    // Function breakpoints by name: the core binds a method at its first body line instead (Java
    // method breakpoints are slow); JniBackend keeps the trait's `unsupported` default.
    ADD_FUNCTION_BREAKPOINT("add_function_breakpoint", 10_000),
    CONTROL("control", 10_000),
    THREADS("threads", 10_000),
    FRAMES("frames", 15_000),
    SELECT_FRAME("select_frame", 5_000),
    FRAME_VARIABLES("frame_variables", 20_000),
    CHILDREN("children", 20_000),
    SET_VALUE("set_value", 20_000),
    EVALUATE("evaluate", 30_000),
    READ_SOURCE("read_source", 10_000),
    // The user may take a while to answer a dialog. Rust waits CONFIRM_TIMEOUT_MS for it
    // (native/core/src/backend.rs, not backend_timeout_ms); the dialog closes 1 s earlier, so an
    // answer is never given after Rust stopped listening (OpTableTest checks both values agree).
    CONFIRM("confirm", 50_000),
    ;

    /** The timeout's message: for a start, what ended and what to raise. */
    fun timedOut(ms: Long): String = when (this) {
        LAUNCH, DEBUG_TEST -> "the run configuration did not start within $ms ms (launch_timeout_ms plus [ide] build_timeout_ms); " +
            "the start was cancelled (a before-run build already under way finishes in the IDE's Build window). " +
            "Raise build_timeout_ms in the [ide] section of the settings for a long build"
        else -> "no answer within $ms ms"
    }

    companion object {
        private val byWire = entries.associateBy { it.wire }

        fun fromWire(name: String): Op? = byWire[name]
    }
}

/** Version of the op table; must equal `TABLE_VERSION` in native/core/src/backend.rs (unit-tested). */
const val TABLE_VERSION = 1

/** The error kinds of `BackendError` (serde tag "kind", content "message"). */
enum class ErrorKind(val wire: String) {
    NOT_FOUND("not_found"),
    INVALID_STATE("invalid_state"),
    UNSUPPORTED("unsupported"),
    FAILED("failed"),
    TIMEOUT("timeout"),
}

/** An op failure that becomes `{"kind":..,"message":..}` on the wire. */
class OpException(val kind: ErrorKind, message: String) : RuntimeException(message) {
    fun toJson(): String = com.debuggermcp.json.Json.write(mapOf("kind" to kind.wire, "message" to (message ?: "")))
}

fun notFound(message: String): Nothing = throw OpException(ErrorKind.NOT_FOUND, message)

fun invalidState(message: String): Nothing = throw OpException(ErrorKind.INVALID_STATE, message)

fun unsupported(message: String): Nothing = throw OpException(ErrorKind.UNSUPPORTED, message)

fun failed(message: String): Nothing = throw OpException(ErrorKind.FAILED, message)

/** Maps any throwable of an op to the wire error: JVM exceptions become tool errors, never crashes. */
fun errorJson(t: Throwable): String = when (t) {
    is OpException -> t.toJson()
    is IllegalArgumentException, is com.debuggermcp.json.JsonException ->
        OpException(ErrorKind.FAILED, "invalid arguments: ${t.message}").toJson()
    is kotlinx.coroutines.TimeoutCancellationException ->
        OpException(ErrorKind.TIMEOUT, t.message ?: "timed out").toJson()
    else -> OpException(ErrorKind.FAILED, "${t.javaClass.simpleName}: ${t.message ?: "no message"}").toJson()
}
