package com.debuggermcp.adapter

import com.debuggermcp.json.JsonArgs
import com.debuggermcp.lang.LanguageDebugSupport
import com.intellij.openapi.fileEditor.FileDocumentManager
import com.intellij.openapi.project.Project
import com.intellij.openapi.vfs.VirtualFile
import com.intellij.psi.search.FilenameIndex
import com.intellij.psi.search.GlobalSearchScope
import com.intellij.xdebugger.XDebuggerManager
import com.intellij.xdebugger.XDebuggerUtil
import com.intellij.xdebugger.breakpoints.XBreakpoint
import com.intellij.xdebugger.breakpoints.XBreakpointProperties
import com.intellij.xdebugger.breakpoints.XLineBreakpointType
import com.intellij.xdebugger.evaluation.EvaluationMode
import com.intellij.xdebugger.frame.XStackFrame
import java.util.Collections
import java.util.WeakHashMap

/**
 * Op `add_data_breakpoint` in the IDE: a Java field watchpoint, made as the platform's Add Field
 * Watchpoint dialog makes one (java/debugger/impl/src/com/intellij/debugger/ui/breakpoints/
 * JavaFieldBreakpointType.java @019a6852f46281c4ba79b3a9871820810bf3e501, `addBreakpoint` →
 * `validateData`): find the field's declaration, then
 * `XBreakpointManager.addLineBreakpoint(fieldType, file.url, line of the field, new
 * JavaFieldBreakpointProperties(fieldName, className))`. The line matters: FieldBreakpoint.reload
 * takes class and field name from the PsiField at that line (FieldBreakpoint.java
 * @01fc6fe439de754f717abec2e5057ab4fe5630f3), so the declaration line is found with the field
 * type's own `canPutAt` (true only on a PsiField's line) plus the line's text naming the field.
 *
 * The expression is resolved in the paused frame: `name` is a field of the frame's class (its
 * declaration is searched in the frame's file), `obj.name` a field of obj's runtime class and
 * `Class.name` a static field (the class's name comes from the frame's evaluator:
 * `obj.getClass().getName()` / `Class.class.getName()`; its source from the file index). A local
 * variable is refused: the JVM watches fields only.
 *
 * Deviation: the dialog searches `findFieldByName(name, false)` in a class found by
 * JavaPsiFacade; here the field must be declared in the class's own top-level source file
 * (a field inherited from a superclass is refused naming `Super.name`), which keeps Java PSI out
 * of the core plugin.
 */
internal object Watchpoints {
    private val FIELD_PATH = Regex("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*")
    private const val EVALUATE_TIMEOUT_MS = 5_000L

    /** Expression and access (wire spelling) of the watchpoints the agent set. */
    private val watches: MutableMap<XBreakpoint<*>, Pair<String, String>> = Collections.synchronizedMap(WeakHashMap())

    fun watchOf(bp: XBreakpoint<*>): Pair<String, String>? = watches[bp]

