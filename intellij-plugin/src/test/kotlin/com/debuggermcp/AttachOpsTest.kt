package com.debuggermcp

import com.debuggermcp.adapter.AttachOps
import com.debuggermcp.adapter.ErrorKind
import com.debuggermcp.adapter.OpException
import com.debuggermcp.adapter.RunOps
import com.debuggermcp.adapter.Sessions
import com.debuggermcp.fakes.FakeApplication
import com.debuggermcp.fakes.FakeAttachGroup
import com.debuggermcp.fakes.FakeAttachProvider
import com.debuggermcp.fakes.FakeLocalHost
import com.debuggermcp.fakes.FakeProcessHandler
import com.debuggermcp.fakes.FakeProject
import com.debuggermcp.json.JsonArgs
import com.debuggermcp.fakes.FakeJvm
import com.debuggermcp.fakes.FakeSession
import com.debuggermcp.java.JavaDebugSupport
import com.debuggermcp.java.JvmFrames
import com.intellij.openapi.application.ModalityState
import com.intellij.xdebugger.XDebugProcess
import org.junit.jupiter.api.Assertions.fail
import com.intellij.execution.process.ProcessInfo
import com.intellij.xdebugger.XDebugSession
import com.intellij.xdebugger.XDebuggerManager
import com.intellij.xdebugger.attach.XAttachDebuggerProvider
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.TimeUnit

/**
 * Attach by pid (issue 29 item 5) through `launch` with `attach: {pid}`, against attach debugger
 * providers that behave like Java's and Python's (fakes/AttachFakes.kt) on a local host that lists
 * processes like LocalAttachHost, under the fake Application's threading contracts: collecting off
 * the EDT, attaching on the EDT in a write-safe context, as Attach to Process does.
 */
@Timeout(30)
class AttachOpsTest {
    private val app = FakeApplication.install()
    private val project = FakeProject()
    private val running = CopyOnWriteArrayList<XDebugSession>()

    private val jvm = ProcessInfo(4242, "/usr/bin/java -agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=5005 demo.App", "java", "")
    private val python = ProcessInfo(4343, "/usr/bin/python3 app.py", "python3", "app.py")
    private val host = FakeLocalHost(app, listOf(jvm, python))

    private val attachProviders = CopyOnWriteArrayList<FakeAttachProvider>()

    /**
     * Java's session name (DebuggerLocalAttachInfo.getSessionName, JavaAttachDebuggerProvider.java,
     * file id 3970949856): the agent's address when the command line fixes one (`*:` trimmed,
     * `localhost:` added to a bare port), else `pid N`.
     */
    private fun javaSessionName(p: ProcessInfo): String {
        val address = Regex("""address=([^,\s]+)""").find(p.commandLine)?.groupValues?.get(1)?.removePrefix("*:") ?: return "pid ${p.pid}"
        return if (":" in address) address else "localhost:$address"
    }

    /**
     * An attach provider whose sessions go to [running]: Java's (asynchronous; its handler detaches
     * by default and its destroy kills the target; named by [javaSessionName]) or Python's
     * (synchronous; its handler destroys by default and leaves the target running; named `N`).
     */
    private fun provider(java: Boolean, group: FakeAttachGroup, debuggerName: String, accepts: (ProcessInfo) -> Boolean, failure: String?) = FakeAttachProvider(
        app, project, group, debuggerName, accepts = accepts, asynchronous = java,
        handler = { FakeProcessHandler(detachDefault = java, destroyKillsTarget = java) }, failure = failure,
        sessionName = if (java) ::javaSessionName else { p -> "${p.pid}" },
    ).also { it.running = running }

    private fun java(failure: String? = null) = provider(
        java = true, FakeAttachGroup(-20, "Java"), "Java Debugger",
        accepts = { "-agentlib:jdwp" in it.commandLine && "server=y" in it.commandLine }, failure = failure,
    ).also { attachProviders += it }

