package com.debuggermcp.ui

import com.debuggermcp.DebuggerMcpService
import com.debuggermcp.adapter.Ide
import com.debuggermcp.bridge.InstallBridge
import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.application.ModalityState
import com.intellij.openapi.ide.CopyPasteManager
import com.intellij.openapi.project.Project
import java.awt.BorderLayout
import java.awt.Component
import java.awt.Dimension
import java.awt.FlowLayout
import java.awt.Font
import java.awt.datatransfer.StringSelection
import javax.swing.BoxLayout
import javax.swing.JButton
import javax.swing.JCheckBox
import javax.swing.JDialog
import javax.swing.JLabel
import javax.swing.JPanel
import javax.swing.JScrollPane
import javax.swing.JSplitPane
import javax.swing.JTextArea
import javax.swing.SwingUtilities

/**
 * "Install on Agents": a checklist of every supported agent (found ones checked) with the file
 * each will change; selecting a row shows its diff; Install / Uninstall apply through the Rust
 * installer (JNI) and report per agent what changed; "Copy config" copies the entry for agents
 * it cannot write. Plain Swing: the logic is in [InstallOnAgentsModel].
 */
class InstallOnAgentsDialog private constructor(private val project: Project, owner: Component?) :
    JDialog(SwingUtilities.getWindowAncestor(owner), "Install on Agents", ModalityType.MODELESS) {
    private val home = System.getProperty("user.home") ?: ""
    private val checks = JPanel().apply { layout = BoxLayout(this, BoxLayout.Y_AXIS) }
    private val detail = JTextArea().apply { isEditable = false; font = Font(Font.MONOSPACED, Font.PLAIN, 12) }
    private val boxes = linkedMapOf<String, JCheckBox>()
    private var rows: List<AgentRow> = emptyList()
    private var current: AgentRow? = null

    init {
        val top = JLabel("Adds the Debugger MCP server (with its bearer token) to the agents' own config files. Comments and other settings are kept; a backup is made.")
        val split = JSplitPane(JSplitPane.VERTICAL_SPLIT, JScrollPane(checks), JScrollPane(detail)).apply { resizeWeight = 0.5 }
        val buttons = JPanel(FlowLayout(FlowLayout.RIGHT, 4, 2))
        buttons.add(JButton("Copy config").apply { addActionListener { copyConfig() } })
        buttons.add(JButton("Uninstall").apply { addActionListener { run(uninstall = true) } })
        buttons.add(JButton("Install").apply { addActionListener { run(uninstall = false) } })
        buttons.add(JButton("Close").apply { addActionListener { dispose() } })
        contentPane.layout = BorderLayout()
        contentPane.add(top, BorderLayout.NORTH)
        contentPane.add(split, BorderLayout.CENTER)
        contentPane.add(buttons, BorderLayout.SOUTH)
        preferredSize = Dimension(900, 600)
        pack()
        setLocationRelativeTo(owner)
        detail.text = "Looking for agents…"
        plan()
    }

    private fun request(agents: List<String>?, uninstall: Boolean = false) = InstallOnAgentsModel.request(
        project = Ide.projectRoot(project),
        settings = DebuggerMcpService.configPath().toString(),
        url = DebuggerMcpService.getInstance().url,
        agents = agents,
        uninstall = uninstall,
    )

    /** Plans off the EDT (file reads), renders on it. */
    private fun plan() {
        val req = request(null)
        ApplicationManager.getApplication().executeOnPooledThread {
            val result = runCatching { InstallOnAgentsModel.parseReport(InstallBridge.plan(req)) }
            ApplicationManager.getApplication().invokeLater({ render(result) }, ModalityState.stateForComponent(this@InstallOnAgentsDialog))
        }
    }

    private fun render(result: Result<InstallReport>) {
        val report = result.getOrElse { detail.text = "Cannot plan the install: ${it.message}"; return }
        rows = report.rows
        val selected = if (boxes.isEmpty()) InstallOnAgentsModel.defaultSelection(rows) else boxes.filterValues { it.isSelected }.keys
        boxes.clear()
        checks.removeAll()
        for (row in rows) {
            val box = JCheckBox(InstallOnAgentsModel.label(row, home), row.name in selected)
            box.isEnabled = InstallOnAgentsModel.canWrite(row)
            box.addActionListener { show(row) }
            box.addFocusListener(object : java.awt.event.FocusAdapter() {
                override fun focusGained(e: java.awt.event.FocusEvent?) = show(row)
            })
            boxes[row.name] = box
            checks.add(box)
        }
        checks.revalidate()
        checks.repaint()
        if (!report.applied) detail.text = "Select an agent to see the change to its file."
    }

    private fun show(row: AgentRow) {
        current = row
        detail.text = when {
            row.error != null -> "${row.error}\n\nAdd it by hand (Copy config):\n\n${row.copy}"
            row.diff.isNotEmpty() -> row.diff + (row.cli?.let { "\nThe agent's own command for the same: $it\n" } ?: "")
            else -> "No change needed for ${row.display}."
        }
        detail.caretPosition = 0
    }

    private fun run(uninstall: Boolean) {
        val chosen = boxes.filterValues { it.isSelected && it.isEnabled }.keys.toList()
        if (chosen.isEmpty()) { detail.text = "Check at least one agent."; return }
        val req = request(chosen, uninstall)
        ApplicationManager.getApplication().executeOnPooledThread {
            val result = runCatching { InstallOnAgentsModel.parseReport(InstallBridge.apply(req)) }
            ApplicationManager.getApplication().invokeLater({
                detail.text = result.fold({ InstallOnAgentsModel.summary(it, home) }, { "Install failed: ${it.message}" })
                plan()
            }, ModalityState.stateForComponent(this@InstallOnAgentsDialog))
        }
    }

    private fun copyConfig() {
        val row = current ?: rows.firstOrNull { boxes[it.name]?.isSelected == true } ?: return
        CopyPasteManager.getInstance().setContents(StringSelection(row.copy))
        detail.text = "Copied the ${row.display} entry to the clipboard:\n\n${row.copy}"
    }

    companion object {
        fun show(project: Project, owner: Component?) {
            InstallOnAgentsDialog(project, owner).isVisible = true
        }
    }
}
