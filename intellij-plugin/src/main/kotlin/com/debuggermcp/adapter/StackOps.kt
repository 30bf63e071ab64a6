package com.debuggermcp.adapter

import com.debuggermcp.json.jsonObject
import com.intellij.openapi.roots.ProjectFileIndex
import com.intellij.xdebugger.XDebugSession
import com.intellij.xdebugger.frame.XExecutionStack

/** Threads (execution stacks) and frames of a paused session. */
internal object StackOps {
    /**
     * The pause's threads, as the Frames view's thread list has them: `computeExecutionStacks`
     * (fresh stack instances on every call, delivered from the debugger's thread: Java's
     * SuspendContextImpl.computeExecutionStacks builds each with JavaExecutionStack.create,
     * file id 3572538213), with the paused thread's entry replaced by the suspend context's
     * active stack — the instance the Frames view selects first (XFramesView.processSessionEvent:
     * `suspendContext.getActiveExecutionStack()`, file id 5955924087) and the one the session's
     * current frame belongs to. Java stacks are equal per thread (JavaExecutionStack.equals
     * compares the thread proxy, @0243ea07), never identical across calls.
     */
    private suspend fun stacks(session: XDebugSession): Pair<List<XExecutionStack>, List<String>> {
        val context = XAsync.suspendContext(session)
        val computed = XAsync.executionStacks(context, 5_000)
        val active = context.activeExecutionStack
        val stacks = withActive(computed, active)
        return stacks to threadIds(Sessions.data(session), stacks)
    }

    /** [computed] with the entry of [active]'s thread replaced by [active] (first when absent). */
    fun withActive(computed: List<XExecutionStack>, active: XExecutionStack?): List<XExecutionStack> {
        if (active == null) return computed
        val i = computed.indexOfFirst { sameThread(it, active) }
        return if (i < 0) listOf(active) + computed else computed.toMutableList().also { it[i] = active }
    }

    /**
     * Whether two stack objects are the same thread: `equals` where the stack class defines it
     * (Java's JavaExecutionStack by thread proxy; Python's PyExecutionStack by thread info,
     * python/src/com/jetbrains/python/debugger/PyExecutionStack.java, file id 12436695263);
     * a stack class without equals is matched by the name the Frames view shows.
     */
    fun sameThread(a: XExecutionStack, b: XExecutionStack): Boolean =
        a === b || if (identity(a) != null) a == b else a.javaClass == b.javaClass && a.displayName == b.displayName

    /** Session-stable thread ids for [stacks] (display names carry the thread status; see [Wire.threadKey]). */
    fun threadIds(data: SessionData, stacks: List<XExecutionStack>): List<String> =
        data.threads.idsFor(stacks.map { Wire.threadKey(identity(it), it.displayName) })

    /** `Class#hash` when the stack class defines equals/hashCode (Java: by thread), else null. */
    private fun identity(stack: XExecutionStack): String? {
        val declaring = try {
            stack.javaClass.getMethod("equals", Any::class.java).declaringClass
        } catch (_: NoSuchMethodException) {
            null
        }
        if (declaring == null || declaring == Any::class.java || declaring == XExecutionStack::class.java) return null
        return stack.javaClass.name + "#" + stack.hashCode()
    }

    suspend fun threads(sessionId: String): List<Map<String, Any?>> {
        val session = Sessions.find(sessionId)
        val (stacks, ids) = stacks(session)
        val active = session.suspendContext?.activeExecutionStack
        return stacks.mapIndexed { i, s ->
            jsonObject(
                "id" to ids[i],
                "name" to s.displayName,
                // Under a suspend-all policy every listed stack is suspended; the platform has no
                // portable per-thread state beyond that.
                "state" to if (active != null && sameThread(s, active)) "paused" else "suspended",
            )
        }
    }

    suspend fun stack(session: XDebugSession, threadId: String): XExecutionStack {
        val (stacks, ids) = stacks(session)
        return stacks.getOrNull(ids.indexOf(threadId)) ?: notFound("no thread '$threadId' in this pause")
    }

