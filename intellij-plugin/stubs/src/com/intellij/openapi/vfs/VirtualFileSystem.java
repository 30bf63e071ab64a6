package com.intellij.openapi.vfs;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/core-api/src/com/intellij/openapi/vfs/VirtualFileSystem.java
public abstract class VirtualFileSystem {
  protected VirtualFileSystem() { }
  public abstract @Nullable VirtualFile findFileByPath(@NotNull String path);
  public abstract @Nullable VirtualFile refreshAndFindFileByPath(@NotNull String path);
}
