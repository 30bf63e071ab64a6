import org.jetbrains.intellij.platform.gradle.IntelliJPlatformType
import org.jetbrains.intellij.platform.gradle.TestFrameworkType
import org.jetbrains.intellij.platform.gradle.tasks.VerifyPluginTask
import org.jetbrains.kotlin.gradle.dsl.JvmTarget
import org.jetbrains.kotlin.gradle.dsl.KotlinVersion

// The Debugger MCP IntelliJ plugin: Kotlin sources in src/main/kotlin, plugin.xml in
// src/main/resources/META-INF, and the Rust JNI library (native/jni) packaged under
// lib/native/<os>-<arch>/ of the plugin, where NativeLibraryLocator finds it.
//
// The stubs/ folder is NOT part of this build: it only lets scripts/test.d/kotlin.sh compile the
// sources without the IntelliJ SDK. Here the real SDK comes from the IntelliJ Platform Gradle Plugin.

plugins {
    id("java")
    alias(libs.plugins.kotlin)
    alias(libs.plugins.intelliJPlatform)
}

group = providers.gradleProperty("pluginGroup").get()
version = providers.gradleProperty("pluginVersion").get()

kotlin {
    jvmToolchain(21)
    compilerOptions {
        jvmTarget.set(JvmTarget.JVM_21)
        // IntelliJ 2025.2 (the since-build) bundles kotlin-stdlib 2.1.20 and plugins use the IDE's
        // stdlib (kotlin.stdlib.default.dependency=false), so no API newer than 2.1 may be called.
        // The language may be newer: language features compile down to the 2.1 API.
        apiVersion.set(KotlinVersion.KOTLIN_2_1)
        languageVersion.set(KotlinVersion.KOTLIN_2_2)
    }
}

repositories {
    mavenCentral()
    intellijPlatform {
        defaultRepositories()
    }
}

dependencies {
    intellijPlatform {
        // IntelliJ IDEA Community 2025.2: the open-source platform the stubs mirror.
        intellijIdeaCommunity(providers.gradleProperty("platformVersion"))
        // Compile-time access for the optional Java part (debugger-mcp-java.xml); at run time it
        // is only loaded when the Java plugin is present.
        bundledPlugin("com.intellij.java")
        // No bundledModule for the built-in server: the plugin uses only BuiltInServerManager, of
        // the API module intellij.platform.builtInServer, which stays in the core on every branch
        // ("The API module `intellij.platform.builtInServer` stays in [CoreModuleSets.coreLang]",
        // the builtInServer() module set, file id 70087928048), and HttpRequestHandler, of
        // platform-util-netty (core). The module 2026.1 loads apart,
        // intellij.platform.builtInServer.impl, is internal: its classes must not be on our
        // compile classpath (issue 27 item 11; tests/stubs-check/check_gradle.py rejects it).
        pluginVerifier()
        zipSigner()
        // IntelliJ Platform tests (src/test/kotlin/**/platform/): a real IDE application in the
        // test JVM; the Java test framework for the Java debugger used there.
        testFramework(TestFrameworkType.Platform)
        testFramework(TestFrameworkType.Plugin.Java)
    }
    testImplementation(platform(libs.junit.bom))
    testImplementation(libs.junit.jupiter)
    // The platform's test cases (HeavyPlatformTestCase) are JUnit 3/4 style: run by the vintage engine.
    testImplementation(libs.junit4)
    testRuntimeOnly(libs.junit.vintage.engine)
    testRuntimeOnly(libs.junit.platform.launcher)
}

