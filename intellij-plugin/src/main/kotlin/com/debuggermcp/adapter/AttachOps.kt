package com.debuggermcp.adapter

import com.intellij.execution.process.ProcessInfo
import com.intellij.openapi.project.Project
import com.intellij.openapi.util.UserDataHolderBase
import com.intellij.xdebugger.XDebugProcess
import com.intellij.xdebugger.XDebugSession
import com.intellij.xdebugger.XDebuggerManager
import com.intellij.xdebugger.XDebuggerManagerListener
import com.intellij.xdebugger.attach.LocalAttachHost
import com.intellij.xdebugger.attach.XAttachDebugger
import com.intellij.xdebugger.attach.XAttachDebuggerProvider
import com.intellij.xdebugger.attach.XAttachHost
import com.debuggermcp.lang.LanguageDebugSupport
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.delay
import java.util.concurrent.atomic.AtomicReference
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.TimeoutCancellationException
import kotlinx.coroutines.runInterruptible
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.withTimeoutOrNull

/**
 * Attach by pid (issue 29 item 5) as Run | Attach to Process… does it, through the platform's
 * `xdebugger.attachDebuggerProvider` extensions (Java's JavaAttachDebuggerProvider, Python's
 * PyLocalAttachDebuggerProvider, … — none of them a compile-time dependency):
 *
 * - collecting, off the EDT: the dialog lists the local host's processes and asks every provider
 *   that accepts the host for its debuggers, on Dispatchers.IO with no read action
 *   (AttachToProcessView.kt @793846bb014a8bbf20c4b307fe91a10ded22bb1c → collectAttachProcessItemsGroupByProcessInfo,
 *   AttachDialogCollectItemsUtil.kt @9b9ff165706956ffc3ed1f123b47b2ad43adc22b; the popup does the
 *   same in a Task.Backgroundable, AttachToProcessActionBase.java @7341dc1effbecb75c66ee9ae6796eabadf568f28);
 * - choosing: groups by their presentation group's order, the first debugger of the first group
 *   (AttachDialogProcessItem.getMainDebugger, AttachDialogProcessItem.kt @4d3d34bbb9e2b2343d244022a882278e2465f3e3),
 *   unless the agent named one;
 * - attaching, on the EDT: the dialog's OK action calls `attachDebugSession(project, host, info)`
 *   (attachToProcessWithDebugger, AttachDialogUtil.kt @0d756ce25492936f431ce64650c9fff6046a34f0);
 *   Java's runs a synthetic configuration with ProgramRunnerUtil.executeConfiguration and its
 *   session starts later (JavaAttachDebuggerProvider.attach, file id 3970949856), Python's starts
 *   it at once with startSessionAndShowTab (PyAttachToProcessDebugRunner, file id 7352581505);
 * - taking the session: not simply the first new one XDebuggerManager.TOPIC reports (a session the
 *   user starts meanwhile would be taken for the agent's), but one tied to this attach: see [ours].
 *
 * Where the dialog shows an ExecutionException in the Debug tool window
 * (ExecutionUtil.handleExecutionError), the agent gets its message.
 */
internal object AttachOps {
    /**
     * How long a debugger may take to start its session after attachDebugSession returned (Java's
     * starts from a later EDT event, Python's at once); under the core's default
     * launch_timeout_ms (30 s), so the agent gets this message rather than a timeout.
     */
    const val SESSION_WAIT_MS = 25_000L

    /**
     * The share of [SESSION_WAIT_MS] that listing the processes and asking the providers may take.
     * Both block (`ps`; Java's provider attaches to every local JVM to read its agent properties
     * and bounds each by itself only: JavaAttachDebuggerProvider.getProcessAttachInfo, `future.get(5,
     * TimeUnit.SECONDS)`, "attaching and getting info may hang", file id 3970949856), so the whole
     * collection is bounded here and interrupted when it is over (tests shorten it).
     */
    @Volatile
    internal var collectWaitMs = 10_000L

    /** The platform's attach debuggers, as the action reads them (the JUnit tests put fakes here). */
    @Volatile
    internal var providers: () -> List<XAttachDebuggerProvider> = { XAttachDebuggerProvider.EP.extensionList }

