package com.intellij.openapi.vfs;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/core-api/src/com/intellij/openapi/vfs/VirtualFile.java
public abstract class VirtualFile {
  protected VirtualFile() { }
  // threading: any VirtualFile.java: immutable file identity (unverified)
  public abstract @NotNull String getPath();
  // threading: any VirtualFile.java: immutable file identity (unverified)
  public @NotNull String getUrl() { throw new UnsupportedOperationException("stub"); }
  // threading: any VirtualFile.java: immutable file identity (unverified)
  public abstract boolean isDirectory();
}
