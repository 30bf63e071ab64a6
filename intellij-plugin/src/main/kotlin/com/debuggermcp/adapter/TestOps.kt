package com.debuggermcp.adapter

import com.debuggermcp.json.JsonArgs
import com.intellij.execution.RunManager
import com.intellij.execution.RunnerAndConfigurationSettings
import com.intellij.execution.actions.ConfigurationContext
import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.application.ModalityState
import com.intellij.openapi.project.Project
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
 * `RunConfigurationProducer`), it is registered as a *temporary* configuration, started through
 * [RunOps.launch], and removed from the RunManager when the debug session stops.
 *
 * Ids: pytest `path/test_x.py::Class::test_y[param]` (file relative to the project or `file`),
 * JUnit/Kotlin `pkg.Class#method` or `pkg.Class` (found by file name `Class.java`/`Class.kt`).
 */
internal object TestOps {
    suspend fun debugTest(project: Project, request: JsonArgs): Map<String, Any?> {
        val testId = request.string("test_id")
        val element = Ide.read { findTest(project, testId, request.stringOrNull("file")) }
            ?: notFound("no test '$testId' in the project; ids: 'tests/test_x.py::test_y', 'pkg.Class#method', 'pkg.Class'")
        val settings = Ide.read { ConfigurationContext(element).configuration }
            ?: unsupported("no run configuration producer of this IDE can run '$testId' as a test")
        Ide.onEdt { RunManager.getInstance(project).setTemporaryConfiguration(settings) }
        val launch = JsonArgs(
            mapOf(
                "configuration" to settings.name,
                "mode" to "debug",
                "stop_on_exception" to request.boolOr("stop_on_exception", false),
            ),
        )
        val info = try {
            RunOps.launch(project, launch)
        } catch (t: Throwable) {
            remove(project, settings)
            throw t
        }
        val session = Sessions.find(info["id"] as String)
        session.addSessionListener(object : XDebugSessionListener {
            override fun sessionStopped() {
                // Listeners run on debugger threads; the RunManager is changed on the EDT.
                ApplicationManager.getApplication().invokeLater({ RunManager.getInstance(project).removeConfiguration(settings) }, ModalityState.any())
            }
        })
        // Stopped before the listener was added (a test that ends at once): remove it now.
        if (session.isStopped) remove(project, settings)
        return info
    }

    private suspend fun remove(project: Project, settings: RunnerAndConfigurationSettings) {
        try {
            Ide.onEdt { RunManager.getInstance(project).removeConfiguration(settings) }
        } catch (_: Exception) {
            // Already removed (the user, or the session-stop listener); nothing left to clean.
        }
    }

    /** The test's PSI element: a named element inside the test's file, or the file itself. */
    private fun findTest(project: Project, testId: String, file: String?): PsiElement? {
        val (container, member) = when {
            "::" in testId -> testId.substringBefore("::") to testId.substringAfterLast("::").substringBefore("[")
            "#" in testId -> testId.substringBefore("#") to testId.substringAfter("#").substringBefore("(")
            else -> testId to null
        }
        val psiFile = fileOf(project, container, file) ?: return null
        val wanted = member ?: container.substringAfterLast('.').takeIf { !container.endsWith(".py") } ?: return psiFile
        return PsiTreeUtil.findChildrenOfType(psiFile, PsiNamedElement::class.java).firstOrNull { it.name == wanted }
            ?: if (member == null) psiFile else null
    }

    private fun fileOf(project: Project, container: String, file: String?): PsiFile? {
        val psi = PsiManager.getInstance(project)
        val path = file ?: if ('/' in container || container.endsWith(".py")) "${Ide.projectRoot(project)}/$container" else null
        if (path != null) {
            val vf = runCatching { Ide.file(path) }.getOrNull() ?: return null
            return psi.findFile(vf)
        }
        // A class name: its file by name (index lookup, project sources only).
        val simple = container.substringAfterLast('.')
        val scope = GlobalSearchScope.projectScope(project)
        return listOf("$simple.java", "$simple.kt")
            .flatMap { FilenameIndex.getVirtualFilesByName(it, scope) }
            .firstNotNullOfOrNull { psi.findFile(it) }
    }
}
