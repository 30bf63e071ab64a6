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
 *
 * The toolbar's selection as RunManagerImpl keeps it (file id 2834752940): a selected unique id
 * (`selectedConfigurationId`), the getter looks it up, the setter LOG.errors "$id must be added
 * before selecting" for settings not held (recorded as a violation here: an IDE error report);
 * doAddConfiguration moves the selection along a rename; setTemporaryConfiguration selects the
 * configuration it adds when `shouldSetRunConfigurationFromContext()` ([selectFromContext], the
 * registry key's default: on); removeConfigurations, when the selected configuration is among the
 * removed, calls `selectAnyConfiguration()`: `allSettings.firstOrNull { it.type.isManaged }` (the
 * fake's types are all managed).
 */
class FakeRunManager(settings: List<RunnerAndConfigurationSettings>) : RunManager() {
    private val idToSettings = LinkedHashMap<String, RunnerAndConfigurationSettings>()
    /** setTemporaryConfiguration's `tempConfiguration.isTemporary = true` (the stub interface has no setter). */
    val temporary = mutableSetOf<RunnerAndConfigurationSettings>()
    private var selectedConfigurationId: String? = null
    /** RunManagerImpl.shouldSetRunConfigurationFromContext: Registry "select.run.configuration.from.context" (default true). */
    @Volatile var selectFromContext = true
    /** What the real setter would have LOG.errored. */
    val errors = java.util.concurrent.CopyOnWriteArrayList<String>()

    init {
        settings.forEach { add(it) }
    }

    private fun uniqueId(s: RunnerAndConfigurationSettings) = "${s.type.displayName}.${s.name}"

    @Synchronized
    private fun add(settings: RunnerAndConfigurationSettings) {
        val newId = uniqueId(settings)
        val existingId = if (idToSettings[newId] === settings) newId else idToSettings.entries.firstOrNull { it.value === settings }?.key
        if (existingId != null && existingId != newId) {
            idToSettings.remove(existingId)
            if (selectedConfigurationId == existingId) selectedConfigurationId = newId
        }
        idToSettings[newId] = settings
    }

    override var selectedConfiguration: RunnerAndConfigurationSettings?
        @Synchronized get() = selectedConfigurationId?.let { idToSettings[it] }
        @Synchronized set(value) {
            val id = value?.let { uniqueId(it) }
            if (id == selectedConfigurationId) return
            if (id != null && !idToSettings.containsKey(id)) errors += "$id must be added before selecting"
            selectedConfigurationId = id
        }

    override val allSettings: List<RunnerAndConfigurationSettings> @Synchronized get() = idToSettings.values.toList()
    override fun findConfigurationByName(name: String?): RunnerAndConfigurationSettings? = name?.let { n -> allSettings.firstOrNull { it.name == n } }
    override fun getConfigurationSettingsList(type: ConfigurationType): List<RunnerAndConfigurationSettings> = allSettings.filter { it.type === type }

    @Synchronized
    override fun removeConfiguration(settings: RunnerAndConfigurationSettings?) {
        if (settings == null) return
        var selectedRemoved = false
        val entries = idToSettings.entries.iterator()
        for (entry in entries) {
            if (entry.value == settings) {
                if (selectedConfigurationId == entry.key) selectedRemoved = true
                entries.remove()
            }
        }
        temporary.remove(settings)
        if (selectedRemoved) selectedConfiguration = allSettings.firstOrNull() // selectAnyConfiguration
    }

    override fun setTemporaryConfiguration(tempConfiguration: RunnerAndConfigurationSettings?) {
        if (tempConfiguration == null) return
        temporary += tempConfiguration
        (tempConfiguration as? FakeSettings)?.temporaryFlag = true
        add(tempConfiguration)
        if (selectFromContext) selectedConfiguration = tempConfiguration
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
