package com.debuggermcp.fakes

import com.intellij.execution.configurations.RunProfile
import com.intellij.execution.runners.ExecutionEnvironment
import com.intellij.openapi.project.Project
import com.intellij.openapi.roots.ProjectFileIndex
import com.intellij.openapi.vfs.VirtualFile
import com.intellij.util.messages.MessageBus
import com.intellij.xdebugger.XDebugProcess
import com.intellij.xdebugger.XDebugSession
import com.intellij.xdebugger.XDebugSessionListener
import com.intellij.xdebugger.XSourcePosition
import com.intellij.xdebugger.frame.XExecutionStack
import com.intellij.xdebugger.frame.XStackFrame
import com.intellij.xdebugger.frame.XSuspendContext
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.CopyOnWriteArrayList

/** A project whose services are fakes (XDebuggerManager, ProjectFileIndex, PsiManager ...). */
class FakeProject(private val base: String = "/work/project") : Project {
    val services = ConcurrentHashMap<Class<*>, Any>()

    init {
        // Project sources are under the base path; anything else (the JDK) is library code.
        services[ProjectFileIndex::class.java] = object : ProjectFileIndex {
            override fun isInContent(file: VirtualFile): Boolean = file.path.startsWith("$base/")
        }
    }

    /**
     * The sessions the IDE holds: XDebuggerManagerImpl keeps each session in its `mySessions` map
     * from `startSession` until `removeSession` when it stops
     * (platform/xdebugger-impl/src/com/intellij/xdebugger/impl/XDebuggerManagerImpl.java @8fd1e1f4).
     * The plugin's own registry holds sessions weakly (Sessions' IdRegistry): without this strong
     * hold, a test that keeps only the session id saw its session collected mid-test and the
     * lookup fall through to ProjectManager's stub (the JavaDebuggerAuditTest flake).
     */
    val liveSessions: MutableList<XDebugSession> = CopyOnWriteArrayList()

    override fun getName(): String = "project"
    override fun getBasePath(): String = base
    val bus = FakeMessageBus()
    override fun getMessageBus(): MessageBus = bus
    override fun isDisposed(): Boolean = false
    @Suppress("UNCHECKED_CAST")
    override fun <T> getService(serviceClass: Class<T>): T =
        (services[serviceClass] ?: throw IllegalStateException("no fake project service ${serviceClass.name}")) as T
    override fun dispose() {}
}

/**
 * A paused XDebugSession (XDebugSessionImpl's observable behaviour for the calls the adapter
 * makes): the current frame starts as the active stack's top frame, and `setCurrentStackFrame`
 * switches it. Commands are recorded with the thread they ran on: the platform's own actions
 * (XDebuggerActionBase → the session's methods; XFramesView.processFrameSelection) call them on
 * the EDT, and the adapter must too.
 */
