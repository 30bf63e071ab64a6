package com.debuggermcp.java

import com.debuggermcp.lang.LanguageDebugSupport
import com.intellij.debugger.ui.breakpoints.JavaExceptionBreakpointType
import com.intellij.openapi.project.Project
import com.intellij.xdebugger.XDebugSession
import com.intellij.xdebugger.XDebuggerManager
import com.intellij.xdebugger.XDebuggerUtil
import com.intellij.xdebugger.breakpoints.XBreakpoint
import com.intellij.xdebugger.breakpoints.XBreakpointProperties
import com.intellij.xdebugger.frame.XStackFrame
import com.intellij.xdebugger.frame.XValue
import org.jetbrains.java.debugger.breakpoints.properties.JavaBreakpointProperties
import org.jetbrains.java.debugger.breakpoints.properties.JavaExceptionBreakpointProperties
import org.jetbrains.java.debugger.breakpoints.properties.JavaFieldBreakpointProperties

/**
 * Java exception breakpoints and hit counts. Registered only in debugger-mcp-java.xml, which the
 * platform loads when the Java plugin (com.intellij.java) is installed, so these Java-plugin
 * classes are never touched in IDEs without it.
 */
class JavaDebugSupport internal constructor(private val jvm: JvmFrames) : LanguageDebugSupport {
    /** The extension point's instance: the real Java debugger. */
    constructor() : this(PlatformJvm)

    private fun type(): JavaExceptionBreakpointType =
        XDebuggerUtil.getInstance().findBreakpointType(JavaExceptionBreakpointType::class.java)

    override fun addExceptionBreakpoint(project: Project, exception: String, caught: Boolean, uncaught: Boolean): XBreakpoint<*>? {
        // Java class names only: DAP-style filter ids ("raised", "uncaught") are not Java classes.
        if (!exception.matches(Regex("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*"))) return null
        val properties = JavaExceptionBreakpointProperties(exception)
        properties.NOTIFY_CAUGHT = caught
        properties.NOTIFY_UNCAUGHT = uncaught
        return XDebuggerManager.getInstance(project).breakpointManager.addBreakpoint(type(), properties)
    }

    override fun describeException(breakpoint: XBreakpoint<*>): LanguageDebugSupport.ExceptionInfo? {
        val p = breakpoint.properties as? JavaExceptionBreakpointProperties ?: return null
        // The platform's default "Any exception" breakpoint has no class name.
        val name = p.myQualifiedName ?: "java.lang.Throwable"
        return LanguageDebugSupport.ExceptionInfo(name, p.NOTIFY_CAUGHT, p.NOTIFY_UNCAUGHT)
    }

    override fun setHitCount(properties: XBreakpointProperties<*>, count: Int?): Boolean {
        val p = properties as? JavaBreakpointProperties<*> ?: return false
        p.setCOUNT_FILTER_ENABLED(count != null)
        if (count != null) p.setCOUNT_FILTER(count)
        return true
    }

    override val anyException: String = "java.lang.Throwable"

    // JavaFieldBreakpointType's id (java/debugger/impl/src/com/intellij/debugger/ui/breakpoints/
    // JavaFieldBreakpointType.java @019a6852f46281c4ba79b3a9871820810bf3e501: `super("java-field", ...)`);
    // the id is what workspace.xml persists, so it is stable across versions.
    override val fieldWatchpointTypeId: String = "java-field"

    /**
     * As the Add Field Watchpoint dialog creates them (JavaFieldBreakpointType.addBreakpoint →
     * `new JavaFieldBreakpointProperties(fieldName, className)`); FieldBreakpoint then requests a
     * ModificationWatchpointRequest when WATCH_MODIFICATION and an AccessWatchpointRequest when
     * WATCH_ACCESS (FieldBreakpoint.createRequestForPreparedClass, FieldBreakpoint.java
     * @01fc6fe439de754f717abec2e5057ab4fe5630f3).
     */
    override fun fieldWatchpointProperties(className: String?, fieldName: String, write: Boolean, read: Boolean): XBreakpointProperties<*> =
        JavaFieldBreakpointProperties(fieldName, className).also {
            it.WATCH_MODIFICATION = write
            it.WATCH_ACCESS = read
        }

    override fun describeFieldWatchpoint(breakpoint: XBreakpoint<*>): LanguageDebugSupport.FieldWatch? {
        val p = breakpoint.properties as? JavaFieldBreakpointProperties ?: return null
        return LanguageDebugSupport.FieldWatch(p.myClassName, p.myFieldName, p.WATCH_MODIFICATION, p.WATCH_ACCESS)
    }

    override fun attachedPid(process: com.intellij.xdebugger.XDebugProcess): Int? = jvm.attachedPid(process)?.trim()?.toIntOrNull()

    override val canForceReturn: Boolean = true

