package com.debuggermcp.fakes

import com.debuggermcp.java.JvmFrame
import com.debuggermcp.java.JvmFrames
import com.intellij.xdebugger.XDebugSession
import com.intellij.xdebugger.XSourcePosition
import com.intellij.xdebugger.evaluation.XDebuggerEvaluator
import com.intellij.xdebugger.frame.XNamedValue
import com.intellij.xdebugger.frame.XStackFrame
import com.intellij.xdebugger.frame.XValue
import com.intellij.xdebugger.frame.XValueNode
import com.intellij.xdebugger.frame.XValuePlace
import com.sun.jdi.IncompatibleThreadStateException
import com.sun.jdi.InvalidTypeException
import com.sun.jdi.Method
import com.sun.jdi.Type
import com.sun.jdi.Value
import com.sun.jdi.VoidValue
import kotlinx.coroutines.CompletableDeferred
import java.lang.reflect.Proxy
import java.util.concurrent.CopyOnWriteArrayList

/*
 * The Java debugger's engine as op force_return and the return-value switch meet it, behaving as
 * these sources do:
 *  - ThreadReferenceProxyImpl.forceEarlyReturn and StackFrameProxyImpl.location assert the debugger
 *    manager thread (DebuggerManagerThreadImpl.assertIsManagerThread; ThreadReferenceProxyImpl.java
 *    @06b6f557919e109c8e8682109fa7fe4a0221bdcf), and forceEarlyReturn passes the value to JDI's
 *    ThreadReference.forceEarlyReturn, which throws InvalidTypeException when the value's type does
 *    not match the method's return type (a void method takes only a VoidValue; `null` is taken for
 *    a reference type and refused for a primitive or void one: ValueImpl.prepareForAssignment,
 *    "Can't set a primitive type to null") and IncompatibleThreadStateException when the thread is
 *    not suspended or not alive (THREAD_NOT_SUSPENDED / THREAD_NOT_ALIVE only: a thread stopped by
 *    Pause is accepted; the JDK's ThreadReferenceImpl.forceEarlyReturn);
 *  - StackFrameProxyImpl.location() throws EvaluateException when the frame is no longer valid, and
 *    JDI can throw InvalidStackFrameException, VMDisconnectedException or (JDK 21+, a virtual
 *    thread's frame) OpaqueFrameException: tests set [FakeJvmFrame.locationThrows] /
 *    [FakeJvmFrame.forceThrows];
 *  - the frame's evaluator is called on the EDT and answers from the debugger thread
 *    (JavaDebuggerEvaluator.evaluate schedules an EvaluationCommand), with a JavaValue whose
 *    descriptor holds the JDI value, null for a `null` literal;
 *  - "Show Method Return Values" is one application setting: the process's switch writes
 *    DebuggerSettings.WATCH_RETURN_VALUES and clears the last return value
 *    (MethodReturnValueWatcher.setEnabled, file id 8018620830). Neither takes a lock or needs the
 *    EDT (the platform's toggle happens to run there), so any thread may switch it; a process
 *    without a watcher (canGetMethodReturnValue false, DebugProcessImpl file id 3384553333)
 *    ignores the switch.
 */

/**
 * Stand-ins named as the classes this plugin cannot compile against: the platform's
 * com.intellij.debugger.engine.evaluation.EvaluateException (thrown by StackFrameProxyImpl.location()
 * for an invalid frame) and JDK 21's com.sun.jdi.OpaqueFrameException (a RuntimeException).
 */
class EvaluateException(message: String) : Exception(message)
class OpaqueFrameException : RuntimeException()

/** A JDI type by name (`int`, `java.lang.String`, `void`). */
fun jdiType(name: String): Type = proxy(Type::class.java) { m, _ -> if (m == "name") name else null }

/** A JDI value of [type]; a `void` one is a VoidValue, as VirtualMachine.mirrorOfVoid gives. */
fun jdiValue(type: String, shown: String): Value {
    val iface = if (type == "void") VoidValue::class.java else Value::class.java
    return proxy(iface) { m, _ -> when (m) { "type" -> jdiType(type); "toString" -> shown; else -> null } }
}

