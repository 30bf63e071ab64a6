package com.debuggermcp

import com.debuggermcp.adapter.ErrorKind
import com.debuggermcp.adapter.Op
import com.debuggermcp.adapter.OpException
import com.debuggermcp.adapter.OpRunner
import com.debuggermcp.json.Json
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.cancel
import kotlinx.coroutines.delay
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit

/** The callback-table contract: call returns at once, exactly one answer, errors as kind/message. */
class OpRunnerTest {
    private data class Answer(val id: Long, val ok: Boolean, val json: String)

    private val scope = CoroutineScope(SupervisorJob() + Dispatchers.Default)
    private val answers = LinkedBlockingQueue<Answer>()

    @AfterEach
    fun tearDown() = scope.cancel()

    private fun runner(handler: suspend (Op, com.debuggermcp.json.JsonArgs) -> Any?) =
        OpRunner(scope, { id, ok, json -> answers.add(Answer(id, ok, json)) }, handler = handler)

    private fun next(): Answer = answers.poll(10, TimeUnit.SECONDS) ?: throw AssertionError("no answer")

    private fun kind(a: Answer) = (Json.parse(a.json) as Map<*, *>)["kind"]

    @Test
    fun `answers with the result JSON and the request id`() {
        runner { op, args -> mapOf("op" to op.wire, "project" to args.string("project")) }
            .start(7, "sessions", """{"project":"/p"}""")
        val a = next()
        assertEquals(7L, a.id)
        assertTrue(a.ok)
        assertEquals("""{"op":"sessions","project":"/p"}""", a.json)
    }

    @Test
    fun `unit results are null`() {
        runner { _, _ -> null }.start(1, "stop", """{"session_id":"s1"}""")
        assertEquals(Answer(1, true, "null"), next())
    }

    @Test
    @Timeout(10)
    fun `call returns before the op finishes`() {
        // The op cannot finish before start() returns: a blocking start() would hang here.
        val gate = CompletableDeferred<Unit>()
        runner { _, _ -> gate.await(); true }.start(2, "confirm", "{}")
        assertTrue(answers.isEmpty())
        gate.complete(Unit)
        assertEquals(Answer(2, true, "true"), next())
    }

    @Test
    fun `unknown ops, bad arguments and failures become typed errors`() {
        val r = runner { op, args ->
            when (op) {
                Op.STOP -> throw OpException(ErrorKind.NOT_FOUND, "no debug session 's9'")
                Op.THREADS -> args.string("session_id")
                else -> throw IllegalStateException("boom")
            }
        }
        r.start(1, "no_such_op", "{}")
        val unknown = next()
        assertFalse(unknown.ok)
        assertEquals("unsupported", kind(unknown))

        r.start(2, "stop", "{}")
        assertEquals("not_found", kind(next()))

        r.start(3, "threads", "{\"session_id\":5}")
        val bad = next()
        assertEquals("failed", kind(bad))
        assertTrue(bad.json.contains("session_id"))

        r.start(4, "threads", "{not json")
        assertEquals("failed", kind(next()))

        r.start(5, "projects", "{}")
        val crash = next()
        assertEquals("failed", kind(crash))
        assertTrue(crash.json.contains("IllegalStateException"))
    }

    @Test
    fun `each op has its own timeout`() {
        // select_frame has the shortest timeout (5 s); a hung debugger gets a timeout answer.
        runner { _, _ -> delay(60_000) }.start(9, "select_frame", "{}")
        val a = answers.poll(Op.SELECT_FRAME.timeoutMs + 5_000, TimeUnit.MILLISECONDS) ?: throw AssertionError("no answer")
        assertFalse(a.ok)
        assertEquals("timeout", kind(a))
    }

    @Test
    @Timeout(20)
    fun `a launch ends with the budget Rust waits for it, not the op's 30 min backstop (issue 27 item 1)`() {
        val cancelled = CompletableDeferred<Unit>()
        runner { _, _ ->
            try {
                delay(Op.LAUNCH.timeoutMs)
            } catch (e: kotlinx.coroutines.CancellationException) {
                cancelled.complete(Unit)
                throw e
            }
        }.start(3, "launch", """{"project":"/p","request":{"configuration":"App"},"budget_ms":300}""")
        val t0 = System.nanoTime()
        val a = next()
        val ms = (System.nanoTime() - t0) / 1_000_000
        assertFalse(a.ok)
        assertEquals("timeout", kind(a))
        assertTrue(ms < 5_000, "answered after $ms ms")
        assertTrue(a.json.contains("did not start within 300 ms") && a.json.contains("build_timeout_ms"), a.json)
        assertTrue(cancelled.isCompleted, "the launch kept running after its budget")
        // A budget above the op's own bound does not lift it.
        runner { _, _ -> delay(60_000) }.start(4, "select_frame", """{"budget_ms":600000}""")
        val b = answers.poll(Op.SELECT_FRAME.timeoutMs + 5_000, TimeUnit.MILLISECONDS) ?: throw AssertionError("no answer")
        assertEquals("timeout", kind(b))
    }

    @Test
    fun `a failing completer does not escape`() {
        OpRunner(scope, { _, _, _ -> throw IllegalStateException("rust gone") }) { _, _ -> 1 }.start(1, "projects", "{}")
        OpRunner(scope, { id, ok, json -> answers.add(Answer(id, ok, json)) }) { _, _ -> 2 }.start(2, "projects", "{}")
        assertEquals(Answer(2, true, "2"), next())
    }
}
