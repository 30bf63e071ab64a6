package com.debuggermcp.adapter

import com.debuggermcp.json.JsonArgs
import com.intellij.openapi.project.Project
import com.intellij.openapi.ui.DialogWrapper
import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.application.ModalityState
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.withTimeoutOrNull
import javax.swing.JComponent
import java.util.concurrent.atomic.AtomicReference
import javax.swing.JLabel

/**
 * Asks the user (start session, set variable, side effects...). The dialog is shown without
 * blocking anyone: `showAndGet()` runs in its own non-modal EDT event, the op's coroutine waits
 * for the answer, and when the op times out the dialog is closed so it never hangs around.
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
        val dialog = AtomicReference<ConfirmDialog?>()
        val app = ApplicationManager.getApplication()
        // A modal dialog is shown from a non-modal EDT event: with ModalityState.any() it would
        // pop up inside whatever modal dialog is open (the platform forbids dialogs there). If
        // one is open, ours waits for it to close; the op's timeout then answers the agent.
        app.invokeLater({
            if (answer.isCompleted) return@invokeLater // timed out before it could be shown
            val d = ConfirmDialog(project, Wire.confirmTitle(title), message)
            dialog.set(d)
            answer.complete(d.showAndGet())
        }, ModalityState.nonModal())
        val result = withTimeoutOrNull(timeoutMs - 1_000) { answer.await() }
        if (result == null) {
            answer.complete(false)
            // Closing our own dialog touches no model, so it may run inside its modal loop.
            app.invokeLater({ dialog.get()?.close(DialogWrapper.CANCEL_EXIT_CODE) }, ModalityState.any())
            throw OpException(ErrorKind.TIMEOUT, "the user did not answer the confirmation dialog")
        }
        return result
    }
}
