package com.intellij.openapi.vfs;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/core-api/src/com/intellij/openapi/vfs/VirtualFile.java
public abstract class VirtualFile {
  protected VirtualFile() { }
  // threading: any platform/core-api/src/com/intellij/openapi/vfs/VirtualFile.java (file id 3966286164): read, "Gets the path of this file … uniquely identifies a file within a given VirtualFileSystem", no annotation or rule
  public abstract @NotNull String getPath();
  // threading: any platform/core-api/src/com/intellij/openapi/vfs/VirtualFile.java (file id 3966286164): read, built from the file system's protocol and getPath(), no annotation or rule
  public @NotNull String getUrl() { throw new UnsupportedOperationException("stub"); }
  // threading: any platform/core-api/src/com/intellij/openapi/vfs/VirtualFile.java (file id 3966286164): read, cached VFS attribute, no annotation or rule
  public abstract boolean isDirectory();
}
