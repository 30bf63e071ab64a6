package com.debuggermcp.bridge

/**
 * The callback table Rust calls (SPEC §4, docs/CALLBACK_TABLE.md). Implemented by the IDE's
 * XDebugger adapter and by the JDI stand-in used in tests.
 *
 * Rust calls [call] from its own threads. Implementations must return at once (never block the
 * caller) and deliver the answer later, from any thread, with [NativeBridge.complete] using the
 * same [requestId]. Rust applies a timeout to every request; a late answer is ignored.
 */
interface DebuggerCallbacks {
    /** Version of the op table this implementation speaks; must equal Rust's TABLE_VERSION. */
    fun tableVersion(): Int

    /** Starts op [op] with JSON arguments [argsJson] (keys = the Rust trait method's parameter names). */
    fun call(requestId: Long, op: String, argsJson: String)
}
