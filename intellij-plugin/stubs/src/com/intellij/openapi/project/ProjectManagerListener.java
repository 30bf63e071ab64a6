package com.intellij.openapi.project;

import org.jetbrains.annotations.NotNull;

// Only the member the plugin implements (file id 7858494655); the real interface's others are default methods too.
// intellij-community: platform/projectModel-api/src/com/intellij/openapi/project/ProjectManagerListener.java
public interface ProjectManagerListener extends java.util.EventListener {
  default void projectClosingBeforeSave(@NotNull Project project) { }
}
