package com.intellij.openapi.vfs;

// Real hierarchy: LocalFileSystem extends NewVirtualFileSystem extends VirtualFileSystem; the
// intermediate class adds nothing this plugin uses, so the stub extends VirtualFileSystem directly.
// intellij-community: platform/analysis-api/src/com/intellij/openapi/vfs/LocalFileSystem.java
public abstract class LocalFileSystem extends VirtualFileSystem {
  public static LocalFileSystem getInstance() { throw new UnsupportedOperationException("stub"); }
}
