package com.debuggermcp

import com.debuggermcp.fakes.FakeApplication
import com.debuggermcp.fakes.FakeBreakpointManager
import com.debuggermcp.fakes.FakeLineType
import com.intellij.openapi.application.ModalityState
import com.intellij.openapi.application.readAction
import com.intellij.openapi.application.smartReadAction
import com.debuggermcp.fakes.FakeProject
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.util.concurrent.CompletableFuture
import java.util.concurrent.TimeUnit

/**
 * The fake Application fails a test that calls a platform API in the wrong context: the adapter
 * tests rely on it, so it is shown to catch the contexts issue 17 found wrong (a model change
 * outside a write action, index access in a plain read action while indexing).
 */
class FakeApplicationTest {
    private val app = FakeApplication.install()

    @AfterEach
    fun clean() = app.dispose()

    @Test
    fun `a breakpoint added outside a write action is a recorded contract break`() {
        val manager = FakeBreakpointManager(app)
        val type = FakeLineType("line", 0, setOf(1), app)
        assertThrows(IllegalStateException::class.java) { manager.addLineBreakpoint(type, "file:///a.java", 1, null, false) }
        // Inside a read action on a background thread: still not a write action.
        assertThrows(IllegalStateException::class.java) { runBlocking { readAction { manager.addLineBreakpoint(type, "file:///a.java", 1, null, false) } } }
        // A write action on the EDT, as the adapter does it: accepted.
        val done = CompletableFuture<Int>()
        app.invokeLater({ done.complete(app.runWriteAction(com.intellij.openapi.util.Computable { manager.addLineBreakpoint(type, "file:///a.java", 1, null, false); manager.breakpoints.size })) }, ModalityState.nonModal())
        assertEquals(1, done.get(5, TimeUnit.SECONDS))
        assertEquals(2, app.violations.size, app.violations.toString())
        assertTrue(app.violations.all { it.startsWith("XBreakpointManager.addLineBreakpoint") })
    }

    @Test
    fun `index access while indexing fails in a plain read action and waits in a smart one`() {
        app.dumb = true
        assertThrows(FakeApplication.IndexNotReady::class.java) { runBlocking { readAction { app.requireSmart("FilenameIndex.getVirtualFilesByName") } } }
        runBlocking { smartReadAction(FakeProject()) { app.requireSmart("FilenameIndex.getVirtualFilesByName") } }
        assertEquals(1, app.waitedForSmartMode.get())
        assertEquals(1, app.violations.size)
    }
}
