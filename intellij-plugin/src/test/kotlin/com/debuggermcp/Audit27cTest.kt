package com.debuggermcp

import com.debuggermcp.adapter.RunOps
import com.debuggermcp.adapter.Sessions
import com.debuggermcp.adapter.StackOps
import com.debuggermcp.adapter.TestOps
import com.debuggermcp.adapter.ValueOps
import com.debuggermcp.adapter.Wire
import com.debuggermcp.fakes.EdtRefusingHandler
import com.debuggermcp.fakes.FakeApplication
import com.debuggermcp.fakes.FakeConfigurationType
import com.debuggermcp.fakes.FakeExpression
import com.debuggermcp.fakes.FakeFrame
import com.debuggermcp.fakes.FakeJvm
import com.debuggermcp.fakes.FakeRunManager
import com.debuggermcp.fakes.FakeSession
import com.debuggermcp.fakes.FakeSettings
import com.debuggermcp.fakes.FakeThread
import com.debuggermcp.fakes.JavaLikeSuspendContext
import com.debuggermcp.fakes.ResolvedPromise
import com.debuggermcp.java.JavaDebugSupport
import com.debuggermcp.json.JsonArgs
import com.debuggermcp.lang.LanguageDebugSupport
import com.intellij.openapi.application.ModalityState
import com.intellij.xdebugger.XExpression
import com.intellij.xdebugger.XSourcePosition
import com.intellij.xdebugger.evaluation.XDebuggerEvaluator
import com.intellij.xdebugger.frame.XCompositeNode
import com.intellij.xdebugger.frame.XNamedValue
import com.intellij.xdebugger.frame.XStackFrame
import com.intellij.xdebugger.frame.XValueChildrenList
import com.intellij.xdebugger.frame.XValueModifier
import com.intellij.xdebugger.frame.XValueNode
import com.intellij.xdebugger.frame.XValuePlace
import kotlinx.coroutines.async
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.jetbrains.concurrency.Promise
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.atomic.AtomicBoolean

/**
 * The third audit of issue 27 (2026-12-07, docs/PLUGIN_VERIFICATION.md "Third audit"): each test
 * runs an op against fakes ported from the platform's implementations and failed against the
 * adapter before its finding was fixed.
 */
@Timeout(30)
class Audit27cTest : FakeJavaIdeTest() {
    // --- F1: set_value on a Java field ------------------------------------------------------

    /**
     * A JavaValue over a FieldDescriptorImpl: presentation on the EDT answered from the debugger
     * thread; its evaluation expression is the descriptor's (FieldDescriptorImpl.getDescriptorEvaluation:
     * `this.<name>` for an instance field, file id 38121781892), which the Variables view's "Copy
     * as Expression" gives (JavaValue.calculateEvaluationExpression).
     */
    private inner class FieldValue(name: String, private val evaluateAs: String, @Volatile var text: String) : XNamedValue(name) {
        var modifierOrNull: XValueModifier? = null
        override fun computePresentation(node: XValueNode, place: XValuePlace) {
            FakeApplication.current().requireEdt("XValue.computePresentation")
            val shown = text
            debugger.schedule { node.setPresentation(null, "int", shown, false) }
        }
        override fun getModifier(): XValueModifier? = modifierOrNull
        override fun calculateEvaluationExpression(): Promise<XExpression> = ResolvedPromise(FakeExpression(evaluateAs))
    }

    /** `this` of a frame: a JavaValue with children (its fields), computed on the debugger thread. */
    private inner class ThisValue(private val fields: List<FieldValue>) : XNamedValue("this") {
        override fun computePresentation(node: XValueNode, place: XValuePlace) {
            debugger.schedule { node.setPresentation(null, "Counter", "{Counter@12}", true) }
        }
        override fun computeChildren(node: XCompositeNode) {
            debugger.schedule {
                val list = XValueChildrenList()
                fields.forEach { list.add(it.name, it) }
                node.addChildren(list, true)
            }
        }
        override fun calculateEvaluationExpression(): Promise<XExpression> = ResolvedPromise(FakeExpression("this"))
    }

