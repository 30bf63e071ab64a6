package com.intellij.execution

import com.intellij.execution.runners.ExecutionEnvironment
import com.intellij.openapi.project.Project
import com.intellij.openapi.util.Key
import com.intellij.util.messages.Topic

// intellij-community: platform/execution/src/com/intellij/execution/ExecutionManager.kt
abstract class ExecutionManager {
  companion object {
    @JvmField
    val EXECUTION_SKIP_RUN: Key<Boolean> = Key("EXECUTION_SKIP_RUN")

    @JvmField
    val EXECUTION_TOPIC: Topic<ExecutionListener> = Topic("configuration executed", ExecutionListener::class.java)

    @JvmStatic
    fun getInstance(project: Project): ExecutionManager = project.getService(ExecutionManager::class.java)
  }

  // The real one asks ExecutionManagerImpl's `inProgress` entries (by configuration, executor and
  // runner; file id 1646897139); the stub hands the question to the JUnit fake through an
  // internal member (its JVM name carries `$`: not API, the API check skips it).
  fun isStarting(environment: ExecutionEnvironment): Boolean = startingInStub(environment)

  internal open fun startingInStub(environment: ExecutionEnvironment): Boolean = false
}
