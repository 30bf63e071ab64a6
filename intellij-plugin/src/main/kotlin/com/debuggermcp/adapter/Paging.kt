package com.debuggermcp.adapter

import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.withTimeoutOrNull

/*
 * Pure coroutine logic behind the XDebugger callbacks, free of IntelliJ types so the unit tests
 * run it against fakes that behave like the platform (see PagingTest).
 */

/**
 * What one debugger node reports, batch by batch. Java's JavaValue sends 100 children, then calls
 * `XCompositeNode.tooManyChildren(remaining, addNextChildren)`; the next batch arrives only when
 * that Runnable runs (the Variables view runs it when the user clicks "more"). Asking
 * `computeChildren` again starts from the first child again, so that cannot page.
 */
class ChildBatches<T> {
    /** One batch: the items since the previous batch, and how to get the next one. */
    class Batch<T>(val items: List<T>, val more: Boolean, val next: Runnable?, val error: String?)

    private val pending = ArrayList<T>()
    private val batches = Channel<Batch<T>>(Channel.UNLIMITED)

    @Volatile
    var obsolete = false

    fun add(items: List<T>, last: Boolean) {
        synchronized(pending) { pending.addAll(items) }
        if (last) end(more = false, next = null, error = null)
    }

    /** `tooManyChildren(remaining, next)`; the deprecated one-argument form passes null. */
    fun tooMany(next: Runnable?) = end(more = true, next = next, error = null)

    fun error(message: String) = end(more = false, next = null, error = message)

    private fun end(more: Boolean, next: Runnable?, error: String?) {
        val items = synchronized(pending) { pending.toList().also { pending.clear() } }
        batches.trySend(Batch(items, more, next, error))
    }

    /** Items delivered but not yet ended by a batch (used when the debugger goes quiet). */
    fun leftovers(): List<T> = synchronized(pending) { pending.toList() }

    suspend fun nextBatch(timeoutMs: Long): Batch<T>? = withTimeoutOrNull(timeoutMs) { batches.receive() }
}

/** Children read so far; [complete] when the debugger said there are no more. */
class Paged<T>(val items: List<T>, val complete: Boolean)

/**
 * Collects children until [wanted] items or the end: [start] asks the node for its children
 * (computeChildren on the EDT), and each further batch is requested by running the debugger's
 * `addNextChildren` Runnable through [runNext] (on the EDT, as the platform documents).
 * A debugger that only calls the one-argument `tooManyChildren` cannot be paged: what it sent is
 * returned as incomplete. Silence for [timeoutMs] returns what arrived, or fails when nothing did.
 */
suspend fun <T> collectPaged(
    wanted: Int,
    timeoutMs: Long,
    start: suspend (ChildBatches<T>) -> Unit,
    runNext: suspend (Runnable) -> Unit,
    maxBatches: Int = 1_000,
): Paged<T> {
    val node = ChildBatches<T>()
    val items = ArrayList<T>()
    try {
        start(node)
        var batches = 0
        while (true) {
            val batch = node.nextBatch(timeoutMs)
            if (batch == null) {
                items.addAll(node.leftovers())
                if (items.isEmpty()) throw OpException(ErrorKind.TIMEOUT, "the debugger did not list the children in $timeoutMs ms")
                return Paged(items, complete = false)
            }
            items.addAll(batch.items)
            batch.error?.let { if (items.isEmpty()) failed(it) else return Paged(items, complete = false) }
            if (!batch.more) return Paged(items, complete = true)
            val next = batch.next
            if (items.size >= wanted || next == null || ++batches >= maxBatches) return Paged(items, complete = false)
            runNext(next)
        }
    } finally {
        // Tells the debugger nobody reads this node any more (XCompositeNode.isObsolete).
        node.obsolete = true
    }
}

/**
 * Awaits a callback-style result (an IntelliJ `Promise`, a listener) for at most [timeoutMs]:
 * [subscribe] registers the callback; null when it does not answer in time.
 */
suspend fun <T> awaitCallback(timeoutMs: Long, subscribe: (resolve: (T?) -> Unit) -> Unit): T? {
    val done = CompletableDeferred<T?>()
    subscribe { done.complete(it) }
    return withTimeoutOrNull(timeoutMs) { done.await() }
}

/**
 * A value's `evaluate_name`. Java's JavaValue returns null from the synchronous
 * `XValue.getEvaluationExpression()` and computes the expression on the debugger thread,
 * delivering it only through the promise of `calculateEvaluationExpression()`; so the promise is
 * asked first and the synchronous getter is the fallback for debuggers without one.
 */
suspend fun evaluationName(
    timeoutMs: Long,
    fromPromise: (resolve: (String?) -> Unit) -> Unit,
    synchronous: () -> String?,
): String? = awaitCallback(timeoutMs, fromPromise)?.takeIf { it.isNotEmpty() } ?: synchronous()
