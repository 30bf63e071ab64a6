package com.debuggermcp.listeners

import com.debuggermcp.adapter.Breakpoints
import com.debuggermcp.json.jsonObject
import com.intellij.openapi.project.Project
import com.intellij.xdebugger.breakpoints.XBreakpoint
import com.intellij.xdebugger.breakpoints.XBreakpointListener

/**
 * Tells Rust about breakpoint changes made anywhere (gutter clicks, the Breakpoints dialog,
 * temporary breakpoints removing themselves), so its view of owners and hits stays right.
 */
class BreakpointEventsListener(private val project: Project) : XBreakpointListener<XBreakpoint<*>> {
    override fun breakpointAdded(breakpoint: XBreakpoint<*>) = changed(breakpoint)

    override fun breakpointChanged(breakpoint: XBreakpoint<*>) = changed(breakpoint)

    /**
     * A debugger marked the breakpoint valid or invalid (XDebugSession.setBreakpointVerified /
     * setBreakpointInvalid → XBreakpointManagerImpl.fireBreakpointPresentationUpdated, the event
     * the gutter repaints on): the agent gets its `verified` and the debugger's message.
     */
    override fun breakpointPresentationUpdated(breakpoint: XBreakpoint<*>, session: com.intellij.xdebugger.XDebugSession?) = changed(breakpoint)

    override fun breakpointRemoved(breakpoint: XBreakpoint<*>) {
        if (!DebuggerEventsListener.ready()) return
        DebuggerEventsListener.push(jsonObject("event" to "breakpoint_removed", "id" to Breakpoints.id(breakpoint)))
        Breakpoints.forget(breakpoint)
    }

    private fun changed(breakpoint: XBreakpoint<*>) {
        if (!DebuggerEventsListener.ready()) return
        // With the project: the breakpoint it waits for (`master`) is the project's.
        val info = try { Breakpoints.info(breakpoint, project) } catch (_: Throwable) { null } ?: return
        DebuggerEventsListener.push(jsonObject("event" to "breakpoint_changed", "breakpoint" to info))
    }
}
