package com.debuggermcp

import com.debuggermcp.adapter.Op
import com.debuggermcp.adapter.TABLE_VERSION
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Test
import java.io.File

/**
 * The Kotlin op table must match the Rust trait (native/core/src/backend.rs): same op names,
 * same table version, and every dispatch line reads exactly the trait method's parameter names.
 * The repository root comes from the `repo.root` system property (set by scripts/test.d/kotlin.sh).
 */
class OpTableTest {
    private val root = File(System.getProperty("repo.root") ?: ".")
    private val backend = File(root, "native/core/src/backend.rs").readText()
    private val adapter = File(root, "intellij-plugin/src/main/kotlin/com/debuggermcp/adapter/XDebuggerAdapter.kt").readText()

    private val trait = backend.substringAfter("pub trait Backend")

    /** The doc comment right above `async fn name` in the trait. */
    private fun docOf(name: String): String {
        val before = trait.substringBefore("async fn $name").lines().dropLast(1)
        return before.takeLastWhile { it.trim().startsWith("///") }.joinToString("\n")
    }

    /** Async trait methods documented "Not an op": answered in Rust, never sent over JNI. */
    private fun rustOnly(): Set<String> =
        Regex("""async fn (\w+)""").findAll(trait).map { it.groupValues[1] }
            .filter { docOf(it).trimStart().startsWith("/// Not an op") }.toSet()

    /** Trait method name → parameter names (without self), parsed from the Backend trait. */
    private fun traitMethods(): Map<String, List<String>> {
        val out = LinkedHashMap<String, List<String>>()
        val skip = rustOnly()
        Regex("""async fn (\w+)\s*\(([^)]*)\)""").findAll(trait).filter { it.groupValues[1] !in skip }.forEach { m ->
            val params = m.groupValues[2].split(',')
                .map { it.trim() }
                .filter { it.isNotEmpty() && !it.startsWith("&self") && !it.startsWith("self") }
                .map { it.substringBefore(':').trim() }
            out[m.groupValues[1]] = params
        }
        return out
    }

    @Test
    fun `table version matches Rust`() {
        val rust = Regex("""pub const TABLE_VERSION: u32 = (\d+);""").find(backend)!!.groupValues[1].toInt()
        assertEquals(rust, TABLE_VERSION)
    }

    @Test
    fun `every op of the Rust trait has a Kotlin op and vice versa`() {
        val methods = traitMethods()
        assertEquals(methods.keys.sorted(), Op.entries.map { it.wire }.sorted())
        // The `/// op \`name\`` comments say the same thing.
        val documented = Regex("""/// op `(\w+)`""").findAll(backend).map { it.groupValues[1] }.toList()
        assertEquals(methods.keys.sorted(), documented.sorted())
    }

    @Test
    fun `a trait method that is not an op is answered by the trait's default, not by the JNI backend`() {
        val jni = File(root, "native/jni/src/backend.rs").readText().substringAfter("impl Backend for JniBackend")
        val ops = File(root, "native/jni/src/ops.rs").readText()
        val skipped = rustOnly()
        assertEquals(setOf("run_trigger"), skipped, "the async trait methods documented 'Not an op'")
        for (name in skipped) {
            assertFalse(jni.contains("async fn $name"), "JniBackend overrides $name, so it must be an op with a Kotlin side")
            assertFalse(ops.contains("\"$name\""), "ops.rs dispatches $name, so it must be an op with a Kotlin side")
        }
    }

    @Test
    fun `every dispatch line reads exactly the trait parameters`() {
        val methods = traitMethods()
        for (op in Op.entries) {
            val line = adapter.lines().firstOrNull { it.trim().startsWith("Op.${op.name} ->") }
                ?: throw AssertionError("no dispatch line for Op.${op.name}")
            val keys = Regex("""a\.\w+\("(\w+)"""").findAll(line).map { it.groupValues[1] }.toList()
            assertEquals(methods.getValue(op.wire).sorted(), keys.sorted(), "arguments of op ${op.wire}")
        }
    }

    /**
     * Issue 17 defect 4: the dialog must not outlive Rust's wait for `confirm` (an answer given
     * after it is dropped), and Rust must wait as long as the dialog stays up.
     */
    @Test
    fun `the confirm dialog closes just before Rust stops waiting for it`() {
        val rust = Regex("""pub const CONFIRM_TIMEOUT_MS: u64 = ([\d_]+);""").find(backend)
            ?.groupValues?.get(1)?.replace("_", "")?.toLong() ?: throw AssertionError("CONFIRM_TIMEOUT_MS not in backend.rs")
        assertEquals(rust, Op.CONFIRM.timeoutMs)
    }

    @Test
    fun `the confirm title names the product once`() {
        assertEquals("Debugger MCP: start a debug session", com.debuggermcp.adapter.Wire.confirmTitle("Debugger MCP: start a debug session"))
        assertEquals("Debugger MCP: x", com.debuggermcp.adapter.Wire.confirmTitle("x"))
    }

    @Test
    fun `op names round trip`() {
        for (op in Op.entries) assertEquals(op, Op.fromWire(op.wire))
        assertEquals(null, Op.fromWire("no_such_op"))
    }
}
