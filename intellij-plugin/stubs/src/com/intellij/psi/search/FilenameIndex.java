package com.intellij.psi.search;

import com.intellij.openapi.vfs.VirtualFile;
import java.util.Collection;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/indexing-api/src/com/intellij/psi/search/FilenameIndex.java
public final class FilenameIndex {
  private FilenameIndex() {}
  public static @NotNull Collection<VirtualFile> getVirtualFilesByName(@NotNull String name, @NotNull GlobalSearchScope scope) {
    throw new UnsupportedOperationException("stub");
  }
}
