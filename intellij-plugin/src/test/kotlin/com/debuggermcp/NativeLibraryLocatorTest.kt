package com.debuggermcp

import com.debuggermcp.nativelib.NativeLibraryLocator
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Paths
import java.util.jar.JarEntry
import java.util.jar.JarOutputStream

class NativeLibraryLocatorTest {
    @Test
    fun `platform directories match the Gradle build's names`() {
        assertEquals("linux-x64", NativeLibraryLocator.platformDir("Linux", "amd64"))
        assertEquals("linux-arm64", NativeLibraryLocator.platformDir("Linux", "aarch64"))
        assertEquals("macos-arm64", NativeLibraryLocator.platformDir("Mac OS X", "aarch64"))
        assertEquals("macos-x64", NativeLibraryLocator.platformDir("Mac OS X", "x86_64"))
        assertEquals("windows-x64", NativeLibraryLocator.platformDir("Windows 11", "amd64"))
        assertEquals("windows-arm64", NativeLibraryLocator.platformDir("Windows 11", "arm64"))
        assertThrows(IllegalStateException::class.java) { NativeLibraryLocator.platformDir("SunOS", "sparc") }
    }

    @Test
    fun `library file names follow each OS`() {
        assertEquals("libdebugger_mcp_jni.so", NativeLibraryLocator.fileName("Linux"))
        assertEquals("libdebugger_mcp_jni.dylib", NativeLibraryLocator.fileName("Mac OS X"))
        assertEquals("debugger_mcp_jni.dll", NativeLibraryLocator.fileName("Windows 10"))
    }

    @Test
    fun `plugin root is found from the plugin jar`() {
        val root = Paths.get("/ide/plugins/debugger-mcp")
        assertEquals(root, NativeLibraryLocator.pluginRootFromJar(root.resolve("lib/debugger-mcp.jar")))
        assertNull(NativeLibraryLocator.pluginRootFromJar(Paths.get("/build/classes/kotlin/main")))
        assertNull(NativeLibraryLocator.pluginRootFromJar(Paths.get("/somewhere/else/x.jar")))
        assertEquals(
            root.resolve("lib/native/linux-x64/libdebugger_mcp_jni.so"),
            NativeLibraryLocator.candidate(root, "Linux", "amd64"),
        )
    }

    /**
     * IntelliJ's PluginClassLoader defines plugin classes without a code source, like this loader
     * (defineClass without a ProtectionDomain), but serves their class files as jar resources.
     */
    private class NoCodeSourceLoader(private val jar: java.nio.file.Path, parent: ClassLoader) : ClassLoader(parent) {
        override fun loadClass(name: String, resolve: Boolean): Class<*> {
            if (name != ANCHOR) return super.loadClass(name, resolve)
            synchronized(getClassLoadingLock(name)) {
                findLoadedClass(name)?.let { return it }
                val bytes = java.util.zip.ZipFile(jar.toFile()).use { z ->
                    z.getInputStream(z.getEntry(ANCHOR.replace('.', '/') + ".class")).readBytes()
                }
                return defineClass(name, bytes, 0, bytes.size)
            }
        }

        // Like PluginClassLoader, its own jar comes before the parent's (the test classpath has the class too).
        override fun getResource(name: String): java.net.URL? = findResource(name) ?: super.getResource(name)

        override fun findResource(name: String): java.net.URL? {
            val entry = name.removePrefix("/")
            return if (entry == ANCHOR.replace('.', '/') + ".class") java.net.URL("jar:" + jar.toUri() + "!/" + entry) else null
        }
    }

    @Test
    fun `finds the library for a class loaded without a code source, as PluginClassLoader does`() {
        val root = Files.createTempDirectory("plugin")
        try {
            val lib = root.resolve("lib")
            Files.createDirectories(lib)
            val jar = lib.resolve("debugger-mcp.jar")
            val classFile = ANCHOR.replace('.', '/') + ".class"
            val bytes = NativeLibraryLocatorTest::class.java.classLoader.getResourceAsStream(classFile)!!.readBytes()
            JarOutputStream(Files.newOutputStream(jar)).use { out ->
                out.putNextEntry(JarEntry(classFile))
                out.write(bytes)
                out.closeEntry()
            }
            val os = System.getProperty("os.name")
            val arch = System.getProperty("os.arch")
            val native = NativeLibraryLocator.candidate(root, os, arch)
            Files.createDirectories(native.parent)
            Files.write(native, byteArrayOf(0))

            val anchor = NoCodeSourceLoader(jar, javaClass.classLoader).loadClass(ANCHOR)
            assertEquals(NoCodeSourceLoader::class.java, anchor.classLoader.javaClass)
            assertNull(anchor.protectionDomain.codeSource?.location, "the fake must behave like PluginClassLoader")
            assertEquals(jar, NativeLibraryLocator.jarOf(anchor))
            assertEquals(native, NativeLibraryLocator.locate(anchor))
        } finally {
            root.toFile().deleteRecursively()
        }
    }

    @Test
    fun `a classes directory is found from the resource URL too`() {
        // Test classes are loaded from a directory; the root is that directory, not a jar in lib/.
        val dir = NativeLibraryLocator.jarOf(NativeLibraryLocatorTest::class.java)!!
        assertEquals(true, Files.isRegularFile(dir.resolve(ANCHOR.replace('.', '/') + ".class")))
        assertNull(NativeLibraryLocator.pluginRootFromJar(dir))
    }

    companion object {
        /** Any small class of the test tree with no dependencies beyond the JDK. */
        const val ANCHOR = "com.debuggermcp.NativeLibraryLocatorTest\$Anchor"
    }

    class Anchor
}
