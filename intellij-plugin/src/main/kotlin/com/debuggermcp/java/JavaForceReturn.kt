package com.debuggermcp.java

import com.debuggermcp.adapter.ErrorKind
import com.debuggermcp.adapter.Ide
import com.debuggermcp.adapter.OpException
import com.debuggermcp.adapter.XAsync
import com.debuggermcp.adapter.failed
import com.debuggermcp.adapter.invalidState
import com.debuggermcp.adapter.unsupported
import com.intellij.debugger.engine.DebugProcessImpl
import com.intellij.debugger.engine.JavaDebugProcess
import com.intellij.debugger.engine.JavaStackFrame
import com.intellij.debugger.engine.JavaValue
import com.intellij.debugger.engine.events.DebuggerCommandImpl
import com.intellij.debugger.settings.DebuggerSettings
import com.intellij.xdebugger.XDebugSession
import com.intellij.xdebugger.XSourcePosition
import com.intellij.xdebugger.evaluation.EvaluationMode
import com.intellij.xdebugger.evaluation.XDebuggerEvaluator
import com.intellij.xdebugger.frame.XStackFrame
import com.intellij.xdebugger.frame.XValue
import com.sun.jdi.ClassNotLoadedException
import com.sun.jdi.IncompatibleThreadStateException
import com.sun.jdi.InvalidStackFrameException
import com.sun.jdi.InvalidTypeException
import com.sun.jdi.Method
import com.sun.jdi.NativeMethodException
import com.sun.jdi.VMDisconnectedException
import com.sun.jdi.Value
import kotlinx.coroutines.CompletableDeferred
import kotlin.coroutines.cancellation.CancellationException

/**
 * The Java debugger as op `force_return` needs it: one paused Java frame and its process. The
 * platform implementation ([PlatformJvm]) makes the calls IntelliJ's Force Return makes; tests
 * substitute one that behaves like them (the engine classes are final or need a live VM).
 */
internal interface JvmFrames {
    /** The JVM side of [frame], or null when it is not a Java frame of a Java debug process. */
    fun of(session: XDebugSession, frame: XStackFrame): JvmFrame?

    /** Whether [session] is a Java debug session. */
    fun isJava(session: XDebugSession): Boolean

    /**
     * Sets "Show Method Return Values" for [session]'s process; returns the value before, or
     * null when [session] is not a Java one. EDT.
     */
    fun showReturnValues(session: XDebugSession, on: Boolean): Boolean?

    /** The descriptor of a Java [value] of [session]; null when [value] is not a Java value. */
    fun descriptor(session: XDebugSession, value: XValue): JvmValueDescriptor? = null

    /**
     * Runs an empty command on [session]'s debugger manager thread and waits for it, so every
     * command queued before it (at a higher or the same priority) has run; false when [session]
     * is not a Java one.
     */
    suspend fun drainManagerThread(session: XDebugSession): Boolean = false

    /** The pid in the connection of a Java debug [process], or null (see [PlatformJvm.attachedPid]). */
    fun attachedPid(process: com.intellij.xdebugger.XDebugProcess): String? = null

    /** [frame]'s depth in its thread (0 = top) when it is a Java frame, else null. Any thread. */
    fun frameDepth(frame: XStackFrame): Int? = null
}

/**
 * A JavaValue's ValueDescriptorImpl (ValueDescriptorImpl.java @00320d531dc8f71ff2ae17e67ef7dbbdb6efc0a0,
 * file id 37843239622). Its value is set by `setContext` on the manager thread while the
 * presentation is computed; until then `getValue()` LOG.errors "Value is not yet calculated"
 * (assertValueReady: an IDE error report), and when the computation threw, `myValueException` is
 * set and the value is the exception object thrown in the debuggee.
 */
internal interface JvmValueDescriptor {
    suspend fun <T> onManagerThread(block: () -> T): T

    /** `isValueReady()`: a plain volatile flag. */
    fun isValueReady(): Boolean

    /** `isValueValid()`: `myValueException == null`. */
    fun isValueValid(): Boolean