    /**
     * The Java plugin's support as installed with Java's attach provider: the pid a Java debug
     * process's connection holds (PlatformJvm.attachedPid), here what the fake provider put there.
     */
    private val javaSupport = JavaDebugSupport(object : JvmFrames by FakeJvm(emptyMap(), emptySet()) {
        override fun attachedPid(process: XDebugProcess): String? = attachProviders.firstNotNullOfOrNull { it.connectionPid[process] }
    })

    private fun pythonProvider(order: Int = 0, failure: String? = null, accepts: (ProcessInfo) -> Boolean = { "python" in it.commandLine }) =
        provider(java = false, FakeAttachGroup(order, "Python"), "Python Debugger", accepts, failure)

    init {
        project.services[XDebuggerManager::class.java] = object : XDebuggerManager() {
            override fun getBreakpointManager() = throw UnsupportedOperationException("not used by attach")
            override fun getDebugSessions(): Array<XDebugSession> = running.toTypedArray()
            override fun getCurrentSession(): XDebugSession? = running.firstOrNull()
        }
        AttachOps.localHost = { host }
        AttachOps.languageSupports = { listOf(javaSupport) }
    }

    private fun providers(vararg p: XAttachDebuggerProvider) {
        AttachOps.providers = { p.toList() }
    }

    private fun attach(pid: Int, adapter: String? = null): Map<String, Any?> = runBlocking {
        RunOps.launch(project, JsonArgs(mapOf("attach" to mapOf("pid" to pid.toLong()), "mode" to "debug", "adapter" to adapter)))
    }

    private fun refused(pid: Int, adapter: String? = null): OpException = assertThrows(OpException::class.java) { attach(pid, adapter) }

    @AfterEach
    fun clean() {
        AttachOps.providers = { XAttachDebuggerProvider.EP.extensionList }
        AttachOps.localHost = { com.intellij.xdebugger.attach.LocalAttachHost.INSTANCE }
        AttachOps.collectWaitMs = 10_000L
        AttachOps.languageSupports = { com.debuggermcp.lang.LanguageDebugSupport.all() }
        app.dispose()
        assertEquals(emptyList<String>(), app.violations, "threading contracts broken")
    }

    @Test
    fun `a process listing that hangs ends the attach with a clear error within its own bound, and is interrupted (RISK 7)`() {
        // As a JVM that does not answer VirtualMachine.attach holds up Java's provider: blocking, interruptible.
        val interrupted = java.util.concurrent.CountDownLatch(1)
        AttachOps.localHost = {
            object : com.intellij.xdebugger.attach.LocalAttachHost() {
                override fun getProcessList(): List<com.intellij.execution.process.ProcessInfo> {
                    try {
                        Thread.sleep(60_000)
                    } catch (e: InterruptedException) {
                        interrupted.countDown()
                        throw e
                    }
                    return listOf(jvm)
                }
            }
        }
        AttachOps.collectWaitMs = 500
        providers(java())
        val begun = System.nanoTime()
        val e = refused(4242)
        assertTrue((System.nanoTime() - begun) / 1_000_000 < 10_000, "the attach waited for the hung listing")
        assertTrue(e.message!!.contains("took over 0.5 s") && e.message!!.contains("4242"), e.message)
        assertTrue(interrupted.await(5, java.util.concurrent.TimeUnit.SECONDS), "the hung listing was left running")
    }

    @Test
    fun `a JVM is attached by the Java debugger and its session is reported attached with its pid`() {
        val java = java()
        providers(pythonProvider(), java)
        val info = attach(4242)
        val session = java.started.single()
        assertEquals(Sessions.id(session), info["id"])
        assertEquals(true, info["attached"])
        assertEquals(4242, info["process_id"])
        assertEquals("localhost:5005", info["name"])
        // The session list says so too (the fake lists a session only after its init, as
        // XDebuggerManagerImpl does: N1), and the attach left no listener behind.
        val listed = RunOps.sessions(project).singleOrNull { it["id"] == info["id"] }
            ?: fail("the attached session is not listed when the attach returns (listed: ${RunOps.sessions(project).map { it["name"] }})")
        assertEquals(true, listed["attached"])
        assertEquals(0, project.bus.subscribers(XDebuggerManager.TOPIC), "attach left its listener subscribed")
    }

