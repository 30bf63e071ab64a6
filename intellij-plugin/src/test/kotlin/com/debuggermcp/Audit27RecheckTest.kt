package com.debuggermcp

import com.debuggermcp.adapter.Sessions
import com.debuggermcp.adapter.StackOps
import com.debuggermcp.adapter.ValueOps
import com.debuggermcp.fakes.FakeApplication
import com.debuggermcp.fakes.FakeFrame
import com.debuggermcp.fakes.FakeJvm
import com.debuggermcp.fakes.FakeSession
import com.debuggermcp.fakes.FakeThread
import com.debuggermcp.fakes.FakeValue
import com.debuggermcp.fakes.FrameEvaluator
import com.debuggermcp.fakes.JavaLikeLocalModifier
import com.debuggermcp.fakes.JavaLikeSuspendContext
import com.debuggermcp.java.JavaDebugSupport
import com.debuggermcp.lang.LanguageDebugSupport
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout

/**
 * The issue 27 re-check audit (a fresh audit of the IDE host against intellij-community): each
 * test runs an op against fakes ported from the platform's implementations and failed against the
 * adapter before its finding was fixed.
 */
@Timeout(30)
class Audit27RecheckTest : FakeJavaIdeTest() {
    /** A recursion `fact(n)`: frame 0 has n = 1, frame 1 has n = 2; each n is a Java local. */
    private inner class Recursion {
        val sessions = mutableListOf<FakeSession>()
        lateinit var session: FakeSession
        val frames: List<FakeFrame> = listOf(1, 2).map { n ->
            val locals = mutableListOf<FakeValue>()
            val frame = FakeFrame("fact", "Main", "com.example", main, 10, debugger, locals = locals, evaluator = FrameEvaluator(debugger) { locals })
            locals += FakeValue("n", "int", "$n", debugger).also { v ->
                // The IDE's current frame: the session's current stack frame (the Frames view's selection).
                v.modifierOrNull = JavaLikeLocalModifier("n", debugger) { session.currentStackFrame as? FakeFrame }
            }
            frame
        }
        val thread = FakeThread("main", 1, frames)

        init {
            session = FakeSession(project, app, JavaLikeSuspendContext(listOf(thread), thread, debugger))
        }

        val sid = Sessions.id(session)
        val java: List<LanguageDebugSupport> = listOf(
            JavaDebugSupport(FakeJvm(emptyMap(), setOf(session), debugger, locals = frames.flatMap { it.locals }.toSet())),
        )

        fun n(frame: Int) = frames[frame].locals.single().text
    }

    @Test
    fun `set_value on a Java local writes in the frame it was listed in, not the IDE's current frame (B2)`() {
        val r = Recursion()
        val threadId = runBlocking { StackOps.threads(r.sid) }.single()["id"] as String
        @Suppress("UNCHECKED_CAST")
        val frames = runBlocking { StackOps.frames(r.sid, threadId, 0, 20) }["frames"] as List<Map<String, Any?>>
        // The agent reads frame 1 without selecting it: the IDE's current frame stays frame 0.
        val vars = runBlocking { ValueOps.frameVariables(r.sid, frames[1]["handle"] as String, r.java) }
        val n = vars.single { it["name"] == "n" }
        assertEquals("2", n["value"])
        val after = runBlocking { ValueOps.setValue(r.sid, n["set_handle"] as String, "7", r.java) }
        assertEquals("7", after["value"])
        assertEquals(listOf("1", "7"), listOf(r.n(0), r.n(1)), "frame 0's n changed, or frame 1's did not")
    }

    @Test
    fun `a bad new value for a Java local is refused with the debugger's message and changes nothing (B2)`() {
        val r = Recursion()
        val vars = runBlocking { ValueOps.frameVariables(r.sid, "", r.java) }
        val handle = vars.single { it["name"] == "n" }["set_handle"] as String
        val e = org.junit.jupiter.api.Assertions.assertThrows(com.debuggermcp.adapter.OpException::class.java) {
            runBlocking { ValueOps.setValue(r.sid, handle, "nope", r.java) }
        }
        assertEquals("Cannot find local variable 'nope'", e.message)
        assertEquals(listOf("1", "2"), listOf(r.n(0), r.n(1)))
    }