    /**
     * FieldDescriptorImpl.getModifier (FieldDescriptorImpl.java @00320d531dc8, file id 38121781892)
     * → JavaValueModifier.set (file id 8774012599): the command is a
     * `DebuggerContextCommandImpl(DebuggerManagerEx.getInstanceEx(project).getContext())`, the IDE's
     * *current* debugger context. DebuggerContextCommandImpl.contextAction (file id 4995695504)
     * runs threadAction only when that context's thread is suspended (by that context's suspend
     * manager); otherwise it postpones the command or calls notifyCancelled(), and the modification
     * callback hears nothing. [currentSuspended]: whether the IDE's current session is paused.
     */
    private inner class JavaLikeFieldModifier(private val field: FieldValue, private val currentSuspended: () -> Boolean) : XValueModifier() {
        override fun setValue(expression: XExpression, callback: XModificationCallback) {
            FakeApplication.current().requireEdt("XValueModifier.setValue (XValueModifier.java, file id 54542892460)")
            debugger.schedule {
                if (!currentSuspended()) return@schedule // notifyCancelled(): no callback
                val literal = expression.expression.trim()
                if (literal.toIntOrNull() == null) callback.errorOccurred("Cannot find local variable '$literal'")
                else { field.text = literal; callback.valueModified() }
            }
        }
    }

    /**
     * The frame's own JavaDebuggerEvaluator (file id 3619526157): evaluates in the frame's context
     * (`myStackFrame.getFrameDebuggerContext(...)`) on its process's manager thread, so
     * `this.count = (5)` assigns the field of this frame's `this`; called on the EDT.
     */
    private inner class FrameFieldEvaluator(private val fields: List<FieldValue>) : XDebuggerEvaluator() {
        val asked = CopyOnWriteArrayList<String>()
        override fun evaluate(expression: XExpression, callback: XEvaluationCallback, expressionPosition: XSourcePosition?) {
            FakeApplication.current().requireEdt("XDebuggerEvaluator.evaluate")
            asked += expression.expression
            debugger.schedule {
                val assign = Regex("""^(.+) = \((.*)\)$""").matchEntire(expression.expression)
                val target = fields.firstOrNull { "this.${it.name}" == assign?.groupValues?.get(1) }
                val literal = assign?.groupValues?.get(2)?.trim()
                when {
                    target == null -> callback.errorOccurred("Cannot resolve symbol '${expression.expression}'")
                    literal?.toIntOrNull() == null -> callback.errorOccurred("Cannot resolve symbol '$literal'")
                    else -> { target.text = literal; callback.evaluated(FieldValue(expression.expression, expression.expression, literal)) }
                }
            }
        }
    }

