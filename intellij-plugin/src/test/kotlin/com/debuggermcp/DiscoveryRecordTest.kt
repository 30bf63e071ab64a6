package com.debuggermcp

import com.debuggermcp.fakes.FakeApplication
import com.debuggermcp.fakes.FakeProject
import com.debuggermcp.json.Json
import com.debuggermcp.startup.DebuggerMcpStartupActivity
import com.debuggermcp.ui.InstallOnAgentsDiscovery
import com.intellij.openapi.project.Project
import com.intellij.openapi.project.ProjectManagerListener
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.io.File
import java.util.concurrent.CopyOnWriteArrayList
import javax.xml.parsers.DocumentBuilderFactory
import org.w3c.dom.Element

/**
 * The discovery record (`<pid>.json`, read by `debugger-mcp stdio` to find this IDE and pick it by
 * project root) follows the projects the user opens and closes (issue 27 RISK 6), through what the
 * platform tells plugins: a post-start-up activity when a project has opened (ProjectManagerImpl
 * adds it to the open projects first), ProjectManager.TOPIC's projectClosed on the application bus
 * when one closed (ProjectManagerImpl.closeProject removes it first, then publishes, in a write
 * action on the EDT: ProjectManagerImpl.kt, file id 25931666102).
 */
@Timeout(30)
class DiscoveryRecordTest {
    private val app = FakeApplication.install()
    private val open = CopyOnWriteArrayList<Project>()
    private val written = CopyOnWriteArrayList<String>()
    private val url = "http://127.0.0.1:63343/debugger-mcp"

    init {
        InstallOnAgentsDiscovery.withdraw()
        InstallOnAgentsDiscovery.writer = { written += it; "" }
        InstallOnAgentsDiscovery.openProjects = { open.toList() }
        InstallOnAgentsDiscovery.endpoint = { url }
        DebuggerMcpStartupActivity.start = { true to url }
    }

    @AfterEach
    fun clean() {
        InstallOnAgentsDiscovery.withdraw()
        InstallOnAgentsDiscovery.writer = { com.debuggermcp.bridge.InstallBridge.publishDiscovery(it) }
        InstallOnAgentsDiscovery.openProjects = { com.debuggermcp.adapter.Ide.openProjects() }
        InstallOnAgentsDiscovery.endpoint = { com.debuggermcp.DebuggerMcpService.getInstance().let { if (it.isReady) it.url else null } }
        app.dispose()
    }

    private fun roots(): List<String> {
        @Suppress("UNCHECKED_CAST")
        return Json.parseObject(written.last())["roots"] as List<String>
    }

    /** ProjectManagerImpl.doOpenAsync: addToOpened, then the post-start-up activities. */
    private fun opened(project: Project) {
        open += project
        runBlocking { DebuggerMcpStartupActivity().execute(project) }
    }

    /** The application listener plugin.xml registers on ProjectManager.TOPIC, as the platform instantiates it. */
    private fun closeListener(): ProjectManagerListener {
        val xml = File(System.getProperty("repo.root") ?: ".", "intellij-plugin/src/main/resources/META-INF/plugin.xml")
        val doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml)
        val sections = doc.getElementsByTagName("applicationListeners")
        val names = (0 until sections.length).flatMap { i ->
            val listeners = (sections.item(i) as Element).getElementsByTagName("listener")
            (0 until listeners.length).map { listeners.item(it) as Element }
                .filter { it.getAttribute("topic") == "com.intellij.openapi.project.ProjectManagerListener" }
                .map { it.getAttribute("class") }
        }
        assertNotNull(names.firstOrNull(), "no application listener in plugin.xml follows project close (topic ProjectManagerListener): the record keeps a closed project")
        // The topic's publisher calls every listener registered on it (ProjectCloseCleanup is one too).
        val all = names.map { Class.forName(it).getDeclaredConstructor().newInstance() as ProjectManagerListener }
        return object : ProjectManagerListener {
            override fun projectClosed(project: Project) = all.forEach { it.projectClosed(project) }
        }
    }

    /** ProjectManagerImpl.closeProject: removeFromOpened, then projectClosed on the EDT in a write action. */
    private fun closed(project: Project) {
        open -= project
        val listener = closeListener()
        val before = written.size
        app.invokeLater({ app.runWriteAction(com.intellij.openapi.util.Computable { listener.projectClosed(project) }) }, com.intellij.openapi.application.ModalityState.nonModal())
        val until = System.nanoTime() + 10_000_000_000L
        while (written.size == before && System.nanoTime() < until) Thread.sleep(10)
    }

    @Test
    fun `the record lists a project once it opens and drops it once it closes (RISK 6)`() {
        val a = FakeProject("/work/a")
        val b = FakeProject("/work/b")
        opened(a)
        assertEquals(listOf("/work/a"), roots())
        opened(b)
        assertEquals(listOf("/work/a", "/work/b"), roots(), "a project opened after the engine started is missing from the record")
        closed(b)
        assertEquals(listOf("/work/a"), roots(), "a closed project is still in the record")
        assertEquals(emptyList<String>(), app.violations, "threading contracts broken")
    }

    @Test
    fun `the record is written off the EDT and outside the close's write action`() {
        val a = FakeProject("/work/a")
        opened(a)
        val threads = CopyOnWriteArrayList<String>()
        InstallOnAgentsDiscovery.writer = { threads += if (app.isEdt()) "edt" else "pool"; written += it; "" }
        closed(a)
        assertEquals(listOf("pool"), threads)
        assertEquals(emptyList<String>(), roots())
    }
}
