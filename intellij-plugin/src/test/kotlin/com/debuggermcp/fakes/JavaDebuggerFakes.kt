package com.debuggermcp.fakes

import com.intellij.ui.ColoredTextContainer
import com.intellij.ui.SimpleTextAttributes
import com.intellij.xdebugger.XSourcePosition
import com.intellij.xdebugger.frame.XCompositeNode
import com.intellij.xdebugger.frame.XExecutionStack
import com.intellij.xdebugger.frame.XNamedValue
import com.intellij.xdebugger.frame.XStackFrame
import com.intellij.xdebugger.frame.XSuspendContext
import com.intellij.xdebugger.frame.XValueChildrenList
import com.intellij.xdebugger.frame.XValueGroup
import com.intellij.xdebugger.frame.XValueNode
import com.intellij.xdebugger.frame.XValuePlace
import com.intellij.xdebugger.frame.XValueModifier
import com.intellij.xdebugger.evaluation.XDebuggerEvaluator
import com.intellij.xdebugger.XExpression
import com.intellij.openapi.vfs.VirtualFile
import org.jetbrains.concurrency.Promise
import java.util.concurrent.ExecutorService
import java.util.concurrent.Executors
import java.util.function.Consumer

/*
 * Fakes of the Java debugger (intellij-community java/debugger/impl) that behave like its
 * implementations, not like the XDebugger interfaces. Sources read:
 *  - JavaExecutionStack.java: @0243ea077640b033a5e569669041f24217f73d9a (path java/debugger/impl/
 *    src/com/intellij/debugger/engine/JavaExecutionStack.java) and the 2025 version, file id
 *    3259241851 (JavaExecutionStack.create, myTopFramesReady).
 *  - SuspendContextImpl.java: file id 3572538213 (initExecutionStacks, computeExecutionStacks).
 *  - XValueContainerNode.java: file id 8341497013 (top values shown first).
 *  - DevKit's IDE-state frame extension, file id 18026860601 (a top value added to a Java frame's children).
 * Everything the debugger computes is delivered from its own thread (the DebuggerManagerThread),
 * never from the caller's.
 */

/** One debugger manager thread, as DebuggerManagerThreadImpl: commands run one after another. */
class DebuggerThread : AutoCloseable {
    val executor: ExecutorService = Executors.newSingleThreadExecutor { r -> Thread(r, "fake-DebuggerManagerThread").also { it.isDaemon = true } }
    fun schedule(command: () -> Unit) = executor.execute(command)
    override fun close() { executor.shutdownNow() }
}

class FakeFile(private val path: String) : VirtualFile() {
    override fun getPath(): String = path
    override fun getUrl(): String = "file://$path"
    override fun isDirectory(): Boolean = false
    override fun toString() = path
}

class FakePosition(private val file: VirtualFile, private val line: Int) : XSourcePosition {
    override fun getLine(): Int = line
    override fun getOffset(): Int = 0
    override fun getFile(): VirtualFile = file
}

/**
 * A value whose presentation, like JavaValue's, is computed on the debugger thread from the
 * debuggee's current state: after a set value the same object presents the new value (a local's
 * descriptor re-reads the variable from the frame).
 */
class FakeValue(name: String, val type: String?, @Volatile var text: String, private val debugger: DebuggerThread) : XNamedValue(name) {
    /** JavaValue.getModifier: a modifier only when the descriptor can set a value (else null). */
    var modifierOrNull: XValueModifier? = null

    override fun computePresentation(node: XValueNode, place: XValuePlace) {
        FakeApplication.current().requireEdt("XValue.computePresentation (XValue.java, file id 3804048130)")
        val shown = text
        debugger.schedule { node.setPresentation(null, type, shown, false) }
    }

    override fun getModifier(): XValueModifier? = modifierOrNull

    override fun calculateEvaluationExpression(): Promise<XExpression> = ResolvedPromise(null)
}

