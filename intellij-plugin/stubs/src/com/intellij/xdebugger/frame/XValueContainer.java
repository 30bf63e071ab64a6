package com.intellij.xdebugger.frame;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueContainer.java
public abstract class XValueContainer {
  public void computeChildren(@NotNull XCompositeNode node) { }
}
