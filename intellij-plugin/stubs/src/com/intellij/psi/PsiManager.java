package com.intellij.psi;

import com.intellij.openapi.project.Project;
import com.intellij.openapi.vfs.VirtualFile;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/core-api/src/com/intellij/psi/PsiManager.java
public abstract class PsiManager {
  // As the real one: a project service (the JUnit fakes register theirs).
  // threading: any platform/core-api/src/com/intellij/psi/PsiManager.java (file id 4545234843): read, `project.getService(PsiManager.class)`, no annotation (findFile beside it carries @RequiresReadLock)
  public static @NotNull PsiManager getInstance(@NotNull Project project) {
    return project.getService(PsiManager.class);
  }

  // threading: read PsiManager.java (file id 4545234843): @RequiresReadLock and @RequiresBackgroundThread(generateAssertion = false); the adapter reads it in smart read actions off the EDT
  public abstract @Nullable PsiFile findFile(@NotNull VirtualFile file);
}
