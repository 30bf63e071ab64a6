package com.intellij.xdebugger;

import com.intellij.execution.process.ProcessHandler;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/XDebugProcess.java
public abstract class XDebugProcess {
  public final @NotNull XDebugSession getSession() { throw new UnsupportedOperationException("stub"); }
  protected XDebugProcess(@NotNull XDebugSession session) { }
  public final @NotNull ProcessHandler getProcessHandler() { throw new UnsupportedOperationException("stub"); }
}
