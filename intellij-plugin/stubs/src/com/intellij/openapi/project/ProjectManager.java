package com.intellij.openapi.project;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/projectModel-api/src/com/intellij/openapi/project/ProjectManager.java
public abstract class ProjectManager {
  // No public constructor in the real class (the API dump lists none).
  private ProjectManager() { }
  public static ProjectManager getInstance() { throw new UnsupportedOperationException("stub"); }
  public abstract Project @NotNull [] getOpenProjects();
}
