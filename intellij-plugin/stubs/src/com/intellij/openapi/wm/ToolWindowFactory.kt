package com.intellij.openapi.wm

import com.intellij.openapi.project.PossiblyDumbAware
import com.intellij.openapi.project.Project

// intellij-community: platform/platform-api/src/com/intellij/openapi/wm/ToolWindowFactory.kt
interface ToolWindowFactory : PossiblyDumbAware {
  suspend fun isApplicableAsync(project: Project): Boolean = isApplicable(project)

  @Deprecated("Use isApplicableAsync")
  fun isApplicable(project: Project): Boolean = true

  fun createToolWindowContent(project: Project, toolWindow: ToolWindow)

  fun init(toolWindow: ToolWindow) {}

  fun shouldBeAvailable(project: Project): Boolean = true

  @get:Deprecated("Use ToolWindowEP.isDoNotActivateOnStart")
  val isDoNotActivateOnStart: Boolean
    get() = false
}
