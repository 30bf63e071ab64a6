package com.debuggermcp.adapter

import com.debuggermcp.bridge.DebuggerCallbacks
import com.debuggermcp.bridge.NativeBridge
import com.debuggermcp.json.JsonArgs
import com.debuggermcp.json.jsonObject
import com.debuggermcp.lang.LanguageDebugSupport
import com.intellij.openapi.diagnostic.Logger
import kotlinx.coroutines.CoroutineScope

/**
 * The IDE side of the JNI callback table (SPEC §4): Rust calls [call] from its own threads;
 * we return at once and answer later with [NativeBridge.complete]. Every op runs as a coroutine
 * on the service scope (Dispatchers.Default), under its own timeout; any exception becomes a
 * `{"kind","message"}` error instead of reaching the IDE or Rust.
 */
class XDebuggerAdapter(
    private val scope: CoroutineScope,
    /** Where answers go; tests substitute a recorder for the native library. */
    private val completer: (Long, Boolean, String) -> Unit = NativeBridge::complete,
) : DebuggerCallbacks {
    override fun tableVersion(): Int = TABLE_VERSION

    private val runner = OpRunner(scope, completer, { op, t -> LOG.warn("op $op failed", t) }) { op, args -> dispatch(op, args) }

    override fun call(requestId: Long, op: String, argsJson: String) = runner.start(requestId, op, argsJson)

    /** One handler per op; the `when` is exhaustive over [Op], so none can be missing. */
    private suspend fun dispatch(op: Op, a: JsonArgs): Any? = when (op) {
        Op.HANDSHAKE -> handshake()
        Op.PROJECTS -> Ide.openProjects().map { jsonObject("name" to it.name, "root" to Ide.projectRoot(it)) }
        Op.RUN_CONFIGURATIONS -> RunOps.configurations(Ide.project(a.string("project")))
        Op.LAUNCH -> RunOps.launch(Ide.project(a.string("project")), a.obj("request"))
        Op.DEBUG_TEST -> TestOps.debugTest(Ide.project(a.string("project")), a.obj("request"))
        Op.SESSIONS -> RunOps.sessions(Ide.project(a.string("project")))
        Op.STOP -> RunOps.stop(a.string("session_id"))
        Op.TERMINATE -> RunOps.terminate(a.string("session_id"))
        Op.BREAKPOINTS -> Breakpoints.list(Ide.project(a.string("project")))
        Op.ADD_LINE_BREAKPOINT -> Breakpoints.addLine(Ide.project(a.string("project")), a.obj("spec"))
        Op.ADD_EXCEPTION_BREAKPOINT -> Breakpoints.addException(Ide.project(a.string("project")), a.obj("spec"))
        Op.ADD_DATA_BREAKPOINT -> Breakpoints.addData(Ide.project(a.string("project")), a.obj("spec"))
        Op.FORCE_RETURN -> ControlOps.forceReturn(a.string("session_id"), a.string("thread_id"), a.string("frame"), a.string("value")).let { null }
        Op.UPDATE_BREAKPOINT -> Breakpoints.update(Ide.project(a.string("project")), a.string("id"), a.obj("update"))
        Op.REMOVE_BREAKPOINT -> Breakpoints.remove(Ide.project(a.string("project")), a.string("id")).let { null }
        Op.SET_MASTER_BREAKPOINT -> Breakpoints.setMaster(Ide.project(a.string("project")), a.string("id"), a.stringOrNull("master"))
        Op.ADD_FUNCTION_BREAKPOINT -> { Ide.project(a.string("project")); a.obj("spec"); unsupported("no function breakpoints by name in the IDE: the core breaks at the method's first line (Java method breakpoints are slow)") }
        Op.CONTROL -> ControlOps.control(a.string("session_id"), a.stringOrNull("thread_id"), a.obj("op")).let { null }
        Op.THREADS -> StackOps.threads(a.string("session_id"))
        Op.FRAMES -> StackOps.frames(a.string("session_id"), a.string("thread_id"), a.intOr("offset", 0), a.intOr("limit", 20))
        Op.SELECT_FRAME -> StackOps.selectFrame(a.string("session_id"), a.string("thread_id"), a.string("frame")).let { null }
        Op.FRAME_VARIABLES -> ValueOps.frameVariables(a.string("session_id"), a.string("frame"))
        Op.CHILDREN -> ValueOps.children(a.string("session_id"), a.string("handle"), a.intOr("offset", 0), a.intOr("limit", 100))
        Op.SET_VALUE -> ValueOps.setValue(a.string("session_id"), a.string("handle"), a.string("new_value"))
        Op.EVALUATE -> ValueOps.evaluate(a.string("session_id"), a.obj("request"))
        Op.READ_SOURCE -> SourceOps.read(Ide.project(a.string("project")), a.string("path"))
        Op.CONFIRM -> ConfirmOps.confirm(Ide.project(a.string("project")), a.obj("request"), op.timeoutMs)
    }

    private fun handshake() = jsonObject(
        "name" to "intellij",
        "table_version" to TABLE_VERSION,
        "can_confirm" to true,
        "supports_set_value" to true,
        "supports_code_fragments" to true,
        "supports_exception_breakpoints" to LanguageDebugSupport.all().isNotEmpty(),
        "exception_filters" to emptyList<Any>(),
        // The Java part forces returns (ControlOps.forceReturn → JavaForceReturn); without it
        // JniBackend refuses force_return up front instead of at every call.
        "supports_force_return" to LanguageDebugSupport.all().any { it.canForceReturn },
    )

    companion object {
        private val LOG = Logger.getInstance(XDebuggerAdapter::class.java)
    }
}
