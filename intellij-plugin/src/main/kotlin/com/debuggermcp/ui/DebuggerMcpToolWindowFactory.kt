package com.debuggermcp.ui

import com.intellij.openapi.project.DumbAware
import com.intellij.openapi.project.Project
import com.intellij.openapi.wm.ToolWindow
import com.intellij.openapi.wm.ToolWindowFactory
import com.intellij.ui.content.ContentFactory

/** The "Debugger MCP" tool window (SPEC §5, seed 000 §7): status, rule tip, filters, history; a Doctor tab. */
class DebuggerMcpToolWindowFactory : ToolWindowFactory, DumbAware {
    override fun createToolWindowContent(project: Project, toolWindow: ToolWindow) {
        val panel = DebuggerMcpPanel(project)
        val content = ContentFactory.getInstance().createContent(panel, "History", false)
        content.setDisposer(panel)
        toolWindow.contentManager.addContent(content)
        // issue 15: `debugger-mcp doctor`'s report, the same Rust code as the CLI's.
        val doctor = DoctorPanel(project)
        val doctorContent = ContentFactory.getInstance().createContent(doctor, "Doctor", false)
        doctorContent.setDisposer(doctor)
        toolWindow.contentManager.addContent(doctorContent)
    }
}
