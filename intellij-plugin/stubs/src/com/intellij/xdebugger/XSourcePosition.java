package com.intellij.xdebugger;

import com.intellij.openapi.vfs.VirtualFile;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/XSourcePosition.java
public interface XSourcePosition {
  int getLine();
  int getOffset();
  @NotNull VirtualFile getFile();
}
