// Root project: declares the plugins once (versions in gradle/libs.versions.toml) so subprojects
// share one classloader for them. The plugin itself is configured in intellij-plugin/build.gradle.kts.
plugins {
    alias(libs.plugins.kotlin) apply false
    alias(libs.plugins.intelliJPlatform) apply false
}
