package com.debuggermcp.adapter

import com.debuggermcp.json.JsonArgs
import com.debuggermcp.json.jsonObject
import com.debuggermcp.lang.LanguageDebugSupport
import com.intellij.xdebugger.XDebugSession
import com.intellij.xdebugger.evaluation.EvaluationMode
import com.intellij.xdebugger.frame.XStackFrame
import com.intellij.xdebugger.frame.XValue
import com.intellij.xdebugger.frame.XValueContainer
import com.intellij.xdebugger.frame.XValueGroup
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.coroutineScope

/**
 * Variables, children, set value and evaluation. XValue objects are kept in the session's
 * [HandleTable] under the handles Rust receives (`children_handle` and `set_handle` are the same
 * handle), and the table is cleared on resume because the values die with the suspend context.
 */
internal object ValueOps {
    /** Per value; a slow renderer yields a marked partial value instead of failing the page. */
    private const val PRESENTATION_TIMEOUT_MS = 3_000L
    private const val CHILDREN_TIMEOUT_MS = 10_000L
    /** Java computes evaluation expressions on its debugger thread; usually a few ms. */
    private const val EVALUATE_NAME_TIMEOUT_MS = 2_000L

    fun frame(session: XDebugSession, handle: String): XStackFrame {
        XAsync.suspendContext(session)
        if (handle.isEmpty()) {
            return session.currentStackFrame ?: invalidState("the session has no current frame")
        }
        val entry = Sessions.data(session).values.get(handle)
            ?: notFound("no frame '$handle' (frame handles are valid until the next resume)")
        return entry.obj as? XStackFrame ?: notFound("'$handle' is not a frame")
    }

    private fun scopeOf(name: String): String = if (name == "this") "this" else "local"

    /**
     * ValueNode JSON for [value], registering it for children/set_value with the frame it was
     * listed in ([owner]), so set_value can write in that frame (see [setValue]).
     */
    private suspend fun node(session: XDebugSession, name: String, value: XValue, scope: String, supports: List<LanguageDebugSupport>, owner: XStackFrame? = null): Map<String, Any?> {
        val p = XAsync.presentation(value, PRESENTATION_TIMEOUT_MS)
        // The presentation's type is a label (Java: the id label `ArrayList@1234`, or none for a
        // primitive); the language part knows the type. Asked after the presentation: Java's
        // descriptor holds its value only once computed.
        // A language that owns the value answers even when it cannot tell (null): never the label then.
        val known = supports.firstNotNullOfOrNull { it.valueType(session, value) }
        val type = if (known != null) known.name else p.type
        val evaluateName = evaluationName(
            EVALUATE_NAME_TIMEOUT_MS,
            // onProcessed also runs on rejection (with null).
            fromPromise = { resolve -> value.calculateEvaluationExpression().onProcessed { resolve(it?.expression) } },
            synchronous = { value.evaluationExpression },
        )
        val handle = Sessions.data(session).values.register("v", value, name, owner)
        return jsonObject(
            "name" to name,
            "value" to p.value,
            "type" to type,
            "has_children" to p.hasChildren,
            "children_handle" to if (p.hasChildren) handle else null,
            "set_handle" to if (value.modifier != null) handle else null,
            "evaluate_name" to evaluateName,
            "scope" to scope,
        )
    }

    /**
     * Groups (static members, debugger-added sections) are synthetic nodes with children. Java's
     * Static group is told by its name, which is not translated: JavaStaticGroup passes
     * `staticDescriptor.getName()` to XValueGroup (JavaStaticGroup.java, file id 8838205319), and
     * StaticDescriptorImpl.getName returns the literal "static" (`//noinspection
     * HardCodedStringLiteral`, StaticDescriptorImpl.java, file id 7592078909).
     */
    private fun groupNode(session: XDebugSession, group: XValueGroup, owner: XStackFrame?): Map<String, Any?> {
        val handle = Sessions.data(session).values.register("g", group, group.name, owner)
        return jsonObject(
            "name" to group.name,
            "value" to "",
            "has_children" to true,
            "children_handle" to handle,
            "scope" to if (group.name.contains("static", ignoreCase = true)) "global" else "synthetic",
        )
    }

    suspend fun frameVariables(sessionId: String, frameHandle: String, supports: List<LanguageDebugSupport> = LanguageDebugSupport.all()): List<Map<String, Any?>> {
        val session = Sessions.find(sessionId)
        val frame = frame(session, frameHandle)
        val all = XAsync.children(frame, Int.MAX_VALUE, CHILDREN_TIMEOUT_MS) { items ->
            val names = items.mapNotNull { (it as? Pair<*, *>)?.first as? String }
            val hasGroup = items.any { it is XValueGroup }
            supports.maxOfOrNull { it.lateChildrenMs(session, frame, names, hasGroup) } ?: 0L
        }
        return message(all) + present(session, all, 0, Int.MAX_VALUE, supports, frame) { scopeOf(it) }
    }

