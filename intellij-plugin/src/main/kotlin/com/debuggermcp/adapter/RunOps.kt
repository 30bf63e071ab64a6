package com.debuggermcp.adapter

import com.debuggermcp.json.JsonArgs
import com.debuggermcp.json.jsonObject
import com.intellij.execution.ExecutionListener
import com.intellij.execution.ExecutionManager
import com.intellij.execution.ProgramRunnerUtil
import com.intellij.execution.RunManager
import com.intellij.execution.RunnerAndConfigurationSettings
import com.intellij.execution.configurations.RuntimeConfigurationError
import com.intellij.execution.configurations.RuntimeConfigurationException
import com.intellij.execution.executors.DefaultDebugExecutor
import com.intellij.execution.executors.DefaultRunExecutor
import com.intellij.execution.process.ProcessHandler
import com.intellij.execution.runners.ExecutionEnvironment
import com.intellij.execution.runners.ExecutionEnvironmentBuilder
import com.intellij.execution.runners.ProgramRunner
import com.intellij.openapi.actionSystem.DataContext
import com.intellij.openapi.actionSystem.impl.SimpleDataContext
import com.intellij.openapi.application.ModalityState
import com.intellij.openapi.project.Project
import com.intellij.xdebugger.XDebugProcess
import com.intellij.xdebugger.XDebugSession
import com.intellij.xdebugger.XDebuggerManager
import com.intellij.xdebugger.XDebuggerManagerListener
import kotlinx.coroutines.CompletableDeferred

/** Run configurations, launching, listing and stopping sessions. */
internal object RunOps {
    suspend fun configurations(project: Project): List<Map<String, Any?>> = Ide.read {
        RunManager.getInstance(project).allSettings.map { s ->
            jsonObject(
                "name" to s.name,
                "type" to s.type.displayName,
                "type_id" to s.type.id,
                "is_temporary" to s.isTemporary,
                "can_run" to (ProgramRunner.getRunner(DefaultRunExecutor.EXECUTOR_ID, s.configuration) != null),
                "can_debug" to (ProgramRunner.getRunner(DefaultDebugExecutor.EXECUTOR_ID, s.configuration) != null),
                "folder" to s.folderName,
                "source" to "RunManager",
            )
        }
    }

    private suspend fun settings(project: Project, name: String): RunnerAndConfigurationSettings = Ide.read {
        RunManager.getInstance(project).findConfigurationByName(name)
    } ?: notFound("no run configuration named '$name'; available: " +
        Ide.read { RunManager.getInstance(project).allSettings.joinToString { it.name } })

    /**
     * Starts a run configuration in debug or run mode and returns once the debug session (or the
     * process, in run mode) exists. The new session is recognised through XDebuggerManager.TOPIC
     * by its execution environment, so sessions the user starts at the same time are not mixed
     * up. `command` launches are a headless (DAP) feature: the IDE starts run configurations.
     */
    suspend fun launch(project: Project, request: JsonArgs): Map<String, Any?> {
        // The core's attach target: {"pid": N} (JniBackend refuses host:port before calling).
        request.objOrNull("attach")?.let { target ->
            val pid = target.longOrNull("pid")?.toInt() ?: unsupported("the IDE attaches to a local process by pid only")
            return AttachOps.attach(project, pid, request.stringOrNull("adapter"))
        }
        val name = request.stringOrNull("configuration")
            ?: unsupported("the IDE starts sessions from run configurations; pass 'configuration' (command launches are for the headless server)")
        return launchSettings(project, settings(project, name), request)
    }

    /**
     * [launch] of a configuration the caller holds: `debug_test` passes the settings object it
     * registered (or the user's own one it found), so a configuration of another type that has
     * the same name is never the one started.
     */
    suspend fun launchSettings(project: Project, settings: RunnerAndConfigurationSettings, request: JsonArgs): Map<String, Any?> {
        val name = settings.name
        val debug = (request.stringOrNull("mode") ?: "debug") == "debug"
        // A retry (the agent's call timed out during a cold build: before-run tasks run before the
        // runner, ExecutionManagerImpl.executeConfiguration) while our launch of the same
        // configuration still starts: the same start, not a second one.
        val key = Launching(project, name, debug)
        val mine = CompletableDeferred<Map<String, Any?>>()
        val running = launching.putIfAbsent(key, mine)
        if (running != null) return running.await()
        try {
            return startLaunch(project, request, name, debug, settings).also { mine.complete(it) }
        } catch (t: Throwable) {
            mine.completeExceptionally(t)
            throw t
        } finally {
            launching.remove(key, mine)
        }
    }

    private data class Launching(val project: Project, val configuration: String, val debug: Boolean)

    private val launching = java.util.concurrent.ConcurrentHashMap<Launching, CompletableDeferred<Map<String, Any?>>>()

