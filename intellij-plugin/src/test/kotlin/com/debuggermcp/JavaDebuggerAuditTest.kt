package com.debuggermcp

import com.debuggermcp.adapter.ControlOps
import com.debuggermcp.adapter.Sessions
import com.debuggermcp.adapter.StackOps
import com.debuggermcp.adapter.ValueOps
import com.debuggermcp.fakes.DebuggerThread
import com.debuggermcp.fakes.FakeApplication
import com.debuggermcp.fakes.FakeFile
import com.debuggermcp.fakes.FakeFrame
import com.debuggermcp.fakes.FakeJvm
import com.debuggermcp.fakes.FakeJvmFrame
import com.debuggermcp.fakes.FakeProject
import com.debuggermcp.fakes.FakeSession
import com.debuggermcp.fakes.FakeThread
import com.debuggermcp.fakes.FakeValue
import com.debuggermcp.fakes.JavaLikeFrameSwitch
import com.debuggermcp.fakes.JavaLikeStack
import com.debuggermcp.fakes.JavaLikeSteppingContext
import com.debuggermcp.fakes.JavaLikeSuspendContext
import com.debuggermcp.java.JavaDebugSupport
import com.debuggermcp.json.JsonArgs
import com.debuggermcp.lang.LanguageDebugSupport
import com.debuggermcp.listeners.DebuggerEventsListener
import com.intellij.xdebugger.frame.XValueGroup
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.util.concurrent.CopyOnWriteArrayList

/**
 * Issue 27 (the fifth audit of the IDE host against intellij-community): each test runs an op
 * against fakes ported from the Java debugger's implementations (fakes/JavaDebuggerFakes.kt,
 * fakes/HiddenFrames.kt, fakes/JvmFakes.kt, fakes/FakeSession.kt, with their sources) and failed
 * against the adapter before its item was fixed.
 */
@Timeout(30)
class JavaDebuggerAuditTest {
    private val app = FakeApplication.install()
    private val debugger = DebuggerThread()
    private val project = FakeProject()
    private val main = FakeFile("/work/project/src/com/example/Main.java")
    private val jdk = FakeFile("/jdk/java/lang/reflect/Method.java")

    @AfterEach
    fun clean() {
        app.dispose()
        debugger.close()
        assertEquals(emptyList<String>(), app.violations, "threading contracts broken")
    }

    private fun pausedIn(vararg frames: FakeFrame, hidden: Set<FakeFrame> = emptySet(), fold: Boolean = true): Triple<FakeSession, String, FakeThread> {
        val thread = FakeThread("main", 1, frames.toList(), hidden, fold)
        val session = FakeSession(project, app, JavaLikeSuspendContext(listOf(thread), thread, debugger))
        return Triple(session, Sessions.id(session), thread)
    }

    private fun java(
        session: FakeSession,
        frames: Map<FakeFrame, FakeJvmFrame> = emptyMap(),
        types: Map<FakeValue, Pair<String?, String?>> = emptyMap(),
        notReady: Set<FakeValue> = emptySet(),
        failed: Map<FakeValue, String> = emptyMap(),
        stuck: Set<FakeValue> = emptySet(),
    ) = listOf<LanguageDebugSupport>(JavaDebugSupport(FakeJvm(frames.mapKeys { it.key }, setOf(session), debugger, types.mapKeys { it.key }, notReady, failed.mapKeys { it.key }, stuck)))

    private fun value(name: String, label: String?, text: String) = FakeValue(name, label, text, debugger)

    @Test
    fun `frame variables after the frame's error message list the variables too, with the message (item 3)`() {
        val frame = FakeFrame(
            "compute", "Main", "com.example", main, 11, debugger,
            thisValue = value("this", "Main@12", "{Main@12}"),
            locals = listOf(value("x", null, "1"), value("y", null, "2")),
            errorMessage = "Debug info might be corrupt: INVALID_SLOT",
        )
        val (_, sid) = pausedIn(frame)
        val vars = runBlocking { ValueOps.frameVariables(sid, "", emptyList()) }
        assertEquals(listOf("<error>", "this", "x", "y"), vars.map { it["name"] })
        assertEquals("Debug info might be corrupt: INVALID_SLOT", vars[0]["value"])
    }

