package com.intellij.openapi.wm

import com.intellij.openapi.project.PossiblyDumbAware
import com.intellij.openapi.project.Project

// intellij-community: platform/platform-api/src/com/intellij/openapi/wm/ToolWindowFactory.kt
interface ToolWindowFactory : PossiblyDumbAware {
  fun createToolWindowContent(project: Project, toolWindow: ToolWindow)

  fun init(toolWindow: ToolWindow) {}

  fun shouldBeAvailable(project: Project): Boolean = true
}