    @Test
    fun `set_value on a Java field writes through its own session's frame, not the IDE's current debugger context (F1)`() {
        val count = FieldValue("count", "this.count", "1")
        val evaluator = FrameFieldEvaluator(listOf(count))
        val frame = object : XStackFrame() {
            override fun getEvaluator(): XDebuggerEvaluator = evaluator
            override fun computeChildren(node: XCompositeNode) {
                debugger.schedule { node.addChildren(XValueChildrenList().also { it.add("this", ThisValue(listOf(count))) }, true) }
            }
        }
        val thread = FakeThread("main", 1, listOf(FakeFrame("inc", "Counter", "com.example", main, 7, debugger)))
        // The agent's session, paused; the user's session, running, is the IDE's current one
        // (XDebuggerManager's current session: the last one that paused or was selected).
        val agents = FakeSession(project, app, JavaLikeSuspendContext(listOf(thread), thread, debugger))
        val users = FakeSession(project, app, null)
        count.modifierOrNull = JavaLikeFieldModifier(count) { users.isSuspended }
        val sid = Sessions.id(agents)
        val java = listOf<LanguageDebugSupport>(JavaDebugSupport(FakeJvm(emptyMap(), setOf(agents), debugger, types = mapOf(count to ("int" to "int")))))
        val frameHandle = Sessions.data(agents).values.register("f", frame, "inc")
        val self = runBlocking { ValueOps.frameVariables(sid, frameHandle, java) }.single { it["name"] == "this" }
        @Suppress("UNCHECKED_CAST")
        val children = runBlocking { ValueOps.children(sid, self["children_handle"] as String, 0, 10, java) }["children"] as List<Map<String, Any?>>
        val field = children.single { it["name"] == "count" }
        assertEquals("this.count", field["evaluate_name"])
        // Bounded here: the modifier's command is cancelled in the user's running context and never answers.
        val after = runBlocking { withTimeout(5_000) { ValueOps.setValue(sid, field["set_handle"] as String, "5", java) } }
        assertEquals("5", after["value"])
        assertEquals("5", count.text)
        assertEquals(listOf("this.count = (5)"), evaluator.asked.toList())
    }

    // --- F3: debug_test and a configuration the user saved --------------------------------------

    @Test
    fun `debug_test keeps its temporary configuration once the user saved it while the session ran (F3)`() {
        val runManager = FakeRunManager.install(project)
        val session = FakeSession(project, app, null)
        val created = FakeSettings("test_x", FakeConfigurationType("JUnit"))
        runBlocking { TestOps.debugFromContext(project, null, created, stopOnException = false) { _, _ -> Sessions.info(session) } }
        assertTrue(created.isTemporary)
        // The run widget's "Save 'test_x' Configuration" (RunManagerImpl.makeStable), on the EDT.
        runBlocking { com.debuggermcp.adapter.Ide.onEdt(ModalityState.nonModal()) { runManager.makeStable(created) } }
        session.ended()
        // The stop listener posts its removal non-modally: let the EDT run it.
        runBlocking { com.debuggermcp.adapter.Ide.onEdt(ModalityState.nonModal()) { } }
        runBlocking { com.debuggermcp.adapter.Ide.onEdt(ModalityState.nonModal()) { } }
        assertEquals(listOf<Any>(created), runManager.allSettings, "the configuration the user saved was deleted")
    }

    @Test
    fun `a temporary configuration the user did not save is still removed when the session ends (F3)`() {
        val runManager = FakeRunManager.install(project)
        val session = FakeSession(project, app, null)
        val created = FakeSettings("test_x", FakeConfigurationType("JUnit"))
        runBlocking { TestOps.debugFromContext(project, null, created, stopOnException = false) { _, _ -> Sessions.info(session) } }
        session.ended()
        runBlocking { com.debuggermcp.adapter.Ide.onEdt(ModalityState.nonModal()) { } }
        runBlocking { com.debuggermcp.adapter.Ide.onEdt(ModalityState.nonModal()) { } }
        assertEquals(emptyList<Any>(), runManager.allSettings)
    }

    // --- F6: a step that never ran ------------------------------------------------------------