    @Test
    fun `a static frame's Static group that arrives after the final batch is listed (item 4)`() {
        val static = object : XValueGroup("Static") {}
        val frame = FakeFrame(
            "main", "Main", "com.example", main, 4, debugger,
            locals = listOf(value("args", "String[0]@7", "{String[0]@7}")),
            staticGroup = static, staticGroupAfterMs = 300,
        )
        val (session, sid) = pausedIn(frame)
        val jvmFrame = FakeJvmFrame("main", "void", debugger, null, null).also { it.statics = true }
        val vars = runBlocking { ValueOps.frameVariables(sid, "", java(session, frames = mapOf(frame to jvmFrame))) }
        // Listed where the Variables view shows it, above the values (XValueContainerNode.getChildren:
        // top nodes of every batch first), not after them (review NIT).
        assertEquals(listOf("Static", "args"), vars.map { it["name"] })
        assertEquals("global", vars[0]["scope"])
    }

    @Test
    fun `a frame with this gets no Static group and does not wait for one (item 4)`() {
        val frame = FakeFrame("run", "Main", "com.example", main, 9, debugger, thisValue = value("this", "Main@12", "{Main@12}"))
        val (session, sid) = pausedIn(frame)
        val jvmFrame = FakeJvmFrame("run", "void", debugger, null, null).also { it.statics = true }
        val vars = runBlocking { ValueOps.frameVariables(sid, "", java(session, frames = mapOf(frame to jvmFrame))) }
        assertEquals(listOf("this"), vars.map { it["name"] })
    }

    @Test
    fun `folded library frames are not frames, and indexes are the frames' depths (item 5)`() {
        val compute = FakeFrame("compute", "Main", "com.example", main, 11, debugger)
        val invoke0 = FakeFrame("invoke0", "NativeMethodAccessorImpl", "jdk.internal.reflect", jdk, 1, debugger)
        val invoke = FakeFrame("invoke", "Method", "java.lang.reflect", jdk, 580, debugger)
        val mainFrame = FakeFrame("main", "Main", "com.example", main, 4, debugger)
        val (_, sid, _) = pausedIn(compute, invoke0, invoke, mainFrame, hidden = setOf(invoke0, invoke))
        val tid = runBlocking { StackOps.threads(sid) }.single()["id"] as String
        val page = runBlocking { StackOps.frames(sid, tid, 0, 20) }
        @Suppress("UNCHECKED_CAST")
        val frames = page["frames"] as List<Map<String, Any?>>
        assertEquals(listOf("compute", "main"), frames.map { it["method_name"] })
        assertEquals(listOf(0, 3), frames.map { it["index"] })
        assertEquals(4, page["total"])
        @Suppress("UNCHECKED_CAST")
        val hidden = page["hidden"] as Map<String, Any?>
        assertEquals(listOf(mapOf("from_index" to 1, "count" to 2)), hidden["ranges"])
        assertTrue((hidden["reason"] as String).contains("Show Library Frames"))
        // Paging is by depth too: frame 3 is main, depths 1-2 are folded.
        @Suppress("UNCHECKED_CAST")
        val third = runBlocking { StackOps.frames(sid, tid, 3, 1) }["frames"] as List<Map<String, Any?>>
        assertEquals(listOf("main" to 3), third.map { it["method_name"] to it["index"] })
    }

    /**
     * The same stack with the IDE's folding off (XFramesView.shouldFoldHiddenFrames false): the
     * Java debugger drops hidden frames without a placeholder, and on, with a placeholder; in both
     * the Java part gives each frame its JVM depth (the frame descriptor's uiIndex).
     */
    private fun librarySandwich(fold: Boolean): Pair<Map<String, Any?>, List<Map<String, Any?>>> {
        val compute = FakeFrame("compute", "Main", "com.example", main, 11, debugger)
        val invoke0 = FakeFrame("invoke0", "NativeMethodAccessorImpl", "jdk.internal.reflect", jdk, 1, debugger)
        val invoke = FakeFrame("invoke", "Method", "java.lang.reflect", jdk, 580, debugger)
        val mainFrame = FakeFrame("main", "Main", "com.example", main, 4, debugger)
        val (session, sid, _) = pausedIn(compute, invoke0, invoke, mainFrame, hidden = setOf(invoke0, invoke), fold = fold)
        val supports = java(session)
        val tid = runBlocking { StackOps.threads(sid) }.single()["id"] as String
        val page = runBlocking { StackOps.frames(sid, tid, 0, 20, supports) }
        @Suppress("UNCHECKED_CAST")
        val third = runBlocking { StackOps.frames(sid, tid, 3, 1, supports) }["frames"] as List<Map<String, Any?>>
        return page to third
    }

