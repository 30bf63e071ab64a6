// Gradle build of the IntelliJ plugin (intellij-plugin/); the Rust workspace next to it is built
// by cargo, which the plugin build invokes for the host library (see intellij-plugin/build.gradle.kts).
rootProject.name = "debugger-mcp"

pluginManagement {
    repositories {
        gradlePluginPortal()
        mavenCentral()
    }
}

plugins {
    // Lets Gradle download the JDK 21 toolchain when the machine has none.
    id("org.gradle.toolchains.foojay-resolver-convention") version "1.0.0"
}

include(":intellij-plugin")
