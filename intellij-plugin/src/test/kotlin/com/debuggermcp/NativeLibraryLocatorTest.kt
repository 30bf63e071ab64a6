package com.debuggermcp

import com.debuggermcp.nativelib.NativeLibraryLocator
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Test
import java.nio.file.Paths

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
}
