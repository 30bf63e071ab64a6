package com.intellij.psi.search;

import com.intellij.openapi.project.Project;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/core-api/src/com/intellij/psi/search/GlobalSearchScope.java
public abstract class GlobalSearchScope {
  protected GlobalSearchScope() { }
  public static @NotNull GlobalSearchScope projectScope(@NotNull Project project) {
    throw new UnsupportedOperationException("stub");
  }
}
