package com.debuggermcp

import com.debuggermcp.adapter.ConfirmOps
import com.debuggermcp.adapter.ErrorKind
import com.debuggermcp.adapter.OpException
import com.debuggermcp.fakes.FakeApplication
import com.debuggermcp.fakes.FakeProject
import com.debuggermcp.json.JsonArgs
import com.intellij.openapi.ui.DialogWrapper
import com.intellij.openapi.ui.FakeDialogs
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout

/**
 * `confirm` against a DialogWrapper that behaves like the real one (FakeDialogs: modal on the
 * EDT, its own event loop, `showAndGet()` = exit code is OK): the user's answer reaches the
 * agent, and an answer after the op's timeout is not taken as consent.
 */
@Timeout(30)
class ConfirmOpsTest {
    private val app = FakeApplication.install()
    private val dialogs = FakeDialogs(app)
    private val project = FakeProject()

    @AfterEach
    fun clean() {
        dialogs.uninstall()
        app.dispose()
        assertEquals(emptyList<String>(), app.violations, "threading contracts broken")
    }

    private fun ask(timeoutMs: Long = 50_000, title: String = "Start a debug session?", answer: FakeDialogs.() -> Unit): Result<Boolean> =
        runBlocking {
            val op = async(Dispatchers.Default) {
                runCatching { ConfirmOps.confirm(project, JsonArgs(mapOf("title" to title, "message" to "Run App <debug>?")), timeoutMs) }
            }
            dialogs.answer()
            op.await()
        }

    @Test
    fun `yes is consent, shown modal on the EDT with the title prefixed once`() {
        val r = ask { awaitShown(); yes() }
        assertEquals(true, r.getOrThrow())
        assertEquals("Debugger MCP: Start a debug session?", dialogs.title())
        assertEquals(1, dialogs.shown.size)
    }

    @Test
    fun `a title that already names Debugger MCP is not prefixed twice`() {
        ask(title = "Debugger MCP: set x = 3?") { awaitShown(); yes() }
        assertEquals("Debugger MCP: set x = 3?", dialogs.title())
    }

    @Test
    fun `no and closing the window are refusals`() {
        assertEquals(false, ask { awaitShown(); no() }.getOrThrow())
        assertEquals(false, ask { awaitShown(2); closeWindow(1) }.getOrThrow())
    }

    @Test
    fun `an answer after the timeout is not consent and the dialog is closed`() {
        val r = ask(timeoutMs = 1_500) {
            awaitShown()
            // The op gives up 1 s before its timeout (500 ms here) and closes the dialog from
            // inside its modal loop; the user's Yes arrives later.
            val end = System.currentTimeMillis() + 5_000
            while (!isClosed() && System.currentTimeMillis() < end) Thread.sleep(5)
            yes()
        }
        val e = r.exceptionOrNull()
        assertTrue(e is OpException && e.kind == ErrorKind.TIMEOUT, "expected a timeout, got $r")
        assertTrue(dialogs.isClosed(), "the dialog stayed open after the op timed out")
        // The late Yes lands on a closed dialog: its exit code stays Cancel.
        Thread.sleep(100)
        assertEquals(DialogWrapper.CANCEL_EXIT_CODE, dialogs.exitCode())
        assertFalse(app.modalOpen(), "the modal loop still runs")
    }
}