    /** `getValue()?.type()?.name()`: asserts the value is ready. Manager thread. */
    fun runtimeType(): String?

    /** `getDeclaredType()`: known without the value (the variable's or field's type). */
    fun declaredType(): String?

    /** Whether the value is a local variable of its frame (a LocalVariableDescriptorImpl). */
    fun isLocalVariable(): Boolean = false
}

internal interface JvmFrame {
    val evaluator: XDebuggerEvaluator?
    val position: XSourcePosition?

    /** Runs [block] as a command on the process's debugger manager thread; the JDI calls below need it. */
    suspend fun <T> onManagerThread(block: () -> T): T

    /** The frame's method (`proxy.location().method()`). Manager thread. */
    fun method(): Method

    /** `VirtualMachine.canForceEarlyReturn()` of the frame's VM. Manager thread. */
    fun canForceEarlyReturn(): Boolean

    /** `mirrorOfVoid()` of the frame's VM: what a void method returns. Manager thread. */
    fun mirrorOfVoid(): Value

    /**
     * Watches the method's return, then `ThreadReferenceProxyImpl.forceEarlyReturn`. Manager thread.
     * [value] null is Java's `null`: JDI takes it for a reference return type and throws
     * InvalidTypeException for a primitive or void one (ValueImpl.prepareForAssignment).
     */
    fun forceEarlyReturn(value: Value?)

    /** Whether an evaluation result is a Java value (`JavaValue`); its JDI value may still be null. */
    fun isJava(result: XValue): Boolean

    /** The JDI value behind a Java evaluation result: null for the `null` literal. Manager thread. */
    fun jdiValue(result: XValue): Value?

    /**
     * Whether the class declaring the frame's method has static fields: StaticDescriptorImpl's
     * `isExpandable()`, `myType.allFields().stream().anyMatch(TypeComponent::isStatic)` on
     * `location.declaringType()` (StaticDescriptorImpl.java @03980ad0dccbd9a9140c4dc2415985c469f99ae7),
     * the condition of JavaStackFrame.addStaticGroup's group. Manager thread.
     */
    fun declaresStaticFields(): Boolean = false
}

/**
 * As IntelliJ's Force Return (java/debugger/impl/src/com/intellij/debugger/actions/
 * ForceEarlyReturnAction.java, index file id 4465394129, 2023 header; the 2017 version, file id
 * 505146227, is the same sequence):
 *  - the frame is a [JavaStackFrame]; its process is `((JavaDebugProcess) session.getDebugProcess())
 *    .getDebuggerSession().getProcess()` (JavaDebugProcess.getCurrentDebugProcess, file id 3553865272);
 *  - `proxy = stackFrame.getStackFrameProxy()`, `thread = proxy.threadProxy()`;
 *  - on the manager thread: `method = proxy.location().method()`; a void method returns
 *    `thread.getVirtualMachine().mirrorOfVoid()`;
 *  - otherwise the expression is evaluated by the frame's evaluator at the frame's position
 *    (`evaluator.evaluate(expression, callback, stackFrame.getSourcePosition())`, on the EDT as from
 *    the dialog's doOKAction) and `((JavaValue) result).getDescriptor().getValue()` is returned;
 *  - `forceEarlyReturn` schedules `new DebuggerCommandImpl() { action() {
 *    debugProcess.startWatchingMethodReturn(thread); thread.forceEarlyReturn(value); } }` on
 *    `debugProcess.getManagerThread()`.
 */
internal object PlatformJvm : JvmFrames {
    override fun of(session: XDebugSession, frame: XStackFrame): JvmFrame? {
        val java = frame as? JavaStackFrame ?: return null
        val process = (session.debugProcess as? JavaDebugProcess)?.debuggerSession?.process ?: return null
        return Frame(java, process)
    }

    override fun isJava(session: XDebugSession): Boolean = session.debugProcess is JavaDebugProcess

