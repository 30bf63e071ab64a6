package com.debuggermcp.adapter

import com.debuggermcp.json.JsonArgs
import com.debuggermcp.json.jsonObject
import com.debuggermcp.lang.LanguageDebugSupport
import com.intellij.openapi.application.ModalityState
import com.intellij.openapi.project.Project
import com.intellij.openapi.vfs.VfsUtilCore
import com.intellij.openapi.vfs.VirtualFile
import com.intellij.xdebugger.XDebuggerManager
import com.intellij.xdebugger.XDebuggerUtil
import com.intellij.xdebugger.breakpoints.SuspendPolicy
import com.intellij.xdebugger.breakpoints.XBreakpoint
import com.intellij.xdebugger.breakpoints.XBreakpointProperties
import com.intellij.xdebugger.breakpoints.XLineBreakpoint
import com.intellij.xdebugger.breakpoints.XLineBreakpointType
import com.intellij.xdebugger.evaluation.EvaluationMode
import java.util.Collections
import java.util.WeakHashMap

/**
 * Breakpoint ops over XBreakpointManager. Model changes happen in write actions on the EDT;
 * reads (canPutAt, listing) in read actions on the op's background thread.
 *
 * Binding: the platform has no public "verified" flag (debuggers report it to the gutter only),
 * so a line breakpoint counts as verified when a breakpoint type accepts the line (canPutAt),
 * which is what the IDE's own gutter click checks. When the requested line cannot take one
 * (blank line, comment), the next lines are tried and the move is reported.
 */
internal object Breakpoints {
    private val ids = IdRegistry<XBreakpoint<*>>("b")

    /** Line the agent asked for (0-based) when we moved the breakpoint. */
    private val requested: MutableMap<XBreakpoint<*>, Int> = Collections.synchronizedMap(WeakHashMap())

    /** Lines looked at below a line that cannot hold a breakpoint. */
    private const val MAX_MOVE = 10

    fun id(bp: XBreakpoint<*>) = ids.idOf(bp)

    fun forget(bp: XBreakpoint<*>) {
        requested.remove(bp)
        ids.forget(bp)
    }

    private fun manager(project: Project) = XDebuggerManager.getInstance(project).breakpointManager

    suspend fun find(project: Project, id: String): XBreakpoint<*> {
        ids.find(id)?.let { return it }
        // Breakpoints the user set get their id when first listed; make sure they have one.
        Ide.read { manager(project).allBreakpoints.forEach { ids.idOf(it) } }
        return ids.find(id) ?: notFound("no breakpoint '$id'")
    }

    fun policyToWire(p: SuspendPolicy): String = when (p) {
        SuspendPolicy.ALL -> "all"
        SuspendPolicy.THREAD -> "thread"
        SuspendPolicy.NONE -> "none"
    }

    fun policyFromWire(s: String): SuspendPolicy = when (s) {
        "all" -> SuspendPolicy.ALL
        "thread" -> SuspendPolicy.THREAD
        "none" -> SuspendPolicy.NONE
        else -> throw IllegalArgumentException("suspend_policy must be all, thread or none, got '$s'")
    }

    /**
     * The debugger's reason a breakpoint is invalid, as the gutter's tooltip shows it, or null
     * while it is valid or not checked yet. XBreakpointBase.getErrorMessage (platform/xdebugger-impl/
     * src/com/intellij/xdebugger/impl/breakpoints/XBreakpointBase.java, file id 18364313596): the
     * current session's CustomizedBreakpointPresentation (what a debugger sets with
     * XDebugSession.setBreakpointInvalid(breakpoint, message), e.g. Java's "No executable code
     * found at line …"), else the breakpoint's own. XBreakpointBase is xdebugger-impl, so it is
     * read reflectively (public, `@Nullable String getErrorMessage()`), like [XAsync.HiddenFrames].
     */
    fun errorMessage(bp: XBreakpoint<*>): String? = try {
        (bp.javaClass.getMethod("getErrorMessage").invoke(bp) as? String)?.takeIf { it.isNotBlank() }
    } catch (_: ReflectiveOperationException) {
        null
    } catch (_: RuntimeException) {
        null
    }

