package com.debuggermcp.fakes

import com.intellij.execution.process.ProcessHandler
import com.intellij.execution.process.ProcessInfo
import com.intellij.openapi.application.ModalityState
import com.intellij.openapi.project.Project
import com.intellij.openapi.util.UserDataHolder
import com.intellij.xdebugger.XDebugProcess
import com.intellij.xdebugger.XDebugSession
import com.intellij.xdebugger.XDebuggerManager
import com.intellij.xdebugger.attach.LocalAttachHost
import com.intellij.xdebugger.attach.XAttachDebugger
import com.intellij.xdebugger.attach.XAttachDebuggerProvider
import com.intellij.xdebugger.attach.XAttachHost
import com.intellij.xdebugger.attach.XAttachPresentationGroup
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.atomic.AtomicInteger

/**
 * This machine's processes as LocalAttachHost lists them (OSProcessUtil.getProcessList runs `ps`:
 * LocalAttachHost.java @d990b7fbda5743244708f7c9afcef23c2dc68feb), which the Attach to Process
 * dialog does on Dispatchers.IO (AttachDialogCollectItemsUtil.kt @9b9ff165706956ffc3ed1f123b47b2ad43adc22b):
 * never on the EDT.
 */
class FakeLocalHost(private val app: FakeApplication, private val processes: List<ProcessInfo>) : LocalAttachHost() {
    val listed = AtomicInteger()

    override fun getProcessList(): List<ProcessInfo> {
        app.requireBackground("LocalAttachHost.getProcessList")
        listed.incrementAndGet()
        return processes
    }
}

/**
 * ProcessHandler's state machine (ProcessHandler.java @ae187b7fc867815d865a030173cc4189d61dd958:
 * destroyProcess/detachProcess act only while running, then the handler is terminated) with what
 * the attach handlers do to the process attached to:
 * - Java's RemoteDebugProcessHandler (file id 8088963667): detachIsDefault() true; detaching
 *   disposes the JDWP connection (stop(false): the VM runs on), destroying exits the VM (stop(true));
 * - Python's PyRemoteDebugProcessHandler (file id 551540466): detachIsDefault() false; destroying
 *   only stops the debug process's connection and the attached process runs on.
 */
class FakeProcessHandler(private val detachDefault: Boolean, private val destroyKillsTarget: Boolean) : ProcessHandler() {
    @Volatile private var state = "running"
    @Volatile var detached = false
    @Volatile var destroyed = false

    /** Whether the process attached to still runs. */
    val targetAlive: Boolean get() = !(destroyed && destroyKillsTarget)

    override fun detachIsDefault(): Boolean = detachDefault
    override fun isProcessTerminated(): Boolean = state == "terminated"
    override fun isProcessTerminating(): Boolean = state == "terminating"

    @Synchronized
    override fun destroyProcess() = end { destroyed = true }

    @Synchronized
    override fun detachProcess() = end { detached = true }

    /** Destroying and detaching alike act only while running, then the handler is terminated. */
    private fun end(mark: () -> Unit) {
        if (state != "running") return
        state = "terminating"
        mark()
        state = "terminated"
    }
}

/** A presentation group: order and name (JavaAttachDebuggerProvider's is "Java", order -20: file id 3970949856). */
class FakeAttachGroup(private val order: Int, private val name: String) : XAttachPresentationGroup<ProcessInfo> {
    override fun getOrder(): Int = order
    override fun getGroupName(): String = name
    override fun compare(a: ProcessInfo, b: ProcessInfo): Int = a.pid.compareTo(b.pid)
}

/**
 * An attach debugger provider like the platform's:
 * - [accepts]: which processes get a debugger (Java: a JVM whose command line runs a JDWP agent
 *   with server=y, JavaAttachDebuggerProvider.getProcessAttachInfo; Python: the command line
 *   contains the attach filter, "python" by default, PyLocalAttachDebuggerProvider, file id 3033560378);
 * - only the local host is applicable (both: `attachHost instanceof LocalAttachHost`);
 * - getAvailableDebuggers off the EDT (Java attaches to each VM there, on a pooled thread);
 * - the debugger's attachDebugSession on the EDT: [asynchronous] like Java's (executeConfiguration,
 *   the session starts later, from an EDT event) or at once like Python's (startSessionAndShowTab,
 *   processStarted published before attachDebugSession returns); [failure] thrown like an
 *   ExecutionException ("failed to find free socket port", PyAttachToProcessDebugRunner, file id 7352581505);
 * - the session starts as XDebuggerManagerImpl.startSession starts it (XDebuggerManagerImpl.java,
 *   file id 5772351240), in one EDT event: processStarted is published, then the session is
 *   initialised (XDebugSessionImpl.init builds its tab: here it lasts until another EDT event
 *   waits, at most 2 s, the worst case for a thread that reads the session list meanwhile), and
 *   only then listed (`mySessions.put`: [running]);
 * - it is named as the debuggers name theirs: Java's `pid N` (LocalAttachInfo.getSessionName, for
 *   an agent without a fixed address; `localhost:<port>` otherwise: [sessionName]), Python's `N`
 *   (startSessionAndShowTab(String.valueOf(myPid), …));
 * - [javaConnection]: a Java session's debug process keeps the pid in its connection
 *   (DebuggerLocalAttachInfo.createConnection: `new PidRemoteConnection(myPid, …)`,
 *   JavaAttachDebuggerProvider.java, file id 3970949856), read through [connectionPid].
 */
