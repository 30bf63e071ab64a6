package com.intellij.openapi.vfs;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/core-api/src/com/intellij/openapi/vfs/VirtualFileSystem.java
public abstract class VirtualFileSystem {
  protected VirtualFileSystem() { }
  // threading: any VirtualFileSystem.java: an in-memory VFS lookup (unverified)
  public abstract @Nullable VirtualFile findFileByPath(@NotNull String path);
  // threading: bgt RefreshQueueImpl.execute (file id 5802257166): no synchronous refresh under the read lock or on the EDT
  public abstract @Nullable VirtualFile refreshAndFindFileByPath(@NotNull String path);
}
