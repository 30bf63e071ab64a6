package com.debuggermcp.fakes

import com.intellij.lang.Language
import com.intellij.openapi.project.Project
import com.intellij.openapi.vfs.VirtualFile
import com.intellij.xdebugger.XDebugSession
import com.intellij.xdebugger.XDebuggerManager
import com.intellij.xdebugger.XDebuggerUtil
import com.intellij.xdebugger.XExpression
import com.intellij.xdebugger.XSourcePosition
import com.intellij.xdebugger.breakpoints.SuspendPolicy
import com.intellij.xdebugger.breakpoints.XBreakpoint
import com.intellij.xdebugger.breakpoints.XBreakpointManager
import com.intellij.xdebugger.breakpoints.XBreakpointProperties
import com.intellij.xdebugger.breakpoints.XBreakpointType
import com.intellij.xdebugger.breakpoints.XLineBreakpoint
import com.intellij.xdebugger.breakpoints.XLineBreakpointType
import com.intellij.xdebugger.evaluation.EvaluationMode
import java.util.concurrent.CopyOnWriteArrayList

/*
 * The breakpoint model as XBreakpointManagerImpl implements it (platform/xdebugger-impl/src/com/
 * intellij/xdebugger/impl/breakpoints/XBreakpointManagerImpl.java, file id 1648346929
 * @009b3bb3b4fffc9291bdc67892e2bd8bf10ef951):
 *  - addLineBreakpoint, addBreakpoint and removeBreakpoint start with
 *    `ApplicationManager.getApplication().assertWriteAccessAllowed()`;
 *  - getAllBreakpoints starts with `assertReadAccessAllowed()` and returns a copy;
 *  - a new line breakpoint starts enabled, with the type's default suspend policy (ALL), and the
 *    `temporary` flag it was added with.
 */

/** XLineBreakpointImpl's state: plain fields behind the XBreakpoint setters. */
class FakeLineBreakpoint<P : XBreakpointProperties<*>>(
    private val type: XLineBreakpointType<P>,
    private val url: String,
    private val line: Int,
    private val properties: P?,
    @Volatile private var temporary: Boolean,
) : XLineBreakpoint<P> {
    @Volatile private var enabled = true
    @Volatile private var policy = SuspendPolicy.ALL
    @Volatile private var log: XExpression? = null
    @Volatile private var condition: XExpression? = null

    override fun isEnabled() = enabled
    override fun setEnabled(enabled: Boolean) { this.enabled = enabled }
    override fun getType(): XLineBreakpointType<P> = type
    override fun getProperties(): P? = properties
    override fun getSuspendPolicy() = policy
    override fun setSuspendPolicy(policy: SuspendPolicy) { this.policy = policy }
    override fun getLogExpressionObject() = log
    override fun setLogExpressionObject(expression: XExpression?) { log = expression }
    override fun getConditionExpression() = condition
    override fun setConditionExpression(condition: XExpression?) { this.condition = condition }
    override fun getLine() = line
    override fun getFileUrl() = url
    override fun getPresentableFilePath() = url.removePrefix("file://")
    override fun isTemporary() = temporary
    override fun setTemporary(temporary: Boolean) { this.temporary = temporary }

    /**
     * XBreakpointBase.getErrorMessage (file id 18364313596), public on the implementation: the
     * message a debugger gave XDebugSession.setBreakpointInvalid for the current session (null
     * once setBreakpointVerified, or before any session checked it).
     */
    @Volatile var invalidMessage: String? = null
    fun getErrorMessage(): String? = invalidMessage
}

/**
 * XDependentBreakpointManager as the platform implements it (platform/xdebugger-impl/src/com/
 * intellij/xdebugger/impl/breakpoints/XDependentBreakpointManager.java, file id 58633227557):
 * a slave → (master, leaveEnabled) table; `setMasterBreakpoint` replaces a slave's master,
 * `clearMasterBreakpoint` drops it, `getMasterBreakpoint`/`isLeaveEnabled` read it; every
 * member takes the breakpoint manager's state lock itself and asserts no read or write action
 * (the Breakpoints dialog's XMasterBreakpointPanel.saveProperties calls it on the EDT). A removed
 * breakpoint leaves the table, and so do the slaves of a removed master (`onBreakpointRemoved`,
 * called by XBreakpointManagerImpl's removal): they become plain breakpoints. The internal
 * class is reached reflectively by the adapter, so the fake has the same public members.
 */
class FakeDependentBreakpointManager {
    private class Info(var master: XBreakpoint<*>, var leaveEnabled: Boolean)
    private val slaves = java.util.concurrent.ConcurrentHashMap<XBreakpoint<*>, Info>()
    /** Every call, in order (`set <slave> <master> <leaveEnabled>`, `clear <slave>`). */
    val calls = CopyOnWriteArrayList<String>()