    @Test
    fun `a session the user starts during the attach is not taken for the agent's (W3)`() {
        val java = java()
        providers(java)
        // The user's Debug click on run configuration "App": its session starts after our
        // attachDebugSession returned and before Java's own session (which starts from a later EDT event).
        val user = FakeSession(project, app, null, handler = FakeProcessHandler(detachDefault = false, destroyKillsTarget = true), name = "App")
        java.onAttach = { app.invokeLater({ java.startSession(app, project, user, running) }, ModalityState.nonModal()) }
        val info = attach(4242)
        val agents = java.started.single()
        assertEquals(Sessions.id(agents), info["id"], "the attach returned the user's session '${info["name"]}'")
        assertEquals("localhost:5005", info["name"])
        assertEquals(null, Sessions.data(user).attachedPid, "the user's session was marked attached")
        assertEquals(null, RunOps.sessions(project).single { it["name"] == "App" }["attached"])
    }

    @Test
    fun `the user's own attach to another JVM during ours is not taken, the session is tied by pid (W3)`() {
        val other = ProcessInfo(4444, "/usr/bin/java -agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=*:5006 other.App", "java", "")
        AttachOps.localHost = { FakeLocalHost(app, listOf(jvm, other)) }
        val java = java()
        providers(java)
        // Run | Attach to Process on JVM 4444 while ours waits: also Java's, named by its address, pid 4444 in its connection.
        val users = FakeSession(project, app, null, handler = FakeProcessHandler(detachDefault = true, destroyKillsTarget = true), name = javaSessionName(other))
        java.onAttach = { app.invokeLater({ java.startSession(app, project, users, running, connectionPid = "4444") }, ModalityState.nonModal()) }
        val info = attach(4242)
        assertEquals(Sessions.id(java.started.single()), info["id"], "the attach returned the session attached to pid 4444 ('${info["name"]}')")
        assertEquals(null, Sessions.data(users).attachedPid)
    }

    @Test
    fun `a Python session started inside the attach call is the agent's and is listed when the attach returns`() {
        val py = pythonProvider()
        providers(py)
        val info = attach(4343)
        assertEquals(Sessions.id(py.started.single()), info["id"])
        assertEquals("4343", info["name"])
        assertTrue(RunOps.sessions(project).any { it["id"] == info["id"] },
            "the attach returned before XDebuggerManager listed its session (processStarted comes before the session's init)")
    }

    @Test
    fun `the first debugger in the dialog's group order attaches, unless the agent names another`() {
        // Both take this process; Java's group (order -20) comes before the one of order 10 although listed second.
        val both = { p: ProcessInfo -> p.pid == 4242 }
        val py = pythonProvider(order = 10, accepts = both)
        val java = java()
        providers(py, java)
        attach(4242)
        assertEquals(1, java.attachCalls.get())
        assertEquals(0, py.attachCalls.get())

        val info = attach(4242, adapter = "python")
        assertEquals(1, py.attachCalls.get(), "the debugger the agent named did not attach")
        assertEquals(Sessions.id(py.started.single()), info["id"])

        val e = refused(4242, adapter = "gdb")
        assertEquals(ErrorKind.NOT_FOUND, e.kind)
        assertTrue(e.message!!.contains("these can: Java Debugger, Python Debugger"), e.message)
    }

    @Test
    fun `debuggers of one group stay together, in the order their group first appears`() {
        // AttachDialogProcessItem.create: items keyed by presentation group (first appearance), then sorted by order.
        val shared = FakeAttachGroup(0, "Native")
        fun provider(group: FakeAttachGroup, name: String) = FakeAttachProvider(
            app, project, group, name, accepts = { it.pid == 4242 }, asynchronous = false,
            handler = { FakeProcessHandler(true, true) },
        ).also { it.running = running }
        providers(provider(shared, "Alpha"), provider(FakeAttachGroup(0, "Other"), "Beta"), provider(shared, "Gamma"))
        val e = refused(4242, adapter = "delta")
        assertTrue(e.message!!.contains("these can: Alpha, Gamma, Beta"), e.message)
    }

