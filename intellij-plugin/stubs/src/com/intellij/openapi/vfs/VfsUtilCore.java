package com.intellij.openapi.vfs;

import org.jetbrains.annotations.NotNull;

import java.io.IOException;

// intellij-community: platform/core-api/src/com/intellij/openapi/vfs/VfsUtilCore.java
public class VfsUtilCore {
  public static @NotNull String urlToPath(@NotNull String url) { throw new UnsupportedOperationException("stub"); }
  public static @NotNull String loadText(@NotNull VirtualFile file) throws IOException { throw new UnsupportedOperationException("stub"); }
}
