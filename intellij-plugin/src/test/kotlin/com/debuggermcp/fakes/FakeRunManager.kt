package com.debuggermcp.fakes

import com.intellij.execution.RunManager
import com.intellij.execution.RunnerAndConfigurationSettings

/**
 * A project's RunManager holding fixed run configurations, found by name as
 * `RunManagerImpl.findConfigurationByName` does; the tests never edit them, so edits throw.
 */
class FakeRunManager(private val settings: List<RunnerAndConfigurationSettings>) : RunManager() {
    override val allSettings: List<RunnerAndConfigurationSettings> get() = settings
    override fun findConfigurationByName(name: String?): RunnerAndConfigurationSettings? = settings.firstOrNull { it.name == name }
    override fun removeConfiguration(settings: RunnerAndConfigurationSettings?) = throw UnsupportedOperationException()
    override fun setTemporaryConfiguration(tempConfiguration: RunnerAndConfigurationSettings?) = throw UnsupportedOperationException()

    companion object {
        fun install(project: FakeProject, vararg settings: RunnerAndConfigurationSettings) {
            project.services[RunManager::class.java] = FakeRunManager(settings.toList())
        }
    }
}
