package com.intellij.openapi.vfs;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/core-api/src/com/intellij/openapi/vfs/VirtualFileSystem.java
public abstract class VirtualFileSystem {
  protected VirtualFileSystem() { }
  // threading: any platform/core-api/src/com/intellij/openapi/vfs/VirtualFileSystem.java (file id 69137524599 @0d756ce25492936f431ce64650c9fff6046a34f0): read, "Searches for a file specified by the given path", no rule (unlike refreshAndFindFileByPath below, which must not run in a read action off the EDT)
  public abstract @Nullable VirtualFile findFileByPath(@NotNull String path);
  // threading: bgt RefreshQueueImpl.execute (file id 5802257166): no synchronous refresh under the read lock or on the EDT
  public abstract @Nullable VirtualFile refreshAndFindFileByPath(@NotNull String path);
}
