package com.intellij.openapi.roots;

import com.intellij.openapi.vfs.VirtualFile;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/projectModel-api/src/com/intellij/openapi/roots/FileIndex.java
public interface FileIndex {
  boolean isInContent(@NotNull VirtualFile file);
}
