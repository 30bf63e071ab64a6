package com.intellij.debugger.engine

import com.intellij.debugger.engine.events.DebuggerCommandImpl

// intellij-community: java/debugger/impl/src/com/intellij/debugger/engine/DebuggerManagerThreadImpl.kt
class DebuggerManagerThreadImpl internal constructor() {
    fun schedule(managerCommand: DebuggerCommandImpl): Boolean = throw UnsupportedOperationException("stub")
}
