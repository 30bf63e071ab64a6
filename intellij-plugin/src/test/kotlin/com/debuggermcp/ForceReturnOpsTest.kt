package com.debuggermcp

import com.debuggermcp.adapter.ControlOps
import com.debuggermcp.adapter.ErrorKind
import com.debuggermcp.adapter.Ide
import com.debuggermcp.adapter.OpException
import com.debuggermcp.adapter.SessionData
import com.debuggermcp.adapter.Sessions
import com.debuggermcp.fakes.EvaluateException
import com.debuggermcp.fakes.OpaqueFrameException
import com.debuggermcp.fakes.FakeFile
import com.debuggermcp.fakes.FakeFrame
import com.debuggermcp.fakes.FakeJvm
import com.debuggermcp.fakes.FakeJvmFrame
import com.debuggermcp.fakes.FakePosition
import com.debuggermcp.fakes.FakeSession
import com.debuggermcp.fakes.FakeThread
import com.debuggermcp.fakes.JavaLikeSuspendContext
import com.debuggermcp.fakes.LiteralEvaluator
import com.debuggermcp.java.JavaDebugSupport
import com.debuggermcp.json.JsonArgs
import com.debuggermcp.lang.LanguageDebugSupport
import com.sun.jdi.VoidValue
import kotlinx.coroutines.runBlocking
import java.util.concurrent.CompletableFuture
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout

/**
 * Op `force_return` in the IDE (issue 18) through the Java part, as IntelliJ's Force Return does it
 * (ForceEarlyReturnAction, cited in JavaForceReturn.kt), and the return-value display a recording
 * needs after each step out. The Java debugger is faked in fakes/JvmFakes.kt (manager-thread
 * asserts, JDI's type and thread-state checks, the one application setting).
 */
@Timeout(30)
class ForceReturnOpsTest : FakeJavaIdeTest() {
    private val file = FakeFile("/work/project/src/com/example/Fib.java")
    private val evaluator = LiteralEvaluator(debugger)
    private val top = FakeFrame("fib", "Fib", "com.example", file, 6, debugger, evaluator = evaluator)
    private val caller = FakeFrame("main", "Fib", "com.example", file, 12, debugger, evaluator = evaluator)
    private val thread = FakeThread("main", 1, listOf(top, caller))
    private val context = JavaLikeSuspendContext(listOf(thread), thread, debugger)
    private val session = FakeSession(project, app, context)
    private val sid = Sessions.id(session)

    private fun jvmFrame(returns: String) = FakeJvmFrame("fib", returns, debugger, evaluator, FakePosition(file, 6))

    /** Frame handles as `frames` registers them: the top frame is index 0. */
    private fun handle(index: Int): String {
        val frame = if (index == 0) top else caller
        return Sessions.data(session).values.register("f", frame, "", SessionData.FrameRef(context.activeExecutionStack, frame, index))
    }

    private fun force(jvm: FakeJvm, value: String, frame: Int = 0) = runBlocking {
        ControlOps.forceReturn(sid, "t1", handle(frame), value, listOf<LanguageDebugSupport>(JavaDebugSupport(jvm)))
    }

    @Test
    fun `a value of the method's type is evaluated in the frame and forced on the manager thread`() {
        val f = jvmFrame("int")
        force(FakeJvm(mapOf(top to f), setOf(session)), "42")
        assertEquals(listOf("42"), f.forced.map { it.toString() })
        assertEquals(listOf("startWatchingMethodReturn", "forceEarlyReturn"), f.events)
        // Evaluated at the frame's position, as the action passes stackFrame.getSourcePosition().
        assertEquals(6, evaluator.positions.single()?.line)
        // The thread is not moved here: the core resumes it next and the frame pops then.
        assertEquals(emptyList<String>(), session.commands.map { it.name })
    }

    @Test
    fun `a void method returns void with an empty value`() {
        val f = jvmFrame("void")
        force(FakeJvm(mapOf(top to f), setOf(session)), "")
        assertTrue(f.forced.single() is VoidValue)
        assertTrue(evaluator.positions.isEmpty(), "nothing to evaluate for a void method")
    }

