package com.debuggermcp.ui

import com.debuggermcp.DebuggerMcpService
import com.debuggermcp.adapter.Ide
import com.debuggermcp.bridge.NativeBridge
import com.intellij.notification.Notification
import com.intellij.notification.NotificationType
import com.intellij.openapi.Disposable
import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.application.ModalityState
import com.intellij.openapi.diagnostic.Logger
import com.intellij.openapi.ide.CopyPasteManager
import com.intellij.openapi.project.Project
import com.intellij.ui.JBColor
import java.awt.BorderLayout
import java.awt.Color
import java.awt.Component
import java.awt.FlowLayout
import java.awt.Font
import java.awt.datatransfer.StringSelection
import java.io.File
import javax.swing.BorderFactory
import javax.swing.BoxLayout
import javax.swing.DefaultComboBoxModel
import javax.swing.DefaultListCellRenderer
import javax.swing.DefaultListModel
import javax.swing.JButton
import javax.swing.JComboBox
import javax.swing.JFileChooser
import javax.swing.JLabel
import javax.swing.JList
import javax.swing.JPanel
import javax.swing.JScrollPane
import javax.swing.JSplitPane
import javax.swing.JTextArea
import javax.swing.JTextField
import javax.swing.ListSelectionModel
import javax.swing.SwingUtilities
import javax.swing.Timer
import javax.swing.event.DocumentEvent
import javax.swing.event.DocumentListener

/**
 * Renders what Rust owns: server status and the command history. All JNI reads happen on a
 * pooled thread and the results are applied on the EDT, so a busy engine never freezes the UI.
 * The history refreshes itself every two seconds while the tool window is visible.
 */
class DebuggerMcpPanel(private val project: Project) : JPanel(BorderLayout()), Disposable {
    private val statusLabel = JLabel("Starting…")
    private val urlLabel = JLabel("")
    private val toolFilter = JComboBox(DefaultComboBoxModel(arrayOf(ALL)))
    private val statusFilter = JComboBox(arrayOf(ALL, "ok", "error"))
    private val textFilter = JTextField(16)
    private val listModel = DefaultListModel<HistoryEntry>()
    private val list = JList(listModel)
    private val details = JTextArea()
    private val timer = Timer(2_000) { if (isShowing) refresh() }
    @Volatile private var disposed = false

    init {
        add(header(), BorderLayout.NORTH)
        list.selectionMode = ListSelectionModel.SINGLE_SELECTION
        list.cellRenderer = object : DefaultListCellRenderer() {
            override fun getListCellRendererComponent(l: JList<*>?, value: Any?, index: Int, selected: Boolean, focus: Boolean): Component {
                val c = super.getListCellRendererComponent(l, value, index, selected, focus)
                val e = value as? HistoryEntry ?: return c
                text = HistoryEntries.row(e)
                if (!selected && e.isError) foreground = ERROR_COLOR
                return c
            }
        }
        list.addListSelectionListener { if (!it.valueIsAdjusting) showDetails(list.selectedValue) }
        details.isEditable = false
        details.font = Font(Font.MONOSPACED, Font.PLAIN, 12)
        val split = JSplitPane(JSplitPane.VERTICAL_SPLIT, JScrollPane(list), JScrollPane(details))
        split.resizeWeight = 0.6
        add(split, BorderLayout.CENTER)
        ApplicationManager.getApplication().executeOnPooledThread { DebuggerMcpService.getInstance().ensureStarted(); refresh() }
        timer.start()
    }

    private fun header(): JPanel {
        val header = JPanel()
        header.layout = BoxLayout(header, BoxLayout.Y_AXIS)

        val status = JPanel(FlowLayout(FlowLayout.LEFT, 8, 2))
        status.add(statusLabel)
        status.add(urlLabel)
        header.add(status)

        val buttons = JPanel(FlowLayout(FlowLayout.LEFT, 4, 2))
        buttons.add(button("Install on Agents…") { InstallOnAgentsDialog.show(project, this) })
        buttons.add(button("Refresh") { refresh() })
        buttons.add(button("Copy URL") {
            val url = DebuggerMcpService.getInstance().url
            if (url != null) copy(url, "Server URL copied") else notify("The IDE's built-in server has not started yet", "Try again in a moment.")
        })
        buttons.add(button("Clear") { clear() })
        buttons.add(button("Export JSON") { export("json") })
        buttons.add(button("Export CSV") { export("csv") })
        header.add(buttons)

        // The agent-rule tip: one line agents should have in CLAUDE.md/AGENTS.md/.cursorrules.
        val tip = JPanel(FlowLayout(FlowLayout.LEFT, 8, 2))
        tip.background = TIP_COLOR
        tip.border = BorderFactory.createEmptyBorder(2, 4, 2, 4)
        tip.add(JLabel("Tip: add the agent rule to your CLAUDE.md / AGENTS.md / .cursorrules"))
        tip.add(button("Copy rule") { copy(HistoryEntries.AGENT_RULE, "Agent rule copied") })
        header.add(tip)

        val filters = JPanel(FlowLayout(FlowLayout.LEFT, 4, 2))
        filters.add(JLabel("Tool:"))
        filters.add(toolFilter)
        filters.add(JLabel("Status:"))
        filters.add(statusFilter)
        filters.add(JLabel("Search:"))
        filters.add(textFilter)
        toolFilter.addActionListener { refresh() }
        statusFilter.addActionListener { refresh() }
        textFilter.document.addDocumentListener(object : DocumentListener {
            override fun insertUpdate(e: DocumentEvent) = refresh()
            override fun removeUpdate(e: DocumentEvent) = refresh()
            override fun changedUpdate(e: DocumentEvent) = refresh()
        })
        header.add(filters)
        return header
    }