    /**
     * The node's error message as the Variables view shows it, a row above the children (the
     * children still follow: see [ChildBatches.error]).
     */
    private fun message(all: Paged<Any>): List<Map<String, Any?>> = all.message?.let {
        listOf(jsonObject("name" to "<error>", "value" to it, "has_children" to false, "scope" to "synthetic"))
    } ?: emptyList()

    suspend fun children(sessionId: String, handle: String, offset: Int, limit: Int, supports: List<LanguageDebugSupport> = LanguageDebugSupport.all()): Map<String, Any?> {
        require(offset >= 0 && limit >= 0) { "offset and limit must not be negative" }
        val session = Sessions.find(sessionId)
        XAsync.suspendContext(session)
        val entry = Sessions.data(session).values.get(handle)
            ?: notFound("no value '$handle' (value handles are valid until the next resume)")
        val container = entry.obj as? XValueContainer ?: notFound("'$handle' has no children")
        val all = collect(container, offset + limit)
        val page = (if (offset == 0) message(all) else emptyList()) + present(session, all, offset, limit, supports, entry.extra as? XStackFrame) { "local" }
        return jsonObject("children" to page, "total" to if (all.complete) all.items.size else null)
    }

    /**
     * Children in the order the Variables view shows them (groups first, then values, then
     * bottom groups, batch by batch), paging through the debugger's "more" Runnable.
     */
    private suspend fun collect(container: XValueContainer, wanted: Int): Paged<Any> =
        XAsync.children(container, wanted, CHILDREN_TIMEOUT_MS)

    private suspend fun present(
        session: XDebugSession,
        all: Paged<Any>,
        offset: Int,
        limit: Int,
        supports: List<LanguageDebugSupport>,
        owner: XStackFrame?,
        scope: (String) -> String,
    ): List<Map<String, Any?>> = coroutineScope {
        all.items.drop(offset).take(limit).map { item ->
            async {
                @Suppress("UNCHECKED_CAST")
                when (item) {
                    is XValueGroup -> groupNode(session, item, owner)
                    else -> {
                        val (name, value) = item as Pair<String, XValue>
                        node(session, name, value, scope(name), supports, owner)
                    }
                }
            }
        }.awaitAll()
    }

    /**
     * Sets a value as the Variables view's "Set Value" does, through its modifier, except where
     * the value's language says the modifier would work elsewhere than in the frame the value was
     * listed in ([LanguageDebugSupport.assignInFrame]: Java locals, fields and array elements).
     */
    suspend fun setValue(sessionId: String, handle: String, newValue: String, supports: List<LanguageDebugSupport> = LanguageDebugSupport.all()): Map<String, Any?> {
        val session = Sessions.find(sessionId)
        XAsync.suspendContext(session)
        val entry = Sessions.data(session).values.get(handle)
            ?: notFound("no value '$handle' (value handles are valid until the next resume)")
        val value = entry.obj as? XValue ?: notFound("'$handle' is not a value")
        val modifier = value.modifier ?: unsupported("'${entry.name}' cannot be modified")
        val frame = entry.extra as? XStackFrame
        // The expression the IDE's "Copy as Expression" gives: where the language assigns in the frame (Java).
        val evaluateName = if (frame == null) null else evaluationName(
            EVALUATE_NAME_TIMEOUT_MS,
            fromPromise = { resolve -> value.calculateEvaluationExpression().onProcessed { resolve(it?.expression) } },
            synchronous = { value.evaluationExpression },
        )
        val assigned = frame != null && supports.any { it.assignInFrame(session, frame, value, entry.name, newValue, evaluateName) }
        if (!assigned) XAsync.modify(modifier, XAsync.expression(newValue, EvaluationMode.EXPRESSION))
        // The same XValue recomputes its presentation from the debuggee, showing the new value.
        return node(session, entry.name, value, scopeOf(entry.name), supports, frame)
    }

    suspend fun evaluate(sessionId: String, request: JsonArgs): Map<String, Any?> {
        val session = Sessions.find(sessionId)
        val frame = frame(session, request.stringOrNull("frame") ?: "")
        val evaluator = frame.evaluator ?: unsupported("this frame cannot evaluate expressions")
        val text = request.string("expression")
        val mode = if (request.stringOrNull("context") == "code_fragment") {
            if (!evaluator.isCodeFragmentEvaluationSupported) unsupported("this debugger cannot evaluate code fragments")
            EvaluationMode.CODE_FRAGMENT
        } else EvaluationMode.EXPRESSION
        // Side-effect policy is enforced by the core (which only sends side-effecting requests
        // when allowed); the platform evaluator has no side-effect-free mode to ask for.
        val result = XAsync.evaluate(evaluator, XAsync.expression(text, mode))
        return node(session, text, result, "local", LanguageDebugSupport.all())
    }
}
