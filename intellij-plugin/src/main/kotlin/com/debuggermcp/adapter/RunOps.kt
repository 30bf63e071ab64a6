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
import com.intellij.openapi.application.ApplicationManager
import kotlinx.coroutines.withContext
import kotlinx.coroutines.launch
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.Deferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.async

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
        // configuration still starts: the same start, not a second one. Each caller waits with its
        // own budget (OpRunner: Rust's `budget_ms`); the start is abandoned only when the last
        // caller stops waiting, so one caller's timeout never ends another's wait.
        val key = Launching(project, name, debug)
        val shared = synchronized(launching) {
            launching[key]?.takeIf { !it.job.isCompleted }?.also { it.waiters++ }
                ?: SharedLaunch(launchScope.async(start = CoroutineStart.LAZY) { startLaunch(project, request, name, debug, settings) })
                    .also { launching[key] = it }
        }
        shared.job.start()
        try {
            return shared.job.await()
        } finally {
            val abandoned = synchronized(launching) {
                shared.waiters--
                if (shared.waiters == 0 || shared.job.isCompleted) launching.remove(key, shared)
                // Nobody waits any more: the start is stopped (see [abandon]).
                (shared.waiters == 0 && !shared.job.isCompleted).also { if (it) shared.job.cancel() }
            }
            // The caller returns only once [abandon] marked the start: a build that ends right
            // after would otherwise still see no EXECUTION_SKIP_RUN and start the program.
            if (abandoned) withContext(NonCancellable) { shared.job.join() }
        }
    }

    private data class Launching(val project: Project, val configuration: String, val debug: Boolean)

    /** One start of a configuration and the callers waiting for it ([waiters], guarded by [launching]). */
    private class SharedLaunch(val job: Deferred<Map<String, Any?>>) {
        var waiters = 1
    }

    private val launching = HashMap<Launching, SharedLaunch>()

    /**
     * Where a start runs: apart from any one caller's coroutine, so a caller that gives up cancels
     * only its own wait. A start lives no longer than its last caller's wait.
     */
    private val launchScope = CoroutineScope(SupervisorJob() + Dispatchers.Default)

    /**
     * Refuses to start a configuration that does not allow parallel runs ("Allow multiple
     * instances" off: `configuration.isAllowRunningInParallel`) while a session of it runs.
     * ProgramRunnerUtil.executeConfiguration would start a second instance anyway: it goes to
     * ExecutionManagerImpl.executeConfiguration → runner.execute, never through restartRunProfile,
     * the Run button's path that stops the running instance first or asks "Stop and rerun?"
     * (ExecutionManagerImpl.kt, file id 1646897139; ProgramRunnerUtil.java @044aac10). The agent
     * gets the running session instead of a run its configuration forbids.
     */
    private fun refuseSecondInstance(project: Project, name: String, settings: RunnerAndConfigurationSettings) {
        val configuration = settings.configuration
        if (configuration.isAllowRunningInParallel) return
        Sessions.ofProject(project).firstOrNull { !it.isStopped && it.runProfile === configuration }?.let {
            invalidState("run configuration '$name' is already running as session ${Sessions.id(it)} and does not allow parallel runs " +
                "('Allow multiple instances' is off); use that session, or stop it first")
        }
        Sessions.Runs.ofProject(project).firstOrNull { it.name == name && !it.handler.isProcessTerminated }?.let {
            invalidState("run configuration '$name' is already running as ${it.id} and does not allow parallel runs " +
                "('Allow multiple instances' is off); stop it first")
        }
    }

    /**
     * ProgramRunnerUtil.executeConfigurationAsync starts nothing, silently, while the execution
     * manager `isStarting(environment)` (ProgramRunnerUtil.java @044aac10: `if (!manager.isStarting(
     * environment)) manager.executeConfiguration(…)`): a start of the same configuration (older
     * platforms: of any configuration with the same executor and runner) is still in its before-run
     * tasks or being checked (ExecutionManagerImpl's `inProgress` entries, file id 1646897139). Our
     * wait would then end only with its budget; the agent is told at once instead. Our own start of
     * the same configuration never gets here: [launch] joins it.
     */
    private fun refuseWhileStarting(project: Project, name: String, env: ExecutionEnvironment, debug: Boolean) {
        if (ExecutionManager.getInstance(project).isStarting(env)) {
            invalidState("the IDE is still starting a ${if (debug) "debug" else "run"} of '$name' (or of another configuration with the same runner; " +
                "its before-run build may be running), and it starts no second one meanwhile; wait until it has started " +
                "(list_debug_sessions), then use that session or try again")
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
        // Before anything of this start exists: a caller giving up here leaves nothing to stop.
        awaitAbandonedStarts(project, env)

        val connection = project.messageBus.connect()
        try {
            val scheduled = watchStartScheduled(connection, env)
            return if (debug) {
                val started = CompletableDeferred<XDebugSession>()
                // The debug process itself, not its session: XDebuggerManagerImpl.startSession publishes
                // processStarted before `session.init(process, …)`, and XDebugSessionImpl.getDebugProcess()
                // is `myDebugProcess!!` until then (XDebugSessionImpl.kt, file id 3494500063; re-check audit N1).
                val ours = java.util.concurrent.atomic.AtomicReference<XDebugProcess>()
                connection.subscribe(XDebuggerManager.TOPIC, object : XDebuggerManagerListener {
                    override fun processStarted(debugProcess: XDebugProcess) {
                        val session = debugProcess.session
                        // By the environment alone: XDebuggerManagerImpl.startSession(environment,
                        // starter) hands the runner's ExecutionEnvironment to the session it creates
                        // (XDebugSessionImpl's executionEnvironment), so ours carries `env` (or a
                        // copy with its execution id). A `runProfile ===` fallback took another run of
                        // the same configuration, started by the user while we waited, for ours.
                        if (sameLaunch(session.executionEnvironment, env)) {
                            ours.set(debugProcess)
                            started.complete(session)
                        }
                    }
                })
                watchStartFailure(connection, env, started)
                // Set before starting so an exception thrown during start-up is caught too.
                val exceptionStop = if (request.boolOr("stop_on_exception", false)) Breakpoints.addStopOnException(project) else null
                // Until a session owns it, the project's close cleanup must know it: a close during the
                // before-run build would otherwise save it into the workspace (re-check audit R2).
                exceptionStop?.let { ProjectCleanup.ownBreakpoint(project, it) }
                try {
                    val session = untilStarted(project, env, stopStarted = {
                        // Started just as the last caller gave up: stopped as RunOps.stop does, off the EDT.
                        ours.get()?.let { p -> stopProcess(p.processHandler) }
                    }) {
                        startOnEdt {
                            refuseWhileStarting(project, name, env, debug)
                            ProgramRunnerUtil.executeConfiguration(env, false, true)
                        }
                        awaitUnlessDropped(project, env, name, scheduled, started)
                    }
                    Sessions.data(session).mode = "debug"
                    exceptionStop?.let {
                        Sessions.data(session).ownedBreakpoints.add(it)
                        ProjectCleanup.forgetBreakpoint(project, it)
                    }
                    // stop_on_entry has no portable meaning in the XDebugger API (the first user
                    // line is language and configuration specific); agents set a breakpoint instead.
                    Sessions.info(session)
                } catch (t: Throwable) {
                    exceptionStop?.let {
                        Breakpoints.removeQuietly(project, it)
                        ProjectCleanup.forgetBreakpoint(project, it)
                    }
                    throw t
                }
            } else {
                val started = CompletableDeferred<ProcessHandler>()
                val ours = java.util.concurrent.atomic.AtomicReference<ProcessHandler>()
                connection.subscribe(ExecutionManager.EXECUTION_TOPIC, object : ExecutionListener {
                    override fun processStarted(executorId: String, e: ExecutionEnvironment, handler: ProcessHandler) {
                        if (sameLaunch(e, env)) {
                            ours.set(handler)
                            started.complete(handler)
                        }
                    }

                    // The platform calls the 3-argument form (its default delegates to the 2-argument one).
                    override fun processNotStarted(executorId: String, e: ExecutionEnvironment, cause: Throwable?) {
                        if (sameLaunch(e, env)) started.completeExceptionally(OpException(ErrorKind.FAILED, notStarted("run configuration '$name' did not start", cause)))
                    }
                })
                val handler = untilStarted(project, env, stopStarted = {
                    ours.get()?.let { h -> stopProcess(h) }
                }) {
                    startOnEdt {
                        refuseWhileStarting(project, name, env, debug)
                        ProgramRunnerUtil.executeConfiguration(env, false, true)
                    }
                    awaitUnlessDropped(project, env, name, scheduled, started)
                }
                Sessions.Runs.info(Sessions.Runs.add(project, name, handler))
            }
        } finally {
            connection.disconnect()
        }
    }

    /**
     * Runs [start] and, when the wait is cancelled (every caller of this launch gave up: its
     * budget ended), stops what it started ([abandon]) before the cancellation goes on.
     */
    private suspend fun <T> untilStarted(project: Project, env: ExecutionEnvironment, stopStarted: () -> Unit, start: suspend () -> T): T =
        try {
            start()
        } catch (c: CancellationException) {
            abandon(project, env)
            stopStarted()
            throw c
        }

    /**
     * Our abandoned starts that have not ended yet, per project: [abandon] adds one, its watch
     * completes and removes it when ExecutionManagerImpl reports the start's end. Weak keys: a
     * closed project's entries go with it.
     */
    private val abandonedStarts = java.util.WeakHashMap<Project, MutableSet<CompletableDeferred<Unit>>>()

    /**
     * An earlier start of ours that nobody waits for any more may still be in its before-run build:
     * ExecutionManagerImpl keeps it in `inProgress` until its processNotStarted (file id
     * 1646897139), so ProgramRunnerUtil would start nothing now, and [refuseWhileStarting] would
     * tell the agent the IDE "is still starting" a run that will never come (it is skipped after
     * the build). So while the IDE reports [env]'s configuration as starting and such a start of
     * ours is pending, this waits for that start to end (skipped, or its late process stopped),
     * within the caller's budget; then the launch goes on as usual. When the IDE no longer reports
     * a start in progress, there is nothing to wait for, whatever our bookkeeping says.
     */
    private suspend fun awaitAbandonedStarts(project: Project, env: ExecutionEnvironment) {
        while (true) {
            val pending = synchronized(abandonedStarts) { abandonedStarts[project]?.toList().orEmpty() }
            if (pending.isEmpty()) return
            if (!Ide.onEdt { ExecutionManager.getInstance(project).isStarting(env) }) return
            kotlinx.coroutines.withTimeoutOrNull(ABANDONED_RECHECK_MS) { pending.forEach { it.await() } }
        }
    }

    private const val ABANDONED_RECHECK_MS = 250L

    /**
     * Stops a start nobody waits for any more. The platform's Stop action stops only processes
     * (StopAction.actionPerformed → ExecutionManagerImpl.stopProcess(descriptor): `destroyProcess`
     * off the EDT, StopAction.java @0067cfdc); a start in its before-run tasks has none yet. So:
     *  - the environment is marked `EXECUTION_SKIP_RUN`: ExecutionManagerImpl.doRun, which runs
     *    once the before-run tasks succeed, then publishes processNotStarted instead of starting the
     *    runner (ExecutionManagerImpl.kt, file id 1646897139, `allowSkipRun`);
     *  - a process of this start that comes anyway (the before-run tasks had already ended) is
     *    stopped as the Stop action stops it ([stopProcess]), whenever ExecutionManagerImpl
     *    publishes its processStarted. The watch has no time limit: it ends with the start itself
     *    (processStarted or processNotStarted: doStartRunProfile publishes one of them for every
     *    start it scheduled, file id 1646897139) or when the project closes (the connection is the
     *    project's message bus's). A program the agent gave up on never keeps running because its
     *    process came late.
     * The build itself runs to its end: the platform hands no handle on it to a caller (its Stop is
     * in the Build tool window).
     */
    private fun abandon(project: Project, env: ExecutionEnvironment) {
        env.putUserData(ExecutionManager.EXECUTION_SKIP_RUN, true)
        val pending = CompletableDeferred<Unit>()
        synchronized(abandonedStarts) { abandonedStarts.getOrPut(project) { HashSet() } += pending }
        val watch = project.messageBus.connect()
        val ended = java.util.concurrent.atomic.AtomicBoolean(false)
        fun end() {
            if (!ended.compareAndSet(false, true)) return
            watch.disconnect()
            // The start is over: the mark has done its work. A late process got a Run/Debug tab
            // (doStartRunProfile shows the content before processStarted), whose Rerun reuses this
            // environment, and doRun would skip it silently while the mark stays (re-check audit N3).
            env.putUserData(ExecutionManager.EXECUTION_SKIP_RUN, null)
            synchronized(abandonedStarts) {
                abandonedStarts[project]?.let { if (it.remove(pending) && it.isEmpty()) abandonedStarts.remove(project) }
            }
            pending.complete(Unit)
        }
        watch.subscribe(ExecutionManager.EXECUTION_TOPIC, object : ExecutionListener {
            override fun processStarted(executorId: String, e: ExecutionEnvironment, handler: ProcessHandler) {
                if (!sameLaunch(e, env)) return
                stopProcess(handler)
                end()
            }

            override fun processNotStarted(executorId: String, e: ExecutionEnvironment, cause: Throwable?) {
                if (sameLaunch(e, env)) end()
            }
        })
    }

    /**
     * As ExecutionManagerImpl.stopProcess(ProcessHandler), the Stop action's (ExecutionManagerImpl.kt,
     * file id 1646897139, companion `stopProcess`): off the EDT — it launches the work on
     * Dispatchers.Default, since a handler's destroy may block (a soft kill that waits) — detach
     * where that is the handler's default, else destroy. Returns at once, as the action does.
     */
    private fun stopProcess(handler: ProcessHandler) {
        ApplicationManager.getApplication().executeOnPooledThread { stopNow(handler) }
    }

    /**
     * The choice ExecutionManagerImpl.stopProcess makes, on the calling thread (never the EDT).
     * Not ported: its TERMINATION_REQUESTED mark and a second Stop's force kill of a KillableProcess.
     */
    private fun stopNow(handler: ProcessHandler) {
        if (handler.isProcessTerminated) return
        if (handler.detachIsDefault()) handler.detachProcess() else handler.destroyProcess()
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

    /**
     * Whether the runner handed our start to the execution manager: ExecutionManagerImpl.doStartRunProfile
     * (reached from the runner's `startRunProfile`) publishes processStartScheduled synchronously,
     * before the before-run tasks (ExecutionManagerImpl.kt, file id 1646897139). A copy of our
     * environment (a runner other than the builder's: `ExecutionEnvironmentBuilder(env).runner(…)`,
     * then a new execution id) is taken for ours by its settings: a wrong match only means the
     * wait below keeps its old behaviour.
     */
    private fun watchStartScheduled(connection: com.intellij.util.messages.MessageBusConnection, env: ExecutionEnvironment): java.util.concurrent.atomic.AtomicBoolean {
        val scheduled = java.util.concurrent.atomic.AtomicBoolean(false)
        connection.subscribe(ExecutionManager.EXECUTION_TOPIC, object : ExecutionListener {
            override fun processStartScheduled(executorId: String, e: ExecutionEnvironment) {
                if (sameLaunch(e, env) || (env.runnerAndConfigurationSettings != null && e.runnerAndConfigurationSettings === env.runnerAndConfigurationSettings)) {
                    scheduled.set(true)
                }
            }
        })
        return scheduled
    }

    /** Between the two EDT checks that must both find the start gone before it counts as dropped. */
    internal const val DROPPED_RECHECK_MS = 250L

    /**
     * Awaits [started], unless the IDE drops the start without a word. ExecutionManagerImpl.executeConfiguration
     * holds the start in its `inProgress` set (what `isStarting(env)` asks) while
     * RunManagerImpl.canRunConfiguration runs, then, in one EDT task (`finishOnUiThread(nonModal)`),
     * removes it and calls `runner.execute(env)`; the runner's startRunProfile adds it again and
     * publishes processStartScheduled (doStartRunProfile). When `runner.execute` throws an
     * ExecutionException (the configuration's `getState()` failed) the error is only shown
     * (handleProgramRunnerExecutionError → ProgramRunnerUtil.handleExecutionError), and a null
     * state makes BaseProgramRunner.execute return before startRunProfile (GenericProgramRunner/
     * BaseProgramRunner, file ids 11698888617, 29929999966): no processNotStarted, no
     * processStarted, ever. So the wait ends at once instead of after the whole launch and build
     * budget when the start is gone.
     *
     * "Gone" is decided on the EDT, non-modal, never by elapsed time (re-check audit R1): a check
     * off the EDT sees the middle of that one EDT task, where `getState()` (DefaultJavaProgramRunner,
     * GenericProgramRunner: file ids 3885335931, 29515011408) may take seconds on a cold IDE or
     * open a modal dialog or modal progress, and where a refused `canRunConfiguration` opens
     * RunDialog.editConfiguration modally and may start the same environment afterwards. A
     * runnable posted with ModalityState.nonModal() runs only between whole EDT tasks and never in
     * a modal dialog's loop, so it cannot see that gap. Two such checks [DROPPED_RECHECK_MS] apart
     * must agree (a runner that posts its startRunProfile once more). The off-EDT poll is only a
     * cheap pre-filter. On that verdict the start is also [abandon]ed, in the same EDT task: if it
     * comes after all, it is skipped or its process stopped, so "did not start" stays true.
     */
    private suspend fun <T> awaitUnlessDropped(
        project: Project,
        env: ExecutionEnvironment,
        name: String,
        scheduled: java.util.concurrent.atomic.AtomicBoolean,
        started: CompletableDeferred<T>,
    ): T = kotlinx.coroutines.coroutineScope scope@{
        val watch = this@scope.launch {
            val manager = ExecutionManager.getInstance(project)
            fun gone() = !started.isCompleted && !scheduled.get() && !manager.isStarting(env)
            var agreeing = 0
            while (!started.isCompleted && !scheduled.get()) {
                if (!gone()) {
                    agreeing = 0
                    kotlinx.coroutines.delay(50)
                    continue
                }
                val dropped = Ide.onEdt(ModalityState.nonModal()) {
                    if (!gone()) {
                        agreeing = 0
                        false
                    } else {
                        (++agreeing >= 2).also { if (it) abandon(project, env) }
                    }
                }
                if (dropped) {
                    started.completeExceptionally(OpException(ErrorKind.FAILED,
                        "the IDE did not start '$name': its runner gave up before starting anything and reported no reason here " +
                            "(the IDE shows it in the Run/Debug tool window or a notification; often the configuration cannot " +
                            "be prepared, e.g. an unresolved module or Gradle project). Fix the configuration in the IDE, then retry"))
                    break
                }
                kotlinx.coroutines.delay(if (agreeing > 0) DROPPED_RECHECK_MS else 50)
            }
        }
        try {
            started.await()
        } finally {
            watch.cancel()
        }
    }

    /** The platform's reason, when it gives one, saves the agent a trip to the IDE. */
    private fun notStarted(what: String, cause: Throwable?): String =
        cause?.message?.takeIf { it.isNotBlank() }?.let { "$what: $it" } ?: what

    /**
     * Whether [a] is our launch's environment [b]. The execution id alone is not enough: before-run
     * tasks start their own environments with the caller's id — "Run Another Configuration"
     * (RunConfigurationBeforeRunProvider.doExecuteTask: `environment.setExecutionId(env.getExecutionId())`,
     * file id 240386848), Maven's and external systems' (Gradle) before-run tasks likewise (file ids
     * 8426592767, 530054872) — so their debug sessions and processes would pass for ours. The
     * platform tells its own apart by the environment object (doRunTask: `environment.equals(
     * environmentLocal)`, ExecutionEnvironment defines no equals); a copy of ours keeps our
     * RunnerAndConfigurationSettings (ExecutionEnvironment.getRunnerAndConfigurationSettings, file
     * id 8789149961), which a before-run task's environment never has.
     */
    private fun sameLaunch(a: ExecutionEnvironment?, b: ExecutionEnvironment): Boolean =
        a != null && (a === b || (a.executionId == b.executionId && a.runnerAndConfigurationSettings === b.runnerAndConfigurationSettings))

    fun sessions(project: Project): List<Map<String, Any?>> =
        Sessions.ofProject(project).map { Sessions.info(it) } + Sessions.Runs.ofProject(project).map { Sessions.Runs.info(it) }

    /**
     * Ends a session as the IDE's Stop button does: StopAction hands the tab's process handler to
     * ExecutionManagerImpl.stopProcess, which, off the EDT (a coroutine on Dispatchers.Default:
     * a handler's destroy may block), detaches when the handler's detachIsDefault() (Java's
     * attach: RemoteDebugProcessHandler, file id 8088963667) and destroys it otherwise
     * (ExecutionManagerImpl.kt, file id 1646897139, companion `stopProcess`). XDebugSession.stop()
     * would make the same choice but call the handler on the caller's thread (XDebugSessionImpl.kt,
     * file id 3494500063), the EDT. An attached session must leave its process running whatever
     * its handler prefers (Python's attach handler says false: PyRemoteDebugProcessHandler, file
     * id 551540466), so it is detached explicitly, as ProcessHandler.detachProcess does for the
     * Disconnect case. The op answers once the handler was told.
     */
    suspend fun stop(sessionId: String) {
        Sessions.Runs.find(sessionId)?.let { run ->
            offEdt { stopNow(run.handler) }
            return
        }
        val session = Sessions.find(sessionId)
        if (session.isStopped) return
        Sessions.data(session).values.clear()
        val handler = session.debugProcess.processHandler
        if (Sessions.data(session).attachedPid != null) {
            offEdt { if (!handler.isProcessTerminated) handler.detachProcess() }
            return
        }
        offEdt { stopNow(handler) }
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
        val handler = session.debugProcess.processHandler
        offEdt { if (!handler.isProcessTerminated) handler.destroyProcess() }
    }

    /**
     * Runs a process handler's [block] (destroy, detach) on a pooled thread, never the EDT, as
     * ExecutionManagerImpl.stopProcess does (file id 1646897139: `GlobalScope.childScope(…,
     * Dispatchers.Default).launch { … destroyProcess() }`), and waits for it: the op answers once
     * the handler was told. IO, not Default: a handler's destroy may block.
     */
    private suspend fun offEdt(block: () -> Unit) = withContext(Dispatchers.IO) { block() }
}
