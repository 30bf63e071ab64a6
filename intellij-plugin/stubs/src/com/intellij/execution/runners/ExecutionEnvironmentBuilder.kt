package com.intellij.execution.runners

import com.intellij.execution.Executor
import com.intellij.execution.RunnerAndConfigurationSettings
import com.intellij.openapi.actionSystem.DataContext

// intellij-community: platform/execution/src/com/intellij/execution/runners/ExecutionEnvironmentBuilder.kt
class ExecutionEnvironmentBuilder private constructor(private val settings: RunnerAndConfigurationSettings) {
  companion object {
    @JvmStatic
    fun createOrNull(executor: Executor, settings: RunnerAndConfigurationSettings): ExecutionEnvironmentBuilder? =
      // Stub body: the real one (ExecutionEnvironmentBuilder.kt, file id 7502585235) returns null
      // when no ProgramRunner takes the configuration; the JUnit fakes' configurations all have one.
      ExecutionEnvironmentBuilder(settings)
  }

  fun activeTarget(): ExecutionEnvironmentBuilder = this

  fun dataContext(dataContext: DataContext?): ExecutionEnvironmentBuilder = this

  // As the real one: every build() is a new ExecutionEnvironment, with the builder's settings.
  @JvmOverloads
  fun build(callback: ProgramRunner.Callback? = null): ExecutionEnvironment = ExecutionEnvironment(settings)
}