    @Test
    fun `with folding off, hidden library frames leave a gap in the indexes and are named as hidden (item 5, folding off)`() {
        val (page, third) = librarySandwich(fold = false)
        @Suppress("UNCHECKED_CAST")
        val frames = page["frames"] as List<Map<String, Any?>>
        assertEquals(listOf("compute" to 0, "main" to 3), frames.map { it["method_name"] to it["index"] }, "indexes are not the JVM depths")
        assertEquals(4, page["total"])
        @Suppress("UNCHECKED_CAST")
        val hidden = page["hidden"] as Map<String, Any?>?
        assertEquals(listOf(mapOf("from_index" to 1, "count" to 2)), hidden?.get("ranges"))
        assertTrue((hidden!!["reason"] as String).contains("Show Library Frames"))
        assertEquals(listOf("main" to 3), third.map { it["method_name"] to it["index"] })
    }

    @Test
    fun `with folding on, the Java depths and the placeholders agree (item 5, folding on)`() {
        val (page, third) = librarySandwich(fold = true)
        @Suppress("UNCHECKED_CAST")
        val frames = page["frames"] as List<Map<String, Any?>>
        assertEquals(listOf("compute" to 0, "main" to 3), frames.map { it["method_name"] to it["index"] })
        assertEquals(4, page["total"])
        @Suppress("UNCHECKED_CAST")
        assertEquals(listOf(mapOf("from_index" to 1, "count" to 2)), (page["hidden"] as Map<String, Any?>)["ranges"])
        assertEquals(listOf("main" to 3), third.map { it["method_name"] to it["index"] })
    }

    /** The id of a paused session the test itself does not hold (the IDE does, as for the ops). */
    private fun idOnly(frame: FakeFrame): Pair<String, java.lang.ref.WeakReference<FakeSession>> =
        pausedIn(frame).let { (session, sid, _) -> sid to java.lang.ref.WeakReference(session) }

    @Test
    fun `a session only the IDE holds is still found by its id after a garbage collection`() {
        // The flake of the folded-frames test above: it kept only the session id; the plugin's
        // registry is weak, and a collection between pausedIn and the op sent the lookup to
        // ProjectManager.getInstance() (a stub). The IDE holds running sessions strongly
        // (XDebuggerManagerImpl.mySessions), as FakeProject.liveSessions does.
        val (sid, ref) = idOnly(FakeFrame("compute", "Main", "com.example", main, 11, debugger))
        repeat(3) {
            System.gc()
            Thread.sleep(20)
        }
        assertNotNull(ref.get(), "the session was collected while the IDE still runs it")
        val threads = runBlocking { StackOps.threads(sid) }
        assertEquals(1, threads.size)
    }

    @Test
    fun `a value's type is the Java type, not the id label (item 2)`() {
        val list = value("list", "ArrayList@1234", "size = 2")
        val n = value("n", null, "5")
        val s = value("s", null, "null")
        val frame = FakeFrame("compute", "Main", "com.example", main, 11, debugger, thisValue = value("this", "Main@12", "{Main@12}"), locals = listOf(list, n, s))
        val (session, sid) = pausedIn(frame)
        val types = mapOf(list to ("java.util.ArrayList" to "java.util.List"), n to ("int" to "int"), s to (null to "java.lang.String"))
        val vars = runBlocking { ValueOps.frameVariables(sid, "", java(session, types = types)) }
        assertEquals(listOf("list", "n", "s"), vars.drop(1).map { it["name"] })
        assertEquals(listOf("java.util.ArrayList", "int", "java.lang.String"), vars.drop(1).map { it["type"] })
    }

