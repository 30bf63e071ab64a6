package com.debuggermcp.settings

import com.debuggermcp.DebuggerMcpService
import com.debuggermcp.bridge.NativeBridge
import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.application.ModalityState
import com.intellij.openapi.options.Configurable
import com.intellij.openapi.options.ConfigurationException
import com.intellij.openapi.progress.ProgressManager
import com.intellij.openapi.util.ThrowableComputable
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
 *
 * Threading: the platform calls this page on the EDT. Starting the engine loads a native library
 * and every NativeBridge call crosses JNI, so none of that runs on the EDT: the text is loaded on
 * a pooled thread and filled in afterwards, and Apply validates under a modal progress (a
 * background thread; the EDT keeps painting) because it must throw its error synchronously.
 */
class DebuggerMcpConfigurable : Configurable {
    private var area: JTextArea? = null
    private var loaded = LOADING

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

    override fun isModified(): Boolean = area?.text != loaded

    override fun apply() {
        val text = area?.text ?: return
        if (text == LOADING) return
        val error = ProgressManager.getInstance().runProcessWithProgressSynchronously(
            ThrowableComputable<String?, RuntimeException> {
                if (!DebuggerMcpService.getInstance().ensureStarted()) null else NativeBridge.saveSettings(text)
            },
            "Saving Debugger MCP settings", false, null,
        ) ?: throw ConfigurationException("The Debugger MCP engine is not running, so settings cannot be validated.")
        if (error.isNotEmpty()) throw ConfigurationException(error)
        loaded = text
    }

    override fun reset() {
        val text = area ?: return
        loaded = LOADING
        text.text = LOADING
        text.isEditable = false
        ApplicationManager.getApplication().executeOnPooledThread {
            val toml = try {
                if (DebuggerMcpService.getInstance().ensureStarted()) NativeBridge.settingsToml() else NOT_RUNNING
            } catch (t: Throwable) {
                "# The Debugger MCP settings could not be read: ${t.message}\n"
            }
            ApplicationManager.getApplication().invokeLater({
                // The page may have been closed (or reset again) meanwhile.
                if (area !== text || text.text != LOADING) return@invokeLater
                loaded = toml
                text.text = toml
                text.isEditable = toml != NOT_RUNNING
                text.caretPosition = 0
            }, ModalityState.stateForComponent(text))
        }
    }

    override fun disposeUIResources() {
        area = null
    }

    private companion object {
        const val LOADING = "# Loading the Debugger MCP settings…\n"
        const val NOT_RUNNING = "# The Debugger MCP engine is not running.\n"
    }
}
