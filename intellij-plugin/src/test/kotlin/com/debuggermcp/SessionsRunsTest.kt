package com.debuggermcp

import com.debuggermcp.adapter.Sessions
import com.debuggermcp.fakes.FakeProcessHandler
import com.debuggermcp.fakes.FakeProject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.lang.ref.WeakReference

/** Run-mode processes the agent launched (`r1`, …) and the projects they ran for (issue 27 N3). */
@Timeout(30)
class SessionsRunsTest {
    private fun launchIn(handler: FakeProcessHandler): Pair<WeakReference<FakeProject>, String> {
        val project = FakeProject("/work/closed")
        val run = Sessions.Runs.add(project, "App", handler)
        assertEquals(listOf(run.id), Sessions.Runs.ofProject(project).map { it.id })
        return WeakReference(project) to run.id
    }

    @Test
    fun `a run does not keep the project it ran for alive once the IDE let go of it (N3)`() {
        val handler = FakeProcessHandler(detachDefault = false, destroyKillsTarget = true)
        val (project, id) = launchIn(handler)
        // The user closed the project; nobody lists runs (no ofProject call) meanwhile.
        var tries = 0
        while (project.get() != null && tries++ < 100) {
            System.gc()
            Thread.sleep(20)
        }
        assertNull(project.get(), "the closed project is still held by Sessions.Runs")
        // The run itself is still found by its id while its process runs, and stops as before.
        assertTrue(Sessions.Runs.find(id) != null)
        handler.destroyProcess()
        Sessions.Runs.ofProject(FakeProject("/work/other"))
        assertNull(Sessions.Runs.find(id), "an ended run of a gone project stayed registered")
    }
}