    /**
     * Frames [offset] until [offset] + [limit] of a thread, by depth: `index` is the frame's depth
     * in the thread (0 = top), not its row in the Frames view. Frames the view hides are not
     * listed, and `hidden` says which depths were left out and why. The view hides them two ways:
     *  - folded (the default): one placeholder per run of hidden frames ([XAsync.HiddenFrames]),
     *    which counts the frames it stands for;
     *  - with folding off, no placeholder at all (JavaExecutionStack.AppendFrameCommand.rememberHiddenFrame
     *    returns when `!XFramesView.shouldFoldHiddenFrames()`, file id 3672265093): the gap is seen
     *    only in the depth the language's debugger gives each frame ([LanguageDebugSupport.frameDepth]:
     *    Java's frame descriptor), which is used whenever it is known.
     * Frames without a known depth (another language's, or a captured async stack below the real
     * one) count one each from the frame above.
     */
    suspend fun frames(
        sessionId: String,
        threadId: String,
        offset: Int,
        limit: Int,
        supports: List<com.debuggermcp.lang.LanguageDebugSupport> = com.debuggermcp.lang.LanguageDebugSupport.all(),
    ): Map<String, Any?> {
        require(offset >= 0 && limit >= 0) { "offset and limit must not be negative" }
        val session = Sessions.find(sessionId)
        val stack = stack(session, threadId)
        val depthOf = { f: com.intellij.xdebugger.frame.XStackFrame -> supports.firstNotNullOfOrNull { it.frameDepth(session, f) } }
        val (listed, bottom) = XAsync.frames(stack, offset + limit, 10_000, depthOf)
        val data = Sessions.data(session)
        val project = session.project
        val end = offset + limit
        val wanted = ArrayList<Pair<Int, com.intellij.xdebugger.frame.XStackFrame>>()
        val hidden = ArrayList<Map<String, Any?>>()
        var depth = 0
        fun hide(count: Int) {
            if (depth < end && depth + count > offset) hidden += jsonObject("from_index" to depth, "count" to count)
            depth += count
        }
        for (f in listed) {
            val folded = XAsync.HiddenFrames.count(f)
            if (folded != null) {
                hide(folded)
                continue
            }
            // Frames the debugger skipped without a placeholder (folding off).
            depthOf(f)?.let { real -> if (real > depth) hide(real - depth) }
            if (depth in offset until end) wanted += depth to f
            depth++
        }
        // Frame texts come from the same renderer as the Frames view (an EDT component API),
        // library detection from the project's file index: one round trip each for the page.
        val texts = Ide.onEdt { wanted.map { XAsync.frameText(it.second) } }
        val library = Ide.read {
            val index = ProjectFileIndex.getInstance(project)
            wanted.map { (_, f) -> f.sourcePosition?.file?.let { !index.isInContent(it) } ?: true }
        }
        val page = wanted.mapIndexed { i, (index, f) ->
            val pos = f.sourcePosition
            val (method, cls) = Wire.parseFrameText(texts[i])
            jsonObject(
                "index" to index,
                "handle" to data.values.register("f", f, "", SessionData.FrameRef(stack, f, index)),
                "file" to pos?.file?.path,
                "line" to pos?.let { Wire.toWireLine(it.line) },
                "class_name" to cls,
                "method_name" to method,
                "is_library" to library[i],
            )
        }
        return jsonObject(
            "frames" to page,
            "total" to if (bottom) depth else null,
            "hidden" to hidden.takeIf { it.isNotEmpty() }?.let {
                jsonObject(
                    "ranges" to it,
                    "reason" to "library frames hidden by the IDE ('Show Library Frames' is off in the Frames view)",
                )
            },
        )
    }

    suspend fun selectFrame(sessionId: String, threadId: String, frame: String, supports: List<com.debuggermcp.lang.LanguageDebugSupport> = com.debuggermcp.lang.LanguageDebugSupport.all()) {
        val session = Sessions.find(sessionId)
        val ref = Sessions.data(session).values.get(frame)?.extra as? SessionData.FrameRef
            ?: notFound("no frame '$frame' (frame handles are valid until the next resume)")
        // As the Frames view on a click (XFramesView.processFrameSelection: isTopFrame = index 0),
        // without asking the stack for its top frame (see XAsync.frames).
        Ide.onEdt(com.intellij.openapi.application.ModalityState.nonModal()) { session.setCurrentStackFrame(ref.stack, ref.frame, ref.index == 0) }
        // Returns once the debugger took the selection over (Java: its debugger context), so a
        // step issued next starts from it.
        supports.forEach { it.awaitFrameSelection(session) }
    }
}