class FakeAttachProvider(
    private val app: FakeApplication,
    private val project: FakeProject,
    private val group: XAttachPresentationGroup<ProcessInfo>,
    private val debuggerName: String,
    private val accepts: (ProcessInfo) -> Boolean,
    private val asynchronous: Boolean,
    private val handler: () -> FakeProcessHandler,
    private val failure: String? = null,
    private val localOnly: Boolean = true,
    private val javaConnection: Boolean = asynchronous,
    private val sessionName: (ProcessInfo) -> String = { if (asynchronous) "pid ${it.pid}" else "${it.pid}" },
) : XAttachDebuggerProvider {
    /** What each started debug process's DebugProcessImpl.getConnection() holds: PidRemoteConnection's pid. */
    val connectionPid = java.util.concurrent.ConcurrentHashMap<XDebugProcess, String>()

    /** Runs on the EDT inside attachDebugSession, before the debugger starts anything (a test's other events). */
    @Volatile var onAttach: () -> Unit = {}

    /** Sessions this provider's debugger started. */
    val started = CopyOnWriteArrayList<FakeSession>()
    val attachCalls = AtomicInteger()

    /** What XDebuggerManagerImpl keeps: the project's running sessions (the test's XDebuggerManager lists them). */
    var running: MutableList<XDebugSession> = CopyOnWriteArrayList()

    override fun getPresentationGroup(): XAttachPresentationGroup<ProcessInfo> = group
    override fun isAttachHostApplicable(attachHost: XAttachHost): Boolean = !localOnly || attachHost is LocalAttachHost

    override fun getAvailableDebuggers(project: Project, attachHost: XAttachHost, processInfo: ProcessInfo, contextHolder: UserDataHolder): List<XAttachDebugger> {
        app.requireBackground("XAttachDebuggerProvider.getAvailableDebuggers")
        if (!accepts(processInfo)) return emptyList()
        return listOf(object : XAttachDebugger {
            override fun getDebuggerDisplayName(): String = debuggerName
            override fun attachDebugSession(project: Project, attachHost: XAttachHost, processInfo: ProcessInfo) {
                app.requireEdt("XAttachDebugger.attachDebugSession")
                // Java's starts a run configuration (ProgramRunnerUtil.executeConfiguration), which needs a write-safe context.
                app.requireWriteSafe("XAttachDebugger.attachDebugSession")
                attachCalls.incrementAndGet()
                onAttach()
                failure?.let { throw Exception(it) }
                val session = FakeSession(this@FakeAttachProvider.project, app, null, handler = handler(), name = sessionName(processInfo))
                val publish = { startSession(app, this@FakeAttachProvider.project, session, running, started, if (javaConnection) processInfo.pid.toString() else null) }
                if (asynchronous) app.invokeLater({ publish() }, ModalityState.nonModal()) else publish()
            }
        })
    }

    /** XDebuggerManagerImpl.startSession, on the EDT: processStarted, then init, then listed (see the class comment). */
    fun startSession(app: FakeApplication, project: FakeProject, session: FakeSession, running: MutableList<XDebugSession>, started: MutableList<FakeSession>? = null, connectionPid: String? = null) {
        app.requireEdt("XDebuggerManager.startSession")
        val process = object : XDebugProcess(session) {}
        connectionPid?.let { this.connectionPid[process] = it }
        started?.add(session)
        project.bus.publish(XDebuggerManager.TOPIC) { it.processStarted(process) }
        val initUntil = System.nanoTime() + 2_000_000_000L
        while (app.edtEventsWaiting() == 0 && System.nanoTime() < initUntil) Thread.sleep(5)
        running += session
    }
}
