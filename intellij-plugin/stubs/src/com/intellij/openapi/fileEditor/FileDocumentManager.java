package com.intellij.openapi.fileEditor;

import com.intellij.openapi.editor.Document;
import com.intellij.openapi.vfs.VirtualFile;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/core-api/src/com/intellij/openapi/fileEditor/FileDocumentManager.java
public abstract class FileDocumentManager {
  // As the real one: an application service (the JUnit fakes register theirs).
  public static @NotNull FileDocumentManager getInstance() { return com.intellij.openapi.application.ApplicationManager.getApplication().getService(FileDocumentManager.class); }
  // threading: read FileDocumentManager.java (file id 3859636373): @RequiresReadLock, "Should be invoked in a read action"
  public abstract @Nullable Document getDocument(@NotNull VirtualFile file);
}
