package com.debuggermcp.adapter

import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.launch
import kotlin.coroutines.cancellation.CancellationException

/**
 * Runs event jobs one after another, in submission order, on [scope]. Debugger listeners run on
 * the debugger's own thread (Java: the DebuggerManagerThread), where a blocking read action
 * stalls the debugger; they submit a job and return at once, and the job takes the read action
 * as a coroutine. One consumer keeps `paused` before the `resumed` that follows it.
 */
class OrderedEvents(scope: CoroutineScope, private val onError: (Throwable) -> Unit) {
    private val queue = Channel<suspend () -> Unit>(Channel.UNLIMITED)

    init {
        scope.launch {
            for (job in queue) {
                try {
                    job()
                } catch (c: CancellationException) {
                    throw c
                } catch (t: Throwable) {
                    onError(t)
                }
            }
        }
    }

    /** Never blocks and never throws (a closed queue drops the job: the IDE is shutting down). */
    fun submit(job: suspend () -> Unit) {
        queue.trySend(job)
    }
}
