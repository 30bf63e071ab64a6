package com.intellij.xdebugger;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerBundle.java
public final class XDebuggerBundle {
  private XDebuggerBundle() { }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerBundle.java: a getter/value call with no threading rule known (unverified)
  public static @NotNull String message(@NotNull String key, Object @NotNull ... params) { throw new UnsupportedOperationException("stub"); }
}
