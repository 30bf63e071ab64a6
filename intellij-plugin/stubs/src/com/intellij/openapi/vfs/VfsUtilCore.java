package com.intellij.openapi.vfs;

import org.jetbrains.annotations.NotNull;

import java.io.IOException;

// intellij-community: platform/core-api/src/com/intellij/openapi/vfs/VfsUtilCore.java
public class VfsUtilCore {
  // threading: any VfsUtilCore.java: string conversion (unverified)
  public static @NotNull String urlToPath(@NotNull String url) { throw new UnsupportedOperationException("stub"); }
  // threading: read unverified: VfsUtilCore.java; the adapter reads file text in a read action
  public static @NotNull String loadText(@NotNull VirtualFile file) throws IOException { throw new UnsupportedOperationException("stub"); }
}
