package com.intellij.xdebugger;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerManagerListener.java
public interface XDebuggerManagerListener {
  default void processStarted(@NotNull XDebugProcess debugProcess) { }
  default void processStopped(@NotNull XDebugProcess debugProcess) { }
  default void currentSessionChanged(@Nullable XDebugSession previousSession, @Nullable XDebugSession currentSession) { }
}