    /**
     * Java's Attach to Process keeps the pid only in the connection it attaches through: for a
     * local JVM, DebuggerLocalAttachInfo.createConnection returns `new PidRemoteConnection(myPid,
     * …)` whenever the pid is known (always, for a process of the local list), and the read-only
     * (SA) attaches' connections extend it too (JavaAttachDebuggerProvider.java, file id
     * 3970949856; PidRemoteConnection.getPid, file id 11260265026). DebugProcessImpl.attachVirtualMachine
     * sets the process's connection (`myConnection = environment.getRemoteConnection()`, file id
     * 51736907) before GenericDebuggerRunner starts the XDebugSession, so it is there when
     * processStarted is published; it is read from the [process] given, which
     * `JavaDebugProcess.getDebuggerSession().getProcess()` leads to (file id 3553865272).
     */
    override fun attachedPid(process: com.intellij.xdebugger.XDebugProcess): String? {
        val connection = (process as? JavaDebugProcess)?.debuggerSession?.process?.connection
        return (connection as? com.intellij.debugger.impl.attach.PidRemoteConnection)?.pid
    }

    /** See [JavaDebugSupport.frameDepth]: the descriptor's uiIndex, a field read. */
    override fun frameDepth(frame: XStackFrame): Int? = (frame as? JavaStackFrame)?.descriptor?.uiIndex

    override suspend fun drainManagerThread(session: XDebugSession): Boolean {
        val process = (session.debugProcess as? JavaDebugProcess)?.debuggerSession?.process ?: return false
        // DebuggerCommandImpl's priority is LOW: it runs after DebuggerContextUtil.setStackFrame's HIGH command.
        process.onManagerThread { }
        return true
    }

    /**
     * What the id label renders (`calcIdLabel`: `objRef.type().name()`) comes from the
     * descriptor's value (ValueDescriptorImpl.java @00320d531dc8f71ff2ae17e67ef7dbbdb6efc0a0).
     */
    override fun descriptor(session: XDebugSession, value: XValue): JvmValueDescriptor? {
        val java = value as? JavaValue ?: return null
        val process = (session.debugProcess as? JavaDebugProcess)?.debuggerSession?.process ?: return null
        val descriptor = java.descriptor
        return object : JvmValueDescriptor {
            override suspend fun <T> onManagerThread(block: () -> T): T = process.onManagerThread(block)
            override fun isValueReady(): Boolean = descriptor.isValueReady
            override fun isValueValid(): Boolean = descriptor.isValueValid
            override fun runtimeType(): String? = descriptor.value?.type()?.name()
            override fun declaredType(): String? = descriptor.declaredType
            override fun isLocalVariable(): Boolean = descriptor is com.intellij.debugger.ui.impl.watch.LocalVariableDescriptorImpl
        }
    }

    /**
     * As the platform's toggle (WatchLastMethodReturnValueAction.setSelected in JavaDebugProcess.java,
     * file id 3553865272): `DebuggerSettings.getInstance().WATCH_RETURN_VALUES = watch;
     * process.setWatchMethodReturnValuesEnabled(watch)`. There is no per-process switch: the
     * process's MethodReturnValueWatcher.setEnabled writes that same application setting
     * (MethodReturnValueWatcher.java, file id 8018620830), and a step starts watching only when it
     * is on (DebugProcessImpl's step command: `startWatchingMethodReturn(stepThread)`, file id
     * 3384553333). So callers restore the value they got back.
     */
    override fun showReturnValues(session: XDebugSession, on: Boolean): Boolean? {
        val process = (session.debugProcess as? JavaDebugProcess)?.debuggerSession?.process ?: return null
        // Without the VM's method-exit values the process's switch does nothing
        // (WatchLastMethodReturnValueAction.update disables the toggle then): leave the setting alone.
        if (!process.canGetMethodReturnValue()) return null
        val settings = DebuggerSettings.getInstance()
        val before = settings.WATCH_RETURN_VALUES
        if (before != on) {
            settings.WATCH_RETURN_VALUES = on
            process.setWatchMethodReturnValuesEnabled(on)
        }
        return before
    }

