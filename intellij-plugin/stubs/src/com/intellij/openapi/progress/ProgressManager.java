package com.intellij.openapi.progress;

import com.intellij.openapi.project.Project;
import com.intellij.openapi.util.ThrowableComputable;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/core-api/src/com/intellij/openapi/progress/ProgressManager.java
public abstract class ProgressManager {
  public static ProgressManager getInstance() { throw new UnsupportedOperationException("stub"); }
  public abstract <T, E extends Exception> T runProcessWithProgressSynchronously(@NotNull ThrowableComputable<T, E> process,
                                                                                  @NotNull String progressTitle,
                                                                                  boolean canBeCanceled,
                                                                                  @Nullable Project project) throws E;
}
