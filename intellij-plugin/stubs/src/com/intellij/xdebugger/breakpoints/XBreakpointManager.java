package com.intellij.xdebugger.breakpoints;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpointManager.java
public interface XBreakpointManager {
  @NotNull <T extends XBreakpointProperties>
  // threading: write XBreakpointManagerImpl.java (platform/xdebugger-impl/src/com/intellij/xdebugger/impl/breakpoints/, file id 1648346929 @009b3bb3b4fffc9291bdc67892e2bd8bf10ef951): doAddBreakpoint starts with assertWriteAccessAllowed()
  XBreakpoint<T> addBreakpoint(XBreakpointType<XBreakpoint<T>, T> type, @Nullable T properties);

  @NotNull <T extends XBreakpointProperties>
  // threading: write XBreakpointManagerImpl.java (platform/xdebugger-impl/src/com/intellij/xdebugger/impl/breakpoints/, file id 1648346929 @009b3bb3b4fffc9291bdc67892e2bd8bf10ef951): addLineBreakpoint starts with assertWriteAccessAllowed()
  XLineBreakpoint<T> addLineBreakpoint(XLineBreakpointType<T> type, @NotNull String fileUrl, int line, @Nullable T properties, boolean temporary);

  // threading: write XBreakpointManagerImpl.java (platform/xdebugger-impl/src/com/intellij/xdebugger/impl/breakpoints/, file id 1648346929 @009b3bb3b4fffc9291bdc67892e2bd8bf10ef951): removeBreakpoint starts with assertWriteAccessAllowed()
  void removeBreakpoint(@NotNull XBreakpoint<?> breakpoint);

  // threading: read XBreakpointManagerImpl.java (platform/xdebugger-impl/src/com/intellij/xdebugger/impl/breakpoints/, file id 1648346929 @009b3bb3b4fffc9291bdc67892e2bd8bf10ef951): getAllBreakpoints starts with assertReadAccessAllowed()
  XBreakpoint<?> @NotNull [] getAllBreakpoints();
}
