package com.intellij.xdebugger;

import com.intellij.execution.process.ProcessHandler;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/XDebugProcess.java
public abstract class XDebugProcess {
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XDebugProcess.java (file id 10610143090 @02f95454805b98550a9a28bdaa677ad18d74f399): read, final getter of the constructor's session, no rule
  public final @NotNull XDebugSession getSession() { return mySession; }
  // As the real one: the session passed to the constructor.
  private final XDebugSession mySession;
  protected XDebugProcess(@NotNull XDebugSession session) { mySession = session; }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XDebugProcess.java (file id 10610143090 @02f95454805b98550a9a28bdaa677ad18d74f399): read, final, lazily doGetProcessHandler() or a DefaultDebugProcessHandler, no rule
  public final @NotNull ProcessHandler getProcessHandler() {
    // As the real one: doGetProcessHandler()'s, once (the real one falls back to a DefaultDebugProcessHandler).
    if (myProcessHandler == null) myProcessHandler = doGetProcessHandler();
    if (myProcessHandler == null) throw new UnsupportedOperationException("stub: no process handler");
    return myProcessHandler;
  }
  private ProcessHandler myProcessHandler;
  protected @Nullable ProcessHandler doGetProcessHandler() { return null; }
}
