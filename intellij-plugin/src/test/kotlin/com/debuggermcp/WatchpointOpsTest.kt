package com.debuggermcp

import com.debuggermcp.adapter.Breakpoints
import com.debuggermcp.adapter.ErrorKind
import com.debuggermcp.adapter.OpException
import com.debuggermcp.adapter.Sessions
import com.debuggermcp.adapter.Watchpoints
import com.debuggermcp.fakes.DebuggerThread
import com.debuggermcp.fakes.FakeApplication
import com.debuggermcp.fakes.FakeBreakpointManager
import com.debuggermcp.fakes.FakeDebuggerManager
import com.debuggermcp.fakes.FakeDebuggerUtil
import com.debuggermcp.fakes.FakeFile
import com.debuggermcp.fakes.FakeFrame
import com.debuggermcp.fakes.FakeLineType
import com.debuggermcp.fakes.FakeProject
import com.debuggermcp.fakes.FakeSession
import com.debuggermcp.fakes.FakeThread
import com.debuggermcp.fakes.FakeValue
import com.debuggermcp.fakes.JavaLikeSuspendContext
import com.debuggermcp.java.JavaDebugSupport
import com.debuggermcp.json.JsonArgs
import com.intellij.openapi.editor.Document
import com.intellij.openapi.fileEditor.FileDocumentManager
import com.intellij.openapi.vfs.VirtualFile
import com.intellij.xdebugger.XDebuggerManager
import com.intellij.xdebugger.XDebuggerUtil
import com.intellij.xdebugger.breakpoints.XLineBreakpoint
import kotlinx.coroutines.runBlocking
import org.jetbrains.java.debugger.breakpoints.properties.JavaFieldBreakpointProperties
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout

/**
 * Op `add_data_breakpoint` (issue 18): a Java field watchpoint made as the Add Field Watchpoint
 * dialog makes it (JavaFieldBreakpointType.addBreakpoint, cited in Watchpoints.kt), against fakes
 * of the breakpoint manager (XBreakpointManagerImpl: write action), the field type's canPutAt
 * (read action; true only on a PsiField's line, JavaFieldBreakpointType.canPutAt →
 * canPutAtElement(element instanceof PsiField)) and the document (FileDocumentManager: read action).
 */
@Timeout(30)
class WatchpointOpsTest {
    private val app = FakeApplication.install()
    private val debugger = DebuggerThread()
    private val project = FakeProject()
    private val main = FakeFile("/work/project/src/com/example/Main.java")
    private val source = """
        package com.example;

        public class Main {
            private int total = 0;
            void add(int n) {
                int local = n;
                total += n;
            }
        }
    """.trimIndent()

    private val frame = FakeFrame("add", "Main", "com.example", main, 6, debugger,
        locals = listOf(FakeValue("n", "int", "5", debugger), FakeValue("local", "int", "5", debugger)))
    private val mainThread = FakeThread("main", 1, listOf(frame))
    private val session = FakeSession(project, app, JavaLikeSuspendContext(listOf(mainThread), mainThread, debugger))
    private val sid = Sessions.id(session)
    private val manager = FakeBreakpointManager(app)

    init {
        // The line type outranks the field type on every line it takes; the field type takes only
        // the declaration (line 3, 0-based), as JavaFieldBreakpointType.canPutAt does.
        app.services[XDebuggerUtil::class.java] = FakeDebuggerUtil(listOf(
            FakeLineType("java-line", 100, setOf(3, 5, 6), app),
            FakeLineType("java-field", 0, setOf(3), app),
        ))
        project.services[XDebuggerManager::class.java] = FakeDebuggerManager(manager, listOf(session))
        app.services[FileDocumentManager::class.java] = object : FileDocumentManager() {
            override fun getDocument(file: VirtualFile): Document? {
                // FileDocumentManager.java (file id 3859636373): @RequiresReadLock.
                app.requireRead("FileDocumentManager.getDocument")
                return if (file.path == main.path) object : Document { override fun getText(): String = source } else null
            }
        }
    }

    @AfterEach
    fun clean() {
        app.dispose()
        debugger.close()
        assertEquals(emptyList<String>(), app.violations, "threading contracts broken")
    }

    private fun add(expression: String, access: String) = runBlocking {
        Watchpoints.add(project, JsonArgs(mapOf("session_id" to sid, "frame" to "", "expression" to expression, "access" to access)),
            listOf(JavaDebugSupport()))
    }

    @Test
    fun `a field of the frame's class gets a field watchpoint on its declaration, stopping on writes`() {
        val info = add("total", "write")
        assertEquals("data", info["kind"])
        assertEquals("total", info["watch"])
        assertEquals("write", info["access"])
        assertEquals(4L, info["line"], "the field's declaration line (1-based)")
        val bp = manager.breakpoints.single() as XLineBreakpoint<*>
        assertEquals("java-field", bp.type.id)
        assertEquals(3, bp.line)
        val p = bp.properties as JavaFieldBreakpointProperties
        assertEquals("total", p.myFieldName)
        assertTrue(p.WATCH_MODIFICATION && !p.WATCH_ACCESS)
        // A stop inside the class is not attributed to the watchpoint by its line; a stop no line
        // breakpoint explains is, when it is the only one.
        assertEquals(emptyList<String>(), runBlocking { Breakpoints.enabledLineBreakpointsAt(project, main, 3) })
        assertEquals(listOf(info["id"]), runBlocking { Breakpoints.enabledWatchpoints(project) })
        assertEquals(listOf(info), runBlocking { Breakpoints.list(project) })
    }

    @Test
    fun `read_write watches both, and a local is refused naming the alternative, adding nothing`() {
        val p = add("total", "read_write").let { (manager.breakpoints.single().properties as JavaFieldBreakpointProperties) }
        assertTrue(p.WATCH_MODIFICATION && p.WATCH_ACCESS)
        manager.breakpoints.clear()
        val e = assertThrows(OpException::class.java) { add("local", "write") }
        assertEquals(ErrorKind.FAILED, e.kind)
        assertTrue(e.message!!.contains("'local' is a local variable") && e.message!!.contains("conditional breakpoint"), e.message)
        val missing = assertThrows(OpException::class.java) { add("nope", "write") }
        assertEquals(ErrorKind.NOT_FOUND, missing.kind)
        assertEquals(0, manager.breakpoints.size)
    }
}