/** An already-resolved promise (the stub interface has only the three callbacks the adapter uses). */
class ResolvedPromise<T>(private val value: T?) : Promise<T> {
    override fun onSuccess(handler: Consumer<in T>): Promise<T> = this.also { if (value != null) handler.accept(value) }
    override fun onError(rejected: Consumer<in Throwable>): Promise<T> = this
    override fun onProcessed(processed: Consumer<in T?>): Promise<T> = this.also { processed.accept(value) }
}

/**
 * A Java frame: text as JavaStackFrame renders it (`method:line, Class (package)`), children
 * computed on the debugger thread in two batches: a first batch holding only a top value (as
 * DevKit's IDE-state extension adds, last = false), then the locals (last = true).
 */
class FakeFrame(
    val method: String,
    val cls: String,
    val pkg: String,
    val file: VirtualFile,
    val line: Int,
    private val debugger: DebuggerThread,
    val topValues: List<FakeValue> = emptyList(),
    val locals: List<FakeValue> = emptyList(),
    private val evaluator: XDebuggerEvaluator? = null,
    /** JavaStackFrame.createThisNode: a `this` value exactly when the frame has a this object. */
    val thisValue: FakeValue? = null,
    /** buildVariablesThreadAction's `node.setErrorMessage(e.getMessage())` (EvaluateException, INVALID_SLOT). */
    val errorMessage: String? = null,
    /** JavaStackFrame.addStaticGroup's group (a static frame whose class has static fields). */
    val staticGroup: XValueGroup? = null,
    /** How long `DebuggerUtilsAsync.allFields(type)` takes to complete; after it, the group is added. */
    val staticGroupAfterMs: Long = 0,
) : XStackFrame() {
    /**
     * StackFrameDescriptorImpl.getUiIndex (file id 38468929046): the frame's JVM depth, set once
     * when the frame is made (`myUiIndex = frame.getFrameIndex()`); [FakeThread] sets it.
     */
    @Volatile var uiIndex: Int = -1

    /** Another object for the same frame (a new JavaStackFrame for the same frame proxy). */
    fun copy(): FakeFrame = FakeFrame(method, cls, pkg, file, line, debugger, topValues, locals, evaluator, thisValue, errorMessage, staticGroup, staticGroupAfterMs).also { it.uiIndex = uiIndex }

    override fun getSourcePosition(): XSourcePosition = FakePosition(file, line)

    override fun getEvaluator(): XDebuggerEvaluator? = evaluator

    override fun customizePresentation(component: ColoredTextContainer) {
        component.append("$method:${line + 1}, $cls ($pkg)", SimpleTextAttributes(0, null))
    }

    /**
     * JavaStackFrame.computeChildren → buildVariablesThreadAction (JavaStackFrame.java
     * @026915342927f0aa3ebcf478bd2760f82dd23246), in its order, on the debugger thread: `this`;
     * addStaticGroup, which for a frame without `this` adds the Static group from
     * `DebuggerUtilsAsync.allFields(type).thenAccept(…)` — a JDI reply completing on another thread,
     * possibly after everything below (`node.addChildren(topGroups(…), false)` after `last`); the
     * locals; `node.setErrorMessage(…)` when building them failed; and the children, with
     * `node.addChildren(children, true)` even after an error message.
     */
    override fun computeChildren(node: XCompositeNode) {
        FakeApplication.current().requireEdt("XValueContainer.computeChildren (XValueContainer.java, file id 3887467913)")
        debugger.schedule {
            if (topValues.isNotEmpty()) {
                val top = XValueChildrenList()
                topValues.forEach { top.addTopValue(it) }
                node.addChildren(top, false)
            }
            val rest = XValueChildrenList()
            thisValue?.let { rest.add(it.name, it) }
            if (thisValue == null && staticGroup != null) {
                val group = XValueChildrenList().also { it.addTopGroup(staticGroup) }
                if (staticGroupAfterMs <= 0) node.addChildren(group, false)
                else Thread({ Thread.sleep(staticGroupAfterMs); node.addChildren(group, false) }, "fake-JDI-reply").also { it.isDaemon = true }.start()
            }
            locals.forEach { rest.add(it.name, it) }
            errorMessage?.let { node.setErrorMessage(it) }
            node.addChildren(rest, true)
        }
    }

    override fun toString() = "$method:${line + 1}"
}

