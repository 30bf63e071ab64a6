package com.debuggermcp

import com.debuggermcp.adapter.Breakpoints
import com.debuggermcp.adapter.ErrorKind
import com.debuggermcp.adapter.OpException
import com.debuggermcp.fakes.FakeApplication
import com.debuggermcp.fakes.FakeBreakpointManager
import com.debuggermcp.fakes.FakeDebuggerManager
import com.debuggermcp.fakes.FakeDebuggerUtil
import com.debuggermcp.fakes.FakeFile
import com.debuggermcp.fakes.FakeLineType
import com.debuggermcp.fakes.FakeProject
import com.debuggermcp.json.JsonArgs
import com.intellij.openapi.vfs.LocalFileSystem
import com.intellij.openapi.vfs.VirtualFile
import com.intellij.xdebugger.XDebuggerManager
import com.intellij.xdebugger.XDebuggerUtil
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout

/**
 * Issue 26: `after` in the IDE — op `set_master_breakpoint` makes a breakpoint wait for another
 * through XDependentBreakpointManager, as the Breakpoints dialog's "Disable until hit the
 * following breakpoint" panel saves it (XMasterBreakpointPanel.saveProperties), and the listing
 * names the master. The platform keeps it per session from there (XDebugSessionBreakpointManager).
 */
@Timeout(30)
class DependentBreakpointOpsTest {
    private val app = FakeApplication.install()
    private val project = FakeProject()
    private val main = FakeFile("/work/project/src/com/example/Main.java")
    private val manager = FakeBreakpointManager(app)

    init {
        app.services[XDebuggerUtil::class.java] = FakeDebuggerUtil(listOf(FakeLineType("java-line", 100, setOf(4, 11, 20), app)))
        project.services[XDebuggerManager::class.java] = FakeDebuggerManager(manager)
        app.services[LocalFileSystem::class.java] = object : LocalFileSystem() {
            override fun findFileByPath(path: String): VirtualFile? = if (path == main.path) main else null
            override fun refreshAndFindFileByPath(path: String): VirtualFile? = findFileByPath(path)
        }
    }

    @AfterEach
    fun clean() {
        app.dispose()
        assertEquals(emptyList<String>(), app.violations, "threading contracts broken")
    }

    private fun line(n: Long) = runBlocking { Breakpoints.addLine(project, JsonArgs(mapOf("file" to main.path, "line" to n))) }

    @Test
    fun `a breakpoint waits for its master as the dialog sets it, and the listing names the master`() {
        val master = line(12)["id"] as String
        val slave = line(21)["id"] as String
        val info = runBlocking { Breakpoints.setMaster(project, slave, master) }
        assertEquals(master, info["master"])
        val deps = manager.getDependentBreakpointManager()
        val (m, s) = manager.breakpoints.let { it[0] to it[1] }
        assertEquals(m, deps.getMasterBreakpoint(s))
        // leaveEnabled: once the master was hit, the slave stops as any other for the session.
        assertEquals(true, deps.isLeaveEnabled(s))
        val listed = runBlocking { Breakpoints.list(project) }.associateBy { it["id"] }
        assertEquals(master, listed[slave]!!["master"])
        assertNull(listed[master]!!["master"])

        // null clears it, as the dialog's "None" does (clearMasterBreakpoint).
        val cleared = runBlocking { Breakpoints.setMaster(project, slave, null) }
        assertNull(cleared["master"])
        assertNull(deps.getMasterBreakpoint(s))
    }

    @Test
    fun `a removed master frees its slave, and unknown or self masters are refused without a change`() {
        val master = line(12)["id"] as String
        val slave = line(21)["id"] as String
        runBlocking { Breakpoints.setMaster(project, slave, master) }
        runBlocking { Breakpoints.remove(project, master) }
        assertNull(runBlocking { Breakpoints.list(project) }.single()["master"])

        val calls = manager.getDependentBreakpointManager().calls.size
        val unknown = assertThrows(OpException::class.java) { runBlocking { Breakpoints.setMaster(project, slave, "b999") } }
        assertEquals(ErrorKind.NOT_FOUND, unknown.kind)
        val self = assertThrows(OpException::class.java) { runBlocking { Breakpoints.setMaster(project, slave, slave) } }
        assertEquals(ErrorKind.FAILED, self.kind)
        assertEquals(calls, manager.getDependentBreakpointManager().calls.size)
    }
}
