package com.debuggermcp.ui

import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.project.Project
import com.intellij.openapi.project.ProjectManagerListener

/**
 * Project close, as the platform tells application listeners (plugin.xml
 * `<applicationListeners>`, topic ProjectManager.TOPIC): ProjectManagerImpl.closeProject
 * removes the project from the open ones and then fires projectClosed on the application bus's
 * ProjectManager.TOPIC (fireProjectClosed: `publisher.projectClosed(project)`), inside a write
 * action on the EDT (ProjectManagerImpl.kt, file ids 25931666102, 7012511389); so the record is rewritten on a
 * pooled thread, without the closing project. ProjectManagerListener.projectClosed is not
 * deprecated (projectOpened is, for removal: post-start-up activities replace it), and
 * ProjectCloseListener, which it points to, is still @ApiStatus.Experimental
 * (ProjectManagerListener.java @15343567cf7809eb623839598d6437db1454e59b; ProjectCloseListener.kt,
 * file id 9415138363). Opening is handled by the post-start-up activity.
 */
class DiscoveryProjectListener : ProjectManagerListener {
    override fun projectClosed(project: Project) {
        ApplicationManager.getApplication().executeOnPooledThread {
            try {
                InstallOnAgentsDiscovery.refresh(closing = project)
            } catch (t: Throwable) {
                InstallOnAgentsDiscovery.LOG.warn("cannot rewrite the Debugger MCP discovery record after a project closed", t)
            }
        }
    }
}