    /**
     * XDependentBreakpointManager of the project: "Disable until hit the following breakpoint".
     * It is xdebugger-impl (`@ApiStatus.Internal`), reached as the platform's own UI reaches it,
     * XBreakpointManagerImpl.getDependentBreakpointManager (platform/xdebugger-impl/src/com/
     * intellij/xdebugger/impl/breakpoints/XBreakpointManagerImpl.java, file id 1648346929),
     * reflectively like [errorMessage]; null where the manager has none.
     */
    private fun dependents(project: Project): Any? = try {
        val manager = manager(project)
        manager.javaClass.getMethod("getDependentBreakpointManager").invoke(manager)
    } catch (_: ReflectiveOperationException) {
        null
    }

    private fun dependentCall(deps: Any, name: String, vararg args: Any?): Any? {
        val method = deps.javaClass.methods.firstOrNull { it.name == name && it.parameterCount == args.size }
            ?: unsupported("this IDE's XDependentBreakpointManager has no $name")
        return try {
            method.invoke(deps, *args)
        } catch (e: java.lang.reflect.InvocationTargetException) {
            throw e.targetException
        }
    }

    /** The breakpoint [bp] waits for, read from XDependentBreakpointManager.getMasterBreakpoint. */
    private fun masterOf(bp: XBreakpoint<*>, deps: Any?): XBreakpoint<*>? =
        deps?.let { (dependentCall(it, "getMasterBreakpoint", bp) as? XBreakpoint<*>) }

    /**
     * `after` (op `set_master_breakpoint`): [id] stops only once [master] was hit in the session,
     * then as usual (null: stops waiting). As the Breakpoints dialog saves it:
     * XMasterBreakpointPanel.saveProperties (platform/xdebugger-impl/src/com/intellij/xdebugger/
     * impl/breakpoints/ui/XMasterBreakpointPanel.java) calls, on the EDT,
     * `setMasterBreakpoint(slave, master, leaveEnabled)` or `clearMasterBreakpoint(slave)`
     * (XDependentBreakpointManager.java, same package's parent, file id 58633227557; they take
     * the manager's state lock themselves). leaveEnabled = true: the dialog's "Leave enabled",
     * so after its master's hit the breakpoint behaves as any other for the rest of the session.
     * Each session keeps the slave unregistered until the master is reached and registers it
     * then (XDebugSessionBreakpointManager.initBreakpoints → disableSlaveBreakpoints,
     * processDependencies); a removed master clears its slaves (onBreakpointRemoved).
     */
    suspend fun setMaster(project: Project, id: String, master: String?): Map<String, Any?> {
        val bp = find(project, id)
        val m = master?.let { find(project, it) }
        if (m === bp) failed("breakpoint '$id' cannot wait for itself")
        val deps = dependents(project) ?: unsupported("this IDE's breakpoint manager keeps no dependent breakpoints")
        Ide.onEdt(ModalityState.nonModal()) {
            if (m == null) dependentCall(deps, "clearMasterBreakpoint", bp)
            else dependentCall(deps, "setMasterBreakpoint", bp, m, true)
        }
        return Ide.read { info(bp, project) } ?: unsupported("breakpoint '$id' is of a kind this table does not describe")
    }