/**
 * A debuggee thread: its name and frames, top first. [hidden]: frames the Frames view hides
 * ("Show Library Frames" off: JavaExecutionStack.showFrame false for library or synthetic frames).
 * [fold]: XFramesView.shouldFoldHiddenFrames() — on, hidden frames are folded into placeholders;
 * off, they are left out without one.
 */
class FakeThread(val name: String, val uniqueId: Long, val frames: List<FakeFrame>, val hidden: Set<FakeFrame> = emptySet(), val fold: Boolean = true) {
    init {
        frames.forEachIndexed { depth, frame -> frame.uiIndex = depth }
    }
}

/**
 * JavaExecutionStack: display name with the thread status (calcRepresentation), equal per thread
 * (equals/hashCode compare the thread proxy), `getTopFrame()` asserting "Top frame must be
 * already calculated here" until `initTopFrame()` or a `computeStackFrames` from index 0 computed
 * it, and frames appended one per command on the debugger thread (AppendFrameCommand: a batch of
 * one frame with last = false each, then an empty batch with last = true; `firstFrameIndex > 0`
 * skips the top frame).
 */
class JavaLikeStack(val thread: FakeThread, private val debugger: DebuggerThread) :
    XExecutionStack("\"${thread.name}\"@${thread.uniqueId} in group \"main\": RUNNING") {
    @Volatile private var topFrameReady = false
    @Volatile private var topFrame: XStackFrame? = null

    /**
     * SuspendContextImpl.initExecutionStacks calls this on the active stack only. [fresh]: as
     * JavaExecutionStack.initTopFrame, a new JavaStackFrame object (equal to, but not the same
     * as, the one the Frames view computed).
     */
    fun initTopFrame(fresh: Boolean = false) {
        topFrame = thread.frames.firstOrNull()?.let { if (fresh) it.copy() else it }
        topFrameReady = true
    }

    override fun getTopFrame(): XStackFrame? {
        if (!topFrameReady) throw AssertionError("Top frame must be already calculated here")
        return topFrame
    }

    override fun computeStackFrames(firstFrameIndex: Int, container: XStackFrameContainer) {
        FakeApplication.current().requireEdt("XExecutionStack.computeStackFrames (XExecutionStack.java, file id 89135184)")
        if (container.isObsolete) return
        debugger.schedule {
            val frames = thread.frames.iterator()
            var added = 0
            if (frames.hasNext() && firstFrameIndex > 0) {
                frames.next()
                added++
            }
            append(frames, container, added, firstFrameIndex)
        }
    }

    /**
     * AppendFrameCommand (JavaExecutionStack.java, file id 3672265093): the top frame is always
     * shown (`first || showFrame(frame)`); a hidden frame is remembered, and the frames remembered
     * are flushed as ONE `XFramesView.HiddenStackFramesItem(myHiddenFrames)` placeholder
     * (flushHiddenFrames, when XFramesView.shouldFoldHiddenFrames(), the default) just before the
     * next frame added or the final empty `addStackFrames(emptyList(), true)`. With folding off,
     * rememberHiddenFrame and flushHiddenFrames return at once: a hidden frame is simply not added.
     */
    private fun append(frames: Iterator<FakeFrame>, container: XStackFrameContainer, added: Int, skip: Int, remembered: MutableList<XStackFrame> = ArrayList()) {
        debugger.schedule {
            if (container.isObsolete) return@schedule
            fun flush() {
                if (remembered.isEmpty()) return
                container.addStackFrames(listOf(HiddenStackFramesItem(remembered)), false)
                remembered.clear()
            }
            if (!frames.hasNext()) {
                flush()
                container.addStackFrames(emptyList(), true)
                return@schedule
            }
            val frame = frames.next()
            if (added == 0 && !topFrameReady) {
                topFrame = frame
                topFrameReady = true
            }
            if (added > 0 && frame in thread.hidden) {
                if (thread.fold) remembered += frame
            } else if (added + 1 > skip) {
                flush()
                container.addStackFrames(listOf(frame), false)
            }
            append(frames, container, added + 1, skip, remembered)
        }
    }

    override fun equals(other: Any?): Boolean = other is JavaLikeStack && other.thread === thread
    override fun hashCode(): Int = System.identityHashCode(thread)
}

