package com.debuggermcp.settings

import com.debuggermcp.DebuggerMcpService
import com.debuggermcp.bridge.NativeBridge
import com.intellij.openapi.options.Configurable
import com.intellij.openapi.options.ConfigurationException
import java.awt.BorderLayout
import java.awt.Font
import javax.swing.JComponent
import javax.swing.JLabel
import javax.swing.JPanel
import javax.swing.JScrollPane
import javax.swing.JTextArea

/**
 * Settings › Tools › Debugger MCP. The settings belong to Rust (a TOML file it validates and
 * watches), so this page edits that TOML text: Rust renders it, Rust validates it on Apply, and
 * Rust's error (naming the bad key) is shown as the page's error.
 */
class DebuggerMcpConfigurable : Configurable {
    private var area: JTextArea? = null
    private var loaded = ""

    override fun getDisplayName(): String = "Debugger MCP"

    override fun createComponent(): JComponent {
        val panel = JPanel(BorderLayout(0, 8))
        panel.add(JLabel("<html>Settings of the Debugger MCP engine (TOML, stored at " +
            DebuggerMcpService.configPath() + "). Unknown keys are rejected.</html>"), BorderLayout.NORTH)
        val text = JTextArea(24, 80)
        text.font = Font(Font.MONOSPACED, Font.PLAIN, 12)
        area = text
        panel.add(JScrollPane(text), BorderLayout.CENTER)
        reset()
        return panel
    }

    private fun engineReady() = DebuggerMcpService.getInstance().ensureStarted()

    override fun isModified(): Boolean = area?.text != loaded

    override fun apply() {
        val text = area?.text ?: return
        if (!engineReady()) throw ConfigurationException("The Debugger MCP engine is not running, so settings cannot be validated.")
        val error = NativeBridge.saveSettings(text)
        if (error.isNotEmpty()) throw ConfigurationException(error)
        loaded = text
    }

    override fun reset() {
        loaded = if (engineReady()) NativeBridge.settingsToml() else "# The Debugger MCP engine is not running.\n"
        area?.text = loaded
        area?.caretPosition = 0
    }

    override fun disposeUIResources() {
        area = null
    }
}
