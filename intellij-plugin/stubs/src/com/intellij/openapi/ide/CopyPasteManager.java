package com.intellij.openapi.ide;

import org.jetbrains.annotations.NotNull;

import java.awt.datatransfer.Transferable;

// intellij-community: platform/editor-ui-api/src/com/intellij/openapi/ide/CopyPasteManager.java
public abstract class CopyPasteManager {
  // The real constructor is protected and @ApiStatus.Internal (absent from the API dump); the
  // plugin only uses getInstance().
  private CopyPasteManager() { }
  public static CopyPasteManager getInstance() { throw new UnsupportedOperationException("stub"); }
  public abstract void setContents(@NotNull Transferable content);
}
