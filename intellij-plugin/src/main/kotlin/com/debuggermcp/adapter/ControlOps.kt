package com.debuggermcp.adapter

import com.debuggermcp.json.JsonArgs
import com.intellij.xdebugger.XDebugSession
import com.intellij.xdebugger.XDebuggerUtil

/**
 * Resume, pause, steps and run-to-position. These return once the command is issued; the stop
 * that follows reaches Rust as a `paused` event from [com.debuggermcp.listeners.DebuggerEventsListener].
 */
internal object ControlOps {
    /**
     * Op `force_return`. IntelliJ's Force Return (ForceEarlyReturnAction: the value evaluated in
     * the frame, then ThreadReferenceProxyImpl.forceEarlyReturn on the debugger manager thread
     * and a resume) needs the Java debugger's engine classes (JavaStackFrame, DebugProcessImpl),
     * which this plugin does not reach yet: a clear refusal naming the alternative. The JDI
     * stand-in implements the op with ThreadReference.forceEarlyReturn.
     */
    @Suppress("UNUSED_PARAMETER")
    fun forceReturn(sessionId: String, threadId: String, frame: String, value: String): Nothing =
        unsupported("force_return is not wired in the IDE yet; step_out of the call, then set_variable on its result")

    suspend fun control(sessionId: String, threadId: String?, op: JsonArgs) {
        val session = Sessions.find(sessionId)
        if (session.isStopped) invalidState("the session has stopped")
        val data = Sessions.data(session)
        val kind = op.string("op")
        if (kind != "pause" && !session.isSuspended) invalidState("the session is running; '$kind' needs a paused session")
        if (kind == "pause" && session.isSuspended) return
        if (threadId != null && kind != "pause") switchThread(session, threadId)
        val runTo = if (kind == "run_to") {
            val file = Ide.file(op.string("file"))
            val line = Wire.toIdeLine(op.long("line"))
            XDebuggerUtil.getInstance().createPosition(file, line) ?: failed("cannot run to ${file.path}:${line + 1}")
        } else null

        data.lastCommand = when (kind) {
            "resume" -> Wire.Command.RESUME
            "pause" -> Wire.Command.PAUSE
            "run_to" -> Wire.Command.RUN_TO
            "step_over", "step_into", "step_out" -> Wire.Command.STEP
            else -> throw IllegalArgumentException("unknown control op '$kind'")
        }
        // Values and frames die with the suspend context; drop them before the debuggee moves.
        if (kind != "pause") data.values.clear()
        Ide.onEdt {
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
     * Steps act on the session's current thread; make [threadId] current first, as choosing a
     * thread in the Frames view does: its frames are computed from index 0 and the first one is
     * selected with isTopFrame = true (XFramesView.updateFrames → StackFramesListBuilder.start →
     * selectCurrentFrame → processFrameSelection, file id 5955924087). The paused thread is the
     * suspend context's active stack (see [StackOps.stacks]); `getTopFrame()` is never asked.
     */
    private suspend fun switchThread(session: XDebugSession, threadId: String) {
        val stack = StackOps.stack(session, threadId)
        val top = XAsync.frames(stack, 1, 5_000).first.firstOrNull() ?: invalidState("thread '$threadId' has no frames")
        Ide.onEdt { session.setCurrentStackFrame(stack, top, true) }
    }
}