    /** The language supports asked which pid a session's debugger attached to (the tests put fakes here). */
    @Volatile
    internal var languageSupports: () -> List<LanguageDebugSupport> = { LanguageDebugSupport.all() }

    /** The host attached on: this machine, as the dialog's Local view (AttachToLocalProcessView.kt @a2f6c5eaff46b0babfdf30b335e58064b075cca5). */
    @Volatile
    internal var localHost: () -> XAttachHost = { LocalAttachHost.INSTANCE }

    suspend fun attach(project: Project, pid: Int, debuggerName: String?): Map<String, Any?> {
        val host = localHost()
        val begun = System.nanoTime()
        val wait = collectWaitMs
        val (process, debuggers) = withTimeoutOrNull(wait) { runInterruptible(Dispatchers.IO) { collect(project, pid, providers(), host) } }
            ?: failed("listing this machine's processes and asking the IDE's attach debuggers about process $pid took over ${wait / 1000.0} s " +
                "(a JVM that does not answer the attach API can hold them up); try again, or check the process in Run > Attach to Process")
        val debugger = choose(pid, process, debuggers, debuggerName)
        val name = debugger.debuggerDisplayName

        val before = Sessions.ofProject(project).toSet()
        val supports = languageSupports()
        val started = CompletableDeferred<XDebugSession>()
        // The EDT thread while it is inside attachDebugSession (see [ours]).
        val inCall = AtomicReference<Thread?>(null)
        val passedOver = java.util.concurrent.CopyOnWriteArrayList<String>()
        val connection = project.messageBus.connect()
        try {
            connection.subscribe(XDebuggerManager.TOPIC, object : XDebuggerManagerListener {
                override fun processStarted(debugProcess: XDebugProcess) {
                    val session = debugProcess.session
                    if (session in before) return
                    if (ours(debugProcess, pid, inCall.get() === Thread.currentThread(), supports)) started.complete(session)
                    else passedOver += session.sessionName
                }
            })
            // Non-modal, as a click does: Java's attach starts a run configuration (write-safe context needed).
            RunOps.startOnEdt {
                inCall.set(Thread.currentThread())
                try {
                    debugger.attachDebugSession(project, host, process)
                } catch (e: Exception) {
                    failed("$name could not attach to process $pid: ${e.message ?: e.javaClass.simpleName}")
                } finally {
                    inCall.set(null)
                }
            }
            val session = try {
                // One budget for collecting and starting, under the core's launch_timeout_ms.
                withTimeout(maxOf(1L, SESSION_WAIT_MS - (System.nanoTime() - begun) / 1_000_000)) {
                    started.await().also { awaitListed(project, it) }
                }
            } catch (_: TimeoutCancellationException) {
                val others = passedOver.toList()
                failed("$name started no debug session for process $pid within ${SESSION_WAIT_MS / 1000} s; see the IDE's Debug tool window for why" +
                    (if (others.isEmpty()) "" else " (session(s) started meanwhile and not tied to process $pid were left alone: ${others.joinToString()})"))
            }
            Sessions.data(session).attachedPid = pid
            return Sessions.info(session)
        } finally {
            connection.disconnect()
        }
    }