/**
 * SuspendContextImpl: the active stack is made once, with its top frame initialised
 * (initExecutionStacks); `computeExecutionStacks` makes FRESH stacks on every call
 * (JavaExecutionStack.create, no initTopFrame) on the debugger thread, paused threads first
 * (last = false), then all the others (last = true).
 */
class JavaLikeSuspendContext(
    private val threads: List<FakeThread>,
    pausedThread: FakeThread,
    private val debugger: DebuggerThread,
) : XSuspendContext() {
    private var paused = pausedThread
    @Volatile private var active = JavaLikeStack(pausedThread, debugger).also { it.initTopFrame() }
    var computeCalls = 0

    override fun getActiveExecutionStack(): XExecutionStack = active

    /** SuspendContextImpl.initExecutionStacks(thread): the active stack becomes [thread]'s, top frame initialised. */
    fun initExecutionStacks(thread: FakeThread, fresh: Boolean = false) {
        paused = thread
        active = JavaLikeStack(thread, debugger).also { it.initTopFrame(fresh) }
    }

    override fun computeExecutionStacks(container: XExecutionStackContainer) {
        FakeApplication.current().requireEdt("XSuspendContext.computeExecutionStacks (as the Frames view calls it)")
        computeCalls++
        debugger.schedule {
            container.addExecutionStack(listOf(JavaLikeStack(paused, debugger)), false)
            debugger.schedule {
                if (!container.isObsolete) {
                    container.addExecutionStack(threads.filter { it !== paused }.sortedBy { it.name }.map { JavaLikeStack(it, debugger) }, true)
                }
            }
        }
    }
}

/**
 * PyExecutionStack (python/src/com/jetbrains/python/debugger/PyExecutionStack.java, file id
 * 12436695263): named after the thread, equal per thread info, `getTopFrame()` computed lazily
 * (never asserts), and `computeStackFrames(first, …)` delivering every frame from `first` on in
 * ONE batch with last = true, from a pooled thread (`executeOnPooledThread`).
 */
class PyLikeStack(val thread: FakeThread, private val pool: java.util.concurrent.ExecutorService) : XExecutionStack(thread.name) {
    override fun getTopFrame(): XStackFrame? = thread.frames.firstOrNull()

    override fun computeStackFrames(firstFrameIndex: Int, container: XStackFrameContainer) {
        pool.execute {
            val frames = thread.frames
            if (firstFrameIndex <= frames.size && !container.isObsolete) {
                container.addStackFrames(frames.subList(firstFrameIndex, frames.size), true)
            } else {
                container.addStackFrames(emptyList(), true)
            }
        }
    }

    override fun equals(other: Any?): Boolean = other is PyLikeStack && other.thread === thread
    override fun hashCode(): Int = System.identityHashCode(thread)
}

/** PyDebugProcess's suspend context: an active stack, and fresh stacks for every compute. */
class PyLikeSuspendContext(private val threads: List<FakeThread>, paused: FakeThread, private val pool: java.util.concurrent.ExecutorService) : XSuspendContext() {
    private val active = PyLikeStack(paused, pool)
    override fun getActiveExecutionStack(): XExecutionStack = active
    override fun computeExecutionStacks(container: XExecutionStackContainer) {
        pool.execute { container.addExecutionStack(threads.map { PyLikeStack(it, pool) }, true) }
    }
}

/**
 * JavaValueModifier (java/debugger/impl/src/com/intellij/debugger/engine/JavaValueModifier.java,
 * file id 915711262): `setValue` is called on the EDT (XValueModifier.java, file id 54542892460:
 * "called from the Event Dispatch Thread so it should return quickly"); when the suspend context
 * has resumed it reports "Context has changed, operation is not possible" at once; otherwise a
 * debugger command evaluates the expression and sets the variable, then calls `valueModified()`
 * or `errorOccurred(message)` from the debugger thread. Here an int literal is a valid value.
 */