    /** BreakpointInfo JSON, or null for kinds the table does not model (method, field, ...). */
    fun info(bp: XBreakpoint<*>, project: Project? = null): Map<String, Any?>? {
        val error = errorMessage(bp)
        // The master, where the project is known (a listener's event names none).
        val master = try { masterOf(bp, project?.let { dependents(it) }) } catch (_: RuntimeException) { null }
        val common = arrayOf(
            "id" to id(bp),
            "master" to master?.let { id(it) },
            "enabled" to bp.isEnabled,
            "condition" to bp.conditionExpression?.expression?.takeIf { it.isNotEmpty() },
            "log_message" to bp.logExpressionObject?.expression?.takeIf { it.isNotEmpty() },
            "suspend_policy" to policyToWire(bp.suspendPolicy),
            "hit_condition" to LanguageDebugSupport.all().firstNotNullOfOrNull { it.hitCount(bp) }?.toString(),
        )
        val watch = watchOf(bp)
        if (bp is XLineBreakpoint<*> && watch != null) {
            // A field watchpoint is a line breakpoint on the field's declaration (JavaFieldBreakpointType).
            return jsonObject(
                *common,
                "kind" to "data",
                "file" to VfsUtilCore.urlToPath(bp.fileUrl),
                "line" to Wire.toWireLine(bp.line),
                "verified" to (error == null),
                "message" to error,
                "temporary" to false,
                "watch" to watch.first,
                "access" to watch.second,
            )
        }
        if (bp is XLineBreakpoint<*>) {
            val line = Wire.toWireLine(bp.line)
            return jsonObject(
                *common,
                "kind" to "line",
                "file" to VfsUtilCore.urlToPath(bp.fileUrl),
                "requested_line" to (requested[bp]?.let { Wire.toWireLine(it) } ?: line),
                "line" to line,
                "verified" to (error == null),
                "message" to listOfNotNull(
                    requested[bp]?.let { "moved from line ${it + 1}: no breakpoint can be set there" },
                    error,
                ).joinToString("; ").ifEmpty { null },
                "temporary" to bp.isTemporary,
            )
        }
        val ex = LanguageDebugSupport.all().firstNotNullOfOrNull { it.describeException(bp) } ?: return null
        return jsonObject(
            *common,
            "kind" to "exception",
            "verified" to (error == null),
            "message" to error,
            "temporary" to false,
            "exception" to ex.exception,
            "caught" to ex.caught,
            "uncaught" to ex.uncaught,
        )
    }

    /**
     * Expression and access of a watchpoint: the agent's own, or one the user made in the IDE
     * (named Class.field).
     */
    private fun watchOf(bp: XBreakpoint<*>): Pair<String, String>? = Watchpoints.watchOf(bp)
        ?: LanguageDebugSupport.all().firstNotNullOfOrNull { it.describeFieldWatchpoint(bp) }?.let { w ->
            (listOfNotNull(w.className, w.fieldName).joinToString(".")) to when {
                w.write && w.read -> "read_write"
                w.read -> "read"
                else -> "write"
            }
        }

    /**
     * Enabled watchpoints: a stop no line breakpoint explains, outside a step, is theirs. The
     * XDebugger API does not say which breakpoint a session stopped at (XDebugSessionImpl keeps
     * it internally), so a stop is attributed only when one watchpoint could have caused it.
     */
    suspend fun enabledWatchpoints(project: Project): List<String> = Ide.read {
        manager(project).allBreakpoints.filter { it.isEnabled && watchOf(it) != null }.map { id(it) }
    }

    suspend fun list(project: Project): List<Map<String, Any?>> = Ide.read {
        manager(project).allBreakpoints.mapNotNull { info(it, project) }
    }

    /** Breakpoint ids at a 0-based line of a file (for pause reasons). */
    suspend fun enabledLineBreakpointsAt(project: Project, file: VirtualFile, line: Int): List<String> = Ide.read {
        manager(project).allBreakpoints.filter {
            it is XLineBreakpoint<*> && it.isEnabled && it.line == line && VfsUtilCore.urlToPath(it.fileUrl) == file.path &&
                watchOf(it) == null
        }.map { id(it) }
    }

    suspend fun anyEnabledExceptionBreakpoint(project: Project): Boolean = Ide.read {
        manager(project).allBreakpoints.any { bp ->
            bp.isEnabled && LanguageDebugSupport.all().any { it.describeException(bp) != null }
        }
    }

