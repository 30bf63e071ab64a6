package com.intellij.xdebugger.breakpoints;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XLineBreakpoint.java
public interface XLineBreakpoint<P extends XBreakpointProperties> extends XBreakpoint<P> {
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XLineBreakpoint.java: a getter/value call with no threading rule known (unverified)
  int getLine();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XLineBreakpoint.java: a getter/value call with no threading rule known (unverified)
  String getFileUrl();
  String getPresentableFilePath();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XLineBreakpoint.java: a getter/value call with no threading rule known (unverified)
  @Override @NotNull XLineBreakpointType<P> getType();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XLineBreakpoint.java: a getter/value call with no threading rule known (unverified)
  boolean isTemporary();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XLineBreakpoint.java: a getter/value call with no threading rule known (unverified)
  void setTemporary(boolean temporary);
}
