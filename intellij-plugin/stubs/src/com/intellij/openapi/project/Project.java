package com.intellij.openapi.project;

import com.intellij.openapi.components.ComponentManager;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/core-api/src/com/intellij/openapi/project/Project.java
public interface Project extends ComponentManager {
  @NotNull String getName();
  @Nullable String getBasePath();
}