    /**
     * Refuses to start a configuration that does not allow parallel runs while a session of it
     * runs: ExecutionManagerImpl.restartRunProfile collects the running descriptors of a singleton
     * configuration (`configuration.isSingleton()`: not isAllowRunningInParallel) and asks the
     * user "Stop and rerun?" (userApprovesStopForSameTypeConfigurations, a modal dialog:
     * ExecutionManagerImpl.kt, file id 1646897139). An agent's start must never raise that
     * dialog; the agent gets the session instead.
     */
    private fun refuseSecondInstance(project: Project, name: String, settings: RunnerAndConfigurationSettings) {
        val configuration = settings.configuration
        if (configuration.isAllowRunningInParallel) return
        Sessions.ofProject(project).firstOrNull { !it.isStopped && it.runProfile === configuration }?.let {
            invalidState("run configuration '$name' is already running as session ${Sessions.id(it)} and does not allow parallel runs; " +
                "use that session, or stop it first (starting it again would ask the IDE's user to stop it)")
        }
        Sessions.Runs.ofProject(project).firstOrNull { it.name == name && !it.handler.isProcessTerminated }?.let {
            invalidState("run configuration '$name' is already running as ${it.id} and does not allow parallel runs; stop it first " +
                "(starting it again would ask the IDE's user to stop it)")
        }
    }

    private suspend fun startLaunch(project: Project, request: JsonArgs, name: String, debug: Boolean, settings: RunnerAndConfigurationSettings): Map<String, Any?> {
        val executor = if (debug) DefaultDebugExecutor.getDebugExecutorInstance() else DefaultRunExecutor.getRunExecutorInstance()
        // A configuration with errors would make ProgramRunnerUtil (showSettings=false) show an
        // error balloon and never start: no event would end our wait. Check first, as the Run
        // button does: errors stop the launch, warnings do not.
        // checkSettings may resolve classes and modules through the indexes: a smart read action.
        Ide.smartRead(project) {
            try {
                settings.checkSettings(executor)
            } catch (e: RuntimeConfigurationError) {
                failed("run configuration '$name' has errors: ${e.localizedMessage ?: e.javaClass.simpleName}; fix it in Run > Edit Configurations")
            } catch (_: RuntimeConfigurationException) {
                // A warning: the IDE runs such configurations too.
            }
        }
        refuseSecondInstance(project, name, settings)
        val builder = ExecutionEnvironmentBuilder.createOrNull(executor, settings)
            ?: unsupported("run configuration '$name' cannot be started in ${if (debug) "debug" else "run"} mode")
        val env = buildLaunchEnvironment(PlatformBuilder(builder)) { SimpleDataContext.getProjectContext(project) }

        val connection = project.messageBus.connect()
        try {
            return if (debug) {
                val started = CompletableDeferred<XDebugSession>()
                connection.subscribe(XDebuggerManager.TOPIC, object : XDebuggerManagerListener {
                    override fun processStarted(debugProcess: XDebugProcess) {
                        val session = debugProcess.session
                        // By the environment alone: XDebuggerManagerImpl.startSession(environment,
                        // starter) hands the runner's ExecutionEnvironment to the session it creates
                        // (XDebugSessionImpl's executionEnvironment), so ours carries `env` (or a
                        // copy with its execution id). A `runProfile ===` fallback took another run of
                        // the same configuration, started by the user while we waited, for ours.
                        if (sameLaunch(session.executionEnvironment, env)) {
                            started.complete(session)
                        }
                    }
                })
                watchStartFailure(connection, env, started)
                // Set before starting so an exception thrown during start-up is caught too.
                val exceptionStop = if (request.boolOr("stop_on_exception", false)) Breakpoints.addStopOnException(project) else null
                try {
                    startOnEdt { ProgramRunnerUtil.executeConfiguration(env, false, true) }
                    val session = started.await()
                    Sessions.data(session).mode = "debug"
                    exceptionStop?.let { Sessions.data(session).ownedBreakpoints.add(it) }
                    // stop_on_entry has no portable meaning in the XDebugger API (the first user
                    // line is language and configuration specific); agents set a breakpoint instead.
                    Sessions.info(session)
                } catch (t: Throwable) {
                    exceptionStop?.let { Breakpoints.removeQuietly(project, it) }
                    throw t
                }
            } else {
                val started = CompletableDeferred<ProcessHandler>()
                connection.subscribe(ExecutionManager.EXECUTION_TOPIC, object : ExecutionListener {
                    override fun processStarted(executorId: String, e: ExecutionEnvironment, handler: ProcessHandler) {
                        if (sameLaunch(e, env)) started.complete(handler)
                    }

                    // The platform calls the 3-argument form (its default delegates to the 2-argument one).
                    override fun processNotStarted(executorId: String, e: ExecutionEnvironment, cause: Throwable?) {
                        if (sameLaunch(e, env)) started.completeExceptionally(OpException(ErrorKind.FAILED, notStarted("run configuration '$name' did not start", cause)))
                    }
                })
                startOnEdt { ProgramRunnerUtil.executeConfiguration(env, false, true) }
                Sessions.Runs.info(Sessions.Runs.add(project, name, started.await()))
            }
        } finally {
            connection.disconnect()
        }
    }