class JavaLikeModifier(private val value: FakeValue, private val debugger: DebuggerThread, private val resumed: () -> Boolean = { false }) : XValueModifier() {
    override fun setValue(expression: XExpression, callback: XModificationCallback) {
        FakeApplication.current().requireEdt("XValueModifier.setValue (XValueModifier.java, file id 54542892460)")
        if (resumed()) {
            callback.errorOccurred("Context has changed, operation is not possible")
            return
        }
        debugger.schedule {
            val text = expression.expression
            if (text.trim().toIntOrNull() == null) {
                callback.errorOccurred("Cannot find local variable '${text.trim()}'")
            } else {
                value.text = text.trim()
                callback.valueModified()
            }
        }
    }
}

/**
 * LocalVariableDescriptorImpl.getModifier (java/debugger/impl/src/com/intellij/debugger/ui/impl/
 * watch/LocalVariableDescriptorImpl.java, file id 1855717597): the new value is evaluated in, and
 * written through, `DebuggerManagerEx.getInstanceEx(project).getContext().getFrameProxy()` — the
 * IDE's current frame of the IDE's current session ([current]), whatever frame the value was
 * listed in: `setValue(local, …)` on that frame's proxy sets the local of that name there. On
 * the EDT (XValueModifier's contract), the write on the debugger thread.
 */
class JavaLikeLocalModifier(private val name: String, private val debugger: DebuggerThread, private val current: () -> FakeFrame?) : XValueModifier() {
    override fun setValue(expression: XExpression, callback: XModificationCallback) {
        FakeApplication.current().requireEdt("XValueModifier.setValue (XValueModifier.java, file id 54542892460)")
        debugger.schedule {
            val target = current()?.locals?.firstOrNull { it.name == name }
            val literal = expression.expression.trim().takeIf { it.toIntOrNull() != null }
            when {
                target == null -> callback.errorOccurred("Cannot find local variable '$name'")
                literal == null -> callback.errorOccurred("Cannot find local variable '${expression.expression.trim()}'")
                else -> { target.text = literal; callback.valueModified() }
            }
        }
    }
}

/**
 * A Java frame's own JavaDebuggerEvaluator for assignments (file id 3619526157): it evaluates in
 * `myStackFrame.getFrameDebuggerContext(...)`, the frame's own context, so `x = (7)` sets that
 * frame's local `x` (AssignmentEvaluator on the frame's proxy) and the result is the new value; a
 * plain name reads the frame's local. Called on the EDT, answers from the debugger thread.
 */
class FrameEvaluator(private val debugger: DebuggerThread, private val locals: () -> List<FakeValue>) : XDebuggerEvaluator() {
    val asked = java.util.concurrent.CopyOnWriteArrayList<String>()

    override fun evaluate(expression: XExpression, callback: XEvaluationCallback, expressionPosition: XSourcePosition?) {
        FakeApplication.current().requireEdt("XDebuggerEvaluator.evaluate")
        val text = expression.expression
        asked += text
        debugger.schedule {
            val assign = Regex("""^(\w+) = \((.*)\)$""").matchEntire(text)
            val name = assign?.groupValues?.get(1) ?: text.trim()
            val local = locals().firstOrNull { it.name == name }
            val literal = assign?.groupValues?.get(2)?.trim()
            when {
                local == null -> callback.errorOccurred("Cannot find local variable '$name'")
                assign == null -> callback.evaluated(FakeValue(name, local.type, local.text, debugger))
                literal?.toIntOrNull() == null -> callback.errorOccurred("Cannot find local variable '$literal'")
                else -> { local.text = literal; callback.evaluated(FakeValue(text, local.type, literal, debugger)) }
            }
        }
    }
}