    @Test
    fun `a value of the wrong type is refused with the JVM's reason and what to give instead`() {
        val f = jvmFrame("int")
        val e = assertThrows(OpException::class.java) { force(FakeJvm(mapOf(top to f), setOf(session)), "\"x\"") }
        assertEquals(ErrorKind.FAILED, e.kind)
        assertTrue(e.message!!.contains("InvalidTypeException") && e.message!!.contains("what fib returns (int)"), e.message)
        assertTrue(e.message!!.contains("Instead: give an expression of type int"), e.message)
        assertTrue(f.forced.isEmpty())
    }

    @Test
    fun `a value for a void method is refused with the JVM's reason, naming the empty value`() {
        val f = jvmFrame("void")
        val e = assertThrows(OpException::class.java) { force(FakeJvm(mapOf(top to f), setOf(session)), "42") }
        assertEquals(ErrorKind.FAILED, e.kind)
        assertTrue(e.message!!.contains("InvalidTypeException") && e.message!!.contains("Instead: fib is void: force_return with an empty value"), e.message)
        assertTrue(f.forced.isEmpty())
    }

    @Test
    fun `a thread not suspended is refused with IncompatibleThreadStateException`() {
        val f = jvmFrame("int").also { it.suspended = false }
        val e = assertThrows(OpException::class.java) { force(FakeJvm(mapOf(top to f), setOf(session)), "42") }
        assertEquals(ErrorKind.INVALID_STATE, e.kind)
        assertTrue(e.message!!.contains("IncompatibleThreadStateException") && e.message!!.contains("breakpoint in fib"), e.message)
    }

    @Test
    fun `an evaluation error and a frame below the top are refused, forcing nothing`() {
        val f = jvmFrame("int")
        val jvm = FakeJvm(mapOf(top to f, caller to f), setOf(session))
        val bad = assertThrows(OpException::class.java) { force(jvm, "nope") }
        assertTrue(bad.message!!.contains("cannot evaluate 'nope'"), bad.message)
        val below = assertThrows(OpException::class.java) { force(jvm, "42", frame = 1) }
        assertTrue(below.message!!.contains("top frame only"), below.message)
        assertTrue(f.forced.isEmpty())
    }

    @Test
    fun `a session that is not Java's is refused naming the debugger that can`() {
        val e = assertThrows(OpException::class.java) { force(FakeJvm(emptyMap(), emptySet()), "42") }
        assertEquals(ErrorKind.UNSUPPORTED, e.kind)
        assertTrue(e.message!!.contains("Java frames") && e.message!!.contains("gdb"), e.message)
        // Without any language part (no Java plugin) the same refusal.
        val none = assertThrows(OpException::class.java) { runBlocking { ControlOps.forceReturn(sid, "t1", handle(0), "42", emptyList()) } }
        assertEquals(ErrorKind.UNSUPPORTED, none.kind)
    }

    private fun control(kind: String, supports: List<LanguageDebugSupport>, returnValue: Boolean = false) = runBlocking {
        val op = if (returnValue) mapOf("op" to kind, "return_value" to true) else mapOf("op" to kind)
        ControlOps.control(sid, null, JsonArgs(op), supports)
    }

    /** The recorder's step out (`return_value`) is the only one that pays for the watcher. */
    private fun recorderStepOut(supports: List<LanguageDebugSupport>) = control("step_out", supports, returnValue = true)

    @Test
    fun `a step out shows method return values until the next command, then the user's setting is back`() {
        val jvm = FakeJvm(emptyMap(), setOf(session))
        val java = listOf<LanguageDebugSupport>(JavaDebugSupport(jvm))
        recorderStepOut(java)
        assertTrue(jvm.watchReturnValues, "on while the recorder reads the returned value")
        assertEquals(listOf("stepOut"), session.commands.map { it.name })
        control("resume", java)
        assertEquals(false, jvm.watchReturnValues, "the user's 'off' restored before the program runs on")
        assertEquals(listOf(true, false), jvm.settingChanges)
        // A session that stops after a step out restores it too, at once on the listener's
        // (debugger) thread: nothing is left for the EDT when the IDE exits and saves settings.
        recorderStepOut(java)
        val stopped = CompletableFuture<Unit>()
        debugger.schedule { stopped.complete(ControlOps.restoreReturnValues(session, java)) }
        stopped.get(5, TimeUnit.SECONDS)
        assertEquals(false, jvm.watchReturnValues)
    }

