package com.debuggermcp.nativelib

import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.Paths

/**
 * Where the Rust library lives inside the installed plugin: `<plugin>/lib/native/<os>-<arch>/`.
 * Found from the location of the plugin's own jar (`<plugin>/lib/<name>.jar`), so no internal
 * platform API is needed and the same logic works in the sandbox of `runIde` and in a real install.
 */
object NativeLibraryLocator {
    const val LIBRARY = "debugger_mcp_jni"

    /** `-Ddebugger.mcp.native.library=/path/to/lib` overrides the lookup (development). */
    const val OVERRIDE_PROPERTY = "debugger.mcp.native.library"

    fun osName(osProperty: String): String {
        val os = osProperty.lowercase()
        return when {
            os.startsWith("windows") -> "windows"
            os.startsWith("mac") || os.startsWith("darwin") -> "macos"
            os.startsWith("linux") -> "linux"
            else -> throw IllegalStateException("unsupported operating system '$osProperty'")
        }
    }

    fun archName(archProperty: String): String = when (archProperty.lowercase()) {
        "amd64", "x86_64", "x64" -> "x64"
        "aarch64", "arm64" -> "arm64"
        else -> throw IllegalStateException("unsupported CPU architecture '$archProperty'")
    }

    /** Directory name under lib/native, e.g. `linux-x64`; the Gradle build uses the same names. */
    fun platformDir(osProperty: String, archProperty: String) = "${osName(osProperty)}-${archName(archProperty)}"

    fun fileName(osProperty: String): String = when (osName(osProperty)) {
        "windows" -> "$LIBRARY.dll"
        "macos" -> "lib$LIBRARY.dylib"
        else -> "lib$LIBRARY.so"
    }

    /** `<plugin>/lib/x.jar` → `<plugin>`; a classes directory (tests, IDE run from sources) yields null. */
    fun pluginRootFromJar(codeLocation: Path): Path? {
        if (!codeLocation.fileName.toString().endsWith(".jar")) return null
        val libDir = codeLocation.parent ?: return null
        if (libDir.fileName?.toString() != "lib") return null
        return libDir.parent
    }

    fun candidate(pluginRoot: Path, osProperty: String, archProperty: String): Path =
        pluginRoot.resolve("lib").resolve("native").resolve(platformDir(osProperty, archProperty)).resolve(fileName(osProperty))

    /** Resolves the library path for this JVM, or explains what was looked for. */
    fun locate(anchor: Class<*>): Path {
        System.getProperty(OVERRIDE_PROPERTY)?.takeIf { it.isNotBlank() }?.let { return Paths.get(it) }
        val os = System.getProperty("os.name") ?: ""
        val arch = System.getProperty("os.arch") ?: ""
        val location = anchor.protectionDomain?.codeSource?.location
            ?: throw IllegalStateException("cannot tell where the plugin is installed (no code source)")
        val codePath = Paths.get(location.toURI())
        val root = pluginRootFromJar(codePath)
            ?: throw IllegalStateException("plugin code at $codePath is not a jar inside <plugin>/lib; set -D$OVERRIDE_PROPERTY")
        val lib = candidate(root, os, arch)
        if (!Files.isRegularFile(lib)) {
            throw IllegalStateException("native library not found at $lib (this plugin build has no library for ${platformDir(os, arch)})")
        }
        return lib
    }
}
