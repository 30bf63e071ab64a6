package com.debuggermcp.adapter

import com.intellij.openapi.fileEditor.FileDocumentManager
import com.intellij.openapi.project.Project
import com.intellij.openapi.vfs.VfsUtilCore

/** Current text of a file: the editor's document when open (unsaved edits included), else disk. */
internal object SourceOps {
    suspend fun read(project: Project, path: String): String {
        val root = Ide.projectRoot(project)
        val canonical = Ide.canonical(path)
        // Rust refuses paths outside the project first; this is the IDE's own guard.
        if (canonical != root && !canonical.startsWith(root + java.io.File.separator)) {
            invalidState("'$path' is outside the project root $root")
        }
        val file = Ide.file(path)
        if (file.isDirectory) invalidState("'$path' is a directory")
        return Ide.read {
            FileDocumentManager.getInstance().getDocument(file)?.text ?: VfsUtilCore.loadText(file)
        }
    }
}
