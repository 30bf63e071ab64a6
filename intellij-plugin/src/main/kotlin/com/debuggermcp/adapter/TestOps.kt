package com.debuggermcp.adapter

import com.debuggermcp.json.JsonArgs
import com.intellij.execution.RunManager
import com.intellij.execution.RunnerAndConfigurationSettings
import com.intellij.execution.actions.ConfigurationContext
import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.application.ModalityState
import com.intellij.openapi.project.Project
import com.intellij.openapi.vfs.VirtualFile
import com.intellij.psi.PsiElement
import com.intellij.psi.PsiFile
import com.intellij.psi.PsiManager
import com.intellij.psi.PsiNamedElement
import com.intellij.psi.search.FilenameIndex
import com.intellij.psi.search.GlobalSearchScope
import com.intellij.psi.util.PsiTreeUtil
import com.intellij.xdebugger.XDebugSessionListener

/**
 * Op `debug_test` (docs/CALLBACK_TABLE.md): debug one test by id without a run configuration.
 * The id is resolved to the test's PSI element, the platform's run configuration producers make a
 * configuration for it (what the gutter's "Debug 'test_x'" does: [ConfigurationContext] →
 * `RunConfigurationProducer`): an existing configuration for the test is started as it is;
 * otherwise a new one is registered as a *temporary* configuration under a unique name, started
 * through [RunOps.launchSettings], and removed from the RunManager when the debug session stops.
 *
 * Ids: pytest `path/test_x.py::Class::test_y[param]` (file relative to the project or `file`),
 * JUnit/Kotlin `pkg.Class#method` or `pkg.Class` (found by file name `Class.java`/`Class.kt`).
 */
internal object TestOps {
    suspend fun debugTest(project: Project, request: JsonArgs): Map<String, Any?> {
        val testId = request.string("test_id")
        // A test file the agent just wrote is found by refreshing the VFS here, on the op's
        // background thread and outside any read action: RefreshQueueImpl refuses a synchronous
        // refresh under the read lock ("Do not perform a synchronous refresh under read lock",
        // LOG.error and no refresh: platform/platform-impl/src/com/intellij/openapi/vfs/newvfs/
        // RefreshQueueImpl.java, file id 5802257166), so the file would be "not found".
        val path = testFilePath(project, testId, request.stringOrNull("file"))
        val vf = path?.let { runCatching { Ide.file(it) }.getOrNull() ?: notFound("no test file at $it") }
        // FilenameIndex, PSI and the run configuration producers need the indexes: smart read
        // actions wait for indexing instead of throwing IndexNotReadyException.
        val element = Ide.smartRead(project) { findTest(project, testId, vf) }
            ?: notFound("no test '$testId' in the project; ids: 'tests/test_x.py::test_y', 'pkg.Class#method', 'pkg.Class'")
        // BaseRunConfigurationAction.actionPerformed (platform/lang-api/src/com/intellij/execution/
        // actions/BaseRunConfigurationAction.java, file id 11919042224) asks the context for an
        // existing configuration first and runs that one as it is; only without one does it take
        // the producers' new configuration (ConfigurationContext.findExisting, file id 4506837956).
        val (existing, created) = Ide.smartRead(project) {
            val context = ConfigurationContext(element)
            val found = context.findExisting()
            found to (if (found == null) context.configuration else null)
        }
        if (existing == null && created == null) unsupported("no run configuration producer of this IDE can run '$testId' as a test")
        return debugFromContext(project, existing, created, request.boolOr("stop_on_exception", false)) { settings, launch ->
            RunOps.launchSettings(project, settings, launch)
        }
    }

    /**
     * Starts [existing] (the user's configuration for this test, never changed or removed) or else
     * [created] (the producers' new one), which is registered as a temporary configuration under a
     * name no configuration of its type has and removed, that object alone, when its session ends.
     *
     * RunManagerImpl.doAddConfiguration (file id 2834752940) keys configurations by
     * RunnerAndConfigurationSettingsImpl.getUniqueID, `"${type.displayName}.${name}"` (file id
     * 41746116120), and `idToSettings.put(newId, settings)` replaces a user's configuration of the
     * same type and name; removing ours afterwards then deleted the user's for good. So the new
     * one gets a unique name first, as the producers' callers do before addConfiguration
     * (RunManager.setUniqueNameIfNeeded, RunManager.kt, file id 54660514280), and the launch gets
     * the settings object, not a name another configuration may share.
     */
    internal suspend fun debugFromContext(
        project: Project,
        existing: RunnerAndConfigurationSettings?,
        created: RunnerAndConfigurationSettings?,
        stopOnException: Boolean,
        launch: suspend (RunnerAndConfigurationSettings, JsonArgs) -> Map<String, Any?>,
    ): Map<String, Any?> {
        val settings = existing ?: created ?: unsupported("no run configuration for this test")
        val ours = existing == null
        // The configuration selected in the toolbar before ours was registered (see [removeOurs]).
        val userSelection: RunnerAndConfigurationSettings? = if (ours) {
            // A model change: never inside someone else's modal dialog.
            Ide.onEdt(ModalityState.nonModal()) {
                val runManager = RunManager.getInstance(project)
                val selected = runManager.selectedConfiguration
                runManager.setUniqueNameIfNeeded(settings)
                runManager.setTemporaryConfiguration(settings)
                selected
            }.also {
                // Removed before the project is saved on close, should the session still run then.
                ProjectCleanup.ownConfiguration(project, settings, it)
            }
        } else null
        val request = JsonArgs(mapOf("mode" to "debug", "stop_on_exception" to stopOnException))
        val info = try {
            launch(settings, request)
        } catch (t: Throwable) {
            if (ours) remove(project, settings, userSelection)
            throw t
        }
        if (!ours) return info
        val session = Sessions.find(info["id"] as String)
        session.addSessionListener(object : XDebugSessionListener {
            override fun sessionStopped() {
                // Listeners run on debugger threads; the RunManager is changed on the EDT.
                ApplicationManager.getApplication().invokeLater({ removeOurs(project, settings, userSelection) }, ModalityState.nonModal())
            }
        })
        // Stopped before the listener was added (a test that ends at once): remove it now.
        if (session.isStopped) remove(project, settings, userSelection)
        return info
    }

