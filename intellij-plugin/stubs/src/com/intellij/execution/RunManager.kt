package com.intellij.execution

import com.intellij.execution.configurations.ConfigurationType
import com.intellij.openapi.project.Project

// intellij-community: platform/execution/src/com/intellij/execution/RunManager.kt
abstract class RunManager {
  companion object {
    @JvmStatic
    // threading: any RunManager.kt (file id 54660514280 @0d756ce25492936f431ce64650c9fff6046a34f0): read, project.getService; @RequiresBlockingContext only (the adapter calls it inside a read action block, which is blocking)
    fun getInstance(project: Project): RunManager = project.getService(RunManager::class.java) // as the real one: a project service
  }

  // threading: any RunManager.kt (file id 54660514280 @0d756ce25492936f431ce64650c9fff6046a34f0): read, no threading rule stated; the adapter still reads in read actions (its own choice)
  abstract val allSettings: List<RunnerAndConfigurationSettings>

  // threading: any RunManager.kt (file id 54660514280 @0d756ce25492936f431ce64650c9fff6046a34f0): read, no threading rule stated; the adapter still reads in read actions (its own choice)
  abstract fun findConfigurationByName(name: String?): RunnerAndConfigurationSettings?

  // threading: any RunManager.kt (file id 54660514280 @0d756ce25492936f431ce64650c9fff6046a34f0): read, no threading rule stated
  abstract fun getConfigurationSettingsList(type: ConfigurationType): List<RunnerAndConfigurationSettings>

  // threading: any RunManager.kt (file id 54660514280 @0d756ce25492936f431ce64650c9fff6046a34f0): read, no threading rule stated; the adapter calls it on the EDT with setTemporaryConfiguration (its own choice)
  // As the real one: the name made unique among the configurations of the settings' type.
  fun setUniqueNameIfNeeded(settings: RunnerAndConfigurationSettings): Boolean {
    val oldName = settings.name
    val taken = getConfigurationSettingsList(settings.type).map { it.name }
    val base = oldName.takeIf { it.isNotBlank() } ?: "Unnamed"
    var name = base
    if (name in taken) {
      val original = Regex("(.*?)\\s*\\(\\d+\\)").matchEntire(base)?.groupValues?.get(1) ?: base
      var i = 1
      while ("$original ($i)" in taken) i++
      name = "$original ($i)"
    }
    settings.name = name
    return oldName != settings.name
  }

  // threading: any RunManager.kt (file id 54660514280 @0d756ce25492936f431ce64650c9fff6046a34f0): read, no threading rule stated; the adapter changes the model on the EDT, non-modal, as the Run/Debug actions do (its own choice)
  abstract fun removeConfiguration(settings: RunnerAndConfigurationSettings?)

  // threading: any RunManager.kt (file id 54660514280 @0d756ce25492936f431ce64650c9fff6046a34f0): read, "The selected item in the run/debug configurations combobox", no threading rule stated; RunManagerImpl's setter LOG.errors "must be added before selecting" for settings it does not hold (file id 3499342101); the adapter reads and restores it on the EDT, non-modal, with its other RunManager changes (its own choice)
  abstract var selectedConfiguration: RunnerAndConfigurationSettings?

  // threading: any RunManager.kt (file id 54660514280 @0d756ce25492936f431ce64650c9fff6046a34f0): read, no threading rule stated; the adapter changes the model on the EDT, non-modal, as the Run/Debug actions do (its own choice)
  abstract fun setTemporaryConfiguration(tempConfiguration: RunnerAndConfigurationSettings?)
}
