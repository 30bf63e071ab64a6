package com.debuggermcp.ui

import com.debuggermcp.adapter.Ide
import com.debuggermcp.bridge.InstallBridge
import com.intellij.notification.Notification
import com.intellij.notification.NotificationType
import com.intellij.openapi.Disposable
import com.intellij.openapi.application.ModalityState
import com.intellij.openapi.ide.CopyPasteManager
import com.intellij.openapi.project.Project
import com.intellij.ui.JBColor
import java.awt.BorderLayout
import java.awt.Color
import java.awt.Component
import java.awt.FlowLayout
import java.awt.datatransfer.StringSelection
import javax.swing.DefaultListCellRenderer
import javax.swing.DefaultListModel
import javax.swing.JButton
import javax.swing.JLabel
import javax.swing.JList
import javax.swing.JPanel
import javax.swing.JScrollPane

/**
 * The tool window's Doctor tab: `debugger-mcp doctor` for this project (which debuggers work on
 * this machine, and the command that fixes each one that does not), computed by Rust through
 * `InstallBridge.doctor`. Runs once when the tab is created and again on "Run checks".
 */
class DoctorPanel(private val project: Project) : JPanel(BorderLayout()), Disposable {
    private val summary = JLabel("Running checks…")
    private val rows = DefaultListModel<DoctorCheck>()
    private val copyFixes = JButton("Copy fixes")
    private var report: DoctorReport? = null
    @Volatile private var disposed = false

    init {
        val top = JPanel(FlowLayout(FlowLayout.LEFT, 4, 2))
        top.add(JButton("Run checks").apply { addActionListener { run() } })
        top.add(copyFixes)
        top.add(summary)
        copyFixes.isEnabled = false
        copyFixes.addActionListener {
            val fixes = report?.fixes ?: return@addActionListener
            CopyPasteManager.getInstance().setContents(StringSelection(fixes))
            Notification(DebuggerMcpPanel.NOTIFICATION_GROUP, "Fix commands copied", fixes, NotificationType.INFORMATION).notify(project)
        }
        add(top, BorderLayout.NORTH)
        val list = JList(rows)
        list.cellRenderer = object : DefaultListCellRenderer() {
            override fun getListCellRendererComponent(l: JList<*>?, value: Any?, index: Int, selected: Boolean, focus: Boolean): Component {
                val c = super.getListCellRendererComponent(l, value, index, selected, focus)
                val check = value as? DoctorCheck ?: return c
                text = DoctorReport.row(check)
                if (!selected && !check.ok) foreground = FAIL_COLOR
                return c
            }
        }
        add(JScrollPane(list), BorderLayout.CENTER)
        run()
    }

    private fun run() {
        summary.text = "Running checks…"
        DoctorReport.load(Ide.projectRoot(project), ModalityState.stateForComponent(this), InstallBridge::doctor) { r, error ->
            if (disposed) return@load
            report = r
            rows.clear()
            r?.checks?.forEach { rows.addElement(it) }
            summary.text = error?.let { "Doctor failed: $it" } ?: r!!.summary
            copyFixes.isEnabled = r?.failing?.any { it.fix != null } == true
        }
    }

    override fun dispose() {
        disposed = true
    }

    companion object {
        private val FAIL_COLOR: Color = JBColor(0xC03030, 0xFF6B68)
    }
}