    private fun button(text: String, action: () -> Unit) = JButton(text).apply { addActionListener { action() } }

    private fun selected(combo: JComboBox<String>) = (combo.selectedItem as? String)?.takeIf { it != ALL }

    private fun currentFilter(): String = HistoryEntries.filterJson(
        Ide.projectRoot(project), selected(toolFilter), selected(statusFilter), textFilter.text, 1_000,
    )

    /**
     * Reads the filters on the EDT (Swing state), status and history off the EDT, then renders on
     * the EDT. Callable from any thread: off the EDT it re-posts itself.
     */
    fun refresh() {
        if (disposed) return
        if (!SwingUtilities.isEventDispatchThread()) {
            ApplicationManager.getApplication().invokeLater({ refresh() }, ModalityState.stateForComponent(this))
            return
        }
        val filter = currentFilter()
        ApplicationManager.getApplication().executeOnPooledThread {
            val service = DebuggerMcpService.getInstance()
            val state = service.state
            val url = service.url ?: ""
            // Projects opened or closed since (the open/close hooks already rewrote it: no-op when unchanged).
            if (state is DebuggerMcpService.State.Ready && url.isNotEmpty()) {
                InstallOnAgentsDiscovery.publish(url, InstallOnAgentsDiscovery.portOf(url))
            }
            val (entries, error) = if (state is DebuggerMcpService.State.Ready) {
                try {
                    HistoryEntries.parse(NativeBridge.history(filter)) to null
                } catch (t: Throwable) {
                    emptyList<HistoryEntry>() to (t.message ?: t.javaClass.name)
                }
            } else emptyList<HistoryEntry>() to null
            ApplicationManager.getApplication().invokeLater({
                if (disposed) return@invokeLater
                statusLabel.text = when (state) {
                    is DebuggerMcpService.State.Ready -> if (error == null) "● MCP server running" else "● MCP server error: $error"
                    is DebuggerMcpService.State.Failed -> "● MCP server unavailable: ${state.message}"
                    DebuggerMcpService.State.NotStarted -> "○ MCP server starting…"
                }
                urlLabel.text = url
                render(entries)
            }, ModalityState.stateForComponent(this))
        }
    }

    private fun render(entries: List<HistoryEntry>) {
        val keep = list.selectedValue?.id
        listModel.clear()
        entries.forEach { listModel.addElement(it) }
        // Tool filter choices come from what the history contains.
        val tools = (entries.map { it.tool } + listOfNotNull(selected(toolFilter))).distinct().sorted()
        val model = toolFilter.model as DefaultComboBoxModel<String>
        val current = (0 until model.size).map { model.getElementAt(it) }.drop(1)
        if (current != tools) {
            val sel = toolFilter.selectedItem
            val listeners = toolFilter.actionListeners
            listeners.forEach { toolFilter.removeActionListener(it) }
            model.removeAllElements()
            model.addElement(ALL)
            tools.forEach { model.addElement(it) }
            toolFilter.selectedItem = sel
            listeners.forEach { toolFilter.addActionListener(it) }
        }
        val index = entries.indexOfFirst { it.id == keep }
        if (index >= 0) list.selectedIndex = index else if (keep == null) details.text = ""
    }

    private fun showDetails(entry: HistoryEntry?) {
        details.text = entry?.let { HistoryEntries.details(it) } ?: ""
        details.caretPosition = 0
    }

    private fun clear() {
        ApplicationManager.getApplication().executeOnPooledThread {
            if (DebuggerMcpService.getInstance().isReady) NativeBridge.clearHistory()
            refresh()
        }
    }

    private fun copy(text: String, message: String) {
        CopyPasteManager.getInstance().setContents(StringSelection(text))
        notify(message, text)
    }

    private fun notify(title: String, content: String, type: NotificationType = NotificationType.INFORMATION) {
        Notification(NOTIFICATION_GROUP, title, content, type).notify(project)
    }

    /** Plain Swing chooser: saving a file needs nothing from the VFS. */
    private fun export(format: String) {
        val chooser = JFileChooser()
        chooser.selectedFile = File("debugger-mcp-history.$format")
        if (chooser.showSaveDialog(this) != JFileChooser.APPROVE_OPTION) return
        val target = chooser.selectedFile
        val filter = currentFilter()
        ApplicationManager.getApplication().executeOnPooledThread {
            try {
                if (!DebuggerMcpService.getInstance().isReady) error("the MCP engine is not running")
                target.writeText(NativeBridge.exportHistory(format, filter))
                notify("History exported", target.path)
            } catch (t: Throwable) {
                LOG.warn("export failed", t)
                notify("Export failed", t.message ?: t.javaClass.name, NotificationType.ERROR)
            }
        }
    }

    override fun dispose() {
        disposed = true
        timer.stop()
    }

    companion object {
        const val NOTIFICATION_GROUP = "Debugger MCP"
        private const val ALL = "All"
        private val LOG = Logger.getInstance(DebuggerMcpPanel::class.java)
        // Light/dark pairs so the tip and error rows stay readable in every theme.
        private val TIP_COLOR: Color = JBColor(0xFFFBE6, 0x3D3D00)
        private val ERROR_COLOR: Color = JBColor(0xC03030, 0xFF6B68)
    }
}
