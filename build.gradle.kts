// Root project: declares the plugins once (versions in gradle/libs.versions.toml) so subprojects
// share one classloader for them. The plugin itself is configured in intellij-plugin/build.gradle.kts.
plugins {
    alias(libs.plugins.kotlin) apply false
    alias(libs.plugins.intelliJPlatform) apply false
}

// Gradle registers the `wrapper` task in the root project only; configuring it in a subproject's
// script does not compile (checked by tests/stubs-check/check_gradle.py).
tasks.wrapper {
    gradleVersion = "9.4.1"
}