    private class Frame(private val frame: JavaStackFrame, private val process: DebugProcessImpl) : JvmFrame {
        private val proxy get() = frame.stackFrameProxy
        override val evaluator: XDebuggerEvaluator? get() = frame.evaluator
        override val position: XSourcePosition? get() = frame.sourcePosition

        override suspend fun <T> onManagerThread(block: () -> T): T = process.onManagerThread(block)

        override fun method(): Method = proxy.location().method()
        override fun canForceEarlyReturn(): Boolean = proxy.threadProxy().virtualMachine.canForceEarlyReturn()
        override fun mirrorOfVoid(): Value = proxy.threadProxy().virtualMachine.mirrorOfVoid()

        override fun forceEarlyReturn(value: Value?) {
            val thread = proxy.threadProxy()
            process.startWatchingMethodReturn(thread)
            thread.forceEarlyReturn(value)
        }

        override fun isJava(result: XValue): Boolean = result is JavaValue

        override fun declaresStaticFields(): Boolean = proxy.location().declaringType().allFields().any { it.isStatic }

        // ForceEarlyReturnAction.evaluateAndReturn: `((JavaValue) result).getDescriptor().getValue()`,
        // null for a `null` literal, passed on to forceEarlyReturn as is.
        override fun jdiValue(result: XValue): Value? = (result as JavaValue).descriptor.value
    }
}

/** Runs [block] as a command on the process's debugger manager thread and awaits its result. */
private suspend fun <T> DebugProcessImpl.onManagerThread(block: () -> T): T {
    val done = CompletableDeferred<T>()
    // DebuggerManagerThreadImpl.schedule cancels a command it cannot run (the session ended, the
    // queue closed): commandCancelled, not action, is then called.
    managerThread.schedule(object : DebuggerCommandImpl() {
        override fun action() {
            try {
                done.complete(block())
            } catch (t: Throwable) {
                done.completeExceptionally(t)
            }
        }

        override fun commandCancelled() {
            done.completeExceptionally(OpException(ErrorKind.INVALID_STATE, "the debugger dropped the command: the session ended or resumed"))
        }
    })
    return done.await()
}

/**
 * Op `force_return` on a Java frame. Deviations from the action, each for an agent without a UI:
 *  - the value comes from the op instead of the Return Value dialog; an empty value returns void;
 *  - finally blocks are not run: the action asks the user whether to evaluate them
 *    (JvmDropFrameActionHandler.evaluateFinallyBlocks); an agent cannot answer, and the JVM's own
 *    ForceEarlyReturn skips them;
 *  - no `stepInto(true, null)` afterwards: the action steps so the user sees the caller; here the
 *    core moves the thread itself right after (the recorder resumes at once; a step would race
 *    that resume and surface a stop nobody asked for), and the frame pops when it does. The JDI
 *    stand-in behaves the same (tests/ide-standin Session.forceReturn).
 */
