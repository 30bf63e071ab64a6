package com.intellij.openapi.vfs;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/analysis-api/src/com/intellij/openapi/vfs/LocalFileSystem.java
public abstract class LocalFileSystem {
  public static LocalFileSystem getInstance() { throw new UnsupportedOperationException("stub"); }
  public abstract @Nullable VirtualFile findFileByPath(@NotNull String path);
  public abstract @Nullable VirtualFile refreshAndFindFileByPath(@NotNull String path);
}