    @Test
    fun `a value the IDE computes only on demand is reported as not computed, not as an empty string (W2)`() {
        // ValueDescriptorImpl's default on-demand provider (file id 3645169711), applied by
        // JavaValue.computePresentation while the descriptor is on demand and not calculated
        // (file id 1771637183): the "Evaluate" link's evaluator, then a blank presentation, on the EDT.
        val onDemand = object : com.intellij.xdebugger.frame.XNamedValue("size") {
            override fun computePresentation(node: com.intellij.xdebugger.frame.XValueNode, place: com.intellij.xdebugger.frame.XValuePlace) {
                FakeApplication.current().requireEdt("XValue.computePresentation")
                node.setFullValueEvaluator(object : com.intellij.xdebugger.frame.XFullValueEvaluator() {})
                node.setPresentation(null, object : com.intellij.xdebugger.frame.presentation.XValuePresentation() {
                    override fun renderValue(renderer: XValueTextRenderer) = renderer.renderValue("")
                }, false)
            }
            override fun calculateEvaluationExpression(): org.jetbrains.concurrency.Promise<com.intellij.xdebugger.XExpression> = com.debuggermcp.fakes.ResolvedPromise(null)
        }
        // A long string: cut, with the "View" link's evaluator (XValueNode.MAX_VALUE_LENGTH).
        val long = object : com.intellij.xdebugger.frame.XNamedValue("text") {
            override fun computePresentation(node: com.intellij.xdebugger.frame.XValueNode, place: com.intellij.xdebugger.frame.XValuePlace) {
                node.setFullValueEvaluator(object : com.intellij.xdebugger.frame.XFullValueEvaluator() {})
                node.setPresentation(null, "String", "\"aaaa…\"", false)
            }
            override fun calculateEvaluationExpression(): org.jetbrains.concurrency.Promise<com.intellij.xdebugger.XExpression> = com.debuggermcp.fakes.ResolvedPromise(null)
        }
        val frame = FakeFrame("run", "Main", "com.example", main, 9, debugger)
        val thread = FakeThread("main", 1, listOf(frame))
        val session = FakeSession(project, app, JavaLikeSuspendContext(listOf(thread), thread, debugger))
        val sid = Sessions.id(session)
        // The value as a child of the frame: handed over by a fake frame that lists it.
        val listing = object : com.intellij.xdebugger.frame.XStackFrame() {
            override fun computeChildren(node: com.intellij.xdebugger.frame.XCompositeNode) {
                val list = com.intellij.xdebugger.frame.XValueChildrenList()
                list.add("size", onDemand)
                list.add("text", long)
                node.addChildren(list, true)
            }
        }
        val handle = Sessions.data(session).values.register("f", listing, "run")
        val vars = runBlocking { ValueOps.frameVariables(sid, handle, emptyList()) }
        assertEquals(com.debuggermcp.adapter.XAsync.NOT_COMPUTED_ON_DEMAND, vars.single { it["name"] == "size" }["value"])
        // A full value evaluator with a value (a long string's "View" link) is still the value.
        assertEquals("\"aaaa…\"", vars.single { it["name"] == "text" }["value"])
    }

