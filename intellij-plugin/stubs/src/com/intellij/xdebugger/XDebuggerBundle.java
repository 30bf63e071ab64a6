package com.intellij.xdebugger;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerBundle.java
public final class XDebuggerBundle {
  private XDebuggerBundle() { }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerBundle.java (file id 6048151278 @07e9a2c7aed4f7424b2933d9c33fd4d439ea4441): read, a DynamicBundle lookup (INSTANCE.getMessage), no rule
  public static @NotNull String message(@NotNull String key, Object @NotNull ... params) { throw new UnsupportedOperationException("stub"); }
}
