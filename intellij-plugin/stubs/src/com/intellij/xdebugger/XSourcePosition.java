package com.intellij.xdebugger;

import com.intellij.openapi.vfs.VirtualFile;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/XSourcePosition.java
public interface XSourcePosition {
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XSourcePosition.java: a getter/value call with no threading rule known (unverified)
  int getLine();
  int getOffset();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XSourcePosition.java: a getter/value call with no threading rule known (unverified)
  @NotNull VirtualFile getFile();
}
