package com.debuggermcp.adapter

import com.debuggermcp.json.JsonArgs
import com.intellij.openapi.project.Project
import com.intellij.openapi.ui.DialogWrapper
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.withTimeoutOrNull
import javax.swing.JComponent
import javax.swing.JLabel

/**
 * Asks the user (start session, set variable, side effects...). The dialog is shown without
 * blocking anyone: `show()` runs in an EDT event, the op's coroutine waits for the answer, and
 * when the op times out the dialog is closed so it never hangs around unanswered.
 */
internal object ConfirmOps {
    private class ConfirmDialog(project: Project, title: String, private val message: String) : DialogWrapper(project, true) {
        init {
            setTitle(title)
            init()
        }

        override fun createCenterPanel(): JComponent =
            JLabel("<html>" + message.replace("&", "&amp;").replace("<", "&lt;").replace("\n", "<br>") + "</html>")
    }

    suspend fun confirm(project: Project, request: JsonArgs, timeoutMs: Long): Boolean {
        val title = request.string("title")
        val message = request.string("message")
        val answer = CompletableDeferred<Boolean>()
        var dialog: ConfirmDialog? = null
        // any(): the question must appear even if another modal dialog is open.
        Ide.onEdt {
            val d = ConfirmDialog(project, "Debugger MCP: $title", message)
            dialog = d
            // show() is modal and returns when the user answers; we are inside an EDT event, not
            // blocking a Netty or Rust thread, and the coroutine awaits `answer`.
            com.intellij.openapi.application.ApplicationManager.getApplication().invokeLater({
                answer.complete(d.showAndGet())
            }, com.intellij.openapi.application.ModalityState.any())
        }
        val result = withTimeoutOrNull(timeoutMs - 1_000) { answer.await() }
        if (result == null) {
            Ide.onEdt { dialog?.close(DialogWrapper.CANCEL_EXIT_CODE) }
            throw OpException(ErrorKind.TIMEOUT, "the user did not answer the confirmation dialog")
        }
        return result
    }
}