internal object JavaForceReturn {
    suspend fun forceReturn(frames: JvmFrames, session: XDebugSession, frame: XStackFrame, isTop: Boolean, value: String): Boolean {
        // ForceEarlyReturnAction.update enables the action on the top frame only (getUiIndex() == 0).
        // A Java session's frame below the top may not be a JavaStackFrame (an async or coroutine
        // frame): it gets this answer too, not "not a Java frame".
        if (!isTop && frames.isJava(session)) failed("force_return pops the top frame only; pass the paused thread's first frame")
        val jvm = frames.of(session, frame) ?: return false
        // As the action's first DebuggerContextCommandImpl: the method is read on the manager thread.
        // `"void" == returnTypeName()` is the 2017 action's test; the 2023 one calls
        // DebuggerUtilsEx.isVoid(method), which compares the same name.
        val (can, returns, name) = jdi(jvm, null) {
            val method = jvm.method()
            Triple(jvm.canForceEarlyReturn(), method.returnTypeName(), method.name())
        }
        if (!can) unsupported("this JVM cannot force early returns (VirtualMachine.canForceEarlyReturn is false)")
        val result: Value? = if (returns == "void" && value.isBlank()) {
            jdi(jvm, name) { jvm.mirrorOfVoid() }
        } else {
            if (value.isBlank()) failed("value: $name returns $returns; give an expression of type $returns")
            val evaluator = jvm.evaluator ?: unsupported("this frame cannot evaluate '$value'")
            val done = CompletableDeferred<XValue>()
            val callback = object : XDebuggerEvaluator.XEvaluationCallback {
                override fun evaluated(result: XValue) { done.complete(result) }
                override fun errorOccurred(errorMessage: String) {
                    done.completeExceptionally(OpException(ErrorKind.FAILED, "cannot evaluate '$value': $errorMessage"))
                }
            }
            val expression = XAsync.expression(value, EvaluationMode.EXPRESSION)
            val position = jvm.position
            Ide.onEdt { evaluator.evaluate(expression, callback, position) }
            // The action reads the descriptor in the evaluation callback, on the manager thread.
            val evaluated = done.await()
            if (!jvm.isJava(evaluated)) failed("'$value' is not a Java value")
            jdi(jvm, name) { jvm.jdiValue(evaluated) }
        }
        try {
            jdi(jvm, name) { jvm.forceEarlyReturn(result) }
        } catch (e: InvalidTypeException) {
            failed("the JVM refused '$value' as what $name returns ($returns): InvalidTypeException${e.message?.let { ": $it" } ?: ""}. " +
                if (returns == "void") "Instead: $name is void: force_return with an empty value" else "Instead: give an expression of type $returns (a literal, a variable or a cast)")
        } catch (e: ClassNotLoadedException) {
            failed("the JVM refused '$value': ClassNotLoadedException (${e.className()} is not loaded yet). Return null or a value the program already created")
        } catch (e: IncompatibleThreadStateException) {
            // JDI throws it for THREAD_NOT_SUSPENDED / THREAD_NOT_ALIVE only (ThreadReferenceImpl.forceEarlyReturn).
            invalidState("the JVM refused: IncompatibleThreadStateException (the thread is not suspended or has ended). Stop at a breakpoint in $name, then force_return")
        } catch (e: NativeMethodException) {
            failed("the JVM refused: $name is native (NativeMethodException); force_return in its Java caller instead")
        } catch (e: UnsupportedOperationException) {
            unsupported("this JVM cannot force early returns (UnsupportedOperationException)")
        }
        return true
    }

    /**
     * Runs [block] on the manager thread and turns what the debugger throws there into a clear
     * error. The JDI exceptions the op answers specifically (InvalidTypeException and the like)
     * pass through. StackFrameProxyImpl.location() throws EvaluateException when the frame is no
     * longer valid; JDI throws InvalidStackFrameException, VMDisconnectedException,
     * ObjectCollectedException, InternalException, and on JDK 21+ OpaqueFrameException (a virtual
     * thread's frame). Matched by name where the class is not on this plugin's compile path
     * (EvaluateException is the platform's, OpaqueFrameException is JDK 21's).
     */
    private suspend fun <T> jdi(jvm: JvmFrame, name: String?, block: () -> T): T = try {
        jvm.onManagerThread(block)
    } catch (e: Exception) {
        when {
            e is OpException || e is CancellationException || e is InvalidTypeException || e is ClassNotLoadedException ||
                e is IncompatibleThreadStateException || e is NativeMethodException || e is UnsupportedOperationException -> throw e
            e is InvalidStackFrameException || e is VMDisconnectedException || e.javaClass.simpleName == "EvaluateException" ->
                invalidState("the frame is gone (${e.javaClass.simpleName}): the thread moved or the session ended. Call frames again, then force_return on the top frame")
            e.javaClass.simpleName == "OpaqueFrameException" ->
                failed("the JVM refused: OpaqueFrameException (${name ?: "the method"} runs on a virtual thread, whose frames cannot be popped). Stop in a platform thread's call instead")
            else -> failed("the debugger failed: ${e.javaClass.simpleName}${e.message?.let { ": $it" } ?: ""}. Nothing was forced; call frames to see where the thread is, then retry")
        }
    }
}
