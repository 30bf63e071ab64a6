package com.debuggermcp

import com.debuggermcp.adapter.RunOps
import com.debuggermcp.adapter.Sessions
import com.debuggermcp.fakes.EdtRefusingHandler
import com.debuggermcp.fakes.FakeApplication
import com.debuggermcp.fakes.FakeProject
import com.debuggermcp.fakes.FakeSession
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

    @Test
    fun `stopping a run destroys its process off the EDT`() {
        val handler = EdtRefusingHandler(app)
        val run = Sessions.Runs.add(project, "App", handler)
        runBlocking { RunOps.stop(run.id) }
        assertEquals(listOf("destroy"), handler.how.toList(), "the run's process was not destroyed")
    }

    @Test
    fun `stopping a launched debug session destroys its process off the EDT`() {
        val handler = EdtRefusingHandler(app)
        val session = FakeSession(project, app, null, handler = handler)
        runBlocking { RunOps.stop(Sessions.id(session)) }
        assertEquals(listOf("destroy"), handler.how.toList(), "the session's process was not destroyed")
    }

    @Test
    fun `stopping an attached session whose handler detaches by default detaches it off the EDT`() {
        // Java's attach handler (RemoteDebugProcessHandler, file id 8088963667): detachIsDefault true.
        val handler = EdtRefusingHandler(app, detachDefault = true)
        val session = FakeSession(project, app, null, handler = handler)
        Sessions.data(session).attachedPid = 1
        runBlocking { RunOps.stop(Sessions.id(session)) }
        assertEquals(listOf("detach"), handler.how.toList())
    }

    @Test
    fun `stopping an attached session whose handler destroys by default detaches it off the EDT`() {
        // Python's attach handler (PyRemoteDebugProcessHandler, file id 551540466): detachIsDefault false.
        val handler = EdtRefusingHandler(app, detachDefault = false)
        val session = FakeSession(project, app, null, handler = handler)
        Sessions.data(session).attachedPid = 1
        runBlocking { RunOps.stop(Sessions.id(session)) }
        assertEquals(listOf("detach"), handler.how.toList())
    }

    @Test
    fun `terminating an attached session destroys its handler off the EDT`() {
        val child = ProcessBuilder("sleep", "30").start()
        try {
            val handler = EdtRefusingHandler(app, detachDefault = true)
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
