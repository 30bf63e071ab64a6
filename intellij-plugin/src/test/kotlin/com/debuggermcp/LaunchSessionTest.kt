package com.debuggermcp

import com.debuggermcp.adapter.RunOps
import com.debuggermcp.adapter.Sessions
import com.debuggermcp.fakes.FakeApplication
import com.debuggermcp.fakes.FakeProject
import com.debuggermcp.fakes.FakeRunManager
import com.debuggermcp.fakes.FakeSession
import com.debuggermcp.json.JsonArgs
import com.intellij.execution.Executor
import com.intellij.execution.FakeExecutionManager
import com.intellij.execution.RunnerAndConfigurationSettings
import com.intellij.execution.configurations.ConfigurationType
import com.intellij.execution.configurations.RunConfiguration
import com.intellij.execution.configurations.RunProfile
import com.intellij.execution.runners.ExecutionEnvironment
import com.intellij.xdebugger.XDebugProcess
import com.intellij.xdebugger.XDebugSession
import com.intellij.xdebugger.XDebuggerManager
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout

/**
 * `launch` in debug mode against an ExecutionManagerImpl-like start (FakeExecutionManager: the
 * run starts asynchronously, the environment gets a new execution id, the debug process starts
 * later) and a message bus: the agent gets the session of *its* launch, and only once that
 * session's debug process started (XDebuggerManager.TOPIC processStarted), not a session the
 * user started meanwhile.
 */
@Timeout(30)
class LaunchSessionTest {
    private val app = FakeApplication.install()
    private val project = FakeProject()
    private val executed = java.util.concurrent.LinkedBlockingQueue<ExecutionEnvironment>()
    private val manager = FakeExecutionManager(app) { env -> executed.put(env) }

    private val appConfiguration = object : RunConfiguration {
        override fun getName(): String = "App"
    }

    private val settings = object : RunnerAndConfigurationSettings {
        override fun getType(): ConfigurationType = throw UnsupportedOperationException("not used by launch")
        override fun checkSettings(executor: Executor?) = app.requireRead("RunnerAndConfigurationSettings.checkSettings")
        override fun getConfiguration(): RunConfiguration = appConfiguration
        override fun getName(): String = "App"
        override fun isTemporary(): Boolean = false
        override fun getFolderName(): String? = null
    }

    init {
        FakeRunManager.install(project, settings)
    }

    @AfterEach
    fun clean() {
        manager.uninstall()
        app.dispose()
        assertEquals(emptyList<String>(), app.violations, "threading contracts broken")
    }

    /** XDebugSessionImpl publishes processStarted while the session starts, on the EDT. */
    private fun processStarted(session: XDebugSession) {
        val process = object : XDebugProcess(session) {}
        app.invokeLater({ project.bus.publish(XDebuggerManager.TOPIC) { it.processStarted(process) } }, com.intellij.openapi.application.ModalityState.nonModal())
    }

    @Test
    fun `launch reports its own session once its debug process started`() = runBlocking {
        val launch = async(Dispatchers.Default) { RunOps.launch(project, JsonArgs(mapOf("configuration" to "App", "mode" to "debug"))) }
        val env = executed.poll(10, java.util.concurrent.TimeUnit.SECONDS) ?: error("the runner never ran")
        assertNotEquals(0L, env.executionId, "executeConfiguration was not asked to assign a new execution id")

        // The runner ran, the debug process has not started yet: no session to report.
        Thread.sleep(200)
        assertFalse(launch.isCompleted, "launch returned before the debug process started")

        // The user starts another configuration meanwhile: its session is not ours.
        val otherProfile = object : RunProfile { override fun getName(): String = "Other" }
        val otherEnv = ExecutionEnvironment().also { it.assignNewExecutionId() }
        processStarted(FakeSession(project, app, null, otherProfile, otherEnv))
        Thread.sleep(200)
        assertFalse(launch.isCompleted, "launch took a session the user started")

        // The user runs the SAME configuration again meanwhile (a second Debug click): same run
        // profile, its own environment. Not ours either (issue 27, item 8).
        val userEnv = ExecutionEnvironment().also { it.assignNewExecutionId() }
        processStarted(FakeSession(project, app, null, appConfiguration, userEnv))
        Thread.sleep(200)
        assertFalse(launch.isCompleted, "launch took the user's run of the same configuration")

        val ours = FakeSession(project, app, null, appConfiguration, env)
        processStarted(ours)
        val info = withTimeout(10_000) { launch.await() }
        assertEquals(Sessions.id(ours), info["id"])
        assertEquals("App", info["run_configuration"])
        assertEquals("debug", info["mode"])
        assertEquals(0, project.bus.subscribers(XDebuggerManager.TOPIC), "launch left its listener subscribed")
    }
}
