package com.debuggermcp.adapter

import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.launch
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.atomic.AtomicLong
import kotlin.coroutines.cancellation.CancellationException

/**
 * Runs event jobs one after another, in submission order, on [scope]. Debugger listeners run on
 * the debugger's own thread (Java: the DebuggerManagerThread), where a blocking read action
 * stalls the debugger; they submit a job and return at once, and the job takes the read action
 * as a coroutine. One consumer keeps `paused` before the `resumed` that follows it.
 */
class OrderedEvents(
    scope: CoroutineScope,
    /** How many jobs may wait before droppable ones (the debuggee's output) are dropped. */
    private val capacity: Int = CAPACITY,
    private val onError: (Throwable) -> Unit,
) {
    private val queue = Channel<suspend () -> Unit>(Channel.UNLIMITED)

    /** Jobs queued and not yet finished. */
    private val pending = AtomicInteger()

    /** Droppable jobs dropped since the last one that was queued. */
    private val dropped = AtomicLong()

    init {
        scope.launch {
            for (job in queue) {
                try {
                    job()
                } catch (c: CancellationException) {
                    throw c
                } catch (t: Throwable) {
                    onError(t)
                } finally {
                    pending.decrementAndGet()
                }
            }
        }
    }

    /**
     * Queues a job that must not be lost (session started, paused, resumed, stopped, breakpoint
     * changes: the engine's view of the session depends on each). These come at the debugger's
     * pace, a few per user action. Never blocks and never throws (a closed queue drops the job:
     * the IDE is shutting down).
     */
    fun submit(job: suspend () -> Unit) {
        pending.incrementAndGet()
        if (queue.trySend(job).isFailure) pending.decrementAndGet()
    }

    /**
     * Queues a job that may be dropped: the debuggee's output, which a program can write faster
     * than the engine takes events (each takes a JNI call; the consumer also waits for read
     * actions). While [capacity] jobs wait, the job is not queued and only counted (issue 27 N2:
     * the queue was unbounded, so a chatty program held the IDE's memory while the engine lagged).
     * [job] gets the number dropped since the last queued one, to tell the agent. False when dropped.
     */
    fun submitDroppable(job: (droppedBefore: Long) -> (suspend () -> Unit)): Boolean {
        if (pending.get() >= capacity) {
            dropped.incrementAndGet()
            return false
        }
        submit(job(dropped.getAndSet(0)))
        return true
    }

    companion object {
        /** Output chunks are a few KB at most; 10,000 waiting jobs is far beyond a healthy lag. */
        const val CAPACITY = 10_000
    }
}