    fun setMasterBreakpoint(slave: XBreakpoint<*>, master: XBreakpoint<*>, leaveEnabled: Boolean) {
        calls += "set ${System.identityHashCode(slave)} ${System.identityHashCode(master)} $leaveEnabled"
        val info = slaves[slave]
        if (info == null) slaves[slave] = Info(master, leaveEnabled)
        else { info.master = master; info.leaveEnabled = leaveEnabled }
    }

    fun clearMasterBreakpoint(slave: XBreakpoint<*>) {
        calls += "clear ${System.identityHashCode(slave)}"
        slaves.remove(slave)
    }

    fun getMasterBreakpoint(slave: XBreakpoint<*>): XBreakpoint<*>? = slaves[slave]?.master

    fun isLeaveEnabled(slave: XBreakpoint<*>): Boolean = slaves[slave]?.leaveEnabled == true

    fun getSlaveBreakpoints(master: XBreakpoint<*>): List<XBreakpoint<*>> = slaves.filterValues { it.master === master }.keys.toList()

    internal fun onBreakpointRemoved(breakpoint: XBreakpoint<*>) {
        slaves.remove(breakpoint)
        slaves.entries.removeIf { it.value.master === breakpoint }
    }
}

class FakeBreakpointManager(private val app: FakeApplication) : XBreakpointManager {
    val breakpoints = CopyOnWriteArrayList<XBreakpoint<*>>()
    private val dependents = FakeDependentBreakpointManager()

    /** XBreakpointManagerImpl.getDependentBreakpointManager (public on the implementation). */
    fun getDependentBreakpointManager(): FakeDependentBreakpointManager = dependents

    override fun <T : XBreakpointProperties<*>> addBreakpoint(type: XBreakpointType<XBreakpoint<T>, T>, properties: T?): XBreakpoint<T> {
        app.requireWrite("XBreakpointManager.addBreakpoint (XBreakpointManagerImpl.java, file id 1648346929)")
        throw UnsupportedOperationException("no non-line breakpoint types in this fake")
    }

    override fun <T : XBreakpointProperties<*>> addLineBreakpoint(
        type: XLineBreakpointType<T>, fileUrl: String, line: Int, properties: T?, temporary: Boolean,
    ): XLineBreakpoint<T> {
        app.requireWrite("XBreakpointManager.addLineBreakpoint (XBreakpointManagerImpl.java, file id 1648346929)")
        return FakeLineBreakpoint(type, fileUrl, line, properties, temporary).also { breakpoints += it }
    }

    override fun removeBreakpoint(breakpoint: XBreakpoint<*>) {
        app.requireWrite("XBreakpointManager.removeBreakpoint (XBreakpointManagerImpl.java, file id 1648346929)")
        breakpoints.remove(breakpoint)
        dependents.onBreakpointRemoved(breakpoint)
    }

    override fun getAllBreakpoints(): Array<XBreakpoint<*>> {
        app.requireRead("XBreakpointManager.getAllBreakpoints (XBreakpointManagerImpl.java, file id 1648346929)")
        return breakpoints.toTypedArray()
    }
}

/** XDebuggerManagerImpl: the project's breakpoint manager and sessions. */
class FakeDebuggerManager(private val manager: XBreakpointManager, private val sessions: List<XDebugSession> = emptyList()) : XDebuggerManager() {
    override fun getBreakpointManager(): XBreakpointManager = manager
    override fun getDebugSessions(): Array<XDebugSession> = sessions.toTypedArray()
    override fun getCurrentSession(): XDebugSession? = sessions.firstOrNull()
}

/** XDebuggerUtilImpl: the registered line breakpoint types, and expressions as XExpressionImpl. */
class FakeDebuggerUtil(private val types: List<XLineBreakpointType<*>> = emptyList()) : XDebuggerUtil() {
    override fun getLineBreakpointTypes(): Array<XLineBreakpointType<*>> = types.toTypedArray()
    override fun <T : XBreakpointType<*, *>?> findBreakpointType(typeClass: Class<T>): T = throw UnsupportedOperationException()
    override fun createPosition(file: VirtualFile?, line: Int): XSourcePosition? = file?.let { FakePosition(it, line) }
    override fun createExpression(text: String, language: Language?, custom: String?, mode: EvaluationMode): XExpression = FakeExpression(text)
}

/**
 * A line breakpoint type with a priority, accepting the given 0-based lines; `canPutAt` reads PSI
 * in the real types, so it needs a read action (JavaLineBreakpointType.java, file id 7897467069).
 */
class FakeLineType(id: String, private val priority: Int, private val lines: Set<Int>, private val app: FakeApplication) :
    XLineBreakpointType<XBreakpointProperties<Any>>(id, id) {
    override fun canPutAt(file: VirtualFile, line: Int, project: Project): Boolean {
        app.requireRead("XLineBreakpointType.canPutAt")
        return line in lines
    }
    override fun getPriority(): Int = priority
    override fun createBreakpointProperties(file: VirtualFile, line: Int): XBreakpointProperties<Any>? = null
}
