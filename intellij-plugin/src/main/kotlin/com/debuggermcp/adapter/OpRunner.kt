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
                // Rust's own wait for this answer (`budget_ms`, sent with launch and debug_test):
                // nothing here outlives it, so a start nobody waits for any more is stopped.
                val limit = args.longOrNull(BUDGET_ARG)?.takeIf { it > 0 }?.coerceAtMost(known.timeoutMs) ?: known.timeoutMs
                val result = try {
                    withTimeout(limit) { handler(known, args) }
                } catch (e: TimeoutCancellationException) {
                    throw OpException(ErrorKind.TIMEOUT, known.timedOut(limit))
                }
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

    companion object {
        /** The argument carrying how long Rust waits for the answer, in ms (docs/CALLBACK_TABLE.md). */
        const val BUDGET_ARG = "budget_ms"
    }

    private fun answer(requestId: Long, ok: Boolean, json: String) {
        try {
            complete(requestId, ok, json)
        } catch (_: Throwable) {
            // Rust gone (shutdown) or the request already timed out there: nobody to tell.
        }
    }
}
