package com.debuggermcp

import com.debuggermcp.adapter.Breakpoints
import com.debuggermcp.adapter.ControlOps
import com.debuggermcp.adapter.ErrorKind
import com.debuggermcp.adapter.OpException
import com.debuggermcp.adapter.Sessions
import com.debuggermcp.adapter.StackOps
import com.debuggermcp.adapter.TestOps
import com.debuggermcp.adapter.ValueOps
import com.debuggermcp.fakes.DebuggerThread
import com.debuggermcp.fakes.FakeApplication
import com.debuggermcp.fakes.FakeFile
import com.debuggermcp.fakes.FakeFrame
import com.debuggermcp.fakes.FakeProject
import com.debuggermcp.fakes.FakeSession
import com.debuggermcp.fakes.FakeThread
import com.debuggermcp.fakes.FakeValue
import com.debuggermcp.fakes.JavaLikeSuspendContext
import com.debuggermcp.json.JsonArgs
import com.intellij.lang.Language
import com.intellij.openapi.project.Project
import com.intellij.openapi.vfs.LocalFileSystem
import com.intellij.openapi.vfs.VirtualFile
import com.intellij.psi.PsiFile
import com.intellij.psi.PsiManager
import com.intellij.xdebugger.XDebuggerUtil
import com.intellij.xdebugger.XExpression
import com.intellij.xdebugger.XSourcePosition
import com.intellij.xdebugger.breakpoints.XBreakpointProperties
import com.intellij.xdebugger.breakpoints.XBreakpointType
import com.intellij.xdebugger.breakpoints.XLineBreakpointType
import com.intellij.xdebugger.evaluation.EvaluationMode
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.util.concurrent.CopyOnWriteArrayList

/**
 * The adapter's ops against fakes that behave like the Java debugger's implementations (see
 * fakes/JavaDebuggerFakes.kt for the sources), with a fake Application that fails the test when
 * an API is called in the wrong thread or lock context. Issue 17's defects 1, 3, 5, 6 and 7:
 * each of these tests failed before its fix.
 */
@Timeout(30)
class AdapterOpsTest {
    private val app = FakeApplication.install()
    private val debugger = DebuggerThread()
    private val project = FakeProject()
    private val main = FakeFile("/work/project/src/com/example/Main.java")
    private val jdk = FakeFile("/jdk/java/lang/Thread.java")

    private val compute = FakeFrame(
        "compute", "Main", "com.example", main, 11, debugger,
        topValues = listOf(FakeValue("IDE state", "", "read: ✓ write: ✗", debugger)),
        locals = listOf(FakeValue("x", "int", "1", debugger), FakeValue("y", "int", "2", debugger)),
    )
    private val mainFrame = FakeFrame("main", "Main", "com.example", main, 4, debugger)
    private val runFrame = FakeFrame("run", "Thread", "java.lang", jdk, 1000, debugger)
    private val mainThread = FakeThread("main", 1, listOf(compute, mainFrame))
    private val worker = FakeThread("worker", 23, listOf(runFrame))
    private val context = JavaLikeSuspendContext(listOf(mainThread, worker), mainThread, debugger)
    private val session = FakeSession(project, app, context)
    private val sid = Sessions.id(session)

    @AfterEach
    fun clean() {
        app.dispose()
        debugger.close()
        assertEquals(emptyList<String>(), app.violations, "threading contracts broken")
    }

    private fun threadIds(): Map<String, String> = runBlocking {
        StackOps.threads(sid).associate { (it["name"] as String).substringBefore("@").trim('"') to it["id"] as String }
    }

    @Test
    fun `the paused thread is reported as paused although every compute returns fresh stacks (defect 6)`() {
        val threads = runBlocking { StackOps.threads(sid) }
        assertEquals(listOf("paused", "suspended"), threads.map { it["state"] })
        // Thread ids stay stable across calls that return new stack objects.
        assertEquals(threadIds(), threadIds())
    }

    @Test
    fun `frames of the paused thread start at index 0 like the Frames view (defect 1)`() {
        val ids = threadIds()
        @Suppress("UNCHECKED_CAST")
        val frames = runBlocking { StackOps.frames(sid, ids.getValue("main"), 0, 20) }["frames"] as List<Map<String, Any?>>
        assertEquals(listOf("compute", "main"), frames.map { it["method_name"] })
        assertEquals(listOf(12L, 5L), frames.map { (it["line"] as Number).toLong() })
        assertEquals(main.path, frames[0]["file"])
        assertEquals("com.example.Main", frames[0]["class_name"])
        assertEquals(false, frames[0]["is_library"])
    }

