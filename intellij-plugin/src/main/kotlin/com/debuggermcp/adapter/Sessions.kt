package com.debuggermcp.adapter

import com.intellij.execution.process.ProcessHandler
import com.intellij.openapi.project.Project
import com.intellij.xdebugger.XDebugSession
import com.intellij.xdebugger.XDebuggerManager
import com.intellij.xdebugger.frame.XExecutionStack
import com.intellij.xdebugger.frame.XStackFrame
import java.util.WeakHashMap

/** Per-session adapter state: value handles (cleared on resume), thread ids, last command. */
internal class SessionData {
    val values = HandleTable()
    val threads = Wire.ThreadIds()

    @Volatile
    var lastCommand = Wire.Command.NONE

    /**
     * "Show Method Return Values" as it was before a step out turned it on (see
     * [ControlOps.restoreReturnValues]); null when this plugin has not changed it.
     */
    @Volatile
    var returnValuesBefore: Boolean? = null

    /** Set when the agent launched the session, so `sessions` can report the mode. */
    @Volatile
    var mode: String = "debug"

    /**
     * The pid an attach (AttachOps) connected this session to: ending it detaches by default, and
     * `terminate` ends that process.
     */
    @Volatile
    var attachedPid: Int? = null

    /** Breakpoints created for this session only (stop_on_exception), removed when it stops. */
    val ownedBreakpoints: MutableList<com.intellij.xdebugger.breakpoints.XBreakpoint<*>> =
        java.util.Collections.synchronizedList(ArrayList())

    /** Frame handles remember their stack so select_frame can switch threads. */
    class FrameRef(val stack: XExecutionStack, val frame: XStackFrame, val index: Int)
}

/**
 * Ids for debug sessions ("s1") and run-mode processes ("r1"), stable for their lifetime and
 * never keeping a finished session alive.
 */
internal object Sessions {
    private val ids = IdRegistry<XDebugSession>("s")
    private val data = WeakHashMap<XDebugSession, SessionData>()

    fun id(session: XDebugSession): String = ids.idOf(session)

    fun data(session: XDebugSession): SessionData = synchronized(data) { data.getOrPut(session) { SessionData() } }

    /** Sessions whose data satisfies [test] (a snapshot; sessions nobody holds are gone already). */
    fun withData(test: (SessionData) -> Boolean): List<XDebugSession> = synchronized(data) { data.filterValues(test).keys.toList() }

    fun find(id: String): XDebugSession {
        ids.find(id)?.let { return it }
        // Sessions the user started before anyone asked get their id on first sight.
        for (project in Ide.openProjects()) {
            for (s in XDebuggerManager.getInstance(project).debugSessions) {
                if (ids.idOf(s) == id) return s
            }
        }
        notFound("no debug session '$id'")
    }

    fun state(session: XDebugSession): String = when {
        session.isStopped -> "stopped"
        session.isSuspended -> "paused"
        else -> "running"
    }

    /** SessionInfo JSON. */
    fun info(session: XDebugSession): Map<String, Any?> = com.debuggermcp.json.jsonObject(
        "id" to id(session),
        "name" to session.sessionName,
        "state" to state(session),
        "run_configuration" to session.runProfile?.name,
        "mode" to data(session).mode,
        "process_id" to data(session).attachedPid,
        "attached" to (data(session).attachedPid != null).takeIf { it },
    )

    fun ofProject(project: Project): List<XDebugSession> = XDebuggerManager.getInstance(project).debugSessions.toList()

    /**
     * Run-mode (no debugger) processes started through `launch`. A run does not keep its project
     * alive (issue 27 N3: a closed project stayed reachable from here until the next `ofProject`
     * of any project); ended runs are dropped whenever another run is added or a project's runs
     * are listed.
     */
    object Runs {
        class Run(val id: String, val name: String, project: Project, val handler: ProcessHandler) {
            private val projectRef = java.lang.ref.WeakReference(project)

            /** The project it runs for, or null once that project is gone. */
            val project: Project? get() = projectRef.get()
        }

        private val ids = IdRegistry<ProcessHandler>("r")
        private val runs = LinkedHashMap<String, Run>()

        private fun prune() {
            runs.values.removeIf { it.handler.isProcessTerminated || it.project.let { p -> p == null || p.isDisposed } }
        }

        @Synchronized
        fun add(project: Project, name: String, handler: ProcessHandler): Run {
            prune()
            val run = Run(ids.idOf(handler), name, project, handler)
            runs[run.id] = run
            return run
        }

        @Synchronized
        fun find(id: String): Run? = runs[id]

        @Synchronized
        fun ofProject(project: Project): List<Run> {
            prune()
            return runs.values.filter { it.project === project }
        }

        fun info(run: Run): Map<String, Any?> = com.debuggermcp.json.jsonObject(
            "id" to run.id,
            "name" to run.name,
            "state" to if (run.handler.isProcessTerminated) "stopped" else "running",
            "run_configuration" to run.name,
            "mode" to "run",
        )
    }
}
