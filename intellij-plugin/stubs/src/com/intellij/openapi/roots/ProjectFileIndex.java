package com.intellij.openapi.roots;

import com.intellij.openapi.project.Project;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/projectModel-api/src/com/intellij/openapi/roots/ProjectFileIndex.java
public interface ProjectFileIndex extends FileIndex {
  // As the real one: a project service (the JUnit fakes register theirs).
  static @NotNull ProjectFileIndex getInstance(@NotNull Project project) { return project.getService(ProjectFileIndex.class); }
}