    suspend fun add(
        project: Project,
        spec: JsonArgs,
        supports: List<LanguageDebugSupport> = LanguageDebugSupport.all(),
    ): Map<String, Any?> {
        val support = supports.firstOrNull { it.fieldWatchpointTypeId != null }
            ?: unsupported("watchpoints in the IDE are Java field watchpoints: they need the Java plugin")
        val expression = spec.string("expression").trim()
        if (!FIELD_PATH.matches(expression)) failed("watch '$expression' must name a field: name, obj.name or Class.name")
        val access = spec.stringOrNull("access") ?: "write"
        val (write, read) = when (access) {
            "write" -> true to false
            "read" -> false to true
            "read_write" -> true to true
            else -> failed("access must be write, read or read_write, got '$access'")
        }
        val session = Sessions.find(spec.string("session_id"))
        val frameHandle = spec.stringOrNull("frame") ?: ""
        val frame = ValueOps.frame(session, frameHandle)
        val name = expression.substringAfterLast('.')
        val qualifier = expression.substringBeforeLast('.', "")
        val typeId = support.fieldWatchpointTypeId!!
        val type = Ide.read { XDebuggerUtil.getInstance().lineBreakpointTypes.firstOrNull { it.id == typeId } }
            ?: unsupported("no '$typeId' breakpoint type is registered")
        val className: String?
        val file: VirtualFile
        if (qualifier.isEmpty()) {
            // A name the frame lists itself is a local or an argument (fields show under `this`).
            val locals = ValueOps.frameVariables(Sessions.id(session), frameHandle)
            if (locals.any { it["name"] == name && it["scope"] == "local" }) {
                failed("'$name' is a local variable: the JVM watches fields only. Instead: a conditional breakpoint on the lines that assign it (condition e.g. '$name != <old value>')")
            }
            className = null // FieldBreakpoint.reload fills it from the PsiField at the line
            file = frame.sourcePosition?.file ?: failed("the frame has no source file: watch Class.$name instead")
        } else {
            className = classNameOf(frame, qualifier)
            file = sourceOf(project, className)
        }
        val line = declarationLine(project, type, file, name)
            ?: notFound("no declaration of field '$name' in ${file.path}" +
                (if (qualifier.isEmpty()) "" else " (${className}'s source)") +
                "; a field inherited from a superclass is watched as SuperClass.$name")
        val properties = support.fieldWatchpointProperties(className, name, write, read)
            ?: unsupported("no field watchpoint for '$expression'")
        val condition = spec.stringOrNull("condition")?.takeIf { it.isNotEmpty() }
        val bp = Ide.writeAction {
            @Suppress("UNCHECKED_CAST")
            val t = type as XLineBreakpointType<XBreakpointProperties<*>>
            val bp = XDebuggerManager.getInstance(project).breakpointManager.addLineBreakpoint(t, file.url, line, properties, false)
            bp.conditionExpression = condition?.let { XAsync.expression(it, EvaluationMode.EXPRESSION) }
            bp
        }
        watches[bp] = expression to access
        return Ide.read { Breakpoints.info(bp) }!!
    }

    /** Runtime class of `obj` (a value), or the class a qualifier names (`Class.staticField`). */
    private suspend fun classNameOf(frame: XStackFrame, qualifier: String): String {
        val evaluator = frame.evaluator ?: unsupported("this frame cannot evaluate '$qualifier'")
        for (text in listOf("($qualifier).getClass().getName()", "$qualifier.class.getName()")) {
            val value = try {
                XAsync.evaluate(evaluator, XAsync.expression(text, EvaluationMode.EXPRESSION))
            } catch (e: OpException) {
                continue
            }
            val shown = XAsync.presentation(value, EVALUATE_TIMEOUT_MS).value
            return shown.trim().removeSurrounding("\"")
        }
        notFound("'$qualifier' is neither a value nor a class in this frame")
    }

    /** The top-level source file of [className] in the project (the file index; smart mode). */
    private suspend fun sourceOf(project: Project, className: String): VirtualFile {
        val outer = className.substringAfterLast('.').substringBefore('$')
        val dir = className.substringBeforeLast('.', "").replace('.', '/')
        val suffix = if (dir.isEmpty()) "/$outer.java" else "/$dir/$outer.java"
        return Ide.smartRead(project) {
            FilenameIndex.getVirtualFilesByName("$outer.java", GlobalSearchScope.projectScope(project)).firstOrNull { it.path.endsWith(suffix) }
        } ?: notFound("no source of $className in the project: field watchpoints are set on the field's declaration")
    }

    /** 0-based line declaring [name] in [file] that the field watchpoint type accepts. */
    private suspend fun declarationLine(project: Project, type: XLineBreakpointType<*>, file: VirtualFile, name: String): Int? = Ide.read {
        val text = FileDocumentManager.getInstance().getDocument(file)?.text ?: return@read null
        val declares = Regex("(^|[\\s,])${Regex.escape(name)}\\s*(=|;|,)")
        text.lines().withIndex().firstOrNull { (i, l) -> declares.containsMatchIn(l) && type.canPutAt(file, i, project) }?.index
    }
}