    @Test
    fun `a value not computed yet or failed has its declared type, and no IDE error is logged (item 2)`() {
        val late = value("late", "ArrayList@1234", "size = 2")
        val broken = value("broken", null, "Method threw 'java.lang.IllegalStateException' exception.")
        val frame = FakeFrame("compute", "Main", "com.example", main, 11, debugger, locals = listOf(late, broken))
        val (session, sid) = pausedIn(frame)
        val types = mapOf(late to ("java.util.ArrayList" to "java.util.List"), broken to ("com.example.Item" to "com.example.Item"))
        val vars = runBlocking {
            ValueOps.frameVariables(sid, "", java(session, types = types, notReady = setOf(late), failed = mapOf(broken to "java.lang.IllegalStateException")))
        }
        assertEquals(listOf("java.util.List", "com.example.Item"), vars.map { it["type"] })
        // app.violations (checked after each test) holds the "Value is not yet calculated" LOG.error.
    }

    @Test
    fun `a value whose type read is stuck behind a slow renderer does not stall the variables (item 2)`() {
        val n = value("n", null, "5")
        val slow = value("slow", "Big@7", "{Big@7}")
        val frame = FakeFrame("compute", "Main", "com.example", main, 11, debugger, locals = listOf(n, slow))
        val (session, sid) = pausedIn(frame)
        val types = mapOf(n to ("int" to "int"), slow to ("com.example.Big" to "com.example.Big"))
        val vars = runBlocking {
            kotlinx.coroutines.withTimeoutOrNull(5_000) { ValueOps.frameVariables(sid, "", java(session, types = types, stuck = setOf(slow))) }
        }
        assertNotNull(vars, "one value's type read held up the whole variables call")
        // The type is unknown, never the id label.
        assertEquals(listOf("int", null), vars!!.map { it["type"] })
    }

    @Test
    fun `a stepping suspend context is not reported as a pause (item 6)`() {
        val compute = FakeFrame("compute", "Main", "com.example", main, 11, debugger)
        val (session, sid, thread) = pausedIn(compute)
        val queued = CopyOnWriteArrayList<Any>()
        session.addSessionListener(DebuggerEventsListener.SessionEvents(project, session, sid, isReady = { true }, queue = { queued += it }))
        // JavaDebugProcess posts this from the manager thread while the step runs.
        debugger.executor.submit { session.positionReached(JavaLikeSteppingContext(thread, debugger), stepping = true) }.get()
        assertEquals(0, queued.size, "a pause was reported for a stepping context")
        debugger.executor.submit { session.positionReached(session.suspendContext!!) }.get()
        assertEquals(1, queued.size, "the real stop was not reported")
    }

    @Test
    fun `a step on another thread steps it only once the debugger switched to it (item 7)`() {
        val compute = FakeFrame("compute", "Main", "com.example", main, 11, debugger)
        val run = FakeFrame("run", "Worker", "com.example", main, 30, debugger)
        val mainThread = FakeThread("main", 1, listOf(compute))
        val worker = FakeThread("worker", 23, listOf(run))
        val context = JavaLikeSuspendContext(listOf(mainThread, worker), mainThread, debugger)
        val session = FakeSession(project, app, context)
        // The manager thread preempted between initExecutionStacks and updateSuspendContext.
        JavaLikeFrameSwitch(session, context, listOf(mainThread, worker), debugger, updateGapMs = 300)
        val sid = Sessions.id(session)
        val ids = runBlocking { StackOps.threads(sid) }.associate { (it["name"] as String).substringBefore("@").trim('"') to it["id"] as String }
        runBlocking { ControlOps.control(sid, ids.getValue("worker"), JsonArgs(mapOf("op" to "step_over")), java(session)) }
        val step = session.commands.last()
        assertEquals("stepOver", step.name)
        assertEquals(JavaLikeStack(worker, debugger), step.active, "the step ran before the debugger switched to the worker thread")
        // updateSuspendContext had landed: a later one would mark the stepping session paused again.
        assertTrue(step.current != null && step.current === context.activeExecutionStack.topFrame,
            "the step ran before the session took over the switched context (updateSuspendContext)")
    }
}
