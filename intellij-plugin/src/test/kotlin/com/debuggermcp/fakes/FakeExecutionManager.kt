// In ProgramRunnerUtil's package: the stub's hook is package-private (not API).
package com.intellij.execution

import com.debuggermcp.fakes.FakeApplication
import com.debuggermcp.fakes.FakeProject
import com.intellij.execution.process.ProcessHandler
import com.intellij.execution.runners.ExecutionEnvironment
import com.intellij.openapi.application.ModalityState
import com.intellij.openapi.util.Computable
import java.util.concurrent.CopyOnWriteArrayList
import java.util.function.BiConsumer

/**
 * What `ProgramRunnerUtil.executeConfiguration(env, showSettings, assignNewId)` sets going, and
 * the project's ExecutionManager service (ExecutionManagerImpl.kt, file id 1646897139;
 * ProgramRunnerUtil.java @044aac10):
 *  - executeConfigurationAsync starts nothing while `manager.isStarting(environment)`: another
 *    start of the configuration is in ExecutionManagerImpl's `inProgress` ([starting] here, from
 *    executeConfiguration until processStarted/processNotStarted);
 *  - it returns at once; `RunManagerImpl.canRunConfiguration` runs in a non-blocking read action on
 *    a pooled thread, then `finishOnUiThread(ModalityState.nonModal())` takes the start out of
 *    `inProgress`, assigns a new execution id (`if (assignNewId) effectiveEnvironment.assignNewExecutionId()`)
 *    and calls `runner.execute`, whose startRunProfile (doStartRunProfile) puts it back and
 *    publishes processStartScheduled, or which drops it silently ([runnerGivesUp]);
 *  - the runner's startRunProfile runs the before-run tasks on a pooled thread (compileAndRun:
 *    [beforeRun], a build the test holds), then `doRun`: an environment marked
 *    `EXECUTION_SKIP_RUN` gets processNotStarted instead of its start; otherwise the runner starts
 *    the process on the EDT ([runnerExecute]: a debug runner's XDebuggerManager.startSession,
 *    `@RequiresEdt`, XDebuggerManager.java, file id 17088829854), and ExecutionManagerImpl later
 *    publishes processStarted on EXECUTION_TOPIC ([processStarted]: the test decides when).
 */
class FakeExecutionManager(
    private val app: FakeApplication,
    private val project: FakeProject? = null,
    private val runnerExecute: (ExecutionEnvironment) -> Unit,
) : ExecutionManager() {
    /** Environments handed to the runner, in order. */
    val executed = CopyOnWriteArrayList<ExecutionEnvironment>()

    /** ExecutionManagerImpl's `inProgress`: starts between executeConfiguration and their end. */
    val starting = CopyOnWriteArrayList<ExecutionEnvironment>()

    /** The before-run tasks of a start (a build), run on a pooled thread; none by default. */
    @Volatile
    var beforeRun: (ExecutionEnvironment) -> Unit = {}

    /** Starts that doRun skipped (EXECUTION_SKIP_RUN) and reported as processNotStarted. */
    val skipped = CopyOnWriteArrayList<ExecutionEnvironment>()

    /**
     * The runner drops the start before startRunProfile (its configuration's `getState()` threw an
     * ExecutionException or returned null: BaseProgramRunner.execute, file ids 11698888617, 29929999966).
     */
    @Volatile
    var runnerGivesUp = false

    /**
     * What the runner does inside `runner.execute`, on that EDT task, before it reaches
     * startRunProfile: BaseProgramRunner-style runners call `environment.getState()` first
     * (DefaultJavaProgramRunner.execute, GenericProgramRunner/AsyncProgramRunner: file ids
     * 3885335931, 29515011408, 18361761164), which may be slow or open a modal dialog.
     */
    @Volatile
    var runnerPrelude: () -> Unit = {}

    /** Another start of the configuration in progress (the user's), not known to the adapter. */
    @Volatile
    var startedElsewhere = false

    override fun startingInStub(environment: ExecutionEnvironment): Boolean = startedElsewhere || starting.isNotEmpty()

    init {
        project?.services?.put(ExecutionManager::class.java, this)
        ProgramRunnerUtil.testExecutionManager = BiConsumer { environment, assignNewId ->
            // Starting a run saves documents and may edit the RunManager: a write-safe EDT context.
            app.requireWriteSafe("ProgramRunnerUtil.executeConfiguration")
            // ProgramRunnerUtil.executeConfigurationAsync: `if (!manager.isStarting(environment))`.
            if (isStarting(environment)) return@BiConsumer
            starting += environment
            app.executeOnPooledThread {
                app.runReadAction(Computable { true }) // RunManagerImpl.canRunConfiguration
                app.invokeLater({
                    // finishOnUiThread: `inProgress.remove(inProgressEntry)`, then
                    // executeConfiguration(environment, runner, …) → `runner.execute(env)` in this task.
                    starting -= environment
                    if (assignNewId) environment.assignNewExecutionId()
                    executed += environment
                    runnerPrelude()
                    // BaseProgramRunner.execute: `environment.getState()` first; an ExecutionException
                    // is only shown (handleProgramRunnerExecutionError), a null state returns: no
                    // startRunProfile, nothing published on EXECUTION_TOPIC.
                    if (runnerGivesUp) return@invokeLater
                    // doStartRunProfile: `inProgress.add(…)`, then processStartScheduled, synchronously.
                    starting += environment
                    project?.bus?.publish(EXECUTION_TOPIC) { it.processStartScheduled("Debug", environment) }
                    app.executeOnPooledThread {
                        beforeRun(environment)
                        if (environment.getUserData(EXECUTION_SKIP_RUN) == true) {
                            skipped += environment
                            starting -= environment
                            project?.bus?.publish(EXECUTION_TOPIC) { it.processNotStarted("Debug", environment, null) }
                            return@executeOnPooledThread
                        }
                        app.invokeLater({ runnerExecute(environment) }, ModalityState.any())
                    }
                }, ModalityState.nonModal())
            }
        }
    }

    /** ExecutionManagerImpl's onSuccess: the descriptor's process started (on the EDT). */
    fun processStarted(environment: ExecutionEnvironment, handler: ProcessHandler) {
        app.invokeLater({
            starting -= environment
            project?.bus?.publish(EXECUTION_TOPIC) { it.processStarted("Debug", environment, handler) }
        }, ModalityState.any())
    }

    fun uninstall() {
        ProgramRunnerUtil.testExecutionManager = BiConsumer { _, _ -> throw UnsupportedOperationException("stub") }
    }
}
