package com.intellij.debugger.engine.events

// intellij-community: java/debugger/impl/src/com/intellij/debugger/engine/events/DebuggerCommandImpl.kt
abstract class DebuggerCommandImpl {
    @Throws(Exception::class)
    protected open fun action(): Unit = throw AbstractMethodError()
    protected open fun commandCancelled() {
    }
}
