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
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XLineBreakpointType.java (file id 29182907 @36bfbe0743d07b99eb5fbeb7eebec2fe2557fe46): read, "Priority is considered when several breakpoint types can be set on the same code line", returns a constant, no rule
  public int getPriority() { return 0; }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XLineBreakpointType.java (file id 29182907 @36bfbe0743d07b99eb5fbeb7eebec2fe2557fe46): read, abstract, no annotation or rule ("return non-null value if a breakpoint should have specific properties"); the platform calls it inside XBreakpointManagerImpl.addLineBreakpoint's write action (file id 1648346929), as the adapter does
  public abstract @Nullable P createBreakpointProperties(@NotNull VirtualFile file, int line);
}
