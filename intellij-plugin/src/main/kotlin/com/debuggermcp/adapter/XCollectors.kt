package com.debuggermcp.adapter

import com.intellij.ui.ColoredTextContainer
import com.intellij.ui.SimpleTextAttributes
import com.intellij.xdebugger.XDebugSession
import com.intellij.xdebugger.XDebuggerBundle
import com.intellij.xdebugger.XDebuggerUtil
import com.intellij.xdebugger.XExpression
import com.intellij.xdebugger.evaluation.EvaluationMode
import com.intellij.xdebugger.evaluation.XDebuggerEvaluator
import com.intellij.xdebugger.frame.XCompositeNode
import com.intellij.xdebugger.frame.XDebuggerTreeNodeHyperlink
import com.intellij.xdebugger.frame.XExecutionStack
import com.intellij.xdebugger.frame.XFullValueEvaluator
import com.intellij.xdebugger.frame.XStackFrame
import com.intellij.xdebugger.frame.XSuspendContext
import com.intellij.xdebugger.frame.XValue
import com.intellij.xdebugger.frame.XValueChildrenList
import com.intellij.xdebugger.frame.XValueContainer
import com.intellij.xdebugger.frame.XValueGroup
import com.intellij.xdebugger.frame.XValueModifier
import com.intellij.xdebugger.frame.XValueNode
import com.intellij.xdebugger.frame.XValuePlace
import com.intellij.xdebugger.frame.presentation.XValuePresentation
import com.intellij.openapi.editor.colors.TextAttributesKey
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.withTimeoutOrNull
import javax.swing.Icon

/**
 * Suspending wrappers around the XDebugger's callback APIs. Each starts the computation on the
 * EDT (the API documents these entry points as EDT calls that return quickly) and awaits the
 * callback on the coroutine, so no thread blocks. Collectors are marked obsolete when the
 * coroutine gives up so debuggers can skip work nobody will read.
 */
internal object XAsync {
    /**
     * The node handed to `computeChildren`: forwards each batch to [ChildBatches], which pages
     * through `tooManyChildren(remaining, addNextChildren)` (see [collectPaged]). Items are the
     * groups (XValueGroup) and named values (Pair<String, XValue>) in the order shown.
     */
    private class ChildrenNode(val batches: ChildBatches<Any>) : XCompositeNode {
        override fun addChildren(children: XValueChildrenList, last: Boolean) {
            // The Variables view's sections (XValueContainerNode.addChildren and getChildren,
            // platform/xdebugger-impl/src/com/intellij/xdebugger/impl/ui/tree/nodes/
            // XValueContainerNode.java, file id 8341497013): top nodes (each batch's top values,
            // then its top groups), then the values, then bottom groups, across all batches.
            val top = ArrayList<Any>(children.topValues.size + children.topGroups.size)
            for (v in children.topValues) top.add(v.name to v)
            top.addAll(children.topGroups)
            val values = ArrayList<Any>(children.size())
            for (i in 0 until children.size()) values.add(children.getName(i) to children.getValue(i))
            batches.add(top, values, children.bottomGroups.toList(), last)
        }

        @Deprecated("the platform's own deprecation; debuggers that still call it cannot be paged")
        override fun tooManyChildren(remaining: Int) = batches.tooMany(null)

        override fun tooManyChildren(remaining: Int, addNextChildren: Runnable) = batches.tooMany(addNextChildren)

        override fun setAlreadySorted(alreadySorted: Boolean) {}

        override fun setErrorMessage(errorMessage: String) = batches.error(errorMessage)

        override fun setErrorMessage(errorMessage: String, link: XDebuggerTreeNodeHyperlink?) = batches.error(errorMessage)

        // Informational messages ("No local variables") are not errors and may come with no children.
        override fun setMessage(message: String, icon: Icon?, attributes: SimpleTextAttributes, link: XDebuggerTreeNodeHyperlink?) {}

        override fun isObsolete(): Boolean = batches.obsolete
    }

    /** Children of [container] until [wanted] items or the end, paging like the Variables view. */
    suspend fun children(container: XValueContainer, wanted: Int, timeoutMs: Long, lateGraceMs: suspend (List<Any>) -> Long = { 0L }): Paged<Any> =
        collectPaged(
            wanted,
            timeoutMs,
            start = { batches -> Ide.onEdt { container.computeChildren(ChildrenNode(batches)) } },
            // The Runnable "is called from the Event Dispatch thread" (XCompositeNode's contract).
            runNext = { next -> Ide.onEdt { next.run() } },
            lateGraceMs = lateGraceMs,
        )

