package com.debuggermcp

import com.debuggermcp.adapter.OrderedEvents
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.cancel
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.util.Collections
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit

/**
 * The event queue between the debugger's listeners and the engine (issue 27 N2): while the
 * engine lags (the consumer waits, here on a job that does not end), the debuggee's output is
 * bounded and counted, the session's lifecycle events are all kept, in order.
 */
@Timeout(30)
class OrderedEventsTest {
    @Test
    fun `output beyond the bound is dropped and counted, lifecycle events are kept in order (N2)`() {
        val scope = CoroutineScope(SupervisorJob() + Dispatchers.Default)
        try {
            val seen = Collections.synchronizedList(ArrayList<String>())
            val gate = CompletableDeferred<Unit>()
            val events = OrderedEvents(scope, capacity = 4) { seen.add("error: ${it.message}") }
            events.submit { gate.await(); seen.add("paused") } // the engine lags behind this one
            val accepted = (1..10).map { n -> events.submitDroppable { lost -> { seen.add("out$n lost=$lost") } } }
            events.submit { seen.add("resumed") }
            events.submit { seen.add("stopped") }
            // 1 waiting job + 3 output = the bound of 4: outputs 4..10 are dropped, the lifecycle ones are not.
            assertEquals(listOf(true, true, true) + List(7) { false }, accepted)
            val done = CountDownLatch(1)
            gate.complete(Unit)
            events.submit { done.countDown() }
            assertTrue(done.await(5, TimeUnit.SECONDS))
            assertEquals(listOf("paused", "out1 lost=0", "out2 lost=0", "out3 lost=0", "resumed", "stopped"), seen.toList())
            // The next output that gets through tells how many were lost before it.
            val told = CountDownLatch(1)
            assertTrue(events.submitDroppable { lost -> { seen.add("out11 lost=$lost"); told.countDown() } })
            assertTrue(told.await(5, TimeUnit.SECONDS))
            assertEquals("out11 lost=7", seen.last())
            assertFalse(seen.any { it.startsWith("error") })
        } finally {
            scope.cancel()
        }
    }
}
