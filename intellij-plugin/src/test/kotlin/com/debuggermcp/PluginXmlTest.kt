package com.debuggermcp

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.File
import javax.xml.parsers.DocumentBuilderFactory
import org.w3c.dom.Element

/**
 * plugin.xml and the optional Java config only name classes that exist in this plugin, so a
 * rename cannot silently break registration (the IDE would only log it at run time).
 */
class PluginXmlTest {
    private val root = File(System.getProperty("repo.root") ?: ".")
    private val meta = File(root, "intellij-plugin/src/main/resources/META-INF")
    private val sources = File(root, "intellij-plugin/src/main/kotlin")

    private fun classExists(fqn: String): Boolean {
        val pkg = fqn.substringBeforeLast('.')
        val simple = fqn.substringAfterLast('.')
        val dir = File(sources, pkg.replace('.', '/'))
        val decl = Regex("""(class|interface|object)\s+$simple\b""")
        return dir.listFiles { f -> f.name.endsWith(".kt") }.orEmpty().any { decl.containsMatchIn(it.readText()) }
    }

    private fun ownClasses(file: File): List<String> {
        val doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file)
        val out = ArrayList<String>()
        val all = doc.getElementsByTagName("*")
        for (i in 0 until all.length) {
            val e = all.item(i) as Element
            for (attr in listOf("implementation", "class", "factoryClass", "instance", "interface")) {
                val v = e.getAttribute(attr)
                if (v.startsWith("com.debuggermcp.")) out.add(v)
            }
        }
        return out
    }

    @Test
    fun `every class named in plugin xml exists`() {
        val named = ownClasses(File(meta, "plugin.xml")) + ownClasses(File(meta, "debugger-mcp-java.xml"))
        assertTrue(named.size >= 8, "expected the handler, tool window, settings, startup, listeners, EP: $named")
        for (fqn in named) assertTrue(classExists(fqn), "plugin.xml names $fqn, which is not declared in src/main/kotlin")
    }

    @Test
    fun `optional Java config is wired as an optional dependency`() {
        val text = File(meta, "plugin.xml").readText()
        assertTrue(text.contains("""<depends optional="true" config-file="debugger-mcp-java.xml">com.intellij.java</depends>"""))
        assertTrue(text.contains("<depends>com.intellij.modules.xdebugger</depends>"))
        // The Java support class is only referenced from the optional config.
        assertEquals(listOf("com.debuggermcp.java.JavaDebugSupport"), ownClasses(File(meta, "debugger-mcp-java.xml")))
    }

    @Test
    fun `the plugin requires a restart because its native library cannot be loaded twice`() {
        // System.load binds the cdylib to one classloader; a dynamically reloaded plugin gets a
        // new PluginClassLoader and its System.load fails for good ("already loaded in another
        // classloader"), so install/update/unload must restart the IDE.
        val doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(File(meta, "plugin.xml"))
        assertEquals("true", doc.documentElement.getAttribute("require-restart"))
    }

    /**
     * What a third-party plugin must declare on 2025.3 / 2026.1 to keep the built-in server's
     * handler EP and the Java debugger's classes (issue 17, defect 9), read from the sources:
     * the core alias (builtInServer.impl is internal and embedded in the core: file ids 4704760763,
     * 35135190764; intellij.platform.builtInServer.impl.xml @0205edde373d…), and a v1 depends on
     * the Java plugin, which brings in all its content modules (ModuleGraph
     * collectDirectDependenciesInOldFormat, file ids 17484555271 and 3874655892). Whether the
     * classes resolve in each IDE is what the Plugin Verifier reports.
     */
    @Test
    fun `descriptors declare what 2025_3 and 2026_1 need and nothing internal`() {
        val doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(File(meta, "plugin.xml"))
        val depends = doc.getElementsByTagName("depends").let { n -> (0 until n.length).map { n.item(it) as Element } }
        assertTrue(depends.any { it.textContent.trim() == "com.intellij.modules.platform" && it.getAttribute("optional") != "true" })
        val java = depends.single { it.textContent.trim() == "com.intellij.java" }
        assertEquals("true", java.getAttribute("optional"), "Java support must stay optional: PyCharm, GoLand … have no Java plugin")
        assertEquals("debugger-mcp-java.xml", java.getAttribute("config-file"))
        // No v2 module dependencies: an internal module of another namespace is refused, and a
        // content module naming Java's debugger modules is silently not loaded where they are unknown.
        for (file in listOf("plugin.xml", "debugger-mcp-java.xml")) {
            val d = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(File(meta, file))
            assertEquals(0, d.getElementsByTagName("dependencies").length, "$file: <dependencies> block")
            assertEquals(0, d.getElementsByTagName("content").length, "$file: <content> block")
        }
        val handlers = doc.getElementsByTagName("httpRequestHandler")
        assertEquals(1, handlers.length)
        assertEquals("com.intellij", (handlers.item(0).parentNode as Element).getAttribute("defaultExtensionNs"))
    }
}
