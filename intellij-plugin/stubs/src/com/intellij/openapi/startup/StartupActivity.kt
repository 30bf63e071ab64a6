package com.intellij.openapi.startup

import com.intellij.openapi.project.Project

// intellij-community: platform/core-api/src/com/intellij/openapi/startup/StartupActivity.kt
interface ProjectActivity {
  suspend fun execute(project: Project)
}
