package com.intellij.execution

import com.intellij.util.messages.Topic

// intellij-community: platform/execution/src/com/intellij/execution/ExecutionManager.kt
abstract class ExecutionManager {
  companion object {
    @JvmField
    val EXECUTION_TOPIC: Topic<ExecutionListener> = Topic("configuration executed", ExecutionListener::class.java)
  }
}