    private suspend fun remove(project: Project, settings: RunnerAndConfigurationSettings, userSelection: RunnerAndConfigurationSettings?) {
        Ide.cleanup {
            try {
                Ide.onEdt(ModalityState.nonModal()) { removeOurs(project, settings, userSelection) }
            } catch (_: Exception) {
                // Already removed (the user, or the session-stop listener); nothing left to clean.
            }
        }
    }

    /**
     * Removes our temporary configuration (EDT) and gives the toolbar back the configuration the
     * user had selected. RunManagerImpl.setTemporaryConfiguration selects the configuration it
     * adds when `shouldSetRunConfigurationFromContext()` (the "select.run.configuration.from.context"
     * registry key, on by default), as a gutter click's run does; removeConfigurations then sees the
     * selected configuration go and picks another itself — `selectAnyConfiguration()`, the first
     * managed one, in older versions, none (`selectedConfiguration = null`) in newer ones
     * (RunManagerImpl.kt, file ids 2834752940 and 3499342101). The user's choice was lost either
     * way. So while ours is still the selected one, the user's is selected again first, through the
     * same setter the toolbar's combo box uses, and only if the RunManager still holds it (the
     * setter LOG.errors "must be added before selecting" otherwise); a selection the user changed
     * meanwhile is left alone.
     *
     * Nothing is removed once the user kept the configuration: the run widget's "Save '<name>'
     * Configuration" (RunManagerImpl.makeStable, same files) sets `settings.isTemporary = false` on
     * this same object and keeps it registered, so it is the user's from then on. Also a no-op once
     * the project is gone or the configuration was removed already.
     */
    internal fun removeOurs(project: Project, settings: RunnerAndConfigurationSettings, userSelection: RunnerAndConfigurationSettings?) {
        ProjectCleanup.forgetConfiguration(project, settings)
        if (project.isDisposed || !settings.isTemporary) return
        val runManager = RunManager.getInstance(project)
        if (runManager.allSettings.none { it === settings }) return
        if (runManager.selectedConfiguration === settings && (userSelection == null || runManager.allSettings.any { it === userSelection })) {
            runManager.selectedConfiguration = userSelection
        }
        runManager.removeConfiguration(settings)
    }

    private fun split(testId: String): Pair<String, String?> = when {
        "::" in testId -> testId.substringBefore("::") to testId.substringAfterLast("::").substringBefore("[")
        "#" in testId -> testId.substringBefore("#") to testId.substringAfter("#").substringBefore("(")
        else -> testId to null
    }

    /** The test file's path when the id (or `file`) names one; null for a class name. */
    private fun testFilePath(project: Project, testId: String, file: String?): String? {
        val container = split(testId).first
        return file ?: if ('/' in container || container.endsWith(".py")) "${Ide.projectRoot(project)}/$container" else null
    }

    /** The test's PSI element (in a read action): a named element inside the test's file, or the file itself. */
    private fun findTest(project: Project, testId: String, file: VirtualFile?): PsiElement? {
        val (container, member) = split(testId)
        val psiFile = fileOf(project, container, file) ?: return null
        val wanted = member ?: container.substringAfterLast('.').takeIf { !container.endsWith(".py") } ?: return psiFile
        return PsiTreeUtil.findChildrenOfType(psiFile, PsiNamedElement::class.java).firstOrNull { it.name == wanted }
            ?: if (member == null) psiFile else null
    }

    private fun fileOf(project: Project, container: String, file: VirtualFile?): PsiFile? {
        val psi = PsiManager.getInstance(project)
        if (file != null) return psi.findFile(file)
        // A class name: its file by name (index lookup, project sources only).
        val simple = container.substringAfterLast('.')
        val scope = GlobalSearchScope.projectScope(project)
        return listOf("$simple.java", "$simple.kt")
            .flatMap { FilenameIndex.getVirtualFilesByName(it, scope) }
            .firstNotNullOfOrNull { psi.findFile(it) }
    }
}
