package com.debuggermcp.listeners

import com.debuggermcp.DebuggerMcpService
import com.debuggermcp.adapter.Breakpoints
import com.debuggermcp.adapter.ControlOps
import com.debuggermcp.adapter.Sessions
import com.debuggermcp.adapter.StackOps
import com.debuggermcp.adapter.Wire
import com.debuggermcp.bridge.NativeBridge
import com.debuggermcp.json.Json
import com.debuggermcp.json.jsonObject
import com.intellij.execution.process.ProcessEvent
import com.intellij.execution.process.ProcessListener
import com.intellij.execution.process.ProcessOutputTypes
import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.application.ModalityState
import com.intellij.openapi.diagnostic.Logger
import com.intellij.openapi.util.Computable
import com.intellij.openapi.project.Project
import com.intellij.openapi.util.Key
import com.intellij.xdebugger.XDebugProcess
import com.intellij.xdebugger.XDebugSession
import com.intellij.xdebugger.XDebugSessionListener
import com.intellij.xdebugger.XDebuggerManager
import com.intellij.xdebugger.XDebuggerManagerListener

/**
 * Pushes debugger events into Rust (SPEC §4): session started, paused (thread, reason,
 * breakpoint ids), resumed, stopped (exit code), and the debuggee's output. Registered as a
 * project listener on XDebuggerManager.TOPIC in plugin.xml, so it sees sessions the user starts
 * too. Events are dropped while the engine is not running (nobody could use them).
 */
class DebuggerEventsListener(private val project: Project) : XDebuggerManagerListener {
    override fun processStarted(debugProcess: XDebugProcess) {
        // Listeners are attached even while the engine is not running yet, so a session started
        // before the first agent call still reports its pauses once the engine is up.
        val session = debugProcess.session
        val id = Sessions.id(session)
        push(jsonObject("event" to "session_started", "session" to Sessions.info(session)))
        session.addSessionListener(SessionEvents(project, session, id))
        debugProcess.processHandler.addProcessListener(OutputEvents(id))
    }

