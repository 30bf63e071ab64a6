package com.debuggermcp.fakes

import com.intellij.execution.RunManager
import com.intellij.execution.RunnerAndConfigurationSettings
import com.intellij.execution.configurations.ConfigurationType

/**
 * A project's RunManager, ported from RunManagerImpl (platform/execution-impl/src/com/intellij/
 * execution/impl/RunManagerImpl.kt, file id 2834752940) for the calls the adapter makes:
 * configurations are held by unique id, `"${type.displayName}.${name}"`
 * (RunnerAndConfigurationSettingsImpl.getUniqueID, file id 41746116120); doAddConfiguration
 * (reached from setTemporaryConfiguration) looks the settings up by instance and then
 * `idToSettings.put(newId, settings)`, so a new configuration of the same type and name replaces
 * the one registered; removeConfigurations removes the entries holding that object; lookups by
 * name take the first in order (findConfigurationByName: `allSettings.firstOrNull`).
 */
class FakeRunManager(settings: List<RunnerAndConfigurationSettings>) : RunManager() {
    private val idToSettings = LinkedHashMap<String, RunnerAndConfigurationSettings>()
    /** setTemporaryConfiguration's `tempConfiguration.isTemporary = true` (the stub interface has no setter). */
    val temporary = mutableSetOf<RunnerAndConfigurationSettings>()

    init {
        settings.forEach { add(it) }
    }

    private fun uniqueId(s: RunnerAndConfigurationSettings) = "${s.type.displayName}.${s.name}"

    @Synchronized
    private fun add(settings: RunnerAndConfigurationSettings) {
        val newId = uniqueId(settings)
        val existingId = if (idToSettings[newId] === settings) newId else idToSettings.entries.firstOrNull { it.value === settings }?.key
        if (existingId != null && existingId != newId) idToSettings.remove(existingId)
        idToSettings[newId] = settings
    }

    override val allSettings: List<RunnerAndConfigurationSettings> @Synchronized get() = idToSettings.values.toList()
    override fun findConfigurationByName(name: String?): RunnerAndConfigurationSettings? = name?.let { n -> allSettings.firstOrNull { it.name == n } }
    override fun getConfigurationSettingsList(type: ConfigurationType): List<RunnerAndConfigurationSettings> = allSettings.filter { it.type === type }

    @Synchronized
    override fun removeConfiguration(settings: RunnerAndConfigurationSettings?) {
        if (settings == null) return
        idToSettings.values.removeIf { it == settings }
        temporary.remove(settings)
    }

    override fun setTemporaryConfiguration(tempConfiguration: RunnerAndConfigurationSettings?) {
        if (tempConfiguration == null) return
        temporary += tempConfiguration
        (tempConfiguration as? FakeSettings)?.temporaryFlag = true
        add(tempConfiguration)
    }

    /**
     * RunManagerImpl.makeStable (RunManagerImpl.kt, file ids 2834752940 and 3499342101), what the
     * run widget's "Save '<name>' Configuration" calls: `settings.isTemporary = false` on the same
     * object, which stays registered under its id.
     */
    @Synchronized
    fun makeStable(settings: RunnerAndConfigurationSettings) {
        (settings as? FakeSettings)?.temporaryFlag = false
        temporary.remove(settings)
    }

    companion object {
        fun install(project: FakeProject, vararg settings: RunnerAndConfigurationSettings): FakeRunManager =
            FakeRunManager(settings.toList()).also { project.services[RunManager::class.java] = it }
    }
}

/** A configuration type (ConfigurationType: display name and id). */
class FakeConfigurationType(private val displayName: String, private val id: String = displayName) : ConfigurationType {
    override fun getDisplayName(): String = displayName
    override fun getId(): String = id
}

/** RunnerAndConfigurationSettingsImpl's name, type and configuration; [name] is settable as the real one is. */
open class FakeSettings(
    @Volatile private var name: String,
    private val type: ConfigurationType = FakeConfigurationType("Application"),
    private val configuration: com.intellij.execution.configurations.RunConfiguration? = null,
) : RunnerAndConfigurationSettings {
    override fun getType(): ConfigurationType = type
    override fun checkSettings(executor: com.intellij.execution.Executor?) {}
    override fun getConfiguration(): com.intellij.execution.configurations.RunConfiguration = configuration ?: throw UnsupportedOperationException("no configuration in this fake")
    override fun getName(): String = name
    override fun setName(name: String?) { this.name = name ?: "" }
    /** RunnerAndConfigurationSettingsImpl.isTemporary: set by setTemporaryConfiguration, cleared by makeStable. */
    @Volatile var temporaryFlag = false
    override fun isTemporary(): Boolean = temporaryFlag
    override fun getFolderName(): String? = null
}
