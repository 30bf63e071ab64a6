package com.intellij.xdebugger.breakpoints;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XLineBreakpoint.java
public interface XLineBreakpoint<P extends XBreakpointProperties> extends XBreakpoint<P> {
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XLineBreakpoint.java (file id 24336105277): read, the interface states no threading rule
  int getLine();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XLineBreakpoint.java (file id 24336105277): read, the interface states no threading rule
  String getFileUrl();
  String getPresentableFilePath();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XLineBreakpoint.java (file id 24336105277): read, the interface states no threading rule
  @Override @NotNull XLineBreakpointType<P> getType();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XLineBreakpoint.java (file id 24336105277): read, the interface states no threading rule
  boolean isTemporary();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XLineBreakpoint.java (file id 24336105277): read, the interface states no threading rule
  void setTemporary(boolean temporary);
}
