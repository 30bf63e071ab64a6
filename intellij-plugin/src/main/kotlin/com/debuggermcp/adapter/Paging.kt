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
    /**
     * One batch: the items since the previous batch, and how to get the next one. [late]: items
     * added after the debugger's final `addChildren(…, true)`; [wake]: no items, only a signal
     * that an error message arrived.
     */
    class Batch<T>(
        val items: List<T>,
        val more: Boolean,
        val next: Runnable?,
        val late: Boolean = false,
        val wake: Boolean = false,
        val top: List<T> = emptyList(),
        val bottom: List<T> = emptyList(),
    )

    private val pending = ArrayList<T>()
    private val pendingTop = ArrayList<T>() // guarded by pending
    private val pendingBottom = ArrayList<T>() // guarded by pending
    private val batches = Channel<Batch<T>>(Channel.UNLIMITED)
    private var ended = false // guarded by pending

    @Volatile
    var obsolete = false

    /** The node's error message (`setErrorMessage`), if any; children may still follow it. */
    @Volatile
    var message: String? = null
        private set

    /**
     * `addChildren`. The Variables view keeps adding children that arrive after the final batch
     * (XValueContainerNode.addChildren appends whatever comes), and Java's static group does
     * (JavaStackFrame.addStaticGroup: `DebuggerUtilsAsync.allFields(type).thenAccept(… node.addChildren(
     * XValueChildrenList.topGroups(…), false))`, which can complete after computeChildren's
     * `node.addChildren(children, true)`: JavaStackFrame.java @026915342927f0aa3ebcf478bd2760f82dd23246).
     * Such late items are a batch of their own.
     */
    fun add(items: List<T>, last: Boolean) = add(emptyList(), items, emptyList(), last)

    /**
     * `addChildren` with the list's sections: [top] (top values and top groups), [items] (the
     * values), [bottom] (bottom groups). The Variables view keeps each section together whatever
     * batch it came in (XValueContainerNode.getChildren: top nodes, then value children, then
     * bottom nodes), so a late top group is listed above the values, not after them.
     */
    fun add(top: List<T>, items: List<T>, bottom: List<T>, last: Boolean) {
        val late = synchronized(pending) {
            ended || run {
                pendingTop.addAll(top)
                pending.addAll(items)
                pendingBottom.addAll(bottom)
                false
            }
        }
        if (late) batches.trySend(Batch(items, more = false, next = null, late = true, top = top, bottom = bottom))
        else if (last) end(more = false, next = null)
    }

    /** `tooManyChildren(remaining, next)`; the deprecated one-argument form passes null. */
    fun tooMany(next: Runnable?) = end(more = true, next = next)

    /**
     * `setErrorMessage`. Not the end of the list: JavaStackFrame.buildVariablesThreadAction calls
     * `node.setErrorMessage(e.getMessage())` on an EvaluateException (and on INVALID_SLOT) and then
     * still adds `this`, return values, exceptions and locals with `addChildren(children, true)`;
     * the Variables view shows the message and the children (JavaStackFrame.java @02691534).
     */
    fun error(message: String) {
        this.message = message
        batches.trySend(Batch(emptyList(), more = true, next = null, wake = true))
    }

    private fun end(more: Boolean, next: Runnable?) {
        val batch = synchronized(pending) {
            if (!more) ended = true
            Batch(pending.toList(), more, next, top = pendingTop.toList(), bottom = pendingBottom.toList())
                .also { pending.clear(); pendingTop.clear(); pendingBottom.clear() }
        }
        batches.trySend(batch)
    }

    /** Items delivered but not yet ended by a batch (used when the debugger goes quiet). */
    fun leftovers(): Batch<T> = synchronized(pending) {
        Batch(pending.toList(), more = true, next = null, top = pendingTop.toList(), bottom = pendingBottom.toList())
    }

    suspend fun nextBatch(timeoutMs: Long): Batch<T>? = withTimeoutOrNull(timeoutMs) { batches.receive() }
}

/**
 * Children read so far; [complete] when the debugger said there are no more. [message]: the
 * node's error message, shown with the children as the Variables view shows it.
 */
class Paged<T>(val items: List<T>, val complete: Boolean, val message: String? = null)

/** How long children may still come after an error message before what arrived is returned. */
const val ERROR_GRACE_MS = 1_000L

/**
 * Collects children until [wanted] items or the end: [start] asks the node for its children
 * (computeChildren on the EDT), and each further batch is requested by running the debugger's
 * `addNextChildren` Runnable through [runNext] (on the EDT, as the platform documents).
 * A debugger that only calls the one-argument `tooManyChildren` cannot be paged: what it sent is
 * returned as incomplete. Silence for [timeoutMs] returns what arrived, or fails when nothing did.
 * An error message ends the wait after [ERROR_GRACE_MS] of silence (it fails the call only when
 * no child came). Once the list is complete, [lateGraceMs] says how long to wait for an item
 * the debugger adds after its final batch (0: none expected); the wait ends when one arrives.
 */
suspend fun <T> collectPaged(
    wanted: Int,
    timeoutMs: Long,
    start: suspend (ChildBatches<T>) -> Unit,
    runNext: suspend (Runnable) -> Unit,
    maxBatches: Int = 1_000,
    lateGraceMs: suspend (List<T>) -> Long = { 0L },
): Paged<T> {
    val node = ChildBatches<T>()
    // The Variables view's sections (see ChildBatches.add): listed top, values, bottom.
    val top = ArrayList<T>()
    val values = ArrayList<T>()
    val bottom = ArrayList<T>()
    fun take(batch: ChildBatches.Batch<T>) {
        top.addAll(batch.top)
        values.addAll(batch.items)
        bottom.addAll(batch.bottom)
    }
    fun items(): List<T> = top + values + bottom
    try {
        start(node)
        var batches = 0
        while (true) {
            val batch = node.nextBatch(if (node.message != null) minOf(timeoutMs, ERROR_GRACE_MS) else timeoutMs)
            if (batch == null) {
                take(node.leftovers())
                val items = items()
                node.message?.let { if (items.isEmpty()) failed(it) else return Paged(items, complete = false, message = it) }
                if (items.isEmpty()) throw OpException(ErrorKind.TIMEOUT, "the debugger did not list the children in $timeoutMs ms")
                return Paged(items, complete = false)
            }
            if (batch.wake) continue
            take(batch)
            if (!batch.more) {
                val grace = lateGraceMs(items())
                if (grace > 0) {
                    // The late items themselves: an error message's wake-up in between is not them.
                    val until = System.nanoTime() + grace * 1_000_000
                    while (true) {
                        val left = (until - System.nanoTime()) / 1_000_000
                        val late = if (left > 0) node.nextBatch(left) else null
                        if (late == null) break
                        if (late.wake) continue
                        take(late)
                        break
                    }
                }
                return Paged(items(), complete = true, message = node.message)
            }
            val next = batch.next
            if (top.size + values.size + bottom.size >= wanted || next == null || ++batches >= maxBatches) {
                return Paged(items(), complete = false, message = node.message)
            }
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