    internal class SessionEvents(
        val project: Project,
        val session: XDebugSession,
        val id: String,
        private val isReady: () -> Boolean = { ready() },
        private val queue: (suspend () -> Unit) -> Unit = { submit(it) },
    ) : XDebugSessionListener {
        /** Session-owned breakpoints (stop_on_exception) go away with the session. */
        fun releaseOwnedBreakpoints() {
            val owned = Sessions.data(session).ownedBreakpoints
            val copy = synchronized(owned) { owned.toList().also { owned.clear() } }
            if (copy.isEmpty()) return
            ApplicationManager.getApplication().invokeLater({
                // Closed meanwhile: ProjectCloseCleanup removed them before the save.
                if (project.isDisposed) return@invokeLater
                val manager = XDebuggerManager.getInstance(project).breakpointManager
                ApplicationManager.getApplication().runWriteAction(Computable {
                    copy.filter { bp -> manager.allBreakpoints.any { it === bp } }.forEach { manager.removeBreakpoint(it) }
                })
                copy.forEach { Breakpoints.forget(it) }
            }, ModalityState.nonModal())
        }

        // Runs on the debugger's own thread: never let a failure escape into it.
        override fun sessionPaused() {
            try {
                // XDebugSessionImpl.positionReachedInternal fires sessionPaused for ANY context, and
                // JavaDebugProcess posts `positionReached(new JavaSteppingSuspendContext(...))` while a
                // step is still running (its DebuggerContextListener, event CONTEXT in state
                // IN_STEPPING: JavaDebugProcess.java @026915342927f0aa3ebcf478bd2760f82dd23246).
                // updateSuspendContext then sets `myPaused = !(context is XSteppingSuspendContext)`
                // and isSuspended() is `paused && suspendContext != null` (XDebugSessionImpl.kt, file
                // id 3494500063): such a "pause" is not a stop the agent can inspect or step from.
                if (!session.isSuspended) return
                pushPaused()
            } catch (t: Throwable) {
                LOG.warn("could not report a pause", t)
            }
        }

        private fun pushPaused() {
            val data = Sessions.data(session)
            data.values.clear()
            if (!isReady()) return
            val context = session.suspendContext
            val active = context?.activeExecutionStack
            // Thread ids come from the same key→id map the threads op uses.
            val threadId = active?.let { a ->
                val stacks = context.executionStacks.toList().ifEmpty { listOf(a) }
                val ids = StackOps.threadIds(data, stacks)
                ids.getOrNull(stacks.indexOf(a)) ?: StackOps.threadIds(data, listOf(a)).first()
            } ?: ""
            val position = session.topFramePosition
            val lastCommand = data.lastCommand
            data.lastCommand = Wire.Command.NONE
            // The breakpoint model needs a read action: taken in a coroutine, not on this
            // (debugger) thread; the queue keeps this event ahead of the next resume.
            queue {
                val bpIds = try {
                    val atLine = position?.let { Breakpoints.enabledLineBreakpointsAt(project, it.file, it.line) } ?: emptyList()
                    // A stop no line breakpoint explains, outside a command: a field watchpoint's, when only one could be.
                    atLine.ifEmpty { Breakpoints.enabledWatchpoints(project).takeIf { (lastCommand == Wire.Command.NONE || lastCommand == Wire.Command.RESUME) && it.size == 1 } ?: emptyList() }
                } catch (t: Throwable) {
                    if (t is kotlin.coroutines.cancellation.CancellationException) throw t
                    emptyList()
                }
                val reason = Wire.pauseReason(lastCommand, bpIds, Breakpoints.anyEnabledExceptionBreakpoint(project))
                pushNow(jsonObject(
                    "event" to "paused",
                    "session_id" to id,
                    "thread_id" to threadId,
                    "reason" to reason,
                    "breakpoint_ids" to if (reason == "breakpoint") bpIds else emptyList<String>(),
                ))
            }
        }

        override fun sessionResumed() {
            Sessions.data(session).values.clear()
            push(jsonObject("event" to "resumed", "session_id" to id))
        }

        override fun sessionStopped() {
            Sessions.data(session).values.clear()
            // At once, on this thread: a restore posted to the EDT would run after an IDE exit
            // saved the setting as "on" (see ControlOps.restoreReturnValues).
            try {
                ControlOps.restoreReturnValues(session)
            } catch (t: Throwable) {
                LOG.warn("could not restore Show Method Return Values", t)
            }
            releaseOwnedBreakpoints()
            val exit = session.debugProcess.processHandler.exitCode
            push(jsonObject("event" to "stopped", "session_id" to id, "exit_code" to exit?.toLong()))
        }
    }

    private class OutputEvents(val id: String) : ProcessListener {
        override fun onTextAvailable(event: ProcessEvent, outputType: Key<*>) {
            val category = when (outputType) {
                ProcessOutputTypes.STDOUT -> "stdout"
                ProcessOutputTypes.STDERR -> "stderr"
                else -> "console"
            }
            pushOutput(id, category, event.text)
        }
    }

    companion object {
        private val LOG = Logger.getInstance(DebuggerEventsListener::class.java)

        fun ready(): Boolean = DebuggerMcpService.getInstance().isReady

        /** Queues [event] behind earlier ones (see [com.debuggermcp.adapter.OrderedEvents]). */
        fun push(event: Map<String, Any?>) {
            if (!ready()) return
            submit { pushNow(event) }
        }

        /**
         * The debuggee's output, which may be dropped while the queue is full (see
         * [com.debuggermcp.adapter.OrderedEvents.submitDroppable]); the next chunk that gets
         * through says how many were lost before it.
         */
        fun pushOutput(id: String, category: String, text: String) {
            if (!ready()) return
            DebuggerMcpService.getInstance().events.submitDroppable { lost ->
                val shown = if (lost == 0L) text else "[debugger-mcp: $lost output chunk(s) of this IDE's sessions were dropped before this one: the program wrote faster than the engine took events]\n$text"
                val event = jsonObject("event" to "output", "session_id" to id, "category" to category, "text" to shown)
                suspend { pushNow(event) }
            }
        }

        private fun submit(job: suspend () -> Unit) = DebuggerMcpService.getInstance().events.submit(job)

        private fun pushNow(event: Map<String, Any?>) {
            try {
                NativeBridge.pushEvent(Json.write(event))
            } catch (t: Throwable) {
                // Listener threads belong to the debugger; never let a bridge problem escape into it.
                LOG.warn("pushEvent failed", t)
            }
        }
    }
}
