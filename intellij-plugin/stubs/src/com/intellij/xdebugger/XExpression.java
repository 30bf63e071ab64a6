package com.intellij.xdebugger;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/XExpression.java
public interface XExpression {
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XExpression.java: a getter/value call with no threading rule known (unverified)
  @NotNull String getExpression();
}