    /** The localised "Collecting data…" (XDebuggerUIConstants.getCollectingDataMessage() is impl API; this is its source). */
    private val collectingDataMessage: String? by lazy {
        try {
            XDebuggerBundle.message("xdebugger.building.tree.node.message")
        } catch (_: Exception) {
            null
        }
    }

    /** What a value the debugger computes only on demand shows instead of its blank presentation. */
    const val NOT_COMPUTED_ON_DEMAND = "<not computed: the IDE computes this value only on demand (it may run code in the program); evaluate an expression for it to compute it>"

    /** A value's rendering. */
    class Presentation(val type: String?, val value: String, val hasChildren: Boolean, val complete: Boolean)

    private class PresentationCollector : XValueNode {
        @Volatile var latest: Presentation? = null
        val real = CompletableDeferred<Unit>()
        @Volatile var obsolete = false

        /** Set before the presentation by values computed only on demand (see [record]). */
        @Volatile var fullValue: XFullValueEvaluator? = null

        private fun record(type: String?, value: String, hasChildren: Boolean) {
            val placeholder = Wire.isPlaceholderValue(value, collectingDataMessage)
            // A value the debugger computes only on demand: JavaValue.computePresentation calls
            // `myValueDescriptor.applyOnDemandPresentation(node)` while the descriptor is on demand
            // and not calculated (JavaValue.java, file id 1771637183), whose provider sets the
            // "Evaluate" link's XFullValueEvaluator and then a blank presentation
            // (ValueDescriptorImpl.ourDefaultOnDemandPresentationProvider: XRegularValuePresentation("", null, ""),
            // file id 3645169711; Kotlin's getters show " "). The link works only for the Variables
            // view's own node (OnDemandRenderer.createFullValueEvaluator: a HeadlessValueEvaluationCallback's
            // XValueNodeImpl, file id 7445151493), so the value is reported as not computed, never as "".
            if (!placeholder && value.isBlank() && fullValue != null) {
                latest = Presentation(type, NOT_COMPUTED_ON_DEMAND, hasChildren, false)
                real.complete(Unit)
                return
            }
            latest = Presentation(type, value, hasChildren, !placeholder)
            if (!placeholder) real.complete(Unit)
        }

        override fun setPresentation(icon: Icon?, type: String?, value: String, hasChildren: Boolean) =
            record(type, value, hasChildren)

        override fun setPresentation(icon: Icon?, presentation: XValuePresentation, hasChildren: Boolean) =
            record(presentation.type, render(presentation), hasChildren)

        // Debuggers cut long values at XValueNode.MAX_VALUE_LENGTH (1000) and offer the rest on
        // request; the core truncates to far less anyway, so the full text is not fetched. It is
        // remembered: with a blank value it means "computed on demand" (see [record]).
        override fun setFullValueEvaluator(fullValueEvaluator: XFullValueEvaluator) {
            fullValue = fullValueEvaluator
        }

        override fun isObsolete(): Boolean = obsolete
    }

    /** Renders an [XValuePresentation] to plain text the way the Variables view shows it. */
    fun render(presentation: XValuePresentation): String {
        val sb = StringBuilder()
        presentation.renderValue(object : XValuePresentation.XValueTextRenderer {
            override fun renderValue(value: String) { sb.append(value) }
            override fun renderStringValue(value: String) { sb.append('"').append(value).append('"') }
            override fun renderNumericValue(value: String) { sb.append(value) }
            override fun renderKeywordValue(value: String) { sb.append(value) }
            override fun renderValue(value: String, key: TextAttributesKey) { sb.append(value) }
            override fun renderStringValue(value: String, additionalSpecialCharsToHighlight: String?, maxLength: Int) {
                sb.append('"').append(value).append('"')
            }
            override fun renderComment(comment: String) { sb.append(' ').append(comment) }
            override fun renderSpecialSymbol(symbol: String) { sb.append(symbol) }
            override fun renderError(error: String) { sb.append(error) }
        })
        return sb.toString().trim()
    }

    /**
     * Computes a value's presentation, waiting past "Collecting data…" placeholders. After
     * [timeoutMs] the last placeholder (or a marker) is returned instead of failing the whole op.
     */
    suspend fun presentation(value: XValue, timeoutMs: Long): Presentation {
        val c = PresentationCollector()
        Ide.onEdt { value.computePresentation(c, XValuePlace.TREE) }
        if (withTimeoutOrNull(timeoutMs) { c.real.await() } == null) {
            c.obsolete = true
            return c.latest?.let { Presentation(it.type, it.value, it.hasChildren, false) }
                ?: Presentation(null, "<value not computed within ${timeoutMs} ms>", false, false)
        }
        return c.latest!!
    }

