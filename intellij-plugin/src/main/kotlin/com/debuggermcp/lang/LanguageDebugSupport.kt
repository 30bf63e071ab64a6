package com.debuggermcp.lang

import com.intellij.openapi.extensions.ExtensionPointName
import com.intellij.openapi.project.Project
import com.intellij.xdebugger.XDebugSession
import com.intellij.xdebugger.breakpoints.XBreakpoint
import com.intellij.xdebugger.breakpoints.XBreakpointProperties
import com.intellij.xdebugger.frame.XStackFrame

/**
 * What the platform's XDebugger API cannot express generically: exception breakpoints and hit
 * counts are language-specific. Implementations live in optional plugin configs (the Java one in
 * debugger-mcp-java.xml, loaded only when the Java plugin is present), so the core plugin never
 * links against a language plugin's classes.
 */
interface LanguageDebugSupport {
    /** Exception breakpoint description for the wire. */
    class ExceptionInfo(val exception: String, val caught: Boolean, val uncaught: Boolean)

    /** Creates an exception breakpoint (inside a write action), or null if [exception] is not for this language. */
    fun addExceptionBreakpoint(project: Project, exception: String, caught: Boolean, uncaught: Boolean): XBreakpoint<*>?

    /** Describes [breakpoint] if it is one of this language's exception breakpoints. */
    fun describeException(breakpoint: XBreakpoint<*>): ExceptionInfo?

    /**
     * Sets (or clears, with null) "stop on the n-th hit" in breakpoint [properties]; false if they
     * are not of this language. Changing properties fires no breakpoint event, so a live session
     * does not see it: callers set it before adding the breakpoint, or refresh it afterwards
     * (see [com.debuggermcp.adapter.Wire.refreshLiveBreakpoint]).
     */
    fun setHitCount(properties: XBreakpointProperties<*>, count: Int?): Boolean

    /** The hit-count condition of [breakpoint], or null. */
    fun hitCount(breakpoint: XBreakpoint<*>): Int?

    /** The exception class meaning "any exception" in this language (launch's `stop_on_exception`). */
    val anyException: String

    /** A field watchpoint's field and what it stops on. */
    class FieldWatch(val className: String?, val fieldName: String?, val write: Boolean, val read: Boolean)

    /**
     * Id of this language's field watchpoint type (a line breakpoint type placed on the field's
     * declaration, like Java's "java-field"), or null when the language has none.
     */
    val fieldWatchpointTypeId: String? get() = null

    /** Properties of a field watchpoint on [className].[fieldName] stopping on writes and/or reads. */
    fun fieldWatchpointProperties(className: String?, fieldName: String, write: Boolean, read: Boolean): XBreakpointProperties<*>? = null

    /** Describes [breakpoint] if it is one of this language's field watchpoints. */
    fun describeFieldWatchpoint(breakpoint: XBreakpoint<*>): FieldWatch? = null

    /** Whether [forceReturn] can work at all (the handshake's `supports_force_return`). */
    val canForceReturn: Boolean get() = false

    /**
     * Op `force_return`: the call running in [frame] (the top frame of the paused [session] when
     * [isTop]) returns [value] when the thread next moves. False when [frame] is not this
     * language's; refusals are [com.debuggermcp.adapter.OpException]s naming the debugger's reason.
     */
    suspend fun forceReturn(session: XDebugSession, frame: XStackFrame, isTop: Boolean, value: String): Boolean = false

    /**
     * Turns the debugger's method-return-value display on or off for [session] (IntelliJ's "Show
     * Method Return Values"); returns the setting as it was, or null when [session] is not this
     * language's or its debugger has no such display.
     */
    fun showReturnValues(session: XDebugSession, on: Boolean): Boolean? = null

    /** A value's type as the language names it; [name] null when even the language cannot tell. */
    class TypeName(val name: String?)

    /**
     * The type of [value] (a value of a paused [session]) as this language knows it, or null when
     * [value] is not this language's: the presentation's type is a display label (Java's is the
     * `{ArrayList@1234}` id label, or nothing for a primitive), not a type.
     */
    suspend fun valueType(session: XDebugSession, value: com.intellij.xdebugger.frame.XValue): TypeName? = null

    /**
     * How long the children of [frame] may still grow after the debugger's final batch, given
     * the [names] of the values listed and whether a group ([hasGroup]) is among them: 0 when
     * nothing more is expected. Java adds a static frame's Static group late.
     */
    suspend fun lateChildrenMs(session: XDebugSession, frame: XStackFrame, names: List<String>, hasGroup: Boolean): Long = 0

    /**
     * Whether [session]'s debugger moves its suspend context's active stack to the thread of a
     * frame selected with `setCurrentStackFrame`, asynchronously, and steps that thread only once
     * it has (Java); a step issued before then steps the previous thread.
     */
    fun switchesThreadLater(session: XDebugSession): Boolean = false

    /**
     * Returns once [session]'s debugger has taken over a frame selection just made on the EDT
     * (`setCurrentStackFrame`) far enough that a command posted to the EDT afterwards sees it
     * (Java: its debugger context names the selected frame). Nothing to wait for by default.
     */
    suspend fun awaitFrameSelection(session: XDebugSession) {}

    /**
     * set_value of [value], listed as [name] among the variables of [frame] of [session] (or as a
     * child of one of them), whose evaluation expression is [evaluateName] (null when the debugger
     * gives none): true when this language assigned [expression] to it in that frame itself,
     * because the value's own modifier would work in another context (Java: a local's, a field's
     * and an array element's modifier use the IDE's current debugger context); false when the
     * modifier is right (the caller then uses it). Failures are
     * [com.debuggermcp.adapter.OpException]s with the debugger's message.
     */
    suspend fun assignInFrame(
        session: XDebugSession,
        frame: XStackFrame,
        value: com.intellij.xdebugger.frame.XValue,
        name: String,
        expression: String,
        evaluateName: String? = null,
    ): Boolean = false

    /**
     * The pid of the local process [process]'s debugger is attached to, as the debugger itself
     * records it, or null when [process] is not this language's or its debugger keeps no pid
     * (an attach by pid ties its session by this first: AttachOps). Called from
     * XDebuggerManager.TOPIC's processStarted, before the session's init, so it must read the
     * process given, not the session's (XDebugSession.getDebugProcess is set only by that init).
     */
    fun attachedPid(process: com.intellij.xdebugger.XDebugProcess): Int? = null

    /**
     * The depth of [frame] (0 = top) in its thread as this language's debugger counts it, or
     * null when [frame] is not this language's or it cannot tell. The Frames view may leave frames
     * out without a placeholder (hidden library frames with folding off), so a frame's position in
     * the list is not its depth.
     */
    fun frameDepth(session: XDebugSession, frame: XStackFrame): Int? = null

    companion object {
        val EP_NAME: ExtensionPointName<LanguageDebugSupport> = ExtensionPointName("com.debuggermcp.languageDebugSupport")

        fun all(): List<LanguageDebugSupport> = EP_NAME.extensionList
    }
}