    @Test
    fun `no such pid is refused by name before any debugger is asked`() {
        val java = java()
        providers(java)
        val e = refused(999_999)
        assertEquals(ErrorKind.NOT_FOUND, e.kind)
        assertTrue(e.message!!.contains("no process with pid 999999"), e.message)
        assertEquals(0, java.attachCalls.get())
        assertEquals(1, host.listed.get())
    }

    @Test
    fun `a process no installed debugger takes is refused naming the installed ones`() {
        val remoteOnly = FakeAttachProvider(
            app, project, FakeAttachGroup(5, "WSL"), "WSL Debugger", accepts = { true }, asynchronous = false,
            handler = { FakeProcessHandler(true, true) }, localOnly = false,
        )
        // Neither Java (no JDWP agent) nor Python (not a python command line) takes a plain JVM.
        val plain = ProcessInfo(4545, "/usr/bin/java demo.App", "java", "demo.App")
        AttachOps.localHost = { FakeLocalHost(app, listOf(plain)) }
        providers(java(), pythonProvider())
        val e = refused(4545)
        assertEquals(ErrorKind.UNSUPPORTED, e.kind)
        assertTrue(e.message!!.contains("no debugger of the IDE can attach to process 4545 (java)"), e.message)
        assertTrue(e.message!!.contains("the installed ones (Java, Python) do not take it"), e.message)
        assertTrue(e.message!!.contains("-agentlib:jdwp"), e.message)
        assertEquals(0, remoteOnly.attachCalls.get())

        providers()
        assertTrue(refused(4545).message!!.contains("no attach debugger is installed"))
    }

    @Test
    fun `the debugger's own failure is the agent's error and leaves nothing subscribed`() {
        val py = pythonProvider(failure = "Failed to find free socket port")
        providers(py)
        val e = refused(4343)
        assertEquals(ErrorKind.FAILED, e.kind)
        assertEquals("Python Debugger could not attach to process 4343: Failed to find free socket port", e.message)
        assertTrue(py.started.isEmpty())
        assertEquals(0, project.bus.subscribers(XDebuggerManager.TOPIC))
    }

    @Test
    fun `stopping an attached session detaches, whichever way its handler leans`() = runBlocking {
        // Java's handler detaches by default: the IDE's Stop (XDebugSessionImpl.stop) detaches.
        val java = java()
        val py = pythonProvider()
        providers(java, py)
        val javaId = attach(4242)["id"] as String
        RunOps.stop(javaId)
        val javaHandler = java.started.single().debugProcess.processHandler as FakeProcessHandler
        assertTrue(javaHandler.detached && !javaHandler.destroyed, "the JVM was not detached from")
        assertTrue(javaHandler.targetAlive)

        // Python's does not (PyRemoteDebugProcessHandler.detachIsDefault is false): Stop would
        // destroy; the agent's stop must still detach.
        val pyId = attach(4343)["id"] as String
        RunOps.stop(pyId)
        val pyHandler = py.started.single().debugProcess.processHandler as FakeProcessHandler
        assertTrue(pyHandler.detached, "the Python process was not detached from")
        assertFalse(pyHandler.destroyed, "stop destroyed an attached session's handler")
    }

    @Test
    fun `terminate ends the attached process itself`() = runBlocking {
        // A real process: terminate ends it by pid, whatever the debugger's handler does.
        val child = ProcessBuilder("sleep", "60").start()
        try {
            val pid = child.pid().toInt()
            val target = ProcessInfo(pid, "python3 -c 'import time; time.sleep(60)'", "python3", "")
            AttachOps.localHost = { FakeLocalHost(app, listOf(target)) }
            val py = pythonProvider()
            providers(py)
            val id = attach(pid)["id"] as String
            RunOps.terminate(id)
            assertTrue(child.waitFor(10, TimeUnit.SECONDS), "the attached process still runs after terminate")
            assertTrue(py.started.single().isStopped, "the session did not end")
        } finally {
            child.destroyForcibly()
        }
    }
}
