package com.intellij.execution.runners

import com.intellij.execution.Executor
import com.intellij.execution.RunnerAndConfigurationSettings
import com.intellij.openapi.actionSystem.DataContext

// intellij-community: platform/execution/src/com/intellij/execution/runners/ExecutionEnvironmentBuilder.kt
class ExecutionEnvironmentBuilder private constructor() {
  companion object {
    @JvmStatic
    fun createOrNull(executor: Executor, settings: RunnerAndConfigurationSettings): ExecutionEnvironmentBuilder? =
      throw UnsupportedOperationException("stub")
  }

  fun activeTarget(): ExecutionEnvironmentBuilder = throw UnsupportedOperationException("stub")

  fun dataContext(dataContext: DataContext?): ExecutionEnvironmentBuilder = throw UnsupportedOperationException("stub")

  @JvmOverloads
  fun build(callback: ProgramRunner.Callback? = null): ExecutionEnvironment = throw UnsupportedOperationException("stub")
}
