package com.intellij.xdebugger.frame;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueGroup.java
public abstract class XValueGroup extends XValueContainer {
  protected XValueGroup(@NotNull String name) { }
  public @NotNull String getName() { throw new UnsupportedOperationException("stub"); }
}
