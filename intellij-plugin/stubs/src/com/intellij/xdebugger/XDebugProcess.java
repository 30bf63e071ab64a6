package com.intellij.xdebugger;

import com.intellij.execution.process.ProcessHandler;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/XDebugProcess.java
public abstract class XDebugProcess {
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XDebugProcess.java: a getter/value call with no threading rule known (unverified)
  public final @NotNull XDebugSession getSession() { throw new UnsupportedOperationException("stub"); }
  protected XDebugProcess(@NotNull XDebugSession session) { }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XDebugProcess.java: a getter/value call with no threading rule known (unverified)
  public final @NotNull ProcessHandler getProcessHandler() { throw new UnsupportedOperationException("stub"); }
}
