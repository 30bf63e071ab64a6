package com.intellij.psi;

import com.intellij.openapi.vfs.VirtualFile;

// intellij-community: platform/core-api/src/com/intellij/psi/PsiFile.java
public interface PsiFile extends PsiElement {
  VirtualFile getVirtualFile();
}
