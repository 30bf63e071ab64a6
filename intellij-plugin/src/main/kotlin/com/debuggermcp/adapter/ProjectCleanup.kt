package com.debuggermcp.adapter

import com.intellij.execution.RunnerAndConfigurationSettings
import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.project.Project
import com.intellij.openapi.util.Computable
import com.intellij.xdebugger.XDebuggerManager
import com.intellij.xdebugger.breakpoints.XBreakpoint

/**
 * What the agent's sessions added to a project for their own use only — `stop_on_exception`'s
 * breakpoint ([SessionData.ownedBreakpoints]) and debug_test's temporary run configuration — and
 * that must not outlive them. Normally a session's stop removes them, but that removal is posted
 * to the EDT from sessionStopped, which comes asynchronously (XDebugSessionImpl.stopImpl →
 * `myDebugProcess.stopAsync().onSuccess { processStopped() }`, XDebugSessionImpl.kt
 * @026915342927): when the project (or the IDE) closes with a session running, the project is
 * saved first, in the close itself (ProjectManagerImpl.closeProject: `projectClosingBeforeSave`
 * listeners, then `saveSettingsUnderModalProgress(project)`, then `projectClosing`, then the
 * dispose; closeAndDisposeAllProjects, which the IDE's exit runs, closes each project the same
 * way: ProjectManagerImpl.kt, file id 1497337143), so the breakpoint and the configuration were
 * written into the project's workspace. [releaseBeforeSave] takes them away before that save.
 */
internal object ProjectCleanup {
    /** Per project: debug_test's temporary configurations, each with the selection to give back ([TestOps.removeOurs]). */
    private val configurations = java.util.WeakHashMap<Project, java.util.IdentityHashMap<RunnerAndConfigurationSettings, RunnerAndConfigurationSettings?>>()

    /**
     * Per project: launches' `stop_on_exception` breakpoints not yet owned by a session (the launch
     * still waits for its start, maybe a before-run build of minutes: re-check audit R2).
     */
    private val breakpoints = java.util.WeakHashMap<Project, MutableSet<XBreakpoint<*>>>()

    /** A launch added [breakpoint] to [project] for its session-to-be. */
    fun ownBreakpoint(project: Project, breakpoint: XBreakpoint<*>) {
        synchronized(breakpoints) { breakpoints.getOrPut(project) { java.util.Collections.newSetFromMap(java.util.IdentityHashMap()) } += breakpoint }
    }

    /** [breakpoint] is now its session's ([SessionData.ownedBreakpoints]) or removed. */
    fun forgetBreakpoint(project: Project, breakpoint: XBreakpoint<*>) {
        synchronized(breakpoints) { breakpoints[project]?.remove(breakpoint) }
    }

    /** debug_test registered [settings] as a temporary configuration of [project], where the user had [userSelection] selected. */
    fun ownConfiguration(project: Project, settings: RunnerAndConfigurationSettings, userSelection: RunnerAndConfigurationSettings?) {
        synchronized(configurations) { configurations.getOrPut(project) { java.util.IdentityHashMap() }[settings] = userSelection }
    }

    /** [settings] was removed (or kept by the user): nothing to clean any more. */
    fun forgetConfiguration(project: Project, settings: RunnerAndConfigurationSettings) {
        synchronized(configurations) { configurations[project]?.remove(settings) }
    }

    /**
     * Removes, now, every breakpoint owned by a session of [project] (or by a launch still waiting
     * for its session) and every temporary
     * configuration debug_test registered in it (unless the user kept it), giving the toolbar its
     * selection back ([TestOps.removeOurs]).
     * On the EDT, outside any write action, as ProjectManagerImpl.closeProject calls its
     * `projectClosingBeforeSave` listeners (it refuses to run under a write action, and asserts
     * write-intent read access).
     */
    fun releaseBeforeSave(project: Project) {
        val breakpoints = ArrayList<XBreakpoint<*>>()
        for (session in Sessions.withData { it.ownedBreakpoints.isNotEmpty() }) {
            if (session.project !== project) continue
            val owned = Sessions.data(session).ownedBreakpoints
            synchronized(owned) { breakpoints += owned; owned.clear() }
        }
        synchronized(this.breakpoints) { this.breakpoints.remove(project)?.let { breakpoints += it } }
        if (breakpoints.isNotEmpty()) {
            val manager = XDebuggerManager.getInstance(project).breakpointManager
            ApplicationManager.getApplication().runWriteAction(Computable {
                breakpoints.filter { bp -> manager.allBreakpoints.any { it === bp } }.forEach { manager.removeBreakpoint(it) }
            })
            breakpoints.forEach { Breakpoints.forget(it) }
        }
        val settings = synchronized(configurations) { configurations.remove(project)?.toList() ?: emptyList() }
        settings.forEach { (ours, userSelection) -> TestOps.removeOurs(project, ours, userSelection) }
    }
}
