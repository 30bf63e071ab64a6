package com.debuggermcp

import com.debuggermcp.adapter.ChildBatches
import com.debuggermcp.adapter.ErrorKind
import com.debuggermcp.adapter.OpException
import com.debuggermcp.adapter.collectPaged
import com.debuggermcp.adapter.evaluationName
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit

/**
 * Fakes of the platform behaviours that the stubs hid: Java pages children only through the
 * Runnable of `tooManyChildren(remaining, addNextChildren)`, and computes evaluation expressions
 * only through the promise of `calculateEvaluationExpression()`.
 */
@Timeout(20)
class PagingTest {
    private val debuggerThread = Executors.newSingleThreadExecutor()

    /**
     * Behaves like JavaValue.computeChildren: each call starts from the first child and sends at
     * most 100, then offers the rest only through the Runnable (which the platform runs on the EDT).
     */
    private inner class JavaLikeNode(private val total: Int, private val legacyOnly: Boolean = false) {
        var computeCalls = 0

        fun computeChildren(node: ChildBatches<String>) {
            computeCalls++
            sendFrom(0, node)
        }

        private fun sendFrom(from: Int, node: ChildBatches<String>) {
            debuggerThread.execute {
                val to = minOf(from + 100, total)
                node.add((from until to).map { "child$it" }, last = to == total)
                if (to < total) {
                    if (legacyOnly) node.tooMany(null) else node.tooMany(Runnable { sendFrom(to, node) })
                }
            }
        }
    }

    private fun page(fake: JavaLikeNode, wanted: Int) = runBlocking {
        collectPaged<String>(wanted, 5_000, start = { fake.computeChildren(it) }, runNext = { it.run() })
    }

    @Test
    fun `all 250 children are read through the addNextChildren Runnable`() {
        val fake = JavaLikeNode(250)
        val paged = page(fake, Int.MAX_VALUE)
        assertEquals((0 until 250).map { "child$it" }, paged.items)
        assertTrue(paged.complete)
        // Asking computeChildren again would restart at child0: it must be called once.
        assertEquals(1, fake.computeCalls)
    }

    @Test
    fun `paging stops once enough children are read and says there are more`() {
        val paged = page(JavaLikeNode(1_000), 150)
        assertEquals(200, paged.items.size)
        assertFalse(paged.complete)
    }

    @Test
    fun `a debugger without the Runnable yields its first batch, marked incomplete`() {
        val paged = page(JavaLikeNode(250, legacyOnly = true), Int.MAX_VALUE)
        assertEquals(100, paged.items.size)
        assertFalse(paged.complete)
    }

    @Test
    fun `silence with nothing delivered is a timeout, an error message is a failure`() {
        val silent = assertThrows(OpException::class.java) {
            runBlocking { collectPaged<String>(10, 200, start = {}, runNext = {}) }
        }
        assertEquals(ErrorKind.TIMEOUT, silent.kind)
        val broken = assertThrows(OpException::class.java) {
            runBlocking { collectPaged<String>(10, 2_000, start = { it.error("Cannot evaluate") }, runNext = {}) }
        }
        assertEquals("Cannot evaluate", broken.message)
    }

    @Test
    fun `evaluate_name comes from the promise when the synchronous getter says null`() {
        // JavaValue: getEvaluationExpression() is null; the promise resolves on the debugger thread.
        val name = runBlocking {
            evaluationName(
                2_000,
                fromPromise = { resolve -> debuggerThread.schedule(50) { resolve("this.order.items") } },
                synchronous = { null },
            )
        }
        assertEquals("this.order.items", name)
    }

    @Test
    fun `evaluate_name falls back to the getter when the promise is rejected or silent`() {
        val rejected = runBlocking { evaluationName(2_000, fromPromise = { resolve -> resolve(null) }, synchronous = { "x" }) }
        assertEquals("x", rejected)
        val silent = runBlocking { evaluationName(100, fromPromise = { }, synchronous = { null }) }
        assertNull(silent)
    }

    private fun java.util.concurrent.ExecutorService.schedule(ms: Long, block: () -> Unit) = execute {
        TimeUnit.MILLISECONDS.sleep(ms)
        block()
    }

    @Test
    fun `an error message during the wait for a late item does not end the wait without it (review NIT)`() {
        val page = runBlocking {
            collectPaged<String>(
                Int.MAX_VALUE, 5_000,
                start = { node ->
                    node.add(listOf("args"), last = true)
                    debuggerThread.execute {
                        Thread.sleep(100)
                        node.error("Debug info might be corrupt")
                        Thread.sleep(100)
                        node.add(listOf("late"), last = false)
                    }
                },
                runNext = {},
                lateGraceMs = { 3_000 },
            )
        }
        assertEquals(listOf("args", "late"), page.items)
        assertEquals("Debug info might be corrupt", page.message)
    }
}
