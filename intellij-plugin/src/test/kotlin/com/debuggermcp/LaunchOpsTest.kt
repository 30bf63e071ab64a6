package com.debuggermcp

import com.debuggermcp.adapter.ErrorKind
import com.debuggermcp.adapter.OpException
import com.debuggermcp.adapter.RunOps
import com.debuggermcp.fakes.FakeApplication
import com.debuggermcp.fakes.FakeProject
import com.debuggermcp.fakes.FakeRunManager
import com.debuggermcp.json.JsonArgs
import com.intellij.execution.Executor
import com.intellij.execution.RunnerAndConfigurationSettings
import com.intellij.execution.configurations.ConfigurationType
import com.intellij.execution.configurations.RunConfiguration
import com.intellij.execution.configurations.RuntimeConfigurationError
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout

/**
 * `launch` while the IDE indexes (issue 17, defect 8): the Run button checks the configuration
 * first, and a Java application's check resolves its main class through the indexes
 * (ApplicationConfiguration.checkConfiguration → `configurationModule.checkModuleAndClassName`,
 * java/execution/impl/src/com/intellij/execution/application/ApplicationConfiguration.java, file
 * id 10448156341 @0219be6ae4c5c050bef75ffa5566ac9c2a21e345). In a plain read action during
 * indexing that throws IndexNotReadyException; in a smart read action it waits for indexing and
 * the agent gets the configuration's own error.
 */
@Timeout(30)
class LaunchOpsTest {
    private val app = FakeApplication.install()
    private val project = FakeProject()

    @AfterEach
    fun clean() {
        app.dispose()
        assertEquals(emptyList<String>(), app.violations, "threading contracts broken")
    }

    private val settings = object : RunnerAndConfigurationSettings {
        override fun getType(): ConfigurationType = com.debuggermcp.fakes.FakeConfigurationType("Application")
        override fun checkSettings(executor: Executor?) {
            app.requireRead("RunnerAndConfigurationSettings.checkSettings")
            app.requireSmart("ApplicationConfiguration.checkConfiguration (checkModuleAndClassName)")
            throw RuntimeConfigurationError("Class 'com.example.Main' not found in module 'app'")
        }
        override fun getConfiguration(): RunConfiguration = throw UnsupportedOperationException("not used before the check")
        override fun getName(): String = "App"
        override fun setName(name: String?) = throw UnsupportedOperationException("launch never renames")
        override fun isTemporary(): Boolean = false
        override fun getFolderName(): String? = null
    }

    init {
        FakeRunManager.install(project, settings)
    }

    @Test
    fun `during indexing launch waits for smart mode and reports the configuration's error (defect 8)`() {
        app.dumb = true
        val e = assertThrows(OpException::class.java) {
            runBlocking { RunOps.launch(project, JsonArgs(mapOf("configuration" to "App", "mode" to "debug"))) }
        }
        assertEquals(ErrorKind.FAILED, e.kind)
        assertEquals(
            "run configuration 'App' has errors: Class 'com.example.Main' not found in module 'app'; fix it in Run > Edit Configurations",
            e.message,
        )
        assertEquals(1, app.waitedForSmartMode.get(), "the check did not wait for indexing")
    }

    @Test
    fun `an unknown configuration names the ones that exist`() {
        val e = assertThrows(OpException::class.java) {
            runBlocking { RunOps.launch(project, JsonArgs(mapOf("configuration" to "Nope"))) }
        }
        assertEquals(ErrorKind.NOT_FOUND, e.kind)
        assertEquals("no run configuration named 'Nope'; available: App", e.message)
    }

    @Test
    fun `the run starts on the EDT in a write-safe modality, as a click on Run does (defect 8)`() {
        var started = false
        runBlocking {
            RunOps.startOnEdt {
                // ExecutionManagerImpl saves documents and changes the RunManager when it starts a run.
                app.requireWriteSafe("ProgramRunnerUtil.executeConfiguration")
                started = true
            }
        }
        assertEquals(true, started)
    }
}