    @Test
    fun `frames of another thread, paged, come from a stack whose top frame was never initialised (defect 1)`() {
        val ids = threadIds()
        val page = runBlocking { StackOps.frames(sid, ids.getValue("worker"), 0, 20) }
        @Suppress("UNCHECKED_CAST")
        val frames = page["frames"] as List<Map<String, Any?>>
        assertEquals(listOf("run"), frames.map { it["method_name"] })
        assertEquals(true, frames[0]["is_library"])
        assertEquals(1, page["total"])
        @Suppress("UNCHECKED_CAST")
        val second = runBlocking { StackOps.frames(sid, ids.getValue("main"), 1, 1) }["frames"] as List<Map<String, Any?>>
        assertEquals(listOf(1), second.map { it["index"] })
        assertEquals(listOf("main"), second.map { it["method_name"] })
    }

    @Test
    fun `a step on the paused thread selects the active stack's top frame first, on the EDT (defect 1)`() {
        val ids = threadIds()
        runBlocking { ControlOps.control(sid, ids.getValue("main"), JsonArgs(mapOf("op" to "step_over"))) }
        val (select, step) = session.commands.toList()
        assertEquals("setCurrentStackFrame", select.name)
        assertSame(context.activeExecutionStack, select.stack)
        assertSame(compute, select.frame)
        assertEquals(true, select.isTop)
        assertEquals("stepOver", step.name)
    }

    @Test
    fun `a step on another thread switches to its top frame (defect 1)`() {
        val ids = threadIds()
        runBlocking { ControlOps.control(sid, ids.getValue("worker"), JsonArgs(mapOf("op" to "resume"))) }
        val select = session.commands.first()
        assertSame(runFrame, select.frame)
        assertEquals(true, select.isTop)
        assertEquals("resume", session.commands.last().name)
    }

    @Test
    fun `select_frame of a frame below the top is not the top frame`() {
        val ids = threadIds()
        @Suppress("UNCHECKED_CAST")
        val frames = runBlocking { StackOps.frames(sid, ids.getValue("main"), 0, 20) }["frames"] as List<Map<String, Any?>>
        runBlocking { StackOps.selectFrame(sid, ids.getValue("main"), frames[1]["handle"] as String) }
        val select = session.commands.single()
        assertSame(mainFrame, select.frame)
        assertEquals(false, select.isTop)
    }

    @Test
    fun `frame variables include the top values a debugger adds in its first batch (defect 7)`() {
        val vars = runBlocking { ValueOps.frameVariables(sid, "") }
        assertEquals(listOf("IDE state", "x", "y"), vars.map { it["name"] })
        assertEquals(listOf("read: ✓ write: ✗", "1", "2"), vars.map { it["value"] })
    }

    @Test
    fun `a Python-like stack (frames in one batch from a pooled thread) pages and reports the paused thread`() {
        val pool = java.util.concurrent.Executors.newSingleThreadExecutor()
        try {
            val py = FakeFile("/work/project/app.py")
            val handler = FakeFrame("handle", "app", "", py, 9, debugger)
            val mainPy = FakeFrame("<module>", "app", "", py, 20, debugger)
            val t = FakeThread("MainThread", 7, listOf(handler, mainPy))
            val other = FakeThread("Thread-1", 8, listOf(FakeFrame("run", "threading", "", py, 1, debugger)))
            val pySession = FakeSession(project, app, com.debuggermcp.fakes.PyLikeSuspendContext(listOf(t, other), t, pool))
            val id = Sessions.id(pySession)
            val threads = runBlocking { StackOps.threads(id) }
            assertEquals(listOf("paused", "suspended"), threads.map { it["state"] })
            @Suppress("UNCHECKED_CAST")
            val page = runBlocking { StackOps.frames(id, threads[0]["id"] as String, 1, 5) }
            @Suppress("UNCHECKED_CAST")
            assertEquals(listOf(1), (page["frames"] as List<Map<String, Any?>>).map { it["index"] })
            assertEquals(2, page["total"])
        } finally {
            pool.shutdownNow()
        }
    }

    // --- breakpoint types (defect 3) -------------------------------------------------------

