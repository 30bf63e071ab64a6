package com.intellij.openapi.vfs;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/core-api/src/com/intellij/openapi/vfs/VirtualFile.java
public abstract class VirtualFile {
  protected VirtualFile() { }
  public abstract @NotNull String getPath();
  public @NotNull String getUrl() { throw new UnsupportedOperationException("stub"); }
  public abstract boolean isDirectory();
}
