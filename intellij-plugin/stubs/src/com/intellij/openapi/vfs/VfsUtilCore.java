package com.intellij.openapi.vfs;

import org.jetbrains.annotations.NotNull;

import java.io.IOException;

// intellij-community: platform/core-api/src/com/intellij/openapi/vfs/VfsUtilCore.java
public class VfsUtilCore {
  // threading: any platform/core-api/src/com/intellij/openapi/vfs/VfsUtilCore.java (file id 3420135017): read, pure string conversion, no rule
  public static @NotNull String urlToPath(@NotNull String url) {
    // Stub body for the JUnit fakes: the protocol prefix removed, as the real one does for file:// URLs.
    int i = url.indexOf("://");
    return i < 0 ? url : url.substring(i + 3);
  }
  // threading: any platform/core-api/src/com/intellij/openapi/vfs/VfsUtilCore.java (file id 3420135017): read, no annotation or rule: `loadText(file, (int)file.getLength())` reads file.getInputStream() with the file's charset (disk I/O: the adapter keeps it off the EDT)
  public static @NotNull String loadText(@NotNull VirtualFile file) throws IOException { throw new UnsupportedOperationException("stub"); }
}
