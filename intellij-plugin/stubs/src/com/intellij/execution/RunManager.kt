package com.intellij.execution

import com.intellij.openapi.project.Project

// intellij-community: platform/execution/src/com/intellij/execution/RunManager.kt
abstract class RunManager {
  companion object {
    @JvmStatic
    // threading: read unverified: RunManager.kt; the adapter reads run configurations in read actions
    fun getInstance(project: Project): RunManager = throw UnsupportedOperationException("stub")
  }

  // threading: read unverified: RunManager.kt; the adapter reads run configurations in read actions
  abstract val allSettings: List<RunnerAndConfigurationSettings>

  // threading: read unverified: RunManager.kt; the adapter reads run configurations in read actions
  abstract fun findConfigurationByName(name: String?): RunnerAndConfigurationSettings?

  // threading: edt unverified: RunManager.kt; a RunManager model change, done on the EDT non-modal
  abstract fun removeConfiguration(settings: RunnerAndConfigurationSettings?)

  // threading: edt unverified: RunManager.kt; a RunManager model change, done on the EDT non-modal
  abstract fun setTemporaryConfiguration(tempConfiguration: RunnerAndConfigurationSettings?)
}
