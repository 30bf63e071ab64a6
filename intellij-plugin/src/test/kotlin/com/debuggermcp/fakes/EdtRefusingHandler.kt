package com.debuggermcp.fakes

import com.intellij.execution.process.ProcessHandler
import java.util.concurrent.CopyOnWriteArrayList

/**
 * A process handler whose destroy/detach refuse the EDT, as ExecutionManagerImpl.stopProcess runs
 * them (ExecutionManagerImpl.kt, file id 1646897139, companion `stopProcess`: a coroutine on
 * Dispatchers.Default); ProcessHandler.java's state machine: destroy/detach act once, while
 * running, then the handler is terminated (@ae187b7fc867815d865a030173cc4189d61dd958). `how`
 * lists what ended it.
 */
class EdtRefusingHandler(private val app: FakeApplication, private val detachDefault: Boolean = false) : ProcessHandler() {
    @Volatile var state = "running"
    val how = CopyOnWriteArrayList<String>()
    override fun detachIsDefault(): Boolean = detachDefault
    override fun isProcessTerminated(): Boolean = state == "terminated"
    override fun isProcessTerminating(): Boolean = false
    override fun destroyProcess() = end("destroy")
    override fun detachProcess() = end("detach")

    private fun end(what: String) {
        app.requireBackground("ProcessHandler.${what}Process (ExecutionManagerImpl.stopProcess runs it on Dispatchers.Default)")
        if (state != "running") return
        how += what
        state = "terminated"
    }
}