    /**
     * The breakpoint type a gutter click would create at [line], searching downwards up to
     * [MAX_MOVE] lines. The platform ranks every type that accepts the line by `getPriority()`,
     * highest first (XBreakpointUtil.getAvailableLineBreakpointInfo, platform/xdebugger-impl/src/
     * com/intellij/xdebugger/impl/breakpoints/XBreakpointUtil.kt, file id 1883511056:
     * `typeWinner.sortByDescending { it.priority }`), not by registration order: Java registers
     * its method, field and exception types before JavaLineBreakpointType, and a field line
     * accepts a field watchpoint too.
     * A plain read action, not a smart one: the platform's own placement asks `canPutAt` inside
     * `readAction { }` (XBreakpointUIUtil.getAvailableLineBreakpointInfoProxy, file id 13368966773),
     * so the types answer during indexing as they do for a gutter click.
     */
    internal suspend fun placement(project: Project, file: VirtualFile, line: Int): Pair<XLineBreakpointType<*>, Int>? = Ide.read {
        val types = XDebuggerUtil.getInstance().lineBreakpointTypes.sortedByDescending { it.priority }
        (line..line + MAX_MOVE).firstNotNullOfOrNull { l ->
            types.firstOrNull { it.canPutAt(file, l, project) }?.let { it to l }
        }
    }

    suspend fun addLine(project: Project, spec: JsonArgs): Map<String, Any?> {
        val file = Ide.file(spec.string("file"))
        val line = Wire.toIdeLine(spec.long("line"))
        val (type, actual) = placement(project, file, line)
            ?: failed("no breakpoint can be set at ${file.path}:${line + 1} or the $MAX_MOVE lines below it")
        val hit = spec.stringOrNull("hit_condition")?.let { parseHitCount(it) }
        val bp = Ide.writeAction {
            val manager = manager(project)
            // Re-setting a line updates the breakpoint that is there instead of adding a twin.
            val existing = manager.allBreakpoints.firstOrNull {
                it is XLineBreakpoint<*> && it.type == type && it.line == actual && it.fileUrl == file.url
            }
            @Suppress("UNCHECKED_CAST")
            val bp: XBreakpoint<*> = existing ?: run {
                val t = type as XLineBreakpointType<XBreakpointProperties<*>>
                // Language properties (hit count) go in before the breakpoint exists: a running
                // session creates its requests from them when the breakpoint is added.
                val properties = t.createBreakpointProperties(file, actual)
                if (hit != null) setHitCount(properties, hit)
                manager.addLineBreakpoint(t, file.url, actual, properties, spec.boolOr("temporary", false))
            }
            applyCommon(bp, spec.stringOrNull("condition"), spec.stringOrNull("log_message"),
                policyFromWire(spec.stringOrNull("suspend_policy") ?: "all"), spec.boolOr("enabled", true))
            if (bp is XLineBreakpoint<*>) bp.isTemporary = spec.boolOr("temporary", false)
            if (existing != null && hit != null) updateHitCount(bp, hit)
            bp
        }
        if (actual != line) requested[bp] = line else requested.remove(bp)
        return Ide.read { info(bp, project) }!!
    }

    /** A Java field watchpoint (see [Watchpoints]). */
    suspend fun addData(project: Project, spec: JsonArgs): Map<String, Any?> = Watchpoints.add(project, spec)

    suspend fun addException(project: Project, spec: JsonArgs): Map<String, Any?> {
        val supports = LanguageDebugSupport.all()
        if (supports.isEmpty()) unsupported("exception breakpoints need a language plugin with debugger support (e.g. Java)")
        val exception = spec.string("exception")
        val bp = Ide.writeAction {
            val bp = supports.firstNotNullOfOrNull {
                it.addExceptionBreakpoint(project, exception, spec.boolOr("caught", true), spec.boolOr("uncaught", true))
            } ?: unsupported("no installed debugger understands exception '$exception'")
            applyCommon(bp, spec.stringOrNull("condition"), null,
                policyFromWire(spec.stringOrNull("suspend_policy") ?: "all"), spec.boolOr("enabled", true))
            bp
        }
        return Ide.read { info(bp) }!!
    }

