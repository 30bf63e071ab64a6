package com.intellij.xdebugger.breakpoints;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpointManager.java
public interface XBreakpointManager {
  @NotNull <T extends XBreakpointProperties>
  // threading: write XBreakpointManager.java @012719fa3f22c4ffd86373b7e657b459442325bd states no rule; it changes the project model, so the adapter calls it in a write action on the EDT
  XBreakpoint<T> addBreakpoint(XBreakpointType<XBreakpoint<T>, T> type, @Nullable T properties);

  @NotNull <T extends XBreakpointProperties>
  // threading: write XBreakpointManager.java @012719fa3f22c4ffd86373b7e657b459442325bd states no rule; model change in a write action on the EDT (as XDebuggerUtilImpl.toggleAndReturnLineBreakpoint)
  XLineBreakpoint<T> addLineBreakpoint(XLineBreakpointType<T> type, @NotNull String fileUrl, int line, @Nullable T properties, boolean temporary);

  // threading: write XBreakpointManager.java @012719fa3f22c4ffd86373b7e657b459442325bd states no rule; model change in a write action on the EDT
  void removeBreakpoint(@NotNull XBreakpoint<?> breakpoint);

  // threading: read XBreakpointManager.java @012719fa3f22c4ffd86373b7e657b459442325bd states no rule; the adapter reads the model in read actions
  XBreakpoint<?> @NotNull [] getAllBreakpoints();
}
