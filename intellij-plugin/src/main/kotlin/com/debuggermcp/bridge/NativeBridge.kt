package com.debuggermcp.bridge

/**
 * Entry points into the Rust library (`debugger_mcp_jni`). The library must already be loaded
 * (System.load) before any call. Every function returns quickly: long work runs on Rust's runtime.
 * Errors surface as [RuntimeException] carrying Rust's message; no Rust panic crosses JNI.
 */
object NativeBridge {
    /** Starts the engine with the settings file [configPath] and the callback table; returns the handshake JSON. */
    @JvmStatic external fun init(configPath: String, callbacks: DebuggerCallbacks): String

    @JvmStatic external fun shutdown()

    /**
     * Relays one HTTP request to the Rust router. Returns a handle for [cancelHttp] (a client that
     * disconnects cancels its stream). The response is delivered to [responder].
     */
    @JvmStatic external fun handleHttp(
        method: String,
        uri: String,
        headerNames: Array<String>,
        headerValues: Array<String>,
        body: ByteArray,
        responder: HttpResponder,
    ): Long

    @JvmStatic external fun cancelHttp(handle: Long)

    /** Answers callback request [requestId]: [ok] with the result JSON, or an error JSON `{"kind":..,"message":..}`. */
    @JvmStatic external fun complete(requestId: Long, ok: Boolean, json: String)

    /** Pushes a debugger event (JSON of the core's BackendEvent) into Rust. */
    @JvmStatic external fun pushEvent(json: String)

    /** History entries matching a HistoryFilter JSON, newest first, as a JSON array. */
    @JvmStatic external fun history(filterJson: String): String

    /** Exports history as "json" or "csv". */
    @JvmStatic external fun exportHistory(format: String, filterJson: String): String

    @JvmStatic external fun clearHistory()

    /** Current settings as TOML. */
    @JvmStatic external fun settingsToml(): String

    /** Validates and saves settings TOML; returns "" on success or the error message. */
    @JvmStatic external fun saveSettings(toml: String): String

    /** Server status JSON: {"url":..,"running":..,"version":..,"sessions":..}. */
    @JvmStatic external fun status(): String

    // ---- Additive (jni branch): see docs/CALLBACK_TABLE.md ----

    /** Tells Rust the URL the IDE serves MCP on (reported by [status]). */
    @JvmStatic external fun setServerUrl(url: String)

    /**
     * Diagnostic: runs one op of the callback table through Rust's typed backend and returns
     * `{"ok":true,"result":..}` or `{"ok":false,"error":{"kind":..,"message":..}}`. Blocks the
     * calling thread until the answer or the timeout, so never call it on a Netty I/O thread or
     * the EDT. Used by tests and the JNI round-trip benchmark.
     */
    @JvmStatic external fun backendCall(op: String, argsJson: String): String

    /** Where Rust's log records go; the plugin points it at the IDE log (default: java.util.logging). */
    @JvmStatic
    @Volatile
    var logSink: LogSink = LogSink.JUL

    /** Called by Rust's log thread (never on the caller of a native method); must not throw. */
    @JvmStatic
    fun log(level: Int, target: String, message: String) {
        try {
            logSink.log(level, target, message)
        } catch (_: Throwable) {
            // A broken sink must not break Rust's log thread.
        }
    }
}