/**
 * JavaDebuggerEvaluator (java/debugger/impl/src/com/intellij/debugger/engine/JavaDebuggerEvaluator.java,
 * file id 23259201567 @051ed2529b8e93c4923f44d48498137bd1c0760a): `evaluate` schedules a command
 * on the debugger thread, which calls `evaluated(JavaValue)` or `errorOccurred(message)` from
 * there (never from the caller's thread); Java evaluates code fragments too. The Evaluate dialog
 * calls it on the EDT (XDebuggerEvaluationDialog.java, file id 275328596). [results] maps an
 * expression to its value; anything else is an unknown name, with javac's message.
 */
class JavaLikeEvaluator(private val debugger: DebuggerThread, private val results: Map<String, Pair<String, String>>) : XDebuggerEvaluator() {
    val asked = java.util.concurrent.CopyOnWriteArrayList<String>()

    override fun evaluate(expression: XExpression, callback: XEvaluationCallback, expressionPosition: XSourcePosition?) {
        FakeApplication.current().requireEdt("XDebuggerEvaluator.evaluate (as XDebuggerEvaluationDialog calls it)")
        asked += expression.expression
        debugger.schedule {
            val r = results[expression.expression]
            if (r == null) callback.errorOccurred("Cannot find local variable '${expression.expression}'")
            else callback.evaluated(FakeValue(expression.expression, r.first, r.second, debugger))
        }
    }
}

/** XExpressionImpl: the text and the mode; XDebuggerUtil.createExpression makes one. */
class FakeExpression(private val text: String) : XExpression {
    override fun getExpression(): String = text
}

/**
 * JavaSteppingSuspendContext: what JavaDebugProcess posts with `getSession().positionReached(new
 * JavaSteppingSuspendContext(debugProcess, stack))` while a step is still running (its
 * DebuggerContextListener, event CONTEXT in state IN_STEPPING: JavaDebugProcess.java
 * @026915342927f0aa3ebcf478bd2760f82dd23246); an XSteppingSuspendContext, so the session is not
 * paused (pass `stepping = true` to FakeSession.positionReached).
 */
class JavaLikeSteppingContext(thread: FakeThread, debugger: DebuggerThread) : XSuspendContext() {
    private val stack = JavaLikeStack(thread, debugger).also { it.initTopFrame() }
    override fun getActiveExecutionStack(): XExecutionStack = stack
}

/**
 * JavaDebugProcess's reaction to a frame selection: its stackFrameChanged listener calls
 * `DebuggerContextUtil.setStackFrame(contextManager, frameProxy)` (DebuggerContextUtil.java
 * @051ed2529b8e93c4923f44d48498137bd1c0760a), which builds the new debugger context in a HIGH
 * manager-thread command and then, via `swingInvokeLater` on the EDT, calls
 * `manager.setState(newContext, …, Event.REFRESH)`; JavaDebugProcess's context listener
 * (JavaDebugProcess.java, file id 3553865272: REFRESH, shouldApplyContext) schedules a
 * SuspendContextCommandImpl that runs `newSuspendContext.initExecutionStacks(threadProxy)` and
 * then `XDebugSessionImpl.updateSuspendContext(newSuspendContext)` — no positionReached, no
 * sessionPaused. Until then the debugger context still names the previous thread, and a step
 * steps it. [contextDelayMs] stands for the JDI work of building the context, [updateGapMs] for
 * the manager thread being preempted between the two statements of the last command.
 */
class JavaLikeFrameSwitch(
    private val session: FakeSession,
    private val context: JavaLikeSuspendContext,
    private val threads: List<FakeThread>,
    private val debugger: DebuggerThread,
    private val contextDelayMs: Long = 100,
    private val updateGapMs: Long = 0,
) {
    init {
        session.onFrameSelected = { stack, _ ->
            val thread = threads.first { JavaLikeStack(it, debugger) == stack }
            val app = FakeApplication.current()
            debugger.schedule {
                Thread.sleep(contextDelayMs)
                app.invokeLater({
                    debugger.schedule {
                        context.initExecutionStacks(thread, fresh = true)
                        if (updateGapMs > 0) Thread.sleep(updateGapMs)
                        session.updateSuspendContext(context)
                    }
                }, com.intellij.openapi.application.ModalityState.nonModal())
            }
        }
    }
}