    @Test
    fun `a step held by a modal dialog until the op gives up leaves the handles and the stop reason as they were (F6)`() {
        val x = com.debuggermcp.fakes.FakeValue("x", "int", "1", debugger)
        val compute = FakeFrame("compute", "Main", "com.example", main, 11, debugger, locals = listOf(x))
        val thread = FakeThread("main", 1, listOf(compute))
        val session = FakeSession(project, app, JavaLikeSuspendContext(listOf(thread), thread, debugger))
        val sid = Sessions.id(session)
        val threadId = runBlocking { StackOps.threads(sid) }.single()["id"] as String
        @Suppress("UNCHECKED_CAST")
        val frames = runBlocking { StackOps.frames(sid, threadId, 0, 20) }["frames"] as List<Map<String, Any?>>
        val frameHandle = frames[0]["handle"] as String
        // A modal dialog of the user's is open: its loop holds non-modal posts (the step's).
        val closed = AtomicBoolean(false)
        app.invokeLater({ app.modalLoop { closed.get() } }, ModalityState.nonModal())
        val deadline = System.nanoTime() + 5_000_000_000
        while (!app.modalOpen()) { check(System.nanoTime() < deadline); Thread.sleep(5) }
        // The op's budget ends first (OpRunner's withTimeout): the step is cancelled.
        val outcome = runCatching { runBlocking { withTimeout(300) { com.debuggermcp.adapter.ControlOps.control(sid, null, JsonArgs(mapOf("op" to "step_over")), emptyList()) } } }
        assertTrue(outcome.exceptionOrNull() is kotlinx.coroutines.TimeoutCancellationException, "$outcome")
        closed.set(true)
        runBlocking { com.debuggermcp.adapter.Ide.onEdt(ModalityState.nonModal()) { } }
        assertEquals(emptyList<String>(), session.commands.map { it.name }, "the cancelled step ran after all")
        // Still paused where it was: its frame handle still lists the variables, and the next stop
        // (a breakpoint after the user resumes) is not reported as the end of a step.
        assertEquals(listOf("x"), runBlocking { ValueOps.frameVariables(sid, frameHandle, emptyList()) }.map { it["name"] })
        assertSame(Wire.Command.NONE, Sessions.data(session).lastCommand)
    }

    // --- F2: a start the runner drops without a word ------------------------------------------

    @Test
    fun `a launch whose runner drops the start without publishing anything fails at once, not after the build budget (F2)`() {
        val manager = com.intellij.execution.FakeExecutionManager(app, project) { }
        try {
            val configuration = object : com.intellij.execution.configurations.RunConfiguration {
                override fun getName(): String = "App"
            }
            val settings = FakeSettings("App", FakeConfigurationType("Application"), configuration)
            FakeRunManager.install(project, settings)
            project.services[com.intellij.xdebugger.XDebuggerManager::class.java] = object : com.intellij.xdebugger.XDebuggerManager() {
                override fun getBreakpointManager() = throw UnsupportedOperationException("not used by launch")
                override fun getDebugSessions(): Array<com.intellij.xdebugger.XDebugSession> = emptyArray()
                override fun getCurrentSession(): com.intellij.xdebugger.XDebugSession? = null
            }
            // The configuration's getState() throws or returns null inside runner.execute.
            manager.runnerGivesUp = true
            for ((index, mode) in listOf("debug", "run").withIndex()) {
                val e = runBlocking {
                    // The launch's budget would be launch_timeout_ms + build_timeout_ms (5.5 min); 10 s here.
                    withTimeout(10_000) { runCatching { RunOps.launch(project, JsonArgs(mapOf("configuration" to "App", "mode" to mode))) }.exceptionOrNull() }
                }
                assertTrue(e is com.debuggermcp.adapter.OpException, "$mode: $e")
                assertEquals(com.debuggermcp.adapter.ErrorKind.FAILED, (e as com.debuggermcp.adapter.OpException).kind)
                assertTrue(e.message!!.contains("did not start 'App'") && e.message!!.contains("Run/Debug tool window"), e.message)
                // Only the watch of each dropped start remains: it is abandoned, so a late start of it is
                // skipped or stopped (re-check audit R1); the launch's own listeners are gone.
                assertEquals(index + 1, project.bus.subscribers(com.intellij.execution.ExecutionManager.EXECUTION_TOPIC), "launch left its listener subscribed")
                assertEquals(true, manager.executed[index].getUserData(com.intellij.execution.ExecutionManager.EXECUTION_SKIP_RUN), "the dropped start was not abandoned")
            }
        } finally {
            manager.uninstall()
        }
    }

