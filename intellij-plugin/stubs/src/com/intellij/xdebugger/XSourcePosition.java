package com.intellij.xdebugger;

import com.intellij.openapi.vfs.VirtualFile;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/XSourcePosition.java
public interface XSourcePosition {
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XSourcePosition.java (file id 1275443269 @03980ad0dccbd9a9140c4dc2415985c469f99ae7): read, "0-based number of line", no annotation or rule
  int getLine();
  int getOffset();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XSourcePosition.java (file id 1275443269 @03980ad0dccbd9a9140c4dc2415985c469f99ae7): read, no annotation or rule
  @NotNull VirtualFile getFile();
}
