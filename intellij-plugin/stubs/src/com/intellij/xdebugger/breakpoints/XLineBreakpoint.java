package com.intellij.xdebugger.breakpoints;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XLineBreakpoint.java
public interface XLineBreakpoint<P extends XBreakpointProperties> extends XBreakpoint<P> {
  int getLine();
  String getFileUrl();
  String getPresentableFilePath();
  @Override @NotNull XLineBreakpointType<P> getType();
  boolean isTemporary();
  void setTemporary(boolean temporary);
}
