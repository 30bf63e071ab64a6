package com.intellij.xdebugger.frame;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueCallback.java
public interface XValueCallback {
  void errorOccurred(@NotNull String errorMessage);
}
