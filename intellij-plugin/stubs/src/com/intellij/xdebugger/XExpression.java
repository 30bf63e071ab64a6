package com.intellij.xdebugger;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/XExpression.java
public interface XExpression {
  @NotNull String getExpression();
}
