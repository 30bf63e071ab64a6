// In ProgramRunnerUtil's package: the stub's hook is package-private (not API).
package com.intellij.execution

import com.debuggermcp.fakes.FakeApplication
import com.intellij.execution.runners.ExecutionEnvironment
import com.intellij.openapi.application.ModalityState
import com.intellij.openapi.util.Computable
import java.util.concurrent.CopyOnWriteArrayList
import java.util.function.BiConsumer

/**
 * What `ProgramRunnerUtil.executeConfiguration(env, showSettings, assignNewId)` sets going:
 * ExecutionManagerImpl.executeConfiguration (ExecutionManagerImpl.kt, file id 1646897139;
 * ProgramRunnerUtil.java, file id 7253371313). It returns at once; `RunManagerImpl.canRunConfiguration`
 * runs in a non-blocking read action on a pooled thread, then `finishOnUiThread(ModalityState.nonModal())`
 * assigns a new execution id (`if (assignNewId) effectiveEnvironment.assignNewExecutionId()`) and calls
 * `runner.execute(environment)`, here [runnerExecute]. A debug runner starts the debug session
 * (XDebuggerManager.startSession, `@RequiresEdt`: XDebuggerManager.java, file id 17088829854),
 * whose `processStarted` reaches XDebuggerManager.TOPIC later: the test decides when.
 */
class FakeExecutionManager(private val app: FakeApplication, private val runnerExecute: (ExecutionEnvironment) -> Unit) {
    /** Environments handed to the runner, in order. */
    val executed = CopyOnWriteArrayList<ExecutionEnvironment>()

    init {
        ProgramRunnerUtil.testExecutionManager = BiConsumer { environment, assignNewId ->
            // Starting a run saves documents and may edit the RunManager: a write-safe EDT context.
            app.requireWriteSafe("ProgramRunnerUtil.executeConfiguration")
            app.executeOnPooledThread {
                app.runReadAction(Computable { true }) // RunManagerImpl.canRunConfiguration
                app.invokeLater({
                    if (assignNewId) environment.assignNewExecutionId()
                    executed += environment
                    runnerExecute(environment)
                }, ModalityState.nonModal())
            }
        }
    }

    fun uninstall() {
        ProgramRunnerUtil.testExecutionManager = BiConsumer { _, _ -> throw UnsupportedOperationException("stub") }
    }
}
