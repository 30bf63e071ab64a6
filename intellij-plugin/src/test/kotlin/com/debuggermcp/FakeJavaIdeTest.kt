package com.debuggermcp

import com.debuggermcp.fakes.DebuggerThread
import com.debuggermcp.fakes.FakeApplication
import com.debuggermcp.fakes.FakeDebuggerUtil
import com.debuggermcp.fakes.FakeFile
import com.debuggermcp.fakes.FakeProject
import com.intellij.xdebugger.XDebuggerUtil
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals

/**
 * The set-up the audits' tests of Java ops share: the fake Application (its threading contracts
 * checked after each test), a debugger thread, a project with one Java file, and the
 * XDebuggerUtil service the ops look positions up through.
 */
abstract class FakeJavaIdeTest {
    protected val app = FakeApplication.install()
    protected val debugger = DebuggerThread()
    protected val project = FakeProject()
    protected val main = FakeFile("/work/project/src/com/example/Main.java")

    init {
        app.services[XDebuggerUtil::class.java] = FakeDebuggerUtil(emptyList())
    }

    @AfterEach
    fun clean() {
        app.dispose()
        debugger.close()
        assertEquals(emptyList<String>(), app.violations, "threading contracts broken")
    }
}