    @Test
    fun `the plugin going away gives back the user's setting for a session still paused after a step out`() {
        val jvm = FakeJvm(emptyMap(), setOf(session))
        val java = listOf<LanguageDebugSupport>(JavaDebugSupport(jvm))
        recorderStepOut(java)
        assertTrue(jvm.watchReturnValues)
        // DebuggerMcpService.dispose, on whatever thread disposes services.
        ControlOps.restoreAllReturnValues(java)
        assertEquals(false, jvm.watchReturnValues, "an IDE exit would otherwise save 'on'")
        assertEquals(null, Sessions.data(session).returnValuesBefore)
    }

    @Test
    fun `null is returned for a reference type and refused by the JVM for a primitive one`() {
        val s = FakeJvmFrame("name", "java.lang.String", debugger, evaluator, FakePosition(file, 6))
        force(FakeJvm(mapOf(top to s), setOf(session)), "null")
        assertEquals(listOf<Any?>(null), s.forced.toList())
        val i = jvmFrame("int")
        val e = assertThrows(OpException::class.java) { force(FakeJvm(mapOf(top to i), setOf(session)), "null") }
        assertEquals(ErrorKind.FAILED, e.kind)
        assertTrue(e.message!!.contains("InvalidTypeException") && e.message!!.contains("give an expression of type int"), e.message)
        assertTrue(i.forced.isEmpty())
    }

    @Test
    fun `a frame gone or a JDI failure is a clear error naming the exception, not an escape`() {
        fun refusal(setup: (FakeJvmFrame) -> Unit): OpException {
            val f = jvmFrame("int").also(setup)
            return assertThrows(OpException::class.java) { force(FakeJvm(mapOf(top to f), setOf(session)), "42") }
        }
        val gone = refusal { it.locationThrows = EvaluateException("Stack frame is invalid") }
        assertEquals(ErrorKind.INVALID_STATE, gone.kind)
        assertTrue(gone.message!!.contains("frame is gone (EvaluateException)") && gone.message!!.contains("Call frames again"), gone.message)
        val stale = refusal { it.forceThrows = com.sun.jdi.InvalidStackFrameException() }
        assertEquals(ErrorKind.INVALID_STATE, stale.kind)
        assertTrue(stale.message!!.contains("InvalidStackFrameException"), stale.message)
        val ended = refusal { it.forceThrows = com.sun.jdi.VMDisconnectedException() }
        assertEquals(ErrorKind.INVALID_STATE, ended.kind)
        val virtual = refusal { it.forceThrows = OpaqueFrameException() }
        assertEquals(ErrorKind.FAILED, virtual.kind)
        assertTrue(virtual.message!!.contains("OpaqueFrameException") && virtual.message!!.contains("virtual thread"), virtual.message)
        val other = refusal { it.forceThrows = com.sun.jdi.ObjectCollectedException() }
        assertEquals(ErrorKind.FAILED, other.kind)
        assertTrue(other.message!!.contains("ObjectCollectedException") && other.message!!.contains("Nothing was forced"), other.message)
    }

    @Test
    fun `a non-Java frame below the top of a Java session is refused as not the top`() {
        val e = assertThrows(OpException::class.java) { force(FakeJvm(mapOf(top to jvmFrame("int")), setOf(session)), "42", frame = 1) }
        assertTrue(e.message!!.contains("top frame only"), e.message)
    }

    @Test
    fun `an agent's plain step out leaves the setting alone (a method-exit event per call is not free)`() {
        val jvm = FakeJvm(emptyMap(), setOf(session))
        val java = listOf<LanguageDebugSupport>(JavaDebugSupport(jvm))
        control("step_out", java)
        assertEquals(listOf("stepOut"), session.commands.map { it.name })
        assertEquals(false, jvm.watchReturnValues)
        assertEquals(emptyList<Boolean>(), jvm.settingChanges)
    }

    @Test
    fun `a user who shows return values keeps the setting untouched`() {
        val jvm = FakeJvm(emptyMap(), setOf(session)).also { it.watchReturnValues = true }
        val java = listOf<LanguageDebugSupport>(JavaDebugSupport(jvm))
        recorderStepOut(java)
        control("resume", java)
        assertEquals(true, jvm.watchReturnValues)
        assertEquals(emptyList<Boolean>(), jvm.settingChanges)
    }
}