intellijPlatform {
    // Name of the plugin's directory in the sandbox and in the zip (<name>/lib/*.jar, <name>/lib/native).
    projectName = providers.gradleProperty("pluginName")
    pluginConfiguration {
        // The display name stays the one in plugin.xml ("Debugger MCP").
        version = providers.gradleProperty("pluginVersion")
        ideaVersion {
            sinceBuild = providers.gradleProperty("pluginSinceBuild")
            untilBuild = provider { null }
        }
    }
    pluginVerification {
        // What the workflow's verifyPlugin step promises (.github/workflows/plugin.yml, the
        // comment above the step names these levels; tests/stubs-check/check_gradle.py keeps
        // both in step). Without it the task keeps the plugin's default, which does not fail on
        // internal API usage.
        failureLevel = listOf(
            VerifyPluginTask.FailureLevel.COMPATIBILITY_PROBLEMS,
            VerifyPluginTask.FailureLevel.INTERNAL_API_USAGES,
            VerifyPluginTask.FailureLevel.MISSING_DEPENDENCIES,
            VerifyPluginTask.FailureLevel.INVALID_PLUGIN,
        )
        // The since-build and the two releases after it. From 2025.3 on, IntelliJ IDEA ships as
        // one distribution (no separate Community build), hence the type change.
        ides {
            create(IntelliJPlatformType.IntellijIdeaCommunity, "2025.2")
            create(IntelliJPlatformType.IntellijIdeaUltimate, "2025.3")
            create(IntelliJPlatformType.IntellijIdeaUltimate, "2026.1")
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Native library. The same <os>-<arch> names as NativeLibraryLocator (linux-x64, macos-arm64, ...).
//
// Configuration cache (on in gradle.properties): task lambdas (onlyIf, map, doLast, ...) are
// serialized, so they may only capture plain values computed at configuration time. Script-level
// vals and functions are members of the script object, which cannot be serialized; they are used
// only outside lambdas, and each task copies what its lambdas need into locals.
// tests/stubs-check/check_gradle.py enforces this.

fun hostPlatform(): String {
    val os = System.getProperty("os.name").lowercase()
    val arch = System.getProperty("os.arch").lowercase()
    val osName = when {
        os.startsWith("windows") -> "windows"
        os.startsWith("mac") -> "macos"
        else -> "linux"
    }
    val archName = if (arch == "aarch64" || arch == "arm64") "arm64" else "x64"
    return "$osName-$archName"
}

fun libraryFile(platform: String): String = when {
    platform.startsWith("windows") -> "debugger_mcp_jni.dll"
    platform.startsWith("macos") -> "libdebugger_mcp_jni.dylib"
    else -> "libdebugger_mcp_jni.so"
}

val workspaceDir: File = rootDir
val host: String = hostPlatform()
/** `release/<library file>` under cargo's target directory, for the host. */
val hostLibraryPath: String = "release/" + libraryFile(host)
val cargoTarget: Provider<File> = providers.environmentVariable("CARGO_TARGET_DIR").map { File(it) }
    .orElse(workspaceDir.resolve("target"))

// -PnativeLibsDir=<dir> packages prebuilt libraries laid out as <dir>/<os>-<arch>/<lib> (the CI
// collects one per platform); without it the host library is built with cargo.
val prebuiltNative = providers.gradleProperty("nativeLibsDir")

val cargoBuild by tasks.registering(Exec::class) {
    group = "build"
    description = "Builds the Rust JNI library (debugger-mcp-jni) for the host with cargo."
    // Plain values for the lambdas below (see the configuration-cache note above).
    val usePrebuilt: Boolean = prebuiltNative.isPresent
    val libraryPath: String = hostLibraryPath
    onlyIf { !usePrebuilt }
    workingDir = workspaceDir
    commandLine("cargo", "build", "--release", "-p", "debugger-mcp-jni")
    inputs.files(fileTree(workspaceDir.resolve("native")) { include("**/*.rs", "**/Cargo.toml") })
    inputs.files(workspaceDir.resolve("Cargo.toml"), workspaceDir.resolve("Cargo.lock"))
    outputs.file(cargoTarget.map { it.resolve(libraryPath) })
}

val stageNative by tasks.registering(Sync::class) {
    group = "build"
    description = "Collects native libraries as lib/native/<os>-<arch>/ for the sandbox and the plugin zip."
    val libraryPath: String = hostLibraryPath
    val hostDir: String = host
    into(layout.buildDirectory.dir("native"))
    if (prebuiltNative.isPresent) {
        from(prebuiltNative)
    } else {
        dependsOn(cargoBuild)
        from(cargoTarget.map { it.resolve(libraryPath) }) { into(hostDir) }
    }
}

tasks {
    // The sandbox (runIde, tests) and buildPlugin's zip are both made from prepareSandbox's output.
    prepareSandbox {
        from(stageNative) {
            into(pluginName.map { "$it/lib/native" })
        }
    }

    test {
        useJUnitPlatform()
        // OpTableTest reads native/core/src/backend.rs to compare the op tables.
        systemProperty("repo.root", workspaceDir.absolutePath)
        // The platform test compiles and starts its debuggee with this JDK's javac/java.
        environment("JAVA_HOME", System.getenv("JAVA_HOME") ?: System.getProperty("java.home"))
    }
}
