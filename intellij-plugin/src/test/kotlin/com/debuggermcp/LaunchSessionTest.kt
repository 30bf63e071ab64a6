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
import org.junit.jupiter.api.Assertions.assertTrue
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
    private val manager = FakeExecutionManager(app, project) { env -> executed.put(env) }

    /** "Allow multiple instances" off, as RunConfigurationBase's options default to (file id 6580618322). */
    private val appConfiguration = object : RunConfiguration {
        override fun getName(): String = "App"
        override fun isAllowRunningInParallel(): Boolean = false
    }

    /** XDebuggerManagerImpl's sessions: the ones started (and not yet stopped) in the project. */
    private val running = java.util.concurrent.CopyOnWriteArrayList<XDebugSession>()

    private val settings = object : RunnerAndConfigurationSettings {
        override fun getType(): ConfigurationType = com.debuggermcp.fakes.FakeConfigurationType("Application")
        override fun checkSettings(executor: Executor?) = app.requireRead("RunnerAndConfigurationSettings.checkSettings")
        override fun getConfiguration(): RunConfiguration = appConfiguration
        override fun getName(): String = "App"
        override fun setName(name: String?) = throw UnsupportedOperationException("launch never renames")
        override fun isTemporary(): Boolean = false
        override fun getFolderName(): String? = null
    }

    init {
        FakeRunManager.install(project, settings)
        project.services[XDebuggerManager::class.java] = object : XDebuggerManager() {
            override fun getBreakpointManager() = throw UnsupportedOperationException("not used by launch")
            override fun getDebugSessions(): Array<XDebugSession> = running.toTypedArray()
            override fun getCurrentSession(): XDebugSession? = running.firstOrNull()
        }
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

    /** Another configuration of the project, the target of a "Run Another Configuration" before-run step. */
    private val otherSettings = object : RunnerAndConfigurationSettings {
        override fun getType(): ConfigurationType = com.debuggermcp.fakes.FakeConfigurationType("Application")
        override fun checkSettings(executor: Executor?) = Unit
        override fun getConfiguration(): RunConfiguration = object : RunConfiguration {
            override fun getName(): String = "Helper"
        }
        override fun getName(): String = "Helper"
        override fun setName(name: String?) = Unit
        override fun isTemporary(): Boolean = false
        override fun getFolderName(): String? = null
    }

    @Test
    fun `a before-run step's session or process with our execution id is not taken for our launch (W1)`() = runBlocking {
        val launch = async(Dispatchers.Default) { RunOps.launch(project, JsonArgs(mapOf("configuration" to "App", "mode" to "debug"))) }
        val env = executed.poll(10, java.util.concurrent.TimeUnit.SECONDS) ?: error("the runner never ran")
        // "Run Another Configuration" in Debug: RunConfigurationBeforeRunProvider.doExecuteTask builds
        // the other configuration's environment and gives it our id (setExecutionId(env.getExecutionId())).
        val helperEnv = com.intellij.execution.runners.ExecutionEnvironmentBuilder
            .createOrNull(com.intellij.execution.executors.DefaultDebugExecutor.getDebugExecutorInstance(), otherSettings)!!.build()
            .also { it.setExecutionId(env.executionId) }
        processStarted(FakeSession(project, app, null, otherSettings.configuration, helperEnv))
        Thread.sleep(300)
        assertFalse(launch.isCompleted, "launch took the before-run step's debug session for its own")
        val ours = FakeSession(project, app, null, appConfiguration, env)
        processStarted(ours)
        assertEquals(Sessions.id(ours), withTimeout(10_000) { launch.await() }["id"])
    }

    @Test
    fun `a Gradle before-run task's process with our execution id is not taken for our run (W1)`() = runBlocking {
        val launch = async(Dispatchers.Default) { RunOps.launch(project, JsonArgs(mapOf("configuration" to "App", "mode" to "run"))) }
        val env = executed.poll(10, java.util.concurrent.TimeUnit.SECONDS) ?: error("the runner never ran")
        // ExternalSystemBeforeRunTaskProvider.executeTask: a new environment for the task, our id.
        val gradleEnv = ExecutionEnvironment().also { it.setExecutionId(env.executionId) }
        val gradle = Handler()
        manager.processStarted(gradleEnv, gradle)
        Thread.sleep(300)
        assertFalse(launch.isCompleted, "launch took the Gradle task's process for its run")
        val ours = Handler()
        manager.processStarted(env, ours)
        val info = withTimeout(10_000) { launch.await() }
        assertEquals("run", info["mode"])
        assertEquals(ours, Sessions.Runs.find(info["id"] as String)?.handler)
    }

    @Test
    fun `a retry while the launch is still building joins it instead of starting the run again (item 1)`() = runBlocking {
        val args = JsonArgs(mapOf("configuration" to "App", "mode" to "debug"))
        val first = async(Dispatchers.Default) { RunOps.launch(project, args) }
        val env = executed.poll(10, java.util.concurrent.TimeUnit.SECONDS) ?: error("the runner never ran")
        // The agent's call timed out during the before-run build; it calls launch again.
        val retry = async(Dispatchers.Default) { RunOps.launch(project, args) }
        assertEquals(null, executed.poll(500, java.util.concurrent.TimeUnit.MILLISECONDS), "the retry started the configuration a second time")
        val ours = FakeSession(project, app, null, appConfiguration, env)
        processStarted(ours)
        assertEquals(Sessions.id(ours), withTimeout(10_000) { first.await() }["id"])
        assertEquals(Sessions.id(ours), withTimeout(10_000) { retry.await() }["id"])
    }

    /** A build the test holds: the before-run tasks of a start wait on it (compileAndRun's pooled thread). */
    private val build = java.util.concurrent.CountDownLatch(1)
    private val building = java.util.concurrent.LinkedBlockingQueue<ExecutionEnvironment>()

    private fun holdTheBuild() {
        manager.beforeRun = { env ->
            building.put(env)
            build.await(20, java.util.concurrent.TimeUnit.SECONDS)
        }
    }

    /** The process a start's runner creates; the Stop action destroys it (ExecutionManagerImpl.stopProcess). */
    private inner class Handler : com.intellij.execution.process.ProcessHandler() {
        val destroyed = java.util.concurrent.CountDownLatch(1)
        override fun destroyProcess() {
            // ExecutionManagerImpl.stopProcess destroys on Dispatchers.Default, never on the EDT.
            app.requireBackground("ProcessHandler.destroyProcess")
            destroyed.countDown()
        }
        override fun detachIsDefault(): Boolean = false
        override fun isProcessTerminated(): Boolean = destroyed.count == 0L
    }

    @Test
    fun `one caller giving up does not end the start another caller joined (review NIT)`() = runBlocking {
        holdTheBuild()
        val args = JsonArgs(mapOf("configuration" to "App", "mode" to "debug"))
        // The first call's budget ends during the build (its own timeout, as OpRunner applies Rust's budget_ms).
        val first = async(Dispatchers.Default) { runCatching { withTimeout(1_000) { RunOps.launch(project, args) } } }
        val env = building.poll(10, java.util.concurrent.TimeUnit.SECONDS) ?: error("the build never started")
        val retry = async(Dispatchers.Default) { RunOps.launch(project, args) }
        assertTrue(withTimeout(10_000) { first.await() }.exceptionOrNull() is kotlinx.coroutines.TimeoutCancellationException)
        // The retry still waits for the same start, which was not abandoned.
        assertEquals(null, env.getUserData(com.intellij.execution.ExecutionManager.EXECUTION_SKIP_RUN), "the first caller's timeout abandoned the start the retry waits for")
        build.countDown()
        assertEquals(env, executed.poll(10, java.util.concurrent.TimeUnit.SECONDS), "the runner did not run after the build")
        val ours = FakeSession(project, app, null, appConfiguration, env)
        processStarted(ours)
        assertEquals(Sessions.id(ours), withTimeout(10_000) { retry.await() }["id"])
        assertEquals(1, manager.executed.size, "the configuration was started twice")
    }

    @Test
    fun `a launch whose budget ends during the build does not start the program afterwards (item 1)`() = runBlocking {
        holdTheBuild()
        val launch = async(Dispatchers.Default) {
            runCatching { withTimeout(1_000) { RunOps.launch(project, JsonArgs(mapOf("configuration" to "App", "mode" to "debug"))) } }
        }
        val env = building.poll(10, java.util.concurrent.TimeUnit.SECONDS) ?: error("the build never started")
        assertTrue(withTimeout(10_000) { launch.await() }.isFailure)
        build.countDown()
        // ExecutionManagerImpl.doRun skips the start of an environment marked EXECUTION_SKIP_RUN.
        assertEquals(null, executed.poll(1_000, java.util.concurrent.TimeUnit.MILLISECONDS), "the program started after nobody waited for it any more")
        assertEquals(listOf(env), manager.skipped.toList())
        // The watch for a late process ended with processNotStarted.
        withTimeout(5_000) { while (project.bus.subscribers(com.intellij.execution.ExecutionManager.EXECUTION_TOPIC) > 0) kotlinx.coroutines.delay(20) }
    }

    @Test
    fun `a launch whose budget ends once the build is over stops the process when it comes (item 1)`() = runBlocking {
        val launch = async(Dispatchers.Default) {
            runCatching { withTimeout(1_000) { RunOps.launch(project, JsonArgs(mapOf("configuration" to "App", "mode" to "debug"))) } }
        }
        // The runner ran (doRun was past its EXECUTION_SKIP_RUN check), the process comes late.
        val env = executed.poll(10, java.util.concurrent.TimeUnit.SECONDS) ?: error("the runner never ran")
        assertTrue(withTimeout(10_000) { launch.await() }.isFailure)
        val handler = Handler()
        manager.processStarted(env, handler)
        assertTrue(handler.destroyed.await(10, java.util.concurrent.TimeUnit.SECONDS), "the late process of an abandoned launch kept running")
    }

    @Test
    fun `a launch while the IDE still starts the configuration is refused at once, not left waiting (item 1)`() = runBlocking {
        // The user's own start of App is in its before-run build: ProgramRunnerUtil would start nothing.
        manager.startedElsewhere = true
        val e = withTimeout(10_000) {
            runCatching { RunOps.launch(project, JsonArgs(mapOf("configuration" to "App", "mode" to "debug"))) }.exceptionOrNull()
        }
        assertTrue(e is com.debuggermcp.adapter.OpException, "$e")
        assertEquals(com.debuggermcp.adapter.ErrorKind.INVALID_STATE, (e as com.debuggermcp.adapter.OpException).kind)
        assertTrue(e.message!!.contains("still starting") && e.message!!.contains("'App'"), e.message)
        assertEquals(0, project.bus.subscribers(XDebuggerManager.TOPIC), "launch left its listener subscribed")
    }

    @Test
    fun `a configuration that cannot run twice is not started again while its session runs (item 1)`() {
        val env = ExecutionEnvironment().also { it.assignNewExecutionId() }
        val session = FakeSession(project, app, null, appConfiguration, env)
        running += session
        val e = org.junit.jupiter.api.Assertions.assertThrows(com.debuggermcp.adapter.OpException::class.java) {
            runBlocking { RunOps.launch(project, JsonArgs(mapOf("configuration" to "App", "mode" to "debug"))) }
        }
        assertEquals(com.debuggermcp.adapter.ErrorKind.INVALID_STATE, e.kind)
        assertTrue(e.message!!.contains("already running as session ${Sessions.id(session)}"), e.message)
        assertEquals(null, executed.poll(300, java.util.concurrent.TimeUnit.MILLISECONDS), "the IDE was asked to start it again (Stop and rerun?)")
    }

    @Test
    fun `the late process of an abandoned launch is stopped however late it comes (leftover 3)`() = runBlocking {
        val launch = async(Dispatchers.Default) {
            runCatching { withTimeout(500) { RunOps.launch(project, JsonArgs(mapOf("configuration" to "App", "mode" to "debug"))) } }
        }
        val env = executed.poll(10, java.util.concurrent.TimeUnit.SECONDS) ?: error("the runner never ran")
        assertTrue(withTimeout(10_000) { launch.await() }.isFailure)
        // The process comes long after the launch gave up (a slow runner: a remote target, a
        // container). The watch is not over because time passed: only the start's end ends it.
        kotlinx.coroutines.delay(2_000)
        assertEquals(1, project.bus.subscribers(com.intellij.execution.ExecutionManager.EXECUTION_TOPIC), "nothing watches the abandoned start any more")
        val handler = Handler()
        manager.processStarted(env, handler)
        assertTrue(handler.destroyed.await(10, java.util.concurrent.TimeUnit.SECONDS), "the late process of an abandoned launch kept running")
        // Its end ended the watch.
        withTimeout(5_000) { while (project.bus.subscribers(com.intellij.execution.ExecutionManager.EXECUTION_TOPIC) > 0) kotlinx.coroutines.delay(20) }
    }

    @Test
    fun `a launch after an abandoned one still building waits for it and starts, instead of being told the IDE is starting it (leftover 4)`() = runBlocking {
        holdTheBuild()
        val args = JsonArgs(mapOf("configuration" to "App", "mode" to "debug"))
        val first = async(Dispatchers.Default) { runCatching { withTimeout(1_000) { RunOps.launch(project, args) } } }
        val abandoned = building.poll(10, java.util.concurrent.TimeUnit.SECONDS) ?: error("the build never started")
        assertTrue(withTimeout(10_000) { first.await() }.isFailure)
        // The agent launches again while the abandoned start's build still runs: ExecutionManagerImpl
        // still has it in progress (isStarting), and it will be skipped after the build.
        val second = async(Dispatchers.Default) { runCatching { RunOps.launch(project, args) } }
        kotlinx.coroutines.delay(500)
        assertFalse(second.isCompleted, "the launch was answered while the abandoned start was still building: ${if (second.isCompleted) second.await() else null}")
        manager.beforeRun = {} // the second start's own before-run tasks: up to date
        build.countDown()
        // The abandoned start is skipped, then the second launch starts its own run.
        val env = executed.poll(10, java.util.concurrent.TimeUnit.SECONDS) ?: error("the second launch never started the configuration")
        assertEquals(listOf(abandoned), manager.skipped.toList())
        assertNotEquals(abandoned, env)
        val ours = FakeSession(project, app, null, appConfiguration, env)
        processStarted(ours)
        val result = withTimeout(10_000) { second.await() }
        assertEquals(Sessions.id(ours), result.getOrThrow()["id"])
    }

    // --- re-check audit (2026-12-07) --------------------------------------------------------

    @Test
    fun `a runner that takes over a second in execute before scheduling the start is not reported as dropped (re-check R1)`() = runBlocking {
        // The runner's getState() (BaseProgramRunner.execute) on the EDT task that took the start out
        // of inProgress: slow (a cold IDE), or a modal dialog it opens. Either way, the start comes.
        val preludes = listOf<Pair<String, () -> Unit>>(
            "a slow getState()" to { Thread.sleep(1_500) },
            "a modal dialog in getState()" to { val until = System.nanoTime() + 1_500_000_000L; app.modalLoop { System.nanoTime() > until } },
        )
        for ((what, prelude) in preludes) {
            manager.runnerPrelude = prelude
            val launch = async(Dispatchers.Default) { runCatching { RunOps.launch(project, JsonArgs(mapOf("configuration" to "App", "mode" to "debug"))) } }
            val env = executed.poll(10, java.util.concurrent.TimeUnit.SECONDS) ?: error("$what: the runner never ran")
            val ours = FakeSession(project, app, null, appConfiguration, env)
            processStarted(ours)
            val result = withTimeout(10_000) { launch.await() }
            assertEquals(Sessions.id(ours), result.getOrElse { throw AssertionError("$what: the launch was told the IDE did not start it", it) }["id"])
            assertEquals(null, env.getUserData(com.intellij.execution.ExecutionManager.EXECUTION_SKIP_RUN), "$what: a started launch was marked abandoned")
            // ExecutionManagerImpl takes the start out of inProgress once its process started.
            manager.starting -= env
        }
    }

    @Test
    fun `a start the runner truly drops is abandoned, so if it comes after all its process is stopped (re-check R1)`() = runBlocking {
        manager.runnerGivesUp = true
        val e = withTimeout(10_000) { runCatching { RunOps.launch(project, JsonArgs(mapOf("configuration" to "App", "mode" to "debug"))) }.exceptionOrNull() }
        assertTrue(e is com.debuggermcp.adapter.OpException && e.message!!.contains("did not start 'App'"), "$e")
        val env = manager.executed.single()
        // RunDialog.editConfigurationUntilSuccess (or a runner's own later startRunProfile) starts
        // the same environment after all: its process must not run on untracked.
        val handler = Handler()
        manager.processStarted(env, handler)
        assertTrue(handler.destroyed.await(10, java.util.concurrent.TimeUnit.SECONDS), "a start reported as not started ran on untracked")
    }

    @Test
    fun `an abandoned start's environment can be rerun from its tab once the start ended (re-check N3)`() = runBlocking {
        holdTheBuild()
        val launch = async(Dispatchers.Default) {
            runCatching { withTimeout(1_000) { RunOps.launch(project, JsonArgs(mapOf("configuration" to "App", "mode" to "debug"))) } }
        }
        val env = building.poll(10, java.util.concurrent.TimeUnit.SECONDS) ?: error("the build never started")
        assertTrue(withTimeout(10_000) { launch.await() }.isFailure)
        build.countDown()
        withTimeout(5_000) { while (project.bus.subscribers(com.intellij.execution.ExecutionManager.EXECUTION_TOPIC) > 0) kotlinx.coroutines.delay(20) }
        assertEquals(listOf(env), manager.skipped.toList())
        // The Rerun button reuses this ExecutionEnvironment (ExecutionManagerImpl's comment on
        // restartRunProfile); doRun's allowSkipRun would skip it while the mark stays.
        assertEquals(null, env.getUserData(com.intellij.execution.ExecutionManager.EXECUTION_SKIP_RUN), "the user's Rerun of this tab would silently do nothing")
    }
}
