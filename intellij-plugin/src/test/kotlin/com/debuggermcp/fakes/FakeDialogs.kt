// In DialogWrapper's package: the stub's peer hooks are package-private (not API).
package com.intellij.openapi.ui

import com.debuggermcp.fakes.FakeApplication
import com.intellij.openapi.application.ModalityState
import java.util.concurrent.CopyOnWriteArrayList
import java.util.function.Consumer

/**
 * The user in front of DialogWrapper dialogs, standing in for the DialogWrapperPeer the real
 * class gets from DialogWrapperPeerFactory (DialogWrapper.java, file id 44373899730
 * @0219be6ae4c5c050bef75ffa5566ac9c2a21e345):
 * - constructor, `show()` and `close()` call ensureEventDispatchThread: off the EDT the fake
 *   Application records a violation;
 * - a modal dialog's `show()` blocks the EDT in a nested event loop that dispatches only
 *   ModalityState.any() runnables until the dialog is closed ([FakeApplication.modalLoop]);
 *   `showAndGet()` then returns `isOK()`;
 * - a click is an event in that loop: Yes/OK → `close(OK_EXIT_CODE)`, No/Cancel and the
 *   window's close button → `close(CANCEL_EXIT_CODE)` (CLOSE_EXIT_CODE == CANCEL_EXIT_CODE);
 *   a click on a dialog already closed changes nothing (`if (myClosed) return`).
 */
class FakeDialogs(private val app: FakeApplication) {
    val shown = CopyOnWriteArrayList<DialogWrapper>()

    init {
        DialogWrapper.testEdtCheck = Consumer { api -> app.requireEdt(api) }
        DialogWrapper.testPeerShow = Consumer { dialog ->
            shown += dialog
            app.modalLoop { dialog.testClosed() }
        }
    }

    fun title(i: Int = 0): String? = shown[i].testTitle()
    fun isClosed(i: Int = 0): Boolean = shown[i].testClosed()
    fun exitCode(i: Int = 0): Int = shown[i].exitCode

    /** Waits until [n] dialogs were shown (the adapter shows them from an EDT event). */
    fun awaitShown(n: Int = 1, timeoutMs: Long = 5_000) {
        val end = System.currentTimeMillis() + timeoutMs
        while (shown.size < n) {
            check(System.currentTimeMillis() < end) { "no dialog shown within $timeoutMs ms" }
            Thread.sleep(5)
        }
    }

    /** The user clicks: an AWT event dispatched inside the dialog's modal loop. */
    fun click(exitCode: Int, i: Int = 0) {
        app.invokeLater({ shown[i].close(exitCode) }, ModalityState.any())
    }

    fun yes(i: Int = 0) = click(DialogWrapper.OK_EXIT_CODE, i)
    fun no(i: Int = 0) = click(DialogWrapper.CANCEL_EXIT_CODE, i)
    fun closeWindow(i: Int = 0) = click(DialogWrapper.CLOSE_EXIT_CODE, i)

    fun uninstall() {
        DialogWrapper.testEdtCheck = Consumer { }
        DialogWrapper.testPeerShow = Consumer { throw UnsupportedOperationException("stub") }
    }
}