    // --- F4: closing the project while the session runs -----------------------------------------

    /**
     * ProjectManagerImpl.closeProject (ProjectManagerImpl.kt, file id 1497337143), on the EDT and
     * outside any write action: the `projectClosingBeforeSave` listeners of ProjectManager.TOPIC —
     * the application listeners plugin.xml declares for ProjectManagerListener, created as the
     * platform creates them — then the project's save ([save], in the same EDT task), then
     * `projectClosing` and the dispose. The sessions' stops come later.
     */
    private fun closeProject(save: () -> Unit) {
        val doc = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder()
            .parse(java.io.File(System.getProperty("repo.root") ?: ".", "intellij-plugin/src/main/resources/META-INF/plugin.xml"))
        val listeners = doc.getElementsByTagName("applicationListeners").let { sections ->
            (0 until sections.length).flatMap { i ->
                val items = (sections.item(i) as org.w3c.dom.Element).getElementsByTagName("listener")
                (0 until items.length).map { items.item(it) as org.w3c.dom.Element }
            }
        }.filter { it.getAttribute("topic") == "com.intellij.openapi.project.ProjectManagerListener" }
            .map { Class.forName(it.getAttribute("class")).getDeclaredConstructor().newInstance() as com.intellij.openapi.project.ProjectManagerListener }
        runBlocking {
            com.debuggermcp.adapter.Ide.onEdt(ModalityState.nonModal()) {
                listeners.forEach { it.projectClosingBeforeSave(project) }
                save()
            }
        }
    }

    @Test
    fun `closing the project while sessions run saves neither stop_on_exception's breakpoint nor debug_test's configuration (F4)`() {
        val manager = com.debuggermcp.fakes.FakeBreakpointManager(app)
        project.services[com.intellij.xdebugger.XDebuggerManager::class.java] = com.debuggermcp.fakes.FakeDebuggerManager(manager)
        val runManager = FakeRunManager.install(project)
        // A launch with stop_on_exception: its session owns the exception breakpoint it added.
        val launched = FakeSession(project, app, null)
        val type = com.debuggermcp.fakes.FakeLineType("java-line", 100, setOf(4), app)
        val owned = runBlocking { com.debuggermcp.adapter.Ide.writeAction { manager.addLineBreakpoint(type, "file:///work/project/src/com/example/Main.java", 4, null, false) } }
        Sessions.data(launched).ownedBreakpoints.add(owned)
        // The user's own breakpoint stays.
        val users = runBlocking { com.debuggermcp.adapter.Ide.writeAction { manager.addLineBreakpoint(type, "file:///work/project/src/com/example/Main.java", 5, null, false) } }
        // A debug_test session with its temporary configuration.
        val testSession = FakeSession(project, app, null)
        val created = FakeSettings("test_x", FakeConfigurationType("JUnit"))
        runBlocking { TestOps.debugFromContext(project, null, created, stopOnException = false) { _, _ -> Sessions.info(testSession) } }

        var savedBreakpoints: List<Any> = emptyList()
        var savedConfigurations: List<Any> = emptyList()
        closeProject {
            savedBreakpoints = manager.breakpoints.toList()
            savedConfigurations = runManager.allSettings
        }
        assertEquals(listOf<Any>(users), savedBreakpoints, "the session's exception breakpoint was saved into the project")
        assertEquals(emptyList<Any>(), savedConfigurations, "debug_test's temporary configuration was saved into the project")
        // The sessions stop after the close: their late clean-up finds nothing left, and fails on nothing.
        launched.ended()
        testSession.ended()
        runBlocking { com.debuggermcp.adapter.Ide.onEdt(ModalityState.nonModal()) { } }
        assertEquals(listOf<Any>(users), manager.breakpoints.toList())
    }

