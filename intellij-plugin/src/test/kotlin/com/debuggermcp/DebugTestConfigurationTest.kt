package com.debuggermcp

import com.debuggermcp.adapter.Sessions
import com.debuggermcp.adapter.TestOps
import com.debuggermcp.fakes.FakeApplication
import com.debuggermcp.fakes.FakeConfigurationType
import com.debuggermcp.fakes.FakeProject
import com.debuggermcp.fakes.FakeRunManager
import com.debuggermcp.fakes.FakeSession
import com.debuggermcp.fakes.FakeSettings
import com.intellij.execution.RunnerAndConfigurationSettings
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout

/**
 * debug_test and the user's run configurations (issue 27 audit, B1): RunManagerImpl keys
 * configurations by type and name, so registering the producers' configuration for a test
 * replaced a user's configuration of the same type and name, and removing ours when the session
 * ended deleted the user's for good. [FakeRunManager] ports that overwrite-by-unique-id.
 */
@Timeout(30)
class DebugTestConfigurationTest {
    private val app = FakeApplication.install()
    private val project = FakeProject()
    private val pytest = FakeConfigurationType("Python tests")
    /** The user's own configuration, named as the producer names one for this test (with the user's options). */
    private val users = FakeSettings("pytest in test_x.py", pytest)
    private val runManager = FakeRunManager.install(project, users)
    private val session = FakeSession(project, app, null)
    private val launched = mutableListOf<RunnerAndConfigurationSettings>()

    @AfterEach
    fun clean() {
        app.dispose()
        assertEquals(emptyList<String>(), app.violations, "threading contracts broken")
    }

    private fun debug(existing: RunnerAndConfigurationSettings?, created: RunnerAndConfigurationSettings?) = runBlocking {
        TestOps.debugFromContext(project, existing, created, stopOnException = false) { settings, _ ->
            // What the launch starts: the settings object, and the RunManager holds it at that moment.
            assertSame(settings, runManager.allSettings.firstOrNull { it === settings }, "started a configuration the RunManager does not hold")
            launched += settings
            Sessions.info(session)
        }
    }

    private fun waitUntil(what: String, test: () -> Boolean) {
        val end = System.nanoTime() + 5_000_000_000
        while (!test()) {
            check(System.nanoTime() < end) { "timed out waiting until $what" }
            Thread.sleep(10)
        }
    }

    @Test
    fun `a new configuration for the test leaves the user's one of the same type and name in place, and only ours is removed`() {
        val created = FakeSettings("pytest in test_x.py", pytest)
        debug(existing = null, created = created)
        assertSame(created, launched.single())
        assertEquals(listOf("pytest in test_x.py", "pytest in test_x.py (1)"), runManager.allSettings.map { it.name })
        assertSame(users, runManager.allSettings.first())
        assertEquals(setOf(created), runManager.temporary)

        session.ended()
        waitUntil("our configuration is removed") { runManager.allSettings.size == 1 }
        assertEquals(listOf<RunnerAndConfigurationSettings>(users), runManager.allSettings)
        assertEquals("pytest in test_x.py", users.name)
    }

    @Test
    fun `an existing configuration for the test is started as it is and never removed`() {
        debug(existing = users, created = null)
        assertSame(users, launched.single())
        session.ended()
        // The stop listener (if one were added) runs through invokeLater: let the EDT drain.
        runBlocking { com.debuggermcp.adapter.Ide.onEdt { } }
        assertEquals(listOf<RunnerAndConfigurationSettings>(users), runManager.allSettings)
        assertEquals(emptySet<RunnerAndConfigurationSettings>(), runManager.temporary)
    }

    @Test
    fun `a debug_test whose budget ends while it starts leaves no configuration of ours behind (audit 27b F1)`() {
        val created = FakeSettings("pytest in test_x.py", pytest)
        val outcome = runBlocking {
            // OpRunner applies Rust's budget_ms with withTimeout: the launch is cancelled while it waits.
            runCatching {
                kotlinx.coroutines.withTimeout(300) {
                    TestOps.debugFromContext(project, null, created, stopOnException = false) { _, _ -> kotlinx.coroutines.awaitCancellation() }
                }
            }
        }
        assertEquals(true, outcome.exceptionOrNull() is kotlinx.coroutines.TimeoutCancellationException, "$outcome")
        // Left in place, the next debug_test would take it for the user's own and never remove it.
        assertEquals(listOf<RunnerAndConfigurationSettings>(users), runManager.allSettings)
        assertEquals(emptySet<RunnerAndConfigurationSettings>(), runManager.temporary)
    }

    /**
     * The user's own selection in the toolbar: RunManagerImpl.setTemporaryConfiguration selects our
     * configuration (select.run.configuration.from.context, on by default) and removeConfigurations
     * then selects "any" configuration, the first one ([FakeRunManager]), not the user's.
     */
    private fun userSelected(): Pair<FakeRunManager, FakeSettings> {
        val app = FakeSettings("App")
        val manager = FakeRunManager.install(project, users, app)
        manager.selectedConfiguration = app
        return manager to app
    }

    @Test
    fun `the configuration the user selected is selected again after debug_test`() {
        val (manager, userApp) = userSelected()
        val created = FakeSettings("pytest in test_x.py", pytest)
        runBlocking {
            TestOps.debugFromContext(project, null, created, stopOnException = false) { settings, _ ->
                launched += settings
                Sessions.info(session)
            }
        }
        // While the test runs, the IDE shows ours selected, as after a gutter click.
        assertSame(created, manager.selectedConfiguration)
        session.ended()
        waitUntil("our configuration is removed") { manager.allSettings.none { it === created } }
        assertSame(userApp, manager.selectedConfiguration, "the user's selected run configuration was lost")
        assertEquals(emptyList<String>(), manager.errors)
    }

    @Test
    fun `the configuration the user selected is selected again after a debug_test whose budget ends`() {
        val (manager, userApp) = userSelected()
        val created = FakeSettings("pytest in test_x.py", pytest)
        val outcome = runBlocking {
            runCatching {
                kotlinx.coroutines.withTimeout(300) {
                    TestOps.debugFromContext(project, null, created, stopOnException = false) { _, _ -> kotlinx.coroutines.awaitCancellation() }
                }
            }
        }
        assertEquals(true, outcome.exceptionOrNull() is kotlinx.coroutines.TimeoutCancellationException, "$outcome")
        assertEquals(listOf<RunnerAndConfigurationSettings>(users, userApp), manager.allSettings)
        assertSame(userApp, manager.selectedConfiguration, "the user's selected run configuration was lost")
    }

    @Test
    fun `a selection the user changed during the test is left as the user made it`() {
        val (manager, userApp) = userSelected()
        val created = FakeSettings("pytest in test_x.py", pytest)
        runBlocking {
            TestOps.debugFromContext(project, null, created, stopOnException = false) { _, _ -> Sessions.info(session) }
        }
        manager.selectedConfiguration = users
        session.ended()
        waitUntil("our configuration is removed") { manager.allSettings.none { it === created } }
        assertSame(users, manager.selectedConfiguration)
        assertEquals(listOf<RunnerAndConfigurationSettings>(users, userApp), manager.allSettings)
    }
}