    override suspend fun forceReturn(session: XDebugSession, frame: XStackFrame, isTop: Boolean, value: String): Boolean =
        JavaForceReturn.forceReturn(jvm, session, frame, isTop, value)

    override fun showReturnValues(session: XDebugSession, on: Boolean): Boolean? = jvm.showReturnValues(session, on)

    /**
     * A Java frame's JVM depth: its StackFrameDescriptorImpl's `getUiIndex()`, set once when the
     * frame was created from `frame.getFrameIndex()` (StackFrameDescriptorImpl.java
     * @00320d531dc8f71ff2ae17e67ef7dbbdb6efc0a0, file id 38468929046), read through the public
     * `JavaStackFrame.getDescriptor()` (file id 3478405727): a plain field, no manager-thread
     * command (StackFrameProxyImpl.getFrameIndex would need one). With "Show Library Frames" off
     * and folding off, JavaExecutionStack.AppendFrameCommand drops hidden frames without a
     * placeholder (`rememberHiddenFrame` returns when `!XFramesView.shouldFoldHiddenFrames()`,
     * JavaExecutionStack.java, file id 3672265093), so only this tells the depth.
     */
    override fun frameDepth(session: XDebugSession, frame: XStackFrame): Int? = if (jvm.isJava(session)) jvm.frameDepth(frame) else null

    companion object {
        /** Bound of the wait for a late Static group: one JDWP round trip (allFields) normally. */
        const val LATE_STATIC_GROUP_MS = 1_000L
        private val JAVA_IDENTIFIER = Regex("[\\p{L}_$][\\p{L}\\p{N}_$]*")
        /** Bound of the wait for the debugger to take over a frame selection (one manager-thread round trip normally). */
        const val FRAME_SELECTION_MS = 5_000L
        /** Bound of one value's type read: a manager-thread command that normally takes a JDWP round trip. */
        const val VALUE_TYPE_MS = 1_000L
    }

    override suspend fun valueType(session: XDebugSession, value: XValue): LanguageDebugSupport.TypeName? {
        val descriptor = jvm.descriptor(session, value) ?: return null
        return try {
            // The command queues behind whatever the manager thread runs (a slow renderer of
            // another value): bounded per value, so one slow value costs its type, not the page.
            kotlinx.coroutines.withTimeoutOrNull(VALUE_TYPE_MS) {
                descriptor.onManagerThread {
                    // Not ready (the presentation timed out before setContext ran): getValue()
                    // would LOG.error. Not valid: the value is the exception the debuggee threw,
                    // whose type is not the variable's (ValueDescriptorImpl.setContext's catch).
                    val runtime = if (descriptor.isValueReady() && descriptor.isValueValid()) descriptor.runtimeType() else null
                    // A `null` value has no runtime type, only the declared one.
                    LanguageDebugSupport.TypeName(runtime ?: descriptor.declaredType())
                }
            } ?: LanguageDebugSupport.TypeName(null)
        } catch (e: Exception) {
            if (e is kotlin.coroutines.cancellation.CancellationException) throw e
            // A value whose object was collected, a VM gone: the type is unknown, the value still shown.
            LanguageDebugSupport.TypeName(null)
        }
    }

    /**
     * A static frame's Static group comes after the frame's final batch when the class's fields
     * are not loaded yet (JavaStackFrame.addStaticGroup: `if (location != null &&
     * myDescriptor.getThisObject() == null)`, then `DebuggerUtilsAsync.allFields(type).thenAccept(…
     * if (staticDescriptor.isExpandable()) node.addChildren(topGroups(JavaStaticGroup), false))`,
     * JavaStackFrame.java @026915342927f0aa3ebcf478bd2760f82dd23246). `this` is listed exactly
     * when the frame has a this object (createThisNode), so a frame without it, no group yet, and
     * a declaring class with static fields waits for the group, at most [LATE_STATIC_GROUP_MS].
     */
    override suspend fun lateChildrenMs(session: XDebugSession, frame: XStackFrame, names: List<String>, hasGroup: Boolean): Long {
        if (hasGroup || "this" in names) return 0
        val java = jvm.of(session, frame) ?: return 0
        // The manager thread may be busy (a slow renderer, an evaluation) for longer than the whole
        // frame_variables call may take: the question gets the same bound as the wait itself, and
        // no answer means no wait.
        val statics = try {
            kotlinx.coroutines.withTimeoutOrNull(LATE_STATIC_GROUP_MS) { java.onManagerThread { java.declaresStaticFields() } } ?: false
        } catch (e: Exception) {
            if (e is kotlin.coroutines.cancellation.CancellationException) throw e
            false
        }
        return if (statics) LATE_STATIC_GROUP_MS else 0
    }

