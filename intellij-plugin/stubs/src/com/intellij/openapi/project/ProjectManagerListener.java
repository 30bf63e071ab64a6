package com.intellij.openapi.project;

import org.jetbrains.annotations.NotNull;

import java.util.EventListener;

// intellij-community: platform/projectModel-api/src/com/intellij/openapi/project/ProjectManagerListener.java
public interface ProjectManagerListener extends EventListener {
  /** @deprecated for removal in the real interface ("Consider using Post start-up activity"). */
  @Deprecated
  default void projectOpened(@NotNull Project project) { }
  /** @deprecated for removal in the real interface (VetoableProjectManagerListener instead). */
  @Deprecated
  default boolean canCloseProject(@NotNull Project project) { return true; }
  default void projectClosed(@NotNull Project project) { }
  default void projectClosing(@NotNull Project project) { }
  default void projectClosingBeforeSave(@NotNull Project project) { }
}
