package com.debuggermcp.adapter

import com.debuggermcp.json.JsonArgs
import com.debuggermcp.lang.LanguageDebugSupport
import com.intellij.openapi.application.ModalityState
import com.intellij.xdebugger.XDebugSession
import com.intellij.xdebugger.XDebuggerUtil

/**
 * Resume, pause, steps and run-to-position. These return once the command is issued; the stop
 * that follows reaches Rust as a `paused` event from [com.debuggermcp.listeners.DebuggerEventsListener].
 */
internal object ControlOps {
    /**
     * Op `force_return`: the language part whose debugger owns the frame forces the return (Java:
     * IntelliJ's Force Return, [com.debuggermcp.java.JavaForceReturn]). The thread stays paused;
     * the frame pops when the core next resumes or steps it, and that stop reaches Rust as the
     * usual `paused` event.
     */
    @Suppress("UNUSED_PARAMETER") // the frame handle already names its thread's stack
    suspend fun forceReturn(
        sessionId: String,
        threadId: String,
        frame: String,
        value: String,
        supports: List<LanguageDebugSupport> = LanguageDebugSupport.all(),
    ) {
        val session = Sessions.find(sessionId)
        if (session.isStopped) invalidState("the session has stopped")
        if (!session.isSuspended) invalidState("the session is running; force_return needs it paused in the call")
        val data = Sessions.data(session)
        val entry = data.values.get(frame) ?: notFound("no frame '$frame' (frame handles are valid until the next resume)")
        val ref = entry.extra as? SessionData.FrameRef ?: notFound("'$frame' is not a frame")
        for (support in supports) {
            if (support.forceReturn(session, ref.frame, ref.index == 0, value)) return
        }
        unsupported("this session's debugger cannot make a call return a value: the IDE forces returns on Java frames (the JVM's ForceEarlyReturn); gdb can for C/C++")
    }

    suspend fun control(
        sessionId: String,
        threadId: String?,
        op: JsonArgs,
        supports: List<LanguageDebugSupport> = LanguageDebugSupport.all(),
    ) {
        val session = Sessions.find(sessionId)
        if (session.isStopped) invalidState("the session has stopped")
        val data = Sessions.data(session)
        val kind = op.string("op")
        if (kind != "pause" && !session.isSuspended) invalidState("the session is running; '$kind' needs a paused session")
        if (kind == "pause" && session.isSuspended) return
        if (threadId != null && kind != "pause") switchThread(session, threadId, supports)
        val runTo = if (kind == "run_to") {
            val file = Ide.file(op.string("file"))
            val line = Wire.toIdeLine(op.long("line"))
            XDebuggerUtil.getInstance().createPosition(file, line) ?: failed("cannot run to ${file.path}:${line + 1}")
        } else null

        val command = when (kind) {
            "resume" -> Wire.Command.RESUME
            "pause" -> Wire.Command.PAUSE
            "run_to" -> Wire.Command.RUN_TO
            "step_over", "step_into", "step_out" -> Wire.Command.STEP
            else -> throw IllegalArgumentException("unknown control op '$kind'")
        }
        // A debugger command as the platform's step/resume actions issue it: never from inside
        // someone else's modal dialog (XDebuggerActionBase is not enabled in a modal context).
        // Such a dialog holds this post until the op's budget cancels it, and Ide.onEdt then
        // skips the block: so the command is recorded, and the handles dropped, only in the block,
        // right before the command is issued (the session is still paused, its handles still good).
        Ide.onEdt(ModalityState.nonModal()) {
            data.lastCommand = command
            // Values and frames die with the suspend context; drop them before the debuggee moves.
            if (kind != "pause") data.values.clear()
            if (kind != "pause") {
                restoreReturnValues(session, supports)
                // The recorder's step out (`return_value`, native/core/src/engine/recorder.rs)
                // shows what the call returned, as debugpy's showReturnValue does on the DAP
                // side. Only that one: the watcher costs a manager-thread event per method exit
                // (MethodReturnValueWatcher's SUSPEND_EVENT_THREAD requests), which is why the
                // platform ships it off. Set before the step is issued: the step command reads
                // it on the manager thread when it starts.
                if (kind == "step_out" && op.boolOr("return_value", false)) {
                    data.returnValuesBefore = supports.firstNotNullOfOrNull { it.showReturnValues(session, true) }
                }
            }
            when (kind) {
                "resume" -> session.resume()
                "pause" -> session.pause()
                "step_over" -> session.stepOver(op.boolOr("ignore_breakpoints", false))
                "step_into" -> if (op.boolOr("force", false)) session.forceStepInto() else session.stepInto()
                "step_out" -> session.stepOut()
                "run_to" -> session.runToPosition(runTo!!, op.boolOr("ignore_breakpoints", false))
            }
        }
    }

