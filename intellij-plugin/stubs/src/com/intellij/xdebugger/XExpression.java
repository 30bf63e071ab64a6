package com.intellij.xdebugger;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/XExpression.java
public interface XExpression {
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XExpression.java (file id 1881390374 @6cff455c21409de03d4c6167a07b3ef4a150e705): read, an immutable value interface with no annotation or rule
  @NotNull String getExpression();
}