    /**
     * Whether a session that started while this attach waited is the attach's. The platform's
     * attach debuggers do not say which session they start (XAttachDebugger.attachDebugSession
     * returns nothing), so it is tied by what the platform does offer, most certain first:
     *  1. the pid its debugger records, when a language support can read it: Java's session
     *     keeps the pid only in its PidRemoteConnection (see JavaDebugSupport / PlatformJvm.attachedPid)
     *     and names the session `localhost:<port>` or `pid N` (LocalAttachInfo.getSessionName,
     *     JavaAttachDebuggerProvider.java, file id 3970949856): another pid means another attach
     *     (the user's own Attach to Process), however the session is named;
     *  2. a session started on the EDT inside our attachDebugSession call: Python's
     *     PyAttachToProcessDebugRunner.launch calls startSessionAndShowTab within it (file id
     *     7352581505), and XDebuggerManagerImpl.startSession publishes processStarted
     *     synchronously on the caller's thread (file id 5772351240); the EDT runs nothing else
     *     meanwhile, so no session the user starts can come from inside the call;
     *  3. otherwise, a session named for the pid as the platform's debuggers name theirs: `N`
     *     (Python: `startSessionAndShowTab(String.valueOf(myPid), …)`) or `pid N` (Java).
     * A session the user starts from a run configuration meanwhile meets none of these.
     */
    internal fun ours(process: XDebugProcess, pid: Int, startedInCall: Boolean, supports: List<LanguageDebugSupport>): Boolean {
        supports.firstNotNullOfOrNull { s -> try { s.attachedPid(process) } catch (_: Exception) { null } }?.let { return it == pid }
        if (startedInCall) return true
        val name = process.session.sessionName.trim()
        return name == pid.toString() || Regex("""(?i)\bpid\s*:?\s*$pid\b""").containsMatchIn(name)
    }

    /**
     * XDebuggerManagerImpl.startSession publishes processStarted right after the debugger's
     * process starts and only then inits the session (its tab, XDebugSessionImpl.init) and lists
     * it (`mySessions.put`: XDebuggerManagerImpl.java, file id 5772351240), all in one EDT event.
     * Until then `sessions` would not list what the attach returned and the session has no debug
     * process yet; an EDT event posted now runs after that event (issue 27 N1).
     */
    private suspend fun awaitListed(project: Project, session: XDebugSession) {
        while (!Ide.onEdt { session.isStopped || session in Sessions.ofProject(project) }) delay(20)
    }

    /** The process and every debugger that can attach to it, in the dialog's order. */
    private fun collect(project: Project, pid: Int, providers: List<XAttachDebuggerProvider>, host: XAttachHost): Pair<ProcessInfo, List<XAttachDebugger>> {
        val processes = try {
            host.getProcessList()
        } catch (e: InterruptedException) {
            throw e // the collection's bound ran out (attach): runInterruptible turns this into its cancellation
        } catch (e: Exception) {
            failed("could not list this machine's processes: ${e.message ?: e.javaClass.simpleName}")
        }
        val process = processes.firstOrNull { it.pid == pid }
            ?: notFound("no process with pid $pid is running on this machine (it may have ended); find it with `ps` or `pgrep -f`")
        val applicable = providers.filter { it.isAttachHostApplicable(host) }
        val context = UserDataHolderBase()
        // Per presentation group in the order groups first appear, then by group order, as the
        // dialog's AttachDialogProcessItem.create sorts its groups.
        val groups = LinkedHashMap<Any, Pair<Int, MutableList<XAttachDebugger>>>()
        for (provider in applicable) {
            val found = provider.getAvailableDebuggers(project, host, process, context)
            if (found.isEmpty()) continue
            val group = provider.presentationGroup
            groups.getOrPut(group) { group.order to mutableListOf() }.second += found
        }
        val debuggers = groups.values.sortedBy { it.first }.flatMap { it.second }
        if (debuggers.isEmpty()) {
            val installed = applicable.map { it.presentationGroup.groupName.ifBlank { it.javaClass.simpleName } }.distinct()
            unsupported("no debugger of the IDE can attach to process $pid (${process.executableName}): " +
                (if (installed.isEmpty()) "no attach debugger is installed" else "the installed ones (${installed.joinToString()}) do not take it") +
                "; a JVM must run with -agentlib:jdwp=transport=dt_socket,server=y, a Python needs the Python plugin")
        }
        return process to debuggers
    }

    private fun choose(pid: Int, process: ProcessInfo, debuggers: List<XAttachDebugger>, wanted: String?): XAttachDebugger {
        if (wanted.isNullOrBlank()) return debuggers.first()
        return debuggers.firstOrNull { it.debuggerDisplayName.contains(wanted, ignoreCase = true) }
            ?: notFound("no debugger named like '$wanted' can attach to process $pid (${process.executableName}); these can: " +
                debuggers.joinToString { it.debuggerDisplayName } + " (pass one as adapter, or none for the first)")
    }
}
