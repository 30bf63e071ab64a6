package com.intellij.openapi.vfs;

// Real hierarchy: LocalFileSystem extends NewVirtualFileSystem extends VirtualFileSystem; the
// intermediate class adds nothing this plugin uses, so the stub extends VirtualFileSystem directly.
// intellij-community: platform/analysis-api/src/com/intellij/openapi/vfs/LocalFileSystem.java
public abstract class LocalFileSystem extends VirtualFileSystem {
  // The real one asks VirtualFileManager (an application service) for the "file" file system; the
  // stub asks the application for a LocalFileSystem service directly so the JUnit fakes can supply one.
  // threading: any platform/analysis-api/src/com/intellij/openapi/vfs/LocalFileSystem.java (file id 6595238670 @07e9a2c7aed4f7424b2933d9c33fd4d439ea4441): read, a holder-class singleton (VirtualFileManager.getFileSystem(PROTOCOL)), no rule
  public static LocalFileSystem getInstance() { return com.intellij.openapi.application.ApplicationManager.getApplication().getService(LocalFileSystem.class); }
}
