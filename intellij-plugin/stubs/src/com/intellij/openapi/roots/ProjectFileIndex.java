package com.intellij.openapi.roots;

import com.intellij.openapi.project.Project;
import com.intellij.openapi.vfs.VirtualFile;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/projectModel-api/src/com/intellij/openapi/roots/ProjectFileIndex.java
public interface ProjectFileIndex {
  static ProjectFileIndex getInstance(@NotNull Project project) { throw new UnsupportedOperationException("stub"); }
  boolean isInContent(@NotNull VirtualFile file);
}
