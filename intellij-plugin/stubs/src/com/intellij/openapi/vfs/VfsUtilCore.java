package com.intellij.openapi.vfs;

import org.jetbrains.annotations.NotNull;

import java.io.IOException;

// intellij-community: platform/core-api/src/com/intellij/openapi/vfs/VfsUtilCore.java
public class VfsUtilCore {
  // threading: any VfsUtilCore.java: string conversion (unverified)
  public static @NotNull String urlToPath(@NotNull String url) {
    // Stub body for the JUnit fakes: the protocol prefix removed, as the real one does for file:// URLs.
    int i = url.indexOf("://");
    return i < 0 ? url : url.substring(i + 3);
  }
  // threading: read unverified: VfsUtilCore.java; the adapter reads file text in a read action
  public static @NotNull String loadText(@NotNull VirtualFile file) throws IOException { throw new UnsupportedOperationException("stub"); }
}
