package com.intellij.xdebugger.breakpoints;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpointType.java
public abstract class XBreakpointType<B extends XBreakpoint<P>, P extends XBreakpointProperties> {
  protected XBreakpointType(@NotNull String id, @NotNull String title) { }
  public final @NotNull String getId() { throw new UnsupportedOperationException("stub"); }
  public @NotNull String getTitle() { throw new UnsupportedOperationException("stub"); }
}
