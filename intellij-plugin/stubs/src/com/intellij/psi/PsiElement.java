package com.intellij.psi;

import com.intellij.openapi.project.Project;
import com.intellij.openapi.util.UserDataHolder;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/core-api/src/com/intellij/psi/PsiElement.java
public interface PsiElement extends UserDataHolder {
  @NotNull Project getProject();
  @Nullable PsiFile getContainingFile();
  boolean isValid();
}