    suspend fun executionStacks(context: XSuspendContext, timeoutMs: Long): List<XExecutionStack> {
        val done = CompletableDeferred<List<XExecutionStack>>()
        val acc = ArrayList<XExecutionStack>()
        var obsolete = false
        val container = object : XSuspendContext.XExecutionStackContainer {
            override fun addExecutionStack(executionStacks: List<XExecutionStack>, last: Boolean) {
                synchronized(acc) { acc.addAll(executionStacks) }
                if (last) done.complete(synchronized(acc) { acc.toList() })
            }
            override fun errorOccurred(errorMessage: String) {
                done.completeExceptionally(OpException(ErrorKind.FAILED, errorMessage))
            }
            override fun isObsolete(): Boolean = obsolete
        }
        Ide.onEdt { context.computeExecutionStacks(container) }
        return withTimeoutOrNull(timeoutMs) { done.await() } ?: run {
            obsolete = true
            // Fall back to what the context knows synchronously.
            synchronized(acc) { acc.toList() }.ifEmpty { context.executionStacks.toList() }
        }
    }

    /**
     * Frames of [stack] from the top until [count] frames or the bottom; `second` = bottom reached.
     *
     * Starts at index 0 like the Frames view (XFramesView.StackFramesListBuilder.start():
     * `computeStackFrames(myNextFrameIndex = 0, this)`, platform/xdebugger-impl/src/com/intellij/
     * xdebugger/impl/frame/XFramesView.java, file id 5955924087) and XDebuggerUtilImpl.logStack
     * (file id 3484933869). Never `getTopFrame()`: JavaExecutionStack asserts "Top frame must be
     * already calculated here" unless `initTopFrame()` ran, which only the suspend context's active
     * stack gets (SuspendContextImpl.initExecutionStacks; stacks of computeExecutionStacks come
     * from JavaExecutionStack.create without it: java/debugger/impl/src/com/intellij/debugger/
     * engine/SuspendContextImpl.java, file id 3572538213; JavaExecutionStack.java @0243ea07).
     */
    suspend fun frames(stack: XExecutionStack, count: Int, timeoutMs: Long, depthOf: (XStackFrame) -> Int? = { null }): Pair<List<XStackFrame>, Boolean> {
        if (count <= 0) return emptyList<XStackFrame>() to false
        val done = CompletableDeferred<Boolean>()
        val acc = ArrayList<XStackFrame>()
        // Guarded by acc: depth below the frames so far — a frame's own depth when [depthOf] knows
        // it, a placeholder counting as the frames it hides, any other frame as one.
        var depth = 0
        val obsolete = java.util.concurrent.atomic.AtomicBoolean(false)
        val container = object : XExecutionStack.XStackFrameContainer {
            override fun addStackFrames(stackFrames: List<XStackFrame>, last: Boolean) {
                val enough = synchronized(acc) {
                    acc.addAll(stackFrames)
                    stackFrames.forEach { f -> depth = HiddenFrames.count(f)?.let { depth + it } ?: maxOf(depth, depthOf(f) ?: depth) + 1 }
                    depth >= count
                }
                if (last) done.complete(true) else if (enough) done.complete(false)
            }
            override fun errorOccurred(errorMessage: String) {
                done.completeExceptionally(OpException(ErrorKind.FAILED, errorMessage))
            }
            override fun isObsolete(): Boolean = obsolete.get()
        }
        Ide.onEdt { stack.computeStackFrames(0, container) }
        val bottom = try {
            withTimeoutOrNull(timeoutMs) { done.await() }
        } finally {
            // Java's AppendFrameCommand stops scheduling frames once the container is obsolete.
            obsolete.set(true)
        }
        return synchronized(acc) { acc.toList() } to (bottom ?: false)
    }