private fun <T> proxy(iface: Class<T>, answer: (String, Array<Any?>?) -> Any?): T =
    iface.cast(Proxy.newProxyInstance(iface.classLoader, arrayOf(iface)) { self, m, args ->
        when (m.name) {
            "hashCode" -> System.identityHashCode(self)
            "equals" -> self === args?.get(0)
            else -> answer(m.name, args) ?: if (m.name == "toString") iface.simpleName else throw UnsupportedOperationException(m.name)
        }
    })

/** JavaValue: an evaluation result whose descriptor holds the JDI value. */
class FakeJavaValue(val value: Value?) : XNamedValue("result") {
    override fun computePresentation(node: XValueNode, place: XValuePlace) {}
}

/**
 * JavaDebuggerEvaluator for literals: an int (`42`), a string (`"x"`) or `null`; anything else is an
 * evaluation error. Called on the EDT, answers from the debugger thread.
 */
class LiteralEvaluator(private val debugger: DebuggerThread) : XDebuggerEvaluator() {
    val positions = CopyOnWriteArrayList<XSourcePosition?>()

    override fun evaluate(expression: com.intellij.xdebugger.XExpression, callback: XEvaluationCallback, expressionPosition: XSourcePosition?) {
        FakeApplication.current().requireEdt("XDebuggerEvaluator.evaluate")
        positions += expressionPosition
        val text = expression.expression
        debugger.schedule {
            when {
                text.matches(Regex("-?\\d+")) -> callback.evaluated(FakeJavaValue(jdiValue("int", text)))
                text.startsWith("\"") -> callback.evaluated(FakeJavaValue(jdiValue("java.lang.String", text)))
                text == "null" -> callback.evaluated(FakeJavaValue(null))
                else -> callback.errorOccurred("Cannot find local variable '$text'")
            }
        }
    }
}

internal class FakeJvmFrame(
    private val methodName: String,
    private val returnType: String,
    private val debugger: DebuggerThread,
    override val evaluator: XDebuggerEvaluator?,
    override val position: XSourcePosition?,
    @Volatile var suspended: Boolean = true,
) : JvmFrame {
    @Volatile var locationThrows: Exception? = null
    @Volatile var forceThrows: Exception? = null
    val forced = CopyOnWriteArrayList<Value?>()
    val events = CopyOnWriteArrayList<String>()

    private fun requireManagerThread(api: String) {
        if (Thread.currentThread().name != "fake-DebuggerManagerThread") {
            FakeApplication.current().violations += "$api must run on the debugger manager thread, ran on ${Thread.currentThread().name}"
        }
    }

    /** The manager thread is busy with a command that does not end (a slow renderer): nothing queued behind it runs. */
    @Volatile var managerStuck = false

    override suspend fun <T> onManagerThread(block: () -> T): T {
        val done = CompletableDeferred<T>()
        if (!managerStuck) debugger.schedule {
            try {
                done.complete(block())
            } catch (t: Throwable) {
                done.completeExceptionally(t)
            }
        }
        return done.await()
    }

    override fun method(): Method {
        requireManagerThread("StackFrameProxyImpl.location")
        locationThrows?.let { throw it }
        return proxy(Method::class.java) { m, _ -> when (m) { "name" -> methodName; "returnTypeName" -> returnType; else -> null } }
    }

    override fun canForceEarlyReturn(): Boolean = true

    override fun mirrorOfVoid(): Value = jdiValue("void", "<void value>")

    override fun forceEarlyReturn(value: Value?) {
        requireManagerThread("ThreadReferenceProxyImpl.forceEarlyReturn")
        events += "startWatchingMethodReturn"
        forceThrows?.let { throw it }
        if (!suspended) throw IncompatibleThreadStateException()
        if (value == null) {
            if (returnType in PRIMITIVE_OR_VOID) throw InvalidTypeException("Can't set a primitive type to null")
        } else {
            val given = if (value is VoidValue) "void" else value.type().name()
            if (given != returnType) throw InvalidTypeException("$given is not $returnType")
        }
        events += "forceEarlyReturn"
        forced += value
    }

    override fun isJava(result: XValue): Boolean = result is FakeJavaValue

    /** Whether the frame's declaring class has static fields (JDI `declaringType().allFields()`). */
    @Volatile var statics: Boolean = false

    override fun declaresStaticFields(): Boolean {
        requireManagerThread("StackFrameProxyImpl.location")
        return statics
    }

    override fun jdiValue(result: XValue): Value? = (result as FakeJavaValue).value

    private companion object {
        val PRIMITIVE_OR_VOID = setOf("void", "boolean", "byte", "char", "short", "int", "long", "float", "double")
    }
}