class FakeSession(
    private val project: Project,
    private val app: FakeApplication,
    @Volatile private var context: XSuspendContext?,
    private val profile: RunProfile? = null,
    private val environment: ExecutionEnvironment? = null,
    /** The debug process's handler ([FakeProcessHandler]); without one getDebugProcess throws. */
    private val handler: com.intellij.execution.process.ProcessHandler? = null,
    private val name: String = "Main",
) : XDebugSession {
    init {
        (project as? FakeProject)?.liveSessions?.add(this)
    }

    /** [active]: the suspend context's active stack when the command ran (what a Java step steps). */
    class Command(val name: String, val stack: XExecutionStack? = null, val frame: XStackFrame? = null, val isTop: Boolean? = null, val active: XExecutionStack? = null, val current: XStackFrame? = null, val observed: Any? = null)

    /** Debugger state a test reads when each command runs (e.g. the Java debugger context's frame). */
    @Volatile var observe: (() -> Any?)? = null

    val commands = CopyOnWriteArrayList<Command>()

    /** The debug process's stackFrameChanged listener (e.g. [JavaLikeFrameSwitch]); runs on the EDT like the session's. */
    @Volatile var onFrameSelected: ((XExecutionStack, XStackFrame) -> Unit)? = null
    @Volatile private var current: XStackFrame? = context?.activeExecutionStack?.topFrame

    private fun command(c: Command) {
        app.requireEdt("XDebugSession.${c.name}")
        app.requireNotAnyModality("XDebugSession.${c.name}")
        commands += Command(c.name, c.stack, c.frame, c.isTop, context?.activeExecutionStack, current, observe?.invoke())
    }

    override fun getProject(): Project = project
    private val process: XDebugProcess? = handler?.let { h ->
        object : XDebugProcess(this) {
            override fun doGetProcessHandler() = h
        }
    }
    override fun getDebugProcess(): XDebugProcess = process ?: throw UnsupportedOperationException("no debug process in the fake session")
    /**
     * XDebugSessionImpl.updateSuspendContext: `myPaused = !(context is XSteppingSuspendContext)`;
     * isSuspended() is `paused && suspendContext != null` (XDebugSessionImpl.kt, file id 3494500063).
     */
    @Volatile private var paused = true
    private val listeners = CopyOnWriteArrayList<XDebugSessionListener>()

    override fun isSuspended(): Boolean = paused && context != null
    override fun isPaused(): Boolean = paused

    /**
     * XDebugSessionImpl.positionReached → positionReachedInternal: the context becomes the
     * session's, its active stack's top frame the current frame, paused unless [stepping] (a
     * JavaSteppingSuspendContext is an XSteppingSuspendContext), and sessionPaused fires for
     * either, on the caller's (debugger) thread.
     */
    fun positionReached(newContext: XSuspendContext, stepping: Boolean = false) {
        context = newContext
        current = newContext.activeExecutionStack?.topFrame
        paused = !stepping
        listeners.forEach { it.sessionPaused() }
    }

    /**
     * XDebugSessionImpl.updateSuspendContext (XDebugSessionImpl.kt, file id 66766421292): the
     * context becomes the session's, its active stack's top frame the current frame, paused
     * unless stepping; no sessionPaused. JavaDebugProcess calls it on the manager thread.
     */
    fun updateSuspendContext(newContext: XSuspendContext) {
        context = newContext
        current = newContext.activeExecutionStack?.topFrame
        paused = true
    }
    @Volatile private var ended = false

    /** XDebugSessionImpl.stopImpl: the session is stopped, then sessionStopped fires to its listeners. */
    fun ended() {
        ended = true
        (project as? FakeProject)?.liveSessions?.remove(this)
        listeners.forEach { it.sessionStopped() }
    }
    override fun isStopped(): Boolean = ended || (handler?.isProcessTerminated ?: false)
    override fun getCurrentStackFrame(): XStackFrame? = current
    override fun getSuspendContext(): XSuspendContext? = context
    override fun getCurrentPosition(): XSourcePosition? = current?.sourcePosition
    override fun getTopFramePosition(): XSourcePosition? = context?.activeExecutionStack?.topFrame?.sourcePosition
    override fun stepOver(ignoreBreakpoints: Boolean) = command(Command("stepOver"))
    override fun stepInto() = command(Command("stepInto"))
    override fun stepOut() = command(Command("stepOut"))
    override fun forceStepInto() = command(Command("forceStepInto"))
    override fun runToPosition(position: XSourcePosition, ignoreBreakpoints: Boolean) = command(Command("runToPosition"))
    override fun pause() = command(Command("pause"))
    override fun resume() = command(Command("resume"))
    override fun setCurrentStackFrame(executionStack: XExecutionStack, frame: XStackFrame, isTopFrame: Boolean) {
        command(Command("setCurrentStackFrame", executionStack, frame, isTopFrame))
        current = frame
        // XDebugSessionImpl.setCurrentStackFrame fires stackFrameChanged to the session's listeners.
        onFrameSelected?.invoke(executionStack, frame)
    }
    /**
     * XDebugSessionImpl.stop (XDebugSessionImpl.kt, file id 3494500063): nothing once the handler
     * ended or is ending; else `detachIsDefault() ? detachProcess() : destroyProcess()`.
     */
    /** XDebugSessionImpl.stop (XDebugSessionImpl.kt, file id 3494500063): the handler's detach or destroy, no thread rule. */
    override fun stop() {
        commands += Command("stop", current = current)
        val h = handler ?: return
        if (h.isProcessTerminated || h.isProcessTerminating) return
        if (h.detachIsDefault()) h.detachProcess() else h.destroyProcess()
    }
    override fun addSessionListener(listener: XDebugSessionListener) { listeners += listener }
    override fun removeSessionListener(listener: XDebugSessionListener) { listeners -= listener }
    override fun getSessionName(): String = name
    override fun getRunProfile(): RunProfile? = profile
    override fun getExecutionEnvironment(): ExecutionEnvironment? = environment
}
