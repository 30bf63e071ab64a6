package com.intellij.execution

import com.intellij.openapi.project.Project

// intellij-community: platform/execution/src/com/intellij/execution/RunManager.kt
abstract class RunManager {
  companion object {
    @JvmStatic
    fun getInstance(project: Project): RunManager = throw UnsupportedOperationException("stub")
  }

  abstract val allSettings: List<RunnerAndConfigurationSettings>

  abstract fun findConfigurationByName(name: String?): RunnerAndConfigurationSettings?

  abstract fun removeConfiguration(settings: RunnerAndConfigurationSettings?)

  abstract fun setTemporaryConfiguration(tempConfiguration: RunnerAndConfigurationSettings?)
}