    /**
     * The Frames view's folds of hidden frames. With "Show library frames" off (and folding on),
     * JavaExecutionStack.AppendFrameCommand.flushHiddenFrames adds `new XFramesView.HiddenStackFramesItem(
     * myHiddenFrames)` to the container in place of the library/synthetic frames it skips
     * (JavaExecutionStack.java, file id 3672265093). The item is an XStackFrame with no position;
     * the frames it stands for are `HiddenFramesStackFrame.getHiddenFrames()` (platform/xdebugger-impl/
     * src/com/intellij/xdebugger/impl/frame/HiddenFramesStackFrame.kt, file id 8232468230;
     * HiddenStackFramesItem.java, file id 18088805953; nested in XFramesView before, file id
     * 3727090539). Both are `@ApiStatus.Internal` xdebugger-impl classes: they are recognised by
     * their simple names (the package moved once already) and read reflectively, not linked against.
     */
    object HiddenFrames {
        /** The number of frames [frame] hides, or null when it is a real frame. */
        fun count(frame: XStackFrame): Int? {
            if (!isFold(frame.javaClass)) return null
            return try {
                (frame.javaClass.getMethod("getHiddenFrames").invoke(frame) as? List<*>)?.size ?: 1
            } catch (_: ReflectiveOperationException) {
                1
            } catch (_: RuntimeException) {
                1
            }
        }

        private fun isFold(type: Class<*>?): Boolean {
            var c = type
            while (c != null && c != XStackFrame::class.java) {
                if (c.simpleName == "HiddenStackFramesItem" || c.interfaces.any { it.simpleName == "HiddenFramesStackFrame" }) return true
                c = c.superclass
            }
            return false
        }
    }

    /** The text a frame shows in the Frames view, e.g. `main:12, Main (com.example)`. */
    fun frameText(frame: XStackFrame): String {
        val sb = StringBuilder()
        frame.customizePresentation(object : ColoredTextContainer {
            override fun append(fragment: String, attributes: SimpleTextAttributes) { sb.append(fragment) }
            override fun append(fragment: String, attributes: SimpleTextAttributes, tag: Any?) { sb.append(fragment) }
            override fun setIcon(icon: Icon?) {}
            override fun setToolTipText(text: String?) {}
        })
        return sb.toString()
    }

    fun expression(text: String, mode: EvaluationMode): XExpression =
        XDebuggerUtil.getInstance().createExpression(text, null, null, mode)

    suspend fun evaluate(evaluator: XDebuggerEvaluator, expression: XExpression): XValue {
        val done = CompletableDeferred<XValue>()
        val callback = object : XDebuggerEvaluator.XEvaluationCallback {
            override fun evaluated(result: XValue) { done.complete(result) }
            override fun errorOccurred(errorMessage: String) {
                done.completeExceptionally(OpException(ErrorKind.FAILED, errorMessage))
            }
        }
        // As the Evaluate dialog (XDebuggerEvaluationDialog.startEvaluation, platform/xdebugger-impl/
        // src/com/intellij/xdebugger/impl/evaluate/XDebuggerEvaluationDialog.java, file id 275328596):
        // the frame's evaluator, no expression position (that is for text picked in an editor; the
        // evaluator takes its context from its own frame).
        Ide.onEdt { evaluator.evaluate(expression, callback, null) }
        return done.await()
    }

    suspend fun modify(modifier: XValueModifier, expression: XExpression) {
        val done = CompletableDeferred<Unit>()
        val callback = object : XValueModifier.XModificationCallback {
            override fun valueModified() { done.complete(Unit) }
            override fun errorOccurred(errorMessage: String) {
                done.completeExceptionally(OpException(ErrorKind.FAILED, errorMessage))
            }
        }
        // A change of the debuggee's state, as the Variables view's Set Value: not inside a modal dialog.
        Ide.onEdt(com.intellij.openapi.application.ModalityState.nonModal()) { modifier.setValue(expression, callback) }
        done.await()
    }

    /**
     * The session's suspend context, or invalid_state while it runs. A context alone is not a
     * pause: while Java steps, JavaDebugProcess posts `positionReached(new JavaSteppingSuspendContext(…))`
     * (JavaDebugProcess.java, file id 3553865272) and XDebugSessionImpl keeps that context with
     * `myPaused = false`, so isSuspended() (`paused && suspendContext != null`, XDebugSessionImpl.kt,
     * file id 3494500063) is false while the thread runs. The platform's inspection and step
     * actions are enabled only when isSuspended() (XDebuggerActionBase / XDebuggerSuspendedActionHandler).
     */
    fun suspendContext(session: XDebugSession): XSuspendContext {
        if (session.isStopped) invalidState("the session has stopped")
        val context = session.suspendContext ?: invalidState("the session is running; pause it or wait for a breakpoint first")
        if (!session.isSuspended) invalidState("the session is running (stepping); wait for the step to stop, then retry")
        return context
    }
}
