package com.intellij.openapi.ide;

import org.jetbrains.annotations.NotNull;

import java.awt.datatransfer.Transferable;

// intellij-community: platform/platform-api/src/com/intellij/openapi/ide/CopyPasteManager.java
public abstract class CopyPasteManager {
  public static CopyPasteManager getInstance() { throw new UnsupportedOperationException("stub"); }
  public abstract void setContents(@NotNull Transferable content);
}
