package com.debuggermcp.adapter

import com.debuggermcp.json.Json
import com.debuggermcp.json.JsonArgs
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.TimeoutCancellationException
import kotlinx.coroutines.launch
import kotlinx.coroutines.withTimeout

/**
 * The asynchronous contract of the callback table, free of IntelliJ types so it is unit-tested:
 * [start] returns at once; the op runs as a coroutine on [scope] under its own timeout; exactly
 * one answer goes to [complete] — the result JSON, or `{"kind","message"}` for any failure
 * (unknown op, bad arguments, timeout, exception). Nothing thrown by an op escapes.
 */
class OpRunner(
    private val scope: CoroutineScope,
    private val complete: (requestId: Long, ok: Boolean, json: String) -> Unit,
    private val onUnexpected: (op: String, t: Throwable) -> Unit = { _, _ -> },
    private val handler: suspend (Op, JsonArgs) -> Any?,
) {
    fun start(requestId: Long, op: String, argsJson: String) {
        val known = Op.fromWire(op)
        if (known == null) {
            answer(requestId, false, OpException(ErrorKind.UNSUPPORTED, "unknown op '$op' (table version $TABLE_VERSION)").toJson())
            return
        }
        scope.launch {
            val (ok, json) = try {
                val args = JsonArgs.parse(argsJson)
                val result = withTimeout(known.timeoutMs) { handler(known, args) }
                true to Json.write(result)
            } catch (t: Throwable) {
                if (t !is OpException && t !is IllegalArgumentException && t !is TimeoutCancellationException) {
                    onUnexpected(op, t)
                }
                false to errorJson(t)
            }
            answer(requestId, ok, json)
        }
    }

    private fun answer(requestId: Long, ok: Boolean, json: String) {
        try {
            complete(requestId, ok, json)
        } catch (_: Throwable) {
            // Rust gone (shutdown) or the request already timed out there: nobody to tell.
        }
    }
}