    /**
     * Java's line-connected types as their sources rank them: JavaLineBreakpointType.getPriority()
     * = 100 (java/debugger/impl/src/com/intellij/debugger/ui/breakpoints/JavaLineBreakpointType.java,
     * file id 7897467069); the method and field types keep XLineBreakpointType's default 0. A
     * field with an initializer accepts both a field watchpoint and a line breakpoint. canPutAt
     * reads PSI, so it needs a read action.
     */
    private inner class JavaLikeType(id: String, private val priority: Int, private val lines: Set<Int>) :
        XLineBreakpointType<XBreakpointProperties<Any>>(id, id) {
        override fun canPutAt(file: VirtualFile, line: Int, project: Project): Boolean {
            app.requireRead("XLineBreakpointType.canPutAt")
            return line in lines
        }
        override fun getPriority(): Int = priority
        override fun createBreakpointProperties(file: VirtualFile, line: Int): XBreakpointProperties<Any>? = null
        override fun toString() = id
    }

    private fun installTypes(vararg types: XLineBreakpointType<*>) {
        app.services[XDebuggerUtil::class.java] = object : XDebuggerUtil() {
            override fun getLineBreakpointTypes(): Array<XLineBreakpointType<*>> = arrayOf(*types)
            override fun <T : XBreakpointType<*, *>?> findBreakpointType(typeClass: Class<T>): T = throw UnsupportedOperationException()
            override fun createPosition(file: VirtualFile?, line: Int): XSourcePosition? = null
            override fun createExpression(text: String, language: Language?, custom: String?, mode: EvaluationMode): XExpression = throw UnsupportedOperationException()
        }
    }

    @Test
    fun `a line breakpoint on a field initializer is a line breakpoint, not a watchpoint (defect 3)`() {
        // Registration order of the Java plugin: method and field types before the line type.
        val method = JavaLikeType("java-method", 0, setOf(2))
        val field = JavaLikeType("java-field", 0, setOf(4))
        val line = JavaLikeType("java-line", 100, setOf(4, 7, 8))
        installTypes(method, field, line)
        val (type, at) = runBlocking { Breakpoints.placement(project, main, 4) }!!
        assertSame(line, type)
        assertEquals(4, at)
        // Moving down: line 5 and 6 take nothing, line 7 takes the line type.
        val (moved, movedTo) = runBlocking { Breakpoints.placement(project, main, 5) }!!
        assertSame(line, moved)
        assertEquals(7, movedTo)
        // A method declaration line still gets the method breakpoint (no other type accepts it).
        assertSame(method, runBlocking { Breakpoints.placement(project, main, 2) }!!.first)
    }

    // --- debug_test finds a test file the agent just wrote (defect 5) ------------------------

    @Test
    fun `debug_test refreshes the VFS outside the read action`() {
        val written = "/work/project/tests/test_x.py"
        app.services[LocalFileSystem::class.java] = object : LocalFileSystem() {
            // Not in the VFS yet: the agent just wrote it.
            override fun findFileByPath(path: String): VirtualFile? = null
            override fun refreshAndFindFileByPath(path: String): VirtualFile? {
                // RefreshQueueImpl.execute (file id 5802257166): a synchronous refresh under the
                // read lock or on the EDT logs an error and does not refresh.
                app.requireNoReadLock("LocalFileSystem.refreshAndFindFileByPath (synchronous refresh)")
                app.requireBackground("LocalFileSystem.refreshAndFindFileByPath (synchronous refresh)")
                return if (path == written) FakeFile(path) else null
            }
        }
        val asked = CopyOnWriteArrayList<String>()
        project.services[PsiManager::class.java] = object : PsiManager() {
            override fun findFile(file: VirtualFile): PsiFile? {
                // PsiManager.java (file id 4545234843): @RequiresReadLock, @RequiresBackgroundThread.
                app.requireRead("PsiManager.findFile")
                app.requireBackground("PsiManager.findFile")
                asked += file.path
                return null
            }
        }
        val e = assertThrows(OpException::class.java) {
            runBlocking { TestOps.debugTest(project, JsonArgs(mapOf("framework" to "pytest", "test_id" to "tests/test_x.py::test_y"))) }
        }
        assertEquals(ErrorKind.NOT_FOUND, e.kind)
        assertEquals(listOf(written), asked)
    }
}
