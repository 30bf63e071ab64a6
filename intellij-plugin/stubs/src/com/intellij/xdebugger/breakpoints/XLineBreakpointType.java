package com.intellij.xdebugger.breakpoints;

import com.intellij.openapi.project.Project;
import com.intellij.openapi.vfs.VirtualFile;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XLineBreakpointType.java
public abstract class XLineBreakpointType<P extends XBreakpointProperties> extends XBreakpointType<XLineBreakpoint<P>, P> {
  protected XLineBreakpointType(@NotNull String id, @NotNull String title) { super(id, title); }
  public boolean canPutAt(@NotNull VirtualFile file, int line, @NotNull Project project) { throw new UnsupportedOperationException("stub"); }
  public abstract @Nullable P createBreakpointProperties(@NotNull VirtualFile file, int line);
}