    @Test
    fun `closing the project while a stop_on_exception launch still builds does not save its exception breakpoint (re-check R2)`() {
        val breakpoints = com.debuggermcp.fakes.FakeBreakpointManager(app)
        project.services[com.intellij.xdebugger.XDebuggerManager::class.java] = com.debuggermcp.fakes.FakeDebuggerManager(breakpoints)
        val configuration = object : com.intellij.execution.configurations.RunConfiguration {
            override fun getName(): String = "App"
        }
        FakeRunManager.install(project, FakeSettings("App", FakeConfigurationType("Application"), configuration))
        val type = com.debuggermcp.fakes.FakeLineType("java-line", 100, setOf(4), app)
        // The language's "any exception" breakpoint, added in the write action addStopOnException
        // opens (a line breakpoint stands in: this fake manager has no exception breakpoint type).
        val support = object : com.debuggermcp.lang.LanguageDebugSupport {
            override fun addExceptionBreakpoint(project: com.intellij.openapi.project.Project, exception: String, caught: Boolean, uncaught: Boolean) =
                breakpoints.addLineBreakpoint(type, "file:///work/project/src/com/example/Main.java", 4, null, false)
            override fun describeException(breakpoint: com.intellij.xdebugger.breakpoints.XBreakpoint<*>) = null
            override fun setHitCount(properties: com.intellij.xdebugger.breakpoints.XBreakpointProperties<*>, count: Int?) = false
            override fun hitCount(breakpoint: com.intellij.xdebugger.breakpoints.XBreakpoint<*>): Int? = null
            override val anyException: String = "java.lang.Throwable"
        }
        val build = java.util.concurrent.CountDownLatch(1)
        val building = java.util.concurrent.LinkedBlockingQueue<com.intellij.execution.runners.ExecutionEnvironment>()
        val manager = com.intellij.execution.FakeExecutionManager(app, project) { }
        manager.beforeRun = { env -> building.put(env); build.await(20, java.util.concurrent.TimeUnit.SECONDS) }
        val before = com.debuggermcp.adapter.Breakpoints.stopOnExceptionSupport
        com.debuggermcp.adapter.Breakpoints.stopOnExceptionSupport = { support }
        try {
            runBlocking {
                val launch = async(kotlinx.coroutines.Dispatchers.Default) {
                    RunOps.launch(project, JsonArgs(mapOf("configuration" to "App", "mode" to "debug", "stop_on_exception" to true)))
                }
                building.poll(10, java.util.concurrent.TimeUnit.SECONDS) ?: error("the build never started")
                assertEquals(1, breakpoints.breakpoints.size, "the launch added no exception breakpoint")
                // The user closes the project during the before-run build.
                var saved: List<Any> = listOf("not saved")
                closeProject { saved = breakpoints.breakpoints.toList() }
                assertEquals(emptyList<Any>(), saved, "the launch's exception breakpoint was saved into the project")
                launch.cancel()
                launch.join()
                build.countDown()
            }
        } finally {
            build.countDown()
            com.debuggermcp.adapter.Breakpoints.stopOnExceptionSupport = before
            manager.uninstall()
        }
    }

    // --- the audit's remark on stop: XDebugSession.stop() ends in destroyProcess/detachProcess -----

    @Test
    fun `stopping a launched session, or an attached one whose handler detaches by default, ends its process off the EDT`() {
        // XDebugSessionImpl.stop() (file id 3494500063) is the handler's destroy, or its detach when
        // that is its default (Java's attach: RemoteDebugProcessHandler).
        for ((attached, detachDefault, expected) in listOf(Triple(false, false, "destroy"), Triple(true, true, "detach"))) {
            val handler = EdtRefusingHandler(app, detachDefault)
            val session = FakeSession(project, app, null, handler = handler)
            if (attached) Sessions.data(session).attachedPid = 1
            runBlocking { RunOps.stop(Sessions.id(session)) }
            assertEquals(listOf(expected), handler.how.toList(), "attached=$attached")
        }
    }
}