    /**
     * JavaDebugProcess's stackFrameChanged listener hands the selected frame to the context
     * manager (`DebuggerContextUtil.setStackFrame`, DebuggerContextUtil.java @051ed2529b8e…): a
     * HIGH-priority manager-thread command builds the new context, then `swingInvokeLater` calls
     * `manager.setState(newContext, …, Event.REFRESH)`; JavaDebugProcess's DebuggerContextListener
     * (JavaDebugProcess.java, file id 3553865272) schedules a command that runs
     * `newSuspendContext.initExecutionStacks(threadProxy)` and, for REFRESH,
     * `XDebugSessionImpl.updateSuspendContext(newSuspendContext)` — no positionReached, no
     * sessionPaused. Its steps (`myJavaSession.stepOver(false)` …) step the context's thread as
     * it is when called.
     */
    override fun switchesThreadLater(session: XDebugSession): Boolean = jvm.isJava(session)

    /**
     * A frame selection on the thread already paused changes no suspend context
     * (JavaDebugProcess's context listener applies a context only when its thread differs from
     * the active stack's: shouldApplyContext, file id 3553865272), but the debugger context that
     * Java's steps start from (`DebuggerSession.stepOver` → `getSuspendContext()` of the context
     * manager) is still updated asynchronously: DebuggerContextUtil.setStackFrame (DebuggerContextUtil.java
     * @051ed2529b8e…) schedules a HIGH-priority manager-thread command that builds the context and
     * posts `manager.setState(newContext, …)` to the EDT. Once an empty (LOW) command after it has
     * run, that post is queued on the EDT ahead of anything posted afterwards (the step).
     */
    override suspend fun awaitFrameSelection(session: XDebugSession) {
        kotlinx.coroutines.withTimeoutOrNull(FRAME_SELECTION_MS) { jvm.drainManagerThread(session) }
            ?: com.debuggermcp.adapter.invalidState("the debugger did not take over the frame selection within $FRAME_SELECTION_MS ms (its manager thread is busy); retry")
    }

    /**
     * A Java value is assigned through its own frame's evaluator, not its modifier.
     *  - A local: LocalVariableDescriptorImpl.getModifier (java/debugger/impl/src/com/intellij/
     *    debugger/ui/impl/watch/LocalVariableDescriptorImpl.java, file id 1855717597) evaluates the
     *    new value in, and writes it through, `DebuggerManagerEx.getInstanceEx(project).getContext()
     *    .getFrameProxy()`: the IDE's current frame of the IDE's current session. The agent reads
     *    any frame of any session without selecting it, so that wrote the same-named local of
     *    another frame (another level of a recursion) or of another session.
     *  - A field or an array element: FieldDescriptorImpl.getModifier (FieldDescriptorImpl.java
     *    @00320d531dc8, file id 38121781892; ArrayElementDescriptorImpl's likewise) takes the same
     *    `DebuggerManagerEx.getContext()` and hands it to JavaValueModifier.set (file id 8774012599),
     *    which runs `new DebuggerContextCommandImpl(debuggerContext)` on the value's process:
     *    DebuggerContextCommandImpl.contextAction (file id 4995695504) asks the *context's* suspend
     *    manager whether the context's thread is suspended and otherwise postpones the command or
     *    calls notifyCancelled(), which answers no callback. With two sessions, a set_value in the
     *    one that is not the IDE's current session waited out its timeout and set nothing (or,
     *    the current one paused, evaluated the new value there and refreshed that one).
     * The frame's evaluator evaluates in the frame's own context (JavaDebuggerEvaluator.evaluate:
     * `myStackFrame.getFrameDebuggerContext(...)` on its own process's manager thread, file id
     * 3619526157), and Java's evaluator assigns (`x = expr`, `this.f = expr`, `a[0] = expr`, as
     * typed in the Evaluate dialog), so the write lands in that frame's session. The target is the
     * local's name, or else the value's evaluation expression (JavaValue.calculateEvaluationExpression,
     * the Variables view's "Copy as Expression"); a value without one keeps its modifier.
     */
    override suspend fun assignInFrame(session: XDebugSession, frame: XStackFrame, value: XValue, name: String, expression: String, evaluateName: String?): Boolean {
        val descriptor = jvm.descriptor(session, value) ?: return false
        val target = when {
            descriptor.isLocalVariable() && JAVA_IDENTIFIER.matches(name) -> name
            !evaluateName.isNullOrBlank() -> evaluateName
            else -> return false
        }
        val evaluator = frame.evaluator ?: return false
        com.debuggermcp.adapter.XAsync.evaluate(
            evaluator,
            com.debuggermcp.adapter.XAsync.expression("$target = ($expression)", com.intellij.xdebugger.evaluation.EvaluationMode.EXPRESSION),
        )
        return true
    }

    override fun hitCount(breakpoint: XBreakpoint<*>): Int? {
        val p = breakpoint.properties as? JavaBreakpointProperties<*> ?: return null
        return if (p.isCOUNT_FILTER_ENABLED() && p.getCOUNT_FILTER() > 0) p.getCOUNT_FILTER() else null
    }
}