/** The Java debugger of some sessions: frames it owns, and the one return-value setting. */
internal class FakeJvm(
    private val frames: Map<XStackFrame, FakeJvmFrame>,
    private val javaSessions: Set<XDebugSession>,
    private val debugger: DebuggerThread? = null,
    /** JavaValue → its descriptor's JDI value type (null for a `null` value) and declared type. */
    private val types: Map<XValue, Pair<String?, String?>> = emptyMap(),
    /** Values whose presentation timed out before the descriptor computed them. */
    private val notReady: Set<XValue> = emptySet(),
    /** Values whose computation threw in the debuggee → that exception's type. */
    private val failed: Map<XValue, String> = emptyMap(),
    /** Values whose manager-thread command never runs (a slow renderer ahead of it). */
    private val stuck: Set<XValue> = emptySet(),
    /** Values whose descriptor is a LocalVariableDescriptorImpl (a frame's local variable). */
    private val locals: Set<XValue> = emptySet(),
) : JvmFrames {
    /**
     * ValueDescriptorImpl (file id 37843239622): `getValue()` LOG.errors "Value is not yet
     * calculated" before setContext ran (assertValueReady); after a failed computation the value is
     * the debuggee's exception (setContext's catch) and `isValueValid()` is false; JDI's `type()`
     * is read on the manager thread; a `null` value has no type, only the declared one.
     */
    override fun descriptor(session: XDebugSession, value: XValue): com.debuggermcp.java.JvmValueDescriptor? {
        if (session !in javaSessions) return null
        val (runtime, declared) = types[value] ?: if (value in locals) null to null else return null
        return object : com.debuggermcp.java.JvmValueDescriptor {
            override suspend fun <T> onManagerThread(block: () -> T): T {
                val done = kotlinx.coroutines.CompletableDeferred<T>()
                // Queued behind a renderer that never finishes: the command does not run.
                if (value !in stuck) (debugger ?: error("no debugger thread")).schedule {
                    try { done.complete(block()) } catch (t: Throwable) { done.completeExceptionally(t) }
                }
                return done.await()
            }
            override fun isValueReady(): Boolean = value !in notReady
            override fun isValueValid(): Boolean = value !in failed
            override fun runtimeType(): String? {
                if (Thread.currentThread().name != "fake-DebuggerManagerThread") FakeApplication.current().violations += "ValueDescriptorImpl.getValue off the manager thread"
                if (value in notReady) FakeApplication.current().violations += "ValueDescriptorImpl.assertValueReady: Value is not yet calculated"
                return failed[value] ?: runtime
            }
            override fun declaredType(): String? = declared
            override fun isLocalVariable(): Boolean = value in locals
        }
    }

    @Volatile var watchReturnValues = false
    val settingChanges = CopyOnWriteArrayList<Boolean>()

    override fun of(session: XDebugSession, frame: XStackFrame): JvmFrame? = if (session in javaSessions) frames[frame] else null

    override fun isJava(session: XDebugSession): Boolean = session in javaSessions

    /** JavaStackFrame.getDescriptor().getUiIndex(): a field set when the frame was made. */
    override fun frameDepth(frame: XStackFrame): Int? = (frame as? FakeFrame)?.uiIndex?.takeIf { it >= 0 }

    /** An empty command on the (FIFO) fake manager thread: everything queued before it has run. */
    override suspend fun drainManagerThread(session: XDebugSession): Boolean {
        if (session !in javaSessions) return false
        val done = kotlinx.coroutines.CompletableDeferred<Unit>()
        (debugger ?: error("no debugger thread")).schedule { done.complete(Unit) }
        done.await()
        return true
    }

    override fun showReturnValues(session: XDebugSession, on: Boolean): Boolean? {
        if (session !in javaSessions) return null
        val before = watchReturnValues
        if (before != on) {
            watchReturnValues = on
            settingChanges += on
        }
        return before
    }
}