    /**
     * Puts "Show Method Return Values" back as the user had it before a step out turned it on.
     * Called before the next command (the value was read from the paused frame by then; turning
     * it off clears it) and when the session stops. Any thread: the switch only writes the
     * (volatile) application setting and clears the watcher (MethodReturnValueWatcher.setEnabled),
     * and a stop must restore it at once: when the IDE closes, sessions stop and settings are
     * saved in the same EDT task, so a restore posted for later would persist "on".
     */
    fun restoreReturnValues(session: XDebugSession, supports: List<LanguageDebugSupport> = LanguageDebugSupport.all()) {
        val data = Sessions.data(session)
        val before = data.returnValuesBefore ?: return
        data.returnValuesBefore = null
        if (!before) supports.firstNotNullOfOrNull { it.showReturnValues(session, false) }
    }

    /** [restoreReturnValues] for every session still holding a saved value: the plugin is going away. */
    fun restoreAllReturnValues(supports: List<LanguageDebugSupport> = LanguageDebugSupport.all()) {
        for (session in Sessions.withData { it.returnValuesBefore != null }) restoreReturnValues(session, supports)
    }

    /**
     * Steps act on the session's current thread; make [threadId] current first, as choosing a
     * thread in the Frames view does: its frames are computed from index 0 and the first one is
     * selected with isTopFrame = true (XFramesView.updateFrames → StackFramesListBuilder.start →
     * selectCurrentFrame → processFrameSelection, file id 5955924087). The paused thread is the
     * suspend context's active stack (see [StackOps.stacks]); `getTopFrame()` is never asked.
     */
    private suspend fun switchThread(session: XDebugSession, threadId: String, supports: List<LanguageDebugSupport>) {
        val stack = StackOps.stack(session, threadId)
        val top = XAsync.frames(stack, 1, 5_000).first.firstOrNull() ?: invalidState("thread '$threadId' has no frames")
        // Already the active thread: nothing is switched, nothing to wait for.
        val active = session.suspendContext?.activeExecutionStack?.let { StackOps.sameThread(it, stack) } == true
        Ide.onEdt(ModalityState.nonModal()) { session.setCurrentStackFrame(stack, top, true) }
        if (!active && supports.any { it.switchesThreadLater(session) }) awaitActive(session, stack, top, threadId)
        // The same thread, but maybe another frame was selected (select_frame): the step must not
        // start from the debugger's context before it names the top frame again.
        if (active) supports.forEach { it.awaitFrameSelection(session) }
    }

    private const val THREAD_SWITCH_TIMEOUT_MS = 5_000L

    /**
     * Waits until the session's suspend context has [stack]'s thread as its active stack and the
     * session took it over. Java switches on the debugger manager thread after the frame
     * selection ([LanguageDebugSupport.switchesThreadLater]) and steps whatever thread its context
     * holds when the step is called, so a step issued at once raced the switch and stepped the
     * thread paused before. The switch is no pause: DebuggerContextUtil.setStackFrame builds the
     * context in a HIGH manager-thread command, then (swingInvokeLater) `manager.setState(…,
     * Event.REFRESH)`; JavaDebugProcess's context listener schedules a command running
     * `initExecutionStacks(thread)` and then `XDebugSessionImpl.updateSuspendContext(…)`, which
     * sets `currentStackFrame` to the new active stack's top frame (a new JavaStackFrame:
     * JavaExecutionStack.initTopFrame) — no positionReached, no sessionPaused. The active stack
     * is switched one statement before that update, so both are awaited: a step in between would
     * let the late update mark the resumed session paused again. The state is read every 20 ms
     * (no listener to add and remove, and nothing missed that landed already).
     */
    private suspend fun awaitActive(session: XDebugSession, stack: com.intellij.xdebugger.frame.XExecutionStack, selected: com.intellij.xdebugger.frame.XStackFrame, threadId: String) {
        fun switched() = session.suspendContext?.activeExecutionStack?.let { StackOps.sameThread(it, stack) } == true
        val landed = kotlinx.coroutines.withTimeoutOrNull(THREAD_SWITCH_TIMEOUT_MS) {
            while (!(switched() && session.currentStackFrame !== selected)) kotlinx.coroutines.delay(20)
            true
        }
        if (landed == null) {
            if (session.isStopped) invalidState("the session has stopped")
            invalidState("the debugger did not switch to thread '$threadId' within $THREAD_SWITCH_TIMEOUT_MS ms; nothing was stepped. Call threads, then retry")
        }
    }
}
