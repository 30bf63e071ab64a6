package com.debuggermcp.listeners

import com.debuggermcp.adapter.ProjectCleanup
import com.intellij.openapi.diagnostic.Logger
import com.intellij.openapi.project.Project
import com.intellij.openapi.project.ProjectManagerListener

/**
 * Registered in plugin.xml as an application listener on ProjectManagerListener's topic
 * (ProjectManager.TOPIC): ProjectManagerImpl.closeProject publishes `projectClosingBeforeSave`
 * on the EDT before it saves the closing project (ProjectManagerImpl.kt, file id 1497337143;
 * ProjectManagerListener.java, file id 7858494655), and the IDE's exit closes every project
 * that way. See [ProjectCleanup.releaseBeforeSave].
 */
class ProjectCloseCleanup : ProjectManagerListener {
    override fun projectClosingBeforeSave(project: Project) {
        // A listener's exception is only logged by the platform; never let ours stop the close.
        try {
            ProjectCleanup.releaseBeforeSave(project)
        } catch (t: Throwable) {
            LOG.warn("could not remove the agent's session breakpoints and temporary configurations before the project was saved", t)
        }
    }

    private companion object {
        val LOG: Logger by lazy { Logger.getInstance(ProjectCloseCleanup::class.java) }
    }
}
