package com.debuggermcp

import com.debuggermcp.adapter.RunOps
import com.debuggermcp.adapter.Sessions
import com.debuggermcp.fakes.FakeApplication
import com.debuggermcp.fakes.FakeProject
import com.debuggermcp.fakes.FakeSession
import com.intellij.execution.process.ProcessHandler
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.util.concurrent.TimeUnit

/**
 * Stopping a process as the Stop action does (issue 27 leftovers, item 2): StopAction →
 * ExecutionManagerImpl.stopProcess(handler) destroys or detaches the process off the EDT
 * (ExecutionManagerImpl.kt, file id 1646897139, companion `stopProcess`: a coroutine on
 * Dispatchers.Default), since a handler's destroy may block the UI (a soft kill that waits).
 */
@Timeout(30)
class StopOffEdtTest {
    private val app = FakeApplication.install()
    private val project = FakeProject()

    @AfterEach
    fun clean() {
        app.dispose()
        assertEquals(emptyList<String>(), app.violations, "threading contracts broken")
    }

    /**
     * A process handler that refuses the EDT, as the fake Application's contracts do elsewhere
     * (ProcessHandler.java's state machine: destroy/detach act once, while running, then the
     * handler is terminated, @ae187b7fc867815d865a030173cc4189d61dd958).
     */
    private inner class EdtRefusingHandler(private val detachDefault: Boolean = false) : ProcessHandler() {
        @Volatile var state = "running"
        val how = java.util.concurrent.CopyOnWriteArrayList<String>()
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

    @Test
    fun `stopping a run destroys its process off the EDT`() {
        val handler = EdtRefusingHandler()
        val run = Sessions.Runs.add(project, "App", handler)
        runBlocking { RunOps.stop(run.id) }
        assertEquals(listOf("destroy"), handler.how.toList(), "the run's process was not destroyed")
    }

    @Test
    fun `stopping a launched debug session destroys its process off the EDT`() {
        val handler = EdtRefusingHandler()
        val session = FakeSession(project, app, null, handler = handler)
        runBlocking { RunOps.stop(Sessions.id(session)) }
        assertEquals(listOf("destroy"), handler.how.toList(), "the session's process was not destroyed")
    }

    @Test
    fun `stopping an attached session whose handler detaches by default detaches it off the EDT`() {
        // Java's attach handler (RemoteDebugProcessHandler, file id 8088963667): detachIsDefault true.
        val handler = EdtRefusingHandler(detachDefault = true)
        val session = FakeSession(project, app, null, handler = handler)
        Sessions.data(session).attachedPid = 1
        runBlocking { RunOps.stop(Sessions.id(session)) }
        assertEquals(listOf("detach"), handler.how.toList())
    }

    @Test
    fun `stopping an attached session whose handler destroys by default detaches it off the EDT`() {
        // Python's attach handler (PyRemoteDebugProcessHandler, file id 551540466): detachIsDefault false.
        val handler = EdtRefusingHandler(detachDefault = false)
        val session = FakeSession(project, app, null, handler = handler)
        Sessions.data(session).attachedPid = 1
        runBlocking { RunOps.stop(Sessions.id(session)) }
        assertEquals(listOf("detach"), handler.how.toList())
    }

    @Test
    fun `terminating an attached session destroys its handler off the EDT`() {
        val child = ProcessBuilder("sleep", "30").start()
        try {
            val handler = EdtRefusingHandler(detachDefault = true)
            val session = FakeSession(project, app, null, handler = handler)
            Sessions.data(session).attachedPid = child.pid().toInt()
            runBlocking { RunOps.terminate(Sessions.id(session)) }
            assertTrue(child.waitFor(10, TimeUnit.SECONDS), "the attached process still runs")
            assertEquals(listOf("destroy"), handler.how.toList())
        } finally {
            child.destroyForcibly()
        }
    }
}