    /**
     * Runs [start] (`executeConfiguration`) as a click on Run/Debug does: on the EDT, non-modal.
     * Starting a run saves documents, may build and changes the RunManager, all of which need a
     * write-safe context (TransactionGuardImpl.assertWriteSafeContext, file id 3527215818: "Write-unsafe
     * context! … (not "any")"); under ModalityState.any() a modal dialog's loop could run it.
     */
    internal suspend fun startOnEdt(start: () -> Unit) = Ide.onEdt(ModalityState.nonModal(), start)

    /** The platform's builder behind [buildLaunchEnvironment]. */
    private class PlatformBuilder(private val builder: ExecutionEnvironmentBuilder) : LaunchEnvironmentBuilder<DataContext, ExecutionEnvironment> {
        override fun activeTarget() {
            builder.activeTarget()
        }

        override fun dataContext(context: DataContext) {
            builder.dataContext(context)
        }

        override fun build(): ExecutionEnvironment = builder.build()
    }

    /** Debug launches that fail before a session exists (build errors, bad settings) end the wait. */
    private fun watchStartFailure(connection: com.intellij.util.messages.MessageBusConnection, env: ExecutionEnvironment, started: CompletableDeferred<XDebugSession>) {
        connection.subscribe(ExecutionManager.EXECUTION_TOPIC, object : ExecutionListener {
            override fun processNotStarted(executorId: String, e: ExecutionEnvironment, cause: Throwable?) {
                if (sameLaunch(e, env)) {
                    started.completeExceptionally(OpException(ErrorKind.FAILED, notStarted("the debug session did not start (see the IDE's Run/Debug window)", cause)))
                }
            }
        })
    }

    /** The platform's reason, when it gives one, saves the agent a trip to the IDE. */
    private fun notStarted(what: String, cause: Throwable?): String =
        cause?.message?.takeIf { it.isNotBlank() }?.let { "$what: $it" } ?: what

    private fun sameLaunch(a: ExecutionEnvironment?, b: ExecutionEnvironment): Boolean =
        a != null && (a === b || a.executionId == b.executionId)

    fun sessions(project: Project): List<Map<String, Any?>> =
        Sessions.ofProject(project).map { Sessions.info(it) } + Sessions.Runs.ofProject(project).map { Sessions.Runs.info(it) }

    /**
     * Ends a session as the IDE's Stop button does: XDebugSessionImpl.stop() detaches when the
     * process handler's detachIsDefault() (Java's attach: RemoteDebugProcessHandler, file id
     * 8088963667) and destroys it otherwise (XDebugSessionImpl.kt, file id 3494500063). An
     * attached session must leave its process running whatever its handler prefers (Python's
     * attach handler says false: PyRemoteDebugProcessHandler, file id 551540466), so it is
     * detached explicitly, as ProcessHandler.detachProcess does for the Disconnect case.
     */
    suspend fun stop(sessionId: String) {
        Sessions.Runs.find(sessionId)?.let { run ->
            Ide.onEdt(ModalityState.nonModal()) { run.handler.destroyProcess() }
            return
        }
        val session = Sessions.find(sessionId)
        if (session.isStopped) return
        Sessions.data(session).values.clear()
        if (Sessions.data(session).attachedPid != null) {
            Ide.onEdt(ModalityState.nonModal()) {
                val handler = session.debugProcess.processHandler
                if (handler.detachIsDefault()) session.stop() else handler.detachProcess()
            }
            return
        }
        // As the Stop button: not from inside someone else's modal dialog.
        Ide.onEdt(ModalityState.nonModal()) { session.stop() }
    }

    /**
     * `stop_debug_session {terminate: true}`: a launched session is stopped as [stop] does (its
     * process is killed); an attached one ends its process too. The platform has no "kill what
     * was attached to" common to its debuggers (Python's attach handler only disconnects, even on
     * destroyProcess: PyRemoteDebugProcessHandler.destroyProcessImpl, file id 551540466), so the
     * process is ended by pid (ProcessHandle.destroy, SIGTERM) and the session then ends with
     * the debugger's connection.
     */
    suspend fun terminate(sessionId: String) {
        val session = if (Sessions.Runs.find(sessionId) == null) Sessions.find(sessionId) else null
        val pid = session?.takeIf { !it.isStopped }?.let { Sessions.data(it).attachedPid } ?: return stop(sessionId)
        Sessions.data(session).values.clear()
        ProcessHandle.of(pid.toLong()).ifPresent { it.destroy() }
        Ide.onEdt(ModalityState.nonModal()) { session.debugProcess.processHandler.destroyProcess() }
    }
}
