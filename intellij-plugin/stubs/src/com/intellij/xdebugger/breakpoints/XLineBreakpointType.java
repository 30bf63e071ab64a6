package com.intellij.xdebugger.breakpoints;

import com.intellij.openapi.project.Project;
import com.intellij.openapi.vfs.VirtualFile;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XLineBreakpointType.java
public abstract class XLineBreakpointType<P extends XBreakpointProperties> extends XBreakpointType<XLineBreakpoint<P>, P> {
  protected XLineBreakpointType(@NotNull String id, @NotNull String title) { super(id, title); }
  // threading: read XBreakpointUtil.getAvailableLineBreakpointInfo (XBreakpointUtil.kt, file id 1883511056) asks it under the read lock; Java's implementation reads PSI
  public boolean canPutAt(@NotNull VirtualFile file, int line, @NotNull Project project) { throw new UnsupportedOperationException("stub"); }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XLineBreakpointType.java: a getter/value call with no threading rule known (unverified)
  public int getPriority() { return 0; }
  // threading: read unverified: XLineBreakpointType.java; called beside canPutAt when a breakpoint is toggled (the adapter: inside its write action)
  public abstract @Nullable P createBreakpointProperties(@NotNull VirtualFile file, int line);
}
