package com.debuggermcp.adapter

import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.application.ModalityState
import com.intellij.openapi.application.readAction
import com.intellij.openapi.application.smartReadAction
import com.intellij.openapi.project.Project
import com.intellij.openapi.project.ProjectManager
import com.intellij.openapi.util.Computable
import com.intellij.openapi.vfs.LocalFileSystem
import com.intellij.openapi.vfs.VirtualFile
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.suspendCancellableCoroutine
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeoutOrNull
import java.io.File
import kotlin.coroutines.resume
import kotlin.coroutines.resumeWithException

/**
 * Threading helpers. Ops run as coroutines on Dispatchers.Default (never on Netty's or Rust's
 * threads); platform calls that must happen on the EDT are posted with [onEdt] and awaited
 * without blocking anyone; model changes use [writeAction] on the EDT.
 */
internal object Ide {
    /**
     * Runs [block] on the EDT and returns its result. The default, [ModalityState.any], is for
     * reads (presentations, children, frames, evaluation) that may run while a modal dialog is
     * open; anything that changes the debugger's or the model's state passes
     * [ModalityState.nonModal], as the platform's actions run (steps, stop, frame selection, set
     * value; model writes through [writeAction]).
     */
    suspend fun <T> onEdt(modality: ModalityState = ModalityState.any(), block: () -> T): T =
        suspendCancellableCoroutine { cont ->
            ApplicationManager.getApplication().invokeLater({
                if (!cont.isActive) return@invokeLater
                try {
                    cont.resume(block())
                } catch (t: Throwable) {
                    cont.resumeWithException(t)
                }
            }, modality)
        }

    /**
     * A write action on the EDT, non-modal so it never changes the model under a modal dialog
     * (if one is open, the op waits and Rust's timeout answers the agent).
     */
    suspend fun <T> writeAction(block: () -> T): T = onEdt(ModalityState.nonModal()) {
        ApplicationManager.getApplication().runWriteAction(Computable { block() })
    }

    /**
     * Runs a clean-up [block] to its end even when the calling op was cancelled (its budget
     * ended): in a cancelled coroutine [onEdt] throws at once and the posted runnable skips, so
     * what the op created (a breakpoint, a run configuration) would stay in the user's project.
     * Still bounded, so a modal dialog holding non-modal posts cannot hang the op.
     */
    suspend fun cleanup(block: suspend () -> Unit) {
        withContext(NonCancellable) { withTimeoutOrNull(CLEANUP_MS) { block() } }
    }

    private const val CLEANUP_MS = 5_000L

    /**
     * A read action that suspends instead of blocking: `readAction` waits for the lock without
     * holding a thread and is cancelled and retried when a write action comes (so [block] must be
     * idempotent). Blocking `runReadAction` inside a coroutine can stall the write lock and the
     * EDT behind it.
     */
    suspend fun <T> read(block: () -> T): T = readAction(block)

    /**
     * [read] that first waits for indexing to finish (and restarts when it begins): for anything
     * that touches indexes — FilenameIndex, run configuration producers, `checkSettings` — which
     * throw IndexNotReadyException in a plain read action during indexing (dumb mode).
     */
    suspend fun <T> smartRead(project: Project, block: () -> T): T = smartReadAction(project, block)

    fun canonical(path: String): String = try {
        File(path).canonicalPath
    } catch (_: Exception) {
        File(path).absolutePath
    }

    fun openProjects(): List<Project> = ProjectManager.getInstance().openProjects.filter { !it.isDisposed && it.basePath != null }

    fun projectRoot(project: Project): String = canonical(project.basePath ?: "")

    /** The project whose root is [root] (as returned by op `projects`). */
    fun project(root: String): Project {
        val want = canonical(root)
        val open = openProjects()
        return open.firstOrNull { projectRoot(it) == want }
            ?: notFound("no open project at '$root'; open projects: " + open.joinToString { projectRoot(it) })
    }

    /**
     * Finds a local file, refreshing the VFS so files created outside the IDE are seen. Call it
     * outside read actions and off the EDT: a synchronous refresh under the read lock is refused
     * by RefreshQueueImpl (file id 5802257166) and the file is then "not found".
     */
    fun file(path: String): VirtualFile {
        val fs = LocalFileSystem.getInstance()
        val normalized = path.replace('\\', '/')
        return fs.findFileByPath(normalized) ?: fs.refreshAndFindFileByPath(normalized)
            ?: notFound("file not found: $path")
    }
}