    @Test
    fun `inspection during a step is refused, the session is running (RISK 1)`() {
        val xValue = FakeValue("x", "int", "1", debugger).also { it.modifierOrNull = com.debuggermcp.fakes.JavaLikeModifier(it, debugger) }
        val frame = FakeFrame("compute", "Main", "com.example", main, 11, debugger, locals = listOf(xValue))
        val thread = FakeThread("main", 1, listOf(frame))
        val session = FakeSession(project, app, JavaLikeSuspendContext(listOf(thread), thread, debugger))
        val sid = Sessions.id(session)
        val x = runBlocking { ValueOps.frameVariables(sid, "", emptyList()) }.single()
        // JavaDebugProcess posts a JavaSteppingSuspendContext while the step still runs: isSuspended() is false.
        debugger.executor.submit { session.positionReached(com.debuggermcp.fakes.JavaLikeSteppingContext(thread, debugger), stepping = true) }.get()
        for (op in listOf<suspend () -> Any?>(
            { ValueOps.frameVariables(sid, "", emptyList()) },
            { StackOps.threads(sid) },
            { ValueOps.setValue(sid, x["set_handle"] as String, "2", emptyList()) },
        )) {
            val e = org.junit.jupiter.api.Assertions.assertThrows(com.debuggermcp.adapter.OpException::class.java) { runBlocking { op() } }
            assertEquals(com.debuggermcp.adapter.ErrorKind.INVALID_STATE, e.kind)
            assertEquals("the session is running (stepping); wait for the step to stop, then retry", e.message)
        }
        assertEquals("1", frame.locals.single().text)
    }

    @Test
    fun `the Static group wait is bounded when the debugger's manager thread is busy (RISK 2)`() {
        val frame = FakeFrame("main", "Main", "com.example", main, 4, debugger, locals = listOf(FakeValue("args", "String[]", "{String[0]@7}", debugger)))
        val thread = FakeThread("main", 1, listOf(frame))
        val session = FakeSession(project, app, JavaLikeSuspendContext(listOf(thread), thread, debugger))
        val sid = Sessions.id(session)
        val jvmFrame = com.debuggermcp.fakes.FakeJvmFrame("main", "void", debugger, null, null).also { it.statics = true; it.managerStuck = true }
        val java = listOf<LanguageDebugSupport>(JavaDebugSupport(FakeJvm(mapOf(frame to jvmFrame), setOf(session), debugger)))
        val started = System.nanoTime()
        val vars = runBlocking { kotlinx.coroutines.withTimeout(5_000) { ValueOps.frameVariables(sid, "", java) } }
        assertEquals(listOf("args"), vars.map { it["name"] })
        val ms = (System.nanoTime() - started) / 1_000_000
        org.junit.jupiter.api.Assertions.assertTrue(ms < 2 * JavaDebugSupport.LATE_STATIC_GROUP_MS + 1_000, "took $ms ms")
    }

    /**
     * DebuggerContextUtil.setStackFrame (DebuggerContextUtil.java @051ed2529b8e…), reached from
     * JavaDebugProcess's stackFrameChanged listener: a manager-thread command builds the new
     * debugger context ([delayMs] of JDI work), then posts `manager.setState(newContext, …)` to the
     * EDT (DebuggerInvocationUtil.swingInvokeLater: the default, non-modal state). On the paused
     * thread no suspend context changes (shouldApplyContext). Returns the context's frame.
     */
    private fun javaContextManager(session: FakeSession, delayMs: Long = 150): () -> Any? {
        val frame = java.util.concurrent.atomic.AtomicReference<Any?>(session.currentStackFrame)
        session.onFrameSelected = { _, selected ->
            debugger.schedule {
                Thread.sleep(delayMs)
                app.invokeLater({ frame.set(selected) }, com.intellij.openapi.application.ModalityState.nonModal())
            }
        }
        return { frame.get() }
    }

    @Test
    fun `a step after select_frame on the same thread starts from the top frame the debugger context names (RISK 3)`() {
        val compute = FakeFrame("compute", "Main", "com.example", main, 11, debugger)
        val caller = FakeFrame("main", "Main", "com.example", main, 4, debugger)
        val thread = FakeThread("main", 1, listOf(compute, caller))
        val session = FakeSession(project, app, JavaLikeSuspendContext(listOf(thread), thread, debugger))
        session.observe = javaContextManager(session)
        val sid = Sessions.id(session)
        val java = listOf<LanguageDebugSupport>(JavaDebugSupport(FakeJvm(emptyMap(), setOf(session), debugger)))
        val threadId = runBlocking { StackOps.threads(sid) }.single()["id"] as String
        @Suppress("UNCHECKED_CAST")
        val frames = runBlocking { StackOps.frames(sid, threadId, 0, 20) }["frames"] as List<Map<String, Any?>>
        runBlocking { StackOps.selectFrame(sid, threadId, frames[1]["handle"] as String, java) }
        runBlocking { com.debuggermcp.adapter.ControlOps.control(sid, threadId, com.debuggermcp.json.JsonArgs(mapOf("op" to "step_over")), java) }
        val step = session.commands.last()
        assertEquals("stepOver", step.name)
        org.junit.jupiter.api.Assertions.assertSame(step.current, step.observed, "the step ran before the debugger context named the top frame again")
    }