    suspend fun update(project: Project, id: String, update: JsonArgs): Map<String, Any?> {
        val bp = find(project, id)
        val hit = update.stringOrNull("hit_condition")
        Ide.writeAction {
            update.boolOrNull("enabled")?.let { bp.isEnabled = it }
            // Some("") clears a string field.
            update.stringOrNull("condition")?.let { bp.conditionExpression = if (it.isEmpty()) null else XAsync.expression(it, EvaluationMode.EXPRESSION) }
            update.stringOrNull("log_message")?.let { setLog(bp, it) }
            update.stringOrNull("suspend_policy")?.let { bp.suspendPolicy = policyFromWire(it) }
            update.boolOrNull("temporary")?.let { t ->
                (bp as? XLineBreakpoint<*>)?.let { it.isTemporary = t } ?: if (t) unsupported("only line breakpoints can be temporary") else Unit
            }
            if (hit != null) updateHitCount(bp, if (hit.isEmpty()) null else parseHitCount(hit))
        }
        return Ide.read { info(bp, project) } ?: unsupported("breakpoint '$id' is of a kind this table does not describe")
    }

    suspend fun remove(project: Project, id: String) {
        val bp = find(project, id)
        Ide.writeAction { manager(project).removeBreakpoint(bp) }
        forget(bp)
    }

    /**
     * launch's `stop_on_exception`: an "any uncaught exception" breakpoint of the installed
     * language support, owned by the session and removed when it stops. Uncaught only: the
     * runtime throws and catches exceptions internally all the time (class loading, ...).
     */
    /** The language support whose exception breakpoint `stop_on_exception` adds; tests replace it (no extension area there). */
    internal var stopOnExceptionSupport: () -> LanguageDebugSupport? = { LanguageDebugSupport.all().firstOrNull() }

    suspend fun addStopOnException(project: Project): XBreakpoint<*> {
        val support = stopOnExceptionSupport()
            ?: unsupported("stop_on_exception needs a language plugin with exception breakpoints (e.g. Java)")
        return Ide.writeAction {
            support.addExceptionBreakpoint(project, support.anyException, false, true)
                ?: unsupported("stop_on_exception is not available for this debugger")
        }
    }

    /** Removes a breakpoint we own, ignoring one the user already deleted. */
    suspend fun removeQuietly(project: Project, bp: XBreakpoint<*>) {
        Ide.cleanup {
            try {
                Ide.writeAction {
                    val manager = manager(project)
                    if (manager.allBreakpoints.any { it === bp }) manager.removeBreakpoint(bp)
                }
            } catch (_: Exception) {
                // Project closing or breakpoint gone: nothing left to clean.
            }
        }
        forget(bp)
    }

    private fun applyCommon(bp: XBreakpoint<*>, condition: String?, logMessage: String?, policy: SuspendPolicy, enabled: Boolean) {
        bp.conditionExpression = condition?.takeIf { it.isNotEmpty() }?.let { XAsync.expression(it, EvaluationMode.EXPRESSION) }
        setLog(bp, logMessage ?: "")
        bp.suspendPolicy = policy
        bp.isEnabled = enabled
    }

    /** Tracepoint text with `{expr}` placeholders becomes a log expression (see [Wire.logTemplateToExpression]). */
    private fun setLog(bp: XBreakpoint<*>, template: String) {
        bp.logExpressionObject = if (template.isEmpty()) null
        else XAsync.expression(Wire.logTemplateToExpression(template), EvaluationMode.EXPRESSION)
    }

    private fun parseHitCount(text: String): Int {
        // The IDE supports "stop on the n-th hit" only; DAP-style ">= 3" is not expressible.
        val n = text.trim().removePrefix("==").trim().toIntOrNull()
        if (n == null || n < 1) unsupported("hit_condition must be a positive hit number (e.g. \"3\"), got '$text'")
        return n
    }

    private fun setHitCount(properties: XBreakpointProperties<*>?, count: Int?): Boolean {
        val set = properties != null && LanguageDebugSupport.all().any { it.setHitCount(properties, count) }
        if (!set && count != null) unsupported("this breakpoint's debugger has no hit counts in the IDE")
        return set
    }

    /**
     * Hit count of an existing breakpoint: a property change fires no breakpoint event, so the
     * live session keeps its old request until the breakpoint is re-registered, which toggling
     * `enabled` does (each setter fires breakpointChanged; the session unregisters and registers it).
     */
    private fun updateHitCount(bp: XBreakpoint<*>, count: Int?) {
        if (setHitCount(bp.properties, count)) Wire.refreshLiveBreakpoint(bp.isEnabled) { bp.isEnabled = it }
    }
}
