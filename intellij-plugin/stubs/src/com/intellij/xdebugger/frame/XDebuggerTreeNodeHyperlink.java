package com.intellij.xdebugger.frame;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XDebuggerTreeNodeHyperlink.java
public abstract class XDebuggerTreeNodeHyperlink {
  protected XDebuggerTreeNodeHyperlink(@NotNull String linkText) { }
}
