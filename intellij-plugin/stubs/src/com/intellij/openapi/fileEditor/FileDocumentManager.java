package com.intellij.openapi.fileEditor;

import com.intellij.openapi.editor.Document;
import com.intellij.openapi.vfs.VirtualFile;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/core-api/src/com/intellij/openapi/fileEditor/FileDocumentManager.java
public abstract class FileDocumentManager {
  public static @NotNull FileDocumentManager getInstance() { throw new UnsupportedOperationException("stub"); }
  public abstract @Nullable Document getDocument(@NotNull VirtualFile file);
}
