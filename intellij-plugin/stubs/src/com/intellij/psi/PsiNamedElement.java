package com.intellij.psi;

import org.jetbrains.annotations.Nullable;

// intellij-community: platform/core-api/src/com/intellij/psi/PsiNamedElement.java
public interface PsiNamedElement extends PsiElement {
  @Nullable String getName();
}
