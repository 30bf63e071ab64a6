package com.debuggermcp.nativelib

import java.net.URI
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.Paths

/**
 * Where the Rust library lives inside the installed plugin: `<plugin>/lib/native/<os>-<arch>/`.
 * Found from the location of the plugin's own jar (`<plugin>/lib/<name>.jar`), so no internal
 * platform API is needed and the same logic works in the sandbox of `runIde` and in a real install.
 *
 * The jar is found from the class file's resource URL, never from
 * `protectionDomain.codeSource.location`: IntelliJ's PluginClassLoader defines classes without a
 * code source, so that is null for every plugin class. The IDE passes the platform's
 * `PathManager.getJarPathForClass` (which also works from the resource URL); [jarOf] is the same
 * lookup for tests.
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

    /**
     * The jar (or classes directory) [anchor] was loaded from, found through the class loader's
     * resource URL of its `.class` file, as `PathManager.getJarPathForClass` does; null if the
     * loader does not expose it.
     */
    fun jarOf(anchor: Class<*>): Path? {
        val resource = "/" + anchor.name.replace('.', '/') + ".class"
        val url = anchor.getResource(resource) ?: return null
        return when (url.protocol) {
            "jar" -> {
                // jar:file:/x/lib/a.jar!/com/x/A.class
                val spec = url.toString().removePrefix("jar:")
                Paths.get(URI(spec.substringBefore("!/")))
            }
            "file" -> {
                val file = Paths.get(url.toURI())
                // Walk up one directory per package segment plus the class file itself.
                var dir: Path? = file
                repeat(anchor.name.count { it == '.' } + 1) { dir = dir?.parent }
                dir
            }
            else -> null
        }
    }

    /**
     * Resolves the library path for this JVM, or explains what was looked for. [codeLocation]
     * finds the jar of [anchor]; the IDE passes `PathManager.getJarPathForClass`.
     */
    fun locate(anchor: Class<*>, codeLocation: (Class<*>) -> Path? = ::jarOf): Path {
        System.getProperty(OVERRIDE_PROPERTY)?.takeIf { it.isNotBlank() }?.let { return Paths.get(it) }
        val os = System.getProperty("os.name") ?: ""
        val arch = System.getProperty("os.arch") ?: ""
        val codePath = codeLocation(anchor)
            ?: throw IllegalStateException("cannot tell where the plugin is installed: no resource URL for ${anchor.name}; set -D$OVERRIDE_PROPERTY")
        val root = pluginRootFromJar(codePath)
            ?: throw IllegalStateException("plugin code at $codePath is not a jar inside <plugin>/lib; set -D$OVERRIDE_PROPERTY")
        val lib = candidate(root, os, arch)
        if (!Files.isRegularFile(lib)) {
            throw IllegalStateException("native library not found at $lib (this plugin build has no library for ${platformDir(os, arch)})")
        }
        return lib
    }
}