    @Test
    fun `steps and stop are not run inside another modal dialog (RISK 4)`() {
        val compute = FakeFrame("compute", "Main", "com.example", main, 11, debugger)
        val thread = FakeThread("main", 1, listOf(compute))
        val session = FakeSession(project, app, JavaLikeSuspendContext(listOf(thread), thread, debugger))
        val sid = Sessions.id(session)
        // A modal dialog of the IDE's user is open (its loop dispatches only ModalityState.any() runnables).
        val closed = java.util.concurrent.atomic.AtomicBoolean(false)
        app.invokeLater({ app.modalLoop { closed.get() } }, com.intellij.openapi.application.ModalityState.nonModal())
        val deadline = System.nanoTime() + 5_000_000_000
        while (!app.modalOpen()) { check(System.nanoTime() < deadline); Thread.sleep(5) }
        val step = Thread { runBlocking { com.debuggermcp.adapter.ControlOps.control(sid, null, com.debuggermcp.json.JsonArgs(mapOf("op" to "step_over")), emptyList()) } }
        step.start()
        Thread.sleep(300)
        assertEquals(emptyList<String>(), session.commands.map { it.name }, "the step ran inside the modal dialog")
        closed.set(true)
        step.join(5_000)
        assertEquals(listOf("stepOver"), session.commands.map { it.name })
    }

    @Test
    fun `a breakpoint the debugger found invalid is reported unverified with the debugger's message (RISK 5)`() {
        val type = com.debuggermcp.fakes.FakeLineType("java-line", 100, setOf(4), app)
        val bp = com.debuggermcp.fakes.FakeLineBreakpoint(type, "file:///work/project/src/com/example/Main.java", 4, null, false)
        assertEquals(true, com.debuggermcp.adapter.Breakpoints.info(bp)!!["verified"])
        // Java's debugger: setBreakpointInvalid(breakpoint, "No executable code found at line …").
        bp.invalidMessage = "No executable code found at line 5 in class com.example.Main"
        val info = com.debuggermcp.adapter.Breakpoints.info(bp)!!
        assertEquals(false, info["verified"])
        assertEquals("No executable code found at line 5 in class com.example.Main", info["message"])
    }

    @Test
    fun `a launch with stop_on_exception whose budget ends takes its exception breakpoint away (audit 27b F1)`() {
        val manager = com.debuggermcp.fakes.FakeBreakpointManager(app)
        project.services[com.intellij.xdebugger.XDebuggerManager::class.java] = com.debuggermcp.fakes.FakeDebuggerManager(manager)
        val type = com.debuggermcp.fakes.FakeLineType("java-line", 100, setOf(4), app)
        val outcome = runBlocking {
            runCatching {
                // As RunOps.launchSettings: the breakpoint is added, the start is awaited, OpRunner's
                // budget (withTimeout) cancels the wait, and the catch removes what the launch added.
                kotlinx.coroutines.withTimeout(300) {
                    val bp = com.debuggermcp.adapter.Ide.writeAction { manager.addLineBreakpoint(type, "file:///work/project/src/com/example/Main.java", 4, null, false) }
                    try {
                        kotlinx.coroutines.awaitCancellation()
                    } catch (t: Throwable) {
                        com.debuggermcp.adapter.Breakpoints.removeQuietly(project, bp)
                        throw t
                    }
                }
            }
        }
        org.junit.jupiter.api.Assertions.assertTrue(outcome.exceptionOrNull() is kotlinx.coroutines.TimeoutCancellationException, "$outcome")
        assertEquals(emptyList<Any>(), manager.breakpoints.toList(), "the breakpoint stayed in the user's project")
    }
}
